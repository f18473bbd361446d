#include "core/meld.h"

#include <algorithm>

#include "core/position_internal.h"
#include "core/scoring.h"

namespace canasta {

using position_internal::Rare;

bool Meld::Remove(Card c) {
  auto it = std::find(cards.begin(), cards.end(), c);
  if (it == cards.end()) return false;
  cards.erase(it);
  if (c.is_joker()) --jokers;
  else if (c.rank() == Rank::kTwo) --twos;
  else --naturals;
  return true;
}

int Meld::Value(const Rules& r) const {
  int v = 0;
  for (Card c : cards) v = SaturatingAdd(v, r.value(c));
  return v;
}

MeldShape ShapeAfterAdding(const Meld* base, const std::vector<Card>& cards, Rank rank,
                           const Rules& rules) {
  MeldShape s;
  if (base) {
    s = base->Shape();
    s.was_canasta = base->is_canasta(rules);
    s.is_new = base->cards.empty();
  }
  s.rank = rank;
  for (Card c : cards) {
    if (c.is_joker()) ++s.jokers;
    else if (c.rank() == Rank::kTwo) ++s.twos;
    else ++s.naturals;
  }
  return s;
}

// A completed canasta's bonus (000 §9, §18; 001 L86-L94; a sequence 002 L67).
int CanastaBonus(const Rules& r, const Meld& m) {
  if (m.sequence() && r.sequence_canasta_bonus > 0) return r.sequence_canasta_bonus;
  if (m.naturals == 0 && r.wild_canasta_bonus > 0) {
    if (m.jokers == 0 && r.wild_canasta_twos_bonus > 0) return r.wild_canasta_twos_bonus;
    if (m.jokers >= r.jokers && r.jokers > 0 && r.wild_canasta_all_jokers_bonus > 0)
      return r.wild_canasta_all_jokers_bonus;
    return r.wild_canasta_bonus;
  }
  if (!m.is_natural()) return r.mixed_canasta_bonus;
  const int by_rank = r.natural_canasta_bonus_by_rank[size_t(m.rank)];
  return by_rank > 0 ? by_rank : r.natural_canasta_bonus;
}

// The penalty for a meld left short of a canasta (001 L59-L60, L63, L98-L101).
int UnfinishedPenalty(const Rules& r, const Meld& m) {
  if (m.sequence()) return 0;
  if (m.naturals == 0) {
    if (m.jokers >= r.jokers && r.jokers > 0 && r.unfinished_wild_meld_all_jokers_penalty > 0)
      return r.unfinished_wild_meld_all_jokers_penalty;
    return r.unfinished_wild_meld_penalty;
  }
  // A meld holding wild cards (an ace meld of the initial meld, 001 L60) has none.
  return m.is_natural() ? r.unfinished_natural_meld_penalty[size_t(m.rank)] : 0;
}

std::optional<Rank> MeldRank(const std::vector<Card>& cards, std::optional<Rank> as) {
  if (as) return as;
  std::optional<Rank> rank;
  for (Card c : cards) {
    if (c.is_wild()) continue;
    if (rank && *rank != c.rank()) return std::nullopt;
    rank = c.rank();
  }
  return rank ? rank : std::optional<Rank>(Rank::kJoker);
}

namespace {
Violation V(CheckId id, std::string message, std::string source) {
  return Violation{id, std::move(message), {"rule: " + std::move(source)}};
}

// A rank's place in the sequence order (readings R115): its pip from
// sequence_lowest to the king, the ace 14 when high and just below
// sequence_lowest when low (A 4 5 with the default); 0 when
// the rank never stands in a sequence.
int SequencePip(const Rules& r, Rank rank, bool ace_low) {
  if (rank == Rank::kAce) return ace_low ? r.sequence_lowest - 1 : 14;
  const int pip = int(rank);
  return pip >= r.sequence_lowest && pip <= 13 ? pip : 0;
}

// The order's length and whether the ace stands low, for one reading of the ace.
struct SequenceFit {
  bool ok = false;
  int low = 0, high = 0;  // span of the naturals
  int room = 0;           // places in the order
  int order_low = 0, order_high = 0;
};
SequenceFit FitSequence(const Rules& r, const std::vector<Card>& cards, bool ace_low) {
  SequenceFit f;
  uint16_t seen = 0;
  f.order_low = ace_low ? r.sequence_lowest - 1 : r.sequence_lowest;
  f.order_high = ace_low ? 13 : 14;
  if (r.sequence_ace == SequenceAce::kHigh && ace_low) return f;
  if (r.sequence_ace == SequenceAce::kLow && !ace_low) f.order_high = 13;
  f.room = f.order_high - f.order_low + 1;
  f.low = 99;
  int naturals = 0;
  for (Card c : cards) {
    if (c.is_wild()) continue;
    const int pip = SequencePip(r, c.rank(), ace_low);
    if (pip == 0 || pip > f.order_high || ((seen >> pip) & 1)) return f;
    seen = uint16_t(seen | (1u << pip));
    f.low = std::min(f.low, pip);
    f.high = std::max(f.high, pip);
    ++naturals;
  }
  if (naturals == 0) return f;
  const int wilds = int(cards.size()) - naturals;
  f.ok = (f.high - f.low + 1) - naturals <= wilds && int(cards.size()) <= f.room;
  return f;
}
}  // namespace

Suit SequenceSuit(const std::vector<Card>& cards) {
  for (Card c : cards)
    if (!c.is_wild()) return c.suit();
  return Suit::kNone;
}

// 002 L67 ("three or more consecutive cards of the same suit"), L75.
std::optional<Violation> CheckSequence(const Rules& r, const std::vector<Card>& cards,
                                       bool is_new) {
  const std::string what = "the sequence " + ToString(cards);
  int wilds = 0;
  Suit suit = Suit::kNone;
  for (Card c : cards) {
    if (c.is_wild()) {
      ++wilds;
      continue;
    }
    if (suit == Suit::kNone) suit = c.suit();
    if (c.suit() != suit)
      return V(CheckId::kSequenceMixedSuits, what + " mixes suits; a sequence is of one suit",
               r.Cite("sequence_melds", "002 L67"));
  }
  if (suit == Suit::kNone)
    return V(CheckId::kSequenceNotConsecutive, what + " holds no natural card",
             r.Cite("sequence_melds", "002 L67"));
  if (wilds > r.sequence_max_wilds)
    return V(CheckId::kSequenceTooManyWilds,
             what + " holds " + std::to_string(wilds) + " wild card(s); a sequence may hold " +
                 (r.sequence_max_wilds == 0 ? std::string("none")
                                            : "at most " + std::to_string(r.sequence_max_wilds)),
             r.Cite("sequence_max_wilds", "readings R115"));
  if (is_new && int(cards.size()) < r.sequence_min_length)
    return V(CheckId::kMeldTooSmall,
             what + " has " + std::to_string(cards.size()) + " card(s); a sequence needs at least " +
                 std::to_string(r.sequence_min_length),
             r.Cite("sequence_min_length", "002 L67"));
  if (r.sequence_max_length > 0 && int(cards.size()) > r.sequence_max_length)
    return V(CheckId::kMeldTooBig,
             what + " would hold " + std::to_string(cards.size()) + " cards; the most is " +
                 std::to_string(r.sequence_max_length),
             r.Cite("sequence_max_length", "readings R115"));
  if (FitSequence(r, cards, false).ok || FitSequence(r, cards, true).ok) return std::nullopt;
  // Worded for the reading that comes closest: a rank outside the order, a
  // rank twice, or a gap the wild cards do not fill.
  std::string why = "its cards are not consecutive";
  uint16_t seen = 0;
  for (Card c : cards) {
    if (c.is_wild()) continue;
    const int pip = int(c.rank());
    if (c.rank() != Rank::kAce && (pip < r.sequence_lowest || pip > 13)) {
      why = ToString(c.rank()) + "s never stand in a sequence (the lowest rank is " +
            ToString(Rank(r.sequence_lowest)) + ")";
      break;
    }
    if ((seen >> pip) & 1) {
      why = "it holds two " + ToString(c.rank()) + "s";
      break;
    }
    seen = uint16_t(seen | (1u << pip));
  }
  if (why == "its cards are not consecutive" && wilds > 0)
    why += " even with its " + std::to_string(wilds) + " wild card(s) filling the gaps";
  return V(CheckId::kSequenceNotConsecutive, what + " is not a sequence: " + why,
           r.Cite("sequence_melds", "002 L67"));
}

bool SequenceSpan(const Rules& r, const std::vector<Card>& cards, int* low, int* high) {
  for (bool ace_low : {false, true}) {
    SequenceFit f = FitSequence(r, cards, ace_low);
    if (!f.ok) continue;
    int wilds = 0;
    for (Card c : cards) wilds += c.is_wild();
    int spare = wilds - ((f.high - f.low + 1) - (int(cards.size()) - wilds));
    int hi = std::min(f.order_high, f.high + spare);
    spare -= hi - f.high;
    *low = f.low - spare;
    *high = hi;
    return true;
  }
  return false;
}

std::optional<Violation> CheckMeldShape(const Rules& r, const RuleHooks& hooks,
                                        const MeldShape& s) {
  // Worded only when the meld is wrong: this runs for every meld.
  struct What {
    Rank rank;
    operator std::string() const {
      return rank == Rank::kJoker ? "a meld of wild cards" : "the meld of " + ToString(rank) + "s";
    }
    std::string operator+(const std::string& rest) const { return std::string(*this) + rest; }
    std::string operator+(const char* rest) const { return std::string(*this) + rest; }
  } what{s.rank};
  if (s.rank == Rank::kThree && s.naturals > 0) {
    // Only black threes reach here as naturals; red threes are refused by
    // the caller, which sees the cards.
    if (r.black_three_meld == BlackThreeMeld::kNever)
      return Rare([&] {
        return V(CheckId::kMeldBlackThree, "black threes may never be melded", "001 L48");
      });
    // any_time keeps the only composition a seed states for black threes.
    if ((r.black_three_meld == BlackThreeMeld::kThreeOrFourNoWild ||
         r.black_three_meld == BlackThreeMeld::kAnyTime) &&
        (s.wilds() > 0 || s.size() < 3 || s.size() > 4))
      return Rare([&] {
        return V(CheckId::kMeldBlackThree,
                 "black threes may be melded only as three or four of them, with no wild card (" +
                     std::to_string(s.naturals) + " threes, " + std::to_string(s.wilds()) +
                     " wild)",
                 r.Cite("black_three_meld", "002 Play-7, 004 L26, readings R19"));
      });
  }
  if (s.rank == Rank::kJoker) {
    if (!r.wild_melds)
      return Rare([&] {
        return V(CheckId::kMeldTooFewNaturals,
                 "wild cards may never be melded without natural cards",
                 r.Cite("wild_melds", "000 §8"));
      });
  } else if (s.naturals < r.min_naturals) {
    return Rare([&] {
      return V(CheckId::kMeldTooFewNaturals,
               what + " has " + std::to_string(s.naturals) +
                   " natural card(s); it needs at least " + std::to_string(r.min_naturals),
               r.Cite("min_naturals", "000 §8"));
    });
  }
  if (s.rank != Rank::kJoker && s.wilds() > 0 && r.no_wild_ranks.Contains(s.rank))
    return Rare([&] {
      return V(CheckId::kMeldTooManyWilds, what + " may never hold a wild card",
               r.Cite("no_wild_ranks", "001 L59"));
    });
  if (s.is_new && s.size() < r.min_meld_size)
    return Rare([&] {
      return V(CheckId::kMeldTooSmall,
               what + " has " + std::to_string(s.size()) + " card(s); a meld needs at least " +
                   std::to_string(r.min_meld_size),
               r.Cite("min_meld_size", "000 §8"));
    });
  if (r.max_meld_size > 0 && s.size() > r.max_meld_size)
    return Rare([&] {
      return V(CheckId::kMeldTooBig,
               what + " would hold " + std::to_string(s.size()) + " cards; the most is " +
                   std::to_string(r.max_meld_size),
               "ruleset max_meld_size");
    });
  if (s.rank != Rank::kJoker) {
    if (r.naturals_must_outnumber_wilds && s.wilds() >= s.naturals)
      return Rare([&] {
        return V(CheckId::kMeldTooManyWilds,
                 what + " would hold " + std::to_string(s.naturals) + " natural and " +
                     std::to_string(s.wilds()) + " wild cards; naturals must outnumber wild cards",
                 r.Cite("naturals_must_outnumber_wilds", "000 §8, readings R1"));
      });
    const bool canasta = s.size() >= r.canasta_size;
    if (!canasta && s.wilds() > r.max_wilds_incomplete)
      return Rare([&] {
        return V(CheckId::kMeldTooManyWilds,
                 what + " would hold " + std::to_string(s.wilds()) +
                     " wild cards; a meld that is not a completed canasta may hold at most " +
                     std::to_string(r.max_wilds_incomplete),
                 r.Cite("max_wilds_incomplete", "000 §8, readings R1"));
      });
    if (canasta) {
      // Wilds beyond the cap are allowed only once the canasta is complete
      // (000 §9): the seven cards that complete it hold at least
      // canasta_size - naturals wild cards (readings R1, R36).
      const int wilds_at_completion =
          s.was_canasta ? 0 : std::max(0, r.canasta_size - s.naturals);
      if (wilds_at_completion > r.max_wilds_incomplete)
        return Rare([&, wilds_at_completion] {
          return V(CheckId::kMeldTooManyWilds,
                   what + " would be completed with " + std::to_string(wilds_at_completion) +
                       " wild cards; at most " + std::to_string(r.max_wilds_incomplete) +
                       " before the canasta is complete",
                   "000 §8, §9, readings R1");
        });
      if (r.max_wilds_completed >= 0 && s.wilds() > r.max_wilds_completed)
        return Rare([&] {
          return V(CheckId::kMeldTooManyWilds,
                   what + " would hold " + std::to_string(s.wilds()) +
                       " wild cards; a canasta may hold at most " +
                       std::to_string(r.max_wilds_completed),
                   "ruleset max_wilds_completed");
        });
    }
  }
  // A ruleset without the hook has no condition of its own: no call, no string.
  if (!hooks.Overrides(HookId::kExtraMeldCheck)) return std::nullopt;
  std::string extra = hooks.ExtraMeldCheck(r, s);
  if (!extra.empty())
    return Rare([&] { return V(CheckId::kMeldHouseRule, what + ": " + extra, "ruleset hook"); });
  return std::nullopt;
}

}  // namespace canasta
