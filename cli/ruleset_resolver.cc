// Finds rulesets for the replay: the built-ins and Lua files, through the
// scripting component. Loaded rulesets are cached (they are immutable); each
// game gets its own hooks, since a Lua state serves one thread.
#include <filesystem>
#include <map>
#include <mutex>

#include "cli/commands.h"
#include "scripting/ruleset.h"

namespace fs = std::filesystem;

namespace canasta {
namespace {

bool IsBuiltin(const std::string& name) {
  for (const std::string& b : BuiltinRulesetNames())
    if (b == name) return true;
  return false;
}

}  // namespace

bool ResolveRuleset(const std::string& name_or_path, const std::string& relative_to,
                    RulesetChoice* out, std::string* error) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const Ruleset>> cache;
  std::string key = name_or_path.empty() ? "classic" : name_or_path;
  // A path in a log is relative to the log's directory.
  if (!IsBuiltin(key) && !relative_to.empty() && fs::path(key).is_relative()) {
    fs::path beside = fs::path(relative_to).parent_path() / key;
    std::error_code ec;
    if (fs::exists(beside, ec)) key = beside.string();
  }
  std::shared_ptr<const Ruleset> ruleset;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) ruleset = it->second;
  }
  if (!ruleset) {
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(key);
    if (auto* e = std::get_if<LuaError>(&loaded)) {
      *error = e->ToString();
      if (!e->traceback.empty()) *error += "\n" + e->traceback;
      return false;
    }
    ruleset = std::make_shared<const Ruleset>(std::move(std::get<Ruleset>(loaded)));
    std::lock_guard<std::mutex> lock(mu);
    cache.emplace(key, ruleset);
  }
  *out = ruleset->Choose();
  return true;
}

}  // namespace canasta
