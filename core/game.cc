#include "core/game.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace canasta {

namespace {

// The last position of the thread's last game, kept for its storage only: the
// next game's first deal takes its card vectors and lists (PassMeldStorage)
// instead of allocating each anew, as every later deal does from the one
// before it.
thread_local std::unique_ptr<Position> last_game_position;

}  // namespace

Game::~Game() {
  if (position_) last_game_position = std::move(position_);
}

Game::Game(const Rules& rules, const RuleHooks& hooks)
    : rules_(rules),
      hooks_(hooks),
      totals_(rules.num_sides(), 0),
      canastas_(rules.num_sides(), 0) {}

TaggedViolations Game::StartDeal(int hand_number, const DealMove& deal,
                                 const std::vector<int>* totals) {
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
  // After a misnumbered deal, the numbers may go on from the log's or from
  // the due one: one finding a slip, not one at every later deal.
  const int64_t due_next = due_hand_number_ >= 0 ? due_hand_number_ + 1 : next;
  due_hand_number_ = -1;
  if (hand_number != next && hand_number != due_next) {
    add(CheckId::kDealHandNumber,
        "this deal is numbered " + std::to_string(hand_number) + "; the next is " +
            std::to_string(next),
        "canasta-log/1 deal.hand");
    due_hand_number_ = next;
  }
  const int n = rules_.num_players;
  if (deal.dealer < 0 || deal.dealer >= n) {
    add(CheckId::kDealDealer, "there is no seat " + std::to_string(deal.dealer) + " to deal",
        "000 §6");
  } else if (last_dealer_ >= 0 && deal.dealer != rules_.DealerAfter(last_dealer_)) {
    add(CheckId::kDealDealer,
        "seat " + std::to_string(deal.dealer) + " deals, but " + rules_.DealerRotationWords() +
            ": seat " + std::to_string(rules_.DealerAfter(last_dealer_)),
        rules_.Cite("dealer_rotation", rules_.Cite("rule.dealer", "000 §6")));
  }
  last_hand_number_ = hand_number;
  // A dealer who is no seat sets no rotation to check the next deal against
  // (and DealerAfter stays in range).
  last_dealer_ = deal.dealer >= 0 && deal.dealer < n ? deal.dealer : -1;
  auto fresh = std::make_unique<Position>(rules_, hooks_,
                                         totals && totals->size() == totals_.size() ? *totals
                                                                                    : totals_);
  if (position_) {
    position_->PassMeldStorage(fresh.get());
  } else if (last_game_position) {
    last_game_position->PassMeldStorage(fresh.get());
    last_game_position.reset();
  }
  position_ = std::move(fresh);
  TaggedViolations dv = position_->Deal(deal);
  if (out.empty()) return dv;  // the usual deal: the game found nothing to put first
  out.insert(out.end(), std::make_move_iterator(dv.begin()), std::make_move_iterator(dv.end()));
  return out;
}

std::vector<ScoreBreakdown> Game::FinishDeal() {
  std::vector<ScoreBreakdown> parts = position_->Score();
  for (size_t s = 0; s < parts.size() && s < totals_.size(); ++s) {
    totals_[s] = SaturatingAdd(totals_[s], parts[s].total());
    canastas_[s] += position_->CanastaCount(int(s));
  }
  ++deals_;
  outcome_ = DecideGame(rules_, hooks_, totals_, deals_, canastas_);
  return parts;
}

GameOutcome DecideGame(const Rules& rules, const RuleHooks& hooks, const std::vector<int>& totals,
                       int hands, const std::vector<int>& canastas) {
  GameOutcome out;
  if (hands <= 0 || totals.empty()) return out;
  const int best = *std::max_element(totals.begin(), totals.end());
  if (best < rules.target_score) return out;  // 000 §19
  // The usual end has one leader: the list of the tied is made only for a tie.
  const auto leader = std::find(totals.begin(), totals.end(), best);
  out.over = true;
  if (std::find(leader + 1, totals.end(), best) == totals.end()) {
    out.winner = int(leader - totals.begin());
    return out;
  }
  std::vector<int> tied;
  for (size_t s = 0; s < totals.size(); ++s)
    if (totals[s] == best) tied.push_back(int(s));
  if (hooks.Overrides(HookId::kTieBreak)) {
    TieBreakHookState state;
    state.totals = &totals;
    state.tied = &tied;
    state.canastas = &canastas;
    state.hands = hands;
    const HookAnswer answer = hooks.Call(HookContext(HookId::kTieBreak, state), rules);
    if (answer.given && answer.integer >= 0 && answer.integer < int(totals.size())) {
      out.winner = answer.integer;
      return out;
    }
  }
  // readings R17: an exact tie plays another deal, or is a draw.
  out.tied = true;
  out.over = rules.exact_tie == ExactTie::kDraw;
  return out;
}

}  // namespace canasta
