// Executables: loaded device code with reflection over its exports.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref.h"
#include "base/status.h"

namespace kiln::hal {

// Executable formats. The CPU drivers load "elf-x86_64" (hal/abi/executable_abi.h).
inline constexpr std::string_view kExecutableFormatElfX86_64 = "elf-x86_64";
// The hip driver loads "amdgpu-hsaco": the container of hal/abi/gpu_executable.fbs.
inline constexpr std::string_view kExecutableFormatAmdgpu = "amdgpu-hsaco";

struct ExportInfo {
  std::string name;
  uint32_t binding_count = 0;
  uint32_t constant_count = 0;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  uint32_t local_memory_bytes = 0;
  std::string source_location;  // may be empty
  // What each index check compiled into the export guards ("the slice offset into
  // dimension 0 of the source of iree_linalg_ext.gather (f.mlir:3:8)"); empty without checks.
  std::vector<std::string> index_check_sites;
};

// "workgroup (x, y, z)" for the workgroup of linear id `linear` (x fastest, then y, then z)
// in a grid of `count` workgroups.
std::string DescribeWorkgroup(uint64_t linear, const std::array<uint32_t, 3>& count);

// The failure of a dispatch of `info` whose workgroup `workgroup` (DescribeWorkgroup) filled
// its index check record (hal/abi/executable_abi.h) with `site`, `index` and `bound`:
// OUT_OF_RANGE "index I is out of range [0, B) for SITE, in workgroup (x, y, z)". Nullopt when
// `site` names none of the export's check sites: the record is garbage (a device error).
std::optional<Status> IndexCheckFailure(const ExportInfo& info, int64_t site, int64_t index, int64_t bound,
                                        std::string_view workgroup);

struct ExecutableParams {
  std::string_view format;
  std::span<const uint8_t> data;  // copied or consumed during creation; need not outlive it
  std::string_view debug_name;    // used in errors ("while loading executable <name>")
};

class Executable : public RefCounted {
 public:
  std::string_view debug_name() const { return debug_name_; }
  std::span<const ExportInfo> exports() const { return exports_; }
  StatusOr<uint32_t> LookupExport(std::string_view name) const;
  // Identity of the device that created it; command buffers check it.
  const void* device_tag() const { return device_tag_; }

 protected:
  Executable(const void* device_tag, std::string debug_name, std::vector<ExportInfo> exports)
      : device_tag_(device_tag), debug_name_(std::move(debug_name)), exports_(std::move(exports)) {}

 private:
  const void* device_tag_;
  std::string debug_name_;
  std::vector<ExportInfo> exports_;
};

}  // namespace kiln::hal
