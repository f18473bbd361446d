// `canasta audit`: files and directories, one thread or several, text, JSON
// or SARIF. Reports are written in the order of the inputs as soon as each is
// ready, so memory stays flat however many logs a directory holds.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <boost/program_options.hpp>

#include "cli/commands.h"
#include "cli/options.h"
#include "lint/checks.h"
#include "lint/format.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace canasta {
namespace {

constexpr char kAuditUsage[] =
    "usage: canasta audit [options] PATH...\n"
    "\n"
    "Replays each canasta-log/1 file (or every *.jsonl / *.log file below a\n"
    "directory) through the rules and reports every illegal move and scoring\n"
    "mistake as `file:line: error: message [check-name]`.\n";

// The logs named on the command line and below its directories, one at a
// time: a directory is listed (and sorted) only when the walk reaches it, so
// memory stays flat however large the corpus; the order is stable.
class LogWalker {
 public:
  explicit LogWalker(std::vector<std::string> paths) {
    std::reverse(paths.begin(), paths.end());
    for (std::string& p : paths) stack_.push_back(Level{{std::move(p)}, 0, true});
  }
  // The next file, or false at the end (or on an error, then in error()).
  bool Next(std::string* path) {
    while (!stack_.empty()) {
      Level& top = stack_.back();
      if (top.next >= top.entries.size()) {
        stack_.pop_back();
        continue;
      }
      std::string entry = std::move(top.entries[top.next++]);
      const bool named = top.named;
      std::error_code ec;
      if (fs::is_directory(entry, ec)) {
        Level level{{}, 0, false};
        for (fs::directory_iterator it(entry, ec), end; !ec && it != end; it.increment(ec)) {
          const fs::path& p = it->path();
          std::error_code kind;
          if (it->is_directory(kind) ||
              (it->is_regular_file(kind) && (p.extension() == ".jsonl" || p.extension() == ".log")))
            level.entries.push_back(p.string());
        }
        if (ec) {
          error_ = "cannot read directory '" + entry + "': " + ec.message();
          stack_.clear();
          return false;
        }
        std::sort(level.entries.begin(), level.entries.end());
        stack_.push_back(std::move(level));
        continue;
      }
      (void)named;  // a named file that is missing is reported as unreadable
      *path = std::move(entry);
      return true;
    }
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  struct Level {
    std::vector<std::string> entries;
    size_t next;
    bool named;  // paths from the command line
  };
  std::vector<Level> stack_;
  std::string error_;
};

struct Progress {
  bool enabled = false;
  size_t total = 0;
  void Show(size_t done) const {
    if (!enabled) return;
    const int width = 30;
    const int fill = total ? int(double(done) / double(total) * width) : width;
    std::cerr << "\r[" << std::string(size_t(fill), '#') << std::string(size_t(width - fill), ' ')
              << "] " << done << "/" << total << std::flush;
  }
  void Clear() const {
    if (enabled) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;
  }
};

struct Totals {
  long games = 0, hands = 0, events = 0;
  std::map<std::string, long> by_check;
  std::string slowest;
  double slowest_seconds = -1;
};

void Tally(const FileReport& r, double seconds, Totals* t) {
  auto count = [&](const std::vector<Finding>& fs) {
    for (const Finding& f : fs) ++t->by_check[GetCheck(f.id).name];
  };
  count(r.findings);
  for (const GameReport& g : r.games) {
    ++t->games;
    t->hands += long(g.hands.size());
    t->events += g.events;
    count(g.findings);
  }
  if (seconds > t->slowest_seconds) {
    t->slowest_seconds = seconds;
    t->slowest = r.file;
  }
}

}  // namespace

int AuditCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string rules, format = "text", output;
  int jobs = 0;
  std::vector<std::string> allow_dirs;
  opts.add_options()("help,h", "this help")(
      "rules,r", po::value(&rules),
      "ruleset: a built-in name (`canasta rules list`) or a Lua file; overrides the log's")(
      "allow-ruleset-path", po::value(&allow_dirs)->composing(),
      "DIR: logs may also name .lua rulesets below DIR (repeatable)")(
      "format,f", po::value(&format)->default_value("text"), "text, json or sarif")(
      "output,o", po::value(&output), "write the report to this file instead of stdout")(
      "jobs,j", po::value(&jobs)->default_value(0), "threads (0: all cores)")(
      "scores", "text format: also print every hand's computed scores")(
      "summary", "print the batch summary even for a single file")(
      "no-progress", "never draw the progress bar");
  std::vector<std::string> paths;
  po::variables_map vm;
  if (!ParseOptions(args, opts, "audit", kAuditUsage, &paths, &vm)) return kExitTrouble;
  if (vm.count("help")) {
    std::cout << kAuditUsage << "\n" << opts
              << "\nExit status: 0 no error found, 1 errors found, 2 the tool could not do "
                 "its job.\n";
    return kExitOk;
  }
  if (paths.empty()) {
    std::cerr << "canasta audit: error: no log given\n\n" << kAuditUsage << opts;
    return kExitTrouble;
  }
  std::optional<OutputFormat> fmt = ParseOutputFormat(format);
  if (!fmt) {
    std::cerr << "canasta audit: error: unknown format '" << format
              << "' (text, json or sarif)\n";
    return kExitTrouble;
  }
  if (jobs < 0) {
    std::cerr << "canasta audit: error: --jobs must be 0 or more\n";
    return kExitTrouble;
  }
  if (!rules.empty()) {
    // An unknown ruleset on the command line is the tool's trouble, not a finding.
    RulesetChoice probe;
    std::string error;
    if (!ResolveUserRuleset(rules, &probe, &error)) {
      std::cerr << "canasta audit: error: " << error << "\n";
      return kExitTrouble;
    }
  }
  std::ofstream file_out;
  if (!output.empty()) {
    file_out.open(output, std::ios::binary);
    if (!file_out) {
      std::cerr << "canasta audit: error: cannot write '" << output << "'\n";
      return kExitTrouble;
    }
  }
  std::ostream& out = output.empty() ? std::cout : file_out;
  TextOptions text;
  text.scores = vm.count("scores") > 0;
  text.color = output.empty() && *fmt == OutputFormat::kText && isatty(1);
  std::unique_ptr<ReportWriter> writer = MakeReportWriter(*fmt, out, CANASTA_VERSION, text);

  AuditOptions options;
  options.forced_ruleset = rules;
  RulesetPolicy policy;
  for (const std::string& d : allow_dirs) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) {
      std::cerr << "canasta audit: error: --allow-ruleset-path " << d << ": not a directory\n";
      return kExitTrouble;
    }
    policy.allowed_dirs.push_back(d);
  }
  options.resolve = CommandLineResolver(rules, policy);

  if (jobs == 0) jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  Progress progress;
  progress.enabled = isatty(2) && !vm.count("no-progress");
  if (progress.enabled) {
    // Count first, so the bar knows its end (a walk keeps no list).
    LogWalker counter(paths);
    for (std::string p; counter.Next(&p);) ++progress.total;
    progress.enabled = progress.total > 1;
  }

  // Workers take files from the walk in order and audit them in any order;
  // the writer takes the reports in order, a bounded window ahead.
  LogWalker walker(paths);
  std::mutex mu;
  std::condition_variable ready;
  std::map<size_t, std::pair<FileReport, double>> done;
  size_t taken = 0;      // files handed to workers
  bool exhausted = false;  // the walk is over; `taken` is the number of files
  const size_t window = size_t(jobs) * 4;  // bounds reports waiting for the writer
  size_t written = 0;
  auto work = [&]() {
    while (true) {
      size_t i;
      std::string path;
      {
        std::unique_lock<std::mutex> lock(mu);
        ready.wait(lock, [&] { return taken < written + window || exhausted; });
        if (exhausted || !walker.Next(&path)) {
          exhausted = true;
          ready.notify_all();
          return;
        }
        i = taken++;
      }
      auto start = std::chrono::steady_clock::now();
      FileReport r = AuditFile(path, options);
      double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard<std::mutex> lock(mu);
      done.emplace(i, std::make_pair(std::move(r), secs));
      ready.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < jobs; ++t) threads.emplace_back(work);

  Totals totals;
  bool unreadable = false;
  bool unknown_ruleset = false;  // a game not replayed: the tool could not do its job
  writer->Begin();
  progress.Show(0);
  while (true) {
    std::pair<FileReport, double> item;
    {
      std::unique_lock<std::mutex> lock(mu);
      ready.wait(lock, [&] { return done.count(written) > 0 || (exhausted && written >= taken); });
      if (done.count(written) == 0) break;
      item = std::move(done[written]);
      done.erase(written);
    }
    progress.Clear();
    unreadable |= item.first.unreadable;
    for (const GameReport& g : item.first.games)
      for (const Finding& f : g.findings) unknown_ruleset |= f.id == CheckId::kLogUnknownRuleset;
    Tally(item.first, item.second, &totals);
    writer->AddFile(item.first);
    {
      std::lock_guard<std::mutex> lock(mu);
      ++written;
      ready.notify_all();
    }
    progress.Show(written);
  }
  for (std::thread& t : threads) t.join();
  progress.Clear();
  writer->End();
  out.flush();
  if (!walker.error().empty()) {
    std::cerr << "canasta audit: error: " << walker.error() << "\n";
    return kExitTrouble;
  }

  const size_t n = written;
  if (n > 1 || vm.count("summary")) {
    std::cerr << "audited " << n << " file(s): " << totals.games << " game(s), " << totals.hands
              << " hand(s), " << totals.events << " event(s); " << writer->summary().errors
              << " error(s), " << writer->summary().warnings << " warning(s)\n";
    for (const auto& [name, count] : totals.by_check)
      std::cerr << "  " << count << "  " << name << "\n";
    if (!totals.slowest.empty())
      std::cerr << "slowest: " << totals.slowest << " ("
                << int(totals.slowest_seconds * 1000 + 0.5) << " ms)\n";
  }
  if (unreadable || unknown_ruleset) return kExitTrouble;
  return writer->summary().ExitCode();
}

}  // namespace canasta
