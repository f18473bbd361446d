// The one replay loop: reads a canasta-log/1 stream, applies every event to
// the engine, and reports every finding with its line. The audit, the
// decision trees, the fault injector and the game review all ride on it
// through ReplayObserver callbacks, and the library's line-by-line replay
// through GameFeed below; none of them has its own event loop.
//
// Error recovery (docs/log-format.md, "When the replay loses the state"):
// after an event the engine cannot apply (a line that did not parse, an event
// with bad fields, a move outside a hand) the state of the hand is unknown;
// the replay reports the root cause once and resumes at the next `deal` (or
// `end_hand`), with one note on the root finding giving how many events were
// skipped and their lines. After a move made when the hand was already over,
// the later moves are skipped up to `end_hand`, whose scores are still
// checked: the engine knows that state.
#ifndef CANASTA_REPLAY_DRIVER_H_
#define CANASTA_REPLAY_DRIVER_H_

#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "core/hooks.h"
#include "core/position.h"
#include "core/rules.h"
#include "replay/event.h"
#include "replay/log_reader.h"
#include "replay/report.h"

namespace canasta {

class Game;

// Finds a ruleset by name or path; on failure returns false and says why.
// `relative_to` is the log file's path, for ruleset paths in logs.
using RulesetResolver =
    std::function<bool(const std::string& name_or_path, const std::string& relative_to,
                       RulesetChoice* out, std::string* error)>;

// After this many findings in one file the replay stops, with one more
// finding that says so (docs/report-format.md): hostile input cannot make
// the report grow without bound.
constexpr int kDefaultMaxFindings = 1000;

// A ruleset's hooks have a budget per game (scripting: 60 s of their own
// code by default). A file's games together have this one too: once its
// earlier games ran the hooks this long, a later game calls none (one
// ruleset-hook-failed finding in it), so a log of many games beside a slow
// ruleset cannot hold an audit for hours.
constexpr double kFileHookSeconds = 60;

struct AuditOptions {
  std::string forced_ruleset;              // from the command line: overrides the log's
  RulesetResolver resolve;                 // required when a log names a ruleset other than classic
  int max_findings = kDefaultMaxFindings;  // per file; 0 or less: no limit
  double file_hook_seconds = kFileHookSeconds;  // a file's games' hooks together
};

// The built-in classic ruleset, for callers without scripting.
bool ResolveClassicOnly(const std::string& name, const std::string& relative_to, RulesetChoice* out,
                        std::string* error);

// What a replay tells its observers. Every callback has an empty default.
// Positions are valid only during the call.
// How a failing ruleset hook is worded: its message and note lines (the
// ruleset's file and line, the call, the traceback). The replay reports each
// failure once a game, where it first happened.
struct HookFailureText {
  std::string message;
  std::vector<std::string> notes;
};
HookFailureText DescribeHookFailure(const HookFailure& f);
// The same failure on one line, for a command's warning on stderr (not a
// finding of the log): "ruleset hook H failed<during> (N calls): message
// (file:line); <consequence>".
std::string HookFailureLine(const HookFailure& f, const std::string& during,
                            const std::string& consequence);

class ReplayObserver {
 public:
  virtual ~ReplayObserver() = default;

  // A game header. `ruleset` is null when the game is not replayed (bad
  // header, unknown ruleset, wrong number of players).
  virtual void OnGameStart(const GameReport& /*game*/, const RulesetChoice* /*ruleset*/) {}
  // A deal was laid out (its findings, if any, were reported already).
  virtual void OnHandStart(const Event& /*deal*/, const Position& /*pos*/) {}
  // A move event about to be applied to `pos`, and the same after it. Only
  // events the engine can apply get here: `e.player` is a seat.
  virtual void BeforeMove(const Event& /*e*/, const Position& /*pos*/) {}
  virtual void AfterMove(const Event& /*e*/, const Position& /*pos*/,
                         const TaggedViolations& /*found*/) {}
  // A hand was closed: by its end_hand (`end_hand` non-null), by the next
  // deal or end_game, or by the end of the log. `pos` is null when the
  // hand's deal was lost.
  virtual void OnHandEnd(const HandReport& /*hand*/, const Event* /*end_hand*/,
                         const Position* /*pos*/) {}
  // The game's end_game event (null when the log had none), after its checks.
  virtual void OnGameEnd(const GameReport& /*game*/, const Event* /*end_game*/) {}
  // A finding, when it is made (a note may still be added to it later: the
  // count of events skipped after a root cause).
  virtual void OnFinding(const Finding& /*finding*/) {}
  // The replay lost the state of the hand at `line` (the root cause's line)
  // and skips to the next deal or end_hand; `why` is the root finding's
  // message.
  virtual void OnStateLost(int /*line*/, const std::string& /*why*/) {}
};

class ReplayDriver {
 public:
  explicit ReplayDriver(AuditOptions options);
  ~ReplayDriver();
  ReplayDriver(const ReplayDriver&) = delete;
  ReplayDriver& operator=(const ReplayDriver&) = delete;

  // Observers are called in the order added; they must outlive Run().
  void AddObserver(ReplayObserver* observer) { observers_.push_back(observer); }

  // Replays the whole stream. `file` names it in the report and resolves
  // ruleset paths of its headers.
  FileReport Run(std::istream& in, const std::string& file);

  // An observer may end the replay early: Run returns after the current
  // event, without the end-of-log checks.
  void Stop() { stopped_ = true; }

 private:
  class GameReplay;
  friend class GameReplay;
  friend class GameFeed;

  // Every finding goes through here: observers see it, and the cap applies.
  // Returns the finding's index in `*into`, or -1 when the cap dropped it.
  int Add(std::vector<Finding>* into, Finding f, int line_now);

  AuditOptions options_;
  std::vector<ReplayObserver*> observers_;
  bool stopped_ = false;
  bool capped_ = false;
  int findings_ = 0;
};

// One game pushed line by line instead of read from a stream: the library's
// line-by-line replay (api/ Replay) rides on it. It is the same replay as
// ReplayDriver::Run(), so a line gets exactly the findings the audit gives
// it, recovery and score checks included; only the end-of-log checks (a
// missing end_game) are left out, since a fed game has no end. The caller
// reads each line (LogReader) and handles the game header.
class GameFeed {
 public:
  // `options.max_findings` caps the findings as in Run(); 0: no cap.
  GameFeed(RulesetChoice choice, std::vector<std::string> players, AuditOptions options = {});
  ~GameFeed();
  GameFeed(const GameFeed&) = delete;
  GameFeed& operator=(const GameFeed&) = delete;

  // One line: the reader's problems with it, then its event (null when the
  // line yielded none). Their lines must be `line`. Returns how many
  // findings report().findings had before it: the line's findings follow.
  size_t Feed(int line, std::vector<InputProblem> problems, const Event* event);

  // The players' names, for the findings' words (a header fed late).
  void SetPlayers(std::vector<std::string> players) { report_.players = std::move(players); }

  const GameReport& report() const { return report_; }
  const RulesetChoice& ruleset() const;
  // The engine's game, and the hand being played (0 before the first deal).
  const Game& game() const;
  bool in_hand() const;
  int hand_number() const;
  // The running totals, with the recorded scores of hands the replay could
  // not compute (as the audit's report gives them).
  std::vector<int> totals() const;

 private:
  ReplayDriver driver_;
  GameReport report_;
  std::unique_ptr<ReplayDriver::GameReplay> replay_;
};

}  // namespace canasta

#endif  // CANASTA_REPLAY_DRIVER_H_
