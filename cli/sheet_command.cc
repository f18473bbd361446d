// `canasta sheet import FILE.csv [-o LOG]`: a spreadsheet's score sheet as a
// canasta-log/1 sheet log; `canasta sheet export LOG [-o FILE.csv]`: the
// computed score sheet of any log as CSV (docs/sheets.md).
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "lint/format.h"
#include "replay/sheet_csv.h"

namespace po = boost::program_options;

namespace canasta {
namespace {

constexpr char kSheetUsage[] =
    "usage: canasta sheet import [options] FILE.csv   (writes a canasta-log/1 sheet log)\n"
    "       canasta sheet export [options] LOG        (writes the computed score sheet as CSV)\n"
    "\n"
    "A score sheet has one row per hand and side; its header names the columns:\n"
    "Hand, Side (or Team), Canastas, Red 3s, Going out, Melded, In hand, Penalties,\n"
    "Score, Total (docs/sheets.md). `canasta audit` checks the log import writes.\n";

// An error of the command: its message on stderr, exit 2.
int Trouble(const std::string& message) {
  std::cerr << "canasta sheet: error: " << message << "\n";
  return kExitTrouble;
}

// The findings go where the output does not: stderr when it is stdout.
std::ostream& FindingsStream(const std::string& output) {
  return output.empty() || output == "-" ? std::cerr : std::cout;
}

int Import(const std::string& path, const std::string& output, const std::string& rules,
           const std::string& players_list) {
  std::ifstream in;
  if (std::string reason; !OpenInput(path, &in, &reason))
    return Trouble("cannot read '" + path + "': " + reason);
  RulesetChoice choice;
  std::string error;
  if (!ResolveUserRuleset(rules.empty() ? "classic" : rules, &choice, &error))
    return Trouble(error);
  SheetImportOptions options;
  options.ruleset = rules;
  options.num_players = choice.rules.num_players;
  if (!players_list.empty()) {
    std::stringstream names(players_list);
    for (std::string name; std::getline(names, name, ',');) options.players.push_back(name);
    if (int(options.players.size()) != options.num_players)
      return Trouble("--players names " + std::to_string(options.players.size()) +
                     " player(s); ruleset \"" + rules + "\" is for " +
                     std::to_string(options.num_players));
  }
  // The output is opened (and refused when it is the input) before the CSV
  // is read; it replaces its file only once complete (cli/output.h).
  Output out(output);
  if (!out.Open({path}, &error)) return Trouble(error);
  const SheetImport imported = ImportSheetCsv(in, path, options);
  // What goes to the terminal is gathered first: one write, not one a token
  // (a sheet may have thousands of bad cells).
  std::ostringstream notes;
  for (const std::string& column : imported.ignored)
    notes << "canasta sheet: column \"" << column
          << "\" is not a part of the score; it is left out\n";
  std::cerr << notes.str();
  out.stream() << imported.log;
  if (!out.Commit(&error)) return Trouble(error);
  std::ostringstream report;
  WriteTextFile(report, imported.report, TextOptions{});
  FindingsStream(output) << report.str();
  return imported.report.findings.empty() ? kExitOk : kExitFindings;
}

int Export(const std::string& path, const std::string& output, const std::string& rules) {
  std::ifstream in;
  if (std::string reason; !OpenInput(path, &in, &reason))
    return Trouble("cannot read '" + path + "': " + reason);
  if (!rules.empty()) {
    RulesetChoice probe;
    std::string error;
    if (!ResolveUserRuleset(rules, &probe, &error)) return Trouble(error);
  }
  // Opened before the log is read: `-o LOG LOG` is refused, never truncates it.
  Output out(output);
  std::string error;
  if (!out.Open({path}, &error)) return Trouble(error);
  AuditOptions options;
  options.forced_ruleset = rules;
  options.resolve = CommandLineResolver(rules, {}, path);
  // The sheet is small (a row per hand and side): kept until it is known
  // to have a game.
  std::ostringstream sheet;
  FileReport report = ExportSheetCsv(in, path, options, sheet);
  // A file with no game in it (empty, not a log) has no sheet: an empty one
  // is no success, so the reason is printed, as `canasta audit` does, and
  // nothing is written.
  if (report.games.empty()) {
    if (report.findings.empty())
      report.findings.push_back(
          Finding{0,
                  CheckId::kLogNotCanastaLog,
                  "this file is empty: there is no canasta-log/1 game to export",
                  {}});
    std::ostringstream text;
    WriteTextFile(text, report, TextOptions{});
    FindingsStream(output) << text.str();
    return kExitFindings;
  }
  out.stream() << sheet.str();
  if (!out.Commit(&error)) return Trouble(error);
  // The sheet is the computed one whatever the log's findings; `canasta
  // audit` reports them.
  return kExitOk;
}

}  // namespace

int SheetCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string output, rules, players;
  opts.add_options()("help,h", "this help")("output,o", po::value(&output),
                                            "write to this file instead of stdout")(
      "rules,r", po::value(&rules),
      "ruleset: a built-in name or a Lua file (import: written in the log's header, default "
      "classic; export: overrides the log's)")("players", po::value(&players),
                                               "import: the seat names, comma-separated");
  std::vector<std::string> words;
  po::variables_map vm;
  if (!ParseOptions(args, opts, "sheet", kSheetUsage, &words, &vm)) return kExitTrouble;
  if (vm.count("help")) {
    std::cout << kSheetUsage << "\n" << opts;
    return kExitOk;
  }
  if (words.size() != 2 || (words[0] != "import" && words[0] != "export")) {
    std::cerr << "canasta sheet: error: expected `import FILE.csv` or `export LOG`\n\n"
              << kSheetUsage << opts;
    return kExitTrouble;
  }
  if (words[0] == "import")
    return Import(words[1], output, rules.empty() ? "classic" : rules, players);
  return Export(words[1], output, rules);
}

}  // namespace canasta
