// The rule values of a ruleset, with the classic values (seed 000 §1-§19) as
// defaults. Every difference between rulesets is a value here or a hook in
// RuleHooks (hooks.h); the engine has no code path keyed on a ruleset's name.
//
// Each parameter is documented once, in VisitParams() below: its name (as Lua
// rulesets and `canasta rules show` spell it), its source and what it means.
#ifndef CANASTA_CORE_RULES_H_
#define CANASTA_CORE_RULES_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/card.h"

namespace canasta {

// One line of the minimum-count table: totals >= from_total need `minimum`.
struct MinimumBand {
  int from_total;
  int minimum;
  bool operator==(const MinimumBand& o) const {
    return from_total == o.from_total && minimum == o.minimum;
  }
};

// A set of ranks (a rank-set parameter; Lua writes it as a list such as
// {"7", "A"}).
struct RankSet {
  uint16_t bits = 0;
  bool Contains(Rank r) const { return (bits >> int(r)) & 1; }
  void Add(Rank r) { bits = uint16_t(bits | (1u << int(r))); }
  bool empty() const { return bits == 0; }
  bool operator==(const RankSet& o) const { return bits == o.bits; }
  bool operator!=(const RankSet& o) const { return bits != o.bits; }
};

// Which cards keep the upcard turning (bit set).
enum UpcardTrigger : uint8_t {
  kTriggerJoker = 1,
  kTriggerTwo = 2,
  kTriggerRedThree = 4,
  kTriggerBlackThree = 8,
};

// Whether `card` is one of the cards in `mask` (000 §6: a joker, two or three
// turned up calls for another card).
bool IsUpcardTrigger(Card card, uint8_t mask);

enum class ThreeLayout : uint8_t {
  kFirstTurn,      // 000 §7: in the player's first turn (readings R6).
  kBeforePlay,     // Hutto (000 §21): after the deal, in seat order (readings R23).
  kImmediately,    // 002 Setup-7: at once, before play, any order.
};

enum class UnfrozenTake : uint8_t {
  kPairOrNaturalWildOrAdd,  // 000 §13 ¶1-2 (readings R2).
  kTwoNaturalsFromHand,     // 002 Play-4 (readings R25).
  kNaturalPair,   // house rule: a natural pair from the hand, nothing else with it.
  kPairOrMeld,    // house rule: a natural pair, or the top card onto the side's meld.
  kPairOrWild,    // house rule: a natural pair, or one natural and one wild card.
};

// How long a freezing card keeps the pile frozen (000 §14: until the pile is taken).
enum class PileFreeze : uint8_t {
  kUntilTaken,    // 000 §14
  kUntilCovered,  // house rule: only while the freezing card is on top.
};

enum class WildDiscard : uint8_t {
  kAllowed,            // 000 §14, 004 L28.
  kOnlyIfNoOtherCard,  // 002 Play-8 read as readings R26.
  kNever,
};

enum class BlackThreeMeld : uint8_t {
  kGeneralRules,       // 000 §8 states no composition (readings R19).
  kThreeOrFourNoWild,  // 002 Play-7, 004 L26.
  kNever,              // 001 L48.
  kAnyTime,            // house rule: at any time, as three or four with no wild card.
};

// Whose total sets a side's initial-meld minimum (000 §8 uses the side's own).
enum class MinimumBy : uint8_t {
  kOwnTotal,       // 000 §8
  kLeadingTotal,   // the highest total at the table (a house rule)
  kTrailingTotal,  // the lowest
};

// "May I go out?" (000 §17: "Players do not have to ask permission").
enum class AskToGoOut : uint8_t {
  kOptional,    // 000 §17
  kRequired,    // house rule: going out without asking is a finding
  kNotAllowed,  // house rule: asking is a finding
};

enum class ExactTie : uint8_t {
  kPlayAnotherDeal,  // readings R17 recommendation.
  kDraw,
};

// Who deals the next hand (000 §6: the deal passes to the left).
enum class DealerRotation : uint8_t {
  kLeft,   // 000 §6: the next seat (seat + 1)
  kRight,  // house rule: the previous seat
  kNone,   // house rule: the same dealer all game
};

// Who plays first in a hand (000 §11: the player at the dealer's left).
enum class FirstPlayer : uint8_t {
  kDealerLeft,   // 000 §11
  kDealer,       // house rule
  kDealerRight,  // house rule
};

// What the initial meld must include besides the count (001 L35, L108).
enum class InitialMeldCondition : uint8_t {
  kCountOnly,               // 000 §8: the count alone
  kNaturalThreeOrWildMeld,  // 001 L35
  kNaturalThree,            // 001 L108: a wild meld alone does not qualify
  kThreeNaturals,           // 001 L108: a meld holding three natural cards
};

// How play goes on once the stock is gone (000 §15).
enum class StockOutPlay : uint8_t {
  kWhileTaking,     // 000 §15, 001 L76: while each player in turn takes the discard
  kEndsAtLastCard,  // house rule: the discard after drawing the last stock card ends play
};

// Where the ace stands in a sequence (002 L67, L75 leave it open; readings R115).
enum class SequenceAce : uint8_t {
  kHigh,    // above the king: ... Q K A
  kLow,     // below the lowest sequence rank: A 4 5 ... with sequence_lowest 4
  kEither,  // at either end, never both (no wrapping round)
};

// When a player whose hand is emptied picks up the foot (002 L71, foot_size).
enum class FootPickup : uint8_t {
  kAtOnce,    // as the hand is emptied (readings R116)
  kNextTurn,  // at the start of the player's next turn, before drawing
};

// "A special hand is 14 cards" (001 L65): the hand held after the draw.
constexpr int kSpecialHandCards = 14;

struct Rules {
  // --- Players, pack, deal ---
  int num_players = 4;         // 000 §5
  int decks = 2;               // 000 §1
  int jokers = 4;              // 000 §1
  int hand_size = 11;          // 000 §6
  int upcards = 1;             // 000 §6: one card starts the pile.
  uint8_t upcard_first_triggers =
      kTriggerJoker | kTriggerTwo | kTriggerRedThree | kTriggerBlackThree;
  uint8_t upcard_more_triggers =
      kTriggerJoker | kTriggerTwo | kTriggerRedThree | kTriggerBlackThree;
  bool upcard_specials_to_stock = false;  // 002 Setup-6 buries them.
  ThreeLayout three_layout = ThreeLayout::kFirstTurn;
  int foot_size = 0;  // 002 L71; 0: no foot
  FootPickup foot_pickup = FootPickup::kAtOnce;

  // --- Turn ---
  int stock_draw = 1;                // 000 §12
  bool must_take_when_stock_out = true;  // 000 §15 (readings R12)
  StockOutPlay stock_out_play = StockOutPlay::kWhileTaking;  // 000 §15

  // --- Card values (000 §3), indexed by Rank; red three is a bonus card ---
  std::array<int, 16> card_value = {0,  0,  20, 5,  5,  5,  5,  5,
                                    10, 10, 10, 10, 10, 10, 20, 50};

  // --- Melds (000 §8, §9) ---
  int min_meld_size = 3;
  int max_meld_size = 0;  // 0: no maximum.
  int min_naturals = 2;
  bool naturals_must_outnumber_wilds = true;  // readings R1
  int max_wilds_incomplete = 3;               // readings R1
  int max_wilds_completed = -1;               // -1: no cap (000 §9, readings R1)
  bool wild_melds = false;                    // 000 §8
  // 001 L63 (readings R40): one unfinished wild meld per side, wild cards
  // elsewhere only once it is a canasta, then a second one may be started.
  bool one_unfinished_wild_meld = false;
  int wilds_need_naturals = 0;        // 001 L25 (readings R40); 0: no rule of five
  RankSet no_wild_ranks;              // 001 L59
  RankSet wild_only_in_initial_meld_ranks;  // 001 L60 (readings R41)
  bool natural_canasta_closes_rank = false;  // 001 L28, L41 (readings R39)
  BlackThreeMeld black_three_meld = BlackThreeMeld::kGeneralRules;  // readings R19
  // --- Sequence melds (escalera; 002 L67, L75; readings R115) ---
  bool sequence_melds = false;       // 000 §8: "Sequences are not valid melds"
  int sequence_min_length = 3;       // 002 L67: "three or more consecutive cards"
  int sequence_max_length = 0;       // 0: no maximum
  int sequence_lowest = 4;           // lowest rank a sequence holds (pip 3..13)
  SequenceAce sequence_ace = SequenceAce::kHigh;
  int sequence_max_wilds = 0;        // wild cards standing in a sequence
  int sequence_canasta_bonus = 0;    // 002 L67: 1,500; 0: as a natural or mixed canasta
  int sequence_canastas_to_go_out = 0;  // of the canastas to go out, sequences
  int canasta_size = 7;
  int natural_canasta_bonus = 500;
  int mixed_canasta_bonus = 300;

  // --- Initial meld (000 §8, §10) ---
  std::vector<MinimumBand> minimum_table = {
      {-1000000000, 15}, {0, 50}, {1500, 90}, {3000, 120}};
  MinimumBy minimum_by = MinimumBy::kOwnTotal;
  bool jokers_count_toward_minimum = true;   // Hutto: false (readings R22)
  bool top_card_counts_toward_minimum = true;  // 000 §8 (readings R31)
  bool insufficient_meld_penalties = true;     // 2p-000: false
  int retract_all_minimum_increase = 10;       // 000 §10 (readings R15)
  int partial_retract_penalty = 100;           // 000 §10
  int illegal_meld_penalty = 100;              // 000 §10
  // --- Initial meld (v2): 001 L35-L36, L42, L108, L111, L113 (readings R46) ---
  bool each_meld_meets_minimum = false;    // house rule
  InitialMeldCondition initial_meld_condition = InitialMeldCondition::kCountOnly;
  bool initial_meld_before_pile = false;   // 001 L42
  bool pile_in_initial_meld_turn = true;   // 000 §13; 001 L111: false
  bool splash_opens = false;               // 001 L36
  bool splash_companions_need_minimum = false;  // 001 L113

  // --- Discard pile (000 §13, §14) ---
  bool frozen_before_initial_meld = true;
  bool black_three_blocks_until_covered = true;
  UnfrozenTake unfrozen_take = UnfrozenTake::kPairOrNaturalWildOrAdd;
  bool frozen_take_new_meld = false;  // 002 Play-5
  bool one_card_rule = true;          // readings R11
  WildDiscard wild_discard = WildDiscard::kAllowed;
  // --- Discards (001 L44-L46) ---
  bool wild_discard_to_go_out = false;         // 001 L45, L74
  bool threes_discardable = true;              // 000 §14 (black threes); 001 L44
  bool empty_pile_discard_restricted = false;  // 001 L46 (SWAD), readings R45
  // Ranks avoided on an empty pile (1: avoided), indexed by Rank: sevens,
  // twos, aces and jokers (001 L46).
  std::array<int, 16> empty_pile_avoid = {0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1};

  // --- Pile (v2) ---
  // What freezes the pile and for how long (000 §14), whether a wild card on
  // top blocks, and whether the top card may go into the hand.
  bool wild_freezes_pile = true;          // 000 §14
  bool red_three_freezes_pile = true;     // 000 §14 (a red three turned as upcard)
  bool black_three_freezes_pile = false;  // 000 §14, readings R4: it only blocks
  PileFreeze pile_freeze_lasts = PileFreeze::kUntilTaken;  // 000 §14
  bool wild_top_blocks_take = true;       // 000 §14
  bool pile_top_to_hand = false;          // house rule: top card to hand

  // --- Going out (000 §17) ---
  // "May I go out?": 000 §17 bars it "after melding or after showing an
  // intention to take the discard pile"; 002 Play-11 allows it any time
  // "Before going out" (readings R109).
  bool ask_out_after_melding = false;
  // A yes binds the player to go out; 002 L47: "if they genuinely cannot,
  // there is no penalty, but they must meld as much as possible before
  // discarding" (readings R105).
  bool out_yes_excused_if_impossible = false;
  int canastas_to_go_out = 1;
  bool discard_required_to_go_out = false;
  int going_out_bonus = 100;
  int concealed_going_out_bonus = 0;  // 0: no such bonus (002: 200)

  // --- Melds, discards, going out (v2) ---
  bool last_discard_goes_out = true;                  // 000 §17
  AskToGoOut ask_to_go_out = AskToGoOut::kOptional;   // 000 §17
  bool out_answer_binds = true;                       // 000 §17
  int out_without_asking_penalty = 0;                 // house rule
  bool ask_out_once_per_hand = false;                 // 001 L75, readings R48
  bool keep_a_card = false;                           // 001 L21, readings R38

  // --- Red threes (000 §7, §18) ---
  int red_three_bonus = 100;
  int all_red_threes_bonus = 800;  // the whole set, not per card (readings R8)
  bool red_threes_count_against_unmelded = true;
  int undeclared_red_three_penalty = 500;

  // --- Threes, bonus cards, scoring (v2; 001) ---
  bool black_threes_laid_out = false;    // 001 L20, L48: every three is laid out
  int threes_kept_before_meld = 0;       // 001 L57, readings R43
  std::vector<int> three_values;         // 001 L49-L51; empty: red_three_bonus per card
  bool three_sign_by_canastas = false;   // 001 L52-L57
  int turn_card_from_bottom = 0;         // 001 L18; 0: no turn card
  int bonus_cards_first = 0;             // 001 L37, readings R47
  int bonus_cards_second = 0;            // 001 L37
  std::array<int, 16> natural_canasta_bonus_by_rank{};   // 001 L90-L91; 0: natural_canasta_bonus
  int wild_canasta_bonus = 0;            // 001 L94; 0: scored as a mixed canasta
  int wild_canasta_twos_bonus = 0;       // 001 L92
  int wild_canasta_all_jokers_bonus = 0; // 001 L93
  std::array<int, 16> unfinished_natural_meld_penalty{};  // 001 L98-L99
  int unfinished_wild_meld_penalty = 0;             // 001 L100
  int unfinished_wild_meld_all_jokers_penalty = 0;  // 001 L101
  std::array<int, 16> caught_holding_penalty{};     // 001 L61, L102-L103, readings R49
  int caught_holding_count = 3;                     // 001 L61
  bool melded_counts_against_without_canasta = false;  // 001 L84

  // --- Special hands (001 L65-L71, L79; readings R42, R44): the value of
  // each, 0 where the ruleset has no such hand ---
  int special_hand_straight = 0;         // 001 L68
  int special_hand_pairs_natural = 0;    // 001 L69
  int special_hand_pairs_with_twos = 0;  // 001 L70
  int special_hand_garbage = 0;          // 001 L71

  // --- Game (000 §19) ---
  int target_score = 5000;
  ExactTie exact_tie = ExactTie::kPlayAnotherDeal;  // readings R17

  // --- Scoring, game and deal (v2) ---
  DealerRotation dealer_rotation = DealerRotation::kLeft;  // 000 §6
  FirstPlayer first_player = FirstPlayer::kDealerLeft;     // 000 §11

  // --- Derived values ---
  int num_sides() const { return num_players == 4 ? 2 : num_players; }
  int side_of(int seat) const { return seat % num_sides(); }
  bool partnerships() const { return num_players == 4; }
  int pack_size() const { return decks * 52 + jokers; }
  bool feet() const { return foot_size > 0; }
  // Whether a special hand may be declared at all (any value set).
  bool special_hands() const {
    return special_hand_straight > 0 || special_hand_pairs_natural > 0 ||
           special_hand_pairs_with_twos > 0 || special_hand_garbage > 0;
  }
  int copies(Card c) const { return c.is_joker() ? jokers : decks; }
  // A three laid out in front of the side (000 §7: red; 001 L20: every three).
  bool IsLaidOutThree(Card c) const {
    return c.is_red_three() || (black_threes_laid_out && c.is_black_three());
  }
  int LaidOutThreesIn(const CardCounts& cards) const {
    // Every discard asks it: the red threes, and the black ones where they
    // are laid out too (IsLaidOutThree), without a loop.
    int n = cards.count(Card(Rank::kThree, Suit::kHearts)) +
            cards.count(Card(Rank::kThree, Suit::kDiamonds));
    if (black_threes_laid_out)
      n += cards.count(Card(Rank::kThree, Suit::kSpades)) +
           cards.count(Card(Rank::kThree, Suit::kClubs));
    return n;
  }
  // The threes table's value for `n` threes of one colour (three_values).
  int ThreeValue(int n) const {
    if (n <= 0 || three_values.empty()) return 0;
    return three_values[size_t(std::min<int>(n, int(three_values.size())) - 1)];
  }
  int value(Card c) const {
    if (c.is_red_three()) return red_three_bonus;
    return card_value[int(c.rank())];
  }
  int MinimumFor(int total) const;
  // The total the minimum table is read at for a side whose own total is
  // `own`, given every side's (minimum_by); `own` when totals is null.
  int MinimumBasis(int own, const std::vector<int>* totals) const;
  // The seat that deals `hands_later` hands after `dealer` (dealer_rotation).
  int DealerAfter(int dealer, int hands_later = 1) const;
  // The seat that plays first in a hand `dealer` deals (first_player).
  int FirstPlayerOf(int dealer) const;
  // How the deal passes, for a finding: "to the left", ...
  const char* DealerRotationWords() const;

  // --- Citations ---
  // The ruleset's own source for a parameter (its file's `sources`, e.g.
  // "002 Play-11"), shared by copies; empty for the engine's defaults. A
  // finding decided by a parameter cites the ruleset's source for it, so
  // that an audit under jaques cites 002 where 002 states the rule.
  using Citations = std::vector<std::pair<std::string, std::string>>;
  std::shared_ptr<const Citations> citations;
  void SetCitation(const std::string& param, const std::string& source);
  // The ruleset's citation for `param`, or `fallback`: the source the
  // engine gives the finding under its own (classic) rules.
  std::string Cite(std::string_view param, std::string_view fallback) const;
  // The citation keys of the rules no parameter decides ("rule.turn_order",
  // ...), which a ruleset's `sources` may cite besides parameter names
  // (docs/lua-api.md, `sources`). Every key the engine passes to Cite().
  static const std::vector<std::string>& RuleKeys();

  // Returns a message for the first inconsistent value, or "" when the
  // parameters make a playable game. Checked once, when a ruleset is built.
  std::string Validate() const;
};

// Describes every parameter once. A visitor gets, for each field, its name,
// a reference to it, its source and a one-line meaning. Used by the Lua
// loader, `rules show` and `rules diff`.
struct ParamInfo {
  const char* name;
  const char* source;
  const char* doc;
};

// The names of the values of each enum, in order, as Lua spells them.
const std::vector<std::string>& EnumNames(ThreeLayout);
const std::vector<std::string>& EnumNames(UnfrozenTake);
const std::vector<std::string>& EnumNames(PileFreeze);
const std::vector<std::string>& EnumNames(WildDiscard);
const std::vector<std::string>& EnumNames(BlackThreeMeld);
const std::vector<std::string>& EnumNames(ExactTie);
const std::vector<std::string>& EnumNames(MinimumBy);
const std::vector<std::string>& EnumNames(AskToGoOut);
const std::vector<std::string>& EnumNames(DealerRotation);
const std::vector<std::string>& EnumNames(FirstPlayer);
const std::vector<std::string>& EnumNames(InitialMeldCondition);
const std::vector<std::string>& EnumNames(StockOutPlay);
const std::vector<std::string>& EnumNames(SequenceAce);
const std::vector<std::string>& EnumNames(FootPickup);

template <class Visitor>
void VisitParams(Rules& r, Visitor&& v) {
  v(ParamInfo{"num_players", "000 §5", "players at the table; 4 play as two partnerships"}, r.num_players);
  v(ParamInfo{"decks", "000 §1", "52-card decks in the pack"}, r.decks);
  v(ParamInfo{"jokers", "000 §1", "jokers in the pack"}, r.jokers);
  v(ParamInfo{"hand_size", "000 §6", "cards dealt to each player"}, r.hand_size);
  v(ParamInfo{"upcards", "000 §6", "cards turned up to start the pile (0: the pile starts empty)"}, r.upcards);
  v(ParamInfo{"upcard_first_triggers", "000 §6, readings R4", "bit set (1 joker, 2 two, 4 red three, 8 black three): a first upcard of these makes more cards turn"}, r.upcard_first_triggers);
  v(ParamInfo{"upcard_more_triggers", "000 §6, readings R4", "bit set as above: turning goes on while the newest card is one of these"}, r.upcard_more_triggers);
  v(ParamInfo{"upcard_specials_to_stock", "002 Setup-6", "the special upcards are buried in the stock instead of staying in the pile"}, r.upcard_specials_to_stock);
  v(ParamInfo{"three_layout", "000 §7, readings R6", "when dealt red threes are laid out: first_turn, before_play (seat order from dealer's left), immediately"}, r.three_layout);
  v(ParamInfo{"foot_size", "002 L71, readings R116", "cards in each player's foot, a second pile dealt face down beside the hand and picked up once the hand is emptied; until then the player cannot go out, and cards in a foot not picked up count against the side like cards in hand (0: no foot)"}, r.foot_size);
  v(ParamInfo{"foot_pickup", "002 L71, readings R116", "when the foot is picked up (a `foot` event): at_once (as the hand is emptied; emptied by melding, the player plays on from the foot in the same turn; emptied by the discard, the turn still ends), next_turn (at the start of the player's next turn, before drawing; a hand emptied by melding ends the turn)"}, r.foot_pickup);
  v(ParamInfo{"stock_draw", "000 §12", "cards drawn from the stock in a turn"}, r.stock_draw);
  v(ParamInfo{"must_take_when_stock_out", "000 §15, readings R12", "with the stock gone, a player must take a discard that fits an unfinished meld of the side"}, r.must_take_when_stock_out);
  v(ParamInfo{"stock_out_play", "000 §15, 001 L76; ends_at_last_card: house rule", "play once the stock is gone: while_taking (each player in turn takes the discard, or play ends), ends_at_last_card (play ends with the discard of the player who drew the last stock card, or when that player cannot discard)"}, r.stock_out_play);
  v(ParamInfo{"card_value", "000 §3", "point value of each rank (index 2..15: two..ace, joker); red threes use red_three_bonus"}, r.card_value);
  v(ParamInfo{"min_meld_size", "000 §8", "fewest cards in a new meld"}, r.min_meld_size);
  v(ParamInfo{"max_meld_size", "000 §9", "most cards in a meld (0: no maximum)"}, r.max_meld_size);
  v(ParamInfo{"min_naturals", "000 §8", "fewest natural cards in a meld"}, r.min_naturals);
  v(ParamInfo{"naturals_must_outnumber_wilds", "000 §8, readings R1", "a meld must hold more natural cards than wild cards"}, r.naturals_must_outnumber_wilds);
  v(ParamInfo{"max_wilds_incomplete", "000 §8, readings R1", "most wild cards in a meld that is not a completed canasta"}, r.max_wilds_incomplete);
  v(ParamInfo{"max_wilds_completed", "000 §9, readings R1", "most wild cards in a completed canasta (-1: no cap)"}, r.max_wilds_completed);
  v(ParamInfo{"wild_melds", "000 §8", "melds of wild cards alone are allowed"}, r.wild_melds);
  v(ParamInfo{"one_unfinished_wild_meld", "001 L63, readings R40", "a side holds at most one unfinished meld of wild cards; while it is unfinished no other meld of the side takes a wild card; once it is a canasta a new one may be started"}, r.one_unfinished_wild_meld);
  v(ParamInfo{"wilds_need_naturals", "001 L25, readings R40", "rule of five: after the side's initial-meld turn a wild card joins a rank meld only once it holds this many natural cards, and no new meld takes one (0: no such rule)"}, r.wilds_need_naturals);
  v(ParamInfo{"no_wild_ranks", "001 L59", "ranks whose melds never hold a wild card (a list of ranks)"}, r.no_wild_ranks);
  v(ParamInfo{"wild_only_in_initial_meld_ranks", "001 L60, readings R41", "ranks whose melds take wild cards only in the side's initial-meld turn (a list of ranks)"}, r.wild_only_in_initial_meld_ranks);
  v(ParamInfo{"natural_canasta_closes_rank", "001 L28, L41, readings R39", "once a side completes a natural canasta of a rank, no side melds that rank any more and a card of it on top of the pile cannot be taken"}, r.natural_canasta_closes_rank);
  v(ParamInfo{"black_three_meld", "000 §8, readings R19", "when and how black threes are melded: general_rules (going out), three_or_four_no_wild (going out), never, any_time (house rule: any turn, three or four with no wild card)"}, r.black_three_meld);
  // --- Sequence melds (002 L67, L75) ---
  v(ParamInfo{"sequence_melds", "002 L67, L75; 000 §8", "sequences of one suit (escaleras) may be melded beside rank melds: three or more consecutive cards of one suit; a meld event part whose natural cards are of several ranks, or with \"as\":\"sequence\", is one"}, r.sequence_melds);
  v(ParamInfo{"sequence_min_length", "002 L67", "cards in a new sequence, at least"}, r.sequence_min_length);
  v(ParamInfo{"sequence_max_length", "readings R115", "cards a sequence may hold (0: no maximum)"}, r.sequence_max_length);
  v(ParamInfo{"sequence_lowest", "readings R115", "the lowest rank a sequence holds, as a pip (3..13; 11 J, 12 Q, 13 K); the ace stands as sequence_ace says"}, r.sequence_lowest);
  v(ParamInfo{"sequence_ace", "readings R115", "where the ace stands in a sequence: high (above the king), low (below sequence_lowest), either (one end or the other, never wrapping round)"}, r.sequence_ace);
  v(ParamInfo{"sequence_max_wilds", "readings R115", "wild cards a sequence may hold, each standing for a missing card of it"}, r.sequence_max_wilds);
  v(ParamInfo{"sequence_canasta_bonus", "002 L67, L75", "bonus for a sequence of canasta_size cards or more (0: scored as natural_canasta_bonus or mixed_canasta_bonus)"}, r.sequence_canasta_bonus);
  v(ParamInfo{"sequence_canastas_to_go_out", "readings R115", "of the canastas the side needs to go out, how many must be sequences"}, r.sequence_canastas_to_go_out);
  v(ParamInfo{"canasta_size", "000 §9", "cards in a canasta"}, r.canasta_size);
  v(ParamInfo{"natural_canasta_bonus", "000 §9, §18", "bonus for a canasta without wild cards"}, r.natural_canasta_bonus);
  v(ParamInfo{"mixed_canasta_bonus", "000 §9, §18", "bonus for a canasta with wild cards"}, r.mixed_canasta_bonus);
  v(ParamInfo{"minimum_table", "000 §8, readings R24", "initial-meld minimum by the side's total: bands {from_total, minimum}"}, r.minimum_table);
  v(ParamInfo{"minimum_by", "000 §8", "whose total sets a side's minimum: own_total, leading_total (the highest at the table), trailing_total"}, r.minimum_by);
  v(ParamInfo{"jokers_count_toward_minimum", "000 §21 Hutto, readings R22", "jokers count toward the initial-meld minimum"}, r.jokers_count_toward_minimum);
  v(ParamInfo{"top_card_counts_toward_minimum", "000 §8, readings R31", "the top discard taken counts toward the initial-meld minimum"}, r.top_card_counts_toward_minimum);
  v(ParamInfo{"insufficient_meld_penalties", "000 §10, §21", "retracting an insufficient initial meld is penalised"}, r.insufficient_meld_penalties);
  v(ParamInfo{"retract_all_minimum_increase", "000 §10, readings R15", "rise of the side's minimum for the deal after retracting a whole insufficient meld"}, r.retract_all_minimum_increase);
  v(ParamInfo{"partial_retract_penalty", "000 §10", "penalty for retracting only part of an insufficient meld"}, r.partial_retract_penalty);
  v(ParamInfo{"illegal_meld_penalty", "000 §10", "penalty for retracting an illegal meld"}, r.illegal_meld_penalty);
  v(ParamInfo{"each_meld_meets_minimum", "house rule", "each meld of the initial meld must reach the minimum by itself, instead of their sum"}, r.each_meld_meets_minimum);
  v(ParamInfo{"initial_meld_condition", "001 L35, L108, readings R46", "what the initial meld must include besides the count: count_only, natural_three_or_wild_meld (a meld of three or more natural cards and no wild card, or of three or more wild cards), natural_three (the natural meld only), three_naturals (a meld holding three natural cards)"}, r.initial_meld_condition);
  v(ParamInfo{"initial_meld_before_pile", "001 L42, readings R46", "before the side has melded, the initial meld is laid complete from the hand before the pile is taken (take_pile \"before\"); the pair and the top card never count toward it"}, r.initial_meld_before_pile);
  v(ParamInfo{"pile_in_initial_meld_turn", "000 §13; 001 L111", "the pile may be taken in the turn of the side's initial meld (false: a side that has not melded never takes it)"}, r.pile_in_initial_meld_turn);
  v(ParamInfo{"splash_opens", "001 L36, readings R46", "a complete natural canasta (or wild canasta, where wild melds exist) laid whole from the hand makes the initial meld with no minimum and no condition"}, r.splash_opens);
  v(ParamInfo{"splash_companions_need_minimum", "001 L113, readings R46", "the other melds laid with a splash must reach the minimum by themselves"}, r.splash_companions_need_minimum);
  v(ParamInfo{"frozen_before_initial_meld", "000 §14", "the pile is frozen for a side that has not made its initial meld"}, r.frozen_before_initial_meld);
  v(ParamInfo{"black_three_blocks_until_covered", "000 §14", "a black three on top blocks the next player until covered"}, r.black_three_blocks_until_covered);
  v(ParamInfo{"unfrozen_take", "000 §13, readings R2, R25", "how an unfrozen pile is taken: pair_or_natural_wild_or_add, two_naturals_from_hand, natural_pair (a natural pair only), pair_or_meld (a natural pair, or the top card onto the side's meld), pair_or_wild (a natural pair, or a natural and a wild card)"}, r.unfrozen_take);
  v(ParamInfo{"frozen_take_new_meld", "002 Play-5", "a frozen pile is taken with exactly a natural pair: the three cards form a new meld (joined to the side's meld of that rank, readings R18)"}, r.frozen_take_new_meld);
  v(ParamInfo{"one_card_rule", "000 §17, readings R11", "a player holding one card may not take a pile of one card"}, r.one_card_rule);
  // --- Pile (v2) ---
  v(ParamInfo{"wild_freezes_pile", "000 §14", "a wild card in the pile freezes it"}, r.wild_freezes_pile);
  v(ParamInfo{"red_three_freezes_pile", "000 §14", "a red three in the pile (turned as upcard) freezes it"}, r.red_three_freezes_pile);
  v(ParamInfo{"black_three_freezes_pile", "000 §14, readings R4", "a black three in the pile freezes it (classic: it only blocks while on top)"}, r.black_three_freezes_pile);
  v(ParamInfo{"pile_freeze_lasts", "000 §14", "how long a freezing card freezes the pile: until_taken, until_covered (only while it is on top)"}, r.pile_freeze_lasts);
  v(ParamInfo{"wild_top_blocks_take", "000 §14", "a wild card on top of the pile blocks taking it until covered"}, r.wild_top_blocks_take);
  v(ParamInfo{"pile_top_to_hand", "house rule: top card to hand", "the top card may be taken into the hand with the pile (take_pile \"to_hand\"), then must be melded before the turn ends"}, r.pile_top_to_hand);
  v(ParamInfo{"wild_discard", "000 §14, readings R26", "wild cards may be discarded: allowed, only_if_no_other_card, never"}, r.wild_discard);
  v(ParamInfo{"wild_discard_to_go_out", "001 L45, L74", "the final discard of a player going out may be a wild card whatever wild_discard says"}, r.wild_discard_to_go_out);
  v(ParamInfo{"threes_discardable", "000 §14; 001 L44", "black threes may be discarded (red threes never are); false: no three is ever discarded"}, r.threes_discardable);
  v(ParamInfo{"empty_pile_discard_restricted", "001 L46, readings R45", "on an empty pile a player holding a card not in empty_pile_avoid must discard one of those (SWAD)"}, r.empty_pile_discard_restricted);
  v(ParamInfo{"empty_pile_avoid", "001 L46, readings R45", "rank table, 1 for each rank not to be discarded on an empty pile while the player holds another card (sevens, twos, aces, jokers)"}, r.empty_pile_avoid);
  v(ParamInfo{"ask_out_after_melding", "000 §17, R109", "\"may I go out?\" may be asked at any time of the turn before going out, also after melding or taking the pile"}, r.ask_out_after_melding);
  v(ParamInfo{"out_yes_excused_if_impossible", "000 §17, R105", "after a yes to \"may I go out?\" a player who cannot go out is excused, but must meld as much as possible before discarding"}, r.out_yes_excused_if_impossible);
  v(ParamInfo{"canastas_to_go_out", "000 §9, §17", "canastas the side needs to go out (counting one made in going out)"}, r.canastas_to_go_out);
  v(ParamInfo{"discard_required_to_go_out", "000 §17, readings R29", "going out needs a final discard"}, r.discard_required_to_go_out);
  v(ParamInfo{"going_out_bonus", "000 §18", "bonus for going out"}, r.going_out_bonus);
  v(ParamInfo{"concealed_going_out_bonus", "002 Scoring, readings R29", "bonus for going out concealed, instead of going_out_bonus (0: no such bonus)"}, r.concealed_going_out_bonus);
  // --- Melds, discards, going out (v2) ---
  v(ParamInfo{"last_discard_goes_out", "000 §17", "discarding the last card goes out (false, a house rule: a player goes out only by melding every card)"}, r.last_discard_goes_out);
  v(ParamInfo{"ask_to_go_out", "000 §17; house rule", "asking \"may I go out?\" in partnership play: optional (000 §17), required (going out without asking is a finding), not_allowed (asking is a finding)"}, r.ask_to_go_out);
  v(ParamInfo{"out_answer_binds", "000 §17", "the partner's answer binds: a yes obliges the asker to go out, a no forbids it (false, a house rule: advice only)"}, r.out_answer_binds);
  v(ParamInfo{"out_without_asking_penalty", "house rule", "points the side loses when a player goes out without asking \"may I go out?\" (partnership play; the score's penalties part)"}, r.out_without_asking_penalty);
  v(ParamInfo{"ask_out_once_per_hand", "001 L75, readings R48", "each player may ask \"may I go out?\" at most once in a hand"}, r.ask_out_once_per_hand);
  v(ParamInfo{"keep_a_card", "001 L21, readings R38", "a player who is not going out may not meld down to a single card (must keep two: one to discard, one to hold)"}, r.keep_a_card);
  v(ParamInfo{"red_three_bonus", "000 §7, §18", "bonus for each red three"}, r.red_three_bonus);
  v(ParamInfo{"all_red_threes_bonus", "000 §7, §18, readings R8", "bonus for every red three of the pack (two a deck: all four with two decks, all six with three, 002 L75), in total"}, r.all_red_threes_bonus);
  v(ParamInfo{"red_threes_count_against_unmelded", "000 §7", "red threes count against a side that made no meld"}, r.red_threes_count_against_unmelded);
  v(ParamInfo{"undeclared_red_three_penalty", "000 §7, readings R20", "penalty for a red three still in hand when play ends"}, r.undeclared_red_three_penalty);
  // --- Threes, bonus cards, scoring (v2; 001) ---
  v(ParamInfo{"black_threes_laid_out", "001 L20, L48", "black threes are laid out and replaced like red ones (a `three` event), never melded or discarded"}, r.black_threes_laid_out);
  v(ParamInfo{"threes_kept_before_meld", "001 L57, readings R43", "threes a player may keep in hand while the side has not melded; once it has, they are laid out at the holder's next turn"}, r.threes_kept_before_meld);
  v(ParamInfo{"three_values", "001 L48-L51", "the threes table: points for 1, 2, ... threes of one colour, red and black looked up separately and added; a three left in hand counts card_value[\"3\"] against ({}: red_three_bonus per red three)"}, r.three_values);
  v(ParamInfo{"three_sign_by_canastas", "001 L52-L57", "threes count against a side with no canasta, nothing with one, for it with two or more (instead of red_threes_count_against_unmelded)"}, r.three_sign_by_canastas);
  v(ParamInfo{"turn_card_from_bottom", "001 L18", "the turn card's place from the bottom of the stock (0: no turn card); it is still in the stock while that many cards remain"}, r.turn_card_from_bottom);
  v(ParamInfo{"bonus_cards_first", "001 L37, readings R47", "cards drawn after the discard by the player who makes the first initial meld of the hand while the turn card is in the stock"}, r.bonus_cards_first);
  v(ParamInfo{"bonus_cards_second", "001 L37, readings R47", "the same, for an initial meld made after another side's"}, r.bonus_cards_second);
  v(ParamInfo{"natural_canasta_bonus_by_rank", "001 L90-L91", "bonus for a natural canasta of a rank, by rank (0: natural_canasta_bonus)"}, r.natural_canasta_bonus_by_rank);
  v(ParamInfo{"wild_canasta_bonus", "001 L94", "bonus for a canasta of wild cards alone (0: scored as mixed_canasta_bonus)"}, r.wild_canasta_bonus);
  v(ParamInfo{"wild_canasta_twos_bonus", "001 L92", "bonus for a wild canasta of twos alone (0: wild_canasta_bonus)"}, r.wild_canasta_twos_bonus);
  v(ParamInfo{"wild_canasta_all_jokers_bonus", "001 L93", "bonus for a wild canasta holding every joker of the pack (0: wild_canasta_bonus)"}, r.wild_canasta_all_jokers_bonus);
  v(ParamInfo{"unfinished_natural_meld_penalty", "001 L59-L60, L98-L99, readings R51", "penalty for each natural meld of a rank left short of a canasta, by rank (0: none); part penalties"}, r.unfinished_natural_meld_penalty);
  v(ParamInfo{"unfinished_wild_meld_penalty", "001 L63, L100, readings R51", "penalty for a meld of wild cards left short of a canasta (part penalties)"}, r.unfinished_wild_meld_penalty);
  v(ParamInfo{"unfinished_wild_meld_all_jokers_penalty", "001 L63, L101", "the same when it holds every joker of the pack (0: unfinished_wild_meld_penalty)"}, r.unfinished_wild_meld_all_jokers_penalty);
  v(ParamInfo{"caught_holding_penalty", "001 L61, L85, readings R49", "penalty for each player holding caught_holding_count or more cards of a rank at the end, by rank (0: none); kinds add up; part penalties"}, r.caught_holding_penalty);
  v(ParamInfo{"caught_holding_count", "001 L61", "cards of one rank in a hand that make a player caught holding them"}, r.caught_holding_count);
  v(ParamInfo{"melded_counts_against_without_canasta", "001 L84", "the melded cards of a side with no canasta count against it"}, r.melded_counts_against_without_canasta);
  // --- Special hands (001 L65-L71) ---
  v(ParamInfo{"special_hand_straight", "001 L68, readings R42", "value of the straight: one card of each rank ace to king (a two and a three among them) and one joker (0: not a special hand here)"}, r.special_hand_straight);
  v(ParamInfo{"special_hand_pairs_natural", "001 L69, readings R42", "value of seven pairs with no wild card, each of another rank 4 to A (sevens and aces allowed; 0: not a special hand here)"}, r.special_hand_pairs_natural);
  v(ParamInfo{"special_hand_pairs_with_twos", "001 L70, readings R42", "value of seven pairs of seven ranks one of which is a pair of twos, no joker (0: not a special hand here)"}, r.special_hand_pairs_with_twos);
  v(ParamInfo{"special_hand_garbage", "001 L71, readings R42", "value of garbage: four cards of each of two ranks and three of each of two more (ranks 4 to A, or twos), no joker (0: not a special hand here)"}, r.special_hand_garbage);
  v(ParamInfo{"target_score", "000 §19", "total that ends the game"}, r.target_score);
  v(ParamInfo{"exact_tie", "000 §19, readings R17", "when the totals tie at the end: play_another_deal, draw (the hook tie_break may decide first)"}, r.exact_tie);
  // --- Scoring, game and deal (v2) ---
  v(ParamInfo{"dealer_rotation", "000 §6; right, none: house rule", "who deals the next hand: left (the next seat), right (the previous seat), none (the same dealer)"}, r.dealer_rotation);
  v(ParamInfo{"first_player", "000 §11; dealer, dealer_right: house rule", "who plays first: dealer_left, dealer, dealer_right"}, r.first_player);
}

}  // namespace canasta

#endif  // CANASTA_CORE_RULES_H_
