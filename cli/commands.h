// The subcommands of `canasta`. Each takes its own arguments (after the
// command name) and returns the exit status: 0 fine, 1 findings (audit), 2 the
// tool could not do its job.
#ifndef CANASTA_CLI_COMMANDS_H_
#define CANASTA_CLI_COMMANDS_H_

#include <string>
#include <vector>

#include "replay/auditor.h"
#include "scripting/resolver.h"

namespace canasta {

int AuditCommand(const std::vector<std::string>& args);
int RulesCommand(const std::vector<std::string>& args);
int SimulateCommand(const std::vector<std::string>& args);
int TreeCommand(const std::vector<std::string>& args);
int SheetCommand(const std::vector<std::string>& args);
int ReviewCommand(const std::vector<std::string>& args);
int SummarizeCommand(const std::vector<std::string>& args);

// The resolver for a command: `forced` (from --rules, may be empty) wins over
// every header; otherwise a header's ruleset is resolved as the log's
// (scripting/resolver.h) under `policy`. `log_path`, when not empty, is the log
// whatever the caller passes as `relative_to` (CollectDecisions passes "").
// A `relative_to` of kStdinName is a log with no folder.
RulesetResolver CommandLineResolver(const std::string& forced, const RulesetPolicy& policy = {},
                                    const std::string& log_path = "");

// The file name standard input is reported under (`canasta audit -`).
constexpr char kStdinName[] = "<stdin>";

constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;
constexpr int kExitTrouble = 2;

}  // namespace canasta

#endif  // CANASTA_CLI_COMMANDS_H_
