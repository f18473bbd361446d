// `canasta audit`: files and directories, one thread or several, text, JSON
// or SARIF. Reports are written in the order of the inputs as soon as each is
// ready, so memory stays flat however many logs a directory holds.
#include <unistd.h>

#include <algorithm>
#include <atomic>
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

// Logs below a directory, in a stable order.
std::vector<std::string> Expand(const std::vector<std::string>& paths, std::string* error) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
           it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string ext = it->path().extension().string();
        if (ext == ".jsonl" || ext == ".log") found.push_back(it->path().string());
      }
      if (ec) {
        *error = "cannot read directory '" + p + "': " + ec.message();
        return {};
      }
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);  // a missing file is reported as unreadable
    }
  }
  return out;
}

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
  opts.add_options()("help,h", "this help")(
      "rules,r", po::value(&rules),
      "ruleset: a built-in name (`canasta rules list`) or a Lua file; overrides the log's")(
      "format,f", po::value(&format)->default_value("text"), "text, json or sarif")(
      "output,o", po::value(&output), "write the report to this file instead of stdout")(
      "jobs,j", po::value(&jobs)->default_value(0), "threads (0: all cores)")(
      "scores", "text format: also print every hand's computed scores")(
      "summary", "print the batch summary even for a single file")(
      "no-progress", "never draw the progress bar");
  po::options_description hidden;
  std::vector<std::string> paths;
  hidden.add_options()("path", po::value(&paths));
  po::positional_options_description pos;
  pos.add("path", -1);
  po::options_description all;
  all.add(opts).add(hidden);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "canasta audit: error: " << e.what() << "\n\n" << kAuditUsage << opts;
    return kExitTrouble;
  }
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
    if (!ResolveRuleset(rules, "", &probe, &error)) {
      std::cerr << "canasta audit: error: " << error << "\n";
      return kExitTrouble;
    }
  }
  std::string error;
  std::vector<std::string> files = Expand(paths, &error);
  if (!error.empty()) {
    std::cerr << "canasta audit: error: " << error << "\n";
    return kExitTrouble;
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
  options.resolve = ResolveRuleset;

  const size_t n = files.size();
  if (jobs == 0) jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  jobs = int(std::min<size_t>(size_t(jobs), std::max<size_t>(n, 1)));
  Progress progress;
  progress.enabled = isatty(2) && n > 1 && !vm.count("no-progress");
  progress.total = n;

  // Workers audit files in any order; the writer takes them in input order.
  std::mutex mu;
  std::condition_variable ready;
  std::map<size_t, std::pair<FileReport, double>> done;
  std::atomic<size_t> next{0};
  const size_t window = size_t(jobs) * 4;  // bounds reports waiting for the writer
  size_t written = 0;
  auto work = [&]() {
    while (true) {
      size_t i;
      {
        std::unique_lock<std::mutex> lock(mu);
        ready.wait(lock, [&] { return next.load() < written + window || next.load() >= n; });
        i = next++;
      }
      if (i >= n) return;
      auto start = std::chrono::steady_clock::now();
      FileReport r = AuditFile(files[i], options);
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
  writer->Begin();
  progress.Show(0);
  while (written < n) {
    std::pair<FileReport, double> item;
    {
      std::unique_lock<std::mutex> lock(mu);
      ready.wait(lock, [&] { return done.count(written) > 0; });
      item = std::move(done[written]);
      done.erase(written);
    }
    progress.Clear();
    unreadable |= item.first.unreadable;
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
  if (unreadable) return kExitTrouble;
  return writer->summary().ExitCode();
}

}  // namespace canasta
