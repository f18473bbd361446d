// `canasta simulate`: bots play complete games; each is written to its own
// file, the same seed giving the same bytes.
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "lint/format.h"
#include "replay/driver.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace canasta {
namespace {

bool Inside(const fs::path& path, const fs::path& dir) {
  auto [d, p] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
  (void)p;
  return d == dir.end();
}

// Makes the ruleset files of `ruleset` (a file and what it extends, not the
// built-ins) reachable from logs in `out_dir` as a log may name them
// (docs/log-format.md, "Ruleset resolution"): files already below `out_dir`
// stay; others are copied to out_dir/ruleset/, keeping their layout relative
// to their common folder so that relative `extends` still work. Returns the
// name the header gives (relative to out_dir) and lists what was written.
bool PlaceRulesetFiles(const Ruleset& ruleset, const fs::path& out_dir, std::string* header,
                       std::vector<std::string>* written, std::string* error) {
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(out_dir, ec);
  std::vector<fs::path> files;
  for (const Ruleset::Link& link : ruleset.chain())
    if (!link.builtin) files.push_back(fs::weakly_canonical(link.file, ec));
  if (files.empty()) {
    *header = ruleset.name();
    return true;
  }
  const fs::path leaf = files.back();
  bool all_inside = true;
  for (const fs::path& f : files) all_inside &= Inside(f, dir);
  if (all_inside) {
    *header = fs::relative(leaf, dir, ec).generic_string();
    return true;
  }
  fs::path common = files.front().parent_path();
  for (const fs::path& f : files)
    while (!Inside(f, common)) common = common.parent_path();
  for (const fs::path& f : files) {
    const fs::path rel = fs::relative(f, common, ec);
    const fs::path to = out_dir / "ruleset" / rel;
    fs::create_directories(to.parent_path(), ec);
    if (!ec) fs::copy_file(f, to, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      *error = "cannot copy " + f.string() + " to " + to.string() + ": " + ec.message();
      return false;
    }
    written->push_back(to.string());
    if (f == leaf) *header = ("ruleset" / rel).generic_string();
  }
  return true;
}

std::string NameOf(int game) {
  char name[32];
  std::snprintf(name, sizeof name, "game-%04d.jsonl", game);
  return name;
}

}  // namespace

int SimulateCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string rules = "classic", out_dir, bots = "sensible";
  int games = 1;
  uint64_t seed = 1;
  opts.add_options()("help,h", "this help")("rules,r", po::value(&rules)->default_value("classic"),
                                            "ruleset: built-in name or Lua file")(
      "games,n", po::value(&games)->default_value(1), "games to play")(
      "seed,s", po::value(&seed)->default_value(1), "seed: the same seed gives the same games")(
      "out,o", po::value(&out_dir),
      "directory for the logs (game-0001.jsonl, ...); stdout if absent")(
      "bots,b", po::value(&bots)->default_value("sensible"),
      "bot per seat, comma-separated, repeated as needed: random, sensible");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "canasta simulate: error: " << e.what() << "\n\n" << opts;
    return kExitTrouble;
  }
  if (vm.count("help")) {
    std::cout << "usage: canasta simulate [options]\n\nBots play complete games to the "
                 "target score and write them as canasta-log/1,\nwith the stock recorded and "
                 "the true scores.\n\n"
              << opts;
    return kExitOk;
  }
  if (!CheckRanges("simulate", vm, {{"games", games, 1}})) return kExitTrouble;
  RulesetChoice choice;
  std::string error;
  if (!ResolveUserRuleset(rules, &choice, &error)) {
    std::cerr << "canasta simulate: error: " << error << "\n";
    return kExitTrouble;
  }
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(rules);
  if (auto* e = std::get_if<LuaError>(&loaded)) {
    std::cerr << "canasta simulate: error: " << e->ToString() << "\n";
    return kExitTrouble;
  }
  const Ruleset& ruleset = std::get<Ruleset>(loaded);
  SimulateOptions options;
  options.bots.clear();
  std::stringstream list(bots);
  for (std::string b; std::getline(list, b, ',');) {
    if (!MakeBot(b)) {
      std::cerr << "canasta simulate: error: unknown bot '" << b << "' (random, sensible)\n";
      return kExitTrouble;
    }
    options.bots.push_back(b);
  }
  if (options.bots.empty()) options.bots = {"sensible"};
  if (int(options.bots.size()) > choice.rules.num_players) {
    std::cerr << "canasta simulate: error: --bots names " << options.bots.size()
              << " bots; ruleset \"" << choice.name << "\" has " << choice.rules.num_players
              << " seats\n";
    return kExitTrouble;
  }
  std::vector<std::string> written;  // ruleset files placed beside the logs
  if (!out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) {
      std::cerr << "canasta simulate: error: cannot create '" << out_dir << "': " << ec.message()
                << "\n";
      return kExitTrouble;
    }
    if (!PlaceRulesetFiles(ruleset, out_dir, &options.header_ruleset, &written, &error)) {
      std::cerr << "canasta simulate: error: " << error << "\n";
      return kExitTrouble;
    }
    // The logs must audit without --rules: check that they can name it.
    RulesetChoice probe;
    if (!ResolveLogRuleset(options.header_ruleset, (fs::path(out_dir) / "game-0001.jsonl").string(),
                           RulesetPolicy{}, &probe, &error)) {
      std::cerr << "canasta simulate: warning: the logs name ruleset \"" << options.header_ruleset
                << "\", which `canasta audit` will refuse (" << error
                << "); audit them with --rules " << rules << "\n";
    }
  } else if (!ruleset.builtin()) {
    options.header_ruleset = rules;  // as given: relative to where the user runs
  }
  for (int i = 0; i < games; ++i) {
    std::ostringstream buf;
    // Each game its own hooks, as the audit gives each game: a Lua state's
    // budget is a game's (docs/lua-api.md, "The sandbox").
    const RulesetChoice game_choice = i == 0 ? choice : ruleset.Choose();
    SimulateStats stats = SimulateGame(game_choice, GameSeed(seed, i), options, buf);
    (void)stats;
    // The bots played the engine's answer where a hook failed: say so.
    for (const HookFailure& f : game_choice.hooks->TakeFailures()) {
      std::cerr << "canasta simulate: warning: game " << i + 1 << ": "
                << Printable(HookFailureLine(f, "", "the engine's default answer was used"))
                << "\n";
    }
    if (out_dir.empty()) {
      std::cout << buf.str();
      if (!std::cout) return kExitTrouble;  // main() prints why (a full disk, a closed stdout)
      continue;
    }
    const std::string name = NameOf(i + 1);
    Output file((fs::path(out_dir) / name).string());
    if (!file.Open({}, &error) || !(file.stream() << buf.str()) || !file.Commit(&error)) {
      if (error.empty()) file.Commit(&error);
      std::cerr << "canasta simulate: error: " << error << "\n";
      return kExitTrouble;
    }
  }
  if (!out_dir.empty()) {
    std::cerr << "wrote " << games << " log(s) to " << out_dir << "/ (game-0001.jsonl"
              << (games > 1 ? " to " + std::string(NameOf(games)) : std::string()) << ")";
    if (!written.empty()) {
      std::cerr << " and the ruleset file(s)";
      for (const std::string& w : written) std::cerr << " " << w;
    }
    std::cerr << "; ruleset \"" << options.header_ruleset << "\"\n";
  }
  return kExitOk;
}

}  // namespace canasta
