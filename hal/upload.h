// Filling new buffers from the host, on any device: written through a mapping where the
// buffer is host-visible and mappable, else staged through a host-visible buffer and a
// queue copy (devices with memory of their own). Both wait until the contents are there.
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"
#include "hal/allocator.h"
#include "hal/device.h"

namespace kiln::hal {

// A new buffer of `params` (plus TRANSFER_TARGET usage) holding `bytes`.
StatusOr<Ref<Buffer>> UploadToNewBuffer(Device& device, BufferParams params, std::span<const uint8_t> bytes);

// A new buffer of `params` of `length` bytes, each run of pattern.size() bytes equal to
// `pattern` (1 to 16 bytes; `length` a multiple of its size).
StatusOr<Ref<Buffer>> FillNewBuffer(Device& device, BufferParams params, size_t length,
                                    std::span<const uint8_t> pattern);

}  // namespace kiln::hal
