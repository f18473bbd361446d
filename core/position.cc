#include "core/position.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace canasta {
namespace {

std::string Seat(int seat) { return "seat " + std::to_string(seat); }

TaggedViolation Tv(CheckId id, std::string message, std::string source, int tag = 0) {
  return TaggedViolation{tag, Violation{id, std::move(message), {"rule: " + std::move(source)}}};
}

std::string Plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

Position::Position(const Rules& rules, const RuleHooks& hooks, std::vector<int> totals)
    : rules_(rules),
      hooks_(hooks),
      totals_(std::move(totals)),
      players_(rules.num_players),
      sides_(rules.num_sides()) {
  totals_.resize(rules.num_sides(), 0);
}

// ---------------------------------------------------------------------------
// Reading the state

std::vector<Card> Position::StockTop(int n) const {
  std::vector<Card> out;
  if (!stock_) return out;
  for (size_t i = stock_pos_; i < stock_->size() && int(out.size()) < n; ++i)
    out.push_back((*stock_)[i]);
  return out;
}

int Position::Minimum(int side) const {
  return hooks_.MinimumCount(rules_, totals_[side]) + sides_[side].minimum_increase;
}

bool Position::IsPileFrozen() const {
  // 000 §14: a wild card or a red three in the pile freezes it; a black three
  // only blocks until covered (D4).
  for (Card c : pile_) {
    if (c.is_wild() || c.is_red_three()) return true;
  }
  return false;
}

bool Position::IsPileFrozenFor(int side) const {
  if (rules_.frozen_before_initial_meld && !sides_[side].opened) return true;
  return IsPileFrozen();
}

int Position::CanastaCount(int side) const {
  int n = 0;
  for (const Meld& m : sides_[side].melds) n += m.is_canasta(rules_);
  return n;
}

SideSummary Position::Summary(int side) const {
  SideSummary s;
  s.side = side;
  for (const Meld& m : sides_[side].melds) {
    if (m.cards.empty()) continue;
    ++s.melds;
    if (m.is_canasta(rules_)) {
      ++s.canastas;
      m.is_natural() ? ++s.natural_canastas : ++s.mixed_canastas;
    }
  }
  s.red_threes = 0;
  for (Card c : sides_[side].threes) s.red_threes += c.is_red_three();
  return s;
}

Meld* Position::FindMeld(int side, Rank rank) {
  for (Meld& m : sides_[side].melds) {
    if (m.rank == rank) return &m;
  }
  return nullptr;
}

const Meld* Position::FindMeld(int side, Rank rank) const {
  for (const Meld& m : sides_[side].melds) {
    if (m.rank == rank) return &m;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// The deal

TaggedViolations Position::Deal(const DealMove& d) {
  TaggedViolations out;
  const int n = rules_.num_players;
  dealer_ = ((d.dealer % n) + n) % n;
  current_ = (dealer_ + 1) % n;  // 000 §11: the player at the dealer's left begins.
  phase_ = Phase::kBeforePlay;

  // The pack: every card face's copies (000 §1).
  CardCounts pack;
  for (int i = 0; i < kNumFaces; ++i) {
    Card c = Card::FromIndex(i);
    pack.Add(c, rules_.copies(c));
  }
  unseen_ = pack;
  // `where`: a seat, or -1 for the upcards; worded only for a finding.
  auto take = [&](Card c, int where) {
    if (!unseen_.Remove(c)) {
      out.push_back(Tv(CheckId::kDealPack,
                       "the deal holds more copies of " + ToString(c) + " than the pack has (" +
                           std::to_string(rules_.copies(c)) + "); one is in " +
                           (where < 0 ? std::string("the upcards") : Seat(where) + "'s hand"),
                       "000 §1"));
    }
  };
  if (int(d.hands.size()) != n) {
    out.push_back(Tv(CheckId::kDealHandSize,
                     "the deal has " + Plural(int(d.hands.size()), "hand") + "; this ruleset has " +
                         Plural(n, "player"),
                     "000 §5, §21"));
  }
  for (int s = 0; s < n && s < int(d.hands.size()); ++s) {
    if (int(d.hands[s].size()) != rules_.hand_size) {
      out.push_back(Tv(CheckId::kDealHandSize,
                       Seat(s) + " was dealt " + Plural(int(d.hands[s].size()), "card") + ", not " +
                           std::to_string(rules_.hand_size),
                       "000 §6, §21"));
    }
    for (Card c : d.hands[s]) {
      players_[s].hand.Add(c);
      take(c, s);
    }
  }

  // Upcards (000 §6, A4; 002 Setup-6; 004 L7).
  const std::vector<Card>& up = d.upcards;
  if (rules_.upcards == 0) {
    if (!up.empty())
      out.push_back(Tv(CheckId::kDealUpcard, "this ruleset turns no upcard, but the deal has " +
                                                 Plural(int(up.size()), "upcard"),
                       "001 L17"));
  } else if (up.empty()) {
    out.push_back(Tv(CheckId::kDealUpcard, "the deal turns no upcard to start the pile",
                     "000 §6"));
  } else {
    for (size_t i = 0; i < up.size(); ++i) {
      const uint8_t mask = i == 0 ? rules_.upcard_first_triggers : rules_.upcard_more_triggers;
      const bool trigger = IsUpcardTrigger(up[i], mask);
      const bool last = i + 1 == up.size();
      if (last && trigger) {
        out.push_back(Tv(CheckId::kDealUpcard,
                         "the upcard " + ToString(up[i]) +
                             " calls for another card to be turned up, but turning stopped there",
                         "000 §6, A4"));
      } else if (!last && !trigger) {
        out.push_back(Tv(CheckId::kDealUpcard,
                         "turning upcards should have stopped at " + ToString(up[i]) + ", but " +
                             Plural(int(up.size() - i - 1), "more card") + " were turned",
                         "000 §6, A4"));
        break;
      }
    }
    for (Card c : up) take(c, -1);
    if (rules_.upcard_specials_to_stock) {
      // 002 Setup-6: the special cards go back into the stock.
      pile_.assign(up.end() - 1, up.end());
      for (size_t i = 0; i + 1 < up.size(); ++i) unseen_.Add(up[i]);
    } else {
      pile_ = up;
    }
  }

  stock_size_ = unseen_.total();
  if (d.stock) {
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
      out.push_back(Tv(CheckId::kDealPack, msg, "000 §1, §6"));
    }
    stock_ = *d.stock;
    stock_pos_ = 0;
    stock_size_ = int(d.stock->size());
  }
  for (TaggedViolation& v : out) v.tag = d.tag;
  return out;
}

// ---------------------------------------------------------------------------
// Shared checks

void Position::CheckTurn(int player, bool drawing, TaggedViolations* out) const {
  if (phase_ == Phase::kOver) {
    out->push_back(Tv(CheckId::kTurnSequence, "the deal is already over", "000 §11, §17"));
    return;
  }
  if (player < 0 || player >= rules_.num_players) {
    out->push_back(Tv(CheckId::kTurnOrder, "there is no " + Seat(player), "000 §5"));
    return;
  }
  if (player != current_) {
    if (drawing && phase_ == Phase::kPlay && player == (current_ + 1) % rules_.num_players) {
      // The next player begins a turn: the player in turn drew but neither
      // discarded nor went out (000 §8, §11).
      out->push_back(Tv(CheckId::kDiscardMissing,
                        Seat(current_) + "'s turn ended without a discard; " + Seat(player) +
                            " begins the next turn",
                        "000 §8, §11"));
      // The turn ended all the same: what is checked when a turn ends.
      if (turn_.player == current_) CheckTurnEnd(false, CanastaCount(side_of(current_)), out);
      return;
    }
    out->push_back(Tv(CheckId::kTurnOrder,
                      "it is " + Seat(current_) + "'s turn, not " + Seat(player) + "'s",
                      "000 §11"));
    return;
  }
  if (drawing && phase_ == Phase::kPlay) {
    out->push_back(Tv(CheckId::kTurnSequence,
                      Seat(player) + " has already drawn this turn", "000 §11, §12"));
  } else if (!drawing && phase_ != Phase::kPlay) {
    out->push_back(Tv(CheckId::kTurnSequence,
                      Seat(player) + " must draw or take the pile first", "000 §11"));
  }
}

void Position::CheckHeld(int player, Card card, TaggedViolations* out) const {
  if (player < 0 || player >= rules_.num_players) return;
  if (players_[player].hand.count(card) > 0) return;
  out->push_back(Tv(CheckId::kCardNotHeld,
                    Seat(player) + " plays " + ToString(card) + " but holds none", "000 §11"));
}

void Position::CheckHeld(int player, const std::vector<Card>& cards,
                         TaggedViolations* out) const {
  if (player < 0 || player >= rules_.num_players) return;
  if (cards.size() == 1) return CheckHeld(player, cards[0], out);
  CardCounts need;
  for (Card c : cards) {
    need.Add(c);
    if (need.count(c) > players_[player].hand.count(c)) {
      out->push_back(Tv(CheckId::kCardNotHeld,
                        Seat(player) + " plays " + ToString(c) + " but holds " +
                            (players_[player].hand.count(c) == 0
                                 ? std::string("none")
                                 : "only " + std::to_string(players_[player].hand.count(c))),
                        "000 §11"));
    }
  }
}

void Position::CheckFromStock(const std::vector<Card>& cards, TaggedViolations* out) const {
  for (size_t i = 0; i < cards.size(); ++i) {
    Card c = cards[i];
    if (stock_) {
      size_t at = stock_pos_ + i;
      if (at < stock_->size() && (*stock_)[at] != c) {
        out->push_back(Tv(CheckId::kStockMismatch,
                          "the card drawn is " + ToString(c) + " but the stock's next card is " +
                              ToString((*stock_)[at]),
                          "000 §12"));
      }
    }
    int wanted = 1;  // copies of c drawn so far, this one included
    for (size_t j = 0; j < i; ++j) wanted += cards[j] == c;
    if (wanted > unseen_.count(c)) {
      out->push_back(Tv(CheckId::kCardTooManyCopies,
                        "every copy of " + ToString(c) +
                            " is already accounted for; the pack has " +
                            std::to_string(rules_.copies(c)),
                        "000 §1"));
    }
  }
}

int Position::CountToward(const std::vector<Card>& cards, CardCounts* from_hand) const {
  int total = 0;
  for (Card c : cards) {
    // After taking the pile only cards that were already in the hand count
    // (000 §13 "not included in the minimum count"); the audit gives the
    // player the benefit of the doubt where a card could be either.
    if (from_hand && !from_hand->Remove(c)) continue;
    total += hooks_.InitialMeldValue(rules_, c);
  }
  return total;
}

void Position::CheckTurnEnd(bool going_out, int canastas_after, TaggedViolations* out) const {
  const int side = side_of(turn_.player);
  if (turn_.opening && turn_.melded) {
    const int minimum = Minimum(side);
    if (turn_.initial_count < minimum) {
      TaggedViolation v = Tv(CheckId::kInitialMeldMinimum,
                             "the initial meld counts " + std::to_string(turn_.initial_count) +
                                 "; the side needs " + std::to_string(minimum),
                             "000 §8, §10", turn_.last_meld_tag);
      v.violation.notes.push_back("the side's total before the deal is " +
                                  std::to_string(totals_[side]));
      if (sides_[side].minimum_increase)
        v.violation.notes.push_back("including +" +
                                    std::to_string(sides_[side].minimum_increase) +
                                    " for a retracted insufficient meld (000 §10)");
      out->push_back(std::move(v));
    }
  }
  if (!going_out) {
    for (int tag : turn_.black_three_tags)
      out->push_back(Tv(CheckId::kMeldBlackThree,
                        "black threes may only be melded by a player going out, and " +
                            Seat(turn_.player) + " did not go out this turn",
                        "000 §8", tag));
  }
  if (turn_.answer) {
    if (*turn_.answer && !going_out)
      out->push_back(Tv(CheckId::kOutAnswerBinding,
                        "the partner answered yes to \"may I go out?\", so " +
                            Seat(turn_.player) + " had to go out",
                        "000 §17"));
    if (!*turn_.answer && going_out)
      out->push_back(Tv(CheckId::kOutAnswerBinding,
                        "the partner answered no to \"may I go out?\", so " + Seat(turn_.player) +
                            " may not go out this turn",
                        "000 §17"));
  }
  if (going_out) {
    SideSummary summary = Summary(side);
    summary.canastas = canastas_after;
    const int needed = hooks_.CanastasToGoOut(rules_, summary);
    if (canastas_after < needed)
      out->push_back(Tv(CheckId::kOutWithoutCanastas,
                        Seat(turn_.player) + " goes out with " + Plural(canastas_after, "canasta") +
                            "; the side needs " + std::to_string(needed),
                        "000 §9, §17"));
  }
}

// ---------------------------------------------------------------------------
// Moves

TaggedViolations Position::Check(const Move& move) const {
  return std::visit([this](const auto& m) { return Check(m); }, move);
}

void Position::Apply(const Move& move) {
  std::visit([this](const auto& m) { Apply(m); }, move);
}

void Position::ApplyAskOut(const AskOutMove& m) {
  if (m.player == current_ && phase_ != Phase::kOver) {
    // Asked before drawing (000 §17): the question opens the turn, so that
    // the answer binds the rest of it.
    if (turn_.player != current_) BeginTurn(current_);
    turn_.asked = true;
  }
}

void Position::ApplyAnswer(const AnswerMove& m) {
  if (turn_.asked) turn_.answer = m.yes;
  turn_.asked = false;
}

TaggedViolations Position::Play(const Move& move) {
  TaggedViolations v = Check(move);
  Apply(move);
  return v;
}

void Position::BeginTurn(int player) {
  if (player < 0 || player >= rules_.num_players) return;
  if (!play_begun_) {
    // Play begins: where red threes are laid out before play, any still
    // held are late (000 §21 Hutto, A23; 002 Setup-7).
    play_begun_ = true;
    if (rules_.three_layout != ThreeLayout::kFirstTurn) {
      for (Player& p : players_)
        p.late_threes = p.hand.count(Card(Rank::kThree, Suit::kHearts)) +
                        p.hand.count(Card(Rank::kThree, Suit::kDiamonds));
    }
  }
  if (turn_.player >= 0 && turn_.player != player) FinishTurn();
  current_ = player;
  turn_ = Turn{};
  turn_.player = player;
  turn_.opening = !sides_[side_of(player)].opened;
  ++players_[player].turns;
}

void Position::FinishTurn() {
  if (turn_.player < 0) return;
  Side& side = sides_[side_of(turn_.player)];
  bool any = false;
  for (const Meld& m : side.melds) any |= !m.cards.empty();
  if (any) side.opened = true;
  if (turn_.melded) players_[turn_.player].melded_before = true;
  // A black three covered by this turn's discard no longer blocks (000 §14).
}

void Position::TakeFromStock(Card c) {
  unseen_.Remove(c);
  if (stock_ && stock_pos_ < stock_->size()) ++stock_pos_;
  if (stock_size_ > 0) --stock_size_;
}

TaggedViolations Position::CheckDraw(const DrawMove& m) const {
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/true, &out);
  if (stock_size_ == 0) {
    out.push_back(Tv(CheckId::kStockEmpty,
                     "the stock is empty: the player in turn takes the pile or play ends",
                     "000 §15"));
    return out;
  }
  const int expected = std::min(rules_.stock_draw, stock_size_);  // A10
  if (int(m.cards.size()) != expected) {
    out.push_back(Tv(CheckId::kDrawCount,
                     Seat(m.player) + " draws " + Plural(int(m.cards.size()), "card") +
                         "; a turn draws " + std::to_string(expected) + " from the stock",
                     rules_.stock_draw == 1 ? "000 §12" : "000 §21, A10"));
  }
  CheckFromStock(m.cards, &out);
  return out;
}

void Position::ApplyDraw(const DrawMove& m) {
  if (m.player < 0 || m.player >= rules_.num_players || phase_ == Phase::kOver) return;
  // A turn already opened by the player (asking "may I go out?" before the
  // draw) goes on; otherwise the draw begins the player's turn.
  if (m.player != current_ || turn_.player != m.player) BeginTurn(m.player);
  for (Card c : m.cards) {
    TakeFromStock(c);
    players_[m.player].hand.Add(c);
  }
  turn_.drew = true;
  phase_ = Phase::kPlay;
  // 000 §15: the last stock card is a red three: reveal it, no meld or discard.
  if (stock_size_ == 0 && !m.cards.empty() && m.cards.back().is_red_three()) {
    phase_ = Phase::kOver;
  }
}

TaggedViolations Position::CheckTakePile(const TakePileMove& m) const {
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/true, &out);
  if (m.player < 0 || m.player >= rules_.num_players) return out;
  if (pile_.empty()) {
    out.push_back(Tv(CheckId::kPileEmpty, "the discard pile is empty", "000 §12"));
    return out;
  }
  const Card top = pile_.back();
  if (m.top != top) {
    out.push_back(Tv(CheckId::kPileTopMismatch,
                     "the pile's top card is " + ToString(top) + ", not " + ToString(m.top),
                     "000 §12"));
  }
  if (m.count && *m.count != int(pile_.size())) {
    out.push_back(Tv(CheckId::kPileCount,
                     "the pile holds " + Plural(int(pile_.size()), "card") + ", not " +
                         std::to_string(*m.count),
                     "000 §12"));
  }
  if (top.is_wild()) {
    out.push_back(Tv(CheckId::kPileBlockedTop,
                     "a wild card (" + ToString(top) + ") is on top of the pile", "000 §14"));
    return out;
  }
  if (top.is_black_three() && rules_.black_three_blocks_until_covered) {
    out.push_back(Tv(CheckId::kPileBlockedTop,
                     "a black three (" + ToString(top) +
                         ") is on top of the pile; it blocks until covered",
                     "000 §14"));
    return out;
  }
  const int side = side_of(m.player);
  const CardCounts& hand = players_[m.player].hand;
  if (rules_.one_card_rule && hand.total() == 1 && pile_.size() == 1) {
    out.push_back(Tv(CheckId::kPileOneCard,
                     Seat(m.player) + " holds one card and may not take a pile of one card",
                     "000 §14, §17, A11"));
  }
  CheckHeld(m.player, m.with, &out);

  int pair = 0;  // natural cards of the top's rank from the hand
  for (Card c : m.with) pair += !c.is_wild() && c.rank() == top.rank();
  const bool frozen = IsPileFrozenFor(side);
  const Meld* existing = FindMeld(side, top.rank());
  if (frozen && pair < 2) {
    TaggedViolation v = Tv(CheckId::kPileFrozenNeedsPair,
                           "the pile is frozen; taking it needs a natural pair of " +
                               ToString(top.rank()) + "s from the hand",
                           "000 §13, §14");
    v.violation.notes.push_back(
        !sides_[side].opened && rules_.frozen_before_initial_meld
            ? "frozen because the side has not made its initial meld"
            : "frozen by a wild card or red three in the pile");
    if (!m.with.empty()) v.violation.notes.push_back("shown: " + ToString(m.with));
    out.push_back(std::move(v));
    return out;
  }
  if (frozen && rules_.frozen_take_new_meld && m.with.size() != 2) {
    // 002 Play-5, A25: "use all three to form a new meld": the top card and
    // the natural pair, nothing more (other cards are melded after).
    out.push_back(Tv(CheckId::kPileTakeInvalid,
                     "a frozen pile is taken by forming a new meld of the top card and two "
                     "natural " + ToString(top.rank()) + "s only; shown: " + ToString(m.with),
                     "002 Play-5, A25"));
    return out;
  }
  std::vector<Card> laid = m.with;
  laid.push_back(top);
  auto onto_canasta = [] {
    return Tv(CheckId::kPileOntoCanasta,
              "the top card may not be added directly to a completed canasta", "000 §13");
  };
  if (m.with.empty()) {
    // The top card alone onto the side's meld (000 §13 ¶2, A2).
    if (rules_.unfrozen_take == UnfrozenTake::kTwoNaturalsFromHand) {
      out.push_back(Tv(CheckId::kPileTakeInvalid,
                       "taking the pile needs two natural " + ToString(top.rank()) +
                           "s from the hand",
                       "002 Play-4, A25"));
      return out;
    }
    if (m.to && *m.to != top.rank()) {
      out.push_back(Tv(CheckId::kPileTakeInvalid,
                       "the top card " + ToString(top) + " cannot go onto the meld of " +
                           ToString(*m.to) + "s",
                       "000 §13"));
      return out;
    }
    if (!existing) {
      out.push_back(Tv(CheckId::kPileTakeInvalid,
                       "the side has no meld of " + ToString(top.rank()) +
                           "s for the top card to join",
                       "000 §13"));
      return out;
    }
    if (existing->is_canasta(rules_)) {
      out.push_back(onto_canasta());
      return out;
    }
  } else if (rules_.unfrozen_take == UnfrozenTake::kTwoNaturalsFromHand && pair < 2) {
    out.push_back(Tv(CheckId::kPileTakeInvalid,
                     "taking the pile needs two natural " + ToString(top.rank()) +
                         "s from the hand",
                     "002 Play-4, A25"));
    return out;
  } else {
    std::optional<Rank> rank = MeldRank(laid, std::nullopt);
    if (!rank || *rank != top.rank()) {
      out.push_back(Tv(CheckId::kPileTakeInvalid,
                       "the cards shown (" + ToString(m.with) + ") do not meld with the top card " +
                           ToString(top),
                       "000 §13"));
      return out;
    }
    if (m.with.size() == 1) {
      // One card with the top: only an addition to an unfinished meld.
      if (!existing) {
        out.push_back(Tv(CheckId::kPileTakeInvalid,
                         "the top card and one card from the hand do not make a meld",
                         "000 §13"));
        return out;
      }
      if (existing->is_canasta(rules_)) {
        out.push_back(onto_canasta());
        return out;
      }
    }
  }
  // The meld that results must be legal (000 §8).
  MeldShape shape = m.with.size() >= 2
                        ? ShapeAfterAdding(nullptr, laid, top.rank(), rules_)
                        : ShapeAfterAdding(existing, laid, top.rank(), rules_);
  if (m.with.size() >= 2 && existing) {
    // A18: a new meld of a rank the side holds joins it.
    if (auto v = CheckMeldShape(rules_, hooks_, shape)) {
      out.push_back(TaggedViolation{0, *v});
      return out;
    }
    shape = ShapeAfterAdding(existing, laid, top.rank(), rules_);
  }
  if (auto v = CheckMeldShape(rules_, hooks_, shape)) out.push_back(TaggedViolation{0, *v});
  // Taking a pile of one card with every card in the hand empties it: the
  // player goes out, with the turn-end checks of going out (000 §17).
  if (m.player == current_ && phase_ != Phase::kPlay && pile_.size() == 1 &&
      int(m.with.size()) == hand.total() && hand.Contains(m.with)) {
    Position after = *this;
    after.ApplyTakePile(m);
    after.CheckTurnEnd(true, after.CanastaCount(side), &out);
  }
  return out;
}

void Position::ApplyTakePile(const TakePileMove& m) {
  if (m.player < 0 || m.player >= rules_.num_players || phase_ == Phase::kOver || pile_.empty())
    return;
  if (m.player != current_ || turn_.player != m.player) BeginTurn(m.player);
  Player& p = players_[m.player];
  const int side = side_of(m.player);
  const Card top = pile_.back();
  pile_.pop_back();
  std::vector<Card> laid;
  for (Card c : m.with) {
    if (p.hand.Remove(c)) laid.push_back(c);
  }
  laid.push_back(top);
  turn_.from_hand = p.hand;  // cards held before the pile joins the hand
  turn_.from_hand_limited = true;
  if (turn_.opening) {
    turn_.initial_count += CountToward(m.with, nullptr);
    if (rules_.top_card_counts_toward_minimum)
      turn_.initial_count += hooks_.InitialMeldValue(rules_, top);
    if (!turn_.first_meld_tag) turn_.first_meld_tag = m.tag;
    turn_.last_meld_tag = m.tag;
  }
  Meld* existing = FindMeld(side, top.rank());
  if (existing && existing->size() > 0) turn_.added_to_old_meld |= m.with.size() < 2;
  AddToSideMeld(side, top.rank(), laid);
  for (Card c : laid) turn_.laid.Add(c);
  if (top.is_black_three()) turn_.black_three_tags.push_back(m.tag);
  for (Card c : pile_) {
    p.hand.Add(c);
    if (c.is_red_three()) ++p.pile_threes;  // laid out with no replacement (000 §7)
  }
  pile_.clear();
  turn_.drew = true;
  turn_.took_pile = true;
  turn_.melded = true;
  phase_ = Phase::kPlay;
  if (p.hand.empty()) {
    went_out_ = m.player;
    phase_ = Phase::kOver;
    FinishTurn();
  }
}

void Position::AddToSideMeld(int side, Rank rank, const std::vector<Card>& cards) {
  Meld* meld = FindMeld(side, rank);
  if (!meld) {
    sides_[side].melds.push_back(Meld{});
    meld = &sides_[side].melds.back();
    meld->rank = rank;
    meld->cards.reserve(12);
  }
  for (Card c : cards) meld->Add(c);
}

TaggedViolations Position::CheckMeld(const MeldMove& m) const {
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/false, &out);
  if (m.player < 0 || m.player >= rules_.num_players) return out;
  int laid = 0;
  if (m.parts.size() == 1) {
    CheckHeld(m.player, m.parts[0].cards, &out);
    laid = int(m.parts[0].cards.size());
  } else {
    std::vector<Card> all;
    for (const MeldPart& part : m.parts) all.insert(all.end(), part.cards.begin(), part.cards.end());
    CheckHeld(m.player, all, &out);
    laid = int(all.size());
  }
  const int side = side_of(m.player);

  // Shapes after this play, rank by rank, so several parts on one rank add
  // up; no meld is copied (this runs for every meld event).
  std::array<MeldShape, 16> shapes;
  std::array<bool, 16> known{};
  auto shape_of = [&](Rank r) -> MeldShape& {
    if (!known[int(r)]) {
      known[int(r)] = true;
      const Meld* b = FindMeld(side, r);
      shapes[int(r)] = b ? b->Shape() : MeldShape{};
      shapes[int(r)].rank = r;
    }
    return shapes[int(r)];
  };
  for (const MeldPart& part : m.parts) {
    bool red_three = false;
    for (Card c : part.cards) red_three |= c.is_red_three();
    if (red_three) {
      out.push_back(Tv(CheckId::kMeldRedThree,
                       "red threes are never melded; they are laid out face up", "000 §7"));
      continue;
    }
    if (part.cards.empty()) {
      out.push_back(Tv(CheckId::kMeldTooSmall, "a meld with no cards", "000 §8"));
      continue;
    }
    std::optional<Rank> rank = MeldRank(part.cards, part.to ? part.to : part.as);
    std::optional<Rank> natural_rank = MeldRank(part.cards, std::nullopt);
    if (!natural_rank || (rank && *natural_rank != Rank::kJoker && *natural_rank != *rank)) {
      out.push_back(Tv(CheckId::kMeldMixedRanks,
                       "the cards " + ToString(part.cards) + " are not all of one rank",
                       "000 §8"));
      continue;
    }
    MeldShape& current = shape_of(*rank);
    const bool exists = current.size() > 0;
    if (part.to && !exists) {
      const Meld* theirs = nullptr;
      for (int s = 0; s < rules_.num_sides() && !theirs; ++s)
        if (s != side) theirs = FindMeld(s, *rank);
      out.push_back(Tv(CheckId::kMeldTargetMissing,
                       theirs ? "the meld of " + ToString(*rank) +
                                    "s belongs to the other side; players never add to an "
                                    "opponent's meld"
                              : "the side has no meld of " + ToString(*rank) + "s to add to",
                       "000 §8"));
      continue;
    }
    if (exists && !part.to) {
      // A new meld of a rank the side already holds is combined with it
      // (A18); the new cards must make a meld on their own first.
      MeldShape alone = ShapeAfterAdding(nullptr, part.cards, *rank, rules_);
      if (auto v = CheckMeldShape(rules_, hooks_, alone)) {
        out.push_back(TaggedViolation{0, *v});
        continue;
      }
    }
    MeldShape shape = current;
    shape.is_new = !exists;
    shape.was_canasta = exists && current.size() >= rules_.canasta_size;
    for (Card c : part.cards) {
      if (c.is_joker()) ++shape.jokers;
      else if (c.rank() == Rank::kTwo) ++shape.twos;
      else ++shape.naturals;
    }
    // A wrong meld is still laid as recorded, so later checks see the table.
    if (auto v = CheckMeldShape(rules_, hooks_, shape)) out.push_back(TaggedViolation{0, *v});
    current = shape;
  }

  // Going out by melding every card (000 §17).
  const int left = players_[m.player].hand.total() - laid;
  if (left <= 0 && phase_ == Phase::kPlay && m.player == current_) {
    int canastas = 0;
    for (const Meld& x : sides_[side].melds)
      canastas += !known[int(x.rank)] && x.is_canasta(rules_);
    for (int r = 0; r < 16; ++r) canastas += known[r] && shapes[r].size() >= rules_.canasta_size;
    if (rules_.discard_required_to_go_out)
      out.push_back(Tv(CheckId::kOutWithoutDiscard,
                       Seat(m.player) + " melds every card; going out needs a final discard",
                       "002 Play-8, Play-11, A29"));
    // The turn-end checks, as if this meld were in the turn.
    Position copy_free_check = *this;  // cheap enough: once per hand
    copy_free_check.ApplyMeld(m);
    copy_free_check.CheckTurnEnd(true, canastas, &out);
  }
  return out;
}

void Position::ApplyMeld(const MeldMove& m) {
  if (m.player < 0 || m.player >= rules_.num_players || phase_ == Phase::kOver) return;
  if (m.player != current_) BeginTurn(m.player);
  Player& p = players_[m.player];
  const int side = side_of(m.player);
  for (const MeldPart& part : m.parts) {
    // Cards not held are laid as recorded too (the check reported them).
    const std::vector<Card>& laid = part.cards;
    bool red_three = false;
    for (Card c : laid) {
      red_three |= c.is_red_three();
      p.hand.Remove(c);
    }
    if (laid.empty()) continue;
    if (red_three) {
      // Lay red threes out, as the player should have.
      for (Card c : laid) {
        if (c.is_red_three()) sides_[side].threes.push_back(c);
        else p.hand.Add(c);
      }
      continue;
    }
    std::optional<Rank> rank = MeldRank(laid, part.to ? part.to : part.as);
    if (!rank) rank = laid.front().is_wild() ? Rank::kJoker : laid.front().rank();
    Meld* base = FindMeld(side, *rank);
    const bool old = base && !base->cards.empty() && !turn_.laid.Contains(base->cards);
    MeldShape shape = ShapeAfterAdding(base, laid, *rank, rules_);
    if (CheckMeldShape(rules_, hooks_, shape)) turn_.illegal_meld = true;
    if (old) turn_.added_to_old_meld = true;
    if (*rank == Rank::kThree) turn_.black_three_tags.push_back(m.tag);
    if (turn_.opening) {
      turn_.initial_count +=
          CountToward(laid, turn_.from_hand_limited ? &turn_.from_hand : nullptr);
    }
    AddToSideMeld(side, *rank, laid);
    for (Card c : laid) turn_.laid.Add(c);
  }
  if (turn_.opening) {
    if (!turn_.first_meld_tag) turn_.first_meld_tag = m.tag;
    turn_.last_meld_tag = m.tag;
  }
  turn_.melded = true;
  if (p.hand.empty() && phase_ == Phase::kPlay) {
    went_out_ = m.player;
    concealed_ = !p.melded_before && !turn_.added_to_old_meld;
    phase_ = Phase::kOver;
    FinishTurn();
  }
}

TaggedViolations Position::CheckDiscard(const DiscardMove& m) const {
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/false, &out);
  if (m.player < 0 || m.player >= rules_.num_players) return out;
  CheckHeld(m.player, m.card, &out);
  const CardCounts& hand = players_[m.player].hand;
  if (m.card.is_wild() && rules_.wild_discard != WildDiscard::kAllowed) {
    const bool only_wilds = hand.CountIf([](Card c) { return !c.is_wild(); }) == 0;
    if (rules_.wild_discard == WildDiscard::kNever || !only_wilds)
      out.push_back(Tv(CheckId::kDiscardWild,
                       "a wild card (" + ToString(m.card) +
                           ") may not be discarded while the player holds other cards",
                       "002 Play-8, A26"));
  }
  if (m.card.is_red_three()) {
    out.push_back(Tv(CheckId::kThreeNotAllowed,
                     "a red three is laid out, never discarded", "000 §7"));
  }
  // 000 §7: a red three is laid out in the first turn (before play in Hutto,
  // at once in 002), or at once when drawn; one still held when the turn
  // ends was not (the penalty comes at the end). Every layout.
  const int reds = hand.count(Card(Rank::kThree, Suit::kHearts)) +
                   hand.count(Card(Rank::kThree, Suit::kDiamonds)) -
                   (m.card.is_red_three() ? 1 : 0);
  if (reds > 0 && m.player == current_ && phase_ == Phase::kPlay)
    out.push_back(Tv(CheckId::kThreeTiming,
                     Seat(m.player) + " ends the turn holding " + Plural(reds, "red three") +
                         " that should have been laid out",
                     "000 §7, A6"));
  if (phase_ == Phase::kPlay && m.player == current_) {
    const bool going_out = hand.total() == 1 && hand.count(m.card) == 1;
    CheckTurnEnd(going_out, CanastaCount(side_of(m.player)), &out);
  }
  return out;
}

void Position::ApplyDiscard(const DiscardMove& m) {
  if (m.player < 0 || m.player >= rules_.num_players || phase_ == Phase::kOver) return;
  if (m.player != current_) BeginTurn(m.player);
  Player& p = players_[m.player];
  p.hand.Remove(m.card);
  pile_.push_back(m.card);
  if (p.hand.empty()) {
    went_out_ = m.player;
    concealed_ = !p.melded_before && !turn_.added_to_old_meld && turn_.melded;
    phase_ = Phase::kOver;
    FinishTurn();
    return;
  }
  FinishTurn();
  turn_ = Turn{};
  current_ = (m.player + 1) % rules_.num_players;
  phase_ = Phase::kDraw;
}

TaggedViolations Position::CheckThree(const ThreeMove& m) const {
  TaggedViolations out;
  if (m.player < 0 || m.player >= rules_.num_players) {
    out.push_back(Tv(CheckId::kTurnOrder, "there is no " + Seat(m.player), "000 §5"));
    return out;
  }
  if (!m.card.is_red_three()) {
    out.push_back(Tv(CheckId::kThreeNotAllowed,
                     ToString(m.card) + " is not a red three; only red threes are laid out",
                     "000 §7"));
    return out;
  }
  CheckHeld(m.player, m.card, &out);
  const Player& p = players_[m.player];
  const bool from_pile = p.pile_threes > 0;
  const bool before_play = phase_ == Phase::kBeforePlay;
  if (before_play) {
    // The player at the dealer's left begins the first turn: laying out
    // dealt red threes before the draw is their first-turn layout (A6).
    if (rules_.three_layout == ThreeLayout::kFirstTurn && m.player != current_) {
      out.push_back(Tv(CheckId::kThreeTiming,
                       Seat(m.player) +
                           " lays out a red three before play; this ruleset lays them out in "
                           "the player's first turn",
                       "000 §7, A6"));
    } else if (rules_.three_layout == ThreeLayout::kBeforePlay) {
      const int n = rules_.num_players;
      const int order = (m.player - dealer_ - 1 + 2 * n) % n;
      if (order < last_before_play_seat_)
        out.push_back(Tv(CheckId::kThreeTiming,
                         Seat(m.player) +
                             " lays out red threes out of seat order (from the dealer's left)",
                         "000 §21 Hutto, A23"));
    }
  } else if (phase_ == Phase::kOver) {
    // Only the last stock card's red three may still be revealed (000 §15).
    if (went_out_ >= 0 || m.player != current_)
      out.push_back(Tv(CheckId::kTurnSequence, "the deal is already over", "000 §17"));
  } else if (m.player != current_) {
    out.push_back(Tv(CheckId::kThreeTiming,
                     Seat(m.player) + " lays out a red three outside their own turn", "000 §7"));
  } else if (p.late_threes > 0 && !from_pile) {
    // Held since before play began, where the ruleset lays them out then.
    if (rules_.three_layout == ThreeLayout::kBeforePlay)
      out.push_back(Tv(CheckId::kThreeTiming,
                       "under this ruleset dealt red threes are laid out before the first turn",
                       "000 §21 Hutto, A23"));
    else
      out.push_back(Tv(CheckId::kThreeTiming,
                       "under this ruleset dealt red threes are laid out at once, before play",
                       "002 Setup-7"));
  }
  // The replacement (000 §7): none for a red three taken with the pile.
  if (from_pile) {
    if (m.replacement)
      out.push_back(Tv(CheckId::kThreeReplacement,
                       "a red three taken with the pile gets no replacement card", "000 §7"));
  } else if (!m.replacement) {
    if (stock_size_ > 0)
      out.push_back(Tv(CheckId::kThreeReplacement,
                       "a red three laid out must be replaced from the stock", "000 §7"));
  } else if (stock_size_ == 0) {
    out.push_back(Tv(CheckId::kStockEmpty, "the stock is empty: there is no replacement card",
                     "000 §15"));
  } else {
    CheckFromStock({*m.replacement}, &out);
  }
  return out;
}

void Position::ApplyThree(const ThreeMove& m) {
  if (m.player < 0 || m.player >= rules_.num_players || !m.card.is_red_three()) return;
  Player& p = players_[m.player];
  if (phase_ == Phase::kBeforePlay) {
    const int n = rules_.num_players;
    last_before_play_seat_ = std::max(last_before_play_seat_, (m.player - dealer_ - 1 + 2 * n) % n);
  }
  p.hand.Remove(m.card);
  sides_[side_of(m.player)].threes.push_back(m.card);
  if (p.pile_threes > 0) {
    --p.pile_threes;
    return;
  }
  if (p.late_threes > 0) --p.late_threes;
  if (m.replacement && stock_size_ > 0) {
    TakeFromStock(*m.replacement);
    p.hand.Add(*m.replacement);
    // 000 §15: the stock's last card is a red three: play ends.
    if (stock_size_ == 0 && m.replacement->is_red_three() && phase_ != Phase::kBeforePlay)
      phase_ = Phase::kOver;
  } else if (m.replacement) {
    p.hand.Add(*m.replacement);  // reported: no stock left
  }
}

TaggedViolations Position::CheckAskOut(const AskOutMove& m) const {
  TaggedViolations out;
  if (!rules_.partnerships()) {
    out.push_back(Tv(CheckId::kOutAskNoPartner,
                     "\"may I go out?\" needs a partner; this game is individual play",
                     "000 §17, §21"));
    return out;
  }
  if (phase_ == Phase::kOver || m.player != current_) {
    out.push_back(Tv(CheckId::kOutAskTiming,
                     Seat(m.player) + " may ask only in their own turn", "000 §17"));
    return out;
  }
  if (turn_.took_pile || turn_.melded) {
    out.push_back(Tv(CheckId::kOutAskTiming,
                     "\"may I go out?\" may not be asked after melding or taking the pile",
                     "000 §17"));
  }
  return out;
}

TaggedViolations Position::CheckAnswer(const AnswerMove& m) const {
  TaggedViolations out;
  if (!turn_.asked) {
    out.push_back(Tv(CheckId::kOutAnswerPlayer, "an answer with no question asked", "000 §17"));
    return out;
  }
  const int partner = (turn_.player + 2) % rules_.num_players;
  if (m.player != partner) {
    out.push_back(Tv(CheckId::kOutAnswerPlayer,
                     "the answer must come from " + Seat(partner) + ", the asker's partner",
                     "000 §17"));
  }
  return out;
}

TaggedViolations Position::CheckRetract(const RetractMove& m) const {
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/false, &out);
  if (!turn_.laid.Contains(m.cards)) {
    out.push_back(Tv(CheckId::kRetractNotAllowed,
                     "only cards laid down this turn may be taken back (" + ToString(m.cards) +
                         ")",
                     "000 §8, §10"));
  } else if (!turn_.illegal_meld &&
             !(turn_.opening && turn_.initial_count < Minimum(side_of(m.player)))) {
    out.push_back(Tv(CheckId::kRetractNotAllowed,
                     "cards are taken back only to correct an illegal or insufficient meld",
                     "000 §8, §10"));
  }
  return out;
}

void Position::ApplyRetract(const RetractMove& m) {
  if (m.player < 0 || m.player >= rules_.num_players || phase_ == Phase::kOver) return;
  const int side = side_of(m.player);
  Side& s = sides_[side];
  const bool insufficient = turn_.opening && turn_.initial_count < Minimum(side);
  const bool all = turn_.laid.total() == int(m.cards.size());
  for (Card c : m.cards) {
    for (Meld& meld : s.melds) {
      if (meld.Remove(c)) {
        players_[m.player].hand.Add(c);
        turn_.laid.Remove(c);
        if (turn_.opening) turn_.initial_count -= hooks_.InitialMeldValue(rules_, c);
        break;
      }
    }
  }
  s.melds.erase(std::remove_if(s.melds.begin(), s.melds.end(),
                               [](const Meld& x) { return x.cards.empty(); }),
                s.melds.end());
  // 000 §10: penalties for correcting a meld.
  if (turn_.illegal_meld) {
    s.penalties += rules_.illegal_meld_penalty;
    turn_.illegal_meld = false;
  } else if (insufficient && rules_.insufficient_meld_penalties) {
    if (all) s.minimum_increase += rules_.retract_all_minimum_increase;
    else s.penalties += rules_.partial_retract_penalty;
  }
  if (turn_.laid.empty()) {
    turn_.melded = turn_.took_pile;
    turn_.first_meld_tag = turn_.last_meld_tag = 0;
    turn_.initial_count = 0;
  }
}

// ---------------------------------------------------------------------------
// The end of the deal

TaggedViolations Position::End(int tag) {
  TaggedViolations out;
  if (ended_) return out;
  ended_ = true;
  if (phase_ != Phase::kOver) {
    bool may_end = false;
    if (stock_size_ == 0 && (phase_ == Phase::kDraw || phase_ == Phase::kBeforePlay)) {
      // 000 §15: the player in turn ends play by not taking the pile; that
      // is a refusal they may make only when taking is not compulsory (A12).
      may_end = true;
      const int side = side_of(current_);
      if (rules_.must_take_when_stock_out && !pile_.empty()) {
        const Card top = pile_.back();
        const Meld* meld = FindMeld(side, top.rank());
        const bool fits = !top.is_wild() && !top.is_three() && meld && !meld->cards.empty() &&
                          !meld->is_canasta(rules_) && !IsPileFrozenFor(side) &&
                          !(rules_.one_card_rule && hand(current_).total() == 1 &&
                            pile_.size() == 1);
        if (fits) {
          MeldShape shape = ShapeAfterAdding(meld, {top}, top.rank(), rules_);
          if (!CheckMeldShape(rules_, hooks_, shape)) {
            out.push_back(Tv(CheckId::kStockOutMustTake,
                             "the stock is gone and the top discard " + ToString(top) +
                                 " fits the side's meld, so " + Seat(current_) +
                                 " had to take the pile",
                             "000 §15, A12", tag));
          }
        }
      }
    }
    if (!may_end && phase_ == Phase::kPlay && stock_size_ == 0) {
      // The last stock card was drawn, and the turn has no discard.
      out.push_back(Tv(CheckId::kDiscardMissing,
                       "the deal ends after " + Seat(current_) +
                           " drew the last stock card, without a discard or going out",
                       "000 §8, §11, §15", tag));
    } else if (!may_end) {
      out.push_back(Tv(CheckId::kHandEndedEarly,
                       "the deal ends with nobody out and " + Plural(stock_size_, "card") +
                           " still in the stock",
                       "000 §11, §15", tag));
    }
    FinishTurn();
    phase_ = Phase::kOver;
  }
  EndPlay(tag, &out);
  for (TaggedViolation& v : out)
    if (!v.tag) v.tag = tag;
  return out;
}

void Position::EndPlay(int tag, TaggedViolations* out) {
  // 000 §7, A20: a red three still in the hand of a player who has had a turn.
  for (int s = 0; s < rules_.num_players; ++s) {
    const int held = hand(s).count(Card(Rank::kThree, Suit::kHearts)) +
                     hand(s).count(Card(Rank::kThree, Suit::kDiamonds));
    if (held > 0 && players_[s].turns > 0) {
      const int penalty = held * rules_.undeclared_red_three_penalty;
      sides_[side_of(s)].penalties += penalty;
      if (out)
        out->push_back(Tv(CheckId::kRedThreeUndeclared,
                          Seat(s) + " still holds " + Plural(held, "red three") +
                              " when play ends; " +
                              (penalty ? "the side loses " + std::to_string(penalty)
                                       : std::string("this ruleset sets no penalty for it")),
                          "000 §7, A20", tag));
    }
  }
}

std::vector<ScoreBreakdown> Position::Score() const {
  std::vector<ScoreBreakdown> out(rules_.num_sides());
  const int all_threes = 2 * rules_.decks;
  for (int side = 0; side < rules_.num_sides(); ++side) {
    ScoreBreakdown& b = out[side];
    const Side& s = sides_[side];
    bool any_meld = false;
    for (const Meld& m : s.melds) {
      if (m.cards.empty()) continue;
      any_meld = true;
      b.melded += m.Value(rules_);
      if (m.is_canasta(rules_))
        b.canastas += m.is_natural() ? rules_.natural_canasta_bonus : rules_.mixed_canasta_bonus;
    }
    int reds = 0;
    for (Card c : s.threes) reds += c.is_red_three();
    // 000 §7, A8: all of them together score all_red_threes_bonus in total.
    b.red_threes = reds == all_threes && reds > 0 ? rules_.all_red_threes_bonus
                                                  : reds * rules_.red_three_bonus;
    if (!any_meld && rules_.red_threes_count_against_unmelded) b.red_threes = -b.red_threes;
    if (went_out_ >= 0 && side_of(went_out_) == side) {
      b.going_out = concealed_ && rules_.concealed_going_out_bonus > 0
                        ? rules_.concealed_going_out_bonus
                        : rules_.going_out_bonus;
    }
    for (int seat = 0; seat < rules_.num_players; ++seat) {
      if (side_of(seat) != side) continue;
      for (int i = 0; i < kNumFaces; ++i) {
        Card c = Card::FromIndex(i);
        // A red three left in hand is dealt with by the penalty (A8, A20).
        if (c.is_red_three()) continue;
        b.in_hand -= hand(seat).count(c) * rules_.value(c);
      }
    }
    b.penalties = -s.penalties;
    b.house = hooks_.HouseScoreAdjustment(rules_, Summary(side),
                                          went_out_ >= 0 && side_of(went_out_) == side);
  }
  return out;
}

}  // namespace canasta
