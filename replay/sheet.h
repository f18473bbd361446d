// Score sheets: the checks of one hand recorded only by its scores (an
// `end_hand` with no deal before it; docs/sheets.md). Nothing is known of the
// cards, so each recorded part is checked against the values the ruleset in
// force can produce, from its Rules values and its RuleHooks: a Lua house
// rule changes the checks too. Pure logic: no I/O, no log reader.
#ifndef CANASTA_REPLAY_SHEET_H_
#define CANASTA_REPLAY_SHEET_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/hooks.h"
#include "core/rules.h"
#include "core/scoring.h"
#include "core/violation.h"

namespace canasta {

// Per side: (part name, value) in the order recorded, as canasta-log/1's
// `breakdown` holds them.
using SheetParts = std::vector<std::pair<std::string, int>>;

// What the sheet wrote for one hand.
struct SheetEntry {
  std::optional<std::vector<SheetParts>> breakdown;  // per side
  std::optional<std::vector<int>> scores;            // per side
};

struct SheetFinding {
  CheckId id = CheckId::kScoreBreakdown;
  int side = -1;     // -1: the hand as a whole
  std::string part;  // the breakdown part it concerns ("red_threes"), or ""
  std::string message;
  std::vector<std::string> notes;
  // The finding changes what is taken as the side's true score (a part with
  // the wrong sign, parts that do not add up to the recorded score): a
  // running total that follows the recorded score carries this slip.
  bool changes_score = false;
};

struct SheetResult {
  std::vector<SheetFinding> findings;
  // Per side, the parts taken as true: the recorded ones, corrected where
  // the rules leave one value only (a red-three score with the wrong sign).
  std::vector<ScoreBreakdown> parts;
  std::vector<bool> has_parts;  // the side's breakdown was recorded
  // Per side, the score taken as true: the corrected parts' sum where the
  // parts were recorded, else the recorded score. Unset when neither was.
  std::vector<std::optional<int>> scores;
};

// Checks one sheet entry under `rules` and `hooks`. `side_name` words a side
// for a message ("side 0 (Ann and Cat)").
SheetResult CheckSheetEntry(const Rules& rules, const RuleHooks& hooks, const SheetEntry& entry,
                            const std::function<std::string(int)>& side_name);

// The canasta bonuses `value` can be made of: every (natural, mixed) count
// with natural * natural_canasta_bonus + mixed * mixed_canasta_bonus ==
// value, no more canastas than the pack can hold.
std::vector<std::pair<int, int>> CanastaCombinations(const Rules& rules, int value);

// The step every count of card points is a multiple of: the greatest common
// divisor of the card values (5 for classic). 0 when every card counts 0.
int CardPointStep(const Rules& rules);

// The red-three scores one side can have (without sign), with the number of
// red threes each stands for, smallest first.
std::vector<std::pair<int, int>> RedThreeValues(const Rules& rules);

}  // namespace canasta

#endif  // CANASTA_REPLAY_SHEET_H_
