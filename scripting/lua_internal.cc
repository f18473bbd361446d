#include "scripting/lua_internal.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/card.h"
#include "core/suggest.h"
#include "core/utf8.h"
#include "scripting/param_values.h"

namespace canasta {
namespace {

// Rank names as cards spell them, indexed by Rank; no allocation per call.
constexpr const char* kRankNames[16] = {"?", "?", "2", "3", "4", "5", "6", "7",
                                        "8", "9", "T", "J", "Q", "K", "A", "JK"};
constexpr const char* kSuitNames[4] = {"S", "H", "D", "C"};

// Never undefined behaviour: a float is converted only once it is known to
// be whole and within int (NaN fails every comparison, the infinities the
// range), and a Lua integer only once it is within int.
std::optional<int> ToInt(lua_State* L, int idx) {
  if (lua_isinteger(L, idx)) {
    lua_Integer v = lua_tointeger(L, idx);
    if (v < INT_MIN || v > INT_MAX) return std::nullopt;
    return int(v);
  }
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number d = lua_tonumber(L, idx);
    if (std::floor(d) == d && d >= INT_MIN && d <= INT_MAX) return int(d);
  }
  return std::nullopt;
}

std::string IntError(lua_State* L, int idx) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number d = lua_tonumber(L, idx);
    if (std::floor(d) == d) return DescribeLuaValue(L, idx) + " is out of range for an integer";
  }
  return "expected an integer, got " + DescribeLuaValue(L, idx);
}

// Raw field read, so that a metatable in a ruleset file runs no code here.
int RawField(lua_State* L, int table, const char* key) {
  table = lua_absindex(L, table);
  lua_pushstring(L, key);
  return lua_rawget(L, table);
}

int RefuseWrite(lua_State* L) { return luaL_error(L, "the rules table is read-only"); }

int ProxyNext(lua_State* L) {
  lua_settop(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 2);
  if (lua_next(L, 3)) return 2;
  lua_pushnil(L);
  return 1;
}

int ProxyPairs(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, CatchCpp<ProxyNext>, 1);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

int ProxyLen(lua_State* L) {
  lua_pushinteger(L, lua_Integer(lua_rawlen(L, lua_upvalueindex(1))));
  return 1;
}

Card CheckCard(lua_State* L, int idx) {
  size_t len = 0;
  const char* text = luaL_checklstring(L, idx, &len);
  std::optional<Card> card = ParseCard(std::string_view(text, len));
  if (!card) luaL_error(L, "not a card: \"%s\" (cards are written \"KS\", \"TH\", \"JK\")", text);
  return *card;
}

int CardRank(lua_State* L) {
  lua_pushstring(L, kRankNames[int(CheckCard(L, 1).rank())]);
  return 1;
}

int CardSuit(lua_State* L) {
  Card card = CheckCard(L, 1);
  if (card.is_joker()) {
    lua_pushnil(L);
  } else {
    lua_pushstring(L, kSuitNames[int(card.suit())]);
  }
  return 1;
}

template <bool (Card::*kTest)() const>
int CardTest(lua_State* L) {
  lua_pushboolean(L, (CheckCard(L, 1).*kTest)());
  return 1;
}

int CardIsNatural(lua_State* L) {
  lua_pushboolean(L, !CheckCard(L, 1).is_wild());
  return 1;
}

// canasta.value(card, rules): as Rules::value, read from the rules table.
int CardValue(lua_State* L) {
  Card card = CheckCard(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  if (card.is_red_three()) {
    lua_getfield(L, 2, "red_three_bonus");
  } else {
    lua_getfield(L, 2, "card_value");
    if (!lua_istable(L, -1)) return luaL_error(L, "rules.card_value is not a table");
    lua_getfield(L, -1, kRankNames[int(card.rank())]);
  }
  return 1;
}

}  // namespace

std::string DescribeLuaValue(lua_State* L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, idx, &len);
      if (len > 40) return "a long string";
      return "\"" + std::string(s, len) + "\"";
    }
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) return std::to_string(lua_tointeger(L, idx));
      {
        double d = double(lua_tonumber(L, idx));
        if (std::isnan(d)) return "nan";  // printf may write "-nan" for 0/0
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.14g", d);
        return buf;
      }
    case LUA_TBOOLEAN:
      return lua_toboolean(L, idx) ? "true" : "false";
    case LUA_TNIL:
    case LUA_TNONE:
      return "nil";
    default:
      return std::string("a ") + lua_typename(L, lua_type(L, idx));
  }
}

// --- Rule values -> Lua ---

void PushValue(lua_State* L, int value) { lua_pushinteger(L, value); }
void PushValue(lua_State* L, uint8_t value) { lua_pushinteger(L, value); }
void PushValue(lua_State* L, bool value) { lua_pushboolean(L, value); }

void PushValue(lua_State* L, const std::array<int, 16>& card_value) {
  lua_createtable(L, 0, int(ValueRanks().size()));
  for (Rank rank : ValueRanks()) {
    lua_pushinteger(L, card_value[size_t(rank)]);
    lua_setfield(L, -2, kRankNames[int(rank)]);
  }
}

void PushValue(lua_State* L, const std::vector<int>& values) {
  lua_createtable(L, int(values.size()), 0);
  for (size_t i = 0; i < values.size(); ++i) {
    lua_pushinteger(L, values[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
}

void PushValue(lua_State* L, const std::vector<MinimumBand>& table) {
  lua_createtable(L, int(table.size()), 0);
  for (size_t i = 0; i < table.size(); ++i) {
    lua_createtable(L, 0, 2);
    if (table[i].from_total <= kMinusInfinityTotal) {
      lua_pushnumber(L, -HUGE_VAL);
    } else {
      lua_pushinteger(L, table[i].from_total);
    }
    lua_setfield(L, -2, "from_total");
    lua_pushinteger(L, table[i].minimum);
    lua_setfield(L, -2, "minimum");
    MakeReadOnly(L, "rules.minimum_table entry");
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
}

void PushValue(lua_State* L, const RankSet& ranks) {
  lua_createtable(L, 0, 0);
  lua_Integer n = 0;
  for (Rank rank : ValueRanks()) {
    if (!ranks.Contains(rank)) continue;
    lua_pushstring(L, kRankNames[int(rank)]);
    lua_rawseti(L, -2, ++n);
  }
}

// __index of a read-only proxy: the real table's value; a string key it
// does not have is an error naming the near miss (a misspelt field would
// otherwise read as nil and silently change a rule). Integer keys read nil,
// so that ipairs ends.
int StrictIndex(lua_State* L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL || lua_type(L, 2) != LUA_TSTRING) return 1;
  std::vector<std::string> known;
  lua_pushnil(L);
  while (lua_next(L, lua_upvalueindex(1))) {
    if (lua_type(L, -2) == LUA_TSTRING) known.emplace_back(lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  std::string message = std::string(lua_tostring(L, lua_upvalueindex(2))) + " has no field " +
                        QuoteName(lua_tostring(L, 2)) + Suggest(lua_tostring(L, 2), known);
  return luaL_error(L, "%s", message.c_str());
}

void MakeReadOnly(lua_State* L, const char* name) {
  int real = lua_gettop(L);
  lua_createtable(L, 0, 0);  // the proxy
  lua_createtable(L, 0, 5);  // its metatable
  lua_pushvalue(L, real);
  lua_pushstring(L, name);
  lua_pushcclosure(L, CatchCpp<StrictIndex>, 2);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, CatchCpp<RefuseWrite>);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, real);
  lua_pushcclosure(L, CatchCpp<ProxyPairs>, 1);
  lua_setfield(L, -2, "__pairs");
  lua_pushvalue(L, real);
  lua_pushcclosure(L, CatchCpp<ProxyLen>, 1);
  lua_setfield(L, -2, "__len");
  lua_pushliteral(L, "read-only");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_replace(L, real);
}

void PushRules(lua_State* L, const Rules& rules) {
  Rules copy = rules;
  lua_createtable(L, 0, 64);
  VisitParams(copy, [L](const ParamInfo& info, const auto& value) {
    PushValue(L, value);
    if (lua_istable(L, -1)) MakeReadOnly(L, (std::string("rules.") + info.name).c_str());
    lua_setfield(L, -2, info.name);
  });
  MakeReadOnly(L, "rules");
}

bool SameParams(Rules& a, const Rules& b) {
  // VisitParams hands out members of `a`; the same member of `b` is at the
  // same offset.
  const char* base_a = reinterpret_cast<const char*>(&a);
  const char* base_b = reinterpret_cast<const char*>(&b);
  bool same = true;
  VisitParams(a, [&](const ParamInfo&, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    const char* at = reinterpret_cast<const char*>(&value);
    same = same && value == *reinterpret_cast<const T*>(base_b + (at - base_a));
  });
  return same;
}

// --- Lua -> rule values ---

// A list's values are at 1..n and nothing else: a hole or another key would
// be dropped without a word (lua_rawlen stops at a border), and a value the
// file gives must never be ignored. Returns why not, or "".
std::string NotAPlainList(lua_State* L, int idx, lua_Integer n) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n) continue;
    std::string key = DescribeLuaValue(L, -1);
    lua_pop(L, 1);
    return "the entry at " + key +
           " is not part of the list (a list holds its values at 1, 2, "
           "3, ... with no gap)";
  }
  return "";
}

// A band gives its lower bound once ([1], from_total or from) and its
// minimum once ([2] or minimum), with no other key.
std::string NotABand(lua_State* L, int band) {
  int from = 0, minimum = 0;
  lua_pushnil(L);
  while (lua_next(L, band)) {
    lua_pop(L, 1);
    const int type = lua_type(L, -1);
    if (lua_isinteger(L, -1) && lua_tointeger(L, -1) == 1) {
      ++from;
    } else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) == 2) {
      ++minimum;
    } else if (type == LUA_TSTRING && (std::string_view(lua_tostring(L, -1)) == "from_total" ||
                                       std::string_view(lua_tostring(L, -1)) == "from")) {
      ++from;
    } else if (type == LUA_TSTRING && std::string_view(lua_tostring(L, -1)) == "minimum") {
      ++minimum;
    } else {
      std::string key = DescribeLuaValue(L, -1);
      lua_pop(L, 1);
      return "unknown entry " + key + " (a band is {from_total, minimum})";
    }
  }
  if (from > 1) return "the lower bound is given more than once ([1], from_total, from)";
  if (minimum > 1) return "the minimum is given more than once ([2], minimum)";
  return "";
}

std::string ReadValue(lua_State* L, int idx, int& out) {
  std::optional<int> v = ToInt(L, idx);
  if (!v) return IntError(L, idx);
  out = *v;
  return "";
}

std::string ReadValue(lua_State* L, int idx, uint8_t& out) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    std::optional<int> v = ToInt(L, idx);
    if (!v || *v < 0 || *v > 255) {
      return "expected a bit set 0..255 or a list of names, got " + DescribeLuaValue(L, idx);
    }
    out = uint8_t(*v);
    return "";
  }
  if (!lua_istable(L, idx)) {
    return "expected a list such as {\"joker\", \"two\"} or a bit set, got " +
           DescribeLuaValue(L, idx);
  }
  idx = lua_absindex(L, idx);
  uint8_t bits = 0;
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  if (std::string why = NotAPlainList(L, idx, n); !why.empty()) return why;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    bool found = false;
    if (lua_type(L, -1) == LUA_TSTRING) {
      std::string_view name = lua_tostring(L, -1);
      for (const auto& [known, bit] : TriggerNames()) {
        if (name == known) {
          bits |= bit;
          found = true;
        }
      }
    }
    if (!found) {
      std::string got = DescribeLuaValue(L, -1);
      lua_pop(L, 1);
      std::string names;
      for (const auto& entry : TriggerNames()) {
        names += (names.empty() ? "\"" : ", \"") + entry.first + "\"";
      }
      return "entry " + std::to_string(i) + ": expected one of " + names + ", got " + got;
    }
    lua_pop(L, 1);
  }
  out = bits;
  return "";
}

std::string ReadValue(lua_State* L, int idx, bool& out) {
  if (lua_type(L, idx) != LUA_TBOOLEAN) {
    return "expected true or false, got " + DescribeLuaValue(L, idx);
  }
  out = lua_toboolean(L, idx);
  return "";
}

std::string ReadValue(lua_State* L, int idx, std::array<int, 16>& out) {
  if (!lua_istable(L, idx)) {
    return "expected a table keyed by rank, such as {[\"A\"] = 20, JK = 50}, got " +
           DescribeLuaValue(L, idx);
  }
  idx = lua_absindex(L, idx);
  std::array<int, 16> values = out;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    std::optional<Rank> rank;
    if (lua_type(L, -2) == LUA_TSTRING) rank = ParseRank(lua_tostring(L, -2));
    if (!rank) {
      std::string key = DescribeLuaValue(L, -2);
      lua_pop(L, 2);
      return "unknown rank " + key +
             " (keys are the strings \"2\"..\"9\", \"T\", \"J\", \"Q\", "
             "\"K\", \"A\", \"JK\")";
    }
    std::optional<int> v = ToInt(L, -1);
    if (!v) {
      std::string why = "rank \"" + std::string(kRankNames[int(*rank)]) + "\": " + IntError(L, -1);
      lua_pop(L, 2);
      return why;
    }
    values[size_t(*rank)] = *v;
    lua_pop(L, 1);
  }
  out = values;
  return "";
}

std::string ReadValue(lua_State* L, int idx, std::vector<int>& out) {
  if (!lua_istable(L, idx)) {
    return "expected a list of integers, such as {100, 300, 500, 1000}, got " +
           DescribeLuaValue(L, idx);
  }
  idx = lua_absindex(L, idx);
  std::vector<int> values;
  const lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  if (n > 16) return "expected at most 16 values, got " + std::to_string(n);
  if (std::string why = NotAPlainList(L, idx, n); !why.empty()) return why;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    std::optional<int> v = ToInt(L, -1);
    if (!v) {
      std::string why = "value " + std::to_string(i) + ": " + IntError(L, -1);
      lua_pop(L, 1);
      return why;
    }
    values.push_back(*v);
    lua_pop(L, 1);
  }
  out = std::move(values);
  return "";
}

std::string ReadValue(lua_State* L, int idx, std::vector<MinimumBand>& out) {
  const std::string kShape =
      "expected {from_total, minimum} or {from = ..., minimum = ...} (from may be -math.huge)";
  if (!lua_istable(L, idx)) return "expected a list of bands, got " + DescribeLuaValue(L, idx);
  idx = lua_absindex(L, idx);
  std::vector<MinimumBand> bands;
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  if (std::string why = NotAPlainList(L, idx, n); !why.empty()) return why;
  for (lua_Integer i = 1; i <= n; ++i) {
    std::string where = "band " + std::to_string(i) + ": ";
    lua_rawgeti(L, idx, i);
    if (!lua_istable(L, -1)) {
      std::string got = DescribeLuaValue(L, -1);
      lua_pop(L, 1);
      return where + kShape + ", got " + got;
    }
    int band = lua_gettop(L);
    if (std::string why = NotABand(L, band); !why.empty()) {
      lua_pop(L, 1);
      return where + why;
    }
    // from: [1], from_total or from
    if (lua_rawgeti(L, band, 1) == LUA_TNIL) {
      lua_pop(L, 1);
      if (RawField(L, band, "from_total") == LUA_TNIL) {
        lua_pop(L, 1);
        RawField(L, band, "from");
      }
    }
    std::optional<int> from;
    if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) == -HUGE_VAL) {
      from = kMinusInfinityTotal;
    } else {
      from = ToInt(L, -1);
    }
    if (!from) {
      std::string why = where + "from_total: " + IntError(L, -1);
      lua_pop(L, 2);
      return why;
    }
    lua_pop(L, 1);
    if (lua_rawgeti(L, band, 2) == LUA_TNIL) {
      lua_pop(L, 1);
      RawField(L, band, "minimum");
    }
    std::optional<int> minimum = ToInt(L, -1);
    if (!minimum) {
      std::string why = where + "minimum: " + IntError(L, -1);
      lua_pop(L, 2);
      return why;
    }
    lua_pop(L, 2);
    bands.push_back({std::max(*from, kMinusInfinityTotal), *minimum});
  }
  out = bands;
  return "";
}

std::string ReadValue(lua_State* L, int idx, RankSet& out) {
  if (!lua_istable(L, idx))
    return "expected a list of ranks such as {\"7\", \"A\"}, got " + DescribeLuaValue(L, idx);
  idx = lua_absindex(L, idx);
  RankSet ranks;
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  if (std::string why = NotAPlainList(L, idx, n); !why.empty()) return why;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    std::optional<Rank> rank;
    if (lua_type(L, -1) == LUA_TSTRING) rank = ParseRank(lua_tostring(L, -1));
    if (!rank || *rank < Rank::kFour || *rank > Rank::kAce) {
      std::string got = DescribeLuaValue(L, -1);
      lua_pop(L, 1);
      return "entry " + std::to_string(i) +
             ": expected a rank a meld is made of, \"4\"..\"9\", \"T\", \"J\", \"Q\", "
             "\"K\", \"A\", got " + got;
    }
    ranks.Add(*rank);
    lua_pop(L, 1);
  }
  out = ranks;
  return "";
}

// canasta.log(...): the values, tab-separated, on stderr after the file and
// line of the call, so that a family can debug its ruleset. A state prints
// at most kLogBudget bytes: a hook called a million times cannot flood.
constexpr lua_Integer kLogBudget = 64 << 10;

int CanastaLog(lua_State* L) {
  const int n = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, "canasta.log.bytes");
  lua_Integer used = lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (used > kLogBudget) return 0;
  std::string line;
  lua_Debug ar;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
    AppendPrintable(&line,
                    ar.source[0] == '@' || ar.source[0] == '=' ? ar.source + 1 : ar.short_src);
    line += ":" + std::to_string(ar.currentline) + ": ";
  }
  for (int i = 1; i <= n; ++i) {
    size_t len = 0;
    const char* s = luaL_tolstring(L, i, &len);
    if (i > 1) line += '\t';
    // A shared file's text reaches the terminal escaped (one line a call).
    AppendPrintable(&line, std::string_view(s, std::min<size_t>(len, 4096)));
    lua_pop(L, 1);
  }
  used += lua_Integer(line.size()) + 1;
  if (used > kLogBudget) line = "canasta.log: more output of this ruleset is suppressed";
  lua_pushinteger(L, used);
  lua_setfield(L, LUA_REGISTRYINDEX, "canasta.log.bytes");
  std::fprintf(stderr, "%s\n", line.c_str());
  return 0;
}

void OpenCanastaLibrary(lua_State* L) {
  static const luaL_Reg kFunctions[] = {
      {"rank", CatchCpp<CardRank>},
      {"suit", CatchCpp<CardSuit>},
      {"is_wild", CatchCpp<CardTest<&Card::is_wild>>},
      {"is_joker", CatchCpp<CardTest<&Card::is_joker>>},
      {"is_natural", CatchCpp<CardIsNatural>},
      {"is_red_three", CatchCpp<CardTest<&Card::is_red_three>>},
      {"is_black_three", CatchCpp<CardTest<&Card::is_black_three>>},
      {"value", CatchCpp<CardValue>},
      {"log", CatchCpp<CanastaLog>},
      {nullptr, nullptr}};
  luaL_newlib(L, kFunctions);
  lua_setglobal(L, "canasta");
}

// --- Key lines ---

namespace {

struct Token {
  enum Kind { kName, kString, kPunct, kEnd } kind;
  std::string text;
  int line;
};

// Length of a long bracket opener "[==[" at `i`, or 0.
size_t LongBracket(std::string_view s, size_t i, int* level) {
  if (i >= s.size() || s[i] != '[') return 0;
  size_t j = i + 1;
  while (j < s.size() && s[j] == '=') ++j;
  if (j < s.size() && s[j] == '[') {
    *level = int(j - i - 1);
    return j - i + 1;
  }
  return 0;
}

std::vector<Token> Tokenize(std::string_view s) {
  std::vector<Token> tokens;
  int line = 1;
  size_t i = 0;
  auto skip_long = [&](size_t start, int level) {
    std::string close = "]" + std::string(size_t(level), '=') + "]";
    size_t end = s.find(close, start);
    size_t stop = end == std::string_view::npos ? s.size() : end + close.size();
    for (size_t k = start; k < stop; ++k) line += s[k] == '\n';
    return stop;
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      int level = 0;
      size_t open = LongBracket(s, i + 2, &level);
      if (open) {
        i = skip_long(i + 2 + open, level);
      } else {
        while (i < s.size() && s[i] != '\n') ++i;
      }
    } else if (c == '"' || c == '\'') {
      int start_line = line;
      std::string text;
      ++i;
      while (i < s.size() && s[i] != c) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          ++i;
          if (s[i] == '\n') ++line;
        } else if (s[i] == '\n') {
          ++line;
        }
        text += s[i++];
      }
      ++i;
      tokens.push_back({Token::kString, text, start_line});
    } else if (int level = 0; c == '[' && LongBracket(s, i, &level)) {
      int start_line = line;
      size_t open = LongBracket(s, i, &level);
      i = skip_long(i + open, level);
      tokens.push_back({Token::kString, "", start_line});
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      tokens.push_back({Token::kName, std::string(s.substr(i, j - i)), line});
      i = j;
    } else {
      // Two-character operators that contain '=' must not look like '='.
      if (i + 1 < s.size() && s[i + 1] == '=' && (c == '=' || c == '~' || c == '<' || c == '>')) {
        tokens.push_back({Token::kPunct, std::string(s.substr(i, 2)), line});
        i += 2;
      } else {
        tokens.push_back({Token::kPunct, std::string(1, c), line});
        ++i;
      }
    }
  }
  tokens.push_back({Token::kEnd, "", line});
  return tokens;
}

}  // namespace

std::map<std::string, int> ScanKeyLines(std::string_view source) {
  constexpr size_t kMaxScanDepth = 8;
  std::map<std::string, int> lines;
  std::vector<Token> t = Tokenize(source);
  std::vector<std::string> path;  // one entry per open '{'
  std::string pending;            // the key of the '{' about to open
  auto prefix = [&path]() {
    std::string p;
    for (const std::string& part : path) {
      if (part.empty()) continue;
      if (!p.empty()) p += '.';
      p += part;
    }
    return p;
  };
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    const Token& tok = t[i];
    std::string key;
    int key_line = 0;
    size_t after = 0;
    if (tok.kind == Token::kName && t[i + 1].kind == Token::kPunct && t[i + 1].text == "=") {
      key = tok.text;
      key_line = tok.line;
      after = i + 2;
    } else if (tok.kind == Token::kPunct && tok.text == "[" && i + 3 < t.size() &&
               t[i + 1].kind == Token::kString && t[i + 2].text == "]" && t[i + 3].text == "=") {
      key = t[i + 1].text;
      key_line = t[i + 1].line;
      after = i + 4;
    }
    if (!key.empty()) {
      // Only shallow keys are ever looked up; skipping deep ones keeps a
      // pathological nesting from costing quadratic time.
      if (path.size() <= kMaxScanDepth) {
        std::string p = prefix();
        lines.emplace(p.empty() ? key : p + "." + key, key_line);
      }
      if (after < t.size() && t[after].kind == Token::kPunct && t[after].text == "{") {
        pending = key;
      }
      continue;
    }
    if (tok.kind == Token::kPunct && tok.text == "{") {
      path.push_back(pending.empty() ? (path.empty() ? "" : "?") : pending);
      pending.clear();
    } else if (tok.kind == Token::kPunct && tok.text == "}") {
      if (!path.empty()) path.pop_back();
    }
  }
  return lines;
}

// --- Names ---

// " (did you mean \"x\"?)" for a near miss, else "".
std::string Suggest(const std::string& word, const std::vector<std::string>& known) {
  const std::string best = NearestName(word, known);
  return best.empty() ? "" : " (did you mean \"" + best + "\"?)";
}

std::string QuoteName(std::string_view name) {
  constexpr size_t kMaxQuotedName = 64;
  return "\"" + ShortenText(name, kMaxQuotedName) + "\"";
}

}  // namespace canasta
