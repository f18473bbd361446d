// The replay of one game, ReplayDriver::GameReplay: its state and the
// functions that read the log's events into it. Shared by the files that
// implement it, each one part of the replay (docs/design.md, "The replay"):
//   driver.cc             the replay loop: events in, moves played, findings out
//   replay_hands.cc       deals, the ends of hands and games, scores and totals
//   recovery_order.cc     lines written out of place, twice, or for another seat
//   recovery_left_out.cc  lines left out of the log, shown by the lines after
// Not part of the library's interface.
#ifndef CANASTA_REPLAY_DRIVER_INTERNAL_H_
#define CANASTA_REPLAY_DRIVER_INTERNAL_H_

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

#include "core/game.h"
#include "replay/driver.h"
#include "replay/log_reader.h"
#include "replay/moves.h"
#include "replay/sheet.h"

namespace canasta {
namespace replay_internal {

// Recorded numbers are untrusted: sums of them are made in 64 bits and
// brought back into range.
inline int Clamp(int64_t v) {
  return int(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, v)));
}

}  // namespace replay_internal

// Replays one game's events. Owns the game's ruleset and engine state.
class ReplayDriver::GameReplay {
 public:
  GameReplay(ReplayDriver* driver, GameReport* report, RulesetChoice choice)
      : driver_(driver),
        report_(report),
        choice_(std::move(choice)),
        game_(choice_.rules, *choice_.hooks),
        offset_(choice_.rules.num_sides(), 0),
        native_hooks_(choice_.hooks->OverriddenHooks().empty() && !choice_.hooks->HasFailures()) {
    // Room for a usual game's hands: not moved again and again as it grows.
    report_->hands.reserve(8);
  }

  // A ruleset whose files failed when its hooks were made (each game makes
  // its own): reported at the game's header, where no hook of it is used.
  void ReportLoadFailures(int line) { ReportHookFailures(line); }
  // The ruleset's hooks: the seconds their code ran in this game, and
  // stopping them for a game of a file whose games together ran them for
  // kFileHookSeconds.
  double HookSeconds() const { return choice_.hooks->SecondsSpent(); }
  void StopHooks(const std::string& why) { choice_.hooks->StopCalling(why); }

  // Kept out of line: the replay's profiles (docs/performance.md) count
  // from this frame.
  [[gnu::noinline]] void OnEvent(const Event& e);

 private:
  [[gnu::noinline]] void OnOtherEvent(const Event& e);

  // Nothing happens at the table: the event is left out of the replay.
  [[gnu::noinline]] void SpecialHandNotAllowed(const Event& e) {
    Add(e.line, CheckId::kSpecialHandNotAllowed, "this ruleset has no special hands",
        {"rule: 001 L65 (modern-american only)"});
  }

 public:
  // A line that yielded no event (bad JSON, not an object, no "type"); its
  // finding, already added, is `root`.
  void OnUnreadLine(int line, int root);

  // The log ended (or the next game began) after `last_line`.
  void Finish(int last_line);

 private:
  template <typename F>
  void Notify(F f) {
    for (ReplayObserver* o : driver_->observers_) f(o);
  }

  int Add(int line, CheckId id, std::string message, std::vector<std::string> notes) {
    return driver_->Add(&report_->findings, Finding{line, id, std::move(message), std::move(notes)},
                        line);
  }
  void AddNote(int index, std::string note) {
    if (index >= 0 && index < int(report_->findings.size()))
      report_->findings[size_t(index)].notes.push_back(std::move(note));
  }

  std::string SeatName(int seat) const {
    if (seat >= 0 && seat < int(report_->players.size()))
      return "seat " + std::to_string(seat) + " (" + report_->players[size_t(seat)] + ")";
    return "seat " + std::to_string(seat);
  }
  std::string SideName(int s) const;

  // --- The game's totals, with the recorded scores of hands the replay
  // could not compute (offset_) ---

  std::vector<int> Totals() const {
    std::vector<int> t;
    TotalsInto(&t);
    return t;
  }
  // The same into *t, which keeps its storage.
  void TotalsInto(std::vector<int>* t) const {
    const std::vector<int>& engine = game_.totals();
    t->resize(engine.size());  // a side or two: no call to copy them
    for (size_t s = 0; s < engine.size(); ++s)
      (*t)[s] = s < offset_.size() ? replay_internal::Clamp(engine[s] + offset_[s]) : engine[s];
  }
  // Whether every total, recorded scores taken as true included, fits the
  // int the audit counts in (a hostile log can pass it: 1e9 a hand).
  bool TotalsInRange() const {
    const std::vector<int>& engine = game_.totals();
    for (size_t s = 0; s < engine.size(); ++s) {
      const int64_t t = int64_t{engine[s]} + (s < offset_.size() ? offset_[s] : 0);
      if (engine[s] == INT32_MAX || engine[s] == INT32_MIN || t >= INT32_MAX || t <= INT32_MIN)
        return false;
    }
    return true;
  }
  // Once a game: its totals are past the range, so no later total, score
  // sheet sum or winner is compared (a wrong "should be" is never printed).
  [[gnu::noinline]] void TotalsOutOfRange(int line);
  bool Adjusted() const {
    return lost_hands_ > 0 || sheet_hands_ > 0 ||
           std::any_of(offset_.begin(), offset_.end(), [](int64_t v) { return v != 0; });
  }
  // The game's end and winner (DecideGame) on the adjusted totals.
  GameOutcome Outcome() const {
    if (!Adjusted()) return game_.outcome();
    return DecideGame(choice_.rules, *choice_.hooks, Totals(),
                      game_.deals_played() + lost_hands_ + sheet_hands_, game_.canastas());
  }
  bool TiedAtTarget() const { return Outcome().tied; }
  bool Over() const { return Outcome().over; }
  std::optional<int> Winner() const { return Outcome().winner; }

  // --- Where the game stood when a move was made, kept as plain values
  // (cheap to take before every move) and worded only for a finding ---

  struct Where {
    int player = -1;
    int current = -1;
    bool before_play = false;
    int pile_size = 0;
    Card top;
  };
  Where At(int player) const;
  // The same for the position of a move about to be played, each field
  // stored once (taken before every move).
  static Where AtMove(const Position& p, int player) {
    const int pile_size = int(p.pile().size());
    return Where{player, p.current_player(), p.phase() == Phase::kBeforePlay, pile_size,
                 pile_size ? p.pile().back() : Card()};
  }
  std::string Context(const Where& w) const;
  void AddViolations(const TaggedViolations& vs, int line, const Where& w,
                     std::vector<int>* indices = nullptr) {
    if (!vs.empty()) AddViolations(vs, line, Context(w), indices);
  }
  void AddViolations(const TaggedViolations& vs, int line, const std::string& ctx,
                     std::vector<int>* indices = nullptr);

  // A ruleset hook that failed during the last event: the engine used its
  // default answer; the user must know, with the ruleset's line.
  void ReportHookFailures(int line) {
    if (native_hooks_ || !choice_.hooks->HasFailures()) return;  // the usual move
    ReportHookFailuresNow(line);
  }
  [[gnu::noinline]] void ReportHookFailuresNow(int line);

  // A card drawn against the recorded stock is in the hand once more than
  // the stock knows: when the stock's own copy is drawn later, "too many
  // copies" is the same slip, a note on the first finding, not a new error.
  [[gnu::noinline]] void FollowStockSlips(const Event& e, TaggedViolations* found,
                                          const Where& where);

  // R137, per side, for the hand being played: the meld-target-missing
  // finding of a meld line left out, and the ranks its move added to.
  struct LeftOutMeld {
    int root = -1;
    int opening_short = -1;  // the side's initial meld judged short (or not met)
    int meld_finding = -1;   // the side's first IsMeldFinding finding of the hand
    std::vector<std::string> ranks;
    // The ranks `e` adds to (a take's `to`, each meld part's).
    void AddRanksOf(const Event& e) {
      if (e.to) ranks.push_back(*e.to);
      for (const MeldSpec& part : e.melds)
        if (part.to) ranks.push_back(*part.to);
    }
  };
  // A move's findings reported (the usual move has none), with what the
  // meld line left out of readings R137 makes of them.
  [[gnu::noinline]] void ReportMoveFindings(const Event& e, const Position& pos,
                                            TaggedViolations* found, const Where& where,
                                            size_t findings_before);

  // R149: one initial meld judged short of the minimum and lacking what it
  // must include is one finding, the minimum's; the condition is its note.
  static void FoldOpeningCondition(TaggedViolations* found);
  // The move's findings `id`, taken out of `found` and made notes of the
  // earlier finding `root`: the line, the message and `why`.
  void FoldInto(int root, CheckId id, int line, const std::string& why, TaggedViolations* found);
  // The one rank a move adds to by name (a meld of one part, or a take of
  // the pile, `to` a rank); none for any other move (R145).
  static std::optional<Rank> SoleTarget(const Event& e);
  // R137: the side adds to a meld it does not have (meld-target-missing):
  // a meld line was left out of the log. What follows from the side's melds
  // being short of it is that finding's consequence, a note on it: the
  // initial meld judged on what is left, a shape finding of the meld added
  // to again, and going out without the canastas it would have made.
  // Whether this move's finding is the root of a meld left out (its note is
  // added by the caller, which knows its index).
  bool FoldLeftOutMeld(const Event& e, const Position& pos, int side, LeftOutMeld& left,
                       TaggedViolations* found, TaggedViolations* folded);
  // Whether `seat` holds the cards of a meld of a rank among `ranks` (the
  // `to` of the lines that showed a meld left out; R137): the cards that
  // meld would have laid.
  bool HoldsLeftOutRank(const Position& pos, int seat, const std::vector<std::string>& ranks) const;
  // R137: a discard-wild finding of `found` whose seat holds only natural
  // cards of the meld a meld-too-many-wilds finding of the side found short
  // this hand, or only cards that make melds of their own after the side's
  // initial meld was judged short: a note of that finding.
  [[gnu::noinline]] void WildDiscardOfLeftOutMeld(const Position& pos, int player, int side,
                                                  const LeftOutMeld& left, int line,
                                                  TaggedViolations* found);
  // R128: a discard-wild finding of `found` whose seat holds, of natural
  // cards, only the extra cards of its turn's over-draw (over_draw_): a
  // note of the draw's finding.
  [[gnu::noinline]] void WildDiscardOfOverDraw(const Position& pos, int player, int line,
                                               TaggedViolations* found);
  // R137: a meld-black-three finding of `found` (a turn that did not go
  // out) whose seat holds only cards in a meld's worth of their rank, after
  // the side's initial meld was judged short: a note of that finding.
  [[gnu::noinline]] void BlackThreesOfShortOpening(const Position& pos, int player,
                                                   const LeftOutMeld& left, int line,
                                                   TaggedViolations* found);
  // Whether the cards `seat` holds can all be melded (R137): its naturals
  // added to the side's meld of their rank or grouped by rank into new
  // ones, its wild cards added where a meld may take them, each meld's
  // shape legal (CheckMeldShape).
  bool HeldMakeMelds(const Position& pos, int seat) const;
  // Whether every natural card `seat` holds is of a rank among `ranks`.
  bool NaturalsAllOf(const Position& pos, int seat, const std::vector<std::string>& ranks) const;
  // Whether `seat` holds the cards of a meld of `rank` (R137): min_naturals
  // naturals of it, or for a meld of wild cards, where the ruleset allows
  // them, as many wild cards as a meld takes (min_meld_size).
  bool HoldsMeldOf(const Position& pos, int seat, Rank rank) const;
  // R137: a finding that the side adds to a meld it lacks: meld-target-
  // missing, or a take of the pile onto a meld of a rank the side has none
  // of (pile-take-invalid; after the move the side has none of that rank
  // but the top card the take laid alone).
  bool TargetMissing(const Event& e, const Position& pos, int side, CheckId id) const;
  // Whether a seat of the side holds the cards of a meld, of a rank the
  // move adds to, that a line left out would have laid (HoldsMeldOf): they
  // are still in the side's hands as replayed. Without them, `to` is a
  // wrong reference, not a line left out.
  bool LeftOutMeldHeld(const Event& e, const Position& pos, int side) const;
  // The findings about a side's melds that a meld line left out may cause
  // (R137): the first of them in a hand is where a score that shows one
  // left out is reported (CloseHand).
  static bool IsMeldFinding(CheckId id);

  // --- Error recovery ---

  static bool IsAlreadyOver(const TaggedViolations& found) {
    for (const TaggedViolation& v : found)
      if (v.violation.id == CheckId::kTurnSequence) return true;
    return false;
  }

  // The replay cannot know the hand's state after `line`: everything up to
  // the next deal or end_hand is skipped. `root` is the root cause's finding.
  void LoseState(int line, int root, bool lost_deal);
  // The hand is over, yet the log goes on: the state is known (nothing after
  // the end changes it), so end_hand is still checked.
  void SkipAfterEnd(int root) {
    skip_ = Skip();
    skip_.active = true;
    skip_.root = root;
  }
  void Skipped(int line) {
    skip_.unread_last = false;
    if (!skip_.count) skip_.first = line;
    skip_.last = line;
    ++skip_.count;
  }
  // Ends a skip at a deal, end_hand, end_game, header or the end of the log.
  void EndSkip();

  void OnBadEvent(const Event& e);

  // A lost deal whose hand the log went on to play: a hand to close.
  bool LostHandOpen() const {
    return skip_.active && skip_.lost_deal && (skip_.deal_seen || (skip_.unread && skip_.count));
  }

  // Closes the hand the log leaves open before a deal, end_game or the end
  // of the log; `incomplete()` words it, unless a line that did not parse
  // may have been the missing end_hand (that finding says enough). Worded
  // only then: every deal closes the hand before it.
  template <class F>
  void CloseOpen(int line, F incomplete) {
    if (in_hand_) {
      if (!(skip_.active && skip_.unread_last))
        Add(line, CheckId::kLogIncomplete, incomplete(), {});
      EndSkip();
      CloseHand(false, nullptr);
    } else if (LostHandOpen()) {
      EndSkip();
      CloseHand(false, nullptr);
    }
    EndSkip();
  }

  void OnDeal(const Event& e);

  [[gnu::noinline]] bool SameDealAgain(const Event& e) const {
    return *e.dealer == last_dealer_ && e.hands == deal_.hands && e.upcard == deal_.upcards &&
           e.stock == deal_.stock &&
           (e.feet ? *e.feet : std::vector<std::vector<Card>>()) == deal_.feet;
  }
  [[gnu::noinline]] void DealWrittenTwice(const Event& e) {
    Add(e.line, CheckId::kLogOutOfPlace,
        "hand " + std::to_string(hand_number_) + " was dealt at line " +
            std::to_string(hand_line_) + ", and the same deal is written again before any move",
        {"event ignored"});
  }

  [[gnu::noinline]] void DealFindings(const Event& e, TaggedViolations& vs);

  // OnDeal's findings after a lost deal or hands recorded by their scores:
  // the engine's own judgement of the number, dealer and game end is
  // replaced where it missed those hands.
  [[gnu::noinline]] void JudgeDealAfterGap(const Event& e, bool after_lost_deal, bool after_sheet,
                                           bool was_adjusted, bool over_before, int previous_hand,
                                           int last_dealer, int last_dealer_hand,
                                           TaggedViolations* found);

  [[gnu::noinline]] void MoveOutsideHand(const Event& e);
  // R135: the end_hand kept while the hand was not over is played now.
  [[gnu::noinline]] void FlushEndHand();
  // R135: whether `e` is the discard of the last card of the seat in turn,
  // its discard after the stock's last card was drawn, after which the
  // hand may end (000 §15), or its legal meld that goes out; the end_hand
  // kept waits for it then.
  bool LastMoveAfterEnd(const Event& e, const Position& pos) const;
  // Play ended with the stock's last card, a red three, drawn by the last
  // move, and its seat still holds it (000 §15): its `three` line may come
  // after the end_hand.
  bool LastStockThreeHeld(const Position& pos) const;
  // R135: the hand's last move came after its end_hand: the two lines are
  // written in the wrong order; the move was played, then the end.
  [[gnu::noinline]] void EndHandAfterLastMove(const Event& last);
  // R134: whether `move`, a draw or a red three, can be one of the first
  // moves of `deal`'s hand: the cards it takes are in a run among the
  // recorded stock's first cards (red threes laid out first take some), and
  // a three is one its seat was dealt.
  static bool OpensTheDeal(const Event& move, const Event& deal);
  // R134: the move kept by MoveOutsideHand was not followed by a deal: it
  // stays ignored, and the hand's state is lost from it, as for any move
  // outside a hand.
  [[gnu::noinline]] void SettleEarlyMove() {
    const int line = early_move_->line;
    early_move_.reset();
    LoseState(line, early_root_, /*lost_deal=*/true);
  }
  // R134: the deal came next, and was played: the two lines were written in
  // the wrong order. The move is replayed in the hand, and its finding says so.
  [[gnu::noinline]] void EarlyMoveAfterDeal(int deal_line);
  [[gnu::noinline]] void MoveOfNoSeat(const Event& e, int player);
  [[gnu::noinline]] void MoveWithNoCard(const Event& e, int player) {
    const int root =
        Add(e.line, CheckId::kCardNotHeld, SeatName(player) + " has no card left, yet plays one",
            {Context(At(player)), "event ignored"});
    LoseState(e.line, root, false);
  }
  // The cards a move plays from its player's hand or foot: none for a draw, a
  // retract, an ask or an answer.
  static void CardsFromHand(const Event& e, std::vector<Card>* out);
  // R118: a move out of turn is the seat in turn's, its number written
  // wrong, when the move shows it. Returns why (for the finding's note), or
  // "" when it does not: then the move stays the named seat's.
  [[gnu::noinline]] std::string SeatMisnamed(const Event& e, const Position& pos, int player);
  // One `turn-order` finding, then the move replayed as the seat in turn's:
  // the cards it plays leave the hand that holds them, and nothing later in
  // the hand follows from the slip.
  [[gnu::noinline]] void MoveReseated(const Event& e, const Position& pos, int player,
                                      const std::string& why);
  // R132: the seat whose discard was the last move melds next, before the
  // next seat's draw: the meld came before that discard and is written
  // after it. One `turn-sequence` finding; the meld is laid as part of the
  // turn just ended, and the next seat's turn goes on. Not when the side
  // has not opened or the meld would empty the hand
  // (Position::MayMeldAfterTurn): the meld is then played as written.
  [[gnu::noinline]] bool MeldAfterOwnDiscard(const Event& e, Position& pos, int player);
  // The seat a dealt red three or a bonus draw belongs to, when the named
  // seat is not it (R118): the move is one finding and replayed as that
  // seat's. False when no single seat is it.
  [[gnu::noinline]] bool OwnerReseated(const Event& e, const Position& pos, int player);
  bool ThreeReseated(const Event& e, const Position& pos, int player, int owner,
                     const std::string& why);
  bool Reseated(const Event& e, const Position& pos, int player, int owner, CheckId id,
                const std::string& message, const std::string& why);
  // R118: a three laid out by a seat that does not hold it, while two other
  // seats do. When the next line is one of them laying out the same card,
  // the three was the other's. Otherwise it is judged as written.
  [[gnu::noinline]] bool SettleThreeOfTwoHolders(const Event* next, Position* pos);
  // R119. A draw by the seat that has drawn this turn, of the very cards
  // its last draw took: the line written twice, one finding, not replayed.
  // Bonus cards drawn when none are due, by the seat in turn before its
  // draw: the turn's draw with a stray flag, one finding, replayed as the
  // draw. True when the event was handled here.
  // R119: a move line written twice is one finding, the copy not replayed.
  bool WrittenAgain(const Event& e, const Position& pos, int player, int first_line, CheckId id,
                    const std::string& message, const char* what, const std::string& rule);
  // R119 for a discard and a red three: the same move as the seat's last
  // (the discard that ended its turn; the three it laid out just before),
  // once it could not be made again (the turn has passed; the card is gone;
  // for a seat that holds a second copy of the three, its replacement is
  // not the stock's next card).
  [[gnu::noinline]] bool MoveWrittenAgain(const Event& e, const Position& pos, int player);
  // R119 for a take of the pile: the seat's last move, the same take again,
  // once its turn has taken the pile (or drawn).
  [[gnu::noinline]] bool TakeWrittenAgain(const Event& e, const Position& pos, int player);
  // R119 for a meld: the seat's last move, the same parts again, of cards it
  // no longer holds all of.
  [[gnu::noinline]] bool MeldWrittenAgain(const Event& e, const Position& pos, int player);
  // R119: a copy of the seat's last meld that was legal, so replayed, and
  // the seat's next line plays cards it lacks that it held before the copy:
  // the copy took them, and was the line written twice. The position before
  // the copy comes back, one finding at the copy's line, and the line is
  // played on it.
  [[gnu::noinline]] bool HeldCopyTookCards(const Event& e, int player);
  [[gnu::noinline]] bool DrawMisrecorded(const Event& e, const Position& pos, int player);
  // R128: a turn's draw of more cards than a turn draws, each from the
  // stock: the cards beyond the due are kept, with the draw's finding, for
  // the next take from the stock to tell whether they were drawn.
  void NoteOverDraw(const Event& e, size_t findings_from);
  // R130: the next seat's draw ended a turn that did not discard
  // (discard-missing): the card discarded is not known yet. It went to the
  // pile; the seat that next takes the pile and then plays a card it lacks,
  // which the seat without a discard holds, shows it.
  void NoteMissingDiscard(const Event& e, size_t findings_from) {
    const int n = choice_.rules.num_players;
    NoteMissingDiscard(e.line, (*e.player + n - 1) % n, findings_from);
  }
  // The same for the discard-missing finding at `line` of `seat`'s turn.
  void NoteMissingDiscard(int line, int seat, size_t findings_from);
  [[gnu::noinline]] void DiscardShown(const Event& e, Position* pos);
  // The first card a move takes from the stock: a draw's (a bonus draw's
  // too, if `bonus`), or a three's replacement.
  static std::optional<Card> StockCardTaken(const Event& e, bool bonus) {
    if (e.type == EventType::kDraw && !e.cards.empty() && (bonus || !e.bonus)) return e.cards[0];
    if (e.type == EventType::kThree && e.replacement) return *e.replacement;
    return std::nullopt;
  }
  // R121: a turn that only discarded, whose next event took nothing from
  // the stock: the next card taken from it, a whole draw on, shows the
  // turn's draw left out. The stock's next cards go to that seat's
  // hand (Position::GiveFromStock), a note on the turn's finding.
  [[gnu::noinline]] void UndrawnTurnShown(const Event& e, Position* pos);
  // R121: such a turn, when no card is taken from the stock before the
  // hand's end: the record of the hand, `end`, shows the draw when its
  // score for the seat's side is the replay's with the stock's next cards
  // in that seat's hand. They go there before the hand is scored, a note on
  // the turn's finding.
  [[gnu::noinline]] void UndrawnTurnScored(const Event& end);
  // R151: red threes still held when play ends, after the seat's
  // three-timing finding of this hand, whose end_hand scores them laid out:
  // their `three` lines were left out. They are laid out, and the end's
  // red-three-undeclared findings become notes of that finding.
  [[gnu::noinline]] void ThreesShownByScores(const Event& end, TaggedViolations* ended);
  // R137: the end's stock-out-must-take finding, for a top card of a rank a
  // meld line left out named, whose cards a seat of the side still holds as
  // replayed: that line may have made the meld a canasta, which the pile
  // need not join (R12). A note of the side's root finding. With no such
  // finding, the same end whose record shows the side's meld line left out
  // (MeldedMoreAsRecorded), a seat of it holding a card of the top's rank:
  // the finding is held for the hand's score finding of the side
  // (ScoreShownMustTake).
  [[gnu::noinline]] void MustTakeOfLeftOutMeld(const Event& end, TaggedViolations* ended);
  [[gnu::noinline]] bool RecordMeldsTheRankHeld(const Event& end, int side, Rank rank) const;
  // After the hand's scores were compared: the must-take held above is a
  // note of the side's score finding, or, with none, reported as found.
  [[gnu::noinline]] void ScoreShownMustTake(const Event& end);
  // R128: the next card taken from the stock, by a draw or a three's
  // replacement, is the first card the over-long draw took beyond its due,
  // and not the stock's next: those cards were written in the draw by
  // mistake, and go back to the stock before this move. Any other take
  // from the stock: they were drawn.
  [[gnu::noinline]] void OverDrawShown(const Event& e, Position* pos);
  // True when the move was handled here (a three's line written late).
  [[gnu::noinline]] bool RarePending(const Event& e, Position* pos);
  // R127: one card of the deal was written as another. The move of one of
  // the seats that may hold the missing card shows whose it is: it plays
  // the missing card, which it holds only as the card written, or ends its
  // turn still holding the card written, a three it would have laid out.
  [[gnu::noinline]] void SwapShown(const Event& e, Position* pos);
  // Keeps the move for the next event, which settles it (SettleDeferredMove).
  bool Defer(const Event& e) {
    deferred_move_ = e;
    move_deferred_ = true;
    UpdateRare();
    return true;
  }
  void UpdateRare() {
    rare_pending_ = opener_kept_ || pending_end_game_.has_value() || move_deferred_ ||
                    deferred_end_.has_value() || !late_threes_.empty() || late_move_.has_value() ||
                    swap_finding_ >= 0 || over_draw_.has_value() || missing_discard_.has_value() ||
                    undrawn_turn_.has_value() || held_take_.has_value() || held_copy_.has_value();
  }
  // True when the move was handled here (replayed as another seat's, or
  // not replayed).
  [[gnu::noinline]] bool UnusualMove(const Event& e, Position& pos, int player);
  // R123: `three` lines left out of the log. A seat that holds threes to
  // lay out (red ones, and black ones where they are laid out too) and
  // takes a card from further on in the recorded stock (a turn's draw, a
  // three's replacement), or plays the stock's next cards it lacks, laid the
  // threes out, each replaced by the stock's next card. They are laid out
  // here, when each is legal now; one finding says so and the move is then
  // played as usual.
  std::vector<Card> ThreesToLayOut(const Position& pos, int player, std::optional<Card> but);
  // Lays out the first `n` of `threes` with the stock's next cards; false
  // (and `pos` untouched) when one of them is not legal now.
  // With `kept`, the threes were kept past the seat's own turn (its
  // three-timing finding of this hand): they are laid out as of that turn,
  // whoever is in turn now.
  bool LayOutLeftOut(Position* pos, int player, const std::vector<Card>& threes, int n, int line,
                     std::string* which, bool apply = true, bool kept = false);
  // R121: a draw or take made up before a meld, whose line may yet come
  // later in the turn (written out of order): it is then not replayed.
  void ExpectLate(EventType type, int player, std::vector<Card> cards, int finding,
                  const TakePileMove* take = nullptr) {
    late_move_ = LateMove{type, player, std::move(cards), finding};
    if (take) {
      late_move_->with = take->with;
      late_move_->rank = take->top.rank();
    }
    UpdateRare();
  }
  bool LateMoveCame(const Event& e);
  // R121: a meld later in the turn of a take made up with cards shown
  // (`with`) plays one of them, a card the seat now lacks: the take showed
  // another card of the same kind the seat still holds, and the two change
  // places (Position::SwapLaidCard), a note on the take's finding.
  [[gnu::noinline]] void TakeCardShown(const Event& e, Position* pos);
  // A `three` line that comes after R123 laid its three out, with the same
  // card and replacement: written late, not replayed (a note on the
  // inference's finding). Any other move ends the wait.
  bool LateThree(const Event& e);
  static std::string ThreesText(const std::vector<Card>& threes) {
    return threes.size() > 1          ? std::to_string(threes.size()) + " threes"
           : threes[0].is_red_three() ? std::string("a red three")
                                      : std::string("a black three");
  }
  // The index of the game's last finding with `id` (-1: none): the finding a
  // later inference adds its note to.
  int LastFinding(CheckId id) const {
    for (int i = int(report_->findings.size()) - 1; i >= 0; --i)
      if (report_->findings[size_t(i)].id == id) return i;
    return -1;
  }
  std::string LeftOutNote(int player, const std::vector<Card>& threes, int n,
                          const std::string& which) {
    return SeatName(player) + " holds " + ThreesText(threes) +
           " to lay out: " + (n == 1 ? "a `three` line" : "`three` lines") +
           " left out before this line; laid out here: " + which + " (readings R123)";
  }
  // A turn's draw, or a three's replacement, from further on in the stock.
  // With `apply` false, only whether the threes would be laid out.
  // With `others_only`, the threes are another seat's even where the
  // player holds enough (the player's next line lays its own).
  bool ThreesLeftOut(const Event& e, Position* pos, int player, bool apply = true,
                     bool others_only = false);
  // Lays out the first `skipped` of `owner`'s `threes` with the stock's next
  // cards, before `e` (the move that took a card further on), with R123's
  // one finding on `e`'s line. With `apply` false, only whether it may.
  bool LayOutWithFinding(const Event& e, Position* pos, int player, int owner,
                         const std::vector<Card>& threes, int skipped, bool apply = true);
  // The seats other than `player` that hold a three to lay out.
  std::vector<int> ThreeHolders(const Position& pos, int player) {
    std::vector<int> seats;
    for (int seat = 0; seat < choice_.rules.num_players; ++seat)
      if (seat != player && !ThreesToLayOut(pos, seat, std::nullopt).empty()) seats.push_back(seat);
    return seats;
  }
  // R123 before play, when several seats hold a three that the card skipped
  // may have replaced: the `three` lines that follow tell. Each seat's
  // three is tried, laid out first with the card skipped: where exactly one
  // leaves the kept three and every line after it legal, that three's line
  // was left out (one finding); otherwise the lines are played as written.
  // True when `next` was kept too (a `three` of the block).
  [[gnu::noinline]] bool SettleThreesBlock(const Event* next, Position* pos);
  // Whether `three` of `seat`, laid out with the stock's next card, leaves
  // `first` and every line of `block` legal in turn.
  bool BlockLegalAfter(const Position& pos, int seat, Card three, const Event& first,
                       const std::vector<Event>& block);
  // R123 at a turn's draw, or a three's replacement, is settled by the next
  // event: a `three` of the same seat next (or its draw, after a three)
  // means the lines were written in another order, and the card taken was a
  // wrong one (R117); anything else, that the threes' lines were left out.
  // A discard that keeps threes to lay out is settled by the next seat's
  // draw: a card as many places on in the stock as the threes kept, or
  // fewer, means their lines were left out before the discard.
  // True when it played `next` too (which is then not played again).
  bool SettleDeferredMove(const Event* next);
  // R148: a take kept while bonus cards are due. When the next line is the
  // bonus draw, legal before the take, and the take legal after it, the two
  // lines are written in the wrong order: the draw is played first, one
  // finding on the take's line. Otherwise the take is played as written.
  // True when `next` was played here.
  [[gnu::noinline]] bool SettleTakeBeforeBonus(const Event* next, Position* pos);
  // R131: the first draw from the stock after bonus cards were forfeited by
  // a take, of the card exactly as many cards on as were due, the stock
  // untouched since: the bonus draw was left out before the take. The
  // cards go to the seat they were due to, and the forfeit's finding says so.
  [[gnu::noinline]] bool ForfeitedBonusDrawn(const Event& e, Position* pos);
  // R143: `three`, the line after `kept`, is legal before it, and `kept`
  // is legal after it: the two lines are written in the wrong order. Both
  // are played, the three first, with one finding on `kept`'s line. False
  // (and nothing played) otherwise.
  [[gnu::noinline]] bool ThreeReplayedFirst(const Event& kept, const Event& three, Position* pos);
  // R136: a bonus draw kept in the turn that made the initial meld. When the
  // next event is that seat's discard, and the discard earns exactly these
  // cards (the stock's next), the two lines are written in the wrong order:
  // the discard is played first, then the bonus draw, one finding. Otherwise
  // the draw is played as written. True when `next` was played here.
  [[gnu::noinline]] bool SettleEarlyBonus(const Event* next, Position* pos);
  // R140: a bonus draw in the turn that made the initial meld, followed by
  // the next seat's move: the discard that ended the turn, and earned the
  // bonus, was left out before the draw. When the bonus it would earn is
  // exactly the cards drawn (the stock's next), the turn ends there without
  // a discard, one finding, and the bonus is due as after the discard; the
  // draw is then played as usual (by the caller).
  // A take next whose top card the seat holds names the card: the discard
  // of it is made up there instead (as in R129).
  void DiscardLeftOutBeforeBonus(const Event& bonus, const Event& after, Position* pos);
  // R131: bonus cards due (001 L37) and the next turn's draw a card as many
  // on in the recorded stock: the bonus draw was left out before it. Made
  // up here, one finding. Whether it was.
  bool BonusDrawLeftOut(const Event& e, Position* pos);
  // R121: after a three laid out before the turn's draw, the seat's own
  // draw of other cards than the stock's next: the draw was not left out.
  bool OwnDrawNext(const Event* next, const Event& three, const Position& pos) const {
    return next && next->type == EventType::kDraw && !next->bonus && next->player == three.player &&
           next->cards != pos.StockTop(choice_.rules.stock_draw);
  }
  // R125: a deal kept while the hand in play had no end_hand. When the
  // next event is that hand's end_hand, the two lines are written in the
  // wrong order: the end_hand is played first, then the deal, one finding.
  // Otherwise the deal is played as written (the hand had no end_hand).
  // True when it played `next` too.
  [[gnu::noinline]] bool SettleDeferredDeal(const Event* next);
  // R118: the next seat's draw or take, kept while the turn in play had not
  // ended. When the next event is that turn's discard (for a take, of the
  // top card it names), the two lines are written in the wrong order: the
  // discard is played first, then the draw or take, one finding. Otherwise
  // the move is played as written (the turn ended without a discard).
  bool SettleEarlyOpener(const Event* next, Position* pos);
  // R138: the next seat lays out a red three in the turn in play, and its
  // own move follows (not that turn's discard): the discard that ended the
  // turn was left out before the three. The turn ends there, one finding
  // (discard-missing, as the next seat's draw would give it), and the three
  // is then played at the start of the next seat's turn.
  void DiscardLeftOutBeforeThree(const Event& three, Position* pos);
  // R129: the next seat takes the pile, with a top card the seat in turn
  // holds and the pile has not, before that turn's discard and with no
  // discard after it: the turn's discard of that card was left out. Made
  // up before the take, one finding.
  // True when it was made up.
  bool DiscardLeftOutBeforeTake(const Event& take, Position* pos);
  // The cards a move plays from the hand that `holding` lacks, in order.
  std::vector<Card> Lacking(const Event& e, CardCounts holding);
  // R121: a take of the pile left out of the log, made up in the first of
  // its forms that is legal now: the top card onto the side's meld of its
  // rank, with two naturals of it, or with a natural and a wild card. The
  // take played, or none.
  // At the turn's end (`turn_ends`), a take that leaves the side's opening
  // short of its minimum is not made up: the turn could not end so. With
  // `then`, only a form after which that move (the meld that showed the
  // take) is legal.
  std::optional<TakePileMove> TakeLeftOut(Position* pos, int seat, int line, bool turn_ends,
                                          const Move* then = nullptr);
  static std::string TakeText(const TakePileMove& take, int pile);
  // At the end of a turn that melded before drawing: the next card another
  // seat takes from the stock is the stock's next, so the turn drew none and
  // took the pile. A note on the turn's one finding.
  void TakeLeftOutAtDiscard(Position* pos, int seat, int line, const std::string& by);
  // R121: a `three` line of the seat in turn before its draw, whose
  // replacement is a whole draw on in the stock, and whose three the seat
  // holds or draws there: the turn's draw was left out before it (unless
  // the seat's own draw comes next: OwnDrawNext). Made up here (`apply`),
  // one finding; the three is then played. Whether it is that case.
  bool DrawLeftOutBeforeThree(const Event& e, Position* pos, int player, bool apply);
  // A meld before the turn's draw that plays cards the seat lacks, which the
  // stock's next draw or the pile holds: the draw or the take was left out
  // before it. Made up here, one finding. So is a red three the pile brings
  // (laid out with no replacement) before the take.
  void TakeLeftOutBeforeMeld(const Event& e, Position* pos, int player);
  // R147: the seat's meld right after the discard whose turn end finds the
  // initial meld short. When the meld, then the discard, are legal, the meld
  // was made before the discard and written after it: one finding, and the
  // two are replayed in that order (the side opens, and earns any bonus, at
  // the discard). True when it played `next`. R153: so for any discard
  // refused as written.
  bool OpeningMeldAfterDiscard(const Event& discard, const Event& next, Position* pos);
  // R153: a discard of the seat in turn refused for the other cards held
  // (a wild card, 002 Play-8; the empty pile, 001 L46; black threes melded
  // by a turn that does not go out, 000 §8) is kept for the next line, a
  // meld of the turn written late? True when kept.
  [[gnu::noinline]] bool RefusedDiscardKept(const Event& e, const Position& pos,
                                            const DiscardMove& move) {
    const Rules& rules = choice_.rules;
    if (!(move.card.is_wild() && rules.wild_discard == canasta::WildDiscard::kOnlyIfNoOtherCard) &&
        !(rules.empty_pile_discard_restricted && pos.pile().empty()) &&
        !pos.turn_melded_black_threes())
      return false;
    if (pos.Check(Move(move)).empty()) return false;
    return Defer(e);
  }
  bool SettleDeferredDiscard(const Event* next, Position* pos);
  // R121: whether `taken`, the first card `next` takes from the stock, comes
  // a whole draw on. A draw's cards all in a run there say so even where a
  // copy of its first card was taken just before (the nearest place of that
  // card, StockCardsBefore, is then behind).
  bool AWholeDrawOn(const Position& pos, const Event& next, Card taken) const;
  // R121: the turn's draw of the stock's next cards, left out before a
  // discard of one of them: made up there, one finding.
  [[gnu::noinline]] void DrawShownByDiscard(Position* pos, int seat, const Event& discard);
  [[gnu::noinline]] void DrawShownByLateDiscard(Position* pos, int seat, const Event& discard);
  // R121: a turn that melded before drawing, whose discard plays a card it
  // lacks from the pile: the take left out, made up there in a form after
  // which the discard is legal.
  [[gnu::noinline]] void TakeShownByLateDiscard(Position* pos, int seat, const Event& discard);
  // R121: a turn's draw left out, made up at `draw.tag`'s line (before the
  // move there), and its one `turn-sequence` finding, which says what
  // showed it; the finding's index.
  int DrawMadeUp(Position* pos, const DrawMove& draw, const std::string& shown_by);
  // A meld or discard, after the turn's draw, of cards the seat lacks that
  // are the stock's next.
  void ThreesLeftOutBeforePlay(const Event& e, Position* pos, int player);
  // R118, a turn opened out of turn: a draw or a take carries no sign of
  // whose it was, so the position before it is kept until the next move.
  // When that move is a meld, a discard or a red three of the seat whose turn
  // it was, which holds its cards once the draw is its own, the draw was
  // that seat's: it is replayed so, and its turn-order finding says why.
  [[gnu::noinline]] void KeepOpener(const Event& e, const Position& pos);
  void OpenerSettled(const Event& e, Position* pos);
  [[gnu::noinline]] void MoveNotRead(const Event& e) {
    const int root = Add(e.line, CheckId::kLogBadEvent, fill_error_, {"event ignored"});
    LoseState(e.line, root, false);
  }

  [[gnu::noinline]] void OnMove(const Event& e);

  // No observer listens and no failure of a ruleset's hook waits to be reported.
  bool Quiet() const {
    return driver_->observers_.empty() && (native_hooks_ || !choice_.hooks->HasFailures());
  }
  static bool PlayUsual(Position& pos, const DiscardMove& m) { return pos.PlayUsualDiscard(m); }
  static bool PlayUsual(Position& pos, const DrawMove& m) { return pos.PlayUsualDraw(m); }

  // A move read from the event's fields into `move` (FillMove), then played.
  template <class M>
  [[gnu::always_inline]] void PlayFilled(const Event& e, Position& pos, int player, M* move) {
    if (!FillMove(e, player, move, &fill_error_)) return MoveNotRead(e);
    PlayMove(e, pos, player, *move);
  }

  // A move's findings. The vector's destructor is out of line: it is called
  // only for a vector that allocated, not for the usual move's empty one.
  class MoveFindings {
   public:
    template <class F>
    explicit MoveFindings(F play) {
      new (&found_) TaggedViolations(play());
    }
    ~MoveFindings() {
      if (found_.capacity() != 0) found_.~vector();
    }
    MoveFindings(const MoveFindings&) = delete;
    MoveFindings& operator=(const MoveFindings&) = delete;
    TaggedViolations& get() { return found_; }

   private:
    union {
      TaggedViolations found_;
    };
  };

  template <class M>
  [[gnu::always_inline]] void PlayMove(const Event& e, Position& pos, int player, const M& move) {
    if constexpr (std::is_same_v<M, DiscardMove>)
      last_discard_ = {reseating_ ? 0 : e.line, player, move.card, {}};
    if constexpr (std::is_same_v<M, ThreeMove>) NoteThree(e.line, pos, player, move);
    // The usual discard and draw, played in one pass (Position::PlayUsualDiscard,
    // PlayUsualDraw): legal, with nothing to report and nobody to tell.
    if constexpr (std::is_same_v<M, DiscardMove> || std::is_same_v<M, DrawMove>) {
      if (Quiet() && PlayUsual(pos, move)) {
        last_move_line_ = e.line;
        return;
      }
    }
    // R153: a discard refused as written may be legal after the seat's
    // next line, a meld written late (SettleDeferredDiscard).
    if constexpr (std::is_same_v<M, DiscardMove>) {
      if (!settling_move_ && !settling_end_ && player == pos.current_player() &&
          pos.phase() == Phase::kPlay && RefusedDiscardKept(e, pos, move))
        return;
    }
    const Where where = AtMove(pos, player);
    const bool over_before = pos.phase() == Phase::kOver;
    Notify([&](ReplayObserver* o) { o->BeforeMove(e, pos); });
    MoveFindings found([&] { return pos.Play(move); });
    // The usual move: legal, with nothing to report and nobody to tell.
    if (found.get().empty() && !std::is_same_v<M, SpecialHandMove> && Quiet()) {
      last_move_line_ = e.line;
      return;
    }
    AfterMove(e, pos, where, over_before, &found.get());
  }

  // The hand was over (a red three laid out at the end is still legal): one
  // finding for the log that goes on, and the rest of it skipped.
  [[gnu::noinline]] void MoveAfterEnd(const Event& e, const Position& pos, const Where& where);

  // What follows every move played: the findings, the end of a hand already
  // over, the observers.
  [[gnu::noinline]] void AfterMove(const Event& e, Position& pos, const Where& where,
                                   bool over_before, TaggedViolations* found_ptr);

  void OnEndHand(const Event& e);

  // The findings of a hand's end. A hand ended early (readings R120): the
  // end the log records is not one the replay reached, so its scores are
  // the recorded ones, as for a hand the replay lost, and the hand's one
  // finding says so; the scores as the hand stands are a note.
  // A hand ended early after the replay departed from the log (R124): the
  // replay's hands are not the log's, so that nobody is out as replayed is
  // that finding's consequence, a note of it, and the recorded scores stand.
  [[gnu::noinline]] void EndFindings(const Event& e, const TaggedViolations& ended,
                                     const Where& where);

  // A hand recorded by its scores only (docs/sheets.md): each part is
  // checked against what the rules in force can produce, and the scores
  // taken as true go into the running totals, which are compared as for a
  // hand played out.
  void OnSheetEntry(const Event& e);

  // A sheet entry's recorded dealer, against the last one recorded or played,
  // the deal passing left once a hand (000 §6); it is then the one the next
  // hand's dealer is judged from. A misnumbered hand has its one finding.
  void CheckSheetDealer(const Event& e, bool misnumbered);

  // Scores the hand, compares what the log recorded, and closes it. A hand
  // whose state was lost takes its recorded scores (or nothing) instead.
  void CloseHand(bool complete, const Event* e);

  // CloseHand for a hand the replay lost: its scores are the recorded ones.
  [[gnu::noinline]] void TakeRecordedScores(const Event* e, const std::vector<int>& before,
                                            HandReport* hand);

  // Whether the end_hand records scores (or else totals) other than
  // `scores`, the hand's as replayed.
  bool RecordedDiffers(const Event& e, const std::vector<int>& before,
                       const std::vector<int>& scores) const;
  // The first finding of this hand, before `end_line`, that says the log's
  // cards are not where the replay has them, so that its state departed
  // from the log's (readings R124); -1 if none.
  [[gnu::noinline]] int DepartureRoot(int end_line) const;

  void CompareScores(const Event& e, const HandReport& h, const std::vector<int>& before);

  // A wrong hand score whose breakdown moves points from the cards left in
  // hand to the melded ones, the same amount each way: cards the replay has
  // in a hand of the side were melded as recorded. Said, so that the user
  // looks for a meld line left out before blaming the scorekeeper.
  [[gnu::noinline]] void MeldedAsRecordedNote(const Event& e, const HandReport& h, int s,
                                              int finding);

  // The points side `s`'s recorded breakdown counts more melded than the
  // replay, when it counts as many fewer left in hand (cards the replay has
  // in a hand of the side were melded as recorded); 0 otherwise.
  int64_t MeldedMoreAsRecorded(const Event& e, const HandReport& h, int s) const;
  // R137's note on `root`: the record melds `more` points of side `s` that
  // the replay has in its hands.
  void MeldedMoreNote(const Event& e, const HandReport& h, int s, int root, int64_t more);

  // R137: a hand whose recorded scores differ for one side only, whose
  // breakdown melds cards the replay has in that side's hands, after a
  // finding about that side's melds: a meld line was left out of the log,
  // and that finding showed it. The recorded scores stand (as after R124's
  // departures); the finding says why. The side's index, or -1.
  [[gnu::noinline]] int MeldLeftOutShownByScores(const Event& e, const HandReport& h);

  // CompareScores' findings, worded out of line: the usual hand has none.
  [[gnu::noinline]] void EntriesFinding(const Event& e, const char* field, size_t entries) {
    Add(e.line, CheckId::kLogBadEvent,
        "\"" + std::string(field) + "\" has " + std::to_string(entries) + " entries; there are " +
            std::to_string(choice_.rules.num_sides()) + " sides",
        {});
  }
  [[gnu::noinline]] int ScoreHandFinding(const Event& e, const HandReport& h, int s);
  [[gnu::noinline]] void UnknownPartFinding(const Event& e, const std::string& name);
  // The recorded breakdown as a score sheet (CheckSheetEntry), made once a hand.
  [[gnu::noinline]] void CheckSheetOnce(const Event& e, std::optional<SheetResult>* sheet);
  [[gnu::noinline]] void BreakdownFinding(const Event& e, int s, const std::string& name,
                                          std::string_view key, int truth, int value,
                                          std::optional<SheetResult>* sheet);

  // The recorded running totals against the true ones (docs/log-format.md,
  // "Scores"). `score_finding[s]` is the finding, if any, of a slip in this
  // hand's score of side s that a total following the sheet carries.
  void CompareTotals(const Event& e, const HandReport& h, const std::vector<int>& before,
                     const std::vector<int>& score_finding, bool sheet_entry = false);

  void OnEndGame(const Event* e, int line);

  // An end_game in the middle of a hand still being played, the game not
  // over: the next event says whether the game ended there (no further move
  // of the hand) or the line is out of place, the hand played on.
  // An end_game before the end_hand of the hand in play, played out or lost
  // (R142), is kept as well: the next event may be that end_hand.
  void OnEndGameEvent(const Event& e);
  // R142: the end_hand of the hand in play, next after the end_game kept:
  // the two lines written in the wrong order. One finding; the hand ends,
  // then the game.
  [[gnu::noinline]] void EndHandAfterEndGame(const Event& end_hand);
  [[gnu::noinline]] void FlushEndGame() {
    const Event end = std::move(*pending_end_game_);
    pending_end_game_.reset();
    UpdateRare();
    OnEndGame(&end, end.line);
  }
  [[gnu::noinline]] void EndGameMidHand(const Event& next);

  // Readings R133: final totals that repeat the last recorded running
  // totals, where every side whose total is wrong has a finding that the
  // running totals already carry, carry those findings too: a note of each,
  // not a finding of their own. False (nothing added) otherwise.
  bool FinalTotalsCarryFindings(const std::vector<int>& recorded, const std::vector<int>& truth,
                                int line);
  // The findings that explain every side's recorded total that is not the
  // true one (each side's last score-hand or score-total finding that the
  // running totals carry); empty when a side's has none, or none differs.
  std::vector<int> CarryingFindings(const std::vector<int>& recorded,
                                    const std::vector<int>& truth) const;
  // Readings R133: a game that ends by the recorded running totals, whose
  // true totals end it not, because of slips the totals carry: a note of
  // each, not a game-end finding of its own. False (nothing added) otherwise.
  bool EarlyEndCarriesFindings(const std::vector<int>& truth, int line);
  void AddLastTotalNote(const std::string& note) {
    for (const auto& [side, index] : last_total_finding_) {
      (void)side;
      if (index >= 0) return AddNote(index, note);
    }
  }

  struct Skip {
    bool active = false;
    bool unknown = false;      // the hand's state is lost (else: the hand is over)
    bool lost_deal = false;    // ... from its deal on: no position at all
    bool unread = false;       // a line that did not parse is among the causes
    bool unread_last = false;  // ... and no event was skipped after it
    bool deal_seen = false;    // the lost deal was an event with bad fields
    int root = -1;             // index of the root cause's finding
    int root_line = 0;
    int first = 0, last = 0, count = 0;  // the events skipped
  };

 public:
  // The finding of the problems the reader reported for the next event's
  // own line (its first), for an event with ok=false.
  void SetRootOfLine(int index) { root_of_line_ = index; }

  // For GameFeed: the state a caller may look at between lines.
  const RulesetChoice& choice() const { return choice_; }
  const Game& game() const { return game_; }
  bool in_hand() const { return in_hand_; }
  int hand_number() const { return hand_number_; }
  std::vector<int> totals() const { return Totals(); }

 private:
  ReplayDriver* driver_;
  GameReport* report_;
  RulesetChoice choice_;
  Game game_;
  std::vector<int64_t> offset_;       // per side: recorded minus computed scores of lost hands
  bool totals_out_of_range_ = false;  // TotalsOutOfRange reported
  bool ended_early_ = false;          // this hand's end_hand came before its end (EndFindings)
  bool departed_ = false;             // R124: the hand departed from the log (CloseHand)
  size_t hand_findings_from_ = 0;     // the first finding of the hand being played
  std::vector<LeftOutMeld> left_out_;
  // R145: the last meld-too-many-wilds finding of a move that added to one
  // meld, with the meld's side, hand, rank and naturals after that move.
  struct WildsShort {
    int finding = -1;
    int side = -1;
    int hand = 0;
    Rank rank = Rank::kJoker;
    int naturals = 0;
  } wilds_short_;
  // R144: the last meld-keep-a-card finding, with the seat, hand and turn.
  struct KeptShort {
    int finding = -1;
    int player = -1;
    int hand = 0;
    int turn = 0;
  } kept_short_;
  // R137: a take of the pile by a side not opened, found frozen for that
  // alone (its cards freeze it not: take_frozen_by_cards_, set before the
  // take), held until the seat's next move. When that is a meld that shows
  // the side's meld line left out (an addition to a meld the side lacks),
  // the side had opened, and the take's finding is a note of that one
  // (FoldHeldTake); otherwise it is reported as found (FlushHeldTake).
  struct HeldTake {
    TaggedViolation finding;
    int line = 0;
    int player = -1;
    std::string context;
  };
  std::optional<HeldTake> held_take_;
  bool take_frozen_by_cards_ = false;
  [[gnu::noinline]] void HoldFrozenTake(const Event& e, int player, const Where& where,
                                        TaggedViolations* found);
  [[gnu::noinline]] void FoldHeldTake(int root);
  [[gnu::noinline]] void FlushHeldTake();
  // R137: a going out short of canastas, or a meld down to one card short
  // of them (meld-keep-a-card), by a side whose melds had a finding earlier
  // in the hand, held until the hand's record tells whether a meld line
  // left out made the canasta (ResolveHeldOut). `notes`: what R144 folds
  // into a held meld-keep-a-card meanwhile.
  struct HeldOut {
    TaggedViolation finding;
    int line = 0;
    int side = -1;
    int player = -1;
    int turn = 0;
    std::string context;
    std::vector<std::string> notes;
  };
  std::optional<HeldOut> held_out_;
  [[gnu::noinline]] void HoldShortOfCanastas(const Event& e, const Position& pos, int side,
                                             const Where& where, TaggedViolations* found);
  // At the hand's close: the held going out is a note of the side's meld
  // finding when the record shows that meld left out (`lost`: the recorded
  // scores were taken as true) and counts a canasta bonus the replay lacks;
  // otherwise it is reported as it was found.
  [[gnu::noinline]] void ResolveHeldOut(const Event* e, const HandReport& h, bool lost);
  // R152: the last discard-wild finding, with the seat, hand and the
  // natural cards the seat held after that discard.
  struct WildDiscard {
    int finding = -1;
    int player = -1;
    int hand = 0;
    CardCounts naturals;
  } wild_discard_;
  static bool SameCounts(const CardCounts& a, const CardCounts& b) {
    if (a.total() != b.total()) return false;
    for (int i = 0; i < kNumFaces; ++i)
      if (a.count_at(i) != b.count_at(i)) return false;
    return true;
  }
  // The natural (not wild) cards of `held`.
  static CardCounts NaturalsOf(const CardCounts& held) {
    CardCounts out;
    for (int i = 0; i < kNumFaces; ++i)
      for (int n = held.count_at(i); n > 0 && !Card::FromIndex(i).is_wild(); --n)
        out.Add(Card::FromIndex(i));
    return out;
  }
  // R151: the last three-timing finding, with the seat and hand.
  struct KeptThree {
    int finding = -1;
    int player = -1;
    int hand = 0;
  } kept_three_;
  bool left_out_dirty_ = true;             // left_out_ may hold a hand's state
  TaggedViolations folded_;                // ReportMoveFindings' folded findings
  std::optional<Event> pending_end_game_;  // OnEndGameEvent
  // R119: the last discard and red three played, to tell a line written
  // twice.
  struct LastMove {
    int line = 0;
    int player = -1;
    Card card;
    std::optional<Card> replacement;
  };
  LastMove last_discard_, last_three_;
  // This hand's threes laid out before play, as replayed (R118,
  // ThreeLineOfTheOwner).
  std::vector<LastMove> threes_before_play_;
  void NoteThree(int line, const Position& pos, int player, const ThreeMove& move) {
    last_three_ = {line, player, move.card, move.replacement};
    if (pos.phase() != Phase::kBeforePlay) return;
    if (!threes_before_play_.empty() && threes_before_play_.front().line < hand_line_)
      threes_before_play_.clear();
    threes_before_play_.push_back(last_three_);
  }
  // R118: a three of `player`, who holds none, that `owner` alone holds,
  // before play. When an earlier line of this hand laid that card out as
  // `player`'s, and `owner` lays out its threes before `player` in the
  // hand's order, that earlier line was the owner's and this one is
  // `player`'s: the one finding says so, and the two replacements go to
  // the seats as written. False (nothing done) otherwise.
  bool ThreeLineOfTheOwner(const Event& e, Position* pos, int player, int owner);
  bool reseating_ = false;  // MoveReseated
  // R121, R123: a move kept for the next event (SettleDeferredMove).
  bool move_deferred_ = false;
  // R125: a deal kept for the next event (SettleDeferredDeal).
  bool deal_deferred_ = false;
  // R134: a move outside a hand, kept for the next event (a deal written
  // after it), and its finding.
  std::optional<Event> early_move_;
  int early_root_ = -1;
  bool settling_deal_ = false;
  // R135: an end_hand that came while the hand was not over, kept for the
  // next event (the hand's last discard, written after it); and the flag
  // that plays it at last.
  std::optional<Event> deferred_end_;
  bool settling_end_ = false;
  Event deferred_deal_;
  bool settling_move_ = false;
  Event deferred_move_;
  // R123: threes laid out for lines left out, whose lines may come late
  // (LateThree), and the inference's finding.
  std::vector<ThreeMove> late_threes_;
  int late_finding_ = -1;
  struct LateMove {
    EventType type;
    int player;
    std::vector<Card> cards;  // a draw's cards; a take's top
    int finding;
    std::vector<Card> with;    // a take's cards from the hand (TakeCardShown)
    Rank rank = Rank::kJoker;  // the rank of the meld the take laid them on
  };
  std::optional<LateMove> late_move_;
  // R131: bonus cards forfeited by another seat's take (the draw-count
  // finding `finding`): the stock's next cards then, in hand `hand`, while
  // the stock stays as it was (`stock_size` cards).
  struct ForfeitedBonus {
    int seat = -1;
    std::vector<Card> cards;
    int hand = -1;
    int stock_size = -1;
    int finding = -1;
  };
  ForfeitedBonus forfeited_bonus_;
  struct OverDraw {  // R128 (NoteOverDraw)
    int line;
    int player;
    std::vector<Card> cards;  // beyond the turn's due
    int finding;
    int copy_line = 0;  // a take of a copy of cards[0], the stock's next, that told nothing
  };
  std::optional<OverDraw> over_draw_;
  struct MissingDiscard {  // R130 (NoteMissingDiscard)
    int seat;
    int finding;
    int taker;  // the seat that took the pile since, or -1
    int take_line;
  };
  std::optional<MissingDiscard> missing_discard_;
  struct OutWithDiscard {  // R150: a going out folded into a discard-missing finding
    int finding = -1;
    int seat = -1;
    int hand = 0;
  };
  OutWithDiscard out_with_discard_;
  struct UndrawnTurn {  // R121 (SettleDeferredDiscard, UndrawnTurnShown, UndrawnTurnScored)
    int seat;
    int finding;
  };
  std::optional<UndrawnTurn> undrawn_turn_;
  // What the move kept (Defer) may be, for SettleDeferredMove; kMove: the
  // kinds its own fields tell.
  enum class KeptAs : uint8_t {
    kMove,
    kThreeOpener,            // R138: the next seat's red three
    kThreeAfterDrawLeftOut,  // R121: a three after a draw left out
    kThreeBeforeThree,       // R143: another seat's three, before a draw
    kTakeBeforeBonus,        // R148: a take while bonus cards are due
    kThreeOfTwoHolders,      // R118: a three of a card two other seats hold
    kThreesBlock,            // R123: a three one card on, several seats' threes to blame
  };
  // R123: the `three` lines after a three kept as kThreesBlock, until the
  // first other event.
  std::vector<Event> threes_block_;
  KeptAs kept_as_ = KeptAs::kMove;
  // R137: the last meld-black-three finding made at a turn's end (the
  // seat did not go out), with the hand and the discard's line.
  struct BlackThreeEnd {
    int finding = -1;
    int hand = 0;
    int line = 0;
  } black_three_end_;
  // R121 with R137: a turn that melded before its draw (turn-sequence),
  // the pile's top then of a rank the seat held a natural of: a later
  // addition of the side to a meld of that rank it lacks shows the take of
  // the pile, left out there, that laid the meld (FoldLeftOutMeld).
  struct UntakenPile {
    int finding = -1;
    int seat = -1;
    int hand = 0;
    Card top;
  } untaken_pile_;
  // R137: the end's stock-out-must-take held for the side's score finding.
  struct HeldMustTake {
    int side = -1;
    TaggedViolation finding;
    Where where;
  } held_must_take_;
  // R118: while ThreeLineOfTheOwner replays a three for its owner, the
  // finding its seat-order three-timing finding is a note of.
  int three_order_root_ = -1;
  bool native_hooks_;   // no hook of the ruleset's own: they are pure and never fail
  int lost_hands_ = 0;  // hands whose deal the engine never saw
  bool totals_unknown_ = false;
  bool in_hand_ = false;
  bool ended_game_ = false;
  int ended_game_line_ = 0;     // the end_game event's line, once there was one
  bool over_reported_ = false;  // game-end: the game played on after it was over
  bool unread_since_hand_ = false;
  bool lost_deal_pending_ = false;  // the next deal follows a lost one
  bool lost_this_hand_ = false;
  int lost_root_ = -1;
  int root_of_line_ = -1;
  int hand_number_ = 0;
  int hand_line_ = 0;
  int played_end_line_ = 0;  // the end_hand of the last hand played out, if it was the last hand
  int sheet_hands_ = 0;      // hands recorded by their scores only (replay/sheet.h)
  bool sheet_since_deal_ = false;  // such a hand came after the last deal
  int last_dealer_ = -1;           // the dealer of the last deal, and its hand number
  int last_dealer_hand_ = 0;
  int last_move_line_ = 0;
  // The line of the last move played that broke a rule, its findings
  // reported or folded into an earlier one's notes (R119: a copy of it is
  // replayed, not read as written twice).
  int faulted_line_ = 0;
  Skip skip_;
  std::vector<Card> drawn_;
  std::string fill_error_;          // why FillMove refused an event
  std::vector<Card> reseat_cards_;  // a move's cards, judging its seat (R118)
  struct HeldCopy {                 // R119: a meld copy replayed (HeldCopyTookCards)
    int line = 0;                   // the copy's line
    int first_line = 0;             // the line it copies
    int player = -1;
    std::vector<Card> cards;  // what the copy laid
    std::vector<MeldSpec> melds;  // the copy's line
    std::unique_ptr<Position> before;
  };
  std::optional<HeldCopy> held_copy_;
  // R118: the position before a draw or take out of turn, while the next
  // move may still show whose it was (KeepOpener, OpenerSettled).
  std::unique_ptr<Position> opener_before_;  // its storage kept from one to the next
  bool opener_kept_ = false;                 // opener_before_ holds a position
  int swap_finding_ = -1;  // R127: the deal's finding of a card written as another, while pending
  bool rare_pending_ = false;  // opener_kept_ or pending_end_game_ (UpdateRare)
  Event opener_event_;
  int opener_due_ = -1;
  size_t opener_findings_ = 0;
  std::vector<Card> slipped_cards_;  // drawn against the recorded stock, this hand
  int slip_finding_ = -1;            // the last stock-mismatch finding of the hand
  std::optional<std::vector<int>> recorded_totals_;
  std::map<int, int> last_total_finding_;  // side -> index of its last score-total error
  std::set<std::string> reported_hook_failures_;
  std::vector<int> before_;         // CloseHand's totals before the hand
  std::vector<int> score_finding_;  // CompareScores' findings by side
  // R139, by side, in CompareScores: the side's first score-breakdown
  // finding (-1 none; -2 its pair found), what its part differs by, its name.
  struct TradedPart {
    int finding = -1;
    int64_t delta = 0;
    std::string name;
  };
  std::vector<TradedPart> traded_;
  bool traded_dirty_ = true;
  DealMove deal_;
  DrawMove draw_;
  TakePileMove take_;
  MeldMove meld_;
  RetractMove retract_;
  // R132: the discard's line a meld written after it followed, and that
  // meld's finding (a second such meld is a note of it).
  std::pair<int, int> meld_after_discard_{0, -1};
  SpecialHandMove special_;
};

}  // namespace canasta

#endif  // CANASTA_REPLAY_DRIVER_INTERNAL_H_
