#include "replay/auditor.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "core/game.h"
#include "replay/log_reader.h"
#include "replay/moves.h"

namespace canasta {
namespace {

constexpr char kFormat[] = "canasta-log/1";

std::string Join(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}


// Replays one game's events. Owns the game's ruleset and engine state.
class GameReplay {
 public:
  GameReplay(GameReport* report, RulesetChoice choice)
      : report_(report), choice_(std::move(choice)), game_(choice_.rules, *choice_.hooks) {}

  void OnEvent(const Event& e) {
    ++report_->events;
    if (!e.ok) return;  // reported by the reader
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
        return OnEndGame(e);
      case EventType::kSpecialHand:
        return Add(e.line, CheckId::kSpecialHandNotAllowed,
                   "this ruleset has no special hands", {"rule: 001 L65 (modern-american only)"});
      default:
        return OnMove(e);
    }
  }

  // The log ended (or the next game began) after `last_line`.
  void Finish(int last_line) {
    if (in_hand_) {
      Add(last_line, CheckId::kLogIncomplete,
          "the log stops in the middle of hand " + std::to_string(hand_number_) +
              "; what it recorded was checked",
          {});
      RecordHand(/*complete=*/false, nullptr);
    }
    if (!ended_game_) {
      Add(last_line, CheckId::kLogIncomplete,
          game_.over() ? "the game has no end_game event"
                       : "the game stops before a side reached " +
                             std::to_string(choice_.rules.target_score) + " (no end_game event)",
          {});
    }
    report_->totals = game_.totals();
    report_->winner = game_.winner();
    report_->finished = game_.over();
  }

 private:
  void Add(int line, CheckId id, std::string message, std::vector<std::string> notes) {
    report_->findings.push_back(Finding{line, id, std::move(message), std::move(notes)});
  }

  std::string SeatName(int seat) const {
    if (seat >= 0 && seat < int(report_->players.size()))
      return "seat " + std::to_string(seat) + " (" + report_->players[seat] + ")";
    return "seat " + std::to_string(seat);
  }

  // Where the game stood when a move was made, kept as plain values (cheap
  // to take before every move) and worded only when there is a finding.
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
  std::string Context(const Where& w) const {
    std::string ctx = "hand " + std::to_string(hand_number_);
    if (w.current >= 0) {
      if (w.player >= 0 && w.player != w.current)
        ctx += ", " + SeatName(w.player) + " playing in the turn of " + SeatName(w.current);
      else if (w.player >= 0 || !w.before_play)
        ctx += ", turn of " + SeatName(w.player >= 0 ? w.player : w.current);
      if (w.pile_size)
        ctx += "; pile: " + std::to_string(w.pile_size) + " card(s), " + ToString(w.top) +
               " on top";
    }
    return ctx;
  }
  void AddViolations(const TaggedViolations& vs, int line, const Where& w) {
    if (!vs.empty()) AddViolations(vs, line, Context(w));
  }

  void AddViolations(const TaggedViolations& vs, int line, const std::string& ctx) {
    for (const TaggedViolation& tv : vs) {
      Finding f;
      f.line = tv.tag ? tv.tag : line;
      f.id = tv.violation.id;
      f.message = tv.violation.message;
      f.notes.push_back(ctx);
      for (const std::string& n : tv.violation.notes) f.notes.push_back(n);
      report_->findings.push_back(std::move(f));
    }
  }

  // A ruleset hook that failed during the last event: the engine used its
  // default answer; the user must know, with the ruleset's line.
  void ReportHookFailures(int line) {
    if (!choice_.hooks->HasFailures()) return;
    for (const HookFailure& f : choice_.hooks->TakeFailures()) {
      // The same failure is reported once a game, where it first happened.
      if (!reported_hook_failures_.insert(f.hook + '\n' + f.where + '\n' + f.message).second)
        continue;
      std::vector<std::string> notes;
      if (!f.where.empty()) notes.push_back("in " + f.where);
      if (!f.call.empty()) notes.push_back("call: " + f.call);
      if (f.count > 1) notes.push_back(std::to_string(f.count) + " calls failed the same way");
      if (!f.traceback.empty()) notes.push_back(f.traceback);
      notes.push_back("the engine's default answer was used instead; later calls failing the "
                      "same way in this game are not reported again");
      Add(line, CheckId::kRulesetHookFailed,
          "ruleset hook " + f.hook + " failed: " + f.message, std::move(notes));
    }
  }

  bool NeedHand(const Event& e) {
    if (in_hand_ && game_.position()) return true;
    Add(e.line, CheckId::kLogOutOfPlace,
        std::string("\"") + EventTypeName(e.type) + "\" event outside a hand (no deal before it)",
        {"event ignored"});
    return false;
  }

  void OnDeal(const Event& e) {
    if (in_hand_) {
      Add(e.line, CheckId::kLogIncomplete,
          "hand " + std::to_string(hand_number_) + " has no end_hand event before the next deal",
          {});
      RecordHand(false, nullptr);
    }
    DealMove d;
    d.dealer = *e.dealer;
    d.hands = e.hands;
    d.upcards = e.upcard;
    d.stock = e.stock;
    d.tag = e.line;
    hand_number_ = *e.hand;
    hand_line_ = e.line;
    TaggedViolations vs = game_.StartDeal(*e.hand, d);
    in_hand_ = true;
    if (!vs.empty())
      AddViolations(vs, e.line, "hand " + std::to_string(hand_number_) + ", dealt by " +
                                    SeatName(*e.dealer));
  }

  void OnMove(const Event& e) {
    if (!NeedHand(e)) return;
    Position& pos = *game_.position();
    const int player = e.player.value_or(-1);
    if (player < 0 || player >= choice_.rules.num_players) {
      Add(e.line, CheckId::kLogBadEvent,
          "\"player\" is " + std::to_string(player) + "; seats are 0 to " +
              std::to_string(choice_.rules.num_players - 1),
          {"event ignored"});
      return;
    }
    // The moves are members, refilled for each event, so that their card
    // vectors keep their capacity: no allocation per event.
    const Where where = At(player);
    TaggedViolations found;
    std::string error;
    auto play = [&](auto* move) {
      if (!FillMove(e, player, move, &error)) {
        Add(e.line, CheckId::kLogBadEvent, error, {"event ignored"});
        return false;
      }
      found = pos.Play(*move);
      return true;
    };
    switch (e.type) {
      case EventType::kDraw:
        if (!play(&draw_)) return;
        break;
      case EventType::kTakePile:
        if (!play(&take_)) return;
        break;
      case EventType::kMeld:
        if (!play(&meld_)) return;
        break;
      case EventType::kRetract:
        if (!play(&retract_)) return;
        break;
      case EventType::kDiscard:
        found = pos.Play(DiscardMove{player, *e.card, e.line});
        break;
      case EventType::kThree:
        found = pos.Play(ThreeMove{player, *e.card, e.replacement, e.line});
        break;
      case EventType::kAskOut:
        found = pos.Play(AskOutMove{player, e.line});
        break;
      case EventType::kAnswer:
        found = pos.Play(AnswerMove{player, *e.yes, e.line});
        break;
      default:
        return;
    }
    AddViolations(found, e.line, where);
    ReportHookFailures(e.line);
  }

  void OnEndHand(const Event& e) {
    if (!NeedHand(e)) return;
    if (*e.hand != hand_number_) {
      Add(e.line, CheckId::kLogBadEvent,
          "end_hand says hand " + std::to_string(*e.hand) + ", but hand " +
              std::to_string(hand_number_) + " is being played",
          {});
    }
    const Where where = At(-1);
    AddViolations(game_.position()->End(e.line), e.line, where);
    RecordHand(true, &e);
    ReportHookFailures(e.line);
  }

  // Scores the hand, compares what the log recorded, and closes the hand.
  void RecordHand(bool complete, const Event* e) {
    const std::vector<int> before = game_.totals();
    std::vector<ScoreBreakdown> parts = game_.FinishDeal();
    HandReport h;
    h.hand = hand_number_;
    h.line = hand_line_;
    h.breakdown = parts;
    for (const ScoreBreakdown& b : parts) h.scores.push_back(b.total());
    h.totals = game_.totals();
    h.went_out = game_.position()->went_out();
    h.complete = complete;
    if (e) {
      h.recorded_scores = e->scores;
      h.recorded_totals = e->totals;
      CompareScores(*e, h, before);
    }
    report_->hands.push_back(std::move(h));
    in_hand_ = false;
  }

  void CompareScores(const Event& e, const HandReport& h, const std::vector<int>& before) {
    const int sides = choice_.rules.num_sides();
    const std::string src = "rule: 000 §18";
    auto side_name = [&](int s) {
      if (!choice_.rules.partnerships()) return SeatName(s);
      auto name = [&](int seat) {
        return seat < int(report_->players.size()) ? report_->players[seat]
                                                   : "seat " + std::to_string(seat);
      };
      return "side " + std::to_string(s) + " (" + name(s) + " and " + name(s + 2) + ")";
    };
    if (e.scores) {
      if (int(e.scores->size()) != sides) {
        Add(e.line, CheckId::kLogBadEvent,
            "\"scores\" has " + std::to_string(e.scores->size()) + " entries; there are " +
                std::to_string(sides) + " sides",
            {});
      } else {
        for (int s = 0; s < sides; ++s) {
          if ((*e.scores)[s] == h.scores[s]) continue;
          const ScoreBreakdown& b = h.breakdown[s];
          std::string parts;
          for (const BreakdownPart& p : BreakdownParts()) {
            if (b.*p.field == 0) continue;
            parts += (parts.empty() ? "" : ", ") + std::string(p.name) + " " +
                     std::to_string(b.*p.field);
          }
          Add(e.line, CheckId::kScoreHand,
              side_name(s) + " scores " + std::to_string(h.scores[s]) + " for hand " +
                  std::to_string(h.hand) + ", not " + std::to_string((*e.scores)[s]),
              {"computed: " + (parts.empty() ? std::string("nothing") : parts), src});
        }
      }
    }
    if (e.breakdown) {
      if (int(e.breakdown->size()) != sides) {
        Add(e.line, CheckId::kLogBadEvent,
            "\"breakdown\" has " + std::to_string(e.breakdown->size()) + " entries; there are " +
                std::to_string(sides) + " sides",
            {});
      } else {
        for (int s = 0; s < sides; ++s) {
          for (const auto& [name, value] : (*e.breakdown)[s]) {
            std::string key = name == "threes" ? "red_threes" : name;
            const BreakdownPart* part = nullptr;
            for (const BreakdownPart& p : BreakdownParts())
              if (key == p.name) part = &p;
            int truth = 0;
            if (!part && key != "special_hand") {
              Add(e.line, CheckId::kLogBadEvent,
                  "unknown breakdown part \"" + name + "\"",
                  {"known parts: canastas, red_threes (threes), going_out, melded, in_hand, "
                   "penalties, special_hand"});
              continue;
            }
            if (part) truth = h.breakdown[s].*part->field;
            if (truth != value)
              Add(e.line, CheckId::kScoreBreakdown,
                  side_name(s) + "'s " + name + " is " + std::to_string(truth) + ", not " +
                      std::to_string(value),
                  {src});
          }
        }
      }
    }
    if (e.totals) {
      if (int(e.totals->size()) != sides) {
        Add(e.line, CheckId::kLogBadEvent,
            "\"totals\" has " + std::to_string(e.totals->size()) + " entries; there are " +
                std::to_string(sides) + " sides",
            {});
      } else {
        // A running total is checked against the previous recorded total plus
        // this hand's recorded score, so one wrong hand score is reported
        // once rather than in every later total.
        for (int s = 0; s < sides; ++s) {
          const int prev = recorded_totals_ ? (*recorded_totals_)[s] : before[s];
          const int score = e.scores && int(e.scores->size()) == sides ? (*e.scores)[s]
                                                                       : h.scores[s];
          const int expected = prev + score;
          if ((*e.totals)[s] != expected) {
            Add(e.line, CheckId::kScoreTotal,
                side_name(s) + "'s running total should be " + std::to_string(expected) +
                    ", not " + std::to_string((*e.totals)[s]),
                {"previous total " + std::to_string(prev) + " + hand score " +
                     std::to_string(score),
                 "true total from the computed scores: " + std::to_string(h.totals[s]),
                 "rule: 000 §19"});
          }
        }
        recorded_totals_ = *e.totals;
      }
    }
  }

  void OnEndGame(const Event& e) {
    if (in_hand_) {
      Add(e.line, CheckId::kLogIncomplete,
          "hand " + std::to_string(hand_number_) + " has no end_hand event before end_game", {});
      RecordHand(false, nullptr);
    }
    ended_game_ = true;
    const std::vector<int>& totals = game_.totals();
    if (!game_.over()) {
      Add(e.line, CheckId::kGameEnd,
          game_.tied_at_target()
              ? "the totals tie at " + std::to_string(totals[0]) + "; another deal is played (A17)"
              : "the game ends before any side reached " +
                    std::to_string(choice_.rules.target_score) + " (totals " + Join(totals) + ")",
          {"rule: 000 §19"});
    }
    if (e.totals) {
      if (*e.totals != totals)
        Add(e.line, CheckId::kGameTotals,
            "the final totals are " + Join(totals) + ", not " + Join(*e.totals),
            {"rule: 000 §19"});
    }
    std::optional<int> winner = game_.winner();
    if (e.winner && winner && *e.winner != *winner) {
      std::string who = choice_.rules.partnerships() ? "side " : "seat ";
      Add(e.line, CheckId::kGameWinner,
          "the winner is " + who + std::to_string(*winner) + " with " +
              std::to_string(totals[*winner]) + ", not " + who + std::to_string(*e.winner),
          {"final totals " + Join(totals), "rule: 000 §19, A17"});
    }
  }

  GameReport* report_;
  RulesetChoice choice_;
  Game game_;
  bool in_hand_ = false;
  bool ended_game_ = false;
  int hand_number_ = 0;
  int hand_line_ = 0;
  std::optional<std::vector<int>> recorded_totals_;
  std::set<std::string> reported_hook_failures_;
  DrawMove draw_;
  TakePileMove take_;
  MeldMove meld_;
  RetractMove retract_;
};

}  // namespace

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

FileReport AuditStream(std::istream& in, const std::string& file, const AuditOptions& options) {
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

  auto flush_problems = [&]() {
    for (InputProblem& p : problems) {
      Finding f{p.line, p.id, std::move(p.message), {}};
      (game ? game->findings : report.findings).push_back(std::move(f));
    }
    problems.clear();
  };
  auto finish_game = [&]() {
    if (replay) replay->Finish(last_line);
    replay.reset();
    if (game)
      std::stable_sort(game->findings.begin(), game->findings.end(),
                       [](const Finding& a, const Finding& b) { return a.line < b.line; });
    game = nullptr;
  };

  while (true) {
    const bool got = reader.Next(&e, &problems);
    if (first && (got || !problems.empty())) {
      // A file whose first record is not a canasta-log/1 header gets one
      // clear error, not a cascade.
      first = false;
      if (!got || e.type != EventType::kGame || !e.ok || e.format != kFormat) {
        std::string why = !problems.empty() ? problems.front().message
                          : !got            ? "no records"
                          : e.type != EventType::kGame
                              ? std::string("the first record is a \"") + EventTypeName(e.type) +
                                    "\" event, not a \"game\" header"
                              : "the header's format is \"" + e.format + "\", not \"" + kFormat +
                                    "\"";
        report.findings.push_back(
            Finding{problems.empty() ? (got ? e.line : 1) : problems.front().line,
                    CheckId::kLogNotCanastaLog, "this file is not a canasta-log/1 log: " + why,
                    {"the first line must be {\"type\":\"game\",\"format\":\"canasta-log/1\",...}"}});
        return report;
      }
    }
    if (!got) break;
    flush_problems();
    last_line = e.line;
    if (e.type == EventType::kGame) {
      finish_game();
      report.games.emplace_back();
      game = &report.games.back();
      game->file = file;
      game->line = e.line;
      game->players = e.players;
      game->events = 1;
      skipping = !e.ok;
      if (!e.ok) continue;
      if (e.format != kFormat) {
        game->findings.push_back(Finding{e.line, CheckId::kLogBadEvent,
                                         "the header's format is \"" + e.format + "\", not \"" +
                                             std::string(kFormat) + "\"",
                                         {}});
      }
      const std::string wanted = !options.forced_ruleset.empty() ? options.forced_ruleset
                                 : e.ruleset.empty()             ? "classic"
                                                                 : e.ruleset;
      RulesetChoice choice;
      std::string error;
      const RulesetResolver& resolve =
          options.resolve ? options.resolve : RulesetResolver(ResolveClassicOnly);
      if (!resolve(wanted, file, &choice, &error)) {
        game->findings.push_back(Finding{e.line, CheckId::kLogUnknownRuleset,
                                         "cannot use ruleset \"" + wanted + "\": " + error,
                                         {"the game is not replayed"}});
        skipping = true;
        continue;
      }
      game->ruleset = choice.name;
      if (int(e.players.size()) != choice.rules.num_players) {
        game->findings.push_back(Finding{
            e.line, CheckId::kLogPlayers,
            "the game has " + std::to_string(e.players.size()) + " players; ruleset \"" +
                choice.name + "\" is for " + std::to_string(choice.rules.num_players),
            {"the game is not replayed: choose the ruleset with --rules or the header's "
             "\"ruleset\""}});
        skipping = true;
        continue;
      }
      replay = std::make_unique<GameReplay>(game, std::move(choice));
      continue;
    }
    if (!game) continue;  // unreachable: the first record is a header
    if (skipping || !replay) {
      ++game->events;
      continue;
    }
    replay->OnEvent(e);
  }
  flush_problems();
  finish_game();
  return report;
}

FileReport AuditFile(const std::string& path, const AuditOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    FileReport r;
    r.file = path;
    r.unreadable = true;
    return r;
  }
  return AuditStream(in, path, options);
}

}  // namespace canasta
