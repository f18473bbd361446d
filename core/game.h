// A game: a sequence of deals with running totals, the dealer passing to the
// left (000 §6), and the end at the target score (000 §19, readings R17).
#ifndef CANASTA_CORE_GAME_H_
#define CANASTA_CORE_GAME_H_

#include <memory>
#include <optional>
#include <vector>

#include "core/position.h"

namespace canasta {

class Game {
 public:
  Game(const Rules& rules, const RuleHooks& hooks);

  // --- Deals ---
  // Checks the deal's number and dealer against the game so far, then starts
  // it. The position lives until the next deal.
  TaggedViolations StartDeal(int hand_number, const DealMove& deal);
  Position* position() { return position_.get(); }
  const Position* position() const { return position_.get(); }
  // Scores the current deal into the totals; returns the deal's breakdown.
  std::vector<ScoreBreakdown> FinishDeal();

  // --- The game ---
  const std::vector<int>& totals() const { return totals_; }
  int deals_played() const { return deals_; }
  bool over() const;                  // a side reached the target (and no tie to play off)
  std::optional<int> winner() const;  // the side with the higher total, once over
  // Whether a total reached the target but the totals tie exactly (readings R17).
  bool tied_at_target() const;
  const Rules& rules() const { return rules_; }
  const RuleHooks& hooks() const { return hooks_; }

 private:
  const Rules rules_;  // a copy: positions refer to it for the game's life
  const RuleHooks& hooks_;
  std::vector<int> totals_;
  int deals_ = 0;
  int last_hand_number_ = 0;
  int last_dealer_ = -1;
  std::unique_ptr<Position> position_;
};

}  // namespace canasta

#endif  // CANASTA_CORE_GAME_H_
