#include "core/legal_moves.h"

#include <algorithm>

namespace canasta {
namespace {

bool Clean(const Position& pos, const Move& m) { return pos.Check(m).empty(); }

// Natural cards of each rank in a hand, and its wild cards (jokers first:
// they are worth more on the table than in the hand).
struct HandGroups {
  std::vector<std::vector<Card>> by_rank = std::vector<std::vector<Card>>(16);
  std::vector<Card> wilds;
};

HandGroups Group(const CardCounts& hand) {
  HandGroups g;
  for (Card c : hand.ToVector()) {
    if (c.is_wild()) g.wilds.push_back(c);
    else g.by_rank[int(c.rank())].push_back(c);
  }
  std::sort(g.wilds.begin(), g.wilds.end(), [](Card a, Card b) {
    return a.is_joker() != b.is_joker() ? a.is_joker() : a < b;
  });
  return g;
}

// Every new meld and addition the hand could make at once, as one move:
// used to see whether an initial meld can still reach the minimum.
MeldMove MaximalMeld(const Position& pos, int seat) {
  MeldMove m;
  m.player = seat;
  const Rules& r = pos.rules();
  const int side = pos.side_of(seat);
  HandGroups g = Group(pos.hand(seat));
  size_t wild = 0;
  int left = pos.hand(seat).total();
  for (int rank = 4; rank <= 14; ++rank) {
    std::vector<Card>& nat = g.by_rank[rank];
    if (nat.empty()) continue;
    bool exists = false;
    for (const Meld& x : pos.melds(side)) exists |= x.rank == Rank(rank) && !x.cards.empty();
    MeldPart part;
    part.cards = nat;
    if (exists) {
      part.to = Rank(rank);
    } else if (int(nat.size()) < r.min_meld_size) {
      if (int(nat.size()) < r.min_naturals || wild >= g.wilds.size()) continue;
      if (int(nat.size()) + 1 < r.min_meld_size) continue;
      part.cards.push_back(g.wilds[wild++]);
    }
    // Keep a card to discard and one to hold (000 §17, A13).
    if (left - int(part.cards.size()) < 2) break;
    left -= int(part.cards.size());
    m.parts.push_back(std::move(part));
  }
  // Spare wild cards join melds that can take them (more points toward the
  // minimum), still keeping two cards.
  for (MeldPart& part : m.parts) {
    if (wild >= g.wilds.size() || left <= 2) break;
    if (part.to) continue;
    int naturals = 0, wilds = 0;
    for (Card c : part.cards) c.is_wild() ? ++wilds : ++naturals;
    if ((!r.naturals_must_outnumber_wilds || naturals > wilds + 1) &&
        wilds + 1 <= r.max_wilds_incomplete) {
      part.cards.push_back(g.wilds[wild++]);
      --left;
    }
  }
  return m;
}

}  // namespace

std::vector<ThreeMove> DueThrees(const Position& pos, int seat) {
  std::vector<ThreeMove> out;
  if (pos.phase() == Phase::kOver) {
    // 000 §15: the last stock card was a red three; it is revealed.
    if (pos.went_out() >= 0 || seat != pos.current_player()) return out;
  } else if (pos.phase() == Phase::kBeforePlay) {
    // In the first-turn layout only the first player's turn has begun.
    if (pos.rules().three_layout == ThreeLayout::kFirstTurn && seat != pos.current_player())
      return out;
  } else if (seat != pos.current_player()) {
    return out;
  }
  const CardCounts& hand = pos.hand(seat);
  for (Card c : {Card(Rank::kThree, Suit::kHearts), Card(Rank::kThree, Suit::kDiamonds)}) {
    if (hand.count(c) == 0) continue;
    ThreeMove m;
    m.player = seat;
    m.card = c;
    if (pos.pile_threes(seat) == 0 && pos.stock_size() > 0) {
      std::vector<Card> top = pos.StockTop(1);
      if (!top.empty()) m.replacement = top[0];
    }
    out.push_back(m);
    break;  // one at a time: each replacement is the next stock card
  }
  return out;
}

bool MayEndDeal(const Position& pos) {
  if (pos.phase() == Phase::kOver) return true;
  if (pos.stock_size() > 0 || pos.phase() == Phase::kPlay) return false;
  Position copy = pos;
  return copy.End(0).empty();
}

bool LeavesLegalFinish(const Position& pos, const Move& move) {
  Position after = pos;
  after.Apply(move);
  if (after.phase() == Phase::kOver) return true;
  const int seat = after.current_player();
  // Red threes the move brought in are laid out before anything else.
  for (int guard = 0; guard < 8; ++guard) {
    std::vector<ThreeMove> threes = DueThrees(after, seat);
    if (threes.empty()) break;
    after.Apply(threes[0]);
  }
  if (after.phase() == Phase::kOver) return true;
  auto can_discard = [&](const Position& p) {
    for (Card c : p.hand(seat).ToVector()) {
      if (Clean(p, DiscardMove{seat, c, 0})) return true;
    }
    return false;
  };
  if (can_discard(after)) return true;
  if (!after.turn_opening()) return false;
  MeldMove more = MaximalMeld(after, seat);
  if (more.parts.empty() || !Clean(after, more)) return false;
  after.Apply(more);
  return after.phase() == Phase::kOver || can_discard(after);
}

std::vector<Move> LegalMoves(const Position& pos) {
  std::vector<Move> out;
  const Rules& r = pos.rules();
  const int seat = pos.current_player();
  if (pos.phase() == Phase::kBeforePlay) {
    // Threes laid out before play go in seat order from the dealer's left.
    for (int i = 1; i <= r.num_players; ++i) {
      int s = (pos.dealer() + i) % r.num_players;
      for (ThreeMove& m : DueThrees(pos, s)) out.push_back(m);
      if (!out.empty()) return out;
    }
  }
  if (pos.phase() == Phase::kOver) {
    for (ThreeMove& m : DueThrees(pos, seat)) out.push_back(m);
    return out;
  }
  // Red threes first: they never stay in the hand (000 §7).
  for (ThreeMove& m : DueThrees(pos, seat)) {
    if (pos.phase() == Phase::kPlay || r.three_layout != ThreeLayout::kBeforePlay ||
        pos.pile_threes(seat) > 0)
      out.push_back(m);
  }
  if (!out.empty()) return out;
  const int side = pos.side_of(seat);
  const CardCounts& hand = pos.hand(seat);

  if (pos.phase() != Phase::kPlay) {
    if (pos.stock_size() > 0) {
      DrawMove d{seat, pos.StockTop(std::min(r.stock_draw, pos.stock_size())), 0};
      if (Clean(pos, d)) out.push_back(d);
    }
    if (!pos.pile().empty()) {
      const Card top = pos.pile().back();
      HandGroups g = Group(hand);
      std::vector<TakePileMove> tries;
      const std::vector<Card>& nat = top.is_wild() ? g.wilds : g.by_rank[int(top.rank())];
      if (nat.size() >= 2) tries.push_back(TakePileMove{seat, top, {nat[0], nat[1]}, {}, {}, 0});
      if (!nat.empty() && !g.wilds.empty())
        tries.push_back(TakePileMove{seat, top, {nat[0], g.wilds.back()}, {}, {}, 0});
      tries.push_back(TakePileMove{seat, top, {}, top.rank(), {}, 0});
      for (TakePileMove& t : tries) {
        if (!pos.CheckTakePile(t).empty()) continue;
        if (!LeavesLegalFinish(pos, t)) continue;
        out.push_back(t);
      }
    }
    return out;
  }

  // The play phase: melds and additions, then discards.
  HandGroups g = Group(hand);
  const bool opening = pos.turn_opening() && pos.turn_initial_count() <
                                                 pos.Minimum(side);
  std::vector<MeldMove> melds;
  for (int rank = 4; rank <= 14; ++rank) {
    const std::vector<Card>& nat = g.by_rank[rank];
    bool exists = false;
    for (const Meld& x : pos.melds(side)) exists |= x.rank == Rank(rank) && !x.cards.empty();
    if (exists) {
      if (!nat.empty()) melds.push_back(MeldMove{seat, {MeldPart{Rank(rank), {}, nat}}, 0});
      if (!g.wilds.empty()) {
        melds.push_back(MeldMove{seat, {MeldPart{Rank(rank), {}, {g.wilds.back()}}}, 0});
      }
    } else if (!nat.empty()) {
      if (int(nat.size()) >= r.min_meld_size)
        melds.push_back(MeldMove{seat, {MeldPart{{}, {}, nat}}, 0});
      if (int(nat.size()) >= r.min_naturals && !g.wilds.empty()) {
        std::vector<Card> with = nat;
        with.push_back(g.wilds.back());
        melds.push_back(MeldMove{seat, {MeldPart{{}, {}, with}}, 0});
      }
    }
  }
  if (opening) {
    // The initial meld as one move: everything that can be laid at once.
    MeldMove all = MaximalMeld(pos, seat);
    if (!all.parts.empty()) melds.push_back(all);
  }
  for (MeldMove& m : melds) {
    if (!Clean(pos, m)) continue;
    int cards = 0;
    for (const MeldPart& p : m.parts) cards += int(p.cards.size());
    if (opening || hand.total() - cards <= 2) {
      if (!LeavesLegalFinish(pos, m)) continue;
    }
    out.push_back(std::move(m));
  }
  // Discards: one per distinct card.
  for (Card c : hand.ToVector()) {
    bool seen = false;
    for (const Move& m : out) {
      if (auto* d = std::get_if<DiscardMove>(&m)) seen |= d->card == c;
    }
    if (seen) continue;
    DiscardMove d{seat, c, 0};
    if (Clean(pos, d)) out.push_back(d);
  }
  return out;
}

}  // namespace canasta
