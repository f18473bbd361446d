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

#include "core/game.h"
#include "replay/log_reader.h"
#include "replay/moves.h"
#include "replay/sheet.h"

namespace canasta {
namespace {

constexpr char kFormat[] = "canasta-log/1";
// The note of a hand's score findings.
constexpr char kScoreSource[] = "rule: 000 §18";

std::string Join(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string Lines(int first, int last) {
  return first == last ? "line " + std::to_string(first)
                       : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

// A line that yielded no event and could have been any event: the state
// after it is unknown. An unknown "type" is an extension, not a lost move.
// Recorded numbers are untrusted: sums of them are made in 64 bits and
// brought back into range.
int Clamp(int64_t v) { return int(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, v))); }

bool LosesState(const InputProblem& p) {
  return p.id == CheckId::kLogBadJson || p.id == CheckId::kLogBadEvent;
}

// The names of BreakdownParts(), their lengths known: looked up for every
// recorded part of every end_hand.
const std::vector<std::string_view>& PartNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const BreakdownPart& p : BreakdownParts()) v.emplace_back(p.name);
    return v;
  }();
  return names;
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
  [[gnu::noinline]] void OnEvent(const Event& e) {
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

 private:
  [[gnu::noinline]] void OnOtherEvent(const Event& e) {
    if (deferred_end_ && e.type != EventType::kNote) FlushEndHand();  // R135: not a last move
    if (early_move_ && e.type != EventType::kNote) {  // R134
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

  // Nothing happens at the table: the event is left out of the replay.
  [[gnu::noinline]] void SpecialHandNotAllowed(const Event& e) {
    Add(e.line, CheckId::kSpecialHandNotAllowed, "this ruleset has no special hands",
        {"rule: 001 L65 (modern-american only)"});
  }

 public:
  // A line that yielded no event (bad JSON, not an object, no "type"); its
  // finding, already added, is `root`.
  void OnUnreadLine(int line, int root) {
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

  // The log ended (or the next game began) after `last_line`.
  void Finish(int last_line) {
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
    if (!ended_game_) Notify([&](ReplayObserver* o) { o->OnGameEnd(*report_, nullptr); });
    report_->totals = Totals();
    report_->winner = Winner();
    report_->finished = Over();
  }

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
  std::string SideName(int s) const {
    if (!choice_.rules.partnerships()) return SeatName(s);
    auto name = [&](int seat) {
      return seat < int(report_->players.size()) ? report_->players[size_t(seat)]
                                                 : "seat " + std::to_string(seat);
    };
    return "side " + std::to_string(s) + " (" + name(s) + " and " + name(s + 2) + ")";
  }

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
      (*t)[s] = s < offset_.size() ? Clamp(engine[s] + offset_[s]) : engine[s];
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
  [[gnu::noinline]] void TotalsOutOfRange(int line) {
    if (totals_out_of_range_) return;
    totals_out_of_range_ = true;
    const std::vector<int>& engine = game_.totals();
    std::string parts;
    for (size_t s = 0; s < engine.size(); ++s) {
      const int64_t t = int64_t{engine[s]} + (s < offset_.size() ? offset_[s] : 0);
      parts += (s ? ", " : "") + SideName(int(s)) + " " + std::to_string(t);
    }
    Add(line, CheckId::kGameTotals,
        "the running totals leave the range the audit counts in (-2147483647 to 2147483646): "
        "no later total or winner of this game is compared",
        {"totals here, scores taken as true included: " + parts});
  }
  bool Adjusted() const {
    return lost_hands_ > 0 || sheet_hands_ > 0 || std::any_of(offset_.begin(), offset_.end(), [](int64_t v) { return v != 0; });
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
  Where At(int player) const {
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
  // The same for the position of a move about to be played, each field
  // stored once (taken before every move).
  static Where AtMove(const Position& p, int player) {
    const int pile_size = int(p.pile().size());
    return Where{player, p.current_player(), p.phase() == Phase::kBeforePlay, pile_size,
                 pile_size ? p.pile().back() : Card()};
  }
  std::string Context(const Where& w) const {
    std::string ctx = "hand " + std::to_string(hand_number_);
    if (w.current >= 0) {
      if (w.player >= 0 && w.player != w.current)
        ctx += ", " + SeatName(w.player) + " playing in the turn of " + SeatName(w.current);
      else if (w.player >= 0 || !w.before_play)
        ctx += ", turn of " + SeatName(w.player >= 0 ? w.player : w.current);
      if (w.pile_size)
        ctx +=
            "; pile: " + std::to_string(w.pile_size) + " card(s), " + ToString(w.top) + " on top";
    }
    return ctx;
  }
  void AddViolations(const TaggedViolations& vs, int line, const Where& w,
                     std::vector<int>* indices = nullptr) {
    if (!vs.empty()) AddViolations(vs, line, Context(w), indices);
  }
  void AddViolations(const TaggedViolations& vs, int line, const std::string& ctx,
                     std::vector<int>* indices = nullptr) {
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

  // A ruleset hook that failed during the last event: the engine used its
  // default answer; the user must know, with the ruleset's line.
  void ReportHookFailures(int line) {
    if (native_hooks_ || !choice_.hooks->HasFailures()) return;  // the usual move
    ReportHookFailuresNow(line);
  }
  [[gnu::noinline]] void ReportHookFailuresNow(int line) {
    for (const HookFailure& f : choice_.hooks->TakeFailures()) {
      // The same failure is reported once a game, where it first happened.
      if (!reported_hook_failures_.insert(f.hook + '\n' + f.where + '\n' + f.message).second)
        continue;
      HookFailureText text = DescribeHookFailure(f);
      Add(line, CheckId::kRulesetHookFailed, std::move(text.message), std::move(text.notes));
    }
  }

  // A card drawn against the recorded stock is in the hand once more than
  // the stock knows: when the stock's own copy is drawn later, "too many
  // copies" is the same slip, a note on the first finding, not a new error.
  [[gnu::noinline]] void FollowStockSlips(const Event& e, TaggedViolations* found,
                                          const Where& where) {
    if (found->empty()) return;  // nothing to report, nothing to follow (the usual move)
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
                                            size_t findings_before) {
    const int player = e.player.value_or(-1);
    const int side =
        player >= 0 && player < choice_.rules.num_players ? choice_.rules.side_of(player) : -1;
    if (side < 0 || size_t(side) >= left_out_.size()) return FollowStockSlips(e, found, where);
    FoldOpeningCondition(found);
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
               "the pile held the discard left out here, so it was not empty (readings R146)",
               found);
    }
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
    // So is the first take's finding that the pile holds one card only.
    if (missing_discard_ && missing_discard_->take_line == e.line &&
        e.type == EventType::kTakePile) {
      FoldInto(missing_discard_->finding, CheckId::kPileOneCard, e.line,
               "the pile held the discard left out here too, so it held more than one card "
               "(readings R146)",
               found);
    }
    FollowStockSlips(e, found, where);
    for (size_t i = findings_before; i < report_->findings.size(); ++i) {
      const CheckId id = report_->findings[i].id;
      if (id == CheckId::kMeldKeepACard)
        kept_short_ = {int(i), player, hand_number_, pos.turns_played(player)};
      if (id == CheckId::kMeldTooManyWilds && meld)
        wilds_short_ = {int(i), side, hand_number_, *rank, naturals};
      if (left.meld_finding < 0 && IsMeldFinding(id)) left.meld_finding = int(i);
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
      }
    }
    for (const TaggedViolation& v : folded)
      AddNote(left.root, "line " + std::to_string(v.tag ? v.tag : e.line) + ": as replayed, " +
                             v.violation.message + "; the side's melds lack the meld line left " +
                             "out (readings R137)");
  }

  // R149: one initial meld judged short of the minimum and lacking what it
  // must include is one finding, the minimum's; the condition is its note.
  static void FoldOpeningCondition(TaggedViolations* found) {
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
  // The move's findings `id`, taken out of `found` and made notes of the
  // earlier finding `root`: the line, the message and `why`.
  void FoldInto(int root, CheckId id, int line, const std::string& why, TaggedViolations* found) {
    for (auto it = found->begin(); it != found->end();) {
      if (it->violation.id != id) {
        ++it;
        continue;
      }
      AddNote(root, "line " + std::to_string(line) + ": " + it->violation.message + ": " + why);
      it = found->erase(it);
    }
  }
  // The one rank a move adds to by name (a meld of one part, or a take of
  // the pile, `to` a rank); none for any other move (R145).
  static std::optional<Rank> SoleTarget(const Event& e) {
    std::optional<Rank> rank;
    if (e.type == EventType::kMeld && e.melds.size() == 1) rank = RefRank(e.melds[0].to);
    if (e.type == EventType::kTakePile) rank = RefRank(e.to);
    if (rank && (*rank == Rank::kJoker || *rank == Rank::kSequence)) return std::nullopt;
    return rank;
  }
  // R137: the side adds to a meld it does not have (meld-target-missing):
  // a meld line was left out of the log. What follows from the side's melds
  // being short of it is that finding's consequence, a note on it: the
  // initial meld judged on what is left, a shape finding of the meld added
  // to again, and going out without the canastas it would have made.
  // Whether this move's finding is the root of a meld left out (its note is
  // added by the caller, which knows its index).
  bool FoldLeftOutMeld(const Event& e, const Position& pos, int side, LeftOutMeld& left,
                       TaggedViolations* found, TaggedViolations* folded) {
    bool root_here = false;
    for (const TaggedViolation& v : *found)
      root_here |= left.root < 0 && TargetMissing(e, pos, side, v.violation.id);
    root_here = root_here && LeftOutMeldHeld(e, pos, side);
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
  // Whether `seat` holds the cards of a meld of a rank among `ranks` (the
  // `to` of the lines that showed a meld left out; R137): the cards that
  // meld would have laid.
  bool HoldsLeftOutRank(const Position& pos, int seat,
                        const std::vector<std::string>& ranks) const {
    if (seat < 0 || seat >= choice_.rules.num_players) return false;
    for (const std::string& to : ranks) {
      const std::optional<Rank> rank = RefRank(to);
      if (rank && HoldsMeldOf(pos, seat, *rank)) return true;
    }
    return false;
  }
  // Whether `seat` holds the cards of a meld of `rank` (R137): min_naturals
  // naturals of it, or for a meld of wild cards, where the ruleset allows
  // them, as many wild cards as a meld takes (min_meld_size).
  bool HoldsMeldOf(const Position& pos, int seat, Rank rank) const {
    const Rules& rules = choice_.rules;
    if (rank == Rank::kJoker && !rules.wild_melds) return false;
    int count = 0;
    for (Card c : pos.hand(seat).ToVector())
      count += rank == Rank::kJoker ? c.is_wild() : !c.is_wild() && c.rank() == rank;
    return count >= (rank == Rank::kJoker ? rules.min_meld_size : rules.min_naturals);
  }
  // R137: a finding that the side adds to a meld it lacks: meld-target-
  // missing, or a take of the pile onto a meld of a rank the side has none
  // of (pile-take-invalid; after the move the side has none of that rank
  // but the top card the take laid alone).
  bool TargetMissing(const Event& e, const Position& pos, int side, CheckId id) const {
    if (id == CheckId::kMeldTargetMissing) return true;
    if (id != CheckId::kPileTakeInvalid || e.type != EventType::kTakePile) return false;
    const std::optional<Rank> rank = RefRank(e.to);
    if (!rank || *rank == Rank::kJoker || *rank == Rank::kSequence) return false;
    for (const Meld& m : pos.melds(side))
      if (m.rank == *rank && m.size() >= choice_.rules.min_meld_size) return false;
    return true;
  }
  // Whether a seat of the side holds the cards of a meld, of a rank the
  // move adds to, that a line left out would have laid (HoldsMeldOf): they
  // are still in the side's hands as replayed. Without them, `to` is a
  // wrong reference, not a line left out.
  bool LeftOutMeldHeld(const Event& e, const Position& pos, int side) const {
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
  // The findings about a side's melds that a meld line left out may cause
  // (R137): the first of them in a hand is where a score that shows one
  // left out is reported (CloseHand).
  static bool IsMeldFinding(CheckId id) {
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
      // a meld left out had laid (SWAD, 001 L46).
      case CheckId::kDiscardEmptyPile:
        return true;
      default:
        return false;
    }
  }

  // --- Error recovery ---

  static bool IsAlreadyOver(const TaggedViolations& found) {
    for (const TaggedViolation& v : found)
      if (v.violation.id == CheckId::kTurnSequence) return true;
    return false;
  }

  // The replay cannot know the hand's state after `line`: everything up to
  // the next deal or end_hand is skipped. `root` is the root cause's finding.
  void LoseState(int line, int root, bool lost_deal) {
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
  void EndSkip() {
    if (!skip_.active) return;
    if (skip_.count) {
      std::string note = std::to_string(skip_.count) + " event(s) not replayed (" +
                         Lines(skip_.first, skip_.last) + "): ";
      note +=
          skip_.unknown
              ? (skip_.lost_deal ? "the hand's deal is unknown"
                                 : "the state of hand " + std::to_string(hand_number_) +
                                       " is unknown after line " + std::to_string(skip_.root_line))
              : "the hand was already over";
      AddNote(skip_.root, note);
    }
    skip_.active = false;
  }

  void OnBadEvent(const Event& e) {
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

  void OnDeal(const Event& e) {
    // The deal just made, written again before any move: one finding.
    if (in_hand_ && game_.position() && last_move_line_ < hand_line_ && *e.hand == hand_number_ &&
        SameDealAgain(e))
      return DealWrittenTwice(e);
    // R125: the hand in play has no end_hand yet. The deal waits for the
    // next event, which may be that end_hand, written late.
    if (in_hand_ && game_.position() && !skip_.active && !settling_deal_) {
      deferred_deal_ = e;
      deal_deferred_ = true;
      return;
    }
    CloseOpen(e.line, [&] {
      return "hand " + std::to_string(hand_number_) + " has no end_hand event before the next deal";
    });
    const bool after_lost_deal = lost_deal_pending_;
    DealMove& d = deal_;  // a member: the card vectors keep their capacity from deal to deal
    d.dealer = *e.dealer;
    d.hands = e.hands;
    d.upcards = e.upcard;
    d.stock = e.stock;
    if (e.feet) d.feet = *e.feet;
    else d.feet.clear();
    d.tag = e.line;
    const int previous_hand = hand_number_;
    const bool after_sheet = sheet_since_deal_;
    const int last_dealer = last_dealer_, last_dealer_hand = last_dealer_hand_;
    hand_number_ = *e.hand;
    hand_line_ = e.line;
    hand_findings_from_ = report_->findings.size();
    unread_since_hand_ = false;
    if (left_out_dirty_ || left_out_.size() != size_t(choice_.rules.num_sides())) {
      // Set only after a finding (the usual hand leaves them as they are).
      left_out_.assign(size_t(choice_.rules.num_sides()), LeftOutMeld());
      left_out_dirty_ = false;
    }
    const bool over_before = Over();
    // After hands scored by their recorded scores, the minimum is read at
    // the totals those make (not at the engine's, which miss them); made
    // only then (the usual game has none). The deal changes none of what
    // Adjusted() reads.
    const bool was_adjusted = Adjusted();
    std::vector<int> adjusted;
    if (was_adjusted) adjusted = Totals();
    TaggedViolations vs = game_.StartDeal(*e.hand, d, was_adjusted ? &adjusted : nullptr);
    in_hand_ = true;
    slipped_cards_.clear();
    slip_finding_ = -1;
    lost_deal_pending_ = false;
    sheet_since_deal_ = false;
    played_end_line_ = 0;
    last_dealer_ = *e.dealer;
    last_dealer_hand_ = *e.hand;
    lost_this_hand_ = false;
    // After a lost deal the engine's count of deals and its totals miss that
    // hand: its number, dealer and the game's end are judged here instead.
    if (after_lost_deal || was_adjusted)
      JudgeDealAfterGap(e, after_lost_deal, after_sheet, was_adjusted, over_before, previous_hand,
                        last_dealer, last_dealer_hand, &vs);
    swap_finding_ = -1;
    over_draw_.reset();
    missing_discard_.reset();
    undrawn_turn_.reset();
    if (!vs.empty()) DealFindings(e, vs);
    if (game_.position()->dealt_swap().pending()) {
      for (size_t i = hand_findings_from_; i < report_->findings.size(); ++i)
        if (report_->findings[i].id == CheckId::kDealPack) swap_finding_ = int(i);
    }
    UpdateRare();
    Notify([&](ReplayObserver* o) { o->OnHandStart(e, *game_.position()); });
  }

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

  [[gnu::noinline]] void DealFindings(const Event& e, TaggedViolations& vs) {
    // The game over and yet played on: one finding, at the first hand too many.
    for (auto v = vs.begin(); v != vs.end();) {
      if (v->violation.id != CheckId::kGameEnd) {
        ++v;
      } else if (over_reported_) {
        v = vs.erase(v);
      } else {
        over_reported_ = true;
        ++v;
      }
    }
    std::vector<int> indices;
    AddViolations(vs, e.line,
                  "hand " + std::to_string(hand_number_) + ", dealt by " + SeatName(*e.dealer),
                  &indices);
    // Hands dealt to another number of seats than the game's: no move of the
    // hand can be followed, so the hand is skipped to its end_hand (whose
    // recorded scores stand), one finding instead of one at every move.
    if (int(e.hands.size()) != choice_.rules.num_players) {
      for (size_t i = 0; i < vs.size() && i < indices.size(); ++i)
        if (vs[i].violation.id == CheckId::kDealHandSize && indices[size_t(i)] >= 0)
          return LoseState(e.line, indices[i], /*lost_deal=*/false);
    }
  }

  // OnDeal's findings after a lost deal or hands recorded by their scores:
  // the engine's own judgement of the number, dealer and game end is
  // replaced where it missed those hands.
  [[gnu::noinline]] void JudgeDealAfterGap(const Event& e, bool after_lost_deal, bool after_sheet,
                                           bool was_adjusted, bool over_before, int previous_hand,
                                           int last_dealer, int last_dealer_hand,
                                           TaggedViolations* found) {
    TaggedViolations& vs = *found;
    TaggedViolations kept;
    for (TaggedViolation& v : vs) {
      const CheckId id = v.violation.id;
      if (id == CheckId::kGameEnd && was_adjusted) continue;
      if ((after_lost_deal || after_sheet) &&
          (id == CheckId::kDealHandNumber || id == CheckId::kDealDealer))
        continue;
      kept.push_back(std::move(v));
    }
    // Hands recorded by their scores only came since the last deal: the
    // engine did not count them, so the number and the dealer are judged
    // here, the deal passing left once a hand (000 §6).
    if (after_sheet && !after_lost_deal) {
      const int n = choice_.rules.num_players;
      if (*e.hand != previous_hand + 1)
        kept.push_back(TaggedViolation{
            e.line, Violation{CheckId::kDealHandNumber,
                              "this deal is numbered " + std::to_string(*e.hand) +
                                  "; the next is " + std::to_string(previous_hand + 1),
                              {"rule: canasta-log/1 deal.hand"}}});
      if (last_dealer >= 0 && *e.dealer >= 0 && *e.dealer < n) {
        const int expected =
            choice_.rules.DealerAfter(last_dealer, *e.hand - last_dealer_hand);
        if (*e.dealer != expected)
          kept.push_back(TaggedViolation{
              e.line,
              Violation{CheckId::kDealDealer,
                        "seat " + std::to_string(*e.dealer) + " deals hand " +
                            std::to_string(*e.hand) + ", but " +
                            choice_.rules.DealerRotationWords() + ": seat " +
                            std::to_string(last_dealer) + " dealt hand " +
                            std::to_string(last_dealer_hand) + ", so seat " +
                            std::to_string(expected) + " deals this one",
                        {"rule: " + choice_.rules.Cite("dealer_rotation", "000 §6")}}});
      }
    }
    if (was_adjusted && over_before)
      kept.insert(
          kept.begin(),
          TaggedViolation{
              e.line, Violation{CheckId::kGameEnd,
                                "the game was already over (a side reached " +
                                    std::to_string(choice_.rules.target_score) +
                                    "), yet another deal begins",
                                {"rule: " + choice_.rules.Cite("rule.game_end", "000 §19")}}});
    vs = std::move(kept);
  }

  [[gnu::noinline]] void MoveOutsideHand(const Event& e) {
    if (move_deferred_ && !settling_move_) SettleDeferredMove(&e);  // R123
    if (early_move_) {  // the move kept was no hand's first: this one is skipped after it
      SettleEarlyMove();
      return Skipped(e.line);
    }
    const int root = Add(
        e.line, CheckId::kLogOutOfPlace,
        std::string("\"") + EventTypeName(e.type) + "\" event outside a hand (no deal before it)",
        {"event ignored"});
    if (!in_hand_ && root >= 0 && (e.type == EventType::kDraw || e.type == EventType::kThree)) {
      // R134: kept; the next event may be the hand's deal, written after it.
      early_move_ = e;
      early_root_ = root;
      return;
    }
    LoseState(e.line, root, /*lost_deal=*/true);
  }
  // R135: the end_hand kept while the hand was not over is played now.
  [[gnu::noinline]] void FlushEndHand() {
    const Event end = std::move(*deferred_end_);
    deferred_end_.reset();
    UpdateRare();
    settling_end_ = true;
    OnEndHand(end);
    settling_end_ = false;
  }
  // R135: whether `e` is the discard of the last card of the seat in turn,
  // or its discard after the stock's last card was drawn, after which the
  // hand may end (000 §15); the end_hand kept waits for it then.
  bool LastDiscardAfterEnd(const Event& e, const Position& pos) const {
    const int player = e.player.value_or(-1);
    if (e.type != EventType::kDiscard || !e.card || player != pos.current_player() ||
        pos.phase() != Phase::kPlay || pos.hand(player).count(*e.card) == 0)
      return false;
    // With the stock gone, the discard leaves the next seat only the pile:
    // the hand may end there (000 §15).
    return (pos.hand(player).total() == 1 && !pos.FootPending(player)) || pos.stock_size() == 0;
  }
  // R135: the hand's last discard came after its end_hand: the two lines
  // are written in the wrong order; the discard was played, then the end.
  [[gnu::noinline]] void EndHandAfterLastMove(const Event& discard) {
    const int end_line = deferred_end_->line;
    Add(end_line, CheckId::kLogOutOfPlace,
        "the end_hand of hand " + std::to_string(hand_number_) +
            " comes before the hand's last move, " + SeatName(*discard.player) +
            "'s discard at line " + std::to_string(discard.line),
        {"the two lines are written in the wrong order, and are replayed discard first "
         "(readings R135)"});
    FlushEndHand();
  }
  // R134: whether `move`, a draw or a red three, can be one of the first
  // moves of `deal`'s hand: the cards it takes are in a run among the
  // recorded stock's first cards (red threes laid out first take some), and
  // a three is one its seat was dealt.
  static bool OpensTheDeal(const Event& move, const Event& deal) {
    constexpr size_t kFirstCards = 8;
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
  [[gnu::noinline]] void EarlyMoveAfterDeal(int deal_line) {
    const Event early = std::move(*early_move_);
    early_move_.reset();
    if (!in_hand_ || !game_.position()) return LoseState(early.line, early_root_, true);
    std::vector<std::string>& notes = report_->findings[size_t(early_root_)].notes;
    notes.assign(1, "the hand's deal comes next, at line " + std::to_string(deal_line) +
                        ": the two lines are written in the wrong order, and the move is "
                        "replayed after the deal (readings R134)");
    OnMove(early);
  }
  [[gnu::noinline]] void MoveOfNoSeat(const Event& e, int player) {
    if (move_deferred_ && !settling_move_) SettleDeferredMove(&e);  // R123
    const int root = Add(e.line, CheckId::kLogBadEvent,
                         "\"player\" is " + std::to_string(player) + "; seats are 0 to " +
                             std::to_string(choice_.rules.num_players - 1),
                         {"event ignored"});
    LoseState(e.line, root, false);
  }
  [[gnu::noinline]] void MoveWithNoCard(const Event& e, int player) {
    const int root =
        Add(e.line, CheckId::kCardNotHeld, SeatName(player) + " has no card left, yet plays one",
            {Context(At(player)), "event ignored"});
    LoseState(e.line, root, false);
  }
  // The cards a move plays from its player's hand or foot: none for a draw, a
  // retract, an ask or an answer.
  static void CardsFromHand(const Event& e, std::vector<Card>* out) {
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
  // R118: a move out of turn is the seat in turn's, its number written
  // wrong, when the move shows it. Returns why (for the finding's note), or
  // "" when it does not: then the move stays the named seat's.
  [[gnu::noinline]] std::string SeatMisnamed(const Event& e, const Position& pos, int player) {
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
    const auto other_rule = std::find_if(
        named_found.begin(), named_found.end(),
        [](const TaggedViolation& v) { return v.violation.id != CheckId::kTurnOrder; });
    if (other_rule == named_found.end() || !pos.Check(*in_turn).empty()) return "";
    return "the move breaks no rule for " + SeatName(current) + " and one for " + SeatName(player) +
           " (" + other_rule->violation.message + ")";
  }
  // One `turn-order` finding, then the move replayed as the seat in turn's:
  // the cards it plays leave the hand that holds them, and nothing later in
  // the hand follows from the slip.
  [[gnu::noinline]] void MoveReseated(const Event& e, const Position& pos, int player,
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
  // R132: the seat whose discard was the last move melds next, before the
  // next seat's draw: the meld came before that discard and is written
  // after it. One `turn-sequence` finding; the meld is laid as part of the
  // turn just ended, and the next seat's turn goes on. Not when the side
  // has not opened or the meld would empty the hand
  // (Position::MayMeldAfterTurn): the meld is then played as written.
  [[gnu::noinline]] bool MeldAfterOwnDiscard(const Event& e, Position& pos, int player) {
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
  // The seat a dealt red three or a bonus draw belongs to, when the named
  // seat is not it (R118): the move is one finding and replayed as that
  // seat's. False when no single seat is it.
  [[gnu::noinline]] bool OwnerReseated(const Event& e, const Position& pos, int player) {
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
    return ThreeReseated(e, pos, player, owner, SeatName(owner) + " alone holds it");
  }
  bool ThreeReseated(const Event& e, const Position& pos, int player, int owner,
                     const std::string& why) {
    return Reseated(
        e, pos, player, owner, CheckId::kCardNotHeld,
        "seat " + std::to_string(player) + " lays out " + ToString(*e.card) + " but holds none",
        why);
  }
  bool Reseated(const Event& e, const Position& pos, int player, int owner, CheckId id,
                const std::string& message, const std::string& why) {
    Add(e.line, id, message,
        {Context(AtMove(pos, player)),
         why + ": the move is replayed as seat " + std::to_string(owner) + "'s (readings R118)"});
    Event reseated = e;
    reseated.player = owner;
    OnMove(reseated);
    return true;
  }
  // R118: a three laid out by a seat that does not hold it, while two other
  // seats do. When the next line is one of them laying out the same card,
  // the three was the other's. Otherwise it is judged as written.
  [[gnu::noinline]] bool SettleThreeOfTwoHolders(const Event* next, Position* pos) {
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
  // R119. A draw by the seat that has drawn this turn, of the very cards
  // its last draw took: the line written twice, one finding, not replayed.
  // Bonus cards drawn when none are due, by the seat in turn before its
  // draw: the turn's draw with a stray flag, one finding, replayed as the
  // draw. True when the event was handled here.
  // R119: a move line written twice is one finding, the copy not replayed.
  bool WrittenAgain(const Event& e, const Position& pos, int player, int first_line, CheckId id,
                    const std::string& message, const char* what, const std::string& rule) {
    Add(e.line, id, message,
        {Context(AtMove(pos, player)),
         std::string(what) + " of line " + std::to_string(first_line) +
             " written again: this line is not replayed (readings R119)",
         "rule: " + rule});
    last_move_line_ = e.line;
    return true;
  }
  // R119 for a discard and a red three: the same move as the seat's last
  // (the discard that ended its turn; the three it laid out just before),
  // once it could not be made again (the turn has passed; the card is gone;
  // for a seat that holds a second copy of the three, its replacement is
  // not the stock's next card).
  [[gnu::noinline]] bool MoveWrittenAgain(const Event& e, const Position& pos, int player) {
    if (e.type == EventType::kDiscard && e.card && last_discard_.line > 0 &&
        last_discard_.player == player && last_discard_.card == *e.card &&
        player != pos.current_player() && pos.phase() == Phase::kDraw && !pos.pile().empty() &&
        pos.pile().back() == *e.card)
      return WrittenAgain(e, pos, player, last_discard_.line, CheckId::kTurnOrder,
                          "it is seat " + std::to_string(pos.current_player()) +
                              "'s turn, not seat " + std::to_string(player) + "'s",
                          "the discard", choice_.rules.Cite("rule.turn_order", "000 §11"));
    if (e.type != EventType::kThree || !e.card || last_three_.line != last_move_line_ ||
        last_three_.line <= 0 || last_three_.player != player || last_three_.card != *e.card ||
        last_three_.replacement != e.replacement)
      return false;
    if (pos.Holding(player).count(*e.card) == 0)
      return WrittenAgain(
          e, pos, player, last_three_.line, CheckId::kCardNotHeld,
          "seat " + std::to_string(player) + " lays out " + ToString(*e.card) + " again",
          "the three", choice_.rules.Cite("rule.card_held", "000 §11"));
    if (e.replacement && !pos.IsStockNext(*e.replacement))
      return WrittenAgain(e, pos, player, last_three_.line, CheckId::kStockMismatch,
                          "seat " + std::to_string(player) + " lays out " + ToString(*e.card) +
                              " again, replaced by " + ToString(*e.replacement) + ", which line " +
                              std::to_string(last_three_.line) + " drew already",
                          "the three", choice_.rules.Cite("rule.three_replacement", "000 §7"));
    return false;
  }
  // R119 for a take of the pile: the seat's last move, the same take again,
  // once its turn has taken the pile (or drawn).
  [[gnu::noinline]] bool TakeWrittenAgain(const Event& e, const Position& pos, int player) {
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
  // R119 for a meld: the seat's last move, the same parts again, of cards it
  // no longer holds all of.
  [[gnu::noinline]] bool MeldWrittenAgain(const Event& e, const Position& pos, int player) {
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
      if (a.cards != b.cards || a.to != b.to || a.as != b.as || a.to_id != b.to_id ||
          a.id != b.id || a.sequence != b.sequence)
        return false;
    }
    CardsFromHand(e, &reseat_cards_);
    if (reseat_cards_.empty() || pos.Holding(player).Contains(reseat_cards_)) return false;
    return WrittenAgain(
        e, pos, player, meld_.tag, CheckId::kCardNotHeld,
        "seat " + std::to_string(player) + " plays " + ToString(reseat_cards_) + " again",
        "the meld", choice_.rules.Cite("rule.card_held", "000 §11"));
  }
  [[gnu::noinline]] bool DrawMisrecorded(const Event& e, const Position& pos, int player) {
    // The same draw as the last move, again: the turn's draw once it has
    // drawn, or bonus cards once none are due.
    const bool again = draw_.tag > 0 && draw_.tag == last_move_line_ && draw_.player == player &&
                       draw_.bonus == e.bonus && draw_.cards == e.cards;
    auto written_again = [&](CheckId id, const std::string& message, const char* what,
                             const std::string& rule) {
      return WrittenAgain(e, pos, player, draw_.tag, id, message, what, rule);
    };
    if (again && e.bonus && pos.bonus_player() < 0)
      return written_again(
          CheckId::kDrawCount,
          "seat " + std::to_string(player) + " draws bonus cards, but none are due",
          "the bonus draw", choice_.rules.Cite("bonus_cards_first", "001 L37"));
    if (player != pos.current_player()) return false;
    // R136: bonus cards drawn in their turn, before its discard: the next
    // event may be that discard, which earns them.
    if (e.bonus && pos.bonus_player() < 0 && pos.phase() == Phase::kPlay && !settling_move_)
      return Defer(e);
    if (again && !e.bonus && pos.phase() == Phase::kPlay && pos.drew_this_turn())
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
  // R128: a turn's draw of more cards than a turn draws, each from the
  // stock: the cards beyond the due are kept, with the draw's finding, for
  // the next take from the stock to tell whether they were drawn.
  void NoteOverDraw(const Event& e, size_t findings_from) {
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
  // R130: the next seat's draw ended a turn that did not discard
  // (discard-missing): the card discarded is not known yet. It went to the
  // pile; the seat that next takes the pile and then plays a card it lacks,
  // which the seat without a discard holds, shows it.
  void NoteMissingDiscard(const Event& e, size_t findings_from) {
    const int n = choice_.rules.num_players;
    NoteMissingDiscard(e.line, (*e.player + n - 1) % n, findings_from);
  }
  // The same for the discard-missing finding at `line` of `seat`'s turn.
  void NoteMissingDiscard(int line, int seat, size_t findings_from) {
    for (size_t i = findings_from; i < report_->findings.size(); ++i) {
      if (report_->findings[i].id != CheckId::kDiscardMissing || report_->findings[i].line != line)
        continue;
      missing_discard_ = MissingDiscard{seat, int(i), -1, 0};
      UpdateRare();
      return;
    }
  }
  [[gnu::noinline]] void DiscardShown(const Event& e, Position* pos) {
    MissingDiscard& missing = *missing_discard_;
    const int player = *e.player;
    if (missing.taker < 0) {
      if (e.type == EventType::kTakePile) {
        missing.taker = player;
        missing.take_line = e.line;
      }
      return;
    }
    if (player != missing.taker) return;
    for (Card c : Lacking(e, pos->Holding(player))) {
      if (!pos->PassCard(missing.seat, player, c)) continue;
      AddNote(missing.finding,
              "line " + std::to_string(e.line) + ": " + SeatName(player) + " plays " + ToString(c) +
                  " from the pile it took at line " + std::to_string(missing.take_line) +
                  ", a card " + SeatName(missing.seat) + " still held: the discard left out was " +
                  ToString(c) + " (readings R130)");
      missing_discard_.reset();
      UpdateRare();
      return;
    }
  }
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
  [[gnu::noinline]] void UndrawnTurnShown(const Event& e, Position* pos) {
    const std::optional<Card> taken = StockCardTaken(e, /*bonus=*/false);
    if (!taken) return;
    const UndrawnTurn turn = *undrawn_turn_;
    undrawn_turn_.reset();
    UpdateRare();
    const int due = choice_.rules.stock_draw;
    if (pos->stock_slip_open() || pos->StockCardsBefore(*taken) != due) return;
    const std::vector<Card> cards = pos->StockTop(due);
    if (!pos->GiveFromStock(turn.seat, cards)) return;
    AddNote(turn.finding, "the draw of " + ToString(cards) +
                              ", the stock's next, was left out before this line: " +
                              (e.type == EventType::kThree ? "the three's replacement at line "
                                                           : "the draw of line ") +
                              std::to_string(e.line) + " comes after it; made up (readings R121)");
  }
  // R128: the next card taken from the stock, by a draw or a three's
  // replacement, is the first card the over-long draw took beyond its due,
  // and not the stock's next: those cards were written in the draw by
  // mistake, and go back to the stock before this move. Any other take
  // from the stock: they were drawn.
  [[gnu::noinline]] void OverDrawShown(const Event& e, Position* pos) {
    const std::optional<Card> taken = StockCardTaken(e, /*bonus=*/true);
    if (!taken) return;
    const OverDraw over = std::move(*over_draw_);
    over_draw_.reset();
    UpdateRare();
    if (*taken != over.cards[0] || pos->IsStockNext(*taken) ||
        !pos->ReturnToStock(over.player, over.cards))
      return;
    AddNote(over.finding, "line " + std::to_string(e.line) + " takes " + ToString(*taken) +
                              " from the stock: " + ToString(over.cards) +
                              " went back to the stock, written in this draw by mistake (readings "
                              "R128)");
  }
  // True when the move was handled here (a three's line written late).
  [[gnu::noinline]] bool RarePending(const Event& e, Position* pos) {
    if (move_deferred_ && !settling_move_) {  // R118, R121, R123
      if (SettleDeferredMove(&e)) return true;
      if (skip_.active) {  // the move kept lost the hand's state: this one is skipped too
        Skipped(e.line);
        return true;
      }
    }
    if (deferred_end_ && !settling_end_) {  // R135
      if (!LastDiscardAfterEnd(e, *pos)) {
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
    if (pending_end_game_) {
      if (pos->phase() == Phase::kOver) {  // R142 kept it: a move after the hand's end
        FlushEndGame();
        OnMove(e);
        return true;
      }
      EndGameMidHand(e);  // the hand plays on after an end_game
    }
    if (opener_kept_) OpenerSettled(e, pos);
    if (swap_finding_ >= 0) SwapShown(e, pos);  // R127
    if (over_draw_) OverDrawShown(e, pos);      // R128
    if (missing_discard_) DiscardShown(e, pos);  // R130
    if (undrawn_turn_) UndrawnTurnShown(e, pos);  // R121
    return false;
  }
  // R127: one card of the deal was written as another. The move of one of
  // the seats that may hold the missing card shows whose it is: it plays
  // the missing card, which it holds only as the card written, or ends its
  // turn still holding the card written, a three it would have laid out.
  [[gnu::noinline]] void SwapShown(const Event& e, Position* pos) {
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
    } else {
      return;
    }
    if (!pos->SettleSwap(player)) return;
    AddNote(swap_finding_,
            "line " + std::to_string(e.line) + ": " + how + "; it was the " + ToString(swap.meant));
    swap_finding_ = -1;
    UpdateRare();
  }
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
                    undrawn_turn_.has_value();
  }
  // True when the move was handled here (replayed as another seat's, or
  // not replayed).
  [[gnu::noinline]] bool UnusualMove(const Event& e, Position& pos, int player) {
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
      } else if ((e.type == EventType::kMeld &&
                  (pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay ||
                   pos.draw_left_out())) ||
                 (e.type == EventType::kThree && e.card && !e.replacement &&
                  player == pos.current_player() && pos.phase() == Phase::kDraw)) {
        // A red three from the pile (no replacement) too: the take came first.
        TakeLeftOutBeforeMeld(e, &pos, player);
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
    if (e.type == EventType::kDraw && (e.bonus || pos.phase() == Phase::kPlay) &&
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
      if ((e.type == EventType::kDraw || e.type == EventType::kTakePile) && !e.bonus)
        return Defer(e);
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
  // R123: `three` lines left out of the log. A seat that holds threes to
  // lay out (red ones, and black ones where they are laid out too) and
  // takes a card from further on in the recorded stock (a turn's draw, a
  // three's replacement), or plays the stock's next cards it lacks, laid the
  // threes out, each replaced by the stock's next card. They are laid out
  // here, when each is legal now; one finding says so and the move is then
  // played as usual.
  std::vector<Card> ThreesToLayOut(const Position& pos, int player, std::optional<Card> but) {
    std::vector<Card> threes;
    for (Suit suit : {Suit::kHearts, Suit::kDiamonds, Suit::kSpades, Suit::kClubs}) {
      const Card c(Rank::kThree, suit);
      if (!choice_.rules.IsLaidOutThree(c)) continue;
      for (int n = pos.Holding(player).count(c) - (but == c ? 1 : 0); n > 0; --n)
        threes.push_back(c);
    }
    return threes;
  }
  // Lays out the first `n` of `threes` with the stock's next cards; false
  // (and `pos` untouched) when one of them is not legal now.
  bool LayOutLeftOut(Position* pos, int player, const std::vector<Card>& threes, int n, int line,
                     std::string* which, bool apply = true) {
    const std::vector<Card> replacements = pos->StockTop(n);
    if (int(threes.size()) < n || int(replacements.size()) < n) return false;
    Position laid = *pos;
    for (int i = 0; i < n; ++i) {
      const ThreeMove three{player, threes[size_t(i)], replacements[size_t(i)], line};
      if (!laid.Check(three).empty()) return false;
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
  // R121: a draw or take made up before a meld, whose line may yet come
  // later in the turn (written out of order): it is then not replayed.
  void ExpectLate(EventType type, int player, std::vector<Card> cards, int finding) {
    late_move_ = LateMove{type, player, std::move(cards), finding};
    UpdateRare();
  }
  bool LateMoveCame(const Event& e) {
    const LateMove& late = *late_move_;
    const bool same =
        e.type == late.type && e.player == late.player &&
        (e.type == EventType::kDraw ? e.cards == late.cards : e.top && *e.top == late.cards[0]);
    if (same && late.finding >= 0)
      AddNote(late.finding, std::string(e.type == EventType::kDraw ? "the draw" : "the take") +
                                " comes late, at line " + std::to_string(e.line) +
                                ": not replayed");
    // The wait ends with the turn: the line, a discard, or another seat's move.
    if (same || e.type == EventType::kDiscard || e.player != late.player) {
      late_move_.reset();
      UpdateRare();
    }
    if (same) last_move_line_ = e.line;
    return same;
  }
  // A `three` line that comes after R123 laid its three out, with the same
  // card and replacement: written late, not replayed (a note on the
  // inference's finding). Any other move ends the wait.
  bool LateThree(const Event& e) {
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
                     bool others_only = false) {
    const Card drawn = e.type == EventType::kThree ? *e.replacement : e.cards[0];
    const int skipped = pos->StockCardsBefore(drawn);
    if (skipped == 0) return false;
    int owner = player;
    std::vector<Card> threes =
        ThreesToLayOut(*pos, player, e.type == EventType::kThree ? e.card : std::nullopt);
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
  // Lays out the first `skipped` of `owner`'s `threes` with the stock's next
  // cards, before `e` (the move that took a card further on), with R123's
  // one finding on `e`'s line. With `apply` false, only whether it may.
  bool LayOutWithFinding(const Event& e, Position* pos, int player, int owner,
                         const std::vector<Card>& threes, int skipped, bool apply = true) {
    const Card drawn = e.type == EventType::kThree ? *e.replacement : e.cards[0];
    const std::vector<Card> next = pos->StockTop(1);
    const Where where = AtMove(*pos, player);
    std::string which;
    if (next.empty() || !LayOutLeftOut(pos, owner, threes, skipped, e.line, &which, apply))
      return false;
    if (!apply) return true;
    late_finding_ = Add(e.line, CheckId::kStockMismatch,
                        std::string(e.type == EventType::kThree ? "the replacement drawn is "
                                                                : "the card drawn is ") +
                            ToString(drawn) + " but the stock's next card is " + ToString(next[0]),
                        {Context(where),
                         ToString(drawn) + " comes " + std::to_string(skipped) +
                             (skipped == 1 ? " card" : " cards") + " on, and " +
                             LeftOutNote(owner, threes, skipped, which),
                         "rule: 000 §7, §12"});
    return true;
  }
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
  [[gnu::noinline]] bool SettleThreesBlock(const Event* next, Position* pos) {
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
  // Whether `three` of `seat`, laid out with the stock's next card, leaves
  // `first` and every line of `block` legal in turn.
  bool BlockLegalAfter(const Position& pos, int seat, Card three, const Event& first,
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
  // R123 at a turn's draw, or a three's replacement, is settled by the next
  // event: a `three` of the same seat next (or its draw, after a three)
  // means the lines were written in another order, and the card taken was a
  // wrong one (R117); anything else, that the threes' lines were left out.
  // A discard that keeps threes to lay out is settled by the next seat's
  // draw: a card as many places on in the stock as the threes kept, or
  // fewer, means their lines were left out before the discard.
  // True when it played `next` too (which is then not played again).
  bool SettleDeferredMove(const Event* next) {
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
    const bool draw_takes_skipped = next && next->type == EventType::kDraw &&
                                    !next->cards.empty() && !skipped.empty() &&
                                    next->cards[0] == skipped[0];
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
    const int k = draw.type == EventType::kThree && draw.replacement
                      ? pos->StockCardsBefore(*draw.replacement)
                      : 0;
    if (k > 0 && draw.card && next && next->type == EventType::kThree && next->replacement &&
        next->card &&
        !(undrawn && k == choice_.rules.stock_draw && *draw.player == pos->current_player())) {
      const std::vector<Card> top = pos->StockTop(k + 2);
      const std::vector<Card> threes = ThreesToLayOut(*pos, *draw.player, draw.card);
      int left = pos->Holding(*draw.player).count(*next->card) - (*draw.card == *next->card);
      for (int i = 0; i < k && i < int(threes.size()); ++i)
        left -= threes[size_t(i)] == *next->card;
      const bool follows = int(top.size()) == k + 2 && *next->replacement == top[size_t(k + 1)];
      three_follows = follows && left > 0;
      others_follow = follows && left <= 0 && next->player == draw.player &&
                      ThreesLeftOut(draw, pos, *draw.player, /*apply=*/false, /*others_only=*/true);
      // Several other seats' threes could be the one left out: the lines
      // after tell (SettleThreesBlock), this one among them.
      if (follows && left <= 0 && next->player == draw.player && !others_follow && k == 1 &&
          pos->phase() == Phase::kBeforePlay && ThreeHolders(*pos, *draw.player).size() > 1) {
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
  // R148: a take kept while bonus cards are due. When the next line is the
  // bonus draw, legal before the take, and the take legal after it, the two
  // lines are written in the wrong order: the draw is played first, one
  // finding on the take's line. Otherwise the take is played as written.
  // True when `next` was played here.
  [[gnu::noinline]] bool SettleTakeBeforeBonus(const Event* next, Position* pos) {
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
  // R131: the first draw from the stock after bonus cards were forfeited by
  // a take, of the card exactly as many cards on as were due, the stock
  // untouched since: the bonus draw was left out before the take. The
  // cards go to the seat they were due to, and the forfeit's finding says so.
  [[gnu::noinline]] bool ForfeitedBonusDrawn(const Event& e, Position* pos) {
    const ForfeitedBonus due = std::move(forfeited_bonus_);
    forfeited_bonus_ = ForfeitedBonus();
    if (due.hand != hand_number_ || due.stock_size != pos->stock_size() || pos->stock_slip_open() ||
        pos->StockCardsBefore(e.cards[0]) != int(due.cards.size()) ||
        pos->StockTop(int(due.cards.size())) != due.cards ||
        !pos->GiveFromStock(due.seat, due.cards))
      return false;
    AddNote(due.finding, "the bonus draw of " + ToString(due.cards) +
                             ", the stock's next, was left out before this line: the next draw "
                             "from the stock, at line " +
                             std::to_string(e.line) +
                             ", comes after it; made up there (readings R131)");
    return true;
  }
  // R143: `three`, the line after `kept`, is legal before it, and `kept`
  // is legal after it: the two lines are written in the wrong order. Both
  // are played, the three first, with one finding on `kept`'s line. False
  // (and nothing played) otherwise.
  [[gnu::noinline]] bool ThreeReplayedFirst(const Event& kept, const Event& three, Position* pos) {
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
            (*three.player == *kept.player ? std::string("its ")
                                           : SeatName(*three.player) + "'s ") +
            ToString(*three.card) + ", laid out at line " + std::to_string(three.line),
        {"the two lines are written in the wrong order, and are replayed line " +
         std::to_string(three.line) + " first (readings R143)"});
    OnMove(kept);
    settling_move_ = false;
    return true;
  }
  // R136: a bonus draw kept in the turn that made the initial meld. When the
  // next event is that seat's discard, and the discard earns exactly these
  // cards (the stock's next), the two lines are written in the wrong order:
  // the discard is played first, then the bonus draw, one finding. Otherwise
  // the draw is played as written. True when `next` was played here.
  [[gnu::noinline]] bool SettleEarlyBonus(const Event* next, Position* pos) {
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
  // R140: a bonus draw in the turn that made the initial meld, followed by
  // the next seat's move: the discard that ended the turn, and earned the
  // bonus, was left out before the draw. When the bonus it would earn is
  // exactly the cards drawn (the stock's next), the turn ends there without
  // a discard, one finding, and the bonus is due as after the discard; the
  // draw is then played as usual (by the caller).
  // A take next whose top card the seat holds names the card: the discard
  // of it is made up there instead (as in R129).
  void DiscardLeftOutBeforeBonus(const Event& bonus, const Event& after, Position* pos) {
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
  // R131: bonus cards due (001 L37) and the next turn's draw a card as many
  // on in the recorded stock: the bonus draw was left out before it. Made
  // up here, one finding. Whether it was.
  bool BonusDrawLeftOut(const Event& e, Position* pos) {
    const int seat = pos->bonus_player();
    const int due = pos->bonus_count();
    if (!pos->stock_known() || pos->stock_slip_open() || pos->StockCardsBefore(e.cards[0]) != due)
      return false;
    const DrawMove bonus{seat, pos->StockTop(due), e.line, /*bonus=*/true};
    if (int(bonus.cards.size()) != due || !pos->Check(bonus).empty()) return false;
    const Where where = AtMove(*pos, seat);
    pos->Play(bonus);
    const int index = Add(
        e.line, CheckId::kDrawCount,
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
  [[gnu::noinline]] bool SettleDeferredDeal(const Event* next) {
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
  // R118: the next seat's draw or take, kept while the turn in play had not
  // ended. When the next event is that turn's discard (for a take, of the
  // top card it names), the two lines are written in the wrong order: the
  // discard is played first, then the draw or take, one finding. Otherwise
  // the move is played as written (the turn ended without a discard).
  bool SettleEarlyOpener(const Event* next, Position* pos) {
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
           SeatName(due) + "'s discard comes after this line, at line " +
               std::to_string(next->line) +
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
  // R138: the next seat lays out a red three in the turn in play, and its
  // own move follows (not that turn's discard): the discard that ended the
  // turn was left out before the three. The turn ends there, one finding
  // (discard-missing, as the next seat's draw would give it), and the three
  // is then played at the start of the next seat's turn.
  void DiscardLeftOutBeforeThree(const Event& three, Position* pos) {
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
  // R129: the next seat takes the pile, with a top card the seat in turn
  // holds and the pile has not, before that turn's discard and with no
  // discard after it: the turn's discard of that card was left out. Made
  // up before the take, one finding.
  // True when it was made up.
  bool DiscardLeftOutBeforeTake(const Event& take, Position* pos) {
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
  // The cards a move plays from the hand that `holding` lacks, in order.
  std::vector<Card> Lacking(const Event& e, CardCounts holding) {
    CardsFromHand(e, &reseat_cards_);
    std::vector<Card> lacking;
    for (Card c : reseat_cards_)
      if (!holding.Remove(c)) lacking.push_back(c);
    return lacking;
  }
  // R121: a take of the pile left out of the log, made up in the first of
  // its forms that is legal now: the top card onto the side's meld of its
  // rank, with two naturals of it, or with a natural and a wild card. The
  // take played, or none.
  // At the turn's end (`turn_ends`), a take that leaves the side's opening
  // short of its minimum is not made up: the turn could not end so.
  std::optional<TakePileMove> TakeLeftOut(Position* pos, int seat, int line, bool turn_ends) {
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
      if (turn_ends) {
        Position after = *pos;  // rare: a turn's take left out, at its end
        after.Play(take);
        if (after.TurnEndOpeningShort()) continue;
      }
      pos->Play(take);
      return take;
    }
    return std::nullopt;
  }
  static std::string TakeText(const TakePileMove& take, int pile) {
    return "the take of the pile (" + std::to_string(pile) + " cards, " + ToString(take.top) +
           " on top" +
           (take.to ? ", onto the meld of " + ToString(*take.to) + "s"
                    : ", with " + ToString(take.with)) +
           ")";
  }
  // At the end of a turn that melded before drawing: the next card another
  // seat takes from the stock is the stock's next, so the turn drew none and
  // took the pile. A note on the turn's one finding.
  void TakeLeftOutAtDiscard(Position* pos, int seat, int line, const std::string& by) {
    const int pile = int(pos->pile().size());
    const std::optional<TakePileMove> take = TakeLeftOut(pos, seat, line, true);
    if (!take) return;
    const int turn = LastFinding(CheckId::kTurnSequence);
    if (turn >= 0)
      AddNote(turn, TakeText(*take, pile) + " was left out: " + by +
                        " is the stock's next card, so the turn drew none (readings R121)");
  }
  // R121: a `three` line of the seat in turn before its draw, whose
  // replacement is a whole draw on in the stock, and whose three the seat
  // holds or draws there: the turn's draw was left out before it (unless
  // the seat's own draw comes next: OwnDrawNext). Made up here (`apply`),
  // one finding; the three is then played. Whether it is that case.
  bool DrawLeftOutBeforeThree(const Event& e, Position* pos, int player, bool apply) {
    const int due = choice_.rules.stock_draw;
    if ((pos->phase() != Phase::kDraw && pos->phase() != Phase::kBeforePlay) ||
        !pos->stock_known() || pos->stock_slip_open() ||
        pos->StockCardsBefore(*e.replacement) != due)
      return false;
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
  // A meld before the turn's draw that plays cards the seat lacks, which the
  // stock's next draw or the pile holds: the draw or the take was left out
  // before it. Made up here, one finding. So is a red three the pile brings
  // (laid out with no replacement) before the take.
  void TakeLeftOutBeforeMeld(const Event& e, Position* pos, int player) {
    const std::vector<Card> lacking = Lacking(e, pos->hand(player));
    if (lacking.empty()) return;
    const Where where = AtMove(*pos, player);
    const bool three = e.type == EventType::kThree;
    // Melds before the draw already had the turn's finding: a note on it.
    const bool found = pos->draw_left_out();
    auto report = [&](const std::string& what, EventType type, std::vector<Card> cards) {
      const std::string note = what + " was left out before this line: the " +
                               (three ? "three lays out " : "meld plays ") + ToString(lacking) +
                               (type == EventType::kTakePile ? " from the pile" : "") +
                               "; made up here (readings R121)";
      int index = -1;
      if (found) {
        index = LastFinding(CheckId::kTurnSequence);
        if (index >= 0) AddNote(index, note);
      } else {
        index = Add(e.line, CheckId::kTurnSequence,
                    "seat " + std::to_string(player) + " must draw or take the pile first",
                    {Context(where), note,
                     "rule: " + choice_.rules.Cite("rule.draw_first", "000 §11, §12")});
      }
      ExpectLate(type, player, std::move(cards), index);
    };
    // The stock's next card(s), played: the draw was left out.
    CardCounts drawn;
    const DrawMove draw{player, pos->StockTop(choice_.rules.stock_draw), e.line};
    for (Card c : draw.cards) drawn.Add(c);
    if (pos->stock_known() && !pos->stock_slip_open() &&
        int(draw.cards.size()) == choice_.rules.stock_draw && drawn.Contains(lacking) &&
        pos->Check(draw).empty()) {
      pos->Play(draw);
      return report("the draw of " + ToString(draw.cards) + ", the stock's next,", EventType::kDraw,
                    draw.cards);
    }
    CardCounts pile;
    for (Card c : pos->pile()) pile.Add(c);
    if (!pile.Contains(lacking)) return;
    const int size = int(pos->pile().size());
    const std::optional<TakePileMove> take = TakeLeftOut(pos, player, e.line, false);
    if (!take) return;
    report(TakeText(*take, size), EventType::kTakePile, {take->top});
  }
  // R147: the seat's meld right after the discard whose turn end finds the
  // initial meld short. When the meld, then the discard, are legal, the meld
  // was made before the discard and written after it: one finding, and the
  // two are replayed in that order (the side opens, and earns any bonus, at
  // the discard). True when it played `next`.
  bool OpeningMeldAfterDiscard(const Event& discard, const Event& next, Position* pos) {
    const int seat = *discard.player;
    if (next.type != EventType::kMeld || next.player != discard.player ||
        !FillMove(next, seat, &meld_, &fill_error_))
      return false;
    Position probe = *pos;
    if (!probe.Play(meld_).empty() ||
        !probe.Play(DiscardMove{seat, *discard.card, discard.line, discard.face_down}).empty())
      return false;
    const int root =
        Add(next.line, CheckId::kTurnSequence,
            SeatName(seat) + " melds after their discard at line " + std::to_string(discard.line) +
                ", which ended the turn",
            {Context(AtMove(*pos, seat)),
             "without this meld the turn's initial meld is short; a turn melds before it "
             "discards: the meld is replayed as made before that discard, and completes the "
             "initial meld (readings R147)",
             "rule: 000 §11"});
    settling_move_ = true;
    OnMove(next);
    OnMove(discard);
    settling_move_ = false;
    meld_after_discard_ = {discard.line, root};  // a second meld after it: a note (R132)
    return true;
  }
  bool SettleDeferredDiscard(const Event* next, Position* pos) {
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
    const std::string by =
        taken ? (next->type == EventType::kThree ? "the three's replacement at line "
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
    // R121: a turn that melded before drawing and drew nothing since. The
    // next card taken from the stock a whole draw on shows the draw left
    // out: it is made up before the discard, and the turn's one finding says
    // so.
    if (pos->draw_left_out() && taken && pos->IsStockNext(*taken))
      TakeLeftOutAtDiscard(pos, seat, discard.line, by);
    if (pos->draw_left_out() && taken && AWholeDrawOn(*pos, *next, *taken)) {
      const DrawMove late{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
      if (pos->Check(late).empty()) {
        pos->Play(late);
        const int turn = LastFinding(CheckId::kTurnSequence);
        if (turn >= 0)
          AddNote(turn, "the draw of " + ToString(late.cards) +
                            ", the stock's next, was left out: " + by +
                            " comes after it (readings R121)");
      }
    }
    // A turn with no draw whose next event takes nothing from the stock:
    // the next card taken from it may still tell (UndrawnTurnShown).
    const bool undrawn = !taken && pos->current_player() == seat &&
                         (pos->phase() == Phase::kDraw || pos->phase() == Phase::kBeforePlay);
    const std::vector<Card> threes = ThreesToLayOut(*pos, seat, std::nullopt);
    const int skipped = next && next->type == EventType::kDraw && !next->bonus &&
                                next->player != discard.player && !next->cards.empty()
                            ? pos->StockCardsBefore(next->cards[0])
                            : 0;
    const std::vector<Card> replacements = pos->StockTop(skipped);
    std::string which;
    const bool laid =
        skipped > 0 && LayOutLeftOut(pos, seat, threes, skipped, discard.line, &which);
    settling_move_ = true;
    OnMove(discard);
    settling_move_ = false;
    const int turn = LastFinding(CheckId::kTurnSequence);
    if (undrawn && !laid && turn >= 0 && report_->findings[size_t(turn)].line == discard.line) {
      undrawn_turn_ = UndrawnTurn{seat, turn};
      UpdateRare();
    }
    if (!laid) return false;
    const Card drawn = next->cards[0];
    late_finding_ =
        Add(next->line, CheckId::kStockMismatch,
            "the card drawn is " + ToString(drawn) + " but the stock's next card is " +
                ToString(replacements[0]),
            {Context(AtMove(*pos, *next->player)),
             ToString(drawn) + " comes " + std::to_string(skipped) +
                 (skipped == 1 ? " card" : " cards") + " on, and " + SeatName(seat) +
                 " ended its turn at line " + std::to_string(discard.line) + " keeping " +
                 ThreesText(threes) +
                 " to lay out: " + (skipped == 1 ? "a `three` line" : "`three` lines") +
                 " left out before that line; laid out there: " + which + " (readings R123)",
             "rule: 000 §7, §12"});
    return false;
  }
  // R121: whether `taken`, the first card `next` takes from the stock, comes
  // a whole draw on. A draw's cards all in a run there say so even where a
  // copy of its first card was taken just before (the nearest place of that
  // card, StockCardsBefore, is then behind).
  bool AWholeDrawOn(const Position& pos, const Event& next, Card taken) const {
    const int draw = choice_.rules.stock_draw;
    if (pos.StockCardsBefore(taken) == draw) return true;
    if (next.type != EventType::kDraw || next.cards.empty() || next.cards[0] != taken) return false;
    const std::vector<Card> top = pos.StockTop(draw + int(next.cards.size()));
    return int(top.size()) == draw + int(next.cards.size()) &&
           std::equal(next.cards.begin(), next.cards.end(), top.begin() + draw);
  }
  // R121: the turn's draw of the stock's next cards, left out before a
  // discard of one of them: made up there, one finding.
  [[gnu::noinline]] void DrawShownByDiscard(Position* pos, int seat, const Event& discard) {
    const DrawMove draw{seat, pos->StockTop(choice_.rules.stock_draw), discard.line};
    if (std::find(draw.cards.begin(), draw.cards.end(), *discard.card) == draw.cards.end() ||
        !pos->Check(draw).empty())
      return;
    DrawMadeUp(pos, draw, "the discard plays " + ToString(*discard.card));
  }
  [[gnu::noinline]] void DrawShownByLateDiscard(Position* pos, int seat, const Event& discard) {
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
  // R121: a turn's draw left out, made up at `draw.tag`'s line (before the
  // move there), and its one `turn-sequence` finding, which says what
  // showed it; the finding's index.
  int DrawMadeUp(Position* pos, const DrawMove& draw, const std::string& shown_by) {
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
  // A meld or discard, after the turn's draw, of cards the seat lacks that
  // are the stock's next.
  void ThreesLeftOutBeforePlay(const Event& e, Position* pos, int player) {
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
  // R118, a turn opened out of turn: a draw or a take carries no sign of
  // whose it was, so the position before it is kept until the next move.
  // When that move is a meld, a discard or a red three of the seat whose turn
  // it was, which holds its cards once the draw is its own, the draw was
  // that seat's: it is replayed so, and its turn-order finding says why.
  [[gnu::noinline]] void KeepOpener(const Event& e, const Position& pos) {
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
  void OpenerSettled(const Event& e, Position* pos) {
    opener_kept_ = false;
    UpdateRare();
    Position* before = opener_before_.get();
    const int due = opener_due_;
    if (e.line == opener_event_.line || e.player != due || pos->current_player() == due ||
        (e.type != EventType::kMeld && e.type != EventType::kDiscard &&
         e.type != EventType::kThree))
      return;
    Event as_due = opener_event_;
    as_due.player = due;
    std::string unused;
    const std::optional<Move> opener = ToMove(as_due, &unused);
    if (!opener) return;
    before->Play(*opener);  // its findings but the turn's were reported at its line
    CardsFromHand(e, &reseat_cards_);
    if (before->current_player() != due || before->phase() != Phase::kPlay ||
        reseat_cards_.empty() || !before->Holding(due).Contains(reseat_cards_))
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
  [[gnu::noinline]] void MoveNotRead(const Event& e) {
    const int root = Add(e.line, CheckId::kLogBadEvent, fill_error_, {"event ignored"});
    LoseState(e.line, root, false);
  }

  [[gnu::noinline]] void OnMove(const Event& e) {
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
        (e.type == EventType::kTakePile &&
         (pos.phase() == Phase::kPlay || pos.bonus_player() >= 0)) ||
        (e.type == EventType::kDraw && (e.bonus || pos.phase() == Phase::kPlay ||
                                        (!e.cards.empty() && !pos.IsStockNext(e.cards[0])))) ||
        ((e.type == EventType::kMeld || e.type == EventType::kDiscard) &&
         (choice_.rules.LaidOutThreesIn(pos.hand(player)) > 0 || pos.draw_left_out() ||
          pos.phase() == Phase::kDraw || pos.phase() == Phase::kBeforePlay))) {
      if (UnusualMove(e, pos, player)) return;
    }
    // R147: the discard that ends a turn whose melds so far make too short
    // an initial meld: the next line may be a meld of that turn, written
    // late (SettleDeferredDiscard).
    if (e.type == EventType::kDiscard && pos.turn_melded() && pos.turn_opening() &&
        !settling_move_ && player == pos.current_player() && pos.phase() == Phase::kPlay &&
        pos.TurnEndOpeningShort()) {
      Defer(e);
      return;
    }
    // A player with no card left cannot meld, discard or lay out a card: the
    // log and the engine disagree about that hand.
    if (pos.hand(player).total() == 0 && !pos.FootPending(player) &&
        (e.type == EventType::kMeld || e.type == EventType::kDiscard ||
         e.type == EventType::kThree || (e.type == EventType::kTakePile && !e.with.empty())))
      return MoveWithNoCard(e, player);
    // The moves with card vectors are members, refilled for each event, so
    // that the vectors keep their capacity: no allocation per event. Each
    // kind is played by its own instance of PlayMove (no closure, no
    // variant).
    switch (e.type) {
      case EventType::kDraw:
        return PlayFilled(e, pos, player, &draw_);
      case EventType::kTakePile:
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

  // No observer listens and no failure of a ruleset's hook waits to be reported.
  bool Quiet() const {
    return driver_->observers_.empty() && (native_hooks_ || !choice_.hooks->HasFailures());
  }
  static bool PlayUsual(Position& pos, const DiscardMove& m) { return pos.PlayUsualDiscard(m); }
  static bool PlayUsual(Position& pos, const DrawMove& m) { return pos.PlayUsualDraw(m); }

  // A move read from the event's fields into `move` (FillMove), then played.
  template <class M>
  void PlayFilled(const Event& e, Position& pos, int player, M* move) {
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
  void PlayMove(const Event& e, Position& pos, int player, const M& move) {
    if constexpr (std::is_same_v<M, DiscardMove>)
      last_discard_ = {reseating_ ? 0 : e.line, player, move.card, {}};
    if constexpr (std::is_same_v<M, ThreeMove>)
      last_three_ = {e.line, player, move.card, move.replacement};
    // The usual discard and draw, played in one pass (Position::PlayUsualDiscard,
    // PlayUsualDraw): legal, with nothing to report and nobody to tell.
    if constexpr (std::is_same_v<M, DiscardMove> || std::is_same_v<M, DrawMove>) {
      if (Quiet() && PlayUsual(pos, move)) {
        last_move_line_ = e.line;
        return;
      }
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
  [[gnu::noinline]] void MoveAfterEnd(const Event& e, const Position& pos, const Where& where) {
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
    std::string how =
        pos.went_out() >= 0
            ? SeatName(pos.went_out()) + " went out at line " + std::to_string(last_move_line_)
            : "play ended at line " + std::to_string(last_move_line_);
    const int root = Add(e.line, CheckId::kTurnSequence, "the deal is already over",
                         {Context(where), how, "rule: 000 §11, §17"});
    SkipAfterEnd(root);
  }

  // What follows every move played: the findings, the end of a hand already
  // over, the observers.
  [[gnu::noinline]] void AfterMove(const Event& e, Position& pos, const Where& where,
                                  bool over_before, TaggedViolations* found_ptr) {
    TaggedViolations& found = *found_ptr;
    if (over_before && IsAlreadyOver(found)) return MoveAfterEnd(e, pos, where);
    last_move_line_ = e.line;
    const size_t findings_before = report_->findings.size();
    if (!found.empty()) ReportMoveFindings(e, pos, &found, where, findings_before);
    if (e.type == EventType::kDraw && !e.bonus) NoteOverDraw(e, findings_before);  // R128
    if (e.type == EventType::kDraw) NoteMissingDiscard(e, findings_before);        // R130
    ReportHookFailures(e.line);
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

  void OnEndHand(const Event& e) {
    // R135: the hand is not over as replayed: the end_hand waits for the
    // next event, which may be the hand's last move, written after it.
    if (!settling_end_ && !settling_deal_ && !deal_deferred_ && in_hand_ && game_.position() &&
        !skip_.active && e.hand && *e.hand == hand_number_ &&
        game_.position()->phase() != Phase::kOver) {
      deferred_end_ = e;
      UpdateRare();
      return;
    }
    if (skip_.active && skip_.unknown) {
      // The resync point of a hand the replay could not follow: it ends
      // here, and its recorded scores stand in for the computed ones.
      EndSkip();
      if (!in_hand_) hand_number_ = *e.hand;
      CloseHand(true, &e);
      return;
    }
    EndSkip();
    if (!in_hand_ || !game_.position()) {
      // The hand just played, ended twice: not a hand of its own.
      if (played_end_line_ && *e.hand == hand_number_) {
        Add(e.line, CheckId::kLogOutOfPlace,
            "hand " + std::to_string(hand_number_) + " was ended already at line " +
                std::to_string(played_end_line_),
            {"event ignored"});
        return;
      }
      return OnSheetEntry(e);  // a hand recorded by its scores only
    }
    if (*e.hand != hand_number_ && *e.hand != game_.due_hand_number()) {
      Add(e.line, CheckId::kLogBadEvent,
          "end_hand says hand " + std::to_string(*e.hand) + ", but hand " +
              std::to_string(hand_number_) + " is being played",
          {});
    }
    const Where where = At(-1);
    const TaggedViolations ended = game_.position()->End(e.line);
    if (!ended.empty()) EndFindings(e, ended, where);
    played_end_line_ = e.line;
    CloseHand(true, &e);
    ReportHookFailures(e.line);
  }

  // The findings of a hand's end. A hand ended early (readings R120): the
  // end the log records is not one the replay reached, so its scores are
  // the recorded ones, as for a hand the replay lost, and the hand's one
  // finding says so; the scores as the hand stands are a note.
  // A hand ended early after the replay departed from the log (R124): the
  // replay's hands are not the log's, so that nobody is out as replayed is
  // that finding's consequence, a note of it, and the recorded scores stand.
  [[gnu::noinline]] void EndFindings(const Event& e, const TaggedViolations& ended,
                                     const Where& where) {
    int departed = e.scores || e.totals ? DepartureRoot(e.line) : -1;
    if (departed < 0 && e.scores && e.breakdown && game_.position()) {
      // R137: nobody out as replayed, after a finding about a side's melds,
      // and the record melds the cards the replay still has in hand.
      bool early = false;
      for (const TaggedViolation& v : ended) early |= v.violation.id == CheckId::kHandEndedEarly;
      if (early) {
        HandReport h;
        h.hand = hand_number_;
        h.breakdown = game_.position()->Score();
        for (const ScoreBreakdown& b : h.breakdown) h.scores.push_back(b.total());
        departed = MeldLeftOutShownByScores(e, h);
      }
    }
    if (departed >= 0) {
      TaggedViolations rest;
      bool folded = false;
      for (const TaggedViolation& v : ended) {
        if (v.violation.id != CheckId::kHandEndedEarly) {
          rest.push_back(v);
          continue;
        }
        AddNote(departed, "line " + std::to_string(e.line) + ": as replayed, " +
                              v.violation.message +
                              "; the replay's hands are not the log's since this finding");
        folded = true;
      }
      if (folded) {
        lost_this_hand_ = true;
        lost_root_ = departed;
        departed_ = true;
        return AddViolations(rest, e.line, where);
      }
    }
    std::vector<int> indices;
    AddViolations(ended, e.line, where, &indices);
    for (size_t i = 0; i < ended.size() && i < indices.size(); ++i) {
      if (ended[i].violation.id != CheckId::kHandEndedEarly || indices[i] < 0) continue;
      if (!e.scores && !e.totals) return;  // nothing recorded to take: compared as it stands
      lost_this_hand_ = true;
      lost_root_ = indices[i];
      ended_early_ = true;
      return;
    }
  }

  // A hand recorded by its scores only (docs/sheets.md): each part is
  // checked against what the rules in force can produce, and the scores
  // taken as true go into the running totals, which are compared as for a
  // hand played out.
  void OnSheetEntry(const Event& e) {
    const int sides = choice_.rules.num_sides();
    if (Over() && !over_reported_) {  // once, at the first hand too many
      over_reported_ = true;
      Add(e.line, CheckId::kGameEnd,
          "the game was already over (a side reached " +
              std::to_string(choice_.rules.target_score) + "), yet another hand is recorded",
          {"rule: " + choice_.rules.Cite("rule.game_end", "000 §19")});
    }
    const bool misnumbered = !lost_deal_pending_ && *e.hand != hand_number_ + 1;
    if (misnumbered) {
      Add(e.line, CheckId::kDealHandNumber,
          "this hand is numbered " + std::to_string(*e.hand) + "; the next is " +
              std::to_string(hand_number_ + 1),
          {"rule: canasta-log/1 end_hand.hand"});
    }
    if (e.dealer) CheckSheetDealer(e, misnumbered);
    hand_number_ = *e.hand;
    SheetEntry entry;
    entry.breakdown = e.breakdown;
    entry.scores = e.scores;
    const SheetResult checked = CheckSheetEntry(choice_.rules, *choice_.hooks, entry,
                                                [&](int s) { return SideName(s); });
    std::vector<int> explained(size_t(sides), -1);
    for (const SheetFinding& f : checked.findings) {
      const int index = Add(e.line, f.id, f.message, f.notes);
      if (f.changes_score && f.side >= 0 && f.side < sides && explained[size_t(f.side)] < 0)
        explained[size_t(f.side)] = index;
    }
    const std::vector<int> before = Totals();
    HandReport h;
    h.hand = hand_number_;
    h.line = e.line;  // no deal: the entry's own line
    h.complete = true;
    h.breakdown = checked.parts;
    h.recorded_scores = e.scores;
    h.recorded_totals = e.totals;
    const bool totals_ok = e.totals && int(e.totals->size()) == sides;
    bool known = true;
    for (int s = 0; s < sides; ++s) {
      int score = 0;
      if (checked.scores[size_t(s)]) {
        score = *checked.scores[size_t(s)];
      } else if (totals_ok) {
        score = Clamp(int64_t((*e.totals)[size_t(s)]) - before[size_t(s)]);
      } else {
        known = false;
      }
      h.scores.push_back(score);
      offset_[size_t(s)] += score;
    }
    ++sheet_hands_;
    sheet_since_deal_ = true;
    played_end_line_ = 0;
    lost_deal_pending_ = false;
    if (!known) {
      lost_root_ = Add(e.line, CheckId::kLogIncomplete,
                       "hand " + std::to_string(h.hand) +
                           " records no scores, totals or breakdown; the next recorded running "
                           "totals are taken as true",
                       {});
      totals_unknown_ = true;
    }
    h.totals = Totals();
    if (known) CompareTotals(e, h, before, explained, /*sheet_entry=*/true);
    ReportHookFailures(e.line);
    Notify([&](ReplayObserver* o) { o->OnHandEnd(h, &e, nullptr); });
    report_->hands.push_back(std::move(h));
  }

  // A sheet entry's recorded dealer, against the last one recorded or played,
  // the deal passing left once a hand (000 §6); it is then the one the next
  // hand's dealer is judged from. A misnumbered hand has its one finding.
  void CheckSheetDealer(const Event& e, bool misnumbered) {
    const int n = choice_.rules.num_players;
    const int dealer = *e.dealer;
    if (dealer >= n) {
      Add(e.line, CheckId::kDealDealer,
          "there is no seat " + std::to_string(dealer) + " to deal: the game has " +
              std::to_string(n) + " seats",
          {"rule: canasta-log/1 end_hand.dealer"});
      return;
    }
    if (last_dealer_ >= 0 && !misnumbered && *e.hand > last_dealer_hand_) {
      const int expected = choice_.rules.DealerAfter(last_dealer_, *e.hand - last_dealer_hand_);
      if (dealer != expected)
        Add(e.line, CheckId::kDealDealer,
            SeatName(dealer) + " dealt hand " + std::to_string(*e.hand) + ", but " +
                choice_.rules.DealerRotationWords() + ": " + SeatName(last_dealer_) +
                " dealt hand " + std::to_string(last_dealer_hand_) + ", so " +
                SeatName(expected) + " deals this one",
            {"rule: " + choice_.rules.Cite("dealer_rotation", "000 §6")});
    }
    last_dealer_ = dealer;
    last_dealer_hand_ = *e.hand;
  }

  // Scores the hand, compares what the log recorded, and closes it. A hand
  // whose state was lost takes its recorded scores (or nothing) instead.
  void CloseHand(bool complete, const Event* e) {
    bool lost = lost_this_hand_;
    const Position* pos = in_hand_ ? game_.position() : nullptr;
    std::vector<int>& before = before_;  // a member: no allocation per hand
    TotalsInto(&before);
    HandReport h;
    h.hand = hand_number_;
    h.line = hand_line_;
    h.complete = complete;
    const int sides = choice_.rules.num_sides();
    if (in_hand_ && game_.position()) {
      h.breakdown = game_.FinishDeal();
      h.scores.reserve(h.breakdown.size());
      for (const ScoreBreakdown& b : h.breakdown) h.scores.push_back(b.total());
      h.went_out = game_.position()->went_out();
    } else {
      ++lost_hands_;  // the engine never saw this deal
      lost_deal_pending_ = true;
      h.scores.assign(size_t(sides), 0);
    }
    // Readings R124: scores that differ after the replay departed from the
    // log are not a scoring slip of their own.
    if (!lost && e && in_hand_ && game_.position() && RecordedDiffers(*e, before, h.scores)) {
      int root = DepartureRoot(e->line);
      if (root < 0) root = MeldLeftOutShownByScores(*e, h);  // R137
      if (root >= 0) {
        lost = true;
        lost_root_ = root;
        departed_ = true;
      }
    }
    if (lost) TakeRecordedScores(e, before, &h);
    h.totals = Totals();
    if (e) {
      h.recorded_scores = e->scores;
      h.recorded_totals = e->totals;
      if (!lost)
        CompareScores(*e, h, before);
      else if (e->totals && int(e->totals->size()) == sides)
        recorded_totals_ = *e->totals;
    }
    in_hand_ = false;
    lost_this_hand_ = false;
    unread_since_hand_ = false;
    Notify([&](ReplayObserver* o) { o->OnHandEnd(h, e, pos); });
    report_->hands.push_back(std::move(h));
  }

  // CloseHand for a hand the replay lost: its scores are the recorded ones.
  [[gnu::noinline]] void TakeRecordedScores(const Event* e, const std::vector<int>& before,
                                            HandReport* hand) {
    HandReport& h = *hand;
    const int sides = choice_.rules.num_sides();
    // The computed scores of a hand the replay lost mean nothing: take the
    // recorded ones, and say so on the root finding.
    std::vector<int> taken(size_t(sides), 0);
    std::string how;
    if (e && e->scores && int(e->scores->size()) == sides) {
      taken = *e->scores;
      how = "its recorded scores " + Join(taken) + " are taken as true";
    } else if (e && e->totals && int(e->totals->size()) == sides) {
      for (int s = 0; s < sides; ++s)
        taken[size_t(s)] = Clamp(int64_t((*e->totals)[size_t(s)]) - before[size_t(s)]);
      how = "its recorded totals " + Join(*e->totals) + " are taken as true";
    } else {
      // Nothing recorded to take: the scores count what was replayed, and
      // the next recorded totals are taken as true.
      taken = h.scores;
      totals_unknown_ = true;
      how =
          "its scores count only what was replayed, and the next recorded running totals "
          "are taken as true";
    }
    const std::vector<int> computed = h.scores;
    for (int s = 0; s < sides; ++s)
      offset_[size_t(s)] += int64_t(taken[size_t(s)]) - h.scores[size_t(s)];
    if (h.scores != taken) h.breakdown.clear();  // the parts of recorded scores are unknown
    h.scores = taken;
    h.complete = false;  // not replayed to its end
    if (ended_early_) {
      AddNote(lost_root_, "scores as the hand stands " + Join(computed) + "; " + how);
      ended_early_ = false;
      return;
    }
    if (departed_) {
      AddNote(lost_root_, "the replay departs from the log here: hand " +
                              std::to_string(hand_number_) + " ends with scores " + Join(computed) +
                              " as replayed; " + how + " (readings R124)");
      departed_ = false;
      return;
    }
    AddNote(lost_root_,
            "hand " + std::to_string(hand_number_) + " could not be replayed: " + how);
  }

  // Whether the end_hand records scores (or else totals) other than
  // `scores`, the hand's as replayed.
  bool RecordedDiffers(const Event& e, const std::vector<int>& before,
                       const std::vector<int>& scores) const {
    const size_t sides = size_t(choice_.rules.num_sides());
    if (e.scores && e.scores->size() == sides) return *e.scores != scores;
    if (!e.totals || e.totals->size() != sides || before.size() != sides) return false;
    for (size_t s = 0; s < sides; ++s)
      if (Clamp(int64_t((*e.totals)[s]) - before[s]) != scores[s]) return true;
    return false;
  }
  // The first finding of this hand, before `end_line`, that says the log's
  // cards are not where the replay has them, so that its state departed
  // from the log's (readings R124); -1 if none.
  [[gnu::noinline]] int DepartureRoot(int end_line) const {
    for (size_t i = hand_findings_from_; i < report_->findings.size(); ++i) {
      const Finding& f = report_->findings[i];
      // At the end_hand's own line, only the hand's last turn ended without
      // its discard (the card stays in the seat's hand as replayed).
      if (f.line > end_line || (f.line == end_line && f.id != CheckId::kDiscardMissing)) continue;
      switch (f.id) {
        case CheckId::kLogBadJson:
        case CheckId::kLogBadEvent:
        case CheckId::kLogBadCard:
        case CheckId::kLogUnknownEvent:
        case CheckId::kDealHandSize:
        case CheckId::kDealUpcard:
        case CheckId::kDealPack:
        case CheckId::kDealFoot:
        case CheckId::kCardNotHeld:
        case CheckId::kCardTooManyCopies:
        case CheckId::kStockMismatch:
        case CheckId::kStockEmpty:
        case CheckId::kDrawCount:
        case CheckId::kThreeReplacement:
        case CheckId::kPileEmpty:
        case CheckId::kPileTopMismatch:
        case CheckId::kMeldTargetMissing:
        case CheckId::kDiscardMissing:
          return int(i);
        default:
          break;
      }
    }
    // R137: a meld line left out, whose finding is not a departure's own
    // kind (an initial meld judged short, which a later addition to the
    // meld left out showed).
    for (const LeftOutMeld& left : left_out_)
      if (left.root >= 0 && report_->findings[size_t(left.root)].line < end_line) return left.root;
    return -1;
  }

  void CompareScores(const Event& e, const HandReport& h, const std::vector<int>& before) {
    const int sides = choice_.rules.num_sides();
    std::vector<int>& score_finding = score_finding_;  // a member: no allocation per hand
    score_finding.assign(size_t(sides), -1);
    if (traded_dirty_ || traded_.size() != size_t(sides)) {  // set only by a finding
      traded_.assign(size_t(sides), TradedPart());
      traded_dirty_ = false;
    }
    const bool scores_ok = e.scores && int(e.scores->size()) == sides;
    if (e.scores) {
      if (!scores_ok) {
        EntriesFinding(e, "scores", e.scores->size());
      } else {
        for (int s = 0; s < sides; ++s) {
          if ((*e.scores)[size_t(s)] == h.scores[size_t(s)]) continue;
          score_finding[size_t(s)] = ScoreHandFinding(e, h, s);
        }
      }
    }
    if (e.breakdown) {
      if (int(e.breakdown->size()) != sides) {
        EntriesFinding(e, "breakdown", e.breakdown->size());
      } else {
        // A part the hand played out contradicts may also be one the rules
        // can never produce: that is said on the same finding (one slip,
        // one finding). Where the recorded part is the true one, the rules
        // produced it, whatever the move that led there.
        // The sheet's own check is needed only for a part that disagrees;
        // with native hooks (pure, never failing) it is made only then. A
        // ruleset's own hooks are called as before, failures and all.
        std::optional<SheetResult> sheet;
        if (!native_hooks_) CheckSheetOnce(e, &sheet);
        const std::vector<BreakdownPart>& known_parts = BreakdownParts();
        const std::vector<std::string_view>& part_names = PartNames();
        const std::vector<std::string>& extra_parts = choice_.hooks->ExtraParts();
        // A log lists the parts in the usual order: the search for each
        // starts after the last one found.
        size_t next_name = 0;
        const size_t names = part_names.size();
        for (int s = 0; s < sides; ++s) {
          // R137: the side's score right, its record melding cards the
          // replay has in its hands, after a finding about its melds: the
          // melded and in_hand parts are that finding's note.
          const int meld_root = score_finding[size_t(s)] < 0 && size_t(s) < left_out_.size()
                                    ? left_out_[size_t(s)].meld_finding
                                    : -1;
          const int64_t moved = meld_root >= 0 ? MeldedMoreAsRecorded(e, h, s) : 0;
          if (moved > 0) MeldedMoreNote(e, h, s, meld_root, moved);
          for (const auto& [name, value] : (*e.breakdown)[size_t(s)]) {
            std::string_view key = name;
            if (key == "threes") key = "red_threes";
            if (moved > 0 && (key == "melded" || key == "in_hand")) continue;
            const BreakdownPart* part = nullptr;
            for (size_t k = 0; k < names; ++k) {
              const size_t i = (next_name + k) % names;
              if (key == part_names[i]) {  // the names are distinct
                part = &known_parts[i];
                next_name = i + 1;
                break;
              }
            }
            // The ruleset's own parts (score_parts), set by its hook score.
            const int* extra = nullptr;
            if (!part && !extra_parts.empty()) extra = h.breakdown[size_t(s)].Find(key);
            const bool declared =
                !part && std::find(extra_parts.begin(), extra_parts.end(), key) != extra_parts.end();
            int truth = 0;
            if (!part && !declared && key != "special_hand") {
              UnknownPartFinding(e, name);
              continue;
            }
            if (part) truth = h.breakdown[size_t(s)].*part->field;
            if (extra) truth = *extra;
            if (truth != value) BreakdownFinding(e, s, name, key, truth, value, &sheet);
          }
          if (score_finding[size_t(s)] >= 0)
            MeldedAsRecordedNote(e, h, s, score_finding[size_t(s)]);
        }
      }
    }
    CompareTotals(e, h, before, score_finding);
  }

  // A wrong hand score whose breakdown moves points from the cards left in
  // hand to the melded ones, the same amount each way: cards the replay has
  // in a hand of the side were melded as recorded. Said, so that the user
  // looks for a meld line left out before blaming the scorekeeper.
  [[gnu::noinline]] void MeldedAsRecordedNote(const Event& e, const HandReport& h, int s,
                                              int finding) {
    const int64_t more = MeldedMoreAsRecorded(e, h, s);
    if (more <= 0) return;
    AddNote(finding, "the record counts " + std::to_string(more) + " points more melded and " +
                         std::to_string(more) +
                         " fewer left in hand than the replay: cards the replay has in a hand of " +
                         SideName(s) +
                         " were melded as recorded (a meld line left out of the "
                         "log?)");
  }

  // The points side `s`'s recorded breakdown counts more melded than the
  // replay, when it counts as many fewer left in hand (cards the replay has
  // in a hand of the side were melded as recorded); 0 otherwise.
  int64_t MeldedMoreAsRecorded(const Event& e, const HandReport& h, int s) const {
    if (!e.breakdown || size_t(s) >= e.breakdown->size() || size_t(s) >= h.breakdown.size())
      return 0;
    std::optional<int> melded, in_hand;
    for (const auto& [name, value] : (*e.breakdown)[size_t(s)]) {
      if (name == "melded") melded = value;
      if (name == "in_hand") in_hand = value;
    }
    const ScoreBreakdown& b = h.breakdown[size_t(s)];
    if (!melded || !in_hand) return 0;
    // Melded points count against a side with no canasta where the ruleset
    // says so (001 L84): cards moved from the hand to the melds then make
    // the melded part more negative, by as much as the hand's part grows.
    const int64_t recorded = *melded, replayed = b.melded;
    if (replayed != 0 && (recorded < 0) != (replayed < 0)) return 0;
    const int64_t more =
        (recorded < 0 ? -recorded : recorded) - (replayed < 0 ? -replayed : replayed);
    return more > 0 && int64_t(*in_hand) - b.in_hand == more ? more : 0;
  }
  // R137's note on `root`: the record melds `more` points of side `s` that
  // the replay has in its hands.
  void MeldedMoreNote(const Event& e, const HandReport& h, int s, int root, int64_t more) {
    AddNote(root, "hand " + std::to_string(h.hand) + "'s record (line " + std::to_string(e.line) +
                      ") counts " + std::to_string(more) + " points more melded and " +
                      std::to_string(more) + " fewer left in hand for " + SideName(s) +
                      " than the replay: a meld line of the side was left out of the log (readings "
                      "R137)");
  }

  // R137: a hand whose recorded scores differ for one side only, whose
  // breakdown melds cards the replay has in that side's hands, after a
  // finding about that side's melds: a meld line was left out of the log,
  // and that finding showed it. The recorded scores stand (as after R124's
  // departures); the finding says why. The side's index, or -1.
  [[gnu::noinline]] int MeldLeftOutShownByScores(const Event& e, const HandReport& h) {
    if (!e.scores || e.scores->size() != h.scores.size() || left_out_.size() != h.scores.size())
      return -1;
    int side = -1;
    for (size_t s = 0; s < h.scores.size(); ++s) {
      if ((*e.scores)[s] == h.scores[s]) continue;
      if (side >= 0) return -1;  // not one side's slip
      side = int(s);
    }
    const int root = side < 0 ? -1 : left_out_[size_t(side)].meld_finding;
    if (root < 0) return -1;
    const int64_t more = MeldedMoreAsRecorded(e, h, side);
    if (more <= 0) return -1;
    MeldedMoreNote(e, h, side, root, more);
    return root;
  }

  // CompareScores' findings, worded out of line: the usual hand has none.
  [[gnu::noinline]] void EntriesFinding(const Event& e, const char* field, size_t entries) {
    Add(e.line, CheckId::kLogBadEvent,
        "\"" + std::string(field) + "\" has " + std::to_string(entries) + " entries; there are " +
            std::to_string(choice_.rules.num_sides()) + " sides",
        {});
  }
  [[gnu::noinline]] int ScoreHandFinding(const Event& e, const HandReport& h, int s) {
    const ScoreBreakdown& b = h.breakdown[size_t(s)];
    std::string parts;
    for (const BreakdownPart& p : BreakdownParts()) {
      if (b.*p.field == 0) continue;
      parts += (parts.empty() ? "" : ", ") + std::string(p.name) + " " +
               std::to_string(b.*p.field);
    }
    for (const auto& [name, value] : b.extra) {
      if (value == 0) continue;
      parts += (parts.empty() ? "" : ", ") + name + " " + std::to_string(value);
    }
    return Add(e.line, CheckId::kScoreHand,
               SideName(s) + " scores " + std::to_string(h.scores[size_t(s)]) + " for hand " +
                   std::to_string(h.hand) + ", not " + std::to_string((*e.scores)[size_t(s)]),
               {"computed: " + (parts.empty() ? std::string("nothing") : parts), kScoreSource});
  }
  [[gnu::noinline]] void UnknownPartFinding(const Event& e, const std::string& name) {
    const std::vector<std::string>& extra_parts = choice_.hooks->ExtraParts();
    std::string known =
        "known parts: canastas, red_threes (threes), going_out, melded, in_hand, "
        "penalties, house, special_hand";
    for (const std::string& x : extra_parts) known += ", " + x;
    if (extra_parts.empty()) known += " (a ruleset declares its own in score_parts)";
    Add(e.line, CheckId::kLogBadEvent, "unknown breakdown part \"" + name + "\"", {known});
  }
  // The recorded breakdown as a score sheet (CheckSheetEntry), made once a hand.
  [[gnu::noinline]] void CheckSheetOnce(const Event& e, std::optional<SheetResult>* sheet) {
    if (*sheet) return;
    SheetEntry entry;
    entry.breakdown = e.breakdown;
    *sheet = CheckSheetEntry(choice_.rules, *choice_.hooks, entry,
                             [&](int s) { return SideName(s); });
  }
  [[gnu::noinline]] void BreakdownFinding(const Event& e, int s, const std::string& name,
                                          std::string_view key, int truth, int value,
                                          std::optional<SheetResult>* sheet) {
    CheckSheetOnce(e, sheet);
    std::vector<std::string> notes = {kScoreSource};
    const std::string key_part(key);
    for (const SheetFinding& f : (*sheet)->findings)
      if (f.part == key_part && (f.side == s || f.side < 0))
        notes.insert(notes.end() - 1, "as a score sheet: " + f.message);
    std::string message = SideName(s) + "'s " + name + " is " + std::to_string(truth) + ", not " +
                          std::to_string(value);
    // The side's hand score differs too: one slip, one finding. The part is
    // a note of the score's finding (readings R126).
    const int score = s < int(score_finding_.size()) ? score_finding_[size_t(s)] : -1;
    if (score >= 0) {
      AddNote(score, "in the breakdown, " + name + " is " + std::to_string(truth) + ", not " +
                         std::to_string(value));
      for (size_t i = 0; i + 1 < notes.size(); ++i) AddNote(score, notes[i]);
      return;
    }
    // R139: a second part of the side that differs by the opposite amount,
    // the hand's score right: the record moved points from one part to the
    // other, one slip. A note of the first part's finding.
    TradedPart* traded = s < int(traded_.size()) ? &traded_[size_t(s)] : nullptr;
    traded_dirty_ = true;
    const int64_t delta = int64_t(value) - truth;
    if (traded && traded->finding >= 0 && traded->delta == -delta) {
      const bool meld_moved = (traded->name == "melded" && key == "in_hand") ||
                              (traded->name == "in_hand" && key == "melded");
      AddNote(traded->finding,
              "in the breakdown, " + name + " is " + std::to_string(truth) + ", not " +
                  std::to_string(value) + " too: the record moves " +
                  std::to_string(delta < 0 ? -delta : delta) + " points between " + traded->name +
                  " and " + std::string(key) + ", and the hand's score is right" +
                  (meld_moved ? "; cards the replay has in a hand of the side were melded as "
                                "recorded (a meld line left out of the log?)"
                              : "") +
                  " (readings R139)");
      for (size_t i = 0; i + 1 < notes.size(); ++i) AddNote(traded->finding, notes[i]);
      traded->finding = -2;  // one pair: a third part is a finding of its own
      return;
    }
    const int index = Add(e.line, CheckId::kScoreBreakdown, std::move(message), std::move(notes));
    if (traded && traded->finding == -1) *traded = TradedPart{index, delta, std::string(key)};
  }

  // The recorded running totals against the true ones (docs/log-format.md,
  // "Scores"). `score_finding[s]` is the finding, if any, of a slip in this
  // hand's score of side s that a total following the sheet carries.
  void CompareTotals(const Event& e, const HandReport& h, const std::vector<int>& before,
                     const std::vector<int>& score_finding, bool sheet_entry = false) {
    const int sides = choice_.rules.num_sides();
    const bool scores_ok = e.scores && int(e.scores->size()) == sides;
    if (totals_out_of_range_ || !TotalsInRange()) return TotalsOutOfRange(e.line);
    if (!e.totals) return;
    if (int(e.totals->size()) != sides) {
      Add(e.line, CheckId::kLogBadEvent,
          "\"totals\" has " + std::to_string(e.totals->size()) + " entries; there are " +
              std::to_string(sides) + " sides",
          {});
      return;
    }
    if (totals_unknown_) {
      // A lost hand left the totals unknown: these recorded ones become the
      // baseline (the hand's computed score is still added on top).
      for (int s = 0; s < sides; ++s)
        offset_[size_t(s)] += int64_t((*e.totals)[size_t(s)]) - h.totals[size_t(s)];
      AddNote(lost_root_, "the running totals " + Join(*e.totals) + " recorded at line " +
                              std::to_string(e.line) + " are taken as true");
      totals_unknown_ = false;
      recorded_totals_ = *e.totals;
      return;
    }
    // A recorded running total is wrong only when it differs from the true
    // total; the score sheet's own arithmetic (its previous total plus its
    // hand score) is a note, so that one slip is one finding (docs/log-format.md).
    for (int s = 0; s < sides; ++s) {
      const int64_t recorded = (*e.totals)[size_t(s)];
      const int64_t truth = h.totals[size_t(s)];
      const int64_t prev = recorded_totals_ ? (*recorded_totals_)[size_t(s)] : before[size_t(s)];
      const int64_t score = scores_ok ? (*e.scores)[size_t(s)] : h.scores[size_t(s)];
      const int64_t sheet = prev + score;  // 64 bits: recorded numbers are untrusted
      auto sheet_note = [&] {  // worded only for a finding or a note
        return "the sheet's own sum: previous recorded total " + std::to_string(prev) +
               " + recorded hand score " + std::to_string(score) + " = " + std::to_string(sheet);
      };
      // The finding that explains a total the sheet got right by its own
      // arithmetic: this hand's score-hand error, or an earlier total's.
      const auto found_total = last_total_finding_.find(s);
      const int explained_by = score_finding[size_t(s)] >= 0              ? score_finding[size_t(s)]
                               : found_total != last_total_finding_.end() ? found_total->second
                                                                          : -1;
      if (recorded != truth && (sheet != recorded || explained_by < 0)) {
        std::vector<std::string> notes = {
            "true total: previous true total " + std::to_string(before[size_t(s)]) +
                " + " + (sheet_entry ? "hand score taken as true " : "computed hand score ") +
                std::to_string(h.scores[size_t(s)]),
            "rule: " + choice_.rules.Cite("rule.totals", "000 §19")};
        if (sheet != recorded && sheet != truth) notes.insert(notes.begin() + 1, sheet_note());
        last_total_finding_[s] =
            Add(e.line, CheckId::kScoreTotal,
                SideName(s) + "'s running total should be " + std::to_string(truth) + ", not " +
                    std::to_string(recorded),
                std::move(notes));
      } else if (recorded != truth) {
        // The sheet adds up; it carries a slip reported where it was made,
        // and so do the totals that follow it.
        last_total_finding_[s] = explained_by;
        AddNote(explained_by, "hand " + std::to_string(h.hand) + " (line " +
                                  std::to_string(e.line) + ") carries it: " + SideName(s) +
                                  "'s recorded total " + std::to_string(recorded) +
                                  ", true total " + std::to_string(truth));
      } else if (sheet != recorded) {
        // True, though not what the sheet's previous entries add up to.
        AddNote(explained_by, "hand " + std::to_string(h.hand) + " (line " +
                                  std::to_string(e.line) + ") records the true total " +
                                  std::to_string(recorded) + " for " + SideName(s) + "; " +
                                  sheet_note());
      }
    }
    recorded_totals_ = *e.totals;
  }

  void OnEndGame(const Event* e, int line) {
    if (e && ended_game_line_) {
      Add(line, CheckId::kLogOutOfPlace,
          "the game was ended already at line " + std::to_string(ended_game_line_),
          {"event ignored"});
      return;
    }
    if (e) ended_game_line_ = line;
    CloseOpen(line, [&] {
      return "hand " + std::to_string(hand_number_) + " has no end_hand event before end_game";
    });
    ended_game_ = true;
    if (!e) {
      Notify([&](ReplayObserver* o) { o->OnGameEnd(*report_, nullptr); });
      return;
    }
    const std::vector<int> totals = Totals();
    if (totals_out_of_range_ || !TotalsInRange()) {
      TotalsOutOfRange(line);
      ReportHookFailures(line);
      Notify([&](ReplayObserver* o) { o->OnGameEnd(*report_, e); });
      return;
    }
    if (!Over() && !EarlyEndCarriesFindings(totals, line)) {
      Add(line, CheckId::kGameEnd,
          TiedAtTarget()
              ? "the totals tie at " + std::to_string(totals[0]) + "; another deal is played (readings R17)"
              : "the game ends before any side reached " +
                    std::to_string(choice_.rules.target_score) + " (totals " + Join(totals) + ")",
          {"rule: " + choice_.rules.Cite("rule.game_end", "000 §19")});
    }
    // The final totals and the winner are compared with the truth; where
    // they merely disagree with the sheet's running totals, a note says so.

    const bool sheet_known = recorded_totals_ && recorded_totals_->size() == totals.size();
    if (e->totals) {
      if (*e->totals != totals && sheet_known && *e->totals == *recorded_totals_ &&
          FinalTotalsCarryFindings(*e->totals, totals, line)) {
        // carried: a note of each finding (readings R133)
      } else if (*e->totals != totals) {
        std::vector<std::string> notes = {"rule: " + choice_.rules.Cite("rule.totals", "000 §19")};
        if (sheet_known && *e->totals == *recorded_totals_)
          notes.insert(notes.begin(), "they repeat the last recorded running totals");
        Add(line, CheckId::kGameTotals,
            "the final totals are " + Join(totals) + ", not " + Join(*e->totals), std::move(notes));
      } else if (sheet_known && *e->totals != *recorded_totals_) {
        AddLastTotalNote(
            "the final totals " + Join(*e->totals) + " at line " + std::to_string(line) +
            " are true, though the last recorded running totals are " + Join(*recorded_totals_));
      }
    }
    std::optional<int> winner = Winner();
    if (e->winner && winner && *e->winner != *winner) {
      std::string who = choice_.rules.partnerships() ? "side " : "seat ";
      std::vector<std::string> notes = {
          "final totals " + Join(totals),
          "rule: " + choice_.rules.Cite("rule.winner", "000 §19, readings R17")};
      const std::vector<int>* sheet = e->totals     ? &*e->totals
                                      : sheet_known ? &*recorded_totals_
                                                    : nullptr;
      const bool follows =
          sheet && !sheet->empty() && *sheet != totals &&
          int(std::max_element(sheet->begin(), sheet->end()) - sheet->begin()) == *e->winner;
      // Readings R133: a winner that follows recorded totals that carry
      // slips already reported carries them too: a note of each.
      const std::vector<int> carried =
          follows ? CarryingFindings(*sheet, totals) : std::vector<int>();
      for (int index : carried)
        AddNote(index, "the recorded winner, " + who + std::to_string(*e->winner) + " (line " +
                           std::to_string(line) +
                           "), follows the totals that carry it: the true "
                           "winner is " +
                           who + std::to_string(*winner));
      if (follows)
        notes.insert(notes.begin() + 1, "the recorded winner follows the recorded totals " +
                                            Join(*sheet) + ", which are wrong");
      if (carried.empty())
        Add(line, CheckId::kGameWinner,
            "the winner is " + who + std::to_string(*winner) + " with " +
                std::to_string(totals[size_t(*winner)]) + ", not " + who +
                std::to_string(*e->winner),
            std::move(notes));
    }
    ReportHookFailures(line);  // tie_break, on totals that take recorded scores
    Notify([&](ReplayObserver* o) { o->OnGameEnd(*report_, e); });
  }

  // An end_game in the middle of a hand still being played, the game not
  // over: the next event says whether the game ended there (no further move
  // of the hand) or the line is out of place, the hand played on.
  // An end_game before the end_hand of the hand in play, played out or lost
  // (R142), is kept as well: the next event may be that end_hand.
  void OnEndGameEvent(const Event& e) {
    const Position* pos = game_.position();
    const bool mid_hand = pos && pos->phase() != Phase::kOver && !skip_.active && !Over();
    if (in_hand_ && !ended_game_line_ &&
        (mid_hand || skip_.active || (pos && pos->phase() == Phase::kOver))) {
      pending_end_game_ = e;
      UpdateRare();
      return;
    }
    OnEndGame(&e, e.line);
  }
  // R142: the end_hand of the hand in play, next after the end_game kept:
  // the two lines written in the wrong order. One finding; the hand ends,
  // then the game.
  [[gnu::noinline]] void EndHandAfterEndGame(const Event& end_hand) {
    const Event end = std::move(*pending_end_game_);
    pending_end_game_.reset();
    UpdateRare();
    Add(end.line, CheckId::kLogOutOfPlace,
        "the end_game comes before the end_hand of hand " + std::to_string(hand_number_) +
            " at line " + std::to_string(end_hand.line),
        {"the two lines are written in the wrong order, and are replayed end_hand first "
         "(readings R142)"});
    settling_end_ = true;  // the hand ends here: no later move of it (R135)
    OnEndHand(end_hand);
    settling_end_ = false;
    OnEndGame(&end, end.line);
  }
  [[gnu::noinline]] void FlushEndGame() {
    const Event end = std::move(*pending_end_game_);
    pending_end_game_.reset();
    UpdateRare();
    OnEndGame(&end, end.line);
  }
  [[gnu::noinline]] void EndGameMidHand(const Event& next) {
    const int line = pending_end_game_->line;
    pending_end_game_.reset();
    UpdateRare();
    Add(line, CheckId::kLogOutOfPlace,
        "end_game in the middle of hand " + std::to_string(hand_number_) +
            ", whose play goes on at line " + std::to_string(next.line),
        {"event ignored: the game is not over (totals " + Join(Totals()) + " before this hand)"});
  }

  // Readings R133: final totals that repeat the last recorded running
  // totals, where every side whose total is wrong has a finding that the
  // running totals already carry, carry those findings too: a note of each,
  // not a finding of their own. False (nothing added) otherwise.
  bool FinalTotalsCarryFindings(const std::vector<int>& recorded, const std::vector<int>& truth,
                                int line) {
    const std::vector<int> carried = CarryingFindings(recorded, truth);
    for (int index : carried)
      AddNote(index, "the final totals " + Join(recorded) + " (line " + std::to_string(line) +
                         ") carry it: the true final totals are " + Join(truth));
    return !carried.empty();
  }
  // The findings that explain every side's recorded total that is not the
  // true one (each side's last score-hand or score-total finding that the
  // running totals carry); empty when a side's has none, or none differs.
  std::vector<int> CarryingFindings(const std::vector<int>& recorded,
                                    const std::vector<int>& truth) const {
    std::vector<int> carried;
    for (size_t s = 0; s < recorded.size() && s < truth.size(); ++s) {
      if (recorded[s] == truth[s]) continue;
      const auto found = last_total_finding_.find(int(s));
      if (found == last_total_finding_.end() || found->second < 0) return {};
      carried.push_back(found->second);
    }
    std::sort(carried.begin(), carried.end());
    carried.erase(std::unique(carried.begin(), carried.end()), carried.end());
    return carried;
  }
  // Readings R133: a game that ends by the recorded running totals, whose
  // true totals end it not, because of slips the totals carry: a note of
  // each, not a game-end finding of its own. False (nothing added) otherwise.
  bool EarlyEndCarriesFindings(const std::vector<int>& truth, int line) {
    if (!recorded_totals_ || recorded_totals_->size() != truth.size()) return false;
    const GameOutcome by_sheet =
        DecideGame(choice_.rules, *choice_.hooks, *recorded_totals_,
                   game_.deals_played() + lost_hands_ + sheet_hands_, game_.canastas());
    if (!by_sheet.over) return false;
    const std::vector<int> carried = CarryingFindings(*recorded_totals_, truth);
    for (int index : carried)
      AddNote(index, "the game ends at line " + std::to_string(line) + " as the recorded totals " +
                         Join(*recorded_totals_) + " reach " +
                         std::to_string(choice_.rules.target_score) + "; the true totals " +
                         Join(truth) + " do not, so another deal was due");
    return !carried.empty();
  }
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
  std::vector<int64_t> offset_;  // per side: recorded minus computed scores of lost hands
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
  struct UndrawnTurn {  // R121 (SettleDeferredDiscard, UndrawnTurnShown)
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
  bool native_hooks_;            // no hook of the ruleset's own: they are pure and never fail
  int lost_hands_ = 0;           // hands whose deal the engine never saw
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
  int last_dealer_ = -1;     // the dealer of the last deal, and its hand number
  int last_dealer_hand_ = 0;
  int last_move_line_ = 0;
  Skip skip_;
  std::vector<Card> drawn_;
  std::string fill_error_;  // why FillMove refused an event
  std::vector<Card> reseat_cards_;  // a move's cards, judging its seat (R118)
  // R118: the position before a draw or take out of turn, while the next
  // move may still show whose it was (KeepOpener, OpenerSettled).
  std::unique_ptr<Position> opener_before_;  // its storage kept from one to the next
  bool opener_kept_ = false;                 // opener_before_ holds a position
  int swap_finding_ = -1;  // R127: the deal's finding of a card written as another, while pending
  bool rare_pending_ = false;                // opener_kept_ or pending_end_game_ (UpdateRare)
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
  double hook_seconds = 0;  // the file's games together (kFileHookSeconds)
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
