// The end of a turn: the discard (000 §11, §14), the turn-end checks (initial
// minimum, black threes, the binding answer, going out: 000 §8, §17), "may I
// go out?" (000 §17, 002 Play-11), and the end of play (000 §7, §15).
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/position_internal.h"

namespace canasta {

using position_internal::OutOfLine;
using position_internal::Plural;
using position_internal::Seat;
using position_internal::Tv;

std::vector<Card> Position::StillMeldable(const CardCounts& left, int canastas_after) const {
  const int side = side_of(turn_.player);
  const RankGroups g = GroupByRank(left);
  std::vector<Card> meldable;
  int value = 0;  // toward an initial meld not yet complete
  size_t wilds_used = 0;
  for (Rank r : kMeldRanks) {
    const std::vector<Card>& naturals = g.naturals[int(r)];
    if (naturals.empty()) continue;
    const Meld* meld = FindMeld(side, r);
    if (meld && !meld->cards.empty()) {
      if (MeldRefusal(turn_.player, ShapeAfterAdding(meld, naturals, r, *rules_), naturals, false))
        continue;
      meldable.insert(meldable.end(), naturals.begin(), naturals.end());
      continue;
    }
    // A new meld of these naturals, with as few of the wild cards as it needs.
    for (size_t w = 0; wilds_used + w <= g.wilds.size(); ++w) {
      std::vector<Card> cards = naturals;
      cards.insert(cards.end(), g.wilds.begin() + wilds_used, g.wilds.begin() + wilds_used + w);
      if (!MeldRefusal(turn_.player, ShapeAfterAdding(nullptr, cards, r, *rules_), cards, false)) {
        meldable.insert(meldable.end(), cards.begin(), cards.end());
        wilds_used += w;
        break;
      }
    }
  }
  // Wild cards left over, onto a meld of the side that takes them.
  for (size_t i = wilds_used; i < g.wilds.size(); ++i) {
    for (const Meld& meld : sides_[side].melds) {
      if (meld.cards.empty() || meld.rank == Rank::kThree) continue;
      const MeldShape shape = ShapeAfterAdding(&meld, {g.wilds[i]}, meld.rank, *rules_);
      if (!MeldRefusal(turn_.player, shape, {g.wilds[i]}, false)) {
        meldable.push_back(g.wilds[i]);
        break;
      }
    }
  }
  for (Card c : meldable) value = SaturatingAdd(value, hooks_->InitialMeldValue(*rules_, c));
  // Before the side's first meld is complete, melding needs the minimum.
  if (turn_.opening && !(turn_.melded && turn_.initial_count >= Minimum(side)) &&
      SaturatingAdd(turn_.initial_count, value) < Minimum(side))
    return {};
  // Melding every card kept would go out, which needs the canastas.
  if (int(meldable.size()) >= left.total()) {
    SideSummary summary = Summary(side);
    summary.canastas = canastas_after;
    if (canastas_after < hooks_->CanastasToGoOut(*rules_, summary)) return {};
    if (SequenceCanastaCount(side) < rules_->sequence_canastas_to_go_out) return {};
  }
  return meldable;
}

bool Position::OpeningFindings(TaggedViolations* out, int tag) const {
  const int side = side_of(turn_.player);
  const int minimum = Minimum(side);
  auto note_total = [&](TaggedViolation* v) {
    v->violation.notes.push_back("the side's total before the deal is " +
                                 std::to_string(totals_[side]));
    if (sides_[side].minimum_increase)
      v->violation.notes.push_back("including +" + std::to_string(sides_[side].minimum_increase) +
                                   " for a retracted insufficient meld (000 §10)");
  };
  // The opening's melds, as they stand now.
  // (At most one a rank: fixed arrays, as this runs for every discard the
  // move generator weighs.)
  std::array<const Meld*, 16> melds_at;
  size_t num_melds = 0;
  for (int r = 0; r < 16; ++r) {
    if (!(turn_.ranks_laid >> r & 1)) continue;
    const Meld* meld = FindMeld(side, Rank(r));
    if (meld && !meld->cards.empty()) melds_at[num_melds++] = meld;
  }
  const auto melds = [&] {
    struct View {
      const Meld* const* b;
      const Meld* const* e;
      const Meld* const* begin() const { return b; }
      const Meld* const* end() const { return e; }
    };
    return View{melds_at.data(), melds_at.data() + num_melds};
  }();
  // 001 L36: a complete natural canasta, or a wild canasta, laid whole from
  // the hand this turn opens with no minimum (readings R46).
  auto splash = [&](const Meld& m) {
    if (!rules_->splash_opens || m.size() < rules_->canasta_size) return false;
    if (turn_.ranks_from_pile >> int(m.rank) & 1) return false;
    if (!turn_.laid.Contains(m.cards)) return false;
    return m.rank == Rank::kJoker ? rules_->wild_melds : m.wilds() == 0;
  };
  bool any_splash = false;
  for (const Meld* m : melds) any_splash |= splash(*m);
  // What must reach the minimum: every meld, or each (each_meld_meets_minimum);
  // after a splash nothing, or its companions (splash_companions_need_minimum, 001 L113).
  std::array<const Meld*, 16> judged;
  size_t num_judged = 0;
  for (const Meld* m : melds)
    if (!(any_splash && splash(*m))) judged[num_judged++] = m;
  bool found = false;
  const bool need = !any_splash || (rules_->splash_companions_need_minimum && num_judged > 0);
  if (need && rules_->each_meld_meets_minimum && num_judged > 0) {
    std::string shortfall;
    for (size_t i = 0; i < num_judged; ++i) {
      const Meld* m = judged[i];
      const int count = turn_.rank_count[int(m->rank)];
      if (count >= minimum) continue;
      if (!out) return true;
      shortfall += (shortfall.empty() ? "" : ", ") + std::string("the meld of ") +
                   (m->rank == Rank::kJoker ? std::string("wild card") : ToString(m->rank)) +
                   "s counts " + std::to_string(count);
    }
    if (!shortfall.empty()) {
      TaggedViolation v = Tv(CheckId::kInitialMeldMinimum,
                             shortfall + "; each meld of the initial meld needs " +
                                 std::to_string(minimum) + " by itself",
                             rules_->Cite("each_meld_meets_minimum",
                                          "house rule: each_meld_meets_minimum"),
                             tag);
      note_total(&v);
      out->push_back(std::move(v));
      found = true;
    }
  } else if (need) {
    int count = turn_.initial_count;
    if (any_splash) {
      count = 0;
      for (size_t i = 0; i < num_judged; ++i)
        count = SaturatingAdd(count, turn_.rank_count[int(judged[i]->rank)]);
    }
    if (count < minimum) {
      if (!out) return true;
      TaggedViolation v =
          any_splash
              ? Tv(CheckId::kInitialMeldMinimum,
                   "the melds laid with the splash count " + std::to_string(count) +
                       "; they need " + std::to_string(minimum) + " by themselves",
                   rules_->Cite("splash_companions_need_minimum", "001 L113, readings R46"), tag)
              : Tv(CheckId::kInitialMeldMinimum,
                   "the initial meld counts " + std::to_string(count) + "; the side needs " +
                       std::to_string(minimum),
                   rules_->Cite("minimum_table", "000 §8, §10"), tag);
      note_total(&v);
      out->push_back(std::move(v));
      found = true;
    }
  }
  // 001 L35, L108: the meld the initial meld must include (a splash is one).
  if (rules_->initial_meld_condition == InitialMeldCondition::kCountOnly || any_splash)
    return found;
  bool met = false;
  for (const Meld* m : melds) {
    const bool wild = m->rank == Rank::kJoker;
    switch (rules_->initial_meld_condition) {
      case InitialMeldCondition::kNaturalThreeOrWildMeld:
        met |= wild ? m->size() >= 3 : m->naturals >= 3 && m->wilds() == 0;
        break;
      case InitialMeldCondition::kNaturalThree:
        met |= !wild && m->naturals >= 3 && m->wilds() == 0;
        break;
      case InitialMeldCondition::kThreeNaturals:
        met |= !wild && m->naturals >= 3;
        break;
      case InitialMeldCondition::kCountOnly:
        break;
    }
  }
  if (met) return found;
  if (!out) return true;
  const char* needs =
      rules_->initial_meld_condition == InitialMeldCondition::kNaturalThreeOrWildMeld
          ? "a meld of three or more natural cards with no wild card, or a meld of three or "
            "more wild cards"
      : rules_->initial_meld_condition == InitialMeldCondition::kNaturalThree
          ? "a meld of three or more natural cards with no wild card"
          : "a meld holding three natural cards";
  TaggedViolation v = Tv(CheckId::kInitialMeldCondition,
                         std::string("the initial meld must include ") + needs +
                             "; it has none",
                         rules_->Cite("initial_meld_condition", "001 L35, L108"), tag);
  for (const Meld* m : melds) v.violation.notes.push_back("laid: " + ToString(m->cards));
  out->push_back(std::move(v));
  return true;
}

void Position::CheckTurnEnd(bool going_out, int canastas_after, TaggedViolations* out,
                            Card discard, const char* by) const {
  // The usual turn end has no finding: each rule's findings are worded out
  // of line, so that this stays a few tests.
  if (TurnEndJudgesOpening()) OpeningFindings(out, turn_.last_meld_tag);
  if (!going_out && rules_->black_three_meld != BlackThreeMeld::kAnyTime &&
      !turn_.black_three_tags.empty()) {
    OutOfLine([&] {
      for (int tag : turn_.black_three_tags)
        out->push_back(Tv(CheckId::kMeldBlackThree,
                          "black threes may only be melded by a player going out, and " +
                              Seat(turn_.player) + " did not go out this turn",
                          rules_->Cite("black_three_meld", "000 §8"), tag));
    });
  }
  if (turn_.top_to_hand.valid()) {
    // pile_top_to_hand: the top card taken into the hand is melded this turn.
    OutOfLine([&] {
      out->push_back(Tv(CheckId::kPileTakeInvalid,
                        "the top card " + ToString(turn_.top_to_hand) +
                            " was taken into the hand with the pile but not melded this turn",
                        rules_->Cite("pile_top_to_hand", "house rule: top card to hand")));
    });
  }
  // 000 §17 "The answer is binding"; out_answer_binds = false makes it advice.
  if (turn_.answer && rules_->out_answer_binds) {
    OutOfLine([&] {
      const std::string yes_source = rules_->Cite("out_yes_excused_if_impossible", "000 §17");
      if (*turn_.answer && !going_out && !rules_->out_yes_excused_if_impossible)
        out->push_back(Tv(CheckId::kOutAnswerBinding,
                          "the partner answered yes to \"may I go out?\", so " +
                              Seat(turn_.player) + " had to go out",
                          yes_source));
      if (*turn_.answer && !going_out && rules_->out_yes_excused_if_impossible) {
        // 002 L47: no penalty for a yes the player genuinely cannot honour,
        // "but they must meld as much as possible before discarding".
        CardCounts left = players_[turn_.player].hand;
        left.Remove(discard);
        const std::vector<Card> more = StillMeldable(left, canastas_after);
        if (!more.empty())
          out->push_back(Tv(CheckId::kOutAnswerBinding,
                            "the partner answered yes to \"may I go out?\", so " +
                                Seat(turn_.player) +
                                " had to go out if at all possible, else meld as much as "
                                "possible; " +
                                ToString(more) + " could still be melded",
                            yes_source));
      }
      if (!*turn_.answer && going_out)
        out->push_back(Tv(CheckId::kOutAnswerBinding,
                          "the partner answered no to \"may I go out?\", so " + Seat(turn_.player) +
                              " may not go out this turn",
                          rules_->Cite("ask_out_after_melding", "000 §17")));
    });
  }
  if (going_out) {
    OutOfLine([&] {
      const int side = side_of(turn_.player);
      if (rules_->partnerships() && rules_->ask_to_go_out == AskToGoOut::kRequired &&
          !AskedThisTurn())
        out->push_back(Tv(CheckId::kOutWithoutAsking,
                          Seat(turn_.player) +
                              " goes out without asking \"may I go out?\"; this ruleset requires "
                              "asking the partner first",
                          rules_->Cite("ask_to_go_out", "house rule: ask_to_go_out")));
      SideSummary summary = Summary(side);
      summary.canastas = canastas_after;
      const int needed = hooks_->CanastasToGoOut(*rules_, summary);
      std::optional<TaggedViolation> engine;
      if (canastas_after < needed)
        engine = Tv(CheckId::kOutWithoutCanastas,
                    Seat(turn_.player) + " goes out with " + Plural(canastas_after, "canasta") +
                        "; the side needs " + std::to_string(needed),
                    rules_->Cite("canastas_to_go_out", "000 §9, §17"));
      // readings R115: of those canastas, sequence_canastas_to_go_out are sequences.
      else if (SequenceCanastaCount(side) < rules_->sequence_canastas_to_go_out)
        engine = Tv(CheckId::kOutWithoutCanastas,
                    Seat(turn_.player) + " goes out with " +
                        Plural(SequenceCanastaCount(side), "sequence canasta") +
                        "; the side needs " + std::to_string(rules_->sequence_canastas_to_go_out),
                    rules_->Cite("sequence_canastas_to_go_out", "readings R115"));
      if (hooks_->Overrides(HookId::kMayGoOut)) {
        // The hook has the last word on the canastas rule: nil keeps the
        // engine's verdict, true drops its refusal, a refusal replaces it.
        GoOutHookState state(*this, turn_.player);
        state.by = by ? by : "discard";
        state.canastas = canastas_after;
        state.natural_canastas = summary.natural_canastas;
        state.mixed_canastas = summary.mixed_canastas;
        state.asked = AskedThisTurn();
        state.answer = turn_.answer;
        // On the copy a meld or take that empties the hand was applied to,
        // concealed_ holds the engine's verdict; before a discard, it is made here.
        state.concealed = went_out_ >= 0 ? concealed_
                                         : !players_[turn_.player].melded_before &&
                                               !turn_.added_to_old_meld && turn_.melded;
        if (engine) state.refusal = &engine->violation.message;
        HookAnswer answer = hooks_->Call(HookContext(HookId::kMayGoOut, state), *rules_);
        if (answer.given) {
          engine.reset();
          if (!answer.allowed)
            out->push_back(HookRefusal(CheckId::kOutHouseRule, HookId::kMayGoOut, answer));
        }
      }
      if (engine) out->push_back(std::move(*engine));
    });
  }
}
void Position::ApplyAskOut(const AskOutMove& m) {
  if (m.player == current_ && phase_ != Phase::kOver) {
    // Asked before drawing (000 §17): the question opens the turn, so that
    // the answer binds the rest of it.
    if (turn_.player != current_) BeginTurn(current_);
    turn_.asked = true;
    players_[m.player].asked_out = true;
  }
}

void Position::ApplyAnswer(const AnswerMove& m) {
  if (turn_.asked) turn_.answer = m.yes;
  turn_.asked = false;
}
bool Position::EmptyPileAvoids(Card c) const {
  // 001 L46: "avoid a seven, wild card, ace or dead card" (readings R45);
  // a dead card is one of a rank a natural canasta closed (001 L28).
  if (rules_->empty_pile_avoid[size_t(c.rank())] != 0) return true;
  return rules_->natural_canasta_closes_rank && !c.is_wild() && RankClosed(c.rank());
}

bool Position::MayMeldDownToOne(int player) const {
  // 001 L21: "The player who makes the team's initial meld before the turn
  // card is drawn is the exception, because bonus cards are coming"
  // (readings R38, R47).
  return player == turn_.player && turn_.opening && turn_card_in_stock() &&
         (rules_->bonus_cards_first > 0 || rules_->bonus_cards_second > 0);
}

TaggedViolations Position::CheckDiscard(const DiscardMove& m) const {
  // Every discard comes here: each rule's findings are worded out of line.
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/false, &out);
  if (m.player < 0 || m.player >= rules_->num_players) return out;
  CheckHeld(m.player, m.card, &out);
  const CardCounts& hand = players_[m.player].hand;
  const bool emptied = hand.total() == 1 && hand.count(m.card) == 1;
  // 002 L71: emptying the hand before the foot is picked up is not going out.
  const bool last_card = emptied && !FootPending(m.player);
  // 001 L45, L74: the final card of a player going out may be wild.
  const bool wild_to_go_out = last_card && rules_->wild_discard_to_go_out;
  if (m.card.is_wild() && rules_->wild_discard != WildDiscard::kAllowed && !wild_to_go_out) {
    OutOfLine([&] {
      const bool only_wilds = hand.CountIf([](Card c) { return !c.is_wild(); }) == 0;
      if (rules_->wild_discard == WildDiscard::kNever || !only_wilds)
        out.push_back(Tv(CheckId::kDiscardWild,
                         rules_->wild_discard == WildDiscard::kNever
                             ? "a wild card (" + ToString(m.card) + ") may not be discarded" +
                                   (rules_->wild_discard_to_go_out ? " except to go out" : "")
                             : "a wild card (" + ToString(m.card) +
                                   ") may not be discarded while the player holds other cards",
                         rules_->Cite("wild_discard", "002 Play-8, readings R26")));
    });
  }
  if (m.card.is_red_three()) {
    OutOfLine([&] {
      out.push_back(
          Tv(CheckId::kThreeNotAllowed, "a red three is laid out, never discarded", "000 §7"));
    });
  } else if (rules_->IsLaidOutThree(m.card)) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kThreeNotAllowed, "a three is laid out, never discarded",
                       rules_->Cite("black_threes_laid_out", "001 L44")));
    });
  } else if (m.card.is_three() && !rules_->threes_discardable) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kThreeNotAllowed,
                       "a three (" + ToString(m.card) + ") may never be discarded",
                       rules_->Cite("threes_discardable", "001 L44")));
    });
  }
  // 001 L46 (SWAD, readings R45): on an empty pile, a card the ruleset says
  // to avoid only when the player holds nothing else that may be discarded.
  if (rules_->empty_pile_discard_restricted && pile_.empty() && EmptyPileAvoids(m.card)) {
    OutOfLine([&] {
      std::vector<Card> other;
      for (Card c : hand.ToVector())
        if ((other.empty() || other.back() != c) && !EmptyPileAvoids(c) &&
            !(c.is_three() && !rules_->threes_discardable) && !c.is_red_three())
          other.push_back(c);
      if (!other.empty())
        out.push_back(Tv(CheckId::kDiscardEmptyPile,
                         "on an empty pile " + ToString(m.card) + " may not be discarded while " +
                             Seat(m.player) + " holds another card that may (" + ToString(other) +
                             ")",
                         rules_->Cite("empty_pile_discard_restricted", "001 L46, readings R45")));
    });
  }
  if (m.face_down && !last_card) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kDiscardFaceDown,
                       ToString(m.card) +
                           " is discarded face down, but only the discard that goes out is laid "
                           "face down; it does not empty the hand",
                       rules_->Cite("rule.face_down_discard", "001 L74")));
    });
  }
  // 000 §7: a red three is laid out in the first turn (before play in Hutto,
  // at once in 002), or at once when drawn; one still held when the turn
  // ends was not (the penalty comes at the end). Every layout. Each such
  // three is reported at the first turn's end that keeps it, not at every one.
  const int reds = ThreesKeptAtDiscard(m);
  if (reds > players_[m.player].threes_kept_reported && m.player == current_ &&
      phase_ == Phase::kPlay) {
    OutOfLine([&] {
      out.push_back(Tv(CheckId::kThreeTiming,
                       Seat(m.player) + " ends the turn holding " +
                           Plural(reds, rules_->black_threes_laid_out ? "three" : "red three") +
                           " that should have been laid out",
                       rules_->Cite("three_layout", "000 §7, readings R6")));
    });
  }
  if (hooks_->Overrides(HookId::kMayDiscard)) {
    OutOfLine([&] {
      DiscardHookState state(*this, m.player);
      state.card = m.card;
      state.last_card = emptied;
      HookAnswer answer = hooks_->Call(HookContext(HookId::kMayDiscard, state), *rules_);
      if (answer.given && !answer.allowed)
        out.push_back(HookRefusal(CheckId::kDiscardHouseRule, HookId::kMayDiscard, answer));
    });
  }
  if (phase_ == Phase::kPlay && m.player == current_) {
    if (last_card && !rules_->last_discard_goes_out) {
      OutOfLine([&] {
        out.push_back(
            Tv(CheckId::kOutByDiscard,
               Seat(m.player) + " discards the last card (" + ToString(m.card) +
                   "); under this ruleset a player goes out only by melding every card",
               rules_->Cite("last_discard_goes_out", "house rule: last_discard_goes_out")));
      });
    }
    // The canastas matter only to going out and to a yes answered (CheckTurnEnd).
    const int canastas = last_card || turn_.answer ? CanastaCount(side_of(m.player)) : 0;
    CheckTurnEnd(last_card, canastas, &out, m.card, "discard");
  }
  return out;
}

TaggedViolations Position::Play(const DiscardMove& m) {
  if (PlayUsualDiscard(m)) return {};
  TaggedViolations v = CheckDiscard(m);
  ApplyDiscard(m);
  CANASTA_DCHECK(InvariantsHold());
  return v;
}

bool Position::PlayUsualDiscard(const DiscardMove& m) {
  // Each test below is the usual side of a rule of CheckDiscard (where the
  // rule is stated and cited) or of CheckTurnEnd; anything else goes there.
  if (phase_ != Phase::kPlay || m.player != current_ || m.player < 0 || turn_.player != m.player ||
      m.face_down)
    return false;
  Player& p = players_[m.player];
  // Two cards or more held: the discard neither empties the hand (going
  // out) nor comes from the foot.
  if (p.hand.total() < 2 || p.hand.count(m.card) == 0) return false;
  const Card c = m.card;
  if ((c.is_wild() && rules_->wild_discard != WildDiscard::kAllowed) || rules_->IsLaidOutThree(c) ||
      (c.is_three() && !rules_->threes_discardable) ||
      (rules_->empty_pile_discard_restricted && pile_.empty()) ||
      hooks_->Overrides(HookId::kMayDiscard))
    return false;
  if (ThreesKeptAtDiscard(m) > p.threes_kept_reported) return false;
  if (TurnEndJudgesOpening() || !turn_.black_three_tags.empty() || turn_.top_to_hand.valid() ||
      turn_.answer)
    return false;
  // Applied as ApplyDiscard applies it.
  p.hand.Remove(c);
  pile_.push_back(c);
  PassTurnAfterDiscard(m.player);
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

void Position::ApplyDiscard(const DiscardMove& m) {
  if (m.player < 0 || m.player >= rules_->num_players || phase_ == Phase::kOver) return;
  if (m.player == current_ && phase_ == Phase::kPlay) {
    Player& held = players_[m.player];  // three-timing reported these once
    const int kept = ThreesKeptAtDiscard(m);
    if (kept > held.threes_kept_reported) held.threes_kept_reported = kept;
  }
  if (m.player != current_) BeginTurn(m.player);
  TakeUpFootPlayedOn(m.player);
  Player& p = players_[m.player];
  if (!p.hand.Remove(m.card)) Conjure(m.card);
  pile_.push_back(m.card);
  if (p.hand.empty() && !FootPending(m.player)) {
    ChargeGoingOut(m.player);
    went_out_ = m.player;
    concealed_ = !p.melded_before && !turn_.added_to_old_meld && turn_.melded;
    phase_ = Phase::kOver;
    FinishTurn();
    return;
  }
  PassTurnAfterDiscard(m.player);
}

void Position::PassTurnAfterDiscard(int player) {
  const int bonus = BonusEarned(player);
  if (bonus > 0) {
    bonus_player_ = player;
    bonus_count_ = bonus;
  }
  FinishTurn();
  turn_.Reset();
  current_ = (player + 1) % rules_->num_players;
  phase_ = Phase::kDraw;
  // House rule (stock_out_play): the discard after the last stock card ends play.
  if (stock_size_ == 0 && rules_->stock_out_play == StockOutPlay::kEndsAtLastCard)
    phase_ = Phase::kOver;
}
TaggedViolations Position::CheckAskOut(const AskOutMove& m) const {
  TaggedViolations out;
  if (!rules_->partnerships()) {
    out.push_back(Tv(CheckId::kOutAskNoPartner,
                     "\"may I go out?\" needs a partner; this game is individual play",
                     rules_->Cite("num_players", "000 §17, §21")));
    return out;
  }
  if (rules_->ask_to_go_out == AskToGoOut::kNotAllowed) {
    out.push_back(Tv(CheckId::kOutAskTiming,
                     "this ruleset does not allow asking \"may I go out?\" at any time",
                     rules_->Cite("ask_to_go_out", "house rule: ask_to_go_out")));
    return out;
  }
  const std::string source = rules_->Cite("ask_out_after_melding", "000 §17");
  if (phase_ == Phase::kOver || m.player != current_) {
    out.push_back(
        Tv(CheckId::kOutAskTiming, Seat(m.player) + " may ask only in their own turn", source));
    return out;
  }
  // 001 L75 "once a hand", per player (readings R48).
  if (rules_->ask_out_once_per_hand && m.player >= 0 && m.player < rules_->num_players &&
      players_[m.player].asked_out) {
    out.push_back(Tv(CheckId::kOutAskTiming,
                     Seat(m.player) + " already asked \"may I go out?\" in this hand; a player "
                                      "may ask once a hand",
                     rules_->Cite("ask_out_once_per_hand", "001 L75, readings R48")));
    return out;
  }
  // 000 §17: "not ... after melding or after showing an intention to take
  // the discard pile"; 002 Play-11: any time "Before going out" (R109).
  if ((turn_.took_pile || turn_.melded) && !rules_->ask_out_after_melding) {
    out.push_back(Tv(CheckId::kOutAskTiming,
                     "\"may I go out?\" may not be asked after melding or taking the pile",
                     source));
  }
  return out;
}

TaggedViolations Position::CheckAnswer(const AnswerMove& m) const {
  TaggedViolations out;
  if (!turn_.asked) {
    out.push_back(Tv(CheckId::kOutAnswerPlayer, "an answer with no question asked",
                     rules_->Cite("ask_out_after_melding", "000 §17")));
    return out;
  }
  const int partner = (turn_.player + 2) % rules_->num_players;
  if (m.player != partner) {
    out.push_back(Tv(CheckId::kOutAnswerPlayer,
                     "the answer must come from " + Seat(partner) + ", the asker's partner",
                     rules_->Cite("ask_out_after_melding", "000 §17")));
  }
  return out;
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
      // is a refusal they may make only when taking is not compulsory (readings R12).
      may_end = true;
      const int side = side_of(current_);
      if (rules_->must_take_when_stock_out && !pile_.empty()) {
        const Card top = pile_.back();
        const Meld* meld = FindMeld(side, top.rank());
        // Whether the top card may go onto the side's meld is the take's own
        // rule (CheckTakePile: frozen pile, forms of the take, one-card rule,
        // the meld shape, the ruleset's may_take_pile).
        const bool fits = !top.is_wild() && !top.is_three() && meld && !meld->cards.empty();
        if (fits) {
          if (CheckTakePile(TakePileMove{current_, top, {}, top.rank(), {}, 0}).empty()) {
            out.push_back(
                Tv(CheckId::kStockOutMustTake,
                   "the stock is gone and the top discard " + ToString(top) +
                       " fits the side's meld, so " + Seat(current_) + " had to take the pile",
                   rules_->Cite("must_take_when_stock_out", "000 §15, readings R12"), tag));
          }
        }
      }
    }
    if (!may_end && phase_ == Phase::kPlay && stock_size_ == 0 &&
        rules_->stock_out_play == StockOutPlay::kEndsAtLastCard) {
      // Play ends with the player who drew the last card, who may have no
      // card to discard (every one refused for itself).
      bool can_discard = false;
      for (int i = 0; i < kNumFaces && !can_discard; ++i) {
        const Card c = Card::FromIndex(i);
        if (players_[current_].hand.count(c) == 0) continue;
        bool refused = false;
        for (const TaggedViolation& v : CheckDiscard(DiscardMove{current_, c, 0}))
          refused |= v.violation.id == CheckId::kDiscardWild ||
                     v.violation.id == CheckId::kThreeNotAllowed ||
                     v.violation.id == CheckId::kDiscardHouseRule;
        can_discard = !refused;
      }
      may_end = !can_discard;
    }
    if (!may_end && phase_ == Phase::kPlay && stock_size_ == 0) {
      // The last stock card was drawn, and the turn has no discard.
      out.push_back(Tv(CheckId::kDiscardMissing,
                       "the deal ends after " + Seat(current_) +
                           " drew the last stock card, without a discard or going out",
                       rules_->Cite("rule.discard", "000 §8, §11, §15"), tag));
    } else if (!may_end) {
      out.push_back(Tv(CheckId::kHandEndedEarly,
                       "the deal ends with nobody out and " + Plural(stock_size_, "card") +
                           " still in the stock",
                       rules_->Cite("rule.hand_end", "000 §11, §15"), tag));
    }
    FinishTurn();
    phase_ = Phase::kOver;
  }
  EndPlay(tag, &out);
  CANASTA_DCHECK(InvariantsHold());
  for (TaggedViolation& v : out)
    if (!v.tag) v.tag = tag;
  return out;
}

void Position::EndPlay(int tag, TaggedViolations* out) {
  // 000 §7, readings R20: a red three still in the hand of a player who has had a turn.
  // With the threes table a three in hand is a card (001 L57), no penalty.
  if (!rules_->three_values.empty()) return;
  for (int s = 0; s < rules_->num_players; ++s) {
    // A side out with a special hand scores that alone (001 L79).
    if (special_player_ >= 0 && side_of(s) == side_of(special_player_)) continue;
    const int held = RedThreesIn(hand(s));
    if (held > 0 && players_[s].turns > 0) {
      const int penalty = SaturatingMul(held, rules_->undeclared_red_three_penalty);
      sides_[side_of(s)].penalties = SaturatingAdd(sides_[side_of(s)].penalties, penalty);
      if (out)
        out->push_back(
            Tv(CheckId::kRedThreeUndeclared,
               Seat(s) + " still holds " + Plural(held, "red three") + " when play ends; " +
                   (penalty ? "the side loses " + std::to_string(penalty)
                            : std::string("this ruleset sets no penalty for it")),
               rules_->Cite("undeclared_red_three_penalty", "000 §7, readings R20"), tag));
    }
  }
}

bool Position::PassCard(int from, int to, Card c) {
  const int n = rules_->num_players;
  if (from < 0 || from >= n || to < 0 || to >= n || from == to || !players_[from].hand.Remove(c))
    return false;
  players_[to].hand.Add(c);
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

bool Position::PileCardLate(int seat, Card c) {
  if (seat < 0 || seat >= rules_->num_players || c.is_wild() || c.is_three() ||
      !players_[seat].hand.Remove(c))
    return false;
  pile_.push_back(c);
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

bool Position::LayOutHeldThrees(int seat) {
  // The threes EndPlay charged for, and nothing else.
  if (!ended_ || seat < 0 || seat >= rules_->num_players || !rules_->three_values.empty() ||
      players_[seat].turns == 0 ||
      (special_player_ >= 0 && side_of(seat) == side_of(special_player_)))
    return false;
  CardCounts& hand = players_[seat].hand;
  const int held = RedThreesIn(hand);
  if (held == 0) return false;
  Side& side = sides_[side_of(seat)];
  side.penalties =
      SaturatingAdd(side.penalties, -SaturatingMul(held, rules_->undeclared_red_three_penalty));
  for (Suit suit : {Suit::kHearts, Suit::kDiamonds}) {
    const Card three(Rank::kThree, suit);
    while (hand.Remove(three)) side.threes.push_back(three);
  }
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

bool Position::MarkOpened(int seat) {
  if (seat < 0 || seat >= rules_->num_players || sides_[side_of(seat)].opened) return false;
  sides_[side_of(seat)].opened = true;
  return true;
}

bool Position::SwapLaidCard(int seat, Rank rank, Card laid, Card held) {
  // Naturals of the meld's rank, or wild cards (a joker for a two too).
  if (seat < 0 || seat >= rules_->num_players || laid == held || laid.is_wild() != held.is_wild() ||
      (!laid.is_wild() && (laid.rank() != rank || held.rank() != rank)))
    return false;
  Meld* meld = FindMeld(side_of(seat), rank);
  CardCounts& hand = players_[seat].hand;
  if (meld == nullptr || hand.count(held) == 0 || !meld->Remove(laid)) return false;
  meld->Add(held);
  hand.Remove(held);
  hand.Add(laid);
  if (turn_.laid.Remove(laid)) turn_.laid.Add(held);
  if (turn_.counted.Remove(laid)) {
    // What the card counted toward the initial meld's minimum (000 §13).
    turn_.counted.Add(held);
    const int change =
        hooks_->InitialMeldValue(*rules_, held) - hooks_->InitialMeldValue(*rules_, laid);
    turn_.initial_count = SaturatingAdd(turn_.initial_count, change);
    turn_.rank_count[int(rank)] = SaturatingAdd(turn_.rank_count[int(rank)], change);
  }
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

int Position::BonusEarned(int player) const {
  // 001 L37, readings R47: an initial meld made while the turn card is in
  // the stock earns bonus cards, drawn after the turn's discard.
  if (!turn_.opening || !turn_card_in_stock() ||
      (rules_->bonus_cards_first <= 0 && rules_->bonus_cards_second <= 0))
    return 0;
  const int side = side_of(player);
  bool melded = false, other_opened = false;
  for (const Meld& meld : sides_[side].melds) melded |= !meld.cards.empty();
  for (int s = 0; s < rules_->num_sides(); ++s) other_opened |= s != side && sides_[s].opened;
  if (!melded) return 0;
  return std::min(other_opened ? rules_->bonus_cards_second : rules_->bonus_cards_first,
                  stock_size_);
}

TaggedViolations Position::EndTurnUndiscarded(int next, bool earns_bonus) {
  TaggedViolations out;
  const int n = rules_->num_players;
  if (phase_ != Phase::kPlay || current_ < 0 || next != (current_ + 1) % n || next == current_ ||
      turn_.player != current_)
    return out;
  CheckTurn(next, /*drawing=*/true, &out);  // the next seat's draw judges the turn so
  const int ended = current_;
  const int bonus = earns_bonus ? BonusEarned(ended) : 0;
  BeginTurn(next);
  phase_ = Phase::kDraw;
  if (bonus > 0) {  // due as after the discard (readings R140)
    bonus_player_ = ended;
    bonus_count_ = bonus;
  }
  CANASTA_DCHECK(InvariantsHold());
  return out;
}

}  // namespace canasta
