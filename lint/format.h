// Writes audit reports as compiler-style text, one JSON document, JSON Lines
// (one object per file, so that the outputs of many processes concatenate) or
// SARIF 2.1.0 (docs/report-format.md describes them all and the exit codes),
// and the batch summary that `canasta audit` prints and `canasta summarize`
// rebuilds from JSON Lines.
//
// Two ways to write:
//   - the vector functions WriteText / WriteJson / WriteSarif, for reports
//     already in memory;
//   - a ReportWriter (MakeReportWriter, or one of the classes below), fed one
//     FileReport at a time, so a batch audit of thousands of files never holds
//     more than one file's report: Begin(), AddFile() per file, End().
// Both produce the same bytes for the same reports.
#ifndef CANASTA_LINT_FORMAT_H_
#define CANASTA_LINT_FORMAT_H_

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/utf8.h"  // ValidUtf8, for the CLI
#include "lint/checks.h"
#include "replay/report.h"

namespace canasta {

struct TextOptions {
  bool scores = false;  // after each game, a note per hand with its scores and totals
  bool color = false;   // ANSI colours, as clang prints them on a terminal
};

enum class OutputFormat { kText, kJson, kSarif, kJsonl };

// "text", "json", "sarif" or "jsonl".
std::optional<OutputFormat> ParseOutputFormat(std::string_view name);
const char* OutputFormatName(OutputFormat format);

// Counts over the files written so far.
// long: a corpus of millions of logs has billions of hands.
struct ReportSummary {
  long files = 0;       // files added, unreadable ones included
  long unreadable = 0;  // files that could not be read
  long games = 0;
  long hands = 0;
  long errors = 0;  // findings by the severity of their check
  long warnings = 0;
  long notes = 0;

  void Add(const FileReport& report);
  void Add(const ReportSummary& other);
  // 0 when no finding has error severity, else 1. Unreadable files are the
  // caller's concern (the CLI exits 2 for them).
  int ExitCode() const { return errors > 0 ? 1 : 0; }
};

// The exit status for these reports: 0 no error-severity finding, 1 errors.
int ExitCodeFor(const std::vector<FileReport>& reports);

// --- Whole reports ---

// One line per finding, `file:line: error: message [check-name]`, then one
// `file:line: note: ...` line per note. File-level findings come first, then
// each game's in order. An unreadable file prints `canasta: error: cannot read
// 'file'`.
void WriteText(std::ostream& out, const std::vector<FileReport>& reports,
               const TextOptions& options);
// The text of one file, as WriteText prints it.
void WriteTextFile(std::ostream& out, const FileReport& report, const TextOptions& options);

// One JSON document for all the files (docs/report-format.md).
void WriteJson(std::ostream& out, const std::vector<FileReport>& reports, const char* version);

// One SARIF 2.1.0 log with one run: every check as a rule, every finding as a
// result.
void WriteSarif(std::ostream& out, const std::vector<FileReport>& reports, const char* version);

// --- Streaming ---

// One file's part of a report, formatted ahead (on any thread) by
// ReportWriter::Format() and written in order by AddFormatted().
struct FormattedFile {
  std::string bytes;                    // exactly what AddFile() would write for the file
  ReportSummary counts;                 // of this file alone
  std::string unreadable_file, reason;  // SARIF lists unreadable files at the end
};

// Call Begin() once, AddFile() for each file, End() once. Output goes to the
// stream as each call is made; nothing of an added file is kept but its counts
// (and, for SARIF, the names of unreadable files). AddFile() and End() begin
// the document if Begin() was not called; calls after End() do nothing.
class ReportWriter {
 public:
  virtual ~ReportWriter() = default;
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  void Begin();
  void AddFile(const FileReport& report);
  void End();

  // The bytes AddFile(report) would write, made without touching the stream
  // or the counts: safe to call from several threads at once, so that
  // workers format and one thread only writes, in order, with AddFormatted().
  FormattedFile Format(const FileReport& report) const;
  void AddFormatted(const FormattedFile& file);

  // Counts of the files added so far; summary().ExitCode() is the exit status.
  const ReportSummary& summary() const { return summary_; }

 protected:
  ReportWriter() = default;

 private:
  virtual void DoBegin() = 0;
  virtual void DoFormat(const FileReport& report, std::string* bytes) const = 0;
  virtual void DoAddFormatted(const FormattedFile& file) = 0;
  virtual void DoEnd() = 0;

  enum class State { kNew, kOpen, kClosed };
  State state_ = State::kNew;
  ReportSummary summary_;
};

class TextReportWriter : public ReportWriter {
 public:
  TextReportWriter(std::ostream& out, const TextOptions& options);

 private:
  void DoBegin() override {}
  void DoFormat(const FileReport& report, std::string* bytes) const override;
  void DoAddFormatted(const FormattedFile& file) override;
  void DoEnd() override;

  std::ostream& out_;
  TextOptions options_;
};

class JsonReportWriter : public ReportWriter {
 public:
  JsonReportWriter(std::ostream& out, const char* version);
  ~JsonReportWriter() override;

 private:
  class Impl;
  void DoBegin() override;
  void DoFormat(const FileReport& report, std::string* bytes) const override;
  void DoAddFormatted(const FormattedFile& file) override;
  void DoEnd() override;

  std::unique_ptr<Impl> impl_;
};

// JSON Lines: one line per file, `{"schema":"canasta-report-line/1",...}`
// followed by the members of the JSON report's file entry; nothing before the
// first line or after the last, so that streams concatenate.
class JsonlReportWriter : public ReportWriter {
 public:
  explicit JsonlReportWriter(std::ostream& out);

 private:
  void DoBegin() override {}
  void DoFormat(const FileReport& report, std::string* bytes) const override;
  void DoAddFormatted(const FormattedFile& file) override;
  void DoEnd() override;

  std::ostream& out_;
};

class SarifReportWriter : public ReportWriter {
 public:
  SarifReportWriter(std::ostream& out, const char* version);
  ~SarifReportWriter() override;

 private:
  class Impl;
  void DoBegin() override;
  void DoFormat(const FileReport& report, std::string* bytes) const override;
  void DoAddFormatted(const FormattedFile& file) override;
  void DoEnd() override;

  std::unique_ptr<Impl> impl_;
};

// A writer for `format`; `text` is used only by the text format. `out` must
// outlive the writer.
std::unique_ptr<ReportWriter> MakeReportWriter(OutputFormat format, std::ostream& out,
                                               const char* version, const TextOptions& text);

// --- Batch summaries ---

// The schema of a line of `--format jsonl` (docs/report-format.md).
constexpr char kReportLineSchema[] = "canasta-report-line/1";

// What `canasta audit` prints after a batch, and `canasta summarize` rebuilds
// from the JSON Lines of one or many audits: the counts, the events, and the
// findings of each check.
struct BatchSummary {
  ReportSummary counts;
  long events = 0;
  std::map<std::string, long> by_check;  // findings by check name

  void Add(const FileReport& report);
  void Add(const BatchSummary& other);
};

// `audited N file(s)[, U unreadable]: G game(s), H hand(s), E event(s); X
// error(s), Y warning(s)`, then `  COUNT  CHECK` per check, by name.
void WriteTextSummary(std::ostream& out, const BatchSummary& summary);

// A JSON document: `schema` "canasta-summary/1", `tool`, `version`, `summary`
// (the JSON report's summary object), `events`, `checks` (count by name).
void WriteJsonSummary(std::ostream& out, const BatchSummary& summary, const char* version);

// Why a line is not a canasta-report-line/1 record.
struct ReportLineError {
  CheckId id;  // kLogBadJson: not JSON; kLogBadEvent: JSON, but not a record
  std::string message;
};

// Adds the file that one line of a JSON Lines report describes to `summary`;
// a line that is not a whole canasta-report-line/1 record adds nothing and
// says why. The line is untrusted: any bytes are safe.
std::optional<ReportLineError> AddReportLine(std::string_view line, BatchSummary* summary);

// --- Helpers, exposed for the CLI and tests ---

// Writes `text` with control characters escaped, so that a finding is always
// exactly one line and a log or a hook's string cannot send escape sequences
// to the terminal: C0 and DEL as \xNN (\n, \r, \t), other controls (C1,
// the line separators, bidi controls) as \uNNNN, and a byte that is not
// valid UTF-8 (a raw 0x9b is CSI to an 8-bit terminal) as \xNN. The text
// report and every other text output that quotes a finding use it.
void PutPrintable(std::ostream& out, std::string_view text);

// What PutPrintable writes of `text`, as a string (a name in a label).
std::string Printable(std::string_view text);

// The same for a whole page that quotes outside text (a table of a
// ruleset's values, a traceback, a review): its line breaks and tabs stay.
std::string PrintableLines(std::string_view text);

// A file path as a SARIF artifact URI: a relative reference for a relative
// path, a file:// URI for an absolute one, percent-encoded where needed.
std::string FileUri(std::string_view path);

}  // namespace canasta

#endif  // CANASTA_LINT_FORMAT_H_
