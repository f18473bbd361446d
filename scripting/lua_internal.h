// Internal to scripting/: conversions between Lua values and rule values,
// the `canasta` helper table given to ruleset code, and a scanner that finds
// the line of each key in a ruleset's source. Includes the Lua headers, so
// only scripting/*.cc may include it.
#ifndef CANASTA_SCRIPTING_LUA_INTERNAL_H_
#define CANASTA_SCRIPTING_LUA_INTERNAL_H_

#include <array>
#include <exception>
#include <lua.hpp>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/rules.h"

namespace canasta {

// Wraps a lua_CFunction so that a std::exception thrown by C++ code in it
// becomes a Lua error instead of being swallowed by the C++ build of Lua.
// Lua's own errors are not std::exceptions and pass through untouched.
template <int (*F)(lua_State*)>
int CatchCpp(lua_State* L) {
  std::string error;
  try {
    return F(L);
  } catch (const std::exception& e) {
    error = e.what();
  }
  return luaL_error(L, "internal error: %s", error.c_str());
}

// "string", or "string \"abc\"" / "number 2.5" for short scalars: for messages.
std::string DescribeLuaValue(lua_State* L, int idx);

// --- Rule values -> Lua (for the `rules` argument of hooks) ---
void PushValue(lua_State* L, int value);
void PushValue(lua_State* L, uint8_t value);  // the bit set as an integer
void PushValue(lua_State* L, bool value);
void PushValue(lua_State* L, const std::array<int, 16>& card_value);  // keyed "2".."A","JK"
void PushValue(lua_State* L, const std::vector<MinimumBand>& table);  // {from_total=, minimum=}
void PushValue(lua_State* L, const RankSet& ranks);  // a list of rank names, {"7", "A"}
void PushValue(lua_State* L, const std::vector<int>& values);  // a list
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
void PushValue(lua_State* L, E value) {
  const std::vector<std::string>& names = EnumNames(value);
  size_t i = size_t(value);
  if (i < names.size()) {
    lua_pushlstring(L, names[i].data(), names[i].size());
  } else {
    lua_pushinteger(L, lua_Integer(i));
  }
}

// Pushes a read-only table of every parameter of `rules`, by name.
void PushRules(lua_State* L, const Rules& rules);
// Whether PushRules makes the same table for `a` and `b` (every parameter
// equal): a table may then serve Rules objects that are copies.
bool SameParams(Rules& a, const Rules& b);

// Replaces the table on top of the stack with a read-only, strict proxy of
// it: reading a string key it lacks is an error "<name> has no field ...
// (did you mean ...)".
void MakeReadOnly(lua_State* L, const char* name = "table");

// --- Lua -> rule values (ruleset files). Each returns "" on success or why
// the value at `idx` is not acceptable, leaving `out` unchanged. ---
std::string ReadValue(lua_State* L, int idx, int& out);
std::string ReadValue(lua_State* L, int idx, uint8_t& out);  // integer or list of names
std::string ReadValue(lua_State* L, int idx, bool& out);
std::string ReadValue(lua_State* L, int idx, std::array<int, 16>& out);  // merges the given ranks
std::string ReadValue(lua_State* L, int idx, std::vector<MinimumBand>& out);
std::string ReadValue(lua_State* L, int idx, RankSet& out);  // a list of ranks 4..A
std::string ReadValue(lua_State* L, int idx, std::vector<int>& out);
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
std::string ReadValue(lua_State* L, int idx, E& out) {
  const std::vector<std::string>& names = EnumNames(out);
  if (lua_type(L, idx) == LUA_TSTRING) {
    std::string_view text = lua_tostring(L, idx);
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == text) {
        out = E(i);
        return "";
      }
    }
  }
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "\"" : ", \"") + name + "\"";
  return "expected one of " + list + ", got " + DescribeLuaValue(L, idx);
}

// " (did you mean \"x\"?)" for a near miss of `word` among `known`, else "".
std::string Suggest(const std::string& word, const std::vector<std::string>& known);

// A name a script gave (a key it read or returned), in quotes and cut after
// 64 bytes: a hostile key of a megabyte makes a short message.
std::string QuoteName(std::string_view name);

// Sets the global table `canasta` of card helpers (see docs/lua-api.md).
void OpenCanastaLibrary(lua_State* L);

// The line (1-based) where each key of a table constructor is first
// written, by dotted path from the returned table: "params",
// "params.stock_draw", "hooks.minimum_count". Best effort: a lexical scan,
// so it never fails; keys it cannot place are absent.
std::map<std::string, int> ScanKeyLines(std::string_view source);

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_LUA_INTERNAL_H_
