// The ruleset resolver of the command line: --rules first, then the log's
// header under the log policy (scripting/resolver.h).
#include "cli/commands.h"

namespace canasta {

RulesetResolver CommandLineResolver(const std::string& forced, const RulesetPolicy& policy,
                                    const std::string& log_path) {
  return [forced, policy, log_path](const std::string& name, const std::string& relative_to,
                                    RulesetChoice* out, std::string* error) {
    if (!forced.empty()) return ResolveUserRuleset(forced, out, error);
    std::string log = !log_path.empty() ? log_path : relative_to;
    if (log == kStdinName) log.clear();  // no folder: built-ins and allowed folders only
    return ResolveLogRuleset(name, log, policy, out, error);
  };
}

}  // namespace canasta
