#include "vm/module.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "vm/module_generated.h"
#include "vm/verifier.h"

namespace kiln::vm {

// Module bytes: an aligned heap copy or a read-only file mapping.
class Module::Storage {
 public:
  static std::unique_ptr<Storage> Copy(std::span<const uint8_t> bytes) {
    auto s = std::unique_ptr<Storage>(new Storage());
    size_t size = bytes.size();
    s->data_ = static_cast<uint8_t*>(std::aligned_alloc(64, (std::max<size_t>(size, 1) + 63) / 64 * 64));
    if (!s->data_) return nullptr;
    if (size) std::memcpy(s->data_, bytes.data(), size);
    s->size_ = size;
    return s;
  }
  static StatusOr<std::unique_ptr<Storage>> Map(const std::string& path) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NotFoundError("cannot open module file '", path, "': ", std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      return InvalidArgumentError("'", path, "' is not a regular file");
    }
    auto s = std::unique_ptr<Storage>(new Storage());
    s->size_ = static_cast<size_t>(st.st_size);
    if (s->size_ > 0) {
      void* p = mmap(nullptr, s->size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        close(fd);
        return UnavailableError("cannot map module file '", path, "': ", std::strerror(errno));
      }
      s->data_ = static_cast<uint8_t*>(p);
      s->mapped_ = true;
    }
    close(fd);
    return s;
  }
  ~Storage() {
    if (mapped_) {
      munmap(data_, size_);
    } else {
      std::free(data_);
    }
  }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  Storage() = default;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

struct Module::RodataCache {
  std::mutex mutex;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> decompressed;  // by segment ordinal
};

StatusOr<Ref<Module>> Module::LoadFromMemory(std::span<const uint8_t> bytes, std::string_view debug_name) {
  std::unique_ptr<Storage> storage = Storage::Copy(bytes);
  if (!storage) return ResourceExhaustedError("out of memory copying a module of ", bytes.size(), " bytes");
  Ref<Module> module(new Module(std::move(storage), std::string(debug_name)));
  KILN_RETURN_IF_ERROR(module->Initialize(), "while loading module '", debug_name, "'");
  return module;
}

StatusOr<Ref<Module>> Module::LoadFromFile(const std::string& path) {
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<Storage> storage, Storage::Map(path), "while loading module '", path, "'");
  Ref<Module> module(new Module(std::move(storage), path));
  KILN_RETURN_IF_ERROR(module->Initialize(), "while loading module '", path, "'");
  return module;
}

Module::Module(std::unique_ptr<Storage> storage, std::string debug_name)
    : storage_(std::move(storage)), debug_name_(std::move(debug_name)), rodata_cache_(new RodataCache()) {}

Module::~Module() = default;

Status Module::Initialize() {
  std::span<const uint8_t> bytes = storage_->bytes();
  KILN_RETURN_IF_ERROR(VerifyModuleBuffer(bytes));
  def_ = fb::GetModule(bytes.data());
  name_ = def_->name()->string_view();
  KILN_RETURN_IF_ERROR(VerifyModuleStructure(*def_));

  if (def_->imports()) {
    for (const fb::ImportDef* import : *def_->imports()) {
      KILN_ASSIGN_OR_RETURN(Signature sig, ParseSignature(import->signature()->string_view()));
      imports_.push_back({import->name()->string_view(), import->signature()->string_view(), std::move(sig)});
    }
  }
  if (def_->functions()) {
    const uint8_t* code = def_->bytecode() ? def_->bytecode()->data() : nullptr;
    for (const fb::FunctionDef* f : *def_->functions()) {
      FunctionInfo info;
      info.name = f->name()->string_view();
      KILN_ASSIGN_OR_RETURN(info.signature, ParseSignature(f->signature()->string_view()), "in function '",
                            info.name, "'");
      info.code = {code + f->bytecode_offset(), f->bytecode_length()};
      info.i32_register_count = f->i32_register_count();
      info.ref_register_count = f->ref_register_count();
      if (f->block_offsets()) info.block_offsets.assign(f->block_offsets()->begin(), f->block_offsets()->end());
      functions_.push_back(std::move(info));
    }
  }
  if (def_->exports()) {
    for (const fb::ExportDef* e : *def_->exports()) {
      ExportInfo info{e->name()->string_view(), e->function_ordinal(), {}};
      if (e->attrs()) {
        for (const fb::Attr* a : *e->attrs()) info.attrs.emplace_back(a->key()->string_view(), a->value()->string_view());
      }
      exports_.push_back(std::move(info));
    }
  }
  global_i32_slots_ = def_->global_i32_slots();
  global_ref_count_ = def_->global_ref_count();
  if (def_->initializer_function() >= 0) initializer_ = static_cast<uint32_t>(def_->initializer_function());
  rodata_cache_->decompressed.resize(def_->rodata() ? def_->rodata()->size() : 0);
  for (uint32_t i = 0; i < functions_.size(); ++i) {
    KILN_RETURN_IF_ERROR(VerifyFunction(*this, i), "in function '", functions_[i].name, "'");
  }
  return OkStatus();
}

StatusOr<uint32_t> Module::LookupExport(std::string_view name) const {
  for (const ExportInfo& e : exports_) {
    if (e.name == name) return e.function_ordinal;
  }
  std::string known;
  for (const ExportInfo& e : exports_) known += StrCat(known.empty() ? "" : ", ", e.name);
  return NotFoundError("module '", name_, "' has no exported function '", name, "'; it exports: ",
                       known.empty() ? "nothing" : known);
}

std::string_view Module::String(uint32_t ordinal) const { return def_->strings()->Get(ordinal)->string_view(); }

StatusOr<std::span<const uint8_t>> Module::Rodata(uint32_t ordinal) const {
  const fb::RodataSegment* segment = def_->rodata()->Get(ordinal);
  std::span<const uint8_t> data;
  if (segment->data()) data = {segment->data()->data(), segment->data()->size()};
  if (segment->compression() == fb::Compression::None) return data;
  std::lock_guard lock(rodata_cache_->mutex);
  auto& slot = rodata_cache_->decompressed[ordinal];
  if (!slot) {
    auto out = std::make_unique<std::vector<uint8_t>>(segment->uncompressed_size());
    size_t n = ZSTD_decompress(out->data(), out->size(), data.data(), data.size());
    if (ZSTD_isError(n) || n != out->size()) {
      return DataLossError("rodata segment ", ordinal, " does not decompress to its declared ",
                           segment->uncompressed_size(), " bytes",
                           ZSTD_isError(n) ? StrCat(": ", ZSTD_getErrorName(n)) : std::string());
    }
    slot = std::move(out);
  }
  return std::span<const uint8_t>(*slot);
}

std::string_view Module::SourceLocation(uint32_t function_ordinal, uint32_t offset) const {
  const fb::FunctionDef* f = def_->functions()->Get(function_ordinal);
  std::string_view best;
  if (!f->locations()) return best;
  for (const fb::SourceLocation* loc : *f->locations()) {
    if (loc->offset() <= offset) best = loc->location()->string_view();
  }
  return best;
}

}  // namespace kiln::vm
