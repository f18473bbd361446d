#include "replay/inject.h"

#include <array>
#include <sstream>

#include "replay/driver.h"
#include "replay/log_writer.h"

namespace canasta {
namespace {

struct FaultSpec {
  const char* name;
  CheckId expected;
};

const FaultSpec kFaults[] = {
    {"card-not-held", CheckId::kCardNotHeld},
    {"stock-mismatch", CheckId::kStockMismatch},
    {"frozen-pile-no-pair", CheckId::kPileFrozenNeedsPair},
    {"too-many-wilds", CheckId::kMeldTooManyWilds},
    {"initial-meld-too-low", CheckId::kInitialMeldMinimum},
    {"out-without-canastas", CheckId::kOutWithoutCanastas},
    {"out-of-turn", CheckId::kTurnOrder},
    {"wrong-hand-score", CheckId::kScoreHand},
    {"wrong-total", CheckId::kScoreTotal},
    {"wrong-winner", CheckId::kGameWinner},
    {"truncated-file", CheckId::kLogBadJson},
    {"corrupted-line", CheckId::kLogBadJson},
    {"sequence-gap", CheckId::kSequenceNotConsecutive},
    {"sequence-mixed-suits", CheckId::kSequenceMixedSuits},
    {"sequence-too-many-wilds", CheckId::kSequenceTooManyWilds},
    {"foot-early", CheckId::kFootPickup},
};
static_assert(sizeof(kFaults) / sizeof(kFaults[0]) == size_t(FaultKind::kCount));

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string Unlines(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// Replaces the integer array after `"key":[` in a JSON line, entry `index`.
bool BumpArray(std::string* line, const std::string& key, size_t index, int delta) {
  size_t at = line->find("\"" + key + "\":[");
  if (at == std::string::npos) return false;
  size_t pos = at + key.size() + 4;
  for (size_t i = 0; i < index; ++i) {
    pos = line->find(',', pos);
    if (pos == std::string::npos) return false;
    ++pos;
  }
  size_t end = line->find_first_of(",]", pos);
  int value = std::stoi(line->substr(pos, end - pos));
  line->replace(pos, end - pos, std::to_string(value + delta));
  return true;
}

// A mistake of `kind` the player in turn could make now, or nothing.
std::vector<Move> Opportunity(FaultKind kind, const Position& pos) {
  const Rules& r = pos.rules();
  const int seat = pos.current_player();
  const int side = pos.side_of(seat);
  const CardCounts& hand = pos.hand(seat);
  const bool play = pos.phase() == Phase::kPlay && pos.drew_this_turn();
  // Not while bonus cards are due (001 L37): the draw then is theirs, and
  // any other would also be short of them (draw-count).
  const bool draw = pos.phase() == Phase::kDraw && pos.bonus_player() < 0;
  if (pos.phase() == Phase::kPlay) {
    if (RedThreesIn(hand) > 0) return {};  // red threes are laid out first
  }
  const RankGroups g = GroupByRank(hand);
  // A sequence laid by a side that has melded (not an initial meld as
  // well), keeping two cards (the discard is no going out).
  auto sequence = [&](std::vector<Card> cards) -> std::vector<Move> {
    if (!play || !r.sequence_melds || !pos.has_melded(side) ||
        hand.total() < int(cards.size()) + 2 || !hand.Contains(cards))
      return {};
    MeldPart part;
    part.sequence = true;
    part.cards = std::move(cards);
    return {MeldMove{seat, {part}, 0}};
  };
  // Naturals of `suit` held at pip p (the ace at 14), or Card().
  auto held = [&](int pip, Suit suit) {
    if (pip < 3 || pip > 14) return Card();
    const Card c(Rank(pip), suit);
    return hand.count(c) > 0 ? c : Card();
  };
  const Suit kSuits[] = {Suit::kSpades, Suit::kHearts, Suit::kDiamonds, Suit::kClubs};
  switch (kind) {
    case FaultKind::kSequenceGap: {
      // p, p+1 and a card beyond what the wild cards allowed could bridge.
      const int skip_to = r.sequence_max_wilds + 3;
      for (Suit suit : kSuits)
        for (int p = r.sequence_lowest; p + skip_to <= 14; ++p) {
          const Card a = held(p, suit), b = held(p + 1, suit), c = held(p + skip_to, suit);
          if (a.valid() && b.valid() && c.valid()) return sequence({a, b, c});
        }
      return {};
    }
    case FaultKind::kSequenceMixedSuits: {
      for (int p = r.sequence_lowest; p + 2 <= 14; ++p)
        for (Suit s1 : kSuits)
          for (Suit s2 : kSuits) {
            if (s1 == s2) continue;
            const Card a = held(p, s1), b = held(p + 1, s1), c = held(p + 2, s2);
            if (a.valid() && b.valid() && c.valid()) return sequence({a, b, c});
          }
      return {};
    }
    case FaultKind::kSequenceTooManyWilds: {
      const size_t wilds = size_t(r.sequence_max_wilds) + 1;
      if (g.wilds.size() < wilds) return {};
      for (Suit suit : kSuits)
        for (int p = r.sequence_lowest; p + 1 <= 14; ++p) {
          const Card a = held(p, suit), b = held(p + 1, suit);
          if (!a.valid() || !b.valid()) continue;
          std::vector<Card> cards = {a, b};
          cards.insert(cards.end(), g.wilds.begin(), g.wilds.begin() + long(wilds));
          return sequence(cards);
        }
      return {};
    }
    case FaultKind::kCardNotHeld: {
      // Not after a meld this turn: ending the turn there could leave an
      // initial meld short, a second mistake.
      if (!play || hand.total() < 3 || pos.turn_melded()) return {};
      for (Rank rank : kMeldRanks) {
        Card c(rank, Suit::kSpades);
        if (hand.count(c) == 0) return {DiscardMove{seat, c, 0}};
      }
      return {};
    }
    case FaultKind::kStockMismatch: {
      if (!draw || pos.stock_size() < r.stock_draw + 2) return {};
      std::vector<Card> top = pos.StockTop(r.stock_draw + 1);
      std::vector<Card> cards(top.begin(), top.begin() + r.stock_draw);
      if (top.back() == cards[0]) return {};
      cards[0] = top.back();
      return {DrawMove{seat, cards, 0}};
    }
    case FaultKind::kFrozenPileNoPair: {
      if (!draw || pos.pile().empty()) return {};
      const Card top = pos.pile().back();
      if (top.is_wild() || top.is_three() || !pos.IsPileFrozenFor(side)) return {};
      // A side that has melded: the take is not an initial meld as well.
      if (!pos.has_melded(side)) return {};
      const auto& nat = g.naturals[int(top.rank())];
      if (nat.size() != 1 || g.wilds.empty()) return {};
      return {TakePileMove{seat, top, {nat[0], g.wilds[0]}, {}, {}, 0}};
    }
    case FaultKind::kTooManyWilds: {
      // Two naturals and as few wild cards as break the ruleset's limits.
      const size_t wilds =
          r.naturals_must_outnumber_wilds ? 2 : size_t(r.max_wilds_incomplete) + 1;
      // Two cards left after it: the next discard must not be a forced going out.
      if (!play || hand.total() < int(wilds) + 4 || g.wilds.size() < wilds) return {};
      if (!pos.has_melded(side)) return {};  // not an initial meld as well
      for (Rank rank : kMeldRanks) {
        const auto& nat = g.naturals[int(rank)];
        bool exists = false;
        for (const Meld& m : pos.melds(side)) exists |= m.rank == rank;
        if (exists || nat.size() != 2) continue;
        std::vector<Card> cards = {nat[0], nat[1]};
        cards.insert(cards.end(), g.wilds.begin(), g.wilds.begin() + long(wilds));
        return {MeldMove{seat, {MeldPart{{}, {}, cards}}, 0}};
      }
      return {};
    }
    case FaultKind::kInitialMeldTooLow: {
      if (!play || pos.has_melded(side) || pos.turn_melded() || hand.total() < 6) return {};
      for (Rank rank : kMeldRanks) {
        const auto& nat = g.naturals[int(rank)];
        if (nat.size() < 3) continue;
        int count = 0;
        for (Card c : nat) count += r.value(c);
        if (count >= pos.Minimum(side)) continue;
        // Meld it, then end the turn at once with a harmless discard.
        for (Card d : hand.ToVector()) {
          if (d.rank() != Rank(rank) && !d.is_wild() && !d.is_red_three())
            return {MeldMove{seat, {MeldPart{{}, {}, nat}}, 0}, DiscardMove{seat, d, 0}};
        }
      }
      return {};
    }
    case FaultKind::kOutWithoutCanastas: {
      if (!play || pos.CanastaCount(side) >= r.canastas_to_go_out) return {};
      if (!pos.has_melded(side) || hand.total() > 4) return {};
      // Add every card but one to the side's melds, then discard the last.
      MeldMove m{seat, {}, 0};
      std::vector<Card> rest;
      std::array<int, 16> added{};
      for (Card c : hand.ToVector()) {
        bool fits = false;
        for (const Meld& x : pos.melds(side))
          fits |= !c.is_wild() && x.rank == c.rank() && !x.cards.empty() &&
                  // not past max_meld_size (001 L23): that is another mistake
                  (r.max_meld_size <= 0 || x.size() + added[size_t(c.rank())] < r.max_meld_size);
        if (fits) {
          m.parts.push_back(MeldPart{c.rank(), {}, {c}});
          ++added[size_t(c.rank())];
        } else {
          rest.push_back(c);
        }
      }
      if (rest.size() != 1) return {};
      if (!m.parts.empty()) {
        Position after = pos;  // the additions must not complete a canasta
        after.Apply(m);
        if (after.CanastaCount(side) >= r.canastas_to_go_out) return {};
      }
      std::vector<Move> out;
      if (!m.parts.empty()) out.push_back(m);
      out.push_back(DiscardMove{seat, rest[0], 0});
      return out;
    }
    case FaultKind::kOutOfTurn: {
      if (!draw || pos.stock_size() < r.stock_draw + 1) return {};
      const int other = (seat + 1) % r.num_players;
      return {DrawMove{other, pos.StockTop(r.stock_draw), 0}};
    }
    case FaultKind::kFootEarly: {
      // 002 L71: only a ruleset with a foot; after the draw, before any meld.
      if (!play || !pos.FootPending(seat) || hand.empty() || pos.turn_melded()) return {};
      return {FootMove{seat, 0}};
    }
    default:
      return {};
  }
}

// The lines of a clean log's end_hand and end_game events, found by the
// replay driver (not by searching the text).
class ScoreLines : public ReplayObserver {
 public:
  void OnHandEnd(const HandReport&, const Event* end_hand, const Position*) override {
    if (end_hand) end_hands.push_back(end_hand->line);
  }
  void OnGameEnd(const GameReport&, const Event* last) override {
    if (last) end_game = last->line;
  }
  std::vector<int> end_hands;
  int end_game = 0;
};

ScoreLines FindScoreLines(const RulesetChoice& ruleset, const std::string& log) {
  AuditOptions options;
  options.resolve = [&ruleset](const std::string&, const std::string&, RulesetChoice* out,
                               std::string*) {
    *out = ruleset;
    return true;
  };
  ReplayDriver driver(options);
  ScoreLines lines;
  driver.AddObserver(&lines);
  std::istringstream in(log);
  driver.Run(in, "clean");
  return lines;
}

}  // namespace

const char* FaultName(FaultKind kind) { return kFaults[int(kind)].name; }
CheckId ExpectedCheck(FaultKind kind) { return kFaults[int(kind)].expected; }

std::optional<InjectedFault> InjectFault(const RulesetChoice& ruleset, uint64_t seed,
                                         FaultKind kind, int skip,
                                         const SimulateOptions& base) {
  InjectedFault fault;
  fault.kind = kind;
  fault.expected = ExpectedCheck(kind);
  SimulateOptions options = base;
  const bool in_play = int(kind) <= int(FaultKind::kOutOfTurn) ||
                       int(kind) >= int(FaultKind::kSequenceGap);
  if (in_play) {
    int seen = 0;
    bool done = false;
    options.meddle = [&](const Position& pos, int next_line) -> std::vector<Move> {
      if (done) return {};
      std::vector<Move> moves = Opportunity(kind, pos);
      if (moves.empty()) return {};
      // Only a move the ruleset in force forbids is a mistake (a meld of two
      // naturals and two wilds is fine in the tutorial's rules, say).
      Position probe = pos;
      bool forbidden = false;
      for (const Move& m : moves)
        for (const TaggedViolation& v : probe.Play(m)) forbidden |= v.violation.id == fault.expected;
      if (!forbidden || seen++ < skip) return {};
      done = true;
      // The finding belongs to the move that makes the mistake: the last
      // one for going out, the first otherwise.
      fault.line = kind == FaultKind::kOutWithoutCanastas ? next_line + int(moves.size()) - 1
                                                          : next_line;
      fault.description = MoveLine(moves.front());
      return moves;
    };
    std::ostringstream out;
    SimulateGame(ruleset, seed, options, out);
    if (!done) return std::nullopt;
    fault.log = out.str();
    return fault;
  }
  std::ostringstream out;
  SimulateGame(ruleset, seed, options, out);
  std::vector<std::string> lines = Lines(out.str());
  const ScoreLines found = FindScoreLines(ruleset, out.str());
  std::vector<size_t> end_hands;
  for (int line : found.end_hands) end_hands.push_back(size_t(line - 1));
  Rng rng(seed ^ 0x5eed);
  switch (kind) {
    case FaultKind::kWrongHandScore:
    case FaultKind::kWrongTotal: {
      if (end_hands.empty()) return std::nullopt;
      size_t i = end_hands[size_t(skip) % end_hands.size()];
      const int delta = 5 * (1 + rng.Below(40)) * (rng.Below(2) ? 1 : -1);
      if (!BumpArray(&lines[i], kind == FaultKind::kWrongHandScore ? "scores" : "totals",
                     size_t(rng.Below(ruleset.rules.num_sides())), delta))
        return std::nullopt;
      fault.line = int(i) + 1;
      break;
    }
    case FaultKind::kWrongWinner: {
      if (found.end_game < 1 || found.end_game > int(lines.size())) return std::nullopt;
      std::string& last = lines[size_t(found.end_game - 1)];
      size_t at = last.find("\"winner\":");
      if (at == std::string::npos) return std::nullopt;
      const int winner = std::stoi(last.substr(at + 9));
      const int other = (winner + 1) % ruleset.rules.num_sides();
      last.replace(at + 9, last.find('}', at) - at - 9, std::to_string(other));
      fault.line = found.end_game;
      break;
    }
    case FaultKind::kTruncatedFile: {
      size_t i = 1 + size_t(rng.Below(int(lines.size()) - 1));
      i = std::min(lines.size() - 1, i + size_t(skip));
      lines.resize(i + 1);
      lines[i] = lines[i].substr(0, std::max<size_t>(1, lines[i].size() / 2));
      fault.log = Unlines(lines);
      fault.log.pop_back();  // no final newline: the writer stopped mid-line
      fault.line = int(i) + 1;
      fault.description = "file cut in line " + std::to_string(i + 1);
      return fault;
    }
    case FaultKind::kCorruptedLine: {
      size_t i = 1 + size_t(rng.Below(int(lines.size()) - 1));
      std::string& l = lines[i];
      const size_t at = size_t(rng.Below(int(l.size())));
      l.replace(at, std::min<size_t>(3, l.size() - at), "\x01}{");
      fault.line = int(i) + 1;
      break;
    }
    default:
      return std::nullopt;
  }
  fault.log = Unlines(lines);
  fault.description = std::string(FaultName(kind)) + " at line " + std::to_string(fault.line);
  return fault;
}

}  // namespace canasta
