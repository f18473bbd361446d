#include "replay/log_reader.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

namespace canasta {
namespace {

using Pool = rapidjson::MemoryPoolAllocator<rapidjson::CrtAllocator>;
// Values and the parser's stacks both live in pools that are cleared per line.
using JsonDocument = rapidjson::GenericDocument<rapidjson::UTF8<>, Pool, Pool>;
using JsonValue = JsonDocument::ValueType;

// Iterative: a million '[' must not overflow the C++ stack. Parsed in situ
// (strings decoded in the line itself: no copies, and a huge line's strings
// do not pass through the parse stack). Not kParseValidateEncodingFlag: in
// situ, RapidJSON 1.1.0 reads past the terminating '\0' of a line that ends
// inside a UTF-8 sequence; FindBadLineByte() checks encoding first instead.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag;

constexpr size_t kValueBufferSize = 64 * 1024;  // a usual line fits: no malloc
constexpr size_t kStackBufferSize = 16 * 1024;
constexpr size_t kDocumentStackCapacity = 1024;
constexpr size_t kReadChunk = 64 * 1024;
constexpr size_t kKeepBuffer = 1024 * 1024;  // give back more after a huge line
constexpr int kMaxProblemsPerLine = 32;      // a 50 MB line of bad cards...
constexpr size_t kMaxQuoted = 40;            // bytes of a value quoted in a message

constexpr std::string_view kEventTypeNames[] = {
    "game",    "deal",   "three",        "draw",    "take_pile", "meld",     "discard",
    "ask_out", "answer", "special_hand", "retract", "note",      "end_hand", "end_game"};
constexpr int kNumEventTypes = sizeof(kEventTypeNames) / sizeof(kEventTypeNames[0]);
static_assert(kNumEventTypes == int(EventType::kEndGame) + 1, "names match EventType");

// Length of the valid UTF-8 sequence (RFC 3629) that starts with the byte
// s[0] >= 0x80, of the n bytes at s; 0 when it is not valid.
size_t Utf8SequenceLength(const uint8_t* s, size_t n) {
  uint8_t c = s[0];
  size_t tail;
  uint8_t low = 0x80, high = 0xBF;  // range of the byte after the lead
  if (c >= 0xC2 && c <= 0xDF) {
    tail = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    tail = 2;
    if (c == 0xE0) low = 0xA0;   // overlong
    if (c == 0xED) high = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    tail = 3;
    if (c == 0xF0) low = 0x90;   // overlong
    if (c == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (tail >= n || s[1] < low || s[1] > high) return 0;
  for (size_t k = 2; k <= tail; ++k) {
    if (s[k] < 0x80 || s[k] > 0xBF) return 0;
  }
  return tail + 1;
}

// Offset of the first byte of text that is not valid UTF-8, or (when
// stop_at_nul) is a NUL; npos when there is none. *nul tells which.
size_t FindBadByte(std::string_view text, bool stop_at_nul, bool* nul) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHighs = 0x8080808080808080ull;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  *nul = false;
  while (i < n) {
    // Most of a log is ASCII without NUL: 8 bytes at a time.
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, s + i, 8);
      uint64_t zero_byte = stop_at_nul ? (word - kOnes) & ~word & kHighs : 0;
      if (((word & kHighs) | zero_byte) == 0) {
        i += 8;
        continue;
      }
    }
    if (s[i] < 0x80) {
      if (s[i] == 0 && stop_at_nul) {
        *nul = true;
        return i;
      }
      ++i;
      continue;
    }
    size_t length = Utf8SequenceLength(s + i, n - i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

// A line RapidJSON may parse in situ: valid UTF-8 (reports quote the log's
// strings) and no NUL (the parse would stop there and accept what came
// before). Returns the offset of the first bad byte, or npos.
size_t FindBadLineByte(std::string_view line, bool* nul) { return FindBadByte(line, true, nul); }

// Decoded strings can still be invalid: RapidJSON 1.1.0 turns an escaped lone
// surrogate ("\udc00") into the bytes of a surrogate.
bool IsValidUtf8(std::string_view text) {
  bool nul;
  return FindBadByte(text, false, &nul) == std::string_view::npos;
}

}  // namespace

const char* EventTypeName(EventType type) {
  int i = int(type);
  return i < kNumEventTypes ? kEventTypeNames[i].data() : "?";
}

// ---------------------------------------------------------------------------
// Parsing

struct ParseScratch::Impl {
  Impl()
      : values(value_buffer.data(), value_buffer.size()),
        stack(stack_buffer.data(), stack_buffer.size()) {}

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

  alignas(16) std::array<char, kValueBufferSize> value_buffer;
  alignas(16) std::array<char, kStackBufferSize> stack_buffer;
  Pool values;
  Pool stack;
  std::optional<JsonDocument> document;
  std::string copy;  // ParseJsonOnly's writable copy of its line
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
  // The reader parses its own buffer in place; a caller's line is copied first.
  ParseScratch::Impl* parser = scratch->impl();
  parser->copy.assign(line.data(), line.size());
  return parser->ParseInsitu(&parser->copy[0]);
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
  kNumFields
};

constexpr const char* kFieldNames[kNumFields] = {
    "type",  "format", "ruleset", "players",     "player", "hand",   "dealer", "hands",    "upcard",
    "stock", "feet",   "card",    "replacement", "cards",  "bonus",  "top",    "with",     "to",
    "count", "melds",  "yes",     "text",        "scores", "totals", "winner", "breakdown"};

template <size_t N>
bool Is(const char* s, const char (&literal)[N]) {
  return std::memcmp(s, literal, N - 1) == 0;
}

// kNumFields for a name the reader does not know (ignored, as the spec says).
Field FieldOf(const char* s, size_t n) {
  switch (n) {
    case 2:
      return Is(s, "to") ? kTo : kNumFields;
    case 3:
      return Is(s, "top") ? kTop : Is(s, "yes") ? kYes : kNumFields;
    case 4:
      if (Is(s, "type")) return kType;
      if (Is(s, "card")) return kCard;
      if (Is(s, "hand")) return kHand;
      if (Is(s, "with")) return kWith;
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
      return kNumFields;
    case 7:
      if (Is(s, "players")) return kPlayers;
      if (Is(s, "ruleset")) return kRuleset;
      return kNumFields;
    case 9:
      return Is(s, "breakdown") ? kBreakdown : kNumFields;
    case 11:
      return Is(s, "replacement") ? kReplacement : kNumFields;
    default:
      return kNumFields;
  }
}

std::optional<EventType> EventTypeOf(std::string_view name) {
  for (int i = 0; i < kNumEventTypes; ++i) {
    if (name == kEventTypeNames[i]) return EventType(i);
  }
  return std::nullopt;
}

std::string_view View(const JsonValue& v) { return {v.GetString(), v.GetStringLength()}; }

// ParseCard (core/card.cc) by table lookup: cards are most of a log's strings
// and the linear search showed in profiles. The tests check that both agree.
struct CardTables {
  constexpr CardTables() {
    const char ranks[] = "23456789TJQKA";
    for (int i = 0; i < kNumNaturalRanks; ++i) rank[uint8_t(ranks[i])] = uint8_t(2 + i);
    const char suits[] = "SHDC";
    for (int i = 0; i < kNumSuits; ++i) suit[uint8_t(suits[i])] = uint8_t(1 + i);
  }
  std::array<uint8_t, 256> rank{};  // Rank value; 0: not a rank
  std::array<uint8_t, 256> suit{};  // Suit + 1; 0: not a suit
};
constexpr CardTables kCardTables;

std::optional<Card> CardOf(const JsonValue& v) {
  if (!v.IsString()) return std::nullopt;
  const auto* s = reinterpret_cast<const uint8_t*>(v.GetString());
  switch (v.GetStringLength()) {
    case 2: {
      if (s[0] == 'J' && s[1] == 'K') return Card::Joker();
      uint8_t rank = kCardTables.rank[s[0]];
      uint8_t suit = kCardTables.suit[s[1]];
      if (rank != 0 && suit != 0) return Card(Rank(rank), Suit(suit - 1));
      return std::nullopt;
    }
    case 3: {  // "10H"
      uint8_t suit = kCardTables.suit[s[2]];
      if (s[0] == '1' && s[1] == '0' && suit != 0) return Card(Rank::kTen, Suit(suit - 1));
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
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
    } else if (size_t length = Utf8SequenceLength(s + i, n - i)) {
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
template <typename T>
void ClearKeepSmall(T* container) {
  if (container->capacity() > kKeepBuffer) {
    T().swap(*container);
  } else {
    container->clear();
  }
}

// Meld specs of earlier events, kept per thread so that their card vectors
// keep their capacity from one meld event to the next.
thread_local std::vector<MeldSpec> spare_melds;

void RecycleMelds(std::vector<MeldSpec>* melds) {
  for (MeldSpec& m : *melds) {
    m.to.reset();
    m.id.reset();
    m.as.reset();
    m.cards.clear();
    if (spare_melds.size() < 64) spare_melds.push_back(std::move(m));
  }
  melds->clear();
}

void ResetEvent(Event* e, EventType type, int line) {
  e->type = type;
  e->line = line;
  e->ok = true;
  e->format.clear();
  e->ruleset.clear();
  e->players.clear();
  e->player.reset();
  e->hand.reset();
  e->dealer.reset();
  e->hands.clear();
  ClearKeepSmall(&e->upcard);
  e->stock.reset();
  e->feet.reset();
  e->card.reset();
  e->replacement.reset();
  ClearKeepSmall(&e->cards);
  e->bonus = false;
  e->top.reset();
  ClearKeepSmall(&e->with);
  e->to.reset();
  e->count.reset();
  RecycleMelds(&e->melds);
  e->yes.reset();
  ClearKeepSmall(&e->text);
  e->scores.reset();
  e->totals.reset();
  e->winner.reset();
  e->breakdown.reset();
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
    for (auto m = root.MemberBegin(); m != root.MemberEnd(); ++m) {
      Field f = FieldOf(m->name.GetString(), m->name.GetStringLength());
      // The first of duplicate keys wins, as with FindMember.
      if (f != kNumFields && fields_[f] == nullptr) fields_[f] = &m->value;
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
        if (!with && !to) {
          Report(CheckId::kLogBadEvent,
                 Prefix() +
                     "needs \"with\" (cards from the hand for a new meld) or \"to\" "
                     "(the meld the top card goes onto)");
        }
        Int(kCount, false, &e->count);
        break;
      }
      case EventType::kMeld:
        Int(kPlayer, true, &e->player);
        Melds(&e->melds);
        break;
      case EventType::kDiscard:
        Int(kPlayer, true, &e->player);
        OneCard(kCard, true, &e->card);
        break;
      case EventType::kAskOut:
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

  // --- Scalars ---

  void Int(Field f, bool required, std::optional<int>* out) {
    const JsonValue* v = Get(f, required);
    if (v == nullptr) return;
    if (v->IsInt()) {
      *out = v->GetInt();
    } else {
      WrongType(Render({kFieldNames[f]}), *v, "an integer");
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
      if (item.IsInt()) {
        out->push_back(item.GetInt());
      } else {
        WrongType(Indexed({kFieldNames[f]}, i), item, "an integer");
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
      for (auto m = side.MemberBegin(); m != side.MemberEnd(); ++m) {
        std::string_view name = View(m->name);
        if (!IsValidUtf8(name)) {
          Report(CheckId::kLogBadEvent, Prefix() + Indexed({"breakdown"}, i) + " has a part " +
                                            Quote(name) + ", which is not valid Unicode");
          continue;
        }
        if (m->value.IsInt()) {
          (*out)[i].emplace_back(std::string(name), m->value.GetInt());
        } else {
          WrongType(Render({"breakdown", int(i), name}), m->value, "an integer");
        }
      }
    }
  }

  void Melds(std::vector<MeldSpec>* out) {
    const JsonValue* v = Get(kMelds, true);
    if (v == nullptr) return;
    if (!v->IsArray()) {
      WrongType(Render({"melds"}), *v, "an array of melds");
      return;
    }
    while (out->size() < v->Size()) {
      if (spare_melds.empty()) {
        out->emplace_back();
      } else {
        out->push_back(std::move(spare_melds.back()));
        spare_melds.pop_back();
      }
    }
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
      const JsonValue& meld = (*v)[i];
      if (!meld.IsObject()) {
        WrongType(Indexed({"melds"}, i), meld, "a meld object");
        continue;
      }
      MeldSpec& spec = (*out)[i];
      bool has_cards = false;
      for (auto m = meld.MemberBegin(); m != meld.MemberEnd(); ++m) {
        std::string_view name = View(m->name);
        std::optional<std::string>* text = nullptr;
        if (name == "cards") {
          if (has_cards || m->value.IsNull()) continue;
          has_cards = true;
          CardArray(m->value, {"melds", int(i), "cards"}, &spec.cards);
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
          if (ValidText(m->value, [&] { return Render({"melds", int(i), name}); })) {
            text->emplace(m->value.GetString(), m->value.GetStringLength());
          }
        } else {
          WrongType(Render({"melds", int(i), name}), m->value, "a string");
        }
      }
      if (!has_cards) {
        Report(CheckId::kLogBadEvent,
               Prefix() + Indexed({"melds"}, i) + ": missing field \"cards\"");
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
// LogReader

LogReader::LogReader(std::istream& in) : in_(in) {}
LogReader::~LogReader() = default;

void LogReader::Reallocate(size_t capacity) {
  std::unique_ptr<char[]> bigger(new char[capacity]);
  if (end_) std::memcpy(bigger.get(), buffer_.get(), end_);
  buffer_ = std::move(bigger);
  capacity_ = capacity;
}

bool LogReader::ReadLine(char** line, size_t* size) {
  for (;;) {
    size_t pending = end_ - begin_;
    char* start = buffer_.get() + begin_;
    void* nl = pending > scanned_ ? std::memchr(start + scanned_, '\n', pending - scanned_)
                                  : nullptr;
    if (nl) {
      size_t length = static_cast<char*>(nl) - start;
      start[length] = '\0';  // in-situ parsing needs the terminator
      *line = start;
      *size = length;
      begin_ += length + 1;
      bytes_read_ += length + 1;
      scanned_ = 0;
      ++line_;
      return true;
    }
    scanned_ = pending;
    if (eof_) {
      if (pending == 0) return false;
      // A last line without '\n'.
      if (end_ == capacity_) Reallocate(capacity_ + 1);
      buffer_[end_] = '\0';
      *line = buffer_.get() + begin_;
      *size = pending;
      begin_ = end_;
      bytes_read_ += pending;
      scanned_ = 0;
      ++line_;
      return true;
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

bool LogReader::Next(Event* event, std::vector<InputProblem>* problems) {
  ParseScratch::Impl* parser = scratch_.impl();
  char* data;
  size_t size;
  while (ReadLine(&data, &size)) {
    if (line_ == 1 && size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0) {  // BOM
      data += 3;
      size -= 3;
    }
    std::string_view text(data, size);
    if (IsBlank(text)) continue;
    bool nul;
    size_t bad = FindBadLineByte(text, &nul);
    if (bad != std::string_view::npos) {
      if (problems != nullptr) {
        problems->push_back({line_, CheckId::kLogBadJson,
                             std::string("bad JSON: ") + (nul ? "a NUL byte" : "invalid UTF-8") +
                                 " (column " + std::to_string(bad + 1) + ")"});
      }
      continue;
    }
    if (!parser->ParseInsitu(data)) {
      if (problems != nullptr) {
        const JsonDocument& doc = parser->doc();
        problems->push_back({line_, CheckId::kLogBadJson,
                             "bad JSON: " + ParseErrorText(doc.GetParseError()) + " (column " +
                                 std::to_string(doc.GetErrorOffset() + 1) + ")"});
      }
      continue;
    }
    Converter converter(line_, problems);
    if (converter.Convert(parser->doc(), event)) return true;
  }
  return false;
}

}  // namespace canasta
