#include "scripting/param_values.h"

namespace canasta {
namespace {

std::string RankKey(Rank rank) { return "[\"" + ToString(rank) + "\"]"; }

struct Describer {
  std::vector<ParamText>* out;
  bool expand;

  template <class T>
  void operator()(const ParamInfo& info, const T& value) {
    out->push_back({info, info.name, FormatValue(value)});
  }
  void operator()(const ParamInfo& info, const std::array<int, 16>& value) {
    if (!expand) {
      out->push_back({info, info.name, FormatValue(value)});
      return;
    }
    for (Rank rank : ValueRanks()) {
      out->push_back(
          {info, std::string(info.name) + RankKey(rank), FormatValue(value[size_t(rank)])});
    }
  }
};

}  // namespace

const std::vector<std::pair<std::string, uint8_t>>& TriggerNames() {
  static const std::vector<std::pair<std::string, uint8_t>> kNames = {
      {"joker", kTriggerJoker},
      {"two", kTriggerTwo},
      {"red_three", kTriggerRedThree},
      {"black_three", kTriggerBlackThree}};
  return kNames;
}

const std::vector<Rank>& ValueRanks() {
  static const std::vector<Rank> kRanks = {Rank::kTwo, Rank::kThree, Rank::kFour,  Rank::kFive,
                                           Rank::kSix, Rank::kSeven, Rank::kEight, Rank::kNine,
                                           Rank::kTen, Rank::kJack,  Rank::kQueen, Rank::kKing,
                                           Rank::kAce, Rank::kJoker};
  return kRanks;
}

std::string FormatValue(int value) { return std::to_string(value); }

std::string FormatValue(uint8_t value) {
  std::string out = "{";
  uint8_t known = 0;
  for (const auto& [name, bit] : TriggerNames()) {
    known |= bit;
    if (value & bit) {
      if (out.size() > 1) out += ", ";
      out += "\"" + name + "\"";
    }
  }
  // Bits without a name cannot be written as a list.
  if (value & ~known) return std::to_string(value);
  return out + "}";
}

std::string FormatValue(bool value) { return value ? "true" : "false"; }

std::string FormatValue(const std::array<int, 16>& card_value) {
  std::string out = "{";
  for (Rank rank : ValueRanks()) {
    if (out.size() > 1) out += ", ";
    out += RankKey(rank) + " = " + std::to_string(card_value[size_t(rank)]);
  }
  return out + "}";
}

std::string FormatValue(const std::vector<MinimumBand>& table) {
  std::string out = "{";
  for (const MinimumBand& band : table) {
    if (out.size() > 1) out += ", ";
    out += "{";
    out += band.from_total <= kMinusInfinityTotal ? "-math.huge" : std::to_string(band.from_total);
    out += ", " + std::to_string(band.minimum) + "}";
  }
  return out + "}";
}

std::string FormatValue(const RankSet& ranks) {
  std::string out = "{";
  for (Rank rank : ValueRanks()) {
    if (!ranks.Contains(rank)) continue;
    if (out.size() > 1) out += ", ";
    out += "\"" + ToString(rank) + "\"";
  }
  return out + "}";
}

std::string FormatValue(const std::vector<int>& values) {
  std::string out = "{";
  for (int v : values) out += (out.size() > 1 ? ", " : "") + std::to_string(v);
  return out + "}";
}

std::vector<ParamText> DescribeParams(const Rules& rules, bool expand_arrays) {
  std::vector<ParamText> out;
  Rules copy = rules;  // VisitParams takes a mutable Rules
  VisitParams(copy, Describer{&out, expand_arrays});
  return out;
}

namespace {
const std::vector<ParamInfo>& AllInfos() {
  static const std::vector<ParamInfo> kInfos = [] {
    std::vector<ParamInfo> infos;
    Rules rules;
    VisitParams(rules, [&infos](const ParamInfo& info, auto&) { infos.push_back(info); });
    return infos;
  }();
  return kInfos;
}
}  // namespace

const std::vector<std::string>& ParamNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const ParamInfo& info : AllInfos()) names.emplace_back(info.name);
    return names;
  }();
  return kNames;
}

const ParamInfo* FindParam(const std::string& name) {
  for (const ParamInfo& info : AllInfos()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

}  // namespace canasta
