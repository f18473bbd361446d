// Self-play: bots play complete games under a ruleset and the games are
// written as canasta-log/1, with the stock recorded and the true scores.
#ifndef CANASTA_REPLAY_SIMULATE_H_
#define CANASTA_REPLAY_SIMULATE_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/bots.h"
#include "replay/auditor.h"

namespace canasta {

struct SimulateOptions {
  std::vector<std::string> bots = {"sensible"};  // by seat, repeated as needed
  int max_deals = 400;
  // What the header's "ruleset" names (e.g. "ruleset/house.lua", a copy
  // beside the logs); empty: the ruleset's name.
  std::string header_ruleset;  // a safety stop for games that never reach the target
  // The fault injector's hook: called before each move with the position and
  // the line the next event will have. Moves it returns are played instead
  // of the bot's, as recorded, whatever the rules say; from then on the game
  // goes on from the position they leave.
  std::function<std::vector<Move>(const Position&, int next_line)> meddle;
};

struct SimulateStats {
  int deals = 0;
  int events = 0;
  bool finished = false;  // reached the target
};

// Plays one game from `seed` and writes it to `out`. Throws std::logic_error
// if the engine ever refuses a move its own generator proposed.
SimulateStats SimulateGame(const RulesetChoice& ruleset, uint64_t seed,
                           const SimulateOptions& options, std::ostream& out);

// Seed of game `index` of a run started with `seed`.
uint64_t GameSeed(uint64_t seed, int index);

}  // namespace canasta

#endif  // CANASTA_REPLAY_SIMULATE_H_
