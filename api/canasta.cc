// The public API (include/canasta/canasta.h) over the private components:
// plain structs out, the engine's types never in the installed header.
#include "canasta/canasta.h"

#include <filesystem>
#include <istream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/game.h"
#include "lint/check_levels.h"
#include "lint/checks.h"
#include "lint/format.h"
#include "replay/auditor.h"
#include "replay/driver.h"
#include "replay/log_reader.h"
#include "replay/moves.h"
#include "scripting/resolver.h"
#include "scripting/ruleset.h"
#include "scripting/ruleset_info.h"

namespace fs = std::filesystem;

namespace canasta {
namespace api {

struct Ruleset::Impl {
  std::shared_ptr<const ::canasta::Ruleset> ruleset;
};

// The private side of Ruleset, for this file only.
struct RulesetAccess {
  static Ruleset Make(std::shared_ptr<const ::canasta::Ruleset> r) {
    return Ruleset(std::make_shared<const Ruleset::Impl>(Ruleset::Impl{std::move(r)}));
  }
  static const ::canasta::Ruleset& Get(const Ruleset& r) { return *r.impl_->ruleset; }
  static std::shared_ptr<const ::canasta::Ruleset> Share(const Ruleset& r) {
    return r.impl_->ruleset;
  }
};

namespace {

Severity ToApi(::canasta::Severity s) {
  switch (s) {
    case ::canasta::Severity::kError:
      return Severity::kError;
    case ::canasta::Severity::kWarning:
      return Severity::kWarning;
    case ::canasta::Severity::kNote:
      break;
  }
  return Severity::kNote;
}

Finding ToApi(const ::canasta::Finding& f, const std::string& file) {
  const CheckInfo& info = GetCheck(f.id);
  return Finding{file, f.line, info.name, ToApi(SeverityOf(f)), f.message, f.notes};
}

// A ruleset's `checks` apply to what the library reports, as to `canasta
// audit` (docs/embedding.md).
::canasta::FileReport WithCheckLevels(::canasta::FileReport r) {
  ApplyCheckLevels(&r, CheckLevels());
  return r;
}

ScoreParts ToApi(const ScoreBreakdown& b) {
  return ScoreParts{b.canastas, b.red_threes, b.going_out, b.melded,       b.in_hand,
                    b.penalties, b.house,      b.total(),   b.extra, b.special_hand};
}

ScoreBreakdown FromApi(const ScoreParts& p) {
  ScoreBreakdown b;
  b.canastas = p.canastas;
  b.red_threes = p.red_threes;
  b.going_out = p.going_out;
  b.melded = p.melded;
  b.in_hand = p.in_hand;
  b.penalties = p.penalties;
  b.house = p.house;
  b.special_hand = p.special_hand;
  b.extra = p.extra;
  return b;
}

HandScores ToApi(const HandReport& h) {
  HandScores out;
  out.hand = h.hand;
  out.line = h.line;
  for (const ScoreBreakdown& b : h.breakdown) out.parts.push_back(ToApi(b));
  out.scores = h.scores;
  out.totals = h.totals;
  out.recorded_scores = h.recorded_scores;
  out.recorded_totals = h.recorded_totals;
  out.went_out = h.went_out;
  out.complete = h.complete;
  return out;
}

AuditResult ToApi(const FileReport& r) {
  AuditResult out;
  out.file = r.file;
  out.unreadable = r.unreadable;
  for (const ::canasta::Finding& f : r.findings) out.findings.push_back(ToApi(f, r.file));
  for (const GameReport& g : r.games) {
    GameResult game;
    game.line = g.line;
    game.ruleset = g.ruleset;
    game.players = g.players;
    for (const ::canasta::Finding& f : g.findings) game.findings.push_back(ToApi(f, r.file));
    for (const HandReport& h : g.hands) game.hands.push_back(ToApi(h));
    game.totals = g.totals;
    game.winner = g.winner;
    game.finished = g.finished;
    game.events = g.events;
    out.games.push_back(std::move(game));
  }
  return out;
}

// Back to the engine's report, for the writers of lint/. A check name that is
// not in the registry (a caller's own finding) is written as log-bad-event.
::canasta::Finding FromApi(const Finding& f) {
  return ::canasta::Finding{f.line, FindCheck(f.check).value_or(CheckId::kLogBadEvent), f.message,
                            f.notes};
}

FileReport FromApi(const AuditResult& r) {
  FileReport out;
  out.file = r.file;
  out.unreadable = r.unreadable;
  for (const Finding& f : r.findings) out.findings.push_back(FromApi(f));
  for (const GameResult& g : r.games) {
    GameReport game;
    game.file = r.file;
    game.line = g.line;
    game.ruleset = g.ruleset;
    game.players = g.players;
    for (const Finding& f : g.findings) game.findings.push_back(FromApi(f));
    for (const HandScores& h : g.hands) {
      HandReport hand;
      hand.hand = h.hand;
      hand.line = h.line;
      for (const ScoreParts& p : h.parts) hand.breakdown.push_back(FromApi(p));
      hand.scores = h.scores;
      hand.totals = h.totals;
      hand.recorded_scores = h.recorded_scores;
      hand.recorded_totals = h.recorded_totals;
      hand.went_out = h.went_out;
      hand.complete = h.complete;
      game.hands.push_back(std::move(hand));
    }
    game.totals = g.totals;
    game.winner = g.winner;
    game.finished = g.finished;
    game.events = g.events;
    out.games.push_back(std::move(game));
  }
  return out;
}

std::string LoadErrorText(const LuaError& e) {
  std::string text = e.ToString();
  if (!e.traceback.empty()) text += "\n" + e.traceback;
  return text;
}

// Rulesets loaded by name or path, kept for the process's life: they are
// immutable, and a corpus names the same few again and again. A file is
// known by its path, size and time of change, so that an application whose
// user edits a ruleset gets the edited one.
std::shared_ptr<const ::canasta::Ruleset> LoadCached(const std::string& name, std::string* error) {
  std::string key = name;
  std::error_code ec;
  if (std::filesystem::is_regular_file(name, ec)) {
    const auto size = std::filesystem::file_size(name, ec);
    const auto time = std::filesystem::last_write_time(name, ec).time_since_epoch().count();
    key += "\n" + std::to_string(size) + "\n" + std::to_string(time);
  }
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const ::canasta::Ruleset>> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  std::variant<::canasta::Ruleset, LuaError> loaded = LoadRuleset(name);
  if (auto* e = std::get_if<LuaError>(&loaded)) {
    if (error) *error = LoadErrorText(*e);
    return nullptr;
  }
  auto ruleset =
      std::make_shared<const ::canasta::Ruleset>(std::move(std::get<::canasta::Ruleset>(loaded)));
  std::lock_guard<std::mutex> lock(mu);
  return cache.emplace(key, ruleset).first->second;
}

::canasta::AuditOptions ToEngine(const AuditOptions& options) {
  ::canasta::AuditOptions out;
  if (options.ruleset) {
    std::shared_ptr<const ::canasta::Ruleset> forced = RulesetAccess::Share(*options.ruleset);
    out.forced_ruleset = forced->name();
    // Every game gets fresh hooks from the forced ruleset, whatever it is called.
    out.resolve = [forced](const std::string&, const std::string&, RulesetChoice* choice,
                           std::string*) {
      *choice = forced->Choose();
      return true;
    };
  } else {
    // A log is untrusted: its header may name only a built-in or a file
    // beside it (scripting/resolver.h, docs/log-format.md).
    out.resolve = ::canasta::ResolveRuleset;
  }
  return out;
}

}  // namespace

const char* Version() { return CANASTA_VERSION_STRING; }

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      break;
  }
  return "note";
}

std::string ToText(const Finding& f) {
  const std::string where = f.file + ":" + std::to_string(f.line) + ": ";
  std::string text = where + SeverityName(f.severity) + ": " + f.message + " [" + f.check + "]\n";
  for (const std::string& n : f.notes) text += where + "note: " + n + "\n";
  return text;
}

// --- Rulesets ---

std::optional<Ruleset> Ruleset::Load(const std::string& name_or_path, std::string* error) {
  std::shared_ptr<const ::canasta::Ruleset> r = LoadCached(name_or_path, error);
  if (!r) return std::nullopt;
  return RulesetAccess::Make(std::move(r));
}

Ruleset Ruleset::Classic() {
  std::string error;
  std::shared_ptr<const ::canasta::Ruleset> r = LoadCached("classic", &error);
  if (!r) throw std::logic_error("the built-in classic ruleset does not load: " + error);
  return RulesetAccess::Make(std::move(r));
}

const std::string& Ruleset::name() const { return impl_->ruleset->name(); }
const std::string& Ruleset::description() const { return impl_->ruleset->description(); }
const std::string& Ruleset::file() const { return impl_->ruleset->file(); }
bool Ruleset::builtin() const { return impl_->ruleset->builtin(); }
int Ruleset::players() const { return impl_->ruleset->rules().num_players; }
int Ruleset::sides() const { return impl_->ruleset->rules().num_sides(); }
int Ruleset::target_score() const { return impl_->ruleset->rules().target_score; }
std::string Ruleset::Describe() const { return ShowRuleset(*impl_->ruleset); }

std::vector<std::string> BuiltinRulesets() { return BuiltinRulesetNames(); }

// --- Auditing ---

AuditResult AuditFile(const std::string& path, const AuditOptions& options) {
  return ToApi(WithCheckLevels(::canasta::AuditFile(path, ToEngine(options))));
}

AuditResult AuditStream(std::istream& in, const std::string& name, const AuditOptions& options) {
  return ToApi(WithCheckLevels(::canasta::AuditStream(in, name, ToEngine(options))));
}

std::string ToJson(const AuditResult& result) {
  std::ostringstream out;
  WriteJson(out, {FromApi(result)}, CANASTA_VERSION_STRING);
  return out.str();
}

// --- Replaying move by move ---

struct Replay::Impl {
  Ruleset ruleset;
  RulesetChoice choice;
  std::vector<std::string> players;
  std::unique_ptr<Game> game;  // refers to choice's hooks
  int line = 0;
  int hand_number = 0;
  int hand_line = 0;  // of the current hand's deal
  bool in_hand = false;
  std::vector<HandScores> hands;
  std::vector<Finding> found;  // the current Feed()'s findings
  std::set<std::string> reported_hook_failures;

  Impl(const Ruleset& r, std::vector<std::string> p)
      : ruleset(r),
        choice(RulesetAccess::Get(r).Choose()),
        players(std::move(p)),
        game(std::make_unique<Game>(choice.rules, *choice.hooks)) {}

  void Add(int at, CheckId id, std::string message, std::vector<std::string> notes = {}) {
    const CheckInfo& info = GetCheck(id);
    found.push_back(
        Finding{"", at, info.name, ToApi(info.severity), std::move(message), std::move(notes)});
  }
  void Add(const TaggedViolations& vs) {
    for (const TaggedViolation& v : vs)
      Add(v.tag ? v.tag : line, v.violation.id, v.violation.message, v.violation.notes);
  }
  void AddHookFailures() {
    if (!choice.hooks->HasFailures()) return;
    for (const HookFailure& f : choice.hooks->TakeFailures()) {
      // Once a game, where it first happened, as the audit reports it.
      if (!reported_hook_failures.insert(f.hook + '\n' + f.where + '\n' + f.message).second)
        continue;
      HookFailureText text = DescribeHookFailure(f);
      Add(line, CheckId::kRulesetHookFailed, std::move(text.message), std::move(text.notes));
    }
  }

  // Scores the hand being played into the totals.
  void FinishHand(const Event* end) {
    HandReport h;
    h.hand = hand_number;
    std::vector<ScoreBreakdown> parts = game->FinishDeal();
    for (const ScoreBreakdown& b : parts) h.breakdown.push_back(b);
    for (const ScoreBreakdown& b : parts) h.scores.push_back(b.total());
    h.totals = game->totals();
    h.went_out = game->position()->went_out();
    h.complete = end != nullptr;
    if (end) {
      h.recorded_scores = end->scores;
      h.recorded_totals = end->totals;
    }
    HandScores scores = ToApi(h);
    scores.line = hand_line;
    hands.push_back(std::move(scores));
    in_hand = false;
  }

  void OnEvent(const Event& e) {
    switch (e.type) {
      case EventType::kGame:
        if (line != 1) {
          Add(line, CheckId::kLogOutOfPlace, "a game header after the first line",
              {"a Replay holds one game; event ignored"});
        } else if (e.format != "canasta-log/1") {
          Add(line, CheckId::kLogNotCanastaLog,
              "the header's format is \"" + e.format + "\", not \"canasta-log/1\"");
        } else if (players.empty()) {
          players = e.players;
        }
        return;
      case EventType::kNote:
        return;
      case EventType::kDeal: {
        if (in_hand) {
          Add(line, CheckId::kLogIncomplete,
              "hand " + std::to_string(hand_number) +
                  " has no end_hand event before the next deal");
          FinishHand(nullptr);
        }
        DealMove d;
        d.dealer = *e.dealer;
        d.hands = e.hands;
        d.upcards = e.upcard;
        d.stock = e.stock;
        d.tag = line;
        hand_number = *e.hand;
        hand_line = line;
        Add(game->StartDeal(*e.hand, d));
        in_hand = true;
        return;
      }
      case EventType::kEndHand:
        if (!NeedHand(e)) return;
        Add(game->position()->End(line));
        FinishHand(&e);
        AddHookFailures();
        return;
      case EventType::kEndGame:
        if (in_hand) {
          Add(line, CheckId::kLogIncomplete,
              "hand " + std::to_string(hand_number) + " has no end_hand event before end_game");
          FinishHand(nullptr);
        }
        return;
      case EventType::kSpecialHand:
        // As the audit: under a ruleset with special hands it is a move.
        if (choice.rules.special_hands()) break;
        Add(line, CheckId::kSpecialHandNotAllowed, "this ruleset has no special hands",
            {"rule: 001 L65 (modern-american only)"});
        return;
      default:
        break;
    }
    if (!NeedHand(e)) return;
    const int player = e.player.value_or(-1);
    if (player < 0 || player >= choice.rules.num_players) {
      Add(line, CheckId::kLogBadEvent,
          "\"player\" is " + std::to_string(player) + "; seats are 0 to " +
              std::to_string(choice.rules.num_players - 1),
          {"event ignored"});
      return;
    }
    std::string error;
    std::optional<Move> move = ToMove(e, &error);
    if (!move) {
      Add(line, CheckId::kLogBadEvent, error.empty() ? "not a move" : error, {"event ignored"});
      return;
    }
    Add(game->position()->Play(*move));
    AddHookFailures();
  }

  bool NeedHand(const Event& e) {
    if (in_hand && game->position()) return true;
    Add(line, CheckId::kLogOutOfPlace,
        std::string("\"") + EventTypeName(e.type) + "\" event outside a hand (no deal before it)",
        {"event ignored"});
    return false;
  }
};

Replay::Replay(const Ruleset& ruleset, std::vector<std::string> players)
    : impl_(std::make_unique<Impl>(ruleset, std::move(players))) {}
Replay::~Replay() = default;
Replay::Replay(Replay&&) noexcept = default;
Replay& Replay::operator=(Replay&&) noexcept = default;

std::vector<Finding> Replay::Feed(const std::string& json_line) {
  Impl& d = *impl_;
  d.found.clear();
  ++d.line;
  std::istringstream in(json_line);
  LogReader reader(in);
  Event e;
  std::vector<InputProblem> problems;
  const bool got = reader.Next(&e, &problems);
  for (InputProblem& p : problems) d.Add(d.line, p.id, std::move(p.message));
  if (!d.players.empty() && int(d.players.size()) != d.choice.rules.num_players) {
    d.Add(d.line, CheckId::kLogPlayers,
          "the game has " + std::to_string(d.players.size()) + " players; ruleset \"" +
              d.choice.name + "\" is for " + std::to_string(d.choice.rules.num_players),
          {"event ignored"});
  } else if (got && e.ok) {
    d.OnEvent(e);
  }
  return std::move(d.found);
}

PublicState Replay::State() const {
  const Impl& d = *impl_;
  PublicState s;
  const Game& game = *d.game;
  const Rules& rules = d.choice.rules;
  const Position* p = game.position();
  s.hand = d.hand_number;
  s.game_over = game.over();
  s.winner = game.winner();
  s.hand_sizes.assign(size_t(rules.num_players), 0);
  for (int side = 0; side < rules.num_sides(); ++side) {
    SideState side_state;
    side_state.total = game.totals()[size_t(side)];
    s.sides.push_back(side_state);
  }
  if (!d.in_hand || !p) return s;
  switch (p->phase()) {
    case ::canasta::Phase::kBeforePlay:
      s.phase = Phase::kBeforePlay;
      break;
    case ::canasta::Phase::kDraw:
      s.phase = Phase::kDraw;
      break;
    case ::canasta::Phase::kPlay:
      s.phase = Phase::kPlay;
      break;
    case ::canasta::Phase::kOver:
      s.phase = Phase::kOver;
      break;
  }
  s.dealer = p->dealer();
  s.current_player = p->current_player();
  s.stock_size = p->stock_size();
  s.pile_size = int(p->pile().size());
  if (!p->pile().empty()) s.pile_top = ToString(p->pile().back());
  s.pile_frozen = p->IsPileFrozen();
  for (int seat = 0; seat < rules.num_players; ++seat)
    s.hand_sizes[size_t(seat)] = p->hand(seat).total();
  for (int side = 0; side < rules.num_sides(); ++side) {
    SideState& out = s.sides[size_t(side)];
    for (const Meld& m : p->melds(side)) {
      MeldState meld;
      meld.rank = ToString(m.rank);
      for (Card c : m.cards) meld.cards.push_back(ToString(c));
      meld.canasta = m.is_canasta(rules);
      meld.natural = m.is_natural();
      out.melds.push_back(std::move(meld));
    }
    for (Card c : p->threes(side)) out.red_threes.push_back(ToString(c));
    out.melded = p->has_melded(side);
    out.minimum = p->Minimum(side);
    out.canastas = p->CanastaCount(side);
  }
  return s;
}

std::vector<std::string> Replay::Hand(int seat) const {
  const Impl& d = *impl_;
  std::vector<std::string> cards;
  const Position* p = d.game->position();
  if (!d.in_hand || !p || seat < 0 || seat >= d.choice.rules.num_players) return cards;
  for (Card c : p->hand(seat).ToVector()) cards.push_back(ToString(c));
  return cards;
}

const std::vector<HandScores>& Replay::hands() const { return impl_->hands; }
int Replay::lines() const { return impl_->line; }

}  // namespace api
}  // namespace canasta
