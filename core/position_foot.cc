// The foot (002 L71, "dealing each player two separate piles of cards: the
// hand, which is played first, and the foot, which is picked up and played
// once the hand is exhausted"): the pickup's check and apply, and what a
// hand emptied before the foot was picked up does to the turn (readings R116).
#include <string>

#include "core/position.h"
#include "core/position_internal.h"

namespace canasta {

using position_internal::Plural;
using position_internal::Seat;
using position_internal::Tv;

int Position::FootDue() const {
  if (!rules_->feet() || phase_ == Phase::kOver || phase_ == Phase::kBeforePlay) return -1;
  const int n = rules_->num_players;
  auto due = [this](int seat) { return FootPending(seat) && players_[seat].hand.empty(); };
  if (rules_->foot_pickup == FootPickup::kNextTurn)
    return phase_ == Phase::kDraw && due(current_) ? current_ : -1;
  // At once: emptied by melding, in the play phase of the player's own
  // turn; emptied by the discard, before the next turn begins.
  if (phase_ == Phase::kPlay) return due(current_) ? current_ : -1;
  const int previous = (current_ + n - 1) % n;
  return phase_ == Phase::kDraw && turn_.player < 0 && due(previous) ? previous : -1;
}

TaggedViolations Position::CheckFoot(const FootMove& m) const {
  TaggedViolations out;
  if (m.player < 0 || m.player >= rules_->num_players) {
    out.push_back(Tv(CheckId::kTurnOrder, "there is no " + Seat(m.player), "000 §5"));
    return out;
  }
  const std::string source = rules_->Cite("foot_size", "002 L71, readings R116");
  if (!rules_->feet()) {
    out.push_back(Tv(CheckId::kFootPickup,
                     Seat(m.player) + " picks up a foot, but this ruleset deals none", source));
    return out;
  }
  if (phase_ == Phase::kOver) {
    out.push_back(Tv(CheckId::kTurnSequence, "the deal is already over", "000 §11, §17"));
    return out;
  }
  const Player& p = players_[m.player];
  if (p.foot_taken) {
    out.push_back(Tv(CheckId::kFootPickup,
                     Seat(m.player) + " picks up the foot a second time; it was picked up already",
                     source));
    return out;
  }
  if (!p.hand.empty()) {
    out.push_back(Tv(CheckId::kFootPickup,
                     Seat(m.player) + " picks up the foot early: the hand still holds " +
                         Plural(p.hand.total(), "card") +
                         "; the foot is picked up once the hand is exhausted",
                     source));
    return out;
  }
  if (FootDue() != m.player) {
    const std::string when = rules_->Cite("foot_pickup", "002 L71, readings R116");
    out.push_back(Tv(CheckId::kFootPickup,
                     rules_->foot_pickup == FootPickup::kAtOnce
                         ? Seat(m.player) +
                               " picks up the foot late: under this ruleset it is picked up as "
                               "the hand is emptied"
                         : Seat(m.player) +
                               " picks up the foot out of time: under this ruleset it is picked "
                               "up at the start of the player's next turn, before drawing",
                     when));
  }
  return out;
}

void Position::ApplyFoot(const FootMove& m) {
  if (m.player < 0 || m.player >= rules_->num_players || phase_ == Phase::kOver) return;
  Player& p = players_[m.player];
  if (p.foot_taken) return;
  // Picked up as recorded, even early (the check said so): the foot joins the hand.
  for (int i = 0; i < kNumFaces; ++i) {
    const Card c = Card::FromIndex(i);
    if (int k = p.foot.count(c)) p.hand.Add(c, k);
  }
  p.foot = CardCounts();
  p.foot_taken = true;
  // Picked up after the discard: its red threes are laid out before the
  // next turn begins (readings R116).
  if (phase_ == Phase::kDraw && m.player != current_) foot_threes_seat_ = m.player;
}

void Position::HandEmptiedBeforeFoot(int player) {
  if (rules_->foot_pickup != FootPickup::kNextTurn || player != current_) return;
  // Readings R116: under next_turn a hand emptied by melding ends the turn
  // as going out by melding would (no discard); the foot comes next turn.
  FinishTurn();
  turn_.Reset();
  current_ = (player + 1) % rules_->num_players;
  phase_ = Phase::kDraw;
  if (stock_size_ == 0 && rules_->stock_out_play == StockOutPlay::kEndsAtLastCard)
    phase_ = Phase::kOver;
}

}  // namespace canasta
