// The replay of one game: lines left out of the log (a draw, a take, a
// three, a discard, a meld), shown by the lines after them and made up there
// (docs/readings.md, R117-R152): one finding for each slip.
#include "replay/driver_internal.h"

namespace canasta {

bool ReplayDriver::GameReplay::FoldLeftOutMeld(const Event& e, const Position& pos, int side,
                                               LeftOutMeld& left, TaggedViolations* found,
                                               TaggedViolations* folded) {
  bool root_here = false;
  for (const TaggedViolation& v : *found)
    root_here |= left.root < 0 && TargetMissing(e, pos, side, v.violation.id);
  root_here = root_here && LeftOutMeldHeld(e, pos, side);
  // A take of the pile left out of a turn that melded before its draw, its
  // top of the rank of the meld the side lacks: that take laid the meld
  // (R121), and the turn's finding is the root.
  if (left.root < 0 && untaken_pile_.finding >= 0 && untaken_pile_.hand == hand_number_ &&
      choice_.rules.side_of(untaken_pile_.seat) == side) {
    bool shows = false;
    for (const TaggedViolation& v : *found)
      shows |= v.violation.id == CheckId::kMeldTargetMissing &&
               SoleTarget(e) == untaken_pile_.top.rank();
    if (shows) {
      const std::string rank = ToString(untaken_pile_.top.rank());
      left.root = untaken_pile_.finding;
      left.ranks.assign(1, rank);
      AddNote(left.root, "the take of the pile (" + ToString(untaken_pile_.top) +
                             " on top) was likely left out of this turn: it laid the meld of " +
                             rank +
                             "s that later lines add to; what its absence makes of the "
                             "hand is noted here (readings R121, R137)");
      untaken_pile_ = UntakenPile();
      root_here = false;
    }
  }
  if (root_here && left.opening_short >= 0) {
    // The side's initial meld was judged short earlier in the hand, and
    // now it adds to a meld it lacks: the meld left out was part of that
    // initial meld, whose finding showed it first; this one is its note.
    left.root = left.opening_short;
    left.ranks.clear();
    left.AddRanksOf(e);
    root_here = false;
  }
  if (left.root < 0 && !root_here) return false;
  auto named = [&](const std::optional<std::string>& to) {
    return to && std::find(left.ranks.begin(), left.ranks.end(), *to) != left.ranks.end();
  };
  auto adds_to_left_out = [&] {
    if (named(e.to)) return true;  // a take's top card
    for (const MeldSpec& part : e.melds)
      if (named(part.to)) return true;
    for (const MeldSpec& part : e.before)
      if (named(part.to)) return true;
    return false;
  };
  TaggedViolations kept;
  for (TaggedViolation& v : *found) {
    bool fold = false;
    switch (v.violation.id) {
      case CheckId::kInitialMeldMinimum:
      case CheckId::kInitialMeldCondition:
      case CheckId::kOutWithoutCanastas:
      case CheckId::kMeldKeepACard:  // short of the canastas to go out (R144)
        fold = true;
        break;
      case CheckId::kMeldTooFewNaturals:
      case CheckId::kMeldTooManyWilds:
      case CheckId::kMeldTooSmall:
        fold = root_here || adds_to_left_out();
        break;
      case CheckId::kDiscardEmptyPile:
        // A discard onto an empty pile while the seat holds other cards,
        // among them cards of a meld left out (SWAD, 001 L46).
        fold = !root_here && HoldsLeftOutRank(pos, e.player.value_or(-1), left.ranks);
        break;
      case CheckId::kDiscardWild:
        // A wild card discarded while the seat holds natural cards, all of
        // them the cards of a meld left out (a discard of wild cards only,
        // as the log played it).
        fold = !root_here && HoldsLeftOutRank(pos, e.player.value_or(-1), left.ranks) &&
               NaturalsAllOf(pos, e.player.value_or(-1), left.ranks);
        break;
      case CheckId::kMeldBlackThree:
        // Found at the turn's end (a discard): black threes melded by a
        // seat that did not go out, holding as replayed the cards of the
        // meld left out.
        fold = !root_here && e.type == EventType::kDiscard;
        break;
      case CheckId::kMeldTargetMissing:
      case CheckId::kPileTakeInvalid:
        // Another meld the side lacks: the line left out laid it too (one
        // line may lay many melds); its shape findings follow as above.
        fold = !root_here && TargetMissing(e, pos, side, v.violation.id);
        if (fold) {
          left.AddRanksOf(e);
        }
        break;
      default:
        break;
    }
    (fold ? folded : &kept)->push_back(std::move(v));
  }
  *found = std::move(kept);
  return root_here;
}

bool ReplayDriver::GameReplay::HoldsLeftOutRank(const Position& pos, int seat,
                                                const std::vector<std::string>& ranks) const {
  if (seat < 0 || seat >= choice_.rules.num_players) return false;
  for (const std::string& to : ranks) {
    const std::optional<Rank> rank = RefRank(to);
    if (rank && HoldsMeldOf(pos, seat, *rank)) return true;
  }
  return false;
}

bool ReplayDriver::GameReplay::NaturalsAllOf(const Position& pos, int seat,
                                             const std::vector<std::string>& ranks) const {
  if (seat < 0 || seat >= choice_.rules.num_players) return false;
  const CardCounts& held = pos.hand(seat);
  for (int i = 0; i < kNumFaces; ++i) {
    const Card c = Card::FromIndex(i);
    if (held.count_at(i) == 0 || c.is_wild()) continue;
    if (std::none_of(ranks.begin(), ranks.end(),
                     [&](const std::string& to) { return RefRank(to) == c.rank(); }))
      return false;
  }
  return true;
}

bool ReplayDriver::GameReplay::HoldsMeldOf(const Position& pos, int seat, Rank rank) const {
  const Rules& rules = choice_.rules;
  if (rank == Rank::kJoker && !rules.wild_melds) return false;
  int count = 0;
  for (Card c : pos.hand(seat).ToVector())
    count += rank == Rank::kJoker ? c.is_wild() : !c.is_wild() && c.rank() == rank;
  return count >= (rank == Rank::kJoker ? rules.min_meld_size : rules.min_naturals);
}

bool ReplayDriver::GameReplay::TargetMissing(const Event& e, const Position& pos, int side,
                                             CheckId id) const {
  if (id == CheckId::kMeldTargetMissing) return true;
  if (id != CheckId::kPileTakeInvalid || e.type != EventType::kTakePile) return false;
  const std::optional<Rank> rank = RefRank(e.to);
  if (!rank || *rank == Rank::kJoker || *rank == Rank::kSequence) return false;
  for (const Meld& m : pos.melds(side))
    if (m.rank == *rank && m.size() >= choice_.rules.min_meld_size) return false;
  return true;
}

bool ReplayDriver::GameReplay::LeftOutMeldHeld(const Event& e, const Position& pos,
                                               int side) const {
  auto held = [&](const std::optional<std::string>& to) {
    const std::optional<Rank> rank = RefRank(to);
    if (!rank) return false;
    for (int seat = 0; seat < choice_.rules.num_players; ++seat)
      if (choice_.rules.side_of(seat) == side && HoldsMeldOf(pos, seat, *rank)) return true;
    return false;
  };
  if (held(e.to)) return true;
  for (const MeldSpec& part : e.melds)
    if (held(part.to)) return true;
  return false;
}

void ReplayDriver::GameReplay::NoteOverDraw(const Event& e, size_t findings_from) {
  const size_t due = size_t(choice_.rules.stock_draw);
  if (e.cards.size() <= due) return;
  for (size_t i = findings_from; i < report_->findings.size(); ++i) {
    if (report_->findings[i].id != CheckId::kDrawCount || report_->findings[i].line != e.line)
      continue;
    over_draw_ =
        OverDraw{e.line, *e.player,
                 std::vector<Card>(e.cards.begin() + std::ptrdiff_t(due), e.cards.end()), int(i)};
    UpdateRare();
    return;
  }
}

void ReplayDriver::GameReplay::NoteMissingDiscard(int line, int seat, size_t findings_from) {
  for (size_t i = findings_from; i < report_->findings.size(); ++i) {
    if (report_->findings[i].id != CheckId::kDiscardMissing || report_->findings[i].line != line)
      continue;
    missing_discard_ = MissingDiscard{seat, int(i), -1, 0};
    UpdateRare();
    return;
  }
}

void ReplayDriver::GameReplay::DiscardShown(const Event& e, Position* pos) {
  MissingDiscard& missing = *missing_discard_;
  const int player = *e.player;
  if (missing.taker < 0) {
    if (e.type != EventType::kTakePile) return;
    // The take names as its top the card the seat left out of the pile.
    if (e.top && player == pos->current_player() &&
        (pos->pile().empty() || pos->pile().back() != *e.top) &&
        pos->PileCardLate(missing.seat, *e.top)) {
      AddNote(missing.finding, "line " + std::to_string(e.line) + ": " + SeatName(player) +
                                   " takes the pile with " + ToString(*e.top) + " on top, a card " +
                                   SeatName(missing.seat) +
                                   " still held: the discard left out was " + ToString(*e.top) +
                                   "; laid on the pile (readings R130)");
      missing_discard_.reset();
      UpdateRare();
      return;
    }
    missing.taker = player;
    missing.take_line = e.line;
    return;
  }
  if (player != missing.taker) return;
  for (Card c : Lacking(e, pos->Holding(player))) {
    if (!pos->PassCard(missing.seat, player, c)) continue;
    AddNote(missing.finding, "line " + std::to_string(e.line) + ": " + SeatName(player) +
                                 " plays " + ToString(c) + " from the pile it took at line " +
                                 std::to_string(missing.take_line) + ", a card " +
                                 SeatName(missing.seat) + " still held: the discard left out was " +
                                 ToString(c) + " (readings R130)");
    // R150: the taker went out as replayed, with no finding of its own (a
    // meld of every card is a legal going out here): this move, after the
    // end, is still a note of the same finding.
    if (pos->went_out() == player) out_with_discard_ = {missing.finding, player, hand_number_};
    missing_discard_.reset();
    UpdateRare();
    return;
  }
}

void ReplayDriver::GameReplay::UndrawnTurnShown(const Event& e, Position* pos) {
  const std::optional<Card> taken = StockCardTaken(e, /*bonus=*/false);
  if (!taken) return;
  const UndrawnTurn turn = *undrawn_turn_;
  undrawn_turn_.reset();
  UpdateRare();
  const int due = choice_.rules.stock_draw;
  // A whole draw on; or the stock's next card where a copy of it also lies
  // a whole draw on, the later move taking the second copy (R121).
  const int before = pos->StockCardsBefore(*taken);
  if (pos->stock_slip_open() || (before != due && !(before == 0 && AWholeDrawOn(*pos, e, *taken))))
    return;
  const std::vector<Card> cards = pos->StockTop(due);
  if (!pos->GiveFromStock(turn.seat, cards)) return;
  AddNote(
      turn.finding,
      "the draw of " + ToString(cards) + ", the stock's next, was left out before this line: " +
          (e.type == EventType::kThree ? "the three's replacement at line " : "the draw of line ") +
          std::to_string(e.line) + " comes after it; made up (readings R121)");
}

void ReplayDriver::GameReplay::UndrawnTurnScored(const Event& end) {
  const UndrawnTurn turn = *undrawn_turn_;
  undrawn_turn_.reset();
  UpdateRare();
  Position* pos = game_.position();
  const int side = choice_.rules.side_of(turn.seat);
  if (!end.scores || int(end.scores->size()) != choice_.rules.num_sides() || pos->stock_slip_open())
    return;
  const int recorded = (*end.scores)[size_t(side)];
  const std::vector<Card> cards = pos->StockTop(choice_.rules.stock_draw);
  if (cards.empty()) return;
  Position probe = *pos;
  if (!probe.GiveFromStock(turn.seat, cards) || probe.Score()[size_t(side)].total() != recorded)
    return;
  pos->GiveFromStock(turn.seat, cards);
  AddNote(turn.finding, "the draw of " + ToString(cards) +
                            ", the stock's next, was left out before this line: the end_hand "
                            "at line " +
                            std::to_string(end.line) + " scores " + SideName(side) +
                            " with them in " + SeatName(turn.seat) +
                            "'s hand; made up (readings R121)");
}

void ReplayDriver::GameReplay::ThreesShownByScores(const Event& end, TaggedViolations* ended) {
  const auto undeclared = [](const TaggedViolation& v) {
    return v.violation.id == CheckId::kRedThreeUndeclared;
  };
  KeptThree kept = kept_three_;
  Position* pos = game_.position();
  if (std::none_of(ended->begin(), ended->end(), undeclared) || !end.scores ||
      int(end.scores->size()) != choice_.rules.num_sides() || !pos)
    return;
  // Play ended with the stock's last card, a red three, drawn by the last
  // move (000 §15): the three is that seat's to lay out, with no finding
  // of its own before the end.
  const bool last_card =
      (kept.finding < 0 || kept.hand != hand_number_) && LastStockThreeHeld(*pos);
  if (last_card)
    kept = {-1, draw_.player, hand_number_};
  else if (kept.finding < 0 || kept.hand != hand_number_)
    return;
  // That seat alone holds red threes: the findings are all its own.
  for (int seat = 0; seat < choice_.rules.num_players; ++seat)
    if (seat != kept.player && RedThreesIn(pos->hand(seat)) > 0) return;
  const int held = RedThreesIn(pos->hand(kept.player));
  const int side = choice_.rules.side_of(kept.player);
  Position probe = *pos;
  if (!probe.LayOutHeldThrees(kept.player) ||
      probe.Score()[size_t(side)].total() != (*end.scores)[size_t(side)])
    return;
  pos->LayOutHeldThrees(kept.player);
  if (last_card) {
    // One finding, of the three's timing, in place of the end's.
    const Card three = draw_.cards.back();
    Add(end.line, CheckId::kThreeTiming,
        SeatName(kept.player) + " drew " + ToString(three) +
            ", the stock's last card, and never laid it out",
        {"the end_hand scores " + SideName(side) +
             " with it laid out: its `three` line was left out of the log; laid out (readings "
             "R151)",
         "rule: 000 §7, §15"});
    ended->erase(std::remove_if(ended->begin(), ended->end(), undeclared), ended->end());
    return;
  }
  for (const TaggedViolation& v : *ended)
    if (undeclared(v))
      AddNote(kept.finding, "line " + std::to_string(end.line) + ": as replayed, " +
                                v.violation.message + "; the end_hand scores " + SideName(side) +
                                " with " +
                                (held == 1 ? "it laid out: its `three` line was"
                                           : "them laid out: their `three` lines were") +
                                " left out of the log; laid out (readings R151)");
  ended->erase(std::remove_if(ended->begin(), ended->end(), undeclared), ended->end());
}

void ReplayDriver::GameReplay::OverDrawShown(const Event& e, Position* pos) {
  const std::optional<Card> taken = StockCardTaken(e, /*bonus=*/true);
  if (!taken) return;
  OverDraw over = std::move(*over_draw_);
  over_draw_.reset();
  UpdateRare();
  // What this move takes from the stock, against the stock as replayed and
  // as it would be with the cards beyond the due back on top.
  const std::vector<Card> took = e.type == EventType::kDraw ? e.cards : std::vector<Card>{*taken};
  const std::vector<Card> as_is = pos->StockTop(int(took.size()));
  std::vector<Card> as_back = over.cards;
  const std::vector<Card> rest = pos->StockTop(int(took.size()));
  as_back.insert(as_back.end(), rest.begin(), rest.end());
  as_back.resize(std::min(as_back.size(), took.size()));
  if (took != as_back) return;  // drawn: the draw stands as recorded
  if (took == as_is) {
    // Copies of the cards beyond the due come next in the stock: this take
    // tells nothing (the same cards either way); the next take does.
    if (over.copy_line == 0) {
      over.copy_line = e.line;
      over_draw_ = std::move(over);
      UpdateRare();
    }
    return;
  }
  if (!pos->ReturnToStock(over.player, over.cards)) return;
  const std::string lines = over.copy_line > 0
                                ? "lines " + std::to_string(over.copy_line) + " and " +
                                      std::to_string(e.line) + " take " + ToString(*taken) +
                                      " and its copy"
                                : "line " + std::to_string(e.line) + " takes " + ToString(*taken);
  AddNote(over.finding, lines + " from the stock: " + ToString(over.cards) +
                            " went back to the stock, written in this draw by mistake (readings "
                            "R128)");
}

void ReplayDriver::GameReplay::SwapShown(const Event& e, Position* pos) {
  const Position::DealtSwap swap = pos->dealt_swap();  // a copy: SettleSwap ends it
  const int player = *e.player;
  if (!swap.pending() || !(swap.seats >> player & 1u)) return;
  CardsFromHand(e, &reseat_cards_);
  const int plays = int(std::count(reseat_cards_.begin(), reseat_cards_.end(), swap.meant));
  std::string how;
  if (plays > pos->hand(player).count(swap.meant)) {
    how = SeatName(player) + " plays " + ToString(swap.meant) + ", which it holds only as the " +
          ToString(swap.written) + " written in its hand";
  } else if (e.type == EventType::kDiscard && pos->phase() == Phase::kPlay &&
             player == pos->current_player() && choice_.rules.IsLaidOutThree(swap.written) &&
             pos->hand(player).count(swap.written) > (*e.card == swap.written ? 1 : 0)) {
    how = SeatName(player) + " ends its turn holding the " + ToString(swap.written) +
          ", never laid out";
  } else if (e.type == EventType::kThree && e.card && choice_.rules.IsLaidOutThree(swap.written) &&
             pos->late_threes(player) > 0 &&
             pos->hand(player).count(swap.written) > (*e.card == swap.written ? 1 : 0)) {
    // Where threes are laid out before play: a three laid out in play by a
    // seat still holding the written one, never laid out then.
    how = SeatName(player) + " lays out " + ToString(*e.card) + " in play, holding the " +
          ToString(swap.written) + " never laid out before play";
  } else {
    return;
  }
  if (!pos->SettleSwap(player)) return;
  AddNote(swap_finding_,
          "line " + std::to_string(e.line) + ": " + how + "; it was the " + ToString(swap.meant));
  swap_finding_ = -1;
  UpdateRare();
}

bool ReplayDriver::GameReplay::UnusualMove(const Event& e, Position& pos, int player) {
  // R119 first: a red three line written twice is neither a three left
  // out nor another seat's three, whoever else holds that card.
  if (e.type == EventType::kThree && MoveWrittenAgain(e, pos, player)) return true;
  // R123, R121: `three` lines, a draw or a take left out; a move whose
  // next event tells is kept until then (Defer).
  if (player == pos.current_player() ||
      (e.type == EventType::kThree && pos.phase() == Phase::kBeforePlay)) {
    if (e.type == EventType::kDraw && !e.bonus &&
        (pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay) && !e.cards.empty() &&
        !pos.IsStockNext(e.cards[0])) {
      if (pos.bonus_player() >= 0 && BonusDrawLeftOut(e, &pos)) {
        // made up (R131): the draw is played after it
      } else if (forfeited_bonus_.finding >= 0 && ForfeitedBonusDrawn(e, &pos)) {
        // made up (R131), after the take that forfeited them
      } else if (!settling_move_ && ThreesLeftOut(e, &pos, player, /*apply=*/false)) {
        return Defer(e);  // SettleDeferredMove, at the next event
      }
    } else if (e.type == EventType::kDraw && !e.bonus &&
               (pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay) &&
               !settling_move_ && pos.StockCardsBeforeDraw(e.cards) > 0 &&
               ThreesLeftOut(e, &pos, player, /*apply=*/false)) {
      // The same, the draw's first card a copy of the card skipped.
      return Defer(e);  // SettleDeferredMove, at the next event
    } else if (e.type == EventType::kThree && e.card && e.replacement &&
               !pos.IsStockNext(*e.replacement)) {
      // `three` lines left out (R123) come first; then the turn's draw,
      // which the next event may show was not left out.
      if (!settling_move_ && ThreesLeftOut(e, &pos, player, /*apply=*/false)) {
        return Defer(e);  // SettleDeferredMove, at the next event
      } else if (!settling_move_ && player == pos.current_player() &&
                 DrawLeftOutBeforeThree(e, &pos, player, /*apply=*/false)) {
        kept_as_ = KeptAs::kThreeAfterDrawLeftOut;
        return Defer(e);  // SettleDeferredMove, at the next event
      } else if (!settling_move_ && pos.phase() == Phase::kBeforePlay &&
                 pos.StockCardsBefore(*e.replacement) == 1 &&
                 ThreeHolders(pos, player).size() > 1) {
        kept_as_ = KeptAs::kThreesBlock;  // SettleThreesBlock, after the threes that follow
        threes_block_.clear();
        return Defer(e);
      }
    } else if (e.type == EventType::kThree && e.card && e.replacement && !settling_move_ &&
               player == pos.current_player() && pos.Holding(player).count(*e.card) == 0 &&
               DrawLeftOutBeforeThree(e, &pos, player, /*apply=*/false)) {
      // The replacement is the stock's next and, a copy, a whole draw on:
      // the seat lacks the three, which the draw left out brought (R121).
      kept_as_ = KeptAs::kThreeAfterDrawLeftOut;
      return Defer(e);
    } else if ((e.type == EventType::kMeld &&
                (pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay ||
                 pos.draw_left_out())) ||
               (e.type == EventType::kThree && e.card && !e.replacement &&
                player == pos.current_player() && pos.phase() == Phase::kDraw)) {
      // A red three from the pile (no replacement) too: the take came first.
      TakeLeftOutBeforeMeld(e, &pos, player);
    } else if (e.type == EventType::kTakePile &&
               (pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay)) {
      // A take whose cards from the hand are threes' replacements (R123).
      ThreesLeftOutBeforePlay(e, &pos, player);
    } else if (e.type == EventType::kDiscard &&
               (pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay) &&
               !settling_move_ && pos.stock_known()) {
      return Defer(e);  // a turn that only discards: SettleDeferredMove
    } else if ((e.type == EventType::kMeld || e.type == EventType::kDiscard) &&
               pos.phase() == Phase::kPlay) {
      ThreesLeftOutBeforePlay(e, &pos, player);
      // A turn that ends keeping threes to lay out: the next draw shows
      // whether their lines were left out (SettleDeferredMove).
      if (e.type == EventType::kDiscard && !settling_move_ && pos.stock_known() &&
          (pos.draw_left_out() || !ThreesToLayOut(pos, player, std::nullopt).empty())) {
        return Defer(e);
      }
    }
  }
  // R118: a red three laid out before a turn's draw by a seat that does
  // not hold it, when one seat alone does; bonus cards drawn by a seat
  // none are due to.
  if ((e.type == EventType::kThree && pos.phase() != Phase::kPlay && e.card &&
       pos.Holding(player).count(*e.card) == 0) ||
      (e.type == EventType::kDraw && e.bonus && pos.bonus_player() >= 0 &&
       player != pos.bonus_player())) {
    if (OwnerReseated(e, pos, player)) return true;
  }
  // R119: a draw line written twice, and a turn's draw marked "bonus".
  if (e.type == EventType::kDraw &&
      (e.bonus || pos.phase() == Phase::kPlay || pos.phase() == Phase::kOver) &&
      DrawMisrecorded(e, pos, player))
    return true;
  if (e.type == EventType::kDiscard && MoveWrittenAgain(e, pos, player)) return true;
  if (e.type == EventType::kTakePile && TakeWrittenAgain(e, pos, player)) return true;
  // R118: the next seat's draw or take while the turn in play has not
  // ended: kept until the next event, which may be that turn's discard,
  // written late (SettleEarlyOpener).
  // R138: so is the next seat's red three, which it holds (its replacement
  // the stock's next): the discard may have been left out before it.
  if (player != pos.current_player() && pos.phase() == Phase::kPlay && !settling_move_ &&
      player == (pos.current_player() + 1) % choice_.rules.num_players) {
    if ((e.type == EventType::kDraw || e.type == EventType::kTakePile) && !e.bonus) return Defer(e);
    if (e.type == EventType::kThree && e.card && pos.Holding(player).count(*e.card) > 0 &&
        (!e.replacement || pos.IsStockNext(*e.replacement))) {
      kept_as_ = KeptAs::kThreeOpener;
      return Defer(e);
    }
  }
  // R148: another seat's take of the pile while bonus cards are due: the
  // next line may be the bonus draw, written late (SettleDeferredMove).
  if (e.type == EventType::kTakePile && !settling_move_ && pos.bonus_player() >= 0 &&
      player != pos.bonus_player()) {
    kept_as_ = KeptAs::kTakeBeforeBonus;
    return Defer(e);
  }
  // R143: another seat's three ahead of the first turn's draw, taking a
  // card one place on in the stock: the next line may be a three that
  // took the card skipped, written late (SettleDeferredMove).
  if (e.type == EventType::kThree && !settling_move_ && player != pos.current_player() &&
      (pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay) && e.card &&
      e.replacement && pos.Holding(player).count(*e.card) > 0 &&
      pos.StockCardsBefore(*e.replacement) == 1) {
    kept_as_ = KeptAs::kThreeBeforeThree;
    return Defer(e);
  }
  // R132: a meld written after the discard that ended its seat's turn.
  if (e.type == EventType::kMeld && MeldAfterOwnDiscard(e, pos, player)) return true;
  // R118: a seat number written wrong; or a draw out of turn, kept until
  // the next move says whose it was.
  if (player != pos.current_player() && pos.phase() != Phase::kOver) {
    const std::string why = SeatMisnamed(e, pos, player);
    if (!why.empty()) {
      MoveReseated(e, pos, player, why);
      return true;
    }
    if (pos.phase() != Phase::kPlay &&
        (e.type == EventType::kDraw || e.type == EventType::kTakePile))
      KeepOpener(e, pos);
  }
  return false;
}

std::vector<Card> ReplayDriver::GameReplay::ThreesToLayOut(const Position& pos, int player,
                                                           std::optional<Card> but) {
  std::vector<Card> threes;
  for (Suit suit : {Suit::kHearts, Suit::kDiamonds, Suit::kSpades, Suit::kClubs}) {
    const Card c(Rank::kThree, suit);
    if (!choice_.rules.IsLaidOutThree(c)) continue;
    for (int n = pos.Holding(player).count(c) - (but == c ? 1 : 0); n > 0; --n) threes.push_back(c);
  }
  return threes;
}

bool ReplayDriver::GameReplay::LayOutLeftOut(Position* pos, int player,
                                             const std::vector<Card>& threes, int n, int line,
                                             std::string* which, bool apply, bool kept) {
  const std::vector<Card> replacements = pos->StockTop(n);
  if (int(threes.size()) < n || int(replacements.size()) < n) return false;
  Position laid = *pos;
  for (int i = 0; i < n; ++i) {
    const ThreeMove three{player, threes[size_t(i)], replacements[size_t(i)], line};
    if (!kept && !laid.Check(three).empty()) return false;
    laid.Play(three);
    *which += std::string(i ? ", " : "") + ToString(threes[size_t(i)]) + " replaced by " +
              ToString(replacements[size_t(i)]);
  }
  if (!apply) return true;
  *pos = std::move(laid);
  // Their lines may yet come, written late: each is then not replayed.
  late_threes_.clear();
  for (int i = 0; i < n; ++i)
    late_threes_.push_back(ThreeMove{player, threes[size_t(i)], replacements[size_t(i)], line});
  late_finding_ = -1;
  UpdateRare();
  return true;
}

bool ReplayDriver::GameReplay::LateMoveCame(const Event& e) {
  LateMove& late = *late_move_;
  const bool same =
      e.type == late.type && e.player == late.player &&
      (e.type == EventType::kDraw ? e.cards == late.cards : e.top && *e.top == late.cards[0]);
  if (same && late.finding >= 0)
    AddNote(late.finding, std::string(e.type == EventType::kDraw ? "the draw" : "the take") +
                              " comes late, at line " + std::to_string(e.line) + ": not replayed");
  // The take's own line shows the cards it showed: those the made-up take
  // laid in their place change places with them.
  if (same && !late.with.empty() && e.with != late.with && game_.position()) {
    std::vector<Card> shown = e.with;
    for (Card& laid : late.with) {
      auto it = std::find(shown.begin(), shown.end(), laid);
      if (it != shown.end()) {
        shown.erase(it);
        continue;
      }
      for (auto held = shown.begin(); held != shown.end(); ++held) {
        if (!game_.position()->SwapLaidCard(late.player, late.rank, laid, *held)) continue;
        if (late.finding >= 0)
          AddNote(late.finding, "the take laid " + ToString(*held) + ", not " + ToString(laid) +
                                    ", as its line shows (readings R121)");
        laid = *held;
        shown.erase(held);
        break;
      }
    }
  }
  // The wait ends with the turn: the line, a discard, or another seat's move.
  if (same || e.type == EventType::kDiscard || e.player != late.player) {
    late_move_.reset();
    UpdateRare();
  }
  if (same) last_move_line_ = e.line;
  return same;
}

bool ReplayDriver::GameReplay::LateThree(const Event& e) {
  bool late = false;
  if (e.type == EventType::kThree && e.card && e.replacement) {
    for (auto it = late_threes_.begin(); it != late_threes_.end(); ++it) {
      if (it->player != e.player || it->card != *e.card || it->replacement != e.replacement)
        continue;
      late_threes_.erase(it);
      if (late_finding_ >= 0)
        AddNote(late_finding_, "the `three` line of " + ToString(*e.card) +
                                   " comes late, at line " + std::to_string(e.line) +
                                   ": not replayed");
      last_move_line_ = e.line;
      late = true;
      break;
    }
  }
  if (!late) late_threes_.clear();
  UpdateRare();
  return late;
}

bool ReplayDriver::GameReplay::ThreesLeftOut(const Event& e, Position* pos, int player, bool apply,
                                             bool others_only) {
  const int skipped = e.type == EventType::kThree ? pos->StockCardsBefore(*e.replacement)
                                                  : pos->StockCardsBeforeDraw(e.cards);
  if (skipped == 0) return false;
  int owner = player;
  std::vector<Card> threes =
      ThreesToLayOut(*pos, player, e.type == EventType::kThree ? e.card : std::nullopt);
  // A three whose copy is among the cards skipped: the seat's own copy was
  // laid out first and replaced by that one, which this line lays out (a red
  // three drawn as a three's replacement).
  if (e.type == EventType::kThree && int(threes.size()) < skipped) {
    const std::vector<Card> top = pos->StockTop(skipped);
    if (std::find(top.begin(), top.end(), *e.card) != top.end())
      threes = ThreesToLayOut(*pos, player, std::nullopt);
  }
  if (others_only || int(threes.size()) < skipped) {
    // Another seat's threes: before the first turn each seat lays out its
    // own (readings R23), when one seat alone holds enough.
    owner = -1;
    for (int seat = 0; seat < choice_.rules.num_players; ++seat) {
      if (seat == player) continue;
      std::vector<Card> theirs = ThreesToLayOut(*pos, seat, std::nullopt);
      if (int(theirs.size()) < skipped) continue;
      if (owner >= 0) return false;  // two seats could have: which is unknown
      owner = seat;
      threes = std::move(theirs);
    }
    if (owner < 0) return false;
  }
  return LayOutWithFinding(e, pos, player, owner, threes, skipped, apply);
}

bool ReplayDriver::GameReplay::LayOutWithFinding(const Event& e, Position* pos, int player,
                                                 int owner, const std::vector<Card>& threes,
                                                 int skipped, bool apply) {
  const Card drawn = e.type == EventType::kThree ? *e.replacement : e.cards[0];
  const std::vector<Card> next =
      pos->StockTop(e.type == EventType::kDraw ? int(e.cards.size()) : 1);
  // A draw whose first card is a copy of the card skipped: its cards as a whole.
  const bool copy_first = e.type == EventType::kDraw && !next.empty() && drawn == next[0];
  const Where where = AtMove(*pos, player);
  std::string which;
  // The seat's turn already ended holding these threes, a three-timing
  // finding of this hand: the same lines left out, shown now (readings R123).
  const bool kept = kept_three_.finding >= 0 && kept_three_.hand == hand_number_ &&
                    kept_three_.player == owner && pos->phase() != Phase::kBeforePlay &&
                    pos->bonus_player() < 0;  // a three laid out forfeits bonus cards due
  if (next.empty() || !LayOutLeftOut(pos, owner, threes, skipped, e.line, &which, apply,
                                     kept && owner != pos->current_player()))
    return false;
  if (!apply) return true;
  const std::string message =
      copy_first ? "the cards drawn are " + ToString(e.cards) + " but the stock's next cards are " +
                       ToString(next)
                 : std::string(e.type == EventType::kThree ? "the replacement drawn is "
                                                           : "the card drawn is ") +
                       ToString(drawn) + " but the stock's next card is " + ToString(next[0]);
  const std::string taken = copy_first ? "the draw" : ToString(drawn);
  if (kept) {
    late_finding_ = kept_three_.finding;
    AddNote(late_finding_, "line " + std::to_string(e.line) + ": " + message + ", " + taken + " " +
                               std::to_string(skipped) + (skipped == 1 ? " card" : " cards") +
                               " on: " + SeatName(owner) + "'s " +
                               (skipped == 1 ? "`three` line was" : "`three` lines were") +
                               " left out; laid out there: " + which + " (readings R123)");
    return true;
  }
  late_finding_ =
      Add(e.line, CheckId::kStockMismatch, message,
          {Context(where),
           taken + " comes " + std::to_string(skipped) + (skipped == 1 ? " card" : " cards") +
               " on, and " + LeftOutNote(owner, threes, skipped, which),
           "rule: 000 §7, §12"});
  return true;
}

bool ReplayDriver::GameReplay::SettleThreesBlock(const Event* next, Position* pos) {
  // R143 first: the next line another seat's three that took the card
  // skipped, the two lines written in the wrong order.
  if (threes_block_.empty() && next && next->type == EventType::kThree &&
      next->player != deferred_move_.player && ThreeReplayedFirst(deferred_move_, *next, pos))
    return true;
  if (next && next->ok && next->type == EventType::kThree && pos->phase() == Phase::kBeforePlay &&
      threes_block_.size() < 16) {
    threes_block_.push_back(*next);
    move_deferred_ = true;
    kept_as_ = KeptAs::kThreesBlock;
    UpdateRare();
    return true;
  }
  const Event first = std::move(deferred_move_);
  const std::vector<Event> block = std::move(threes_block_);
  threes_block_.clear();
  const int player = *first.player;
  int owner = -1, found = 0;
  Card owned;
  for (int seat : ThreeHolders(*pos, player)) {
    std::vector<Card> kinds = ThreesToLayOut(*pos, seat, std::nullopt);
    kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
    for (Card three : kinds) {
      if (!BlockLegalAfter(*pos, seat, three, first, block)) continue;
      owner = seat;
      owned = three;
      ++found;
    }
  }
  settling_move_ = true;
  if (found == 1) LayOutWithFinding(first, pos, player, owner, {owned}, 1);
  OnMove(first);
  settling_move_ = false;
  for (const Event& e : block) OnMove(e);
  return false;
}

bool ReplayDriver::GameReplay::BlockLegalAfter(const Position& pos, int seat, Card three,
                                               const Event& first,
                                               const std::vector<Event>& block) {
  const std::vector<Card> top = pos.StockTop(1);
  if (top.empty()) return false;
  Position probe = pos;
  const ThreeMove laid{seat, three, top[0], first.line};
  if (!probe.Check(laid).empty()) return false;
  probe.Play(laid);
  auto legal = [&probe](const Event& e) {
    std::string unused;
    const std::optional<Move> move = ToMove(e, &unused);
    return move && probe.Play(*move).empty();
  };
  return legal(first) && std::all_of(block.begin(), block.end(), legal);
}

bool ReplayDriver::GameReplay::SettleDeferredMove(const Event* next) {
  move_deferred_ = false;
  const KeptAs kept_as = kept_as_;
  kept_as_ = KeptAs::kMove;
  UpdateRare();
  Position* pos = game_.position();
  if (!in_hand_ || !pos) return false;
  if (deferred_move_.type == EventType::kDiscard) return SettleDeferredDiscard(next, pos);
  if (deferred_move_.type == EventType::kDraw && deferred_move_.bonus)
    return SettleEarlyBonus(next, pos);
  if (kept_as == KeptAs::kTakeBeforeBonus) return SettleTakeBeforeBonus(next, pos);
  if (kept_as == KeptAs::kThreeOfTwoHolders) return SettleThreeOfTwoHolders(next, pos);
  if (kept_as == KeptAs::kThreesBlock) return SettleThreesBlock(next, pos);
  if (deferred_move_.player != pos->current_player() &&
      (deferred_move_.type == EventType::kDraw || deferred_move_.type == EventType::kTakePile ||
       kept_as == KeptAs::kThreeOpener))
    return SettleEarlyOpener(next, pos);
  if (kept_as == KeptAs::kThreeAfterDrawLeftOut) {
    const Event three = std::move(deferred_move_);
    settling_move_ = true;
    if (!OwnDrawNext(next, three, *pos))
      DrawLeftOutBeforeThree(three, pos, *three.player, /*apply=*/true);
    OnMove(three);
    settling_move_ = false;
    return false;
  }
  if (kept_as == KeptAs::kThreeBeforeThree) {
    // The next three is legal first only if it takes the card skipped.
    const Event three = std::move(deferred_move_);
    if (next && next->type == EventType::kThree && next->player != three.player &&
        ThreeReplayedFirst(three, *next, pos))
      return true;
    settling_move_ = true;
    OnMove(three);
    settling_move_ = false;
    return false;
  }
  const Event draw = std::move(deferred_move_);  // a turn's draw, or a three
  // A three next whose replacement is the card skipped is the line left
  // out, written late (LateThree).
  const std::vector<Card> skipped = pos->StockTop(1);
  const bool takes_skipped = next && next->type == EventType::kThree && next->replacement &&
                             !skipped.empty() && *next->replacement == skipped[0];
  const bool late_three = takes_skipped && next->player == draw.player;
  // Another seat's three that takes the card skipped: two seats' lines
  // swapped before play (R23), nothing left out.
  // The same seat's draw after a three is the lines in another order only
  // when it takes the card skipped: a draw of other cards is the turn's
  // draw after its threes, and a three line was left out (R123).
  const bool draw_takes_skipped = next && next->type == EventType::kDraw && !next->cards.empty() &&
                                  !skipped.empty() && next->cards[0] == skipped[0];
  // So is the same seat's three after a three only when it does not take
  // the card right after the first three's, of a three the seat still
  // holds once the threes left out are laid: in the stock's order, the
  // card skipped before them was a three line's left out. Not where the
  // skip is a whole draw before the seat's own turn's draw: that is R121's.
  bool three_follows = false;
  // The same, where the seat's next three is one the threes left out would
  // have laid: the card skipped was another seat's three's, when one seat
  // alone holds enough (R23), and its line was left out.
  bool others_follow = false;
  const bool undrawn = pos->phase() == Phase::kDraw || pos->phase() == Phase::kBeforePlay;
  // The same holds for a turn's draw further on, then the seat's three
  // (often of a card it drew) replaced by the stock's card after the draw.
  const bool is_three = draw.type == EventType::kThree;
  int k = 0;
  if (is_three && draw.replacement && draw.card) k = pos->StockCardsBefore(*draw.replacement);
  if (draw.type == EventType::kDraw && !draw.bonus && !draw.cards.empty())
    k = pos->StockCardsBeforeDraw(draw.cards);
  if (k > 0 && next && next->type == EventType::kThree && next->replacement && next->card &&
      !(is_three && undrawn && k == choice_.rules.stock_draw &&
        *draw.player == pos->current_player())) {
    const int taken = is_three ? 1 : int(draw.cards.size());
    const std::vector<Card> top = pos->StockTop(k + taken + 1);
    const std::vector<Card> threes =
        ThreesToLayOut(*pos, *draw.player, is_three ? draw.card : std::nullopt);
    int left = pos->Holding(*draw.player).count(*next->card);
    if (is_three)
      left -= *draw.card == *next->card;
    else
      left += int(std::count(draw.cards.begin(), draw.cards.end(), *next->card));
    for (int i = 0; i < k && i < int(threes.size()); ++i) left -= threes[size_t(i)] == *next->card;
    // The cards skipped replace the threes left out: one may be the three.
    for (int i = 0; i < k && i < int(top.size()); ++i) left += top[size_t(i)] == *next->card;
    const bool follows =
        int(top.size()) == k + taken + 1 && *next->replacement == top[size_t(k + taken)];
    three_follows = follows && left > 0;
    others_follow = follows && left <= 0 && next->player == draw.player &&
                    ThreesLeftOut(draw, pos, *draw.player, /*apply=*/false, /*others_only=*/true);
    // Several other seats' threes could be the one left out: the lines
    // after tell (SettleThreesBlock), this one among them.
    if (is_three && follows && left <= 0 && next->player == draw.player && !others_follow &&
        k == 1 && pos->phase() == Phase::kBeforePlay &&
        ThreeHolders(*pos, *draw.player).size() > 1) {
      deferred_move_ = draw;
      threes_block_.assign(1, *next);
      kept_as_ = KeptAs::kThreesBlock;
      move_deferred_ = true;
      UpdateRare();
      return true;
    }
  }
  const bool plain = (next && next->player == draw.player && !late_three &&
                      ((next->type == EventType::kThree && !three_follows && !others_follow) ||
                       (draw.type == EventType::kThree && draw_takes_skipped))) ||
                     (takes_skipped && next->player != draw.player);
  // R143: the first turn's draw, or a three laid out before play, then
  // another seat's three laid out before play that takes the card
  // skipped: the two lines in the wrong order.
  if (takes_skipped && next->player != draw.player &&
      (pos->phase() == Phase::kBeforePlay || pos->phase() == Phase::kDraw) &&
      ThreeReplayedFirst(draw, *next, pos))
    return true;
  settling_move_ = true;
  if (!plain) {
    ThreesLeftOut(draw, pos, *draw.player, /*apply=*/true, others_follow);
  } else if (draw.type == EventType::kThree && draw.replacement &&
             !pos->IsStockNext(*draw.replacement) && *draw.player == pos->current_player() &&
             !OwnDrawNext(next, draw, *pos)) {
    DrawLeftOutBeforeThree(draw, pos, *draw.player, /*apply=*/true);  // R121
  }
  OnMove(draw);
  settling_move_ = false;
  return false;
}

bool ReplayDriver::GameReplay::ForfeitedBonusDrawn(const Event& e, Position* pos) {
  const ForfeitedBonus due = std::move(forfeited_bonus_);
  forfeited_bonus_ = ForfeitedBonus();
  if (due.hand != hand_number_ || due.stock_size != pos->stock_size() || pos->stock_slip_open() ||
      pos->StockCardsBefore(e.cards[0]) != int(due.cards.size()) ||
      pos->StockTop(int(due.cards.size())) != due.cards || !pos->GiveFromStock(due.seat, due.cards))
    return false;
  AddNote(due.finding, "the bonus draw of " + ToString(due.cards) +
                           ", the stock's next, was left out before this line: the next draw "
                           "from the stock, at line " +
                           std::to_string(e.line) +
                           ", comes after it; made up there (readings R131)");
  return true;
}

void ReplayDriver::GameReplay::DiscardLeftOutBeforeBonus(const Event& bonus, const Event& after,
                                                         Position* pos) {
  const int seat = *bonus.player;
  const int next = (seat + 1) % choice_.rules.num_players;
  if (after.type == EventType::kTakePile && after.top) {
    const DiscardMove discard{seat, *after.top, bonus.line};
    Position probe = *pos;
    if (pos->hand(seat).count(*after.top) == 0 || !probe.Play(discard).empty() ||
        probe.bonus_player() != seat || probe.StockTop(probe.bonus_count()) != bonus.cards)
      return;
    const Where where = AtMove(*pos, seat);
    pos->Play(discard);
    Add(bonus.line, CheckId::kDiscardMissing,
        "seat " + std::to_string(seat) + "'s turn ended without a discard; seat " +
            std::to_string(next) + " takes the pile",
        {Context(where),
         "the top card it takes at line " + std::to_string(after.line) + ", " +
             ToString(*after.top) + ", is one " + SeatName(seat) + " held: the discard of " +
             ToString(*after.top) +
             ", which earned the bonus drawn here, was left out before "
             "this line; made up here (readings R140)",
         "rule: " + choice_.rules.Cite("rule.discard", "000 §8, §11")});
    return;
  }
  Position probe = *pos;
  if (probe.EndTurnUndiscarded(next, /*earns_bonus=*/true).empty() ||
      probe.bonus_player() != seat || probe.StockTop(probe.bonus_count()) != bonus.cards)
    return;
  const Where where = AtMove(*pos, seat);
  const size_t before = report_->findings.size();
  const TaggedViolations ended = pos->EndTurnUndiscarded(next, /*earns_bonus=*/true);
  std::vector<int> indices;
  AddViolations(ended, bonus.line, where, &indices);
  for (size_t i = 0; i < ended.size() && i < indices.size(); ++i)
    if (ended[i].violation.id == CheckId::kDiscardMissing)
      AddNote(indices[i], SeatName(seat) +
                              " draws the bonus cards its initial meld earned: the "
                              "discard that ended its turn, and earned them, was "
                              "left out before this line (readings R140)");
  NoteMissingDiscard(bonus.line, seat, before);  // R130: a take of the pile may show its card
}

bool ReplayDriver::GameReplay::BonusDrawLeftOut(const Event& e, Position* pos) {
  const int seat = pos->bonus_player();
  const int due = pos->bonus_count();
  if (!pos->stock_known() || pos->stock_slip_open()) return false;
  // The card exactly `due` on (a copy of it may come before).
  const std::vector<Card> top = pos->StockTop(due + 1);
  if (int(top.size()) != due + 1 || top[size_t(due)] != e.cards[0]) return false;
  const DrawMove bonus{seat, pos->StockTop(due), e.line, /*bonus=*/true};
  if (int(bonus.cards.size()) != due || !pos->Check(bonus).empty()) return false;
  const Where where = AtMove(*pos, seat);
  pos->Play(bonus);
  const int index =
      Add(e.line, CheckId::kDrawCount,
          "seat " + std::to_string(seat) + " did not draw the " + std::to_string(due) +
              " bonus card(s) due after the initial meld",
          {Context(where),
           "the bonus draw of " + ToString(bonus.cards) +
               ", the stock's next, was left out before this line: this draw comes after it; made "
               "up here (readings R131)",
           "rule: " + choice_.rules.Cite("bonus_cards_first", "001 L37")});
  ExpectLate(EventType::kDraw, seat, bonus.cards, index);
  return true;
}

void ReplayDriver::GameReplay::DiscardLeftOutBeforeThree(const Event& three, Position* pos) {
  const int due = pos->current_player();
  const Where where = AtMove(*pos, *three.player);
  const size_t before = report_->findings.size();
  const TaggedViolations ended = pos->EndTurnUndiscarded(*three.player);
  if (ended.empty()) return;
  std::vector<int> indices;
  AddViolations(ended, three.line, where, &indices);
  for (size_t i = 0; i < ended.size() && i < indices.size(); ++i)
    if (ended[i].violation.id == CheckId::kDiscardMissing)
      AddNote(indices[i], SeatName(*three.player) + " lays out " + ToString(*three.card) +
                              " at the start of its own turn: the discard that ended " +
                              SeatName(due) + "'s turn was left out before it (readings R138)");
  NoteMissingDiscard(three, before);  // R130: a take of the pile may show its card
}

bool ReplayDriver::GameReplay::DiscardLeftOutBeforeTake(const Event& take, Position* pos) {
  const int due = pos->current_player();
  if (!take.top || pos->phase() != Phase::kPlay || pos->hand(due).count(*take.top) == 0 ||
      (!pos->pile().empty() && pos->pile().back() == *take.top))
    return false;
  Add(take.line, CheckId::kDiscardMissing,
      "seat " + std::to_string(due) + "'s turn ended without a discard; seat " +
          std::to_string(*take.player) + " takes the pile",
      {Context(AtMove(*pos, due)),
       "the top card it takes, " + ToString(*take.top) + ", is one " + SeatName(due) +
           " held: the discard of " + ToString(*take.top) +
           " was left out before this line; made up here (readings R129)",
       "rule: " + choice_.rules.Cite("rule.discard", "000 §8, §11")});
  Event discard;
  discard.type = EventType::kDiscard;
  discard.line = take.line;
  discard.player = due;
  discard.card = *take.top;
  reseating_ = true;  // not a line of the log: no R119 "written again" after it
  OnMove(discard);
  reseating_ = false;
  return true;
}

std::vector<Card> ReplayDriver::GameReplay::Lacking(const Event& e, CardCounts holding) {
  CardsFromHand(e, &reseat_cards_);
  std::vector<Card> lacking;
  for (Card c : reseat_cards_)
    if (!holding.Remove(c)) lacking.push_back(c);
  return lacking;
}

std::optional<TakePileMove> ReplayDriver::GameReplay::TakeLeftOut(Position* pos, int seat, int line,
                                                                  bool turn_ends,
                                                                  const Move* then) {
  if (pos->pile().empty()) return std::nullopt;
  const Card top = pos->pile().back();
  if (top.is_wild() || top.rank() == Rank::kThree) return std::nullopt;
  const CardCounts& hand = pos->hand(seat);
  std::vector<TakePileMove> forms;
  forms.push_back(TakePileMove{seat, top, {}, top.rank(), std::nullopt, line});
  std::vector<Card> naturals, wilds;
  for (Suit suit : {Suit::kSpades, Suit::kHearts, Suit::kDiamonds, Suit::kClubs})
    for (int n = hand.count(Card(top.rank(), suit)); n > 0 && naturals.size() < 2; --n)
      naturals.push_back(Card(top.rank(), suit));
  for (Card w : {Card(Rank::kTwo, Suit::kSpades), Card(Rank::kTwo, Suit::kHearts),
                 Card(Rank::kTwo, Suit::kDiamonds), Card(Rank::kTwo, Suit::kClubs), Card::Joker()})
    if (hand.count(w) > 0 && wilds.empty()) wilds.push_back(w);
  if (naturals.size() == 2) forms.push_back(TakePileMove{seat, top, naturals, {}, {}, line});
  if (!naturals.empty() && !wilds.empty())
    forms.push_back(TakePileMove{seat, top, {naturals[0], wilds[0]}, {}, {}, line});
  for (const TakePileMove& take : forms) {
    if (!pos->Check(take).empty()) continue;
    if (turn_ends || then) {
      Position after = *pos;  // rare: a turn's take left out
      after.Play(take);
      if (turn_ends && after.TurnEndOpeningShort()) continue;
      if (then && !after.Check(*then).empty()) continue;
    }
    pos->Play(take);
    return take;
  }
  return std::nullopt;
}

std::string ReplayDriver::GameReplay::TakeText(const TakePileMove& take, int pile) {
  return "the take of the pile (" + std::to_string(pile) + " cards, " + ToString(take.top) +
         " on top" +
         (take.to ? ", onto the meld of " + ToString(*take.to) + "s"
                  : ", with " + ToString(take.with)) +
         ")";
}

void ReplayDriver::GameReplay::TakeLeftOutAtDiscard(Position* pos, int seat, int line,
                                                    const std::string& by) {
  const int pile = int(pos->pile().size());
  const std::optional<TakePileMove> take = TakeLeftOut(pos, seat, line, true);
  if (!take) return;
  const int turn = LastFinding(CheckId::kTurnSequence);
  if (turn >= 0)
    AddNote(turn, TakeText(*take, pile) + " was left out: " + by +
                      " is the stock's next card, so the turn drew none (readings R121)");
}

bool ReplayDriver::GameReplay::DrawLeftOutBeforeThree(const Event& e, Position* pos, int player,
                                                      bool apply) {
  const int due = choice_.rules.stock_draw;
  if ((pos->phase() != Phase::kDraw && pos->phase() != Phase::kBeforePlay) || !pos->stock_known() ||
      pos->stock_slip_open())
    return false;
  // The replacement exactly a whole draw on (a copy of it may come before).
  const std::vector<Card> top = pos->StockTop(due + 1);
  if (int(top.size()) != due + 1 || top[size_t(due)] != *e.replacement) return false;
  const DrawMove draw{player, pos->StockTop(due), e.line};
  const bool held_or_drawn =
      pos->Holding(player).count(*e.card) > 0 ||
      std::find(draw.cards.begin(), draw.cards.end(), *e.card) != draw.cards.end();
  if (int(draw.cards.size()) != due || !held_or_drawn || !pos->Check(draw).empty()) return false;
  if (!apply) return true;
  const int index = DrawMadeUp(
      pos, draw, "the three's replacement, " + ToString(*e.replacement) + ", comes after it");
  ExpectLate(EventType::kDraw, player, draw.cards, index);
  return true;
}

void ReplayDriver::GameReplay::TakeLeftOutBeforeMeld(const Event& e, Position* pos, int player) {
  const std::vector<Card> lacking = Lacking(e, pos->hand(player));
  // A meld that adds to a meld of the pile's top rank, which the side
  // lacks: the take that would have laid that meld was left out.
  std::optional<Move> meld;
  const Rank top = pos->pile().empty() ? Rank::kThree : pos->pile().back().rank();
  if (lacking.empty()) {
    if (e.type != EventType::kMeld || pos->pile().empty()) return;
    const int side = choice_.rules.side_of(player);
    const bool to_top = std::any_of(e.melds.begin(), e.melds.end(), [&](const MeldSpec& part) {
      return part.to && RefRank(part.to) == top;
    });
    std::string unused;
    if (!to_top || pos->MeldFor(side, top, true) != nullptr || !(meld = ToMove(e, &unused))) return;
  }
  const Where where = AtMove(*pos, player);
  const bool three = e.type == EventType::kThree;
  // Melds before the draw already had the turn's finding: a note on it.
  const bool found = pos->draw_left_out();
  auto report = [&](const std::string& what, EventType type, std::vector<Card> cards,
                    const TakePileMove* take = nullptr) {
    const std::string note =
        what + " was left out before this line: the " +
        (meld ? "meld adds to the meld of " + ToString(top) + "s that the take lays"
              : (three ? "three lays out " : "meld plays ") + ToString(lacking) +
                    (type == EventType::kTakePile ? " from the pile" : "")) +
        "; made up here (readings R121)";
    int index = -1;
    if (found) {
      index = LastFinding(CheckId::kTurnSequence);
      if (index >= 0) AddNote(index, note);
    } else {
      index = Add(
          e.line, CheckId::kTurnSequence,
          "seat " + std::to_string(player) + " must draw or take the pile first",
          {Context(where), note, "rule: " + choice_.rules.Cite("rule.draw_first", "000 §11, §12")});
    }
    ExpectLate(type, player, std::move(cards), index, take);
  };
  // The stock's next card(s), played: the draw was left out. The last
  // draw of a hand takes what is left, fewer cards than a turn draws.
  CardCounts drawn;
  const DrawMove draw{player, pos->StockTop(choice_.rules.stock_draw), e.line};
  for (Card c : draw.cards) drawn.Add(c);
  if (!meld && pos->stock_known() && !pos->stock_slip_open() &&
      int(draw.cards.size()) == std::min(choice_.rules.stock_draw, pos->stock_size()) &&
      !draw.cards.empty() && drawn.Contains(lacking) && pos->Check(draw).empty()) {
    pos->Play(draw);
    return report("the draw of " + ToString(draw.cards) + ", the stock's next,", EventType::kDraw,
                  draw.cards);
  }
  CardCounts pile;
  for (Card c : pos->pile()) pile.Add(c);
  if (!pile.Contains(lacking)) return;
  const int size = int(pos->pile().size());
  const std::optional<TakePileMove> take =
      TakeLeftOut(pos, player, e.line, false, meld ? &*meld : nullptr);
  if (!take) return;
  report(TakeText(*take, size), EventType::kTakePile, {take->top}, &*take);
}

void ReplayDriver::GameReplay::TakeCardShown(const Event& e, Position* pos) {
  LateMove& late = *late_move_;
  if (e.player != late.player || late.finding < 0) return;
  const std::vector<Card> lacking = Lacking(e, pos->hand(late.player));
  CardCounts needed;                           // the meld's cards the seat holds
  for (Card c : reseat_cards_) needed.Add(c);  // Lacking's list of the meld's cards
  for (Card c : lacking) needed.Remove(c);
  for (Card laid : lacking) {
    auto in_take = std::find(late.with.begin(), late.with.end(), laid);
    if (in_take == late.with.end()) continue;
    const CardCounts& hand = pos->hand(late.player);
    for (int i = 0; i < kNumFaces; ++i) {
      const Card held = Card::FromIndex(i);
      if (hand.count(held) <= needed.count(held) ||
          !pos->SwapLaidCard(late.player, late.rank, laid, held))
        continue;
      *in_take = held;
      AddNote(late.finding, "the take laid " + ToString(held) + ", not " + ToString(laid) +
                                ": the meld at line " + std::to_string(e.line) + " plays " +
                                ToString(laid) + " (readings R121)");
      break;
    }
  }
}

bool ReplayDriver::GameReplay::SettleDeferredDiscard(const Event* next, Position* pos) {
  const Event discard = std::move(deferred_move_);
  const int seat = *discard.player;
  if (next && pos->current_player() == seat && pos->phase() == Phase::kPlay &&
      OpeningMeldAfterDiscard(discard, *next, pos))
    return true;
  // R143: the seat's own three, written after the discard that ended its
  // turn, taking the stock's next card: the two lines in the wrong order.
  if (next && next->type == EventType::kThree && next->player == discard.player &&
      pos->current_player() == seat && pos->phase() == Phase::kPlay && next->replacement &&
      pos->IsStockNext(*next->replacement) && ThreeReplayedFirst(discard, *next, pos))
    return true;
  // R121: the turn's own draw (of the stock's next cards) or take (of the
  // pile's top card) written after its discard: two lines swapped.
  // Replayed draw or take first, one finding; its line, next, is not
  // replayed again.
  const bool drawing = pos->phase() == Phase::kDraw || pos->phase() == Phase::kBeforePlay;
  if (drawing && pos->current_player() == seat && next && next->player == discard.player &&
      ((next->type == EventType::kDraw && !next->bonus && !next->cards.empty() &&
        pos->IsStockNext(next->cards[0])) ||
       (next->type == EventType::kTakePile && next->top && !pos->pile().empty() &&
        pos->pile().back() == *next->top))) {
    std::string unused;
    const std::optional<Move> first = ToMove(*next, &unused);
    if (first && pos->Check(*first).empty()) {
      const Where where = AtMove(*pos, seat);
      pos->Play(*first);
      const bool draw = next->type == EventType::kDraw;
      Add(discard.line, CheckId::kTurnSequence,
          "seat " + std::to_string(seat) + " must draw or take the pile first",
          {Context(where),
           std::string(draw ? "its draw" : "its take of the pile") +
               " comes after this line, at line " + std::to_string(next->line) +
               ": the two lines are written in the wrong order, and are replayed " +
               (draw ? "draw" : "take") + " first (readings R121)",
           "rule: " + choice_.rules.Cite("rule.draw_first", "000 §11, §12")});
      ExpectLate(next->type, seat, draw ? next->cards : std::vector<Card>{*next->top}, -1);
      settling_move_ = true;
      OnMove(discard);
      settling_move_ = false;
      return false;
    }
  }
  // R121: what the turn left out shows in the first card the next event
  // takes from the stock, another seat's draw or its three's replacement.
  std::optional<Card> taken;
  if (next && next->player != discard.player) {
    if (next->type == EventType::kDraw && !next->bonus && !next->cards.empty())
      taken = next->cards[0];
    else if (next->type == EventType::kThree && next->replacement)
      taken = *next->replacement;
  } else if (next && next->type == EventType::kDraw && next->bonus && !next->cards.empty() &&
             pos->draw_left_out()) {
    // The seat's own bonus draw after its discard, in a turn that melded
    // before its draw (R121): a card a whole draw on shows the draw.
    taken = next->cards[0];
  }
  const std::string by = taken
                             ? (next->type == EventType::kThree ? "the three's replacement at line "
                                                                : "the draw of line ") +
                                   std::to_string(next->line)
                             : std::string();
  // R121: a turn that only discards: the stock's next card taken next
  // means the turn took the pile; a card a whole draw on, that it drew the
  // cards between.
  bool made_up = false;
  if (drawing && pos->current_player() == seat && taken) {
    const Where where = AtMove(*pos, seat);
    const int pile = int(pos->pile().size());
    std::string note;
    if (!pos->stock_slip_open() && pos->IsStockNext(*taken)) {
      const std::optional<TakePileMove> take = TakeLeftOut(pos, seat, discard.line, true);
      if (take)
        note = TakeText(*take, pile) + " was left out before this line: " + by +
               " is the stock's next card, so the turn drew none";
    } else if (!pos->stock_slip_open() && AWholeDrawOn(*pos, *next, *taken)) {
      const DrawMove draw{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
      if (pos->Check(draw).empty()) {
        DrawMadeUp(pos, draw, by + " comes after it");
        made_up = true;
      }
    }
    made_up |= !note.empty();
    if (!note.empty())
      Add(discard.line, CheckId::kTurnSequence,
          "seat " + std::to_string(seat) + " must draw or take the pile first",
          {Context(where), note + "; made up here (readings R121)",
           "rule: " + choice_.rules.Cite("rule.draw_first", "000 §11, §12")});
  }
  // R121: a turn that only discards its last card, which goes out, while
  // the log plays on with another seat's move of the hand: the seat held
  // more, the turn drew. The draw of the stock's next cards is made up
  // before the discard.
  if (drawing && !made_up && pos->current_player() == seat &&
      (pos->phase() == Phase::kDraw || pos->phase() == Phase::kBeforePlay) && next && next->ok &&
      next->player && *next->player != seat && next->type >= EventType::kThree &&
      next->type <= EventType::kFoot && discard.card && pos->hand(seat).total() == 1 &&
      pos->hand(seat).count(*discard.card) == 1 && !pos->FootPending(seat) && pos->stock_known() &&
      !pos->stock_slip_open()) {
    const DrawMove draw{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
    if (int(draw.cards.size()) == choice_.rules.stock_draw && pos->Check(draw).empty()) {
      made_up = true;
      DrawMadeUp(pos, draw,
                 "the discard of its last card would go out, and the log plays on at line " +
                     std::to_string(next->line));
    }
  }
  // R121: a turn that only discards, a card it lacks that is among the
  // stock's next: the discard shows the draw left out, made up before it.
  // Also when the next event takes the stock's next card too, the turn not
  // read as a take of the pile: a second copy of the card came next.
  if (drawing && pos->current_player() == seat && !made_up && discard.card &&
      !pos->stock_slip_open() && pos->Holding(seat).count(*discard.card) == 0)
    DrawShownByDiscard(pos, seat, discard);
  // R121: the stock's next card taken next, and no take made up: a second
  // copy of it a whole draw on shows the draw (once the turn has drawn or
  // taken, above, no draw is legal).
  if (drawing && pos->current_player() == seat && taken && !pos->stock_slip_open() &&
      AWholeDrawOn(*pos, *next, *taken)) {
    const DrawMove draw{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
    if (pos->Check(draw).empty()) DrawMadeUp(pos, draw, by + " comes after it");
  }
  // R121: a turn that melded before drawing, then discards a card it
  // lacks among the stock's next: the draw left out, made up before the
  // discard, a note on the turn's finding.
  if (pos->draw_left_out() && pos->current_player() == seat && discard.card &&
      !pos->stock_slip_open() && pos->Holding(seat).count(*discard.card) == 0)
    DrawShownByLateDiscard(pos, seat, discard);
  // R121: such a turn's discard of a card it lacks that the pile holds:
  // the take left out, made up before the discard in a form after which
  // the discard is legal, a note on the turn's finding.
  if (pos->draw_left_out() && pos->current_player() == seat && discard.card &&
      pos->Holding(seat).count(*discard.card) == 0 &&
      std::find(pos->pile().begin(), pos->pile().end(), *discard.card) != pos->pile().end())
    TakeShownByLateDiscard(pos, seat, discard);
  // R121: a turn that melded before drawing and drew nothing since. The
  // next card taken from the stock a whole draw on shows the draw left
  // out: it is made up before the discard, and the turn's one finding says
  // so.
  // Where the stock's next cards are copies, so that the card taken is both
  // the next and a whole draw on, the draw is made up: melds before it tell
  // nothing of a take (a turn that only discards is read as a take above).
  if (pos->draw_left_out() && taken && pos->IsStockNext(*taken) &&
      !AWholeDrawOn(*pos, *next, *taken))
    TakeLeftOutAtDiscard(pos, seat, discard.line, by);
  if (pos->draw_left_out() && taken && AWholeDrawOn(*pos, *next, *taken)) {
    const DrawMove late{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
    if (pos->Check(late).empty()) {
      pos->Play(late);
      const int turn = LastFinding(CheckId::kTurnSequence);
      if (turn >= 0)
        AddNote(turn, "the draw of " + ToString(late.cards) + ", the stock's next, was left out: " +
                          by + " comes after it (readings R121)");
    }
  }
  // A turn with no draw whose next event takes nothing from the stock:
  // the next card taken from it may still tell (UndrawnTurnShown). So for
  // a turn that melded before its draw, whose finding is at its first meld.
  const bool melded_first = pos->draw_left_out() && pos->current_player() == seat;
  const bool undrawn =
      !taken && pos->current_player() == seat &&
      (pos->phase() == Phase::kDraw || pos->phase() == Phase::kBeforePlay || melded_first);
  std::vector<Card> threes = ThreesToLayOut(*pos, seat, std::nullopt);
  // R128: a three among the turn's extra cards, taken by the next draw, went
  // back to the stock: no `three` line was left out for it.
  if (over_draw_ && over_draw_->player == seat && next && next->type == EventType::kDraw &&
      !next->cards.empty() &&
      std::find(over_draw_->cards.begin(), over_draw_->cards.end(), next->cards[0]) !=
          over_draw_->cards.end()) {
    for (Card c : over_draw_->cards) {
      const auto it = std::find(threes.begin(), threes.end(), c);
      if (it != threes.end()) threes.erase(it);
    }
  }
  const int skipped = next && next->type == EventType::kDraw && !next->bonus &&
                              next->player != discard.player && !next->cards.empty()
                          ? pos->StockCardsBeforeDraw(next->cards)
                          : 0;
  const std::vector<Card> replacements = pos->StockTop(skipped);
  std::string which;
  const bool laid = skipped > 0 && LayOutLeftOut(pos, seat, threes, skipped, discard.line, &which);
  settling_move_ = true;
  OnMove(discard);
  settling_move_ = false;
  const int turn = LastFinding(CheckId::kTurnSequence);
  if (undrawn && !laid && turn >= 0 &&
      (melded_first || report_->findings[size_t(turn)].line == discard.line)) {
    undrawn_turn_ = UndrawnTurn{seat, turn};
    UpdateRare();
  }
  if (!laid) return false;
  const Card drawn = next->cards[0];
  late_finding_ = Add(
      next->line, CheckId::kStockMismatch,
      "the card drawn is " + ToString(drawn) + " but the stock's next card is " +
          ToString(replacements[0]),
      {Context(AtMove(*pos, *next->player)),
       ToString(drawn) + " comes " + std::to_string(skipped) + (skipped == 1 ? " card" : " cards") +
           " on, and " + SeatName(seat) + " ended its turn at line " +
           std::to_string(discard.line) + " keeping " + ThreesText(threes) +
           " to lay out: " + (skipped == 1 ? "a `three` line" : "`three` lines") +
           " left out before that line; laid out there: " + which + " (readings R123)",
       "rule: 000 §7, §12"});
  return false;
}

bool ReplayDriver::GameReplay::AWholeDrawOn(const Position& pos, const Event& next,
                                            Card taken) const {
  const int draw = choice_.rules.stock_draw;
  // The card exactly a whole draw on (a copy of it may come before).
  const std::vector<Card> first = pos.StockTop(draw + 1);
  if (int(first.size()) == draw + 1 && first[size_t(draw)] == taken) return true;
  if (next.type != EventType::kDraw || next.cards.empty() || next.cards[0] != taken) return false;
  const std::vector<Card> top = pos.StockTop(draw + int(next.cards.size()));
  return int(top.size()) == draw + int(next.cards.size()) &&
         std::equal(next.cards.begin(), next.cards.end(), top.begin() + draw);
}

void ReplayDriver::GameReplay::DrawShownByDiscard(Position* pos, int seat, const Event& discard) {
  const DrawMove draw{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
  if (std::find(draw.cards.begin(), draw.cards.end(), *discard.card) == draw.cards.end() ||
      !pos->Check(draw).empty())
    return;
  DrawMadeUp(pos, draw, "the discard plays " + ToString(*discard.card));
}

void ReplayDriver::GameReplay::DrawShownByLateDiscard(Position* pos, int seat,
                                                      const Event& discard) {
  const DrawMove draw{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
  const int turn = LastFinding(CheckId::kTurnSequence);
  if (turn < 0 ||
      std::find(draw.cards.begin(), draw.cards.end(), *discard.card) == draw.cards.end() ||
      !pos->Check(draw).empty())
    return;
  pos->Play(draw);
  AddNote(turn, "the draw of " + ToString(draw.cards) +
                    ", the stock's next, was left out: the discard at line " +
                    std::to_string(discard.line) + " plays " + ToString(*discard.card) +
                    "; made up there (readings R121)");
}

void ReplayDriver::GameReplay::TakeShownByLateDiscard(Position* pos, int seat,
                                                      const Event& discard) {
  const int turn = LastFinding(CheckId::kTurnSequence);
  if (turn < 0) return;
  const int pile = int(pos->pile().size());
  const Move then = DiscardMove{seat, *discard.card, discard.line, discard.face_down};
  const std::optional<TakePileMove> take = TakeLeftOut(pos, seat, discard.line, true, &then);
  if (!take) return;
  AddNote(turn, TakeText(*take, pile) + " was left out: the discard at line " +
                    std::to_string(discard.line) + " plays " + ToString(*discard.card) +
                    ", a card of that pile; made up there (readings R121)");
}

int ReplayDriver::GameReplay::DrawMadeUp(Position* pos, const DrawMove& draw,
                                         const std::string& shown_by) {
  const Where where = AtMove(*pos, draw.player);
  pos->Play(draw);
  return Add(draw.tag, CheckId::kTurnSequence,
             "seat " + std::to_string(draw.player) + " must draw or take the pile first",
             {Context(where),
              "the draw of " + ToString(draw.cards) +
                  ", the stock's next, was left out before this line: " + shown_by +
                  "; made up here (readings R121)",
              "rule: " + choice_.rules.Cite("rule.draw_first", "000 §11, §12")});
}

void ReplayDriver::GameReplay::ThreesLeftOutBeforePlay(const Event& e, Position* pos, int player) {
  const std::vector<Card> lacking = Lacking(e, pos->Holding(player));
  const std::vector<Card> threes = ThreesToLayOut(*pos, player, std::nullopt);
  if (lacking.empty() || threes.empty()) return;
  // The fewest threes whose replacements hold every card lacking.
  const std::vector<Card> next = pos->StockTop(int(threes.size()));
  int n = 0;
  CardCounts drawn;
  while (n < int(next.size()) &&
         !drawn.Contains(lacking))  // each lacking card among the replacements
    drawn.Add(next[size_t(n++)]);
  if (!drawn.Contains(lacking)) return;
  const Where where = AtMove(*pos, player);
  std::string which;
  if (!LayOutLeftOut(pos, player, threes, n, e.line, &which)) return;
  late_finding_ =
      Add(e.line, CheckId::kCardNotHeld,
          SeatName(player) + " plays " + ToString(lacking) + ", which it does not hold: " +
              (lacking.size() == 1 ? "the stock's next card" : "the stock's next cards"),
          {Context(where), LeftOutNote(player, threes, n, which), "rule: 000 §7, §11"});
}

}  // namespace canasta
