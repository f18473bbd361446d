// canasta: audits recorded games of Canasta.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace {

constexpr char kUsage[] =
    "usage: canasta <command> [options]\n"
    "\n"
    "Audits recorded games of Canasta (canasta-log/1) for illegal moves and\n"
    "scoring mistakes.\n"
    "\n"
    "commands:\n"
    "  audit PATH...        check logs (files or directories) and report findings\n"
    "  rules list           the built-in rulesets\n"
    "  rules show R         every parameter of a ruleset, with its source\n"
    "  rules diff A B       what differs between two rulesets\n"
    "  simulate             bots play complete games and write them as logs\n"
    "  tree LOG             a hand's decision points as a Graphviz tree (SVG)\n"
    "  review LOG           every decision evaluated; key decisions and accuracy\n"
    "\n"
    "options:\n"
    "  -h, --help           this help; `canasta <command> --help` for a command's\n"
    "  --version            the version\n"
    "\n"
    "Exit status: 0 no error found, 1 errors found, 2 the tool could not do its job.\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return canasta::kExitTrouble;
  }
  const std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::cout << kUsage;
    return canasta::kExitOk;
  }
  if (cmd == "--version" || cmd == "version") {
    std::cout << "canasta " << CANASTA_VERSION << "\n";
    return canasta::kExitOk;
  }
  try {
    if (cmd == "audit") return canasta::AuditCommand(rest);
    if (cmd == "rules") return canasta::RulesCommand(rest);
    if (cmd == "simulate") return canasta::SimulateCommand(rest);
    if (cmd == "tree") return canasta::TreeCommand(rest);
    if (cmd == "review") return canasta::ReviewCommand(rest);
  } catch (const std::exception& e) {
    std::cerr << "canasta: error: " << e.what() << "\n";
    return canasta::kExitTrouble;
  }
  std::cerr << "canasta: error: unknown command '" << cmd << "'\n\n" << kUsage;
  return canasta::kExitTrouble;
}
