// The deal (000 §6, §1) and red threes laid out (000 §7, §21 Hutto, 002 Setup-7).
#include "core/position.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/position_internal.h"

namespace canasta {

using position_internal::OutOfLine;
using position_internal::Plural;
using position_internal::Seat;
using position_internal::Tv;

// ---------------------------------------------------------------------------
// The deal

TaggedViolations Position::Deal(const DealMove& d) {
  TaggedViolations out;
  const int n = rules_->num_players;
  dealer_ = ((d.dealer % n) + n) % n;
  current_ = rules_->FirstPlayerOf(dealer_);  // 000 §11 (first_player)
  phase_ = Phase::kBeforePlay;

  // The pack: every card face's copies (000 §1). It depends on the decks
  // and jokers alone: built once a thread for the rules of the last deal.
  struct Pack {
    int decks = -1;
    int jokers = -1;
    CardCounts counts;
  };
  thread_local Pack pack;
  if (pack.decks != rules_->decks || pack.jokers != rules_->jokers) {
    pack.counts.Clear();
    for (int i = 0; i < kNumFaces; ++i) {
      Card c = Card::FromIndex(i);
      pack.counts.Add(c, rules_->copies(c));
    }
    pack.decks = rules_->decks;
    pack.jokers = rules_->jokers;
  }
  unseen_ = pack.counts;
  // `where`: a seat, or -1 for the upcards; worded only for a finding. One
  // finding per card face however many copies are too many (one root cause,
  // one finding); the count is added below.
  // finding_at[i] is read only where surplus[i] was counted (and it set).
  std::array<int, kNumFaces> surplus{};
  std::array<size_t, kNumFaces> finding_at;
  bool any_surplus = false;  // the usual deal has none: nothing to count at the end
  auto surplus_card = [&](Card c, int where) {
    Conjure(c);
    any_surplus = true;
    if (surplus[c.index()]++ > 0) return;
    finding_at[c.index()] = out.size();
    out.push_back(Tv(CheckId::kDealPack,
                     "the deal holds more copies of " + ToString(c) + " than the pack has (" +
                         std::to_string(rules_->copies(c)) + "); one is in " +
                         (where < 0    ? std::string("the upcards")
                          : where >= n ? Seat(where - n) + "'s foot"
                                       : Seat(where) + "'s hand"),
                     "000 §1"));
  };
  // The usual card is in the pack: taken without a call.
  auto take = [&](Card c, int where) {
    if (!unseen_.Remove(c)) surplus_card(c, where);
  };
  auto count_surplus = [&] {
    if (!any_surplus) return;
    OutOfLine([&] {
      for (int i = 0; i < kNumFaces; ++i)
        if (surplus[i] > 1)
          out[finding_at[i]].violation.message +=
              "; " + std::to_string(surplus[i]) + " copies too many in all";
    });
  };
  // The findings are worded out of line (OutOfLine): the usual deal has none.
  if (int(d.hands.size()) != n) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kDealHandSize,
                       "the deal has " + Plural(int(d.hands.size()), "hand") +
                           "; this ruleset has " + Plural(n, "player"),
                       rules_->Cite("num_players", "000 §5, §21")));
    });
  }
  for (int s = 0; s < n && s < int(d.hands.size()); ++s) {
    if (int(d.hands[s].size()) != rules_->hand_size) {
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kDealHandSize,
                         Seat(s) + " was dealt " + Plural(int(d.hands[s].size()), "card") +
                             ", not " + std::to_string(rules_->hand_size),
                         rules_->Cite("hand_size", "000 §6, §21")));
      });
    }
    for (Card c : d.hands[s]) {
      players_[s].hand.Add(c);
      take(c, s);
    }
  }

  // The feet (002 L71): one a seat of foot_size cards, where the ruleset
  // deals them; `where` n + seat names a foot.
  // Cited only for a finding: most deals have none.
  const auto foot_source = [this] { return rules_->Cite("foot_size", "002 L71, readings R116"); };
  if (!rules_->feet()) {
    if (!d.feet.empty())
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kDealFoot,
                         "this ruleset deals no foot, but the deal has " +
                             Plural(int(d.feet.size()), "foot", "feet"),
                         foot_source()));
      });
  } else if (d.feet.empty()) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kDealFoot,
                       "the deal gives no foot; this ruleset deals each player a foot of " +
                           Plural(rules_->foot_size, "card"),
                       foot_source()));
    });
  } else if (int(d.feet.size()) != n) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kDealFoot,
                       "the deal has " + Plural(int(d.feet.size()), "foot", "feet") +
                           "; this ruleset deals one to each of " + Plural(n, "player"),
                       foot_source()));
    });
  }
  for (int s = 0; s < n && s < int(d.feet.size()); ++s) {
    if (rules_->feet() && int(d.feet[s].size()) != rules_->foot_size)
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kDealFoot,
                         Seat(s) + "'s foot has " + Plural(int(d.feet[s].size()), "card") +
                             ", not " + std::to_string(rules_->foot_size),
                         foot_source()));
      });
    for (Card c : d.feet[s]) {
      players_[s].foot.Add(c);
      take(c, n + s);
    }
  }

  // Upcards (000 §6, readings R4; 002 Setup-6; 004 L7).
  const std::vector<Card>& up = d.upcards;
  if (rules_->upcards == 0) {
    if (!up.empty())
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kDealUpcard, "this ruleset turns no upcard, but the deal has " +
                                                   Plural(int(up.size()), "upcard"),
                         "001 L17"));
      });
  } else if (up.empty()) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kDealUpcard, "the deal turns no upcard to start the pile",
                       "000 §6"));
    });
  } else {
    for (size_t i = 0; i < up.size(); ++i) {
      const uint8_t mask = i == 0 ? rules_->upcard_first_triggers : rules_->upcard_more_triggers;
      const bool trigger = IsUpcardTrigger(up[i], mask);
      const bool last = i + 1 == up.size();
      if (last && trigger) {
        OutOfLine([&] {
          out.push_back(Tv(CheckId::kDealUpcard,
                           "the upcard " + ToString(up[i]) +
                               " calls for another card to be turned up, but turning stopped there",
                           "000 §6, readings R4"));
        });
      } else if (!last && !trigger) {
        OutOfLine([&] {
          out.push_back(Tv(CheckId::kDealUpcard,
                           "turning upcards should have stopped at " + ToString(up[i]) + ", but " +
                               Plural(int(up.size() - i - 1), "more card") + " were turned",
                           "000 §6, readings R4"));
        });
        break;
      }
    }
    for (Card c : up) take(c, -1);
    // Room for the pile of a usual deal: no reallocation discard by discard.
    pile_.reserve(std::max<size_t>(64, up.size()));
    if (rules_->upcard_specials_to_stock) {
      // 002 Setup-6: the special cards go back into the stock.
      pile_.assign(up.end() - 1, up.end());
      for (size_t i = 0; i + 1 < up.size(); ++i) unseen_.Add(up[i]);
    } else {
      pile_.assign(up.begin(), up.end());
    }
  }

  count_surplus();
  stock_size_ = unseen_.total();
  if (d.stock) {
    // The usual stock holds the rest of the pack: each of its cards is taken
    // from a copy of the unseen ones, and the faces are counted and worded
    // only when that fails.
    CardCounts rest = unseen_;
    int extras = 0;  // stock cards beyond the rest of the pack
    Card stock_extra;
    for (Card c : *d.stock) {
      if (rest.Remove(c)) continue;
      ++extras;
      stock_extra = c;
    }
    bool same = extras == 0 && rest.empty();
    // One card of the deal written as another (readings R127): one card
    // too many, in the hands or the stock, and one card of the pack nowhere.
    if (!same && rest.total() == 1 && extras <= 1)
      same = SettleDealtSwap(d, rest, stock_extra, surplus, finding_at, &out);
    if (!same) {
      OutOfLine([&] {
        CardCounts given;
        for (Card c : *d.stock) given.Add(c);
        std::vector<std::string> extra, missing;
        for (int i = 0; i < kNumFaces; ++i) {
          Card c = Card::FromIndex(i);
          for (int k = unseen_.count(c); k < given.count(c); ++k) extra.push_back(ToString(c));
          for (int k = given.count(c); k < unseen_.count(c); ++k) missing.push_back(ToString(c));
        }
        if (!extra.empty() || !missing.empty()) {
          std::string msg = "the stock does not hold the rest of the pack:";
          auto join = [](const std::vector<std::string>& v) {
            std::string s;
            for (size_t i = 0; i < v.size() && i < 12; ++i) s += (i ? " " : "") + v[i];
            if (v.size() > 12) s += " ...";
            return s;
          };
          if (!extra.empty()) msg += " too many " + join(extra) + ";";
          if (!missing.empty()) msg += " missing " + join(missing) + ";";
          msg.pop_back();
          TaggedViolation v = Tv(CheckId::kDealPack, msg, "000 §1, §6");
          v.violation.notes.insert(v.violation.notes.begin(),
                                   "the recorded stock is set aside: the draws are checked against "
                                   "the cards not yet seen, and the stock holds " +
                                       Plural(stock_size_, "card"));
          out.push_back(std::move(v));
        }
      });
    }
    // A stock that is not the rest of the pack is not followed: every draw
    // would be judged against a wrong record (one finding, here).
    if (same) {
      stock_ = std::make_shared<const std::vector<Card>>(*d.stock);
      stock_pos_ = 0;
      stock_alt_ = kNoSlot;
      stock_size_ = int(d.stock->size());
    }
  }
  for (TaggedViolation& v : out) v.tag = d.tag;
  CANASTA_DCHECK(InvariantsHold());
  return out;
}
bool Position::SettleDealtSwap(const DealMove& d, const CardCounts& missing, Card stock_extra,
                               const std::array<int, kNumFaces>& surplus,
                               const std::array<size_t, kNumFaces>& finding_at,
                               TaggedViolations* out) {
  // The card too many: a face dealt once too often, or else a stock card
  // beyond the rest of the pack (one or the other, once).
  int face = stock_extra.valid() ? stock_extra.index() : -1;
  for (int i = 0; i < kNumFaces; ++i) {
    if (surplus[i] == 0) continue;
    if (surplus[i] > 1 || face >= 0) return false;  // more than one card written wrong
    face = i;
  }
  if (face < 0) return false;
  const Card written = Card::FromIndex(face);
  Card meant;
  for (int i = 0; i < kNumFaces && !meant.valid(); ++i)
    if (missing.count(Card::FromIndex(i)) > 0) meant = Card::FromIndex(i);
  // The hands that hold the card written: one of them (or the stock, when
  // the card too many is there) holds the missing card instead. Another
  // place (an upcard, a foot) is not followed.
  uint32_t seats = 0;
  std::vector<std::string> holders;
  for (size_t s = 0; s < d.hands.size() && s < players_.size() && s < 32; ++s) {
    if (players_[s].hand.count(written) == 0) continue;
    seats |= 1u << s;
    holders.push_back(Seat(int(s)) + "'s");
  }
  if (seats == 0) return false;
  std::string where;
  for (size_t i = 0; i < holders.size(); ++i)
    where += (i == 0 ? "" : i + 1 == holders.size() ? " or " : ", ") + holders[i];
  where += " hand";
  if (stock_extra.valid()) where += ", or in the stock";
  TaggedViolation v = Tv(CheckId::kDealPack,
                         "the deal holds one " + ToString(written) + " more than the pack has (" +
                             std::to_string(rules_->copies(written)) + ") and one " +
                             ToString(meant) + " fewer: one " + ToString(written) + ", in " +
                             where + ", is written for " + ToString(meant),
                         "000 §1");
  v.violation.notes.insert(v.violation.notes.begin(),
                           "the replay reads that card as " + ToString(meant) +
                               " once a move shows whose it is (readings R127)");
  if (stock_extra.valid())
    out->push_back(std::move(v));
  else
    (*out)[finding_at[face]] = std::move(v);
  // The stock is followed as recorded; the card too many is conjured and
  // the missing one owed (InvariantsHold) until SettleSwap.
  if (stock_extra.valid()) {
    unseen_.Add(written);
    Conjure(written);
  }
  unseen_.Remove(meant);
  --surplus_[meant.index()];
  stock_size_ = unseen_.total();
  swap_ = {written, meant, seats};
  return true;
}
bool Position::SettleSwap(int seat) {
  if (!swap_.pending() || seat < 0 || seat >= rules_->num_players || !(swap_.seats >> seat & 1u) ||
      !players_[seat].hand.Remove(swap_.written))
    return false;
  players_[seat].hand.Add(swap_.meant);
  // A red three written for the card meant, held when play began, was
  // counted late; it was never the seat's to lay out (readings R127).
  Player& p = players_[seat];
  if (play_begun_ && rules_->IsLaidOutThree(swap_.written) && p.late_threes > 0) --p.late_threes;
  // The cards held before the turn took the pile count toward its initial
  // meld (000 §13): the card held was the one meant.
  if (turn_.player == seat && turn_.from_hand_limited && turn_.from_hand.Remove(swap_.written))
    turn_.from_hand.Add(swap_.meant);
  --surplus_[swap_.written.index()];
  ++surplus_[swap_.meant.index()];
  swap_ = {};
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

TaggedViolations Position::CheckThree(const ThreeMove& m) const {
  // Every three laid out comes here: the findings are worded out of line.
  TaggedViolations out;
  if (m.player < 0 || m.player >= rules_->num_players) {
    OutOfLine(
        [&] { out.push_back(Tv(CheckId::kTurnOrder, "there is no " + Seat(m.player), "000 §5")); });
    return out;
  }
  if (!rules_->IsLaidOutThree(m.card)) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kThreeNotAllowed,
                       ToString(m.card) + " is not a red three; only red threes are laid out",
                       rules_->Cite("black_threes_laid_out", "000 §7")));
    });
    return out;
  }
  CheckBonusDrawn(&out);
  CheckHeld(m.player, m.card, &out);
  const Player& p = players_[m.player];
  const bool from_pile = p.pile_threes > 0;
  const bool before_play = phase_ == Phase::kBeforePlay;
  if (before_play) {
    // The first player (first_player) begins the first turn: laying out
    // dealt red threes before the draw is their first-turn layout (readings R6).
    if (rules_->three_layout == ThreeLayout::kFirstTurn && m.player != current_) {
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kThreeTiming,
                         Seat(m.player) +
                             " lays out a red three before play; this ruleset lays them out in "
                             "the player's first turn",
                         rules_->Cite("three_layout", "000 §7, readings R6")));
      });
    } else if (rules_->three_layout == ThreeLayout::kBeforePlay) {
      const int n = rules_->num_players;
      const int order = (m.player - dealer_ - 1 + 2 * n) % n;
      if (order < last_before_play_seat_) {
        OutOfLine([&] {
          out.push_back(
              Tv(CheckId::kThreeTiming,
                 Seat(m.player) + " lays out red threes out of seat order (from the dealer's left)",
                 "000 §21 Hutto, readings R23"));
        });
      }
    }
  } else if (phase_ == Phase::kOver) {
    // Only the last stock card's red three may still be revealed (000 §15).
    if (went_out_ >= 0 || m.player != current_) {
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kTurnSequence, "the deal is already over", "000 §17"));
      });
    }
  } else if (m.player != current_ && !MayLayOutFootThrees(m.player)) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kThreeTiming,
                       Seat(m.player) + " lays out a red three outside their own turn", "000 §7"));
    });
  } else if (p.late_threes > 0 && !from_pile) {
    // Held since before play began, where the ruleset lays them out then.
    OutOfLine([&] {
      if (rules_->three_layout == ThreeLayout::kBeforePlay)
        out.push_back(Tv(CheckId::kThreeTiming,
                         "under this ruleset dealt red threes are laid out before the first turn",
                         "000 §21 Hutto, readings R23"));
      else
        out.push_back(Tv(CheckId::kThreeTiming,
                         "under this ruleset dealt red threes are laid out at once, before play",
                         rules_->Cite("three_layout", "002 Setup-7")));
    });
  }
  // The replacement (000 §7): none for a red three taken with the pile.
  if (from_pile) {
    if (m.replacement) {
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kThreeReplacement,
                         "a red three taken with the pile gets no replacement card",
                         rules_->Cite("rule.pile_three_replacement", "000 §7")));
      });
    }
  } else if (!m.replacement) {
    if (stock_size_ > 0) {
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kThreeReplacement,
                         "a red three laid out must be replaced from the stock",
                         rules_->Cite("rule.three_replacement", "000 §7")));
      });
    }
  } else if (stock_size_ == 0) {
    if (!drew_past_stock_) {  // once a hand, as for a draw (CheckDraw)
      OutOfLine([&] {
        out.push_back(Tv(CheckId::kStockEmpty, "the stock is empty: there is no replacement card",
                         rules_->Cite("rule.stock_out", "000 §15")));
      });
    }
  } else {
    // The one card, in the thread's own vector: no allocation a three
    // (CheckFromStock only reads it).
    thread_local std::vector<Card> replacement(1);
    replacement[0] = *m.replacement;
    CheckFromStock(replacement, &out);
  }
  return out;
}

void Position::ApplyThree(const ThreeMove& m) {
  if (m.player < 0 || m.player >= rules_->num_players || !rules_->IsLaidOutThree(m.card)) return;
  Player& p = players_[m.player];
  bonus_count_ = 0;  // bonus cards not drawn by now are forfeited (CheckBonusDrawn said so)
  if (phase_ == Phase::kBeforePlay) {
    const int n = rules_->num_players;
    last_before_play_seat_ = std::max(last_before_play_seat_, (m.player - dealer_ - 1 + 2 * n) % n);
  }
  if (!p.hand.Remove(m.card)) Conjure(m.card);
  sides_[side_of(m.player)].threes.push_back(m.card);
  if (p.threes_kept_reported > 0) --p.threes_kept_reported;  // one of them, laid out late
  if (p.pile_threes > 0) {
    --p.pile_threes;
    return;
  }
  if (p.late_threes > 0) --p.late_threes;
  if (m.replacement && stock_size_ > 0) {
    TakeFromStock(*m.replacement);
    p.hand.Add(*m.replacement);
    // 000 §15: the stock's last card is a red three: play ends.
    if (stock_size_ == 0 && rules_->IsLaidOutThree(*m.replacement) && phase_ != Phase::kBeforePlay)
      phase_ = Phase::kOver;
  } else if (m.replacement) {
    drew_past_stock_ = true;
    Conjure(*m.replacement);  // reported: no stock left
    p.hand.Add(*m.replacement);
  }
}

}  // namespace canasta
