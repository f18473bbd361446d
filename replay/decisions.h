// The decision points of one hand of a recorded game: for every turn, what
// the player did and what else the rules allowed at that moment, from the
// legal-move generator. cli/ draws them as a Graphviz tree.
#ifndef CANASTA_REPLAY_DECISIONS_H_
#define CANASTA_REPLAY_DECISIONS_H_

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "replay/driver.h"

namespace canasta {

struct Decision {
  int line = 0;        // the log line of the move made (a play: its last move)
  int first_line = 0;  // the log line of its first move
  int seat = 0;
  std::string player;                     // the seat's name from the header
  int turn = 0;                           // 1-based turn within the hand
  std::string phase;                      // "draw" or "play"
  std::string chosen;                     // what was done, in words
  // What else was legal, in words: a draw's other ways; a play's first three
  // melds ("could have melded ...", then "and N other meld(s)"), going out,
  // and up to eight other discards, one a class (then " ...").
  std::vector<std::string> alternatives;
  // What the player saw when deciding: their hand (before the draw for a
  // draw decision, after it for a play), and the pile.
  std::vector<Card> hand;
  int pile_size = 0;
  std::optional<Card> pile_top;
  // "" when the player could take the pile by a pair or a meld on the table;
  // else why not by those alone: "frozen by 2C", "frozen until the side
  // melds", "blocked by 3S on top".
  std::string pile_state;
  // A key decision: the player left a notable option (taking the pile, going
  // out) or handed the next player the pile.
  bool key = false;
  std::string why_key;
};

struct HandDecisions {
  std::string ruleset;
  int game = 0;
  int hand = 0;
  std::vector<std::string> players;
  std::vector<Decision> decisions;
  std::vector<int> scores;  // the computed scores of the hand, when it ended
};

// Collects the decisions of hands from the replay driver's callbacks. Every
// judgement is made on moves and positions, never on the words shown.
// With a driver: hand `hand` of game `game` (1-based), and it stops the
// driver after it or where the replay cannot follow it (error()). Without
// one: every hand of game `game` (0: of every game), or hand `hand` only
// when not 0, beside another observer that drives the replay (the review's
// HTML page, cli/review_command.cc); a hand the replay loses ends there.
class DecisionCollector : public ReplayObserver {
 public:
  DecisionCollector(ReplayDriver* driver, int game, int hand);

  // One entry per hand collected, in the log's order.
  std::vector<HandDecisions>& hands() { return hands_; }
  bool found_hand() const { return found_hand_; }
  int games() const { return games_; }
  const std::string& error() const { return error_; }
  // Where the replay first lost a hand of the wanted game before the
  // wanted hand was found ("line N: why"), else "": why no hand may be found.
  const std::string& lost_before() const { return lost_before_; }
  // The end of the replay: closes a hand cut short by the end of the log.
  void Finish();

  void OnGameStart(const GameReport& game, const RulesetChoice* ruleset) override;
  void OnHandStart(const Event& deal, const Position&) override;
  void OnStateLost(int line, const std::string& why) override;
  void OnHandEnd(const HandReport& hand, const Event* end_hand, const Position*) override;
  void BeforeMove(const Event& e, const Position& pos) override;
  void AfterMove(const Event& e, const Position& pos, const TaggedViolations&) override;

 private:
  std::string Name(int s) const;
  Decision Begin(const Event& e, const Position& pos, int seat, const char* phase) const;
  void Draw(const Event& e, const Position& pos, const Move& move, int seat);
  void OpenPlay(const Event& e, const Position& pos, int seat);
  void ClosePlay();

  ReplayDriver* driver_;
  const int want_game_, want_hand_;
  std::vector<HandDecisions> hands_;
  HandDecisions* out_ = nullptr;  // the hand being collected: hands_.back()
  std::string ruleset_;
  std::vector<std::string> players_;
  int games_ = 0;
  bool in_game_ = false, target_ = false, found_hand_ = false, done_ = false;
  std::string lost_before_;
  std::string error_;
  int turn_ = 0, turn_seat_ = -1;
  Move move_;
  bool tracking_play_ = false;
  Decision play_;  // the play phase being collected
  bool play_open_ = false, could_go_out_ = false, went_out_ = false;
  std::vector<std::pair<size_t, MeldMove>> alternative_melds_;  // index in alternatives
  std::vector<MeldPart> played_parts_;
};

// Replays `in` (named `file`, for ruleset paths in its header) up to hand
// `hand` of game `game` (both 1-based) on the replay driver and collects its
// decisions. Returns false with `error` set when the hand is not there, or
// when the replay could not follow it (then `error` starts with "line N: ").
// `extra` observers follow the same replay, after the collector (the tree's
// evaluation of each decision, cli/tree_command.cc).
bool CollectDecisions(std::istream& in, const std::string& file, int game, int hand,
                      const AuditOptions& options, HandDecisions* out, std::string* error,
                      const std::vector<ReplayObserver*>& extra = {});

}  // namespace canasta

#endif  // CANASTA_REPLAY_DECISIONS_H_
