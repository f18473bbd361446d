// Cards, ranks and suits: small value types (a card fits in a byte).
#ifndef CANASTA_CORE_CARD_H_
#define CANASTA_CORE_CARD_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dcheck.h"

namespace canasta {

enum class Suit : uint8_t { kSpades, kHearts, kDiamonds, kClubs, kNone };

// Ranks in ascending order; kJoker is its own rank. The numeric value of a
// natural rank is its pip (2..14) so that sequences can be tested later.
enum class Rank : uint8_t {
  // Not a card's rank: the rank of a sequence meld (002 L67, L75), whose
  // cards are of several ranks. ToString gives "sequence".
  kSequence = 1,
  kTwo = 2, kThree, kFour, kFive, kSix, kSeven, kEight, kNine, kTen,
  kJack, kQueen, kKing, kAce, kJoker
};

constexpr int kNumSuits = 4;
constexpr int kNumNaturalRanks = 13;  // 2..A
// Distinct card faces: 13 ranks x 4 suits + the joker.
constexpr int kNumFaces = kNumNaturalRanks * kNumSuits + 1;

class Card {
 public:
  constexpr Card() : index_(kInvalid) {}
  constexpr Card(Rank rank, Suit suit)
      : index_(rank == Rank::kJoker
                   ? uint8_t(kNumFaces - 1)
                   : uint8_t((uint8_t(rank) - 2) * kNumSuits + uint8_t(suit))) {}
  static constexpr Card Joker() { return Card(Rank::kJoker, Suit::kNone); }
  static constexpr Card FromIndex(int index) {
    Card c;
    c.index_ = uint8_t(index);
    return c;
  }

  // --- Identity ---
  constexpr bool valid() const { return index_ < kNumFaces; }
  constexpr int index() const { return index_; }
  constexpr Rank rank() const {
    return index_ == kNumFaces - 1 ? Rank::kJoker : Rank(index_ / kNumSuits + 2);
  }
  constexpr Suit suit() const {
    return index_ == kNumFaces - 1 ? Suit::kNone : Suit(index_ % kNumSuits);
  }

  // --- Classes of card (000 §4: jokers and twos are wild) ---
  constexpr bool is_joker() const { return rank() == Rank::kJoker; }
  constexpr bool is_wild() const {
    return rank() == Rank::kJoker || rank() == Rank::kTwo;
  }
  constexpr bool is_red() const {
    return suit() == Suit::kHearts || suit() == Suit::kDiamonds;
  }
  constexpr bool is_three() const { return rank() == Rank::kThree; }
  constexpr bool is_red_three() const { return is_three() && is_red(); }
  constexpr bool is_black_three() const { return is_three() && !is_red(); }

  constexpr bool operator==(Card o) const { return index_ == o.index_; }
  constexpr bool operator!=(Card o) const { return index_ != o.index_; }
  constexpr bool operator<(Card o) const { return index_ < o.index_; }

 private:
  static constexpr uint8_t kInvalid = 0xff;
  uint8_t index_;
};

// Notation of canasta-log/1: rank then suit ("TH", "10H", "3D"), or "JK".
std::optional<Card> ParseCard(std::string_view text);
std::string ToString(Card card);
std::string ToString(Rank rank);              // "K", "T", "JK"
std::optional<Rank> ParseRank(std::string_view text);  // "K", "10", "T"
std::string ToString(const std::vector<Card>& cards);  // "KS KH 2C"

// A multiset of card faces. Hands are multisets: order carries no rule.
class CardCounts {
 public:
  CardCounts() { counts_.fill(0); }
  // An invalid card (Card()) is never held: count 0, Add and Remove do
  // nothing (it has no slot in the array).
  int count(Card c) const { return c.valid() ? counts_[c.index()] : 0; }
  // The count of the face with index i (0 <= i < kNumFaces, Card::index()).
  int count_at(int i) const {
    CANASTA_DCHECK(i >= 0 && i < kNumFaces);
    return counts_[size_t(i)];
  }
  int total() const { return total_; }
  bool empty() const { return total_ == 0; }
  // `n` >= 0; a face holds at most 255 copies (a hostile log may ask more:
  // the count saturates and total() stays the sum of the counts).
  void Add(Card c, int n = 1) {
    if (!c.valid() || n <= 0) return;
    const int room = 255 - counts_[c.index()];
    if (n > room) {
      n = room;
      saturated_ = true;
    }
    counts_[c.index()] = uint8_t(counts_[c.index()] + n);
    total_ += n;
  }
  // Returns false (and changes nothing) if the card is not there.
  bool Remove(Card c) {
    if (!c.valid() || counts_[c.index()] == 0) return false;
    --counts_[c.index()];
    --total_;
    return true;
  }
  // Empties the multiset (an empty one is left as it is: its counts are all 0).
  void Clear() {
    if (total_ == 0 && !saturated_) return;
    counts_.fill(0);
    total_ = 0;
    saturated_ = false;
  }
  bool Contains(const std::vector<Card>& cards) const;
  std::vector<Card> ToVector() const;
  int CountIf(bool (*pred)(Card)) const;
  // total() equals the sum of the counts (checked by Debug invariants).
  bool Consistent() const;
  // Whether an Add was cut short at 255 copies (only a hostile log gets there).
  bool saturated() const { return saturated_; }

 private:
  std::array<uint8_t, kNumFaces> counts_;
  int total_ = 0;
  bool saturated_ = false;
};

// Red threes among the cards (000 §7: they are laid out, never held).
int RedThreesIn(const CardCounts& cards);

// The natural ranks that meld in play, low to high (000 §8: threes only when
// going out, so they are left out): for (Rank r : kMeldRanks).
constexpr std::array<Rank, 11> kMeldRanks = {
    Rank::kFour, Rank::kFive, Rank::kSix,   Rank::kSeven, Rank::kEight, Rank::kNine,
    Rank::kTen,  Rank::kJack, Rank::kQueen, Rank::kKing,  Rank::kAce};

// A hand's cards grouped for melding: the natural cards of each rank (indexed
// by int(Rank); threes included) and the wild cards, jokers first (they are
// worth more on the table than in the hand).
struct RankGroups {
  std::array<std::vector<Card>, 16> naturals;
  std::vector<Card> wilds;
};
RankGroups GroupByRank(const CardCounts& hand);

}  // namespace canasta

#endif  // CANASTA_CORE_CARD_H_
