#include "hal/executable.h"

namespace kiln::hal {

std::string DescribeWorkgroup(uint64_t linear, const std::array<uint32_t, 3>& count) {
  uint64_t count_x = count[0], count_xy = count_x * count[1];
  return StrCat("workgroup (", linear % count_x, ", ", (linear / count_x) % count[1], ", ", linear / count_xy, ")");
}

std::optional<Status> IndexCheckFailure(const ExportInfo& info, int64_t site, int64_t index, int64_t bound,
                                        std::string_view workgroup) {
  const std::vector<std::string>& sites = info.index_check_sites;
  if (site < 1 || static_cast<uint64_t>(site) > sites.size()) return std::nullopt;
  return OutOfRangeError("index ", index, " is out of range [0, ", bound, ") for ", sites[site - 1], ", in ",
                         workgroup);
}

StatusOr<uint32_t> Executable::LookupExport(std::string_view name) const {
  std::string names;
  for (size_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].name == name) return static_cast<uint32_t>(i);
    names += StrCat(i ? ", " : "", exports_[i].name);
  }
  return NotFoundError("executable '", debug_name_, "' has no export '", name, "'; it exports: ", names);
}

}  // namespace kiln::hal
