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

// The replay is the audit's own (replay/driver.h GameFeed): a fed line gets
// the findings the audit gives it, under the ruleset's `checks`.
struct Replay::Impl {
  Ruleset ruleset;
  std::vector<std::string> players;
  GameFeed feed;
  CheckLevels levels;  // the ruleset's `checks`
  int line = 0;
  std::vector<HandScores> hands;

  Impl(const Ruleset& r, std::vector<std::string> p)
      : ruleset(r), players(p), feed(RulesetAccess::Get(r).Choose(), std::move(p), Unlimited()) {
    levels.ApplySettings(feed.ruleset().checks);  // validated when the ruleset loaded
  }

  static ::canasta::AuditOptions Unlimited() {
    ::canasta::AuditOptions o;
    o.max_findings = 0;  // each Feed() returns its own findings
    return o;
  }

  // The ruleset's `checks` on one finding: false when its check is off.
  bool Level(::canasta::Finding* f) const {
    if (levels.off(f->id)) return false;
    const ::canasta::Severity s = levels.SeverityOf(f->id);
    if (s != GetCheck(f->id).severity) f->severity = s;
    return true;
  }
  // A finding made here, not by the replay (the header, the player count).
  void Add(std::vector<Finding>* out, CheckId id, std::string message,
           std::vector<std::string> notes = {}) {
    ::canasta::Finding f{line, id, std::move(message), std::move(notes)};
    if (Level(&f)) out->push_back(ToApi(f, ""));
  }
};

Replay::Replay(const Ruleset& ruleset, std::vector<std::string> players)
    : impl_(std::make_unique<Impl>(ruleset, std::move(players))) {}
Replay::~Replay() = default;
Replay::Replay(Replay&&) noexcept = default;
Replay& Replay::operator=(Replay&&) noexcept = default;

std::vector<Finding> Replay::Feed(const std::string& json_line) {
  Impl& d = *impl_;
  std::vector<Finding> found;
  ++d.line;
  std::istringstream in(json_line);
  LogReader reader(in);
  Event e;
  std::vector<InputProblem> problems;
  const bool got = reader.Next(&e, &problems);
  // The reader numbers this line 1; in the game it is line d.line.
  for (InputProblem& p : problems) p.line = d.line;
  e.line = d.line;
  const int seats = d.feed.ruleset().rules.num_players;
  if (got && e.type == EventType::kGame) {
    // The header is the caller's: it is checked, not replayed.
    for (InputProblem& p : problems) d.Add(&found, p.id, std::move(p.message));
    if (!e.ok) return found;
    if (d.line != 1) {
      d.Add(&found, CheckId::kLogOutOfPlace, "a game header after the first line",
            {"a Replay holds one game; event ignored"});
    } else if (e.format != "canasta-log/1") {
      d.Add(&found, CheckId::kLogNotCanastaLog,
            "the header's format is \"" + e.format + "\", not \"canasta-log/1\"");
    } else if (d.players.empty()) {
      d.players = e.players;
      d.feed.SetPlayers(e.players);
    }
    return found;
  }
  if (!d.players.empty() && int(d.players.size()) != seats) {
    d.Add(&found, CheckId::kLogPlayers,
          "the game has " + std::to_string(d.players.size()) + " players; ruleset \"" +
              d.feed.ruleset().name + "\" is for " + std::to_string(seats),
          {"event ignored"});
    return found;
  }
  const size_t from = d.feed.Feed(d.line, std::move(problems), got ? &e : nullptr);
  const GameReport& report = d.feed.report();
  for (size_t i = from; i < report.findings.size(); ++i) {
    ::canasta::Finding f = report.findings[i];
    if (d.Level(&f)) found.push_back(ToApi(f, ""));
  }
  for (size_t i = d.hands.size(); i < report.hands.size(); ++i)
    d.hands.push_back(ToApi(report.hands[i]));
  return found;
}

PublicState Replay::State() const {
  const Impl& d = *impl_;
  PublicState s;
  const Game& game = d.feed.game();
  const Rules& rules = d.feed.ruleset().rules;
  const Position* p = game.position();
  s.hand = d.feed.hand_number();
  s.game_over = game.over();
  s.winner = game.winner();
  s.hand_sizes.assign(size_t(rules.num_players), 0);
  const std::vector<int> totals = d.feed.totals();
  for (int side = 0; side < rules.num_sides(); ++side) {
    SideState side_state;
    side_state.total = totals[size_t(side)];
    s.sides.push_back(side_state);
  }
  if (!d.feed.in_hand() || !p) return s;
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
  const Position* p = d.feed.game().position();
  if (!d.feed.in_hand() || !p || seat < 0 || seat >= d.feed.ruleset().rules.num_players)
    return cards;
  for (Card c : p->hand(seat).ToVector()) cards.push_back(ToString(c));
  return cards;
}

const std::vector<HandScores>& Replay::hands() const { return impl_->hands; }
int Replay::lines() const { return impl_->line; }

}  // namespace api
}  // namespace canasta
