// `canasta tree`: the decision points of one hand as a Graphviz tree, laid out
// and rendered to SVG in this process (cgraph + gvc), or written as DOT.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>

#include <boost/program_options.hpp>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "replay/decisions.h"
#include "replay/moves.h"
#include "review/evaluate.h"

namespace po = boost::program_options;

namespace canasta {
namespace {

constexpr char kTreeUsage[] =
    "usage: canasta tree [options] LOG\n"
    "\n"
    "The decision points of one hand: every turn as played, with what else the\n"
    "rules allowed at that moment (dashed, equivalent plays grouped), the played\n"
    "line in bold blue, and the key decisions outlined in red (a pile left behind,\n"
    "a chance to go out not taken, a discard that gave the next player the pile).\n"
    "With --rollouts R > 0 each alternative's edge carries its Monte Carlo value\n"
    "relative to the move played, in hand points (\"+410 \u00b1 60\": 410 more).\n"
    "Rendered in-process with Graphviz: -o FILE.svg, .png, .pdf, or .dot (text).\n";

// Alternatives drawn per evaluated point; the rest fold into "+N more".
constexpr int kShown = 4;

// cgraph takes non-const char* (platform-facts.md).
char* C(const std::string& s) { return const_cast<char*>(s.c_str()); }

void Set(void* obj, const char* key, const std::string& value) {
  agsafeset(obj, const_cast<char*>(key), C(value), const_cast<char*>(""));
}

// A plain Graphviz label: cgraph quotes it when writing DOT; only a
// backslash would start one of Graphviz's label escapes (\n, \N).
std::string Label(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// Graphviz HTML-like labels: escape what its HTML parser reads.
std::string Html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A card as a club player writes it: rank and suit symbol, hearts and
// diamonds in red.
std::string CardHtml(Card c) {
  if (c.is_joker()) return "JK";
  std::string rank = c.rank() == Rank::kTen ? "10" : ToString(c.rank());
  static const char* kSymbols[] = {"\u2660", "\u2665", "\u2666", "\u2663"};
  const std::string text = rank + kSymbols[int(c.suit())];
  return c.is_red() ? "<FONT COLOR=\"#c00000\">" + text + "</FONT>" : text;
}

std::string CardsHtml(const std::vector<Card>& cards) {
  std::string s;
  for (Card c : cards) s += (s.empty() ? "" : " ") + CardHtml(c);
  return s;
}

// A decision's box: who and when, what was done, the hand, the pile.
std::string DecisionHtml(const Decision& d) {
  std::string rows = "<TR><TD>turn " + std::to_string(d.turn) + " \u00b7 " + Html(d.player) +
                     " \u00b7 line " + std::to_string(d.line) + "</TD></TR>";
  rows += "<TR><TD><B>" + Html(d.chosen) + "</B></TD></TR>";
  if (!d.hand.empty()) rows += "<TR><TD>hand: " + CardsHtml(d.hand) + "</TD></TR>";
  std::string pile =
      "pile: " + std::to_string(d.pile_size) + (d.pile_size == 1 ? " card" : " cards");
  if (d.pile_top) pile += ", " + CardHtml(*d.pile_top) + " on top";
  if (!d.pile_state.empty()) pile += "; " + Html(d.pile_state);
  rows += "<TR><TD>" + pile + "</TD></TR>";
  if (d.key) rows += "<TR><TD><FONT COLOR=\"red\">[" + Html(d.why_key) + "]</FONT></TD></TR>";
  return "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"1\">" + rows + "</TABLE>";
}

void SetHtmlLabel(Agraph_t* g, void* obj, const std::string& html) {
  char* h = agstrdup_html(g, C(html));
  agsafeset(obj, const_cast<char*>("label"), h, const_cast<char*>(""));
  agstrfree(g, h);
}

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return std::string(buf) == "-0" ? "0" : buf;
}

// "+410 ± 60": the alternative's value minus the move played's.
std::string Relative(const AlternativeValue& a) {
  const std::string v = Fixed(a.vs_played);
  return (v[0] == '-' || v == "0" ? v : "+" + v) + " \u00b1 " + Fixed(a.vs_played_se);
}

// A point of the hand where the tree shows alternatives: a draw, the first
// move of a play phase, and its discard. Its groups (review/evaluate.h), and
// when --rollouts > 0 their values.
struct Point {
  DecisionValue value;
  int pile = 0;
  bool discard = false;           // the move played is a discard
  std::vector<MeldPart> melded;   // a phase's start: every meld part of the phase
  std::string played_words;
};

// Follows the replay beside the DecisionCollector: records the hand for the
// reviewer (HandHistory) and evaluates each point, keyed by its log line.
// Decision keys and seeds are the review's (cli/review_command.cc), so the
// same settings give the review's values.
class TreeEvaluator : public ReplayObserver {
 public:
  TreeEvaluator(const std::string& file, int game, int hand, const ReviewSettings& settings,
                RulesetResolver resolve)
      : file_(file), want_game_(game), want_hand_(hand), settings_(settings),
        resolve_(std::move(resolve)) {}

  const std::map<int, Point>& points() const { return points_; }
  double seconds() const { return seconds_; }

  void OnGameStart(const GameReport&, const RulesetChoice* ruleset) override {
    in_game_ = ++games_ == want_game_ && ruleset;
    if (!in_game_) return;
    choice_ = *ruleset;
    totals_.assign(size_t(choice_.rules.num_sides()), 0);
    if (settings_.rollouts <= 0) return;
    // A Lua ruleset's hooks serve one thread: one set per job.
    settings_.thread_hooks.clear();
    for (int t = 0; t < settings_.jobs; ++t) {
      RulesetChoice c;
      std::string error;
      if (!resolve_(ruleset->name, file_, &c, &error)) break;
      thread_hooks_.push_back(c.hooks);
      settings_.thread_hooks.push_back(c.hooks.get());
    }
    if (int(settings_.thread_hooks.size()) < settings_.jobs) settings_.jobs = 1;
  }

  void OnHandStart(const Event& deal, const Position&) override {
    active_ = in_game_ && *deal.hand == want_hand_;
    history_.reset();
    if (!active_) return;
    DealMove d;
    d.dealer = *deal.dealer;
    d.hands = deal.hands;
    d.upcards = deal.upcard;
    d.stock = deal.stock;
    history_.emplace(choice_.rules, *choice_.hooks, totals_, std::move(d));
  }

  void OnStateLost(int, const std::string&) override { active_ = false; }

  void BeforeMove(const Event& e, const Position& pos) override {
    before_.reset();
    if (!active_) return;
    std::optional<Move> made = ToMove(e, nullptr);
    if (!made) return;
    move_ = std::move(*made);
    before_.emplace(pos);
    const int seat = *e.player;
    const bool drawing =
        std::holds_alternative<DrawMove>(move_) || std::holds_alternative<TakePileMove>(move_);
    const bool discard = std::holds_alternative<DiscardMove>(move_);
    const bool meld = std::holds_alternative<MeldMove>(move_);
    if (drawing || seat != phase_seat_) phase_start_ = -1;
    if (drawing) phase_seat_ = seat;
    // The review's decisions, counted as it counts them (their seeds).
    if (!(drawing || meld || discard) || pos.phase() == Phase::kOver ||
        pos.phase() == Phase::kBeforePlay)
      return;
    const int index = decisions_++;
    const bool starts_phase = !drawing && phase_start_ < 0 && pos.phase() == Phase::kPlay &&
                              seat == pos.current_player();
    if (starts_phase) phase_start_ = e.line;
    if (drawing || starts_phase || discard) Evaluate(e, pos, index, discard);
    if (meld && phase_start_ >= 0) {
      const auto& parts = std::get<MeldMove>(move_).parts;
      std::vector<MeldPart>& m = points_[phase_start_].melded;
      m.insert(m.end(), parts.begin(), parts.end());
    }
  }

  void Evaluate(const Event& e, const Position& pos, int index, bool discard) {
    Point p;
    p.pile = int(pos.pile().size());
    p.discard = discard;
    p.played_words = MoveWords(move_, p.pile);
    const auto t0 = std::chrono::steady_clock::now();
    if (settings_.rollouts > 0) {
      const uint64_t key = MixSeed(uint64_t(want_game_), uint64_t(want_hand_), uint64_t(index));
      p.value = EvaluateDecision(*history_, pos, move_, key, settings_);
    } else {
      p.value = GroupAlternatives(pos, move_);
    }
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    points_[e.line] = std::move(p);
  }

  void AfterMove(const Event&, const Position& pos, const TaggedViolations&) override {
    if (!active_ || !before_ || !history_) return;
    history_->Record(move_, *before_, pos);
    before_.reset();
  }

  void OnHandEnd(const HandReport& report, const Event*, const Position*) override {
    if (in_game_ && !report.totals.empty()) {
      totals_ = report.totals;
      totals_.resize(size_t(choice_.rules.num_sides()), 0);
    }
    active_ = false;
  }

 private:
  std::string file_;
  const int want_game_, want_hand_;
  ReviewSettings settings_;
  RulesetResolver resolve_;
  int games_ = 0;
  bool in_game_ = false, active_ = false;
  RulesetChoice choice_;
  std::vector<std::shared_ptr<const RuleHooks>> thread_hooks_;
  std::vector<int> totals_;
  std::optional<HandHistory> history_;
  std::optional<Position> before_;
  Move move_;
  int decisions_ = 0, phase_seat_ = -1, phase_start_ = -1;
  std::map<int, Point> points_;
  double seconds_ = 0;
};

// The rank a meld part lays its cards on, and a card as it counts for
// grouping (GroupKey's equivalence).
int PartRank(const MeldPart& p) {
  if (p.to) return int(*p.to);
  if (p.as) return int(*p.as);
  for (Card c : p.cards)
    if (!c.is_wild()) return int(c.rank());
  return int(Rank::kTwo);
}
std::string Face(Card c) {
  if (c.is_three()) return c.is_red() ? "3red" : "3black";
  return ToString(c.rank());
}

// A meld alternative the phase played anyway, in one event or several: each
// of its cards (by face) went onto the same rank during the phase.
bool PlayedInPhase(const Move& m, const std::vector<MeldPart>& melded) {
  const MeldMove* x = std::get_if<MeldMove>(&m);
  if (!x || melded.empty()) return false;
  std::map<std::pair<int, std::string>, int> have;
  for (const MeldPart& p : melded)
    for (Card c : p.cards) ++have[{PartRank(p), Face(c)}];
  for (const MeldPart& p : x->parts)
    for (Card c : p.cards)
      if (--have[{PartRank(p), Face(c)}] < 0) return false;
  return true;
}

// The played line: bold and blue, so that it reads down the page.
void Played(Agedge_t* e) {
  Set(e, "color", "#1f5fbf");
  Set(e, "penwidth", "2.5");
  Set(e, "style", "bold");
}

// Builds the tree, top to bottom: the turns as played (only the key
// decisions unless `all`) joined by the played line, each with the groups of
// alternatives the rules allowed as dashed boxes beside it, their values on
// the edges when evaluated; key decisions are outlined in red.
Agraph_t* BuildGraph(const HandDecisions& h, const std::map<int, Point>& points, bool all,
                     const ReviewSettings& settings) {
  Agraph_t* g = agopen(C("hand"), Agdirected, nullptr);
  Set(g, "rankdir", "TB");
  Set(g, "fontname", "Helvetica");
  Set(g, "nodesep", "0.25");
  std::string title = "game " + std::to_string(h.game) + ", hand " + std::to_string(h.hand) +
                      " (" + h.ruleset + ")" +
                      (all ? "" : ": key decisions; `canasta tree --all` shows every turn");
  if (settings.rollouts > 0)
    title += "\\nvalues: hand points against the move played, " + std::to_string(settings.rollouts) +
             " rollouts, seed " + std::to_string(settings.seed);
  Set(g, "label", title);
  agattr(g, AGNODE, C("shape"), C("box"));
  agattr(g, AGNODE, C("style"), C("rounded"));
  agattr(g, AGNODE, C("fontname"), C("Helvetica"));
  agattr(g, AGNODE, C("fontsize"), C("10"));
  agattr(g, AGNODE, C("color"), C("black"));
  agattr(g, AGNODE, C("fontcolor"), C("black"));
  agattr(g, AGNODE, C("penwidth"), C("1"));
  agattr(g, AGEDGE, C("style"), C("solid"));
  agattr(g, AGEDGE, C("color"), C("black"));
  agattr(g, AGEDGE, C("penwidth"), C("1"));
  agattr(g, AGEDGE, C("label"), C(""));
  agattr(g, AGEDGE, C("xlabel"), C(""));
  agattr(g, AGEDGE, C("fontsize"), C("9"));
  agattr(g, AGEDGE, C("fontname"), C("Helvetica"));
  Agnode_t* prev = agnode(g, C("start"), 1);
  Set(prev, "label", "deal");
  Set(prev, "shape", "ellipse");
  int id = 0, skipped = 0;
  auto link = [&](Agnode_t* to) {
    Agedge_t* e = agedge(g, prev, to, nullptr, 1);
    Played(e);
    if (skipped) Set(e, "label", std::to_string(skipped) + " other decision(s)");
    skipped = 0;
    prev = to;
  };
  for (const Decision& d : h.decisions) {
    if (!all && !d.key) {
      ++skipped;
      continue;
    }
    const Point* start = nullptr;
    const Point* discard = nullptr;
    if (auto it = points.find(d.first_line); it != points.end()) start = &it->second;
    if (d.line != d.first_line)
      if (auto it = points.find(d.line); it != points.end() && it->second.discard)
        discard = &it->second;
    Decision shown = d;
    if ((start && start->value.status == DecisionStatus::kIllegal) ||
        (discard && discard->value.status == DecisionStatus::kIllegal)) {
      shown.key = true;
      shown.why_key = (d.key ? d.why_key + "; " : "") + "illegal: the audit reports it";
    }
    Agnode_t* n = agnode(g, C("d" + std::to_string(id++)), 1);
    SetHtmlLabel(g, n, DecisionHtml(shown));
    if (shown.key) {
      Set(n, "color", "red");
      Set(n, "penwidth", "2");
    }
    link(n);
    // The alternatives sit in the decision's row.
    // Anonymous: cgraph orders named subgraphs by their name string's
    // address, which would make the DOT text differ from run to run.
    Agraph_t* row = agsubg(g, nullptr, 1);
    Set(row, "rank", "same");
    agsubnode(row, n, 1);
    const bool melded_first = start && discard;
    auto alternatives = [&](const Point& p, bool in_phase_start) {
      const DecisionValue& v = p.value;
      if (v.status == DecisionStatus::kIllegal || v.status == DecisionStatus::kForced) return;
      const bool valued = v.status == DecisionStatus::kEvaluated;
      int drawn = 0, folded = 0;
      for (const AlternativeValue& a : v.alternatives) {
        if (a.played) continue;
        if (in_phase_start && PlayedInPhase(a.move, start->melded)) continue;
        if (drawn >= kShown) {
          ++folded;
          continue;
        }
        ++drawn;
        std::string words = a.words;
        if (in_phase_start && melded_first && std::holds_alternative<DiscardMove>(a.move))
          words += ", melding nothing";
        if (p.discard && !in_phase_start)
          words = "instead of " + p.played_words.substr(10) + ": " + words;
        if (a.members > 1) words += " (" + std::to_string(a.members) + " ways)";
        Agnode_t* x = agnode(row, C("a" + std::to_string(id++)), 1);
        Set(x, "label", Label(words));
        Set(x, "color", "gray50");
        Set(x, "fontcolor", "gray35");
        Set(x, "style", "rounded,dashed");
        Agedge_t* e = agedge(g, n, x, nullptr, 1);
        Set(e, "style", "dashed");
        Set(e, "color", "gray60");
        if (valued) Set(e, "xlabel", Relative(a));  // a label on a flat edge crashes 2.42
      }
      if (folded) {
        Agnode_t* x = agnode(row, C("a" + std::to_string(id++)), 1);
        Set(x, "label", "+" + std::to_string(folded) + " more");
        Set(x, "color", "gray70");
        Set(x, "fontcolor", "gray45");
        Set(x, "style", "rounded,dotted");
        Agedge_t* e = agedge(g, n, x, nullptr, 1);
        Set(e, "style", "dotted");
        Set(e, "color", "gray70");
      }
    };
    if (start) alternatives(*start, true);
    if (discard) alternatives(*discard, false);
  }
  if (!h.scores.empty()) {
    Agnode_t* end = agnode(g, C("end"), 1);
    std::string s;
    for (size_t i = 0; i < h.scores.size(); ++i) s += (i ? ", " : "") + std::to_string(h.scores[i]);
    Set(end, "label", "hand scores: " + s);
    Set(end, "shape", "ellipse");
    link(end);
  }
  return g;
}

// Graphviz is not thread-safe, and one context per process (platform-facts.md).
GVC_t* Context() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

// The formats by -o extension; anything else is a usage error.
const char* const kFormats[] = {"svg", "png", "pdf", "dot"};
bool Known(const std::string& f) {
  return std::find(std::begin(kFormats), std::end(kFormats), f) != std::end(kFormats);
}

}  // namespace

int TreeCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string rules, output, format;
  int game = 1, hand = 1, rollouts = 0, jobs = 1;
  uint64_t seed = 1;
  opts.add_options()("help,h", "this help")(
      "hand", po::value(&hand)->default_value(1), "the hand (1-based)")(
      "game", po::value(&game)->default_value(1), "the game in the file (1-based)")(
      "rules,r", po::value(&rules), "ruleset: overrides the log's")(
      "output,o", po::value(&output),
      "write here: FILE.svg, .png, .pdf or .dot (default: SVG on stdout)")(
      "all", "every turn, not only the key decisions")(
      "rollouts", po::value(&rollouts)->default_value(0),
      "Monte Carlo rollouts per decision for the edges' values (0: no values; "
      "the review's evaluation, docs/review.md)")(
      "seed", po::value(&seed)->default_value(1), "random seed: the same seed, the same bytes")(
      "jobs,j", po::value(&jobs)->default_value(1),
      "threads over rollouts (the output does not depend on it)")(
      "format,f", po::value(&format),
      "svg, png, pdf or dot (default: from the output's extension, else svg)");
  std::vector<std::string> paths;
  po::variables_map vm;
  if (!ParseOptions(args, opts, "tree", kTreeUsage, &paths, &vm)) return kExitTrouble;
  if (vm.count("help")) {
    std::cout << kTreeUsage << "\n"
              << opts;
    return kExitOk;
  }
  if (paths.size() != 1) {
    std::cerr << "canasta tree: error: give one log\n";
    return kExitTrouble;
  }
  if (rollouts < 0 || rollouts > 100000 || jobs < 1 || jobs > 256) {
    std::cerr << "canasta tree: error: --rollouts is 0 to 100000, --jobs 1 to 256\n";
    return kExitTrouble;
  }
  if (format.empty() && !output.empty() && output != "-") {
    const size_t dot = output.rfind('.');
    const size_t slash = output.rfind('/');
    const std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                                ? ""
                                : output.substr(dot + 1);
    std::string lower;
    for (char c : ext) lower += char(std::tolower(static_cast<unsigned char>(c)));
    format = lower == "gv" ? "dot" : lower;
    if (!Known(format)) {
      std::cerr << "canasta tree: error: cannot tell the format of '" << output
                << "' from its extension: use .svg, .png, .pdf or .dot (or --format)\n";
      return kExitTrouble;
    }
  }
  if (format.empty()) format = "svg";
  if (!Known(format)) {
    std::cerr << "canasta tree: error: unknown format '" << format
              << "' (svg, png, pdf or dot)\n";
    return kExitTrouble;
  }
  const bool binary = format == "png" || format == "pdf";
  if (binary && (output.empty() || output == "-") && isatty(1)) {
    std::cerr << "canasta tree: error: " << format
              << " is binary and standard output is a terminal: pass -o FILE." << format
              << " (or redirect it)\n";
    return kExitTrouble;
  }
  std::ifstream in(paths[0], std::ios::binary);
  if (!in) {
    std::cerr << "canasta: error: cannot read '" << paths[0] << "'\n";
    return kExitTrouble;
  }
  AuditOptions options;
  options.forced_ruleset = rules;
  options.resolve = CommandLineResolver(rules, {}, paths[0]);
  ReviewSettings settings;
  settings.rollouts = rollouts;
  settings.max_rollouts = rollouts;  // a fixed number: the tree's cost is known
  settings.seed = seed;
  settings.jobs = jobs;
  TreeEvaluator evaluator(paths[0], game, hand, settings, options.resolve);
  HandDecisions decisions;
  std::string error;
  if (!CollectDecisions(in, paths[0], game, hand, options, &decisions, &error, {&evaluator})) {
    std::cerr << "canasta tree: error: " << paths[0] << ": " << error << "\n";
    return kExitTrouble;
  }
  if (std::getenv("CANASTA_TREE_TIMING"))
    std::cerr << "canasta tree: evaluation took " << evaluator.seconds() << " s\n";

  static std::mutex graphviz;
  std::lock_guard<std::mutex> lock(graphviz);
  Agraph_t* g = BuildGraph(decisions, evaluator.points(), vm.count("all") > 0, settings);
  std::string text;
  if (format == "dot") {
    // DOT needs no layout: cgraph writes it.
    char* data = nullptr;
    size_t length = 0;
    if (FILE* mem = open_memstream(&data, &length)) {
      agwrite(g, mem);
      std::fclose(mem);
      text.assign(data, length);
      std::free(data);
    }
  } else {
    if (gvLayout(Context(), g, "dot") != 0) {
      agclose(g);
      std::cerr << "canasta tree: error: Graphviz could not lay out the tree (is its plugin "
                   "configuration written? `libgvc6-config-update -c` as root); "
                   "`--format dot` needs no layout\n";
      return kExitTrouble;
    }
    char* data = nullptr;
    unsigned int length = 0;
    const int rc = gvRenderData(Context(), g, format.c_str(), &data, &length);
    if (rc == 0 && data) text.assign(data, length);
    if (data) gvFreeRenderData(data);
    gvFreeLayout(Context(), g);
    if (rc != 0) {
      agclose(g);
      std::cerr << "canasta tree: error: this Graphviz has no '" << format
                << "' renderer (png and pdf come from its cairo plugin, Debian's libgvc6; "
                   "`--format svg` or `dot` need none)\n";
      return kExitTrouble;
    }
  }
  agclose(g);
  if (text.empty()) {
    std::cerr << "canasta tree: error: Graphviz rendered nothing\n";
    return kExitTrouble;
  }
  return WriteOutput("tree", output, text, {paths[0]});
}

}  // namespace canasta
