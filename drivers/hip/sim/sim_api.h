// Common include of every simulator source: the real HSA headers (Debian's libhsa-runtime-dev,
// ROCm 5.2), compiled so that the HSA functions the simulator defines get default visibility,
// the control header likewise, the last-error plumbing every API entry point uses, and the
// writers of attribute values for the hsa_*_get_info functions.
//
// The library is built with -fvisibility=hidden and a version script (exports.map), so the
// only exported symbols are the HSA functions defined here and the kiln_hsa_sim_* functions.
#pragma once

// hsa.h makes HSA_API __attribute__((visibility("default"))) under HSA_EXPORT, and
// hsa_ext_image.h (included by hsa_ext_amd.h) redefines it under HSA_EXPORT_IMAGES. CMake
// defines both for the whole target, so no include order can lose them; these are fallbacks.
#ifndef HSA_EXPORT
#define HSA_EXPORT 1
#endif
#ifndef HSA_EXPORT_IMAGES
#define HSA_EXPORT_IMAGES 1
#endif
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "drivers/hip/sim/hsa_sim_control.h"

// On the definitions of the kiln_hsa_sim_* control functions (their header is plain C).
#define KILN_HSA_SIM_EXPORT __attribute__((visibility("default")))

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "base/str_cat.h"

namespace kiln::hsa_sim {

// ---- kiln_hsa_sim_last_error ------------------------------------------------------------
// Each thread has one last-error string. Every HSA entry point starts by clearing it (through
// EnterApi in runtime.h, which also records the function name); a failing check sets it with
// the function name in front. Threads of the simulator (packet processors) set it before they
// call the application's queue error callback, so the callback can read the detail.

// Names the API function running on this thread and clears the last error.
void BeginApiCall(const char* function);
// Sets the last error to "function: text".
void SetLastError(std::string text);
// Sets the last error verbatim (no function name in front).
void SetLastErrorRaw(std::string text);
const std::string& LastError();

// Records "function: args..." as this thread's last error and returns `status` (an
// hsa_status_t, or one of the AMD additions, which hsa_ext_amd.h declares as a plain enum).
template <typename Status, typename... Args>
hsa_status_t Fail(Status status, const Args&... args) {
  SetLastError(StrCat(args...));
  return static_cast<hsa_status_t>(status);
}

// The integer an application passed for an enum parameter. Applications pass values outside
// the C enum's range on purpose (the HSA_AMD_* agent attributes through hsa_agent_info_t) or by
// mistake; converting without an enum-typed load keeps UBSan quiet and the check ours.
template <typename Enum>
int64_t RawEnum(const Enum& value) {
  std::underlying_type_t<Enum> raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return static_cast<int64_t>(raw);
}

// "0x1f00" for handles and addresses in messages.
std::string Hex(uint64_t value);
inline std::string Hex(const void* p) { return Hex(reinterpret_cast<uint64_t>(p)); }

// ---- Attribute values ---------------------------------------------------------------------
// `value` is the application's output of an hsa_*_get_info call, sized for the attribute's
// type and not necessarily aligned for it.

// Writes `v` as the attribute's value. Arrays work too: Put<uint32_t[4]>(value, {...}).
template <typename T>
hsa_status_t Put(void* value, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(value, &v, sizeof(v));
  return HSA_STATUS_SUCCESS;
}

// An *_INFO_NAME attribute: exactly NAME_LENGTH (name.size()) bytes, without a NUL, as HSA
// specifies.
inline hsa_status_t PutName(void* value, const std::string& name) {
  std::memcpy(value, name.data(), name.size());
  return HSA_STATUS_SUCCESS;
}

}  // namespace kiln::hsa_sim
