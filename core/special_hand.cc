#include "core/special_hand.h"

#include <algorithm>
#include <array>

namespace canasta {
namespace {

constexpr int kJokerIndex = int(Rank::kJoker);
constexpr SpecialHandKind kKinds[] = {SpecialHandKind::kStraight, SpecialHandKind::kPairsNatural,
                                      SpecialHandKind::kPairsWithTwos, SpecialHandKind::kGarbage};

// The cards by rank (jokers at int(Rank::kJoker)).
struct Tally {
  std::array<int, 16> by_rank{};
  int total = 0;
};

Tally Count(const CardCounts& cards) {
  Tally t;
  for (int i = 0; i < kNumFaces; ++i) {
    const Card c = Card::FromIndex(i);
    t.by_rank[size_t(c.rank())] += cards.count(c);
  }
  t.total = cards.total();
  return t;
}

// The ranks a pair or a group of a kind is made of: twos and 4 to A
// (readings R42: threes belong to the straight alone, 001 L57).
bool GroupRank(int r) { return r == int(Rank::kTwo) || (r >= int(Rank::kFour) && r <= int(Rank::kAce)); }

bool IsStraight(const Tally& t) {
  if (t.total != kSpecialHandCards || t.by_rank[kJokerIndex] != 1) return false;
  for (int r = int(Rank::kTwo); r <= int(Rank::kAce); ++r)
    if (t.by_rank[size_t(r)] != 1) return false;
  return true;
}

// Seven pairs of seven ranks; with `twos`, one of them twos, else none.
bool IsPairs(const Tally& t, bool twos) {
  if (t.total != kSpecialHandCards || t.by_rank[kJokerIndex] || t.by_rank[int(Rank::kThree)])
    return false;
  if (t.by_rank[int(Rank::kTwo)] != (twos ? 2 : 0)) return false;
  for (int r = int(Rank::kTwo); r <= int(Rank::kAce); ++r)
    if (t.by_rank[size_t(r)] != 0 && t.by_rank[size_t(r)] != 2) return false;
  return true;
}

bool IsGarbage(const Tally& t) {
  if (t.total != kSpecialHandCards || t.by_rank[kJokerIndex] || t.by_rank[int(Rank::kThree)])
    return false;
  int fours = 0, threes = 0;
  for (int r = int(Rank::kTwo); r <= int(Rank::kAce); ++r) {
    const int n = t.by_rank[size_t(r)];
    if (n == 4) ++fours;
    else if (n == 3) ++threes;
    else if (n != 0) return false;
  }
  return fours == 2 && threes == 2;
}

bool Fits(const Tally& t, SpecialHandKind kind) {
  switch (kind) {
    case SpecialHandKind::kStraight: return IsStraight(t);
    case SpecialHandKind::kPairsNatural: return IsPairs(t, false);
    case SpecialHandKind::kPairsWithTwos: return IsPairs(t, true);
    case SpecialHandKind::kGarbage: return IsGarbage(t);
  }
  return false;
}

// --- Words, for a finding only ---

std::string Number(int n) {
  static const char* const kWords[] = {"no", "one", "two", "three", "four", "five", "six", "seven", "eight"};
  return n >= 0 && n <= 8 ? kWords[n] : std::to_string(n);
}

// "one 9", "two Ks", "a joker", "three jokers".
std::string Cards(int n, int rank) {
  if (rank == kJokerIndex) return n == 1 ? "a joker" : Number(n) + " jokers";
  const std::string name = ToString(Rank(rank));
  return Number(n) + " " + name + (n == 1 ? "" : "s");
}

std::string Join(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
  return s;
}

// How far the cards are from the shape (cards not part of its best match),
// and what is wrong, in words.
struct Miss {
  int distance = 0;
  std::string words;
  SpecialHandKind kind = SpecialHandKind::kStraight;
};

Miss StraightMiss(const Tally& t) {
  std::vector<std::string> missing, extra;
  int used = std::min(t.by_rank[kJokerIndex], 1);
  for (int r = int(Rank::kAce); r >= int(Rank::kTwo); --r) {
    const int n = t.by_rank[size_t(r)];
    used += std::min(n, 1);
    if (n == 0) missing.push_back("no " + ToString(Rank(r)));
    if (n > 1) extra.push_back(Cards(n, r));
  }
  if (t.by_rank[kJokerIndex] == 0) missing.push_back("no joker");
  if (t.by_rank[kJokerIndex] > 1) extra.push_back(Cards(t.by_rank[kJokerIndex], kJokerIndex));
  missing.insert(missing.end(), extra.begin(), extra.end());
  return {kSpecialHandCards - used, "not a straight: " + Join(missing)};
}

Miss PairsMiss(const Tally& t, bool twos) {
  std::vector<std::string> wrong;
  int pairs = 0;
  const int two = t.by_rank[int(Rank::kTwo)];
  const int jokers = t.by_rank[kJokerIndex];
  if (!twos && two + jokers > 0) {
    wrong.push_back(Number(two + jokers) + " wild card" + (two + jokers == 1 ? "" : "s") + " (" +
                    (two ? Cards(two, int(Rank::kTwo)) : std::string()) +
                    (two && jokers ? ", " : "") + (jokers ? Cards(jokers, kJokerIndex) : "") +
                    ")");
  }
  if (twos) {
    if (two == 0) wrong.push_back("no pair of twos");
    else if (two != 2) wrong.push_back(Cards(two, int(Rank::kTwo)) + " (a pair is two)");
    else ++pairs;
    if (jokers) wrong.push_back(Cards(jokers, kJokerIndex));
  }
  if (t.by_rank[int(Rank::kThree)])
    wrong.push_back(Cards(t.by_rank[int(Rank::kThree)], int(Rank::kThree)) +
                    " (threes pair with nothing)");
  for (int r = int(Rank::kFour); r <= int(Rank::kAce); ++r) {
    const int n = t.by_rank[size_t(r)];
    if (n >= 2) ++pairs;
    if (n != 0 && n != 2) wrong.push_back(Cards(n, r));
  }
  const int most = twos && two < 2 ? 6 : 7;
  const int distance = kSpecialHandCards - 2 * std::min(pairs, most);
  return {distance, std::string(twos ? "not seven pairs with twos: " : "not seven natural pairs: ") +
                        Join(wrong)};
}

Miss GarbageMiss(const Tally& t) {
  std::vector<int> counts;
  std::vector<std::string> fours, threes, others;
  for (int r = int(Rank::kTwo); r <= int(Rank::kAce); ++r) {
    const int n = t.by_rank[size_t(r)];
    if (n == 0) continue;
    if (GroupRank(r)) counts.push_back(n);
    const std::string plural = ToString(Rank(r)) + "s";
    if (GroupRank(r) && n == 4) fours.push_back(plural);
    else if (GroupRank(r) && n == 3) threes.push_back(plural);
    else others.push_back(Cards(n, r));
  }
  if (t.by_rank[kJokerIndex]) others.push_back(Cards(t.by_rank[kJokerIndex], kJokerIndex));
  std::sort(counts.rbegin(), counts.rend());
  counts.resize(std::max<size_t>(counts.size(), 4), 0);
  const int used = std::min(counts[0], 4) + std::min(counts[1], 4) + std::min(counts[2], 3) +
                   std::min(counts[3], 3);
  auto groups = [](const std::vector<std::string>& ranks, const char* one, const char* more) {
    if (ranks.empty()) return std::string("no ") + one;
    return Number(int(ranks.size())) + " " + (ranks.size() == 1 ? one : more) + " (" +
           Join(ranks) + ")";
  };
  std::string words = "not garbage: " +
                      groups(fours, "four of a kind", "fours of a kind") + ", " +
                      groups(threes, "three of a kind", "threes of a kind");
  if (!others.empty()) words += "; besides, " + Join(others);
  return {kSpecialHandCards - used, words};
}

Miss MissOf(const Tally& t, SpecialHandKind kind) {
  Miss m;
  switch (kind) {
    case SpecialHandKind::kStraight: m = StraightMiss(t); break;
    case SpecialHandKind::kPairsNatural: m = PairsMiss(t, false); break;
    case SpecialHandKind::kPairsWithTwos: m = PairsMiss(t, true); break;
    case SpecialHandKind::kGarbage: m = GarbageMiss(t); break;
  }
  m.kind = kind;
  return m;
}

}  // namespace

const char* SpecialHandName(SpecialHandKind kind) {
  switch (kind) {
    case SpecialHandKind::kStraight: return "a straight";
    case SpecialHandKind::kPairsNatural: return "seven natural pairs";
    case SpecialHandKind::kPairsWithTwos: return "seven pairs with twos";
    case SpecialHandKind::kGarbage: return "garbage";
  }
  return "";
}

int SpecialHandValue(const Rules& rules, SpecialHandKind kind) {
  switch (kind) {
    case SpecialHandKind::kStraight: return rules.special_hand_straight;
    case SpecialHandKind::kPairsNatural: return rules.special_hand_pairs_natural;
    case SpecialHandKind::kPairsWithTwos: return rules.special_hand_pairs_with_twos;
    case SpecialHandKind::kGarbage: return rules.special_hand_garbage;
  }
  return 0;
}

std::optional<SpecialHandKind> SpecialHandOf(const Rules& rules, const CardCounts& cards) {
  if (cards.total() != kSpecialHandCards) return std::nullopt;
  const Tally t = Count(cards);
  for (SpecialHandKind kind : kKinds)
    if (SpecialHandValue(rules, kind) > 0 && Fits(t, kind)) return kind;
  return std::nullopt;
}

std::vector<std::string> SpecialHandShortfall(const Rules& rules, const CardCounts& cards) {
  const Tally t = Count(cards);
  std::vector<Miss> misses;
  for (SpecialHandKind kind : kKinds)
    if (SpecialHandValue(rules, kind) > 0) misses.push_back(MissOf(t, kind));
  // The nearest first; ties in the order of 001's table (L68-L71).
  std::stable_sort(misses.begin(), misses.end(),
                   [](const Miss& a, const Miss& b) { return a.distance < b.distance; });
  std::vector<std::string> out;
  if (misses.empty()) return out;
  out.push_back(misses.front().words);
  std::string others;
  for (size_t i = 1; i < misses.size(); ++i)
    others += std::string(i == 1 ? "" : i + 1 == misses.size() ? " or " : ", ") +
              SpecialHandName(misses[i].kind);
  if (!others.empty()) out.push_back("nor is it " + others);
  return out;
}

}  // namespace canasta
