// The subcommands of `canasta`. Each takes its own arguments (after the
// command name) and returns the exit status: 0 fine, 1 findings (audit), 2 the
// tool could not do its job.
#ifndef CANASTA_CLI_COMMANDS_H_
#define CANASTA_CLI_COMMANDS_H_

#include <string>
#include <vector>

#include "replay/auditor.h"

namespace canasta {

int AuditCommand(const std::vector<std::string>& args);
int RulesCommand(const std::vector<std::string>& args);
int SimulateCommand(const std::vector<std::string>& args);
int TreeCommand(const std::vector<std::string>& args);
int ReviewCommand(const std::vector<std::string>& args);

// Resolves a ruleset name or file for the replay (built-ins, Lua files). Safe
// to call from several threads; loaded rulesets are cached.
bool ResolveRuleset(const std::string& name_or_path, const std::string& relative_to,
                    RulesetChoice* out, std::string* error);

constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;
constexpr int kExitTrouble = 2;

}  // namespace canasta

#endif  // CANASTA_CLI_COMMANDS_H_
