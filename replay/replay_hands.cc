// The replay of one game: its deals, the ends of its hands and of the game,
// and the scores and totals the log records, checked against the engine's.
#include "replay/driver_internal.h"

namespace canasta {
namespace {

// The note of a hand's score findings.
constexpr char kScoreSource[] = "rule: 000 §18";

std::string Join(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
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

void ReplayDriver::GameReplay::TotalsOutOfRange(int line) {
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

void ReplayDriver::GameReplay::OnDeal(const Event& e) {
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
  if (e.feet)
    d.feet = *e.feet;
  else
    d.feet.clear();
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
  held_copy_.reset();
  undrawn_turn_.reset();
  if (!vs.empty()) DealFindings(e, vs);
  if (game_.position()->dealt_swap().pending()) {
    for (size_t i = hand_findings_from_; i < report_->findings.size(); ++i)
      if (report_->findings[i].id == CheckId::kDealPack) swap_finding_ = int(i);
  }
  UpdateRare();
  Notify([&](ReplayObserver* o) { o->OnHandStart(e, *game_.position()); });
}

void ReplayDriver::GameReplay::DealFindings(const Event& e, TaggedViolations& vs) {
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

void ReplayDriver::GameReplay::JudgeDealAfterGap(const Event& e, bool after_lost_deal,
                                                 bool after_sheet, bool was_adjusted,
                                                 bool over_before, int previous_hand,
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
                            "this deal is numbered " + std::to_string(*e.hand) + "; the next is " +
                                std::to_string(previous_hand + 1),
                            {"rule: canasta-log/1 deal.hand"}}});
    if (last_dealer >= 0 && *e.dealer >= 0 && *e.dealer < n) {
      const int expected = choice_.rules.DealerAfter(last_dealer, *e.hand - last_dealer_hand);
      if (*e.dealer != expected)
        kept.push_back(TaggedViolation{
            e.line,
            Violation{CheckId::kDealDealer,
                      "seat " + std::to_string(*e.dealer) + " deals hand " +
                          std::to_string(*e.hand) + ", but " + choice_.rules.DealerRotationWords() +
                          ": seat " + std::to_string(last_dealer) + " dealt hand " +
                          std::to_string(last_dealer_hand) + ", so seat " +
                          std::to_string(expected) + " deals this one",
                      {"rule: " + choice_.rules.Cite("dealer_rotation", "000 §6")}}});
    }
  }
  if (was_adjusted && over_before)
    kept.insert(
        kept.begin(),
        TaggedViolation{
            e.line,
            Violation{CheckId::kGameEnd,
                      "the game was already over (a side reached " +
                          std::to_string(choice_.rules.target_score) + "), yet another deal begins",
                      {"rule: " + choice_.rules.Cite("rule.game_end", "000 §19")}}});
  vs = std::move(kept);
}

void ReplayDriver::GameReplay::OnEndHand(const Event& e) {
  // R135: the hand is not over as replayed: the end_hand waits for the
  // next event, which may be the hand's last move, written after it.
  if (!settling_end_ && !settling_deal_ && !deal_deferred_ && in_hand_ && game_.position() &&
      !skip_.active && e.hand && *e.hand == hand_number_ &&
      (game_.position()->phase() != Phase::kOver || LastStockThreeHeld(*game_.position()))) {
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
  TaggedViolations ended = game_.position()->End(e.line);
  if (!ended.empty()) ThreesShownByScores(e, &ended);  // R151
  if (!ended.empty()) MustTakeOfLeftOutMeld(e, &ended);  // R137
  if (!ended.empty()) EndFindings(e, ended, where);
  played_end_line_ = e.line;
  if (held_must_take_.side >= 0) held_must_take_.where = where;
  CloseHand(true, &e);
  if (held_must_take_.side >= 0) ScoreShownMustTake(e);  // R137
  ReportHookFailures(e.line);
}

void ReplayDriver::GameReplay::MustTakeOfLeftOutMeld(const Event& end, TaggedViolations* ended) {
  const Position& pos = *game_.position();
  if (pos.pile().empty()) return;
  const auto must_take = std::find_if(ended->begin(), ended->end(), [](const TaggedViolation& v) {
    return v.violation.id == CheckId::kStockOutMustTake;
  });
  if (must_take == ended->end()) return;
  const Card top = pos.pile().back();
  const int side = choice_.rules.side_of(pos.current_player());
  const LeftOutMeld& left = left_out_[size_t(side)];
  if (left.root < 0) {
    // Nothing in the hand showed the line left out; the record may.
    if (!RecordMeldsTheRankHeld(end, side, top.rank())) return;
    held_must_take_ = {side, *must_take, Where()};
    ended->erase(must_take);
    return;
  }
  const bool named = std::any_of(left.ranks.begin(), left.ranks.end(),
                                 [&](const std::string& to) { return RefRank(to) == top.rank(); });
  if (!named) return;
  bool held = false;
  for (int seat = 0; seat < choice_.rules.num_players; ++seat)
    held |= choice_.rules.side_of(seat) == side && HoldsMeldOf(pos, seat, top.rank());
  if (!held) return;
  AddNote(left.root, "line " + std::to_string(must_take->tag) + ": as replayed, " +
                         must_take->violation.message +
                         "; the side's melds lack the meld line left out, which may have made "
                         "that meld a canasta (readings R137)");
  ended->erase(must_take);
}

bool ReplayDriver::GameReplay::RecordMeldsTheRankHeld(const Event& end, int side, Rank rank) const {
  const Position& pos = *game_.position();
  bool held = false;
  for (int seat = 0; seat < choice_.rules.num_players; ++seat) {
    if (choice_.rules.side_of(seat) != side) continue;
    for (Card c : pos.hand(seat).ToVector()) held |= !c.is_wild() && c.rank() == rank;
  }
  if (!held || !end.scores || end.scores->size() != size_t(choice_.rules.num_sides())) return false;
  HandReport h;
  h.breakdown = pos.Score();
  for (size_t s = 0; s < h.breakdown.size(); ++s) {
    // One side's slip: every other side's score as recorded.
    const bool differs = (*end.scores)[s] != h.breakdown[s].total();
    if (differs != (int(s) == side)) return false;
  }
  return MeldedMoreAsRecorded(end, h, side) > 0;
}

void ReplayDriver::GameReplay::ScoreShownMustTake(const Event& end) {
  HeldMustTake held = std::move(held_must_take_);
  held_must_take_ = HeldMustTake();
  const int root = held.side < int(score_finding_.size()) ? score_finding_[size_t(held.side)] : -1;
  if (root >= 0 && report_->findings[size_t(root)].line == end.line) {
    AddNote(root, "line " + std::to_string(held.finding.tag) + ": as replayed, " +
                      held.finding.violation.message +
                      "; the record melds a card of that rank the replay still has in a hand of "
                      "the side: the meld line left out may have made that meld a canasta, "
                      "which the pile need not join (readings R137, R12)");
    return;
  }
  AddViolations({held.finding}, end.line, held.where);
}

void ReplayDriver::GameReplay::EndFindings(const Event& e, const TaggedViolations& ended,
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
  // R137, when the scores show nothing: the hand's last move was a discard that did not go out only
  // because, as replayed, the seat still held cards (its black threes'
  // finding): the log ends the hand there, the seat out.
  if (departed < 0 && e.scores && black_three_end_.finding >= 0 &&
      black_three_end_.hand == hand_number_ && black_three_end_.line == last_move_line_)
    departed = black_three_end_.finding;
  if (departed >= 0) {
    TaggedViolations rest;
    bool folded = false;
    for (const TaggedViolation& v : ended) {
      if (v.violation.id != CheckId::kHandEndedEarly) {
        rest.push_back(v);
        continue;
      }
      AddNote(departed, "line " + std::to_string(e.line) + ": as replayed, " + v.violation.message +
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

void ReplayDriver::GameReplay::OnSheetEntry(const Event& e) {
  const int sides = choice_.rules.num_sides();
  if (Over() && !over_reported_) {  // once, at the first hand too many
    over_reported_ = true;
    Add(e.line, CheckId::kGameEnd,
        "the game was already over (a side reached " + std::to_string(choice_.rules.target_score) +
            "), yet another hand is recorded",
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
  const SheetResult checked =
      CheckSheetEntry(choice_.rules, *choice_.hooks, entry, [&](int s) { return SideName(s); });
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
      score = replay_internal::Clamp(int64_t((*e.totals)[size_t(s)]) - before[size_t(s)]);
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

void ReplayDriver::GameReplay::CheckSheetDealer(const Event& e, bool misnumbered) {
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
              choice_.rules.DealerRotationWords() + ": " + SeatName(last_dealer_) + " dealt hand " +
              std::to_string(last_dealer_hand_) + ", so " + SeatName(expected) + " deals this one",
          {"rule: " + choice_.rules.Cite("dealer_rotation", "000 §6")});
  }
  last_dealer_ = dealer;
  last_dealer_hand_ = *e.hand;
}

void ReplayDriver::GameReplay::CloseHand(bool complete, const Event* e) {
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
    if (undrawn_turn_ && e && !lost) UndrawnTurnScored(*e);  // R121
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
  if (held_out_) ResolveHeldOut(e, h, lost);  // R137
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

void ReplayDriver::GameReplay::ResolveHeldOut(const Event* e, const HandReport& h, bool lost) {
  HeldOut held = std::move(*held_out_);
  held_out_.reset();
  const size_t s = size_t(held.side);
  const int root = s < left_out_.size() ? left_out_[s].meld_finding : -1;
  std::optional<int> canastas;  // the record's canasta bonus for the side
  if (e && e->breakdown && s < e->breakdown->size())
    for (const auto& [name, value] : (*e->breakdown)[s])
      if (name == "canastas") canastas = value;
  if (lost && root >= 0 && canastas && s < h.breakdown.size() &&
      *canastas > h.breakdown[s].canastas && MeldedMoreAsRecorded(*e, h, held.side) > 0) {
    AddNote(root, "line " + std::to_string(held.line) + ": as replayed, " +
                      held.finding.violation.message + "; the record counts " +
                      std::to_string(*canastas) + " for canastas, not " +
                      std::to_string(h.breakdown[s].canastas) +
                      ": the meld line left out made the canasta (readings R137)");
    for (const std::string& note : held.notes) AddNote(root, note);
    return;
  }
  std::vector<std::string>& notes = held.finding.violation.notes;
  notes.insert(notes.end(), held.notes.begin(), held.notes.end());
  AddViolations({held.finding}, held.line, held.context);
}

void ReplayDriver::GameReplay::TakeRecordedScores(const Event* e, const std::vector<int>& before,
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
      taken[size_t(s)] =
          replay_internal::Clamp(int64_t((*e->totals)[size_t(s)]) - before[size_t(s)]);
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
  AddNote(lost_root_, "hand " + std::to_string(hand_number_) + " could not be replayed: " + how);
}

bool ReplayDriver::GameReplay::RecordedDiffers(const Event& e, const std::vector<int>& before,
                                               const std::vector<int>& scores) const {
  const size_t sides = size_t(choice_.rules.num_sides());
  if (e.scores && e.scores->size() == sides) return *e.scores != scores;
  if (!e.totals || e.totals->size() != sides || before.size() != sides) return false;
  for (size_t s = 0; s < sides; ++s)
    if (replay_internal::Clamp(int64_t((*e.totals)[s]) - before[s]) != scores[s]) return true;
  return false;
}

int ReplayDriver::GameReplay::DepartureRoot(int end_line) const {
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

void ReplayDriver::GameReplay::CompareScores(const Event& e, const HandReport& h,
                                             const std::vector<int>& before) {
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
        if (score_finding[size_t(s)] >= 0) MeldedAsRecordedNote(e, h, s, score_finding[size_t(s)]);
      }
    }
  }
  CompareTotals(e, h, before, score_finding);
}

void ReplayDriver::GameReplay::MeldedAsRecordedNote(const Event& e, const HandReport& h, int s,
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

int64_t ReplayDriver::GameReplay::MeldedMoreAsRecorded(const Event& e, const HandReport& h,
                                                       int s) const {
  if (!e.breakdown || size_t(s) >= e.breakdown->size() || size_t(s) >= h.breakdown.size()) return 0;
  std::optional<int> melded, in_hand, canastas;
  for (const auto& [name, value] : (*e.breakdown)[size_t(s)]) {
    if (name == "melded") melded = value;
    if (name == "in_hand") in_hand = value;
    if (name == "canastas") canastas = value;
  }
  const ScoreBreakdown& b = h.breakdown[size_t(s)];
  if (!melded || !in_hand) return 0;
  // Melded points count against a side with no canasta where the ruleset
  // says so (001 L84): cards moved from the hand to the melds then make
  // the melded part more negative, by as much as the hand's part grows.
  // The part changes sign only where the record has the side a canasta
  // the replay lacks: the meld left out made it.
  const int64_t recorded = *melded, replayed = b.melded;
  const bool made_canasta = choice_.rules.melded_counts_against_without_canasta && recorded > 0 &&
                            replayed < 0 && canastas && *canastas > b.canastas && b.canastas == 0;
  if (replayed != 0 && (recorded < 0) != (replayed < 0) && !made_canasta) return 0;
  const int64_t more =
      (recorded < 0 ? -recorded : recorded) - (replayed < 0 ? -replayed : replayed);
  return more > 0 && int64_t(*in_hand) - b.in_hand == more ? more : 0;
}

void ReplayDriver::GameReplay::MeldedMoreNote(const Event& e, const HandReport& h, int s, int root,
                                              int64_t more) {
  AddNote(root, "hand " + std::to_string(h.hand) + "'s record (line " + std::to_string(e.line) +
                    ") counts " + std::to_string(more) + " points more melded and " +
                    std::to_string(more) + " fewer left in hand for " + SideName(s) +
                    " than the replay: a meld line of the side was left out of the log (readings "
                    "R137)");
}

int ReplayDriver::GameReplay::MeldLeftOutShownByScores(const Event& e, const HandReport& h) {
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

int ReplayDriver::GameReplay::ScoreHandFinding(const Event& e, const HandReport& h, int s) {
  const ScoreBreakdown& b = h.breakdown[size_t(s)];
  std::string parts;
  for (const BreakdownPart& p : BreakdownParts()) {
    if (b.*p.field == 0) continue;
    parts += (parts.empty() ? "" : ", ") + std::string(p.name) + " " + std::to_string(b.*p.field);
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

void ReplayDriver::GameReplay::UnknownPartFinding(const Event& e, const std::string& name) {
  const std::vector<std::string>& extra_parts = choice_.hooks->ExtraParts();
  std::string known =
      "known parts: canastas, red_threes (threes), going_out, melded, in_hand, "
      "penalties, house, special_hand";
  for (const std::string& x : extra_parts) known += ", " + x;
  if (extra_parts.empty()) known += " (a ruleset declares its own in score_parts)";
  Add(e.line, CheckId::kLogBadEvent, "unknown breakdown part \"" + name + "\"", {known});
}

void ReplayDriver::GameReplay::CheckSheetOnce(const Event& e, std::optional<SheetResult>* sheet) {
  if (*sheet) return;
  SheetEntry entry;
  entry.breakdown = e.breakdown;
  *sheet =
      CheckSheetEntry(choice_.rules, *choice_.hooks, entry, [&](int s) { return SideName(s); });
}

void ReplayDriver::GameReplay::BreakdownFinding(const Event& e, int s, const std::string& name,
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

void ReplayDriver::GameReplay::CompareTotals(const Event& e, const HandReport& h,
                                             const std::vector<int>& before,
                                             const std::vector<int>& score_finding,
                                             bool sheet_entry) {
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
    auto sheet_note = [&] {              // worded only for a finding or a note
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
          "true total: previous true total " + std::to_string(before[size_t(s)]) + " + " +
              (sheet_entry ? "hand score taken as true " : "computed hand score ") +
              std::to_string(h.scores[size_t(s)]),
          "rule: " + choice_.rules.Cite("rule.totals", "000 §19")};
      if (sheet != recorded && sheet != truth) notes.insert(notes.begin() + 1, sheet_note());
      last_total_finding_[s] = Add(e.line, CheckId::kScoreTotal,
                                   SideName(s) + "'s running total should be " +
                                       std::to_string(truth) + ", not " + std::to_string(recorded),
                                   std::move(notes));
    } else if (recorded != truth) {
      // The sheet adds up; it carries a slip reported where it was made,
      // and so do the totals that follow it.
      last_total_finding_[s] = explained_by;
      AddNote(explained_by, "hand " + std::to_string(h.hand) + " (line " + std::to_string(e.line) +
                                ") carries it: " + SideName(s) + "'s recorded total " +
                                std::to_string(recorded) + ", true total " + std::to_string(truth));
    } else if (sheet != recorded) {
      // True, though not what the sheet's previous entries add up to.
      AddNote(explained_by, "hand " + std::to_string(h.hand) + " (line " + std::to_string(e.line) +
                                ") records the true total " + std::to_string(recorded) + " for " +
                                SideName(s) + "; " + sheet_note());
    }
  }
  recorded_totals_ = *e.totals;
}

void ReplayDriver::GameReplay::OnEndGame(const Event* e, int line) {
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
            ? "the totals tie at " + std::to_string(totals[0]) +
                  "; another deal is played (readings R17)"
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
      AddLastTotalNote("the final totals " + Join(*e->totals) + " at line " + std::to_string(line) +
                       " are true, though the last recorded running totals are " +
                       Join(*recorded_totals_));
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
              std::to_string(totals[size_t(*winner)]) + ", not " + who + std::to_string(*e->winner),
          std::move(notes));
  }
  ReportHookFailures(line);  // tie_break, on totals that take recorded scores
  Notify([&](ReplayObserver* o) { o->OnGameEnd(*report_, e); });
}

void ReplayDriver::GameReplay::OnEndGameEvent(const Event& e) {
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

void ReplayDriver::GameReplay::EndHandAfterEndGame(const Event& end_hand) {
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

void ReplayDriver::GameReplay::EndGameMidHand(const Event& next) {
  const int line = pending_end_game_->line;
  pending_end_game_.reset();
  UpdateRare();
  Add(line, CheckId::kLogOutOfPlace,
      "end_game in the middle of hand " + std::to_string(hand_number_) +
          ", whose play goes on at line " + std::to_string(next.line),
      {"event ignored: the game is not over (totals " + Join(Totals()) + " before this hand)"});
}

bool ReplayDriver::GameReplay::FinalTotalsCarryFindings(const std::vector<int>& recorded,
                                                        const std::vector<int>& truth, int line) {
  const std::vector<int> carried = CarryingFindings(recorded, truth);
  for (int index : carried)
    AddNote(index, "the final totals " + Join(recorded) + " (line " + std::to_string(line) +
                       ") carry it: the true final totals are " + Join(truth));
  return !carried.empty();
}

std::vector<int> ReplayDriver::GameReplay::CarryingFindings(const std::vector<int>& recorded,
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

bool ReplayDriver::GameReplay::EarlyEndCarriesFindings(const std::vector<int>& truth, int line) {
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

}  // namespace canasta
