// A Lua state for untrusted ruleset code. Rulesets are shared between players
// and clubs, so a ruleset file must never be able to read or write files, run
// programs, hang an audit or exhaust the machine's memory:
//   - only the base, string, table and math libraries are opened, without
//     dofile, loadfile, load, require, collectgarbage, print (a no-op here),
//     warn, string.dump, math.random and math.randomseed (rulesets must give
//     the same answer on every run);
//   - chunks are loaded as text only: binary chunks are unchecked bytecode;
//   - every call runs under an instruction budget, a C-work budget for the
//     string and table functions that loop inside one C call, and a time
//     limit, all reset per call. The clock starts with the call and is read
//     by the instruction hook and, every few thousand units, inside the
//     guarded C functions (table.sort's comparisons, the loops of
//     table.insert/remove), so that work inside one long C call is stopped
//     too; a call whose size alone exceeds the budget is refused before it
//     starts;
//   - a counting allocator caps the state's memory and the size of a single
//     string; a refused allocation is a clean memory error and the state stays
//     usable.
// Every call into Lua goes through Call(), one lua_pcall with a message
// handler that adds a traceback; errors come back as LuaError values.
//
// Not thread-safe: use one sandbox per thread.
#ifndef CANASTA_SCRIPTING_LUA_SANDBOX_H_
#define CANASTA_SCRIPTING_LUA_SANDBOX_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

struct lua_State;
struct lua_Debug;

namespace canasta {

// An error from Lua code or about a ruleset file, with where it happened.
struct LuaError {
  std::string file;       // chunk or file name ("rulesets/hutto.lua"); may be empty
  int line = 0;           // 1-based; 0 when unknown
  std::string message;    // without the "file:line:" prefix
  std::string traceback;  // Lua's "stack traceback:" text; empty when none

  // "file:line: message" (the parts that are known).
  std::string ToString() const;
};

// The most of a script's own text (an error's message, a hook's reason) that
// a finding quotes; longer text is cut (ShortenText, core/utf8.h).
constexpr size_t kMaxScriptText = 1000;

struct SandboxLimits {
  size_t memory_bytes = size_t{64} << 20;     // whole state
  size_t max_string_bytes = size_t{1} << 20;  // one string: bounds the cost of `..` and compares
  int64_t instructions = 10'000'000;          // VM instructions per call
  int64_t c_work = 100'000'000;               // estimated steps in guarded C functions per call
  double seconds = 2.0;                       // wall clock per call, the last resort
  // Over the state's whole life, all calls together (0: no limit): a review
  // makes a hook call for every move of thousands of rollouts, and calls
  // each within the limits above could still take hours together. Once
  // spent, every later call fails at once (total_spent()).
  int64_t total_instructions = 0;
  double total_c_work = 0;
  double total_seconds = 0;  // wall clock inside calls, the last resort
};

class LuaSandbox {
 public:
  // Throws std::runtime_error if the state cannot be created within the limits.
  explicit LuaSandbox(const SandboxLimits& limits = SandboxLimits());
  ~LuaSandbox();
  LuaSandbox(const LuaSandbox&) = delete;
  LuaSandbox& operator=(const LuaSandbox&) = delete;

  // For code in scripting/ that pushes values itself. Anything that may
  // allocate or call Lua must run inside Call() or Protected(), unless
  // memory_used() leaves ample room below the limit. Stack slot 1 holds the
  // message handler: never clear the stack outside a call.
  lua_State* state() const { return state_; }
  const SandboxLimits& limits() const { return limits_; }
  // The per-call and whole-life limits from now on (the memory and string
  // limits stay): a ruleset's files run under the load limits, then its
  // hooks under the hook limits, in one state. The totals count from here.
  void SetCallLimits(const SandboxLimits& limits);
  // The work of all calls so far (instructions counted in steps of the
  // count hook's interval), and whether a total limit is spent: then every
  // call fails at its first instruction with total_spent_message().
  int64_t total_instructions_used() const { return total_instructions_used_; }
  double total_c_work_used() const { return total_work_used_; }
  bool total_spent() const { return total_spent_ != nullptr; }
  double total_seconds_used() const { return double(total_ns_used_) * 1e-9; }
  // Marks the whole-life budget spent for `why` (no call runs any more):
  // what the owner decides for a reason of its own.
  void SpendTotal(const std::string& why) {
    total_stop_why_ = why;
    total_spent_ = total_stop_why_.c_str();
  }
  const char* total_spent_message() const { return total_spent_ ? total_spent_ : ""; }
  size_t memory_used() const;
  // Allocations (and reallocations to a larger block) made so far, refused
  // ones included: while it stays the same, Lua made no new object and no
  // table grew (scripting/lua_hooks.cc reuses argument tables on this).
  uint64_t allocations() const;

  // Compiles a text chunk and runs it, leaving `nresults` values on the stack
  // on success (nothing on failure). `chunkname` is the file name shown in
  // errors and tracebacks.
  std::optional<LuaError> Run(std::string_view source, std::string_view chunkname,
                              int nresults = 0);

  // Compiles a text chunk and leaves the function on the stack. A binary
  // chunk is refused.
  std::optional<LuaError> Load(std::string_view source, std::string_view chunkname);

  // The one protected-call path: calls the function below the top `nargs`
  // values with fresh budgets, leaving `nresults` values on success.
  std::optional<LuaError> Call(int nargs, int nresults);
  // The same in two steps, for the hooks' hot path (no LuaError is made
  // for a call that succeeds): CallStatus returns Lua's status (LUA_OK on
  // success); after any other, TakeError must be called at once: it reads
  // the error from the stack and pops it.
  int CallStatus(int nargs, int nresults);
  LuaError TakeError(int status);

  // Runs `fn(L)` as a protected C function with fresh budgets. The top
  // `nargs` stack values are consumed and are its arguments 1..nargs; what
  // it leaves on the stack is dropped. `fn` may raise Lua errors; a
  // std::exception it throws becomes a Lua error, so none escapes into Lua.
  template <class F>
  std::optional<LuaError> Protected(F&& fn, int nargs = 0) {
    using Fn = std::remove_reference_t<F>;
    return ProtectedImpl([](lua_State* L, void* f) { (*static_cast<Fn*>(f))(L); },
                         const_cast<void*>(static_cast<const void*>(&fn)), nargs);
  }

  // Makes a host function callable from Lua as global `name`: it gets its
  // arguments converted with tostring and returns one string. Any C++
  // exception it throws becomes a Lua error.
  using HostFunction = std::function<std::string(const std::vector<std::string>&)>;
  void SetGlobalFunction(const std::string& name, HostFunction fn);

  // Runs `source` as `return <source>` and converts the result with
  // tostring: a convenience for tests and diagnostics.
  std::optional<std::string> Eval(std::string_view expression, LuaError* error = nullptr);

  // Turns the error value on top of the stack into a LuaError (used by the
  // call path; exposed for code that loads chunks inside Protected()).
  LuaError ErrorFromMessage(std::string_view text) const;

  // Raises a Lua error with `message` from C++ code running inside Call()
  // or Protected(). With Lua built as C++ (the only build this project
  // supports) the error unwinds C++ frames and runs their destructors.
  [[noreturn]] static void RaiseError(lua_State* L, const std::string& message);

  // --- Used by the sandbox's own C functions ---
  // Charges `units` of C work against this call's budget; raises a Lua error
  // when the budget or the time limit is exceeded.
  void ChargeWork(lua_State* L, double units, const char* what);
  // Refuses, before any work is done, a C call whose estimated cost alone
  // is more than this call's budget has left. Charges nothing.
  void RefuseIfTooCostly(lua_State* L, double units, const char* what);
  static LuaSandbox* From(lua_State* L);
  // One pointer the owner of the sandbox keeps with the state, for its C
  // functions: cheaper to reach from a lua_State than an upvalue.
  void set_owner_data(void* data) { owner_data_ = data; }
  void* owner_data() const { return owner_data_; }

  // Where the innermost Lua function was when an error without a position
  // was raised (a memory error, "C stack overflow" inside a C function).
  struct Where {
    char chunk[64] = "";  // Lua's short source (LUA_IDSIZE), "" when unknown
    int line = 0;
  };

 private:
  struct Allocator;
  friend struct SandboxAccess;

  std::optional<LuaError> ProtectedImpl(void (*thunk)(lua_State*, void*), void* fn, int nargs);
  void StartBudget();
  void ApplyCallLimits();  // the values derived from limits_' call limits
  static void CountHook(lua_State* L, lua_Debug* ar);
  static int MessageHandler(lua_State* L);
  // The reason the call must stop for time (this call's, or all calls'
  // together: then total_spent_ is set), or null.
  const char* OutOfTime();
  [[noreturn]] void Exhaust(lua_State* L, const char* why);
  // The full chunk name for Lua's shortened one ("...tail").
  std::string FullChunkName(const std::string& short_name) const;
  void FillPosition(LuaError& error, const Where& where) const;

  SandboxLimits limits_;
  std::unique_ptr<Allocator> alloc_;
  lua_State* state_ = nullptr;
  std::vector<std::unique_ptr<HostFunction>> host_functions_;
  std::vector<std::string> chunk_names_;  // full names, to undo Lua's truncation
  void* owner_data_ = nullptr;

  // Per-call budget state.
  int hook_interval_ = 1000;
  int64_t instructions_used_ = 0;
  double work_used_ = 0;
  bool exhausted_ = false;
  const char* exhausted_why_ = "";
  double next_clock_check_ = 0;  // work_used_ at which ChargeWork next reads the clock
  int64_t start_ns_ = 0;
  Where handler_where_;  // set by the message handler
  int load_line_ = 0;    // the line the parser had reached, for load errors without one

  // Whole-life budget state (SandboxLimits::total_*).
  int64_t total_instructions_used_ = 0;
  double total_work_used_ = 0;
  int64_t total_ns_used_ = 0;
  const char* total_spent_ = nullptr;  // the reason, once a total is spent
  std::string total_instructions_why_, total_c_work_why_, total_seconds_why_, total_stop_why_;
};

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_LUA_SANDBOX_H_
