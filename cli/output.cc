#include "cli/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace canasta {

FdStreamBuf::FdStreamBuf(int fd, int closed_errno) : fd_(fd), closed_errno_(closed_errno) {
  setp(buffer_, buffer_ + sizeof buffer_);
}

FdStreamBuf::~FdStreamBuf() { Drain(); }

bool FdStreamBuf::WriteAll(const char* s, size_t n) {
  if (n > 0 && closed_errno_ != 0 && error_ == 0) error_ = closed_errno_;
  while (n > 0 && error_ == 0) {
    ssize_t w = ::write(fd_, s, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      break;
    }
    s += w;
    n -= size_t(w);
  }
  return error_ == 0;
}

bool FdStreamBuf::Drain() {
  const bool ok = WriteAll(pbase(), size_t(pptr() - pbase()));
  setp(buffer_, buffer_ + sizeof buffer_);
  return ok;
}

FdStreamBuf::int_type FdStreamBuf::overflow(int_type ch) {
  if (!Drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

std::streamsize FdStreamBuf::xsputn(const char* s, std::streamsize n) {
  if (n >= std::streamsize(sizeof buffer_) / 2) {
    // A large block (a worker's whole report) goes out directly.
    if (!Drain() || !WriteAll(s, size_t(n))) return 0;
    return n;
  }
  return std::streambuf::xsputn(s, n);
}

int FdStreamBuf::sync() { return Drain() ? 0 : -1; }

bool OpenInput(const std::string& path, std::ifstream* in, std::string* reason) {
  errno = 0;
  in->open(path, std::ios::binary);
  const int opened = errno;
  struct stat st;
  if (*in && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    in->close();
    *reason = std::strerror(EISDIR);
    return false;
  }
  if (!*in) {
    *reason = std::strerror(opened != 0 ? opened : EIO);
    return false;
  }
  return true;
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa;
  return ::stat(a.c_str(), &sa) == 0 && SameFile(sa, b);
}

bool SameFile(const struct stat& a, const std::string& b) {
  struct stat sb;
  if (::stat(b.c_str(), &sb) != 0) return false;
  return a.st_dev == sb.st_dev && a.st_ino == sb.st_ino;
}

Output::Output(std::string path) : path_(std::move(path)) {
  if (path_ == "-") path_.clear();
  display_ = path_.empty() ? "standard output" : "'" + path_ + "'";
}

Output::~Output() {
  stream_.reset();
  buf_.reset();
  if (fd_ > 1) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

namespace {
int closed_stdout_errno = 0;
}  // namespace

void GuardStandardDescriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1) continue;
    if (fd == 1) closed_stdout_errno = errno;
    // Hold the number, so that no file the command opens takes it.
    int null = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null >= 0 && null != fd) ::close(null);
  }
}

int ClosedStdoutErrno() { return closed_stdout_errno; }

bool Output::Open(const std::vector<std::string>& inputs, std::string* error) {
  if (path_.empty()) {
    if (closed_stdout_errno != 0) {
      *error = "cannot write standard output: " + std::string(std::strerror(closed_stdout_errno));
      return false;
    }
    fd_ = 1;
  } else {
    for (const std::string& in : inputs) {
      if (SameFile(path_, in)) {
        *error = "the output " + display_ + " is the input '" + in +
                 "'; it would be destroyed (write the output elsewhere)";
        return false;
      }
    }
    struct stat st;
    const bool exists = ::stat(path_.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
      // A device or pipe (/dev/stdout, /dev/full): written in place.
      fd_ = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    } else {
      // A temporary file beside the target (a dot file, which no directory
      // walk picks up), renamed over it at the end.
      const size_t slash = path_.rfind('/');
      const std::string dir = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
      temp_ = dir + ".canasta-output-XXXXXX";
      fd_ = ::mkostemp(&temp_[0], O_CLOEXEC);
      if (fd_ < 0) {
        // A folder we may not create files in, holding a file we may write:
        // written in place (it is not an input, checked above).
        temp_.clear();
        if (exists) fd_ = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd_, exists ? (st.st_mode & 07777) : (0666 & ~mask));
      }
    }
    if (fd_ < 0) {
      *error = "cannot write " + display_ + ": " + std::strerror(errno);
      return false;
    }
  }
  buf_ = std::make_unique<FdStreamBuf>(fd_);
  stream_ = std::make_unique<std::ostream>(buf_.get());
  return true;
}

bool Output::Commit(std::string* error) {
  stream_->flush();
  int err = buf_->error();
  if (err == 0 && fd_ > 1 && ::close(fd_) != 0) err = errno;
  if (fd_ > 1) fd_ = -1;
  if (err == 0 && !temp_.empty() && ::rename(temp_.c_str(), path_.c_str()) != 0) err = errno;
  if (err != 0) {
    *error = "cannot write " + display_ + ": " + std::strerror(err);
    return false;
  }
  committed_ = true;
  return true;
}

int WriteOutput(const char* command, const std::string& path, const std::string& text,
                const std::vector<std::string>& inputs) {
  Output out(path);
  std::string error;
  bool ok = out.Open(inputs, &error);
  if (ok) {
    out.stream().write(text.data(), std::streamsize(text.size()));
    ok = out.Commit(&error);
  }
  if (!ok) {
    std::cerr << "canasta " << command << ": error: " << error << "\n";
    return 2;
  }
  return 0;
}

}  // namespace canasta
