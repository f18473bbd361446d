#include "core/hook_api.h"

namespace canasta {

HookValue HookValue::Bool(bool b) {
  HookValue v;
  v.kind_ = Kind::kBool;
  v.int_ = b;
  return v;
}
HookValue HookValue::Int(int i) {
  HookValue v;
  v.kind_ = Kind::kInt;
  v.int_ = i;
  return v;
}
HookValue HookValue::String(std::string s) {
  HookValue v;
  v.kind_ = Kind::kString;
  v.string_ = std::move(s);
  return v;
}
HookValue HookValue::Cards(std::vector<Card> cards) {
  HookValue v;
  v.kind_ = Kind::kCards;
  v.cards_ = std::move(cards);
  return v;
}
HookValue HookValue::OfCard(Card c) { return c.valid() ? String(ToString(c)) : HookValue(); }
HookValue HookValue::List() {
  HookValue v;
  v.kind_ = Kind::kList;
  return v;
}
HookValue HookValue::Table() {
  HookValue v;
  v.kind_ = Kind::kTable;
  return v;
}

HookValue HookValue::Lazy(Maker make, const void* object, int arg) {
  HookValue v;
  v.kind_ = Kind::kLazy;
  v.make_ = make;
  v.object_ = object;
  v.int_ = arg;
  return v;
}

HookValue& HookValue::Set(const char* key, HookValue value) {
  kind_ = Kind::kTable;
  keys_.push_back(key);
  items_.push_back(std::move(value));
  return *this;
}

HookValue& HookValue::Append(HookValue value) {
  kind_ = Kind::kList;
  items_.push_back(std::move(value));
  return *this;
}

const HookValue* HookValue::Find(std::string_view key) const {
  for (size_t i = keys_.size(); i-- > 0;)  // the last one set
    if (std::string_view(keys_[i]) == key) return &items_[i];
  return nullptr;
}

const char* HookRankName(Rank rank) {
  static constexpr const char* kNames[16] = {"?", "?", "2", "3", "4", "5", "6", "7",
                                             "8", "9", "T", "J", "Q", "K", "A", "wild"};
  return kNames[int(rank) & 15];
}

HookValue MeldValue(Rank rank, const std::vector<Card>& cards, int canasta_size) {
  int naturals = 0, twos = 0, jokers = 0;
  for (Card c : cards) {
    if (c.is_joker()) ++jokers;
    else if (c.rank() == Rank::kTwo) ++twos;
    else ++naturals;
  }
  HookValue m = HookValue::Table();
  m.Set("rank", HookValue::String(HookRankName(rank)));
  m.Set("cards", HookValue::Cards(cards));
  m.Set("size", HookValue::Int(int(cards.size())));
  m.Set("naturals", HookValue::Int(naturals));
  m.Set("twos", HookValue::Int(twos));
  m.Set("jokers", HookValue::Int(jokers));
  m.Set("wilds", HookValue::Int(twos + jokers));
  m.Set("canasta", HookValue::Bool(int(cards.size()) >= canasta_size));
  m.Set("natural", HookValue::Bool(twos + jokers == 0));
  return m;
}

namespace {

// Fields every v2 hook about a player's turn sees.
std::vector<HookField> TurnFields(std::vector<HookField> own) {
  std::vector<HookField> f = {
      {"player", "integer", "the seat in turn (0 is the first seat of the log)"},
      {"side", "integer", "the player's side (0 or 1 in partnership play; the seat otherwise)"},
      {"turn", "integer", "the player's turn number in this hand, from 1"},
      {"opened", "boolean", "the side has made its initial meld (before this turn)"},
      {"hand", "cards", "the player's hand now (before this move)"},
      {"melds", "melds", "the side's melds on the table"},
      {"other_melds", "melds", "the melds of the other sides"},
      {"pile_top", "card", "the top card of the discard pile (nil when empty)"},
      {"pile_size", "integer", "cards in the discard pile"},
      {"stock_size", "integer", "cards left in the stock"},
      {"total", "integer", "the side's total before this hand"},
      {"totals", "list", "every side's total before this hand, by side + 1"},
  };
  f.insert(f.end(), own.begin(), own.end());
  return f;
}

std::vector<HookSpec> MakeSpecs() {
  std::vector<HookSpec> s;
  // --- v1 hooks ---
  s.push_back(HookSpec{
      HookId::kInitialMeldValue, "initial_meld_value", "initial_meld_value(card, rules)",
      HookResult::kInteger, -1000, 1000,
      "the points the card counts toward the initial-meld minimum",
      "For each card that counts toward a side's initial meld (000 §8).",
      "initial_meld_value = function(card, rules)\n"
      "  if canasta.is_joker(card) then return 0 end\n"
      "  return canasta.value(card)\nend",
      {{"card", "card", "the card"}},
      false});
  s.push_back(HookSpec{
      HookId::kExtraMeldCheck, "extra_meld_check", "extra_meld_check(meld, rules)",
      HookResult::kReason, 0, 0, "nil or true when the meld is fine, else a string saying why not",
      "After the engine's composition rules pass, for every meld and addition, and for the "
      "melds the move generator considers.",
      "extra_meld_check = function(m, rules)\n"
      "  if m.rank == \"A\" and m.wilds > 0 then return \"no wild cards on aces\" end\nend",
      {{"rank", "string", "\"2\"..\"A\", or \"wild\" for wild cards only"},
       {"naturals", "integer", "natural cards after the play"},
       {"twos", "integer", "twos after the play"},
       {"jokers", "integer", "jokers after the play"},
       {"wilds", "integer", "twos and jokers"},
       {"size", "integer", "cards after the play"},
       {"was_canasta", "boolean", "it was a completed canasta before this play"},
       {"is_new", "boolean", "no card of this meld was on the table before"}},
      false});
  s.push_back(HookSpec{
      HookId::kCanastasToGoOut, "canastas_to_go_out", "canastas_to_go_out(side, rules)",
      HookResult::kInteger, 0, 20, "canastas the side needs to go out",
      "When a player goes out (000 §17).",
      "canastas_to_go_out = function(side, rules) return 2 end",
      {{"side", "integer", "the side"},
       {"canastas", "integer", "its canastas, counting one made in going out"},
       {"natural_canastas", "integer", "of which natural"},
       {"mixed_canastas", "integer", "of which mixed"},
       {"melds", "integer", "its melds"},
       {"red_threes", "integer", "its red threes laid out"}},
      false});
  s.push_back(HookSpec{
      HookId::kMinimumCount, "minimum_count", "minimum_count(total, rules, ctx)",
      HookResult::kInteger, 0, 10000, "the side's initial-meld minimum",
      "When a side's minimum is needed (000 §8). The third argument, ctx, gives every "
      "side's total: a minimum may depend on both.",
      "minimum_count = function(total, rules, ctx)\n"
      "  local lead = math.max(ctx.totals[1], ctx.totals[2])\n"
      "  return lead >= 3000 and 120 or 50\nend",
      {{"total", "integer", "the side's total before the hand"},
       {"ctx.side", "integer", "the side"},
       {"ctx.totals", "list", "every side's total before the hand, by side + 1"}},
      false});
  s.push_back(HookSpec{
      HookId::kHouseScoreAdjustment, "house_score_adjustment",
      "house_score_adjustment(side, went_out, rules)", HookResult::kInteger, -100000, 100000,
      "points added to the side's hand score, as the part \"house\"",
      "Once per side when a hand is scored. The v2 hook `score` can say more.",
      "house_score_adjustment = function(side, went_out, rules)\n"
      "  return side.natural_canastas >= 2 and 100 or 0\nend",
      {{"side", "table", "as for canastas_to_go_out"},
       {"went_out", "boolean", "the side went out"}},
      false});

  // --- v2 hooks ---
  s.push_back(HookSpec{
      HookId::kMayTakePile, "may_take_pile", "may_take_pile(ctx, rules)", HookResult::kReason,
      0, 0,
      "nil: the engine's rule decides; true: the take is allowed (the engine's refusal of "
      "it is dropped); false or a string: refused, the string becomes the finding's message",
      "When a player takes the discard pile, and for every take the move generator "
      "considers. The cards must still be held and the pile's top must match; the meld the "
      "take makes is still checked by the meld rules.",
      "may_take_pile = function(ctx, rules)\n"
      "  if ctx.frozen and ctx.pile_size > 10 then\n"
      "    return \"a frozen pile of more than ten cards is never taken\"\n  end\nend",
      TurnFields({{"top", "card", "the top card taken"},
                  {"with", "cards", "the cards shown from the hand with it"},
                  {"to", "string", "the rank of the side's meld the top card joins (nil: a new "
                                   "meld, or by the cards shown)"},
                  {"pile", "cards", "the whole pile, bottom first"},
                  {"frozen", "boolean", "the pile is frozen for the side"},
                  {"frozen_by", "string", "why: \"wild\", \"red_three\", \"black_three\", "
                                          "\"not_opened\" (nil when not frozen)"},
                  {"to_hand", "boolean", "the top card goes into the hand (pile_top_to_hand)"},
                  {"default", "reason", "the engine's verdict: true, or its reason for refusing"}})});
  s.push_back(HookSpec{
      HookId::kMayMeld, "may_meld", "may_meld(ctx, rules)", HookResult::kReason, 0, 0,
      "nil or true: the meld is fine as far as the ruleset goes; false or a string: refused "
      "(the engine's own composition rules still apply)",
      "For every meld and addition (including the meld a pile take makes), and for the melds "
      "the move generator considers.",
      "may_meld = function(ctx, rules)\n"
      "  if ctx.rank == \"A\" and ctx.wilds > 0 then return \"no wild cards on aces\" end\nend",
      TurnFields({{"rank", "string", "the meld's rank, \"wild\" for wild cards only"},
                  {"cards", "cards", "the cards being laid on it now"},
                  {"naturals", "integer", "natural cards after the play"},
                  {"twos", "integer", "twos after the play"},
                  {"jokers", "integer", "jokers after the play"},
                  {"wilds", "integer", "wild cards after the play"},
                  {"size", "integer", "cards after the play"},
                  {"is_new", "boolean", "a new meld"},
                  {"was_canasta", "boolean", "it was a completed canasta before"},
                  {"is_canasta", "boolean", "it is a completed canasta after"},
                  {"opening", "boolean", "the side is making its initial meld this turn"},
                  {"from_pile", "boolean", "the meld is made by taking the pile"}})});
  s.push_back(HookSpec{
      HookId::kMayDiscard, "may_discard", "may_discard(ctx, rules)", HookResult::kReason, 0, 0,
      "nil or true: allowed as far as the ruleset goes; false or a string: refused",
      "For every discard, and for the discards the move generator considers.",
      "may_discard = function(ctx, rules)\n"
      "  for _, m in ipairs(ctx.other_melds) do\n"
      "    if m.rank == canasta.rank(ctx.card) and not m.canasta then\n"
      "      return \"no feeding a rank the other side has melded\"\n    end\n  end\nend",
      TurnFields({{"card", "card", "the card discarded"},
                  {"last_card", "boolean", "it is the player's last card (going out)"}})});
  s.push_back(HookSpec{
      HookId::kMayGoOut, "may_go_out", "may_go_out(ctx, rules)", HookResult::kReason, 0, 0,
      "nil: the engine's rule decides; true: allowed (its refusal is dropped); false or a "
      "string: refused",
      "When a player goes out (by a discard, by melding every card, or by taking a pile of "
      "one card), and for the moves the generator considers that go out.",
      "may_go_out = function(ctx, rules)\n"
      "  if ctx.natural_canastas < 1 then return \"going out needs a natural canasta\" end\nend",
      TurnFields({{"by", "string", "how: \"discard\", \"meld\" or \"pile\""},
                  {"canastas", "integer", "the side's canastas once the turn's cards are down"},
                  {"natural_canastas", "integer", "of which natural"},
                  {"mixed_canastas", "integer", "of which mixed"},
                  {"asked", "boolean", "the player asked \"may I go out?\" this turn"},
                  {"answer", "boolean", "the partner's answer (nil when none)"},
                  {"concealed", "boolean", "the player goes out concealed: no meld in an earlier turn, "
                                         "no addition to a meld laid before (readings R29)"},
                  {"default", "reason", "the engine's verdict: true, or its reason"}})});
  s.push_back(HookSpec{
      HookId::kScore, "score", "score(ctx, rules)", HookResult::kParts, -100000, 100000,
      "nil (the engine's breakdown stands) or a table of parts to set: standard parts "
      "(canastas, red_threes, going_out, melded, in_hand, penalties, house) replace the "
      "engine's value, and a part the ruleset declares in `score_parts` is added",
      "Once per side when a hand is scored (000 §18).",
      "score = function(ctx, rules)\n"
      "  if ctx.red_three_count == 3 then return {red_threes = 600} end\nend",
      {{"side", "integer", "the side"},
       {"melds", "melds", "the side's melds"},
       {"red_threes", "cards", "the side's red threes laid out"},
       {"red_three_count", "integer", "how many"},
       {"went_out", "boolean", "the side went out"},
       {"concealed", "boolean", "it went out concealed"},
       {"ended", "string", "how the hand ended: \"out\", \"stock\" or \"unfinished\""},
       {"out_player", "integer", "the seat that went out (nil if nobody)"},
       {"hands", "list", "the cards left in each of the side's players' hands"},
       {"opened", "boolean", "the side made a meld this hand"},
       {"parts", "table", "the engine's breakdown, by part name"},
       {"total", "integer", "the side's total before this hand"}}});
  s.push_back(HookSpec{
      HookId::kTieBreak, "tie_break", "tie_break(ctx, rules)", HookResult::kSide, 0, 0,
      "nil (the parameter exact_tie decides) or the winning side's number",
      "When the game is over and the top totals tie (000 §19).",
      "tie_break = function(ctx, rules)\n"
      "  -- the side with more canastas over the game wins\n"
      "  if ctx.canastas[1] ~= ctx.canastas[2] then\n"
      "    return ctx.canastas[1] > ctx.canastas[2] and 0 or 1\n  end\nend",
      {{"totals", "list", "every side's final total, by side + 1"},
       {"tied", "list", "the sides that tie for the lead (side numbers)"},
       {"canastas", "list", "canastas made over the game, by side + 1"},
       {"hands", "integer", "hands played"}}});
  return s;
}

}  // namespace

const std::vector<HookSpec>& HookSpecs() {
  static const std::vector<HookSpec> kSpecs = MakeSpecs();
  return kSpecs;
}

const HookSpec& GetHookSpec(HookId id) { return HookSpecs()[size_t(id)]; }

HookId FindHook(std::string_view name) {
  for (const HookSpec& s : HookSpecs())
    if (name == s.name) return s.id;
  return HookId::kCount;
}

}  // namespace canasta
