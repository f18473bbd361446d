// Decision points a ruleset may override beyond plain values (rules.h). The
// defaults implement the rule through Rules; a Lua ruleset (scripting/)
// overrides only the hooks it defines, so a ruleset without hooks costs
// nothing in the replay's hot path.
#ifndef CANASTA_CORE_HOOKS_H_
#define CANASTA_CORE_HOOKS_H_

#include <string>
#include <vector>

#include "core/card.h"
#include "core/rules.h"

namespace canasta {

// A meld as the rules see it: its rank and how it is made up, after the
// cards being laid are added.
struct MeldShape {
  Rank rank = Rank::kJoker;  // kJoker for a meld of wild cards only.
  int naturals = 0;
  int twos = 0;
  int jokers = 0;
  bool was_canasta = false;  // it was a completed canasta before this play
  bool is_new = true;        // no cards of this meld were on the table yet
  int wilds() const { return twos + jokers; }
  int size() const { return naturals + twos + jokers; }
};

// What a side has, seen by the going-out and scoring hooks.
struct SideSummary {
  int side = 0;
  int canastas = 0;
  int natural_canastas = 0;
  int mixed_canastas = 0;
  int melds = 0;
  int red_threes = 0;
};

class RuleHooks {
 public:
  virtual ~RuleHooks() = default;

  // Points a card counts toward the initial-meld minimum (000 §8; Hutto's
  // jokers count nothing, 000 §21, A22).
  virtual int InitialMeldValue(const Rules& rules, Card card) const {
    if (card.is_joker() && !rules.jokers_count_toward_minimum) return 0;
    return rules.value(card);
  }

  // A ruleset's own meld condition, checked after the built-in composition
  // rules. Returns "" when the meld is fine, else why it is not.
  virtual std::string ExtraMeldCheck(const Rules& /*rules*/,
                                     const MeldShape& /*shape*/) const {
    return "";
  }

  // Canastas the side needs before it may go out (000 §17).
  virtual int CanastasToGoOut(const Rules& rules,
                              const SideSummary& /*side*/) const {
    return rules.canastas_to_go_out;
  }

  // The minimum count for a side whose total before the deal is `total`.
  virtual int MinimumCount(const Rules& rules, int total) const {
    return rules.MinimumFor(total);
  }

  // A last say on a side's hand score (e.g. a house bonus). `parts` holds the
  // computed breakdown; the returned value is added as "house" points.
  virtual int HouseScoreAdjustment(const Rules& /*rules*/,
                                   const SideSummary& /*side*/,
                                   bool /*went_out*/) const {
    return 0;
  }

  // Whether any hook is overridden: lets `rules show` tell users.
  virtual std::vector<std::string> OverriddenHooks() const { return {}; }
};

// The shared instance for rulesets without hooks.
const RuleHooks& DefaultHooks();

}  // namespace canasta

#endif  // CANASTA_CORE_HOOKS_H_
