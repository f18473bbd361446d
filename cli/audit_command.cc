// `canasta audit`: files and directories, one thread or several, text, JSON,
// JSON Lines or SARIF. Each worker audits and formats its file; the reports
// are written in the order of the inputs as soon as each is ready, so memory
// stays flat however many logs a directory holds. `--shard K/N` keeps the
// K-th of N parts of the inputs, so that N processes split a corpus without
// talking to each other (docs/scale.md).
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/ordered_pool.h"
#include "cli/output.h"
#include "lint/check_levels.h"
#include "lint/checks.h"
#include "lint/format.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace canasta {
namespace {

constexpr char kAuditUsage[] =
    "usage: canasta audit [options] PATH...\n"
    "\n"
    "Replays each canasta-log/1 file (a file named here whatever its name, every\n"
    "*.jsonl file below a directory, or standard input for -) through the rules and\n"
    "reports every illegal move and scoring mistake as\n"
    "`file:line: error: message [check-name]`.\n";

// A part of the inputs: the files whose relative path hashes to `index`
// (0-based) modulo `count`. One part of one is everything.
struct Shard {
  uint64_t index = 0;
  uint64_t count = 1;
};

// FNV-1a, 64 bits: fixed by its definition, the same on every machine and
// in every build (std::hash is neither).
uint64_t Fnv1a64(std::string_view text) {
  uint64_t h = 14695981039346656037ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// "K/N" with 1 <= K <= N: digits only.
std::optional<Shard> ParseShard(const std::string& text) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  auto number = [](std::string_view digits, uint64_t* value) {
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *value);
    return ec == std::errc() && end == digits.data() + digits.size();
  };
  uint64_t k = 0, n = 0;
  const std::string_view t(text);
  if (!number(t.substr(0, slash), &k) || !number(t.substr(slash + 1), &n)) return std::nullopt;
  if (n < 1 || k < 1 || k > n) return std::nullopt;
  return Shard{k - 1, n};
}

// The logs named on the command line and below its directories, one at a
// time: a directory is listed (and sorted) only when the walk reaches it, so
// memory stays flat however large the corpus; the order is stable. Links to
// directories found in a walk are not followed (a link to "." would make the
// walk endless); each is reported. A named directory with no log in it, or
// one that cannot be listed, is a problem kept for the end.
//
// With a shard, only the files of that part are given. A file's part comes
// from its path relative to the argument it was found under, with '/'
// between the names (`2026/club/game-0001.jsonl` below `/mnt/corpus`), and
// for a file named as an argument from its file name, so that machines that
// mount the corpus at different places split it alike. Files of other parts
// still count as found, so no directory looks empty to a shard.
class LogWalker {
 public:
  LogWalker(std::vector<std::string> paths, std::vector<std::string> globs, Shard shard = {})
      : globs_(std::move(globs)), shard_(shard) {
    std::reverse(paths.begin(), paths.end());
    for (std::string& p : paths)
      stack_.push_back(Level{{Entry{std::move(p), Kind::kUnknown}}, 0, "", ""});
  }
  // The next file, or false at the end.
  bool Next(std::string* path) {
    while (!stack_.empty()) {
      Level& top = stack_.back();
      if (top.next >= top.entries.size()) {
        if (!top.root.empty() && found_below_.back() == 0)
          problems_.push_back("no canasta-log/1 files under " + top.root + " (looked for " +
                              Patterns() + "; --glob PATTERN for other names)");
        if (!top.root.empty()) {
          const size_t n = found_below_.back();
          found_below_.pop_back();
          if (!found_below_.empty()) found_below_.back() += n;
        }
        stack_.pop_back();
        continue;
      }
      const Kind kind = top.entries[top.next].kind;
      std::string entry = std::move(top.entries[top.next++].path);
      const bool named = stack_.size() == 1 && top.root.empty();
      const std::string base = fs::path(entry).filename().string();
      std::string relative = named || top.prefix.empty() ? base : top.prefix + "/" + base;
      std::error_code ec;
      // The listing said what a found entry is; a named one is looked at.
      if (entry != "-" && kind != Kind::kFile &&
          (kind == Kind::kDirectory || fs::is_directory(entry, ec))) {
        if (!named && fs::is_symlink(entry, ec)) {
          skipped_.push_back(entry);
          continue;
        }
        Level level{{}, 0, named ? entry : std::string(), named ? std::string() : relative};
        for (fs::directory_iterator it(entry, ec), end; !ec && it != end; it.increment(ec)) {
          const fs::path& p = it->path();
          const std::string name = p.filename().string();
          std::error_code unknown;
          if (it->is_directory(unknown)) {
            level.entries.push_back(Entry{p.string(), Kind::kDirectory});
          } else if (it->is_regular_file(unknown) && Matches(name)) {
            level.entries.push_back(Entry{p.string(), Kind::kFile});
          }
        }
        if (ec) {
          problems_.push_back("cannot read directory '" + entry + "': " + ec.message());
          continue;
        }
        std::sort(level.entries.begin(), level.entries.end(),
                  [](const Entry& a, const Entry& b) { return a.path < b.path; });
        if (named) found_below_.push_back(0);
        stack_.push_back(std::move(level));
        continue;
      }
      if (!found_below_.empty()) ++found_below_.back();
      if (Fnv1a64(relative) % shard_.count != shard_.index) continue;
      *path = std::move(entry);
      return true;
    }
    return false;
  }
  // Problems that make the audit incomplete (exit 2).
  const std::vector<std::string>& problems() const { return problems_; }
  // Directory links found in the walk and not followed.
  const std::vector<std::string>& skipped() const { return skipped_; }

 private:
  // What the directory listing said an entry is (it follows links, as the
  // walk does); a name from the command line is not known until looked at.
  enum class Kind : uint8_t { kUnknown, kFile, kDirectory };
  struct Entry {
    std::string path;
    Kind kind;
  };
  struct Level {
    std::vector<Entry> entries;
    size_t next;
    std::string root;    // a directory named on the command line
    std::string prefix;  // this directory's path below it ("" for the named one)
  };
  bool Matches(const std::string& name) const {
    for (const std::string& g : globs_) {
      // Hidden files only for a pattern that asks for them (as a shell does).
      if (name[0] == '.' && g[0] != '.') continue;
      if (fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
    }
    return false;
  }
  std::string Patterns() const {
    std::string out;
    for (const std::string& g : globs_) out += (out.empty() ? "" : ", ") + g;
    return out;
  }
  std::vector<std::string> globs_;
  Shard shard_;
  std::vector<Level> stack_;
  std::vector<size_t> found_below_;  // files found below each named directory open
  std::vector<std::string> problems_, skipped_;
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

// The batch summary, and the slowest file (timed here: not in any report).
struct Totals {
  BatchSummary batch;
  std::string slowest;
  double slowest_seconds = -1;

  void Add(const Totals& o) {
    batch.Add(o.batch);
    if (o.slowest_seconds > slowest_seconds) {
      slowest_seconds = o.slowest_seconds;
      slowest = o.slowest;
    }
  }
};

Totals TallyOf(const FileReport& r, double seconds) {
  Totals t;
  t.batch.Add(r);
  t.slowest_seconds = seconds;
  t.slowest = r.file;
  return t;
}

// One file audited and formatted by a worker.
struct Audited {
  FormattedFile formatted;
  Totals totals;
  bool unknown_ruleset = false;  // a game not replayed for want of its ruleset
};

// Audits one file (or standard input for "-"): an unreadable file says why,
// an empty one is a finding, not a clean log.
FileReport AuditOne(const std::string& path, const AuditOptions& options,
                    const CheckLevels& levels) {
  FileReport r;
  if (path == "-") {
    r = AuditStream(std::cin, kStdinName, options);
  } else {
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      r.file = path;
      r.unreadable = true;
      r.reason = std::strerror(errno != 0 ? errno : EISDIR);
      return r;
    }
    r = AuditStream(in, path, options);
    // A directory opens, and reads as nothing: only then is it looked at.
    std::error_code ec;
    if (r.games.empty() && r.findings.empty() && fs::is_directory(path, ec)) {
      r = FileReport();
      r.file = path;
      r.unreadable = true;
      r.reason = std::strerror(EISDIR);
      return r;
    }
  }
  if (r.games.empty() && r.findings.empty()) {
    r.findings.push_back(Finding{0,
                                 CheckId::kLogNotCanastaLog,
                                 "this file is empty: there is no canasta-log/1 game to audit",
                                 {"the first line must be {\"type\":\"game\",\"format\":"
                                  "\"canasta-log/1\",...}"}});
  }
  ApplyCheckLevels(&r, levels);
  return r;
}

// --jobs at most this many per core: more only costs memory and threads.
constexpr int kJobsPerCore = 4;

}  // namespace

int AuditCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string rules, format = "text", output, color = "auto", shard_text, checks;
  int jobs = 0;
  std::vector<std::string> allow_dirs, globs;
  opts.add_options()("help,h", "this help")(
      "rules,r", po::value(&rules),
      "ruleset: a built-in name (`canasta rules list`) or a Lua file; overrides the log's")(
      "allow-ruleset-path", po::value(&allow_dirs)->composing(),
      "DIR: logs may also name .lua rulesets below DIR (repeatable)")(
      "checks", po::value(&checks),
      "LIST: switch checks off or change their severity after the ruleset's `checks`: "
      "-NAME off, SEVERITY:NAME (error, warning, note), NAME back on; NAME may be a glob "
      "(-*,meld-*); e.g. -deal-dealer,warning:three-timing")(
      "glob", po::value(&globs)->composing(),
      "PATTERN: the names of logs in directories (default *.jsonl; repeatable)")(
      "format,f", po::value(&format)->default_value("text"), "text, json, jsonl or sarif")(
      "shard", po::value(&shard_text),
      "K/N: only the K-th of N parts of the files (1 <= K <= N), chosen by a hash of each "
      "path below its argument (docs/scale.md)")(
      "output,o", po::value(&output), "write the report to this file instead of stdout")(
      "jobs,j", po::value(&jobs)->default_value(0), "threads (0: all cores; at most 4 per core)")(
      "color", po::value(&color)->default_value("auto"),
      "text colours: auto (a terminal, unless NO_COLOR is set), always, never")(
      "scores", "text format: also print every hand's computed scores")(
      "summary", "print the batch summary even for a single file")("no-progress",
                                                                   "never draw the progress bar");
  std::vector<std::string> paths;
  po::variables_map vm;
  if (!ParseOptions(args, opts, "audit", kAuditUsage, &paths, &vm)) return kExitTrouble;
  if (vm.count("help")) {
    std::cout << kAuditUsage << "\n"
              << opts
              << "\nExit status: 0 no error found, 1 errors found (after --checks and the "
                 "ruleset's `checks`), 2 the tool could not do its job.\n";
    return kExitOk;
  }
  auto usage_error = [&](const std::string& message) {
    std::cerr << "canasta audit: error: " << message << "\n";
    return kExitTrouble;
  };
  if (paths.empty()) {
    std::cerr << "canasta audit: error: no log given\n\n" << kAuditUsage << opts;
    return kExitTrouble;
  }
  std::optional<OutputFormat> fmt = ParseOutputFormat(format);
  if (!fmt) return usage_error("unknown format '" + format + "' (text, json, jsonl or sarif)");
  if (color != "auto" && color != "always" && color != "never")
    return usage_error("unknown --color '" + color + "' (auto, always or never)");
  if (jobs < 0) return usage_error("--jobs must be 0 or more");
  if (std::count(paths.begin(), paths.end(), "-") > 1)
    return usage_error("standard input (-) can be read only once");
  Shard shard;
  if (vm.count("shard")) {
    std::optional<Shard> parsed = ParseShard(shard_text);
    if (!parsed)
      return usage_error("--shard '" + shard_text +
                         "': expected K/N, two whole numbers with 1 <= K <= N (--shard 2/8)");
    shard = *parsed;
    if (std::count(paths.begin(), paths.end(), "-") > 0)
      return usage_error("--shard splits files and directories, not standard input (-)");
  }
  if (globs.empty()) globs = {"*.jsonl"};
  for (const std::string& g : globs)
    if (g.empty() || g.find('/') != std::string::npos)
      return usage_error("--glob '" + g + "': a pattern for file names, without '/'");
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  if (jobs == 0) jobs = cores;
  if (jobs > kJobsPerCore * cores) {
    std::cerr << "canasta audit: note: --jobs " << jobs << " is capped at " << kJobsPerCore * cores
              << " (" << kJobsPerCore << " per core)\n";
    jobs = kJobsPerCore * cores;
  }
  CheckLevels levels;
  if (std::string error = levels.ParseOption(checks); !error.empty()) return usage_error(error);
  if (!rules.empty()) {
    // An unknown ruleset on the command line is the tool's trouble, not a finding.
    RulesetChoice probe;
    std::string error;
    if (!ResolveUserRuleset(rules, &probe, &error)) return usage_error(error);
    if (error = CheckLevels().ApplySettings(probe.checks); !error.empty())
      return usage_error(error);
  }
  RulesetPolicy policy;
  for (const std::string& d : allow_dirs) {
    std::error_code ec;
    if (!fs::is_directory(d, ec))
      return usage_error("--allow-ruleset-path " + d + ": not a directory");
    policy.allowed_dirs.push_back(d);
  }

  // The output must not be one of the inputs: checked on every file the walk
  // will read, before any is read (the report then replaces the file only at
  // the end, through a temporary file).
  // Only a regular file is destroyed by a report written over it: a device
  // or a pipe (-o /dev/null) needs no walk.
  std::vector<std::string> inputs;
  struct stat output_stat;
  if (!output.empty() && output != "-" && ::stat(output.c_str(), &output_stat) == 0 &&
      S_ISREG(output_stat.st_mode)) {
    LogWalker all(paths, globs, shard);
    for (std::string p; all.Next(&p);)
      if (SameFile(output_stat, p)) inputs.push_back(p);
  }
  Output out(output);
  {
    std::string error;
    if (!out.Open(inputs, &error)) return usage_error(error);
  }
  TextOptions text;
  text.scores = vm.count("scores") > 0;
  const char* no_color = std::getenv("NO_COLOR");
  text.color = *fmt == OutputFormat::kText &&
               (color == "always" || (color == "auto" && output.empty() && isatty(1) &&
                                      (no_color == nullptr || no_color[0] == '\0')));
  std::unique_ptr<ReportWriter> writer =
      MakeReportWriter(*fmt, out.stream(), CANASTA_VERSION, text);

  AuditOptions options;
  options.forced_ruleset = rules;
  options.resolve = CommandLineResolver(rules, policy);

  Progress progress;
  progress.enabled = isatty(2) && !vm.count("no-progress");
  if (progress.enabled) {
    // Count first, so the bar knows its end (a walk keeps no list).
    LogWalker counter(paths, globs, shard);
    for (std::string p; counter.Next(&p);) ++progress.total;
    progress.enabled = progress.total > 1;
  }

  // Workers take files from the walk in order, audit and format each; this
  // thread writes the bytes in order (cli/ordered_pool.h).
  LogWalker walker(paths, globs, shard);
  // The files in flight, by index, for the message of a failure: only the
  // pool's window of them, so memory stays flat however many files there are.
  std::mutex names_mu;
  std::deque<std::string> names;
  size_t first_name = 0;  // the index of names.front()
  Totals totals;
  bool unknown_ruleset = false;
  writer->Begin();
  progress.Show(0);
  PoolOptions pool;
  pool.jobs = jobs;
  // Reports are small; a deep window keeps the workers busy while this thread
  // waits for the processor (the window is all the memory the pool holds).
  pool.window = size_t(jobs) * 64;
  // Unwatched (no progress bar, output not a terminal), this thread is woken
  // for 8 results at a time, not for each: fewer switches between it and the
  // workers on a machine with as many cores as jobs. 32 measured slower for
  // JSON, whose larger results then wait longer in memory. A watched audit
  // shows each file as it is done.
  pool.batch = progress.enabled || isatty(1) ? 1 : 8;
  PoolOutcome outcome = RunOrdered<std::string, Audited>(
      pool,
      [&](std::string* path) {
        if (!walker.Next(path)) return false;
        std::lock_guard<std::mutex> lock(names_mu);
        names.push_back(*path);
        return true;
      },
      [&](std::string& path) {
        auto start = std::chrono::steady_clock::now();
        FileReport r = AuditOne(path, options, levels);
        double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        Audited a;
        a.totals = TallyOf(r, secs);
        for (const GameReport& g : r.games)
          for (const Finding& f : g.findings)
            a.unknown_ruleset |= f.id == CheckId::kLogUnknownRuleset;
        a.formatted = writer->Format(r);
        return a;
      },
      [&](Audited& a) {
        progress.Clear();
        totals.Add(a.totals);
        unknown_ruleset |= a.unknown_ruleset;
        writer->AddFormatted(a.formatted);
        progress.Show(size_t(writer->summary().files));
        std::lock_guard<std::mutex> lock(names_mu);
        names.pop_front();
        ++first_name;
      });
  progress.Clear();
  if (!outcome.spawn_error.empty()) return usage_error(outcome.spawn_error);
  if (outcome.error) {
    const std::string file = outcome.error_index >= first_name &&
                                     outcome.error_index - first_name < names.size()
                                 ? names[outcome.error_index - first_name]
                                 : std::string("?");
    try {
      std::rethrow_exception(outcome.error);
    } catch (const std::bad_alloc&) {
      return usage_error("out of memory while auditing '" + file + "'");
    } catch (const std::exception& e) {
      return usage_error("while auditing '" + file + "': " + e.what());
    }
  }
  writer->End();
  {
    std::string error;
    if (!out.Commit(&error)) return usage_error(error);
  }
  // Names found by the walk come from the disk, not from the user: printed
  // escaped (PutPrintable), as the reports print them.
  std::ostringstream notes;
  for (const std::string& link : walker.skipped()) {
    notes << "canasta audit: note: ";
    PutPrintable(notes, link);
    notes << " is a link to a directory; not followed (name it to audit it)\n";
  }
  for (const std::string& problem : walker.problems()) {
    notes << "canasta audit: error: ";
    PutPrintable(notes, problem);
    notes << "\n";
  }
  const ReportSummary& s = writer->summary();
  if (s.files > 1 || vm.count("summary")) {
    WriteTextSummary(notes, totals.batch);
    if (!totals.slowest.empty()) {
      notes << "slowest: ";
      PutPrintable(notes, totals.slowest);
      notes << " (" << int(totals.slowest_seconds * 1000 + 0.5) << " ms)\n";
    }
  }
  std::cerr << notes.str();
  if (s.unreadable > 0 || unknown_ruleset || !walker.problems().empty()) return kExitTrouble;
  return s.ExitCode();
}

}  // namespace canasta
