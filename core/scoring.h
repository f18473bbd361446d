// Scoring a hand (000 §18) and the game (000 §19).
#ifndef CANASTA_CORE_SCORING_H_
#define CANASTA_CORE_SCORING_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace canasta {

// Score arithmetic held to [-INT_MAX, INT_MAX] (so that a result can be
// negated): scores are sums of ruleset values and of events a log may repeat
// without end, and must never overflow (UB).
inline int Saturate(int64_t v) {
  constexpr int64_t kMax = std::numeric_limits<int>::max();
  return int(v > kMax ? kMax : v < -kMax ? -kMax : v);
}
inline int SaturatingAdd(int a, int b) { return Saturate(int64_t{a} + b); }
inline int SaturatingMul(int a, int b) { return Saturate(int64_t{a} * b); }

// One side's score for a hand, part by part, as a scorekeeper writes it.
struct ScoreBreakdown {
  int canastas = 0;    // canasta bonuses
  int red_threes = 0;  // red-three bonuses (negative for a side with no meld)
  int going_out = 0;   // going-out bonus
  int melded = 0;      // value of the melded cards
  int in_hand = 0;     // value of the cards left in the side's hands (<= 0)
  int penalties = 0;   // penalties (<= 0)
  int house = 0;       // a ruleset hook's adjustment
  // A special hand's value (001 L79: the side that declared one scores it
  // and nothing else); 0 for every other side and hand.
  int special_hand = 0;
  // The ruleset's own parts (RuleHooks::ExtraParts(), set by the hook
  // `score`), by name in that order; empty for a ruleset that declares none.
  std::vector<std::pair<std::string, int>> extra;
  int total() const {
    int t = 0;
    for (int part : {canastas, red_threes, going_out, melded, in_hand, penalties, house,
                     special_hand})
      t = SaturatingAdd(t, part);
    for (const auto& part : extra) t = SaturatingAdd(t, part.second);
    return t;
  }
  // A part by name, standard or extra; nullptr when there is none.
  const int* Find(std::string_view name) const;
  int* Find(std::string_view name) {
    return const_cast<int*>(static_cast<const ScoreBreakdown*>(this)->Find(name));
  }
  bool operator==(const ScoreBreakdown& o) const;
};

// The names of the parts, as canasta-log/1's `breakdown` spells them.
// Writers leave out `house` and `special_hand` where they are 0, so that a
// ruleset without them writes what it always did.
struct BreakdownPart {
  const char* name;
  int ScoreBreakdown::*field;
};
const std::vector<BreakdownPart>& BreakdownParts();

// A breakdown with the ruleset's own parts `extra_names` (in order), at 0.
ScoreBreakdown EmptyBreakdown(const std::vector<std::string>& extra_names);

}  // namespace canasta

#endif  // CANASTA_CORE_SCORING_H_
