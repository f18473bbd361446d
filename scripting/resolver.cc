#include "scripting/resolver.h"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "scripting/ruleset.h"

namespace fs = std::filesystem;

namespace canasta {
namespace {

bool IsBuiltin(const std::string& name) {
  for (const std::string& b : BuiltinRulesetNames())
    if (b == name) return true;
  return false;
}

std::string JoinBuiltins() {
  std::string out;
  for (const std::string& b : BuiltinRulesetNames()) out += (out.empty() ? "" : ", ") + b;
  return out;
}

// Loads (or finds in the cache) the ruleset at `key`, confined to `roots`
// when not empty. The cache is keyed by the canonical file, so a file loaded
// unconfined by the user is not reused for a log without the check.
bool Load(const std::string& key, const std::vector<std::string>& roots, RulesetChoice* out,
          std::string* error, LuaError* lua_error = nullptr) {
  static std::mutex mu;
  static std::map<std::pair<std::string, std::vector<std::string>>, std::shared_ptr<const Ruleset>>
      cache;
  std::error_code ec;
  std::string id = IsBuiltin(key) ? key : fs::weakly_canonical(key, ec).string();
  if (ec) id = key;
  auto cache_key = std::make_pair(id, roots);
  std::shared_ptr<const Ruleset> ruleset;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(cache_key);
    if (it != cache.end()) ruleset = it->second;
  }
  if (!ruleset) {
    LoadOptions options;
    options.confine_to = roots;
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(key, options);
    if (auto* e = std::get_if<LuaError>(&loaded)) {
      if (lua_error != nullptr) *lua_error = *e;
      *error = e->ToString();
      if (!e->traceback.empty()) *error += "\n" + e->traceback;
      return false;
    }
    ruleset = std::make_shared<const Ruleset>(std::move(std::get<Ruleset>(loaded)));
    std::lock_guard<std::mutex> lock(mu);
    cache.emplace(cache_key, ruleset);
  }
  *out = ruleset->Choose();
  return true;
}

constexpr char kHowToAllow[] =
    "pass --rules FILE to audit with it, or --allow-ruleset-path DIR to let logs name "
    "rulesets in DIR";

}  // namespace

bool ResolveUserRuleset(const std::string& name_or_path, RulesetChoice* out, std::string* error) {
  return Load(name_or_path.empty() ? "classic" : name_or_path, {}, out, error);
}

bool ResolveLogRuleset(const std::string& name, const std::string& log_path,
                       const RulesetPolicy& policy, RulesetChoice* out, std::string* error) {
  const std::string key = name.empty() ? "classic" : name;
  if (IsBuiltin(key)) return Load(key, {}, out, error);
  const fs::path named(key);
  auto refuse = [&](const std::string& why) {
    *error = "a log may name only a built-in ruleset (" + JoinBuiltins() +
             ") or a .lua file beside it or below its folder; " + why + "; " + kHowToAllow;
    return false;
  };
  if (named.extension() != ".lua") {
    *error = "no ruleset \"" + key + "\": not a built-in (" + JoinBuiltins() +
             "), and a file a log names must end in .lua; " + kHowToAllow;
    return false;
  }
  for (const fs::path& part : named)
    if (part == "..") return refuse("\"" + key + "\" goes up with \"..\"");
  std::vector<std::string> roots = policy.allowed_dirs;
  fs::path candidate;
  if (named.is_absolute()) {
    if (roots.empty()) return refuse("\"" + key + "\" is an absolute path");
    candidate = named;
  } else {
    if (log_path.empty() && roots.empty()) return refuse("this log has no folder (standard input)");
    if (!log_path.empty()) {
      fs::path dir = fs::path(log_path).parent_path();
      if (dir.empty()) dir = ".";
      roots.push_back(dir.string());
      candidate = dir / named;
    } else {
      candidate = fs::path(roots.front()) / named;
    }
  }
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(candidate, ec);
  bool inside = false;
  for (const std::string& root : roots) {
    fs::path r = fs::weakly_canonical(root, ec);
    if (ec) continue;
    auto [ri, pi] = std::mismatch(r.begin(), r.end(), canonical.begin(), canonical.end());
    (void)pi;
    if (ri == r.end()) inside = true;
  }
  if (!inside) return refuse("\"" + key + "\" leads outside (a symbolic link)");
  if (!fs::is_regular_file(candidate, ec)) {
    *error = "no ruleset \"" + key + "\": not a built-in (" + JoinBuiltins() + ") and no file " +
             candidate.string() + "; " + kHowToAllow;
    return false;
  }
  LuaError lua_error;
  if (Load(candidate.string(), roots, out, error, &lua_error)) return true;
  // The user did not name this file: say where it failed, never what it holds
  // (Lua's messages quote the source). Where it was looked for, and a file
  // refused unopened, are the resolver's own words and stay.
  if (lua_error.message.rfind("no ruleset \"", 0) != 0 &&
      lua_error.message.find("it was not opened") == std::string::npos) {
    std::string where = lua_error.file;
    if (lua_error.line > 0) where += ":" + std::to_string(lua_error.line);
    *error = "ruleset file " + candidate.string() + " cannot be loaded (the error is at " + where +
             "); audit with --rules " + candidate.string() + " to see it";
  }
  return false;
}

bool ResolveRuleset(const std::string& name_or_path, const std::string& relative_to,
                    RulesetChoice* out, std::string* error) {
  return ResolveLogRuleset(name_or_path, relative_to, RulesetPolicy{}, out, error);
}

}  // namespace canasta
