#include "replay/log_reader.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <set>
#include <utility>

#include "core/utf8.h"

namespace canasta {
namespace {

using namespace log_limits;

// RapidJSON 1.1.0 writes through whatever its allocator returns: a failed
// allocation must throw std::bad_alloc (the program's caller reports it),
// never hand back a null pointer.
class CheckedAllocator {
 public:
  static const bool kNeedFree = true;
  void* Malloc(size_t size) {
    if (size == 0) return nullptr;
    void* p = std::malloc(size);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void* Realloc(void* original, size_t /*original_size*/, size_t new_size) {
    if (new_size == 0) {
      std::free(original);
      return nullptr;
    }
    void* p = std::realloc(original, new_size);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  static void Free(void* ptr) { std::free(ptr); }
};

using Pool = rapidjson::MemoryPoolAllocator<CheckedAllocator>;
// Values and the parser's stacks both live in pools that are cleared per line.
using JsonDocument = rapidjson::GenericDocument<rapidjson::UTF8<>, Pool, Pool>;
using JsonValue = JsonDocument::ValueType;
using SaxReader = rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, CheckedAllocator>;

// The DOM parse is iterative, and the SAX parse recursive (measured faster:
// the audit -6% timed, -12% in instructions); deep nesting cannot overflow
// the C++ stack, because every SAX handler stops at kMaxDepth (the parser
// asks it at each '[' and '{' before going deeper) and the DOM parses only
// a line the SAX parse passed. Not kParseValidateEncodingFlag: RapidJSON 1.1.0
// reads past the terminating '\0' of a line that ends inside a UTF-8
// sequence; FindBadLineByte() checks encoding first instead. Every line is
// read with the SAX parser (not in situ, so that the line stays intact); the
// rare line that needs a finding is parsed again in situ into a DOM, which
// words the findings.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag;
constexpr unsigned kSaxFlags = rapidjson::kParseNoFlags;

constexpr size_t kValueBufferSize = 64 * 1024;  // a usual line fits: no malloc
constexpr size_t kStackBufferSize = 16 * 1024;
constexpr size_t kDocumentStackCapacity = 1024;
constexpr size_t kReadChunk = 64 * 1024;
constexpr size_t kKeepBuffer = 1024 * 1024;  // give back more after a huge line
constexpr size_t kMaxQuoted = 40;            // bytes of a value quoted in a message

constexpr std::string_view kEventTypeNames[] = {
    "game",    "deal",   "three",        "draw",    "take_pile", "meld",     "discard",
    "ask_out", "answer", "special_hand", "retract", "foot",      "note",     "end_hand",
    "end_game"};
constexpr int kNumEventTypes = sizeof(kEventTypeNames) / sizeof(kEventTypeNames[0]);
static_assert(kNumEventTypes == int(EventType::kEndGame) + 1, "names match EventType");

// A line RapidJSON may parse: valid UTF-8 (reports quote the log's strings;
// RapidJSON's own check reads past the end of a line cut inside a sequence)
// and no NUL (the parse would stop there and accept what came before).
// Returns the offset of the first bad byte, or npos.
size_t FindBadLineByte(std::string_view line, bool* nul) {
  return FindInvalidUtf8(line, /*stop_at_nul=*/true, nul);
}

}  // namespace

const char* EventTypeName(EventType type) {
  int i = int(type);
  return i < kNumEventTypes ? kEventTypeNames[i].data() : "?";
}

// ---------------------------------------------------------------------------
// Converting a parsed line into an Event

namespace {

// The fields the reader knows, found in one pass over an object's members.
enum Field : uint8_t {
  kType,
  kFormat,
  kRuleset,
  kPlayers,
  kPlayer,
  kHand,
  kDealer,
  kHands,
  kUpcard,
  kStock,
  kFeet,
  kCard,
  kReplacement,
  kCards,
  kBonus,
  kTop,
  kWith,
  kTo,
  kCount,
  kMelds,
  kYes,
  kText,
  kScores,
  kTotals,
  kWinner,
  kBreakdown,
  kToHand,
  kFaceDown,
  kBefore,
  kNumFields
};

constexpr const char* kFieldNames[kNumFields] = {
    "type",  "format", "ruleset", "players",     "player", "hand",   "dealer", "hands",    "upcard",
    "stock", "feet",   "card",    "replacement", "cards",  "bonus",  "top",    "with",     "to",
    "count", "melds",  "yes",     "text",        "scores", "totals", "winner", "breakdown",
    "to_hand", "face_down", "before"};

template <size_t N>
bool Is(const char* s, const char (&literal)[N]) {
  return std::memcmp(s, literal, N - 1) == 0;
}

// kNumFields for a name the reader does not know (ignored, as the spec says).
// Inline: the builder looks up every key of the root.
[[gnu::always_inline]] inline Field FieldOf(const char* s, size_t n) {
  switch (n) {
    case 2:
      return Is(s, "to") ? kTo : kNumFields;
    case 3:
      return Is(s, "top") ? kTop : Is(s, "yes") ? kYes : kNumFields;
    case 4:  // "type" is the builder's first key, found before this
      if (Is(s, "card")) return kCard;
      if (Is(s, "hand")) return kHand;
      if (Is(s, "with")) return kWith;
      if (Is(s, "type")) return kType;
      if (Is(s, "text")) return kText;
      if (Is(s, "feet")) return kFeet;
      return kNumFields;
    case 5:
      if (Is(s, "cards")) return kCards;
      if (Is(s, "melds")) return kMelds;
      if (Is(s, "hands")) return kHands;
      if (Is(s, "stock")) return kStock;
      if (Is(s, "bonus")) return kBonus;
      if (Is(s, "count")) return kCount;
      return kNumFields;
    case 6:
      if (Is(s, "player")) return kPlayer;
      if (Is(s, "dealer")) return kDealer;
      if (Is(s, "upcard")) return kUpcard;
      if (Is(s, "format")) return kFormat;
      if (Is(s, "scores")) return kScores;
      if (Is(s, "totals")) return kTotals;
      if (Is(s, "winner")) return kWinner;
      if (Is(s, "before")) return kBefore;
      return kNumFields;
    case 7:
      if (Is(s, "players")) return kPlayers;
      if (Is(s, "ruleset")) return kRuleset;
      if (Is(s, "to_hand")) return kToHand;
      return kNumFields;
    case 9:
      return Is(s, "breakdown") ? kBreakdown : Is(s, "face_down") ? kFaceDown : kNumFields;
    case 11:
      return Is(s, "replacement") ? kReplacement : kNumFields;
    default:
      return kNumFields;
  }
}

[[gnu::always_inline]] inline std::optional<EventType> EventTypeOf(std::string_view name) {
  // By length, then fixed-size comparisons: the type of every line.
  const char* s = name.data();
  switch (name.size()) {
    case 4:
      if (Is(s, "draw")) return EventType::kDraw;
      if (Is(s, "meld")) return EventType::kMeld;
      if (Is(s, "deal")) return EventType::kDeal;
      if (Is(s, "game")) return EventType::kGame;
      if (Is(s, "foot")) return EventType::kFoot;
      if (Is(s, "note")) return EventType::kNote;
      return std::nullopt;
    case 5:
      if (Is(s, "three")) return EventType::kThree;
      return std::nullopt;
    case 6:
      if (Is(s, "answer")) return EventType::kAnswer;
      return std::nullopt;
    case 7:
      if (Is(s, "discard")) return EventType::kDiscard;
      if (Is(s, "ask_out")) return EventType::kAskOut;
      if (Is(s, "retract")) return EventType::kRetract;
      return std::nullopt;
    case 8:
      if (Is(s, "end_hand")) return EventType::kEndHand;
      if (Is(s, "end_game")) return EventType::kEndGame;
      return std::nullopt;
    case 9:
      if (Is(s, "take_pile")) return EventType::kTakePile;
      return std::nullopt;
    case 12:
      if (Is(s, "special_hand")) return EventType::kSpecialHand;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::string_view View(const JsonValue& v) { return {v.GetString(), v.GetStringLength()}; }

// ParseCard (core/card.cc) by table lookup: cards are most of a log's
// strings. A two-byte card ("KS", "JK") is one lookup by both its bytes; a
// three-byte one is "10" and a suit. The tests check that both agree.
constexpr uint8_t kNoCard = 0xff;
struct CardTables {
  static constexpr int Pair(char a, char b) { return uint8_t(a) | uint8_t(b) << 8; }
  constexpr CardTables() {
    for (uint8_t& c : two) c = kNoCard;
    for (uint8_t& c : ten) c = kNoCard;
    const char ranks[] = "23456789TJQKA";
    const char suits[] = "SHDC";
    for (int s = 0; s < kNumSuits; ++s) {
      for (int r = 0; r < kNumNaturalRanks; ++r) {
        two[Pair(ranks[r], suits[s])] = uint8_t(Card(Rank(2 + r), Suit(s)).index());
      }
      ten[uint8_t(suits[s])] = uint8_t(Card(Rank::kTen, Suit(s)).index());
    }
    two[Pair('J', 'K')] = uint8_t(Card::Joker().index());
  }
  std::array<uint8_t, 65536> two{};  // card index by first | second << 8
  std::array<uint8_t, 256> ten{};    // "10" and this suit
};
constexpr CardTables kCardTables;

// The card's index (Card::index()), or kNoCard: a byte, not an optional, so
// that the builder's hot path keeps it in a register.
[[gnu::always_inline]] inline uint8_t CardIndexOf(const char* text, size_t n) {
  const auto* s = reinterpret_cast<const uint8_t*>(text);
  if (n == 2) return kCardTables.two[s[0] | s[1] << 8];
  if (n == 3 && s[0] == '1' && s[1] == '0') return kCardTables.ten[s[2]];
  return kNoCard;
}

inline std::optional<Card> CardOf(const char* text, size_t n) {
  const uint8_t index = CardIndexOf(text, n);
  if (index == kNoCard) return std::nullopt;
  return Card::FromIndex(index);
}

// The documented range of an integer field (docs/log-format.md, "Limits"):
// wide enough for any real game, narrow enough that no sum of them overflows.
struct IntRange {
  int lo;
  int hi;
  bool Holds(int64_t v) const { return v >= lo && v <= hi; }
};

[[gnu::always_inline]] inline IntRange RangeOf(Field f) {
  switch (f) {
    case kHand:
      return {0, kMaxHand};
    case kCount:
      return {0, kMaxCount};
    case kScores:
    case kTotals:
    case kBreakdown:
      return {-kMaxScore, kMaxScore};
    default:  // player, dealer, winner
      return {0, kMaxSeat};
  }
}

// Where an integer field of the root goes, and its range, by Field: one
// lookup for the "player" of nearly every line.
struct IntField {
  std::optional<int> Event::*field = &Event::winner;
  IntRange range = {0, kMaxSeat};
};
struct IntFields {
  constexpr IntFields() {
    slots[kPlayer].field = &Event::player;
    slots[kHand] = {&Event::hand, {0, kMaxHand}};
    slots[kDealer].field = &Event::dealer;
    slots[kCount] = {&Event::count, {0, kMaxCount}};
  }
  constexpr const IntField& operator[](Field f) const { return slots[f]; }
  IntField slots[kNumFields + 1] = {};
};
constexpr IntFields kIntFields;

std::optional<Card> CardOf(const JsonValue& v) {
  if (!v.IsString()) return std::nullopt;
  return CardOf(v.GetString(), v.GetStringLength());
}

// `text` as a JSON string literal for a message: escaped, cut short (at a
// character boundary) when long, and valid UTF-8 whatever `text` holds.
std::string Quote(std::string_view text) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  std::string out = "\"";
  char buf[16];
  size_t i = 0;
  while (i < n && i < kMaxQuoted) {
    uint8_t c = s[i];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
      ++i;
    } else if (c < 0x20) {
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
      ++i;
    } else if (c < 0x80) {
      out += char(c);
      ++i;
    } else if (size_t length = Utf8SequenceLength(text, i)) {
      out.append(text.data() + i, length);
      i += length;
    } else if (c == 0xED && i + 2 < n && s[i + 1] >= 0xA0 && s[i + 1] <= 0xBF && s[i + 2] >= 0x80 &&
               s[i + 2] <= 0xBF) {
      // A surrogate, as the log escaped it.
      unsigned code = ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu);
      std::snprintf(buf, sizeof(buf), "\\u%04x", code);
      out += buf;
      i += 3;
    } else {
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
      ++i;
    }
  }
  out += i < n ? "...\"" : "\"";
  return out;
}

// A value as a user would recognise it in their file.
std::string Describe(const JsonValue& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
      return "false";
    case rapidjson::kTrueType:
      return "true";
    case rapidjson::kStringType:
      return Quote(View(v));
    case rapidjson::kArrayType:
      return "an array";
    case rapidjson::kObjectType:
      return "an object";
    case rapidjson::kNumberType:
      break;
  }
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v.GetDouble());
  return buf;
}

// Where a value sits in the event, for messages: "hands"[2], "melds"[0]."cards".
struct Path {
  Path(std::string_view f, int i = -1, std::string_view s = {}) : field(f), index(i), sub(s) {}
  std::string_view field;
  int index;
  std::string_view sub;
};

std::string Render(const Path& p) {
  std::string out = "\"";
  out += p.field;
  out += '"';
  if (p.index >= 0) out += "[" + std::to_string(p.index) + "]";
  if (!p.sub.empty()) {
    out += ".\"";
    out += p.sub;
    out += '"';
  }
  return out;
}

std::string Indexed(const Path& p, size_t i) { return Render(p) + "[" + std::to_string(i) + "]"; }

// Leaves storage in place (no heap churn per event) unless it grew huge.
// Inline: in the usual case it is one store.
template <typename T>
[[gnu::always_inline]] inline void ClearKeepSmall(T* container) {
  if (container->capacity() > kKeepBuffer) {
    T().swap(*container);
  } else {
    container->clear();
  }
}

// Meld specs of earlier events, emptied, kept per thread with their card
// vectors' capacity. Most meld events have one meld: the whole list is then
// swapped out at the reset and back in by the SAX builder, so that a spec is
// neither made nor destroyed per event.
thread_local std::vector<MeldSpec> spare_melds;
constexpr size_t kMaxSpareMelds = 64;

// Empties *melds into the spare list; inline: every meld event's reset.
[[gnu::always_inline]] inline void RecycleMelds(std::vector<MeldSpec>* melds) {
  if (melds->empty()) return;
  if (melds->size() > kMaxSpareMelds) melds->erase(melds->begin() + kMaxSpareMelds, melds->end());
  for (MeldSpec& m : *melds) {
    m.to.reset();
    m.id.reset();
    m.as.reset();
    ClearKeepSmall(&m.cards);
  }
  if (spare_melds.empty()) {
    melds->swap(spare_melds);  // *melds takes the spare list's empty storage
    return;
  }
  for (MeldSpec& m : *melds) {
    if (spare_melds.size() >= kMaxSpareMelds) break;
    spare_melds.push_back(std::move(m));
  }
  melds->clear();
}

// A new, empty meld spec at the end of *melds, a spare one if there is one.
MeldSpec* NewMeldSpec(std::vector<MeldSpec>* melds) {
  if (spare_melds.empty()) return &melds->emplace_back();
  melds->push_back(std::move(spare_melds.back()));
  spare_melds.pop_back();
  return &melds->back();
}

// The builder's start of a list of melds (empty, after the reset): the spare
// specs, to be used in place; TrimMelds() gives back those left unused.
void TakeSpareMelds(std::vector<MeldSpec>* melds) {
  if (melds->empty()) melds->swap(spare_melds);
}

void TrimMelds(std::vector<MeldSpec>* melds, size_t used) {
  while (melds->size() > used) {
    if (spare_melds.size() < kMaxSpareMelds) spare_melds.push_back(std::move(melds->back()));
    melds->pop_back();
  }
}

// Card vectors of earlier deals, kept per thread like the meld specs.
thread_local std::vector<std::vector<Card>> spare_card_lists;

std::vector<Card>* NewCardList(std::vector<std::vector<Card>>* lists) {
  if (spare_card_lists.empty()) return &lists->emplace_back();
  lists->push_back(std::move(spare_card_lists.back()));
  spare_card_lists.pop_back();
  return &lists->back();
}

void RecycleCardLists(std::vector<std::vector<Card>>* lists) {
  for (std::vector<Card>& cards : *lists) {
    if (cards.capacity() > kKeepBuffer || spare_card_lists.size() >= 16) continue;
    cards.clear();
    spare_card_lists.push_back(std::move(cards));
  }
  lists->clear();
}

// A deal's stock as an empty vector with the capacity of an earlier one.
std::vector<Card>* NewStock(Event* e) {
  if (spare_card_lists.empty()) return &e->stock.emplace();
  std::vector<Card>* stock = &e->stock.emplace(std::move(spare_card_lists.back()));
  spare_card_lists.pop_back();
  return stock;
}

// Clears the fields that an event of e->type can have filled (both
// conversions fill only the fields of the event's type): an event is reset
// in a few steps, and vectors keep their storage.
void ResetFields(Event* e) {
  switch (e->type) {
    case EventType::kGame:
      e->format.clear();
      e->ruleset.clear();
      e->players.clear();
      break;
    case EventType::kDeal:
      e->hand.reset();
      e->dealer.reset();
      RecycleCardLists(&e->hands);
      ClearKeepSmall(&e->upcard);
      if (e->stock) {
        std::vector<Card> stock = std::move(*e->stock);
        e->stock.reset();
        if (stock.capacity() <= kKeepBuffer && spare_card_lists.size() < 16) {
          stock.clear();
          spare_card_lists.push_back(std::move(stock));
        }
      }
      if (e->feet) {
        RecycleCardLists(&*e->feet);
        e->feet.reset();
      }
      break;
    case EventType::kThree:
      e->player.reset();
      e->card.reset();
      e->replacement.reset();
      break;
    case EventType::kDraw:
      e->player.reset();
      ClearKeepSmall(&e->cards);
      e->bonus = false;
      break;
    case EventType::kTakePile:
      e->player.reset();
      e->top.reset();
      ClearKeepSmall(&e->with);
      e->to.reset();
      e->count.reset();
      e->to_hand = false;
      RecycleMelds(&e->before);
      break;
    case EventType::kMeld:
      e->player.reset();
      RecycleMelds(&e->melds);
      break;
    case EventType::kDiscard:
      e->player.reset();
      e->card.reset();
      e->face_down = false;
      break;
    case EventType::kAskOut:
    case EventType::kFoot:
      e->player.reset();
      break;
    case EventType::kAnswer:
      e->player.reset();
      e->yes.reset();
      break;
    case EventType::kSpecialHand:
    case EventType::kRetract:
      e->player.reset();
      ClearKeepSmall(&e->cards);
      break;
    case EventType::kNote:
      e->player.reset();
      ClearKeepSmall(&e->text);
      break;
    case EventType::kEndHand:
      e->hand.reset();
      e->dealer.reset();
      e->scores.reset();
      e->totals.reset();
      e->breakdown.reset();
      break;
    case EventType::kEndGame:
      e->totals.reset();
      e->winner.reset();
      break;
  }
}

// ResetFields() and the new type; the most common events after which a line
// is read (discards, draws) are reset here without a call.
[[gnu::always_inline]] inline void ResetEvent(Event* e, EventType type, int line) {
  if (e->type == EventType::kDiscard) {
    e->player.reset();
    e->card.reset();
    e->face_down = false;
  } else if (e->type == EventType::kDraw && e->cards.capacity() <= kKeepBuffer) {
    e->player.reset();
    e->cards.clear();
    e->bonus = false;
  } else {
    ResetFields(e);
  }
  e->type = type;
  e->line = line;
  e->ok = true;
}

// Whether events of type `t` read field `f` (defined with UseOf below).
bool FieldUsedBy(EventType t, Field f);

// The fields of a meld object, by index (0 "cards", 1 "to", 2 "id", 3 "as"),
// or -1 for a name the reader does not know.
[[gnu::always_inline]] inline int MeldKeyIndex(std::string_view name) {
  const char* s = name.data();
  if (name.size() == 5) return Is(s, "cards") ? 0 : -1;
  if (name.size() != 2) return -1;
  return Is(s, "to") ? 1 : Is(s, "id") ? 2 : Is(s, "as") ? 3 : -1;
}

// Turns one parsed object into an Event, reporting every problem it meets.
class Converter {
 public:
  Converter(int line, std::vector<InputProblem>* problems) : line_(line), problems_(problems) {}

  // Returns false when the line yields no event.
  bool Convert(const JsonValue& root, Event* e) {
    if (!root.IsObject()) {
      Report(CheckId::kLogBadEvent,
             "not an event: the line holds " + Describe(root) + ", not a JSON object");
      return false;
    }
    uint32_t twice = 0;  // fields given more than once, by bit
    for (auto m = root.MemberBegin(); m != root.MemberEnd(); ++m) {
      Field f = FieldOf(m->name.GetString(), m->name.GetStringLength());
      if (f == kNumFields) continue;
      if (fields_[f] == nullptr)
        fields_[f] = &m->value;
      else
        twice |= 1u << f;
    }
    const JsonValue* type = fields_[kType];
    if (type == nullptr) {
      Report(CheckId::kLogBadEvent, "not an event: the object has no \"type\" field");
      return false;
    }
    if (!type->IsString()) {
      Report(CheckId::kLogBadEvent,
             "not an event: \"type\" is " + Describe(*type) + ", not a string");
      return false;
    }
    std::optional<EventType> t = EventTypeOf(View(*type));
    if (!t) {
      Report(CheckId::kLogUnknownEvent, "unknown event type " + Quote(View(*type)));
      return false;
    }
    ResetEvent(e, *t, line_);
    type_ = *t;
    // A field given twice means one thing to one reader and another to the
    // next (most JSON readers keep the last, RapidJSON's lookup the first):
    // the event is not replayed.
    for (int f = 0; f < kNumFields; ++f) {
      if ((twice >> f & 1u) && (f == kType || FieldUsedBy(type_, Field(f))))
        Report(CheckId::kLogBadEvent, Prefix() + "\"" + kFieldNames[f] +
                                          "\" is given twice; JSON readers differ on which "
                                          "value counts");
    }
    ConvertFields(e);
    FlushSuppressed();
    e->ok = ok_;
    return true;
  }

 private:
  void ConvertFields(Event* e) {
    switch (e->type) {
      case EventType::kGame:
        String(kFormat, true, &e->format);
        String(kRuleset, false, &e->ruleset);
        Strings(kPlayers, &e->players);
        break;
      case EventType::kDeal:
        Int(kHand, true, &e->hand);
        Int(kDealer, true, &e->dealer);
        CardLists(kHands, true, &e->hands);
        Cards(kUpcard, true, &e->upcard);
        if (Present(kStock)) Cards(kStock, false, &e->stock.emplace());
        if (Present(kFeet)) CardLists(kFeet, false, &e->feet.emplace());
        break;
      case EventType::kThree:
        Int(kPlayer, true, &e->player);
        OneCard(kCard, true, &e->card);
        OneCard(kReplacement, false, &e->replacement);
        break;
      case EventType::kDraw: {
        Int(kPlayer, true, &e->player);
        Cards(kCards, true, &e->cards);
        std::optional<bool> bonus;
        Bool(kBonus, false, &bonus);
        e->bonus = bonus.value_or(false);
        break;
      }
      case EventType::kTakePile: {
        Int(kPlayer, true, &e->player);
        OneCard(kTop, true, &e->top);
        bool with = Present(kWith);
        bool to = Present(kTo);
        if (with) Cards(kWith, false, &e->with);
        if (to) OptString(kTo, &e->to);
        std::optional<bool> to_hand;
        Bool(kToHand, false, &to_hand);
        e->to_hand = to_hand.value_or(false);
        if (!with && !to && !e->to_hand) {
          Report(CheckId::kLogBadEvent,
                 Prefix() +
                     "needs \"with\" (cards from the hand for a new meld) or \"to\" "
                     "(the meld the top card goes onto)");
        }
        if (with && to) {
          Report(CheckId::kLogBadEvent,
                 Prefix() +
                     "has both \"with\" (cards from the hand for a new meld) and \"to\" "
                     "(a meld the side has): the top card goes to one of them");
        }
        Int(kCount, false, &e->count);
        if (Present(kBefore)) Melds(kBefore, &e->before);
        break;
      }
      case EventType::kMeld:
        Int(kPlayer, true, &e->player);
        Melds(kMelds, &e->melds);
        break;
      case EventType::kDiscard: {
        Int(kPlayer, true, &e->player);
        OneCard(kCard, true, &e->card);
        std::optional<bool> face_down;
        Bool(kFaceDown, false, &face_down);
        e->face_down = face_down.value_or(false);
        break;
      }
      case EventType::kAskOut:
      case EventType::kFoot:
        Int(kPlayer, true, &e->player);
        break;
      case EventType::kAnswer:
        Int(kPlayer, true, &e->player);
        Bool(kYes, true, &e->yes);
        break;
      case EventType::kSpecialHand:
      case EventType::kRetract:
        Int(kPlayer, true, &e->player);
        Cards(kCards, true, &e->cards);
        break;
      case EventType::kNote:
        Int(kPlayer, false, &e->player);
        String(kText, false, &e->text);
        break;
      case EventType::kEndHand:
        Int(kHand, true, &e->hand);
        Int(kDealer, false, &e->dealer);  // a sheet entry's dealer (docs/sheets.md)
        if (Present(kScores)) Ints(kScores, &e->scores.emplace());
        if (Present(kTotals)) Ints(kTotals, &e->totals.emplace());
        if (Present(kBreakdown)) Breakdown(&e->breakdown.emplace());
        break;
      case EventType::kEndGame:
        if (Present(kTotals)) Ints(kTotals, &e->totals.emplace());
        Int(kWinner, false, &e->winner);
        break;
    }
  }

  // --- Reporting ---

  // Built only for a message: most events have none.
  std::string Prefix() const { return std::string("\"") + EventTypeName(type_) + "\" event: "; }

  void Report(CheckId id, std::string message) {
    ok_ = false;
    if (problems_ == nullptr) return;
    if (reported_ >= kMaxProblemsPerLine) {
      ++suppressed_;
      return;
    }
    ++reported_;
    problems_->push_back(InputProblem{line_, id, std::move(message)});
  }

  void FlushSuppressed() {
    if (suppressed_ == 0 || problems_ == nullptr) return;
    CheckId id = problems_->back().id;
    problems_->push_back(InputProblem{
        line_, id, Prefix() + std::to_string(suppressed_) + " more problems like these not shown"});
  }

  void Missing(Field f) {
    Report(CheckId::kLogBadEvent, Prefix() + "missing field \"" + kFieldNames[f] + "\"");
  }

  void WrongType(const std::string& where, const JsonValue& v, const char* expected,
                 CheckId id = CheckId::kLogBadEvent) {
    Report(id, Prefix() + where + " is " + Describe(v) + ", not " + expected);
  }

  // Present and not null: null counts as absent for an optional field.
  bool Present(Field f) const { return fields_[f] != nullptr && !fields_[f]->IsNull(); }

  // The field's value to convert, or null when it is absent (reported if it
  // is required). A required field that is null is converted (and rejected).
  const JsonValue* Get(Field f, bool required) {
    const JsonValue* v = fields_[f];
    if (v == nullptr) {
      if (required) Missing(f);
      return nullptr;
    }
    if (!required && v->IsNull()) return nullptr;
    return v;
  }

  // False (reported) when the string at `where` is not valid Unicode.
  // `where` is worded only when the text is bad: this runs for every string.
  template <class Where>
  bool ValidText(const JsonValue& v, const Where& where) {
    if (IsValidUtf8(View(v))) return true;
    Report(CheckId::kLogBadEvent,
           Prefix() + where() + " is " + Quote(View(v)) + ", which is not valid Unicode");
    return false;
  }

  // False (reported) when the integer v is outside `range`.
  template <class Where>
  bool InRange(const JsonValue& v, IntRange range, const Where& where) {
    if (range.Holds(v.GetInt())) return true;
    Report(CheckId::kLogBadEvent, Prefix() + where() + " is " + Describe(v) + ", out of range (" +
                                      std::to_string(range.lo) + " to " +
                                      std::to_string(range.hi) + ")");
    return false;
  }

  // --- Scalars ---

  void Int(Field f, bool required, std::optional<int>* out) {
    const JsonValue* v = Get(f, required);
    if (v == nullptr) return;
    if (!v->IsInt()) {
      WrongType(Render({kFieldNames[f]}), *v, "an integer");
    } else if (InRange(*v, RangeOf(f), [&] { return Render({kFieldNames[f]}); })) {
      *out = v->GetInt();
    }
  }

  void Bool(Field f, bool required, std::optional<bool>* out) {
    const JsonValue* v = Get(f, required);
    if (v == nullptr) return;
    if (v->IsBool()) {
      *out = v->GetBool();
    } else {
      WrongType(Render({kFieldNames[f]}), *v, "true or false");
    }
  }

  void String(Field f, bool required, std::string* out) {
    const JsonValue* v = Get(f, required);
    if (v == nullptr) return;
    if (v->IsString()) {
      if (ValidText(*v, [&] { return Render({kFieldNames[f]}); }))
        out->assign(v->GetString(), v->GetStringLength());
    } else {
      WrongType(Render({kFieldNames[f]}), *v, "a string");
    }
  }

  void OptString(Field f, std::optional<std::string>* out) {
    const JsonValue* v = Get(f, false);
    if (v == nullptr) return;
    if (v->IsString()) {
      if (ValidText(*v, [&] { return Render({kFieldNames[f]}); }))
        out->emplace(v->GetString(), v->GetStringLength());
    } else {
      WrongType(Render({kFieldNames[f]}), *v, "a string");
    }
  }

  // --- Cards ---

  // A card that is not a card string is kLogBadCard whatever its JSON type:
  // the spec lists 7 among the invalid cards.
  void BadCard(const JsonValue& v, const std::string& where) {
    WrongType(where, v, "a card", CheckId::kLogBadCard);
  }

  void OneCard(Field f, bool required, std::optional<Card>* out) {
    const JsonValue* v = Get(f, required);
    if (v == nullptr) return;
    *out = CardOf(*v);
    if (!out->has_value()) BadCard(*v, Render({kFieldNames[f]}));
  }

  // An array of cards at `path`; every bad card is reported, the good ones kept.
  void CardArray(const JsonValue& v, const Path& path, std::vector<Card>* out) {
    if (!v.IsArray()) {
      WrongType(Render(path), v, "an array of cards");
      return;
    }
    out->reserve(v.Size());
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      if (std::optional<Card> c = CardOf(v[i])) {
        out->push_back(*c);
      } else {
        BadCard(v[i], Indexed(path, i));  // the message is built only here
      }
    }
  }

  void Cards(Field f, bool required, std::vector<Card>* out) {
    const JsonValue* v = Get(f, required);
    if (v != nullptr) CardArray(*v, {kFieldNames[f]}, out);
  }

  void CardLists(Field f, bool required, std::vector<std::vector<Card>>* out) {
    const JsonValue* v = Get(f, required);
    if (v == nullptr) return;
    if (!v->IsArray()) {
      WrongType(Render({kFieldNames[f]}), *v, "an array of card arrays");
      return;
    }
    out->resize(v->Size());
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
      CardArray((*v)[i], {kFieldNames[f], int(i)}, &(*out)[i]);
    }
  }

  // --- Other arrays and objects ---

  void Strings(Field f, std::vector<std::string>* out) {
    const JsonValue* v = Get(f, true);
    if (v == nullptr) return;
    if (!v->IsArray()) {
      WrongType(Render({kFieldNames[f]}), *v, "an array of strings");
      return;
    }
    out->reserve(v->Size());
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
      const JsonValue& item = (*v)[i];
      if (item.IsString()) {
        if (ValidText(item, [&] { return Indexed({kFieldNames[f]}, i); })) {
          out->emplace_back(item.GetString(), item.GetStringLength());
        }
      } else {
        WrongType(Indexed({kFieldNames[f]}, i), item, "a string");
      }
    }
  }

  void Ints(Field f, std::vector<int>* out) {
    const JsonValue* v = Get(f, false);
    if (v == nullptr) return;
    if (!v->IsArray()) {
      WrongType(Render({kFieldNames[f]}), *v, "an array of integers");
      return;
    }
    out->reserve(v->Size());
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
      const JsonValue& item = (*v)[i];
      if (!item.IsInt()) {
        WrongType(Indexed({kFieldNames[f]}, i), item, "an integer");
      } else if (InRange(item, RangeOf(f), [&] { return Indexed({kFieldNames[f]}, i); })) {
        out->push_back(item.GetInt());
      }
    }
  }

  void Breakdown(std::vector<std::vector<std::pair<std::string, int>>>* out) {
    const JsonValue* v = Get(kBreakdown, false);
    if (v == nullptr) return;
    if (!v->IsArray()) {
      WrongType(Render({"breakdown"}), *v, "an array of objects (one per side)");
      return;
    }
    out->resize(v->Size());
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
      const JsonValue& side = (*v)[i];
      if (!side.IsObject()) {
        WrongType(Indexed({"breakdown"}, i), side, "an object of score parts");
        continue;
      }
      std::set<std::string_view> names;
      for (auto m = side.MemberBegin(); m != side.MemberEnd(); ++m) {
        std::string_view name = View(m->name);
        if (!names.insert(name).second) {
          Report(CheckId::kLogBadEvent, Prefix() + Indexed({"breakdown"}, i) + ": part " +
                                            Quote(name) +
                                            " is given twice; JSON readers differ on which "
                                            "value counts");
          continue;
        }
        if (!IsValidUtf8(name)) {
          Report(CheckId::kLogBadEvent, Prefix() + Indexed({"breakdown"}, i) + " has a part " +
                                            Quote(name) + ", which is not valid Unicode");
          continue;
        }
        if (!m->value.IsInt()) {
          WrongType(Render({"breakdown", int(i), name}), m->value, "an integer");
        } else if (InRange(m->value, RangeOf(kBreakdown),
                           [&] { return Render({"breakdown", int(i), name}); })) {
          (*out)[i].emplace_back(std::string(name), m->value.GetInt());
        }
      }
    }
  }

  void Melds(Field field, std::vector<MeldSpec>* out) {
    const char* key = kFieldNames[field];
    const JsonValue* v = Get(field, field == kMelds);
    if (v == nullptr) return;
    if (!v->IsArray()) {
      WrongType(Render({key}), *v, "an array of melds");
      return;
    }
    while (out->size() < v->Size()) NewMeldSpec(out);
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
      const JsonValue& meld = (*v)[i];
      if (!meld.IsObject()) {
        WrongType(Indexed({key}, i), meld, "a meld object");
        continue;
      }
      MeldSpec& spec = (*out)[i];
      bool has_cards = false;
      uint32_t seen = 0;
      for (auto m = meld.MemberBegin(); m != meld.MemberEnd(); ++m) {
        std::string_view name = View(m->name);
        const int index = MeldKeyIndex(name);
        if (index >= 0 && (seen >> index & 1u)) {
          Report(CheckId::kLogBadEvent, Prefix() + Indexed({key}, i) + ": " + Quote(name) +
                                            " is given twice; JSON readers differ on which "
                                            "value counts");
          continue;
        }
        if (index >= 0) seen |= 1u << index;
        std::optional<std::string>* text = nullptr;
        if (name == "cards") {
          if (has_cards || m->value.IsNull()) continue;
          has_cards = true;
          CardArray(m->value, {key, int(i), "cards"}, &spec.cards);
          continue;
        }
        if (name == "to") {
          text = &spec.to;
        } else if (name == "id") {
          text = &spec.id;
        } else if (name == "as") {
          text = &spec.as;
        } else {
          continue;  // unknown fields are ignored
        }
        if (text->has_value() || m->value.IsNull()) continue;
        if (m->value.IsString()) {
          if (ValidText(m->value, [&] { return Render({key, int(i), name}); })) {
            text->emplace(m->value.GetString(), m->value.GetStringLength());
          }
        } else {
          WrongType(Render({key, int(i), name}), m->value, "a string");
        }
      }
      if (!has_cards) {
        Report(CheckId::kLogBadEvent,
               Prefix() + Indexed({key}, i) + ": missing field \"cards\"");
      }
    }
  }

  int line_;
  std::vector<InputProblem>* problems_;
  EventType type_ = EventType::kNote;
  std::array<const JsonValue*, kNumFields> fields_{};
  bool ok_ = true;
  int reported_ = 0;
  int suppressed_ = 0;
};

// How an event type uses a field (ConvertFields above, restated for the SAX
// builder: the two must agree; the tests compare them on every kind of value).
enum class Role : uint8_t {
  kNone,  // not used by this type: ignored
  kInt,
  kBool,
  kString,     // std::string
  kOptString,  // std::optional<std::string>
  kCard,
  kCards,
  kCardLists,
  kStrings,
  kInts,
  kBreakdown,
  kMelds
};

struct Use {
  Role role = Role::kNone;
  bool required = false;
};

Use UseOf(EventType t, Field f) {
  auto req = [](Role r) { return Use{r, true}; };
  auto opt = [](Role r) { return Use{r, false}; };
  if (f == kPlayer) {
    switch (t) {
      case EventType::kGame:
      case EventType::kDeal:
      case EventType::kEndHand:
      case EventType::kEndGame:
        return {};
      case EventType::kNote:
        return opt(Role::kInt);
      default:
        return req(Role::kInt);
    }
  }
  switch (t) {
    case EventType::kGame:
      if (f == kFormat) return req(Role::kString);
      if (f == kRuleset) return opt(Role::kString);
      if (f == kPlayers) return req(Role::kStrings);
      return {};
    case EventType::kDeal:
      if (f == kHand || f == kDealer) return req(Role::kInt);
      if (f == kHands) return req(Role::kCardLists);
      if (f == kUpcard) return req(Role::kCards);
      if (f == kStock) return opt(Role::kCards);
      if (f == kFeet) return opt(Role::kCardLists);
      return {};
    case EventType::kThree:
      if (f == kCard) return req(Role::kCard);
      if (f == kReplacement) return opt(Role::kCard);
      return {};
    case EventType::kDraw:
      if (f == kCards) return req(Role::kCards);
      if (f == kBonus) return opt(Role::kBool);
      return {};
    case EventType::kTakePile:
      if (f == kTop) return req(Role::kCard);
      if (f == kWith) return opt(Role::kCards);
      if (f == kTo) return opt(Role::kOptString);
      if (f == kCount) return opt(Role::kInt);
      if (f == kToHand) return opt(Role::kBool);
      if (f == kBefore) return opt(Role::kMelds);
      return {};
    case EventType::kMeld:
      if (f == kMelds) return req(Role::kMelds);
      return {};
    case EventType::kDiscard:
      if (f == kCard) return req(Role::kCard);
      if (f == kFaceDown) return opt(Role::kBool);
      return {};
    case EventType::kAskOut:
    case EventType::kFoot:
      return {};
    case EventType::kAnswer:
      if (f == kYes) return req(Role::kBool);
      return {};
    case EventType::kSpecialHand:
    case EventType::kRetract:
      if (f == kCards) return req(Role::kCards);
      return {};
    case EventType::kNote:
      if (f == kText) return opt(Role::kString);
      return {};
    case EventType::kEndHand:
      if (f == kHand) return req(Role::kInt);
      if (f == kDealer) return opt(Role::kInt);
      if (f == kScores || f == kTotals) return opt(Role::kInts);
      if (f == kBreakdown) return opt(Role::kBreakdown);
      return {};
    case EventType::kEndGame:
      if (f == kTotals) return opt(Role::kInts);
      if (f == kWinner) return opt(Role::kInt);
      return {};
  }
  return {};
}

bool FieldUsedBy(EventType t, Field f) { return UseOf(t, f).role != Role::kNone; }

// What a value is for, by where it is. A field of the root is resolved once,
// at its key, to one of the field kinds below with where its value goes
// (EventBuilder::target_), so that a value's callback is one switch.
enum class Want : uint8_t {
  kNothing,  // ignored: an unknown field, an ignored container, or given up
  kType,     // the value of "type"
  kRoot,     // the line's value
  // A field of the root, and the type of its member of Event at target_.
  kInt,        // std::optional<int>, in the action's range
  kBool,       // bool
  kOptBool,    // std::optional<bool>
  kString,     // std::string (valid UTF-8)
  kOptString,  // std::optional<std::string> (valid UTF-8)
  kCard,       // std::optional<Card>
  kCards,      // std::vector<Card>
  kWith,       // take_pile's "with": its cards, and that it was there
  kStock,      // deal's "stock": std::optional, with a spare vector
  kCardLists,  // std::vector<std::vector<Card>>
  kFeet,       // deal's "feet": std::optional, with spare vectors
  kStrings,    // std::vector<std::string>
  kInts,       // std::optional<std::vector<int>>
  kBreakdown,  // end_hand's "breakdown"
  kMelds,      // std::vector<MeldSpec>
  // Items of arrays, and values of the inner objects.
  kCardItem,
  kListItem,
  kStringItem,
  kIntItem,
  kSideItem,
  kPart,
  kMeldItem,
  kMeldCards,
  kMeldText
};

constexpr bool IsField(Want w) { return w >= Want::kInt && w <= Want::kMelds; }

// What a key of the root does for one event type: UseOf() turned into the
// field's kind, its member of Event (as an offset) and the range of an int.
struct Action {
  Want want = Want::kNothing;
  bool required = false;
  uint16_t offset = 0;
  int32_t lo = 0;
  uint32_t span = 0;  // hi - lo
  // In unsigned arithmetic: wraps for any v instead of overflowing.
  bool Holds(int64_t v) const { return uint64_t(v) - uint64_t(int64_t(lo)) <= span; }
};
static_assert(sizeof(Event) <= UINT16_MAX, "an Action's offset reaches every member");

// A row of actions per event type, by Field (kNumFields: an unknown name),
// and one more that ignores every key (once the builder has given up); each
// type's required fields as bits by Field. Looked up for every key.
struct FieldUses {
  static constexpr int kIgnoreAll = kNumEventTypes;
  // Required before the type is known: a bit no field sets, so that an
  // object without "type" always lacks something.
  static constexpr uint32_t kNoType = 1u << 31;

  FieldUses() {
    const Event probe;
    for (int t = 0; t < kNumEventTypes; ++t) {
      for (int f = 0; f < kNumFields; ++f) {
        rows[t][f] = ActionOf(EventType(t), Field(f), probe);
        if (rows[t][f].required) required[t] |= 1u << f;
      }
    }
  }

  static Action ActionOf(EventType t, Field f, const Event& probe) {
    const Use use = UseOf(t, f);
    Action a;
    a.required = use.required;
    auto at = [&probe](const auto& member) {
      return uint16_t(reinterpret_cast<const char*>(&member) -
                      reinterpret_cast<const char*>(&probe));
    };
    switch (use.role) {
      case Role::kNone:
        return {};  // "type" too: a second one is ignored
      case Role::kInt: {
        const IntRange range = RangeOf(f);
        a.want = Want::kInt;
        a.offset = at(probe.*kIntFields[f].field);
        a.lo = range.lo;
        a.span = uint32_t(int64_t(range.hi) - range.lo);
        break;
      }
      case Role::kBool:
        a.want = f == kYes ? Want::kOptBool : Want::kBool;
        a.offset = f == kYes      ? at(probe.yes)
                   : f == kBonus  ? at(probe.bonus)
                   : f == kToHand ? at(probe.to_hand)
                                  : at(probe.face_down);
        break;
      case Role::kString:
        a.want = Want::kString;
        a.offset = f == kFormat    ? at(probe.format)
                   : f == kRuleset ? at(probe.ruleset)
                                   : at(probe.text);
        break;
      case Role::kOptString:
        a.want = Want::kOptString;
        a.offset = at(probe.to);
        break;
      case Role::kCard:
        a.want = Want::kCard;
        a.offset = f == kCard ? at(probe.card) : f == kTop ? at(probe.top) : at(probe.replacement);
        break;
      case Role::kCards:
        a.want = f == kWith ? Want::kWith : f == kStock ? Want::kStock : Want::kCards;
        a.offset = f == kUpcard ? at(probe.upcard) : at(probe.cards);
        break;
      case Role::kCardLists:
        a.want = f == kFeet ? Want::kFeet : Want::kCardLists;
        a.offset = at(probe.hands);
        break;
      case Role::kStrings:
        a.want = Want::kStrings;
        break;
      case Role::kInts:
        a.want = Want::kInts;
        a.offset = f == kScores ? at(probe.scores) : at(probe.totals);
        break;
      case Role::kBreakdown:
        a.want = Want::kBreakdown;
        break;
      case Role::kMelds:
        a.want = Want::kMelds;
        a.offset = f == kBefore ? at(probe.before) : at(probe.melds);
        break;
    }
    return a;
  }

  std::array<std::array<Action, kNumFields + 1>, kNumEventTypes + 1> rows{};
  std::array<uint32_t, kNumEventTypes + 1> required{};
};
static_assert(kNumFields < 31, "fields fit the bit sets, below kNoType");

// Builds an Event straight from the SAX parser's callbacks, for the lines of
// a good log. At the first thing that would need a finding (a bad value, a
// missing field, "type" not the first key) it gives up (slow()) and only
// keeps counting depth: the caller then converts the line through the DOM,
// which words every finding. Every callback returns false only past kMaxDepth.
// One per reader, set up again for each line by Begin().
class EventBuilder {
 public:
  EventBuilder() {
    frames_[0] = Frame::kNone;
    item_want_[0] = Want::kRoot;
  }

  void Begin(Event* e, int line) {
    e_ = e;
    line_ = line;
    depth_ = 0;
    slow_ = false;
    too_deep_ = false;
    has_with_ = false;
    want_ = Want::kRoot;
    required_ = FieldUses::kNoType;
    seen_ = 0;
    row_ = nullptr;
    melds_ = nullptr;
  }

  bool slow() const { return slow_; }
  bool too_deep() const { return too_deep_; }

  bool Null() {
    const Want w = want_;
    if (w == Want::kNothing) return true;
    if (IsField(w)) return action_->required ? GiveUp() : true;  // null: an absent optional field
    if (w == Want::kMeldCards || w == Want::kMeldText) return true;  // skipped, as the DOM does
    return GiveUp();
  }

  bool Bool(bool b) {
    switch (want_) {
      case Want::kNothing:
        return true;
      case Want::kBool:
        *static_cast<bool*>(target_) = b;
        return true;
      case Want::kOptBool:
        *static_cast<std::optional<bool>*>(target_) = b;
        return true;
      default:
        return GiveUp();
    }
  }

  bool Int(int i) { return Integer(i); }
  bool Uint(unsigned u) { return Integer(int64_t(u)); }
  bool Int64(int64_t i) { return Integer(i); }
  bool Uint64(uint64_t u) { return u <= uint64_t(INT64_MAX) ? Integer(int64_t(u)) : Other(); }
  bool Double(double) { return Other(); }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return Other(); }

  bool String(const char* s, rapidjson::SizeType n, bool) {
    if (want_ == Want::kCardItem) {  // the usual string: a card of a list
      const uint8_t index = CardIndexOf(s, n);
      if (index == kNoCard) return GiveUp();
      cards_->push_back(Card::FromIndex(index));
      return true;
    }
    switch (want_) {
      case Want::kNothing:
        return true;
      case Want::kType: {
        std::optional<EventType> t = EventTypeOf({s, n});
        if (!t) return GiveUp();
        type_ = *t;
        ResetEvent(e_, type_, line_);
        row_ = fields_.rows[int(type_)].data();
        required_ = fields_.required[int(type_)];
        return true;
      }
      case Want::kCard: {
        const uint8_t index = CardIndexOf(s, n);
        if (index == kNoCard) return GiveUp();
        *static_cast<std::optional<Card>*>(target_) = Card::FromIndex(index);
        return true;
      }
      case Want::kString:
        if (!IsValidUtf8({s, n})) return GiveUp();
        static_cast<std::string*>(target_)->assign(s, n);
        return true;
      case Want::kOptString:
        if (!IsValidUtf8({s, n})) return GiveUp();
        static_cast<std::optional<std::string>*>(target_)->emplace(s, n);
        return true;
      case Want::kStringItem:
        if (!IsValidUtf8({s, n})) return GiveUp();
        e_->players.emplace_back(s, n);
        return true;
      case Want::kMeldText:
        if (!IsValidUtf8({s, n})) return GiveUp();
        meld_text_->emplace(s, n);
        return true;
      default:
        return GiveUp();
    }
  }

  bool Key(const char* s, rapidjson::SizeType n, bool) {
    const Frame top = Top();
    if (top == Frame::kRoot) {
      if (row_ == nullptr) {  // the first key: "type", or the DOM finds it
        if (n != 4 || !Is(s, "type")) return GiveUp();
        want_ = Want::kType;
        return true;
      }
      const Field f = FieldOf(s, n);
      const Action& a = row_[f];  // all kNothing once given up
      if (!IsField(a.want)) {     // unknown, not used by the type, or "type" again
        if (f == kType && !slow_) return GiveUp();  // the DOM reports it
        want_ = Want::kNothing;
        return true;
      }
      const uint32_t bit = 1u << f;
      if (seen_ & bit) return GiveUp();  // given twice: the DOM reports it
      seen_ |= bit;
      want_ = a.want;
      action_ = &a;
      target_ = reinterpret_cast<char*>(e_) + a.offset;
      return true;
    }
    if (slow_) return true;
    if (top == Frame::kMeld) {
      std::string_view name(s, n);
      want_ = Want::kNothing;
      const int index = MeldKeyIndex(name);
      if (index < 0) return true;                          // unknown fields are ignored
      if (meld_keys_seen_ >> index & 1u) return GiveUp();  // given twice: the DOM reports it
      meld_keys_seen_ |= 1u << index;
      if (index == 0) {
        if (!meld_has_cards_) want_ = Want::kMeldCards;
        return true;
      }
      std::optional<std::string>* text = index == 1   ? &meld_->to
                                         : index == 2 ? &meld_->id
                                                      : &meld_->as;
      if (!text->has_value()) {
        meld_text_ = text;
        want_ = Want::kMeldText;
      }
      return true;
    }
    if (top == Frame::kSide) {
      if (!IsValidUtf8({s, n})) return GiveUp();
      // A part given twice: the DOM reports it. Past a usual side's few
      // parts the DOM looks for it, in a set.
      if (side_->size() > 16) return GiveUp();
      for (const auto& part : *side_)
        if (part.first == std::string_view(s, n)) return GiveUp();
      part_.assign(s, n);
      want_ = Want::kPart;
    }
    return true;  // kIgnore
  }

  [[gnu::always_inline]] bool StartObject() {
    const Want w = want_;  // the place of this value, in the parent
    if (!Push()) return false;
    switch (w) {
      case Want::kRoot:
        return Enter(Frame::kRoot);
      case Want::kNothing:
        return Enter(Frame::kIgnore);
      case Want::kSideItem:
        side_ = &breakdown_->emplace_back();
        side_->reserve(8);  // a side's parts: one allocation, not one per doubling
        return Enter(Frame::kSide);
      case Want::kMeldItem:
        meld_ = NextMeld();
        meld_has_cards_ = false;
        meld_keys_seen_ = 0;
        return Enter(Frame::kMeld);
      default:
        GiveUp();
        return Enter(Frame::kIgnore);
    }
  }

  bool EndObject(rapidjson::SizeType) {
    if (!slow_) {
      const Frame top = Top();
      if (top == Frame::kRoot) {
        // A missing field (before the type, "type" itself), or a take_pile
        // without where its top card goes, or with two places for it.
        if ((required_ & ~seen_) != 0 ||
            (type_ == EventType::kTakePile && (e_->to ? has_with_ : !has_with_ && !e_->to_hand))) {
          GiveUp();
        } else if (melds_ != nullptr && melds_->size() != melds_used_) {
          TrimMelds(melds_, melds_used_);  // spare specs left unused
        }
      } else if (top == Frame::kMeld && !meld_has_cards_) {
        GiveUp();
      }
    }
    return Pop();
  }

  [[gnu::always_inline]] bool StartArray() {
    const Want w = want_;  // the place of this value, in the parent
    if (!Push()) return false;
    switch (w) {
      case Want::kNothing:
        return Enter(Frame::kIgnore);
      case Want::kCards:
        cards_ = static_cast<std::vector<Card>*>(target_);
        return Enter(Frame::kCards);
      case Want::kListItem:
        cards_ = NewCardList(lists_);
        return Enter(Frame::kCards);
      case Want::kMeldCards:
        meld_has_cards_ = true;
        cards_ = &meld_->cards;
        return Enter(Frame::kCards);
      case Want::kMelds:
        StartMelds();
        return Enter(Frame::kMelds);
      case Want::kWith:
        has_with_ = true;
        cards_ = &e_->with;
        return Enter(Frame::kCards);
      case Want::kStock:
        cards_ = NewStock(e_);
        return Enter(Frame::kCards);
      case Want::kCardLists:
        lists_ = &e_->hands;
        return Enter(Frame::kCardLists);
      case Want::kFeet:
        lists_ = &e_->feet.emplace();
        return Enter(Frame::kCardLists);
      case Want::kStrings:
        return Enter(Frame::kStrings);
      case Want::kInts:
        ints_ = &static_cast<std::optional<std::vector<int>>*>(target_)->emplace();
        ints_->reserve(4);  // one a side
        return Enter(Frame::kInts);
      case Want::kBreakdown:
        breakdown_ = &e_->breakdown.emplace();
        breakdown_->reserve(4);
        return Enter(Frame::kBreakdown);
      default:
        GiveUp();
        return Enter(Frame::kIgnore);
    }
  }

  bool EndArray(rapidjson::SizeType) { return Pop(); }

 private:
  enum class Frame : uint8_t {
    kNone,  // outside the root value
    kIgnore,
    kRoot,
    kCards,
    kCardLists,
    kStrings,
    kInts,
    kBreakdown,
    kSide,
    kMelds,
    kMeld
  };

  Frame Top() const { return frames_[depth_]; }

  // What each value of a container is for, by its frame: the items of an
  // array; an object's values come after a key, which says.
  static constexpr Want ItemWant(Frame f) {
    switch (f) {
      case Frame::kCards:
        return Want::kCardItem;
      case Frame::kCardLists:
        return Want::kListItem;
      case Frame::kStrings:
        return Want::kStringItem;
      case Frame::kInts:
        return Want::kIntItem;
      case Frame::kBreakdown:
        return Want::kSideItem;
      case Frame::kMelds:
        return Want::kMeldItem;
      default:
        return Want::kNothing;
    }
  }

  bool Push() {
    if (depth_ >= kMaxDepth) {
      too_deep_ = true;
      return false;
    }
    ++depth_;
    return true;
  }
  bool Enter(Frame f) {
    frames_[depth_] = f;
    want_ = item_want_[depth_] = ItemWant(f);
    return true;
  }
  bool Pop() {
    --depth_;
    // Back in an array: its next item; in an object: its next value comes
    // after a key, which sets want_. Once given up, nothing is wanted.
    want_ = item_want_[depth_];
    return true;
  }

  // Nothing is wanted from here on (want_ stays kNothing: containers are
  // entered as kIgnore, and the frames open now want nothing more, so Pop()
  // restores no earlier want). Out of line: the usual line never gets here.
  [[gnu::noinline]] bool GiveUp() {
    slow_ = true;
    want_ = Want::kNothing;
    std::fill_n(item_want_.begin() + 1, depth_, Want::kNothing);
    row_ = fields_.rows[FieldUses::kIgnoreAll].data();
    return true;
  }
  // A number that is not an int, where one matters.
  bool Other() { return want_ == Want::kNothing ? true : GiveUp(); }

  // The usual integer (a field of the root: "player", "hand") inline; the
  // items of arrays and the breakdown's parts, which may grow a vector, not,
  // so that the parser's value function stays small.
  [[gnu::always_inline]] bool Integer(int64_t v) {
    if (want_ == Want::kInt) {
      if (!action_->Holds(v)) return GiveUp();
      *static_cast<std::optional<int>*>(target_) = int(v);
      return true;
    }
    return want_ == Want::kNothing ? true : ItemInteger(v);
  }
  [[gnu::noinline]] bool ItemInteger(int64_t v) {
    switch (want_) {
      case Want::kIntItem:
        if (!RangeOf(kScores).Holds(v)) return GiveUp();
        ints_->push_back(int(v));
        return true;
      case Want::kPart:
        if (!RangeOf(kBreakdown).Holds(v)) return GiveUp();
        side_->emplace_back(part_, int(v));
        return true;
      default:
        return GiveUp();
    }
  }

  // A list of melds starts with the spare specs; each meld takes the next.
  void StartMelds() {
    melds_ = static_cast<std::vector<MeldSpec>*>(target_);
    TakeSpareMelds(melds_);
    melds_used_ = 0;
  }
  MeldSpec* NextMeld() {
    return melds_used_ < melds_->size() ? &(*melds_)[melds_used_++]
                                        : (++melds_used_, NewMeldSpec(melds_));
  }

  static const FieldUses fields_;

  // The state set up per line, side by side so that Begin() is few stores.
  Event* e_ = nullptr;
  int line_ = 0;
  int depth_ = 0;
  bool slow_ = false;
  bool too_deep_ = false;
  bool has_with_ = false;
  // What the next value is for (the next item of an array, or the value
  // after the last key); kNothing once given up or in an ignored container.
  Want want_ = Want::kRoot;
  uint32_t required_ = 0;                   // the fields the root must have, by bit
  uint32_t seen_ = 0;                       // fields met, by bit
  const Action* row_ = nullptr;             // the keys of the root by Field; null before "type"
  std::vector<MeldSpec>* melds_ = nullptr;  // the list the melds go to

  // frames_[0]: outside the root. A deeper frame is set as it is entered
  // (Push, then Enter), so the arrays are not cleared for every line;
  // item_want_ is ItemWant() of each frame (kRoot outside the root).
  std::array<Frame, kMaxDepth + 1> frames_;
  std::array<Want, kMaxDepth + 1> item_want_;

  EventType type_ = EventType::kNote;  // valid once "type" was read
  const Action* action_ = nullptr;     // the last field's (want_ is a field kind)
  void* target_ = nullptr;             // its member of *e_

  std::vector<Card>* cards_ = nullptr;
  std::vector<std::vector<Card>>* lists_ = nullptr;
  std::vector<int>* ints_ = nullptr;
  std::vector<std::vector<std::pair<std::string, int>>>* breakdown_ = nullptr;
  std::vector<std::pair<std::string, int>>* side_ = nullptr;
  std::string part_;
  MeldSpec* meld_ = nullptr;
  size_t melds_used_ = 0;  // of its specs, taken by melds read
  bool meld_has_cards_ = false;
  uint32_t meld_keys_seen_ = 0;  // the meld object's fields met, by MeldKeyIndex
  std::optional<std::string>* meld_text_ = nullptr;
};

const FieldUses EventBuilder::fields_;

bool IsBlank(std::string_view text) {
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') return false;
  }
  return true;
}

// RapidJSON's message without its final period, as a sentence part.
std::string ParseErrorText(rapidjson::ParseErrorCode code) {
  std::string text = rapidjson::GetParseError_En(code);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------
// Parsing

// The floor's handler: builds nothing, and only stops past kMaxDepth.
struct DepthOnly : rapidjson::BaseReaderHandler<> {
  int depth = 0;
  bool StartObject() { return ++depth <= log_limits::kMaxDepth; }
  bool EndObject(rapidjson::SizeType) { --depth; return true; }
  bool StartArray() { return ++depth <= log_limits::kMaxDepth; }
  bool EndArray(rapidjson::SizeType) { --depth; return true; }
};

struct ParseScratch::Impl {
  Impl()
      : values(value_buffer.data(), value_buffer.size()),
        stack(stack_buffer.data(), stack_buffer.size()) {}

  // Parses the NUL-terminated text with the SAX parser and `handler`.
  template <class Handler>
  rapidjson::ParseResult ParseSax(const char* text, Handler& handler) {
    rapidjson::StringStream in(text);
    return sax.Parse<kSaxFlags>(in, handler);
  }

  // Parses the NUL-terminated text in place (strings are decoded into it, not
  // copied). On success doc() holds it until the next parse.
  bool ParseInsitu(char* text) {
    document.reset();  // before Clear(): it points into the pools
    values.Clear();
    document.emplace(&values, kDocumentStackCapacity, &stack);
    document->ParseInsitu<kParseFlags>(text);
    stack.Clear();  // the parse stack is empty now; a huge line's goes back
    return !document->HasParseError();
  }
  const JsonDocument& doc() const { return *document; }

  SaxReader sax;
  alignas(16) std::array<char, kValueBufferSize> value_buffer;
  alignas(16) std::array<char, kStackBufferSize> stack_buffer;
  Pool values;
  Pool stack;
  std::optional<JsonDocument> document;
  std::string copy;      // ParseJsonOnly's NUL-terminated copy of its line
  EventBuilder builder;  // the reader's, kept from line to line
};

ParseScratch::ParseScratch() : impl_(new Impl) {}
ParseScratch::~ParseScratch() = default;

bool ParseJsonOnly(std::string_view line, ParseScratch* scratch) {
  std::unique_ptr<ParseScratch> local;
  if (scratch == nullptr) {
    local = std::make_unique<ParseScratch>();
    scratch = local.get();
  }
  bool nul;
  if (FindBadLineByte(line, &nul) != std::string_view::npos) return false;  // as the reader
  ParseScratch::Impl* parser = scratch->impl();
  parser->copy.assign(line.data(), line.size());
  DepthOnly nothing;
  return !parser->ParseSax(parser->copy.c_str(), nothing).IsError();
}

// ---------------------------------------------------------------------------
// LogReader

LogReader::LogReader(std::istream& in) : in_(in) {}
LogReader::~LogReader() = default;

void LogReader::Reallocate(size_t capacity) {
  std::unique_ptr<char[]> bigger(new char[capacity]);
  if (end_) std::memcpy(bigger.get(), buffer_.get(), end_);
  buffer_ = std::move(bigger);
  capacity_ = capacity;
}

LogReader::LineStatus LogReader::ReadLine(char** line, size_t* size) {
  for (;;) {
    size_t pending = end_ - begin_;
    char* start = buffer_.get() + begin_;
    void* nl = pending > scanned_ ? std::memchr(start + scanned_, '\n', pending - scanned_)
                                  : nullptr;
    if (nl) {
      size_t length = static_cast<char*>(nl) - start;
      ++line_;
      if (length > kMaxLineBytes) return LineStatus::kTooLong;
      start[length] = '\0';  // in-situ parsing needs the terminator
      *line = start;
      *size = length;
      begin_ += length + 1;
      bytes_read_ += length + 1;
      scanned_ = 0;
      return LineStatus::kLine;
    }
    scanned_ = pending;
    if (pending > kMaxLineBytes) {
      ++line_;
      return LineStatus::kTooLong;
    }
    if (eof_) {
      if (pending == 0) return LineStatus::kEnd;
      // A last line without '\n'.
      if (end_ == capacity_) Reallocate(capacity_ + 1);
      buffer_[end_] = '\0';
      *line = buffer_.get() + begin_;
      *size = pending;
      begin_ = end_;
      bytes_read_ += pending;
      scanned_ = 0;
      ++line_;
      return LineStatus::kLine;
    }
    // Keep the partial line at the front, then read after it.
    if (begin_ > 0) {
      std::memmove(buffer_.get(), buffer_.get() + begin_, pending);
      begin_ = 0;
      end_ = pending;
    }
    if (capacity_ > kKeepBuffer && pending < kReadChunk) Reallocate(2 * kReadChunk);
    if (capacity_ - end_ < kReadChunk) Reallocate(std::max(capacity_ * 2, end_ + kReadChunk));
    in_.read(buffer_.get() + end_, static_cast<std::streamsize>(capacity_ - end_));
    std::streamsize got = in_.gcount();
    end_ += static_cast<size_t>(got);
    if (!in_) eof_ = true;  // end of file, or a read error: nothing more comes
  }
}

bool LogReader::SkipLongLine() {
  size_t skipped = 0;
  for (;;) {
    size_t pending = end_ - begin_;
    char* start = buffer_.get() + begin_;
    void* nl = pending > 0 ? std::memchr(start, '\n', pending) : nullptr;
    if (nl) {
      size_t length = static_cast<char*>(nl) - start + 1;
      begin_ += length;
      bytes_read_ += length;
      scanned_ = 0;
      return true;
    }
    bytes_read_ += pending;
    skipped += pending;
    begin_ = end_ = scanned_ = 0;
    if (eof_) return true;
    if (skipped > kMaxSkippedLine) return false;
    if (capacity_ > kKeepBuffer) Reallocate(2 * kReadChunk);
    in_.read(buffer_.get(), static_cast<std::streamsize>(capacity_));
    end_ = static_cast<size_t>(in_.gcount());
    if (!in_) eof_ = true;
  }
}

void LogReader::Report(std::vector<InputProblem>* problems, CheckId id, std::string message) {
  if (problems != nullptr) problems->push_back(InputProblem{line_, id, std::move(message)});
}

void LogReader::Stop(std::vector<InputProblem>* problems, std::string why) {
  stopped_ = true;
  Report(problems, CheckId::kLogNotCanastaLog, "stopped reading the file: " + why);
}

void LogReader::BadLine(std::vector<InputProblem>* problems) {
  if (events_ == 0 && ++bad_lines_ >= kMaxBadLinesBeforeEvent && !stopped_) {
    Stop(problems, "its first " + std::to_string(bad_lines_) +
                       " lines hold no event; it is not a canasta-log/1 log");
  }
}

void LogReader::CountProblems(std::vector<InputProblem>* problems, size_t before) {
  if (problems == nullptr || stopped_) return;
  problems_ += problems->size() - before;
  if (problems_ >= size_t(kMaxProblemsPerFile)) {
    Stop(problems, std::to_string(problems_) + " problems found, the most reported for one file");
  }
}

// Why a line is not parsed, as the message of its finding.
static std::string TooLongMessage() {
  return "line too long: more than " + std::to_string(kMaxLineBytes) +
         " bytes, the limit (docs/log-format.md, Limits)";
}

bool LogReader::Next(Event* event, std::vector<InputProblem>* problems) {
  ParseScratch::Impl* parser = scratch_.impl();
  char* data;
  size_t size;
  // The problems already there, counted only for a line that has some: a
  // good line reports none.
  auto count_now = [problems] { return problems != nullptr ? problems->size() : 0; };
  while (!stopped_) {
    const LineStatus status = ReadLine(&data, &size);
    if (status == LineStatus::kEnd) return false;
    if (status == LineStatus::kTooLong) {
      const size_t before = count_now();
      Report(problems, CheckId::kLogBadJson, TooLongMessage());
      if (events_ == 0) {
        // A header is short: no need to read a line that may never end.
        Stop(problems, "a line this long before any event: it is not a canasta-log/1 log");
      } else if (!SkipLongLine()) {
        Stop(problems, "line " + std::to_string(line_) + " goes on for more than " +
                           std::to_string(kMaxSkippedLine) + " bytes");
      }
      CountProblems(problems, before);
      continue;
    }
    if (line_ == 1 && size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0) {  // BOM
      data += 3;
      size -= 3;
    }
    std::string_view text(data, size);
    if (IsBlank(text)) continue;
    bool nul;
    size_t bad = FindBadLineByte(text, &nul);
    if (bad != std::string_view::npos) {
      const size_t before = count_now();
      Report(problems, CheckId::kLogBadJson,
             std::string("bad JSON: ") + (nul ? "a NUL byte" : "invalid UTF-8") + " (column " +
                 std::to_string(bad + 1) + ")");
      BadLine(problems);
      CountProblems(problems, before);
      continue;
    }
    EventBuilder& builder = parser->builder;
    builder.Begin(event, line_);
    rapidjson::ParseResult result = parser->ParseSax(data, builder);
    if (result.IsError()) {
      const size_t before = count_now();
      if (builder.too_deep()) {
        // The parser stopped just after the bracket that went too deep:
        // its column is the offset.
        Report(problems, CheckId::kLogBadJson,
               "bad JSON: nested more than " + std::to_string(kMaxDepth) +
                   " deep, the limit (column " + std::to_string(result.Offset()) + ")");
      } else {
        Report(problems, CheckId::kLogBadJson,
               "bad JSON: " + ParseErrorText(result.Code()) + " (column " +
                   std::to_string(result.Offset() + 1) + ")");
      }
      BadLine(problems);
      CountProblems(problems, before);
      continue;
    }
    if (!builder.slow() && !dom_only_) {
      ++events_;
      return true;
    }
    // Something to report: the DOM conversion words it. The SAX parse
    // checked the syntax and the depth.
    ++dom_lines_;
    const size_t before = count_now();
    bool parsed = parser->ParseInsitu(data);
    Converter converter(line_, problems);
    const bool got = parsed && converter.Convert(parser->doc(), event);
    if (!got) BadLine(problems);
    CountProblems(problems, before);
    if (got) {
      ++events_;
      return true;
    }
  }
  return false;
}

bool LogReader::NextParsedOnly(bool* valid) {
  ParseScratch::Impl* parser = scratch_.impl();
  char* data;
  size_t size;
  for (;;) {
    const LineStatus status = ReadLine(&data, &size);
    if (status == LineStatus::kEnd) return false;
    if (status == LineStatus::kTooLong) {
      *valid = false;
      if (!SkipLongLine()) return false;
      return true;
    }
    if (line_ == 1 && size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0) {  // BOM
      data += 3;
      size -= 3;
    }
    std::string_view text(data, size);
    if (IsBlank(text)) continue;
    bool nul;
    if (FindBadLineByte(text, &nul) != std::string_view::npos) {
      *valid = false;
      return true;
    }
    DepthOnly nothing;
    *valid = !parser->ParseSax(data, nothing).IsError();
    return true;
  }
}

}  // namespace canasta
