// Replays canasta-log/1 files through the rules engine and reports every
// finding with its line. Never stops at the first problem: an illegal move
// that is physically possible is applied as recorded.
#ifndef CANASTA_REPLAY_AUDITOR_H_
#define CANASTA_REPLAY_AUDITOR_H_

#include <functional>
#include <istream>
#include <memory>
#include <string>

#include "core/hooks.h"
#include "core/rules.h"
#include "replay/report.h"

namespace canasta {


// Finds a ruleset by name or path; on failure returns false and says why.
// `relative_to` is the log file's path, for ruleset paths in logs.
using RulesetResolver = std::function<bool(const std::string& name_or_path,
                                           const std::string& relative_to,
                                           RulesetChoice* out, std::string* error)>;

struct AuditOptions {
  std::string forced_ruleset;  // from the command line: overrides the log's
  RulesetResolver resolve;     // required when a log names a ruleset other than classic
};

// The built-in classic ruleset, for callers without scripting.
bool ResolveClassicOnly(const std::string& name, const std::string& relative_to,
                        RulesetChoice* out, std::string* error);

FileReport AuditStream(std::istream& in, const std::string& file, const AuditOptions& options);
FileReport AuditFile(const std::string& path, const AuditOptions& options);

}  // namespace canasta

#endif  // CANASTA_REPLAY_AUDITOR_H_
