#include "replay/log_writer.h"

#include <cstdio>

namespace canasta {
namespace {

std::string Cards(const std::vector<Card>& cards) {
  std::string s = "[";
  for (size_t i = 0; i < cards.size(); ++i) s += (i ? ",\"" : "\"") + ToString(cards[i]) + "\"";
  return s + "]";
}

std::string Ints(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string RankRef(Rank r) { return r == Rank::kJoker ? "\"wild\"" : "\"" + ToString(r) + "\""; }

}  // namespace

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

std::string GameLine(const std::string& ruleset, const std::vector<std::string>& players) {
  std::string s = "{\"type\":\"game\",\"format\":\"canasta-log/1\",\"ruleset\":" +
                  JsonString(ruleset) + ",\"players\":[";
  for (size_t i = 0; i < players.size(); ++i) s += (i ? "," : "") + JsonString(players[i]);
  return s + "]}";
}

std::string DealLine(int hand, const DealMove& d) {
  std::string s = "{\"type\":\"deal\",\"hand\":" + std::to_string(hand) +
                  ",\"dealer\":" + std::to_string(d.dealer) + ",\"hands\":[";
  for (size_t i = 0; i < d.hands.size(); ++i) s += (i ? "," : "") + Cards(d.hands[i]);
  s += "]";
  if (!d.feet.empty()) {
    s += ",\"feet\":[";
    for (size_t i = 0; i < d.feet.size(); ++i) s += (i ? "," : "") + Cards(d.feet[i]);
    s += "]";
  }
  s += ",\"upcard\":" + Cards(d.upcards);
  if (d.stock) s += ",\"stock\":" + Cards(*d.stock);
  return s + "}";
}

std::string MoveLine(const Move& move) {
  return std::visit(
      [](const auto& m) -> std::string {
        using T = std::decay_t<decltype(m)>;
        const std::string p = ",\"player\":" + std::to_string(m.player);
        if constexpr (std::is_same_v<T, DrawMove>) {
          return "{\"type\":\"draw\"" + p + ",\"cards\":" + Cards(m.cards) +
                 (m.bonus ? ",\"bonus\":true}" : "}");
        } else if constexpr (std::is_same_v<T, TakePileMove>) {
          std::string s = "{\"type\":\"take_pile\"" + p + ",\"top\":\"" + ToString(m.top) + "\"";
          if (!m.before.empty()) {
            s += ",\"before\":[";
            for (size_t i = 0; i < m.before.size(); ++i)
              s += std::string(i ? "," : "") + "{\"cards\":" + Cards(m.before[i].cards) + "}";
            s += "]";
          }
          if (!m.with.empty() || !m.to) s += ",\"with\":" + Cards(m.with);
          else s += ",\"to\":" + RankRef(*m.to);
          if (m.to_hand) s += ",\"to_hand\":true";
          if (m.count) s += ",\"count\":" + std::to_string(*m.count);
          return s + "}";
        } else if constexpr (std::is_same_v<T, MeldMove>) {
          std::string s = "{\"type\":\"meld\"" + p + ",\"melds\":[";
          for (size_t i = 0; i < m.parts.size(); ++i) {
            const MeldPart& part = m.parts[i];
            s += i ? ",{" : "{";
            if (!part.to_id.empty()) s += "\"to\":" + JsonString(part.to_id) + ",";
            else if (part.to) s += "\"to\":" + RankRef(*part.to) + ",";
            if (part.sequence) s += "\"as\":\"sequence\",";
            else if (part.as) s += "\"as\":" + RankRef(*part.as) + ",";
            if (!part.id.empty()) s += "\"id\":" + JsonString(part.id) + ",";
            s += "\"cards\":" + Cards(part.cards) + "}";
          }
          return s + "]}";
        } else if constexpr (std::is_same_v<T, DiscardMove>) {
          return "{\"type\":\"discard\"" + p + ",\"card\":\"" + ToString(m.card) + "\"" +
                 (m.face_down ? ",\"face_down\":true}" : "}");
        } else if constexpr (std::is_same_v<T, ThreeMove>) {
          std::string s = "{\"type\":\"three\"" + p + ",\"card\":\"" + ToString(m.card) + "\"";
          if (m.replacement) s += ",\"replacement\":\"" + ToString(*m.replacement) + "\"";
          return s + "}";
        } else if constexpr (std::is_same_v<T, AskOutMove>) {
          return "{\"type\":\"ask_out\"" + p + "}";
        } else if constexpr (std::is_same_v<T, AnswerMove>) {
          return "{\"type\":\"answer\"" + p + ",\"yes\":" + (m.yes ? "true" : "false") + "}";
        } else if constexpr (std::is_same_v<T, SpecialHandMove>) {
          return "{\"type\":\"special_hand\"" + p + ",\"cards\":" + Cards(m.cards) + "}";
        } else if constexpr (std::is_same_v<T, FootMove>) {
          return "{\"type\":\"foot\"" + p + "}";
        } else {
          return "{\"type\":\"retract\"" + p + ",\"cards\":" + Cards(m.cards) + "}";
        }
      },
      move);
}

std::string EndHandLine(int hand, const std::vector<ScoreBreakdown>& parts,
                        const std::vector<int>& totals) {
  std::vector<int> scores;
  for (const ScoreBreakdown& b : parts) scores.push_back(b.total());
  std::string s = "{\"type\":\"end_hand\",\"hand\":" + std::to_string(hand) +
                  ",\"scores\":" + Ints(scores) + ",\"totals\":" + Ints(totals) +
                  ",\"breakdown\":[";
  for (size_t i = 0; i < parts.size(); ++i) {
    s += i ? ",{" : "{";
    bool first = true;
    for (const BreakdownPart& p : BreakdownParts()) {
      if (std::string(p.name) == "house" && parts[i].house == 0) continue;
      if (std::string(p.name) == "special_hand" && parts[i].special_hand == 0) continue;
      s += (first ? "\"" : ",\"") + std::string(p.name) + "\":" + std::to_string(parts[i].*p.field);
      first = false;
    }
    // The ruleset's own parts (score_parts), where they count (docs/log-format.md).
    for (const auto& [name, value] : parts[i].extra) {
      if (value == 0) continue;
      s += (first ? "" : ",") + JsonString(name) + ":" + std::to_string(value);
      first = false;
    }
    s += "}";
  }
  return s + "]}";
}

std::string EndGameLine(const std::vector<int>& totals, std::optional<int> winner) {
  std::string s = "{\"type\":\"end_game\",\"totals\":" + Ints(totals);
  if (winner) s += ",\"winner\":" + std::to_string(*winner);
  return s + "}";
}

std::string NoteLine(const std::string& text) {
  return "{\"type\":\"note\",\"text\":" + JsonString(text) + "}";
}

}  // namespace canasta
