// The ruleset resolver of the command line: --rules first, then the log's
// header under the log policy (scripting/resolver.h).
#include "cli/commands.h"
#include "lint/check_levels.h"

namespace canasta {

RulesetResolver CommandLineResolver(const std::string& forced, const RulesetPolicy& policy,
                                    const std::string& log_path) {
  return [forced, policy, log_path](const std::string& name, const std::string& relative_to,
                                    RulesetChoice* out, std::string* error) {
    bool found = false;
    if (!forced.empty()) {
      found = ResolveUserRuleset(forced, out, error);
    } else {
      std::string log = !log_path.empty() ? log_path : relative_to;
      if (log == kStdinName) log.clear();  // no folder: built-ins and allowed folders only
      found = ResolveLogRuleset(name, log, policy, out, error);
    }
    // The ruleset's `checks` names are lint/'s to know (scripting/ruleset.h).
    if (found) *error = CheckLevels().ApplySettings(out->checks);
    return found && error->empty();
  };
}

}  // namespace canasta
