// Decision points a ruleset may override beyond plain values (rules.h). The
// defaults implement the rule through Rules; a Lua ruleset (scripting/)
// overrides only the hooks it defines, so a ruleset without hooks costs
// nothing in the replay's hot path.
#ifndef CANASTA_CORE_HOOKS_H_
#define CANASTA_CORE_HOOKS_H_

#include <memory>
#include <string>
#include <vector>

#include "core/card.h"
#include "core/hook_api.h"
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
  bool sequence = false;     // a sequence of one suit (rank kSequence; 002 L67, L75)
  int wilds() const { return twos + jokers; }
  int size() const { return naturals + twos + jokers; }
};

// What a side has, seen by the going-out and scoring hooks.
struct SideSummary {
  int side = 0;
  int canastas = 0;
  int natural_canastas = 0;
  int mixed_canastas = 0;
  int sequence_canastas = 0;  // of the canastas, sequences (002 L67)
  int melds = 0;
  int red_threes = 0;
};

// A ruleset's own code failed (a Lua error, a wrong return type); the
// engine used the default answer instead, and the replay reports it.
struct HookFailure {
  std::string hook;     // "initial_meld_value"
  std::string call;     // the first failing call, with its arguments
  std::string where;    // "file:line" of the ruleset code, when known
  std::string message;
  std::string traceback;
  int count = 1;        // calls that failed the same way
};

class RuleHooks {
 public:
  virtual ~RuleHooks() = default;

  // Points a card counts toward the initial-meld minimum (000 §8; Hutto's
  // jokers count nothing, 000 §21, readings R22).
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

  // The minimum count for a side whose total before the deal is `total`;
  // `totals` (when given) holds every side's, for a minimum that depends on
  // both (rules.minimum_by).
  virtual int MinimumCount(const Rules& rules, int total, int /*side*/ = 0,
                           const std::vector<int>* totals = nullptr) const {
    return rules.MinimumFor(rules.MinimumBasis(total, totals));
  }

  // A last say on a side's hand score (e.g. a house bonus); the returned
  // value is added to the breakdown as "house" points.
  virtual int HouseScoreAdjustment(const Rules& /*rules*/,
                                   const SideSummary& /*side*/,
                                   bool /*went_out*/) const {
    return 0;
  }

  // --- v2 hooks (core/hook_api.h) ---
  // Whether the ruleset defines hook `id`. The engine makes a hook's
  // context only when it does, so undefined hooks cost one test.
  bool Overrides(HookId id) const { return (overridden_ >> int(id)) & 1u; }
  // Whether it defines any hook (a subclass marks each hook it defines with
  // SetOverridden, so that the engine's shortcuts that assume the default
  // rules are not taken).
  bool OverridesAny() const { return overridden_ != 0; }
  // Calls v2 hook ctx.hook() with its context. An answer with given ==
  // false (the hook returned nil, or failed) leaves the engine's own rule.
  virtual HookAnswer Call(const HookContext& /*ctx*/, const Rules& /*rules*/) const {
    return HookAnswer{};
  }
  // The same with a table of values for a context.
  HookAnswer Call(HookId id, const HookValue& ctx, const Rules& rules) const {
    return Call(HookContext(id, ctx), rules);
  }
  // The ruleset's own score parts (`score_parts`), in order: reports show
  // them beside the standard parts.
  virtual const std::vector<std::string>& ExtraParts() const {
    static const std::vector<std::string> kNone;
    return kNone;
  }

  // Whether any hook is overridden: lets `rules show` tell users.
  virtual std::vector<std::string> OverriddenHooks() const { return {}; }

  // Failures since the last call, each once. Never fails for plain hooks.
  virtual std::vector<HookFailure> TakeFailures() const { return {}; }
  // Cheap test the replay makes after every move.
  virtual bool HasFailures() const { return false; }

  // The wall-clock seconds the hooks' own code has run so far (none for the
  // engine's): a file's games together are bounded too (replay/driver.cc).
  virtual double SecondsSpent() const { return 0; }
  // From now on no hook runs its own code: each call gets the engine's
  // answer and counts as one more failure `why` (reported once, with its
  // count). Nothing to stop for the engine's hooks.
  virtual void StopCalling(const std::string& /*why*/) const {}

 protected:
  void SetOverridden(HookId id) { overridden_ |= 1u << int(id); }

 private:
  uint32_t overridden_ = 0;
};

// The shared instance for rulesets without hooks.
const RuleHooks& DefaultHooks();

// A ruleset ready to play or replay with: its values and its hooks. Hooks may
// hold a Lua state, so each game (each thread) gets its own.
// An entry of a ruleset's `checks` table as written ("deal-dealer" =
// "off"). Only lint/ knows the check names: it validates and applies these.
struct CheckSetting {
  std::string check;
  std::string level;  // "off", "error", "warning" or "note"
  std::string where;  // "house.lua:12", for messages
};

struct RulesetChoice {
  std::string name;
  Rules rules;
  std::shared_ptr<const RuleHooks> hooks;  // never null
  std::vector<CheckSetting> checks;        // the chain's, later files winning
};

}  // namespace canasta

#endif  // CANASTA_CORE_HOOKS_H_
