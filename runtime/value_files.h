// Function arguments and results in files, in iree-run-module's syntax:
//   --input=@x.npy                 the first array of a .npy file (runtime/npy.h)
//   --input=2x3xbf16=@x.npy        the same, checked against (and naming a void dtype's) type
//   --input=2x3xf32=@x.bin         raw little-endian bytes, exactly the shape's size
//   --output=-                     print the result as text (the default)
//   --output=@y.npy / +y.npy       write the result to a .npy file / append to it
//   --output=@y.bin                write the result's raw bytes
#pragma once

#include <string_view>

#include "base/status.h"
#include "hal/allocator.h"
#include "hal/buffer_view.h"
#include "vm/value.h"

namespace kiln::runtime {

// A host-visible buffer view of `type` and `dims`, uninitialised.
StatusOr<Ref<hal::BufferView>> AllocateHostBufferView(hal::Allocator& allocator, hal::ElementType type,
                                                     std::span<const int64_t> dims);
// A host-visible buffer view of `type` and `dims` holding `bytes` (dense storage of
// exactly the shape's size).
StatusOr<Ref<hal::BufferView>> CreateHostBufferView(hal::Allocator& allocator, hal::ElementType type,
                                                   std::span<const int64_t> dims, std::span<const uint8_t> bytes);

// Whether `text` refers to a file ("@x.npy", "2x3xf32=@x.bin").
bool IsFileValue(std::string_view text);
// Reads the buffer view `text` refers to, allocating it from `allocator`.
StatusOr<Ref<hal::BufferView>> ReadBufferViewFile(std::string_view text, hal::Allocator& allocator);

// Writes `value` where `spec` says ("-" prints it as text to stdout).
Status WriteOutput(std::string_view spec, const vm::Value& value);

}  // namespace kiln::runtime
