#include "scripting/lua_sandbox.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <lua.hpp>
#include <stdexcept>

#include "scripting/lua_internal.h"

namespace canasta {

// The counting allocator. Lua promises that shrinking never fails, so only
// growth is checked.
struct LuaSandbox::Allocator {
  size_t used = 0;
  size_t limit = 0;
  size_t max_string = 0;
  // Why the last allocation was refused, for a clearer message than Lua's
  // "not enough memory".
  size_t refused_string = 0;
  bool refused_total = false;

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
      if (ptr == nullptr && osize == LUA_TSTRING && nsize > a->max_string) {
        a->refused_string = nsize;
        return nullptr;
      }
      if (a->used - old + nsize > a->limit) {
        a->refused_total = true;
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

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Adds a traceback to every error that goes through Call().
int MessageHandler(lua_State* L) {
  const char* msg = lua_tostring(L, 1);
  if (msg == nullptr) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
      msg = lua_tostring(L, -1);
    } else {
      msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

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

// table.concat and table.move loop in C over a range the caller chooses;
// on a plain table with holes no Lua code runs that the hook could stop.
int GuardedConcat(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  lua_Integer j = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
  if (j >= i) LuaSandbox::From(L)->ChargeWork(L, double(j) - double(i) + 1, "table.concat");
  return CallOriginal(L);
}

int GuardedMove(lua_State* L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  if (e >= f) LuaSandbox::From(L)->ChargeWork(L, double(e) - double(f) + 1, "table.move");
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
  Guard(L, LUA_TABLIBNAME, "concat", CatchCpp<GuardedConcat>);
  Guard(L, LUA_TABLIBNAME, "move", CatchCpp<GuardedMove>);
  lua_getglobal(L, "setmetatable");
  lua_pushcclosure(L, CatchCpp<GuardedSetmetatable>, 1);
  lua_setglobal(L, "setmetatable");
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
  hook_interval_ = int(std::clamp<int64_t>(limits_.instructions, 1, 1000));
  state_ = lua_newstate(&Allocator::Fn, alloc_.get());
  if (state_ == nullptr)
    throw std::runtime_error("cannot create a Lua state within the memory limit");
  *static_cast<LuaSandbox**>(lua_getextraspace(state_)) = this;
  lua_atpanic(state_, Panic);
  // The message handler stays at the bottom of the stack for every call.
  lua_pushcfunction(state_, CatchCpp<MessageHandler>);
  std::optional<LuaError> error = Protected([](lua_State* L) { OpenLibraries(L); });
  if (error) {
    lua_close(state_);
    state_ = nullptr;
    throw std::runtime_error("cannot set up the Lua sandbox: " + error->ToString());
  }
}

LuaSandbox::~LuaSandbox() {
  if (state_ == nullptr) return;
  // Finalizers run in lua_close: give them a fresh budget, so a __gc that
  // loops forever is stopped like any other code.
  StartBudget();
  lua_close(state_);
}

LuaSandbox* LuaSandbox::From(lua_State* L) {
  return *static_cast<LuaSandbox**>(lua_getextraspace(L));
}

size_t LuaSandbox::memory_used() const { return alloc_->used; }

void LuaSandbox::StartBudget() {
  instructions_used_ = 0;
  work_used_ = 0;
  exhausted_ = false;
  clock_started_ = false;  // read lazily: most hook calls never reach the hook
  alloc_->refused_string = 0;
  alloc_->refused_total = false;
  lua_sethook(state_, CountHook, LUA_MASKCOUNT, hook_interval_);
}

bool LuaSandbox::OutOfTime() {
  int64_t now = NowNs();
  if (!clock_started_) {
    clock_started_ = true;
    start_ns_ = now;
    return false;
  }
  return double(now - start_ns_) > limits_.seconds * 1e9;
}

void LuaSandbox::CountHook(lua_State* L, lua_Debug* /*ar*/) {
  LuaSandbox* self = From(L);
  if (!self->exhausted_) {
    self->instructions_used_ += self->hook_interval_;
    const char* why = nullptr;
    if (self->instructions_used_ >= self->limits_.instructions) {
      why = "instruction limit exceeded (the sandbox stops runaway loops)";
    } else if (self->OutOfTime()) {
      why = "time limit exceeded (the sandbox stops runaway code)";
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

void LuaSandbox::ChargeWork(lua_State* L, double units, const char* what) {
  if (exhausted_) luaL_error(L, "%s", exhausted_why_);
  if (units > double(limits_.c_work)) {
    luaL_error(L,
               "%s: the arguments would take about %f steps, more than the sandbox allows "
               "in one call (%d)",
               what, units, int(std::min<int64_t>(limits_.c_work, INT32_MAX)));
  }
  work_used_ += units;
  const char* why = nullptr;
  if (work_used_ > double(limits_.c_work)) {
    why = "C work limit exceeded (string and table functions did too much work in one call)";
  } else if (OutOfTime()) {
    why = "time limit exceeded (the sandbox stops runaway code)";
  }
  if (why == nullptr) return;
  exhausted_ = true;
  exhausted_why_ = why;
  lua_sethook(L, CountHook, LUA_MASKCOUNT, 1);
  luaL_error(L, "%s", why);
}

std::optional<LuaError> LuaSandbox::Load(std::string_view source, std::string_view chunkname) {
  std::string name(chunkname);
  if (std::find(chunk_names_.begin(), chunk_names_.end(), name) == chunk_names_.end()) {
    chunk_names_.push_back(name);
  }
  std::string at = "@" + name;
  // lua_load runs the parser in protected mode itself.
  int status = luaL_loadbufferx(state_, source.data(), source.size(), at.c_str(), "t");
  if (status == LUA_OK) return std::nullopt;
  size_t len = 0;
  const char* text = lua_tolstring(state_, -1, &len);
  LuaError error = ErrorFromMessage(text ? std::string_view(text, len) : "cannot load chunk");
  if (error.file.empty()) error.file = name;
  if (status == LUA_ERRMEM) error.message = "memory limit exceeded while loading the chunk";
  lua_pop(state_, 1);
  return error;
}

std::optional<LuaError> LuaSandbox::Run(std::string_view source, std::string_view chunkname,
                                        int nresults) {
  if (std::optional<LuaError> error = Load(source, chunkname)) return error;
  return Call(0, nresults);
}

std::optional<LuaError> LuaSandbox::Call(int nargs, int nresults) {
  lua_State* L = state_;
  StartBudget();
  int status = lua_pcall(L, nargs, nresults, kMessageHandlerIndex);
  if (status == LUA_OK) return std::nullopt;

  LuaError error;
  size_t len = 0;
  const char* text = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : nullptr;
  std::string_view full = text ? std::string_view(text, len) : std::string_view();
  switch (status) {
    case LUA_ERRMEM:
      if (alloc_->refused_string > 0) {
        error.message = "a string of " + std::to_string(alloc_->refused_string) +
                        " bytes is larger than the sandbox's string limit (" +
                        std::to_string(limits_.max_string_bytes) + " bytes)";
      } else {
        error.message =
            "memory limit exceeded (" + std::to_string(limits_.memory_bytes >> 20) + " MB)";
      }
      break;
    case LUA_ERRERR:
      error.message = "error in the error handler: " + std::string(full);
      break;
    case LUA_ERRRUN:
    case LUA_ERRSYNTAX: {
      size_t tb = full.find("\nstack traceback:");
      std::string_view message = full.substr(0, tb);
      error = ErrorFromMessage(message);
      if (tb != std::string_view::npos) error.traceback = std::string(full.substr(tb + 1));
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
    error.message = std::string(text.substr(start));
    // Lua shortens long chunk names to "...<tail>": give back the full name.
    if (error.file.compare(0, 3, "...") == 0) {
      std::string tail = error.file.substr(3);
      for (const std::string& name : chunk_names_) {
        if (name.size() >= tail.size() &&
            name.compare(name.size() - tail.size(), tail.size(), tail) == 0) {
          error.file = name;
          break;
        }
      }
    }
    return error;
  }
  error.message = std::string(text);
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
