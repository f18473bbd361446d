// The replay of one game: lines written out of place, twice, or for another
// seat, read as such (docs/readings.md, R117-R152): one finding for each slip,
// and the replay goes on as the table played.
#include "replay/driver_internal.h"

namespace canasta {

void ReplayDriver::GameReplay::FlushEndHand() {
  const Event end = std::move(*deferred_end_);
  deferred_end_.reset();
  UpdateRare();
  settling_end_ = true;
  OnEndHand(end);
  settling_end_ = false;
}

bool ReplayDriver::GameReplay::LastStockThreeHeld(const Position& pos) const {
  return draw_.tag > 0 && draw_.tag == last_move_line_ && !draw_.cards.empty() &&
         draw_.cards.back().is_red_three() && pos.stock_size() == 0 &&
         pos.phase() == Phase::kOver && pos.hand(draw_.player).count(draw_.cards.back()) > 0;
}

bool ReplayDriver::GameReplay::LastMoveAfterEnd(const Event& e, const Position& pos) const {
  const int player = e.player.value_or(-1);
  if (e.type == EventType::kThree && e.card && LastStockThreeHeld(pos) && player == draw_.player &&
      *e.card == draw_.cards.back()) {
    // The stock's last card, a red three, laid out after the end_hand.
    std::string unused;
    const std::optional<Move> three = ToMove(e, &unused);
    return three && pos.Check(*three).empty();
  }
  if (player != pos.current_player() || pos.phase() != Phase::kPlay) return false;
  if (e.type == EventType::kMeld) {
    // A meld that goes out (a meld of every card, where the ruleset allows
    // it): legal, and the hand is over after it.
    std::string unused;
    const std::optional<Move> meld = ToMove(e, &unused);
    if (!meld || !pos.Check(*meld).empty()) return false;
    Position after = pos;  // rare: an end_hand before the hand's end
    after.Play(*meld);
    return after.phase() == Phase::kOver;
  }
  if (e.type != EventType::kDiscard || !e.card || pos.hand(player).count(*e.card) == 0)
    return false;
  // With the stock gone, the discard leaves the next seat only the pile:
  // the hand may end there (000 §15).
  return (pos.hand(player).total() == 1 && !pos.FootPending(player)) || pos.stock_size() == 0;
}

void ReplayDriver::GameReplay::EndHandAfterLastMove(const Event& last) {
  const int end_line = deferred_end_->line;
  const std::string kind = last.type == EventType::kMeld    ? "meld"
                           : last.type == EventType::kThree ? "red three"
                                                            : "discard";
  Add(end_line, CheckId::kLogOutOfPlace,
      "the end_hand of hand " + std::to_string(hand_number_) +
          " comes before the hand's last move, " + SeatName(*last.player) + "'s " + kind +
          " at line " + std::to_string(last.line),
      {"the two lines are written in the wrong order, and are replayed " + kind +
       " first (readings R135)"});
  FlushEndHand();
}

bool ReplayDriver::GameReplay::OpensTheDeal(const Event& move, const Event& deal) {
  constexpr size_t kFirstCards = 8;
  if (move.type == EventType::kTakePile) {
    // The first turn's take of the upcard, with cards of the taker's hand.
    if (!move.top || !move.player || *move.player < 0 ||
        size_t(*move.player) >= deal.hands.size() || deal.upcard.empty() ||
        deal.upcard.back() != *move.top)
      return false;
    std::vector<Card> hand = deal.hands[size_t(*move.player)];
    for (Card c : move.with) {
      const auto it = std::find(hand.begin(), hand.end(), c);
      if (it == hand.end()) return false;
      hand.erase(it);
    }
    return true;
  }
  std::vector<Card> taken = move.cards;
  if (move.type == EventType::kThree) {
    if (!move.card || !move.replacement || !move.player || *move.player < 0 ||
        size_t(*move.player) >= deal.hands.size())
      return false;
    const std::vector<Card>& hand = deal.hands[size_t(*move.player)];
    if (std::find(hand.begin(), hand.end(), *move.card) == hand.end()) return false;
    taken = {*move.replacement};
  }
  if (taken.empty() || !deal.stock) return false;
  const std::vector<Card>& stock = *deal.stock;
  for (size_t i = 0; i < kFirstCards && i + taken.size() <= stock.size(); ++i)
    if (std::equal(taken.begin(), taken.end(), stock.begin() + long(i))) return true;
  return false;
}

void ReplayDriver::GameReplay::EarlyMoveAfterDeal(int deal_line) {
  const Event early = std::move(*early_move_);
  early_move_.reset();
  if (!in_hand_ || !game_.position()) return LoseState(early.line, early_root_, true);
  std::vector<std::string>& notes = report_->findings[size_t(early_root_)].notes;
  notes.assign(1, "the hand's deal comes next, at line " + std::to_string(deal_line) +
                      ": the two lines are written in the wrong order, and the move is "
                      "replayed after the deal (readings R134)");
  OnMove(early);
}

std::string ReplayDriver::GameReplay::SeatMisnamed(const Event& e, const Position& pos,
                                                   int player) {
  const int current = pos.current_player();
  if (current < 0 || current >= choice_.rules.num_players) return "";
  CardsFromHand(e, &reseat_cards_);
  if (!reseat_cards_.empty() && pos.Holding(current).Contains(reseat_cards_)) {
    // The seat in turn holds the cards and the named seat does not.
    if (!pos.Holding(player).Contains(reseat_cards_))
      return SeatName(current) + " holds the cards played and " + SeatName(player) + " does not";
    // A meld or discard of the turn the seat in turn opened by drawing: the
    // named seat drew nothing (a turn left out shows as a draw out of turn).
    if (pos.phase() == Phase::kPlay &&
        (e.type == EventType::kMeld || e.type == EventType::kDiscard))
      return SeatName(current) + " has drawn and holds the cards played; " + SeatName(player) +
             " has drawn nothing";
  }
  // A move of the turn that breaks a rule besides the turn for the named
  // seat and none for the seat in turn (a take onto a meld only the seat
  // in turn's side has). Asking to go out, answering and the foot have
  // rules of their own about who may.
  if (e.type != EventType::kTakePile && e.type != EventType::kMeld &&
      e.type != EventType::kDiscard && e.type != EventType::kThree)
    return "";
  Event as_current = e;
  as_current.player = current;
  std::string unused;
  const std::optional<Move> named = ToMove(e, &unused);
  const std::optional<Move> in_turn = ToMove(as_current, &unused);
  if (!named || !in_turn) return "";
  const TaggedViolations named_found = pos.Check(*named);
  const auto other_rule =
      std::find_if(named_found.begin(), named_found.end(),
                   [](const TaggedViolation& v) { return v.violation.id != CheckId::kTurnOrder; });
  if (other_rule == named_found.end() || !pos.Check(*in_turn).empty()) return "";
  return "the move breaks no rule for " + SeatName(current) + " and one for " + SeatName(player) +
         " (" + other_rule->violation.message + ")";
}

void ReplayDriver::GameReplay::MoveReseated(const Event& e, const Position& pos, int player,
                                            const std::string& why) {
  const int current = pos.current_player();
  Add(e.line, CheckId::kTurnOrder,
      "it is seat " + std::to_string(current) + "'s turn, not seat " + std::to_string(player) +
          "'s",
      {Context(AtMove(pos, player)),
       why + ": the move is replayed as seat " + std::to_string(current) + "'s (readings R118)",
       "rule: " + choice_.rules.Cite("rule.turn_order", "000 §11")});
  Event reseated = e;
  reseated.player = current;
  reseating_ = true;  // not the seat's own line: no R119 "written again" after it
  OnMove(reseated);
  reseating_ = false;
}

bool ReplayDriver::GameReplay::MeldAfterOwnDiscard(const Event& e, Position& pos, int player) {
  if (pos.phase() != Phase::kDraw || player == pos.current_player() ||
      last_discard_.player != player || last_discard_.line <= 0 ||
      last_move_line_ != last_discard_.line || !driver_->observers_.empty())
    return false;
  if (!FillMove(e, player, &meld_, &fill_error_) || !pos.MayMeldAfterTurn(meld_)) return false;
  const Where where = AtMove(pos, player);
  const TaggedViolations found = pos.PlayMeldAfterTurn(meld_);
  meld_.tag = 0;  // not the seat's last move: no R119 "written again" after it
  if (meld_after_discard_.first == last_discard_.line) {
    // A second meld after the same discard: the same slip.
    AddNote(meld_after_discard_.second, "line " + std::to_string(e.line) +
                                            ": another meld after that discard, replayed "
                                            "before it too");
    AddViolations(found, e.line, where);
    return true;
  }
  const int root =
      Add(e.line, CheckId::kTurnSequence,
          SeatName(player) + " melds after their discard at line " +
              std::to_string(last_discard_.line) + ", which ended the turn",
          {Context(where),
           "a turn melds before it discards: the meld is replayed as made before that discard "
           "(readings R132)",
           "rule: 000 §11"});
  meld_after_discard_ = {last_discard_.line, root};
  AddViolations(found, e.line, where);
  return true;
}

bool ReplayDriver::GameReplay::OwnerReseated(const Event& e, const Position& pos, int player) {
  if (e.type != EventType::kThree) {
    const int owner = pos.bonus_player();
    return Reseated(
        e, pos, player, owner, CheckId::kDrawCount,
        "seat " + std::to_string(player) + " draws bonus cards, but none are due to them",
        SeatName(owner) + " has " + std::to_string(pos.bonus_count()) + " bonus card(s) due");
  }
  int owner = -1;
  for (int seat = 0; seat < choice_.rules.num_players; ++seat) {
    if (pos.Holding(seat).count(*e.card) == 0) continue;
    if (owner >= 0) {
      // Two seats hold it: the next line may be one of them laying it out
      // (SettleThreeOfTwoHolders).
      if (settling_move_) return false;
      kept_as_ = KeptAs::kThreeOfTwoHolders;
      return Defer(e);
    }
    owner = seat;
  }
  if (owner < 0) return false;
  if (ThreeLineOfTheOwner(e, game_.position(), player, owner)) return true;
  return ThreeReseated(e, pos, player, owner, SeatName(owner) + " alone holds it");
}

bool ReplayDriver::GameReplay::ThreeLineOfTheOwner(const Event& e, Position* pos, int player,
                                                   int owner) {
  const int n = choice_.rules.num_players;
  if (pos->phase() != Phase::kBeforePlay || !e.replacement) return false;
  // The hand's order before play: from the seat that plays first.
  const int first = pos->current_player();
  if ((owner - first + n) % n >= (player - first + n) % n) return false;
  const LastMove* earlier = nullptr;
  for (const LastMove& t : threes_before_play_)
    if (t.line >= hand_line_ && t.player == player && t.card == *e.card && t.replacement)
      earlier = &t;
  if (!earlier || pos->Holding(player).count(*earlier->replacement) == 0) return false;
  const LastMove line = *earlier;
  const int root = Add(
      e.line, CheckId::kCardNotHeld,
      "seat " + std::to_string(player) + " lays out " + ToString(*e.card) + " but holds none",
      {Context(AtMove(*pos, player)),
       "line " + std::to_string(line.line) + " lays out " + ToString(*e.card) + " for " +
           SeatName(player) + ", who held one; " + SeatName(owner) +
           " alone holds one now, and lays out its threes before " + SeatName(player) +
           " does: line " + std::to_string(line.line) + " was " + SeatName(owner) +
           "'s (replaced by " + ToString(*line.replacement) + "), and this line is " +
           SeatName(player) + "'s (replaced by " + ToString(*e.replacement) + ") (readings R118)"});
  Event reseated = e;
  reseated.player = owner;
  // The owner lays out after `player` as replayed, before it in fact: the
  // order's finding is this one's consequence (ReportMoveFindings).
  three_order_root_ = root;
  OnMove(reseated);  // the three laid out for the owner's side; then the replacements traded
  three_order_root_ = -1;
  if (pos->hand(owner).count(*e.replacement) > 0 &&
      pos->hand(player).count(*line.replacement) > 0) {
    pos->PassCard(owner, player, *e.replacement);
    pos->PassCard(player, owner, *line.replacement);
  }
  return true;
}

bool ReplayDriver::GameReplay::ThreeReseated(const Event& e, const Position& pos, int player,
                                             int owner, const std::string& why) {
  return Reseated(
      e, pos, player, owner, CheckId::kCardNotHeld,
      "seat " + std::to_string(player) + " lays out " + ToString(*e.card) + " but holds none", why);
}

bool ReplayDriver::GameReplay::Reseated(const Event& e, const Position& pos, int player, int owner,
                                        CheckId id, const std::string& message,
                                        const std::string& why) {
  Add(e.line, id, message,
      {Context(AtMove(pos, player)),
       why + ": the move is replayed as seat " + std::to_string(owner) + "'s (readings R118)"});
  Event reseated = e;
  reseated.player = owner;
  OnMove(reseated);
  return true;
}

bool ReplayDriver::GameReplay::SettleThreeOfTwoHolders(const Event* next, Position* pos) {
  const Event three = std::move(deferred_move_);
  settling_move_ = true;
  int owner = -1;
  if (next && next->type == EventType::kThree && next->card == three.card && next->player &&
      pos->Holding(*next->player).count(*three.card) > 0) {
    for (int seat = 0; seat < choice_.rules.num_players; ++seat) {
      if (seat == *next->player || pos->Holding(seat).count(*three.card) == 0) continue;
      owner = owner == -1 ? seat : -2;  // -2: more than one left
    }
  }
  if (owner >= 0)
    ThreeReseated(three, *pos, *three.player, owner,
                  SeatName(owner) + " and " + SeatName(*next->player) + " hold it, and line " +
                      std::to_string(next->line) + " lays out " + SeatName(*next->player) + "'s");
  else
    OnMove(three);
  settling_move_ = false;
  return false;
}

bool ReplayDriver::GameReplay::WrittenAgain(const Event& e, const Position& pos, int player,
                                            int first_line, CheckId id, const std::string& message,
                                            const char* what, const std::string& rule) {
  Add(e.line, id, message,
      {Context(AtMove(pos, player)),
       std::string(what) + " of line " + std::to_string(first_line) +
           " written again: this line is not replayed (readings R119)",
       "rule: " + rule});
  last_move_line_ = e.line;
  return true;
}

bool ReplayDriver::GameReplay::MoveWrittenAgain(const Event& e, const Position& pos, int player) {
  if (e.type == EventType::kDiscard && e.card && last_discard_.line > 0 &&
      last_discard_.player == player && last_discard_.card == *e.card &&
      player != pos.current_player() && pos.phase() == Phase::kDraw && !pos.pile().empty() &&
      pos.pile().back() == *e.card)
    return WrittenAgain(e, pos, player, last_discard_.line, CheckId::kTurnOrder,
                        "it is seat " + std::to_string(pos.current_player()) +
                            "'s turn, not seat " + std::to_string(player) + "'s",
                        "the discard", choice_.rules.Cite("rule.turn_order", "000 §11"));
  if (e.type != EventType::kThree || !e.card || last_three_.line != last_move_line_ ||
      last_three_.line <= 0 || last_three_.player != player || last_three_.card != *e.card)
    return false;
  const bool same = last_three_.replacement == e.replacement;
  if (pos.Holding(player).count(*e.card) == 0) {
    // Another replacement: a copy all the same, unless another seat may
    // lay out that three now (before play), or may have laid out the
    // earlier line, its threes due before this seat's: the line may be its
    // (R118, ThreeLineOfTheOwner).
    if (!same) {
      const int n = choice_.rules.num_players;
      const int first = pos.current_player();
      for (int seat = 0; seat < n; ++seat)
        if (seat != player && pos.Holding(seat).count(*e.card) > 0 &&
            ((pos.phase() == Phase::kBeforePlay &&
              (seat - first + n) % n < (player - first + n) % n) ||
             pos.Check(ThreeMove{seat, *e.card, e.replacement, e.line}).empty()))
          return false;
    }
    return WrittenAgain(e, pos, player, last_three_.line, CheckId::kCardNotHeld,
                        "seat " + std::to_string(player) + " lays out " + ToString(*e.card) +
                            " again" +
                            (same || !e.replacement || !last_three_.replacement
                                 ? std::string()
                                 : ", replaced by " + ToString(*e.replacement) + " where line " +
                                       std::to_string(last_three_.line) + " has " +
                                       ToString(*last_three_.replacement)),
                        "the three", choice_.rules.Cite("rule.card_held", "000 §11"));
  }
  if (!same) return false;
  if (e.replacement && !pos.IsStockNext(*e.replacement))
    return WrittenAgain(e, pos, player, last_three_.line, CheckId::kStockMismatch,
                        "seat " + std::to_string(player) + " lays out " + ToString(*e.card) +
                            " again, replaced by " + ToString(*e.replacement) + ", which line " +
                            std::to_string(last_three_.line) + " drew already",
                        "the three", choice_.rules.Cite("rule.three_replacement", "000 §7"));
  return false;
}

bool ReplayDriver::GameReplay::TakeWrittenAgain(const Event& e, const Position& pos, int player) {
  if (take_.tag <= 0 || take_.tag != last_move_line_ || take_.player != player ||
      player != pos.current_player() || pos.phase() != Phase::kPlay || !e.top ||
      *e.top != take_.top || e.with != take_.with || RefRank(e.to) != take_.to ||
      e.to_hand != take_.to_hand)
    return false;
  return WrittenAgain(e, pos, player, take_.tag, CheckId::kTurnSequence,
                      "seat " + std::to_string(player) + " has already drawn this turn",
                      "the take of the pile",
                      choice_.rules.Cite("rule.draw_first", "000 §11, §12"));
}

bool ReplayDriver::GameReplay::MeldWrittenAgain(const Event& e, const Position& pos, int player) {
  // The usual next meld differs in its cards: told without filling a move.
  if (e.melds.size() != meld_.parts.size()) return false;
  for (size_t i = 0; i < e.melds.size(); ++i)
    if (e.melds[i].cards != meld_.parts[i].cards) return false;
  MeldMove again;
  std::string unused;
  if (!FillMove(e, player, &again, &unused) || again.parts.size() != meld_.parts.size())
    return false;
  for (size_t i = 0; i < again.parts.size(); ++i) {
    const MeldPart& a = again.parts[i];
    const MeldPart& b = meld_.parts[i];
    if (a.cards != b.cards || a.to != b.to || a.as != b.as || a.to_id != b.to_id || a.id != b.id ||
        a.sequence != b.sequence)
      return false;
  }
  CardsFromHand(e, &reseat_cards_);
  if (reseat_cards_.empty()) return false;
  if (pos.Holding(player).Contains(reseat_cards_)) {
    // Holding them: a meld of its own when legal (two equal additions
    // are); a copy when it breaks a rule, found as that rule's finding,
    // and the line it copies broke none (else the two share one cause).
    if (faulted_line_ == meld_.tag) return false;
    for (size_t i = hand_findings_from_; i < report_->findings.size(); ++i)
      if (report_->findings[i].line == meld_.tag) return false;
    again.tag = e.line;
    const TaggedViolations found = pos.Check(again);
    if (found.empty()) {
      // A meld of its own, unless the seat's next line shows otherwise.
      held_copy_ = HeldCopy{e.line,        meld_.tag, player,
                            reseat_cards_, e.melds,   std::make_unique<Position>(pos)};
      UpdateRare();
      return false;
    }
    const Violation& v = found.front().violation;
    std::vector<std::string> notes = {Context(AtMove(pos, player)),
                                      "the meld of line " + std::to_string(meld_.tag) +
                                          " written again: this line is not replayed (readings "
                                          "R119)"};
    notes.insert(notes.end(), v.notes.begin(), v.notes.end());
    const int index = Add(e.line, v.id, v.message, std::move(notes));
    // A finding about the side's melds all the same (R137): the hand's
    // record may show a meld line left out instead.
    LeftOutMeld& left = left_out_[size_t(choice_.rules.side_of(player))];
    if (index >= 0 && left.meld_finding < 0 && IsMeldFinding(v.id)) left.meld_finding = index;
    last_move_line_ = e.line;
    return true;
  }
  return WrittenAgain(
      e, pos, player, meld_.tag, CheckId::kCardNotHeld,
      "seat " + std::to_string(player) + " plays " + ToString(reseat_cards_) + " again", "the meld",
      choice_.rules.Cite("rule.card_held", "000 §11"));
}

bool ReplayDriver::GameReplay::HeldCopyTookCards(const Event& e, int player) {
  HeldCopy copy = std::move(*held_copy_);
  held_copy_.reset();
  UpdateRare();
  Position* pos = game_.position();
  if (!pos || copy.player != player || copy.line != last_move_line_ ||
      (e.type != EventType::kMeld && e.type != EventType::kDiscard))
    return false;
  std::vector<Card>& cards = reseat_cards_;
  CardsFromHand(e, &cards);
  // A third line the same is the copy's own copy (MeldWrittenAgain).
  const auto same = [](const MeldSpec& a, const MeldSpec& b) {
    return a.cards == b.cards && a.to == b.to && a.id == b.id && a.as == b.as;
  };
  if (e.type == EventType::kMeld &&
      std::equal(e.melds.begin(), e.melds.end(), copy.melds.begin(), copy.melds.end(), same))
    return false;
  if (cards.empty() || pos->Holding(player).Contains(cards) ||
      !copy.before->Holding(player).Contains(cards))
    return false;
  // Only the cards the copy laid are short now.
  CardCounts now = pos->Holding(player), laid;
  for (Card c : copy.cards) laid.Add(c);
  for (Card c : cards)
    if (!now.Remove(c) && !laid.Remove(c)) return false;
  *pos = std::move(*copy.before);
  Add(copy.line, CheckId::kCardNotHeld,
      "seat " + std::to_string(player) + " plays " + ToString(copy.cards) + " again",
      {Context(AtMove(*pos, player)),
       "the meld of line " + std::to_string(copy.first_line) + " written again: line " +
           std::to_string(e.line) + " plays " + ToString(copy.cards) +
           ", which this line took; it is not replayed (readings R119)",
       "rule: " + choice_.rules.Cite("rule.card_held", "000 §11")});
  OnMove(e);
  return true;
}

bool ReplayDriver::GameReplay::DrawMisrecorded(const Event& e, const Position& pos, int player) {
  // The same draw as the last move, again: the turn's draw once it has
  // drawn, or bonus cards once none are due.
  const bool again = draw_.tag > 0 && draw_.tag == last_move_line_ && draw_.player == player &&
                     draw_.bonus == e.bonus && draw_.cards == e.cards;
  auto written_again = [&](CheckId id, const std::string& message, const char* what,
                           const std::string& rule) {
    return WrittenAgain(e, pos, player, draw_.tag, id, message, what, rule);
  };
  if (again && e.bonus && pos.bonus_player() < 0)
    return written_again(CheckId::kDrawCount,
                         "seat " + std::to_string(player) + " draws bonus cards, but none are due",
                         "the bonus draw", choice_.rules.Cite("bonus_cards_first", "001 L37"));
  if (player != pos.current_player()) return false;
  // R136: bonus cards drawn in their turn, before its discard: the next
  // event may be that discard, which earns them.
  if (e.bonus && pos.bonus_player() < 0 && pos.phase() == Phase::kPlay && !settling_move_)
    return Defer(e);
  // So after the stock's last card, a red three, ended play (000 §15).
  if (again && !e.bonus && (pos.phase() == Phase::kPlay || pos.phase() == Phase::kOver) &&
      pos.drew_this_turn())
    return written_again(CheckId::kTurnSequence,
                         "seat " + std::to_string(player) + " has already drawn this turn",
                         "the draw", choice_.rules.Cite("rule.draw_first", "000 §11, §12"));
  if (e.bonus && pos.bonus_player() < 0 && pos.phase() != Phase::kPlay) {
    Add(e.line, CheckId::kDrawCount,
        "seat " + std::to_string(player) + " draws bonus cards, but none are due",
        {Context(AtMove(pos, player)),
         "read as the turn's draw, \"bonus\" left out (readings R119)",
         "rule: " + choice_.rules.Cite("bonus_cards_first", "001 L37")});
    Event plain = e;
    plain.bonus = false;
    OnMove(plain);
    return true;
  }
  return false;
}

bool ReplayDriver::GameReplay::SettleTakeBeforeBonus(const Event* next, Position* pos) {
  const Event take = std::move(deferred_move_);
  settling_move_ = true;
  bool swapped = false;
  std::string unused;
  if (next && next->type == EventType::kDraw && next->bonus &&
      next->player == pos->bonus_player()) {
    const std::optional<Move> bonus = ToMove(*next, &unused);
    const std::optional<Move> later = ToMove(take, &unused);
    Position probe = *pos;
    swapped = bonus && later && probe.Play(*bonus).empty() && probe.Check(*later).empty();
  }
  if (swapped) {
    OnMove(*next);
    Add(take.line, CheckId::kLogOutOfPlace,
        SeatName(*take.player) + "'s take of the pile comes before " + SeatName(*next->player) +
            "'s bonus draw at line " + std::to_string(next->line),
        {"the bonus cards are drawn before the next turn: the two lines are written in the "
         "wrong order, and are replayed line " +
         std::to_string(next->line) + " first (readings R148)"});
  }
  const ForfeitedBonus due{pos->bonus_player(),
                           pos->stock_known() && !pos->stock_slip_open()
                               ? pos->StockTop(pos->bonus_count())
                               : std::vector<Card>(),
                           hand_number_, pos->stock_size(), -1};
  const size_t findings_before = report_->findings.size();
  OnMove(take);
  settling_move_ = false;
  if (!swapped && !due.cards.empty()) {
    // The take forfeited the bonus cards (CheckBonusDrawn): a later draw may show them drawn.
    for (size_t i = findings_before; i < report_->findings.size(); ++i) {
      if (report_->findings[i].id == CheckId::kDrawCount &&
          report_->findings[i].line == take.line) {
        forfeited_bonus_ = due;
        forfeited_bonus_.finding = int(i);
      }
    }
  }
  return swapped;
}

bool ReplayDriver::GameReplay::ThreeReplayedFirst(const Event& kept, const Event& three,
                                                  Position* pos) {
  std::string unused;
  const std::optional<Move> first = ToMove(three, &unused);
  const std::optional<Move> second = ToMove(kept, &unused);
  if (!first || !second || !three.card || !kept.player || !three.player) return false;
  Position probe = *pos;
  if (!probe.Play(*first).empty() || !probe.Check(*second).empty()) return false;
  settling_move_ = true;
  OnMove(three);
  const std::string what = kept.type == EventType::kDraw                 ? "draw"
                           : kept.type == EventType::kThree && kept.card ? ToString(*kept.card)
                                                                         : "discard";
  Add(kept.line, CheckId::kLogOutOfPlace,
      SeatName(*kept.player) + "'s " + what + " comes before " +
          (*three.player == *kept.player ? std::string("its ") : SeatName(*three.player) + "'s ") +
          ToString(*three.card) + ", laid out at line " + std::to_string(three.line),
      {"the two lines are written in the wrong order, and are replayed line " +
       std::to_string(three.line) + " first (readings R143)"});
  OnMove(kept);
  settling_move_ = false;
  return true;
}

bool ReplayDriver::GameReplay::SettleEarlyBonus(const Event* next, Position* pos) {
  const Event bonus = std::move(deferred_move_);
  const int seat = *bonus.player;
  bool earned = false;
  if (next && next->ok && next->type == EventType::kDiscard && next->player == seat) {
    std::string unused;
    if (const std::optional<Move> discard = ToMove(*next, &unused)) {
      Position probe = *pos;
      earned = probe.Play(*discard).empty() && probe.bonus_player() == seat &&
               probe.StockTop(probe.bonus_count()) == bonus.cards;
    }
  }
  settling_move_ = true;
  if (!earned && next && next->ok && next->player && pos->current_player() == seat &&
      pos->phase() == Phase::kPlay && *next->player == (seat + 1) % choice_.rules.num_players &&
      (next->type == EventType::kDraw || next->type == EventType::kTakePile ||
       next->type == EventType::kThree))
    DiscardLeftOutBeforeBonus(bonus, *next, pos);  // R140
  if (earned) {
    OnMove(*next);
    Add(bonus.line, CheckId::kLogOutOfPlace,
        "seat " + std::to_string(seat) +
            "'s bonus draw comes before the discard that earns "
            "it (line " +
            std::to_string(next->line) + ")",
        {"the two lines are written in the wrong order, and are replayed discard first "
         "(readings R136)"});
  }
  OnMove(bonus);
  settling_move_ = false;
  return earned;
}

bool ReplayDriver::GameReplay::SettleDeferredDeal(const Event* next) {
  deal_deferred_ = false;
  const Event deal = std::move(deferred_deal_);
  const bool swapped = next && next->ok && next->type == EventType::kEndHand && next->hand &&
                       *next->hand == hand_number_;
  settling_deal_ = true;
  if (swapped) {
    Add(deal.line, CheckId::kLogOutOfPlace,
        "the deal of hand " + std::to_string(*deal.hand) + " comes before the end_hand of hand " +
            std::to_string(hand_number_) + " (line " + std::to_string(next->line) + ")",
        {"the two lines are written in the wrong order, and are replayed end_hand first "
         "(readings R125)"});
    OnEndHand(*next);
  }
  OnDeal(deal);
  settling_deal_ = false;
  return swapped;
}

bool ReplayDriver::GameReplay::SettleEarlyOpener(const Event* next, Position* pos) {
  const Event opener = std::move(deferred_move_);
  const int due = pos->current_player();
  const bool swapped =
      next && next->type == EventType::kDiscard && next->player == due && next->card &&
      pos->phase() == Phase::kPlay &&
      (opener.type == EventType::kDraw || (opener.top && *opener.top == *next->card));
  settling_move_ = true;
  bool undiscarded_take = false;
  if (swapped) {
    Add(opener.line, CheckId::kTurnOrder,
        "it is seat " + std::to_string(due) + "'s turn, not seat " +
            std::to_string(*opener.player) + "'s",
        {Context(AtMove(*pos, *opener.player)),
         SeatName(due) + "'s discard comes after this line, at line " + std::to_string(next->line) +
             ": the two lines are written in the wrong order, and are replayed discard first "
             "(readings R118)",
         "rule: 000 §11"});
    OnMove(*next);
  } else if (opener.type == EventType::kTakePile) {
    // R129; otherwise the take ends the turn without its discard, and
    // takes the card left out with the pile (R130: this seat is its taker).
    undiscarded_take = !DiscardLeftOutBeforeTake(opener, pos);
  } else if (opener.type == EventType::kThree && next && next->player == opener.player) {
    DiscardLeftOutBeforeThree(opener, pos);  // R138
  }
  const size_t before = report_->findings.size();
  OnMove(opener);
  if (undiscarded_take) {
    NoteMissingDiscard(opener.line, due, before);
    if (missing_discard_) {
      missing_discard_->taker = *opener.player;
      missing_discard_->take_line = opener.line;
    }
  }
  settling_move_ = false;
  return swapped;
}

bool ReplayDriver::GameReplay::OpeningMeldAfterDiscard(const Event& discard, const Event& next,
                                                       Position* pos) {
  const int seat = *discard.player;
  if (next.type != EventType::kMeld || next.player != discard.player ||
      !FillMove(next, seat, &meld_, &fill_error_))
    return false;
  const DiscardMove written{seat, *discard.card, discard.line, discard.face_down};
  Position probe = *pos;
  if (!probe.Play(meld_).empty() || !probe.Play(written).empty()) return false;
  std::string why;
  const TaggedViolations refused = pos->Check(Move(written));
  if (pos->TurnEndOpeningShort()) {
    why =
        "without this meld the turn's initial meld is short; a turn melds before it "
        "discards: the meld is replayed as made before that discard, and completes the "
        "initial meld (readings R147)";
  } else if (!refused.empty()) {
    // R153: the discard as written broke a rule that the meld first lifts.
    why = "as written, the discard breaks a rule (" + refused[0].violation.message +
          "); a turn melds before it discards: the meld is replayed as made before that "
          "discard, and the discard is then legal (readings R153)";
  } else if (!pos->turn_melded() && !pos->has_melded(choice_.rules.side_of(seat))) {
    // R141 where an initial meld earns bonus cards: due at the discard.
    why =
        "the side had not opened, and an initial meld earns bonus cards at the turn's discard "
        "(001 L37): the meld is replayed as the turn's initial meld, made before that discard "
        "(readings R141)";
  } else {
    why =
        "a turn melds before it discards: the meld is replayed as made before that discard "
        "(readings R132)";
  }
  const int root = Add(next.line, CheckId::kTurnSequence,
                       SeatName(seat) + " melds after their discard at line " +
                           std::to_string(discard.line) + ", which ended the turn",
                       {Context(AtMove(*pos, seat)), why, "rule: 000 §11"});
  settling_move_ = true;
  OnMove(next);
  OnMove(discard);
  settling_move_ = false;
  meld_after_discard_ = {discard.line, root};  // a second meld after it: a note (R132)
  return true;
}

void ReplayDriver::GameReplay::KeepOpener(const Event& e, const Position& pos) {
  if (opener_before_)
    *opener_before_ = pos;
  else
    opener_before_ = std::make_unique<Position>(pos);
  opener_kept_ = true;
  UpdateRare();
  opener_event_ = e;
  opener_due_ = pos.current_player();
  opener_findings_ = report_->findings.size();
}

void ReplayDriver::GameReplay::OpenerSettled(const Event& e, Position* pos) {
  opener_kept_ = false;
  UpdateRare();
  Position* before = opener_before_.get();
  const int due = opener_due_;
  if (e.line == opener_event_.line || e.player != due || pos->current_player() == due ||
      (e.type != EventType::kMeld && e.type != EventType::kDiscard && e.type != EventType::kThree))
    return;
  Event as_due = opener_event_;
  as_due.player = due;
  std::string unused;
  const std::optional<Move> opener = ToMove(as_due, &unused);
  if (!opener) return;
  before->Play(*opener);  // its findings but the turn's were reported at its line
  CardsFromHand(e, &reseat_cards_);
  // Play goes on after the draw, or it took the stock's last card, a red
  // three that the seat still lays out (000 §15).
  const bool playing = before->phase() == Phase::kPlay ||
                       (before->phase() == Phase::kOver && e.type == EventType::kThree);
  if (before->current_player() != due || !playing || reseat_cards_.empty() ||
      !before->Holding(due).Contains(reseat_cards_))
    return;
  *pos = *before;
  for (size_t i = opener_findings_; i < report_->findings.size(); ++i) {
    const Finding& f = report_->findings[i];
    if (f.line == opener_event_.line && f.id == CheckId::kTurnOrder) {
      AddNote(int(i), "the next move (line " + std::to_string(e.line) + ") is " + SeatName(due) +
                          "'s, which holds its cards: the " +
                          (opener_event_.type == EventType::kDraw ? "draw" : "take") +
                          " is replayed as seat " + std::to_string(due) + "'s (readings R118)");
      break;
    }
  }
}

}  // namespace canasta
