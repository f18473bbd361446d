// The hooks of house rules v2: one descriptor per hook (name, context
// fields, result, documentation), from which the Lua glue (scripting/), the
// docs table of docs/lua-api.md and `canasta rules show` are all made, so
// that adding a hook touches this table and the engine's call site only.
//
// A v2 hook is called with one context (`ctx`) and the `rules` table. The
// engine copies nothing into a context: it hands over a HookState (the
// position and the few values only the call site knows, such as the card
// discarded), and each field is read from it by its descriptor's reader
// when the hook reads the field. So a call costs the fields a hook reads,
// and a ruleset that defines no hook (RuleHooks::Overrides) costs nothing.
#ifndef CANASTA_CORE_HOOK_API_H_
#define CANASTA_CORE_HOOK_API_H_

#include <cstdint>
#include <optional>
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

class Position;
struct MeldShape;
struct ScoreBreakdown;

// What a v2 hook's context is read from at a call the engine makes (see
// HookField::read). Each struct lives on the engine's stack for the call.
struct HookState {};
// Every turn hook's: the position before the move, and the seat in turn.
struct TurnHookState : HookState {
  // `player` outside 0..players-1 reads as the seat in turn.
  TurnHookState(const Position& position, int player);
  const Position* position;
  int seat;
};
struct TakePileHookState : TurnHookState {
  using TurnHookState::TurnHookState;
  Card top;
  const std::vector<Card>* with = nullptr;
  std::optional<Rank> to;
  bool to_hand = false;
  const std::string* refusal = nullptr;  // the engine's reason, nullptr when it allows
};
struct MeldHookState : TurnHookState {
  using TurnHookState::TurnHookState;
  const MeldShape* shape = nullptr;           // after the play
  const std::vector<Card>* cards = nullptr;  // laid now
  bool opening = false;
  bool from_pile = false;
};
struct DiscardHookState : TurnHookState {
  using TurnHookState::TurnHookState;
  Card card;
  bool last_card = false;
};
struct GoOutHookState : TurnHookState {
  using TurnHookState::TurnHookState;
  const char* by = "discard";
  int canastas = 0;
  int natural_canastas = 0;
  int mixed_canastas = 0;
  bool asked = false;
  std::optional<bool> answer;
  bool concealed = false;
  const std::string* refusal = nullptr;  // the engine's reason, nullptr when it allows
};

// score: once per side when a hand is scored.
struct ScoreHookState : HookState {
  const Position* position = nullptr;
  int side = 0;
  bool went_out = false;
  bool concealed = false;
  const char* ended = "unfinished";
  bool opened = false;
  const ScoreBreakdown* breakdown = nullptr;  // the engine's
};
// tie_break: when the game is over and the top totals tie.
struct TieBreakHookState : HookState {
  const std::vector<int>* totals = nullptr;
  const std::vector<int>* tied = nullptr;
  const std::vector<int>* canastas = nullptr;  // by side; missing ones read 0
  int hands = 0;
};

struct HookField {
  const char* name;
  const char* type;  // "integer", "boolean", "string", "card", "cards", "melds", ...
  const char* doc;
  // How the field is read from the hook's HookState (v2 hooks); nullptr
  // for the arguments of v1 hooks.
  HookValue (*read)(const HookState& state) = nullptr;
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

// A v2 hook's context as the glue (scripting/) reads it: field by field, by
// the field's index in the hook's descriptor.
class HookContext {
 public:
  // Read from the engine's state by the descriptor's readers.
  HookContext(HookId hook, const HookState& state) : hook_(hook), state_(&state) {}
  // Read from a table of values by name (HookValue::Table): for contexts
  // made once a hand (score, tie_break) and for tests.
  HookContext(HookId hook, const HookValue& table) : hook_(hook), table_(&table) {}
  HookId hook() const { return hook_; }
  // Field `i` of the descriptor (nil when the engine leaves it so).
  HookValue Field(size_t i) const;
  // The engine's state the fields are read from; nullptr for a table.
  const HookState* state() const { return state_; }

 private:
  HookId hook_;
  const HookState* state_ = nullptr;
  const HookValue* table_ = nullptr;
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
