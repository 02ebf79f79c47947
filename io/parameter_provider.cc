#include "io/parameter_provider.h"

#include "io/parameter_file.h"

namespace kiln::io {

ParameterProvider::~ParameterProvider() = default;

const ParameterProvider::Scope* ParameterProvider::FindScope(std::string_view name) const {
  for (const Scope& scope : scopes_) {
    if (scope.name == name) return &scope;
  }
  return nullptr;
}

ParameterProvider::Scope* ParameterProvider::FindScope(std::string_view name) {
  return const_cast<Scope*>(static_cast<const ParameterProvider*>(this)->FindScope(name));
}

Status ParameterProvider::AddFile(std::string_view scope, const std::string& path) {
  KILN_ASSIGN_OR_RETURN(Ref<ParameterIndex> index, OpenParameterFile(path));
  return AddIndex(scope, std::move(index));
}

Status ParameterProvider::AddIndex(std::string_view scope_name, Ref<ParameterIndex> index) {
  if (!index) return InvalidArgumentError("AddIndex: no index for scope '", scope_name, "'");
  Scope* scope = FindScope(scope_name);
  Scope fresh{std::string(scope_name), {}, {}};
  Scope& target = scope ? *scope : fresh;
  for (const ParameterEntry& entry : index->entries()) {
    auto it = target.entries.find(entry.key);
    if (it != target.entries.end()) {
      return AlreadyExistsError("parameter '", entry.key, "' of scope '", scope_name, "' is in both '",
                                it->second->source, "' and '", index->description(), "'");
    }
  }
  for (const ParameterEntry& entry : index->entries()) target.entries.emplace(entry.key, &entry);
  target.indexes.push_back(std::move(index));
  if (!scope) scopes_.push_back(std::move(fresh));
  return OkStatus();
}

std::pair<std::string_view, std::string_view> SplitScopedPath(std::string_view flag) {
  size_t eq = flag.find('=');
  if (eq == std::string_view::npos) return {std::string_view(), flag};
  return {flag.substr(0, eq), flag.substr(eq + 1)};
}

Status ParameterProvider::AddFlag(std::string_view flag_value) {
  auto [scope, path] = SplitScopedPath(flag_value);
  if (path.empty()) {
    return InvalidArgumentError("--parameters='", flag_value, "': expected [SCOPE=]FILE with a file name");
  }
  return AddFile(scope, std::string(path));
}

StatusOr<const ParameterEntry*> ParameterProvider::Find(std::string_view scope_name, std::string_view key) const {
  const Scope* scope = FindScope(scope_name);
  if (!scope) {
    if (scopes_.empty()) return NotFoundError("no parameter scope '", scope_name, "' (no parameter files given)");
    std::string names;
    for (const Scope& s : scopes_) names += StrCat(names.empty() ? "" : ", ", "'", s.name, "'");
    return NotFoundError("no parameter scope '", scope_name, "' (scopes: ", names, ")");
  }
  auto it = scope->entries.find(key);
  if (it != scope->entries.end()) return it->second;
  std::string files;
  for (const Ref<ParameterIndex>& index : scope->indexes) {
    files += StrCat(files.empty() ? "" : ", ", index->description());
  }
  return NotFoundError("no parameter '", key, "' in scope '", scope_name, "' (files: ", files, ")");
}

}  // namespace kiln::io
