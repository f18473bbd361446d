// The discard pile's rules as a table may change them (issue 9): the
// parameters of what freezes the pile and for how long, whether a wild top
// card blocks, the forms of the unfrozen take, the top card into the hand,
// and the v2 hook may_take_pile. Each is replayed both ways (allowed and
// refused) with the exact findings; the move generator is held to the check
// by self-play under a ruleset with the hook.
//
// Seats: dealer 0, so seat 1 plays first; sides {0, 2} and {1, 3}. Unless a
// test says otherwise the rules are classic with the pile not frozen before
// the initial meld and no initial-meld minimum, so that only the rule under
// test decides.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/hooks.h"
#include "core/legal_moves.h"
#include "core/position.h"
#include "core/rules.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

namespace fs = std::filesystem;
using test::DealSpec;
using test::Log;
using test::MessageOf;

Rules Base() {
  Rules r;
  r.frozen_before_initial_meld = false;
  r.minimum_table = {{-1000000000, 0}};
  return r;
}

RulesetChoice WithRules(const Rules& rules) {
  RulesetChoice c;
  c.name = "pile-test";
  c.rules = rules;
  c.hooks = std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {});
  return c;
}

// A ruleset extending classic, from Lua source.
RulesetChoice FromLua(const std::string& source) {
  static const test::TempDir dir;  // removed at exit, with what it holds
  const fs::path file = fs::path(dir.path()) / "pile.lua";
  std::ofstream(file) << source;
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(file.string());
  if (auto* e = std::get_if<LuaError>(&loaded)) {
    ADD_FAILURE() << e->ToString();
    return WithRules(Rules());
  }
  return std::get<Ruleset>(loaded).Choose();
}

FileReport AuditWith(const Log& log, const RulesetChoice& choice) {
  AuditOptions options;
  options.forced_ruleset = choice.name;
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  std::istringstream in(log.str());
  return AuditStream(in, "pile.jsonl", options);
}

FileReport AuditWith(const Log& log, const Rules& rules) {
  return AuditWith(log, WithRules(rules));
}

// Seat 1 draws and discards `first`, seat 2 draws and discards `second`:
// the pile is 8C, first, second. Seat 3 holds `hand3` (and 9D to discard).
Log TwoDiscards(const std::string& first, const std::string& second,
                std::vector<std::string> hand3) {
  Log log;
  DealSpec d;
  hand3.push_back("9D");
  d.hands = {{}, {first}, {second}, hand3};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, first);
  log.Draw(2);
  log.Discard(2, second);
  return log;
}

// --- What freezes the pile ---

TEST(PileFreeze, WildCardFreezesUnlessTheRulesetSaysNot) {
  Log log = TwoDiscards("2C", "KS", {"KH", "2H"});
  const int take = log.Take(3, "KS", {"KH", "2H"});
  log.Discard(3, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Base()), {take, CheckId::kPileFrozenNeedsPair});
  Rules r = Base();
  r.wild_freezes_pile = false;
  EXPECT_CLEAN(AuditWith(log, r));
}

TEST(PileFreeze, RedThreeUpcardFreezesUnlessTheRulesetSaysNot) {
  Log log;
  DealSpec d;
  d.upcard = {"3H", "8C"};
  d.hands = {{}, {"8H", "JK", "9D"}};
  log.Deal(d);
  const int take = log.Take(1, "8C", {"8H", "JK"});
  log.Raw(R"({"type":"three","player":1,"card":"3H"})");
  log.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Base()), {take, CheckId::kPileFrozenNeedsPair});
  Rules r = Base();
  r.red_three_freezes_pile = false;
  EXPECT_CLEAN(AuditWith(log, r));
}

TEST(PileFreeze, BlackThreeFreezesOnlyWhereTheRulesetSays) {
  Log log = TwoDiscards("3S", "9S", {"9H", "JK"});
  const int take = log.Take(3, "9S", {"9H", "JK"});
  log.Discard(3, "9D");
  EXPECT_CLEAN(AuditWith(log, Base()));
  Rules r = Base();
  r.black_three_freezes_pile = true;
  const FileReport report = AuditWith(log, r);
  EXPECT_PROBLEMS(report, {take, CheckId::kPileFrozenNeedsPair});
  EXPECT_EQ(test::Dump(report).find("frozen by a black three in the pile") == std::string::npos,
            false)
      << test::Dump(report);
}

TEST(PileFreeze, UntilCoveredFreezesOnlyWhileTheCardIsOnTop) {
  Log log = TwoDiscards("2C", "KS", {"KH", "2H"});
  const int take = log.Take(3, "KS", {"KH", "2H"});
  log.Discard(3, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Base()), {take, CheckId::kPileFrozenNeedsPair});
  Rules r = Base();
  r.pile_freeze_lasts = PileFreeze::kUntilCovered;
  EXPECT_CLEAN(AuditWith(log, r));
}

// --- A wild card on top ---

// Seat 1 discards 2C; seat 2 takes it with `with`, then discards 9D.
Log WildOnTop(const std::vector<std::string>& with, int* take) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"2C"}, {"KH", "KD", "JK", "9D"}};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "2C");
  *take = log.Take(2, "2C", with);
  log.Discard(2, "9D");
  return log;
}

TEST(PileWildTop, BlocksUnlessTheRulesetSaysNot) {
  int take = 0;
  Log log = WildOnTop({"KH", "KD"}, &take);
  EXPECT_PROBLEMS(AuditWith(log, Base()), {take, CheckId::kPileBlockedTop});
  Rules r = Base();
  r.wild_top_blocks_take = false;
  // The wild top card joins the kings shown; the pile it tops is frozen, and
  // the natural pair takes it.
  EXPECT_CLEAN(AuditWith(log, r));
}

TEST(PileWildTop, NotBlockingStillFrozenWhileOnTop) {
  int take = 0;
  Log log = WildOnTop({"KH", "JK"}, &take);
  Rules r = Base();
  r.wild_top_blocks_take = false;
  r.pile_freeze_lasts = PileFreeze::kUntilCovered;
  const FileReport report = AuditWith(log, r);
  EXPECT_PROBLEMS(report, {take, CheckId::kPileFrozenNeedsPair});
  EXPECT_EQ(MessageOf(report, CheckId::kPileFrozenNeedsPair),
            "the pile is frozen; taking it needs a natural pair of Ks from the hand");
  // Not frozen: the take passes the pile rules, and the meld rules refuse
  // KH JK 2C.
  r.wild_freezes_pile = false;
  EXPECT_PROBLEMS(AuditWith(log, r), {take, CheckId::kMeldTooFewNaturals});
}

// --- The forms of the unfrozen take (unfrozen_take) ---

// Seat 1 discards KS onto 8C; seat 2 takes it with `with`, then discards 9D.
Log KingTaken(const std::vector<std::string>& with, int* take) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS"}, {"KH", "KD", "2H", "9D"}};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "KS");
  *take = log.Take(2, "KS", with);
  log.Discard(2, "9D");
  return log;
}

void ExpectForm(UnfrozenTake form, const std::vector<std::string>& with, bool allowed,
                const std::string& message = "") {
  int take = 0;
  Log log = KingTaken(with, &take);
  Rules r = Base();
  r.unfrozen_take = form;
  const FileReport report = AuditWith(log, r);
  if (allowed) {
    EXPECT_CLEAN(report);
  } else {
    EXPECT_PROBLEMS(report, {take, CheckId::kPileTakeInvalid});
    EXPECT_EQ(MessageOf(report, CheckId::kPileTakeInvalid), message);
  }
}

TEST(PileForms, NaturalPair) {
  ExpectForm(UnfrozenTake::kNaturalPair, {"KH", "KD"}, true);
  ExpectForm(UnfrozenTake::kNaturalPair, {"KH", "2H"}, false,
             "taking the pile needs two natural Ks from the hand and no other card");
  ExpectForm(UnfrozenTake::kNaturalPair, {"KH", "KD", "2H"}, false,
             "taking the pile needs two natural Ks from the hand and no other card");
}

TEST(PileForms, PairOrWild) {
  ExpectForm(UnfrozenTake::kPairOrWild, {"KH", "KD"}, true);
  ExpectForm(UnfrozenTake::kPairOrWild, {"KH", "2H"}, true);
  ExpectForm(UnfrozenTake::kPairOrWild, {"KH", "KD", "2H"}, false,
             "taking the pile needs two natural Ks from the hand, or one natural K and one "
             "wild card");
}

TEST(PileForms, PairOrMeld) {
  ExpectForm(UnfrozenTake::kPairOrMeld, {"KH", "KD"}, true);
  ExpectForm(UnfrozenTake::kPairOrMeld, {"KH", "2H"}, false,
             "taking the pile needs two natural Ks from the hand, or the top card alone onto "
             "the side's meld of Ks");
}

// Seat 1 melds kings and discards KS... seat 3 (its partner) takes the KS
// onto the kings.
TEST(PileForms, TopCardOntoTheSidesMeld) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KH", "KD", "KC", "9D"}, {"KS"}, {"9H"}};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KH", "KD", "KC"}});
  log.Discard(1, "9D");
  log.Draw(2);
  log.Discard(2, "KS");
  const int take = log.TakeTo(3, "KS", "K");
  log.Discard(3, "9H");
  for (UnfrozenTake form : {UnfrozenTake::kPairOrNaturalWildOrAdd, UnfrozenTake::kPairOrMeld}) {
    Rules r = Base();
    r.unfrozen_take = form;
    EXPECT_CLEAN(AuditWith(log, r));
  }
  for (UnfrozenTake form : {UnfrozenTake::kNaturalPair, UnfrozenTake::kPairOrWild}) {
    Rules r = Base();
    r.unfrozen_take = form;
    EXPECT_PROBLEMS(AuditWith(log, r), {take, CheckId::kPileTakeInvalid});
  }
}

// --- The top card into the hand (pile_top_to_hand) ---

// Seat 1 discards KS; seat 2 shows KH KD and takes the KS into the hand.
Log ToHand(bool meld_it, int* take, int* discard) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS"}, {"KH", "KD", "9D"}};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "KS");
  *take =
      log.Raw(R"({"type":"take_pile","player":2,"top":"KS","with":["KH","KD"],"to_hand":true})");
  if (meld_it) log.Raw(R"({"type":"meld","player":2,"melds":[{"cards":["KS","KH","KD"]}]})");
  *discard = log.Raw(R"({"type":"discard","player":2,"card":"9D"})");
  return log;
}

Rules TopToHand() {
  Rules r = Base();
  r.pile_top_to_hand = true;
  return r;
}

// The one finding of a turn that took KS into the hand and did not meld it.
void ExpectTopCardNotMelded(const FileReport& report, int discard) {
  EXPECT_PROBLEMS(report, {discard, CheckId::kPileTakeInvalid});
  EXPECT_EQ(MessageOf(report, CheckId::kPileTakeInvalid),
            "the top card KS was taken into the hand with the pile but not melded this turn");
}

TEST(PileToHand, TakenIntoTheHandThenMelded) {
  int take = 0, discard = 0;
  Log log = ToHand(true, &take, &discard);
  EXPECT_CLEAN(AuditWith(log, TopToHand()));
}

TEST(PileToHand, TopCardNotMeldedIsAFindingAtTheTurnEnd) {
  int take = 0, discard = 0;
  Log log = ToHand(false, &take, &discard);
  ExpectTopCardNotMelded(AuditWith(log, TopToHand()), discard);
}

// Other melds laid in the turn do not meld the top card: in a line of one
// meld (the usual meld's path) and of two (the general path).
TEST(PileToHand, OtherMeldsLaidLeaveTheTopCardUnmelded) {
  for (const char* meld : {R"([{"cards":["QH","QD","QC"]}])",
                           R"([{"cards":["QH","QD","QC"]},{"cards":["JH","JD","JC"]}])"}) {
    SCOPED_TRACE(meld);
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS"}, {"KH", "KD", "9D", "QH", "QD", "QC", "JH", "JD", "JC", "5S", "6S"}};
    log.Deal(d);
    log.Draw(1);
    log.Discard(1, "KS");
    log.Raw(R"({"type":"take_pile","player":2,"top":"KS","with":["KH","KD"],"to_hand":true})");
    log.Raw(std::string(R"({"type":"meld","player":2,"melds":)") + meld + "}");
    const int discard = log.Raw(R"({"type":"discard","player":2,"card":"9D"})");
    ExpectTopCardNotMelded(AuditWith(log, TopToHand()), discard);
  }
}

// The top card added alone to the side's meld of its rank, laid in an
// earlier turn, is melded: by the usual meld's path (the meld named by its
// rank), and by the general one (named by the id it was laid with).
TEST(PileToHand, TheTopCardAddedAloneToAMeldIsMelded) {
  for (const char* to : {"K", "kings"}) {
    SCOPED_TRACE(to);
    Log log;
    DealSpec d;
    d.hands = {{"KH", "KD", "9D", "5S", "6S"}, {"4C"}, {"KH", "KD", "KC", "4D"}, {"KS"}};
    log.Deal(d);
    log.Draw(1);
    log.Discard(1, "4C");
    log.Draw(2);
    log.Raw(R"({"type":"meld","player":2,"melds":[{"id":"kings","cards":["KH","KD","KC"]}]})");
    log.Discard(2, "4D");
    log.Draw(3);
    log.Discard(3, "KS");
    log.Raw(R"({"type":"take_pile","player":0,"top":"KS","with":["KH","KD"],"to_hand":true})");
    log.Raw(std::string(R"({"type":"meld","player":0,"melds":[{"to":")") + to +
            R"(","cards":["KS"]}]})");
    log.Raw(R"({"type":"discard","player":0,"card":"9D"})");
    EXPECT_CLEAN(AuditWith(log, TopToHand()));
  }
}

TEST(PileToHand, TheTakeConditionIsCheckedAgainstTheHand) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS"}, {"KH", "9D"}};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "KS");
  const int take =
      log.Raw(R"({"type":"take_pile","player":2,"top":"KS","with":["KH"],"to_hand":true})");
  EXPECT_PROBLEMS(AuditWith(log, TopToHand()), {take, CheckId::kPileTakeInvalid});
}

TEST(PileToHand, RefusedWithoutTheParameter) {
  int take = 0, discard = 0;
  Log log = ToHand(true, &take, &discard);
  const FileReport report = AuditWith(log, Base());
  EXPECT_PROBLEMS(report, {take, CheckId::kPileTakeInvalid});
  EXPECT_NE(MessageOf(report, CheckId::kPileTakeInvalid).find("the ruleset does not allow"),
            std::string::npos);
}

// --- The hook may_take_pile ---

const char* const kNoKings = R"(return {
  name = "no-kings-from-the-pile",
  extends = "classic",
  hooks = {
    may_take_pile = function(ctx, rules)
      if ctx.top == "KS" and #ctx.with == 2 then return "no kings from the pile" end
    end,
  },
})";

TEST(PileHook, RefusesWhatTheEngineAllows) {
  Log log = TwoDiscards("5S", "KS", {"KH", "KD", "AH", "AD", "AC"});
  const int take = log.Take(3, "KS", {"KH", "KD"});
  log.Meld(3, {{"AH", "AD", "AC"}});
  log.Discard(3, "9D");
  EXPECT_CLEAN(AuditWith(log, Rules()));
  const FileReport report = AuditWith(log, FromLua(kNoKings));
  EXPECT_PROBLEMS(report, {take, CheckId::kPileHouseRule});
  EXPECT_EQ(MessageOf(report, CheckId::kPileHouseRule), "no kings from the pile");
}

TEST(PileHook, NilKeepsTheEnginesFindings) {
  Log log = TwoDiscards("5S", "KS", {"KH", "2H"});
  const int take = log.Take(3, "KS", {"KH"});  // one card and no meld of kings
  log.Discard(3, "9D");
  // Classic: the side has not opened, so the pile is frozen for it.
  EXPECT_PROBLEMS(AuditWith(log, FromLua(kNoKings)), {take, CheckId::kPileFrozenNeedsPair},
                  {take, CheckId::kInitialMeldMinimum});
}

const char* const kWildTopsAllowed = R"(return {
  name = "wild-tops",
  extends = "classic",
  hooks = {
    may_take_pile = function(ctx, rules)
      if ctx.top == "2C" then return true end
      if ctx.default ~= true then return "engine: " .. ctx.default end
    end,
  },
})";

TEST(PileHook, TrueDropsTheRuleRefusalsButNotThePhysicalOnes) {
  // Classic: a wild card on top blocks; the hook allows it. The meld the take
  // makes (KH KD 2C) and the aces make the initial meld.
  Log log;
  DealSpec d;
  d.hands = {{}, {"2C"}, {"KH", "KD", "AH", "AD", "AC", "9D"}};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "2C");
  const int take = log.Take(2, "2C", {"KH", "KD"});
  log.Meld(2, {{"AH", "AD", "AC"}});
  log.Discard(2, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Rules()), {take, CheckId::kPileBlockedTop});
  EXPECT_CLEAN(AuditWith(log, FromLua(kWildTopsAllowed)));

  // Cards not held stay a finding, and so does the meld the take makes.
  Log bad;
  bad.Deal(d);
  bad.Draw(1);
  bad.Discard(1, "2C");
  const int t2 = bad.Take(2, "2C", {"KH", "QS"});
  const FileReport report = AuditWith(bad, FromLua(kWildTopsAllowed));
  EXPECT_PROBLEMS(report, {t2, CheckId::kCardNotHeld}, {t2, CheckId::kMeldMixedRanks});
}

TEST(PileHook, DefaultCarriesTheEnginesMessage) {
  Log log = TwoDiscards("2D", "KS", {"KH", "2H"});
  const int take = log.Take(3, "KS", {"KH", "2H"});
  log.Discard(3, "9D");
  const FileReport report = AuditWith(log, FromLua(kWildTopsAllowed));
  EXPECT_PROBLEMS(report, {take, CheckId::kPileHouseRule}, {take, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(MessageOf(report, CheckId::kPileHouseRule),
            "engine: the pile is frozen; taking it needs a natural pair of Ks from the hand");
}

// The hook sees whether the pile is frozen for the side and why (000 §14:
// until the side melds; a wild card in it).
TEST(PileHook, SeesWhetherAndWhyThePileIsFrozen) {
  auto ruleset = [](const std::string& params) {
    return FromLua(R"(return {
  name = "frozen-words",
  extends = "classic",
  params = { )" + params + R"( },
  hooks = {
    may_take_pile = function(ctx, rules)
      return "frozen " .. tostring(ctx.frozen) .. " by " .. tostring(ctx.frozen_by)
    end,
  },
})");
  };
  auto words = [](const Log& log, const RulesetChoice& c, int take) {
    const FileReport report = AuditWith(log, c);
    EXPECT_PROBLEMS(report, {take, CheckId::kPileHouseRule});
    return MessageOf(report, CheckId::kPileHouseRule);
  };
  // The natural pair and the aces make the initial meld: the engine allows
  // each take below, and only the hook's words are found.
  Log plain = TwoDiscards("5S", "KS", {"KH", "KD", "AH", "AD", "AC"});
  const int take = plain.Take(3, "KS", {"KH", "KD"});
  plain.Meld(3, {{"AH", "AD", "AC"}});
  plain.Discard(3, "9D");
  EXPECT_EQ(words(plain, ruleset(""), take), "frozen true by not_opened");
  EXPECT_EQ(words(plain, ruleset("frozen_before_initial_meld = false"), take),
            "frozen false by nil");
  Log wild = TwoDiscards("2C", "KS", {"KH", "KD", "AH", "AD", "AC"});
  const int wild_take = wild.Take(3, "KS", {"KH", "KD"});
  wild.Meld(3, {{"AH", "AD", "AC"}});
  wild.Discard(3, "9D");
  EXPECT_EQ(words(wild, ruleset("frozen_before_initial_meld = false"), wild_take),
            "frozen true by wild");
}

TEST(PileHook, MisspeltFieldIsAHookFailure) {
  Log log = TwoDiscards("5S", "KS", {"KH", "KD"});
  log.Take(3, "KS", {"KH", "KD"});
  log.Discard(3, "9D");
  const RulesetChoice c = FromLua(R"(return {
  name = "misspelt",
  extends = "classic",
  hooks = {
    may_take_pile = function(ctx, rules)
      if ctx.frozn then return false end
    end,
  },
})");
  const FileReport report = AuditWith(log, c);
  const std::string dump = test::Dump(report);
  EXPECT_NE(MessageOf(report, CheckId::kRulesetHookFailed), "") << dump;
  EXPECT_NE(dump.find("did you mean \"frozen\""), std::string::npos) << dump;
}

// --- The move generator follows the check ---

// Seat 1 discards 2C (classic: a wild top card blocks). Under a hook that
// allows it, the generator offers the take, and only takes Check accepts.
TEST(PileHook, GeneratorOffersWhatTheHookAllows) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"2C"}, {"KH", "KD", "AH", "AD", "AC", "9D"}};
  d.stock = {"9S"};
  log.Deal(d);
  auto takes = [&](const RulesetChoice& c) {
    Position pos(c.rules, *c.hooks, {0, 0});
    pos.Deal(log.deal_move());
    pos.Play(DrawMove{1, {test::C("9S")}, 0});
    pos.Play(DiscardMove{1, test::C("2C"), 0});
    std::vector<std::string> keys;
    for (const Move& m : LegalMoves(pos)) {
      if (const auto* t = std::get_if<TakePileMove>(&m)) {
        EXPECT_TRUE(pos.CheckTakePile(*t).empty()) << PlayKey(m);
        keys.push_back(PlayKey(m));
      }
    }
    return keys;
  };
  EXPECT_EQ(takes(WithRules(Rules())), std::vector<std::string>{});
  const std::vector<std::string> allowed = takes(FromLua(kWildTopsAllowed));
  EXPECT_NE(std::find(allowed.begin(), allowed.end(), "take 2: Kx2"), allowed.end())
      << testing::PrintToString(allowed);
}

// Self-play under a ruleset whose hook allows what the engine refuses (wild
// top cards, the one-card rule) and refuses what it allows (big frozen
// piles), with the top card to the hand: SimulateGame throws if the engine
// refuses a move its generator offered, and the games audit clean.
TEST(PileHook, GeneratorOffersOnlyTakesTheCheckAccepts) {
  const RulesetChoice c = FromLua(R"(return {
  name = "pile-generator",
  extends = "classic",
  params = { pile_top_to_hand = true, wild_top_blocks_take = false },
  hooks = {
    may_take_pile = function(ctx, rules)
      if ctx.frozen and ctx.pile_size > 8 then return "no big frozen piles" end
      if ctx.pile_size == 1 then return true end
    end,
  },
})");
  AuditOptions options;
  options.resolve = [c](const std::string&, const std::string&, RulesetChoice* out, std::string*) {
    *out = c;
    return true;
  };
  int to_hand = 0;
  for (int i = 0; i < 12; ++i) {
    SimulateOptions so;
    so.bots = {"sensible"};
    std::stringstream log;
    ASSERT_NO_THROW(SimulateGame(c, GameSeed(99, i), so, log)) << "game " << i;
    const std::string text = log.str();
    for (size_t at = text.find("\"to_hand\":true"); at != std::string::npos;
         at = text.find("\"to_hand\":true", at + 1))
      ++to_hand;
    std::istringstream in(text);
    FileReport report = AuditStream(in, "selfplay", options);
    EXPECT_EQ(test::Problems(report), test::FoundList{}) << "game " << i << test::Dump(report);
  }
  EXPECT_GT(to_hand, 0);
}

}  // namespace
}  // namespace canasta
