#include "replay/simulate.h"

#include <stdexcept>

#include "core/game.h"
#include "replay/log_writer.h"

namespace canasta {
namespace {

void Emit(std::ostream& out, const std::string& line, SimulateStats* stats) {
  out << line << '\n';
  ++stats->events;
}

}  // namespace

uint64_t GameSeed(uint64_t seed, int index) {
  Rng rng(seed ^ (0xA24BAED4963EE407ull * uint64_t(index + 1)));
  return rng.Next();
}

SimulateStats SimulateGame(const RulesetChoice& ruleset, uint64_t seed,
                           const SimulateOptions& options, std::ostream& out) {
  const Rules& r = ruleset.rules;
  Rng rng(seed);
  std::vector<std::unique_ptr<Bot>> bots;
  std::vector<std::string> names;
  static const char* kNames[] = {"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"};
  for (int s = 0; s < r.num_players; ++s) {
    const std::string& kind = options.bots[size_t(s) % options.bots.size()];
    bots.push_back(MakeBot(kind));
    if (!bots.back()) throw std::invalid_argument("unknown bot \"" + kind + "\"");
    names.push_back(kNames[s % 6]);
  }
  SimulateStats stats;
  Emit(out,
       GameLine(options.header_ruleset.empty() ? ruleset.name : options.header_ruleset, names),
       &stats);
  Game game(r, *ruleset.hooks);
  int dealer = 0;
  bool meddled = false;  // after an injected mistake the engine may refuse moves
  while (!game.over() && stats.deals < options.max_deals) {
    const int hand = stats.deals + 1;
    DealMove deal = ShuffledDeal(r, dealer, rng);
    TaggedViolations v = game.StartDeal(hand, deal);
    if (!v.empty()) throw std::logic_error("deal refused: " + v[0].violation.message);
    Emit(out, DealLine(hand, deal), &stats);
    Position& pos = *game.position();
    for (int guard = 0; guard < 5000; ++guard) {
      if (pos.phase() == Phase::kOver && DueThrees(pos, pos.current_player()).empty()) break;
      if (options.meddle && pos.phase() != Phase::kOver) {
        std::vector<Move> forced = options.meddle(pos, stats.events + 1);
        if (!forced.empty()) {
          for (const Move& m : forced) {
            pos.Play(m);
            Emit(out, MoveLine(m), &stats);
          }
          meddled = true;
          continue;
        }
      }
      // With the stock gone, a player who may refuse the pile ends the deal.
      const bool may_end = pos.stock_size() == 0 && pos.phase() != Phase::kPlay && MayEndDeal(pos);
      // A bot that picks uniformly has its move drawn (core/legal_moves.h).
      // (Where none is legal, on to the list below: it says why.)
      std::vector<Move> legal(1);
      const bool drawn = !may_end && bots[size_t(pos.current_player())]->uniform() &&
                         SampleLegalMove(pos, rng, &legal[0]);
      if (!drawn) legal = LegalMoves(pos);
      if (may_end) {
        bool three = !legal.empty() && std::holds_alternative<ThreeMove>(legal[0]);
        if (!three) break;
      }
      if (legal.empty() && meddled) {
        // The injected mistake left no legal way on: play on as a careless
        // player would (draw, or discard the first card).
        if (pos.phase() == Phase::kPlay && !pos.hand(pos.current_player()).empty())
          legal.push_back(DiscardMove{pos.current_player(),
                                      pos.hand(pos.current_player()).ToVector()[0], 0});
        else if (pos.phase() != Phase::kPlay && pos.stock_size() > 0)
          legal.push_back(DrawMove{pos.current_player(),
                                   pos.StockTop(std::min(r.stock_draw, pos.stock_size())), 0});
        else
          break;
      }
      if (legal.empty())
        throw std::logic_error("no legal move and the deal cannot end (seat " +
                               std::to_string(pos.current_player()) + " holds " +
                               ToString(pos.hand(pos.current_player()).ToVector()) +
                               ", phase " + std::to_string(int(pos.phase())) + ", stock " +
                               std::to_string(pos.stock_size()) + ", pile " +
                               ToString(pos.pile()) + ", side's melds" + [&] {
                                 std::string m;
                                 for (const Meld& x : pos.melds(pos.side_of(pos.current_player())))
                                   m += " [" + ToString(x.cards) + "]";
                                 return m;
                               }() + (pos.turn_opening() ? ", opening" : "") +
                               (pos.Check(DiscardMove{pos.current_player(),
                                                      pos.hand(pos.current_player()).ToVector().front(), 0})
                                        .empty()
                                    ? ""
                                    : ", a discard: " +
                                          pos.Check(DiscardMove{pos.current_player(),
                                                                pos.hand(pos.current_player())
                                                                    .ToVector()
                                                                    .front(),
                                                                0})
                                              .front()
                                              .violation.message) +
                               ")");
      size_t pick = 0;
      if (!drawn && !std::holds_alternative<ThreeMove>(legal[0]) &&
          !std::holds_alternative<FootMove>(legal[0])) {
        const int seat = pos.current_player();
        pick = bots[size_t(seat)]->Choose(SeatView(pos, seat), legal, rng);
      }
      const Move& move = legal[pick];
      TaggedViolations mv = pos.Play(move);
      if (!mv.empty() && !meddled)
        throw std::logic_error("move refused (" + MoveLine(move) + "): " + mv[0].violation.message);
      Emit(out, MoveLine(move), &stats);
    }
    TaggedViolations end = pos.End(0);
    if (!end.empty() && !meddled) throw std::logic_error("deal end refused: " + end[0].violation.message);
    std::vector<ScoreBreakdown> parts = game.FinishDeal();
    Emit(out, EndHandLine(hand, parts, game.totals()), &stats);
    ++stats.deals;
    dealer = r.DealerAfter(dealer);
  }
  stats.finished = game.over();
  Emit(out, EndGameLine(game.totals(), game.winner()), &stats);
  return stats;
}

}  // namespace canasta
