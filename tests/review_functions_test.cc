// Direct tests of review/ functions that no other test names: the work an
// evaluation cost, the grouping of a decision's alternatives, a move in
// words, and one rollout (docs/review.md).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/bots.h"
#include "core/position.h"
#include "core/rng.h"
#include "review/evaluate.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;

std::vector<Card> Cards(std::initializer_list<const char*> texts) {
  std::vector<Card> out;
  for (const char* t : texts) out.push_back(C(t));
  return out;
}

// A classic four-handed deal, dealer Ann: Bob (seat 1) plays first. His hand
// is given whole; the stock starts with `stock`.
DealMove BobsDeal(const std::vector<std::string>& bob, const std::vector<std::string>& stock) {
  test::Log log;
  test::DealSpec d;
  d.hands = {{}, bob};
  d.stock = stock;
  log.Deal(d);
  return log.deal_move();
}

// Bob holds no pair of the upcard (8C) and no three of a kind: he can only
// draw, and then only discard.
const std::vector<std::string> kPlainHand = {"KS", "KH", "9C", "9D", "7S", "6H",
                                             "5C", "5D", "4S", "4H", "QD"};

class ReviewFunctions : public ::testing::Test {
 protected:
  ReviewFunctions() : pos_(rules_, hooks_, {0, 0}) {}
  void Deal(const std::vector<std::string>& bob, const std::vector<std::string>& stock) {
    ASSERT_TRUE(pos_.Deal(BobsDeal(bob, stock)).empty());
    ASSERT_EQ(pos_.current_player(), 1);
  }
  void Draw() { ASSERT_TRUE(pos_.Play(DrawMove{1, pos_.StockTop(1), 0}).empty()); }

  Rules rules_;
  RuleHooks hooks_;
  Position pos_;
};

TEST_F(ReviewFunctions, AlternativeRolloutsAddsTheRolloutsOfEveryAlternative) {
  DecisionValue v;
  EXPECT_EQ(AlternativeRollouts(v), 0);
  // Racing gives the clearly worse fewer rollouts than the decision's count.
  for (int n : {32, 12, 7}) {
    AlternativeValue a;
    a.rollouts = n;
    v.alternatives.push_back(a);
  }
  v.rollouts = 32;
  EXPECT_EQ(AlternativeRollouts(v), 51);
}

TEST_F(ReviewFunctions, MoveWordsSaysEachMoveAsAClubPlayerReadsIt) {
  EXPECT_EQ(MoveWords(DrawMove{0, Cards({"KS"}), 0}, 3), "drew from the stock");
  TakePileMove with{1, C("9H"), Cards({"9C", "9D"})};
  EXPECT_EQ(MoveWords(with, 12), "took the pile (12 cards) with 9C 9D");
  TakePileMove onto{1, C("KD"), {}, Rank::kKing};
  EXPECT_EQ(MoveWords(onto, 5), "took the pile (5 cards) onto the Ks");
  EXPECT_EQ(MoveWords(DiscardMove{2, C("7H"), 0}, 0), "discarded 7H");
  MeldMove meld{0,
                {MeldPart{std::nullopt, std::nullopt, Cards({"KS", "KH", "KD"})},
                 MeldPart{Rank::kNine, std::nullopt, Cards({"9C", "JK"})}},
                0};
  EXPECT_EQ(MoveWords(meld, 0), "melded KS KH KD, added 9C JK to the 9s");
  EXPECT_EQ(MoveWords(ThreeMove{0, C("3H"), std::nullopt, 0}, 0), "laid out 3H");
  EXPECT_EQ(MoveWords(AskOutMove{0, 0}, 0), "asked \"may I go out?\"");
  EXPECT_EQ(MoveWords(AnswerMove{2, true, 0}, 0), "answered yes");
  EXPECT_EQ(MoveWords(AnswerMove{2, false, 0}, 0), "answered no");
  EXPECT_EQ(MoveWords(SpecialHandMove{0, Cards({"AS", "KS"}), 0}, 0),
            "laid down a special hand (AS KS)");
  EXPECT_EQ(MoveWords(FootMove{0, 0}, 0), "picked up the foot");
  EXPECT_EQ(MoveWords(RetractMove{0, Cards({"KS"}), 0}, 0), "took cards back");
}

TEST_F(ReviewFunctions, GroupAlternativesOfAnOnlyDrawIsForced) {
  Deal(kPlainHand, {"JC"});
  // No pair of 8s for the upcard (000 §13): drawing is the one way.
  DecisionValue v = GroupAlternatives(pos_, DrawMove{1, pos_.StockTop(1), 0});
  EXPECT_EQ(v.status, DecisionStatus::kForced);
  ASSERT_EQ(v.alternatives.size(), 1u);
  EXPECT_EQ(v.played, 0);
  EXPECT_TRUE(v.alternatives[0].played);
  EXPECT_EQ(v.alternatives[0].words, "drew from the stock");
  EXPECT_EQ(AlternativeRollouts(v), 0);  // no rollout
}

TEST_F(ReviewFunctions, GroupAlternativesGroupsDiscardsByRankAndMarksThePlayed) {
  Deal(kPlainHand, {"JC"});
  Draw();
  // Ranks K 9 7 6 5 4 Q J: eight groups of discards, no meld (no three of
  // a kind), and asking the partner "may I go out?" (optional in partnership
  // play, 000 §17).
  // The generator lists one discard per rank already (core/legal_moves.cc):
  // a group per alternative. Either king played marks the kings' group,
  // worded with the card played.
  for (const char* king : {"KS", "KH"}) {
    DecisionValue v = GroupAlternatives(pos_, DiscardMove{1, C(king), 0});
    EXPECT_EQ(v.status, DecisionStatus::kNotEvaluated);
    ASSERT_EQ(v.alternatives.size(), 9u);
    int played = 0, discards = 0;
    for (const AlternativeValue& a : v.alternatives) {
      played += a.played;
      discards += std::holds_alternative<DiscardMove>(a.move);
      EXPECT_EQ(a.members, 1) << a.words;
      EXPECT_EQ(a.rollouts, 0);
    }
    EXPECT_EQ(discards, 8);
    EXPECT_EQ(played, 1);
    ASSERT_GE(v.played, 0);
    const AlternativeValue& kings = v.alternatives[size_t(v.played)];
    EXPECT_TRUE(kings.played);
    EXPECT_EQ(kings.words, std::string("discarded ") + king);
    EXPECT_EQ(kings.key, GroupKey(DiscardMove{1, C("KS"), 0}));
  }
}

TEST_F(ReviewFunctions, GroupAlternativesOfAMoveThatBreaksARuleIsIllegal) {
  Deal(kPlainHand, {"JC"});
  Draw();
  // A card Bob does not hold, and a move out of turn.
  DecisionValue v = GroupAlternatives(pos_, DiscardMove{1, C("AS"), 0});
  EXPECT_EQ(v.status, DecisionStatus::kIllegal);
  EXPECT_TRUE(v.alternatives.empty());
  EXPECT_EQ(v.played, -1);
  v = GroupAlternatives(pos_, DiscardMove{2, C("QD"), 0});
  EXPECT_EQ(v.status, DecisionStatus::kIllegal);
  EXPECT_TRUE(v.alternatives.empty());
}

TEST_F(ReviewFunctions, RolloutValuesTheHandForTheSideAgainstTheOthers) {
  // Bob can meld seven kings (a natural canasta, 000 §9) and QS QS QH JK
  // (150 points, over the minimum of 50 at 0, 000 §8) and go out with 5C.
  Deal({"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "JK", "5C"}, {"QH"});
  Draw();
  std::unique_ptr<Bot> bot = MakeSensibleBot();
  Rng a(5), b(5), c(5);
  const double bobs_side = Rollout(pos_, 1, *bot, a);
  const double anns_side = Rollout(pos_, 0, *bot, b);
  // Same seed, same play: with two sides one's value is the other's loss.
  EXPECT_EQ(bobs_side, -anns_side);
  EXPECT_GT(bobs_side, 0) << "Bob's side holds the canasta";
  EXPECT_EQ(Rollout(pos_, 1, *bot, c), bobs_side);  // deterministic
  // Classic scores are multiples of 5 (000 §3, §18).
  EXPECT_EQ(std::fmod(bobs_side, 5.0), 0.0);
  // The position is taken by value: the caller's is untouched.
  EXPECT_EQ(pos_.phase(), Phase::kPlay);
  EXPECT_EQ(pos_.current_player(), 1);
}

// Hooks that report the failures they were given, once.
class FailingHooks : public RuleHooks {
 public:
  explicit FailingHooks(std::vector<HookFailure> failures) : failures_(std::move(failures)) {}
  bool HasFailures() const override { return !failures_.empty(); }
  std::vector<HookFailure> TakeFailures() const override {
    std::vector<HookFailure> out;
    out.swap(failures_);
    return out;
  }

 private:
  mutable std::vector<HookFailure> failures_;
};

HookFailure Failure(const std::string& hook, const std::string& message, int count) {
  HookFailure f;
  f.hook = hook;
  f.where = "house.lua:3";
  f.message = message;
  f.count = count;
  return f;
}

TEST(ReviewHookFailures, TakeRolloutHookFailuresMergesTheThreadsAndSkipsTheShared) {
  FailingHooks a({Failure("may_meld", "boom", 3), Failure("score", "bad part", 1)});
  FailingHooks b({Failure("may_meld", "boom", 4)});
  FailingHooks shared({Failure("may_meld", "boom", 100)});
  ReviewSettings settings;
  settings.thread_hooks = {&a, &b, &shared, nullptr};
  std::vector<HookFailure> all = TakeRolloutHookFailures(settings, &shared);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].hook, "may_meld");
  EXPECT_EQ(all[0].count, 7);
  EXPECT_EQ(all[1].hook, "score");
  EXPECT_EQ(all[1].count, 1);
  EXPECT_TRUE(shared.HasFailures());  // its replay reports them
  EXPECT_FALSE(a.HasFailures());
  EXPECT_TRUE(TakeRolloutHookFailures(settings, &shared).empty());  // taken once
}

}  // namespace
}  // namespace canasta
