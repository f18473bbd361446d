// Streaming reader of canasta-log/1 (JSON Lines): one Event per line, with
// every problem of the input reported by line, so that the replay can go on
// past a bad line like a compiler does.
#ifndef CANASTA_REPLAY_LOG_READER_H_
#define CANASTA_REPLAY_LOG_READER_H_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "replay/event.h"

namespace canasta {

// The reader's limits on untrusted input (docs/log-format.md, "Limits"). Each
// one met is a finding with its line; none of them is near a real log.
namespace log_limits {
// A longer line is skipped to its end (a finding); a real line is < 4 KB.
constexpr size_t kMaxLineBytes = 1024 * 1024;
// Past this many bytes of one line the reader stops reading the file.
constexpr size_t kMaxSkippedLine = 256u * 1024 * 1024;
// Arrays and objects inside one another; a real event nests 4 deep.
constexpr int kMaxDepth = 64;
// Lines that yield no event before the first one: then the reader stops (the
// file is not a log). A too-long line before the first event stops at once.
constexpr int kMaxBadLinesBeforeEvent = 10;
// Problems the reader reports for one file before it stops reading it.
constexpr int kMaxProblemsPerFile = 10000;  // above the audit's own cap (AuditOptions::max_findings)
// Problems reported for one line; the rest are counted in one more.
constexpr int kMaxProblemsPerLine = 32;
// Ranges of integers, both ends included.
constexpr int kMaxHand = 1000000;           // "hand": 0 to this
constexpr int kMaxSeat = 1000;              // "player", "dealer", "winner": 0 to this
constexpr int kMaxCount = 1000000;          // "count": 0 to this
constexpr int kMaxScore = 1000000000;       // scores, totals, breakdown parts: |v| <= this
}  // namespace log_limits

// Memory reused from one JSON line to the next so that parsing an ordinary
// line allocates nothing (a Document per line would grow or malloc). Large
// lines borrow extra memory that is given back at the next parse. One per
// thread.
class ParseScratch {
 public:
  ParseScratch();
  ~ParseScratch();
  ParseScratch(const ParseScratch&) = delete;
  ParseScratch& operator=(const ParseScratch&) = delete;

  struct Impl;  // RapidJSON stays out of this header
  Impl* impl() { return impl_.get(); }

 private:
  std::unique_ptr<Impl> impl_;
};

class LogReader {
 public:
  explicit LogReader(std::istream& in);
  ~LogReader();
  LogReader(const LogReader&) = delete;
  LogReader& operator=(const LogReader&) = delete;

  // Reads the next event into *event (reusing its storage: only the fields
  // that its previous type uses are cleared, so pass a default Event or one
  // this reader filled, with its fields left as they were). Returns false at
  // the end of the input. Problems met on the way are appended to *problems
  // (may be null), each with its line:
  //   bad JSON -> kLogBadJson; a line that is JSON but not an object, a
  //   missing or mistyped "type" or field -> kLogBadEvent; a bad card ->
  //   kLogBadCard; an unknown "type" -> kLogUnknownEvent.
  // A line that yields no event (bad JSON, not an object, no or unknown type)
  // is skipped; a known type with bad fields yields an event with ok=false.
  // The limits above are findings too; when the reader stops at one (the file
  // is not a log, or too many problems), it says so in a last problem
  // (kLogNotCanastaLog) and every later call returns false.
  bool Next(Event* event, std::vector<InputProblem>* problems);

  // The benchmark's floor: reads the next non-blank line as Next() does and
  // only parses it with the same parser and flags (SAX, no handler work).
  // Returns false at the end; *valid tells whether the line was valid JSON.
  bool NextParsedOnly(bool* valid);

  bool stopped() const { return stopped_; }  // stopped at a limit

  // Lines are converted by a SAX builder; only a line with something to
  // report goes through the DOM conversion, which words the findings. For
  // tests: convert every line through the DOM, and count those that were.
  void set_dom_only_for_testing(bool on) { dom_only_ = on; }
  int dom_lines() const { return dom_lines_; }

  int line() const { return line_; }                   // number of the last line read, 1-based
  uint64_t bytes_read() const { return bytes_read_; }  // bytes of lines consumed

 private:
  enum class LineStatus { kLine, kTooLong, kEnd };
  // Sets *line, *size to the next line without its '\n', writable and
  // followed by a '\0', valid until the next call. kTooLong (line_ is that
  // line's number) for a line over the limit: SkipLongLine() then skips it.
  LineStatus ReadLine(char** line, size_t* size);
  bool SkipLongLine();  // false when the line did not end within the limit
  // Adds a problem of the reader's own (not of a line's fields).
  void Report(std::vector<InputProblem>* problems, CheckId id, std::string message);
  void Stop(std::vector<InputProblem>* problems, std::string why);
  // After a line that yielded no event.
  void BadLine(std::vector<InputProblem>* problems);
  // Counts the problems of a line; stops the file at the limit.
  void CountProblems(std::vector<InputProblem>* problems, size_t before);

  std::istream& in_;
  // Bytes read from in_ but not consumed. Grown without zero-filling: a
  // reader is made per file, and most files are smaller than one chunk.
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
  void Reallocate(size_t capacity);  // keeps the bytes before end_
  size_t begin_ = 0;    // start of the unconsumed bytes in buffer_
  size_t end_ = 0;      // end of the valid bytes in buffer_
  size_t scanned_ = 0;  // bytes after begin_ known to hold no '\n'
  bool eof_ = false;
  int line_ = 0;
  uint64_t bytes_read_ = 0;
  bool stopped_ = false;
  int events_ = 0;      // events returned
  int bad_lines_ = 0;   // lines that yielded no event before the first event
  size_t problems_ = 0; // problems reported for this file
  bool dom_only_ = false;
  int dom_lines_ = 0;
  ParseScratch scratch_;
};

// Parses one line as JSON with the reader's own parser and flags (the SAX
// parser, with the reader's checks of encoding) and converts nothing. True if
// valid.
bool ParseJsonOnly(std::string_view line, ParseScratch* scratch = nullptr);

}  // namespace canasta

#endif  // CANASTA_REPLAY_LOG_READER_H_
