#include "core/game.h"

#include <algorithm>
#include <cstdint>

namespace canasta {

Game::Game(const Rules& rules, const RuleHooks& hooks)
    : rules_(rules), hooks_(hooks), totals_(rules.num_sides(), 0) {}

TaggedViolations Game::StartDeal(int hand_number, const DealMove& deal) {
  TaggedViolations out;
  auto add = [&](CheckId id, std::string msg, std::string src) {
    out.push_back(TaggedViolation{deal.tag, Violation{id, std::move(msg), {"rule: " + src}}});
  };
  if (over()) {
    add(CheckId::kGameEnd,
        "the game was already over (a side reached " + std::to_string(rules_.target_score) +
            "), yet another deal begins",
        rules_.Cite("rule.game_end", "000 §19"));
  }
  // In 64 bits: a log may number a deal INT_MAX, and the next one after it.
  const int64_t next = int64_t{last_hand_number_} + 1;
  if (hand_number != next) {
    add(CheckId::kDealHandNumber,
        "this deal is numbered " + std::to_string(hand_number) + "; the next is " +
            std::to_string(next),
        "canasta-log/1 deal.hand");
  }
  const int n = rules_.num_players;
  if (deal.dealer < 0 || deal.dealer >= n) {
    add(CheckId::kDealDealer, "there is no seat " + std::to_string(deal.dealer) + " to deal",
        "000 §6");
  } else if (last_dealer_ >= 0 && deal.dealer != (last_dealer_ + 1) % n) {
    add(CheckId::kDealDealer,
        "seat " + std::to_string(deal.dealer) + " deals, but the deal passes to the left: seat " +
            std::to_string((last_dealer_ + 1) % n),
        rules_.Cite("rule.dealer", "000 §6"));
  }
  last_hand_number_ = hand_number;
  // A dealer who is no seat sets no rotation to check the next deal against
  // (and last_dealer_ + 1 stays in range).
  last_dealer_ = deal.dealer >= 0 && deal.dealer < n ? deal.dealer : -1;
  position_ = std::make_unique<Position>(rules_, hooks_, totals_);
  TaggedViolations dv = position_->Deal(deal);
  out.insert(out.end(), dv.begin(), dv.end());
  return out;
}

std::vector<ScoreBreakdown> Game::FinishDeal() {
  std::vector<ScoreBreakdown> parts = position_->Score();
  for (size_t s = 0; s < parts.size() && s < totals_.size(); ++s)
    totals_[s] = SaturatingAdd(totals_[s], parts[s].total());
  ++deals_;
  return parts;
}

bool Game::tied_at_target() const {
  const int best = *std::max_element(totals_.begin(), totals_.end());
  return best >= rules_.target_score && std::count(totals_.begin(), totals_.end(), best) > 1;
}

bool Game::over() const {
  if (deals_ == 0) return false;
  const int best = *std::max_element(totals_.begin(), totals_.end());
  if (best < rules_.target_score) return false;
  return !(tied_at_target() && rules_.exact_tie == ExactTie::kPlayAnotherDeal);
}

std::optional<int> Game::winner() const {
  if (!over() || tied_at_target()) return std::nullopt;
  return int(std::max_element(totals_.begin(), totals_.end()) - totals_.begin());
}

}  // namespace canasta
