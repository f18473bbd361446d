// RuleHooks (core/hooks.h) backed by a ruleset's Lua functions. Each hook
// that the ruleset defines is called in its own sandbox; the others keep the
// C++ default. A hook that fails (a Lua error, an exhausted budget, a wrong
// return type) never stops an audit: the default answer is used and the
// failure is recorded for the report.
//
// One LuaHooks belongs to one thread (a lua_State is not thread-safe); get
// one per audit thread from Ruleset::MakeHooks().
#ifndef CANASTA_SCRIPTING_LUA_HOOKS_H_
#define CANASTA_SCRIPTING_LUA_HOOKS_H_

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hooks.h"
#include "scripting/lua_sandbox.h"

namespace canasta {

// The hooks a ruleset may define, in HookId order (core/hook_api.h).
const std::vector<std::string>& HookNames();

// A failed hook call. Identical failures (same hook, same message) are
// folded into one entry with a count.
struct HookError {
  std::string hook;  // "initial_meld_value"
  std::string call;  // the first failing call, e.g. initial_meld_value("JK", rules)
  LuaError error;    // where and why, with the traceback when Lua gave one
  int count = 1;

  std::string ToString() const;  // "file:line: hook: message (N calls)"
};

class LuaHooks : public RuleHooks {
 public:
  // One file of a ruleset's chain, the root first.
  struct Chunk {
    std::string file;    // chunk name shown in errors
    std::string source;  // Lua text
  };

  // Runs the chain's files in a fresh sandbox, under `load_limits` (those
  // the loader ran them under, so that what loaded there runs here), and
  // keeps the hook functions, called under `limits`. A failure here is
  // recorded (errors()) and leaves every hook at its default.
  LuaHooks(const std::vector<Chunk>& chain, const SandboxLimits& limits,
           const SandboxLimits& load_limits = SandboxLimits());
  ~LuaHooks() override;

  int InitialMeldValue(const Rules& rules, Card card) const override;
  std::string ExtraMeldCheck(const Rules& rules, const MeldShape& shape) const override;
  int CanastasToGoOut(const Rules& rules, const SideSummary& side) const override;
  int MinimumCount(const Rules& rules, int total, int side = 0,
                   const std::vector<int>* totals = nullptr) const override;
  int HouseScoreAdjustment(const Rules& rules, const SideSummary& side,
                           bool went_out) const override;
  using RuleHooks::Call;
  HookAnswer Call(const HookContext& ctx, const Rules& rules) const override;
  const std::vector<std::string>& ExtraParts() const override { return extra_parts_; }
  std::vector<std::string> OverriddenHooks() const override;

  const std::vector<HookError>& errors() const { return errors_; }
  // Returns the failures recorded so far and forgets them.
  std::vector<HookError> TakeErrors() const;
  std::vector<HookFailure> TakeFailures() const override;
  bool HasFailures() const override { return !errors_.empty() || skipped_calls_ > 0; }
  double SecondsSpent() const override;
  void StopCalling(const std::string& why) const override;

  struct CallState;
  struct ContextState;
  struct ArgState;
  struct Memo;

 private:
  // Calls hook `call.hook`; false when it failed (the failure is recorded).
  bool Invoke(CallState& call) const;
  // Whether a call under `rules` may push its arguments outside a
  // protected call: the `rules` table is made and memory has ample room.
  bool FastPath(const Rules& rules) const;
  // After the hook was called: reads its answer from the stack (unless
  // `read` is false: already read), records a failure; false when it failed.
  bool Finish(CallState& call, const std::optional<LuaError>& error, bool read = true) const;
  void Record(const std::string& hook, const std::string& call, const LuaError& error) const;
  // Once the sandbox's whole-life budget is spent (SandboxLimits::total_*)
  // no hook is called: the engine's default answers, each call counted as
  // one more of the failure that spent it (one finding, not one a call).
  bool SkipSpent() const {
    if (!sandbox_->total_spent()) return false;
    ++skipped_calls_;
    return true;
  }
  // Whether `rules` has the parameters of the `rules` table hooks see now
  // (the one the memo's answers were given under).
  bool RulesCurrent(const Rules& rules) const;
  // Reads each defined v2 hook's code once (lua_bytecode.h): which may get
  // a plain table for ctx, and which of those are pure (ContextState::Table).
  void InspectHooks(lua_State* L);

  std::unique_ptr<LuaSandbox> sandbox_;
  std::array<int, kNumHooks> refs_;  // registry references; LUA_NOREF when undefined
  std::array<std::string, kNumHooks> where_;  // "file:line" of each defined hook
  std::unique_ptr<ContextState> context_;  // the v2 context of the call in progress
  std::unique_ptr<ArgState> args_;         // v1 arguments: interned strings, reused tables
  // The answers of the value hooks asked once per distinct argument
  // (docs/lua-api.md): remembered for the `rules` table of rules_ref_.
  std::unique_ptr<Memo> memo_;
  int strict_meta_ = -2;                   // registry ref of the nested tables' metatable
  std::vector<std::string> extra_parts_;  // the chain's `score_parts`
  bool minimum_sees_ctx_ = true;          // minimum_count takes a third argument
  // The `rules` table handed to hooks, built once per Rules object: hooks
  // assume the Rules they are called with is not changed while in use.
  mutable int rules_ref_;
  mutable const Rules* rules_for_ref_ = nullptr;
  mutable std::unique_ptr<Rules> rules_of_ref_;  // a copy: a game's own copy of the same
                                                 // Rules gets the same table
  mutable std::vector<HookError> errors_;
  mutable int dropped_errors_ = 0;
  mutable int skipped_calls_ = 0;           // not made: the total budget was spent
  mutable std::optional<HookError> spent_;  // the failure that spent it
};

// The hook failures recorded by `hooks` since the last call, if they are Lua
// hooks; empty otherwise. For the replay, which holds a RuleHooks.
std::vector<HookError> TakeHookErrors(const RuleHooks& hooks);

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_LUA_HOOKS_H_
