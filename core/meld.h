// Melds on the table and the one place their composition rules live
// (000 §8, §9; readings R1, R19). The checker and the move generator both call
// CheckMeldShape.
#ifndef CANASTA_CORE_MELD_H_
#define CANASTA_CORE_MELD_H_

#include <optional>
#include <string>
#include <vector>

#include "core/card.h"
#include "core/hooks.h"
#include "core/rules.h"
#include "core/violation.h"

namespace canasta {

struct Meld {
  Rank rank = Rank::kJoker;  // kJoker: a meld of wild cards only; kSequence: a sequence
  std::vector<Card> cards;
  int naturals = 0;
  int twos = 0;
  int jokers = 0;
  // The name a log gave the meld ("id"), by which later plays reach it
  // ("to"); sequences get "seq1", "seq2", ... per side where the log names none.
  std::string id;

  bool sequence() const { return rank == Rank::kSequence; }

  int size() const { return int(cards.size()); }
  int wilds() const { return twos + jokers; }
  bool is_canasta(const Rules& r) const { return size() >= r.canasta_size; }
  bool is_natural() const { return wilds() == 0; }
  void Add(Card c) {
    cards.push_back(c);
    if (c.is_joker()) ++jokers;
    else if (c.rank() == Rank::kTwo) ++twos;
    else ++naturals;
  }
  // Takes one copy of `c` off the meld; false if it is not there.
  bool Remove(Card c);
  int Value(const Rules& r) const;
  MeldShape Shape() const {
    MeldShape s;
    s.rank = rank;
    s.naturals = naturals;
    s.twos = twos;
    s.jokers = jokers;
    s.sequence = sequence();
    return s;
  }
};

// The bonus `m` earns as a completed canasta (000 §9, §18; 001 L86-L94).
int CanastaBonus(const Rules& rules, const Meld& m);
// The penalty `m` costs when the hand ends with it short of a canasta
// (001 L59-L60, L63, L98-L101; 0 under classic).
int UnfinishedPenalty(const Rules& rules, const Meld& m);

// The shape `base` would have after adding `cards` (base may be empty).
MeldShape ShapeAfterAdding(const Meld* base, const std::vector<Card>& cards, Rank rank,
                           const Rules& rules);

// The rank a set of cards being laid down is a meld of, or nullopt when the
// naturals are of more than one rank. `as` forces it (log field "as").
std::optional<Rank> MeldRank(const std::vector<Card>& cards, std::optional<Rank> as);

// Whether `cards` make a sequence (002 L67, L75; readings R115): natural cards
// of one suit, of distinct ranks inside the ruleset's rank order, with the
// wild cards (at most sequence_max_wilds) standing for the missing ones. A
// wild card's place is wherever the naturals need it. `is_new`: the cards
// are a new meld (sequence_min_length applies). Returns nullopt when legal.
std::optional<Violation> CheckSequence(const Rules& rules, const std::vector<Card>& cards,
                                       bool is_new);
// The suit of a sequence's natural cards (kNone if it holds none).
Suit SequenceSuit(const std::vector<Card>& cards);
// The lowest and highest pip a sequence of `cards` could span with its wild
// cards placed at the top end first (the ace counted 14 when high; when low,
// sequence_lowest - 1, the pip just below the lowest rank);
// false when the cards are no sequence. For the move generator's extensions.
bool SequenceSpan(const Rules& rules, const std::vector<Card>& cards, int* low, int* high);

// Checks a meld's composition after a play. Does not check black threes'
// going-out condition (that needs the turn's end; see Position).
// Returns nullopt when legal.
std::optional<Violation> CheckMeldShape(const Rules& rules, const RuleHooks& hooks,
                                        const MeldShape& shape);

}  // namespace canasta

#endif  // CANASTA_CORE_MELD_H_
