#include "core/card.h"

#include <algorithm>

namespace canasta {
namespace {
constexpr char kRankChars[] = "??23456789TJQKA";  // index = Rank value
constexpr char kSuitChars[] = "SHDC";
}  // namespace

std::optional<Rank> ParseRank(std::string_view text) {
  if (text == "JK") return Rank::kJoker;
  if (text == "10") return Rank::kTen;
  if (text.size() != 1) return std::nullopt;
  for (int r = 2; r <= 14; ++r) {
    if (kRankChars[r] == text[0]) return Rank(r);
  }
  return std::nullopt;
}

std::optional<Card> ParseCard(std::string_view text) {
  if (text == "JK") return Card::Joker();
  if (text.size() < 2 || text.size() > 3) return std::nullopt;
  std::optional<Rank> rank = ParseRank(text.substr(0, text.size() - 1));
  if (!rank || *rank == Rank::kJoker) return std::nullopt;
  char s = text.back();
  for (int i = 0; i < kNumSuits; ++i) {
    if (kSuitChars[i] == s) return Card(*rank, Suit(i));
  }
  return std::nullopt;
}

std::string ToString(Rank rank) {
  if (rank == Rank::kJoker) return "JK";
  if (rank == Rank::kSequence) return "sequence";
  return std::string(1, kRankChars[int(rank)]);
}

std::string ToString(Card card) {
  if (!card.valid()) return "??";
  if (card.is_joker()) return "JK";
  return {kRankChars[int(card.rank())], kSuitChars[int(card.suit())]};
}

std::string ToString(const std::vector<Card>& cards) {
  std::string out;
  for (Card c : cards) {
    if (!out.empty()) out += ' ';
    out += ToString(c);
  }
  return out;
}

bool CardCounts::Contains(const std::vector<Card>& cards) const {
  CardCounts need;
  for (Card c : cards) {
    need.Add(c);
    if (need.count(c) > count(c)) return false;
  }
  return true;
}

std::vector<Card> CardCounts::ToVector() const {
  std::vector<Card> out;
  out.reserve(total_);
  for (int i = 0; i < kNumFaces; ++i) {
    for (int n = 0; n < counts_[i]; ++n) out.push_back(Card::FromIndex(i));
  }
  return out;
}

int CardCounts::CountIf(bool (*pred)(Card)) const {
  int n = 0;
  for (int i = 0; i < kNumFaces; ++i) {
    if (counts_[i] && pred(Card::FromIndex(i))) n += counts_[i];
  }
  return n;
}

bool CardCounts::Consistent() const {
  int sum = 0;
  for (uint8_t n : counts_) sum += n;
  return sum == total_;
}

int RedThreesIn(const CardCounts& cards) {
  return cards.count(Card(Rank::kThree, Suit::kHearts)) +
         cards.count(Card(Rank::kThree, Suit::kDiamonds));
}

RankGroups GroupByRank(const CardCounts& hand) {
  RankGroups g;
  for (int i = 0; i < kNumFaces; ++i) {
    const Card c = Card::FromIndex(i);
    for (int n = hand.count(c); n > 0; --n) {
      if (c.is_wild()) g.wilds.push_back(c);
      else g.naturals[int(c.rank())].push_back(c);
    }
  }
  // Jokers first, then twos, each in index order.
  std::stable_sort(g.wilds.begin(), g.wilds.end(),
                   [](Card a, Card b) { return a.is_joker() && !b.is_joker(); });
  return g;
}

}  // namespace canasta
