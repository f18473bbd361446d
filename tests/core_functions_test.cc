// Direct unit tests of public functions of core/ that other tests reach only
// through the auditor or the move generator: each is called by name here, its
// results checked against the rule it implements or its header's contract.
#include <gtest/gtest.h>

#include <climits>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/bots.h"
#include "core/card.h"
#include "core/hook_api.h"
#include "core/hooks.h"
#include "core/legal_moves.h"
#include "core/meld.h"
#include "core/position.h"
#include "core/rng.h"
#include "core/rules.h"
#include "core/scoring.h"
#include "core/special_hand.h"
#include "core/suggest.h"
#include "core/utf8.h"
#include "scripting/lua_hooks.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::Cs;

CardCounts CountsOf(const std::vector<std::string>& cards) {
  CardCounts counts;
  for (Card c : Cs(cards)) counts.Add(c);
  return counts;
}

// ===========================================================================
// core/rules.h

// 000 §6: a joker, a two or a three turned up calls for another card; each
// class counts only when its bit is in the mask.
TEST(RulesFunctions, UpcardTriggerFollowsTheMask000S6) {
  const uint8_t all = kTriggerJoker | kTriggerTwo | kTriggerRedThree | kTriggerBlackThree;
  for (const char* card : {"JK", "2C", "2H", "3H", "3D", "3S", "3C"})
    EXPECT_TRUE(IsUpcardTrigger(C(card), all)) << card;
  for (const char* card : {"4H", "7S", "TD", "KC", "AS"})
    EXPECT_FALSE(IsUpcardTrigger(C(card), all)) << card;
  for (const char* card : {"JK", "2C", "3H", "3S"})
    EXPECT_FALSE(IsUpcardTrigger(C(card), 0)) << card;

  // One class at a time: only its own cards trigger.
  EXPECT_TRUE(IsUpcardTrigger(Card::Joker(), kTriggerJoker));
  EXPECT_FALSE(IsUpcardTrigger(C("2S"), kTriggerJoker));
  EXPECT_TRUE(IsUpcardTrigger(C("2S"), kTriggerTwo));
  EXPECT_FALSE(IsUpcardTrigger(Card::Joker(), kTriggerTwo));
  EXPECT_TRUE(IsUpcardTrigger(C("3D"), kTriggerRedThree));
  EXPECT_FALSE(IsUpcardTrigger(C("3C"), kTriggerRedThree));
  EXPECT_TRUE(IsUpcardTrigger(C("3C"), kTriggerBlackThree));
  EXPECT_FALSE(IsUpcardTrigger(C("3H"), kTriggerBlackThree));
  // A mask without the joker bit still lets twos and threes through.
  EXPECT_FALSE(IsUpcardTrigger(Card::Joker(), all & ~kTriggerJoker));
  EXPECT_TRUE(IsUpcardTrigger(C("2D"), all & ~kTriggerJoker));
}

// 000 §7: red threes are laid out; 001 L20: with black_threes_laid_out every
// three is.
TEST(RulesFunctions, LaidOutThreesAreRedOrEveryThree000S7And001L20) {
  Rules classic;
  EXPECT_TRUE(classic.IsLaidOutThree(C("3H")));
  EXPECT_TRUE(classic.IsLaidOutThree(C("3D")));
  EXPECT_FALSE(classic.IsLaidOutThree(C("3S")));
  EXPECT_FALSE(classic.IsLaidOutThree(C("3C")));
  EXPECT_FALSE(classic.IsLaidOutThree(C("4H")));
  EXPECT_FALSE(classic.IsLaidOutThree(Card::Joker()));

  Rules every = classic;
  every.black_threes_laid_out = true;
  for (const char* three : {"3H", "3D", "3S", "3C"}) EXPECT_TRUE(every.IsLaidOutThree(C(three)));
  EXPECT_FALSE(every.IsLaidOutThree(C("4S")));
  EXPECT_FALSE(every.IsLaidOutThree(C("2C")));
}

TEST(RulesFunctions, LaidOutThreesInCountsEveryCopy) {
  // Two 3H, one 3D, one 3S, two 3C and cards that are no threes.
  const CardCounts cards = CountsOf({"3H", "3H", "3D", "3S", "3C", "3C", "KS", "2H", "JK", "4D"});
  Rules classic;
  EXPECT_EQ(classic.LaidOutThreesIn(cards), 3);  // the red ones
  Rules every;
  every.black_threes_laid_out = true;
  EXPECT_EQ(every.LaidOutThreesIn(cards), 6);
  EXPECT_EQ(every.LaidOutThreesIn(CardCounts()), 0);
  EXPECT_EQ(every.LaidOutThreesIn(CountsOf({"KS", "4H"})), 0);
}

// 001 L48-L51 (docs/lua-api.md, three_values): the value for n threes of a
// colour; a count past the list takes its last value; no table: 0.
TEST(RulesFunctions, ThreeValueReadsTheThreesTable001L48) {
  Rules r;
  EXPECT_EQ(r.ThreeValue(1), 0);  // empty table
  EXPECT_EQ(r.ThreeValue(4), 0);
  r.three_values = {100, 300, 500, 1000};  // modern-american.lua
  EXPECT_EQ(r.ThreeValue(0), 0);
  EXPECT_EQ(r.ThreeValue(-2), 0);
  EXPECT_EQ(r.ThreeValue(1), 100);
  EXPECT_EQ(r.ThreeValue(2), 300);
  EXPECT_EQ(r.ThreeValue(3), 500);
  EXPECT_EQ(r.ThreeValue(4), 1000);
  EXPECT_EQ(r.ThreeValue(5), 1000);
  EXPECT_EQ(r.ThreeValue(INT_MAX), 1000);
}

// 000 §8 reads the minimum at the side's own total; minimum_by (a house rule)
// at the leading or the trailing total of the table.
TEST(RulesFunctions, MinimumBasisByOwnLeadingOrTrailingTotal000S8) {
  const std::vector<int> totals = {1200, 3100, -40};
  Rules r;
  ASSERT_EQ(r.minimum_by, MinimumBy::kOwnTotal);
  EXPECT_EQ(r.MinimumBasis(1200, &totals), 1200);
  EXPECT_EQ(r.MinimumBasis(1200, nullptr), 1200);

  r.minimum_by = MinimumBy::kLeadingTotal;
  EXPECT_EQ(r.MinimumBasis(1200, &totals), 3100);
  EXPECT_EQ(r.MinimumFor(r.MinimumBasis(1200, &totals)), 120);  // 000 §8: 3000 or more
  EXPECT_EQ(r.MinimumBasis(1200, nullptr), 1200);               // no totals: the side's own
  const std::vector<int> none;
  EXPECT_EQ(r.MinimumBasis(1200, &none), 1200);

  r.minimum_by = MinimumBy::kTrailingTotal;
  EXPECT_EQ(r.MinimumBasis(1200, &totals), -40);
  EXPECT_EQ(r.MinimumFor(r.MinimumBasis(1200, &totals)), 15);  // 000 §8: minus score
  const std::vector<int> one = {700};
  EXPECT_EQ(r.MinimumBasis(1200, &one), 700);
}

// 000 §6: the deal passes to the left (the next seat); right and none are
// house rules.
TEST(RulesFunctions, DealerAfterGoesLeftByDefault000S6) {
  Rules r;  // four players
  EXPECT_EQ(r.DealerAfter(0), 1);
  EXPECT_EQ(r.DealerAfter(2), 3);
  EXPECT_EQ(r.DealerAfter(3), 0);  // round the table
  EXPECT_EQ(r.DealerAfter(1, 0), 1);
  EXPECT_EQ(r.DealerAfter(1, 3), 0);
  EXPECT_EQ(r.DealerAfter(1, 4), 1);
  EXPECT_EQ(r.DealerAfter(1, 9), 2);
  // A count from a log may be huge: INT_MAX = 4k + 3.
  EXPECT_EQ(r.DealerAfter(1, INT_MAX), 0);

  r.num_players = 3;
  EXPECT_EQ(r.DealerAfter(2), 0);
  EXPECT_EQ(r.DealerAfter(0, 2), 2);
}

// 000 §5: partners sit opposite, so seats 0 and 2 are one side and 1 and 3
// the other; without partnerships each seat is a side of its own (000 §21).
TEST(RulesFunctions, SideOfPairsOppositeSeats_000S5) {
  Rules r;  // four players
  EXPECT_EQ(r.side_of(0), 0);
  EXPECT_EQ(r.side_of(1), 1);
  EXPECT_EQ(r.side_of(2), 0);
  EXPECT_EQ(r.side_of(3), 1);
  EXPECT_EQ(r.num_sides(), 2);
  for (int players : {2, 3, 6}) {
    r.num_players = players;
    EXPECT_EQ(r.num_sides(), players);
    for (int seat = 0; seat < players; ++seat) EXPECT_EQ(r.side_of(seat), seat) << players;
  }
}

TEST(RulesFunctions, DealerAfterGoesRightOrStays) {
  Rules r;
  r.dealer_rotation = DealerRotation::kRight;
  EXPECT_EQ(r.DealerAfter(0), 3);
  EXPECT_EQ(r.DealerAfter(3), 2);
  EXPECT_EQ(r.DealerAfter(2, 2), 0);
  EXPECT_EQ(r.DealerAfter(1, 3), 2);        // 1 -> 0 -> 3 -> 2
  EXPECT_EQ(r.DealerAfter(1, INT_MAX), 2);  // INT_MAX = 4k + 3
  r.num_players = 6;
  EXPECT_EQ(r.DealerAfter(0), 5);

  r.dealer_rotation = DealerRotation::kNone;
  for (int later : {0, 1, 5, INT_MAX}) EXPECT_EQ(r.DealerAfter(4, later), 4) << later;
}

TEST(RulesFunctions, DealerRotationWordsNameEachRotation) {
  Rules r;
  EXPECT_STREQ(r.DealerRotationWords(), "the deal passes to the left");
  r.dealer_rotation = DealerRotation::kRight;
  EXPECT_STREQ(r.DealerRotationWords(), "the deal passes to the right");
  r.dealer_rotation = DealerRotation::kNone;
  EXPECT_STREQ(r.DealerRotationWords(), "the same player deals every hand");
}

// A finding decided by a parameter cites the ruleset's source for it, else
// the engine's own (rules.h, "Citations").
TEST(RulesFunctions, SetCitationIsWhatCiteReturns) {
  Rules r;
  EXPECT_EQ(r.Cite("wild_discard", "000 §14"), "000 §14");  // engine defaults: no citations

  r.SetCitation("wild_discard", "002 Play-8");
  EXPECT_EQ(r.Cite("wild_discard", "000 §14"), "002 Play-8");
  EXPECT_EQ(r.Cite("going_out_bonus", "000 §18"), "000 §18");  // another parameter

  r.SetCitation("going_out_bonus", "002 Scoring");
  r.SetCitation("wild_discard", "004 L28");  // a second call replaces the first
  EXPECT_EQ(r.Cite("wild_discard", "000 §14"), "004 L28");
  EXPECT_EQ(r.Cite("going_out_bonus", "000 §18"), "002 Scoring");
  ASSERT_TRUE(r.citations);
  EXPECT_EQ(r.citations->size(), 2u);

  r.SetCitation("target_score", "");  // an empty source cites the fallback
  EXPECT_EQ(r.Cite("target_score", "000 §19"), "000 §19");
}

TEST(RulesFunctions, SetCitationLeavesCopiesAlone) {
  Rules a;
  a.SetCitation("wild_discard", "002 Play-8");
  const Rules b = a;  // shares a's citations
  a.SetCitation("wild_discard", "004 L28");
  a.SetCitation("target_score", "002 Scoring");
  EXPECT_EQ(b.Cite("wild_discard", "x"), "002 Play-8");
  EXPECT_EQ(b.Cite("target_score", "x"), "x");
  EXPECT_EQ(a.Cite("wild_discard", "x"), "004 L28");
}

// The names Lua rulesets spell, in enum order (docs/lua-api.md).
TEST(RulesFunctions, EnumNamesAreInEnumOrder) {
  EXPECT_EQ(EnumNames(DealerRotation()), (std::vector<std::string>{"left", "right", "none"}));
  EXPECT_EQ(EnumNames(DealerRotation())[int(DealerRotation::kRight)], "right");
  EXPECT_EQ(EnumNames(MinimumBy()),
            (std::vector<std::string>{"own_total", "leading_total", "trailing_total"}));
  EXPECT_EQ(EnumNames(WildDiscard()),
            (std::vector<std::string>{"allowed", "only_if_no_other_card", "never"}));
  EXPECT_EQ(EnumNames(SequenceAce()), (std::vector<std::string>{"high", "low", "either"}));
  EXPECT_EQ(EnumNames(FootPickup()), (std::vector<std::string>{"at_once", "next_turn"}));
  EXPECT_EQ(EnumNames(FirstPlayer()),
            (std::vector<std::string>{"dealer_left", "dealer", "dealer_right"}));
  EXPECT_EQ(
      EnumNames(BlackThreeMeld()),
      (std::vector<std::string>{"general_rules", "three_or_four_no_wild", "never", "any_time"}));
  // One name for each value, the last value included.
  EXPECT_EQ(EnumNames(UnfrozenTake()).size(), size_t(UnfrozenTake::kPairOrWild) + 1);
  EXPECT_EQ(EnumNames(UnfrozenTake())[int(UnfrozenTake::kTwoNaturalsFromHand)],
            "two_naturals_from_hand");
  EXPECT_EQ(EnumNames(InitialMeldCondition()).size(),
            size_t(InitialMeldCondition::kThreeNaturals) + 1);
  EXPECT_EQ(EnumNames(StockOutPlay())[int(StockOutPlay::kEndsAtLastCard)], "ends_at_last_card");
}

// ===========================================================================
// core/scoring.h

// The parts as canasta-log/1's `breakdown` spells them (docs/log-format.md),
// each name tied to its own field.
TEST(ScoringFunctions, BreakdownPartsNameEachField) {
  const std::vector<BreakdownPart>& parts = BreakdownParts();
  std::vector<std::string> names;
  for (const BreakdownPart& p : parts) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"canastas", "red_threes", "going_out", "melded",
                                             "in_hand", "penalties", "house", "special_hand"}));
  ScoreBreakdown b;
  b.canastas = 1;
  b.red_threes = 2;
  b.going_out = 3;
  b.melded = 4;
  b.in_hand = 5;
  b.penalties = 6;
  b.house = 7;
  b.special_hand = 8;
  for (size_t i = 0; i < parts.size(); ++i) EXPECT_EQ(b.*parts[i].field, int(i) + 1) << names[i];
}

TEST(ScoringFunctions, EmptyBreakdownHoldsTheRulesetsPartsAtZero) {
  const ScoreBreakdown b = EmptyBreakdown({"bonus_cards", "jokers_left"});
  ASSERT_EQ(b.extra.size(), 2u);
  EXPECT_EQ(b.extra[0], (std::pair<std::string, int>("bonus_cards", 0)));
  EXPECT_EQ(b.extra[1], (std::pair<std::string, int>("jokers_left", 0)));
  EXPECT_EQ(b.total(), 0);
  for (const BreakdownPart& p : BreakdownParts()) EXPECT_EQ(b.*p.field, 0) << p.name;
  ASSERT_NE(b.Find("jokers_left"), nullptr);
  EXPECT_EQ(*b.Find("jokers_left"), 0);
  EXPECT_EQ(b.Find("jokers"), nullptr);
  EXPECT_TRUE(EmptyBreakdown({}) == ScoreBreakdown());
  EXPECT_FALSE(EmptyBreakdown({"x"}) == ScoreBreakdown());
}

// Held to [-INT_MAX, INT_MAX] so that a result can be negated.
TEST(ScoringFunctions, SaturateClampsToPlusOrMinusIntMax) {
  EXPECT_EQ(Saturate(0), 0);
  EXPECT_EQ(Saturate(-2500), -2500);
  EXPECT_EQ(Saturate(INT_MAX), INT_MAX);
  EXPECT_EQ(Saturate(int64_t{INT_MAX} + 1), INT_MAX);
  EXPECT_EQ(Saturate(INT64_MAX), INT_MAX);
  EXPECT_EQ(Saturate(-int64_t{INT_MAX}), -INT_MAX);
  EXPECT_EQ(Saturate(INT_MIN), -INT_MAX);  // not INT_MIN: it has no negation
  EXPECT_EQ(Saturate(INT64_MIN), -INT_MAX);
  EXPECT_EQ(SaturatingAdd(INT_MIN + 1, -5), -INT_MAX);
  EXPECT_EQ(SaturatingAdd(300, -500), -200);
}

// ===========================================================================
// core/special_hand.h (001 L68-L71)

TEST(SpecialHandFunctions, NamesOfTheFourHands001L68) {
  EXPECT_STREQ(SpecialHandName(SpecialHandKind::kStraight), "a straight");
  EXPECT_STREQ(SpecialHandName(SpecialHandKind::kPairsNatural), "seven natural pairs");
  EXPECT_STREQ(SpecialHandName(SpecialHandKind::kPairsWithTwos), "seven pairs with twos");
  EXPECT_STREQ(SpecialHandName(SpecialHandKind::kGarbage), "garbage");
}

TEST(SpecialHandFunctions, ValueIsTheRulesetsParameterForEachHand) {
  Rules r;
  for (SpecialHandKind k : {SpecialHandKind::kStraight, SpecialHandKind::kPairsNatural,
                            SpecialHandKind::kPairsWithTwos, SpecialHandKind::kGarbage})
    EXPECT_EQ(SpecialHandValue(r, k), 0);  // classic has none
  r.special_hand_straight = 1000;
  r.special_hand_pairs_natural = 1500;
  r.special_hand_pairs_with_twos = 2000;
  r.special_hand_garbage = 2500;
  EXPECT_EQ(SpecialHandValue(r, SpecialHandKind::kStraight), 1000);
  EXPECT_EQ(SpecialHandValue(r, SpecialHandKind::kPairsNatural), 1500);
  EXPECT_EQ(SpecialHandValue(r, SpecialHandKind::kPairsWithTwos), 2000);
  EXPECT_EQ(SpecialHandValue(r, SpecialHandKind::kGarbage), 2500);
}

// ===========================================================================
// core/suggest.h

TEST(SuggestFunctions, EditDistanceCountsInsertionsDeletionsSubstitutions) {
  EXPECT_EQ(EditDistance("", ""), 0);
  EXPECT_EQ(EditDistance("abc", ""), 3);
  EXPECT_EQ(EditDistance("", "abc"), 3);
  EXPECT_EQ(EditDistance("hand_size", "hand_size"), 0);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);  // k->s, e->i, +g
  EXPECT_EQ(EditDistance("sitting", "kitten"), 3);
  EXPECT_EQ(EditDistance("flaw", "lawn"), 2);                 // -f, +n
  EXPECT_EQ(EditDistance("wild_dicard", "wild_discard"), 1);  // one insertion
  EXPECT_EQ(EditDistance("decks", "deck"), 1);                // one deletion
  EXPECT_EQ(EditDistance("jokers", "jokars"), 1);             // one substitution
  EXPECT_EQ(EditDistance("ab", "ba"), 2);                     // no transpositions in Levenshtein
}

TEST(SuggestFunctions, NearestNameBelowTheLimit) {
  const std::vector<std::string> known = {"decks", "jokers", "hand_size", "upcards"};
  EXPECT_EQ(NearestName("joker", known), "jokers");
  EXPECT_EQ(NearestName("hand_sise", known), "hand_size");
  EXPECT_EQ(NearestName("upcard", known), "upcards");
  EXPECT_EQ(NearestName("stock_draw", known), "");  // nothing near
  EXPECT_EQ(NearestName("joker", {}), "");
  // The limit is exclusive: "decs" is 1 from "decks".
  EXPECT_EQ(NearestName("decs", known, 2), "decks");
  EXPECT_EQ(NearestName("decs", known, 1), "");
  // The nearest wins over an earlier, farther name; a tie keeps the first.
  EXPECT_EQ(NearestName("abcd", {"abxy", "abcx"}), "abcx");
  EXPECT_EQ(NearestName("abc", {"abx", "aby"}), "abx");
}

// ===========================================================================
// core/utf8.h (RFC 3629)

size_t Len(std::string_view s) { return Utf8SequenceLength(s, 0); }

// The escaping of outside text (the text report's and canasta.log's): the
// controls a terminal acts on, by code point; the rest as is.
TEST(Utf8Functions, AppendPrintableEscapesControlsAndBadBytes) {
  auto printable = [](std::string_view text) {
    std::string out = "<";
    AppendPrintable(&out, text);
    return out;
  };
  EXPECT_EQ(printable("plain caf\xc3\xa9"), "<plain caf\xc3\xa9");
  EXPECT_EQ(printable("a\nb\rc\td\x1b[2J\x7f"), "<a\\nb\\rc\\td\\x1b[2J\\x7f");
  EXPECT_EQ(printable("\xc2\x9b|\x9b"), "<\\u009b|\\x9b");  // C1 as UTF-8, a raw byte
  EXPECT_EQ(printable("\xe2\x80\xa8\xe2\x81\xa9"), "<\\u2028\\u2069");
  EXPECT_TRUE(IsControlCodePoint(0x9f));
  EXPECT_TRUE(IsControlCodePoint(0x202e));
  EXPECT_FALSE(IsControlCodePoint(0xa0));
  EXPECT_FALSE(IsControlCodePoint(U'\u20ac'));
}

TEST(Utf8Functions, SequenceLengthOfWellFormedSequences) {
  EXPECT_EQ(Len("a"), 1u);
  EXPECT_EQ(Len(std::string_view("\0", 1)), 1u);
  EXPECT_EQ(Len("\x7F"), 1u);
  EXPECT_EQ(Len("\xC2\x80"), 2u);          // U+0080, the lowest 2-byte
  EXPECT_EQ(Len("\xC3\xA9"), 2u);          // é
  EXPECT_EQ(Len("\xDF\xBF"), 2u);          // U+07FF
  EXPECT_EQ(Len("\xE0\xA0\x80"), 3u);      // U+0800, the lowest 3-byte
  EXPECT_EQ(Len("\xE2\x82\xAC"), 3u);      // €
  EXPECT_EQ(Len("\xED\x9F\xBF"), 3u);      // U+D7FF, just below the surrogates
  EXPECT_EQ(Len("\xEE\x80\x80"), 3u);      // U+E000, just above them
  EXPECT_EQ(Len("\xEF\xBF\xBF"), 3u);      // U+FFFF
  EXPECT_EQ(Len("\xF0\x90\x80\x80"), 4u);  // U+10000, the lowest 4-byte
  EXPECT_EQ(Len("\xF0\x9F\x83\x8F"), 4u);  // the playing-card joker
  EXPECT_EQ(Len("\xF4\x8F\xBF\xBF"), 4u);  // U+10FFFF, the highest
  // From the middle of a string.
  EXPECT_EQ(Utf8SequenceLength("ab\xC3\xA9", 2), 2u);
}

TEST(Utf8Functions, SequenceLengthRefusesIllFormedSequences) {
  // Overlong forms.
  EXPECT_EQ(Len("\xC0\x80"), 0u);
  EXPECT_EQ(Len("\xC1\xBF"), 0u);
  EXPECT_EQ(Len("\xE0\x80\x80"), 0u);
  EXPECT_EQ(Len("\xE0\x9F\xBF"), 0u);
  EXPECT_EQ(Len("\xF0\x80\x80\x80"), 0u);
  EXPECT_EQ(Len("\xF0\x8F\xBF\xBF"), 0u);
  // Surrogates U+D800..U+DFFF.
  EXPECT_EQ(Len("\xED\xA0\x80"), 0u);
  EXPECT_EQ(Len("\xED\xBF\xBF"), 0u);
  // Above U+10FFFF.
  EXPECT_EQ(Len("\xF4\x90\x80\x80"), 0u);
  EXPECT_EQ(Len("\xF5\x80\x80\x80"), 0u);
  EXPECT_EQ(Len("\xF7\xBF\xBF\xBF"), 0u);
  EXPECT_EQ(Len("\xFF"), 0u);
  // A continuation byte with no lead.
  EXPECT_EQ(Len("\x80"), 0u);
  EXPECT_EQ(Len("\xBF"), 0u);
  // Cut short, at the end of the string or by a byte that is no continuation.
  EXPECT_EQ(Len("\xC3"), 0u);
  EXPECT_EQ(Len("\xE2\x82"), 0u);
  EXPECT_EQ(Len("\xF0\x9F\x83"), 0u);
  EXPECT_EQ(Len("\xC3\x41"), 0u);
  EXPECT_EQ(Len("\xE2\x82\x41"), 0u);
  EXPECT_EQ(Len("\xF0\x9F\x83\xC3"), 0u);
  EXPECT_EQ(Utf8SequenceLength(std::string_view("\xE2\x82\xAC", 2), 0), 0u);
}

TEST(Utf8Functions, FindInvalidGivesTheFirstBadOffset) {
  constexpr size_t npos = std::string_view::npos;
  EXPECT_EQ(FindInvalidUtf8(""), npos);
  EXPECT_EQ(FindInvalidUtf8("plain ascii that is longer than eight bytes"), npos);
  EXPECT_EQ(FindInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x83\x8F"), npos);
  EXPECT_EQ(FindInvalidUtf8("\xFF"), 0u);
  EXPECT_EQ(FindInvalidUtf8("ab\xC0\x80"), 2u);
  // Past a run of ASCII read eight bytes at a time, and past valid sequences.
  EXPECT_EQ(FindInvalidUtf8("abcdefghijklmnop\xED\xA0\x80"), 16u);
  EXPECT_EQ(FindInvalidUtf8("abcdefgh\xC3\xA9ij\xF4\x90\x80\x80"), 12u);
  EXPECT_EQ(FindInvalidUtf8("\xE2\x82\xAC\x80"), 3u);     // a stray continuation byte
  EXPECT_EQ(FindInvalidUtf8("0123456789\xE2\x82"), 10u);  // cut short at the end
}

TEST(Utf8Functions, ShortenTextCutsLongTextBetweenCharacters) {
  EXPECT_EQ(ShortenText("", 4), "");
  EXPECT_EQ(ShortenText("abcd", 4), "abcd");  // exactly the limit: kept whole
  EXPECT_EQ(ShortenText("abcde", 4), "abcd ... (5 bytes in all)");
  // "é" is two bytes: never cut inside it.
  EXPECT_EQ(ShortenText("abc\xC3\xA9", 4), "abc ... (5 bytes in all)");
  EXPECT_EQ(ShortenText("ab\xC3\xA9z", 4), "ab\xC3\xA9 ... (5 bytes in all)");
  // A byte that begins no character counts as one.
  EXPECT_EQ(ShortenText("a\xFF\xFF"
                        "bc",
                        3),
            "a\xFF\xFF ... (5 bytes in all)");
}

TEST(Utf8Functions, FindInvalidStopsAtNulOnlyWhenAsked) {
  constexpr size_t npos = std::string_view::npos;
  const std::string early("abc\0defghijklmnop", 17);  // inside the first eight bytes
  const std::string late("0123456789ab\0def", 16);    // in the second eight
  bool nul = true;
  EXPECT_EQ(FindInvalidUtf8(early, false, &nul), npos);
  EXPECT_FALSE(nul);
  EXPECT_EQ(FindInvalidUtf8(early, true, &nul), 3u);
  EXPECT_TRUE(nul);
  EXPECT_EQ(FindInvalidUtf8(late, true, &nul), 12u);
  EXPECT_TRUE(nul);
  EXPECT_EQ(FindInvalidUtf8(std::string("x\0", 2), true, &nul), 1u);
  EXPECT_TRUE(nul);
  // An invalid byte before any NUL: found, and *nul says it is no NUL.
  EXPECT_EQ(FindInvalidUtf8(std::string("ab\xFF\0", 4), true, &nul), 2u);
  EXPECT_FALSE(nul);
  EXPECT_EQ(FindInvalidUtf8(std::string("ab\0", 3), true), 2u);  // nul may be null
}

TEST(Utf8Functions, IsValidUtf8) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("Schn\xC3\xA4pse \xE2\x82\xAC"));
  EXPECT_TRUE(IsValidUtf8(std::string("a\0b", 3)));  // NUL is valid UTF-8
  EXPECT_FALSE(IsValidUtf8("Schn\xC3"));
  EXPECT_FALSE(IsValidUtf8("\xED\xB0\x80"));
  EXPECT_FALSE(IsValidUtf8("ok so far, then \xC1\x81"));
}

// ===========================================================================
// core/meld.h (sequences: 002 L67, L75; readings R115)

TEST(MeldFunctions, SequenceSuitIsTheSuitOfTheNaturals) {
  EXPECT_EQ(SequenceSuit(Cs({"5H", "6H", "7H"})), Suit::kHearts);
  EXPECT_EQ(SequenceSuit(Cs({"JK", "2C", "9S", "TS"})), Suit::kSpades);  // wild cards skipped
  EXPECT_EQ(SequenceSuit(Cs({"2D", "JK"})), Suit::kNone);
  EXPECT_EQ(SequenceSuit({}), Suit::kNone);
}

Rules SequenceRules(SequenceAce ace, int max_wilds) {
  Rules r;
  r.sequence_melds = true;
  r.sequence_ace = ace;
  r.sequence_max_wilds = max_wilds;
  return r;  // sequence_lowest 4
}

// readings R115: the span of the naturals, wild cards placed above them
// first, then below once the top of the order (the ace, high) is reached.
TEST(MeldFunctions, SequenceSpanPlacesWildCardsAtTheTopFirstR115) {
  const Rules r = SequenceRules(SequenceAce::kHigh, 2);
  int low = -1, high = -1;
  ASSERT_TRUE(SequenceSpan(r, Cs({"5H", "6H", "7H"}), &low, &high));
  EXPECT_EQ(low, 5);
  EXPECT_EQ(high, 7);
  ASSERT_TRUE(SequenceSpan(r, Cs({"7H", "5H", "JK"}), &low, &high));  // the joker is the 6
  EXPECT_EQ(low, 5);
  EXPECT_EQ(high, 7);
  ASSERT_TRUE(SequenceSpan(r, Cs({"5H", "6H", "7H", "JK"}), &low, &high));
  EXPECT_EQ(low, 5);
  EXPECT_EQ(high, 8);
  ASSERT_TRUE(SequenceSpan(r, Cs({"JS", "2C", "JK"}), &low, &high));
  EXPECT_EQ(low, 11);
  EXPECT_EQ(high, 13);
  // No room above the ace: the spare wild card goes below.
  ASSERT_TRUE(SequenceSpan(r, Cs({"QS", "KS", "AS", "JK"}), &low, &high));
  EXPECT_EQ(low, 11);
  EXPECT_EQ(high, 14);
  ASSERT_TRUE(SequenceSpan(r, Cs({"KS", "2S", "JK"}), &low, &high));  // K with two above: one fits
  EXPECT_EQ(low, 12);
  EXPECT_EQ(high, 14);
}

TEST(MeldFunctions, SequenceSpanWithTheAceLowR115) {
  int low = -1, high = -1;
  // The ace high only: A 4 5 leaves a gap of 6..K.
  EXPECT_FALSE(
      SequenceSpan(SequenceRules(SequenceAce::kHigh, 0), Cs({"AH", "4H", "5H"}), &low, &high));
  // Low, the ace stands just below sequence_lowest (SequencePip in meld.cc,
  // and the move generator's `low == sequence_lowest - 1`).
  const Rules either = SequenceRules(SequenceAce::kEither, 2);
  ASSERT_TRUE(SequenceSpan(either, Cs({"AH", "4H", "5H"}), &low, &high));
  EXPECT_EQ(low, 3);
  EXPECT_EQ(high, 5);
  ASSERT_TRUE(SequenceSpan(either, Cs({"AH", "4H", "5H", "JK", "2D"}), &low, &high));
  EXPECT_EQ(low, 3);
  EXPECT_EQ(high, 7);
  // Either end, never both: Q K A stays high.
  ASSERT_TRUE(SequenceSpan(either, Cs({"QC", "KC", "AC"}), &low, &high));
  EXPECT_EQ(low, 12);
  EXPECT_EQ(high, 14);
  // Low only: the king is the top of the order.
  const Rules low_only = SequenceRules(SequenceAce::kLow, 1);
  EXPECT_FALSE(SequenceSpan(low_only, Cs({"QC", "KC", "AC"}), &low, &high));
  ASSERT_TRUE(SequenceSpan(low_only, Cs({"QC", "KC", "JK"}), &low, &high));
  EXPECT_EQ(low, 11);
  EXPECT_EQ(high, 13);
}

TEST(MeldFunctions, SequenceSpanRefusesWhatIsNoSequence) {
  const Rules r = SequenceRules(SequenceAce::kHigh, 1);
  int low = -1, high = -1;
  EXPECT_FALSE(SequenceSpan(r, Cs({"5H", "9H", "JK"}), &low, &high));  // gap of 3, one wild
  EXPECT_FALSE(SequenceSpan(r, Cs({"5H", "5H", "6H"}), &low, &high));  // a rank twice
  EXPECT_FALSE(SequenceSpan(r, Cs({"3H", "4H", "5H"}), &low, &high));  // below sequence_lowest
  EXPECT_FALSE(SequenceSpan(r, Cs({"JK", "2C"}), &low, &high));        // no natural
  EXPECT_EQ(low, -1);                                                  // left alone
  EXPECT_EQ(high, -1);
}

// ===========================================================================
// core/card.h

TEST(CardFunctions, CardCountsClearEmptiesEveryFace) {
  CardCounts cards = CountsOf({"KS", "KS", "JK", "3H", "7C"});
  ASSERT_EQ(cards.total(), 5);
  cards.Clear();
  EXPECT_EQ(cards.total(), 0);
  EXPECT_TRUE(cards.empty());
  EXPECT_EQ(cards.count(C("KS")), 0);
  EXPECT_EQ(cards.count(Card::Joker()), 0);
  for (int i = 0; i < kNumFaces; ++i) EXPECT_EQ(cards.count_at(i), 0) << i;
  EXPECT_TRUE(cards.Consistent());
  EXPECT_TRUE(cards.ToVector().empty());
  // Usable again after.
  cards.Add(C("7C"), 2);
  EXPECT_EQ(cards.total(), 2);
  EXPECT_EQ(cards.count(C("7C")), 2);
  EXPECT_EQ(cards.count(C("KS")), 0);

  CardCounts empty;
  empty.Clear();
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(empty.Consistent());
}

TEST(CardFunctions, CardCountsClearForgetsSaturation) {
  CardCounts cards;
  cards.Add(C("AS"), 300);  // a hostile log: capped at 255
  ASSERT_TRUE(cards.saturated());
  ASSERT_EQ(cards.total(), 255);
  cards.Clear();
  EXPECT_FALSE(cards.saturated());
  EXPECT_EQ(cards.count(C("AS")), 0);
  EXPECT_EQ(cards.total(), 0);
  EXPECT_TRUE(cards.Consistent());
}

TEST(CardFunctions, CardCountsCountAtIsTheCountByIndex) {
  const CardCounts cards = CountsOf({"KS", "KS", "JK", "2C"});
  EXPECT_EQ(cards.count_at(C("KS").index()), 2);
  EXPECT_EQ(cards.count_at(Card::Joker().index()), 1);
  EXPECT_EQ(cards.count_at(kNumFaces - 1), 1);  // the joker is the last face
  EXPECT_EQ(cards.count_at(C("2C").index()), 1);
  EXPECT_EQ(cards.count_at(C("KH").index()), 0);
  int sum = 0;
  for (int i = 0; i < kNumFaces; ++i) sum += cards.count_at(i);
  EXPECT_EQ(sum, 4);
}

// ===========================================================================
// core/hooks.h

TEST(HooksFunctions, DefaultHooksOverrideNothingAndNeverFail) {
  const RuleHooks& hooks = DefaultHooks();
  EXPECT_FALSE(hooks.OverridesAny());
  EXPECT_FALSE(hooks.HasFailures());
  EXPECT_TRUE(hooks.TakeFailures().empty());
  // The base class itself, as a subclass that overrides neither inherits it.
  const RuleHooks plain;
  EXPECT_FALSE(plain.OverridesAny());
  EXPECT_FALSE(plain.HasFailures());
  EXPECT_TRUE(plain.TakeFailures().empty());
}

// A native subclass marks the hooks it defines (hooks.h: SetOverridden).
class OneHook : public RuleHooks {
 public:
  explicit OneHook(HookId id) { SetOverridden(id); }
};

TEST(HooksFunctions, OverridesAnyOnceOneHookIsMarked) {
  for (int i = 0; i < kNumHooks; ++i) {
    const OneHook hooks{HookId(i)};
    EXPECT_TRUE(hooks.OverridesAny()) << GetHookSpec(HookId(i)).name;
    EXPECT_TRUE(hooks.Overrides(HookId(i)));
  }
  const OneHook last(HookId::kTieBreak);
  EXPECT_FALSE(last.Overrides(HookId::kInitialMeldValue));
}

std::unique_ptr<LuaHooks> LuaHooksOf(const std::string& hooks_table) {
  SandboxLimits limits;
  limits.instructions = 1'000'000;
  limits.seconds = 1.0;
  const std::string source = "return { hooks = {\n" + hooks_table + "\n} }";
  return std::make_unique<LuaHooks>(std::vector<LuaHooks::Chunk>{{"house.lua", source}}, limits);
}

TEST(HooksFunctions, LuaHooksOverrideWhatTheyDefine) {
  EXPECT_FALSE(LuaHooksOf("")->OverridesAny());
  EXPECT_TRUE(LuaHooksOf("may_discard = function(ctx, rules) end")->OverridesAny());
}

// TakeFailures gives the failures since the last call, each once (with its
// count); HasFailures is its cheap test.
TEST(HooksFunctions, TakeFailuresGivesEachFailureOnce) {
  auto lua = LuaHooksOf("may_discard = function(ctx, rules)\n  error(\"boom\")\nend");
  const RuleHooks& hooks = *lua;
  EXPECT_FALSE(hooks.HasFailures());
  const Rules rules;
  HookValue ctx = HookValue::Table();
  ctx.Set("card", HookValue::OfCard(C("7H")));
  EXPECT_FALSE(hooks.Call(HookId::kMayDiscard, ctx, rules).given);  // the engine's rule stands
  EXPECT_FALSE(hooks.Call(HookId::kMayDiscard, ctx, rules).given);
  EXPECT_TRUE(hooks.HasFailures());
  const std::vector<HookFailure> failures = hooks.TakeFailures();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].hook, "may_discard");
  EXPECT_EQ(failures[0].count, 2);
  EXPECT_EQ(failures[0].where, "house.lua:3");
  EXPECT_NE(failures[0].message.find("boom"), std::string::npos) << failures[0].message;
  EXPECT_FALSE(hooks.HasFailures());
  EXPECT_TRUE(hooks.TakeFailures().empty());
}

// ===========================================================================
// core/bots.h

TEST(BotsFunctions, MakeBotByName) {
  std::unique_ptr<Bot> random = MakeBot("random");
  ASSERT_NE(random, nullptr);
  EXPECT_STREQ(random->name(), "random");
  EXPECT_TRUE(random->uniform());
  EXPECT_FALSE(random->scored());
  std::unique_ptr<Bot> sensible = MakeBot("sensible");
  ASSERT_NE(sensible, nullptr);
  EXPECT_STREQ(sensible->name(), "sensible");
  EXPECT_TRUE(sensible->scored());
  EXPECT_FALSE(sensible->uniform());
  for (const char* unknown : {"", "Random", "greedy", "sensible "})
    EXPECT_EQ(MakeBot(unknown), nullptr) << "\"" << unknown << "\"";
}

// Plays deals on with `bot`, handing every position with its legal moves to
// visit(view, legal); the red threes due are laid first, unasked.
template <class Visit>
void WalkPositions(const Rules& rules, Bot& bot, int deals, Visit&& visit) {
  Rng rng(20240611);
  for (int deal = 0; deal < deals; ++deal) {
    Position pos(rules, DefaultHooks(), {0, 0});
    ASSERT_TRUE(pos.Deal(ShuffledDeal(rules, deal % rules.num_players, rng)).empty());
    for (int guard = 0; guard < 400; ++guard) {
      if (pos.phase() == Phase::kOver && DueThrees(pos, pos.current_player()).empty()) break;
      const std::vector<Move> legal = LegalMoves(pos);
      if (legal.empty()) break;
      const SeatView view(pos, pos.current_player());
      const bool threes = std::holds_alternative<ThreeMove>(legal[0]);
      if (pos.stock_size() == 0 && pos.phase() != Phase::kPlay && MayEndDeal(pos) && !threes) break;
      if (!threes) visit(view, legal);
      if (::testing::Test::HasFailure()) return;
      const size_t pick = threes ? 0 : bot.Choose(view, legal, rng);
      TaggedViolations v = pos.Play(legal[pick]);
      ASSERT_TRUE(v.empty()) << PlayKey(legal[pick]) << ": " << v[0].violation.message;
    }
  }
}

// Scorer(view) gives Score(view, m) for every move (bots.h), under classic
// rules and under 001-style end-of-hand penalties (001 L61, L98-L99), where
// the sensible bot's Scorer shares one model of the stakes.
TEST(BotsFunctions, SensibleScorerGivesTheScoresOfScore) {
  Rules punishing;
  for (Rank rank : {Rank::kAce, Rank::kSeven}) {
    punishing.unfinished_natural_meld_penalty[size_t(rank)] = 1000;
    punishing.caught_holding_penalty[size_t(rank)] = 500;
  }
  punishing.unfinished_wild_meld_penalty = 2000;
  ASSERT_EQ(punishing.Validate(), "");
  const Rules classic;
  std::unique_ptr<Bot> bot = MakeBot("sensible");
  for (const Rules* rules : {&classic, static_cast<const Rules*>(&punishing)}) {
    int moves = 0;
    WalkPositions(*rules, *bot, 3, [&](const SeatView& view, const std::vector<Move>& legal) {
      const std::function<double(const Move&)> scorer = bot->Scorer(view);
      for (const Move& m : legal) {
        EXPECT_EQ(scorer(m), bot->Score(view, m)) << PlayKey(m);
        ++moves;
      }
    });
    EXPECT_GT(moves, 100);
  }
}

// The base class's Scorer calls Score.
class SeatBot : public Bot {
 public:
  size_t Choose(const SeatView&, const std::vector<Move>&, Rng&) override { return 0; }
  const char* name() const override { return "seat"; }
  bool scored() const override { return true; }
  double Score(const SeatView& view, const Move& m) const override {
    return 10.0 * view.seat() + double(m.index()) + 0.5;
  }
};

TEST(BotsFunctions, DefaultScorerCallsScore) {
  SeatBot bot;
  const Rules rules;
  int moves = 0;
  WalkPositions(rules, bot, 1, [&](const SeatView& view, const std::vector<Move>& legal) {
    const std::function<double(const Move&)> scorer = bot.Scorer(view);
    for (const Move& m : legal) {
      EXPECT_EQ(scorer(m), 10.0 * view.seat() + double(m.index()) + 0.5);
      ++moves;
    }
  });
  EXPECT_GT(moves, 10);
}

// ===========================================================================
// core/hook_api.h

TEST(HookApiFunctions, GetHookSpecIsTheHooksOwnDescriptor) {
  const HookSpec& discard = GetHookSpec(HookId::kMayDiscard);
  EXPECT_EQ(discard.id, HookId::kMayDiscard);
  EXPECT_STREQ(discard.name, "may_discard");
  EXPECT_STREQ(discard.signature, "may_discard(ctx, rules)");
  EXPECT_EQ(discard.result, HookResult::kReason);
  EXPECT_TRUE(discard.v2);
  // The twelve fields of every turn hook, then its own two.
  ASSERT_EQ(discard.fields.size(), 14u);
  EXPECT_STREQ(discard.fields[0].name, "player");
  EXPECT_STREQ(discard.fields[12].name, "card");
  EXPECT_STREQ(discard.fields[13].name, "last_card");

  const HookSpec& canastas = GetHookSpec(HookId::kCanastasToGoOut);
  EXPECT_STREQ(canastas.name, "canastas_to_go_out");
  EXPECT_EQ(canastas.result, HookResult::kInteger);
  EXPECT_EQ(canastas.min, 0);
  EXPECT_EQ(canastas.max, 20);
  EXPECT_FALSE(canastas.v2);
  EXPECT_EQ(canastas.fields[0].read, nullptr);  // v1: positional arguments

  EXPECT_STREQ(GetHookSpec(HookId::kInitialMeldValue).name, "initial_meld_value");
  EXPECT_STREQ(GetHookSpec(HookId::kTieBreak).name, "tie_break");
  EXPECT_EQ(GetHookSpec(HookId::kTieBreak).result, HookResult::kSide);
}

// docs/lua-api.md: "2".."A", "wild" for a meld of wild cards only.
TEST(HookApiFunctions, HookRankNameSpellsRanksAsLuaDoes) {
  EXPECT_STREQ(HookRankName(Rank::kTwo), "2");
  EXPECT_STREQ(HookRankName(Rank::kThree), "3");
  EXPECT_STREQ(HookRankName(Rank::kNine), "9");
  EXPECT_STREQ(HookRankName(Rank::kTen), "T");
  EXPECT_STREQ(HookRankName(Rank::kJack), "J");
  EXPECT_STREQ(HookRankName(Rank::kQueen), "Q");
  EXPECT_STREQ(HookRankName(Rank::kKing), "K");
  EXPECT_STREQ(HookRankName(Rank::kAce), "A");
  EXPECT_STREQ(HookRankName(Rank::kJoker), "wild");
  EXPECT_STREQ(HookRankName(Rank::kSequence), "sequence");
}

TEST(HookApiFunctions, BoolAndStringValues) {
  const HookValue yes = HookValue::Bool(true), no = HookValue::Bool(false);
  EXPECT_EQ(yes.kind(), HookValue::Kind::kBool);
  EXPECT_TRUE(yes.boolean());
  EXPECT_EQ(no.kind(), HookValue::Kind::kBool);
  EXPECT_FALSE(no.boolean());
  const HookValue s = HookValue::String("discard");
  EXPECT_EQ(s.kind(), HookValue::Kind::kString);
  EXPECT_EQ(s.string(), "discard");
  EXPECT_EQ(HookValue::String("").kind(), HookValue::Kind::kString);  // not nil
  EXPECT_EQ(HookValue().kind(), HookValue::Kind::kNil);
}

HookValue PlusArg(const void* object, int arg) {
  return HookValue::Int(*static_cast<const int*>(object) + arg);
}

TEST(HookApiFunctions, LazyValueIsMadeOnResolve) {
  const int base = 40;
  const HookValue lazy = HookValue::Lazy(&PlusArg, &base, 2);
  EXPECT_EQ(lazy.kind(), HookValue::Kind::kLazy);
  const HookValue made = lazy.Resolve();
  EXPECT_EQ(made.kind(), HookValue::Kind::kInt);
  EXPECT_EQ(made.integer(), 42);
  // Any other value resolves to a copy of itself.
  const HookValue s = HookValue::String("7H").Resolve();
  EXPECT_EQ(s.kind(), HookValue::Kind::kString);
  EXPECT_EQ(s.string(), "7H");
  EXPECT_EQ(HookValue().Resolve().kind(), HookValue::Kind::kNil);
}

TEST(HookApiFunctions, TableFieldsSetAfterReserveLastOneWins) {
  HookValue t = HookValue::Table();
  t.Reserve(3);
  EXPECT_EQ(t.kind(), HookValue::Kind::kTable);
  EXPECT_TRUE(t.keys().empty());
  t.Set("rank", HookValue::String("A")).Set("size", HookValue::Int(3));
  t.Set("rank", HookValue::String("K"));
  ASSERT_NE(t.Find("rank"), nullptr);
  EXPECT_EQ(t.Find("rank")->string(), "K");
  EXPECT_EQ(t.Find("size")->integer(), 3);
  EXPECT_EQ(t.Find("wilds"), nullptr);
  EXPECT_EQ(t.keys().size(), 3u);
}

int FieldIndex(HookId id, std::string_view name) {
  const std::vector<HookField>& fields = GetHookSpec(id).fields;
  for (size_t i = 0; i < fields.size(); ++i)
    if (name == fields[i].name) return int(i);
  ADD_FAILURE() << "no field " << name;
  return 0;
}

TEST(HookApiFunctions, ContextFieldFromATableResolvesLazyValues) {
  const int base = 5;
  HookValue table = HookValue::Table();
  table.Set("player", HookValue::Lazy(&PlusArg, &base, -3));
  table.Set("card", HookValue::OfCard(C("9D")));
  const HookContext ctx(HookId::kMayDiscard, table);
  EXPECT_EQ(ctx.hook(), HookId::kMayDiscard);
  EXPECT_EQ(ctx.state(), nullptr);
  const HookValue player = ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "player")));
  EXPECT_EQ(player.kind(), HookValue::Kind::kInt);
  EXPECT_EQ(player.integer(), 2);
  EXPECT_EQ(ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "card"))).string(), "9D");
  // A field the table leaves out reads nil.
  EXPECT_EQ(ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "last_card"))).kind(),
            HookValue::Kind::kNil);
}

// A dealt classic position: seat 1, at the dealer's left, is in turn (000 §11).
class HookApiFunctionsDealt : public ::testing::Test {
 protected:
  HookApiFunctionsDealt() : pos_(rules_, DefaultHooks(), {0, 0}) {
    Rng rng(11);
    EXPECT_TRUE(pos_.Deal(ShuffledDeal(rules_, 0, rng)).empty());
  }
  const Rules rules_;
  Position pos_;
};

// A player outside 0..players-1 reads as the seat in turn (hook_api.h).
TEST_F(HookApiFunctionsDealt, TurnHookStateSeat) {
  ASSERT_EQ(pos_.current_player(), 1);
  EXPECT_EQ(TurnHookState(pos_, 0).seat, 0);
  EXPECT_EQ(TurnHookState(pos_, 3).seat, 3);
  EXPECT_EQ(TurnHookState(pos_, 4).seat, 1);
  EXPECT_EQ(TurnHookState(pos_, -1).seat, 1);
  EXPECT_EQ(TurnHookState(pos_, 2).position, &pos_);
}

TEST_F(HookApiFunctionsDealt, ContextFieldFromTheEnginesState) {
  DiscardHookState state(pos_, 2);
  state.card = C("QS");
  state.last_card = true;
  const HookContext ctx(HookId::kMayDiscard, state);
  EXPECT_EQ(ctx.state(), &state);
  EXPECT_EQ(ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "player"))).integer(), 2);
  EXPECT_EQ(ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "side"))).integer(), 0);
  EXPECT_EQ(ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "card"))).string(), "QS");
  EXPECT_TRUE(ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "last_card"))).boolean());
  EXPECT_EQ(ctx.Field(size_t(FieldIndex(HookId::kMayDiscard, "hand"))).cards().size(),
            size_t(rules_.hand_size));
  // A v1 hook's arguments have no reader: nil from a state.
  EXPECT_EQ(HookContext(HookId::kCanastasToGoOut, state).Field(0).kind(), HookValue::Kind::kNil);
}

}  // namespace
}  // namespace canasta
