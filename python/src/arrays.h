// NumPy arrays <-> HAL buffer views.
//
// In: a NumPy array (or anything np.asarray takes) becomes a buffer view of the matching
// element type. A C-contiguous array aligned to its element size is imported without a copy
// where the device's kernels read host memory (the CPU devices): the buffer is read-only
// and keeps the array alive. Other arrays are first made contiguous (one copy), and on
// devices that cannot use host memory the bytes are copied into a device buffer.
//
// Out: a buffer view whose buffer the host can map becomes a NumPy array over the mapped
// memory, no copy; the array keeps the buffer alive. It is writable only when nothing else
// holds the buffer (not an argument passed through, nor a module global's value).
// Otherwise the bytes are copied into a new array.
//
// Element types: bool (i1), int8/uint8 .. int64/uint64 (signless: kiln's i8 .. i64; results
// come back signed), float16, float32, float64, complex64, complex128. Results of types NumPy
// lacks come back as raw bits: bf16 as uint16, the f8 types as uint8, packed sub-byte types
// (i2, i4, f4E2M1FN) as a 1-D uint8 array of their bytes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "base/ref.h"
#include "base/status.h"
#include "hal/buffer_view.h"
#include "hal/device.h"

namespace kiln::python {

// `what` names the value in errors ("argument 1 of 'main'"). Needs the GIL.
StatusOr<Ref<hal::BufferView>> ArrayToBufferView(pybind11::handle value, hal::Device& device, std::string_view what);

// Needs the GIL.
StatusOr<pybind11::object> BufferViewToArray(Ref<hal::BufferView> view);

// The kiln element type of a NumPy dtype ("float32" -> "f32"), for signatures and errors.
StatusOr<hal::ElementType> ElementTypeOfDtype(const pybind11::dtype& dtype);

}  // namespace kiln::python
