/* Executables that load but break the ABI contract in one way each, selected at build
 * time by BAD_KIND. Each must be rejected with a precise error. */
#include <stddef.h>
#include <stdint.h>

#include "hal/abi/executable_abi.h"

#define EXPORT __attribute__((visibility("default")))

__attribute__((unused)) static int noop(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  (void)d;
  (void)w;
  return 0;
}

#if BAD_KIND == 1 /* only offers a future ABI version */
EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  (void)abi_version;
  return NULL;
}
#elif BAD_KIND == 2 /* claims another version than the one asked for */
static const kiln_export_v2_t kExports[] = {{"noop", noop, 0, 0, {1, 1, 1}, 0, NULL, 0, NULL}};
static const kiln_executable_library_v2_t kLibrary = {7, 1, kExports};
EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  (void)abi_version;
  return &kLibrary;
}
#elif BAD_KIND == 3 /* no query function at all */
EXPORT int some_other_symbol(void) { return noop(NULL, NULL); }
#elif BAD_KIND == 4 /* an export without an entry point */
static const kiln_export_v2_t kExports[] = {{"noop", noop, 0, 0, {1, 1, 1}, 0, NULL, 0, NULL},
                                            {"broken", NULL, 0, 0, {1, 1, 1}, 0, NULL, 0, NULL}};
static const kiln_executable_library_v2_t kLibrary = {KILN_EXECUTABLE_ABI_VERSION, 2, kExports};
EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  (void)abi_version;
  return &kLibrary;
}
#elif BAD_KIND == 5 /* asks for more workgroup-local memory than a device has */
static const kiln_export_v2_t kExports[] = {{"greedy", noop, 0, 0, {1, 1, 1}, 64u << 20, NULL, 0, NULL}};
static const kiln_executable_library_v2_t kLibrary = {KILN_EXECUTABLE_ABI_VERSION, 1, kExports};
EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  (void)abi_version;
  return &kLibrary;
}
#elif BAD_KIND == 6 /* declares index check sites without a table */
static const kiln_export_v2_t kExports[] = {{"checked", noop, 0, 0, {1, 1, 1}, 0, NULL, 2, NULL}};
static const kiln_executable_library_v2_t kLibrary = {KILN_EXECUTABLE_ABI_VERSION, 1, kExports};
EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  (void)abi_version;
  return &kLibrary;
}
#elif BAD_KIND == 7 /* needs processor state no runtime knows */
static const kiln_export_v2_t kExports[] = {{"noop", noop, 0, 0, {1, 1, 1}, 0, NULL, 0, NULL}};
static const kiln_executable_library_v2_t kLibrary = {KILN_EXECUTABLE_ABI_VERSION, 1, kExports};
EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  (void)abi_version;
  return &kLibrary;
}
EXPORT const uint32_t kiln_executable_needs = 0x80000000u;
#elif BAD_KIND == 8 /* not bad: needs AMX tile registers, which the runtime must obtain (or refuse without them) */
static const kiln_export_v2_t kExports[] = {{"noop", noop, 0, 0, {1, 1, 1}, 0, NULL, 0, NULL}};
static const kiln_executable_library_v2_t kLibrary = {KILN_EXECUTABLE_ABI_VERSION, 1, kExports};
EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  (void)abi_version;
  return &kLibrary;
}
EXPORT const uint32_t kiln_executable_needs = KILN_EXECUTABLE_NEEDS_AMX_TILES;
#else
#error "BAD_KIND must be 1..8"
#endif
