// What auditing a log produced: findings with their lines, and the scores the
// toolkit computed for every hand. lint/ turns this into text, JSON or SARIF.
#ifndef CANASTA_REPLAY_REPORT_H_
#define CANASTA_REPLAY_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "core/hooks.h"
#include "core/scoring.h"
#include "core/violation.h"

namespace canasta {

struct Finding {
  int line = 0;  // 1-based line of the log; 0 when it concerns the whole file
  CheckId id = CheckId::kLogBadEvent;
  std::string message;
  std::vector<std::string> notes;  // context: hand, turn, player, cards, source
  // Set when a ruleset's `checks` or --checks changed the check's default
  // severity (lint/check_levels.h); unset: the check's own.
  std::optional<Severity> severity;
};

struct HandReport {
  int hand = 0;
  int line = 0;                             // line of the hand's deal event
  std::vector<ScoreBreakdown> breakdown;    // per side, computed
  std::vector<int> scores;                  // per side, computed
  std::vector<int> totals;                  // per side, running, computed
  std::optional<std::vector<int>> recorded_scores;  // as the log wrote them
  std::optional<std::vector<int>> recorded_totals;
  int went_out = -1;  // seat that went out, or -1
  bool complete = false;  // the hand was played to its end
};

struct GameReport {
  std::string file;
  int line = 0;                       // line of the game header
  std::string ruleset;                // the ruleset in force
  std::vector<CheckSetting> checks;   // its `checks` settings (lint/ applies them)
  std::vector<std::string> players;
  std::vector<Finding> findings;      // sorted by line
  std::vector<HandReport> hands;
  std::vector<int> totals;            // final computed totals per side
  std::optional<int> winner;          // computed winning side, once the game is over
  bool finished = false;              // the game reached its end
  int events = 0;                     // events read
};

// A whole file: its games, and findings that belong to no game (e.g. a file
// that is not canasta-log/1 at all).
struct FileReport {
  std::string file;
  std::vector<GameReport> games;
  std::vector<Finding> findings;
  bool unreadable = false;  // the file could not be opened
  std::string reason;       // why not, the system's words ("No such file or directory")
};

}  // namespace canasta

#endif  // CANASTA_REPLAY_REPORT_H_
