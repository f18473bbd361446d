#include "replay/driver.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <string_view>
#include <type_traits>

#include "core/meld.h"
#include "replay/driver_internal.h"

namespace canasta {
namespace {

constexpr char kFormat[] = "canasta-log/1";

std::string Lines(int first, int last) {
  return first == last ? "line " + std::to_string(first)
                       : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

// A line that yielded no event and could have been any event: the state
// after it is unknown. An unknown "type" is an extension, not a lost move.
bool LosesState(const InputProblem& p) {
  return p.id == CheckId::kLogBadJson || p.id == CheckId::kLogBadEvent;
}

}  // namespace

HookFailureText DescribeHookFailure(const HookFailure& f) {
  HookFailureText t;
  t.message = "ruleset hook " + f.hook + " failed: " + f.message;
  if (!f.where.empty()) t.notes.push_back("in " + f.where);
  if (!f.call.empty()) t.notes.push_back("call: " + f.call);
  if (f.count > 1) t.notes.push_back(std::to_string(f.count) + " calls failed the same way");
  if (!f.traceback.empty()) t.notes.push_back(f.traceback);
  t.notes.push_back(
      "the engine's default answer was used instead; later calls failing the "
      "same way in this game are not reported again");
  return t;
}

std::string HookFailureLine(const HookFailure& f, const std::string& during,
                            const std::string& consequence) {
  return "ruleset hook " + f.hook + " failed" + during + " (" + std::to_string(f.count) +
         (f.count == 1 ? " call" : " calls") + "): " + f.message +
         (f.where.empty() ? std::string() : " (" + f.where + ")") + "; " + consequence;
}

// The replay loop: an event in, its move played, its findings out.

void ReplayDriver::GameReplay::OnEvent(const Event& e) {
  ++report_->events;
  // The usual event, a move of the hand being replayed, goes straight to
  // OnMove: this frame stays small. The moves are kThree to kFoot in
  // EventType (replay/event.h); the other events lie outside that range.
  static_assert(EventType::kGame < EventType::kThree && EventType::kDeal < EventType::kThree &&
                EventType::kNote > EventType::kFoot && EventType::kEndHand > EventType::kFoot &&
                EventType::kEndGame > EventType::kFoot);
  if (e.ok && e.type >= EventType::kThree && e.type <= EventType::kFoot &&
      e.type != EventType::kSpecialHand && !skip_.active)
    return OnMove(e);
  OnOtherEvent(e);
}

void ReplayDriver::GameReplay::OnOtherEvent(const Event& e) {
  if (held_take_ && e.type != EventType::kNote) FlushHeldTake();    // R137: no meld came next
  if (deferred_end_ && e.type != EventType::kNote) FlushEndHand();  // R135: not a last move
  if (early_move_ && e.type != EventType::kNote) {                  // R134
    if (e.ok && e.type == EventType::kDeal && OpensTheDeal(*early_move_, e)) {
      OnDeal(e);
      return EarlyMoveAfterDeal(e.line);
    }
    SettleEarlyMove();
  }
  if (deal_deferred_ && e.type != EventType::kNote && SettleDeferredDeal(&e)) return;  // R125
  if (move_deferred_ && e.type != EventType::kNote) SettleDeferredMove(nullptr);
  if (e.type != EventType::kNote && opener_kept_) {  // R118: kept for the next move only
    opener_kept_ = false;
    UpdateRare();
  }
  if (pending_end_game_ && e.ok && e.type == EventType::kEndHand && e.hand &&
      *e.hand == hand_number_)
    return EndHandAfterEndGame(e);  // R142
  // An end_game kept in the middle of a hand (OnEndGameEvent): an event
  // that is not a move of the hand means it was the game's end after all.
  if (pending_end_game_ && e.type != EventType::kNote &&
      !(e.ok && e.type >= EventType::kThree && e.type <= EventType::kFoot && !skip_.active))
    FlushEndGame();
  if (!e.ok) return OnBadEvent(e);  // its problems were reported by the reader
  switch (e.type) {
    case EventType::kGame:
      return;  // handled by the caller
    case EventType::kNote:
      return;  // free text, no rule
    case EventType::kDeal:
      return OnDeal(e);
    case EventType::kEndHand:
      return OnEndHand(e);
    case EventType::kEndGame:
      return OnEndGameEvent(e);
    default:
      break;
  }
  if (skip_.active) return Skipped(e.line);
  if (e.type == EventType::kSpecialHand && !choice_.rules.special_hands())
    return SpecialHandNotAllowed(e);
  OnMove(e);
}

void ReplayDriver::GameReplay::OnUnreadLine(int line, int root) {
  if (deferred_end_) FlushEndHand();
  if (early_move_) SettleEarlyMove();
  if (deal_deferred_) SettleDeferredDeal(nullptr);
  if (move_deferred_) SettleDeferredMove(nullptr);
  unread_since_hand_ = true;
  if (skip_.active) {
    if (skip_.unknown) skip_.unread = skip_.unread_last = true;
    return;  // the state is lost already, or known (the hand is over)
  }
  // Between hands the line was most likely the next deal; in a hand it may
  // have been any move. Either way the hand is unknown from here on.
  LoseState(line, root, /*lost_deal=*/!in_hand_);
  skip_.unread = skip_.unread_last = true;
}

void ReplayDriver::GameReplay::Finish(int last_line) {
  if (deferred_end_) FlushEndHand();
  if (early_move_) SettleEarlyMove();
  if (deal_deferred_) SettleDeferredDeal(nullptr);
  if (move_deferred_) SettleDeferredMove(nullptr);
  if (pending_end_game_) FlushEndGame();
  CloseOpen(last_line, [&] {
    return "the log stops in the middle of hand " + std::to_string(hand_number_) +
           "; what it recorded was checked";
  });
  // A last line that did not parse after the last hand was most likely
  // the end_game: its finding says enough.
  if (!ended_game_ && !unread_since_hand_) {
    Add(last_line, CheckId::kLogIncomplete,
        Over() ? "the game has no end_game event"
               : "the game stops before a side reached " +
                     std::to_string(choice_.rules.target_score) + " (no end_game event)",
        {});
  }
  if (held_take_) FlushHeldTake();
  if (held_out_) ResolveHeldOut(nullptr, HandReport(), false);
  if (!ended_game_) Notify([&](ReplayObserver* o) { o->OnGameEnd(*report_, nullptr); });
  report_->totals = Totals();
  report_->winner = Winner();
  report_->finished = Over();
}

std::string ReplayDriver::GameReplay::SideName(int s) const {
  if (!choice_.rules.partnerships()) return SeatName(s);
  auto name = [&](int seat) {
    return seat < int(report_->players.size()) ? report_->players[size_t(seat)]
                                               : "seat " + std::to_string(seat);
  };
  return "side " + std::to_string(s) + " (" + name(s) + " and " + name(s + 2) + ")";
}

ReplayDriver::GameReplay::Where ReplayDriver::GameReplay::At(int player) const {
  Where w;
  w.player = player;
  if (const Position* p = game_.position()) {
    w.current = p->current_player();
    w.before_play = p->phase() == Phase::kBeforePlay;
    w.pile_size = int(p->pile().size());
    if (w.pile_size) w.top = p->pile().back();
  }
  return w;
}

std::string ReplayDriver::GameReplay::Context(const Where& w) const {
  std::string ctx = "hand " + std::to_string(hand_number_);
  if (w.current >= 0) {
    if (w.player >= 0 && w.player != w.current)
      ctx += ", " + SeatName(w.player) + " playing in the turn of " + SeatName(w.current);
    else if (w.player >= 0 || !w.before_play)
      ctx += ", turn of " + SeatName(w.player >= 0 ? w.player : w.current);
    if (w.pile_size)
      ctx += "; pile: " + std::to_string(w.pile_size) + " card(s), " + ToString(w.top) + " on top";
  }
  return ctx;
}

void ReplayDriver::GameReplay::AddViolations(const TaggedViolations& vs, int line,
                                             const std::string& ctx, std::vector<int>* indices) {
  for (const TaggedViolation& tv : vs) {
    Finding f;
    f.line = tv.tag ? tv.tag : line;
    f.id = tv.violation.id;
    f.message = tv.violation.message;
    f.notes.push_back(ctx);
    for (const std::string& n : tv.violation.notes) f.notes.push_back(n);
    const int index = driver_->Add(&report_->findings, std::move(f), line);
    if (indices) indices->push_back(index);
  }
}

void ReplayDriver::GameReplay::ReportHookFailuresNow(int line) {
  for (const HookFailure& f : choice_.hooks->TakeFailures()) {
    // The same failure is reported once a game, where it first happened.
    if (!reported_hook_failures_.insert(f.hook + '\n' + f.where + '\n' + f.message).second)
      continue;
    HookFailureText text = DescribeHookFailure(f);
    Add(line, CheckId::kRulesetHookFailed, std::move(text.message), std::move(text.notes));
  }
}

void ReplayDriver::GameReplay::FollowStockSlips(const Event& e, TaggedViolations* found,
                                                const Where& where) {
  if (found->empty()) return;         // nothing to report, nothing to follow (the usual move)
  std::vector<Card>& drawn = drawn_;  // a member: no allocation per event
  drawn.clear();
  if (e.type == EventType::kDraw) drawn.assign(e.cards.begin(), e.cards.end());
  if (e.type == EventType::kThree && e.replacement) drawn.push_back(*e.replacement);
  bool mismatch = false;
  int carried = 0;
  if (!drawn.empty() && !found->empty()) {
    bool again = false;
    for (Card c : drawn)
      again |= std::find(slipped_cards_.begin(), slipped_cards_.end(), c) != slipped_cards_.end();
    TaggedViolations kept;
    for (TaggedViolation& v : *found) {
      mismatch |= v.violation.id == CheckId::kStockMismatch;
      if (again && slip_finding_ >= 0 && v.violation.id == CheckId::kCardTooManyCopies) {
        ++carried;
        continue;
      }
      kept.push_back(std::move(v));
    }
    *found = std::move(kept);
  }
  std::vector<int> indices;
  AddViolations(*found, e.line, where, &indices);
  if (carried)
    AddNote(slip_finding_, "line " + std::to_string(e.line) + " draws the stock's own copy of " +
                               "a card drawn here: one copy too many, the same slip");
  if (mismatch) {
    slipped_cards_.insert(slipped_cards_.end(), drawn.begin(), drawn.end());
    for (size_t i = 0; i < found->size() && i < indices.size(); ++i)
      if ((*found)[i].violation.id == CheckId::kStockMismatch) slip_finding_ = indices[i];
  }
}

namespace {
bool HoldsNaturalOf(const CardCounts& held, Rank rank) {
  for (Suit suit : {Suit::kSpades, Suit::kHearts, Suit::kDiamonds, Suit::kClubs})
    if (held.count(Card(rank, suit)) > 0) return true;
  return false;
}
}  // namespace

void ReplayDriver::GameReplay::ReportMoveFindings(const Event& e, const Position& pos,
                                                  TaggedViolations* found, const Where& where,
                                                  size_t findings_before) {
  const int player = e.player.value_or(-1);
  const int side =
      player >= 0 && player < choice_.rules.num_players ? choice_.rules.side_of(player) : -1;
  if (side < 0 || size_t(side) >= left_out_.size()) return FollowStockSlips(e, found, where);
  FoldOpeningCondition(found);
  if (three_order_root_ >= 0)  // R118: ThreeLineOfTheOwner
    FoldInto(three_order_root_, CheckId::kThreeTiming, e.line,
             "the earlier line was this seat's, which lays out its threes first (readings R118)",
             found);
  LeftOutMeld& left = left_out_[size_t(side)];
  left_out_dirty_ = true;
  TaggedViolations& folded = folded_;  // a member: no allocation per move
  folded.clear();
  const bool root_here = FoldLeftOutMeld(e, pos, side, left, found, &folded);
  // R144: going out short of canastas in the turn whose meld down to one
  // card was judged for it: a note of that finding.
  if (kept_short_.finding >= 0 && kept_short_.player == player &&
      kept_short_.hand == hand_number_ && kept_short_.turn == pos.turns_played(player)) {
    FoldInto(kept_short_.finding, CheckId::kOutWithoutCanastas, e.line,
             "the same canastas short that this finding is about (readings R144)", found);
  }
  // R145: a wild card added again to the meld of a meld-too-many-wilds
  // finding of this hand, its naturals no more since: a note of it.
  const std::optional<Rank> rank = SoleTarget(e);
  const Meld* meld = nullptr;
  if (rank)
    for (const Meld& m : pos.melds(side))
      if (m.rank == *rank) meld = &m;
  const int naturals = meld ? meld->naturals : -1;
  if (meld && wilds_short_.finding >= 0 && wilds_short_.hand == hand_number_ &&
      wilds_short_.side == side && wilds_short_.rank == *rank &&
      wilds_short_.naturals == naturals) {
    FoldInto(wilds_short_.finding, CheckId::kMeldTooManyWilds, e.line,
             "the same meld, with no more naturals than at this finding (readings R145)", found);
  }
  // R146: a discard onto an empty pile found wrong while the discard left
  // out of a turn of this hand (R130) lies on the pile, no take since.
  if (missing_discard_ && missing_discard_->taker < 0 && e.type == EventType::kDiscard) {
    FoldInto(missing_discard_->finding, CheckId::kDiscardEmptyPile, e.line,
             "the pile held the discard left out here, so it was not empty (readings R146)", found);
  }
  // R152: a wild card discarded again while the seat holds the same
  // natural cards as at its last discard-wild finding this hand.
  if (e.type == EventType::kDiscard && wild_discard_.finding >= 0 &&
      wild_discard_.player == player && wild_discard_.hand == hand_number_ &&
      std::any_of(
          found->begin(), found->end(),
          [](const TaggedViolation& v) { return v.violation.id == CheckId::kDiscardWild; }) &&
      SameCounts(NaturalsOf(pos.hand(player)), wild_discard_.naturals)) {
    FoldInto(wild_discard_.finding, CheckId::kDiscardWild, e.line,
             "the same natural cards held as at this finding (readings R152)", found);
  }
  // R137: a wild card discarded holding only natural cards that a meld line
  // left out, shown by an earlier finding of the side's melds, may have laid.
  if (e.type == EventType::kDiscard && e.card && e.card->is_wild() &&
      (left.opening_short >= 0 || wilds_short_.finding >= 0))
    WildDiscardOfLeftOutMeld(pos, player, side, left, e.line, found);
  // So black threes melded by a seat that did not go out, holding only such
  // cards, after its side's initial meld was judged short.
  if (e.type == EventType::kDiscard && left.opening_short >= 0 && left.root < 0)
    BlackThreesOfShortOpening(pos, player, left, e.line, found);
  // R128: a wild card discarded holding, of natural cards, only those its
  // turn's draw took beyond the due: the draw's finding, a note of it.
  if (over_draw_ && over_draw_->player == player && e.type == EventType::kDiscard && e.card &&
      e.card->is_wild())
    WildDiscardOfOverDraw(pos, player, e.line, found);
  // R130: the seat whose discard was left out, the pile not taken since,
  // discards a wild card holding one natural card only: that card is the
  // one it discarded then, still in its hand as replayed.
  if (missing_discard_ && missing_discard_->taker < 0 && missing_discard_->seat == player &&
      e.type == EventType::kDiscard && e.card && e.card->is_wild()) {
    if (pos.hand(player).CountIf([](Card c) { return !c.is_wild(); }) == 1)
      FoldInto(missing_discard_->finding, CheckId::kDiscardWild, e.line,
               "the one natural card it holds as replayed is the discard left out here "
               "(readings R130)",
               found);
  }
  // R130: the seat whose discard was left out melds black threes in a turn
  // whose discard leaves it one card as replayed: the card left out, still
  // in its hand. In the log that discard went out, as the black threes need.
  if (missing_discard_ && missing_discard_->seat == player && e.type == EventType::kDiscard &&
      pos.hand(player).total() == 1)
    FoldInto(missing_discard_->finding, CheckId::kMeldBlackThree, e.line,
             "the one card left in the seat's hand as replayed is the discard left out here; "
             "without it this discard went out (readings R130)",
             found);
  // R150: the seat that took that pile, before the card left out is
  // shown, holds one card more than replayed: going out short of canastas,
  // or by a meld of every card, is a note of the discard-missing finding.
  if (missing_discard_ && missing_discard_->taker == player && missing_discard_->taker >= 0) {
    const size_t before = found->size();
    const std::string why = "the pile taken at line " +
                            std::to_string(missing_discard_->take_line) +
                            " held the discard left out, a card more than replayed: not out "
                            "(readings R150)";
    for (CheckId id : {CheckId::kOutWithoutCanastas, CheckId::kOutWithoutDiscard})
      FoldInto(missing_discard_->finding, id, e.line, why, found);
    // The card may be shown by the next move (R130): its going out stays a note.
    if (found->size() != before)
      out_with_discard_ = {missing_discard_->finding, player, hand_number_};
  }
  // R128: a turn that ends holding threes to lay out that only the cards
  // drawn beyond its due brought: the three-timing finding is a note of
  // the draw-count finding (the cards go back to the stock when the next
  // draw shows it).
  if (over_draw_ && over_draw_->player == player && e.type == EventType::kDiscard) {
    CardCounts extra;
    for (Card c : over_draw_->cards) extra.Add(c);
    const std::vector<Card> threes = ThreesToLayOut(pos, player, std::nullopt);
    if (!threes.empty() && extra.Contains(threes))
      FoldInto(over_draw_->finding, CheckId::kThreeTiming, e.line,
               "the three came with the cards drawn beyond the turn's due (readings R128)", found);
  }
  // So is the first take's finding that the pile holds one card only.
  if (missing_discard_ && missing_discard_->take_line == e.line && e.type == EventType::kTakePile) {
    FoldInto(missing_discard_->finding, CheckId::kPileOneCard, e.line,
             "the pile held the discard left out here too, so it held more than one card "
             "(readings R146)",
             found);
  }
  // R137: a take by a side not opened, found frozen for that alone: the
  // next line may show the side's meld line left out (HoldFrozenTake).
  if (e.type == EventType::kTakePile && left.root < 0 && !held_take_ && !take_frozen_by_cards_ &&
      choice_.rules.frozen_before_initial_meld && !pos.has_melded(side))
    HoldFrozenTake(e, player, where, found);
  // R137: short of canastas after a finding about the side's melds this
  // hand: a meld line left out may have made the canasta.
  // (A meld finding of this move counts: it is the side's first, below.)
  if (left.root < 0 && (left.meld_finding >= 0 ||
                        std::any_of(found->begin(), found->end(), [](const TaggedViolation& v) {
                          return IsMeldFinding(v.violation.id) &&
                                 v.violation.id != CheckId::kOutWithoutCanastas &&
                                 v.violation.id != CheckId::kMeldKeepACard;
                        })))
    HoldShortOfCanastas(e, pos, side, where, found);
  FollowStockSlips(e, found, where);
  for (size_t i = findings_before; i < report_->findings.size(); ++i) {
    const CheckId id = report_->findings[i].id;
    if (id == CheckId::kMeldKeepACard)
      kept_short_ = {int(i), player, hand_number_, pos.turns_played(player)};
    if (id == CheckId::kThreeTiming) kept_three_ = {int(i), player, hand_number_};
    // The pile's top then, of a rank the seat held a natural of (R121, R137).
    if (id == CheckId::kTurnSequence && e.type == EventType::kMeld && pos.draw_left_out() &&
        where.pile_size > 0 && !where.top.is_wild() && !where.top.is_three() &&
        HoldsNaturalOf(pos.Holding(player), where.top.rank()))
      untaken_pile_ = {int(i), player, hand_number_, where.top};
    if (id == CheckId::kMeldBlackThree && e.type == EventType::kDiscard)
      black_three_end_ = {int(i), hand_number_, e.line};
    if (id == CheckId::kDiscardWild)
      wild_discard_ = {int(i), player, hand_number_, NaturalsOf(pos.hand(player))};
    if (id == CheckId::kMeldTooManyWilds && meld)
      wilds_short_ = {int(i), side, hand_number_, *rank, naturals};
    // Black threes melded by a seat that did not go out, found at the
    // turn's end: the cards of a meld line left out may have kept it in.
    if (left.meld_finding < 0 &&
        (IsMeldFinding(id) || (id == CheckId::kMeldBlackThree && e.type == EventType::kDiscard)))
      left.meld_finding = int(i);
    if (left.opening_short < 0 &&
        (id == CheckId::kInitialMeldMinimum || id == CheckId::kInitialMeldCondition))
      left.opening_short = int(i);
    if (TargetMissing(e, pos, side, id) && left.root < 0 && root_here) {
      left.root = int(i);
      left.ranks.clear();
      left.AddRanksOf(e);
      AddNote(left.root,
              "the log names a meld the side laid, so a meld line of the side was likely left "
              "out before this line; what its absence makes of the hand is noted here "
              "(readings R137)");
      if (held_take_ && held_take_->player == player) FoldHeldTake(left.root);
    }
  }
  // R137: bonus cards drawn after the seat's own discard, none due, by a
  // side not opened, where an initial meld earns them: that turn's initial
  // meld line was left out. The side has opened; what follows is noted here.
  if (e.type == EventType::kDraw && e.bonus && left.root < 0 && !pos.has_melded(side) &&
      (choice_.rules.bonus_cards_first > 0 || choice_.rules.bonus_cards_second > 0) &&
      last_discard_.player == player && last_discard_.line > 0) {
    for (size_t i = findings_before; i < report_->findings.size(); ++i) {
      if (report_->findings[i].id != CheckId::kDrawCount || !game_.position() ||
          !game_.position()->MarkOpened(player))
        continue;
      left.root = int(i);
      left.ranks.clear();
      AddNote(left.root,
              "bonus cards follow the initial meld that earns them (001 L37): the "
              "initial meld line of " +
                  SeatName(player) + "'s turn, before its discard at line " +
                  std::to_string(last_discard_.line) +
                  ", was likely left out; what its absence makes of the hand is noted "
                  "here (readings R137)");
      break;
    }
  }
  for (const TaggedViolation& v : folded)
    AddNote(left.root, "line " + std::to_string(v.tag ? v.tag : e.line) + ": as replayed, " +
                           v.violation.message + "; the side's melds lack the meld line left " +
                           "out (readings R137)");
}

void ReplayDriver::GameReplay::HoldFrozenTake(const Event& e, int player, const Where& where,
                                              TaggedViolations* found) {
  for (auto it = found->begin(); it != found->end(); ++it) {
    if (it->violation.id != CheckId::kPileFrozenNeedsPair) continue;
    held_take_ = HeldTake{std::move(*it), e.line, player, Context(where)};
    found->erase(it);
    UpdateRare();
    return;
  }
}

void ReplayDriver::GameReplay::FoldHeldTake(int root) {
  AddNote(root, "line " + std::to_string(held_take_->line) + ": as replayed, " +
                    held_take_->finding.violation.message +
                    "; the side had opened by the meld line left out, so the pile was not "
                    "frozen for it (readings R137)");
  held_take_.reset();
  UpdateRare();
}

void ReplayDriver::GameReplay::FlushHeldTake() {
  const HeldTake held = std::move(*held_take_);
  held_take_.reset();
  UpdateRare();
  AddViolations({held.finding}, held.line, held.context);
}

void ReplayDriver::GameReplay::HoldShortOfCanastas(const Event& e, const Position& pos, int side,
                                                   const Where& where, TaggedViolations* found) {
  const int player = e.player.value_or(-1);
  const int turn = pos.turns_played(player);
  for (auto it = found->begin(); it != found->end();) {
    const CheckId id = it->violation.id;
    if (id != CheckId::kOutWithoutCanastas && id != CheckId::kMeldKeepACard) {
      ++it;
    } else if (!held_out_) {  // held until the hand's end_hand (ResolveHeldOut)
      held_out_ = HeldOut{std::move(*it), e.line, side, player, turn, Context(where), {}};
      it = found->erase(it);
    } else if (id == CheckId::kOutWithoutCanastas &&
               held_out_->finding.violation.id == CheckId::kMeldKeepACard &&
               held_out_->player == player && held_out_->turn == turn) {
      // R144, as for a meld-keep-a-card finding reported.
      held_out_->notes.push_back("line " + std::to_string(e.line) + ": " + it->violation.message +
                                 ": the same canastas short that this finding is about "
                                 "(readings R144)");
      it = found->erase(it);
    } else {
      ++it;
    }
  }
}

void ReplayDriver::GameReplay::FoldOpeningCondition(TaggedViolations* found) {
  auto of = [found](CheckId id) {
    return std::find_if(found->begin(), found->end(),
                        [id](const TaggedViolation& v) { return v.violation.id == id; });
  };
  const auto minimum = of(CheckId::kInitialMeldMinimum);
  const auto condition = of(CheckId::kInitialMeldCondition);
  if (minimum == found->end() || condition == found->end() || minimum->tag != condition->tag)
    return;
  minimum->violation.notes.push_back("the same initial meld: " + condition->violation.message +
                                     " (readings R149)");
  found->erase(condition);
}

void ReplayDriver::GameReplay::WildDiscardOfLeftOutMeld(const Position& pos, int player, int side,
                                                        const LeftOutMeld& left, int line,
                                                        TaggedViolations* found) {
  const CardCounts& held = pos.hand(player);
  bool any = false, of_short_meld = true, own_melds = true;
  for (int i = 0; i < kNumFaces; ++i) {
    const Card c = Card::FromIndex(i);
    if (held.count_at(i) == 0 || c.is_wild()) continue;
    any = true;
    of_short_meld &= c.rank() == wilds_short_.rank;
    own_melds &= HoldsMeldOf(pos, player, c.rank());
  }
  if (!any) return;
  if (of_short_meld && wilds_short_.finding >= 0 && wilds_short_.hand == hand_number_ &&
      wilds_short_.side == side) {
    return FoldInto(wilds_short_.finding, CheckId::kDiscardWild, line,
                    "every natural card held is of the rank of the meld this finding found "
                    "short of naturals: a meld line left out likely laid them there (readings "
                    "R137)",
                    found);
  }
  if (own_melds && left.opening_short >= 0) {
    FoldInto(left.opening_short, CheckId::kDiscardWild, line,
             "every natural card held is in a meld's worth of its rank: a line left out of "
             "the initial meld this finding judged short likely laid them (readings R137)",
             found);
  }
}

void ReplayDriver::GameReplay::WildDiscardOfOverDraw(const Position& pos, int player, int line,
                                                     TaggedViolations* found) {
  CardCounts extra;
  for (Card c : over_draw_->cards) extra.Add(c);
  const CardCounts& held = pos.hand(player);
  bool any = false;
  for (int i = 0; i < kNumFaces; ++i) {
    const Card c = Card::FromIndex(i);
    if (held.count_at(i) == 0 || c.is_wild()) continue;
    if (held.count_at(i) > extra.count(c)) return;
    any = true;
  }
  if (any)
    FoldInto(over_draw_->finding, CheckId::kDiscardWild, line,
             "the natural cards held are those drawn beyond the turn's due (readings R128)", found);
}

void ReplayDriver::GameReplay::BlackThreesOfShortOpening(const Position& pos, int player,
                                                         const LeftOutMeld& left, int line,
                                                         TaggedViolations* found) {
  if (pos.hand(player).total() == 0 || !HeldMakeMelds(pos, player)) return;
  FoldInto(left.opening_short, CheckId::kMeldBlackThree, line,
           "the cards held can all be melded: a line left out of the initial "
           "meld this finding judged short likely laid them, and the seat went out (readings "
           "R137)",
           found);
}

bool ReplayDriver::GameReplay::HeldMakeMelds(const Position& pos, int seat) const {
  // The side's melds of a rank on the table, then the new ones.
  std::vector<MeldShape> melds;
  for (const Meld& m : pos.melds(choice_.rules.side_of(seat))) {
    if (m.cards.empty() || m.sequence()) continue;
    MeldShape shape = m.Shape();
    shape.is_new = false;
    melds.push_back(shape);
  }
  int twos = 0, jokers = 0;
  for (Card c : pos.hand(seat).ToVector()) {
    if (c.is_joker()) {
      ++jokers;
      continue;
    }
    if (c.is_wild()) {
      ++twos;
      continue;
    }
    const auto same = std::find_if(melds.begin(), melds.end(),
                                   [&](const MeldShape& m) { return m.rank == c.rank(); });
    if (same != melds.end()) {
      ++same->naturals;
      continue;
    }
    MeldShape shape;
    shape.rank = c.rank();
    shape.naturals = 1;
    melds.push_back(shape);
  }
  auto legal = [&](const MeldShape& m) {
    return !CheckMeldShape(choice_.rules, *choice_.hooks, m).has_value();
  };
  // Each wild card goes to a meld not yet legal, else to any that stays legal.
  for (int n = twos + jokers; n > 0; --n) {
    const bool joker = n <= jokers;
    MeldShape* to = nullptr;
    for (MeldShape& m : melds) {
      MeldShape with = m;
      (joker ? with.jokers : with.twos) += 1;
      if (!legal(m) && (legal(with) || with.size() < choice_.rules.min_meld_size)) {
        to = &m;
        break;
      }
      if (!to && legal(with)) to = &m;
    }
    if (!to) return false;
    (joker ? to->jokers : to->twos) += 1;
  }
  return std::all_of(melds.begin(), melds.end(), legal);
}

void ReplayDriver::GameReplay::FoldInto(int root, CheckId id, int line, const std::string& why,
                                        TaggedViolations* found) {
  for (auto it = found->begin(); it != found->end();) {
    if (it->violation.id != id) {
      ++it;
      continue;
    }
    AddNote(root, "line " + std::to_string(it->tag ? it->tag : line) + ": " +
                      it->violation.message + ": " + why);
    it = found->erase(it);
  }
}

std::optional<Rank> ReplayDriver::GameReplay::SoleTarget(const Event& e) {
  std::optional<Rank> rank;
  if (e.type == EventType::kMeld && e.melds.size() == 1) rank = RefRank(e.melds[0].to);
  if (e.type == EventType::kTakePile) rank = RefRank(e.to);
  if (rank && (*rank == Rank::kJoker || *rank == Rank::kSequence)) return std::nullopt;
  return rank;
}

bool ReplayDriver::GameReplay::IsMeldFinding(CheckId id) {
  switch (id) {
    case CheckId::kMeldTargetMissing:
    case CheckId::kInitialMeldMinimum:
    case CheckId::kInitialMeldCondition:
    case CheckId::kMeldTooFewNaturals:
    case CheckId::kMeldTooManyWilds:
    case CheckId::kMeldTooSmall:
    case CheckId::kPileTakeInvalid:
    case CheckId::kOutWithoutCanastas:
    case CheckId::kMeldKeepACard:  // short of canastas to go out (R144)
    // A discard onto an empty pile while the seat holds other cards, which
    // a meld left out had laid (SWAD, 001 L46); so a wild card discarded
    // while holding them.
    case CheckId::kDiscardEmptyPile:
    case CheckId::kDiscardWild:
      return true;
    default:
      return false;
  }
}

void ReplayDriver::GameReplay::LoseState(int line, int root, bool lost_deal) {
  skip_ = Skip();
  skip_.active = true;
  skip_.unknown = true;
  skip_.lost_deal = lost_deal;
  skip_.root = root;
  skip_.root_line = line;
  lost_this_hand_ = true;
  lost_root_ = root;
  if (lost_deal) {
    hand_number_ = hand_number_ + 1;  // a guess: the deal's own number is lost
    hand_line_ = line;
  }
  const std::string why = root >= 0 && root < int(report_->findings.size())
                              ? report_->findings[size_t(root)].message
                              : std::string();
  Notify([&](ReplayObserver* o) { o->OnStateLost(line, why); });
}

void ReplayDriver::GameReplay::EndSkip() {
  if (!skip_.active) return;
  if (skip_.count) {
    std::string note = std::to_string(skip_.count) + " event(s) not replayed (" +
                       Lines(skip_.first, skip_.last) + "): ";
    note += skip_.unknown ? (skip_.lost_deal
                                 ? "the hand's deal is unknown"
                                 : "the state of hand " + std::to_string(hand_number_) +
                                       " is unknown after line " + std::to_string(skip_.root_line))
                          : "the hand was already over";
    AddNote(skip_.root, note);
  }
  skip_.active = false;
}

void ReplayDriver::GameReplay::OnBadEvent(const Event& e) {
  switch (e.type) {
    case EventType::kNote:
      return;  // free text: nothing depends on it
    case EventType::kGame:
      return;  // handled by the caller
    case EventType::kEndHand:
      // The hand ends here all the same; its recorded fields cannot be
      // compared. It ends the skip of a hand already unknown.
      if (!in_hand_ && !(skip_.active && skip_.lost_deal)) return;
      EndSkip();
      CloseHand(/*complete=*/true, nullptr);
      return;
    case EventType::kEndGame:
      return OnEndGame(nullptr, e.line);
    case EventType::kDeal:
      CloseOpen(e.line, [&] {
        return "hand " + std::to_string(hand_number_) +
               " has no end_hand event before the next deal";
      });
      LoseState(e.line, root_of_line_, /*lost_deal=*/true);
      skip_.deal_seen = true;
      if (e.hand) hand_number_ = *e.hand;
      return;
    default:
      if (skip_.active) return Skipped(e.line);
      LoseState(e.line, root_of_line_, /*lost_deal=*/!in_hand_);
      return;
  }
}

void ReplayDriver::GameReplay::MoveOutsideHand(const Event& e) {
  if (move_deferred_ && !settling_move_) SettleDeferredMove(&e);  // R123
  if (early_move_) {  // the move kept was no hand's first: this one is skipped after it
    SettleEarlyMove();
    return Skipped(e.line);
  }
  const int root =
      Add(e.line, CheckId::kLogOutOfPlace,
          std::string("\"") + EventTypeName(e.type) + "\" event outside a hand (no deal before it)",
          {"event ignored"});
  if (!in_hand_ && root >= 0 &&
      (e.type == EventType::kDraw || e.type == EventType::kThree ||
       e.type == EventType::kTakePile)) {
    // R134: kept; the next event may be the hand's deal, written after it.
    early_move_ = e;
    early_root_ = root;
    return;
  }
  LoseState(e.line, root, /*lost_deal=*/true);
}

void ReplayDriver::GameReplay::MoveOfNoSeat(const Event& e, int player) {
  if (move_deferred_ && !settling_move_) SettleDeferredMove(&e);  // R123
  const int root = Add(e.line, CheckId::kLogBadEvent,
                       "\"player\" is " + std::to_string(player) + "; seats are 0 to " +
                           std::to_string(choice_.rules.num_players - 1),
                       {"event ignored"});
  LoseState(e.line, root, false);
}

void ReplayDriver::GameReplay::CardsFromHand(const Event& e, std::vector<Card>* out) {
  out->clear();
  auto add = [out](const std::vector<Card>& cards) {
    out->insert(out->end(), cards.begin(), cards.end());
  };
  switch (e.type) {
    case EventType::kMeld:
      for (const MeldSpec& m : e.melds) add(m.cards);
      break;
    case EventType::kTakePile:
      add(e.with);
      for (const MeldSpec& m : e.before) add(m.cards);
      break;
    case EventType::kDiscard:
    case EventType::kThree:
      if (e.card) out->push_back(*e.card);
      break;
    case EventType::kSpecialHand:
      add(e.cards);
      break;
    default:
      break;
  }
}

bool ReplayDriver::GameReplay::RarePending(const Event& e, Position* pos) {
  // R119: a meld copy replayed waits for its seat's next line only.
  if (held_copy_ && !settling_move_ && HeldCopyTookCards(e, *e.player)) return true;
  // R137: a take held (HoldFrozenTake) waits for its seat's next meld only.
  if (held_take_ && (e.type != EventType::kMeld || e.player != held_take_->player)) FlushHeldTake();
  if (move_deferred_ && !settling_move_) {  // R118, R121, R123
    if (SettleDeferredMove(&e)) return true;
    if (skip_.active) {  // the move kept lost the hand's state: this one is skipped too
      Skipped(e.line);
      return true;
    }
  }
  if (deferred_end_ && !settling_end_) {  // R135
    if (!LastMoveAfterEnd(e, *pos)) {
      FlushEndHand();
      OnMove(e);  // outside the hand, as written
      return true;
    }
    settling_end_ = true;
    OnMove(e);  // the hand's last move
    settling_end_ = false;
    EndHandAfterLastMove(e);
    return true;
  }
  if (!late_threes_.empty() && !settling_move_ && LateThree(e)) return true;  // R123
  if (late_move_ && !settling_move_ && LateMoveCame(e)) return true;          // R121
  if (late_move_ && !late_move_->with.empty() && e.type == EventType::kMeld)
    TakeCardShown(e, pos);  // R121
  if (pending_end_game_) {
    if (pos->phase() == Phase::kOver) {  // R142 kept it: a move after the hand's end
      FlushEndGame();
      OnMove(e);
      return true;
    }
    EndGameMidHand(e);  // the hand plays on after an end_game
  }
  if (opener_kept_) OpenerSettled(e, pos);
  if (swap_finding_ >= 0) SwapShown(e, pos);    // R127
  if (over_draw_) OverDrawShown(e, pos);        // R128
  if (missing_discard_) DiscardShown(e, pos);   // R130
  if (undrawn_turn_) UndrawnTurnShown(e, pos);  // R121
  return false;
}

void ReplayDriver::GameReplay::OnMove(const Event& e) {
  if (deal_deferred_) [[unlikely]]
    SettleDeferredDeal(nullptr);  // R125: a move of the deal; the position is the deal's
  // The refusals below are worded out of line: the usual move passes them.
  if (!in_hand_ || !game_.position()) return MoveOutsideHand(e);
  Position& pos = *game_.position();
  const int player = e.player.value_or(-1);
  if (player < 0 || player >= choice_.rules.num_players) return MoveOfNoSeat(e, player);
  // What the move after an end_game or a draw out of turn says of them.
  if (rare_pending_ && RarePending(e, &pos)) return;
  // A move out of turn, a red three and an unusual draw are looked at out
  // of line: whose the move is (R118), a line written twice (R119).
  if (player != pos.current_player() || e.type == EventType::kThree ||
      (e.type == EventType::kTakePile && (pos.phase() == Phase::kPlay || pos.bonus_player() >= 0 ||
                                          choice_.rules.LaidOutThreesIn(pos.hand(player)) > 0)) ||
      (e.type == EventType::kDraw &&
       (e.bonus || pos.phase() == Phase::kPlay || !pos.AreStockNext(e.cards))) ||
      ((e.type == EventType::kMeld || e.type == EventType::kDiscard) &&
       (choice_.rules.LaidOutThreesIn(pos.hand(player)) > 0 || pos.draw_left_out() ||
        pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay))) {
    if (UnusualMove(e, pos, player)) return;
  }
  // R141 where an initial meld earns bonus cards (001 L37): the discard of
  // a side not opened, its turn having laid nothing, is kept: the next line
  // may be the turn's initial meld, written late (SettleDeferredDiscard).
  if (e.type == EventType::kDiscard &&
      (choice_.rules.bonus_cards_first > 0 || choice_.rules.bonus_cards_second > 0) &&
      !settling_move_ && !settling_end_ && player == pos.current_player() &&
      pos.phase() == Phase::kPlay && !pos.turn_melded() &&
      !pos.has_melded(choice_.rules.side_of(player))) {
    Defer(e);
    return;
  }
  // R147: the discard that ends a turn whose melds so far make too short
  // an initial meld: the next line may be a meld of that turn, written
  // late (SettleDeferredDiscard).
  if (e.type == EventType::kDiscard && pos.turn_melded() && pos.turn_opening() && !settling_move_ &&
      player == pos.current_player() && pos.phase() == Phase::kPlay && pos.TurnEndOpeningShort()) {
    Defer(e);
    return;
  }
  // A player with no card left cannot meld, discard or lay out a card: the
  // log and the engine disagree about that hand.
  if (pos.hand(player).total() == 0 && !pos.FootPending(player) &&
      (e.type == EventType::kMeld || e.type == EventType::kDiscard || e.type == EventType::kThree ||
       (e.type == EventType::kTakePile && !e.with.empty())))
    return MoveWithNoCard(e, player);
  // The moves with card vectors are members, refilled for each event, so
  // that the vectors keep their capacity: no allocation per event. Each
  // kind is played by its own instance of PlayMove (no closure, no
  // variant).
  switch (e.type) {
    case EventType::kDraw:
      return PlayFilled(e, pos, player, &draw_);
    case EventType::kTakePile:
      // R137: whether the pile's cards freeze it, for a side not opened
      // (HoldFrozenTake): the take's finding says only "not opened".
      if (!pos.has_melded(choice_.rules.side_of(player)))
        take_frozen_by_cards_ = pos.IsPileFrozen();
      return PlayFilled(e, pos, player, &take_);
    case EventType::kMeld:
      // R119: the seat's last move was this meld (a line written twice?).
      if (meld_.tag == last_move_line_ && meld_.player == player && meld_.tag > 0 &&
          e.melds.size() == meld_.parts.size() && !e.melds.empty() &&
          e.melds[0].cards.size() == meld_.parts[0].cards.size() && !e.melds[0].cards.empty() &&
          e.melds[0].cards[0] == meld_.parts[0].cards[0] && MeldWrittenAgain(e, pos, player))
        return;
      return PlayFilled(e, pos, player, &meld_);
    case EventType::kRetract:
      return PlayFilled(e, pos, player, &retract_);
    case EventType::kDiscard:
      return PlayMove(e, pos, player, DiscardMove{player, *e.card, e.line, e.face_down});
    case EventType::kThree:
      return PlayMove(e, pos, player, ThreeMove{player, *e.card, e.replacement, e.line});
    case EventType::kAskOut:
      return PlayMove(e, pos, player, AskOutMove{player, e.line});
    case EventType::kAnswer:
      return PlayMove(e, pos, player, AnswerMove{player, *e.yes, e.line});
    case EventType::kSpecialHand:
      return PlayFilled(e, pos, player, &special_);
    case EventType::kFoot:
      return PlayMove(e, pos, player, FootMove{player, e.line});
    default:
      return;  // the caller sends only moves
  }
}

void ReplayDriver::GameReplay::MoveAfterEnd(const Event& e, const Position& pos,
                                            const Where& where) {
  // R150: gone out as replayed only, holding the discard left out of the
  // pile it took: the log plays on, a note of the discard-missing finding.
  const bool folded_out = out_with_discard_.finding >= 0 &&
                          out_with_discard_.hand == hand_number_ &&
                          out_with_discard_.seat == pos.went_out();
  if (folded_out || (missing_discard_ && missing_discard_->taker >= 0 &&
                     pos.went_out() == missing_discard_->taker)) {
    const int root = folded_out ? out_with_discard_.finding : missing_discard_->finding;
    AddNote(root, "line " + std::to_string(e.line) + ": the log plays on after " +
                      SeatName(pos.went_out()) + " went out as replayed at line " +
                      std::to_string(last_move_line_) +
                      ", holding the discard left out (readings R150)");
    return SkipAfterEnd(root);
  }
  std::string how = pos.went_out() >= 0 ? SeatName(pos.went_out()) + " went out at line " +
                                              std::to_string(last_move_line_)
                                        : "play ended at line " + std::to_string(last_move_line_);
  const int root = Add(e.line, CheckId::kTurnSequence, "the deal is already over",
                       {Context(where), how, "rule: 000 §11, §17"});
  SkipAfterEnd(root);
}

void ReplayDriver::GameReplay::AfterMove(const Event& e, Position& pos, const Where& where,
                                         bool over_before, TaggedViolations* found_ptr) {
  TaggedViolations& found = *found_ptr;
  if (over_before && IsAlreadyOver(found)) return MoveAfterEnd(e, pos, where);
  last_move_line_ = e.line;
  const size_t findings_before = report_->findings.size();
  if (!found.empty()) {
    faulted_line_ = e.line;
    ReportMoveFindings(e, pos, &found, where, findings_before);
  }
  if (e.type == EventType::kDraw && !e.bonus) NoteOverDraw(e, findings_before);  // R128
  if (e.type == EventType::kDraw) NoteMissingDiscard(e, findings_before);        // R130
  ReportHookFailures(e.line);
  // R137: the seat's meld after a take held showed no meld line left out.
  if (rare_pending_ && held_take_ && held_take_->line != e.line) FlushHeldTake();
  Notify([&](ReplayObserver* o) { o->AfterMove(e, pos, found); });
  if (e.type == EventType::kSpecialHand) {
    // Cards that make no special hand have no value the replay knows: the
    // hand's recorded scores stand in for it (one finding, then the resync
    // at end_hand, as for any hand the replay cannot follow).
    for (size_t i = findings_before; i < report_->findings.size(); ++i)
      if (report_->findings[i].id == CheckId::kSpecialHandShape)
        return LoseState(e.line, int(i), /*lost_deal=*/false);
  }
}

ReplayDriver::ReplayDriver(AuditOptions options) : options_(std::move(options)) {}
ReplayDriver::~ReplayDriver() = default;

int ReplayDriver::Add(std::vector<Finding>* into, Finding f, int line_now) {
  if (capped_) return -1;
  if (options_.max_findings > 0 && findings_ >= options_.max_findings) {
    // One finding more says why the report ends; the replay stops.
    capped_ = true;
    stopped_ = true;
    Finding cap{line_now,
                CheckId::kLogIncomplete,
                "more than " + std::to_string(options_.max_findings) +
                    " findings in this file: the replay stops here and the rest of the file is "
                    "not checked",
                {"the limit is " + std::to_string(options_.max_findings) +
                 " findings per file (docs/report-format.md)"}};
    into->push_back(cap);
    for (ReplayObserver* o : observers_) o->OnFinding(into->back());
    return -1;
  }
  ++findings_;
  into->push_back(std::move(f));
  for (ReplayObserver* o : observers_) o->OnFinding(into->back());
  return int(into->size()) - 1;
}

bool ResolveClassicOnly(const std::string& name, const std::string&, RulesetChoice* out,
                        std::string* error) {
  if (!name.empty() && name != "classic") {
    *error = "unknown ruleset \"" + name + "\"";
    return false;
  }
  out->name = "classic";
  out->rules = Rules{};
  out->hooks = std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {});
  return true;
}

FileReport ReplayDriver::Run(std::istream& in, const std::string& file) {
  stopped_ = capped_ = false;
  findings_ = 0;
  FileReport report;
  report.file = file;
  LogReader reader(in);
  std::vector<InputProblem> problems;
  Event e;
  std::unique_ptr<GameReplay> replay;
  GameReport* game = nullptr;
  bool first = true;
  bool skipping = false;  // the current game cannot be replayed
  int last_line = 0;

  // The reader's problems: those of lines before `next_line` belong to lines
  // that yielded no event; those of `next_line` to the event read.
  auto flush_problems = [&](int next_line) {
    int root_of_line = -1, last_unread = 0;
    for (InputProblem& p : problems) {
      const int at = p.line;
      const bool unread = at < next_line && LosesState(p);
      const int index = Add(game ? &game->findings : &report.findings,
                            Finding{p.line, p.id, std::move(p.message), {}}, p.line);
      if (at == next_line && root_of_line < 0) root_of_line = index;
      if (unread && replay && at != last_unread) replay->OnUnreadLine(at, index);
      if (unread) last_unread = at;
    }
    problems.clear();
    if (replay) replay->SetRootOfLine(root_of_line);
  };
  double hook_seconds = 0;         // the file's games together (kFileHookSeconds)
  bool ruleset_defaulted = false;  // the game's header named no ruleset
  auto finish_game = [&](bool finish) {
    if (replay && finish) replay->Finish(last_line);
    if (replay) hook_seconds += replay->HookSeconds();
    replay.reset();
    if (game) {
      std::stable_sort(game->findings.begin(), game->findings.end(),
                       [](const Finding& a, const Finding& b) { return a.line < b.line; });
      // A header without a ruleset is read as classic's: said where it may
      // explain what was found.
      if (ruleset_defaulted && !game->findings.empty())
        game->findings.front().notes.push_back(
            "the header names no ruleset: the game was audited under \"" + game->ruleset +
            "\" (name the ruleset in the header, or choose it with --rules)");
    }
    game = nullptr;
  };

  while (!stopped_) {
    const bool got = reader.Next(&e, &problems);
    if (first && (got || !problems.empty())) {
      // A file whose first record is not a canasta-log/1 header gets one
      // clear error, not a cascade.
      first = false;
      if (!got || e.type != EventType::kGame || !e.ok || e.format != kFormat) {
        std::string why =
            !problems.empty() ? problems.front().message
            : !got            ? "no records"
            : e.type != EventType::kGame
                ? std::string("the first record is a \"") + EventTypeName(e.type) +
                      "\" event, not a \"game\" header"
                : "the header's format is \"" + e.format + "\", not \"" + kFormat + "\"";
        Add(&report.findings,
            Finding{
                problems.empty() ? (got ? e.line : 1) : problems.front().line,
                CheckId::kLogNotCanastaLog,
                "this file is not a canasta-log/1 log: " + why,
                {"the first line must be {\"type\":\"game\",\"format\":\"canasta-log/1\",...}"}},
            1);
        return report;
      }
    }
    if (!got) break;
    if (!problems.empty()) {
      flush_problems(e.line);
    } else if (replay) {
      replay->SetRootOfLine(-1);  // the usual line: no problem to report
    }
    last_line = e.line;
    if (e.type == EventType::kGame) {
      finish_game(true);
      ruleset_defaulted = false;
      report.games.emplace_back();
      game = &report.games.back();
      game->file = file;
      game->line = e.line;
      game->players = e.players;
      game->events = 1;
      skipping = true;
      if (!e.ok) {
        for (ReplayObserver* o : observers_) o->OnGameStart(*game, nullptr);
        continue;
      }
      if (e.format != kFormat) {
        Add(&game->findings,
            Finding{
                e.line,
                CheckId::kLogBadEvent,
                "the header's format is \"" + e.format + "\", not \"" + std::string(kFormat) + "\"",
                {}},
            e.line);
      }
      const std::string wanted = !options_.forced_ruleset.empty() ? options_.forced_ruleset
                                 : e.ruleset.empty()              ? "classic"
                                                                  : e.ruleset;
      ruleset_defaulted = options_.forced_ruleset.empty() && e.ruleset.empty();
      RulesetChoice choice;
      std::string error;
      const RulesetResolver& resolve =
          options_.resolve ? options_.resolve : RulesetResolver(ResolveClassicOnly);
      if (!resolve(wanted, file, &choice, &error)) {
        Add(&game->findings,
            Finding{e.line,
                    CheckId::kLogUnknownRuleset,
                    "cannot use ruleset \"" + wanted + "\": " + error,
                    {"the game is not replayed"}},
            e.line);
        for (ReplayObserver* o : observers_) o->OnGameStart(*game, nullptr);
        continue;
      }
      game->ruleset = choice.name;
      game->checks = choice.checks;
      if (int(e.players.size()) != choice.rules.num_players) {
        Add(&game->findings,
            Finding{e.line,
                    CheckId::kLogPlayers,
                    "the game has " + std::to_string(e.players.size()) + " players; ruleset \"" +
                        choice.name + "\" is for " + std::to_string(choice.rules.num_players),
                    {"the game is not replayed: choose the ruleset with --rules or the header's "
                     "\"ruleset\""}},
            e.line);
        for (ReplayObserver* o : observers_) o->OnGameStart(*game, nullptr);
        continue;
      }
      skipping = false;
      for (ReplayObserver* o : observers_) o->OnGameStart(*game, &choice);
      replay = std::make_unique<GameReplay>(this, game, std::move(choice));
      if (hook_seconds >= options_.file_hook_seconds) {
        char spent[32];
        std::snprintf(spent, sizeof spent, "%.3g", hook_seconds);
        replay->StopHooks(std::string("this file's earlier games ran the ruleset's hooks for ") +
                          spent + " s, the limit for a file: no hook is called in this game");
      }
      replay->ReportLoadFailures(e.line);
      continue;
    }
    if (!game) continue;  // unreachable: the first record is a header
    if (skipping || !replay) {
      ++game->events;
      continue;
    }
    replay->OnEvent(e);
  }
  if (stopped_ && !capped_) {
    finish_game(false);  // an observer had what it wanted
    return report;
  }
  flush_problems(reader.line() + 1);
  finish_game(true);
  return report;
}

GameFeed::GameFeed(RulesetChoice choice, std::vector<std::string> players, AuditOptions options)
    : driver_(std::move(options)) {
  report_.ruleset = choice.name;
  report_.checks = choice.checks;
  report_.players = std::move(players);
  report_.line = 1;
  replay_ = std::make_unique<ReplayDriver::GameReplay>(&driver_, &report_, std::move(choice));
}

GameFeed::~GameFeed() = default;

size_t GameFeed::Feed(int line, std::vector<InputProblem> problems, const Event* event) {
  const size_t before = report_.findings.size();
  if (driver_.stopped_) return before;  // the cap was reached
  // As Run()'s flush_problems: a line that yielded no event loses the
  // state at its first problem that does; an event's own problems are the
  // root of its line.
  int root = -1;
  bool unread_reported = false;
  for (InputProblem& p : problems) {
    const bool loses = LosesState(p);
    const int index =
        driver_.Add(&report_.findings, Finding{line, p.id, std::move(p.message), {}}, line);
    if (event && root < 0) root = index;
    if (!event && loses && !unread_reported) {
      replay_->OnUnreadLine(line, index);
      unread_reported = true;
    }
  }
  replay_->SetRootOfLine(root);
  if (event && !driver_.stopped_) replay_->OnEvent(*event);
  return before;
}

const RulesetChoice& GameFeed::ruleset() const { return replay_->choice(); }
const Game& GameFeed::game() const { return replay_->game(); }
bool GameFeed::in_hand() const { return replay_->in_hand(); }
int GameFeed::hand_number() const { return replay_->hand_number(); }
std::vector<int> GameFeed::totals() const { return replay_->totals(); }

}  // namespace canasta
