// canasta_bench: the figures of docs/performance.md, measured in one run and
// reported as ratios against baselines measured in the same run.
//
//   build/canasta_bench [--games N] [--work DIR] [--canasta PATH] [--audit-only]
//                       [--selfplay-only] [--engine-only]
//
// Every figure with a target is printed with it and PASS or FAIL, and a last
// line counts them; the exit status is 1 when a target is missed.
//
// 1. floor      RapidJSON's SAX parser reading every line of the corpus, as the
//               reader reads it (LogReader::NextParsedOnly), no events
// 2. audit      the full audit of the same files, one thread (target <= 1.5x floor)
// 3. jobs       `canasta audit --jobs 2` against `--jobs 1`, for text, json and
//               sarif output (target >= 1.8x each)
// 4. memory     peak RSS auditing 10x the corpus against the corpus (target < 1.2x)
// 5. lua        the corpus under a Lua ruleset restating classic with hooks,
//               against classic native (target <= 1.25x)
// 6. self-play  hands per second with random bots in the engine alone: deals
//               played out by the rollouts' loop (PlayOut), no log written
//               (target >= 10,000 hands/s on one core); the same through
//               SimulateGame, which writes each game's log (a plain figure);
//               games per second per ruleset with sensible bots (plain figures)
//
// --selfplay-only runs figure 6 alone (no corpus is written); --engine-only
// its first figure alone (for callgrind: --toggle-collect='canasta::PlayOut*').
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/game.h"
#include "replay/auditor.h"
#include "replay/log_reader.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"

namespace fs = std::filesystem;
using namespace canasta;

namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Best of `reps` runs of `f`, in seconds: the least disturbed measurement.
template <class F>
double Best(int reps, F&& f) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    double t0 = Now();
    f();
    best = std::min(best, Now() - t0);
  }
  return best;
}

bool ChoiceFor(const std::string& name, RulesetChoice* out) {
  std::variant<Ruleset, LuaError> r = LoadRuleset(name);
  if (auto* e = std::get_if<LuaError>(&r)) {
    std::cerr << "cannot load " << name << ": " << e->ToString() << "\n";
    return false;
  }
  *out = std::get<Ruleset>(r).Choose();
  return true;
}

// Runs a command, returns its wall time and peak RSS (KiB) of the child.
bool RunChild(const std::vector<std::string>& argv, double* seconds, long* max_rss_kib) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  double t0 = Now();
  pid_t pid = fork();
  if (pid == 0) {
    FILE* devnull = std::fopen("/dev/null", "w");
    if (devnull) dup2(fileno(devnull), 2);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(pid, &status, 0, &usage) < 0) return false;
  *seconds = Now() - t0;
  *max_rss_kib = usage.ru_maxrss;
  return WIFEXITED(status) && WEXITSTATUS(status) <= 1;
}


// One line per figure with a target; counted for the summary.
struct Verdicts {
  int met = 0;
  int missed = 0;
  std::vector<std::string> failed;
  const char* Check(bool ok, const std::string& what) {
    if (ok) {
      ++met;
      return "PASS";
    }
    ++missed;
    failed.push_back(what);
    return "FAIL";
  }
};

// The last line: how many targets were met; the exit status.
int Summary(const Verdicts& verdicts) {
  std::printf("targets: %d met, %d missed", verdicts.met, verdicts.missed);
  for (size_t i = 0; i < verdicts.failed.size(); ++i) {
    std::printf("%s%s", i == 0 ? " (" : ", ", verdicts.failed[i].c_str());
  }
  std::printf("%s\n", verdicts.failed.empty() ? "" : ")");
  return verdicts.missed == 0 ? 0 : 1;
}

// 6. Self-play.
void SelfPlayFigures(const RulesetChoice& classic, int games, bool engine_only,
                     Verdicts* verdicts) {
  // The engine alone: random bots play games of at most 20 deals (as below)
  // with the rollouts' loop, nothing written. Best of 3.
  {
    const Rules& r = classic.rules;
    std::unique_ptr<Bot> bot = MakeRandomBot();
    const int engine_games = std::max(10, games / 100);
    long hands = 0, moves = 0;
    const double t = Best(3, [&] {
      hands = moves = 0;
      for (int i = 0; i < engine_games; ++i) {
        Rng rng(GameSeed(11, i));
        Game game(r, *classic.hooks);
        int dealer = 0;
        for (int deal = 1; deal <= 20 && !game.over(); ++deal) {
          game.StartDeal(deal, ShuffledDeal(r, dealer, rng));
          moves += PlayOut(game.position(), *bot, rng, 5000);
          game.position()->End(0);
          game.FinishDeal();
          ++hands;
          dealer = r.DealerAfter(dealer);
        }
      }
    });
    std::printf("self-play, random bots, classic, engine     %8.0f hands/s  (%ld hands, %ld moves, "
                "%.0f moves/s)\n",
                double(hands) / t, hands, moves, double(moves) / t);
    std::printf("%-44s %6.0f   target >= 10000  %s\n", "engine self-play, random bots, hands/s",
                double(hands) / t, verdicts->Check(double(hands) / t >= 10000, "engine self-play"));
  }
  if (engine_only) return;
  // Through SimulateGame, which also writes each game's log (a plain figure).
  {
    SimulateOptions random_bots;
    random_bots.bots = {"random"};
    random_bots.max_deals = 20;
    std::ostringstream sink;
    long hands = 0;
    const int random_games = std::max(10, games / 100);
    const double t = Best(1, [&] {
      for (int i = 0; i < random_games; ++i) {
        sink.str("");
        hands += SimulateGame(classic, GameSeed(11, i), random_bots, sink).deals;
      }
    });
    std::printf("self-play, random bots, classic, with log   %8.0f hands/s  (%ld hands)\n",
                double(hands) / t, hands);
  }

  // Sensible bots, per ruleset (plain figures).
  const int sim_games = std::max(20, games / 20);
  for (const std::string& name : BuiltinRulesetNames()) {
    RulesetChoice choice;
    std::variant<Ruleset, LuaError> r = LoadRuleset(name);
    if (std::holds_alternative<LuaError>(r)) continue;  // incomplete rulesets refuse to run
    if (!ChoiceFor(name, &choice)) continue;
    std::ostringstream sink;
    int deals = 0;
    const double t = Best(1, [&] {
      for (int i = 0; i < sim_games; ++i) deals += SimulateGame(choice, GameSeed(7, i), SimulateOptions(), sink).deals;
    });
    std::printf("self-play, sensible bots, %-18s %8.1f games/s  (%d games, %d deals)\n", name.c_str(),
                sim_games / t, sim_games, deals);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  int games = 2000;
  bool audit_only = false;     // figures 1-2 only
  bool selfplay_only = false;  // figure 6 only
  bool engine_only = false;    // its engine figure only
  std::string work = "/tmp/canasta-bench";
  std::string canasta = CANASTA_BINARY;
  std::string lua_ruleset = std::string(CANASTA_SOURCE_DIR) + "/bench/classic_in_lua.lua";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--games" && i + 1 < argc) games = std::atoi(argv[++i]);
    else if (a == "--work" && i + 1 < argc) work = argv[++i];
    else if (a == "--canasta" && i + 1 < argc) canasta = argv[++i];
    else if (a == "--audit-only") audit_only = true;
    else if (a == "--selfplay-only") selfplay_only = true;
    else if (a == "--engine-only") selfplay_only = engine_only = true;
    else {
      std::cerr << "usage: canasta_bench [--games N] [--work DIR] [--canasta PATH] [--audit-only]"
                   " [--selfplay-only] [--engine-only]\n";
      return 2;
    }
  }
  const unsigned cores = std::thread::hardware_concurrency();
  std::cout << "canasta benchmark: " << games << " games, " << cores << " core(s)\n\n";

  RulesetChoice classic;
  std::string error;
  ResolveClassicOnly("classic", "", &classic, &error);
  Verdicts verdicts;
  if (selfplay_only) {
    SelfPlayFigures(classic, games, engine_only, &verdicts);
    return Summary(verdicts);
  }

  // The corpus: self-play games under classic, one file each.
  const fs::path corpus = fs::path(work) / "corpus";
  const fs::path corpus10 = fs::path(work) / "corpus10";
  fs::remove_all(work);
  fs::create_directories(corpus);
  std::vector<std::string> files;
  uint64_t bytes = 0;
  for (int i = 0; i < games; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "game-%05d.jsonl", i + 1);
    std::ofstream f(corpus / name, std::ios::binary);
    SimulateGame(classic, GameSeed(42, i), SimulateOptions(), f);
    files.push_back((corpus / name).string());
  }
  for (const std::string& f : files) bytes += fs::file_size(f);
  for (int k = 0; k < 10; ++k) {  // 10x the corpus, as hard links
    fs::path d = corpus10 / ("copy" + std::to_string(k));
    fs::create_directories(d);
    for (const std::string& f : files) fs::create_hard_link(f, d / fs::path(f).filename());
  }
  std::cout << "corpus: " << files.size() << " files, " << bytes / 1024 << " KiB\n\n";

  // 1-2. Floor against audit, one thread, in this process. The floor reads
  // and parses each file exactly as the audit's reader does, with the same
  // SAX parser and flags, and builds nothing.
  // Measured in turns (floor, reader, audit, floor, ...) so that a busy
  // machine slows all three alike; the best of each is kept.
  long lines = 0, events = 0, findings = 0;
  auto floor_pass = [&] {
    lines = 0;
    for (const std::string& f : files) {
      std::ifstream in(f, std::ios::binary);
      LogReader reader(in);
      bool valid = false;
      while (reader.NextParsedOnly(&valid)) {
        if (!valid) std::abort();
        ++lines;
      }
    }
  };
  auto reader_pass = [&] {
    events = 0;
    std::vector<InputProblem> problems;
    Event e;
    for (const std::string& f : files) {
      std::ifstream in(f, std::ios::binary);
      LogReader reader(in);
      while (reader.Next(&e, &problems)) ++events;
    }
    if (!problems.empty()) std::abort();
  };
  auto audit_pass = [&] {
    findings = 0;
    for (const std::string& f : files) {
      FileReport r = AuditFile(f, AuditOptions{});
      for (const GameReport& g : r.games) findings += long(g.findings.size());
    }
  };
  double floor = 1e30, read = 1e30, audit = 1e30;
  for (int i = 0; i < 7; ++i) {
    floor = std::min(floor, Best(1, floor_pass));
    read = std::min(read, Best(1, reader_pass));
    audit = std::min(audit, Best(1, audit_pass));
  }
  std::printf("floor (SAX parse only, 1 thread) %8.3f s  %6.1f MB/s\n", floor,
              double(bytes) / floor / 1e6);
  std::printf("reader (events, no replay)       %8.3f s  %6.1f MB/s  %.2f x the floor\n", read,
              double(bytes) / read / 1e6, read / floor);
  std::printf("audit (1 thread)                 %8.3f s  %6.1f MB/s\n", audit,
              double(bytes) / audit / 1e6);
  std::printf("  %ld lines, %ld events, %ld findings (a clean corpus has none)\n", lines, events,
              findings);
  std::printf("%-44s %6.2f   target <= 1.50   %s\n", "audit / floor, 1 thread", audit / floor,
              verdicts.Check(audit / floor <= 1.5, "audit / floor"));
  std::printf("\n");
  if (audit_only) {
    fs::remove_all(work);
    return audit / floor <= 1.5 ? 0 : 1;
  }

  // 3-4. The program itself: threads and memory. Text output is what a
  // reader of findings gets (nothing for a clean corpus); JSON and SARIF add
  // the formatting of every hand's scores or of the run's description.
  auto run_once = [&](const std::string& jobs, const std::string& format, const fs::path& dir,
                      long* rss) {
    double s = 0;
    if (!RunChild({canasta, "audit", "--jobs", jobs, "--format", format, "-o", "/dev/null",
                   "--no-progress", dir.string()},
                  &s, rss)) {
      std::cerr << "canasta audit failed\n";
      std::exit(2);
    }
    return s;
  };
  auto run = [&](const std::string& jobs, const std::string& format, const fs::path& dir,
                 double* t, long* rss) {
    double best = 1e30;
    for (int i = 0; i < 3; ++i) best = std::min(best, run_once(jobs, format, dir, rss));
    *t = best;
  };
  for (const char* format : {"text", "json", "sarif"}) {
    // In turns, as above: --jobs 1, --jobs 2, --jobs 1, ...
    double t1 = 1e30, t2 = 1e30;
    long rss = 0;
    for (int i = 0; i < 5; ++i) {
      t1 = std::min(t1, run_once("1", format, corpus, &rss));
      t2 = std::min(t2, run_once("2", format, corpus, &rss));
    }
    std::printf("canasta audit --format %-5s: --jobs 1 %.3f s, --jobs 2 %.3f s (%u cores)\n",
                format, t1, t2, cores);
    const std::string what = std::string("--jobs 2 speed-up, ") + format;
    std::printf("%-44s %6.2f   target >= 1.80   %s\n", what.c_str(), t1 / t2,
                verdicts.Check(t1 / t2 >= 1.8, what));
  }
  double t1 = 0, t10 = 0;
  long rss1 = 0, rss10 = 0;
  run("1", "json", corpus, &t1, &rss1);
  run("1", "json", corpus10, &t10, &rss10);
  std::printf("peak memory: corpus %ld KiB, 10x corpus %ld KiB\n", rss1, rss10);
  std::printf("%-44s %6.2f   target <  1.20   %s\n\n", "peak memory, 10x corpus / corpus",
              double(rss10) / double(rss1),
              verdicts.Check(double(rss10) / double(rss1) < 1.2, "peak memory 10x / 1x"));

  // 5. Lua against native, in this process, same files.
  RulesetChoice lua;
  if (ChoiceFor(lua_ruleset, &lua)) {
    auto options_for = [&](const RulesetChoice& c) {
      AuditOptions o;
      o.forced_ruleset = "x";
      o.resolve = [&c](const std::string&, const std::string&, RulesetChoice* out, std::string*) {
        *out = c;
        return true;
      };
      return o;
    };
    const AuditOptions native_options = options_for(classic);
    const AuditOptions lua_options = options_for(lua);
    auto audit_with = [&](const AuditOptions& o, long* n) {
      *n = 0;
      return Best(1, [&] {
        for (const std::string& f : files) {
          FileReport r = AuditFile(f, o);
          for (const GameReport& g : r.games) *n += long(g.findings.size());
        }
      });
    };
    std::pair<double, long> native{1e30, 0}, scripted{1e30, 0};
    for (int i = 0; i < 5; ++i) {  // in turns
      native.first = std::min(native.first, audit_with(native_options, &native.second));
      scripted.first = std::min(scripted.first, audit_with(lua_options, &scripted.second));
    }
    std::printf("audit, classic native %.3f s (%ld findings), restated in Lua %.3f s (%ld findings)\n",
                native.first, native.second, scripted.first, scripted.second);
    const double ratio = scripted.first / native.first;
    std::printf("%-44s %6.2f   target <= 1.25   %s\n\n", "Lua classic-with-hooks / native",
                ratio, verdicts.Check(ratio <= 1.25, "Lua / native"));
  } else {
    std::printf("%-44s %6s   target <= 1.25   %s\n\n", "Lua classic-with-hooks / native", "-",
                verdicts.Check(false, "Lua / native (ruleset did not load)"));
  }

  SelfPlayFigures(classic, games, false, &verdicts);
  fs::remove_all(work);
  return Summary(verdicts);
}
