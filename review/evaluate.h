// Monte Carlo evaluation of one decision of a recorded hand (docs/review.md).
// The acting player's information only: their hand, the table, the pile, and
// the cards they saw the others take with the pile. The unseen cards are
// dealt at random to the other hands and the stock (a determinization),
// consistently with everything seen so far; each alternative is played to
// the end of the hand by the sensible bot, and the value is the acting
// side's hand score minus the others'. No I/O.
#ifndef CANASTA_REVIEW_EVALUATE_H_
#define CANASTA_REVIEW_EVALUATE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/bots.h"
#include "core/position.h"

namespace canasta {

struct ReviewSettings {
  int rollouts = 32;  // determinizations per decision, at first (docs/review.md: why)
  // More rollouts, in batches of `rollouts`, while the points lost (or the
  // move made's lead, when it is the best) have a standard error above
  // `target_se`, up to `max_rollouts` in all.
  int max_rollouts = 512;
  // `canasta review` refines only the key decisions up to max_rollouts; the
  // others stop at this many (docs/review.md, "Screening").
  int screen_rollouts = 128;
  double target_se = 40;
  uint64_t seed = 1;  // same seed, same values
  int jobs = 1;       // threads over rollouts; the values do not depend on it
  // Hooks for each thread (a Lua ruleset's hooks serve one thread): thread t
  // uses thread_hooks[t] when there are at least `jobs` of them, else the
  // history's hooks, which must then be safe to share (the built-in ones are).
  std::vector<const RuleHooks*> thread_hooks;
};

// The hook failures of the rollouts since the last call: taken from each of
// `settings.thread_hooks` but `shared` (whose failures its replay reports),
// the same failure of several threads merged, its counts added up.
std::vector<HookFailure> TakeRolloutHookFailures(const ReviewSettings& settings,
                                                 const RuleHooks* shared);

// The hand so far as the reviewer replays it: the deal, the moves applied,
// and for each seat which held cards came from hidden sources (the deal, the
// stock) and which the table saw it take with the pile.
class HandHistory {
 public:
  // `totals` are the sides' totals before the hand (they set the minimum).
  // `rules` and `hooks` must outlive the history and every evaluation.
  HandHistory(const Rules& rules, const RuleHooks& hooks, std::vector<int> totals, DealMove deal);

  // Records `move`, applied to the true position `before`, giving `after`.
  void Record(const Move& move, const Position& before, const Position& after);

  // A world consistent with what `viewer` knows at `truth` (the true position
  // after the recorded moves), the unseen cards dealt from `rng`. Nullopt when
  // the log's hands cannot be followed card by card (an illegal move played
  // a card its player did not hold).
  // The world's Position uses `hooks` (null: the history's).
  std::optional<Position> Determinize(int viewer, const Position& truth, Rng& rng,
                                      const RuleHooks* hooks = nullptr) const;

  // Cards `seat` holds that the table saw it take with the pile.
  const CardCounts& known(int seat) const { return known_[size_t(seat)]; }
  const Rules& rules() const { return *rules_; }
  const RuleHooks& hooks() const { return *hooks_; }

 private:
  // Where a held card came from: the deal (`move` < 0, `index` in the seat's
  // dealt hand) or a recorded move (a draw's card `index`, -1: a three's
  // replacement).
  struct Held {
    Card card;
    int move = -1;
    int seat = 0;
    int index = 0;
  };
  struct Recorded {
    Move move;
    int stock_taken = 0;  // stock cards the move took
  };
  void Play(int seat, Card c);  // `seat` showed `c` (melded, discarded, laid out)

  const Rules* rules_;
  const RuleHooks* hooks_;
  std::vector<int> totals_;
  DealMove deal_;
  std::vector<Recorded> moves_;
  std::vector<std::vector<Held>> hidden_;  // per seat
  std::vector<CardCounts> known_;          // per seat
  bool broken_ = false;
};

// One group of equivalent alternatives and its value.
struct AlternativeValue {
  Move move;            // the group's representative
  std::string key;      // what makes plays equivalent (GroupKey)
  std::string words;    // "discarded 7H", "took the pile with 9C 9D"
  int members = 1;      // legal moves in the group
  bool played = false;  // the group of the move made
  double mean = 0;      // acting side minus the others, points
  double se = 0;        // standard error of the mean
  int rollouts = 0;     // rollouts it was played in (racing drops the clearly worse)
  // Mean minus the move played's, and the standard error of that paired
  // difference (common random numbers): what `canasta tree` labels edges with.
  double vs_played = 0, vs_played_se = 0;
};

enum class DecisionStatus {
  kEvaluated,
  kForced,        // one way only: nothing to decide
  kIllegal,       // the move made broke a rule: not a decision
  kNotEvaluated,  // the log's hands could not be followed
};

struct DecisionValue {
  DecisionStatus status = DecisionStatus::kNotEvaluated;
  std::vector<AlternativeValue> alternatives;  // best first
  int played = -1;                             // index of the move made in `alternatives`
  double lost = 0;                             // best mean minus the played one's (>= 0)
  double lost_se = 0;                          // its standard error (paired: common random numbers)
  // The standard error that decides whether more rollouts are run: lost_se,
  // or, when the move made is the best, that of its lead over the next best.
  double margin_se = 0;
  int rollouts = 0;
};

// The rollouts played over every alternative of `v`: the work its values
// cost (racing gives the clearly worse fewer than `v.rollouts`).
long AlternativeRollouts(const DecisionValue& v);

// The groups of equivalent legal moves at `truth` for the player in turn,
// in the generator's order, with the group of `played` marked (added when
// the generator does not list it): no rollout. Status kForced (one group, or
// red threes due first), kIllegal (`played` breaks a rule: no groups), else
// kNotEvaluated.
DecisionValue GroupAlternatives(const Position& truth, const Move& played);

// Evaluates `played` and every legal alternative at `truth` (the true
// position, `history` recorded up to it) for the player in turn. `key`
// names the decision in the seed (the same key, seed and settings give the
// same values, whatever `settings.jobs`).
DecisionValue EvaluateDecision(const HandHistory& history, const Position& truth,
                               const Move& played, uint64_t key, const ReviewSettings& settings);

// EvaluateDecision in steps: the review screens every decision with a few
// rollouts and refines the key ones (docs/review.md, "Screening"). Refine
// plays batches of `settings.rollouts` while the margin's standard error is
// above `settings.target_se`, up to `most` rollouts in all; a later Refine
// with a larger `most` goes on where the last one stopped. Refine(a) then
// Refine(b) gives exactly what EvaluateDecision with max_rollouts b gives
// (the batches, and so the racing, are the same). The evaluation keeps its
// own copies of the history and the position.
class DecisionEvaluation {
 public:
  DecisionEvaluation(const HandHistory& history, const Position& truth, const Move& played,
                     uint64_t key, const ReviewSettings& settings);
  ~DecisionEvaluation();
  DecisionEvaluation(DecisionEvaluation&&) noexcept;
  DecisionEvaluation& operator=(DecisionEvaluation&&) noexcept;

  const DecisionValue& Refine(int most);
  // Whether Refine(most) would play more rollouts (false before the first).
  bool WouldRefine(int most) const;
  // The value as of the last Refine (the groups, unvalued, before it).
  const DecisionValue& value() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Plays `pos` to the end of the hand with the sensible bot at every seat and
// returns `side`'s hand score minus the mean of the other sides'.
double Rollout(Position pos, int side, Bot& bot, Rng& rng);

// Equivalent plays share a key: the same cards laid on the same melds, in
// one event or several; cards of one rank are interchangeable whatever their
// suit (no rule of the four rule documents reads a suit but a three's
// colour), and so are twos (a joker is not: it counts 50); one key for
// drawing from the stock.
std::string GroupKey(const Move& move);

// A move in words a club player reads ("took the pile (12 cards) with 9C 9D").
std::string MoveWords(const Move& move, int pile_size);

// The decisions of a hand that the review evaluates, counted as the log
// plays them: each draw (the stock or the pile), meld and discard made while
// the hand is in play. A decision's index in its hand names it in the seed
// (DecisionKey), so `canasta review` and `canasta tree` count with this one
// counter and give one decision the same values.
struct CountedMove {
  int index = -1;            // the decision's index in the hand; -1: not a decision
  int turn = 0;              // 1-based: the draws of the hand so far, this one included
  bool draws = false;        // a draw from the stock or a take of the pile
  bool starts_play = false;  // the first decision of a play phase (after its draw)
  bool in_play = false;      // a decision of a play phase whose first one was counted
};

class DecisionCounter {
 public:
  // For every move of the hand, in order, before it is applied: `seat` made
  // `move` at `before`. A new hand starts with a new counter.
  CountedMove Count(int seat, const Move& move, const Position& before);

 private:
  int decisions_ = 0, turn_ = 0, play_seat_ = -1;
  bool play_started_ = false;
};

// Lichess-style labels by points lost (docs/review.md): "inaccuracy" from
// 50, "mistake" from 150, "blunder" from 400; only when the loss is also more
// than twice its standard error. Empty otherwise.
constexpr double kInaccuracy = 50, kMistake = 150, kBlunder = 400;
std::string LossLabel(double lost, double lost_se);

// Accuracy of one decision, 0-100: 100 * exp(-lost / 300).
double DecisionAccuracy(double lost);

// A seed from a run's seed and up to three numbers (splitmix).
uint64_t MixSeed(uint64_t seed, uint64_t a, uint64_t b = 0, uint64_t c = 0);

// The key of decision `index` (DecisionCounter) of hand `hand` of game `game`
// (1-based) for EvaluateDecision.
inline uint64_t DecisionKey(int game, int hand, int index) {
  return MixSeed(uint64_t(game), uint64_t(hand), uint64_t(index));
}

}  // namespace canasta

#endif  // CANASTA_REVIEW_EVALUATE_H_
