// Players for self-play. A bot sees a SeatView: its own hand and what the
// whole table may see, never another hand or the stock's order.
#ifndef CANASTA_CORE_BOTS_H_
#define CANASTA_CORE_BOTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/legal_moves.h"
#include "core/position.h"
#include "core/rng.h"

namespace canasta {

// What one seat may know.
class SeatView {
 public:
  SeatView(const Position& pos, int seat) : pos_(pos), seat_(seat) {}
  int seat() const { return seat_; }
  const Rules& rules() const { return pos_.rules(); }
  const CardCounts& hand() const { return pos_.hand(seat_); }
  int hand_size(int seat) const { return pos_.hand(seat).total(); }
  const std::vector<Card>& pile() const { return pos_.pile(); }
  int stock_size() const { return pos_.stock_size(); }
  const std::vector<Meld>& melds(int side) const { return pos_.melds(side); }
  int side_of(int seat) const { return pos_.side_of(seat); }
  int num_players() const { return pos_.num_players(); }
  bool has_melded(int side) const { return pos_.has_melded(side); }
  int CanastaCount(int side) const { return pos_.CanastaCount(side); }
  bool IsPileFrozenFor(int side) const { return pos_.IsPileFrozenFor(side); }

 private:
  const Position& pos_;
  int seat_;
};

class Bot {
 public:
  virtual ~Bot() = default;
  // Picks one of `legal` (never empty). Draw moves are shown without cards.
  virtual size_t Choose(const SeatView& view, const std::vector<Move>& legal, Rng& rng) = 0;
  virtual const char* name() const = 0;
  // Whether the bot picks uniformly among the legal moves whatever it sees:
  // then PlayOut and SimulateGame draw its move with SampleLegalMove instead
  // of listing every legal move for Choose (the same chances, fewer judged).
  virtual bool uniform() const { return false; }
  // Whether the bot plays the legal move of the highest Score() plus its
  // tie_break() draw (TieBreak, core/legal_moves.h): then PlayOut finds its
  // move with BestLegalMove, which judges only the candidates that may win
  // (the same chances as Choose over every legal move, fewer judged).
  virtual bool scored() const { return false; }
  // The move's score; only for a scored() bot. A function of the view and
  // the move alone.
  virtual double Score(const SeatView& /*view*/, const Move& /*m*/) const { return 0; }
  // Score() of `view` as one function, which gives the same values: a bot
  // may work out once what the scores of one view share. `view` must
  // outlive it.
  virtual std::function<double(const Move&)> Scorer(const SeatView& view) const {
    return [this, &view](const Move& m) { return Score(view, m); };
  }
  virtual TieBreak tie_break() const { return TieBreak(); }
};

// Uniform among the legal moves.
std::unique_ptr<Bot> MakeRandomBot();
// Plays by the strategy advice of 000 §20.
std::unique_ptr<Bot> MakeSensibleBot();
std::unique_ptr<Bot> MakeBot(const std::string& name);  // "random", "sensible"; null if unknown

// A deal from a pack shuffled with `rng` (Fisher-Yates over the ruleset's
// pack), dealt one card at a time from the dealer's left (000 §6), with the
// upcards turned and the stock recorded.
DealMove ShuffledDeal(const Rules& r, int dealer, Rng& rng);

// Plays `pos` on with `bot` choosing for every seat (the red threes due are
// laid first, with no choice) until the deal is over, the stock is gone and
// the player in turn may end the deal, no move is legal, or `max_moves`
// moves were played; the moves come from LegalMoves and are applied without
// a second check. It does not call End. Returns the moves played. The engine
// loop of rollouts (review/evaluate.cc) and of the bench's self-play figure.
// A nonzero `tie_key` keys a scored bot's tie-breaks (TieBreak::key).
int PlayOut(Position* pos, Bot& bot, Rng& rng, int max_moves, uint64_t tie_key = 0);

}  // namespace canasta

#endif  // CANASTA_CORE_BOTS_H_
