#include "core/rules.h"

#include <algorithm>

#include "core/hooks.h"
#include "core/scoring.h"

namespace canasta {

bool IsUpcardTrigger(Card c, uint8_t mask) {
  if (c.is_joker()) return mask & kTriggerJoker;
  if (c.rank() == Rank::kTwo) return mask & kTriggerTwo;
  if (c.is_red_three()) return mask & kTriggerRedThree;
  if (c.is_black_three()) return mask & kTriggerBlackThree;
  return false;
}

int Rules::MinimumFor(int total) const {
  // Bands by lower bound (readings R24): the last band whose start is <= total.
  int minimum = minimum_table.empty() ? 0 : minimum_table.front().minimum;
  for (const MinimumBand& band : minimum_table) {
    if (total >= band.from_total) minimum = band.minimum;
  }
  return minimum;
}

int Rules::MinimumBasis(int own, const std::vector<int>* totals) const {
  if (!totals || totals->empty() || minimum_by == MinimumBy::kOwnTotal) return own;
  int basis = totals->front();
  for (int t : *totals)
    basis = minimum_by == MinimumBy::kLeadingTotal ? std::max(basis, t) : std::min(basis, t);
  return basis;
}

int Rules::DealerAfter(int dealer, int hands_later) const {
  const int n = num_players;
  const int step = dealer_rotation == DealerRotation::kLeft    ? 1
                   : dealer_rotation == DealerRotation::kRight ? n - 1
                                                               : 0;
  // In 64 bits: `hands_later` comes from a log.
  return int((int64_t{dealer} + int64_t{step} * (hands_later % n)) % n + n) % n;
}

int Rules::FirstPlayerOf(int dealer) const {
  const int n = num_players;
  const int step = first_player == FirstPlayer::kDealerLeft    ? 1
                   : first_player == FirstPlayer::kDealerRight ? n - 1
                                                               : 0;
  return ((dealer + step) % n + n) % n;
}

const char* Rules::DealerRotationWords() const {
  switch (dealer_rotation) {
    case DealerRotation::kLeft: return "the deal passes to the left";
    case DealerRotation::kRight: return "the deal passes to the right";
    case DealerRotation::kNone: return "the same player deals every hand";
  }
  return "";
}

void Rules::SetCitation(const std::string& param, const std::string& source) {
  auto next = std::make_shared<Citations>(citations ? *citations : Citations());
  auto it = std::find_if(next->begin(), next->end(),
                         [&](const auto& entry) { return entry.first == param; });
  if (it != next->end()) it->second = source;
  else next->emplace_back(param, source);
  citations = std::move(next);
}

const std::vector<std::string>& Rules::RuleKeys() {
  static const std::vector<std::string> keys = {
      "rule.turn_order",
      "rule.draw_first",
      "rule.card_held",
      "rule.discard",
      "rule.face_down_discard",
      "rule.hand_end",
      "rule.meld_ranks",
      "rule.red_three_meld",
      "rule.opponent_meld",
      "rule.three_replacement",
      "rule.pile_three_replacement",
      "rule.stock_out",
      "rule.dealer",
      "rule.totals",
      "rule.game_end",
      "rule.winner",
  };
  return keys;
}

std::string Rules::Cite(std::string_view param, std::string_view fallback) const {
  if (citations) {
    for (const auto& [name, source] : *citations)
      if (name == param && !source.empty()) return source;
  }
  return std::string(fallback);
}

namespace {

// The range of every integer parameter. Values outside make no game or
// would overflow the engine's int arithmetic: a hand's score sums a few
// hundred cards and bonuses, so with every value at most 10,000 a score
// stays far below 2^31. Documented in docs/lua-api.md ("Ranges"); a test
// there checks both ends of each.
struct IntRange {
  const char* name;
  int Rules::*field;
  int min;
  int max;
};

constexpr int kMaxPoints = 10000;    // any bonus or penalty
constexpr int kMaxCardValue = 1000;  // one card
constexpr int kMaxMeldCards = 50;    // a size limit in a meld (6 decks hold 24 of a rank)
constexpr int kMaxBandTotal = 1000000;
constexpr size_t kMaxBands = 100;

constexpr IntRange kIntRanges[] = {
    {"num_players", &Rules::num_players, 2, 6},
    {"decks", &Rules::decks, 1, 6},  // Hand and Foot plays five or six (002 L69-71)
    {"jokers", &Rules::jokers, 0, 12},
    {"hand_size", &Rules::hand_size, 1, 100},
    {"foot_size", &Rules::foot_size, 0, 100},
    {"upcards", &Rules::upcards, 0, 1},
    {"stock_draw", &Rules::stock_draw, 1, 5},
    {"min_meld_size", &Rules::min_meld_size, 1, kMaxMeldCards},
    {"max_meld_size", &Rules::max_meld_size, 0, kMaxMeldCards},
    {"min_naturals", &Rules::min_naturals, 0, kMaxMeldCards},
    {"max_wilds_incomplete", &Rules::max_wilds_incomplete, 0, kMaxMeldCards},
    {"max_wilds_completed", &Rules::max_wilds_completed, -1, kMaxMeldCards},
    {"canasta_size", &Rules::canasta_size, 1, kMaxMeldCards},
    {"sequence_min_length", &Rules::sequence_min_length, 2, 13},
    {"sequence_max_length", &Rules::sequence_max_length, 0, 13},
    {"sequence_lowest", &Rules::sequence_lowest, 3, 13},
    {"sequence_max_wilds", &Rules::sequence_max_wilds, 0, 13},
    {"sequence_canasta_bonus", &Rules::sequence_canasta_bonus, 0, kMaxPoints},
    {"sequence_canastas_to_go_out", &Rules::sequence_canastas_to_go_out, 0, 20},
    {"wilds_need_naturals", &Rules::wilds_need_naturals, 0, kMaxMeldCards},
    {"natural_canasta_bonus", &Rules::natural_canasta_bonus, 0, kMaxPoints},
    {"mixed_canasta_bonus", &Rules::mixed_canasta_bonus, 0, kMaxPoints},
    {"retract_all_minimum_increase", &Rules::retract_all_minimum_increase, 0, 1000},
    {"partial_retract_penalty", &Rules::partial_retract_penalty, 0, kMaxPoints},
    {"illegal_meld_penalty", &Rules::illegal_meld_penalty, 0, kMaxPoints},
    {"canastas_to_go_out", &Rules::canastas_to_go_out, 0, 20},
    {"going_out_bonus", &Rules::going_out_bonus, 0, kMaxPoints},
    {"concealed_going_out_bonus", &Rules::concealed_going_out_bonus, 0, kMaxPoints},
    {"red_three_bonus", &Rules::red_three_bonus, 0, kMaxPoints},
    {"all_red_threes_bonus", &Rules::all_red_threes_bonus, 0, kMaxPoints},
    {"undeclared_red_three_penalty", &Rules::undeclared_red_three_penalty, 0, kMaxPoints},
    {"target_score", &Rules::target_score, 1, 1000000},
    {"out_without_asking_penalty", &Rules::out_without_asking_penalty, 0, kMaxPoints},
    {"threes_kept_before_meld", &Rules::threes_kept_before_meld, 0, 100},
    {"turn_card_from_bottom", &Rules::turn_card_from_bottom, 0, 1000},
    {"bonus_cards_first", &Rules::bonus_cards_first, 0, 20},
    {"bonus_cards_second", &Rules::bonus_cards_second, 0, 20},
    {"wild_canasta_bonus", &Rules::wild_canasta_bonus, 0, kMaxPoints},
    {"wild_canasta_twos_bonus", &Rules::wild_canasta_twos_bonus, 0, kMaxPoints},
    {"wild_canasta_all_jokers_bonus", &Rules::wild_canasta_all_jokers_bonus, 0, kMaxPoints},
    {"unfinished_wild_meld_penalty", &Rules::unfinished_wild_meld_penalty, 0, kMaxPoints},
    {"unfinished_wild_meld_all_jokers_penalty", &Rules::unfinished_wild_meld_all_jokers_penalty, 0, kMaxPoints},
    {"caught_holding_count", &Rules::caught_holding_count, 1, kMaxMeldCards},
    {"special_hand_straight", &Rules::special_hand_straight, 0, kMaxPoints},
    {"special_hand_pairs_natural", &Rules::special_hand_pairs_natural, 0, kMaxPoints},
    {"special_hand_pairs_with_twos", &Rules::special_hand_pairs_with_twos, 0, kMaxPoints},
    {"special_hand_garbage", &Rules::special_hand_garbage, 0, kMaxPoints},
};

std::string OutOfRange(const std::string& name, int min, int max, int value) {
  return name + " must be " + std::to_string(min) + " to " + std::to_string(max) + ", got " +
         std::to_string(value);
}

// Ranges first: the checks of values together multiply them.
std::string ValidateRanges(const Rules& r) {
  for (const IntRange& range : kIntRanges) {
    int value = r.*range.field;
    if (value < range.min || value > range.max) {
      return OutOfRange(range.name, range.min, range.max, value);
    }
  }
  if (r.num_players == 5) return "num_players must be 2, 3, 4 or 6, got 5";
  constexpr uint8_t kAllTriggers =
      kTriggerJoker | kTriggerTwo | kTriggerRedThree | kTriggerBlackThree;
  for (auto [name, bits] : {std::pair{"upcard_first_triggers", r.upcard_first_triggers},
                            std::pair{"upcard_more_triggers", r.upcard_more_triggers}}) {
    if (bits & ~kAllTriggers) {
      return std::string(name) + " must be a set of joker (1), two (2), red_three (4) and " +
             "black_three (8), 0 to 15, got " + std::to_string(bits);
    }
  }
  // Rank sets hold the ranks a meld is made of, 4 to A (kFour..kAce).
  constexpr uint16_t kMeldRanks = 0x7ff0;
  for (auto [name, set] : {std::pair{"no_wild_ranks", r.no_wild_ranks},
                           std::pair{"wild_only_in_initial_meld_ranks",
                                     r.wild_only_in_initial_meld_ranks}}) {
    if (set.bits & ~kMeldRanks)
      return std::string(name) + " may hold only the ranks 4 to A, got the bit set " +
             std::to_string(set.bits);
  }
  for (int rank = 2; rank <= 15; ++rank) {
    int value = r.card_value[size_t(rank)];
    if (value < 0 || value > kMaxCardValue) {
      return OutOfRange("card_value[\"" + ToString(Rank(rank)) + "\"]", 0, kMaxCardValue, value);
    }
  }
  for (int rank = 2; rank <= 15; ++rank) {
    int value = r.empty_pile_avoid[size_t(rank)];
    if (value < 0 || value > 1)
      return OutOfRange("empty_pile_avoid[\"" + ToString(Rank(rank)) + "\"]", 0, 1, value) +
             " (1: avoided on an empty pile)";
  }
  for (auto [name, values] :
       {std::pair{"natural_canasta_bonus_by_rank", &r.natural_canasta_bonus_by_rank},
        std::pair{"unfinished_natural_meld_penalty", &r.unfinished_natural_meld_penalty},
        std::pair{"caught_holding_penalty", &r.caught_holding_penalty}}) {
    for (int rank = 2; rank <= 15; ++rank) {
      int value = (*values)[size_t(rank)];
      if (value < 0 || value > kMaxPoints)
        return OutOfRange(std::string(name) + "[\"" + ToString(Rank(rank)) + "\"]", 0, kMaxPoints,
                          value);
    }
  }
  if (r.three_values.size() > 16) {
    return "three_values must list at most 16 values, got " +
           std::to_string(r.three_values.size());
  }
  for (size_t i = 0; i < r.three_values.size(); ++i) {
    if (r.three_values[i] < 0 || r.three_values[i] > kMaxPoints)
      return OutOfRange("three_values[" + std::to_string(i + 1) + "]", 0, kMaxPoints,
                        r.three_values[i]);
  }
  if (r.minimum_table.empty()) return "minimum_table must have at least one band";
  if (r.minimum_table.size() > kMaxBands) {
    return "minimum_table must have at most " + std::to_string(kMaxBands) + " bands, got " +
           std::to_string(r.minimum_table.size());
  }
  for (size_t i = 0; i < r.minimum_table.size(); ++i) {
    const MinimumBand& band = r.minimum_table[i];
    std::string which = "minimum_table band " + std::to_string(i + 1);
    // The first band may start at "any total" (-math.huge in Lua).
    bool any_total = i == 0 && band.from_total <= -1000000000;
    if (!any_total && band.from_total <= -1000000000) {
      // "Any total" (-math.huge) is worded as the user wrote it.
      return which + ": from_total is -math.huge, which only the first band may start at";
    }
    if (!any_total && (band.from_total < -kMaxBandTotal || band.from_total > kMaxBandTotal)) {
      return OutOfRange(which + ": from_total", -kMaxBandTotal, kMaxBandTotal, band.from_total) +
             " (or -math.huge for the first band)";
    }
    if (band.minimum < 0 || band.minimum > kMaxPoints) {
      return OutOfRange(which + ": minimum", 0, kMaxPoints, band.minimum);
    }
  }
  return "";
}

}  // namespace

std::string Rules::Validate() const {
  std::string range = ValidateRanges(*this);
  if (!range.empty()) return range;
  // Values that interact; each message names every value involved.
  int dealt = num_players * hand_size + upcards;
  if (foot_size > 0) {
    // 002 L71: every hand and every foot come from the pack.
    const int with_feet = num_players * (hand_size + foot_size) + upcards;
    if (with_feet >= pack_size())
      return "the deal (num_players x (hand_size + foot_size) + upcards = " +
             std::to_string(num_players) + " x (" + std::to_string(hand_size) + " + " +
             std::to_string(foot_size) + ") + " + std::to_string(upcards) + " = " +
             std::to_string(with_feet) + " cards) does not fit in the pack (decks x 52 + jokers = " +
             std::to_string(pack_size()) + " cards, and the stock needs one)";
  }
  if (dealt >= pack_size()) {
    return "the deal (num_players x hand_size + upcards = " + std::to_string(num_players) + " x " +
           std::to_string(hand_size) + " + " + std::to_string(upcards) + " = " +
           std::to_string(dealt) + " cards) does not fit in the pack (decks x 52 + jokers = " +
           std::to_string(pack_size()) + " cards, and the stock needs one)";
  }
  if (max_meld_size != 0 && max_meld_size < min_meld_size) {
    return "max_meld_size must be 0 (no maximum) or at least min_meld_size (" +
           std::to_string(min_meld_size) + "), got " + std::to_string(max_meld_size);
  }
  if (canasta_size < min_meld_size) {
    return "canasta_size (" + std::to_string(canasta_size) + ") must be at least min_meld_size (" +
           std::to_string(min_meld_size) + ")";
  }
  if (max_wilds_completed != -1 && max_wilds_completed < max_wilds_incomplete) {
    return "max_wilds_completed (" + std::to_string(max_wilds_completed) +
           ") must be -1 (no cap) or at least max_wilds_incomplete (" +
           std::to_string(max_wilds_incomplete) +
           "): completing a canasta cannot lower the wild cards a meld already holds";
  }
  if (one_unfinished_wild_meld && !wild_melds) {
    return "one_unfinished_wild_meld = true needs wild_melds = true: it limits melds of wild "
           "cards, which wild_melds = false forbids";
  }
  if (!last_discard_goes_out && discard_required_to_go_out) {
    return "last_discard_goes_out = false and discard_required_to_go_out = true leave no way to "
           "go out: one must allow a discard to go out, the other forbids going out without one";
  }
  if (ask_to_go_out == AskToGoOut::kNotAllowed && out_without_asking_penalty != 0) {
    return "out_without_asking_penalty (" + std::to_string(out_without_asking_penalty) +
           ") must be 0 when ask_to_go_out = \"not_allowed\": nobody may ask, so every player "
           "who goes out would lose it";
  }
  if (splash_companions_need_minimum && !splash_opens) {
    return "splash_companions_need_minimum = true needs splash_opens = true: with "
           "splash_opens = false no splash makes an initial meld";
  }
  if (initial_meld_before_pile && !pile_in_initial_meld_turn) {
    return "initial_meld_before_pile = true and pile_in_initial_meld_turn = false contradict: "
           "the first says how the pile is taken in the initial-meld turn, the second forbids it";
  }
  // 001 L65: a special hand is the 14 cards held after the draw.
  if (special_hands() && hand_size + stock_draw != kSpecialHandCards) {
    return "the special hands (special_hand_straight, special_hand_pairs_natural, "
           "special_hand_pairs_with_twos, special_hand_garbage) are 14 cards, the hand after "
           "the draw, so they need hand_size + stock_draw = 14; got " +
           std::to_string(hand_size) + " + " + std::to_string(stock_draw);
  }
  if (special_hand_straight > 0 && jokers == 0) {
    return "special_hand_straight (" + std::to_string(special_hand_straight) +
           ") needs a joker in the pack (001 L68: \"plus a joker\"); jokers is 0";
  }
  if (sequence_max_length != 0 && sequence_max_length < sequence_min_length)
    return "sequence_max_length (" + std::to_string(sequence_max_length) +
           ") is below sequence_min_length (" + std::to_string(sequence_min_length) + ")";
  for (size_t i = 1; i < minimum_table.size(); ++i) {
    if (minimum_table[i].from_total <= minimum_table[i - 1].from_total) {
      return "minimum_table bands must be in increasing order of from_total (band " +
             std::to_string(i + 1) + " starts at " + std::to_string(minimum_table[i].from_total) +
             ", band " + std::to_string(i) + " at " +
             std::to_string(minimum_table[i - 1].from_total) + ")";
    }
  }
  return "";
}

const std::vector<std::string>& EnumNames(ThreeLayout) {
  static const std::vector<std::string> k = {"first_turn", "before_play", "immediately"};
  return k;
}
const std::vector<std::string>& EnumNames(UnfrozenTake) {
  static const std::vector<std::string> k = {"pair_or_natural_wild_or_add",
                                             "two_naturals_from_hand", "natural_pair",
                                             "pair_or_meld", "pair_or_wild"};
  return k;
}
const std::vector<std::string>& EnumNames(PileFreeze) {
  static const std::vector<std::string> k = {"until_taken", "until_covered"};
  return k;
}
const std::vector<std::string>& EnumNames(WildDiscard) {
  static const std::vector<std::string> k = {"allowed", "only_if_no_other_card", "never"};
  return k;
}
const std::vector<std::string>& EnumNames(BlackThreeMeld) {
  static const std::vector<std::string> k = {"general_rules", "three_or_four_no_wild", "never",
                                             "any_time"};
  return k;
}
const std::vector<std::string>& EnumNames(ExactTie) {
  static const std::vector<std::string> k = {"play_another_deal", "draw"};
  return k;
}

const std::vector<std::string>& EnumNames(MinimumBy) {
  static const std::vector<std::string> k = {"own_total", "leading_total", "trailing_total"};
  return k;
}

const std::vector<std::string>& EnumNames(AskToGoOut) {
  static const std::vector<std::string> k = {"optional", "required", "not_allowed"};
  return k;
}
const std::vector<std::string>& EnumNames(DealerRotation) {
  static const std::vector<std::string> k = {"left", "right", "none"};
  return k;
}
const std::vector<std::string>& EnumNames(FirstPlayer) {
  static const std::vector<std::string> k = {"dealer_left", "dealer", "dealer_right"};
  return k;
}

const std::vector<std::string>& EnumNames(InitialMeldCondition) {
  static const std::vector<std::string> k = {"count_only", "natural_three_or_wild_meld",
                                             "natural_three", "three_naturals"};
  return k;
}
const std::vector<std::string>& EnumNames(SequenceAce) {
  static const std::vector<std::string> k = {"high", "low", "either"};
  return k;
}
const std::vector<std::string>& EnumNames(StockOutPlay) {
  static const std::vector<std::string> k = {"while_taking", "ends_at_last_card"};
  return k;
}

const std::vector<std::string>& EnumNames(FootPickup) {
  static const std::vector<std::string> k = {"at_once", "next_turn"};
  return k;
}

const RuleHooks& DefaultHooks() {
  static const RuleHooks kDefault;
  return kDefault;
}

const std::vector<BreakdownPart>& BreakdownParts() {
  static const std::vector<BreakdownPart> k = {
      {"canastas", &ScoreBreakdown::canastas},   {"red_threes", &ScoreBreakdown::red_threes},
      {"going_out", &ScoreBreakdown::going_out}, {"melded", &ScoreBreakdown::melded},
      {"in_hand", &ScoreBreakdown::in_hand},     {"penalties", &ScoreBreakdown::penalties},
      {"house", &ScoreBreakdown::house},         {"special_hand", &ScoreBreakdown::special_hand}};
  return k;
}

const int* ScoreBreakdown::Find(std::string_view name) const {
  for (const BreakdownPart& p : BreakdownParts())
    if (name == p.name) return &(this->*p.field);
  for (const auto& part : extra)
    if (name == part.first) return &part.second;
  return nullptr;
}

bool ScoreBreakdown::operator==(const ScoreBreakdown& o) const {
  for (const BreakdownPart& p : BreakdownParts())
    if (this->*p.field != o.*p.field) return false;
  return extra == o.extra;
}

ScoreBreakdown EmptyBreakdown(const std::vector<std::string>& extra_names) {
  ScoreBreakdown b;
  for (const std::string& name : extra_names) b.extra.emplace_back(name, 0);
  return b;
}

}  // namespace canasta
