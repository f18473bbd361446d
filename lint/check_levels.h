// Switching checks off and changing their severity, in clang-tidy's manner:
// a ruleset's `checks = { ["deal-dealer"] = "off" }` (docs/lua-api.md), then
// the command line's `--checks=-deal-dealer,warning:three-timing,-*,meld-*`
// (docs/report-format.md). A finding keeps the severity it ends with
// (Finding::severity); a switched-off check's findings are dropped.
#ifndef CANASTA_LINT_CHECK_LEVELS_H_
#define CANASTA_LINT_CHECK_LEVELS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/hooks.h"
#include "replay/report.h"

namespace canasta {

class CheckLevels {
 public:
  CheckLevels() { level_.fill(kDefault); }

  // Applies a --checks value, entries left to right: `-pattern` switches
  // off, `severity:pattern` sets a severity (error, warning, note),
  // `pattern` switches on at the check's own severity; a pattern is a check
  // name or a glob with `*`. Returns "" or the usage error (an unknown name
  // with "did you mean", a glob that matches no check).
  std::string ParseOption(std::string_view text);
  // Applies a ruleset's `checks` entries (validated: an unknown name is an
  // error with its file:line and "did you mean").
  std::string ApplySettings(const std::vector<CheckSetting>& settings);
  // The other's changes on top of these.
  void Overlay(const CheckLevels& other);

  bool empty() const;
  bool off(CheckId id) const { return level_[size_t(id)] == kOff; }
  Severity SeverityOf(CheckId id) const;

 private:
  static constexpr int8_t kDefault = -1;  // not set here: an overlay leaves it alone
  static constexpr int8_t kOff = 3;       // 0..2: a Severity
  // On at the check's own severity: set by a bare NAME, so that an overlay
  // switches back on what the level below switched off.
  static constexpr int8_t kOn = 4;
  std::array<int8_t, kNumCheckIds> level_;
};

// A finding's severity: its own when set, else its check's.
Severity SeverityOf(const Finding& f);

// Every game's findings under its ruleset's `checks` and then `command_line`;
// findings outside a game under `command_line` only. Returns "" or why a
// ruleset's settings are refused (callers validate them on loading first).
std::string ApplyCheckLevels(FileReport* report, const CheckLevels& command_line);

}  // namespace canasta

#endif  // CANASTA_LINT_CHECK_LEVELS_H_
