// Where a command writes its report: standard output or a file given with
// -o. A file is written to a temporary file beside it and renamed over it
// only when complete, so a failed or refused run never leaves half a report
// nor truncates anything; an output that is one of the inputs (the same file,
// compared by device and inode, not by name) is refused before anything is
// read. Every write error is kept with the system's reason, so that the
// command can exit 2 with it.
#ifndef CANASTA_CLI_OUTPUT_H_
#define CANASTA_CLI_OUTPUT_H_

#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace canasta {

// A stream buffer over a file descriptor that remembers the first error.
class FdStreamBuf : public std::streambuf {
 public:
  // `closed_errno`: the descriptor was closed when the program started (its
  // number now holds /dev/null); the first write fails with that error.
  explicit FdStreamBuf(int fd, int closed_errno = 0);
  ~FdStreamBuf() override;
  int error() const { return error_; }  // errno of the first failed write, or 0

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool Drain();
  bool WriteAll(const char* s, size_t n);
  int fd_;
  int closed_errno_;
  int error_ = 0;
  char buffer_[1 << 16];
};

class Output {
 public:
  // `path` empty or "-": standard output.
  explicit Output(std::string path);
  ~Output();  // removes the temporary file unless Commit() succeeded

  // Refuses (false, with the reason in `error`) when the output is the same
  // file as one of `inputs`; else opens it.
  bool Open(const std::vector<std::string>& inputs, std::string* error);
  std::ostream& stream() { return *stream_; }
  // Flushes, and for a file renames the temporary file over the target.
  // False with the reason (e.g. "cannot write '/dev/full': No space left on
  // device") on any write error.
  bool Commit(std::string* error);
  const std::string& name() const { return display_; }

 private:
  std::string path_, display_, temp_;
  int fd_ = -1;
  std::unique_ptr<FdStreamBuf> buf_;
  std::unique_ptr<std::ostream> stream_;
  bool committed_ = false;
};

// Call first in main(): a standard descriptor that is closed gets /dev/null,
// so that no file takes its number; a closed standard output is remembered
// and makes Output::Open fail for it ("Bad file descriptor").
void GuardStandardDescriptors();
// The errno of a standard output closed at start (EBADF), else 0.
int ClosedStdoutErrno();

// Whether the files `a` and `b` are the same file (device and inode); false
// when either does not exist.
bool SameFile(const std::string& a, const std::string& b);
// Whether `b` is the file `a` describes (from stat); false when `b` does not
// exist.
bool SameFile(const struct stat& a, const std::string& b);

// Opens the input file `path`. A directory opens and reads as nothing, so
// it is refused here. False with the system's reason ("No such file or
// directory", "Is a directory") in `reason`.
bool OpenInput(const std::string& path, std::ifstream* in, std::string* reason);

// For commands that produce their output in memory (`canasta tree`): writes
// `text` to `path` (stdout when empty) as Output does, refusing an output that
// is one of `inputs`; on failure prints "canasta COMMAND: error: ..." and
// returns 2, else 0.
int WriteOutput(const char* command, const std::string& path, const std::string& text,
                const std::vector<std::string>& inputs);

}  // namespace canasta

#endif  // CANASTA_CLI_OUTPUT_H_
