// Position: construction, reading the state, the checks every move shares,
// turn bookkeeping and the dispatch over Move. Each kind of move lives in its
// own file: position_deal.cc, position_draw.cc, position_meld.cc,
// position_turn_end.cc, position_special_hand.cc, position_score.cc.
#include "core/position.h"

#include <algorithm>
#include <array>

#include "core/position_internal.h"

namespace canasta {

using position_internal::OutOfLine;
using position_internal::Plural;
using position_internal::Rare;
using position_internal::Seat;
using position_internal::Tv;

Position::Position(const Rules& rules, const RuleHooks& hooks, std::vector<int> totals)
    : rules_(&rules),
      hooks_(&hooks),
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

int Position::StockCardsBefore(Card c) const {
  if (!stock_ || IsStockNext(c) || (stock_alt_ < stock_->size() && (*stock_)[stock_alt_] == c))
    return 0;
  const size_t slot = StockSlot(c, stock_pos_);
  return slot != kNoSlot && slot > stock_pos_ ? int(slot - stock_pos_) : 0;
}

int Position::StockCardsBeforeDraw(const std::vector<Card>& cards) const {
  if (cards.empty()) return 0;
  if (!IsStockNext(cards[0]) || cards.size() == 1) return StockCardsBefore(cards[0]);
  if (AreStockNext(cards)) return 0;
  const std::vector<Card>& stock = *stock_;
  for (size_t k = 1; k <= kStockSlipReach; ++k) {
    if (stock_pos_ + k + cards.size() > stock.size()) return 0;
    if (std::equal(cards.begin(), cards.end(), stock.begin() + std::ptrdiff_t(stock_pos_ + k)))
      return int(k);
  }
  return 0;
}

int Position::Minimum(int side) const {
  return SaturatingAdd(hooks_->MinimumCount(*rules_, totals_[side], side, &totals_), sides_[side].minimum_increase);
}

const char* Position::PileFreezer() const {
  // 000 §14: a wild card or a red three in the pile freezes it (wild_freezes_pile,
  // red_three_freezes_pile); a black three only blocks until covered
  // (readings R4; black_three_freezes_pile). pile_freeze_lasts: until the pile
  // is taken, or only while the freezing card is on top.
  auto kind = [this](Card c) -> const char* {
    if (c.is_wild()) return rules_->wild_freezes_pile ? "wild" : nullptr;
    if (c.is_red_three()) return rules_->red_three_freezes_pile ? "red_three" : nullptr;
    if (c.is_black_three()) return rules_->black_three_freezes_pile ? "black_three" : nullptr;
    return nullptr;
  };
  if (pile_.empty()) return nullptr;
  if (rules_->pile_freeze_lasts == PileFreeze::kUntilCovered) return kind(pile_.back());
  for (Card c : pile_) {
    if (const char* k = kind(c)) return k;
  }
  return nullptr;
}

bool Position::IsPileFrozen() const { return PileFreezer() != nullptr; }

const char* Position::PileFrozenBy(int side) const {
  if (rules_->frozen_before_initial_meld && !sides_[side].opened) return "not_opened";
  return PileFreezer();
}

bool Position::IsPileFrozenFor(int side) const {
  if (rules_->frozen_before_initial_meld && !sides_[side].opened) return true;
  return IsPileFrozen();
}

int Position::CanastaCount(int side) const {
  int n = 0;
  for (const Meld& m : sides_[side].melds) n += m.is_canasta(*rules_);
  return n;
}

TaggedViolation Position::HookRefusal(CheckId id, HookId hook, const HookAnswer& answer) const {
  const char* name = GetHookSpec(hook).name;
  std::string source = rules_->Cite(name, "");
  if (source.empty())
    source = answer.where.empty() ? std::string("the ruleset's ") + name
                                  : answer.where + " (" + name + ")";
  return position_internal::Tv(
      id, answer.reason.empty() ? std::string("the ruleset's ") + name + " refuses this" : answer.reason,
      source);
}

std::optional<Violation> Position::MeldRefusal(int player, const MeldShape& shape,
                                               const std::vector<Card>& cards, bool from_pile,
                                               std::optional<bool> wild_meld_open) const {
  if (!shape.sequence)
    if (auto v = CheckMeldShape(*rules_, *hooks_, shape)) return v;
  const int seat = player >= 0 && player < rules_->num_players ? player : current_;
  const int side = side_of(seat);
  // The turn's own flag once it has begun; before (a take is checked
  // before it begins the turn), whether the side has opened.
  const bool opening = turn_.player == seat && phase_ == Phase::kPlay ? turn_.opening
                                                                     : !sides_[side].opened;
  if (!shape.sequence)
    if (auto v = PlacementRefusal(side, opening, shape, cards, wild_meld_open)) return v;
  if (!hooks_->Overrides(HookId::kMayMeld)) return std::nullopt;
  MeldHookState state(*this, seat);
  state.shape = &shape;
  state.cards = &cards;
  state.opening = opening;
  state.from_pile = from_pile;
  HookAnswer answer = hooks_->Call(HookContext(HookId::kMayMeld, state), *rules_);
  if (!answer.given || answer.allowed) return std::nullopt;
  return HookRefusal(CheckId::kMeldHouseRule, HookId::kMayMeld, answer).violation;
}

// In line in MeldRefusal, its one caller: asked for every meld.
[[gnu::always_inline]] inline std::optional<Violation> Position::PlacementRefusal(
    int side, bool opening, const MeldShape& shape, const std::vector<Card>& cards,
    std::optional<bool> wild_meld_open) const {
  auto refuse = [](CheckId id, std::string message, std::string source) {
    return Violation{id, std::move(message), {"rule: " + std::move(source)}};
  };
  // Worded only for a refusal: this runs for every meld the engine weighs.
  auto what = [&shape] { return "the meld of " + ToString(shape.rank) + "s"; };
  if (shape.rank != Rank::kJoker && rules_->natural_canasta_closes_rank && RankClosed(shape.rank))
    return Rare([&] {
      return refuse(CheckId::kMeldTooBig,
                    ToString(shape.rank) +
                        "s are dead: a natural canasta of them is complete, so "
                        "neither side may meld them any more",
                    rules_->Cite("natural_canasta_closes_rank", "001 L28, readings R39"));
    });
  int wilds = 0;
  for (Card c : cards) wilds += c.is_wild();
  if (wilds == 0 || shape.rank == Rank::kJoker) return std::nullopt;
  if (!opening && rules_->wild_only_in_initial_meld_ranks.Contains(shape.rank))
    return Rare([&] {
      return refuse(CheckId::kMeldTooManyWilds,
                    what() + " may take wild cards only in the side's initial meld",
                    rules_->Cite("wild_only_in_initial_meld_ranks", "001 L60, readings R41"));
    });
  if (!opening && rules_->wilds_need_naturals > 0) {
    // The rule of five (readings R40): counted after the play, so a natural
    // and a wild card laid together on a meld of four are one legal step.
    if (shape.is_new)
      return Rare([&, wilds] {
        return refuse(CheckId::kMeldTooManyWilds,
                      "a new meld may hold wild cards only in the side's initial meld; " + what() +
                          " is laid with " + std::to_string(wilds) + " wild card(s)",
                      rules_->Cite("wilds_need_naturals", "001 L25, readings R40"));
      });
    if (shape.naturals < rules_->wilds_need_naturals)
      return Rare([&] {
        return refuse(CheckId::kMeldTooManyWilds,
                      what() + " holds " + std::to_string(shape.naturals) +
                          " natural card(s); a wild card may join it only once it holds " +
                          std::to_string(rules_->wilds_need_naturals),
                      rules_->Cite("wilds_need_naturals", "001 L25, readings R40"));
      });
  }
  if (rules_->one_unfinished_wild_meld && wild_meld_open.value_or(HasUnfinishedWildMeld(side)))
    return Rare([&] {
      return refuse(CheckId::kMeldTooManyWilds,
                    "the side's meld of wild cards is unfinished: until it is a canasta no other "
                    "meld of the side may take a wild card",
                    rules_->Cite("one_unfinished_wild_meld", "001 L63, readings R40"));
    });
  return std::nullopt;
}

const Meld* Position::MeldFor(int side, Rank rank, bool adding) const {
  if (rank != Rank::kJoker || !rules_->one_unfinished_wild_meld) return FindMeld(side, rank);
  const Meld* last = nullptr;
  for (const Meld& m : sides_[side].melds) {
    if (m.rank != Rank::kJoker || m.cards.empty()) continue;
    if (!m.is_canasta(*rules_)) return &m;
    last = &m;
  }
  return adding ? last : nullptr;
}

bool Position::HasUnfinishedWildMeld(int side) const {
  for (const Meld& m : sides_[side].melds)
    if (m.rank == Rank::kJoker && !m.cards.empty() && !m.is_canasta(*rules_)) return true;
  return false;
}

bool Position::RankClosed(Rank rank) const {
  for (const Side& s : sides_)
    for (const Meld& m : s.melds)
      if (m.rank == rank && m.is_canasta(*rules_) && m.is_natural()) return true;
  return false;
}

void Position::ChargeGoingOut(int player) {
  if (!rules_->partnerships() || rules_->out_without_asking_penalty == 0 || AskedThisTurn()) return;
  // House rule: going out without asking costs the side points.
  Side& s = sides_[side_of(player)];
  s.penalties = SaturatingAdd(s.penalties, rules_->out_without_asking_penalty);
}

SideSummary Position::Summary(int side) const {
  SideSummary s;
  s.side = side;
  for (const Meld& m : sides_[side].melds) {
    if (m.cards.empty()) continue;
    ++s.melds;
    if (m.is_canasta(*rules_)) {
      ++s.canastas;
      m.is_natural() ? ++s.natural_canastas : ++s.mixed_canastas;
      s.sequence_canastas += m.sequence();
    }
  }
  s.red_threes = 0;
  for (Card c : sides_[side].threes) s.red_threes += c.is_red_three();
  return s;
}

const Meld* Position::FindMeldById(int side, const std::string& id) const {
  if (id.empty()) return nullptr;
  for (const Meld& m : sides_[side].melds)
    if (m.id == id && !m.cards.empty()) return &m;
  return nullptr;
}

bool Position::IsSequencePart(int side, const MeldPart& part, const Meld** target) const {
  *target = nullptr;
  if (!part.to_id.empty()) {
    const Meld* m = FindMeldById(side, part.to_id);
    if (!m || !m->sequence()) return false;
    *target = m;
    return true;
  }
  if (part.to || part.as) return false;
  // Declared a sequence where the ruleset has none: cards of one rank are
  // read as a meld of that rank (readings R122).
  if (part.sequence) return rules_->sequence_melds || !MeldRank(part.cards, std::nullopt);
  if (!rules_->sequence_melds) return false;
  // Natural cards of several ranks can only be a sequence (readings R115).
  Rank first = Rank::kJoker;
  for (Card c : part.cards) {
    if (c.is_wild()) continue;
    if (first == Rank::kJoker) first = c.rank();
    else if (c.rank() != first) return true;
  }
  return false;
}

int Position::SequenceCanastaCount(int side) const {
  int n = 0;
  for (const Meld& m : sides_[side].melds) n += m.sequence() && m.is_canasta(*rules_);
  return n;
}

bool Position::InvariantsHold() const {
  std::array<int, kNumFaces> where{};
  auto add = [&](Card c) {
    if (c.valid()) ++where[c.index()];
  };
  auto add_counts = [&](const CardCounts& cards) {
    for (int i = 0; i < kNumFaces; ++i) where[i] += cards.count(Card::FromIndex(i));
  };
  if (!unseen_.Consistent()) return false;
  add_counts(unseen_);
  for (const Player& p : players_) {
    if (!p.hand.Consistent() || p.turns < 0 || p.pile_threes < 0 || p.late_threes < 0 ||
        p.threes_kept_reported < 0)
      return false;
    add_counts(p.hand);
    add_counts(p.foot);
  }
  for (const Side& s : sides_) {
    for (const Meld& m : s.melds) {
      if (m.naturals + m.twos + m.jokers != m.size() || m.naturals < 0 || m.twos < 0 ||
          m.jokers < 0)
        return false;
      for (Card c : m.cards) add(c);
    }
    for (Card c : s.threes) add(c);
    for (Card c : s.special) add(c);
  }
  for (Card c : pile_) add(c);
  // Conservation is exact unless a count was cut at 255 copies.
  bool saturated = unseen_.saturated();
  for (const Player& p : players_) saturated |= p.hand.saturated() || p.foot.saturated();
  for (int i = 0; i < kNumFaces && !saturated; ++i) {
    if (where[i] != rules_->copies(Card::FromIndex(i)) + surplus_[i]) return false;
  }
  // The stock: its size never negative; a recorded stock is drawn in order.
  if (stock_size_ < 0) return false;
  if (stock_ && (stock_pos_ > stock_->size() || int(stock_->size() - stock_pos_) != stock_size_))
    return false;
  // The phase: a deal someone went out of is over; the play phase is the
  // turn's own player's; a pile taken this turn stays empty until the discard.
  if (went_out_ >= 0 && phase_ != Phase::kOver) return false;
  if (phase_ == Phase::kPlay && turn_.player != current_) return false;
  if (phase_ == Phase::kPlay && turn_.took_pile && !pile_.empty()) return false;
  if (current_ < 0 || current_ >= rules_->num_players) return false;
  return true;
}

// ---------------------------------------------------------------------------
// Shared checks

void Position::CheckTurn(int player, bool drawing, TaggedViolations* out) const {
  // The usual move (the player in turn, drawing first, then playing) returns
  // here; the findings are worded out of line.
  if (phase_ != Phase::kOver && player == current_ && player >= 0 && player < rules_->num_players &&
      (drawing ? phase_ != Phase::kPlay || turn_.draw_left_out : phase_ == Phase::kPlay) &&
      !(FootPending(player) && players_[player].hand.empty()))
    return;
  OutOfLine([this, player, drawing, out] {  // by value: no spill on the usual path
    if (phase_ == Phase::kOver) {
      out->push_back(Tv(CheckId::kTurnSequence, "the deal is already over", "000 §11, §17"));
      return;
    }
    if (player < 0 || player >= rules_->num_players) {
      out->push_back(Tv(CheckId::kTurnOrder, "there is no " + Seat(player), "000 §5"));
      return;
    }
    if (player != current_) {
      if (drawing && phase_ == Phase::kPlay && player == (current_ + 1) % rules_->num_players) {
        // The next player begins a turn: the player in turn drew but neither
        // discarded nor went out (000 §8, §11).
        out->push_back(Tv(CheckId::kDiscardMissing,
                          Seat(current_) + "'s turn ended without a discard; " + Seat(player) +
                              " begins the next turn",
                          rules_->Cite("rule.discard", "000 §8, §11")));
        // The turn ended all the same: what is checked when a turn ends.
        if (turn_.player == current_) CheckTurnEnd(false, CanastaCount(side_of(current_)), out);
        return;
      }
      out->push_back(Tv(CheckId::kTurnOrder,
                        "it is " + Seat(current_) + "'s turn, not " + Seat(player) + "'s",
                        rules_->Cite("rule.turn_order", "000 §11")));
      return;
    }
    if (drawing && phase_ == Phase::kPlay) {
      out->push_back(Tv(CheckId::kTurnSequence, Seat(player) + " has already drawn this turn",
                        rules_->Cite("rule.draw_first", "000 §11, §12")));
    } else if (!drawing && phase_ != Phase::kPlay) {
      out->push_back(Tv(CheckId::kTurnSequence, Seat(player) + " must draw or take the pile first",
                        rules_->Cite("rule.draw_first", "000 §11")));
    }
    // 002 L71: the foot is played once the hand is exhausted, after it is picked up.
    if (FootPending(player) && players_[player].hand.empty())
      out->push_back(Tv(CheckId::kFootMissed,
                        Seat(player) + "'s hand is empty and the foot was not picked up; it is "
                                       "picked up before the player plays on",
                        rules_->Cite("foot_pickup", "002 L71, readings R116")));
  });
}

void Position::CheckHeld(int player, Card card, TaggedViolations* out) const {
  if (player < 0 || player >= rules_->num_players) return;
  if (Holding(player).count(card) > 0) return;
  OutOfLine([&] {  // the usual card is held: the finding is worded out of line
    out->push_back(Tv(CheckId::kCardNotHeld,
                      Seat(player) + " plays " + ToString(card) + " but holds none",
                      rules_->Cite("rule.card_held", "000 §11")));
  });
}

namespace {
// The copies of cards[i] among cards[0..i], this one included: what a move
// plays (CheckHeld) or draws (CheckFromStock) of it so far.
int CopiesUpTo(const std::vector<Card>& cards, size_t i) {
  int copies = 1;
  for (size_t j = 0; j < i; ++j) copies += cards[j] == cards[i];
  return copies;
}
}  // namespace

bool Position::HoldsAll(const CardCounts& holding, const std::vector<Card>& cards) {
  // A meld's few cards are tested without building a count of them.
  if (cards.size() > 8) return holding.Contains(cards);
  for (size_t i = 0; i < cards.size(); ++i)
    if (CopiesUpTo(cards, i) > holding.count(cards[i])) return false;
  return true;
}

void Position::CheckHeld(int player, const std::vector<Card>& cards,
                         TaggedViolations* out) const {
  if (player < 0 || player >= rules_->num_players) return;
  if (cards.size() == 1) return CheckHeld(player, cards[0], out);
  // The usual move holds every card: nothing to word.
  if (HoldsAll(Holding(player), cards)) return;
  OutOfLine([&] {  // the findings are worded out of line
    CardCounts need;
    for (Card c : cards) need.Add(c);
    // One finding for the move, however many cards it plays short (one
    // root cause, one finding), naming each in the order the cards come.
    CardCounts reported;
    std::vector<std::string> short_cards;
    for (Card c : cards) {
      const int held = Holding(player).count(c);
      const int played = need.count(c);
      if (played <= held || reported.count(c)) continue;
      reported.Add(c);
      // CardCounts stops at 255 copies: count a hostile event's copies here.
      const long copies = std::count(cards.begin(), cards.end(), c);
      const std::string times = copies > held + 1 ? " " + std::to_string(copies) + " times" : "";
      short_cards.push_back(
          ToString(c) + times +
          (held == 0 ? std::string(" but holds none") : " but holds only " + std::to_string(held)));
    }
    std::string message = Seat(player) + " plays " + short_cards[0];
    if (short_cards.size() > 1) {
      message = Seat(player) + " plays cards it does not hold: ";
      for (size_t i = 0; i < short_cards.size(); ++i) message += (i ? "; " : "") + short_cards[i];
    }
    out->push_back(Tv(CheckId::kCardNotHeld, message, rules_->Cite("rule.card_held", "000 §11")));
  });
}

namespace {
// CheckFromStock's findings, worded out of line: the usual card drawn is the
// stock's next, with a copy left. The arguments come by value, so that the
// check's own values stay in registers.
[[gnu::cold, gnu::noinline]] void StockMismatch(Card drawn, const std::vector<Card>& stock,
                                                size_t pos, size_t slot, TaggedViolations* out) {
  TaggedViolation v = Tv(CheckId::kStockMismatch,
                         "the card drawn is " + ToString(drawn) + " but the stock's next card is " +
                             ToString(stock[pos]),
                         "000 §12");
  // The log slipped. The card drawn stands for the stock's next, and the
  // next draw is also compared with the place a left-out draw or a draw
  // written twice would leave (docs/readings.md R117): one finding a slip, whichever it was.
  std::vector<std::string>& notes = v.violation.notes;
  if (slot != Position::kNoSlot && slot > pos) {
    std::string skipped;
    for (size_t i = pos; i < slot; ++i)
      skipped += (skipped.empty() ? "" : " ") + ToString(stock[i]);
    notes.insert(notes.end() - 1, ToString(drawn) + " comes after " + skipped +
                                      " in the stock: a wrong card, or a draw of " + skipped +
                                      " left out before this line (a red three's replacement?); "
                                      "the next draw is compared with both");
  } else if (slot != Position::kNoSlot) {
    notes.insert(notes.end() - 1,
                 ToString(drawn) + " was drawn from the stock " +
                     Plural(int(pos - slot), "card", "cards") +
                     " before: a wrong card, or a draw written twice; the next draw is compared "
                     "with both");
  }
  out->push_back(std::move(v));
}
[[gnu::cold, gnu::noinline]] void NoCopyLeft(Card c, int copies, TaggedViolations* out) {
  out->push_back(Tv(CheckId::kCardTooManyCopies,
                    "every copy of " + ToString(c) + " is already accounted for; the pack has " +
                        std::to_string(copies),
                    "000 §1"));
}
}  // namespace

size_t Position::StockSlot(Card c, size_t pos) const {
  const std::vector<Card>& stock = *stock_;
  if (pos < stock.size() && stock[pos] == c) return pos;  // the usual draw
  // A slip: the nearest place, ahead first (cards left out of the log are
  // more common than a line written twice), within kStockSlipReach.
  for (size_t k = 1; k <= kStockSlipReach; ++k) {
    if (pos + k < stock.size() && stock[pos + k] == c) return pos + k;
    if (k <= pos && pos - k < stock.size() && stock[pos - k] == c) return pos - k;
  }
  return kNoSlot;
}

Position::StockStep Position::StepStockSlip(Card c, size_t pos, size_t alt) const {
  const std::vector<Card>& stock = *stock_;
  StockStep step;
  step.pos = pos;
  if (pos >= stock.size()) return step;         // nothing left to compare with
  if (alt < stock.size() && stock[alt] == c) {  // the previous slip, told apart
    step.pos = alt + 1;
    return step;
  }
  // A slip: the card drawn stands for the stock's next (a wrong card), and
  // the next draw may show instead that cards were left out before it, or
  // that this draw was written twice.
  step.matched = false;
  step.slot = StockSlot(c, pos);
  step.pos = pos + 1;
  if (step.slot != kNoSlot) step.alt = step.slot > pos ? step.slot + 1 : pos;
  return step;
}

void Position::CheckFromStock(const std::vector<Card>& cards, TaggedViolations* out) const {
  size_t pos = stock_pos_, alt = stock_alt_;
  for (size_t i = 0; i < cards.size(); ++i) {
    const Card c = cards[i];
    if (stock_) {
      const StockStep step = StepStock(c, pos, alt);
      if (!step.matched) StockMismatch(c, *stock_, pos, step.slot, out);
      pos = step.pos;
      alt = step.alt;
    }
    // The copies of c drawn so far, this one included, are at most i + 1:
    // counted (out of line) only when fewer copies are left unseen.
    const int left = unseen_.count(c);
    if (left <= int(i) && CopiesUpTo(cards, i) > left) NoCopyLeft(c, rules_->copies(c), out);
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
TaggedViolations Position::Play(const Move& move) {
  return std::visit([this](const auto& m) { return Play(m); }, move);
}
void Position::BeginTurn(int player) {
  if (player < 0 || player >= rules_->num_players) return;
  if (!play_begun_) {
    // Play begins: where red threes are laid out before play, any still
    // held are late (000 §21 Hutto, readings R23; 002 Setup-7).
    play_begun_ = true;
    if (rules_->three_layout != ThreeLayout::kFirstTurn) {
      for (Player& p : players_)
        p.late_threes = std::max(0, rules_->LaidOutThreesIn(p.hand) - rules_->threes_kept_before_meld);
    }
  }
  if (turn_.player >= 0 && turn_.player != player) FinishTurn();
  foot_threes_seat_ = -1;
  bonus_count_ = 0;  // not drawn before the next turn: forfeited (the draw said so)
  current_ = player;
  turn_.Reset();
  turn_.player = player;
  turn_.opening = !sides_[side_of(player)].opened;
  ++players_[player].turns;
}

void Position::Turn::Reset() {
  // Every field, as declared in Turn (a new field is reset here too).
  player = -1;
  drew = took_pile = melded = asked = false;
  answer.reset();
  opening = false;
  initial_count = first_meld_tag = last_meld_tag = 0;
  laid.Clear();
  from_hand.Clear();
  from_hand_limited = false;
  counted.Clear();
  black_three_tags.clear();
  illegal_meld = added_to_old_meld = draw_left_out = false;
  top_to_hand = Card();
  rank_count.fill(0);
  ranks_laid = ranks_from_pile = 0;
  opening_judged = false;
}

void Position::FinishTurn() {
  if (turn_.player < 0) return;
  Side& side = sides_[side_of(turn_.player)];
  if (!side.opened) {  // once opened, the side stays so for the deal
    bool any = false;
    for (const Meld& m : side.melds) any |= !m.cards.empty();
    if (any) side.opened = true;
  }
  if (turn_.melded) players_[turn_.player].melded_before = true;
  // A black three covered by this turn's discard no longer blocks (000 §14).
}

}  // namespace canasta
