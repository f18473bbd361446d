#include "replay/moves.h"

#include <cstdint>
#include <vector>

namespace canasta {

namespace {

// RefRank without the optional: a reference of one character (the usual
// "K", "9") by table, the rest as ParseRank reads it.
std::optional<Rank> RankOfRef(const std::string& ref) {
  static constexpr struct Table {
    constexpr Table() {
      const char ranks[] = "23456789TJQKA";
      for (int i = 0; i < 13; ++i) rank[uint8_t(ranks[i])] = uint8_t(2 + i);
    }
    uint8_t rank[256] = {};
  } kTable;
  if (ref.size() == 1) {
    const uint8_t r = kTable.rank[uint8_t(ref[0])];
    if (r != 0) return Rank(r);
    return std::nullopt;
  }
  if (ref == "wild") return Rank::kJoker;
  return ParseRank(ref);
}

// An event's few cards (a draw's one or two, a meld part's three or four)
// into a move's vector, which keeps its capacity. Sized first, then copied
// by a plain loop: no capacity test per card, and no growth code inlined.
void CopyCards(const std::vector<Card>& from, std::vector<Card>* to) {
  const size_t n = from.size();
  if (to->size() != n) to->resize(n);
  Card* out = to->data();
  for (size_t i = 0; i < n; ++i) out[i] = from[i];
}

// The findings of fields that cannot be a move, worded out of line: the
// usual event has none.
[[gnu::noinline]] bool AsNotARank(const std::string& as, std::string* error) {
  *error = "a meld's \"as\" is \"" + as + "\", not a rank, \"wild\" or \"sequence\"";
  return false;
}
[[gnu::noinline]] bool ToNotARank(const std::string& to, std::string* error) {
  *error = "\"to\" is \"" + to + "\", not a rank or \"wild\"";
  return false;
}

// Parts left over when a move has fewer than the last one, kept per thread
// so that their card vectors keep their capacity.
thread_local std::vector<MeldPart> spare_parts;

}  // namespace

std::optional<Rank> RefRank(const std::optional<std::string>& ref) {
  if (!ref) return std::nullopt;
  return RankOfRef(*ref);
}

bool FillMove(const Event& e, int player, DrawMove* m, std::string*) {
  m->player = player;
  m->bonus = e.bonus;
  CopyCards(e.cards, &m->cards);
  m->tag = e.line;
  return true;
}

// Melds of an event (a meld's "melds", a take's "before") as meld parts.
bool FillParts(const std::vector<MeldSpec>& specs, std::vector<MeldPart>* parts,
               std::string* error) {
  while (parts->size() > specs.size()) {
    if (spare_parts.size() < 16) spare_parts.push_back(std::move(parts->back()));
    parts->pop_back();
  }
  while (parts->size() < specs.size()) {
    if (spare_parts.empty()) {
      parts->emplace_back();
    } else {
      parts->push_back(std::move(spare_parts.back()));
      spare_parts.pop_back();
    }
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    const MeldSpec& spec = specs[i];
    MeldPart& part = (*parts)[i];
    part.to.reset();
    if (spec.to) {
      part.to = RankOfRef(*spec.to);
      // Any other reference names a meld by the id a log gave it (a
      // sequence's: 002 L67, L75); the position finds it or reports that the
      // side has none.
      if (!part.to) part.to_id = *spec.to;
    }
    if (part.to || !spec.to) part.to_id.clear();
    part.sequence = spec.as && *spec.as == "sequence";
    part.as.reset();
    if (spec.as && !part.sequence) part.as = RankOfRef(*spec.as);
    if (spec.id) {
      part.id = *spec.id;
    } else {
      part.id.clear();
    }
    if (spec.as && !part.as && !part.sequence) return AsNotARank(*spec.as, error);
    CopyCards(spec.cards, &part.cards);
  }
  return true;
}

bool FillMove(const Event& e, int player, TakePileMove* m, std::string* error) {
  m->player = player;
  m->top = *e.top;
  CopyCards(e.with, &m->with);
  m->to = RefRank(e.to);
  m->count = e.count;
  m->tag = e.line;
  m->to_hand = e.to_hand;
  if (e.to && !m->to) return ToNotARank(*e.to, error);
  return FillParts(e.before, &m->before, error);
}

bool FillMove(const Event& e, int player, MeldMove* m, std::string* error) {
  m->player = player;
  m->tag = e.line;
  return FillParts(e.melds, &m->parts, error);
}

bool FillMove(const Event& e, int player, RetractMove* m, std::string*) {
  m->player = player;
  CopyCards(e.cards, &m->cards);
  m->tag = e.line;
  return true;
}

bool FillMove(const Event& e, int player, SpecialHandMove* m, std::string*) {
  m->player = player;
  CopyCards(e.cards, &m->cards);
  m->tag = e.line;
  return true;
}

std::optional<Move> ToMove(const Event& e, std::string* error) {
  if (!e.ok || !e.player) return std::nullopt;
  const int p = *e.player;
  std::string why;
  auto fill = [&](auto move) -> std::optional<Move> {
    if (!FillMove(e, p, &move, &why)) {
      if (error) *error = why;
      return std::nullopt;
    }
    return Move(std::move(move));
  };
  switch (e.type) {
    case EventType::kDraw: return fill(DrawMove{});
    case EventType::kTakePile: return fill(TakePileMove{});
    case EventType::kMeld: return fill(MeldMove{});
    case EventType::kRetract: return fill(RetractMove{});
    case EventType::kSpecialHand: return fill(SpecialHandMove{});
    case EventType::kDiscard: return Move(DiscardMove{p, *e.card, e.line, e.face_down});
    case EventType::kThree: return Move(ThreeMove{p, *e.card, e.replacement, e.line});
    case EventType::kAskOut: return Move(AskOutMove{p, e.line});
    case EventType::kAnswer: return Move(AnswerMove{p, *e.yes, e.line});
    case EventType::kFoot: return Move(FootMove{p, e.line});
    default: return std::nullopt;
  }
}

}  // namespace canasta
