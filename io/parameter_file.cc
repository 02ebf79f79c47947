#include "io/parameter_file.h"

#include <cstdio>
#include <cstring>

namespace kiln::io {
namespace {

bool StartsWith(std::span<const uint8_t> head, std::string_view magic) {
  return head.size() >= magic.size() && std::memcmp(head.data(), magic.data(), magic.size()) == 0;
}

std::string HexBytes(std::span<const uint8_t> head) {
  std::string text;
  for (size_t i = 0; i < head.size() && i < 8; ++i) {
    char buf[4];
    std::snprintf(buf, sizeof(buf), "%s%02x", i ? " " : "", head[i]);
    text += buf;
  }
  return text;
}

}  // namespace

std::string_view ParameterFormatName(ParameterFormat format) {
  switch (format) {
    case ParameterFormat::kIrpa: return "irpa";
    case ParameterFormat::kSafetensors: return "safetensors";
    case ParameterFormat::kSafetensorsIndex: return "safetensors index";
    case ParameterFormat::kGguf: return "gguf";
  }
  return "unknown";
}

StatusOr<ParameterFormat> DetectParameterFormat(std::span<const uint8_t> head) {
  if (head.empty()) return InvalidArgumentError("the file is empty: not a parameter file");
  if (StartsWith(head, "IRPA")) return ParameterFormat::kIrpa;
  if (StartsWith(head, "GGUF")) return ParameterFormat::kGguf;
  // A u64 header length below 2^40 (its top three bytes zero), then '{'. JSON text cannot
  // have zero bytes there.
  if (head.size() >= 9 && head[5] == 0 && head[6] == 0 && head[7] == 0 && head[8] == '{') {
    return ParameterFormat::kSafetensors;
  }
  size_t i = 0;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) ++i;
  if (i < head.size() && head[i] == '{') {
    std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
    if (text.find("\"weight_map\"") != std::string_view::npos) return ParameterFormat::kSafetensorsIndex;
    return InvalidArgumentError("a JSON object without \"weight_map\": not a sharded safetensors index");
  }
  return InvalidArgumentError("not a parameter file: the first bytes (", HexBytes(head),
                              ") are neither the irpa magic 'IRPA', the GGUF magic 'GGUF', a safetensors header "
                              "(u64 length, then '{') nor a JSON safetensors index");
}

StatusOr<Ref<ParameterIndex>> OpenParameterFile(const std::string& path) {
  KILN_ASSIGN_OR_RETURN(Ref<MappedFile> file, MappedFile::Open(path));
  StatusOr<ParameterFormat> format = DetectParameterFormat(file->bytes());
  if (!format.ok()) return Status(format.status().code(), StrCat("'", path, "': ", format.status().message()));
  auto index = MakeRef<ParameterIndex>(path);
  switch (*format) {
    case ParameterFormat::kIrpa: KILN_RETURN_IF_ERROR(ParseIrpa(file, *index)); break;
    case ParameterFormat::kSafetensors: KILN_RETURN_IF_ERROR(ParseSafetensors(file, *index)); break;
    case ParameterFormat::kSafetensorsIndex: KILN_RETURN_IF_ERROR(ParseSafetensorsIndex(file, *index)); break;
    case ParameterFormat::kGguf: KILN_RETURN_IF_ERROR(ParseGguf(file, *index)); break;
  }
  return index;
}

}  // namespace kiln::io
