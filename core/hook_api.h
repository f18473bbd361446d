// The hooks of house rules v2: one descriptor per hook (name, context
// fields, result, documentation), from which the Lua glue (scripting/), the
// docs table of docs/lua-api.md and `canasta rules show` are all made, so
// that adding a hook touches this table and the engine's call site only.
//
// A v2 hook is called with one context table (`ctx`) and the `rules` table.
// The engine builds the context (a HookValue) only when a ruleset defines the
// hook (RuleHooks::Overrides), so a ruleset without hooks costs nothing.
#ifndef CANASTA_CORE_HOOK_API_H_
#define CANASTA_CORE_HOOK_API_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/card.h"

namespace canasta {

// Every hook, v1 (positional arguments) first, in the order of HookSpecs().
enum class HookId : uint8_t {
  // v1: positional arguments, kept as they were.
  kInitialMeldValue,
  kExtraMeldCheck,
  kCanastasToGoOut,
  kMinimumCount,
  kHouseScoreAdjustment,
  // v2: (ctx, rules).
  kMayTakePile,
  kMayMeld,
  kMayDiscard,
  kMayGoOut,
  kScore,
  kTieBreak,
  kCount  // not a hook
};
constexpr int kNumHooks = int(HookId::kCount);

// A value of a hook's context: nil, a boolean, an integer, a string, a list
// of cards (strings such as "7H" in Lua), a list or a table of values.
class HookValue {
 public:
  enum class Kind : uint8_t { kNil, kBool, kInt, kString, kCards, kList, kTable, kLazy };
  // A value made only when a hook reads it: `make(object, arg)`. The
  // object must outlive the call (the engine's Position does).
  using Maker = HookValue (*)(const void* object, int arg);

  HookValue() = default;
  static HookValue Bool(bool b);
  static HookValue Int(int i);
  static HookValue String(std::string s);
  static HookValue Cards(std::vector<Card> cards);
  static HookValue OfCard(Card c);  // a string, or nil for no card
  static HookValue List();
  static HookValue Table();
  static HookValue Lazy(Maker make, const void* object, int arg);

  Kind kind() const { return kind_; }
  bool boolean() const { return int_ != 0; }
  int integer() const { return int_; }
  const std::string& string() const { return string_; }
  const std::vector<Card>& cards() const { return cards_; }
  // Entries of a list, or values of a table (with keys()).
  const std::vector<HookValue>& items() const { return items_; }
  const std::vector<const char*>& keys() const { return keys_; }
  // A lazy value made; any other value copied.
  HookValue Resolve() const { return kind_ == Kind::kLazy ? make_(object_, int_) : *this; }
  // Room for `n` fields or entries, before a run of Set or Append.
  void Reserve(size_t n) {
    keys_.reserve(n);
    items_.reserve(n);
  }

  // A table's field; builds a table. `key` must outlive the value (a string
  // literal): contexts are built on the audit's hot path, so a key is not
  // looked for first; set twice, the last value is the one read. Returns *this.
  HookValue& Set(const char* key, HookValue value);
  // A list's next entry.
  HookValue& Append(HookValue value);
  // A table's field, or nullptr.
  const HookValue* Find(std::string_view key) const;

 private:
  Kind kind_ = Kind::kNil;
  int int_ = 0;
  std::string string_;
  std::vector<Card> cards_;
  std::vector<const char*> keys_;
  std::vector<HookValue> items_;
  Maker make_ = nullptr;
  const void* object_ = nullptr;
};

// What a v2 hook returned. `given` is false when the hook returned nil (or
// failed): the engine keeps its own answer.
struct HookAnswer {
  bool given = false;
  bool allowed = true;   // kReason: true/nil allow; false or a string refuses
  std::string reason;    // kReason: why not ("" for a bare false)
  int integer = 0;       // kInteger, kSide
  // kParts: the parts the hook sets, by name (standard parts and the
  // ruleset's own, declared in its `score_parts`).
  std::vector<std::pair<std::string, int>> parts;
  std::string where;     // "file:line" of the hook function, for citations
};

enum class HookResult : uint8_t {
  kInteger,  // an integer in [min, max]
  kReason,   // nil or true (fine), false or a string (refused: the reason)
  kParts,    // nil, or a table of score parts {red_threes = 200, ...}
  kSide,     // nil, or a side number 0..sides-1
};

struct HookField {
  const char* name;
  const char* type;  // "integer", "boolean", "string", "card", "cards", "melds", ...
  const char* doc;
};

struct HookSpec {
  HookId id;
  const char* name;       // as Lua spells it
  const char* signature;  // "may_take_pile(ctx, rules)"
  HookResult result;
  int min = 0;            // kInteger: accepted range
  int max = 0;
  const char* returns;    // what the result means
  const char* doc;        // when it is called and what it decides
  const char* example;    // a short Lua example (a `hooks` entry)
  std::vector<HookField> fields;  // of ctx (v2) or the arguments (v1)
  bool v2 = true;
};

// Every hook, in HookId order: HookSpecs()[i].id == HookId(i).
const std::vector<HookSpec>& HookSpecs();
const HookSpec& GetHookSpec(HookId id);
// The hook called `name`, or kCount.
HookId FindHook(std::string_view name);

// The fields of a meld as hooks see it (an entry of ctx.melds).
HookValue MeldValue(Rank rank, const std::vector<Card>& cards, int canasta_size);
// A rank as Lua spells it: "2".."A", "wild" for a meld of wild cards only.
const char* HookRankName(Rank rank);

}  // namespace canasta

#endif  // CANASTA_CORE_HOOK_API_H_
