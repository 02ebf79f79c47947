/* kiln's embedding API: load a .kiln module, call its functions on a device, move tensors
 * in and out. Plain C (C11), opaque handles, no exceptions.
 *
 * Errors: every function that can fail returns a kiln_status_t*; NULL means success. A
 * non-NULL status is owned by the caller and freed with kiln_status_free; its message is
 * the whole context chain ("while calling 'main'; in dispatch main_dispatch_0: ...").
 * Out-parameters are written only on success.
 *
 * Lifetimes: every handle is created with a reference count of one and freed when the
 * last kiln_*_release drops it. A handle keeps alive what it was made from (a session
 * keeps its device and module; a buffer view keeps its memory), so handles may be
 * released in any order. Pointers returned by accessors (messages, shapes, names) stay
 * valid as long as the handle they came from. Handles may be used from several threads,
 * except that calls on one session must not overlap.
 *
 * Link: find_package(kiln) and target_link_libraries(app PRIVATE kiln::kiln).
 */
#ifndef KILN_KILN_H_
#define KILN_KILN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_API_VERSION 1

typedef struct kiln_status_t kiln_status_t;
typedef struct kiln_instance_t kiln_instance_t;
typedef struct kiln_device_t kiln_device_t;
typedef struct kiln_module_t kiln_module_t;
typedef struct kiln_session_t kiln_session_t;
typedef struct kiln_parameters_t kiln_parameters_t;
typedef struct kiln_buffer_view_t kiln_buffer_view_t;

/* Status codes, as in the runtime (absl-style canonical codes). */
typedef enum kiln_status_code_t {
  KILN_STATUS_OK = 0,
  KILN_STATUS_CANCELLED = 1,
  KILN_STATUS_UNKNOWN = 2,
  KILN_STATUS_INVALID_ARGUMENT = 3,
  KILN_STATUS_DEADLINE_EXCEEDED = 4,
  KILN_STATUS_NOT_FOUND = 5,
  KILN_STATUS_ALREADY_EXISTS = 6,
  KILN_STATUS_PERMISSION_DENIED = 7,
  KILN_STATUS_RESOURCE_EXHAUSTED = 8,
  KILN_STATUS_FAILED_PRECONDITION = 9,
  KILN_STATUS_ABORTED = 10,
  KILN_STATUS_OUT_OF_RANGE = 11,
  KILN_STATUS_UNIMPLEMENTED = 12,
  KILN_STATUS_INTERNAL = 13,
  KILN_STATUS_UNAVAILABLE = 14,
  KILN_STATUS_DATA_LOSS = 15,
} kiln_status_code_t;

kiln_status_code_t kiln_status_code(const kiln_status_t* status);
/* NUL-terminated; valid until kiln_status_free(status). */
const char* kiln_status_message(const kiln_status_t* status);
void kiln_status_free(kiln_status_t* status);

/* The process's drivers ("cpu", "cpu-sync"). */
kiln_status_t* kiln_instance_create(kiln_instance_t** out_instance);
void kiln_instance_release(kiln_instance_t* instance);

/* A device of the driver `name`. `name` need only live for the call. */
kiln_status_t* kiln_device_create(kiln_instance_t* instance, const char* name, kiln_device_t** out_device);
void kiln_device_release(kiln_device_t* device);

/* A module from a .kiln file (mapped read-only) or from memory (`data` is copied; the
 * caller may free it when the call returns). The module is verified before it is returned. */
kiln_status_t* kiln_module_load_file(kiln_instance_t* instance, const char* path, kiln_module_t** out_module);
kiln_status_t* kiln_module_load_memory(kiln_instance_t* instance, const void* data, size_t size,
                                       kiln_module_t** out_module);
void kiln_module_release(kiln_module_t* module);
/* Exported functions: their count, and the name of function `index` (NULL when out of range). */
size_t kiln_module_function_count(const kiln_module_t* module);
const char* kiln_module_function_name(const kiln_module_t* module, size_t index);

/* Parameter files for the globals a module binds to parameters
 * (#stream.parameter.named<"SCOPE"::"KEY">), as kiln-run's --parameters=[SCOPE=]FILE: an empty
 * set, then files added to scopes ("" or NULL is the unnamed scope). A file is an IREE .irpa,
 * safetensors (or a sharded model.safetensors.index.json) or GGUF, told apart by its contents;
 * it is memory-mapped while the set (or a session using it) lives. `scope` and `path` need
 * only live for the call. A set may be shared by several sessions; do not add files to it
 * while a session is being created from it. */
kiln_status_t* kiln_parameters_create(kiln_parameters_t** out_parameters);
kiln_status_t* kiln_parameters_add_file(kiln_parameters_t* parameters, const char* scope, const char* path);
void kiln_parameters_release(kiln_parameters_t* parameters);

/* `module` linked on `device`; holds references to both. Its globals are initialized (constants,
 * util.initializer bodies) before it returns; each session has its own. */
kiln_status_t* kiln_session_create(kiln_device_t* device, kiln_module_t* module, kiln_session_t** out_session);
/* The same with `parameters` (may be NULL) filling the globals bound to parameters; the session
 * holds a reference to the set. On the CPU devices the mapped files are used in place. */
kiln_status_t* kiln_session_create_with_parameters(kiln_device_t* device, kiln_module_t* module,
                                                   kiln_parameters_t* parameters, kiln_session_t** out_session);
void kiln_session_release(kiln_session_t* session);

/* Element types of tensors (the MLIR names in comments). */
typedef enum kiln_element_type_t {
  KILN_ELEMENT_TYPE_I1 = 0,   /* i1, one byte per element */
  KILN_ELEMENT_TYPE_I2 = 1,   /* i2, packed: four per byte, the first in the low bits */
  KILN_ELEMENT_TYPE_I4 = 2,   /* i4, packed: two per byte, the first in the low bits */
  KILN_ELEMENT_TYPE_I8 = 3,   /* i8 */
  KILN_ELEMENT_TYPE_I16 = 4,  /* i16 */
  KILN_ELEMENT_TYPE_I32 = 5,  /* i32 */
  KILN_ELEMENT_TYPE_I64 = 6,  /* i64 */
  KILN_ELEMENT_TYPE_F16 = 7,  /* f16 */
  KILN_ELEMENT_TYPE_BF16 = 8, /* bf16 */
  KILN_ELEMENT_TYPE_F32 = 9,  /* f32 */
  KILN_ELEMENT_TYPE_F64 = 10, /* f64 */
  KILN_ELEMENT_TYPE_F8E4M3FN = 11,
  KILN_ELEMENT_TYPE_F8E4M3FNUZ = 12,
  KILN_ELEMENT_TYPE_F8E5M2 = 13,
  KILN_ELEMENT_TYPE_F8E5M2FNUZ = 14,
  KILN_ELEMENT_TYPE_F8E8M0FNU = 15,
  KILN_ELEMENT_TYPE_F4E2M1FN = 16, /* packed like i4 */
} kiln_element_type_t;

/* A dense row-major tensor in device memory the host can read, holding a copy of `data`
 * (`data_size` must equal the shape's byte size, rounded up to a whole byte for packed
 * sub-byte elements). `shape` (of `rank` dims) need only live
 * for the call. */
kiln_status_t* kiln_buffer_view_create(kiln_device_t* device, kiln_element_type_t element_type, const int64_t* shape,
                                       size_t rank, const void* data, size_t data_size,
                                       kiln_buffer_view_t** out_view);
void kiln_buffer_view_retain(kiln_buffer_view_t* view);
void kiln_buffer_view_release(kiln_buffer_view_t* view);
kiln_element_type_t kiln_buffer_view_element_type(const kiln_buffer_view_t* view);
size_t kiln_buffer_view_rank(const kiln_buffer_view_t* view);
/* `rank` dims; valid while `view` lives. */
const int64_t* kiln_buffer_view_shape(const kiln_buffer_view_t* view);
size_t kiln_buffer_view_byte_length(const kiln_buffer_view_t* view);
/* Copies the tensor's bytes into `dst` (`dst_size` must be at least the byte length). */
kiln_status_t* kiln_buffer_view_read(const kiln_buffer_view_t* view, void* dst, size_t dst_size);

/* Function arguments and results. */
typedef enum kiln_value_kind_t {
  KILN_VALUE_I32 = 0,
  KILN_VALUE_I64 = 1,
  KILN_VALUE_F32 = 2,
  KILN_VALUE_F64 = 3,
  KILN_VALUE_BUFFER_VIEW = 4,
} kiln_value_kind_t;

typedef struct kiln_value_t {
  kiln_value_kind_t kind;
  union {
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    kiln_buffer_view_t* buffer_view;
  };
} kiln_value_t;

/* Calls `function` with `args` (buffer views are borrowed for the call). On success
 * writes up to `result_capacity` results and their count to *out_result_count; a buffer
 * view result is a new reference the caller releases. Too small a capacity is an
 * OUT_OF_RANGE error naming the count needed, and no results are written. */
kiln_status_t* kiln_session_call(kiln_session_t* session, const char* function, const kiln_value_t* args,
                                 size_t arg_count, kiln_value_t* results, size_t result_capacity,
                                 size_t* out_result_count);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_KILN_H_
