// `canasta tree`: the decision points of one hand as a Graphviz tree, laid out
// and rendered to SVG in this process (cli/hand_tree.h), or written as DOT.
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.h"
#include "cli/hand_tree.h"
#include "cli/options.h"
#include "cli/output.h"
#include "lint/format.h"
#include "replay/decisions.h"
#include "replay/driver.h"
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

  const std::map<int, TreePoint>& points() const { return points_.points(); }
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
    counter_ = DecisionCounter();
  }

  void OnStateLost(int, const std::string&) override { active_ = false; }

  void BeforeMove(const Event& e, const Position& pos) override {
    before_.reset();
    if (!active_) return;
    std::optional<Move> made = ToMove(e, nullptr);
    if (!made) return;
    move_ = std::move(*made);
    before_.emplace(pos);
    // The review's decisions, counted as it counts them (their seeds).
    const CountedMove c = counter_.Count(*e.player, move_, pos);
    DecisionValue value;
    if (TreePoints::Shows(c, move_)) {
      const auto t0 = std::chrono::steady_clock::now();
      value = settings_.rollouts > 0
                  ? EvaluateDecision(*history_, pos, move_,
                                     DecisionKey(want_game_, want_hand_, c.index), settings_)
                  : GroupAlternatives(pos, move_);
      seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    points_.Add(e.line, c, move_, pos, std::move(value));
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
    if (active_ && settings_.rollouts > 0)
      hook_failures_ = TakeRolloutHookFailures(settings_, choice_.hooks.get());
    active_ = false;
  }

  // The hooks that failed in the hand's rollouts (its values used the
  // engine's default answer for those calls).
  const std::vector<HookFailure>& hook_failures() const { return hook_failures_; }

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
  DecisionCounter counter_;
  TreePoints points_;
  double seconds_ = 0;
  std::vector<HookFailure> hook_failures_;
};

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
  opts.add_options()("help,h", "this help")("hand", po::value(&hand)->default_value(1),
                                            "the hand (1-based)")(
      "game", po::value(&game)->default_value(1), "the game in the file (1-based)")(
      "rules,r", po::value(&rules), "ruleset: overrides the log's")(
      "output,o", po::value(&output),
      "write here: FILE.svg, .png, .pdf or .dot (default: SVG on stdout)")(
      "all", "every turn, not only the key decisions")(
      "rollouts", po::value(&rollouts)->default_value(0),
      "Monte Carlo rollouts per decision for the edges' values, 0 to 100000 (0: no "
      "values; the review's evaluation, docs/review.md)")(
      "seed", po::value(&seed)->default_value(1), "random seed: the same seed, the same bytes")(
      "jobs,j", po::value(&jobs)->default_value(1),
      "threads over rollouts, 1 to 256 (the output does not depend on it)")(
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
  if (!CheckRanges("tree", vm,
                   {{"rollouts", rollouts, 0, kMaxRollouts},
                    {"jobs", jobs, 1, kMaxThreads},
                    {"hand", hand, 1},
                    {"game", game, 1}}))
    return kExitTrouble;
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
  std::ifstream in;
  if (std::string reason; !OpenInput(paths[0], &in, &reason)) {
    std::cerr << "canasta tree: error: cannot read '" << paths[0] << "': " << reason << "\n";
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
  for (const HookFailure& f : evaluator.hook_failures()) {
    // Not the log's finding: the values drawn are the engine's there.
    std::cerr << "canasta tree: warning: "
              << Printable(
                     HookFailureLine(f, " in the rollouts",
                                     "the values shown used the engine's default answer for them"))
              << "\n";
  }
  if (std::getenv("CANASTA_TREE_TIMING"))
    std::cerr << "canasta tree: evaluation took " << evaluator.seconds() << " s\n";

  TreeOptions tree;
  tree.all = vm.count("all") > 0;
  if (!tree.all) tree.subtitle = ": key decisions; `canasta tree --all` shows every turn";
  if (rollouts > 0)
    tree.values = std::to_string(rollouts) + " rollouts, seed " + std::to_string(seed);
  std::string text;
  if (!RenderTree(decisions, evaluator.points(), tree, format, &text, &error)) {
    std::cerr << "canasta tree: error: " << error << "\n";
    return kExitTrouble;
  }
  return WriteOutput("tree", output, text, {paths[0]});
}

}  // namespace canasta
