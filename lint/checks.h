// The registry of checks, in the manner of clang-tidy: every CheckId has a
// stable kebab-case name (what users see in `[pile-frozen-needs-pair]`, what
// SARIF uses as the rule id, and the name of its page docs/checks/<name>.md),
// a severity, a category, a one-line summary and the seed section it enforces.
//
// Names are a public contract: code-scanning tools track findings across runs
// by them. Never rename or reuse one; add a new CheckId instead.
#ifndef CANASTA_LINT_CHECKS_H_
#define CANASTA_LINT_CHECKS_H_

#include <optional>
#include <string_view>
#include <vector>

#include "core/violation.h"

namespace canasta {

struct CheckInfo {
  CheckId id;
  const char* name;      // stable kebab-case, e.g. "pile-frozen-needs-pair"
  Severity severity;     // default severity of its findings
  const char* category;  // e.g. "pile", "meld", "score"
  const char* summary;   // one line, no final period
  const char* source;    // the seed section it enforces, e.g. "000 §13, §14"
};

// The entry of `id`. `id` must be a real check (not CheckId::kCount).
const CheckInfo& GetCheck(CheckId id);

// Every check, in CheckId order: AllChecks()[i].id == CheckId(i).
const std::vector<CheckInfo>& AllChecks();

// The check called `name` (exact, case-sensitive), if any.
std::optional<CheckId> FindCheck(std::string_view name);

// "error", "warning" or "note".
const char* SeverityName(Severity severity);

}  // namespace canasta

#endif  // CANASTA_LINT_CHECKS_H_
