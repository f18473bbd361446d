#include "scripting/lua_hooks.h"

#include <optional>

#include "scripting/lua_internal.h"

namespace canasta {

// One hook call: its inputs, and what came back.
struct LuaHooks::CallState {
  CallState(Hook h, const Rules& r) : hook(h), rules(&r) {}

  Hook hook;
  const Rules* rules;
  Card card;
  const MeldShape* shape = nullptr;
  const SideSummary* side = nullptr;
  int total = 0;
  bool went_out = false;

  int integer = 0;
  std::string text;
  std::string bad_return;  // set when the hook returned a value of the wrong type
  std::string defined_in;  // where the hook is defined, for bad_return
  int defined_at = 0;
};

namespace {

constexpr int kMaxRecordedErrors = 100;
// Free memory under which hook arguments are pushed inside a protected call.
constexpr size_t kFastPathHeadroom = size_t{256} << 10;

const char* RankName(Rank rank) {
  static constexpr const char* kNames[16] = {"?", "?", "2", "3", "4", "5", "6", "7",
                                             "8", "9", "T", "J", "Q", "K", "A", "wild"};
  return kNames[int(rank) & 15];
}

void SetInt(lua_State* L, const char* key, int value) {
  lua_pushinteger(L, value);
  lua_setfield(L, -2, key);
}

void SetBool(lua_State* L, const char* key, bool value) {
  lua_pushboolean(L, value);
  lua_setfield(L, -2, key);
}

void PushShape(lua_State* L, const MeldShape& shape) {
  lua_createtable(L, 0, 8);
  lua_pushstring(L, RankName(shape.rank));
  lua_setfield(L, -2, "rank");
  SetInt(L, "naturals", shape.naturals);
  SetInt(L, "twos", shape.twos);
  SetInt(L, "jokers", shape.jokers);
  SetInt(L, "wilds", shape.wilds());
  SetInt(L, "size", shape.size());
  SetBool(L, "was_canasta", shape.was_canasta);
  SetBool(L, "is_new", shape.is_new);
}

void PushSide(lua_State* L, const SideSummary& side) {
  lua_createtable(L, 0, 6);
  SetInt(L, "side", side.side);
  SetInt(L, "canastas", side.canastas);
  SetInt(L, "natural_canastas", side.natural_canastas);
  SetInt(L, "mixed_canastas", side.mixed_canastas);
  SetInt(L, "melds", side.melds);
  SetInt(L, "red_threes", side.red_threes);
}

// Pushes the hook's arguments before `rules`; returns how many.
int PushArgs(lua_State* L, const LuaHooks::CallState& c) {
  switch (c.hook) {
    case LuaHooks::kInitialMeldValue: {
      std::string card = ToString(c.card);
      lua_pushlstring(L, card.data(), card.size());
      return 1;
    }
    case LuaHooks::kExtraMeldCheck:
      PushShape(L, *c.shape);
      return 1;
    case LuaHooks::kCanastasToGoOut:
      PushSide(L, *c.side);
      return 1;
    case LuaHooks::kMinimumCount:
      lua_pushinteger(L, c.total);
      return 1;
    case LuaHooks::kHouseScoreAdjustment:
      PushSide(L, *c.side);
      lua_pushboolean(L, c.went_out);
      return 2;
    case LuaHooks::kNumHooks:
      break;
  }
  return 0;
}

// The call as Lua code, for the report: built only when a call fails.
std::string DescribeCall(const LuaHooks::CallState& c) {
  std::string name = HookNames()[c.hook];
  auto side = [](const SideSummary& s) {
    return "{side = " + std::to_string(s.side) + ", canastas = " + std::to_string(s.canastas) +
           ", natural_canastas = " + std::to_string(s.natural_canastas) +
           ", mixed_canastas = " + std::to_string(s.mixed_canastas) +
           ", melds = " + std::to_string(s.melds) +
           ", red_threes = " + std::to_string(s.red_threes) + "}";
  };
  switch (c.hook) {
    case LuaHooks::kInitialMeldValue:
      return name + "(\"" + ToString(c.card) + "\", rules)";
    case LuaHooks::kExtraMeldCheck: {
      const MeldShape& m = *c.shape;
      return name + "({rank = \"" + RankName(m.rank) +
             "\", naturals = " + std::to_string(m.naturals) + ", twos = " + std::to_string(m.twos) +
             ", jokers = " + std::to_string(m.jokers) +
             ", was_canasta = " + (m.was_canasta ? "true" : "false") +
             ", is_new = " + (m.is_new ? "true" : "false") + "}, rules)";
    }
    case LuaHooks::kCanastasToGoOut:
      return name + "(" + side(*c.side) + ", rules)";
    case LuaHooks::kMinimumCount:
      return name + "(" + std::to_string(c.total) + ", rules)";
    case LuaHooks::kHouseScoreAdjustment:
      return name + "(" + side(*c.side) + ", " + (c.went_out ? "true" : "false") + ", rules)";
    case LuaHooks::kNumHooks:
      break;
  }
  return name;
}

// The accepted answers of the hooks that return an integer, by Hook.
struct HookResultRange {
  int min;
  int max;
};
constexpr HookResultRange kResultRanges[LuaHooks::kNumHooks] = {
    {-1000, 1000},      // initial_meld_value: one card (card_value is 0 to 1000)
    {0, 0},             // extra_meld_check returns a reason, not an integer
    {0, 20},            // canastas_to_go_out: as the parameter
    {0, 10000},         // minimum_count: as a band's minimum
    {-100000, 100000},  // house_score_adjustment: points for one hand
};

// Reads the value on top of the stack as the hook's answer.
void ReadResult(lua_State* L, LuaHooks::CallState& c) {
  const std::string& name = HookNames()[c.hook];
  if (c.hook == LuaHooks::kExtraMeldCheck) {
    int type = lua_type(L, -1);
    if (type == LUA_TNIL || (type == LUA_TBOOLEAN && lua_toboolean(L, -1))) {
      c.text.clear();
    } else if (type == LUA_TBOOLEAN) {
      c.text = "the ruleset's extra_meld_check refuses this meld";
    } else if (type == LUA_TSTRING) {
      c.text = lua_tostring(L, -1);
    } else {
      c.bad_return = name +
                     " must return nil or true (the meld is fine), or a string saying "
                     "why not; it returned " +
                     DescribeLuaValue(L, -1);
    }
    return;
  }
  // ReadValue converts without undefined behaviour (NaN, infinities and
  // numbers beyond int are refused); the range keeps the engine's sums of
  // these answers far from overflow. Documented in docs/lua-api.md.
  int value = 0;
  std::string why = ReadValue(L, -1, value);
  const HookResultRange& range = kResultRanges[c.hook];
  if (why.empty() && (value < range.min || value > range.max)) {
    why = std::to_string(range.min) + " to " + std::to_string(range.max) + " expected, got " +
          std::to_string(value);
  }
  if (why.empty()) {
    c.integer = value;
  } else {
    c.bad_return = name + " must return an integer: " + why;
  }
}

}  // namespace

const std::vector<std::string>& HookNames() {
  // In the order of LuaHooks::Hook.
  static const std::vector<std::string> kNames = {"initial_meld_value", "extra_meld_check",
                                                  "canastas_to_go_out", "minimum_count",
                                                  "house_score_adjustment"};
  return kNames;
}

std::string HookError::ToString() const {
  std::string out = error.ToString() + " [hook " + hook + "]";
  if (count > 1) out += " (" + std::to_string(count) + " calls)";
  return out;
}

LuaHooks::LuaHooks(const std::vector<Chunk>& chain, const SandboxLimits& limits)
    : rules_ref_(LUA_NOREF) {
  refs_.fill(LUA_NOREF);
  std::optional<LuaError> error;
  try {
    sandbox_ = std::make_unique<LuaSandbox>(limits);
  } catch (const std::exception& e) {
    error = LuaError{"", 0, e.what(), ""};
  }
  if (!error) error = sandbox_->Protected([](lua_State* L) { OpenCanastaLibrary(L); });
  for (const Chunk& chunk : chain) {
    if (error) break;
    error = sandbox_->Run(chunk.source, chunk.file, 1);
    if (error) break;
    error = sandbox_->Protected(
        [this, &chunk](lua_State* L) {
          if (!lua_istable(L, 1)) luaL_error(L, "%s did not return a table", chunk.file.c_str());
          lua_pushliteral(L, "hooks");
          if (lua_rawget(L, 1) != LUA_TTABLE) return;
          for (int h = 0; h < kNumHooks; ++h) {
            lua_pushstring(L, HookNames()[size_t(h)].c_str());
            if (lua_rawget(L, 2) != LUA_TFUNCTION) {
              lua_pop(L, 1);
              continue;
            }
            // A file later in the chain overrides its base's hook.
            int ref = luaL_ref(L, LUA_REGISTRYINDEX);
            if (refs_[size_t(h)] != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, refs_[size_t(h)]);
            refs_[size_t(h)] = ref;
          }
        },
        1);
  }
  if (error) {
    // Half a chain's hooks would be a ruleset nobody wrote: use none.
    refs_.fill(LUA_NOREF);
    Record("(loading)", "", *error);
  }
}

LuaHooks::~LuaHooks() = default;

namespace {

// The hook's answer, read from the top of the stack; for a wrong type, where
// the hook is defined. Allocates nothing in Lua.
void TakeResult(lua_State* L, int ref, LuaHooks::CallState& c) {
  ReadResult(L, c);
  if (c.bad_return.empty()) return;
  lua_Debug ar;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  if (lua_getinfo(L, ">S", &ar)) {
    c.defined_in = ar.source[0] == '@' ? ar.source + 1 : ar.short_src;
    c.defined_at = ar.linedefined;
  }
}

}  // namespace

bool LuaHooks::Invoke(CallState& c) const {
  lua_State* L = sandbox_->state();
  int ref = refs_[c.hook];
  std::optional<LuaError> error;
  if (rules_for_ref_ == c.rules &&
      sandbox_->memory_used() + kFastPathHeadroom < sandbox_->limits().memory_bytes) {
    // Fast path: with this much memory free, pushing a few small values
    // cannot fail, so they may be pushed outside a protected call and the
    // hook called directly.
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    int nargs = PushArgs(L, c);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rules_ref_);
    error = sandbox_->Call(nargs + 1, 1);
    if (!error) {
      TakeResult(L, ref, c);
      lua_pop(L, 1);
    }
  } else {
    error = sandbox_->Protected([this, ref, &c](lua_State* state) {
      if (rules_for_ref_ != c.rules) {
        PushRules(state, *c.rules);
        int rules = luaL_ref(state, LUA_REGISTRYINDEX);
        if (rules_ref_ != LUA_NOREF) luaL_unref(state, LUA_REGISTRYINDEX, rules_ref_);
        rules_ref_ = rules;
        rules_for_ref_ = c.rules;
      }
      lua_rawgeti(state, LUA_REGISTRYINDEX, ref);
      int nargs = PushArgs(state, c);
      lua_rawgeti(state, LUA_REGISTRYINDEX, rules_ref_);
      lua_call(state, nargs + 1, 1);
      TakeResult(state, ref, c);
    });
  }
  const std::string& name = HookNames()[c.hook];
  if (error) {
    Record(name, DescribeCall(c), *error);
    return false;
  }
  if (!c.bad_return.empty()) {
    Record(name, DescribeCall(c), LuaError{c.defined_in, c.defined_at, c.bad_return, ""});
    return false;
  }
  return true;
}

void LuaHooks::Record(const std::string& hook, const std::string& call,
                      const LuaError& error) const {
  for (HookError& e : errors_) {
    if (e.hook == hook && e.error.message == error.message && e.error.file == error.file &&
        e.error.line == error.line) {
      ++e.count;
      return;
    }
  }
  if (int(errors_.size()) >= kMaxRecordedErrors) {
    ++dropped_errors_;
    return;
  }
  errors_.push_back(HookError{hook, call, error, 1});
}

std::vector<HookFailure> LuaHooks::TakeFailures() const {
  std::vector<HookFailure> out;
  for (const HookError& e : TakeErrors()) {
    HookFailure f;
    f.hook = e.hook;
    f.call = e.call;
    if (!e.error.file.empty())
      f.where = e.error.file + (e.error.line ? ":" + std::to_string(e.error.line) : "");
    f.message = e.error.message;
    f.traceback = e.error.traceback;
    f.count = e.count;
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<HookError> LuaHooks::TakeErrors() const {
  std::vector<HookError> out;
  out.swap(errors_);
  if (dropped_errors_ > 0) {
    out.push_back(HookError{
        "(more)", "",
        LuaError{"", 0, std::to_string(dropped_errors_) + " more hook failures were not recorded",
                 ""},
        dropped_errors_});
    dropped_errors_ = 0;
  }
  return out;
}

int LuaHooks::InitialMeldValue(const Rules& rules, Card card) const {
  if (refs_[kInitialMeldValue] == LUA_NOREF) return RuleHooks::InitialMeldValue(rules, card);
  CallState c(kInitialMeldValue, rules);
  c.card = card;
  return Invoke(c) ? c.integer : RuleHooks::InitialMeldValue(rules, card);
}

std::string LuaHooks::ExtraMeldCheck(const Rules& rules, const MeldShape& shape) const {
  if (refs_[kExtraMeldCheck] == LUA_NOREF) return RuleHooks::ExtraMeldCheck(rules, shape);
  CallState c(kExtraMeldCheck, rules);
  c.shape = &shape;
  return Invoke(c) ? c.text : RuleHooks::ExtraMeldCheck(rules, shape);
}

int LuaHooks::CanastasToGoOut(const Rules& rules, const SideSummary& side) const {
  if (refs_[kCanastasToGoOut] == LUA_NOREF) return RuleHooks::CanastasToGoOut(rules, side);
  CallState c(kCanastasToGoOut, rules);
  c.side = &side;
  return Invoke(c) ? c.integer : RuleHooks::CanastasToGoOut(rules, side);
}

int LuaHooks::MinimumCount(const Rules& rules, int total) const {
  if (refs_[kMinimumCount] == LUA_NOREF) return RuleHooks::MinimumCount(rules, total);
  CallState c(kMinimumCount, rules);
  c.total = total;
  return Invoke(c) ? c.integer : RuleHooks::MinimumCount(rules, total);
}

int LuaHooks::HouseScoreAdjustment(const Rules& rules, const SideSummary& side,
                                   bool went_out) const {
  if (refs_[kHouseScoreAdjustment] == LUA_NOREF) {
    return RuleHooks::HouseScoreAdjustment(rules, side, went_out);
  }
  CallState c(kHouseScoreAdjustment, rules);
  c.side = &side;
  c.went_out = went_out;
  return Invoke(c) ? c.integer : RuleHooks::HouseScoreAdjustment(rules, side, went_out);
}

std::vector<std::string> LuaHooks::OverriddenHooks() const {
  std::vector<std::string> names;
  for (int h = 0; h < kNumHooks; ++h) {
    if (refs_[size_t(h)] != LUA_NOREF) names.push_back(HookNames()[size_t(h)]);
  }
  return names;
}

std::vector<HookError> TakeHookErrors(const RuleHooks& hooks) {
  if (const auto* lua = dynamic_cast<const LuaHooks*>(&hooks)) return lua->TakeErrors();
  return {};
}

}  // namespace canasta
