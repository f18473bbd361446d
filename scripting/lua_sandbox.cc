#include "scripting/lua_sandbox.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <lua.hpp>
#include <stdexcept>

#include "core/utf8.h"
#include "scripting/lua_internal.h"

namespace canasta {

namespace {

// Finds the innermost Lua function on the stack (C functions have no line)
// and records where it is. Reads the stack without allocating.
void LocateLuaFrame(lua_State* L, LuaSandbox::Where* where) {
  lua_Debug ar;
  for (int level = 0; level < 64 && lua_getstack(L, level, &ar); ++level) {
    if (!lua_getinfo(L, "Sl", &ar)) break;
    if (ar.currentline > 0) {
      std::snprintf(where->chunk, sizeof where->chunk, "%s", ar.short_src);
      where->line = ar.currentline;
      return;
    }
  }
}

}  // namespace

// The counting allocator. Lua promises that shrinking never fails, so only
// growth is checked.
struct LuaSandbox::Allocator {
  size_t used = 0;
  size_t limit = 0;
  uint64_t grows = 0;  // allocations that asked for more memory, refused or not
  size_t max_string = 0;
  // Why the last allocation was refused, for a clearer message than Lua's
  // "not enough memory", and where: Lua gives a memory error no position.
  size_t refused_string = 0;
  bool refused_total = false;
  lua_State* state = nullptr;  // set once the state exists
  Where where;
  // The clock inside C functions that only allocate (string.gsub writing a
  // large replacement, a buffer grown by table.concat): read every
  // kClockBytes of growth while a call runs. Once the call is out of time,
  // every growth is refused until the next call.
  LuaSandbox* sandbox = nullptr;  // set while a call runs (StartBudget)
  size_t grown = 0;
  bool refused_time = false;
  bool refused_time_status = false;  // the last call's memory error was for time
  static constexpr size_t kClockBytes = size_t{1} << 20;

  // True when the call is out of time: the sandbox is exhausted and the
  // count hook set to fail at the next instruction (lua_sethook may be
  // called anywhere, a signal handler included).
  bool OutOfTimeWhileGrowing(size_t growth) {
    if (sandbox == nullptr || state == nullptr) return false;
    grown += growth;
    if (grown < kClockBytes) return false;
    grown = 0;
    const char* why = sandbox->OutOfTime();
    if (why == nullptr) return false;
    refused_time = true;
    sandbox->exhausted_ = true;
    sandbox->exhausted_why_ = why;
    lua_sethook(state, CountHook, LUA_MASKCOUNT, 1);
    return true;
  }

  void Refused(void* ptr) {
    if (state == nullptr || where.line > 0) return;
#if LUA_VERSION_RELEASE_NUM > 50404
    // From 5.4.5 on, Lua turns the stack's pointers into offsets while it
    // reallocates the stack, and only then; 5.4.4 (Debian 12) allocates a
    // new stack first. Reading the stack is safe for a new block only.
    if (ptr != nullptr) return;
#else
    (void)ptr;
#endif
    LocateLuaFrame(state, &where);
  }

  static void* Fn(void* ud, void* ptr, size_t osize, size_t nsize) {
    auto* a = static_cast<Allocator*>(ud);
    // With ptr == NULL, osize is the type of the new object, not a size.
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
      std::free(ptr);
      a->used -= old;
      return nullptr;
    }
    if (nsize > old) {
      ++a->grows;
      if (a->refused_time || a->OutOfTimeWhileGrowing(nsize - old)) {
        a->Refused(ptr);
        return nullptr;
      }
      if (ptr == nullptr && osize == LUA_TSTRING && nsize > a->max_string) {
        a->refused_string = nsize;
        a->Refused(ptr);
        return nullptr;
      }
      if (a->used - old + nsize > a->limit) {
        a->refused_total = true;
        a->Refused(ptr);
        return nullptr;
      }
    }
    void* p = std::realloc(ptr, nsize);
    if (p != nullptr) a->used = a->used - old + nsize;
    return p;
  }
};

namespace {

constexpr int kMessageHandlerIndex = 1;
// The levels a traceback shows of a stack deeper than luaL_traceback's own
// window (MessageHandler).
constexpr int kTracebackLevels = 22;

// Work units between two reads of the clock inside C functions.
constexpr double kClockQuantum = 20000;
// Estimated cost of one comparison in table.sort (a function call) and of
// one element moved by table.insert, table.remove or table.move, in the
// units of SandboxLimits::c_work (where a byte of string work is one).
constexpr double kCompareUnits = 10;
constexpr double kMoveUnits = 2;
// Elements moved between two charges inside a loop.
constexpr lua_Integer kMovesPerCharge = 1024;

// The budget clock is read at the start of every call: the coarse clock
// costs a fifth of the precise one here, and its few milliseconds of
// resolution are plenty for limits of a tenth of a second and more.
int64_t NowNs() {
#ifdef CLOCK_MONOTONIC_COARSE
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
#else
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

}  // namespace

// Adds a traceback to every error that goes through Call(), and notes where
// the innermost Lua function is, for an error raised without a position.
int LuaSandbox::MessageHandler(lua_State* L) {
  LocateLuaFrame(L, &From(L)->handler_where_);
  const char* msg = lua_tostring(L, 1);
  if (msg == nullptr) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
      msg = lua_tostring(L, -1);
    } else {
      msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
  }
  // luaL_traceback finds the stack's depth by probing it, each probe a walk
  // from the top: over a recursion 200,000 deep that is seconds of pointer
  // chasing, unmetered. A deep stack shows its first levels only.
  lua_Debug probe;
  if (!lua_getstack(L, kTracebackLevels + 1, &probe)) {
    luaL_traceback(L, L, msg, 1);
    return 1;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, msg);
  luaL_addstring(&b, "\nstack traceback:");
  for (int level = 1; level <= kTracebackLevels; ++level) {
    lua_Debug ar;
    if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Slnt", &ar)) break;
    if (ar.currentline > 0)
      lua_pushfstring(L, "\n\t%s:%d: in ", ar.short_src, ar.currentline);
    else
      lua_pushfstring(L, "\n\t%s: in ", ar.short_src);
    luaL_addvalue(&b);
    if (*ar.namewhat != '\0')
      lua_pushfstring(L, "%s '%s'", ar.namewhat, ar.name);
    else if (*ar.what == 'm')
      lua_pushliteral(L, "main chunk");
    else if (*ar.what != 'C')
      lua_pushfstring(L, "function <%s:%d>", ar.short_src, ar.linedefined);
    else
      lua_pushliteral(L, "?");
    luaL_addvalue(&b);
    if (ar.istailcall) luaL_addstring(&b, "\n\t(...tail calls...)");
  }
  luaL_addstring(&b, "\n\t...\t(deeper levels not shown)");
  luaL_pushresult(&b);
  return 1;
}

namespace {

int Panic(lua_State* L) {
  const char* msg = lua_tostring(L, -1);
  std::fprintf(stderr, "canasta: unprotected Lua error: %s\n", msg ? msg : "?");
  return 0;  // Lua aborts
}

int NoPrint(lua_State*) { return 0; }

// Raises `what` with the position of the running Lua function: inside a
// hook, level 1 (luaL_error's choice) is the caller, not the loop.
[[noreturn]] void RaiseHere(lua_State* L, const char* what) {
  lua_Debug ar;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
    lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, what);
  } else {
    lua_pushstring(L, what);
  }
  lua_error(L);
  std::abort();  // not reached: lua_error does not return
}

// Calls the original library function (upvalue 1) with all arguments.
int CallOriginal(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// string.rep runs its loop inside one C call, where the instruction hook
// cannot stop it; string.rep("", 1e15) would loop 1e15 times on nothing.
int GuardedRep(lua_State* L) {
  size_t len = 0, sep_len = 0;
  luaL_checklstring(L, 1, &len);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &sep_len);
  if (n <= 0 || len + sep_len == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  double total = double(len) * double(n) + double(sep_len) * double(n - 1);
  LuaSandbox* sandbox = LuaSandbox::From(L);
  if (total > double(sandbox->limits().max_string_bytes)) {
    return luaL_error(L,
                      "string.rep: the result (%f bytes) is larger than the sandbox's "
                      "string limit (%d bytes)",
                      total, int(sandbox->limits().max_string_bytes));
  }
  sandbox->ChargeWork(L, total, "string.rep");
  return CallOriginal(L);
}

// An upper bound on the steps Lua's matcher may take: every quantifier,
// back-reference or %b can backtrack over the subject, and an unanchored
// search retries at every position.
double PatternCost(const char* p, size_t m, size_t n, bool plain, bool can_anchor) {
  double subject = double(n) + 1;
  double pattern = double(std::max<size_t>(m, 1));
  // Lua itself searches plainly when no special character appears.
  bool special = false;
  for (size_t i = 0; i < m && !special; ++i) special = std::strchr("^$*+?.([%-", p[i]) && p[i];
  if (plain || !special) return subject * pattern;
  int q = 0;
  bool anchored = can_anchor && m > 0 && p[0] == '^';
  for (size_t i = anchored ? 1 : 0; i < m; ++i) {
    char c = p[i];
    if (c == '%' && i + 1 < m) {
      char d = p[i + 1];
      if (d == 'b') {
        ++q;
        i += 3;
      } else if (d >= '1' && d <= '9') {
        ++q;
        ++i;
      } else {
        ++i;
      }
    } else if (c == '[') {
      ++i;
      if (i < m && p[i] == '^') ++i;
      if (i < m && p[i] == ']') ++i;  // a leading ']' is literal
      while (i < m && p[i] != ']') {
        if (p[i] == '%') ++i;
        ++i;
      }
    } else if (c == '*' || c == '+' || c == '-' || c == '?') {
      ++q;
    }
  }
  int exponent = std::max(1, q + (anchored ? 0 : 1));
  return std::pow(subject, exponent) * pattern;
}

template <bool kFind, bool kCanAnchor>
int GuardedPattern(lua_State* L) {
  size_t n = 0, m = 0;
  luaL_checklstring(L, 1, &n);
  const char* p = luaL_checklstring(L, 2, &m);
  bool plain = kFind && lua_toboolean(L, 4);
  LuaSandbox::From(L)->ChargeWork(L, PatternCost(p, m, n, plain, kCanAnchor),
                                  "string pattern matching");
  return CallOriginal(L);
}

// ltablib.c's checktab: a table, or a value whose metatable has the
// metamethods the function uses, as the originals accept.
enum { kTabR = 1, kTabW = 2, kTabL = 4, kTabRW = kTabR | kTabW };

bool HasField(lua_State* L, const char* key, int n) {
  lua_pushstring(L, key);
  return lua_rawget(L, -n) != LUA_TNIL;
}

void CheckTab(lua_State* L, int arg, int what) {
  if (lua_type(L, arg) == LUA_TTABLE) return;
  int n = 1;
  if (lua_getmetatable(L, arg) && (!(what & kTabR) || HasField(L, "__index", ++n)) &&
      (!(what & kTabW) || HasField(L, "__newindex", ++n)) &&
      (!(what & kTabL) || HasField(L, "__len", ++n))) {
    lua_pop(L, n);
  } else {
    luaL_checktype(L, arg, LUA_TTABLE);  // raises the usual error
  }
}

// Charges the elements a C loop moves in slices, so that the budget and the
// clock are checked while a long loop runs and not only after it.
class MoveMeter {
 public:
  MoveMeter(lua_State* L, const char* what) : L_(L), what_(what), sandbox_(LuaSandbox::From(L)) {}
  void Step() {
    if (++pending_ == kMovesPerCharge) Flush();
  }
  void Flush() {
    if (pending_ > 0) sandbox_->ChargeWork(L_, kMoveUnits * double(pending_), what_);
    pending_ = 0;
  }

 private:
  lua_State* L_;
  const char* what_;
  LuaSandbox* sandbox_;
  lua_Integer pending_ = 0;
};

// table.insert and table.remove shift every element after the position in
// one C loop: on a plain table no Lua code runs that the hook could stop.
// They are written out again (as ltablib.c has them) so that the length is
// read once: a __len that answers differently on a second call cannot
// widen the loop after it was checked.
int GuardedInsert(lua_State* L) {
  CheckTab(L, 1, kTabRW | kTabL);
  lua_Integer e = luaL_intop(+, luaL_len(L, 1), 1);  // the first empty slot
  lua_Integer pos = e;
  switch (lua_gettop(L)) {
    case 2:
      break;
    case 3: {
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, lua_Unsigned(pos) - 1u < lua_Unsigned(e), 2, "position out of bounds");
      LuaSandbox::From(L)->RefuseIfTooCostly(L, kMoveUnits * (double(e) - double(pos)),
                                             "table.insert");
      MoveMeter meter(L, "table.insert");
      for (lua_Integer i = e; i > pos; i--) {
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
        meter.Step();
      }
      meter.Flush();
      break;
    }
    default:
      return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

int GuardedRemove(lua_State* L) {
  CheckTab(L, 1, kTabRW | kTabL);
  lua_Integer size = luaL_len(L, 1);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size) {
    luaL_argcheck(L, lua_Unsigned(pos) - 1u <= lua_Unsigned(size), 2, "position out of bounds");
  }
  LuaSandbox::From(L)->RefuseIfTooCostly(L, kMoveUnits * (double(size) - double(pos)),
                                         "table.remove");
  MoveMeter meter(L, "table.remove");
  lua_geti(L, 1, pos);
  for (; pos < size; pos++) {
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
    meter.Step();
  }
  meter.Flush();
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

// One comparison of table.sort, through the caller's function (upvalue 1)
// or `<` when there is none. Sort runs its loop in C, and a C comparator
// such as math.ult runs no Lua instruction either: each comparison is
// charged here instead.
int SortCompare(lua_State* L) {
  double units = kCompareUnits;
  bool plain = lua_isnil(L, lua_upvalueindex(1));
  if (plain && lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
    units += double(std::min(lua_rawlen(L, 1), lua_rawlen(L, 2))) / 16;  // strcoll's scan
  }
  LuaSandbox::From(L)->ChargeWork(L, units, "table.sort");
  if (plain) {
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
  }
  lua_settop(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 2, 1);
  return 1;
}

int GuardedSort(lua_State* L) {
  CheckTab(L, 1, kTabRW | kTabL);
  lua_Integer n = luaL_len(L, 1);
  if (n > 1) {
    // Half of n log2 n comparisons is less than Lua's quicksort makes on
    // any input: a sort this estimate already puts over the budget is
    // refused before it starts.
    double estimate = kCompareUnits * double(n) * std::floor(std::log2(double(n))) / 2;
    LuaSandbox::From(L)->RefuseIfTooCostly(L, estimate, "table.sort");
  }
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));  // the original sort
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, CatchCpp<SortCompare>, 1);
  lua_call(L, 2, 0);
  return 0;
}

// table.concat, table.unpack and table.move loop in C over a range the
// caller chooses; on a plain table with holes no Lua code runs that the
// hook could stop. The range is worked out once here and passed on
// explicitly, so the original does not read the length again.
int GuardedConcat(lua_State* L) {
  CheckTab(L, 1, kTabR | kTabL);
  luaL_optlstring(L, 2, "", nullptr);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  lua_Integer j = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
  if (j >= i) LuaSandbox::From(L)->ChargeWork(L, double(j) - double(i) + 1, "table.concat");
  lua_settop(L, 2);
  lua_pushinteger(L, i);
  lua_pushinteger(L, j);
  return CallOriginal(L);
}

int GuardedUnpack(lua_State* L) {
  lua_Integer i = luaL_optinteger(L, 2, 1);
  lua_Integer e = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
  if (e >= i) LuaSandbox::From(L)->ChargeWork(L, double(e) - double(i) + 1, "table.unpack");
  lua_settop(L, 1);
  lua_pushinteger(L, i);
  lua_pushinteger(L, e);
  return CallOriginal(L);
}

int GuardedMove(lua_State* L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  if (e >= f) {
    LuaSandbox::From(L)->ChargeWork(L, kMoveUnits * (double(e) - double(f) + 1), "table.move");
  }
  return CallOriginal(L);
}

// String functions whose work is linear in their first argument (lower,
// upper, reverse, byte, sub): up to the string limit each, a thousand of
// them fit between two runs of the instruction hook.
int GuardedLinear(lua_State* L) {
  size_t len = 0;
  luaL_checklstring(L, 1, &len);
  LuaSandbox::From(L)->ChargeWork(L, double(len), "a string function");
  return CallOriginal(L);
}

// string.sub, the string function hooks call most (`card:sub(1, 1)`), is
// written out as lstrlib.c has it instead of calling the original through
// CallOriginal: the same result and charge as GuardedLinear, one C call less.
int GuardedSub(lua_State* L) {
  size_t len = 0;
  const char* s = luaL_checklstring(L, 1, &len);
  LuaSandbox::From(L)->ChargeWork(L, double(len), "a string function");
  const lua_Integer n = lua_Integer(len);
  // luaL_checkinteger and luaL_optinteger(L, 3, -1), their message only
  // when the argument is not an integer.
  int isnum = 0;
  lua_Integer i = lua_tointegerx(L, 2, &isnum);
  if (!isnum) i = luaL_checkinteger(L, 2);
  lua_Integer j = -1;
  if (!lua_isnoneornil(L, 3)) {
    j = lua_tointegerx(L, 3, &isnum);
    if (!isnum) j = luaL_checkinteger(L, 3);
  }
  // lstrlib.c's posrelatI and getendpos.
  const size_t start = i > 0 ? size_t(i) : i == 0 || i < -n ? 1 : size_t(n + i + 1);
  const size_t end = j > n ? len : j >= 0 ? size_t(j) : j < -n ? 0 : size_t(n + j + 1);
  if (start > end) {
    lua_pushliteral(L, "");
  } else {
    lua_pushlstring(L, s + start - 1, (end - start) + 1);
  }
  return 1;
}

// string.format copies its format and every string argument (%s, %q).
int GuardedFormat(lua_State* L) {
  size_t len = 0;
  luaL_checklstring(L, 1, &len);
  double units = double(len);
  for (int i = 2, n = lua_gettop(L); i <= n; ++i) {
    if (lua_type(L, i) == LUA_TSTRING) units += 2 * double(lua_rawlen(L, i));  // %q doubles
  }
  LuaSandbox::From(L)->ChargeWork(L, units, "string.format");
  return CallOriginal(L);
}

// Finalizers run with debug hooks off (lgc.c GCTM), so a __gc that loops
// could never be stopped. Lua marks an object for finalization only if its
// metatable has __gc when setmetatable is called, so checking here is enough.
int GuardedSetmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL) {
      return luaL_error(L,
                        "setmetatable: __gc metamethods are not allowed in the sandbox "
                        "(finalizers run where no budget can stop them)");
    }
    lua_pop(L, 1);
  }
  return CallOriginal(L);
}

// The tables the engine gives scripts (`rules`, its nested tables, a hook's
// argument tables) hide their metatable (__metatable) and refuse writes:
// rawset must not write past that (a changed `rules.stock_draw` would be
// read by every later call). A script's own tables are unaffected.
int GuardedRawset(lua_State* L) {
  if (lua_type(L, 1) == LUA_TTABLE && lua_getmetatable(L, 1)) {
    lua_pushliteral(L, "__metatable");
    if (lua_rawget(L, -2) != LUA_TNIL)
      return luaL_error(L, "rawset: this table is read-only (it belongs to the engine)");
    lua_pop(L, 2);
  }
  return CallOriginal(L);
}

void Guard(lua_State* L, const char* table, const char* name, lua_CFunction guard) {
  lua_getglobal(L, table);
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, guard, 1);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

void Remove(lua_State* L, const char* table, const char* name) {
  lua_getglobal(L, table);
  lua_pushnil(L);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

void OpenLibraries(lua_State* L) {
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
  lua_pop(L, 4);
  for (const char* name : {"dofile", "loadfile", "load", "require", "collectgarbage", "warn"}) {
    lua_pushnil(L);
    lua_setglobal(L, name);
  }
  // print is common in code copied from elsewhere: accept it, write nothing.
  lua_pushcfunction(L, CatchCpp<NoPrint>);
  lua_setglobal(L, "print");
  Remove(L, LUA_STRLIBNAME, "dump");
  Remove(L, LUA_MATHLIBNAME, "random");
  Remove(L, LUA_MATHLIBNAME, "randomseed");
  Guard(L, LUA_STRLIBNAME, "rep", CatchCpp<GuardedRep>);
  Guard(L, LUA_STRLIBNAME, "find", CatchCpp<GuardedPattern<true, true>>);
  Guard(L, LUA_STRLIBNAME, "match", CatchCpp<GuardedPattern<false, true>>);
  Guard(L, LUA_STRLIBNAME, "gmatch", CatchCpp<GuardedPattern<false, false>>);
  Guard(L, LUA_STRLIBNAME, "gsub", CatchCpp<GuardedPattern<false, true>>);
  Guard(L, LUA_STRLIBNAME, "format", CatchCpp<GuardedFormat>);
  for (const char* name : {"lower", "upper", "reverse", "byte"}) {
    Guard(L, LUA_STRLIBNAME, name, CatchCpp<GuardedLinear>);
  }
  Guard(L, LUA_STRLIBNAME, "sub", CatchCpp<GuardedSub>);
  Guard(L, LUA_TABLIBNAME, "concat", CatchCpp<GuardedConcat>);
  Guard(L, LUA_TABLIBNAME, "unpack", CatchCpp<GuardedUnpack>);
  Guard(L, LUA_TABLIBNAME, "move", CatchCpp<GuardedMove>);
  Guard(L, LUA_TABLIBNAME, "sort", CatchCpp<GuardedSort>);
  // Written out in full: they do not call the originals.
  Guard(L, LUA_TABLIBNAME, "insert", CatchCpp<GuardedInsert>);
  Guard(L, LUA_TABLIBNAME, "remove", CatchCpp<GuardedRemove>);
  lua_getglobal(L, "setmetatable");
  lua_pushcclosure(L, CatchCpp<GuardedSetmetatable>, 1);
  lua_setglobal(L, "setmetatable");
  lua_getglobal(L, "rawset");
  lua_pushcclosure(L, CatchCpp<GuardedRawset>, 1);
  lua_setglobal(L, "rawset");
}

struct PendingCall {
  void (*thunk)(lua_State*, void*);
  void* fn;
};

int ProtectedTrampoline(lua_State* L) {
  auto* pending = static_cast<PendingCall*>(lua_touserdata(L, 1));
  lua_remove(L, 1);
  std::string error;
  // Only std::exception is caught: Lua's own errors are C++ exceptions of
  // another type here and must keep unwinding to lua_pcall.
  try {
    pending->thunk(L, pending->fn);
    return 0;
  } catch (const std::exception& e) {
    error = e.what();
  }
  return luaL_error(L, "internal error: %s", error.c_str());
}

int HostTrampoline(lua_State* L) {
  auto* fn = static_cast<LuaSandbox::HostFunction*>(lua_touserdata(L, lua_upvalueindex(1)));
  int n = lua_gettop(L);
  for (int i = 1; i <= n; ++i) luaL_tolstring(L, i, nullptr);  // may raise: outside the try
  std::string result, error;
  bool failed = false;
  // The try block calls no Lua function that can raise, so catch (...)
  // cannot swallow a Lua error.
  try {
    std::vector<std::string> args;
    args.reserve(size_t(n));
    for (int i = 1; i <= n; ++i) {
      size_t len = 0;
      const char* s = lua_tolstring(L, n + i, &len);
      args.emplace_back(s, len);
    }
    result = (*fn)(args);
  } catch (const std::exception& e) {
    failed = true;
    error = e.what();
  } catch (...) {
    failed = true;
    error = "unknown C++ exception";
  }
  if (failed) return luaL_error(L, "%s", error.c_str());
  lua_pushlstring(L, result.data(), result.size());
  return 1;
}

}  // namespace

std::string LuaError::ToString() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
  }
  out += message;
  return out;
}

LuaSandbox::LuaSandbox(const SandboxLimits& limits)
    : limits_(limits), alloc_(std::make_unique<Allocator>()) {
  alloc_->limit = limits_.memory_bytes;
  alloc_->max_string = limits_.max_string_bytes;
  ApplyCallLimits();
  state_ = lua_newstate(&Allocator::Fn, alloc_.get());
  if (state_ == nullptr)
    throw std::runtime_error("cannot create a Lua state within the memory limit");
  alloc_->state = state_;
  *static_cast<LuaSandbox**>(lua_getextraspace(state_)) = this;
  lua_atpanic(state_, Panic);
  // The message handler stays at the bottom of the stack for every call.
  lua_pushcfunction(state_, CatchCpp<MessageHandler>);
  std::optional<LuaError> error = Protected([](lua_State* L) { OpenLibraries(L); });
  if (error) {
    alloc_->state = nullptr;
    lua_close(state_);
    state_ = nullptr;
    throw std::runtime_error("cannot set up the Lua sandbox: " + error->ToString());
  }
}

void LuaSandbox::ApplyCallLimits() {
  hook_interval_ = int(std::clamp<int64_t>(limits_.instructions, 1, 1000));
  total_instructions_why_ =
      "this ruleset's calls together exceeded their instruction limit (" +
      std::to_string(limits_.total_instructions) +
      " in all; the sandbox stops code that would stall a review): later calls are not made";
  char work[64];
  std::snprintf(work, sizeof work, "%g", limits_.total_seconds);
  total_seconds_why_ = std::string("this ruleset's calls together exceeded their time limit (") +
                       work + " s in all): later calls are not made";
  std::snprintf(work, sizeof work, "%.0f", limits_.total_c_work);
  total_c_work_why_ = std::string("this ruleset's calls together exceeded their C work limit (") +
                      work +
                      " steps of string and table functions in all): later calls are not made";
}

void LuaSandbox::SetCallLimits(const SandboxLimits& limits) {
  limits_.instructions = limits.instructions;
  limits_.c_work = limits.c_work;
  limits_.seconds = limits.seconds;
  limits_.total_instructions = limits.total_instructions;
  limits_.total_c_work = limits.total_c_work;
  limits_.total_seconds = limits.total_seconds;
  total_instructions_used_ = 0;
  total_work_used_ = 0;
  total_ns_used_ = 0;
  total_spent_ = nullptr;
  ApplyCallLimits();
}

LuaSandbox::~LuaSandbox() {
  if (state_ == nullptr) return;
  // Finalizers run in lua_close: give them a fresh budget, so a __gc that
  // loops forever is stopped like any other code.
  StartBudget();
  alloc_->state = nullptr;
  lua_close(state_);
}

LuaSandbox* LuaSandbox::From(lua_State* L) {
  return *static_cast<LuaSandbox**>(lua_getextraspace(L));
}

size_t LuaSandbox::memory_used() const { return alloc_->used; }

uint64_t LuaSandbox::allocations() const { return alloc_->grows; }

void LuaSandbox::StartBudget() {
  instructions_used_ = 0;
  work_used_ = 0;
  next_clock_check_ = kClockQuantum;
  exhausted_ = false;
  // From the first instruction: a call may go straight into a long C
  // function, where only ChargeWork reads the clock.
  start_ns_ = NowNs();
  alloc_->refused_string = 0;
  alloc_->refused_total = false;
  alloc_->refused_time = false;
  alloc_->refused_time_status = false;
  alloc_->grown = 0;
  alloc_->sandbox = this;
  // Only the first byte and the line are read of a Where (FillPosition,
  // Refused): no need to clear the whole name.
  alloc_->where.chunk[0] = '\0';
  alloc_->where.line = 0;
  handler_where_.chunk[0] = '\0';
  handler_where_.line = 0;
  if (total_spent_ != nullptr) {
    // Fail at the first instruction (C functions charging work fail too).
    exhausted_ = true;
    exhausted_why_ = total_spent_;
    lua_sethook(state_, CountHook, LUA_MASKCOUNT, 1);
    return;
  }
  lua_sethook(state_, CountHook, LUA_MASKCOUNT, hook_interval_);
}

const char* LuaSandbox::OutOfTime() {
  const int64_t elapsed = NowNs() - start_ns_;
  if (double(elapsed) > limits_.seconds * 1e9)
    return "time limit exceeded (the sandbox stops runaway code)";
  if (limits_.total_seconds > 0 && double(total_ns_used_ + elapsed) > limits_.total_seconds * 1e9)
    return total_spent_ = total_seconds_why_.c_str();
  return nullptr;
}

void LuaSandbox::CountHook(lua_State* L, lua_Debug* /*ar*/) {
  LuaSandbox* self = From(L);
  if (!self->exhausted_) {
    self->instructions_used_ += self->hook_interval_;
    self->total_instructions_used_ += self->hook_interval_;
    const char* why = nullptr;
    if (self->instructions_used_ >= self->limits_.instructions) {
      why = "instruction limit exceeded (the sandbox stops runaway loops)";
    } else if (self->limits_.total_instructions > 0 &&
               self->total_instructions_used_ >= self->limits_.total_instructions) {
      why = self->total_spent_ = self->total_instructions_why_.c_str();
    } else {
      why = self->OutOfTime();
    }
    if (why == nullptr) return;
    // From now on fail at every instruction, so that a pcall in the script
    // cannot catch the error and carry on.
    self->exhausted_ = true;
    self->exhausted_why_ = why;
    lua_sethook(L, CountHook, LUA_MASKCOUNT, 1);
  }
  RaiseHere(L, self->exhausted_why_);
}

void LuaSandbox::Exhaust(lua_State* L, const char* why) {
  exhausted_ = true;
  exhausted_why_ = why;
  lua_sethook(L, CountHook, LUA_MASKCOUNT, 1);
  luaL_error(L, "%s", why);
  std::abort();  // not reached
}

void LuaSandbox::RefuseIfTooCostly(lua_State* L, double units, const char* what) {
  if (exhausted_) luaL_error(L, "%s", exhausted_why_);
  double left = double(limits_.c_work) - work_used_;
  if (units <= left) return;
  // lua_pushfstring knows no precision: format here. A pattern's estimate
  // may have hundreds of digits: past 1e15 it is written with an exponent,
  // so that the message always fits and ends with the limit.
  char steps[32];
  std::snprintf(steps, sizeof steps, units < 1e15 ? "%.0f" : "%.3g", units);
  char text[256];
  if (units > double(limits_.c_work)) {
    std::snprintf(text, sizeof text,
                  "the arguments would take about %s steps, more than the sandbox allows in "
                  "one call (%.0f)",
                  steps, double(limits_.c_work));
  } else {
    std::snprintf(text, sizeof text,
                  "the arguments would take about %s steps, more than the sandbox has left in "
                  "this call (%.0f of %.0f)",
                  steps, std::max(left, 0.0), double(limits_.c_work));
  }
  luaL_error(L, "%s: %s", what, text);
}

void LuaSandbox::ChargeWork(lua_State* L, double units, const char* what) {
  if (exhausted_) luaL_error(L, "%s", exhausted_why_);
  if (units > double(limits_.c_work)) RefuseIfTooCostly(L, units, what);
  work_used_ += units;
  total_work_used_ += units;
  if (work_used_ > double(limits_.c_work)) {
    Exhaust(L, "C work limit exceeded (string and table functions did too much work in one call)");
  }
  if (limits_.total_c_work > 0 && total_work_used_ > limits_.total_c_work) {
    total_spent_ = total_c_work_why_.c_str();
    Exhaust(L, total_spent_);
  }
  if (work_used_ >= next_clock_check_ || units >= kClockQuantum) {
    next_clock_check_ = work_used_ + kClockQuantum;
    if (const char* why = OutOfTime()) Exhaust(L, why);
  }
}

void LuaSandbox::RaiseError(lua_State* L, const std::string& message) {
  lua_pushlstring(L, message.data(), message.size());
  lua_error(L);
  std::abort();  // not reached
}

std::string LuaSandbox::FullChunkName(const std::string& short_name) const {
  // Lua shortens long chunk names to "...<tail>".
  if (short_name.compare(0, 3, "...") != 0) return short_name;
  std::string tail = short_name.substr(3);
  for (const std::string& name : chunk_names_) {
    if (name.size() >= tail.size() &&
        name.compare(name.size() - tail.size(), tail.size(), tail) == 0) {
      return name;
    }
  }
  return short_name;
}

void LuaSandbox::FillPosition(LuaError& error, const Where& where) const {
  if (!error.file.empty() || where.chunk[0] == '\0') return;
  error.file = FullChunkName(where.chunk);
  error.line = where.line;
}

namespace {

// Hands the parser one line at a time, so that an error the parser raises
// without a line ("C stack overflow" from deep nesting, a memory error) can
// be given the line it had reached.
struct LineReader {
  std::string_view rest;
  int line = 0;

  static const char* Read(lua_State*, void* ud, size_t* size) {
    auto* r = static_cast<LineReader*>(ud);
    if (r->rest.empty()) {
      *size = 0;
      return nullptr;
    }
    size_t newline = r->rest.find('\n');
    size_t n = newline == std::string_view::npos ? r->rest.size() : newline + 1;
    const char* p = r->rest.data();
    r->rest.remove_prefix(n);
    ++r->line;
    *size = n;
    return p;
  }
};

}  // namespace

std::optional<LuaError> LuaSandbox::Load(std::string_view source, std::string_view chunkname) {
  std::string name(chunkname);
  if (std::find(chunk_names_.begin(), chunk_names_.end(), name) == chunk_names_.end()) {
    chunk_names_.push_back(name);
  }
  std::string at = "@" + name;
  // lua_load runs the parser in protected mode itself; "t": text only.
  LineReader reader{source};
  int status = lua_load(state_, &LineReader::Read, &reader, at.c_str(), "t");
  if (status == LUA_OK) return std::nullopt;
  size_t len = 0;
  const char* text = lua_tolstring(state_, -1, &len);
  LuaError error = ErrorFromMessage(text ? std::string_view(text, len) : "cannot load chunk");
  if (error.file.empty()) error.file = name;
  if (status == LUA_ERRMEM) error.message = "memory limit exceeded while loading the chunk";
  if (error.line == 0) error.line = std::max(reader.line, 1);
  lua_pop(state_, 1);
  return error;
}

std::optional<LuaError> LuaSandbox::Run(std::string_view source, std::string_view chunkname,
                                        int nresults) {
  if (std::optional<LuaError> error = Load(source, chunkname)) return error;
  return Call(0, nresults);
}

std::optional<LuaError> LuaSandbox::Call(int nargs, int nresults) {
  const int status = CallStatus(nargs, nresults);
  if (status == LUA_OK) return std::nullopt;
  return TakeError(status);
}

int LuaSandbox::CallStatus(int nargs, int nresults) {
  StartBudget();
  const int status = lua_pcall(state_, nargs, nresults, kMessageHandlerIndex);
  alloc_->sandbox = nullptr;  // no clock between calls, and growth allowed again
  const bool refused_time = alloc_->refused_time;
  alloc_->refused_time = false;
  if (limits_.total_seconds > 0) total_ns_used_ += NowNs() - start_ns_;
  // A memory error from a growth refused for time is the time's error.
  if (status == LUA_ERRMEM && refused_time) alloc_->refused_time_status = true;
  return status;
}

LuaError LuaSandbox::TakeError(int status) {
  lua_State* L = state_;
  LuaError error;
  size_t len = 0;
  const char* text = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : nullptr;
  std::string_view full = text ? std::string_view(text, len) : std::string_view();
  switch (status) {
    case LUA_ERRMEM:
      if (alloc_->refused_time_status) {
        error.message = exhausted_why_;
      } else if (alloc_->refused_string > 0) {
        error.message = "a string of " + std::to_string(alloc_->refused_string) +
                        " bytes is larger than the sandbox's string limit (" +
                        std::to_string(limits_.max_string_bytes) + " bytes)";
      } else {
        error.message =
            "memory limit exceeded (" + std::to_string(limits_.memory_bytes >> 20) + " MB)";
      }
      FillPosition(error, alloc_->where);
      break;
    case LUA_ERRERR:
      error.message = "error in the error handler: " + std::string(full);
      FillPosition(error, handler_where_);
      break;
    case LUA_ERRRUN:
    case LUA_ERRSYNTAX: {
      size_t tb = full.find("\nstack traceback:");
      std::string_view message = full.substr(0, tb);
      error = ErrorFromMessage(message);
      if (tb != std::string_view::npos) error.traceback = std::string(full.substr(tb + 1));
      // "C stack overflow" raised inside a C function, error("x", 0): say
      // where the Lua code was.
      FillPosition(error, handler_where_);
      break;
    }
    default:
      // The C++ build of Lua swallows a C++ exception that leaves a C
      // function; ours never let one out, so this is a bug.
      error.message = "a C++ exception escaped into Lua (status " + std::to_string(status) + ")";
      break;
  }
  lua_pop(L, 1);
  return error;
}

std::optional<LuaError> LuaSandbox::ProtectedImpl(void (*thunk)(lua_State*, void*), void* fn,
                                                  int nargs) {
  PendingCall pending{thunk, fn};
  lua_State* L = state_;
  // Pushing a light C function or a light userdata does not allocate.
  lua_pushcfunction(L, ProtectedTrampoline);
  if (nargs > 0) lua_insert(L, -(nargs + 1));
  lua_pushlightuserdata(L, &pending);
  if (nargs > 0) lua_insert(L, -(nargs + 1));
  return Call(nargs + 1, 0);
}

LuaError LuaSandbox::ErrorFromMessage(std::string_view text) const {
  LuaError error;
  // "file:line: message"; the first ":<digits>:" ends the file name.
  for (size_t colon = text.find(':'); colon != std::string_view::npos;
       colon = text.find(':', colon + 1)) {
    size_t end = colon + 1;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end == colon + 1 || end >= text.size() || text[end] != ':') continue;
    error.file = std::string(text.substr(0, colon));
    error.line = std::atoi(std::string(text.substr(colon + 1, end - colon - 1)).c_str());
    size_t start = end + 1;
    if (start < text.size() && text[start] == ' ') ++start;
    error.message = ShortenText(text.substr(start), kMaxScriptText);
    error.file = FullChunkName(error.file);
    return error;
  }
  error.message = ShortenText(text, kMaxScriptText);
  return error;
}

void LuaSandbox::SetGlobalFunction(const std::string& name, HostFunction fn) {
  host_functions_.push_back(std::make_unique<HostFunction>(std::move(fn)));
  HostFunction* raw = host_functions_.back().get();
  std::optional<LuaError> error = Protected([&](lua_State* L) {
    lua_pushlightuserdata(L, raw);
    lua_pushcclosure(L, HostTrampoline, 1);
    lua_setglobal(L, name.c_str());
  });
  if (error) throw std::runtime_error("cannot register " + name + ": " + error->ToString());
}

std::optional<std::string> LuaSandbox::Eval(std::string_view expression, LuaError* error) {
  std::string source = "return " + std::string(expression);
  std::optional<LuaError> failed = Run(source, "eval", 1);
  std::string out;
  if (!failed) {
    failed = Protected(
        [&out](lua_State* L) {
          size_t len = 0;
          const char* s = luaL_tolstring(L, 1, &len);
          out.assign(s, len);
        },
        1);
  }
  if (failed) {
    if (error) *error = *failed;
    return std::nullopt;
  }
  return out;
}

}  // namespace canasta
