#include "core/hook_api.h"

#include "core/hooks.h"
#include "core/position.h"
#include "core/scoring.h"

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
  static constexpr const char* kNames[16] = {"?", "sequence", "2", "3", "4", "5", "6", "7",
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
  m.Reserve(9);
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

TurnHookState::TurnHookState(const Position& p, int player)
    : position(&p),
      seat(player >= 0 && player < p.num_players() ? player : p.current_player()) {}

HookValue HookContext::Field(size_t i) const {
  const HookField& f = GetHookSpec(hook_).fields[i];
  if (state_) return f.read ? f.read(*state_) : HookValue();
  const HookValue* v = table_->Find(f.name);
  return v ? v->Resolve() : HookValue();
}

namespace {

// --- Readers of the v2 contexts' fields (HookField::read) ---
const TurnHookState& Turn(const HookState& s) { return static_cast<const TurnHookState&>(s); }
const Position& Pos(const HookState& s) { return *Turn(s).position; }
int SideOf(const HookState& s) { return Pos(s).side_of(Turn(s).seat); }
template <class T>
const T& As(const HookState& s) {
  return static_cast<const T&>(s);
}
void AppendMelds(const Position& pos, int side, HookValue* list) {
  for (const Meld& m : pos.melds(side))
    if (!m.cards.empty()) list->Append(MeldValue(m.rank, m.cards, pos.rules().canasta_size));
}
std::vector<Card> RedThrees(const ScoreHookState& s) {
  std::vector<Card> reds;
  for (Card c : s.position->threes(s.side))
    if (c.is_red_three()) reds.push_back(c);
  return reds;
}
HookValue Ints(const std::vector<int>& values) {
  HookValue list = HookValue::List();
  for (int v : values) list.Append(HookValue::Int(v));
  return list;
}
const MeldShape& Shape(const HookState& s) { return *As<MeldHookState>(s).shape; }
HookValue Reason(const std::string* refusal) {
  return refusal ? HookValue::String(*refusal) : HookValue::Bool(true);
}

// Fields every v2 hook about a player's turn sees.
std::vector<HookField> TurnFields(std::vector<HookField> own) {
  std::vector<HookField> f = {
      {"player", "integer", "the seat in turn (0 is the first seat of the log)",
       [](const HookState& s) { return HookValue::Int(Turn(s).seat); }},
      {"side", "integer", "the player's side (0 or 1 in partnership play; the seat otherwise)",
       [](const HookState& s) { return HookValue::Int(SideOf(s)); }},
      {"turn", "integer", "the player's turn number in this hand, from 1",
       [](const HookState& s) { return HookValue::Int(Pos(s).TurnNumber(Turn(s).seat)); }},
      {"opened", "boolean", "the side has made its initial meld (before this turn)",
       [](const HookState& s) { return HookValue::Bool(Pos(s).has_melded(SideOf(s))); }},
      {"hand", "cards", "the player's hand now (before this move)",
       [](const HookState& s) { return HookValue::Cards(Pos(s).hand(Turn(s).seat).ToVector()); }},
      {"melds", "melds", "the side's melds on the table",
       [](const HookState& s) {
         HookValue list = HookValue::List();
         AppendMelds(Pos(s), SideOf(s), &list);
         return list;
       }},
      {"other_melds", "melds", "the melds of the other sides",
       [](const HookState& s) {
         HookValue list = HookValue::List();
         for (int side = 0; side < Pos(s).rules().num_sides(); ++side)
           if (side != SideOf(s)) AppendMelds(Pos(s), side, &list);
         return list;
       }},
      {"pile_top", "card", "the top card of the discard pile (nil when empty)",
       [](const HookState& s) {
         return Pos(s).pile().empty() ? HookValue() : HookValue::OfCard(Pos(s).pile().back());
       }},
      {"pile_size", "integer", "cards in the discard pile",
       [](const HookState& s) { return HookValue::Int(int(Pos(s).pile().size())); }},
      {"stock_size", "integer", "cards left in the stock",
       [](const HookState& s) { return HookValue::Int(Pos(s).stock_size()); }},
      {"total", "integer", "the side's total before this hand",
       [](const HookState& s) { return HookValue::Int(Pos(s).totals()[size_t(SideOf(s))]); }},
      {"totals", "list", "every side's total before this hand, by side + 1",
       [](const HookState& s) {
         HookValue list = HookValue::List();
         for (int t : Pos(s).totals()) list.Append(HookValue::Int(t));
         return list;
       }},
  };
  f.insert(f.end(), own.begin(), own.end());
  return f;
}

std::vector<HookSpec> MakeSpecs() {
  std::vector<HookSpec> specs;
  // --- v1 hooks ---
  specs.push_back(HookSpec{
      HookId::kInitialMeldValue, "initial_meld_value", "initial_meld_value(card, rules)",
      HookResult::kInteger, -1000, 1000,
      "the points the card counts toward the initial-meld minimum",
      "For each card that counts toward a side's initial meld (000 §8). Asked once per "
      "distinct argument (a Lua state remembers the answer): it must depend on its "
      "arguments only.",
      "initial_meld_value = function(card, rules)\n"
      "  if canasta.is_joker(card) then return 0 end\n"
      "  return canasta.value(card)\nend",
      {{"card", "card", "the card"}},
      false});
  specs.push_back(HookSpec{
      HookId::kExtraMeldCheck, "extra_meld_check", "extra_meld_check(meld, rules)",
      HookResult::kReason, 0, 0, "nil or true when the meld is fine, else a string saying why not",
      "After the engine's composition rules pass, for every meld and addition, and for the "
      "melds the move generator considers. Asked once per distinct argument (a Lua state "
      "remembers the answer): it must depend on its arguments only.",
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
  specs.push_back(HookSpec{
      HookId::kCanastasToGoOut, "canastas_to_go_out", "canastas_to_go_out(side, rules)",
      HookResult::kInteger, 0, 20, "canastas the side needs to go out",
      "When a player goes out (000 §17). Asked once per distinct argument (a Lua state "
      "remembers the answer): it must depend on its arguments only.",
      "canastas_to_go_out = function(side, rules) return 2 end",
      {{"side", "integer", "the side"},
       {"canastas", "integer", "its canastas, counting one made in going out"},
       {"natural_canastas", "integer", "of which natural"},
       {"mixed_canastas", "integer", "of which mixed"},
       {"melds", "integer", "its melds"},
       {"red_threes", "integer", "its red threes laid out"}},
      false});
  specs.push_back(HookSpec{
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
  specs.push_back(HookSpec{
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
  specs.push_back(HookSpec{
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
      TurnFields(
          {{"top", "card", "the top card taken",
            [](const HookState& s) { return HookValue::OfCard(As<TakePileHookState>(s).top); }},
           {"with", "cards", "the cards shown from the hand with it",
            [](const HookState& s) { return HookValue::Cards(*As<TakePileHookState>(s).with); }},
           {"to", "string",
            "the rank of the side's meld the top card joins (nil: a new meld, or by the cards "
            "shown)",
            [](const HookState& s) {
              const std::optional<Rank>& to = As<TakePileHookState>(s).to;
              return to ? HookValue::String(HookRankName(*to)) : HookValue();
            }},
           {"pile", "cards", "the whole pile, bottom first",
            [](const HookState& s) { return HookValue::Cards(Pos(s).pile()); }},
           {"frozen", "boolean", "the pile is frozen for the side",
            [](const HookState& s) {
              return HookValue::Bool(Pos(s).PileFrozenBy(SideOf(s)) != nullptr);
            }},
           {"frozen_by", "string",
            "why: \"wild\", \"red_three\", \"black_three\", \"not_opened\" (nil when not "
            "frozen)",
            [](const HookState& s) {
              const char* by = Pos(s).PileFrozenBy(SideOf(s));
              return by ? HookValue::String(by) : HookValue();
            }},
           {"to_hand", "boolean", "the top card goes into the hand (pile_top_to_hand)",
            [](const HookState& s) { return HookValue::Bool(As<TakePileHookState>(s).to_hand); }},
           {"default", "reason", "the engine's verdict: true, or its reason for refusing",
            [](const HookState& s) { return Reason(As<TakePileHookState>(s).refusal); }}})});
  specs.push_back(HookSpec{
      HookId::kMayMeld, "may_meld", "may_meld(ctx, rules)", HookResult::kReason, 0, 0,
      "nil or true: the meld is fine as far as the ruleset goes; false or a string: refused "
      "(the engine's own composition rules still apply)",
      "For every meld and addition (including the meld a pile take makes), and for the melds "
      "the move generator considers.",
      "may_meld = function(ctx, rules)\n"
      "  if ctx.rank == \"A\" and ctx.wilds > 0 then return \"no wild cards on aces\" end\nend",
      TurnFields(
          {{"rank", "string", "the meld's rank, \"wild\" for wild cards only, \"sequence\" for a sequence (002 L67)",
            [](const HookState& s) { return HookValue::String(HookRankName(Shape(s).rank)); }},
           {"cards", "cards", "the cards being laid on it now",
            [](const HookState& s) { return HookValue::Cards(*As<MeldHookState>(s).cards); }},
           {"naturals", "integer", "natural cards after the play",
            [](const HookState& s) { return HookValue::Int(Shape(s).naturals); }},
           {"twos", "integer", "twos after the play",
            [](const HookState& s) { return HookValue::Int(Shape(s).twos); }},
           {"jokers", "integer", "jokers after the play",
            [](const HookState& s) { return HookValue::Int(Shape(s).jokers); }},
           {"wilds", "integer", "wild cards after the play",
            [](const HookState& s) { return HookValue::Int(Shape(s).wilds()); }},
           {"size", "integer", "cards after the play",
            [](const HookState& s) { return HookValue::Int(Shape(s).size()); }},
           {"is_new", "boolean", "a new meld",
            [](const HookState& s) { return HookValue::Bool(Shape(s).is_new); }},
           {"was_canasta", "boolean", "it was a completed canasta before",
            [](const HookState& s) { return HookValue::Bool(Shape(s).was_canasta); }},
           {"is_canasta", "boolean", "it is a completed canasta after",
            [](const HookState& s) {
              return HookValue::Bool(Shape(s).size() >= Pos(s).rules().canasta_size);
            }},
           {"opening", "boolean", "the side is making its initial meld this turn",
            [](const HookState& s) { return HookValue::Bool(As<MeldHookState>(s).opening); }},
           {"from_pile", "boolean", "the meld is made by taking the pile",
            [](const HookState& s) { return HookValue::Bool(As<MeldHookState>(s).from_pile); }}})});
  specs.push_back(HookSpec{
      HookId::kMayDiscard, "may_discard", "may_discard(ctx, rules)", HookResult::kReason, 0, 0,
      "nil or true: allowed as far as the ruleset goes; false or a string: refused",
      "For every discard, and for the discards the move generator considers.",
      "may_discard = function(ctx, rules)\n"
      "  for _, m in ipairs(ctx.other_melds) do\n"
      "    if m.rank == canasta.rank(ctx.card) and not m.canasta then\n"
      "      return \"no feeding a rank the other side has melded\"\n    end\n  end\nend",
      TurnFields(
          {{"card", "card", "the card discarded",
            [](const HookState& s) { return HookValue::OfCard(As<DiscardHookState>(s).card); }},
           {"last_card", "boolean", "it is the player's last card (going out)",
            [](const HookState& s) {
              return HookValue::Bool(As<DiscardHookState>(s).last_card);
            }}})});
  specs.push_back(HookSpec{
      HookId::kMayGoOut, "may_go_out", "may_go_out(ctx, rules)", HookResult::kReason, 0, 0,
      "nil: the engine's rule decides; true: allowed (its refusal is dropped); false or a "
      "string: refused",
      "When a player goes out (by a discard, by melding every card, or by taking a pile of "
      "one card), and for the moves the generator considers that go out.",
      "may_go_out = function(ctx, rules)\n"
      "  if ctx.natural_canastas < 1 then return \"going out needs a natural canasta\" end\nend",
      TurnFields(
          {{"by", "string", "how: \"discard\", \"meld\" or \"pile\"",
            [](const HookState& s) { return HookValue::String(As<GoOutHookState>(s).by); }},
           {"canastas", "integer", "the side's canastas once the turn's cards are down",
            [](const HookState& s) { return HookValue::Int(As<GoOutHookState>(s).canastas); }},
           {"natural_canastas", "integer", "of which natural",
            [](const HookState& s) {
              return HookValue::Int(As<GoOutHookState>(s).natural_canastas);
            }},
           {"mixed_canastas", "integer", "of which mixed",
            [](const HookState& s) {
              return HookValue::Int(As<GoOutHookState>(s).mixed_canastas);
            }},
           {"asked", "boolean", "the player asked \"may I go out?\" this turn",
            [](const HookState& s) { return HookValue::Bool(As<GoOutHookState>(s).asked); }},
           {"answer", "boolean", "the partner's answer (nil when none)",
            [](const HookState& s) {
              const std::optional<bool>& a = As<GoOutHookState>(s).answer;
              return a ? HookValue::Bool(*a) : HookValue();
            }},
           {"concealed", "boolean",
            "the player goes out concealed: no meld in an earlier turn, no addition to a meld "
            "laid before (readings R29)",
            [](const HookState& s) { return HookValue::Bool(As<GoOutHookState>(s).concealed); }},
           {"default", "reason", "the engine's verdict: true, or its reason",
            [](const HookState& s) { return Reason(As<GoOutHookState>(s).refusal); }}})});
  specs.push_back(HookSpec{
      HookId::kScore, "score", "score(ctx, rules)", HookResult::kParts, -100000, 100000,
      "nil (the engine's breakdown stands) or a table of parts to set: standard parts "
      "(canastas, red_threes, going_out, melded, in_hand, penalties, house) replace the "
      "engine's value, and a part the ruleset declares in `score_parts` is added",
      "Once per side when a hand is scored (000 §18).",
      "score = function(ctx, rules)\n"
      "  if ctx.red_three_count == 3 then return {red_threes = 600} end\nend",
      {{"side", "integer", "the side",
        [](const HookState& s) { return HookValue::Int(As<ScoreHookState>(s).side); }},
       {"melds", "melds", "the side's melds",
        [](const HookState& s) {
          const auto& st = As<ScoreHookState>(s);
          HookValue list = HookValue::List();
          AppendMelds(*st.position, st.side, &list);
          return list;
        }},
       {"red_threes", "cards", "the side's red threes laid out",
        [](const HookState& s) { return HookValue::Cards(RedThrees(As<ScoreHookState>(s))); }},
       {"red_three_count", "integer", "how many",
        [](const HookState& s) {
          return HookValue::Int(int(RedThrees(As<ScoreHookState>(s)).size()));
        }},
       {"went_out", "boolean", "the side went out",
        [](const HookState& s) { return HookValue::Bool(As<ScoreHookState>(s).went_out); }},
       {"concealed", "boolean", "it went out concealed",
        [](const HookState& s) { return HookValue::Bool(As<ScoreHookState>(s).concealed); }},
       {"ended", "string", "how the hand ended: \"out\", \"stock\" or \"unfinished\"",
        [](const HookState& s) { return HookValue::String(As<ScoreHookState>(s).ended); }},
       {"out_player", "integer", "the seat that went out (nil if nobody)",
        [](const HookState& s) {
          const int seat = As<ScoreHookState>(s).position->went_out();
          return seat >= 0 ? HookValue::Int(seat) : HookValue();
        }},
       {"hands", "list", "the cards left in each of the side's players' hands",
        [](const HookState& s) {
          const auto& st = As<ScoreHookState>(s);
          HookValue hands = HookValue::List();
          for (int seat = 0; seat < st.position->num_players(); ++seat)
            if (st.position->side_of(seat) == st.side)
              hands.Append(HookValue::Cards(st.position->hand(seat).ToVector()));
          return hands;
        }},
       {"opened", "boolean", "the side made a meld this hand",
        [](const HookState& s) { return HookValue::Bool(As<ScoreHookState>(s).opened); }},
       {"parts", "table", "the engine's breakdown, by part name",
        [](const HookState& s) {
          const ScoreBreakdown& b = *As<ScoreHookState>(s).breakdown;
          HookValue parts = HookValue::Table();
          parts.Reserve(BreakdownParts().size() + b.extra.size());
          for (const BreakdownPart& p : BreakdownParts())
            parts.Set(p.name, HookValue::Int(b.*p.field));
          // The names live in the breakdown, which outlives the call.
          for (const auto& [name, value] : b.extra) parts.Set(name.c_str(), HookValue::Int(value));
          return parts;
        }},
       {"total", "integer", "the side's total before this hand",
        [](const HookState& s) {
          const auto& st = As<ScoreHookState>(s);
          return HookValue::Int(st.position->totals()[size_t(st.side)]);
        }}}});
  specs.push_back(HookSpec{
      HookId::kTieBreak, "tie_break", "tie_break(ctx, rules)", HookResult::kSide, 0, 0,
      "nil (the parameter exact_tie decides) or the winning side's number",
      "When the game is over and the top totals tie (000 §19).",
      "tie_break = function(ctx, rules)\n"
      "  -- the side with more canastas over the game wins\n"
      "  if ctx.canastas[1] ~= ctx.canastas[2] then\n"
      "    return ctx.canastas[1] > ctx.canastas[2] and 0 or 1\n  end\nend",
      {{"totals", "list", "every side's final total, by side + 1",
        [](const HookState& s) { return Ints(*As<TieBreakHookState>(s).totals); }},
       {"tied", "list", "the sides that tie for the lead (side numbers)",
        [](const HookState& s) { return Ints(*As<TieBreakHookState>(s).tied); }},
       {"canastas", "list", "canastas made over the game, by side + 1",
        [](const HookState& s) {
          const auto& st = As<TieBreakHookState>(s);
          HookValue list = HookValue::List();
          for (size_t side = 0; side < st.totals->size(); ++side)
            list.Append(HookValue::Int(side < st.canastas->size() ? (*st.canastas)[side] : 0));
          return list;
        }},
       {"hands", "integer", "hands played",
        [](const HookState& s) { return HookValue::Int(As<TieBreakHookState>(s).hands); }}}});
  return specs;
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
