// Legal-move generation for every phase of a turn, under any ruleset. The
// generator enumerates candidates and keeps those that Position::Check
// accepts, so the generator and the auditor share one statement of each rule.
//
// What LegalMoves generates (docs/simulation.md, "Legal moves", says the same):
//
// A move is *legal* when Position::Check accepts it and, for a move made
// within a turn (taking the pile, a meld, asking or answering), the turn can
// still be finished with moves Check accepts: a discard, or a meld or take
// that empties the hand (going out). The finish is searched, not guessed:
// melds of every rank with every number of wild cards, at most one part per
// rank and ranks in order (the order of melds of different ranks changes no
// check, and parts laid on one rank in a turn end in the shape one part
// would make), positions seen remembered, and cut where the initial-meld
// count or the cards left to meld (when the player must go out) cannot
// succeed. So a meld toward an initial meld is offered when more melds can
// still reach the minimum, and a black three when the player can then go out.
// The search judges at most 300 positions per move; a move whose finish is
// not found by then is left out, never an illegal one offered. Before the
// search, the finish is judged on the hand's class counts (a relaxation of
// the search, exact both ways: core/legal_moves.cc, QuickFinish), which
// decides nearly every case where it applies (rulesets with no hook, no
// sequence, no foot, no meld of wild cards alone).
//
// Equal plays are generated once. Two cards are *interchangeable* when they
// are in the same class: every joker; every two (any suit); the natural cards
// of one rank 4..A (any suit); the black threes; the red threes. Two moves are
// *equal* when they are of one kind, by one player, and lay or give the same
// number of cards of each class to the same place: the same meld rank for a
// meld part (an addition `to` a meld and a new meld of a rank the side holds
// are one play, readings R18), the same `with` for a take, the same card class for a
// discard. PlayKey() states it as a string. Suits matter to no rule of the
// engine beyond the colour of threes; a Lua `initial_meld_value` hook that
// told suits apart would be grouped away. The card chosen from a class is the
// hand's lowest card face of it (after taking the pile in the opening, the
// lowest of those that count toward the initial meld first, 000 §13).
//
// By phase:
// - Before play and when due: the next red three to lay out (one at a time,
//   with its replacement), and nothing else (DueThrees).
// - Draw phase: the draw (the stock's next stock_draw cards), whenever Check
//   accepts it (no finish test: the player does not know the cards); and every
//   way to take the pile: the top card with every multiset `with` of cards
//   from the hand (naturals of the top's class, twos, jokers: a natural pair,
//   a natural and a wild card, a pair and more, ...) and the top card alone
//   onto the side's meld (`to`), each under the ruleset's unfrozen_take,
//   frozen_take_new_meld, one_card_rule and the rest, as Check rules; a
//   wild top card (where wild_top_blocks_take is false) with naturals of any
//   rank or onto any meld of the side; each also into the hand (`to_hand`)
//   where pile_top_to_hand is set. With a may_take_pile hook every candidate
//   goes to Check (the hook may allow what the engine refuses).
// - Play phase: every one-part meld the hand allows, as a new meld or an
//   addition (`to`) for every class (black threes included) with every number
//   of twos and jokers; melds of wild cards alone where wild_melds is set; a
//   new all-wild meld named by `as` only where min_naturals is 0 or less (it
//   has no natural card otherwise). A play of several melds at once is the
//   sequence of its parts: the same table, the same checks. Then every
//   discard, one per class. Going out is any of these that empties the hand
//   (the last discard, a meld of the last cards, taking a one-card pile with
//   the whole hand) when Check accepts it.
// - "May I go out?" (partnerships): asked in the play phase before any meld,
//   once a turn; then the partner's answers, yes and no, each if the turn can
//   then be finished (yes binds the asker to go out). Asking before the draw
//   is legal (the engine accepts it) but not generated: whether the asker can
//   go out depends on the card drawn.
// - A special hand (001 L65-L71): in the play phase, the whole hand when its
//   14 cards make one of the ruleset's special hands and Check accepts it
//   (drawn from the stock, the side not melded), offered before any three
//   (the straight holds one). The finish search never uses one.
// - Retracts are never generated: the generator never offers a meld that
//   leaves the turn unfinishable, and taking back a sufficient meld is illegal.
// Empty when the deal is over or when the stock is gone and the player in
// turn may only end the deal (see MayEndDeal).
#ifndef CANASTA_CORE_LEGAL_MOVES_H_
#define CANASTA_CORE_LEGAL_MOVES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rng.h"

namespace canasta {

// The legal moves of the position, as described above, in a fixed order:
// a special hand; threes; draw then takes; melds (by rank, then naturals, twos, jokers
// ascending), ask or answers, discards (by class).
std::vector<Move> LegalMoves(const Position& pos);
// The same into *out (cleared first), reusing its storage.
void LegalMoves(const Position& pos, std::vector<Move>* out);

// One of LegalMoves(pos), each with the same chance, without judging every
// candidate: the generator's candidates (the moves LegalMoves would judge, in
// its order) are counted, one is drawn and judged as LegalMoves judges it, and
// a refused one is set aside before the next draw. Where LegalMoves(pos) starts
// with a red three or the foot (no choice to make: PlayOut and SimulateGame
// take the first), that move. False when LegalMoves(pos) is empty. The same
// chances as LegalMoves(pos)[rng.Below(n)], not the same draws of `rng`.
bool SampleLegalMove(const Position& pos, Rng& rng, Move* out);

// How a bot that plays its best-scored move breaks ties: each legal move's
// total is score(m) + draw / scale, and the first move of the highest total
// is played. With key 0 the draw is rng.Below(draws), drawn once per move in
// the order of LegalMoves. Otherwise it is KeyedDraw(key, m): a function of
// the key and what the move plays, not of the position nor of rng, so that
// a bot keyed alike plays alike wherever its candidates tie alike. The
// review keys each rollout so: the rollouts of a decision's alternatives
// then part ways only where the alternatives make them (docs/review.md).
struct TieBreak {
  int draws = 100;
  double scale = 1000.0;
  uint64_t key = 0;
  double most() const { return double(draws - 1) / scale; }  // the largest draw
};

// The keyed draw of `m` in [0, draws): a hash of `key` and the move's kind,
// player and cards (each meld part's target, rank and cards; a take's top,
// cards and target), so equal moves draw alike.
int KeyedDraw(uint64_t key, const Move& m, int draws);

// The move that loop picks over LegalMoves(pos), with the same chances,
// without judging every candidate: in one pass of the generator, each
// candidate is scored before it is judged (a score depends on the move
// alone), and judged only if it may still win: a candidate scored below
// b - tie.most(), b the best legal score so far, can never reach b. The
// draws are made for the legal moves left in the running only (so the same
// chances, not the same draws of `rng`; a keyed tie uses no `rng`). Where LegalMoves(pos) starts with a red three or the foot
// (PlayOut plays the first without a choice), that move. False when
// LegalMoves(pos) is empty.
bool BestLegalMove(const Position& pos, const std::function<double(const Move&)>& score,
                   const TieBreak& tie, Rng& rng, Move* out);

// With the stock gone, whether the player in turn may end the deal by not
// taking the pile (000 §15, readings R12).
bool MayEndDeal(const Position& pos);

// Red threes `seat` must lay out now (before play or in their turn), with the
// replacement they would draw; empty when none is due.
std::vector<ThreeMove> DueThrees(const Position& pos, int seat);

// Whether the turn can be finished legally after `move` (Check accepts it and
// some sequence of melds then ends in a legal discard or going out).
bool LeavesLegalFinish(const Position& pos, const Move& move);

namespace internal {
// For tests: the two judges of a finish after `move` (which Check accepts),
// apart. `search`: the search's verdict, and whether it spent its budget;
// `counted`: whether the judgement on counts decided, and `counts` its
// verdict. LeavesLegalFinish is the counts' verdict where it decides, else
// the search's.
struct FinishVerdicts {
  bool search = false;
  bool search_budget_spent = false;
  bool counted = false;
  bool counts = false;
};
FinishVerdicts JudgeFinish(const Position& pos, const Move& move);
}  // namespace internal

// The class of interchangeable cards `c` belongs to (see above): 15 for a
// joker, 2 for a two, 1 for a red three, 3 for a black three, else the rank.
// (Inline: the generator asks it for every card it counts.)
inline int CardClass(Card c) {
  if (c.is_joker()) return 15;
  if (c.rank() == Rank::kTwo) return 2;
  if (c.is_three()) return c.is_red() ? 1 : 3;
  return int(c.rank());
}

// A move's identity up to equal plays (see above): two moves are equal plays
// when their keys are equal. "meld 0 K: n3 t1 j0", "take 1: n2 t0 j1", ...
std::string PlayKey(const Move& move);

}  // namespace canasta

#endif  // CANASTA_CORE_LEGAL_MOVES_H_
