// `canasta review`: every decision of a recorded game evaluated by Monte
// Carlo (review/evaluate.h), the key decisions of each hand in words, and
// each player's accuracy over the game (docs/review.md).
#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/commands.h"
#include "cli/hand_tree.h"
#include "cli/options.h"
#include "cli/output.h"
#include "lint/check_levels.h"
#include "lint/checks.h"
#include "lint/format.h"
#include "replay/decisions.h"
#include "replay/driver.h"
#include "replay/log_writer.h"
#include "replay/moves.h"
#include "review/evaluate.h"

namespace po = boost::program_options;

namespace canasta {
namespace {

constexpr char kReviewUsage[] =
    "usage: canasta review [options] LOG\n"
    "\n"
    "Evaluates every decision of a recorded game by Monte Carlo from the acting\n"
    "player's point of view (their hand, the table, the cards seen), and prints\n"
    "each hand's key decisions with the best alternative and the points lost, and\n"
    "each player's accuracy. Values are hand points, acting side minus the other.\n";

// A pile this large, taken or given, makes a decision high-stakes.
constexpr int kLargePile = 8;
// Key decisions by points lost: at most this many per hand.
constexpr int kKeyByLoss = 3;
// Alternatives shown per decision; the rest are folded into "+N more".
constexpr int kShown = 4;

struct Reviewed {
  int line = 0, turn = 0, seat = 0;
  std::string player, phase, played;
  DecisionValue value;
  int pile = 0;  // the pile's size at the decision
  bool took_pile = false;
  bool froze = false;  // discarded a wild card onto the pile
  bool went_out = false;
  int gave_pile = 0;  // the next player took a pile of this size
  std::string gave_to;
  std::string label;
  std::vector<std::string> why_key;
  // Carried on at the hand's end when the decision is key (Finish).
  std::shared_ptr<DecisionEvaluation> eval;
};

struct ReviewedHand {
  int hand = 0, line = 0;
  std::vector<Finding> findings;  // the audit's, in this hand
  std::vector<Reviewed> decisions;
  std::vector<int> scores;
  std::string note;
  TreePoints tree;  // for the HTML page's tree
};

struct ReviewedGame {
  int game = 0;
  std::string ruleset;
  std::vector<std::string> players;
  int sides = 2;
  std::vector<ReviewedHand> hands;
  std::string note;
};

std::string Fixed(double v, int digits = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  std::string s = buf;
  return s == "-0" ? "0" : s;
}

std::string Signed(double v) { return (v >= 0.5 ? "+" : "") + Fixed(v); }

class ReviewObserver : public ReplayObserver {
 public:
  ReviewObserver(ReplayDriver* driver, const std::string& file, int game, int hand,
                 const ReviewSettings& settings, RulesetResolver resolve, bool trees,
                 CheckLevels command_line)
      : driver_(driver),
        file_(file),
        want_game_(game),
        want_hand_(hand),
        settings_(settings),
        resolve_(std::move(resolve)),
        command_line_(command_line),
        trees_(trees) {}

  std::vector<ReviewedGame>& games() { return games_; }

  void OnGameStart(const GameReport& game, const RulesetChoice* ruleset) override {
    ++game_number_;
    in_game_ = want_game_ == 0 || game_number_ == want_game_;
    if (want_game_ && game_number_ > want_game_) return driver_->Stop();
    if (!in_game_) return;
    ReviewedGame g;
    g.game = game_number_;
    g.players = game.players;
    if (!ruleset) {
      g.note = game.findings.empty() ? "the game cannot be replayed" : game.findings.back().message;
      games_.push_back(std::move(g));
      in_game_ = false;
      return;
    }
    g.ruleset = ruleset->name;
    g.sides = ruleset->rules.num_sides();
    // The findings shown are the audit's: the ruleset's `checks`, then --checks.
    levels_ = CheckLevels();
    levels_.ApplySettings(ruleset->checks);  // validated when the ruleset loaded
    levels_.Overlay(command_line_);
    games_.push_back(std::move(g));
    choice_ = *ruleset;
    totals_.assign(size_t(choice_.rules.num_sides()), 0);
    // A Lua ruleset's hooks serve one thread: one set per job.
    thread_hooks_.clear();
    settings_.thread_hooks.clear();
    for (int t = 0; t < settings_.jobs; ++t) {
      RulesetChoice c;
      std::string error;
      if (!resolve_(ruleset->name, file_, &c, &error)) break;
      thread_hooks_.push_back(c.hooks);
      settings_.thread_hooks.push_back(c.hooks.get());
    }
    // Where the ruleset cannot be found again by its name, one thread with
    // this game's hooks: the same values, only slower.
    jobs_ = int(settings_.thread_hooks.size()) >= settings_.jobs ? settings_.jobs : 1;
  }

  void OnHandStart(const Event& deal, const Position&) override {
    active_ = false;
    history_.reset();
    if (!in_game_) return;
    if (want_hand_ && *deal.hand != want_hand_) return;
    active_ = true;
    ReviewedHand h;
    h.hand = *deal.hand;
    h.line = deal.line;
    games_.back().hands.push_back(std::move(h));
    DealMove d;
    d.dealer = *deal.dealer;
    d.hands = deal.hands;
    d.upcards = deal.upcard;
    d.stock = deal.stock;
    history_.emplace(choice_.rules, *choice_.hooks, totals_, std::move(d));
    counter_ = DecisionCounter();
  }

  void OnFinding(const Finding& f) override {
    if (!active_ || games_.empty() || games_.back().hands.empty() || levels_.off(f.id)) return;
    Finding shown = f;
    const Severity s = levels_.SeverityOf(f.id);
    if (s != GetCheck(f.id).severity) shown.severity = s;
    games_.back().hands.back().findings.push_back(std::move(shown));
  }

  void OnStateLost(int line, const std::string& why) override {
    if (!active_) return;
    games_.back().hands.back().note = "line " + std::to_string(line) + ": " + why +
                                      "; the replay cannot follow the rest of this hand";
    active_ = false;
  }

  void BeforeMove(const Event& e, const Position& pos) override {
    before_.reset();
    if (!active_) return;
    std::optional<Move> made = ToMove(e, nullptr);
    if (!made) return;
    move_ = std::move(*made);
    before_.emplace(pos);
    const int seat = *e.player;
    const CountedMove c = counter_.Count(seat, move_, pos);
    if (c.index < 0) return;
    ReviewedHand& hand = games_.back().hands.back();
    Reviewed r;
    r.line = e.line;
    r.turn = c.turn;
    r.seat = seat;
    r.player = Name(seat);
    r.phase = c.draws ? "draw" : "play";
    r.pile = int(pos.pile().size());
    r.played = MoveWords(move_, r.pile);
    r.took_pile = std::holds_alternative<TakePileMove>(move_);
    if (auto* d = std::get_if<DiscardMove>(&move_)) r.froze = d->card.is_wild();
    ReviewSettings s = settings_;
    s.jobs = jobs_;
    // Screened now; refined at the hand's end if key (Finish).
    r.eval = std::make_shared<DecisionEvaluation>(
        *history_, pos, move_, DecisionKey(games_.back().game, hand.hand, c.index), s);
    r.value = r.eval->Refine(s.screen_rollouts);
    if (trees_)
      hand.tree.Add(e.line, c, move_, pos, TreePoints::Shows(c, move_) ? r.value : DecisionValue());
    // The discard before this take handed the pile over.
    if (r.took_pile) {
      for (size_t i = hand.decisions.size(); i-- > 0;) {
        Reviewed& prev = hand.decisions[i];
        if (prev.seat == seat) break;
        if (prev.phase == "play" && prev.played.rfind("discarded", 0) == 0) {
          prev.gave_pile = r.pile;
          prev.gave_to = r.player;
          break;
        }
      }
    }
    hand.decisions.push_back(std::move(r));
  }

  void AfterMove(const Event& e, const Position& pos, const TaggedViolations&) override {
    if (!active_ || !before_ || !history_) return;
    history_->Record(move_, *before_, pos);
    before_.reset();
    ReviewedHand& hand = games_.back().hands.back();
    if (pos.phase() == Phase::kOver && pos.went_out() == *e.player && !hand.decisions.empty() &&
        hand.decisions.back().line == e.line)
      hand.decisions.back().went_out = true;
  }

  void OnHandEnd(const HandReport& report, const Event*, const Position*) override {
    if (in_game_ && !report.totals.empty()) {
      totals_ = report.totals;
      totals_.resize(size_t(choice_.rules.num_sides()), 0);
    }
    if (!in_game_ || games_.back().hands.empty() || games_.back().hands.back().hand != report.hand)
      return;
    ReviewedHand& hand = games_.back().hands.back();
    if (!active_ && hand.decisions.empty() && hand.note.empty()) return;
    hand.scores = report.scores;
    Finish(&hand);
    ReportRolloutHookFailures(&hand);
    active_ = false;
    history_.reset();
    if (want_hand_) driver_->Stop();
  }

 private:
  std::string Name(int s) const {
    const std::vector<std::string>& p = games_.back().players;
    return s < int(p.size()) ? p[size_t(s)] : "seat " + std::to_string(s);
  }

  // Screening (docs/review.md): every decision was evaluated with up to
  // screen_rollouts; the key ones are refined up to max_rollouts, and the
  // key decisions are chosen again with the refined values, until no key
  // decision has more to play (a refined loss that falls out of the top
  // three lets another in, which is refined in turn).
  void Finish(ReviewedHand* hand) {
    for (size_t round = 0; round <= hand->decisions.size(); ++round) {
      MarkKeys(hand);
      bool refined = false;
      for (Reviewed& r : hand->decisions) {
        if (r.why_key.empty() || !r.eval || !r.eval->WouldRefine(settings_.max_rollouts)) continue;
        r.value = r.eval->Refine(settings_.max_rollouts);
        refined = true;
      }
      if (!refined) break;
    }
    for (Reviewed& r : hand->decisions) {
      hand->tree.Revalue(r.line, r.value);
      r.eval.reset();  // its copies of the hand are no longer needed
    }
  }

  // A hook that failed in this hand's rollouts (the threads' own hooks):
  // the values of its decisions used the engine's default answer for those
  // calls. One finding per failure: the audit's finding of the same failure
  // says so too, else a finding at the hand's deal.
  void ReportRolloutHookFailures(ReviewedHand* hand) {
    std::vector<HookFailure> failures = TakeRolloutHookFailures(settings_, choice_.hooks.get());
    if (levels_.off(CheckId::kRulesetHookFailed)) return;
    for (HookFailure& f : failures) {
      const std::string calls =
          std::to_string(f.count) + (f.count == 1 ? " call" : " calls") + " in the rollouts";
      const std::string effect =
          "the values of this hand's decisions used the engine's default answer for them";
      f.count = 1;  // said in the message
      HookFailureText text = DescribeHookFailure(f);
      auto same = std::find_if(hand->findings.begin(), hand->findings.end(), [&](const Finding& x) {
        return x.id == CheckId::kRulesetHookFailed && x.message == text.message;
      });
      if (same != hand->findings.end()) {
        same->message += " (and " + calls + ": " + effect + ")";
        continue;
      }
      Finding finding;
      finding.line = hand->line;
      finding.id = CheckId::kRulesetHookFailed;
      finding.message = text.message + " (" + calls + ": " + effect + ")";
      finding.notes = std::move(text.notes);
      const Severity severity = levels_.SeverityOf(finding.id);
      if (severity != GetCheck(finding.id).severity) finding.severity = severity;
      hand->findings.push_back(std::move(finding));
    }
  }

  // Labels and the key decisions of a hand.
  static void MarkKeys(ReviewedHand* hand) {
    std::vector<size_t> by_loss;
    for (size_t i = 0; i < hand->decisions.size(); ++i) {
      Reviewed& r = hand->decisions[i];
      r.why_key.clear();
      r.label.clear();
      if (r.value.status != DecisionStatus::kEvaluated) continue;
      r.label = LossLabel(r.value.lost, r.value.lost_se);
      if (r.value.lost >= kInaccuracy) by_loss.push_back(i);
    }
    std::stable_sort(by_loss.begin(), by_loss.end(), [&](size_t a, size_t b) {
      return hand->decisions[a].value.lost > hand->decisions[b].value.lost;
    });
    for (size_t k = 0; k < by_loss.size(); ++k) {
      Reviewed& r = hand->decisions[by_loss[k]];
      if (k < size_t(kKeyByLoss) || !r.label.empty())
        r.why_key.push_back("lost " + Fixed(r.value.lost) + " points");
    }
    for (Reviewed& r : hand->decisions) {
      if (r.took_pile && r.pile >= kLargePile)
        r.why_key.push_back("took a " + std::to_string(r.pile) + "-card pile");
      if (r.gave_pile >= kLargePile)
        r.why_key.push_back("gave " + r.gave_to + " a " + std::to_string(r.gave_pile) +
                            "-card pile");
      if (r.froze) r.why_key.push_back("froze the pile");
      if (r.went_out) r.why_key.push_back("went out");
      if (r.value.status == DecisionStatus::kIllegal) r.why_key.push_back("illegal move");
    }
  }

  ReplayDriver* driver_;
  std::string file_;
  const int want_game_, want_hand_;
  ReviewSettings settings_;
  RulesetResolver resolve_;  // the command line's (cli/commands.h)
  CheckLevels command_line_;  // --checks
  CheckLevels levels_;        // the game's: its ruleset's `checks`, then --checks
  const bool trees_;
  int jobs_ = 1;
  std::vector<ReviewedGame> games_;
  int game_number_ = 0;
  bool in_game_ = false, active_ = false;
  RulesetChoice choice_;
  std::vector<std::shared_ptr<const RuleHooks>> thread_hooks_;
  std::vector<int> totals_;
  std::optional<HandHistory> history_;
  std::optional<Position> before_;
  Move move_;
  DecisionCounter counter_;
};

// --- Accuracy over a game, per seat.
struct Accuracy {
  double sum = 0, lost = 0;
  int decisions = 0, inaccuracies = 0, mistakes = 0, blunders = 0;
};

std::vector<Accuracy> GameAccuracy(const ReviewedGame& g) {
  std::vector<Accuracy> a(g.players.size());
  for (const ReviewedHand& h : g.hands) {
    for (const Reviewed& r : h.decisions) {
      if (r.value.status != DecisionStatus::kEvaluated || size_t(r.seat) >= a.size()) continue;
      Accuracy& x = a[size_t(r.seat)];
      x.sum += DecisionAccuracy(r.value.lost);
      x.lost += r.value.lost;
      ++x.decisions;
      x.inaccuracies += r.label == "inaccuracy";
      x.mistakes += r.label == "mistake";
      x.blunders += r.label == "blunder";
    }
  }
  return a;
}

std::string Plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// --- Text.
void WriteDecision(const Reviewed& r, std::ostream& out) {
  out << "  turn " << r.turn << ", " << r.player << " (line " << r.line << "): " << r.played;
  if (r.gave_pile) out << ", which gave " << r.gave_to << " a " << r.gave_pile << "-card pile";
  if (r.went_out) out << ", and went out";
  out << "\n";
  const DecisionValue& v = r.value;
  switch (v.status) {
    case DecisionStatus::kIllegal:
      out << "    illegal: the audit reports it; not a decision to evaluate\n";
      return;
    case DecisionStatus::kForced:
      out << "    the only legal choice\n";
      return;
    case DecisionStatus::kNotEvaluated:
      out << "    not evaluated: the log's hands cannot be followed card by card here\n";
      return;
    case DecisionStatus::kEvaluated:
      break;
  }
  if (v.played == 0) {
    out << "    the best choice (" << Signed(v.alternatives[0].mean) << " ± "
        << Fixed(v.alternatives[0].se) << ")";
    if (v.alternatives.size() > 1)
      out << "; next best, " << v.alternatives[1].words << ", "
          << Fixed(v.alternatives[0].mean - v.alternatives[1].mean) << " less";
    out << "\n";
  } else {
    out << "    " << (r.label.empty() ? "" : r.label + ": ") << v.alternatives[0].words
        << " was worth " << Signed(v.lost) << " ± " << Fixed(v.lost_se) << " more\n";
  }
  out << "    values:";
  int shown = 0;
  for (size_t i = 0; i < v.alternatives.size(); ++i) {
    const AlternativeValue& a = v.alternatives[i];
    if (shown >= kShown && !a.played) continue;
    ++shown;
    out << (i ? " |" : "") << " " << a.words << (a.played ? " (played)" : "") << " "
        << Signed(a.mean) << " ± " << Fixed(a.se);
    if (a.members > 1) out << " (" << a.members << " ways)";
  }
  if (int(v.alternatives.size()) > shown)
    out << " | +" << v.alternatives.size() - size_t(shown) << " more";
  out << "\n";
}

// "32 to 128 rollouts (1024 for a key decision)": the work per decision.
std::string RolloutWords(const ReviewSettings& s) {
  std::string w =
      std::to_string(s.rollouts) + " to " + std::to_string(s.screen_rollouts) + " rollouts";
  if (s.max_rollouts > s.screen_rollouts)
    w += " (" + std::to_string(s.max_rollouts) + " for a key decision)";
  return w;
}

void WriteTextLines(const std::vector<ReviewedGame>& games, const std::string& file,
                    const ReviewSettings& s, std::ostream& out) {
  out << "Review of " << file << " (" << RolloutWords(s) << " per decision, seed " << s.seed
      << "; values are hand points, the acting side minus the other)\n";
  for (const ReviewedGame& g : games) {
    out << "\nGame " << g.game << (g.ruleset.empty() ? "" : " (" + g.ruleset + ")") << "\n";
    if (!g.note.empty()) out << "  not reviewed: " << g.note << "\n";
    for (const ReviewedHand& h : g.hands) {
      out << "\nHand " << h.hand << " (line " << h.line << ")";
      if (!h.scores.empty()) {
        out << ": scores";
        for (size_t i = 0; i < h.scores.size(); ++i) out << (i ? " / " : " ") << h.scores[i];
      }
      out << "\n";
      if (!h.note.empty()) out << "  " << h.note << "\n";
      // The audit's findings in the hand, after --checks, as the audit words them.
      for (const Finding& f : h.findings) {
        out << "  line " << f.line << ": " << SeverityName(SeverityOf(f)) << ": " << f.message
            << " [" << GetCheck(f.id).name << "]\n";
      }
      int keys = 0;
      for (const Reviewed& r : h.decisions) {
        if (r.why_key.empty()) continue;
        ++keys;
        WriteDecision(r, out);
      }
      if (!keys) out << "  no key decision\n";
    }
    out << "\nAccuracy over the game:\n";
    std::vector<Accuracy> acc = GameAccuracy(g);
    for (size_t s2 = 0; s2 < acc.size(); ++s2) {
      const Accuracy& a = acc[s2];
      out << "  " << g.players[s2] << ": ";
      if (!a.decisions) {
        out << "no decision evaluated\n";
        continue;
      }
      out << Fixed(a.sum / a.decisions, 1) << "% over "
          << Plural(a.decisions, "decision", "decisions") << ", " << Fixed(a.lost)
          << " points lost; " << Plural(a.inaccuracies, "inaccuracy", "inaccuracies") << ", "
          << Plural(a.mistakes, "mistake", "mistakes") << ", "
          << Plural(a.blunders, "blunder", "blunders") << "\n";
    }
  }
}

// The text, with its control characters escaped (PrintableLines): players'
// names, notes and findings come from the log or a ruleset's hooks, and a
// terminal must not act on them.
void WriteText(const std::vector<ReviewedGame>& games, const std::string& file,
               const ReviewSettings& s, std::ostream& out) {
  std::ostringstream text;
  WriteTextLines(games, file, s, text);
  out << PrintableLines(text.str());
}

// --- JSON (docs/review.md has the schema).
std::string Json(const std::string& text) {
  // A hook's reason may hold any bytes: JSON strings are UTF-8.
  return JsonString(ValidUtf8(text));
}

const char* StatusName(DecisionStatus s) {
  switch (s) {
    case DecisionStatus::kEvaluated:
      return "evaluated";
    case DecisionStatus::kForced:
      return "forced";
    case DecisionStatus::kIllegal:
      return "illegal";
    case DecisionStatus::kNotEvaluated:
      return "not-evaluated";
  }
  return "";
}

void WriteJson(const std::vector<ReviewedGame>& games, const std::string& file,
               const ReviewSettings& s, std::ostream& out) {
  out << "{\"format\":\"canasta-review/1\",\"file\":" << Json(file)
      << ",\"rollouts\":" << s.rollouts << ",\"screen_rollouts\":" << s.screen_rollouts
      << ",\"max_rollouts\":" << s.max_rollouts << ",\"target_se\":" << Fixed(s.target_se, 1)
      << ",\"seed\":" << s.seed << ",\"thresholds\":{\"inaccuracy\":" << kInaccuracy
      << ",\"mistake\":" << kMistake << ",\"blunder\":" << kBlunder << "},\"games\":[";
  for (size_t gi = 0; gi < games.size(); ++gi) {
    const ReviewedGame& g = games[gi];
    out << (gi ? "," : "") << "\n{\"game\":" << g.game << ",\"ruleset\":" << Json(g.ruleset)
        << ",\"players\":[";
    for (size_t i = 0; i < g.players.size(); ++i) out << (i ? "," : "") << Json(g.players[i]);
    out << "],\"note\":" << Json(g.note) << ",\"hands\":[";
    for (size_t hi = 0; hi < g.hands.size(); ++hi) {
      const ReviewedHand& h = g.hands[hi];
      out << (hi ? "," : "") << "\n {\"hand\":" << h.hand << ",\"line\":" << h.line
          << ",\"scores\":[";
      for (size_t i = 0; i < h.scores.size(); ++i) out << (i ? "," : "") << h.scores[i];
      out << "],\"note\":" << Json(h.note) << ",\"findings\":[";
      for (size_t i = 0; i < h.findings.size(); ++i) {
        const Finding& f = h.findings[i];
        out << (i ? "," : "") << "{\"line\":" << f.line << ",\"check\":\"" << GetCheck(f.id).name
            << "\",\"severity\":\"" << SeverityName(SeverityOf(f))
            << "\",\"message\":" << Json(f.message) << "}";
      }
      out << "],\"decisions\":[";
      for (size_t di = 0; di < h.decisions.size(); ++di) {
        const Reviewed& r = h.decisions[di];
        const DecisionValue& v = r.value;
        out << (di ? "," : "") << "\n  {\"line\":" << r.line << ",\"turn\":" << r.turn
            << ",\"seat\":" << r.seat << ",\"player\":" << Json(r.player) << ",\"phase\":\""
            << r.phase << "\",\"played\":" << Json(r.played) << ",\"status\":\""
            << StatusName(v.status) << "\",\"pile\":" << r.pile << ",\"gave_pile\":" << r.gave_pile
            << ",\"went_out\":" << (r.went_out ? "true" : "false") << ",\"rollouts\":" << v.rollouts
            << ",\"alternative_rollouts\":" << AlternativeRollouts(v)
            << ",\"lost\":" << Fixed(v.lost, 1) << ",\"lost_se\":" << Fixed(v.lost_se, 1)
            << ",\"margin_se\":" << Fixed(v.margin_se, 1) << ",\"label\":" << Json(r.label)
            << ",\"key\":" << (r.why_key.empty() ? "false" : "true") << ",\"why_key\":[";
        for (size_t i = 0; i < r.why_key.size(); ++i) out << (i ? "," : "") << Json(r.why_key[i]);
        out << "],\"alternatives\":[";
        int shown = 0;
        for (size_t i = 0; i < v.alternatives.size(); ++i) {
          const AlternativeValue& a = v.alternatives[i];
          if (shown >= kShown && !a.played) continue;
          out << (shown ? "," : "") << "{\"move\":" << Json(a.words) << ",\"members\":" << a.members
              << ",\"played\":" << (a.played ? "true" : "false") << ",\"mean\":" << Fixed(a.mean, 1)
              << ",\"se\":" << Fixed(a.se, 1) << ",\"rollouts\":" << a.rollouts << "}";
          ++shown;
        }
        out << "],\"more\":" << int(v.alternatives.size()) - shown << "}";
      }
      out << "]}";
    }
    out << "],\"accuracy\":[";
    std::vector<Accuracy> acc = GameAccuracy(g);
    for (size_t i = 0; i < acc.size(); ++i) {
      const Accuracy& a = acc[i];
      out << (i ? "," : "") << "{\"seat\":" << i << ",\"player\":" << Json(g.players[i])
          << ",\"decisions\":" << a.decisions
          << ",\"accuracy\":" << (a.decisions ? Fixed(a.sum / a.decisions, 1) : std::string("null"))
          << ",\"lost\":" << Fixed(a.lost, 1) << ",\"inaccuracies\":" << a.inaccuracies
          << ",\"mistakes\":" << a.mistakes << ",\"blunders\":" << a.blunders << "}";
    }
    out << "]}";
  }
  out << "]}\n";
}

// --- HTML: one self-contained page (no script, no external resource).
// Text from the log is shown as findings show it (Printable), then escaped.
std::string Esc(const std::string& raw) {
  const std::string t = Printable(raw);
  std::string o;
  for (char c : t) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

// The hand's tree for its page: the turns holding a key decision of the
// review (its reasons in red), with the review's values and the best
// alternative in green. Empty when no turn holds one.
std::string HandTreeSvg(const ReviewedHand& h, HandDecisions tree, const ReviewSettings& s,
                        std::string* error) {
  bool any = false;
  for (Decision& d : tree.decisions) {
    d.key = false;
    d.why_key.clear();
    for (const Reviewed& r : h.decisions) {
      if (r.why_key.empty() || r.seat != d.seat || r.line < d.first_line || r.line > d.line)
        continue;
      for (const std::string& w : r.why_key) d.why_key += (d.why_key.empty() ? "" : "; ") + w;
      d.key = any = true;
    }
  }
  if (!any) return "";
  TreeOptions options;
  options.subtitle = ": the review's key decisions";
  options.values = RolloutWords(s) + ", seed " + std::to_string(s.seed);
  options.mark_best = true;
  std::string svg;
  if (!RenderTree(tree, h.tree.points(), options, "svg", &svg, error)) return "";
  return InlineSvg(svg, "g" + std::to_string(tree.game) + "h" + std::to_string(tree.hand) + "-");
}

void WriteHtml(const std::vector<ReviewedGame>& games, const std::vector<HandDecisions>& trees,
               const std::string& file, const ReviewSettings& s, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<title>Review of "
      << Esc(file)
      << "</title><style>"
         "body{font-family:Helvetica,Arial,sans-serif;margin:2em;color:#222}"
         "table{border-collapse:collapse;margin:0.5em 0 1.5em}"
         "td,th{border:1px solid #bbb;padding:0.25em 0.6em;text-align:left;vertical-align:top}"
         "th{background:#eee}.blunder{color:#b00;font-weight:bold}.mistake{color:#c60}"
         ".inaccuracy{color:#880}.played{font-weight:bold}.finding{color:#b00}"
         "figure.tree{margin:0 0 2em;overflow-x:auto}"
         "figcaption{color:#555;font-size:0.9em}"
         "</style></head><body>\n";
  out << "<h1>Review of " << Esc(file) << "</h1>\n<p>" << RolloutWords(s) << " per decision, seed "
      << s.seed << ". Values are hand points, the acting side minus the other.</p>\n";
  for (const ReviewedGame& g : games) {
    out << "<h2>Game " << g.game << (g.ruleset.empty() ? "" : " (" + Esc(g.ruleset) + ")")
        << "</h2>\n";
    if (!g.note.empty()) out << "<p>Not reviewed: " << Esc(g.note) << "</p>\n";
    // The score table, hand by hand, with running totals.
    out << "<table class=\"scores\"><tr><th>hand</th>";
    for (int side = 0; side < g.sides; ++side) out << "<th>side " << side + 1 << "</th>";
    out << "<th>totals</th></tr>\n";
    std::vector<long> totals(size_t(g.sides), 0);
    for (const ReviewedHand& h : g.hands) {
      out << "<tr><td><a href=\"#g" << g.game << "h" << h.hand << "\">" << h.hand << "</a></td>";
      for (int side = 0; side < g.sides; ++side) {
        const bool has = size_t(side) < h.scores.size();
        if (has) totals[size_t(side)] += h.scores[size_t(side)];
        out << "<td>" << (has ? std::to_string(h.scores[size_t(side)]) : "") << "</td>";
      }
      out << "<td>";
      for (int side = 0; side < g.sides; ++side) out << (side ? " / " : "") << totals[size_t(side)];
      out << "</td></tr>\n";
    }
    out << "</table>\n<table class=\"accuracy\"><tr><th>player</th><th>accuracy</th>"
           "<th>decisions</th><th>points lost</th><th>inaccuracies</th><th>mistakes</th>"
           "<th>blunders</th></tr>\n";
    std::vector<Accuracy> acc = GameAccuracy(g);
    for (size_t i = 0; i < acc.size(); ++i) {
      const Accuracy& a = acc[i];
      out << "<tr><td>" << Esc(g.players[i]) << "</td><td>"
          << (a.decisions ? Fixed(a.sum / a.decisions, 1) + "%" : std::string("-")) << "</td><td>"
          << a.decisions << "</td><td>" << Fixed(a.lost) << "</td><td>" << a.inaccuracies
          << "</td><td>" << a.mistakes << "</td><td>" << a.blunders << "</td></tr>\n";
    }
    out << "</table>\n";
    for (const ReviewedHand& h : g.hands) {
      out << "<h3 id=\"g" << g.game << "h" << h.hand << "\">Hand " << h.hand << " (line " << h.line
          << ")</h3>\n";
      if (!h.note.empty()) out << "<p>" << Esc(h.note) << "</p>\n";
      if (!h.findings.empty()) {
        out << "<ul class=\"findings\">\n";
        for (const Finding& f : h.findings)
          out << "<li class=\"finding\">line " << f.line << ": " << Esc(f.message) << "</li>\n";
        out << "</ul>\n";
      }
      out << "<table class=\"decisions\"><tr><th>turn</th><th>player</th><th>line</th>"
             "<th>played</th><th>why key</th><th>verdict</th><th>best</th><th>values</th></tr>\n";
      for (const Reviewed& r : h.decisions) {
        if (r.why_key.empty()) continue;
        const DecisionValue& v = r.value;
        std::string why;
        for (const std::string& w : r.why_key) why += (why.empty() ? "" : "; ") + w;
        out << "<tr class=\"decision\"><td>" << r.turn << "</td><td>" << Esc(r.player)
            << "</td><td>" << r.line << "</td><td>" << Esc(r.played)
            << (r.gave_pile ? Esc(", which gave " + r.gave_to + " a " +
                                  std::to_string(r.gave_pile) + "-card pile")
                            : std::string())
            << "</td><td>" << Esc(why);
        // The audit's findings at this decision's event.
        for (const Finding& f : h.findings)
          if (f.line == r.line) out << "<div class=\"finding\">" << Esc(f.message) << "</div>";
        out << "</td>";
        if (v.status != DecisionStatus::kEvaluated) {
          out << "<td>" << StatusName(v.status) << "</td><td></td><td></td></tr>\n";
          continue;
        }
        out << "<td class=\"" << (r.label.empty() ? "ok" : r.label) << "\">"
            << (v.played == 0 ? std::string("best")
                              : (r.label.empty() ? std::string("") : r.label + ": ") + Fixed(v.lost) +
                                    " &plusmn; " + Fixed(v.lost_se) + " lost")
            << "</td><td>" << Esc(v.alternatives[0].words) << "</td><td><ol>";
        int shown = 0;
        for (const AlternativeValue& a : v.alternatives) {
          if (shown >= kShown && !a.played) continue;
          ++shown;
          out << "<li" << (a.played ? " class=\"played\"" : "") << ">" << Esc(a.words)
              << (a.played ? " (played)" : "") << " " << Signed(a.mean) << " &plusmn; "
              << Fixed(a.se) << "</li>";
        }
        if (int(v.alternatives.size()) > shown)
          out << "<li>+" << v.alternatives.size() - size_t(shown) << " more</li>";
        out << "</ol></td></tr>\n";
      }
      out << "</table>\n";
      const auto tree = std::find_if(trees.begin(), trees.end(), [&](const HandDecisions& t) {
        return t.game == g.game && t.hand == h.hand;
      });
      if (tree == trees.end()) continue;
      std::string error;
      const std::string svg = HandTreeSvg(h, *tree, s, &error);
      if (!error.empty()) {
        out << "<p>The tree could not be drawn: " << Esc(error) << "</p>\n";
      } else if (!svg.empty()) {
        out << "<figure class=\"tree\">" << svg << "<figcaption>Hand " << h.hand
            << ": the turns holding a key decision, the played line in blue, the other legal "
               "moves dashed with their value against the move played, the best in "
               "green.</figcaption></figure>\n";
      }
    }
  }
  out << "</body></html>\n";
}

}  // namespace

int ReviewCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string rules, output, format = "text", checks;
  int game = 0, hand = 0, rollouts = ReviewSettings().rollouts, jobs = 1, most = -1, screen = -1;
  double target_se = ReviewSettings().target_se;
  uint64_t seed = 1;
  opts.add_options()("help,h", "this help")("hand", po::value(&hand),
                                            "only this hand (1-based; default: every hand)")(
      "game", po::value(&game), "only this game of the file (1-based; default: every game)")(
      "rollouts", po::value(&rollouts)->default_value(rollouts),
      "determinizations per decision at first, 1 to 100000 (more: smaller errors, slower)")(
      "screen-rollouts", po::value(&screen),
      "more rollouts, in batches, while the points lost are uncertain, up to this many for "
      "every decision, 0 to 400000 (default: 4 x --rollouts)")(
      "max-rollouts", po::value(&most),
      "and up to this many for a key decision, 0 to 400000 (default: 32 x --rollouts)")(
      "target-se", po::value(&target_se)->default_value(target_se),
      "the standard error of the points lost that stops adding rollouts")(
      "seed", po::value(&seed)->default_value(1), "random seed: the same seed, the same review")(
      "jobs,j", po::value(&jobs)->default_value(1),
      "threads over rollouts, 1 to 256 (the results do not depend on it)")(
      "rules,r", po::value(&rules), "ruleset: overrides the log's")(
      "format,f", po::value(&format)->default_value("text"),
      "text, json or html (default: html for an -o FILE.html, else text)")(
      "output,o", po::value(&output), "write here (default: stdout)")(
      "checks", po::value(&checks),
      "the audit's findings shown: switch checks off or change their severity, as "
      "`canasta audit --checks` (-name, severity:name, globs with *)");
  std::vector<std::string> paths;
  po::variables_map vm;
  if (!ParseOptions(args, opts, "review", kReviewUsage, &paths, &vm)) return kExitTrouble;
  if (vm.count("help")) {
    std::cout << kReviewUsage << "\n" << opts;
    return kExitOk;
  }
  if (paths.size() != 1) {
    std::cerr << "canasta review: error: give one log\n";
    return kExitTrouble;
  }
  if (vm["format"].defaulted() && output.size() > 5 && output.substr(output.size() - 5) == ".html")
    format = "html";  // by the output's extension
  if (format != "text" && format != "json" && format != "html") {
    std::cerr << "canasta review: error: unknown format '" << format << "' (text, json or html)\n";
    return kExitTrouble;
  }
  bool in_range = CheckRanges("review", vm,
                              {{"rollouts", rollouts, 1, kMaxRollouts},
                               {"screen-rollouts", screen, 0, 4 * kMaxRollouts},
                               {"max-rollouts", most, 0, 4 * kMaxRollouts},
                               {"jobs", jobs, 1, kMaxThreads},
                               {"hand", hand, 1},
                               {"game", game, 1}});
  if (!(target_se >= 0)) {
    std::cerr << "canasta review: error: --target-se is " << target_se
              << "; it must be 0 or more\n";
    in_range = false;
  }
  if (!in_range) return kExitTrouble;
  CheckLevels levels;
  if (std::string error = levels.ParseOption(checks); !error.empty()) {
    std::cerr << "canasta review: error: " << error << "\n";
    return kExitTrouble;
  }
  if (hand && !game) game = 1;
  std::ifstream in;
  if (std::string reason; !OpenInput(paths[0], &in, &reason)) {
    std::cerr << "canasta review: error: cannot read '" << paths[0] << "': " << reason << "\n";
    return kExitTrouble;
  }
  ReviewSettings settings;
  settings.rollouts = rollouts;
  // Every decision is screened with up to `screen` rollouts, a key one
  // refined up to `most`: a cap given alone bounds the other.
  settings.screen_rollouts = screen < 0 ? 4 * rollouts : std::max(screen, rollouts);
  settings.max_rollouts = most < 0 ? 32 * rollouts : std::max(most, rollouts);
  if (settings.max_rollouts < settings.screen_rollouts) {
    if (most >= 0 && screen >= 0) {
      std::cerr << "canasta review: error: --max-rollouts (for a key decision) is below "
                   "--screen-rollouts (for every decision)\n";
      return kExitTrouble;
    }
    if (most >= 0)
      settings.screen_rollouts = settings.max_rollouts;
    else
      settings.max_rollouts = settings.screen_rollouts;
  }
  settings.target_se = target_se;
  settings.seed = seed;
  settings.jobs = jobs;
  AuditOptions options;
  options.forced_ruleset = rules;
  options.resolve = CommandLineResolver(rules, {}, paths[0]);
  options.max_findings = 0;
  ReplayDriver driver(options);
  const bool html = format == "html";
  // The page's trees: the decisions of every hand reviewed (replay/decisions.h).
  DecisionCollector collector(nullptr, game, hand);
  // A hand asked for by number: its collector also says why a lost hand is
  // missing.
  if (html || hand) driver.AddObserver(&collector);
  ReviewObserver observer(&driver, paths[0], game, hand, settings, options.resolve, html, levels);
  driver.AddObserver(&observer);
  driver.Run(in, paths[0]);
  collector.Finish();
  std::vector<ReviewedGame>& games = observer.games();
  if (games.empty()) {
    std::cerr << "canasta review: error: " << paths[0] << ": no game "
              << (game ? std::to_string(game) + " " : std::string()) << "in the log\n";
    return kExitTrouble;
  }
  if (hand && games.back().hands.empty()) {
    std::cerr << "canasta review: error: " << paths[0] << ": game " << game << " has no hand "
              << hand
              << (collector.lost_before().empty()
                      ? std::string()
                      : " the replay could follow (" + collector.lost_before() + ")")
              << "\n";
    return kExitTrouble;
  }
  std::ostringstream text;
  if (format == "json")
    WriteJson(games, paths[0], settings, text);
  else if (format == "html")
    WriteHtml(games, collector.hands(), paths[0], settings, text);
  else
    WriteText(games, paths[0], settings, text);
  return WriteOutput("review", output, text.str(), {paths[0]});
}

}  // namespace canasta
