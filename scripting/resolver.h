// Finds the ruleset for a replay: the one the user names (a built-in or any
// Lua file) or the one a log's header names. A log is untrusted input, so a
// header may name only a built-in or a `.lua` file beside the log or below its
// folder (no absolute path, no "..", no symlink out: canonical paths are
// compared), plus folders the user allows (`--allow-ruleset-path DIR`).
// Loaded rulesets are cached (they are immutable); each call returns fresh
// hooks, since a Lua state serves one thread. Safe to call from several
// threads. Documented in docs/log-format.md ("Ruleset resolution").
#ifndef CANASTA_SCRIPTING_RESOLVER_H_
#define CANASTA_SCRIPTING_RESOLVER_H_

#include <string>
#include <vector>

#include "core/hooks.h"

namespace canasta {

// What a log's header may name beyond the built-ins and its own folder.
struct RulesetPolicy {
  std::vector<std::string> allowed_dirs;  // --allow-ruleset-path, each a folder
};

// A ruleset the user named: a built-in name or a Lua file at any path.
bool ResolveUserRuleset(const std::string& name_or_path, RulesetChoice* out, std::string* error);

// A ruleset named by the header of the log at `log_path` ("" for a log with
// no folder, e.g. standard input: then only built-ins and allowed folders).
// On refusal the message names the ruleset and how to allow it, and never
// quotes the file.
bool ResolveLogRuleset(const std::string& name, const std::string& log_path,
                       const RulesetPolicy& policy, RulesetChoice* out, std::string* error);

// The shape of replay's RulesetResolver, for callers that cannot tell a
// header's ruleset from the user's: everything is treated as named by the log
// at `relative_to` (default policy; "" is a log with no folder: built-ins
// only). A command that has --rules resolves with ResolveUserRuleset for it
// (cli's CommandLineResolver).
bool ResolveRuleset(const std::string& name_or_path, const std::string& relative_to,
                    RulesetChoice* out, std::string* error);

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_RESOLVER_H_
