// Special hands (001 L65-L71; readings R42): fourteen cards laid down whole
// by a player whose side has not melded. The one statement of their shapes,
// used by Position::Check (and so by the move generator).
#ifndef CANASTA_CORE_SPECIAL_HAND_H_
#define CANASTA_CORE_SPECIAL_HAND_H_

#include <optional>
#include <string>
#include <vector>

#include "core/card.h"
#include "core/rules.h"

namespace canasta {

enum class SpecialHandKind : uint8_t {
  kStraight,       // 001 L68: one of every rank ace to king, plus a joker
  kPairsNatural,   // 001 L69: seven pairs, no wild card
  kPairsWithTwos,  // 001 L70: seven pairs, one of them twos
  kGarbage,        // 001 L71: two fours-of-a-kind and two threes-of-a-kind
};

// "a straight", "seven natural pairs", "seven pairs with twos", "garbage".
const char* SpecialHandName(SpecialHandKind kind);
// The ruleset's value for `kind` (0: the ruleset has no such hand).
int SpecialHandValue(const Rules& rules, SpecialHandKind kind);

// The special hand `cards` make among those the ruleset values, or nullopt.
// Exactly 14 cards; in each shape a two is a card of its rank, never wild,
// and the straight's joker is the only joker; threes belong to the straight
// alone (001 L57); pairs, fours and threes of a kind are each of another rank
// (readings R42). At most one shape fits any cards.
std::optional<SpecialHandKind> SpecialHandOf(const Rules& rules, const CardCounts& cards);

// Why `cards` are no special hand, for a finding: what the nearest shape the
// ruleset values lacks ("not a straight: no 9, two 5s"), then a line naming
// the others ("nor is it garbage or seven natural pairs"). Only for 14 cards
// that SpecialHandOf refuses (a declaration of another count is refused by
// its count, core/position_special_hand.cc).
std::vector<std::string> SpecialHandShortfall(const Rules& rules, const CardCounts& cards);

}  // namespace canasta

#endif  // CANASTA_CORE_SPECIAL_HAND_H_
