#include "scripting/lua_hooks.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "core/scoring.h"
#include "core/utf8.h"
#include "scripting/lua_bytecode.h"
#include "scripting/lua_internal.h"

namespace canasta {

// One hook call: its inputs, and what came back.
struct LuaHooks::CallState {
  CallState(HookId h, const Rules& r) : hook(h), rules(&r) {}

  HookId hook;
  const Rules* rules;
  Card card;
  const MeldShape* shape = nullptr;
  const SideSummary* side = nullptr;
  int total = 0;
  bool went_out = false;
  int side_number = 0;                       // minimum_count's ctx
  const std::vector<int>* totals = nullptr;  // minimum_count's ctx
  const HookContext* ctx = nullptr;          // v2 hooks
  int strict_meta = LUA_NOREF;               // for nested tables
  HookAnswer answer;                         // v2 hooks

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

const char* RankName(Rank rank) { return HookRankName(rank); }

// Pushes a value of a context: lists and tables get the strict metatable
// `strict_meta` (reading a missing string key is an error).
void PushHookValue(lua_State* L, const HookValue& v, int strict_meta) {
  switch (v.kind()) {
    case HookValue::Kind::kLazy:
      PushHookValue(L, v.Resolve(), strict_meta);
      return;
    case HookValue::Kind::kNil:
      lua_pushnil(L);
      return;
    case HookValue::Kind::kBool:
      lua_pushboolean(L, v.boolean());
      return;
    case HookValue::Kind::kInt:
      lua_pushinteger(L, v.integer());
      return;
    case HookValue::Kind::kString:
      lua_pushlstring(L, v.string().data(), v.string().size());
      return;
    case HookValue::Kind::kCards: {
      lua_createtable(L, int(v.cards().size()), 0);
      int i = 0;
      for (Card c : v.cards()) {
        const std::string text = ToString(c);  // short: no allocation
        lua_pushlstring(L, text.data(), text.size());
        lua_rawseti(L, -2, ++i);
      }
      break;
    }
    case HookValue::Kind::kList: {
      lua_createtable(L, int(v.items().size()), 0);
      int i = 0;
      for (const HookValue& item : v.items()) {
        PushHookValue(L, item, strict_meta);
        lua_rawseti(L, -2, ++i);
      }
      break;
    }
    case HookValue::Kind::kTable:
      lua_createtable(L, 0, int(v.keys().size()));
      for (size_t i = 0; i < v.keys().size(); ++i) {
        PushHookValue(L, v.items()[i], strict_meta);
        lua_setfield(L, -2, v.keys()[i]);
      }
      break;
  }
  if (strict_meta != LUA_NOREF) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, strict_meta);
    lua_setmetatable(L, -2);
  }
}

// __index of a nested table of a context (a meld of ctx.melds): reading a
// string key the table lacks is an error with the near miss. Upvalue: the
// table's name for the message.
int StrictTableIndex(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING) {
    lua_pushnil(L);
    return 1;
  }
  std::vector<std::string> known;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    if (lua_type(L, -2) == LUA_TSTRING) known.emplace_back(lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  std::string message = std::string(lua_tostring(L, lua_upvalueindex(1))) + " has no field " +
                        QuoteName(lua_tostring(L, 2)) + Suggest(lua_tostring(L, 2), known);
  return luaL_error(L, "%s", message.c_str());
}

int MakeStrictMeta(lua_State* L) {
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "this table");
  lua_pushcclosure(L, CatchCpp<StrictTableIndex>, 1);
  lua_setfield(L, -2, "__index");
  // Shared by every table the engine builds for a hook: getmetatable gives a
  // hook this string, never the table (a __gc set on it would make every
  // later table finalized, and finalizers run outside the sandbox's limits).
  lua_pushliteral(L, "locked");
  lua_setfield(L, -2, "__metatable");
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

}  // namespace

// The v2 context of the call in progress, as its metamethods see it. In
// Lua a context is a light userdata holding this call's token: it costs no
// allocation, and a context a hook kept from an earlier call holds an old
// token, so reading it is an error instead of reading the wrong call.
struct LuaHooks::ContextState {
  const HookContext* ctx = nullptr;  // nullptr between calls
  uintptr_t token = 0;               // this call's
  uintptr_t cache_token = 0;         // the call whose tables the cache holds
  int cache_ref = LUA_NOREF;         // registry slot: the fields made into tables, by index + 1
  int strict_meta = LUA_NOREF;       // of nested tables
  // Each v2 hook's field names as Lua strings: short strings are interned,
  // so a key is found by its address (the strings are anchored in the
  // registry and never move).
  std::array<std::vector<const char*>, kNumHooks> keys;
  std::array<const HookSpec*, kNumHooks> specs{};  // HookSpecs(), by HookId

  void* Token() const { return reinterpret_cast<void*>(token); }
  const HookSpec& Spec() const { return GetHookSpec(ctx->hook()); }

  // Raises unless argument 1 is the context of the call in progress.
  void CheckCurrent(lua_State* L) const {
    if (ctx == nullptr || lua_touserdata(L, 1) != Token())
      luaL_error(L, "ctx is read after its hook call returned; copy what a later call needs");
  }

  // Each v2 hook's field names by address, for Find: open addressing in a
  // table of kSlots (a hook has fewer fields than half of it).
  static constexpr size_t kSlots = 64;
  struct Slot {
    const char* name = nullptr;
    size_t index = 0;
  };
  std::array<std::array<Slot, kSlots>, kNumHooks> slots;

  static size_t SlotOf(const char* name) { return (reinterpret_cast<uintptr_t>(name) >> 4) % kSlots; }

  // Fills `slots` from `keys`.
  void IndexKeys() {
    for (size_t h = 0; h < keys.size(); ++h) {
      if (keys[h].size() >= kSlots) throw std::logic_error("a hook has too many fields");
      for (size_t i = 0; i < keys[h].size(); ++i) {
        size_t s = SlotOf(keys[h][i]);
        while (slots[h][s].name != nullptr) s = (s + 1) % kSlots;
        slots[h][s] = Slot{keys[h][i], i};
      }
    }
  }

  // The index of field `key` (a string on the stack), or keys.size().
  size_t Find(lua_State* L, int key) const {
    const char* name = lua_tostring(L, key);
    const size_t h = size_t(ctx->hook());
    const std::array<Slot, kSlots>& table = slots[h];
    for (size_t s = SlotOf(name);; s = (s + 1) % kSlots) {
      if (table[s].name == name) return table[s].index;
      if (table[s].name == nullptr) return keys[h].size();
    }
  }

  // A v2 hook whose code only reads ctx's fields by name (lua_bytecode.h:
  // it never copies, passes, compares or writes ctx, nor keeps it in a
  // closure) is given a plain table instead of the token, one per hook and
  // Lua state: a field read is then a table read, not a metamethod call.
  // The scalar fields the hook has read before are set in it before each
  // call ("hot"); any other field is missed, and the table's metatable
  // reads it (ContextTableIndex) as the token's would, then keeps a scalar
  // in the table for the rest of the call and makes it hot. Since such a
  // hook cannot keep ctx, it cannot see a table filled for another call.
  struct Table {
    // A scalar field's value, as read and as the table holds it.
    struct Scalar {
      HookValue::Kind kind = HookValue::Kind::kLazy;  // kLazy: not known
      int integer = 0;
      std::string text;
      bool Known() const { return kind <= HookValue::Kind::kString; }
      bool Same(const Scalar& o) const {
        return kind == o.kind &&
               (kind == HookValue::Kind::kNil ||
                (kind == HookValue::Kind::kString ? text == o.text : integer == o.integer));
      }
    };
    int ref = LUA_NOREF;            // registry slot of the table
    const void* address = nullptr;  // its lua_topointer
    // The hot fields by index; the table holds their names at 1..n.
    std::vector<uint8_t> hot;
    std::vector<Scalar> held;  // by hot field: what the table holds
    std::vector<Scalar> now;   // and what this call reads (Gather)

    // A pure hook (lua_bytecode.h) answers the same for the same hot
    // fields: the keys (Gather) of those that answered nil, in open
    // addressing, at most kMaxKeys; emptied when a field becomes hot.
    bool pure = false;
    // Fields read through the metatable: a call that read any (a list, a
    // field not hot, one that is nil) read something its key does not hold.
    uint64_t misses = 0;
    static constexpr size_t kSlots = 256, kMaxKeys = 192;
    std::array<uint64_t, kSlots> nil_keys{};
    size_t num_keys = 0;
    static size_t SlotOf(uint64_t key) { return size_t((key * 0x9E3779B97F4A7C15u) >> 56); }
    bool KnownNil(uint64_t key) const {
      for (size_t s = SlotOf(key);; s = (s + 1) % kSlots) {
        if (nil_keys[s] == key) return true;
        if (nil_keys[s] == 0) return false;
      }
    }
    void RememberNil(uint64_t key) {
      if (num_keys >= kMaxKeys) return;
      size_t s = SlotOf(key);
      for (; nil_keys[s] != 0; s = (s + 1) % kSlots)
        if (nil_keys[s] == key) return;
      nil_keys[s] = key;
      ++num_keys;
    }
    void ForgetNils() {
      nil_keys.fill(0);
      num_keys = 0;
    }
  };
  std::array<Table, kNumHooks> tables;

  // Reads field `i` of the call in progress from the engine.
  HookValue Read(size_t i) const {
    const HookState* state = ctx->state();
    const HookField& field = specs[size_t(ctx->hook())]->fields[i];
    return state && field.read ? field.read(*state) : ctx->Field(i);
  }

  // Pushes a scalar (nil included); false, pushing nothing, for a list or
  // a table.
  static bool PushScalar(lua_State* L, const HookValue& v) {
    switch (v.kind()) {
      case HookValue::Kind::kNil:
        lua_pushnil(L);
        return true;
      case HookValue::Kind::kBool:
        lua_pushboolean(L, v.boolean());
        return true;
      case HookValue::Kind::kInt:
        lua_pushinteger(L, v.integer());
        return true;
      case HookValue::Kind::kString:
        lua_pushlstring(L, v.string().data(), v.string().size());
        return true;
      default:
        return false;
    }
  }

  // Reads the hot fields of `t` for the call in progress into t.now.
  // Returns them packed in one key, when there are at most four, each nil,
  // a boolean or an integer 0..4095; else 0.
  uint64_t Gather(Table& t) const {
    uint64_t key = t.hot.size() <= 4 ? uint64_t(1) << 63 : 0;
    for (size_t j = 0; j < t.hot.size(); ++j) {
      Table::Scalar& s = t.now[j];
      try {
        const HookValue v = Read(t.hot[j]);
        s.kind = v.kind();
        s.integer = v.integer();
        if (s.kind == HookValue::Kind::kString) s.text = v.string();
      } catch (const std::exception&) {
        s.kind = HookValue::Kind::kLazy;
      }
      uint64_t bits = 0;
      if (s.kind == HookValue::Kind::kBool) {
        bits = 1 << 12 | (s.integer != 0);
      } else if (s.kind == HookValue::Kind::kInt && s.integer >= 0 && s.integer < 4096) {
        bits = 2 << 12 | uint64_t(s.integer);
      } else if (s.kind != HookValue::Kind::kNil) {
        key = 0;
      }
      if (key != 0) key |= bits << (14 * j);
    }
    return key;
  }

  // Sets in `t` (on top of the stack) the hot fields read by Gather that
  // differ from what it holds: nothing else writes to the table (its hook
  // cannot reach it outside reads, and ContextTableIndex forgets what it
  // holds when it sets it). Outside any protected call: with memory ample
  // (the fast path's condition) it cannot raise. A field that could not be
  // read is cleared, to be read by ContextTableIndex inside the call.
  void Prefill(lua_State* L, Table& t) const {
    for (size_t j = 0; j < t.hot.size(); ++j) {
      const Table::Scalar& now = t.now[j];
      Table::Scalar& held = t.held[j];
      if (now.Known() && now.Same(held)) continue;
      held.kind = HookValue::Kind::kLazy;
      if (lua_rawgeti(L, -1, lua_Integer(j + 1)) != LUA_TSTRING) {
        lua_pop(L, 1);
        continue;
      }
      switch (now.kind) {
        case HookValue::Kind::kBool:
          lua_pushboolean(L, now.integer);
          break;
        case HookValue::Kind::kInt:
          lua_pushinteger(L, now.integer);
          break;
        case HookValue::Kind::kString:
          lua_pushlstring(L, now.text.data(), now.text.size());
          break;
        default:
          lua_pushnil(L);
          break;
      }
      lua_rawset(L, -3);
      if (!now.Known()) continue;
      try {
        held = now;
      } catch (const std::exception&) {
        held.kind = HookValue::Kind::kLazy;
      }
    }
  }

  // Pushes field `i`. Scalars are pushed as they are read; a list or a
  // table is made once a call, so that reading it twice gives one table.
  void Push(lua_State* L, size_t i) {
    if (cache_token == token) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, cache_ref);
      if (lua_rawgeti(L, -1, lua_Integer(i + 1)) != LUA_TNIL) {
        lua_remove(L, -2);
        return;
      }
      lua_pop(L, 2);
    }
    // Read from the engine's state by the field's reader, as
    // HookContext::Field does, without looking the descriptor up again.
    const HookValue v = Read(i);
    if (PushScalar(L, v)) return;
    if (cache_token != token) {
      lua_createtable(L, 0, 0);
      lua_rawseti(L, LUA_REGISTRYINDEX, cache_ref);
      cache_token = token;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, cache_ref);
    PushHookValue(L, v, strict_meta);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, lua_Integer(i + 1));
    lua_remove(L, -2);
  }
};

// The v1 hooks' arguments, made cheap to hand over (docs/lua-api.md,
// "Argument tables"). Card and rank strings are made once and kept in the
// registry. The table of extra_meld_check (the meld) and the one of
// canastas_to_go_out and house_score_adjustment (the side) are one table
// each, refilled for every call, as long as nothing can have put into it
// more than a refill restores; otherwise a fresh table replaces it.
struct LuaHooks::ArgState {
  struct Reused {
    int ref = LUA_NOREF;     // registry slot of the table
    uint64_t clean_at = 0;   // the sandbox's allocations() just after its fill
    int refill = LUA_NOREF;  // a Lua function (t, values...) setting the fields
  };
  ArgState() {
    cards.fill(LUA_NOREF);
    ranks.fill(LUA_NOREF);
  }
  std::array<int, kNumFaces> cards;  // registry refs of "2S" .. "AC", "JK", by Card::index()
  std::array<int, 16> ranks;         // of HookRankName(rank), by int(rank)
  Reused shape, side;
};

// The answers of initial_meld_value, extra_meld_check and
// canastas_to_go_out, which docs/lua-api.md defines as functions of their
// arguments: the engine asks each distinct argument once per Lua state and
// set of parameters. Only answers are kept: a call that fails is made
// again, and fails (and is recorded) as before. Bounded (1,024 melds and
// sides, reasons of 1 KB), so that no state makes it grow without end;
// past the bound a hook is simply asked again.
struct LuaHooks::Memo {
  // Answers by key, open addressing: a lookup is a multiply and a probe or
  // two. Keys are never 0 (the key functions set the top bit).
  class Table {
   public:
    static constexpr size_t kMaxEntries = 1024;

    const int* Find(uint64_t key) const {
      if (slots_.empty()) return nullptr;
      for (size_t i = Hash(key);; i = (i + 1) & (kSlots - 1)) {
        if (slots_[i].key == key) return &slots_[i].value;
        if (slots_[i].key == 0) return nullptr;
      }
    }
    bool full() const { return size_ >= kMaxEntries; }
    // Keeps `value` for `key`, unless the table is full.
    void Insert(uint64_t key, int value) {
      if (full()) return;
      if (slots_.empty()) slots_.resize(kSlots);
      size_t i = Hash(key);
      while (slots_[i].key != 0 && slots_[i].key != key) i = (i + 1) & (kSlots - 1);
      if (slots_[i].key == 0) ++size_;
      slots_[i] = Slot{key, value};
    }
    void Clear() {
      slots_.clear();
      size_ = 0;
    }

   private:
    static constexpr size_t kSlots = 2 * kMaxEntries;  // a power of two
    struct Slot {
      uint64_t key = 0;
      int value = 0;
    };
    static size_t Hash(uint64_t key) {
      return size_t((key * 0x9E3779B97F4A7C15u) >> 32) & (kSlots - 1);
    }
    std::vector<Slot> slots_;
    size_t size_ = 0;
  };
  static constexpr size_t kMaxText = 1024;  // longer reasons are not kept

  Memo() { Clear(); }
  void Clear() {
    card_known.fill(false);
    shapes.Clear();
    shape_texts.clear();
    sides.Clear();
  }

  // What a hook sees of a meld (its rank and counts, the flags) in one
  // integer; nullopt for counts too large to pack (then it is not kept).
  static std::optional<uint64_t> ShapeKey(const MeldShape& m) {
    if (m.naturals < 0 || m.naturals > 255 || m.twos < 0 || m.twos > 255 || m.jokers < 0 ||
        m.jokers > 255)
      return std::nullopt;
    return uint64_t(1) << 63 | uint64_t(uint8_t(m.rank)) | uint64_t(m.naturals) << 8 |
           uint64_t(m.twos) << 16 | uint64_t(m.jokers) << 24 | uint64_t(m.was_canasta) << 32 |
           uint64_t(m.is_new) << 33;
  }
  // The six fields of the side table.
  static std::optional<uint64_t> SideKey(const SideSummary& s) {
    const int fields[] = {s.side,  s.canastas, s.natural_canastas, s.mixed_canastas,
                          s.melds, s.red_threes};
    uint64_t key = 0;
    for (int f : fields) {
      if (f < 0 || f > 255) return std::nullopt;
      key = key << 8 | uint64_t(f);
    }
    return uint64_t(1) << 63 | key;
  }

  std::array<bool, kNumFaces> card_known;
  std::array<int, kNumFaces> card_value{};
  Table shapes;                          // the index of the answer in shape_texts
  std::vector<std::string> shape_texts;  // extra_meld_check's answers
  Table sides;                           // canastas_to_go_out's answers
};

namespace {

using ContextState = LuaHooks::ContextState;

// The context state of the sandbox's owner (LuaHooks sets it), reached
// without reading an upvalue on every field read.
ContextState& StateOf(lua_State* L) {
  return *static_cast<ContextState*>(LuaSandbox::From(L)->owner_data());
}

// Raises the error for a field (argument 2) the hook's context lacks.
int NoSuchField(lua_State* L, const ContextState& cs) {
  std::vector<std::string> known;
  for (const HookField& f : cs.Spec().fields) known.emplace_back(f.name);
  std::string message = std::string("ctx has no field ") + QuoteName(lua_tostring(L, 2)) +
                        Suggest(lua_tostring(L, 2), known);
  return luaL_error(L, "%s", message.c_str());
}

// __index of a context: a field the hook's descriptor names (nil when the
// engine leaves it so); any other string key is an error with the near miss.
int ContextIndex(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING) {
    lua_pushnil(L);
    return 1;
  }
  ContextState& cs = StateOf(L);
  cs.CheckCurrent(L);
  const size_t i = cs.Find(L, 2);
  if (i < cs.keys[size_t(cs.ctx->hook())].size()) {
    cs.Push(L, i);
    return 1;
  }
  return NoSuchField(L, cs);
}

// __index of a hook's ctx table (ContextState::Table): a field not set in
// it, read as ContextIndex reads it; a scalar is kept in the table for the
// rest of the call and set before the hook's later calls.
int ContextTableIndex(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING) {
    lua_pushnil(L);
    return 1;
  }
  ContextState& cs = StateOf(L);
  if (cs.ctx == nullptr || lua_topointer(L, 1) != cs.tables[size_t(cs.ctx->hook())].address)
    luaL_error(L, "ctx is read after its hook call returned; copy what a later call needs");
  const size_t h = size_t(cs.ctx->hook());
  const size_t i = cs.Find(L, 2);
  if (i >= cs.keys[h].size()) return NoSuchField(L, cs);
  ++cs.tables[h].misses;
  cs.Push(L, i);
  const int type = lua_type(L, -1);
  if (type == LUA_TBOOLEAN || type == LUA_TNUMBER || type == LUA_TSTRING) {
    ContextState::Table& t = cs.tables[h];
    const auto hot = std::find(t.hot.begin(), t.hot.end(), uint8_t(i));
    if (hot != t.hot.end()) {
      t.held[size_t(hot - t.hot.begin())].kind = HookValue::Kind::kLazy;
    } else {
      lua_pushvalue(L, 2);
      lua_rawseti(L, 1, lua_Integer(t.hot.size() + 1));
      // Reserved: cannot throw.
      t.hot.push_back(uint8_t(i));
      t.held.emplace_back();
      t.now.emplace_back();
      t.ForgetNils();  // the keys' layout changed
    }
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
  }
  return 1;
}

// pairs(ctx): the fields that are not nil, in the descriptor's order.
int ContextNext(lua_State* L) {
  ContextState& cs = StateOf(L);
  cs.CheckCurrent(L);
  const size_t n = cs.keys[size_t(cs.ctx->hook())].size();
  size_t i = lua_type(L, 2) == LUA_TSTRING ? cs.Find(L, 2) + 1 : 0;
  for (; i < n; ++i) {
    cs.Push(L, i);
    if (!lua_isnil(L, -1)) {
      lua_pushstring(L, cs.Spec().fields[i].name);
      lua_insert(L, -2);
      return 2;
    }
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  return 1;
}

int ContextPairs(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, CatchCpp<ContextNext>, 1);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

int ContextWrite(lua_State* L) {
  return luaL_error(L, "ctx is read-only; keep what a hook computes in a local");
}

int ContextToString(lua_State* L) {
  ContextState& cs = StateOf(L);
  if (cs.ctx != nullptr && lua_touserdata(L, 1) == cs.Token())
    lua_pushfstring(L, "ctx of %s", cs.Spec().name);
  else
    lua_pushliteral(L, "ctx of a call that returned");
  return 1;
}

// Sets up `cs` in the state: the interned field names, the cache slot and
// the metatable of light userdata (only contexts are light userdata that
// Lua code sees).
void InstallContexts(lua_State* L, ContextState* cs) {
  lua_createtable(L, 64, 0);  // anchors the names
  lua_Integer n = 0;
  for (const HookSpec& spec : HookSpecs()) {
    cs->specs[size_t(spec.id)] = &spec;
    if (!spec.v2) continue;
    for (const HookField& f : spec.fields) {
      cs->keys[size_t(spec.id)].push_back(lua_pushstring(L, f.name));
      lua_rawseti(L, -2, ++n);
    }
  }
  luaL_ref(L, LUA_REGISTRYINDEX);
  cs->IndexKeys();
  lua_pushboolean(L, 0);
  cs->cache_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushlightuserdata(L, nullptr);
  lua_createtable(L, 0, 5);
  const std::pair<const char*, lua_CFunction> methods[] = {
      {"__index", CatchCpp<ContextIndex>},
      {"__pairs", CatchCpp<ContextPairs>},
      {"__newindex", CatchCpp<ContextWrite>},
      {"__tostring", CatchCpp<ContextToString>},
  };
  for (const auto& [name, fn] : methods) {
    lua_pushlightuserdata(L, cs);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, -2, name);
  }
  lua_pushliteral(L, "ctx");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}

void SetInt(lua_State* L, const char* key, int value) {
  lua_pushinteger(L, value);
  lua_setfield(L, -2, key);
}

void SetBool(lua_State* L, const char* key, bool value) {
  lua_pushboolean(L, value);
  lua_setfield(L, -2, key);
}

void PushRankName(lua_State* L, const LuaHooks::ArgState& as, Rank rank) {
  const int ref = as.ranks[size_t(rank) & 15];
  if (ref != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  else lua_pushstring(L, RankName(rank));
}

void PushCard(lua_State* L, const LuaHooks::ArgState& as, Card card) {
  if (card.valid() && as.cards[size_t(card.index())] != LUA_NOREF) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, as.cards[size_t(card.index())]);
    return;
  }
  const std::string text = ToString(card);
  lua_pushlstring(L, text.data(), text.size());
}

// The keys a table holds, counted by traversal.
int CountKeys(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    ++n;
  }
  return n;
}

// Pushes the table of `t` after `fill(L)` has set every one of its
// `fields` fields on it. The table is the one of the last call when it can
// hold only what the fill sets. A table made with room for exactly its
// fields (a power of two of them) has none left once they are all set, so
// a hook can have added a key only by making it grow, which allocates:
// the table is reused when nothing was allocated since its last fill, it
// has no metatable, and the fill allocated nothing either (a key a hook
// removed, and another put in its place, make the fill allocate). A table
// with spare room is counted instead. Otherwise a fresh table is made and
// kept for next time. Either way the hook sees exactly the fields filled.
//
// The refill of a reused table, when `refill` is set (the fast path of a
// call, outside any protected call), is a call of the table's Lua refiller
// with `push_values(L)` as its arguments: its SETFIELDs cost a fraction of
// as many lua_setfield. It runs with the instruction hook off, so that it
// takes nothing from the hook's budget (Call() arms the hook again), and it
// cannot raise: the table has no metatable, and memory has ample room.
template <class Fill, class PushValues>
void PushReused(lua_State* L, const LuaSandbox& sandbox, LuaHooks::ArgState::Reused& t,
                int fields, bool refill, Fill&& fill, PushValues&& push_values) {
  const bool full = (fields & (fields - 1)) == 0;
  if (t.ref != LUA_NOREF && sandbox.allocations() == t.clean_at) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, t.ref);
    if (lua_getmetatable(L, -1)) {
      lua_pop(L, 2);
    } else {
      if (refill && t.refill != LUA_NOREF) {
        lua_sethook(L, nullptr, 0, 0);
        lua_rawgeti(L, LUA_REGISTRYINDEX, t.refill);
        lua_pushvalue(L, -2);
        lua_call(L, push_values(L) + 1, 0);
      } else {
        fill(L);
      }
      if (sandbox.allocations() == t.clean_at && (full || CountKeys(L, -1) == fields)) return;
      lua_pop(L, 1);
    }
  }
  lua_createtable(L, 0, fields);
  fill(L);
  lua_pushvalue(L, -1);
  if (t.ref == LUA_NOREF) {
    t.ref = luaL_ref(L, LUA_REGISTRYINDEX);
  } else {
    lua_rawseti(L, LUA_REGISTRYINDEX, t.ref);
  }
  t.clean_at = sandbox.allocations();
}

// The refillers of PushReused: each sets its table's fields from its
// arguments, in the order the C fills below set them.
constexpr char kShapeRefill[] =
    "return function(t, rank, naturals, twos, jokers, wilds, size, was_canasta, is_new)\n"
    "  t.rank = rank t.naturals = naturals t.twos = twos t.jokers = jokers\n"
    "  t.wilds = wilds t.size = size t.was_canasta = was_canasta t.is_new = is_new\n"
    "end\n";
constexpr char kSideRefill[] =
    "return function(t, side, canastas, natural_canastas, mixed_canastas, melds, red_threes)\n"
    "  t.side = side t.canastas = canastas t.natural_canastas = natural_canastas\n"
    "  t.mixed_canastas = mixed_canastas t.melds = melds t.red_threes = red_threes\n"
    "end\n";

// Compiles a refiller inside a protected call and returns its registry ref.
int MakeRefill(lua_State* L, const char* source) {
  if (luaL_loadbufferx(L, source, std::strlen(source), "=(refill)", "t") != LUA_OK)
    lua_error(L);
  lua_call(L, 0, 1);
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

void PushShape(lua_State* L, const LuaSandbox& sandbox, LuaHooks::ArgState& as,
               const MeldShape& shape, bool refill) {
  PushReused(
      L, sandbox, as.shape, 8, refill,
      [&](lua_State* T) {
        PushRankName(T, as, shape.rank);
        lua_setfield(T, -2, "rank");
        SetInt(T, "naturals", shape.naturals);
        SetInt(T, "twos", shape.twos);
        SetInt(T, "jokers", shape.jokers);
        SetInt(T, "wilds", shape.wilds());
        SetInt(T, "size", shape.size());
        SetBool(T, "was_canasta", shape.was_canasta);
        SetBool(T, "is_new", shape.is_new);
      },
      [&](lua_State* T) {
        PushRankName(T, as, shape.rank);
        lua_pushinteger(T, shape.naturals);
        lua_pushinteger(T, shape.twos);
        lua_pushinteger(T, shape.jokers);
        lua_pushinteger(T, shape.wilds());
        lua_pushinteger(T, shape.size());
        lua_pushboolean(T, shape.was_canasta);
        lua_pushboolean(T, shape.is_new);
        return 8;
      });
}

void PushSide(lua_State* L, const LuaSandbox& sandbox, LuaHooks::ArgState& as,
              const SideSummary& side, bool refill) {
  PushReused(
      L, sandbox, as.side, 6, refill,
      [&](lua_State* T) {
        SetInt(T, "side", side.side);
        SetInt(T, "canastas", side.canastas);
        SetInt(T, "natural_canastas", side.natural_canastas);
        SetInt(T, "mixed_canastas", side.mixed_canastas);
        SetInt(T, "melds", side.melds);
        SetInt(T, "red_threes", side.red_threes);
      },
      [&](lua_State* T) {
        lua_pushinteger(T, side.side);
        lua_pushinteger(T, side.canastas);
        lua_pushinteger(T, side.natural_canastas);
        lua_pushinteger(T, side.mixed_canastas);
        lua_pushinteger(T, side.melds);
        lua_pushinteger(T, side.red_threes);
        return 6;
      });
}

// Pushes the hook's arguments before `rules`; returns how many.
int PushArgs(lua_State* L, const LuaHooks::CallState& c, ContextState* cs,
             const LuaSandbox& sandbox, LuaHooks::ArgState& as, bool fast) {
  if (c.ctx) {
    // Pushing a light userdata allocates nothing.
    ++cs->token;
    cs->ctx = c.ctx;
    lua_pushlightuserdata(L, cs->Token());
    return 1;
  }
  switch (c.hook) {
    case HookId::kInitialMeldValue:
      PushCard(L, as, c.card);
      return 1;
    case HookId::kExtraMeldCheck:
      PushShape(L, sandbox, as, *c.shape, fast);
      return 1;
    case HookId::kCanastasToGoOut:
      PushSide(L, sandbox, as, *c.side, fast);
      return 1;
    case HookId::kMinimumCount:
      lua_pushinteger(L, c.total);
      return 1;
    case HookId::kHouseScoreAdjustment:
      PushSide(L, sandbox, as, *c.side, fast);
      lua_pushboolean(L, c.went_out);
      return 2;
    default:
      break;
  }
  return 0;
}

// Arguments after `rules`: minimum_count's ctx, for a function that can
// see a third argument (`sees_ctx`). Returns how many.
int PushTrailingArgs(lua_State* L, const LuaHooks::CallState& c, bool sees_ctx) {
  if (c.hook != HookId::kMinimumCount || !sees_ctx) return 0;
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, c.side_number);
  lua_setfield(L, -2, "side");
  const size_t n = c.totals ? c.totals->size() : 0;
  lua_createtable(L, int(n), 0);
  for (size_t i = 0; i < n; ++i) {
    lua_pushinteger(L, (*c.totals)[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
  lua_setfield(L, -2, "totals");
  if (c.strict_meta != LUA_NOREF) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, c.strict_meta);
    lua_setmetatable(L, -2);
  }
  return 1;
}

// A short description of a context for the report: its scalar fields.
std::string DescribeContext(const HookContext& ctx) {
  const HookSpec& spec = GetHookSpec(ctx.hook());
  std::string out = "{";
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const HookValue item = ctx.Field(i);
    std::string text;
    switch (item.kind()) {
      case HookValue::Kind::kBool:
        text = item.boolean() ? "true" : "false";
        break;
      case HookValue::Kind::kInt:
        text = std::to_string(item.integer());
        break;
      case HookValue::Kind::kString:
        text = "\"" + item.string() + "\"";
        break;
      case HookValue::Kind::kCards:
        if (item.cards().size() <= 4) {
          text = "{";
          for (Card card : item.cards())
            text += (text.size() > 1 ? ", \"" : "\"") + ToString(card) + "\"";
          text += "}";
        }
        break;
      default:
        break;
    }
    if (text.empty()) continue;
    out += (out.size() > 1 ? ", " : "") + std::string(spec.fields[i].name) + " = " + text;
  }
  return out + ", ...}";
}

// The call as Lua code, for the report: built only when a call fails.
std::string DescribeCall(const LuaHooks::CallState& c) {
  std::string name = HookNames()[size_t(c.hook)];
  if (GetHookSpec(c.hook).v2) return name + "(" + DescribeContext(*c.ctx) + ", rules)";
  auto side = [](const SideSummary& s) {
    return "{side = " + std::to_string(s.side) + ", canastas = " + std::to_string(s.canastas) +
           ", natural_canastas = " + std::to_string(s.natural_canastas) +
           ", mixed_canastas = " + std::to_string(s.mixed_canastas) +
           ", melds = " + std::to_string(s.melds) +
           ", red_threes = " + std::to_string(s.red_threes) + "}";
  };
  switch (c.hook) {
    case HookId::kInitialMeldValue:
      return name + "(\"" + ToString(c.card) + "\", rules)";
    case HookId::kExtraMeldCheck: {
      const MeldShape& m = *c.shape;
      return name + "({rank = \"" + RankName(m.rank) +
             "\", naturals = " + std::to_string(m.naturals) + ", twos = " + std::to_string(m.twos) +
             ", jokers = " + std::to_string(m.jokers) +
             ", was_canasta = " + (m.was_canasta ? "true" : "false") +
             ", is_new = " + (m.is_new ? "true" : "false") + "}, rules)";
    }
    case HookId::kCanastasToGoOut:
      return name + "(" + side(*c.side) + ", rules)";
    case HookId::kMinimumCount:
      return name + "(" + std::to_string(c.total) + ", rules, {side = " +
             std::to_string(c.side_number) + ", ...})";
    case HookId::kHouseScoreAdjustment:
      return name + "(" + side(*c.side) + ", " + (c.went_out ? "true" : "false") + ", rules)";
    default:
      break;
  }
  return name;
}

// Reads a reason answer (extra_meld_check and the v2 may_* hooks): nil or
// true allow, false or a string refuse.
void ReadReason(lua_State* L, LuaHooks::CallState& c, const char* name) {
  int type = lua_type(L, -1);
  if (type == LUA_TNIL || (type == LUA_TBOOLEAN && lua_toboolean(L, -1))) {
    c.text.clear();
    c.answer.given = type != LUA_TNIL;
    c.answer.allowed = true;
  } else if (type == LUA_TBOOLEAN) {
    c.text = std::string("the ruleset's ") + name + " refuses this";
    c.answer.given = true;
    c.answer.allowed = false;
  } else if (type == LUA_TSTRING) {
    size_t n = 0;
    const char* s = lua_tolstring(L, -1, &n);
    c.text = ShortenText(std::string_view(s, n), kMaxScriptText);
    if (c.text.empty()) c.text = std::string("the ruleset's ") + name + " refuses this";
    c.answer.given = true;
    c.answer.allowed = false;
  } else {
    c.bad_return = std::string(name) +
                   " must return nil or true (fine), or false or a string saying "
                   "why not; it returned " +
                   DescribeLuaValue(L, -1);
  }
  if (!c.text.empty()) c.answer.reason = c.text;
}

// Reads a table of score parts {red_threes = 200, sevens = 500}.
void ReadParts(lua_State* L, LuaHooks::CallState& c, const std::string& name,
               const std::vector<std::string>& extra, int min, int max) {
  if (lua_isnil(L, -1)) return;
  if (!lua_istable(L, -1)) {
    c.bad_return = name + " must return nil or a table of score parts; it returned " +
                   DescribeLuaValue(L, -1);
    return;
  }
  std::vector<std::string> known;
  for (const BreakdownPart& part : BreakdownParts()) known.emplace_back(part.name);
  known.insert(known.end(), extra.begin(), extra.end());
  int top = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, top)) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      c.bad_return = name + " returned a part with a key that is not a name";
      lua_settop(L, top);
      return;
    }
    std::string key = lua_tostring(L, -2);
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      c.bad_return = name + " returned an unknown part " + QuoteName(key) + Suggest(key, known) +
                     "; a ruleset declares its own parts in score_parts";
      lua_settop(L, top);
      return;
    }
    int value = 0;
    std::string why = ReadValue(L, -1, value);
    if (why.empty() && (value < min || value > max))
      why = std::to_string(min) + " to " + std::to_string(max) + " expected, got " +
            std::to_string(value);
    if (!why.empty()) {
      c.bad_return = name + ": part " + key + " must be an integer: " + why;
      lua_settop(L, top);
      return;
    }
    c.answer.parts.emplace_back(key, value);
    lua_pop(L, 1);
  }
  // Parts in the order reports show them, whatever order Lua's table had.
  std::vector<std::pair<std::string, int>> sorted;
  for (const std::string& k : known)
    for (const auto& part : c.answer.parts)
      if (part.first == k) sorted.push_back(part);
  c.answer.parts = std::move(sorted);
  c.answer.given = true;
}

// Reads the value on top of the stack as the hook's answer.
void ReadResult(lua_State* L, LuaHooks::CallState& c, const HookSpec& spec,
                const std::vector<std::string>& extra) {
  if (spec.result == HookResult::kReason) {
    ReadReason(L, c, spec.name);  // the name is copied only into a message
    return;
  }
  const std::string& name = HookNames()[size_t(c.hook)];
  switch (spec.result) {
    case HookResult::kReason:
      return;
    case HookResult::kParts:
      ReadParts(L, c, name, extra, spec.min, spec.max);
      return;
    case HookResult::kSide: {
      if (lua_isnil(L, -1)) return;
      int value = 0;
      std::string why = ReadValue(L, -1, value);
      const int sides = c.rules->num_sides();
      if (why.empty() && (value < 0 || value >= sides))
        why = "a side 0 to " + std::to_string(sides - 1) + " expected, got " +
              std::to_string(value);
      if (why.empty()) {
        c.answer.given = true;
        c.answer.integer = value;
      } else {
        c.bad_return = name + " must return nil or a side number: " + why;
      }
      return;
    }
    case HookResult::kInteger:
      break;
  }
  // ReadValue converts without undefined behaviour (NaN, infinities and
  // numbers beyond int are refused); the range keeps the engine's sums of
  // these answers far from overflow. Documented in docs/lua-api.md.
  if (lua_isinteger(L, -1)) {
    // The common answer, an integer in range, read without ReadValue's message.
    const lua_Integer exact = lua_tointeger(L, -1);
    if (exact >= spec.min && exact <= spec.max) {
      c.integer = int(exact);
      c.answer.given = true;
      c.answer.integer = int(exact);
      return;
    }
  }
  if (spec.v2 && lua_isnil(L, -1)) return;
  int value = 0;
  std::string why = ReadValue(L, -1, value);
  if (why.empty() && (value < spec.min || value > spec.max)) {
    why = std::to_string(spec.min) + " to " + std::to_string(spec.max) + " expected, got " +
          std::to_string(value);
  }
  if (why.empty()) {
    c.integer = value;
    c.answer.given = true;
    c.answer.integer = value;
  } else {
    c.bad_return = name + " must return an integer: " + why;
  }
}

}  // namespace

const std::vector<std::string>& HookNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const HookSpec& spec : HookSpecs()) names.emplace_back(spec.name);
    return names;
  }();
  return kNames;
}

std::string HookError::ToString() const {
  std::string out = error.ToString() + " [hook " + hook + "]";
  if (count > 1) out += " (" + std::to_string(count) + " calls)";
  return out;
}

LuaHooks::LuaHooks(const std::vector<Chunk>& chain, const SandboxLimits& limits,
                   const SandboxLimits& load_limits)
    : context_(std::make_unique<ContextState>()),
      args_(std::make_unique<ArgState>()),
      memo_(std::make_unique<Memo>()),
      rules_ref_(LUA_NOREF) {
  refs_.fill(LUA_NOREF);
  std::optional<LuaError> error;
  try {
    SandboxLimits loading = load_limits;  // the state's memory is the hooks' from the start
    loading.memory_bytes = limits.memory_bytes;
    loading.max_string_bytes = limits.max_string_bytes;
    sandbox_ = std::make_unique<LuaSandbox>(loading);
    sandbox_->set_owner_data(context_.get());
  } catch (const std::exception& e) {
    error = LuaError{"", 0, e.what(), ""};
  }
  if (!error)
    error = sandbox_->Protected([this](lua_State* L) {
      OpenCanastaLibrary(L);
      strict_meta_ = MakeStrictMeta(L);
      context_->strict_meta = strict_meta_;
      InstallContexts(L, context_.get());
      for (int i = 0; i < kNumFaces; ++i) {
        const std::string card = ToString(Card::FromIndex(i));
        lua_pushlstring(L, card.data(), card.size());
        args_->cards[size_t(i)] = luaL_ref(L, LUA_REGISTRYINDEX);
      }
      for (int r = 0; r < 16; ++r) {
        lua_pushstring(L, HookRankName(Rank(r)));
        args_->ranks[size_t(r)] = luaL_ref(L, LUA_REGISTRYINDEX);
      }
      args_->shape.refill = MakeRefill(L, kShapeRefill);
      args_->side.refill = MakeRefill(L, kSideRefill);
    });
  for (const Chunk& chunk : chain) {
    if (error) break;
    error = sandbox_->Run(chunk.source, chunk.file, 1);
    if (error) break;
    error = sandbox_->Protected(
        [this, &chunk](lua_State* L) {
          if (!lua_istable(L, 1)) luaL_error(L, "%s did not return a table", chunk.file.c_str());
          // The ruleset's own score parts (checked by the loader).
          lua_pushliteral(L, "score_parts");
          if (lua_rawget(L, 1) == LUA_TTABLE) {
            for (lua_Integer i = 1; lua_rawgeti(L, -1, i) == LUA_TSTRING; ++i) {
              std::string part = lua_tostring(L, -1);
              if (std::find(extra_parts_.begin(), extra_parts_.end(), part) == extra_parts_.end())
                extra_parts_.push_back(part);
              lua_pop(L, 1);
            }
            lua_pop(L, 1);
          }
          lua_settop(L, 1);
          lua_pushliteral(L, "hooks");
          if (lua_rawget(L, 1) != LUA_TTABLE) return;
          for (int h = 0; h < kNumHooks; ++h) {
            lua_pushstring(L, HookNames()[size_t(h)].c_str());
            if (lua_rawget(L, 2) != LUA_TFUNCTION) {
              lua_pop(L, 1);
              continue;
            }
            // A file later in the chain overrides its base's hook.
            lua_Debug ar;
            lua_pushvalue(L, -1);
            if (lua_getinfo(L, ">Su", &ar)) {
              where_[size_t(h)] = std::string(ar.source[0] == '@' ? ar.source + 1 : ar.short_src) +
                                  ":" + std::to_string(ar.linedefined);
              // minimum_count(total, rules): no third parameter, no ctx to build.
              if (HookId(h) == HookId::kMinimumCount)
                minimum_sees_ctx_ = ar.isvararg || ar.nparams >= 3;
            }
            int ref = luaL_ref(L, LUA_REGISTRYINDEX);
            if (refs_[size_t(h)] != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, refs_[size_t(h)]);
            refs_[size_t(h)] = ref;
          }
        },
        1);
  }
  if (sandbox_) sandbox_->SetCallLimits(limits);
  if (error) {
    // Half a chain's hooks would be a ruleset nobody wrote: use none.
    refs_.fill(LUA_NOREF);
    Record("(loading)", "", *error);
  } else {
    // Failing here only leaves every hook on the general path.
    if (sandbox_->Protected([this](lua_State* L) { InspectHooks(L); })) {
      for (ContextState::Table& t : context_->tables) t = ContextState::Table{};
    }
  }
  for (int h = 0; h < kNumHooks; ++h)
    if (refs_[size_t(h)] != LUA_NOREF) SetOverridden(HookId(h));
}

LuaHooks::~LuaHooks() = default;

void LuaHooks::InspectHooks(lua_State* L) {
  if (!BytecodeInspectionWorks(L)) return;
  ContextState* cs = context_.get();
  int meta = LUA_NOREF;
  for (int h = 0; h < kNumHooks; ++h) {
    if (refs_[size_t(h)] == LUA_NOREF) continue;
    lua_rawgeti(L, LUA_REGISTRYINDEX, refs_[size_t(h)]);
    const FunctionFacts facts = InspectFunction(L, -1);
    lua_pop(L, 1);
    if (!facts.known) continue;
    if (!facts.reads_first_param_only || !GetHookSpec(HookId(h)).v2) continue;
    if (meta == LUA_NOREF) {
      lua_createtable(L, 0, 3);
      lua_pushcfunction(L, CatchCpp<ContextTableIndex>);
      lua_setfield(L, -2, "__index");
      lua_pushcfunction(L, CatchCpp<ContextWrite>);
      lua_setfield(L, -2, "__newindex");
      lua_pushliteral(L, "ctx");
      lua_setfield(L, -2, "__metatable");
      meta = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    // Room for every field, so that setting the hot ones never grows it.
    const int n = int(cs->keys[size_t(h)].size());
    ContextState::Table& t = cs->tables[size_t(h)];
    t.hot.reserve(size_t(n));
    t.held.reserve(size_t(n));
    t.now.reserve(size_t(n));
    t.pure = facts.pure;
    lua_createtable(L, n, n);
    lua_rawgeti(L, LUA_REGISTRYINDEX, meta);
    lua_setmetatable(L, -2);
    t.address = lua_topointer(L, -1);
    t.ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
}

namespace {

// The hook's answer, read from the top of the stack; for a wrong type, where
// the hook is defined. Allocates nothing in Lua.
void TakeResult(lua_State* L, int ref, LuaHooks::CallState& c, const HookSpec& spec,
                const std::vector<std::string>& extra) {
  ReadResult(L, c, spec, extra);
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
  if (SkipSpent()) return false;
  lua_State* L = sandbox_->state();
  int ref = refs_[size_t(c.hook)];
  c.strict_meta = strict_meta_;
  ContextState* cs = context_.get();
  if (FastPath(*c.rules)) {
    // Fast path: with this much memory free, pushing a few small values
    // cannot fail, so they may be pushed outside a protected call and the
    // hook called directly.
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    int nargs = PushArgs(L, c, cs, *sandbox_, *args_, /*fast=*/true);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rules_ref_);
    nargs += PushTrailingArgs(L, c, minimum_sees_ctx_);
    const std::optional<LuaError> error = sandbox_->Call(nargs + 1, 1);
    cs->ctx = nullptr;
    return Finish(c, error);
  }
  const std::optional<LuaError> error = sandbox_->Protected([this, ref, cs, &c](lua_State* state) {
    if (rules_for_ref_ != c.rules) {
      // Answers given under other parameters.
      memo_->Clear();
      PushRules(state, *c.rules);
      int rules = luaL_ref(state, LUA_REGISTRYINDEX);
      if (rules_ref_ != LUA_NOREF) luaL_unref(state, LUA_REGISTRYINDEX, rules_ref_);
      rules_ref_ = rules;
      rules_for_ref_ = c.rules;
      rules_of_ref_ = std::make_unique<Rules>(*c.rules);
    }
    lua_rawgeti(state, LUA_REGISTRYINDEX, ref);
    int nargs = PushArgs(state, c, cs, *sandbox_, *args_, /*fast=*/false);
    lua_rawgeti(state, LUA_REGISTRYINDEX, rules_ref_);
    nargs += PushTrailingArgs(state, c, minimum_sees_ctx_);
    lua_call(state, nargs + 1, 1);
    TakeResult(state, ref, c, *cs->specs[size_t(c.hook)], extra_parts_);
  });
  cs->ctx = nullptr;
  return Finish(c, error, /*read=*/false);
}

bool LuaHooks::FastPath(const Rules& rules) const {
  return RulesCurrent(rules) &&
         sandbox_->memory_used() + kFastPathHeadroom < sandbox_->limits().memory_bytes;
}

bool LuaHooks::Finish(CallState& c, const std::optional<LuaError>& error, bool read) const {
  if (read && !error) {
    lua_State* L = sandbox_->state();
    TakeResult(L, refs_[size_t(c.hook)], c, *context_->specs[size_t(c.hook)], extra_parts_);
    lua_pop(L, 1);
  }
  if (error) {
    Record(HookNames()[size_t(c.hook)], DescribeCall(c), *error);
    return false;
  }
  if (!c.bad_return.empty()) {
    Record(HookNames()[size_t(c.hook)], DescribeCall(c),
           LuaError{c.defined_in, c.defined_at, c.bad_return, ""});
    return false;
  }
  return true;
}

bool LuaHooks::RulesCurrent(const Rules& rules) const {
  if (rules_for_ref_ == &rules) return true;
  if (!rules_of_ref_ || !SameParams(*rules_of_ref_, rules)) return false;
  rules_for_ref_ = &rules;
  return true;
}

void LuaHooks::Record(const std::string& hook, const std::string& call,
                      const LuaError& error) const {
  if (!spent_ && sandbox_->total_spent() && error.message == sandbox_->total_spent_message())
    spent_ = HookError{hook, call, error, 1};
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

double LuaHooks::SecondsSpent() const { return sandbox_ ? sandbox_->total_seconds_used() : 0; }

void LuaHooks::StopCalling(const std::string& why) const {
  if (!sandbox_ || sandbox_->total_spent()) return;
  sandbox_->SpendTotal(why);
  // The calls not made are this failure's (TakeErrors counts them).
  spent_ = HookError{"(every hook)", "", LuaError{"", 0, why, ""}, 0};
}

std::vector<HookError> LuaHooks::TakeErrors() const {
  std::vector<HookError> out;
  out.swap(errors_);
  if (skipped_calls_ > 0 && spent_) {
    // The calls not made are more of the failure that spent the budget:
    // counted with it, or (taken already) as the same failure again, which
    // the replay reports once a game.
    auto same = std::find_if(out.begin(), out.end(), [&](const HookError& e) {
      return e.hook == spent_->hook && e.error.message == spent_->error.message;
    });
    if (same != out.end()) {
      same->count += skipped_calls_;
    } else {
      out.push_back(*spent_);
      out.back().count = skipped_calls_;
    }
    skipped_calls_ = 0;
  }
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
  if (refs_[size_t(HookId::kInitialMeldValue)] == LUA_NOREF) return RuleHooks::InitialMeldValue(rules, card);
  const bool keep = card.valid();
  if (keep && memo_->card_known[size_t(card.index())] && RulesCurrent(rules))
    return memo_->card_value[size_t(card.index())];
  CallState c(HookId::kInitialMeldValue, rules);
  c.card = card;
  if (!Invoke(c)) return RuleHooks::InitialMeldValue(rules, card);
  if (keep) {
    // Invoke answered under this Rules' table: the memo is the table's.
    memo_->card_known[size_t(card.index())] = true;
    memo_->card_value[size_t(card.index())] = c.integer;
  }
  return c.integer;
}

std::string LuaHooks::ExtraMeldCheck(const Rules& rules, const MeldShape& shape) const {
  if (refs_[size_t(HookId::kExtraMeldCheck)] == LUA_NOREF) return RuleHooks::ExtraMeldCheck(rules, shape);
  const std::optional<uint64_t> key = Memo::ShapeKey(shape);
  if (key && RulesCurrent(rules)) {
    if (const int* text = memo_->shapes.Find(*key)) return memo_->shape_texts[size_t(*text)];
  }
  CallState c(HookId::kExtraMeldCheck, rules);
  c.shape = &shape;
  if (!Invoke(c)) return RuleHooks::ExtraMeldCheck(rules, shape);
  if (key && c.text.size() <= Memo::kMaxText && !memo_->shapes.full()) {
    memo_->shapes.Insert(*key, int(memo_->shape_texts.size()));
    memo_->shape_texts.push_back(c.text);
  }
  return std::move(c.text);
}

int LuaHooks::CanastasToGoOut(const Rules& rules, const SideSummary& side) const {
  if (refs_[size_t(HookId::kCanastasToGoOut)] == LUA_NOREF) return RuleHooks::CanastasToGoOut(rules, side);
  const std::optional<uint64_t> key = Memo::SideKey(side);
  if (key && RulesCurrent(rules)) {
    if (const int* answer = memo_->sides.Find(*key)) return *answer;
  }
  CallState c(HookId::kCanastasToGoOut, rules);
  c.side = &side;
  if (!Invoke(c)) return RuleHooks::CanastasToGoOut(rules, side);
  if (key) memo_->sides.Insert(*key, c.integer);
  return c.integer;
}

int LuaHooks::MinimumCount(const Rules& rules, int total, int side,
                           const std::vector<int>* totals) const {
  if (refs_[size_t(HookId::kMinimumCount)] == LUA_NOREF)
    return RuleHooks::MinimumCount(rules, total, side, totals);
  CallState c(HookId::kMinimumCount, rules);
  c.total = total;
  c.side_number = side;
  c.totals = totals;
  return Invoke(c) ? c.integer : RuleHooks::MinimumCount(rules, total, side, totals);
}

HookAnswer LuaHooks::Call(const HookContext& ctx, const Rules& rules) const {
  const HookId id = ctx.hook();
  // HookId lists the v1 hooks first (core/hook_api.h).
  if (id >= HookId::kCount || id < HookId::kMayTakePile || refs_[size_t(id)] == LUA_NOREF)
    return HookAnswer{};
  if (SkipSpent()) return HookAnswer{};
  int status = LUA_OK;
  const bool fast = FastPath(rules);
  if (fast) {
    // The usual call, made here without Invoke's generality: the hook, the
    // context's token and `rules` pushed outside a protected call (as
    // Invoke's fast path does), and nil, the usual answer, read at once.
    lua_State* L = sandbox_->state();
    ContextState* cs = context_.get();
    ++cs->token;
    cs->ctx = &ctx;
    ContextState::Table& table = cs->tables[size_t(id)];
    uint64_t key = 0;
    const uint64_t misses = table.misses;
    if (table.ref != LUA_NOREF) {
      key = cs->Gather(table);
      if (!table.pure) key = 0;
      // A pure hook that answered nil to these fields answers nil again,
      // and no one can tell whether it ran (docs/lua-api.md).
      if (key != 0 && table.KnownNil(key)) {
        cs->ctx = nullptr;
        return HookAnswer{};
      }
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, refs_[size_t(id)]);
    if (table.ref != LUA_NOREF) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, table.ref);
      cs->Prefill(L, table);
    } else {
      lua_pushlightuserdata(L, cs->Token());
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, rules_ref_);
    status = sandbox_->CallStatus(2, 1);
    cs->ctx = nullptr;
    if (status == LUA_OK && lua_type(L, -1) == LUA_TNIL) {
      lua_pop(L, 1);
      // Kept only when the call read no field outside the key.
      if (key != 0 && table.misses == misses) table.RememberNil(key);
      return HookAnswer{};
    }
  }
  CallState c(id, rules);
  c.ctx = &ctx;
  bool ok;
  if (!fast) {
    ok = Invoke(c);
  } else if (status == LUA_OK) {
    ok = Finish(c, std::nullopt);
  } else {
    ok = Finish(c, sandbox_->TakeError(status));
  }
  if (!ok || !c.answer.given) return HookAnswer{};
  c.answer.where = where_[size_t(id)];  // only an answer cites it
  return std::move(c.answer);
}

int LuaHooks::HouseScoreAdjustment(const Rules& rules, const SideSummary& side,
                                   bool went_out) const {
  if (refs_[size_t(HookId::kHouseScoreAdjustment)] == LUA_NOREF) {
    return RuleHooks::HouseScoreAdjustment(rules, side, went_out);
  }
  CallState c(HookId::kHouseScoreAdjustment, rules);
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
