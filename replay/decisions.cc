#include "replay/decisions.h"

#include <memory>

#include "core/game.h"
#include "core/legal_moves.h"
#include "replay/log_reader.h"
#include "replay/moves.h"

namespace canasta {
namespace {

std::string MeldWords(const MeldMove& m) {
  std::string s;
  for (const MeldPart& p : m.parts) {
    if (!s.empty()) s += ", ";
    s += p.to ? "added " + ToString(p.cards) + " to the " + ToString(*p.to) + "s"
              : "melded " + ToString(p.cards);
  }
  return s;
}

std::string Words(const Move& move, int pile_size) {
  return std::visit(
      [pile_size](const auto& m) -> std::string {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, DrawMove>) {
          return "drew from the stock";
        } else if constexpr (std::is_same_v<T, TakePileMove>) {
          return "took the pile (" + std::to_string(pile_size) + " cards) " +
                 (m.with.empty() ? "onto the " + ToString(m.top.rank()) + "s"
                                 : "with " + ToString(m.with));
        } else if constexpr (std::is_same_v<T, MeldMove>) {
          return MeldWords(m);
        } else if constexpr (std::is_same_v<T, DiscardMove>) {
          return "discarded " + ToString(m.card);
        } else if constexpr (std::is_same_v<T, ThreeMove>) {
          return "laid out " + ToString(m.card);
        } else {
          return "";
        }
      },
      move);
}

bool EmptiesHand(const Position& pos, const Move& m) {
  const int held = pos.hand(pos.current_player()).total();
  if (std::holds_alternative<DiscardMove>(m)) return held == 1;
  if (auto* x = std::get_if<MeldMove>(&m)) {
    int n = 0;
    for (const MeldPart& p : x->parts) n += int(p.cards.size());
    return n == held;
  }
  return false;
}

}  // namespace

bool CollectDecisions(std::istream& in, int game, int hand, const AuditOptions& options,
                      HandDecisions* out, std::string* error) {
  LogReader reader(in);
  Event e;
  int games = 0;
  RulesetChoice choice;
  std::unique_ptr<Game> g;
  bool target = false, found_hand = false;
  int turn = 0, turn_seat = -1;
  Decision play;  // the play phase being collected
  bool play_open = false;
  bool could_go_out = false;
  auto close_play = [&]() {
    if (!play_open) return;
    // What was played is not an alternative.
    std::vector<std::string> alternatives;
    for (const std::string& a : play.alternatives) {
      const std::string prefix = "could have ";
      if (a.rfind(prefix, 0) == 0 && play.chosen.find(a.substr(prefix.size())) != std::string::npos)
        continue;
      alternatives.push_back(a);
    }
    play.alternatives = std::move(alternatives);
    if (could_go_out && play.chosen.find("went out") == std::string::npos) {
      play.key = true;
      play.why_key = "could have gone out";
    }
    out->decisions.push_back(play);
    play_open = false;
  };
  while (reader.Next(&e, nullptr)) {
    if (e.type == EventType::kGame) {
      if (++games > game) break;
      if (games < game || !e.ok) continue;
      const std::string wanted = !options.forced_ruleset.empty() ? options.forced_ruleset
                                 : e.ruleset.empty()             ? "classic"
                                                                 : e.ruleset;
      const RulesetResolver& resolve =
          options.resolve ? options.resolve : RulesetResolver(ResolveClassicOnly);
      if (!resolve(wanted, "", &choice, error)) return false;
      g = std::make_unique<Game>(choice.rules, *choice.hooks);
      out->ruleset = choice.name;
      out->players = e.players;
      out->game = game;
      out->hand = hand;
      continue;
    }
    if (games != game || !g || !e.ok) continue;
    if (e.type == EventType::kDeal) {
      if (target) break;
      DealMove d{*e.dealer, e.hands, e.upcard, e.stock, e.line};
      g->StartDeal(*e.hand, d);
      target = *e.hand == hand;
      found_hand |= target;
      continue;
    }
    if (e.type == EventType::kEndHand) {
      if (!g->position()) continue;
      g->position()->End(e.line);
      std::vector<ScoreBreakdown> parts = g->FinishDeal();
      if (target) {
        close_play();
        for (const ScoreBreakdown& b : parts) out->scores.push_back(b.total());
        break;
      }
      continue;
    }
    std::optional<Move> move = ToMove(e, nullptr);
    if (!move || !g->position()) continue;
    Position& pos = *g->position();
    if (!target) {
      pos.Apply(*move);
      continue;
    }
    const int seat = *e.player;
    const bool drawing = std::holds_alternative<DrawMove>(*move) ||
                         std::holds_alternative<TakePileMove>(*move);
    if (drawing || seat != turn_seat) {
      close_play();
      if (drawing) {
        ++turn;
        turn_seat = seat;
      }
    }
    auto name = [&](int s) {
      return s < int(out->players.size()) ? out->players[s] : "seat " + std::to_string(s);
    };
    if (drawing) {
      Decision d;
      d.line = e.line;
      d.seat = seat;
      d.player = name(seat);
      d.turn = turn;
      d.phase = "draw";
      const int pile = int(pos.pile().size());
      d.chosen = Words(*move, pile);
      bool could_take = false;
      if (pos.stock_size() > 0 && !std::holds_alternative<DrawMove>(*move))
        d.alternatives.push_back("draw from the stock");
      for (const Move& m : LegalMoves(pos)) {
        if (!std::holds_alternative<TakePileMove>(m)) continue;
        could_take = true;
        if (!std::holds_alternative<TakePileMove>(*move))
          d.alternatives.push_back("take the pile: " + Words(m, pile).substr(5));
      }
      if (could_take && std::holds_alternative<DrawMove>(*move) && pile >= 3) {
        d.key = true;
        d.why_key = "left a pile of " + std::to_string(pile) + " cards";
      }
      // Fed by the previous discard: mark it.
      if (std::holds_alternative<TakePileMove>(*move) && !out->decisions.empty() &&
          out->decisions.back().phase == "play" && !out->decisions.back().key) {
        out->decisions.back().key = true;
        out->decisions.back().why_key =
            "the next player took the pile (" + std::to_string(pile) + " cards)";
      }
      out->decisions.push_back(std::move(d));
    } else if (pos.phase() == Phase::kPlay && seat == pos.current_player()) {
      if (!play_open) {
        play = Decision();
        play.line = e.line;
        play.seat = seat;
        play.player = name(seat);
        play.turn = turn;
        play.phase = "play";
        play_open = true;
        could_go_out = false;
        // What the play phase offered when it began.
        int melds = 0;
        for (const Move& m : LegalMoves(pos)) {
          if (EmptiesHand(pos, m)) could_go_out = true;
          if (auto* x = std::get_if<MeldMove>(&m)) {
            if (melds++ < 3) play.alternatives.push_back("could have " + MeldWords(*x));
          }
        }
        if (melds > 3)
          play.alternatives.push_back("and " + std::to_string(melds - 3) + " other meld(s)");
        if (could_go_out) play.alternatives.push_back("could have gone out");
      }
      if (auto* d = std::get_if<DiscardMove>(&*move)) {
        std::string others;
        int n = 0;
        for (const Move& m : LegalMoves(pos)) {
          auto* o = std::get_if<DiscardMove>(&m);
          if (!o || o->card == d->card) continue;
          if (n++ < 8) others += (others.empty() ? "" : " ") + ToString(o->card);
        }
        if (n) play.alternatives.push_back("other discards: " + others + (n > 8 ? " ..." : ""));
      }
      std::string words = Words(*move, int(pos.pile().size()));
      if (!words.empty()) play.chosen += (play.chosen.empty() ? "" : "; ") + words;
      play.line = e.line;
      pos.Apply(*move);
      if (pos.phase() == Phase::kOver && pos.went_out() == seat) play.chosen += "; went out";
      continue;
    }
    pos.Apply(*move);
  }
  if (!found_hand) {
    *error = games < game ? "the log has " + std::to_string(games) + " game(s)"
                          : "game " + std::to_string(game) + " has no hand " +
                                std::to_string(hand);
    return false;
  }
  close_play();
  return true;
}

}  // namespace canasta
