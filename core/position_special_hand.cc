// Special hands (001 L65-L71, L74, L79; readings R42, R44): after the draw
// from the stock, a player whose side has not melded lays the whole hand of
// 14 cards down, with no discard; the deal ends, and the side scores the
// hand's value and nothing else (position_score.cc).
#include <string>
#include <vector>

#include "core/position.h"
#include "core/position_internal.h"
#include "core/special_hand.h"

namespace canasta {

using position_internal::Seat;
using position_internal::Tv;

namespace {
constexpr const char* kShapeSource = "001 L65-L71, readings R42";
constexpr const char* kTimingSource = "001 L65, readings R44";
}  // namespace

TaggedViolations Position::CheckSpecialHand(const SpecialHandMove& m) const {
  TaggedViolations out;
  if (!rules_->special_hands()) {
    out.push_back(Tv(CheckId::kSpecialHandNotAllowed, "this ruleset has no special hands",
                     "001 L65 (modern-american only)"));
    return out;
  }
  // "after drawing, lay the whole hand down" (001 L65): before the draw the
  // hand is one card short, so only the timing is the finding.
  const bool before_draw =
      m.player == current_ && (phase_ == Phase::kDraw || phase_ == Phase::kBeforePlay);
  if (before_draw) {
    out.push_back(Tv(CheckId::kSpecialHandTiming,
                     Seat(m.player) +
                         " declares a special hand without drawing first; it is laid down after "
                         "the draw from the stock",
                     kTimingSource));
  } else {
    CheckTurn(m.player, /*drawing=*/false, &out);
  }
  if (m.player < 0 || m.player >= rules_->num_players || phase_ == Phase::kOver) return out;
  const bool in_turn = m.player == current_ && phase_ == Phase::kPlay && turn_.player == m.player;
  if (in_turn && turn_.took_pile) {
    // Readings R44: taking the pile needs a meld, so only a stock draw comes first.
    out.push_back(Tv(CheckId::kSpecialHandTiming,
                     Seat(m.player) +
                         " took the pile this turn; a special hand is declared after drawing "
                         "from the stock, by a side that has not melded",
                     kTimingSource));
  } else if (sides_[side_of(m.player)].opened || (in_turn && turn_.melded)) {
    out.push_back(Tv(CheckId::kSpecialHandTiming,
                     Seat(m.player) +
                         "'s side has melded; only a player whose side has not melded may "
                         "declare a special hand",
                     kTimingSource));
  }
  // Going out with a special hand (001 L74, L79) is going out: a binding no forbids it.
  if (in_turn && turn_.answer && !*turn_.answer && rules_->out_answer_binds)
    out.push_back(Tv(CheckId::kOutAnswerBinding,
                     "the partner answered no to \"may I go out?\", so " + Seat(m.player) +
                         " may not go out this turn, with a special hand either",
                     rules_->Cite("ask_out_after_melding", "000 §17")));
  CardCounts declared;
  for (Card c : m.cards) declared.Add(c);
  if (!before_draw) {
    const size_t found = out.size();
    CheckHeld(m.player, m.cards, &out);
    if (out.size() == found) {
      CardCounts left = players_[m.player].hand;
      for (Card c : m.cards) left.Remove(c);
      if (!left.empty()) {
        out.push_back(Tv(CheckId::kSpecialHandShape,
                         "a special hand is the whole hand, laid down at once; " + Seat(m.player) +
                             " still holds " + ToString(left.ToVector()),
                         kShapeSource));
        return out;
      }
    }
  }
  if (declared.total() != kSpecialHandCards) {
    out.push_back(Tv(CheckId::kSpecialHandShape,
                     "a special hand is " + std::to_string(kSpecialHandCards) + " cards; " +
                         Seat(m.player) + " declares " + std::to_string(declared.total()),
                     kShapeSource));
    return out;
  }
  if (!SpecialHandOf(*rules_, declared)) {
    std::vector<std::string> why = SpecialHandShortfall(*rules_, declared);
    TaggedViolation v = Tv(CheckId::kSpecialHandShape, why.front(), kShapeSource);
    v.violation.notes.insert(v.violation.notes.begin(), why.begin() + 1, why.end());
    out.push_back(std::move(v));
  }
  return out;
}

void Position::ApplySpecialHand(const SpecialHandMove& m) {
  // Under a ruleset with no special hands the declaration changes nothing.
  if (!rules_->special_hands() || m.player < 0 || m.player >= rules_->num_players ||
      phase_ == Phase::kOver)
    return;
  if (turn_.player != m.player) BeginTurn(m.player);
  Player& p = players_[m.player];
  Side& side = sides_[side_of(m.player)];
  CardCounts declared;
  for (Card c : m.cards) {
    if (!c.valid()) continue;
    if (!p.hand.Remove(c)) Conjure(c);
    side.special.push_back(c);
    declared.Add(c);
  }
  const std::optional<SpecialHandKind> kind = SpecialHandOf(*rules_, declared);
  special_player_ = m.player;
  special_value_ = kind ? SpecialHandValue(*rules_, *kind) : 0;
  // "If the team went out with one" (001 L79): the player goes out.
  went_out_ = m.player;
  concealed_ = false;
  bonus_count_ = 0;
  phase_ = Phase::kOver;
  FinishTurn();
}

}  // namespace canasta
