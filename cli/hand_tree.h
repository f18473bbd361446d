// A hand's decision tree, built and rendered in one place for `canasta tree`
// and the HTML page of `canasta review` (docs/trees.md): the turns as played,
// the groups of alternatives beside each (review/evaluate.h), their values
// when evaluated. Graphviz (cgraph + gvc) lays it out in this process, so it
// lives in cli/ with the rest of the program's rendering; review/ stays
// without I/O and without Graphviz.
#ifndef CANASTA_CLI_HAND_TREE_H_
#define CANASTA_CLI_HAND_TREE_H_

#include <map>
#include <string>
#include <vector>

#include "replay/decisions.h"
#include "review/evaluate.h"

namespace canasta {

// A point of the hand where the tree shows alternatives: a draw, the first
// move of a play phase, and its discard. Its groups, valued or not.
struct TreePoint {
  DecisionValue value;
  int pile = 0;
  bool discard = false;          // the move played is a discard
  std::vector<MeldPart> melded;  // a phase's start: every meld part of the phase
  std::string played_words;
};

// The points of one hand by the log line of their move, fed with the
// decisions as DecisionCounter counts them.
class TreePoints {
 public:
  // Whether the tree shows the alternatives of this decision (then Add wants
  // its value).
  static bool Shows(const CountedMove& c, const Move& move);
  // Decision `c`, `move` at `before` on log line `line`: its point when
  // Shows(c, move) (with `value`), and a meld's parts for its phase's start.
  void Add(int line, const CountedMove& c, const Move& move, const Position& before,
           DecisionValue value);
  // The value of the point at `line`, refined after it was added (a key
  // decision of `canasta review`); nothing where the tree shows no value.
  void Revalue(int line, const DecisionValue& value);
  const std::map<int, TreePoint>& points() const { return points_; }

 private:
  std::map<int, TreePoint> points_;
  int phase_start_ = -1;
};

struct TreeOptions {
  bool all = false;        // every decision drawn, not only the key ones
  std::string subtitle;    // after "game G, hand H (ruleset)"
  std::string values;      // how the values were made ("16 rollouts, seed 1"); "": none
  bool mark_best = false;  // outline the best alternative in green, "best:" on it
};

// Renders hand `h` with its `points` as `format` (svg, png, pdf or dot) into
// `out`. False with `error` set when Graphviz cannot lay it out or has no
// renderer for the format. Serialised: Graphviz is not thread-safe.
bool RenderTree(const HandDecisions& h, const std::map<int, TreePoint>& points,
                const TreeOptions& options, const std::string& format, std::string* out,
                std::string* error);

// An SVG of RenderTree as an element of an HTML page: from its <svg> tag on,
// without the namespace attributes (an HTML parser needs none, and the page
// names no address), its ids prefixed with `id_prefix` so that several trees
// share a page.
std::string InlineSvg(const std::string& svg, const std::string& id_prefix);

}  // namespace canasta

#endif  // CANASTA_CLI_HAND_TREE_H_
