// ParameterProvider: what a session is given to bind parameters ("scope"::"key") to: scopes,
// each of one or more parameter indexes, in the manner of IREE's --parameters=[SCOPE=]FILE.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "io/parameter_index.h"

namespace kiln::io {

// "[SCOPE=]FILE" split at the first '=' (--parameters, --iree-parameter-export): {scope,
// file}, the scope empty when there is no '='. Views into `flag`.
std::pair<std::string_view, std::string_view> SplitScopedPath(std::string_view flag);

class ParameterProvider final : public RefCounted {
 public:
  ParameterProvider() = default;
  // Out of line: the key function, so the vtable (with its type info) is emitted once, in
  // parameter_provider.cc. An inline one would be emitted in every user's translation unit,
  // and one built with -fno-rtti (anything linking the compiler) may be the copy the linker
  // keeps: UBSan's vptr check then sees no type info and fails.
  ~ParameterProvider() override;
  // Opens `path` (any format, io/parameter_file.h) into `scope` ("" is the unnamed scope).
  Status AddFile(std::string_view scope, const std::string& path);
  // Adds `index` to `scope`. A key that another index of the scope has already is
  // ALREADY_EXISTS naming both files; then nothing of `index` is added. The index must not
  // change afterwards (Find hands out pointers into it).
  Status AddIndex(std::string_view scope, Ref<ParameterIndex> index);
  // Parses a --parameters flag value "[SCOPE=]FILE" (split at the first '=') and adds FILE.
  Status AddFlag(std::string_view flag_value);

  // The entry of `key` in `scope`, valid while the provider lives. NOT_FOUND names what is
  // there: "no parameter 'k' in scope 'model' (files: a.irpa, b.safetensors)", or "no
  // parameter scope 'x' (scopes: 'model')".
  StatusOr<const ParameterEntry*> Find(std::string_view scope, std::string_view key) const;
  bool empty() const { return scopes_.empty(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  struct Scope {
    std::string name;
    std::vector<Ref<ParameterIndex>> indexes;
    std::unordered_map<std::string, const ParameterEntry*, Hash, std::equal_to<>> entries;
  };
  Scope* FindScope(std::string_view name);
  const Scope* FindScope(std::string_view name) const;

  std::vector<Scope> scopes_;  // in the order first added
};

}  // namespace kiln::io
