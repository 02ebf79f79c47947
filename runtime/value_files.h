// Function arguments and results in files, in iree-run-module's syntax:
//   --input=@x.npy                 the first array of a .npy file (runtime/npy.h)
//   --input=+x.npy                 the next array of a file an earlier input read from
//   --input=*x.npy                 every remaining array of the file, one input each
//   --input=2x3xbf16=@x.npy        an array checked against (and naming a void dtype's) type
//   --input=2x3xf32=@x.bin         raw little-endian bytes from the start of the file
//   --input=2x3xf32=+x.bin         raw bytes from where the previous input of x.bin stopped;
//                                  all the inputs of a raw file together read all of it
//   --output=                      (empty) ignore the result
//   --output=-                     print the result as text (the default)
//   --output=@y.npy / +y.npy       write the result to a .npy file / append to it; a scalar
//                                  is a 0-d array, a null reference an empty int8 array
//   --output=@y.bin / +y.bin       write / append the result's raw bytes
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

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

// Whether `text` refers to a file ("@x.npy", "+x.npy", "*x.npy", "2x3xf32=@x.bin").
bool IsFileValue(std::string_view text);

// Reads the buffer views file values refer to, keeping each file's position across calls
// so that "+x.npy" continues where the last value read from x.npy stopped.
class FileValueReader {
 public:
  // One buffer view, or for "*x.npy" every remaining array (maybe none), allocated from
  // `allocator`.
  StatusOr<std::vector<Ref<hal::BufferView>>> Read(std::string_view text, hal::Allocator& allocator);
  // Fails naming a raw file whose inputs did not read all of it (a wrong shape, most likely).
  Status Finish() const;

 private:
  struct Cursor {
    size_t npy_arrays = 0;  // arrays read from the start
    size_t raw_bytes = 0;   // bytes read from the start
    bool raw = false;
  };
  std::map<std::string, Cursor> cursors_;
};

// Writes `value` where `spec` says, a file ("@y.npy", "+y.bin"); "" and "-" are the
// caller's (ignore, print).
Status WriteOutput(std::string_view spec, const vm::Value& value);

}  // namespace kiln::runtime
