// Scoring a deal (000 §18; red threes 000 §7).
#include <array>
#include <vector>

#include "core/position.h"

namespace canasta {

int Position::CanastaBonus(const Meld& m) const { return canasta::CanastaBonus(*rules_, m); }
int Position::UnfinishedPenalty(const Meld& m) const {
  return canasta::UnfinishedPenalty(*rules_, m);
}

std::vector<ScoreBreakdown> Position::Score() const {
  std::vector<ScoreBreakdown> out(rules_->num_sides(), EmptyBreakdown(hooks_->ExtraParts()));
  const int all_threes = 2 * rules_->decks;
  for (int side = 0; side < rules_->num_sides(); ++side) {
    ScoreBreakdown& b = out[side];
    if (special_player_ >= 0 && side_of(special_player_) == side) {
      // 001 L79: "it scores that value and nothing else" (readings R44).
      b.special_hand = special_value_;
      continue;
    }
    const Side& s = sides_[side];
    bool any_meld = false;
    int canastas = 0;
    int unfinished = 0;  // 001 L82: penalties for unfinished melds (readings R51)
    for (const Meld& m : s.melds) {
      if (m.cards.empty()) continue;
      any_meld = true;
      b.melded = SaturatingAdd(b.melded, m.Value(*rules_));
      if (m.is_canasta(*rules_)) {
        ++canastas;
        b.canastas = SaturatingAdd(b.canastas, CanastaBonus(m));
      } else {
        unfinished = SaturatingAdd(unfinished, UnfinishedPenalty(m));
      }
    }
    // 001 L84: a side with no canasta loses its melded cards' value.
    if (rules_->melded_counts_against_without_canasta && canastas == 0) b.melded = -b.melded;
    int reds = 0, blacks = 0;
    for (Card c : s.threes) (c.is_red_three() ? reds : blacks) += 1;
    if (!rules_->three_values.empty()) {
      // 001 L48: red and black threes are looked up separately and added.
      b.red_threes = SaturatingAdd(rules_->ThreeValue(reds), rules_->ThreeValue(blacks));
    } else {
      // 000 §7, readings R8: all of them together score all_red_threes_bonus in total.
      b.red_threes = reds == all_threes && reds > 0 ? rules_->all_red_threes_bonus
                                                    : SaturatingMul(reds, rules_->red_three_bonus);
    }
    if (rules_->three_sign_by_canastas) {
      // 001 L52-L57: against with no canasta, nothing with one, for with two.
      if (canastas == 0)
        b.red_threes = -b.red_threes;
      else if (canastas == 1)
        b.red_threes = 0;
    } else if (!any_meld && rules_->red_threes_count_against_unmelded) {
      b.red_threes = -b.red_threes;
    }
    if (went_out_ >= 0 && side_of(went_out_) == side) {
      b.going_out = concealed_ && rules_->concealed_going_out_bonus > 0
                        ? rules_->concealed_going_out_bonus
                        : rules_->going_out_bonus;
    }
    int caught = 0;
    for (int seat = 0; seat < rules_->num_players; ++seat) {
      if (side_of(seat) != side) continue;
      // 002 L71, readings R116: a foot not picked up counts against the
      // side card by card, as cards in hand never held in a turn do (000 §3).
      const CardCounts& foot_left = players_[seat].foot;
      // The faces are read by index (count_at): every index is a valid card.
      for (int i = 0; i < kNumFaces && !foot_left.empty(); ++i) {
        const int copies = foot_left.count_at(i);
        if (copies == 0) continue;
        const Card c = Card::FromIndex(i);
        const int value = !rules_->three_values.empty() && c.is_three()
                              ? rules_->card_value[size_t(Rank::kThree)]
                              : rules_->value(c);
        b.in_hand = SaturatingAdd(b.in_hand, -SaturatingMul(copies, value));
      }
      const CardCounts& held = hand(seat);
      if (held.empty()) continue;  // adds nothing (most seats at the end of a hand)
      std::array<int, 16> by_rank{};
      for (int i = 0; i < kNumFaces; ++i) {
        const int copies = held.count_at(i);
        if (copies == 0) continue;  // adds 0
        const Card c = Card::FromIndex(i);
        by_rank[size_t(c.rank())] += copies;
        // With the threes table a three in hand is a card like any other
        // (001 L57: it counts 5 against).
        if (!rules_->three_values.empty() && c.is_three()) {
          b.in_hand = SaturatingAdd(
              b.in_hand, -SaturatingMul(copies, rules_->card_value[size_t(Rank::kThree)]));
          continue;
        }
        // A red three left in hand is dealt with by the penalty once its
        // holder has had a turn (000 §7; readings R8, R20); before that it is
        // a card in hand and counts its value against the side (000 §3, §9;
        // readings R107).
        if (c.is_red_three() && players_[seat].turns > 0) continue;
        b.in_hand = SaturatingAdd(b.in_hand, -SaturatingMul(copies, rules_->value(c)));
      }
      // 001 L61, L85: caught holding; each kind adds up (readings R49).
      for (int rank = 2; rank <= 15; ++rank)
        if (rules_->caught_holding_penalty[size_t(rank)] > 0 &&
            by_rank[size_t(rank)] >= rules_->caught_holding_count)
          caught = SaturatingAdd(caught, rules_->caught_holding_penalty[size_t(rank)]);
    }
    // The end-of-hand penalties whatever the canasta count (readings R51).
    b.penalties = -SaturatingAdd(SaturatingAdd(s.penalties, unfinished), caught);
    b.house = hooks_->HouseScoreAdjustment(*rules_, Summary(side),
                                          went_out_ >= 0 && side_of(went_out_) == side);
    if (hooks_->Overrides(HookId::kScore)) ApplyScoreHook(side, any_meld, &b);
  }
  return out;
}

// The ruleset's hook `score` sees the engine's breakdown and may set parts:
// a standard part replaces the engine's value, a part of its own
// (`score_parts`) lands in b->extra.
void Position::ApplyScoreHook(int side, bool any_meld, ScoreBreakdown* b) const {
  ScoreHookState state;
  state.position = this;
  state.side = side;
  state.went_out = went_out_ >= 0 && side_of(went_out_) == side;
  state.concealed = state.went_out && concealed_;
  state.ended = went_out_ >= 0 ? "out" : ended_ || phase_ == Phase::kOver ? "stock" : "unfinished";
  state.opened = any_meld;
  state.breakdown = b;
  const HookAnswer answer = hooks_->Call(HookContext(HookId::kScore, state), *rules_);
  if (!answer.given) return;
  for (const auto& [name, value] : answer.parts) {
    // The loader admits only standard and declared parts; any other is dropped.
    if (int* part = b->Find(name)) *part = value;
  }
}

}  // namespace canasta
