// The public C++ API of canasta: audit recorded games (canasta-log/1) under a
// ruleset and get the findings and the computed scores as plain structs; load
// a ruleset by name or file; replay a game event by event and read the
// position. docs/embedding.md shows each with an example.
//
// This header and <canasta/version.h> are all there is: they include only the
// standard library, and the engine behind them (libcanasta.so) exports
// nothing else. Link with `find_package(canasta CONFIG)` and
// `canasta::canasta`, or `pkg-config --cflags --libs canasta`.
//
// The promise: within one major version (CANASTA_VERSION_MAJOR) code written
// against these declarations keeps compiling (they only grow: new functions,
// new fields at the end of a struct), and check names (Finding::check) keep
// their meaning (docs/checks/). The binary interface is the soname's
// (libcanasta.so.N): rebuild when it changes.
#ifndef CANASTA_CANASTA_H_
#define CANASTA_CANASTA_H_

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "canasta/version.h"

#if defined(CANASTA_BUILDING_API)
#define CANASTA_API __attribute__((visibility("default")))
#else
#define CANASTA_API
#endif

namespace canasta {
namespace api {

// The library's version, "0.1.0": compare with CANASTA_VERSION_STRING to see
// that the headers and the library agree.
CANASTA_API const char* Version();

// --- Findings and scores ---

enum class Severity { kError, kWarning, kNote };

// One problem in a log, as `canasta audit` prints it:
// `file:line: error: message [check]`, then a `note:` line per note.
struct Finding {
  std::string file;
  int line = 0;       // 1-based line of the log; 0 when it is about the whole file
  std::string check;  // stable name, e.g. "pile-frozen-needs-pair" (docs/checks/)
  Severity severity = Severity::kError;
  std::string message;
  std::vector<std::string> notes;  // hand, turn, player, cards, the rule's source
};

// "error", "warning" or "note".
CANASTA_API const char* SeverityName(Severity severity);
// The finding and its notes as `canasta audit` prints them, one line each.
CANASTA_API std::string ToText(const Finding& finding);

// One side's score for a hand, part by part (000 §18).
struct ScoreParts {
  int canastas = 0;
  int red_threes = 0;
  int going_out = 0;
  int melded = 0;
  int in_hand = 0;    // <= 0
  int penalties = 0;  // <= 0
  int house = 0;      // a ruleset hook's adjustment
  int total = 0;      // the sum of the parts
  // The ruleset's own parts (its `score_parts`), by name; counted in total.
  std::vector<std::pair<std::string, int>> extra;
  int special_hand = 0;  // a special hand's value (001 L79); counted in total
};

// A hand as the toolkit scored it, next to what the log recorded.
struct HandScores {
  int hand = 0;                                     // hand number
  int line = 0;                                     // line of its deal
  std::vector<ScoreParts> parts;                    // per side, computed
  std::vector<int> scores;                          // per side, computed
  std::vector<int> totals;                          // per side, running, computed
  std::optional<std::vector<int>> recorded_scores;  // as the log's end_hand wrote them
  std::optional<std::vector<int>> recorded_totals;
  int went_out = -1;      // seat that went out, or -1
  bool complete = false;  // played to its end (an end_hand event)
};

struct GameResult {
  int line = 0;         // line of the game header
  std::string ruleset;  // the ruleset in force ("" if it could not be used)
  std::vector<std::string> players;
  std::vector<Finding> findings;  // sorted by line
  std::vector<HandScores> hands;
  std::vector<int> totals;    // final computed totals per side
  std::optional<int> winner;  // computed winning side, once the game is over
  bool finished = false;      // a side reached the target score
  int events = 0;             // events read
};

// Auditing one file (or stream): its games, and findings about the file as a
// whole (a file that is not canasta-log/1 at all).
struct AuditResult {
  std::string file;
  std::vector<GameResult> games;
  std::vector<Finding> findings;
  bool unreadable = false;  // the file could not be opened

  int errors() const { return Count(Severity::kError); }
  int warnings() const { return Count(Severity::kWarning); }
  // Every finding: the file's, then each game's, in order.
  std::vector<Finding> AllFindings() const {
    std::vector<Finding> all = findings;
    for (const GameResult& g : games) all.insert(all.end(), g.findings.begin(), g.findings.end());
    return all;
  }
  // As `canasta audit` exits for this file alone: 0 no error, 1 errors, 2 unreadable.
  int ExitCode() const { return unreadable ? 2 : errors() > 0 ? 1 : 0; }

 private:
  int Count(Severity s) const {
    int n = 0;
    for (const Finding& f : findings) n += f.severity == s;
    for (const GameResult& g : games)
      for (const Finding& f : g.findings) n += f.severity == s;
    return n;
  }
};

// --- Rulesets ---

// A ruleset: a built-in ("classic", "hutto", ...; the same as `canasta rules
// list`) or a Lua file (docs/lua-api.md). A cheap handle to an immutable
// value; copies share it, and it can be used from several threads.
class CANASTA_API Ruleset {
 public:
  // Loads a built-in by name or a file by path. A name that is a built-in is
  // the built-in; write "./hutto.lua" for a file of that name. On failure
  // returns nullopt and, if `error` is given, says why (with the file's line).
  // Loaded rulesets are kept: a file is read again only once it has changed.
  static std::optional<Ruleset> Load(const std::string& name_or_path, std::string* error = nullptr);
  // "classic", the engine's defaults (seed 000 §1-§19). Never fails.
  static Ruleset Classic();

  const std::string& name() const;
  const std::string& description() const;
  const std::string& file() const;  // "rulesets/hutto.lua" for a built-in, else the path used
  bool builtin() const;
  int players() const;       // players at the table
  int sides() const;         // sides that score (2 for partnerships of four)
  int target_score() const;  // the game ends when a side reaches it
  // Every parameter with its value and source, as `canasta rules show` prints it.
  std::string Describe() const;

 private:
  struct Impl;
  explicit Ruleset(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
  friend struct RulesetAccess;
};

// The built-in names, sorted. Incomplete ones (bolivia, ...) are listed but
// refuse to load.
CANASTA_API std::vector<std::string> BuiltinRulesets();

// --- Auditing ---

struct AuditOptions {
  // Overrides the ruleset the log's header names (like `audit --rules`).
  std::optional<Ruleset> ruleset;
};

// Audits a canasta-log/1 file. An unreadable file gives `unreadable`, not an
// exception; bad input gives findings, never a crash.
CANASTA_API AuditResult AuditFile(const std::string& path, const AuditOptions& options = {});
// The same for a stream; `name` is the file name the findings carry, and the
// directory a ruleset path in the log is relative to.
CANASTA_API AuditResult AuditStream(std::istream& in, const std::string& name,
                                    const AuditOptions& options = {});
// The result as `canasta audit --format json` prints it for this one file
// (docs/report-format.md).
CANASTA_API std::string ToJson(const AuditResult& result);

// --- Replaying move by move ---

enum class Phase {
  kNoHand,      // before the first deal, or between an end_hand and the next deal
  kBeforePlay,  // dealt, the first turn not begun
  kDraw,        // a turn begins: the player draws or takes the pile
  kPlay,        // drawn: meld, lay threes, discard
  kOver,        // the hand's play is over, its end_hand not yet fed
};

struct MeldState {
  std::string rank;                // "K", "7", "JK" for a meld of wild cards only
  std::vector<std::string> cards;  // as canasta-log/1 writes them ("KH", "2C", "JK")
  bool canasta = false;
  bool natural = false;  // no wild card
};

struct SideState {
  std::vector<MeldState> melds;
  std::vector<std::string> red_threes;  // laid out
  bool melded = false;                  // made its initial meld this hand
  int minimum = 0;                      // its initial-meld minimum now
  int canastas = 0;
  int total = 0;  // running total before this hand
};

// What everyone at the table can see. The cards in a hand are private:
// Replay::Hand() gives them.
struct PublicState {
  int hand = 0;  // number of the hand being played; 0 before the first deal
  Phase phase = Phase::kNoHand;
  int dealer = -1;
  int current_player = -1;
  int stock_size = 0;
  int pile_size = 0;
  std::optional<std::string> pile_top;
  bool pile_frozen = false;     // by its cards (a wild card or red three in it)
  std::vector<int> hand_sizes;  // per seat
  std::vector<SideState> sides;
  bool game_over = false;     // a side reached the target
  std::optional<int> winner;  // side, once the game is over
};

// One game fed event by event, as an app records it: each Feed() takes one
// line of canasta-log/1 (JSON), applies it and returns the findings it
// raised, at once. Findings name the line (the count of lines fed, the
// header included); a finding found at the end of a turn may point back at an
// earlier line. It is the audit's own replay: the scores an end_hand
// records are checked, a line the engine cannot apply is reported once and
// the replay resumes at the next deal, and the ruleset's `checks` apply. Only
// the checks of a log's end (a missing end_game) are AuditStream()'s: feed it
// the same lines at the end for the full report.
class CANASTA_API Replay {
 public:
  // A game under `ruleset` between `players` (their count must be the
  // ruleset's; otherwise every Feed() reports it). No header line is needed;
  // if one is fed it is checked against these.
  Replay(const Ruleset& ruleset, std::vector<std::string> players);
  ~Replay();
  Replay(Replay&&) noexcept;
  Replay& operator=(Replay&&) noexcept;
  Replay(const Replay&) = delete;
  Replay& operator=(const Replay&) = delete;

  // One line of the log, with or without its '\n' (only the first line of
  // `json_line` is read). Every call counts as one line.
  std::vector<Finding> Feed(const std::string& json_line);

  PublicState State() const;
  // The cards a seat holds, sorted; empty before a deal or for a bad seat.
  std::vector<std::string> Hand(int seat) const;
  // The hands scored so far (at each end_hand).
  const std::vector<HandScores>& hands() const;
  int lines() const;  // lines fed

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace api
}  // namespace canasta

#endif  // CANASTA_CANASTA_H_
