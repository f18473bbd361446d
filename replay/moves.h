// Events of canasta-log/1 as engine moves: the one place where a log's
// fields become a Move (the replay and the decision trees both use it).
#ifndef CANASTA_REPLAY_MOVES_H_
#define CANASTA_REPLAY_MOVES_H_

#include <optional>
#include <string>

#include "core/position.h"
#include "replay/event.h"

namespace canasta {

// A meld reference: a rank ("K", "10") or "wild".
std::optional<Rank> RefRank(const std::optional<std::string>& ref);

// Each fills `move` from `e`, reusing its storage. False (with `error`) when a
// field cannot be a move (a meld reference that is not a rank).
bool FillMove(const Event& e, int player, DrawMove* move, std::string* error);
bool FillMove(const Event& e, int player, TakePileMove* move, std::string* error);
bool FillMove(const Event& e, int player, MeldMove* move, std::string* error);
bool FillMove(const Event& e, int player, RetractMove* move, std::string* error);
bool FillMove(const Event& e, int player, SpecialHandMove* move, std::string* error);

// Any move event as a Move; nullopt for other events or a field that cannot
// be a move (then `error` says why, if it is not empty).
std::optional<Move> ToMove(const Event& e, std::string* error);

}  // namespace canasta

#endif  // CANASTA_REPLAY_MOVES_H_
