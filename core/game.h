// A game: a sequence of deals with running totals, the dealer passing as
// dealer_rotation says (000 §6), and the end at the target score (000 §19,
// readings R17).
#ifndef CANASTA_CORE_GAME_H_
#define CANASTA_CORE_GAME_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/position.h"

namespace canasta {

// How a game stands (000 §19, readings R17).
struct GameOutcome {
  bool over = false;
  // The top totals tie at the target and neither the hook tie_break nor
  // exact_tie = draw decided it.
  bool tied = false;
  std::optional<int> winner;  // once over, unless a draw
};

// The one rule of the game's end and its winner: a side reached the target;
// a tie for the lead goes to the ruleset's hook tie_break, then to
// exact_tie. Used for the engine's own totals (Game) and for the replay's
// totals that take the recorded scores of hands it could not replay.
// `canastas`: made over the game, by side; `hands`: hands played.
GameOutcome DecideGame(const Rules& rules, const RuleHooks& hooks, const std::vector<int>& totals,
                       int hands, const std::vector<int>& canastas);

class Game {
 public:
  Game(const Rules& rules, const RuleHooks& hooks);
  // Keeps the last position's storage for the thread's next game.
  ~Game();

  // --- Deals ---
  // Checks the deal's number and dealer against the game so far, then starts
  // it. The position lives until the next deal. `totals`, when given, are
  // the running totals the deal's initial-meld minimum is read at instead of
  // the game's own (a replay that took the recorded scores of a hand it
  // could not replay: 001 L35, "set by your score before the hand").
  TaggedViolations StartDeal(int hand_number, const DealMove& deal,
                             const std::vector<int>* totals = nullptr);
  Position* position() { return position_.get(); }
  const Position* position() const { return position_.get(); }
  // Scores the current deal into the totals; returns the deal's breakdown.
  std::vector<ScoreBreakdown> FinishDeal();

  // --- The game ---
  const std::vector<int>& totals() const { return totals_; }
  int deals_played() const { return deals_; }
  // The number the last deal was due to have when the log numbered it
  // otherwise (deal-hand-number), else -1. Its end_hand may give either
  // number, and the next deal may follow either, without a second finding.
  int64_t due_hand_number() const { return due_hand_number_; }
  // DecideGame for the totals so far.
  const GameOutcome& outcome() const { return outcome_; }
  bool over() const { return outcome_.over; }  // a side reached the target (and no tie to play off)
  std::optional<int> winner() const { return outcome_.winner; }  // once over
  // Whether a total reached the target but the totals tie exactly, with
  // nothing to break the tie (readings R17).
  bool tied_at_target() const { return outcome_.tied; }
  // Canastas made over the game so far, by side.
  const std::vector<int>& canastas() const { return canastas_; }
  const Rules& rules() const { return rules_; }
  const RuleHooks& hooks() const { return hooks_; }

 private:
  const Rules rules_;  // a copy: positions refer to it for the game's life
  const RuleHooks& hooks_;
  std::vector<int> totals_;
  std::vector<int> canastas_;
  GameOutcome outcome_;  // decided when a deal is scored
  int deals_ = 0;
  int last_hand_number_ = 0;
  int64_t due_hand_number_ = -1;  // after a misnumbered deal: its due number
  int last_dealer_ = -1;
  std::unique_ptr<Position> position_;
};

}  // namespace canasta

#endif  // CANASTA_CORE_GAME_H_
