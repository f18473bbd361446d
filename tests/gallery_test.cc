// The gallery of house rules (samples/rulesets/gallery/): each file loads,
// says who plays it, has a sample game beside it that audits clean under it,
// bots play it legally, the fault injector's mistakes are all caught under
// it, and its rule makes a difference against classic.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/inject.h"
#include "replay/simulate.h"
#include "scripting/resolver.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

namespace fs = std::filesystem;

const fs::path kGallery = fs::path(CANASTA_SOURCE_DIR) / "samples" / "rulesets" / "gallery";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> GalleryNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(kGallery, ec))
    if (entry.path().extension() == ".lua") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

RulesetChoice Choice(const std::string& name_or_path) {
  std::variant<Ruleset, LuaError> r = LoadRuleset(name_or_path);
  if (auto* e = std::get_if<LuaError>(&r)) {
    ADD_FAILURE() << e->ToString();
    return RulesetChoice{"classic", Rules(), std::make_shared<RuleHooks>()};
  }
  return std::get<Ruleset>(r).Choose();
}

std::string LuaPath(const std::string& name) { return (kGallery / (name + ".lua")).string(); }



std::string Describe(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings)
    out += "\n  line " + std::to_string(f.line) + ": " + f.message + " [" + GetCheck(f.id).name + "]";
  return out;
}

// The scores of every hand, for comparing two audits of one log.
std::vector<int> Scores(const FileReport& r) {
  std::vector<int> out;
  for (const GameReport& g : r.games)
    for (const HandReport& h : g.hands) out.insert(out.end(), h.scores.begin(), h.scores.end());
  return out;
}

TEST(Gallery, HoldsAtLeastTwelveHouseRules) { EXPECT_GE(GalleryNames().size(), 12u); }

class GalleryRuleset : public ::testing::TestWithParam<std::string> {};

TEST_P(GalleryRuleset, LoadsAndSaysWhoPlaysIt) {
  std::ifstream in(LuaPath(GetParam()));
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("Who plays it"), std::string::npos)
      << GetParam() << ".lua: its opening comment must say who plays these rules";
  std::variant<Ruleset, LuaError> r = LoadRuleset(LuaPath(GetParam()));
  ASSERT_TRUE(std::holds_alternative<Ruleset>(r)) << std::get<LuaError>(r).ToString();
  EXPECT_EQ(std::get<Ruleset>(r).name(), GetParam());
  EXPECT_TRUE(std::get<Ruleset>(r).runnable());
}

TEST_P(GalleryRuleset, SampleGameAuditsClean) {
  const fs::path log = kGallery / (GetParam() + ".jsonl");
  ASSERT_TRUE(fs::exists(log)) << "no sample game " << log;
  // As `canasta audit` would: the header names the ruleset file beside the log.
  AuditOptions options;
  options.resolve = ResolveRuleset;
  FileReport report = AuditFile(log.string(), options);
  ASSERT_EQ(report.games.size(), 1u);
  EXPECT_EQ(report.games[0].ruleset, GetParam());
  EXPECT_TRUE(report.games[0].finished) << "the sample is a complete game";
  EXPECT_EQ(Describe(test::AllFindings(report)), "");
}

TEST_P(GalleryRuleset, SelfPlayAuditsClean) {
  const RulesetChoice c = Choice(LuaPath(GetParam()));
  const AuditOptions options = test::UnderRuleset(c);
  for (int i = 0; i < 40; ++i) {
    SimulateOptions so;
    so.bots = i % 2 ? std::vector<std::string>{"random", "sensible"}
                    : std::vector<std::string>{"sensible"};
    std::ostringstream log;
    SimulateGame(c, GameSeed(900 + i, i), so, log);
    std::istringstream in(log.str());
    FileReport report = AuditStream(in, "self-play", options);
    ASSERT_EQ(Describe(test::AllFindings(report)), "") << GetParam() << " game " << i;
  }
}

TEST_P(GalleryRuleset, EveryInjectedMistakeIsCaught) {
  const RulesetChoice c = Choice(LuaPath(GetParam()));
  const AuditOptions options = test::UnderRuleset(c);
  int injected = 0, caught = 0;
  for (int k = 0; k < int(FaultKind::kCount); ++k) {
    for (int i = 0; i < 4; ++i) {
      std::optional<InjectedFault> fault =
          InjectFault(c, GameSeed(4242 + k, i), FaultKind(k), /*skip=*/i % 3);
      if (!fault) continue;
      ++injected;
      std::istringstream in(fault->log);
      FileReport report = AuditStream(in, "injected", options);
      bool hit = false;
      for (const Finding& f : test::AllFindings(report)) hit |= f.line == fault->line && f.id == fault->expected;
      EXPECT_TRUE(hit) << GetParam() << " " << FaultName(FaultKind(k)) << " at line " << fault->line
                       << Describe(test::AllFindings(report));
      caught += hit;
    }
  }
  EXPECT_GE(injected, 2 * int(FaultKind::kCount));
  EXPECT_EQ(caught, injected);
}

// A house rule that changes nothing is a typo: games played under it and
// audited as classic, or classic games audited under it, must differ
// somewhere (a finding or a score) within a few games.
TEST_P(GalleryRuleset, MakesADifferenceAgainstClassic) {
  const RulesetChoice house = Choice(LuaPath(GetParam()));
  const RulesetChoice classic = Choice("classic");
  int differences = 0;
  for (int i = 0; i < 30 && differences == 0; ++i) {
    for (const auto* pair : {&house, &classic}) {
      const RulesetChoice& played = *pair;
      const RulesetChoice& audited = pair == &house ? classic : house;
      std::ostringstream log;
      SimulateOptions so;
      if (i % 2) so.bots = {"random", "sensible"};
      SimulateGame(played, GameSeed(77 + i, i), so, log);
      std::istringstream a(log.str()), b(log.str());
      FileReport as_played = AuditStream(a, "game", test::UnderRuleset(played));
      FileReport as_other = AuditStream(b, "game", test::UnderRuleset(audited));
      if (!test::AllFindings(as_other).empty() || Scores(as_played) != Scores(as_other)) ++differences;
    }
  }
  EXPECT_GT(differences, 0) << GetParam() << " plays and scores exactly like classic in 30 games";
}

// 002's last three variations (002 L65-75) with published values: the
// gallery holds one complete set for each, and its sample plays what makes
// the variation (sequences, the foot, three decks).
TEST(Gallery, TheThreeVariationsOf002RunWithPublishedValues) {
  struct Variation {
    const char* name;
    const char* shows;  // what its sample game must hold
  } variations[] = {{"bolivia-samba", "\"as\":\"sequence\""},
                    {"pinnacle-italian", "\"as\":\"sequence\""},
                    {"hand-and-foot-basic", "\"type\":\"foot\""}};
  for (const Variation& v : variations) {
    const std::string text = ReadText(LuaPath(v.name));
    EXPECT_NE(text.find("Not modelled"), std::string::npos)
        << v.name << ": says what of its source it cannot express";
    EXPECT_NE(ReadText(kGallery / (std::string(v.name) + ".jsonl")).find(v.shows),
              std::string::npos)
        << v.name << ": its sample shows " << v.shows;
    const RulesetChoice c = Choice(LuaPath(v.name));
    EXPECT_GE(c.rules.decks, 3) << v.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Gallery, GalleryRuleset, ::testing::ValuesIn(GalleryNames()),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace canasta
