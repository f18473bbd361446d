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

  // Reads the next event into *event (reusing its storage). Returns false at
  // the end of the input. Problems met on the way are appended to *problems
  // (may be null), each with its line:
  //   bad JSON -> kLogBadJson; a line that is JSON but not an object, a
  //   missing or mistyped "type" or field -> kLogBadEvent; a bad card ->
  //   kLogBadCard; an unknown "type" -> kLogUnknownEvent.
  // A line that yields no event (bad JSON, not an object, no or unknown type)
  // is skipped; a known type with bad fields yields an event with ok=false.
  bool Next(Event* event, std::vector<InputProblem>* problems);

  int line() const { return line_; }                   // number of the last line read, 1-based
  uint64_t bytes_read() const { return bytes_read_; }  // bytes of lines consumed

 private:
  // Sets *line, *size to the next line without its '\n', writable and
  // followed by a '\0', valid until the next call. False at end of input.
  bool ReadLine(char** line, size_t* size);

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
  ParseScratch scratch_;
};

// Parses one line as JSON with the reader's own parser and flags and converts
// nothing: the floor a benchmark compares the reader against. True if valid.
bool ParseJsonOnly(std::string_view line, ParseScratch* scratch = nullptr);

}  // namespace canasta

#endif  // CANASTA_REPLAY_LOG_READER_H_
