#include "replay/decisions.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "core/legal_moves.h"
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
        } else if constexpr (std::is_same_v<T, SpecialHandMove>) {
          return "laid down a special hand (" + ToString(m.cards) + ")";
        } else if constexpr (std::is_same_v<T, FootMove>) {
          return "picked up the foot";
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

// The same meld part: the same target or declared rank and the same cards,
// in any order.
bool SamePart(const MeldPart& a, const MeldPart& b) {
  if (a.to != b.to || a.as != b.as || a.cards.size() != b.cards.size()) return false;
  std::vector<Card> x = a.cards, y = b.cards;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

// What the player in turn saw of the pile, and why it was frozen.
void SeePile(const Position& pos, int seat, Decision* d) {
  const std::vector<Card>& pile = pos.pile();
  d->hand = pos.hand(seat).ToVector();
  d->pile_size = int(pile.size());
  d->pile_top.reset();
  d->pile_state.clear();
  if (pile.empty()) return;
  d->pile_top = pile.back();
  for (Card c : pile) {
    if (c.is_wild() || c.is_red_three()) {
      d->pile_state = "frozen by " + ToString(c);  // 000 §14
      return;
    }
  }
  if (pos.IsPileFrozenFor(pos.side_of(seat))) {
    d->pile_state = "frozen until the side melds";
  } else if (pile.back().is_black_three()) {
    d->pile_state = "blocked by " + ToString(pile.back()) + " on top";
  }
}

}  // namespace

DecisionCollector::DecisionCollector(ReplayDriver* driver, int game, int hand)
    : driver_(driver), want_game_(game), want_hand_(hand) {}

void DecisionCollector::OnGameStart(const GameReport& game, const RulesetChoice* ruleset) {
  in_game_ = false;
  ++games_;
  if (want_game_ && games_ > want_game_) {
    if (driver_) driver_->Stop();
    return;
  }
  if (want_game_ && games_ < want_game_) return;
  if (!ruleset) {
    // Not replayed: the reason is the game's last finding.
    if (!driver_) return;
    error_ = game.findings.empty() ? "game " + std::to_string(want_game_) + " cannot be replayed"
                                   : game.findings.back().message;
    return driver_->Stop();
  }
  in_game_ = true;
  ruleset_ = ruleset->name;
  players_ = game.players;
}

void DecisionCollector::OnHandStart(const Event& deal, const Position&) {
  target_ = false;
  if (!in_game_) return;
  target_ = !want_hand_ || *deal.hand == want_hand_;
  if (!target_) return;
  found_hand_ = true;
  done_ = false;
  play_open_ = false;
  turn_ = 0;
  turn_seat_ = -1;
  HandDecisions h;
  h.ruleset = ruleset_;
  h.players = players_;
  h.game = games_;
  h.hand = *deal.hand;
  hands_.push_back(std::move(h));
  out_ = &hands_.back();
}

void DecisionCollector::OnStateLost(int line, const std::string& why) {
  if (in_game_ && !target_ && !found_hand_ && lost_before_.empty())
    lost_before_ = "line " + std::to_string(line) + ": " + why;
  if (!in_game_ || !target_) return;
  if (!driver_) {  // every hand: this one ends here
    ClosePlay();
    target_ = false;
    return;
  }
  error_ = "line " + std::to_string(line) + ": " + why + " (the replay cannot follow hand " +
           std::to_string(want_hand_) + " from there)";
  driver_->Stop();
}

void DecisionCollector::OnHandEnd(const HandReport& hand, const Event* end_hand, const Position*) {
  if (!in_game_ || !target_) return;
  ClosePlay();
  if (end_hand) out_->scores = hand.scores;
  done_ = true;
  target_ = false;
  if (driver_) driver_->Stop();
}

void DecisionCollector::BeforeMove(const Event& e, const Position& pos) {
  if (!in_game_ || !target_) return;
  std::optional<Move> made = ToMove(e, nullptr);
  if (!made) return;
  move_ = std::move(*made);
  const Move& move = move_;
  const int seat = *e.player;
  const bool drawing =
      std::holds_alternative<DrawMove>(move) || std::holds_alternative<TakePileMove>(move);
  tracking_play_ = false;
  if (drawing || seat != turn_seat_) {
    ClosePlay();
    if (drawing) {
      ++turn_;
      turn_seat_ = seat;
    }
  }
  if (drawing) return Draw(e, pos, move, seat);
  if (pos.phase() != Phase::kPlay || seat != pos.current_player()) return;
  if (!play_open_) OpenPlay(e, pos, seat);
  if (auto* d = std::get_if<DiscardMove>(&move)) {
    std::string others;
    int n = 0;
    for (const Move& m : LegalMoves(pos)) {
      auto* o = std::get_if<DiscardMove>(&m);
      if (!o || o->card == d->card) continue;
      if (n++ < 8) others += (others.empty() ? "" : " ") + ToString(o->card);
    }
    if (n) play_.alternatives.push_back("other discards: " + others + (n > 8 ? " ..." : ""));
  }
  if (auto* m = std::get_if<MeldMove>(&move))
    played_parts_.insert(played_parts_.end(), m->parts.begin(), m->parts.end());
  std::string words = Words(move, int(pos.pile().size()));
  if (!words.empty()) play_.chosen += (play_.chosen.empty() ? "" : "; ") + words;
  play_.line = e.line;
  tracking_play_ = true;
}

void DecisionCollector::AfterMove(const Event& e, const Position& pos, const TaggedViolations&) {
  if (!tracking_play_) return;
  tracking_play_ = false;
  if (pos.phase() == Phase::kOver && pos.went_out() == *e.player) {
    play_.chosen += "; went out";
    went_out_ = true;
  }
}

void DecisionCollector::Finish() {
  if (!done_) ClosePlay();
}

std::string DecisionCollector::Name(int s) const {
  return s < int(out_->players.size()) ? out_->players[size_t(s)] : "seat " + std::to_string(s);
}

// A decision of `phase` at event `e`, as the seat saw the table.
Decision DecisionCollector::Begin(const Event& e, const Position& pos, int seat,
                                  const char* phase) const {
  Decision d;
  d.line = d.first_line = e.line;
  d.seat = seat;
  d.player = Name(seat);
  d.turn = turn_;
  d.phase = phase;
  SeePile(pos, seat, &d);
  return d;
}

void DecisionCollector::Draw(const Event& e, const Position& pos, const Move& move, int seat) {
  Decision d = Begin(e, pos, seat, "draw");
  const int pile = int(pos.pile().size());
  d.chosen = Words(move, pile);
  bool could_take = false;
  if (pos.stock_size() > 0 && !std::holds_alternative<DrawMove>(move))
    d.alternatives.push_back("draw from the stock");
  for (const Move& m : LegalMoves(pos)) {
    if (!std::holds_alternative<TakePileMove>(m)) continue;
    could_take = true;
    if (!std::holds_alternative<TakePileMove>(move))
      d.alternatives.push_back("take the pile: " + Words(m, pile).substr(5));
  }
  if (could_take && std::holds_alternative<DrawMove>(move) && pile >= 3) {
    d.key = true;
    d.why_key = "left a pile of " + std::to_string(pile) + " cards";
  }
  // Fed by the previous discard: mark it.
  if (std::holds_alternative<TakePileMove>(move) && !out_->decisions.empty() &&
      out_->decisions.back().phase == "play" && !out_->decisions.back().key) {
    out_->decisions.back().key = true;
    out_->decisions.back().why_key =
        "the next player took the pile (" + std::to_string(pile) + " cards)";
  }
  out_->decisions.push_back(std::move(d));
}

// What the play phase offered when it began.
void DecisionCollector::OpenPlay(const Event& e, const Position& pos, int seat) {
  play_ = Begin(e, pos, seat, "play");
  play_open_ = true;
  could_go_out_ = went_out_ = false;
  alternative_melds_.clear();
  played_parts_.clear();
  int melds = 0;
  for (const Move& m : LegalMoves(pos)) {
    if (EmptiesHand(pos, m)) could_go_out_ = true;
    if (auto* x = std::get_if<MeldMove>(&m)) {
      if (melds++ < 3) {
        play_.alternatives.push_back("could have " + MeldWords(*x));
        alternative_melds_.emplace_back(play_.alternatives.size() - 1, *x);
      }
    }
  }
  if (melds > 3)
    play_.alternatives.push_back("and " + std::to_string(melds - 3) + " other meld(s)");
  if (could_go_out_) play_.alternatives.push_back("could have gone out");
}

void DecisionCollector::ClosePlay() {
  if (!play_open_) return;
  // What was played is not an alternative: a meld every part of which
  // was melded in this phase.
  std::vector<bool> drop(play_.alternatives.size(), false);
  for (const auto& [index, meld] : alternative_melds_) {
    bool all = !meld.parts.empty();
    for (const MeldPart& p : meld.parts) {
      bool seen = false;
      for (const MeldPart& q : played_parts_) seen |= SamePart(p, q);
      all &= seen;
    }
    drop[index] = all;
  }
  std::vector<std::string> alternatives;
  for (size_t i = 0; i < play_.alternatives.size(); ++i)
    if (!drop[i]) alternatives.push_back(std::move(play_.alternatives[i]));
  play_.alternatives = std::move(alternatives);
  if (could_go_out_ && !went_out_) {
    play_.key = true;
    play_.why_key = "could have gone out";
  }
  out_->decisions.push_back(play_);
  play_open_ = false;
}

bool CollectDecisions(std::istream& in, const std::string& file, int game, int hand,
                      const AuditOptions& options, HandDecisions* out, std::string* error,
                      const std::vector<ReplayObserver*>& extra) {
  AuditOptions o = options;
  o.max_findings = 0;  // the tree stops at its hand; findings are not its output
  ReplayDriver driver(o);
  DecisionCollector collector(&driver, game, hand);
  driver.AddObserver(&collector);
  for (ReplayObserver* observer : extra) driver.AddObserver(observer);
  driver.Run(in, file);
  if (!collector.error().empty()) {
    *error = collector.error();
    return false;
  }
  if (!collector.found_hand()) {
    *error = collector.games() < game
                 ? "the log has " + std::to_string(collector.games()) + " game(s)"
                 : "game " + std::to_string(game) + " has no hand " + std::to_string(hand) +
                       (collector.lost_before().empty()
                            ? std::string()
                            : " the replay could follow (" + collector.lost_before() + ")");
    return false;
  }
  collector.Finish();
  *out = std::move(collector.hands().back());
  return true;
}

}  // namespace canasta
