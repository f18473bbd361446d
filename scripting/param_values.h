// Rule parameters as text, in the Lua syntax a ruleset file uses, so that
// `rules show` output can be pasted into a file. Every list here comes from
// VisitParams (core/rules.h); nothing repeats the parameter list.
#ifndef CANASTA_SCRIPTING_PARAM_VALUES_H_
#define CANASTA_SCRIPTING_PARAM_VALUES_H_

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/rules.h"

namespace canasta {

// The lowest from_total of a minimum-count band, written -math.huge in Lua
// (the same value as the first band of the engine's default table).
constexpr int kMinusInfinityTotal = -1000000000;

// Names of the bits of the uint8_t parameters (the upcard trigger sets).
const std::vector<std::pair<std::string, uint8_t>>& TriggerNames();

// The ranks card_value is keyed by, as Lua writes them: "2".."9", "T", "J",
// "Q", "K", "A", "JK" (with "10" accepted for "T" when reading).
const std::vector<Rank>& ValueRanks();

std::string FormatValue(int value);
std::string FormatValue(uint8_t value);  // a trigger set: {"joker", "two"}
std::string FormatValue(bool value);
std::string FormatValue(const std::array<int, 16>& card_value);
std::string FormatValue(const std::vector<MinimumBand>& table);
std::string FormatValue(const RankSet& ranks);  // {"7", "A"}
std::string FormatValue(const std::vector<int>& values);
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
std::string FormatValue(E value) {
  const std::vector<std::string>& names = EnumNames(value);
  size_t i = size_t(value);
  return i < names.size() ? "\"" + names[i] + "\"" : std::to_string(i);
}

// One parameter with its value as text.
struct ParamText {
  ParamInfo info;
  std::string name;   // info.name, or "card_value.K" for an element when expanded
  std::string value;  // Lua syntax
};

// Every parameter of `rules`, in VisitParams order. With `expand_arrays`,
// card_value is given rank by rank (for `rules diff`).
std::vector<ParamText> DescribeParams(const Rules& rules, bool expand_arrays = false);

// The names of all parameters, in VisitParams order.
const std::vector<std::string>& ParamNames();
const ParamInfo* FindParam(const std::string& name);

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_PARAM_VALUES_H_
