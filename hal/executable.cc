#include "hal/executable.h"

namespace kiln::hal {

StatusOr<uint32_t> Executable::LookupExport(std::string_view name) const {
  std::string names;
  for (size_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].name == name) return static_cast<uint32_t>(i);
    names += StrCat(i ? ", " : "", exports_[i].name);
  }
  return NotFoundError("executable '", debug_name_, "' has no export '", name, "'; it exports: ", names);
}

}  // namespace kiln::hal
