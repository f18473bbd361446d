// `canasta simulate`: bots play complete games; each is written to its own
// file, the same seed giving the same bytes.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "cli/commands.h"
#include "replay/simulate.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace canasta {

int SimulateCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string rules = "classic", out_dir, bots = "sensible";
  int games = 1;
  uint64_t seed = 1;
  opts.add_options()("help,h", "this help")(
      "rules,r", po::value(&rules)->default_value("classic"), "ruleset: built-in name or Lua file")(
      "games,n", po::value(&games)->default_value(1), "games to play")(
      "seed,s", po::value(&seed)->default_value(1), "seed: the same seed gives the same games")(
      "out,o", po::value(&out_dir), "directory for the logs (game-0001.jsonl, ...); stdout if absent")(
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
  if (games < 1) {
    std::cerr << "canasta simulate: error: --games must be at least 1\n";
    return kExitTrouble;
  }
  RulesetChoice choice;
  std::string error;
  if (!ResolveUserRuleset(rules, &choice, &error)) {
    std::cerr << "canasta simulate: error: " << error << "\n";
    return kExitTrouble;
  }
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
  if (!out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) {
      std::cerr << "canasta simulate: error: cannot create '" << out_dir << "': " << ec.message()
                << "\n";
      return kExitTrouble;
    }
  }
  for (int i = 0; i < games; ++i) {
    std::ostringstream buf;
    SimulateStats stats = SimulateGame(choice, GameSeed(seed, i), options, buf);
    (void)stats;
    if (out_dir.empty()) {
      std::cout << buf.str();
      continue;
    }
    char name[32];
    std::snprintf(name, sizeof name, "game-%04d.jsonl", i + 1);
    std::ofstream f(fs::path(out_dir) / name, std::ios::binary);
    f << buf.str();
    if (!f) {
      std::cerr << "canasta simulate: error: cannot write " << (fs::path(out_dir) / name) << "\n";
      return kExitTrouble;
    }
  }
  return kExitOk;
}

}  // namespace canasta
