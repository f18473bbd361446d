// canasta: audits recorded games of Canasta.
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"

namespace {

constexpr char kUsage[] =
    "usage: canasta <command> [options]\n"
    "\n"
    "Audits recorded games of Canasta (canasta-log/1) for illegal moves and\n"
    "scoring mistakes.\n"
    "\n"
    "commands:\n"
    "  audit PATH...        check logs (files or directories) and report findings\n"
    "  summarize [FILE]...  the summary of audits' --format jsonl outputs, merged\n"
    "  rules list           the built-in rulesets\n"
    "  rules show R         every parameter of a ruleset, with its source\n"
    "  rules diff A B       what differs between two rulesets\n"
    "  simulate             bots play complete games and write them as logs\n"
    "  tree LOG             a hand's decision points as a Graphviz tree (SVG)\n"
    "  sheet import|export  score sheets: CSV to a sheet log, any log to CSV\n"
    "  review LOG           every decision evaluated; key decisions and accuracy\n"
    "\n"
    "options:\n"
    "  -h, --help           this help; `canasta help <command>` (or\n"
    "                       `canasta <command> --help`) for a command's\n"
    "  --version            the version\n"
    "\n"
    "Exit status: 0 no error found, 1 errors found, 2 the tool could not do its job.\n";

}  // namespace

namespace {

int Run(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << kUsage;
    return canasta::kExitTrouble;
  }
  std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if ((cmd == "help" || cmd == "-h" || cmd == "--help") && !rest.empty() && rest[0][0] != '-') {
    // `canasta help audit` is `canasta audit --help`.
    cmd = rest[0];
    rest = {"--help"};
  } else if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::cout << kUsage;
    return canasta::kExitOk;
  }
  if (cmd == "--version" || cmd == "version") {
    std::cout << "canasta " << CANASTA_VERSION << "\n";
    return canasta::kExitOk;
  }
  if (cmd == "audit") return canasta::AuditCommand(rest);
  if (cmd == "rules") return canasta::RulesCommand(rest);
  if (cmd == "simulate") return canasta::SimulateCommand(rest);
  if (cmd == "tree") return canasta::TreeCommand(rest);
  if (cmd == "sheet") return canasta::SheetCommand(rest);
  if (cmd == "review") return canasta::ReviewCommand(rest);
  if (cmd == "summarize") return canasta::SummarizeCommand(rest);
  std::cerr << "canasta: error: unknown command '" << cmd << "'\n\n" << kUsage;
  return canasta::kExitTrouble;
}

}  // namespace

int main(int argc, char** argv) {
  canasta::GuardStandardDescriptors();
  // Everything a command prints on stdout goes through a buffer that keeps
  // the first write error: a full disk or a closed stdout is exit 2.
  canasta::FdStreamBuf stdout_buf(1, canasta::ClosedStdoutErrno());
  std::streambuf* original = std::cout.rdbuf(&stdout_buf);
  int status;
  try {
    status = Run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::bad_alloc&) {
    std::cerr << "canasta: error: out of memory\n";
    status = canasta::kExitTrouble;
  } catch (const std::exception& e) {
    std::cerr << "canasta: error: " << e.what() << "\n";
    status = canasta::kExitTrouble;
  }
  std::cout.flush();
  std::cout.rdbuf(original);
  if (stdout_buf.error() != 0) {
    std::cerr << "canasta: error: cannot write standard output: "
              << std::strerror(stdout_buf.error()) << "\n";
    return canasta::kExitTrouble;
  }
  return status;
}
