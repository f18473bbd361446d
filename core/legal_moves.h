// Legal-move generation for every phase of a turn, under any ruleset. It
// proposes candidates and keeps those that Position::Check accepts, so the
// generator and the auditor share one statement of each rule.
#ifndef CANASTA_CORE_LEGAL_MOVES_H_
#define CANASTA_CORE_LEGAL_MOVES_H_

#include <vector>

#include "core/position.h"

namespace canasta {

// The moves the player in turn may make now. Before play it also offers the
// red threes a seat lays out before the first turn (Hutto, A23). Draws carry
// the stock's actual cards: a bot choosing one does not see them (SeatView).
// Empty when the deal is over or when the stock is gone and the player in
// turn may only end the deal (see MayEndDeal).
std::vector<Move> LegalMoves(const Position& pos);

// With the stock gone, whether the player in turn may end the deal by not
// taking the pile (000 §15, A12).
bool MayEndDeal(const Position& pos);

// Red threes `seat` must lay out now (before play or in their turn), with the
// replacement they would draw; empty when none is due.
std::vector<ThreeMove> DueThrees(const Position& pos, int seat);

// Whether a turn that begins with the cards on the table as they are can be
// finished legally after `move` (a discard or going out remains possible and
// an initial meld reaches the minimum). Used to prune meld candidates.
bool LeavesLegalFinish(const Position& pos, const Move& move);

}  // namespace canasta

#endif  // CANASTA_CORE_LEGAL_MOVES_H_
