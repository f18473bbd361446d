// `canasta summarize [FILE|-]...`: the batch summary of one audit rebuilt
// from the JSON Lines of one or many (`canasta audit --format jsonl`, say one
// per shard, concatenated or not). A line that is not a record is a finding
// with its line, and the summary then says less than the audits did: exit 2.
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "lint/checks.h"
#include "lint/format.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace canasta {
namespace {

constexpr char kSummarizeUsage[] =
    "usage: canasta summarize [options] [FILE|-]...\n"
    "\n"
    "Reads what `canasta audit --format jsonl` writes, one stream or many (files, or\n"
    "standard input for - or when no FILE is given; streams may be concatenated),\n"
    "and prints the summary that one audit of all those logs prints. A line that is\n"
    "not a canasta-report-line/1 record is reported as `file:line: error: ...`.\n";

// A record describes one log: far below this even for a log of thousands of
// hands. A longer line is skipped to its end, unread (a finding).
constexpr size_t kMaxLineBytes = 64u * 1024 * 1024;
// Bad lines listed for one stream; the rest are counted in one more finding.
constexpr size_t kMaxFindings = 1000;
// As the log reader's limits (docs/log-format.md, Limits): a stream whose
// first lines are no record is not a report and is not read on (/dev/zero,
// /dev/urandom end); nor is the rest of a line that goes on past this.
constexpr long kMaxBadLinesBeforeRecord = 10;
constexpr size_t kMaxSkippedLine = 256u * 1024 * 1024;

// Lines of a stream, read in blocks; a line over kMaxLineBytes is skipped to
// its end without being kept, unless more than `max_skip` bytes of it are
// skipped: then the stream is given up (kRunaway).
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}
  enum class Status { kLine, kTooLong, kRunaway, kEnd };
  Status Next(std::string* line, size_t max_skip) {
    line->clear();
    bool too_long = false;
    size_t skipped = 0;
    for (;;) {
      if (begin_ == end_ && !Fill()) {
        if (!too_long && line->empty() && !partial_) return Status::kEnd;
        partial_ = false;
        ++number_;
        return too_long ? Status::kTooLong : Status::kLine;
      }
      const char* start = buffer_.data() + begin_;
      const void* nl = std::memchr(start, '\n', end_ - begin_);
      const size_t n = nl ? size_t(static_cast<const char*>(nl) - start) : end_ - begin_;
      if (!too_long && line->size() + n > kMaxLineBytes) {
        too_long = true;
        line->clear();
        line->shrink_to_fit();
      }
      if (!too_long) line->append(start, n);
      begin_ += n;
      if (too_long && (skipped += n) > max_skip) {
        ++number_;
        return Status::kRunaway;
      }
      partial_ = true;
      if (nl) {
        ++begin_;
        partial_ = false;
        ++number_;
        return too_long ? Status::kTooLong : Status::kLine;
      }
    }
  }
  long number() const { return number_; }  // of the line last returned
  bool AtEnd() { return begin_ == end_ && !Fill(); }
  bool failed() const { return in_.bad(); }

 private:
  bool Fill() {
    if (!in_) return false;
    in_.read(buffer_.data(), std::streamsize(buffer_.size()));
    begin_ = 0;
    end_ = size_t(in_.gcount());
    return end_ > 0;
  }
  std::istream& in_;
  std::vector<char> buffer_ = std::vector<char>(64 * 1024);
  size_t begin_ = 0, end_ = 0;
  bool partial_ = false;  // bytes of a line without its '\n' so far
  long number_ = 0;
};

bool IsBlank(const std::string& line) {
  return line.find_first_not_of(" \t\r\f\v") == std::string::npos;
}

// Adds every record of one stream to `summary`; the lines that are not
// records become the findings of `bad` (file-level report of the stream).
// False when the stream could not be read.
bool ReadStream(std::istream& in, BatchSummary* summary, FileReport* bad) {
  LineReader reader(in);
  long good = 0, not_records = 0;
  const std::vector<std::string> left_out = {"the summary leaves out the log this line describes"};
  std::string line;
  bool given_up = false;
  LineReader::Status status;
  // Before the first record, a line over the limit gives the stream up at once.
  while (!given_up && (status = reader.Next(&line, good == 0 ? 0 : kMaxSkippedLine)) !=
                          LineReader::Status::kEnd) {
    std::optional<ReportLineError> error;
    if (status == LineReader::Status::kRunaway) {
      given_up = true;
      error = ReportLineError{
          CheckId::kLogBadEvent,
          "this line is longer than " + std::to_string(kMaxLineBytes / (1024 * 1024)) + " MiB" +
              (good == 0 ? " before any record"
                         : " and goes on past " + std::to_string(kMaxSkippedLine / (1024 * 1024)) +
                               " MiB") +
              ": the rest of the file is not read"};
    } else if (status == LineReader::Status::kTooLong) {
      error =
          ReportLineError{CheckId::kLogBadEvent, "this line is longer than " +
                                                     std::to_string(kMaxLineBytes / (1024 * 1024)) +
                                                     " MiB: it is skipped, unread"};
    } else if (IsBlank(line)) {
      continue;  // as between concatenated streams
    } else {
      error = AddReportLine(line, summary);
    }
    if (!error) {
      ++good;
      continue;
    }
    ++not_records;
    if (bad->findings.size() < kMaxFindings)
      bad->findings.push_back(
          Finding{int(reader.number()), error->id, std::move(error->message), left_out});
    if (good == 0 && not_records >= kMaxBadLinesBeforeRecord) given_up = true;
  }
  if (reader.failed()) return false;
  const long unlisted = not_records - long(bad->findings.size());
  if (good == 0 && not_records > 1) {
    // One cause: this is not such a stream at all (a log, a --format json report).
    Finding first = bad->findings.front();
    const bool unread = given_up && !reader.AtEnd();
    bad->findings = {Finding{first.line,
                             first.id,
                             "no line of this file is a " + std::string(kReportLineSchema) +
                                 " record (" + (unread ? "the first " : "") +
                                 std::to_string(not_records) + " lines" +
                                 (unread ? "; the rest is not read" : "") +
                                 "); `canasta summarize` reads what "
                                 "`canasta audit --format jsonl` writes",
                             {"line " + std::to_string(first.line) + ": " + first.message}}};
  } else if (unlisted > 0) {
    bad->findings.push_back(Finding{int(reader.number()), CheckId::kLogBadEvent,
                                    std::to_string(unlisted) +
                                        " more line(s) of this file are not records; they are "
                                        "not listed",
                                    left_out});
  }
  return true;
}

}  // namespace

int SummarizeCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string format = "text", output;
  opts.add_options()("help,h", "this help")("format,f", po::value(&format)->default_value("text"),
                                            "text or json")(
      "output,o", po::value(&output), "write the summary to this file instead of stdout");
  std::vector<std::string> paths;
  po::variables_map vm;
  if (!ParseOptions(args, opts, "summarize", kSummarizeUsage, &paths, &vm)) return kExitTrouble;
  if (vm.count("help")) {
    std::cout << kSummarizeUsage << "\n"
              << opts
              << "\nExit status: as `canasta audit` for the same logs: 0 no error found, 1 "
                 "errors found, 2 the tool could not do its job (a log was unreadable or its "
                 "ruleset unknown, or a stream could not be read or has a line that is not a "
                 "record).\n";
    return kExitOk;
  }
  auto usage_error = [&](const std::string& message) {
    std::cerr << "canasta summarize: error: " << message << "\n";
    return kExitTrouble;
  };
  if (format != "text" && format != "json")
    return usage_error("unknown format '" + format + "' (text or json)");
  if (paths.empty()) paths = {"-"};
  if (std::count(paths.begin(), paths.end(), "-") > 1)
    return usage_error("standard input (-) can be read only once");

  std::vector<std::string> inputs;
  for (const std::string& p : paths)
    if (p != "-") inputs.push_back(p);
  Output out(output);
  {
    std::string error;
    if (!out.Open(inputs, &error)) return usage_error(error);
  }

  BatchSummary summary;
  bool trouble = false;
  for (const std::string& path : paths) {
    FileReport bad;
    bad.file = path == "-" ? kStdinName : path;
    bool read = true;
    if (path == "-") {
      read = ReadStream(std::cin, &summary, &bad);
    } else {
      std::ifstream in;
      if (!OpenInput(path, &in, &bad.reason)) {
        bad.unreadable = true;
      } else {
        read = ReadStream(in, &summary, &bad);
      }
    }
    if (!read) {
      bad.unreadable = true;
      bad.reason = std::strerror(errno != 0 ? errno : EIO);
    }
    if (bad.unreadable || !bad.findings.empty()) {
      trouble = true;
      // The summary is the output; what is wrong with the streams goes beside it.
      WriteTextFile(std::cerr, bad, TextOptions{});
    }
  }

  if (format == "json") {
    WriteJsonSummary(out.stream(), summary, CANASTA_VERSION);
  } else {
    WriteTextSummary(out.stream(), summary);
  }
  {
    std::string error;
    if (!out.Commit(&error)) return usage_error(error);
  }
  // As `canasta audit` would exit for these logs.
  const auto unknown = summary.by_check.find(GetCheck(CheckId::kLogUnknownRuleset).name);
  if (trouble || summary.counts.unreadable > 0 ||
      (unknown != summary.by_check.end() && unknown->second > 0))
    return kExitTrouble;
  return summary.counts.ExitCode();
}

}  // namespace canasta
