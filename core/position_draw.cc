// The draw: from the stock (000 §12, §15) or taking the pile (000 §13, §14;
// 002 Play-4, Play-5).
#include <algorithm>
#include <optional>
#include <vector>

#include "core/position.h"
#include "core/position_internal.h"

namespace canasta {

using position_internal::OutOfLine;
using position_internal::Plural;
using position_internal::Seat;
using position_internal::Tv;

namespace {
// The cards a take lays on the table: those shown, then the top card.
void LaidByTake(const TakePileMove& m, Card top, std::vector<Card>* laid) {
  laid->reserve(m.with.size() + 1);  // one allocation
  laid->assign(m.with.begin(), m.with.end());
  laid->push_back(top);
}

// The storage of the cards a take lays, kept for the thread's next take
// (every take is checked): a check borrows it, empty, and gives it back. A
// check nested in another (a ruleset's hook) finds none and allocates.
class LaidBuffer {
 public:
  LaidBuffer() : cards_(std::move(spare_)) { cards_.clear(); }
  ~LaidBuffer() { spare_ = std::move(cards_); }
  LaidBuffer(const LaidBuffer&) = delete;
  LaidBuffer& operator=(const LaidBuffer&) = delete;
  std::vector<Card>& cards() { return cards_; }

 private:
  static thread_local std::vector<Card> spare_;
  std::vector<Card> cards_;
};
thread_local std::vector<Card> LaidBuffer::spare_;
}  // namespace

void Position::CheckBonusDrawn(TaggedViolations* out) const {
  if (bonus_count_ > 0 && phase_ != Phase::kOver) {
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kDrawCount,
                        Seat(bonus_player_) + " did not draw the " +
                            Plural(bonus_count_, "bonus card") + " due after the initial meld",
                        rules_->Cite("bonus_cards_first", "001 L37")));
    });
  }
}

void Position::TakeFromStock(Card c) {
  if (!unseen_.Remove(c)) Conjure(c);  // drawn though no copy is left
  if (stock_) {
    // The recorded stock is followed through a slip of the log (StepStock).
    const StockStep step = StepStock(c, stock_pos_, stock_alt_);
    stock_pos_ = step.pos;
    stock_alt_ = step.alt;
    stock_size_ = int(stock_->size() - stock_pos_);
  } else if (stock_size_ > 0) {
    --stock_size_;
  }
}
bool Position::GiveFromStock(int seat, const std::vector<Card>& cards) {
  if (cards.empty() || seat < 0 || seat >= rules_->num_players || int(cards.size()) > stock_size_ ||
      stock_alt_ != kNoSlot)
    return false;
  for (size_t i = 0; i < cards.size(); ++i) {
    if (stock_ ? (*stock_)[stock_pos_ + i] != cards[i] : unseen_.count(cards[i]) == 0) return false;
  }
  for (Card c : cards) {
    TakeFromStock(c);
    players_[seat].hand.Add(c);
  }
  CANASTA_DCHECK(InvariantsHold());
  return true;
}
bool Position::ReturnToStock(int seat, const std::vector<Card>& cards) {
  const size_t n = cards.size();
  if (n == 0 || seat < 0 || seat >= rules_->num_players || phase_ == Phase::kOver ||
      !players_[seat].hand.Contains(cards))
    return false;
  if (stock_) {
    // The cards just taken from the recorded stock, in its order (after a
    // slip, the card before stock_pos_ is the one the slip stood for, not
    // the card drawn: StepStockSlip).
    if (stock_pos_ < n) return false;
    for (size_t i = 0; i < n; ++i)
      if ((*stock_)[stock_pos_ - n + i] != cards[i]) return false;
    stock_pos_ -= n;
    stock_size_ = int(stock_->size() - stock_pos_);
  } else {
    stock_size_ += int(n);
  }
  for (Card c : cards) {
    players_[seat].hand.Remove(c);
    unseen_.Add(c);
  }
  CANASTA_DCHECK(InvariantsHold());
  return true;
}
TaggedViolations Position::CheckDraw(const DrawMove& m) const {
  // Every draw comes here: the findings are worded out of line.
  TaggedViolations out;
  if (m.bonus) {
    OutOfLine([&] {
      // 001 L37, readings R47: drawn after the discard by the player whose
      // initial meld earned them.
      const std::string source = rules_->Cite("bonus_cards_first", "001 L37");
      if (bonus_count_ == 0 || m.player != bonus_player_) {
        out.push_back(Tv(CheckId::kDrawCount,
                         Seat(m.player) + " draws bonus cards, but none are due" +
                             (bonus_count_ > 0 ? " to them (" + Seat(bonus_player_) + " has " +
                                                     Plural(bonus_count_, "bonus card") + " due)"
                                               : std::string()),
                         source));
        return;
      }
      if (int(m.cards.size()) != bonus_count_)
        out.push_back(Tv(CheckId::kDrawCount,
                         Seat(m.player) + " draws " + Plural(int(m.cards.size()), "bonus card") +
                             "; " + std::to_string(bonus_count_) + " are due",
                         source));
      CheckFromStock(m.cards, &out);
    });
    return out;
  }
  CheckBonusDrawn(&out);
  CheckTurn(m.player, /*drawing=*/true, &out);
  if (stock_size_ == 0) {
    // The log drew on past the stock's end: reported at the first draw only
    // (the later ones are the same disagreement about the stock).
    if (drew_past_stock_) return out;
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kStockEmpty,
                       "the stock is empty: the player in turn takes the pile or play ends",
                       rules_->Cite("rule.stock_out", "000 §15")));
    });
    return out;
  }
  const int expected = std::min(rules_->stock_draw, stock_size_);  // readings R10
  if (int(m.cards.size()) != expected) {
    OutOfLine([&] {
      out.push_back(
          Tv(CheckId::kDrawCount,
             Seat(m.player) + " draws " + Plural(int(m.cards.size()), "card") + "; a turn draws " +
                 std::to_string(expected) + " from the stock",
             rules_->Cite("stock_draw",
                          rules_->stock_draw == 1 ? "000 §12" : "000 §21, readings R10")));
    });
  }
  CheckFromStock(m.cards, &out);
  return out;
}

TaggedViolations Position::Play(const DrawMove& m) {
  if (PlayUsualDraw(m)) return {};
  TaggedViolations v = CheckDraw(m);
  ApplyDraw(m);
  CANASTA_DCHECK(InvariantsHold());
  return v;
}

bool Position::PlayUsualDraw(const DrawMove& m) {
  // Each test below is the usual side of a rule of CheckDraw, CheckTurn or
  // CheckFromStock (where the rule is stated and cited); anything else goes there.
  if (m.bonus || bonus_count_ > 0 || phase_ == Phase::kOver || phase_ == Phase::kPlay ||
      m.player != current_ || m.player < 0 || m.player >= rules_->num_players || stock_size_ == 0)
    return false;
  Player& p = players_[m.player];
  if (p.hand.empty() && FootPending(m.player)) return false;
  const size_t n = m.cards.size();
  if (int(n) != std::min(rules_->stock_draw, stock_size_)) return false;
  // Each card the stock's next, with a copy unseen (copies counted only
  // where fewer are left than cards drawn: CheckFromStock).
  for (size_t i = 0; i < n; ++i) {
    const Card c = m.cards[i];
    if (stock_ && (stock_pos_ + i >= stock_->size() || (*stock_)[stock_pos_ + i] != c))
      return false;
    if (unseen_.count(c) <= int(i)) return false;
  }
  // Applied as ApplyDraw applies it.
  if (turn_.player != m.player) BeginTurn(m.player);
  for (Card c : m.cards) {
    unseen_.Remove(c);
    p.hand.Add(c);
  }
  if (stock_) {
    stock_pos_ += n;
    stock_alt_ = kNoSlot;
    stock_size_ = int(stock_->size() - stock_pos_);
  } else {
    stock_size_ -= int(n);
  }
  StockDrawn(m.cards);
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

void Position::ApplyDraw(const DrawMove& m) {
  if (m.player < 0 || m.player >= rules_->num_players || phase_ == Phase::kOver) return;
  if (m.bonus) {
    // Bonus cards go to the hand between turns; the next turn is not begun.
    for (Card c : m.cards) {
      if (stock_size_ == 0) break;
      TakeFromStock(c);
      players_[m.player].hand.Add(c);
    }
    bonus_count_ = 0;
    return;
  }
  // A turn already opened by the player (asking "may I go out?" before the
  // draw) goes on; otherwise the draw begins the player's turn.
  if (m.player != current_ || turn_.player != m.player) BeginTurn(m.player);
  TakeUpFootPlayedOn(m.player);
  if (stock_size_ == 0) drew_past_stock_ = true;  // stock-empty was reported (CheckDraw)
  for (Card c : m.cards) {
    TakeFromStock(c);
    players_[m.player].hand.Add(c);
  }
  StockDrawn(m.cards);
}

void Position::StockDrawn(const std::vector<Card>& cards) {
  turn_.drew = true;
  turn_.draw_left_out = false;  // the draw came late (readings R121)
  phase_ = Phase::kPlay;
  // 000 §15: the last stock card is a red three (any three the ruleset lays
  // out): reveal it, no meld or discard.
  if (stock_size_ == 0 && !cards.empty() && rules_->IsLaidOutThree(cards.back()))
    phase_ = Phase::kOver;
}
Rank Position::TakeRank(const TakePileMove& m) const {
  const Card top = pile_.back();
  if (!top.is_wild()) return top.rank();
  // A wild top card (wild_top_blocks_take false) joins the meld it is
  // taken onto, or the one the cards shown make.
  if (m.with.empty() && m.to) return *m.to;
  std::optional<Rank> rank = MeldRank(m.with, std::nullopt);
  return rank ? *rank : Rank::kJoker;
}

TaggedViolations Position::CheckTakePile(const TakePileMove& m) const {
  TaggedViolations out;
  CheckBonusDrawn(&out);
  CheckTurn(m.player, /*drawing=*/true, &out);
  if (m.player < 0 || m.player >= rules_->num_players) return out;
  const int side = side_of(m.player);
  const bool before_rule = rules_->initial_meld_before_pile && !sides_[side].opened;
  if (m.before.empty()) {
    if (before_rule && !pile_.empty()) {
      OutOfLine([&] {
        // 001 L42: "the whole initial meld must already be complete in your
        // hand and laid down first" (readings R46).
        out.push_back(Tv(CheckId::kInitialMeldMinimum,
                         "before the side has melded, its initial meld (" +
                             std::to_string(Minimum(side)) +
                             ") is laid from the hand before the pile is taken; the pile's cards "
                             "never count toward it (take_pile \"before\")",
                         rules_->Cite("initial_meld_before_pile", "001 L42, readings R46")));
      });
    }
    CheckTake(m, &out);
    return out;
  }
  // The melds shown before the take: checked as melds, then the take is
  // checked on the table they make (a copy of the position: out of line).
  OutOfLine([&] {
    if (!before_rule) {
      out.push_back(Tv(CheckId::kTurnSequence,
                       "melds are laid before taking the pile only as the side's initial meld "
                       "under initial_meld_before_pile",
                       rules_->Cite("initial_meld_before_pile", "000 §11, §13")));
    }
    MeldShapes shapes;
    std::array<bool, 16> known{};
    CheckMeldParts(m.player, m.before, &shapes, &known, &out);
    Position after = *this;
    if (after.current_ != m.player || after.turn_.player != m.player) after.BeginTurn(m.player);
    after.LayParts(m.player, m.before, m.tag);
    if (before_rule) after.OpeningFindings(&out, 0);
    TakePileMove take = m;
    take.before.clear();
    after.CheckTake(take, &out);
  });
  return out;
}

void Position::CheckTake(const TakePileMove& m, TaggedViolations* out_ptr) const {
  // Every take comes here: the findings are worded out of line.
  TaggedViolations& out = *out_ptr;
  if (pile_.empty()) {
    OutOfLine(
        [&] { out.push_back(Tv(CheckId::kPileEmpty, "the discard pile is empty", "000 §12")); });
    return;
  }
  const Card top = pile_.back();
  if (m.top != top) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kPileTopMismatch,
                       "the pile's top card is " + ToString(top) + ", not " + ToString(m.top),
                       "000 §12"));
    });
  }
  if (m.count && *m.count != int(pile_.size())) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kPileCount,
                       "the pile holds " + Plural(int(pile_.size()), "card") + ", not " +
                           std::to_string(*m.count),
                       "000 §12"));
    });
  }
  // The ruleset's rules of the take; the cards shown must be held whatever
  // they say (a physical check), in the place the engine always gave it.
  // The cards the take lays (those shown, then the top card): built once,
  // by the take's rules when they look at them, else below.
  LaidBuffer laid_buffer;
  std::vector<Card>& laid = laid_buffer.cards();
  TaggedViolations rule;
  int held_at = -1;
  bool stop = TakeRuleFindings(m, &laid, &rule, &held_at);
  TaggedViolations held;
  CheckHeld(m.player, m.with, &held);
  bool check_ranks = false;
  if (hooks_->Overrides(HookId::kMayTakePile)) {
    OutOfLine([&] {
      TakePileHookState state(*this, m.player);
      state.top = top;
      state.with = &m.with;
      state.to = m.to;
      state.to_hand = m.to_hand;
      if (!rule.empty()) state.refusal = &rule.front().violation.message;
      const HookAnswer answer = hooks_->Call(HookContext(HookId::kMayTakePile, state), *rules_);
      if (answer.given) {
        rule.clear();
        held_at = 0;
        if (answer.allowed) {
          // The ruleset allows the take: the meld it makes is still checked.
          stop = false;
          check_ranks = true;
        } else {
          rule.push_back(HookRefusal(CheckId::kPileHouseRule, HookId::kMayTakePile, answer));
          stop = true;
        }
      }
    });
  }
  if (held_at >= 0 && !held.empty()) rule.insert(rule.begin() + held_at, held.begin(), held.end());
  if (!rule.empty()) out.insert(out.end(), rule.begin(), rule.end());
  if (stop || m.to_hand) return;  // into the hand: nothing is laid now

  const int side = side_of(m.player);
  const CardCounts& hand = players_[m.player].hand;
  const Rank take_rank = TakeRank(m);
  const Meld* existing = MeldFor(side, take_rank, m.with.size() < 2);
  if (laid.empty()) LaidByTake(m, top, &laid);
  if (check_ranks) {
    std::optional<Rank> rank = MeldRank(laid, std::nullopt);
    if (!rank || (*rank != take_rank && *rank != Rank::kJoker)) {
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kMeldMixedRanks,
                         "the cards " + ToString(laid) + " are not all of one rank",
                         rules_->Cite("rule.meld_ranks", "000 §8")));
      });
      return;
    }
  }
  // The meld that results must be legal (000 §8).
  MeldShape shape = m.with.size() >= 2 ? ShapeAfterAdding(nullptr, laid, take_rank, *rules_)
                                       : ShapeAfterAdding(existing, laid, take_rank, *rules_);
  if (m.with.size() >= 2 && existing) {
    // readings R18: a new meld of a rank the side holds joins it.
    if (auto v = CheckMeldShape(*rules_, *hooks_, shape)) {
      out.push_back(TaggedViolation{0, std::move(*v)});
      return;
    }
    shape = ShapeAfterAdding(existing, laid, take_rank, *rules_);
  }
  if (auto v = MeldRefusal(m.player, shape, laid, /*from_pile=*/true))
    out.push_back(TaggedViolation{0, std::move(*v)});
  // Taking a pile of one card with every card in the hand empties it: the
  // player goes out, with the turn-end checks of going out (000 §17).
  if (m.player == current_ && phase_ != Phase::kPlay && pile_.size() == 1 &&
      int(m.with.size()) == hand.total() && hand.Contains(m.with) && !FootPending(m.player)) {
    OutOfLine([&] {
      Position after = *this;
      after.ApplyTakePile(m);
      after.CheckTurnEnd(true, after.CanastaCount(side), &out, Card(), "pile");
    });
  }
}

bool Position::TakeRuleFindings(const TakePileMove& m, std::vector<Card>* laid_out,
                                TaggedViolations* out, int* held_at) const {
  // Every take comes here: each finding is worded out of line.
  const Card top = pile_.back();
  *held_at = -1;  // a blocked pile is refused before the cards shown are looked at
  if (m.to_hand && !rules_->pile_top_to_hand) {
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileTakeInvalid,
                        "the ruleset does not allow taking the top card into the hand "
                        "(pile_top_to_hand): it is melded as the pile is taken",
                        rules_->Cite("pile_top_to_hand", "000 §13")));
    });
    return true;
  }
  if (top.is_wild() && rules_->wild_top_blocks_take) {
    OutOfLine([&] {
      out->push_back(
          Tv(CheckId::kPileBlockedTop, "a wild card (" + ToString(top) + ") is on top of the pile",
             rules_->Cite("wild_top_blocks_take", rules_->Cite("unfrozen_take", "000 §14"))));
    });
    return true;
  }
  if (top.is_black_three() && rules_->black_three_blocks_until_covered) {
    OutOfLine([&] {
      out->push_back(
          Tv(CheckId::kPileBlockedTop,
             "a black three (" + ToString(top) + ") is on top of the pile; it blocks until covered",
             "000 §14"));
    });
    return true;
  }
  if (rules_->natural_canasta_closes_rank && !top.is_wild() && RankClosed(top.rank())) {
    // 001 L41: a dead card on top can never be taken (readings R39).
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileBlockedTop,
                        "a dead card (" + ToString(top) +
                            ") is on top of the pile: a natural canasta of " +
                            ToString(top.rank()) + "s is complete, so it can never be taken",
                        rules_->Cite("natural_canasta_closes_rank", "001 L28, L41, readings R39")));
    });
    return true;
  }
  const int side = side_of(m.player);
  if (!rules_->pile_in_initial_meld_turn && !sides_[side].opened) {
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileTakeInvalid,
                        "the side has not made its initial meld, and this ruleset does not allow "
                        "taking the pile in the turn of the initial meld",
                        rules_->Cite("pile_in_initial_meld_turn", "001 L111")));
    });
    return true;
  }
  const CardCounts& hand = players_[m.player].hand;
  if (rules_->one_card_rule && hand.total() == 1 && pile_.size() == 1) {
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileOneCard,
                        Seat(m.player) + " holds one card and may not take a pile of one card",
                        rules_->Cite("one_card_rule", "000 §14, §17, readings R11")));
    });
  }
  *held_at = int(out->size());

  const Rank take_rank = TakeRank(m);
  int pair = 0;  // natural cards of the take's rank from the hand
  int wilds = 0;
  for (Card c : m.with) {
    pair += !c.is_wild() && c.rank() == take_rank;
    wilds += c.is_wild();
  }
  const UnfrozenTake form = rules_->unfrozen_take;
  const bool frozen = IsPileFrozenFor(side);
  const Meld* existing = MeldFor(side, take_rank, m.with.size() < 2);
  if (frozen && pair < 2) {
    OutOfLine([&] {
      TaggedViolation v = Tv(CheckId::kPileFrozenNeedsPair,
                             "the pile is frozen; taking it needs a natural pair of " +
                                 ToString(take_rank) + "s from the hand",
                             rules_->Cite("frozen_take_new_meld", "000 §13, §14"));
      const char* by = PileFrozenBy(side);
      v.violation.notes.push_back(by && std::string_view(by) == "not_opened"
                                      ? "frozen because the side has not made its initial meld"
                                  : by && std::string_view(by) == "black_three"
                                      ? "frozen by a black three in the pile"
                                  : rules_->pile_freeze_lasts == PileFreeze::kUntilCovered
                                      ? "frozen by the card on top of the pile"
                                      : "frozen by a wild card or red three in the pile");
      if (!m.with.empty()) v.violation.notes.push_back("shown: " + ToString(m.with));
      out->push_back(std::move(v));
    });
    return true;
  }
  if (frozen && rules_->frozen_take_new_meld && m.with.size() != 2) {
    // 002 Play-5, readings R25: "use all three to form a new meld": the top card and
    // the natural pair, nothing more (other cards are melded after).
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileTakeInvalid,
                        "a frozen pile is taken by forming a new meld of the top card and two "
                        "natural " +
                            ToString(take_rank) + "s only; shown: " + ToString(m.with),
                        rules_->Cite("frozen_take_new_meld", "002 Play-5, readings R25")));
    });
    return true;
  }
  // Worded only for a finding: this runs for every take.
  const auto rank = [take_rank] { return ToString(take_rank); };
  // The forms of the take (unfrozen_take): 000 §13 ¶1-2 (readings R2); 002
  // Play-4 (readings R25); house rules: natural_pair, pair_or_meld, pair_or_wild.
  // `needs` words what the form needs, out of line.
  auto form_refused = [&](auto needs) {
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileTakeInvalid, "taking the pile needs " + needs(),
                        rules_->Cite("unfrozen_take", form == UnfrozenTake::kTwoNaturalsFromHand
                                                          ? "002 Play-4, readings R25"
                                                          : "house rule: unfrozen_take")));
    });
    return true;
  };
  const auto two = [&rank] { return "two natural " + rank() + "s from the hand"; };
  const bool naturals_only = pair >= 2 && int(m.with.size()) == pair;
  switch (form) {
    case UnfrozenTake::kPairOrNaturalWildOrAdd:
      break;
    case UnfrozenTake::kTwoNaturalsFromHand:
      if (pair < 2) return form_refused([&] { return two(); });
      break;
    case UnfrozenTake::kNaturalPair:
      if (!naturals_only) return form_refused([&] { return two() + " and no other card"; });
      break;
    case UnfrozenTake::kPairOrMeld:
      if (!m.with.empty() && !naturals_only)
        return form_refused([&] {
          return two() + ", or the top card alone onto the side's meld of " + rank() + "s";
        });
      break;
    case UnfrozenTake::kPairOrWild:
      if (!naturals_only && !(pair == 1 && wilds == 1 && m.with.size() == 2))
        return form_refused(
            [&] { return two() + ", or one natural " + rank() + " and one wild card"; });
      break;
  }
  auto onto_canasta = [&] {
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileOntoCanasta,
                        "the top card may not be added directly to a completed canasta",
                        "000 §13"));
    });
    return true;
  };
  if (m.with.empty()) {
    // The top card alone onto the side's meld (000 §13 ¶2, readings R2).
    if (m.to && *m.to != take_rank) {
      OutOfLine([&] {
        out->push_back(Tv(CheckId::kPileTakeInvalid,
                          "the top card " + ToString(top) + " cannot go onto the meld of " +
                              ToString(*m.to) + "s",
                          "000 §13"));
      });
      return true;
    }
    if (!existing) {
      OutOfLine([&] {
        out->push_back(Tv(CheckId::kPileTakeInvalid,
                          "the side has no meld of " + rank() + "s for the top card to join",
                          "000 §13"));
      });
      return true;
    }
    if (existing->is_canasta(*rules_)) return onto_canasta();
    return false;
  }
  LaidByTake(m, top, laid_out);
  const std::vector<Card>& laid = *laid_out;
  std::optional<Rank> meld_rank = MeldRank(laid, std::nullopt);
  if (!meld_rank || *meld_rank != take_rank) {
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileTakeInvalid,
                        "the cards shown (" + ToString(m.with) +
                            ") do not meld with the top card " + ToString(top),
                        "000 §13"));
    });
    return true;
  }
  if (m.with.size() == 1) {
    // One card with the top: only an addition to an unfinished meld.
    if (!existing) {
      OutOfLine([&] {
        out->push_back(Tv(CheckId::kPileTakeInvalid,
                          "the top card and one card from the hand do not make a meld", "000 §13"));
      });
      return true;
    }
    if (existing->is_canasta(*rules_)) return onto_canasta();
  }
  return false;
}

void Position::ApplyTakePile(const TakePileMove& m) {
  if (m.player < 0 || m.player >= rules_->num_players || phase_ == Phase::kOver || pile_.empty())
    return;
  if (m.player != current_ || turn_.player != m.player) BeginTurn(m.player);
  TakeUpFootPlayedOn(m.player);
  Player& p = players_[m.player];
  const int side = side_of(m.player);
  const Card top = pile_.back();
  if (!m.before.empty()) LayParts(m.player, m.before, m.tag);
  // 001 L42: the initial meld was judged as the pile was taken; the pair
  // and the top card never count toward it (readings R46).
  const bool judged = turn_.opening && rules_->initial_meld_before_pile;
  if (judged) turn_.opening_judged = true;
  const Rank take_rank = TakeRank(m);  // before the top card leaves the pile
  if (m.to_hand) {
    // The top card and the pile go into the hand; the cards shown stay there.
    turn_.from_hand = p.hand;
    turn_.from_hand_limited = true;
    // The top card counts toward the minimum when it is melded (000 §8).
    if (rules_->top_card_counts_toward_minimum) turn_.from_hand.Add(top);
    if (rules_->pile_top_to_hand) turn_.top_to_hand = top;
    for (Card c : pile_) {
      p.hand.Add(c);
      if (c.is_red_three()) ++p.pile_threes;  // laid out with no replacement (000 §7)
    }
    pile_.clear();
    turn_.drew = true;
    turn_.took_pile = true;
    turn_.draw_left_out = false;
    phase_ = Phase::kPlay;
    return;
  }
  pile_.pop_back();
  const Meld* existing = MeldFor(side, take_rank, m.with.size() < 2);
  if (existing && existing->size() > 0) turn_.added_to_old_meld |= m.with.size() < 2;
  // The cards held, then the top card, go straight onto the meld (no
  // vector of them built for every take).
  Meld* meld = MeldToLayOn(side, take_rank, existing);
  for (Card c : m.with) {
    if (!p.hand.Remove(c)) continue;
    meld->Add(c);
    turn_.laid.Add(c);
  }
  meld->Add(top);
  turn_.laid.Add(top);
  turn_.from_hand = p.hand;  // cards held before the pile joins the hand
  turn_.from_hand_limited = true;
  if (turn_.opening && !judged) {
    int value = CountToward(m.with, nullptr, &turn_.counted);
    if (rules_->top_card_counts_toward_minimum) {
      value = SaturatingAdd(value, hooks_->InitialMeldValue(*rules_, top));
      turn_.counted.Add(top);
    }
    turn_.initial_count = SaturatingAdd(turn_.initial_count, value);
    turn_.rank_count[int(take_rank)] = SaturatingAdd(turn_.rank_count[int(take_rank)], value);
  }
  if (turn_.opening) {
    turn_.ranks_laid |= uint16_t(1u << int(take_rank));
    turn_.ranks_from_pile |= uint16_t(1u << int(take_rank));
    if (!turn_.first_meld_tag) turn_.first_meld_tag = m.tag;
    turn_.last_meld_tag = m.tag;
  }
  if (top.is_black_three()) turn_.black_three_tags.push_back(m.tag);
  for (Card c : pile_) {
    p.hand.Add(c);
    if (c.is_red_three()) ++p.pile_threes;  // laid out with no replacement (000 §7)
  }
  pile_.clear();
  turn_.drew = true;
  turn_.took_pile = true;
  turn_.melded = true;
  turn_.draw_left_out = false;
  phase_ = Phase::kPlay;
  if (p.hand.empty() && FootPending(m.player)) {
    HandEmptiedBeforeFoot(m.player);  // 002 L71: not out before the foot
  } else if (p.hand.empty()) {
    ChargeGoingOut(m.player);
    went_out_ = m.player;
    phase_ = Phase::kOver;
    FinishTurn();
  }
}

}  // namespace canasta
