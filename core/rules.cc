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
  // Bands by lower bound (A24): the last band whose start is <= total.
  int minimum = minimum_table.empty() ? 0 : minimum_table.front().minimum;
  for (const MinimumBand& band : minimum_table) {
    if (total >= band.from_total) minimum = band.minimum;
  }
  return minimum;
}

void Rules::SetCitation(const std::string& param, const std::string& source) {
  auto next = std::make_shared<Citations>(citations ? *citations : Citations());
  auto it = std::find_if(next->begin(), next->end(),
                         [&](const auto& entry) { return entry.first == param; });
  if (it != next->end()) it->second = source;
  else next->emplace_back(param, source);
  citations = std::move(next);
}

std::string Rules::Cite(std::string_view param, std::string_view fallback) const {
  if (citations) {
    for (const auto& [name, source] : *citations)
      if (name == param && !source.empty()) return source;
  }
  return std::string(fallback);
}

std::string Rules::Validate() const {
  if (num_players < 2 || num_players > 6) return "num_players must be 2 to 6";
  if (num_players > 4 && num_players != 6) return "num_players must be 2, 3, 4 or 6";
  if (decks < 1 || decks > 4) return "decks must be 1 to 4";
  if (jokers < 0 || jokers > 12) return "jokers must be 0 to 12";
  if (hand_size < 1) return "hand_size must be at least 1";
  if (num_players * hand_size + upcards >= pack_size())
    return "the deal (num_players x hand_size + upcards) does not fit in the pack";
  if (upcards < 0 || upcards > 1) return "upcards must be 0 or 1";
  if (stock_draw < 1 || stock_draw > 5) return "stock_draw must be 1 to 5";
  if (min_meld_size < 1) return "min_meld_size must be at least 1";
  if (max_meld_size != 0 && max_meld_size < min_meld_size)
    return "max_meld_size must be 0 (no maximum) or at least min_meld_size";
  if (min_naturals < 0) return "min_naturals must not be negative";
  if (max_wilds_incomplete < 0) return "max_wilds_incomplete must not be negative";
  if (max_wilds_completed < -1) return "max_wilds_completed must be -1 (no cap) or more";
  if (canasta_size < min_meld_size) return "canasta_size must be at least min_meld_size";
  if (minimum_table.empty()) return "minimum_table must have at least one band";
  for (size_t i = 1; i < minimum_table.size(); ++i) {
    if (minimum_table[i].from_total <= minimum_table[i - 1].from_total)
      return "minimum_table bands must be in increasing order of from_total";
  }
  if (canastas_to_go_out < 0) return "canastas_to_go_out must not be negative";
  if (target_score <= 0) return "target_score must be positive";
  for (int r = 2; r <= 15; ++r) {
    if (card_value[r] < 0) return "card_value entries must not be negative";
  }
  return "";
}

const std::vector<std::string>& EnumNames(ThreeLayout) {
  static const std::vector<std::string> k = {"first_turn", "before_play", "immediately"};
  return k;
}
const std::vector<std::string>& EnumNames(UnfrozenTake) {
  static const std::vector<std::string> k = {"pair_or_natural_wild_or_add",
                                             "two_naturals_from_hand"};
  return k;
}
const std::vector<std::string>& EnumNames(WildDiscard) {
  static const std::vector<std::string> k = {"allowed", "only_if_no_other_card", "never"};
  return k;
}
const std::vector<std::string>& EnumNames(BlackThreeMeld) {
  static const std::vector<std::string> k = {"general_rules", "three_or_four_no_wild", "never"};
  return k;
}
const std::vector<std::string>& EnumNames(ExactTie) {
  static const std::vector<std::string> k = {"play_another_deal", "draw"};
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
      {"house", &ScoreBreakdown::house}};
  return k;
}

}  // namespace canasta
