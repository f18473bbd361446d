// Runs a shell command line for the tests that drive the `canasta` program:
// one popen path, so every such test reads the output and the exit status
// the same way.
#ifndef CANASTA_TESTS_RUN_SHELL_H_
#define CANASTA_TESTS_RUN_SHELL_H_

#include <sys/wait.h>

#include <cstddef>
#include <cstdio>
#include <string>

namespace canasta {
namespace test {

struct ShellRun {
  int status = -1;  // the exit status; -1: the shell did not start or exit normally
  std::string out;  // what the command line wrote to the pipe (its stdout)
};

// Runs `command` with /bin/sh; its stdout is captured, up to `max_bytes`
// (the rest is read and dropped, so the command never blocks on the pipe).
inline ShellRun RunShell(const std::string& command, size_t max_bytes = size_t(-1)) {
  ShellRun r;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) {
    if (r.out.size() < max_bytes) r.out.append(buf, n);
  }
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace test
}  // namespace canasta

#endif  // CANASTA_TESTS_RUN_SHELL_H_
