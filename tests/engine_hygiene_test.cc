// The engine's own hygiene (issue 8): core/ depends on nothing outside core/
// and the standard library; the shared card helpers; the arithmetic that a
// hostile log or ruleset could push past int's range.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/bots.h"
#include "core/card.h"
#include "core/game.h"
#include "core/position.h"
#include "core/rules.h"
#include "core/scoring.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::Cs;

// ===========================================================================
// The dependency direction, by a scan of the sources: core/ includes only
// core/ headers ("core/...") and standard headers (<...> from the list
// below). Anything else (replay/, lint/, a third-party header, a system
// header) fails the test with the file and line.

const std::set<std::string>& StandardHeaders() {
  static const std::set<std::string> kHeaders = {
      "algorithm",        "any",         "array",    "atomic",      "bitset",
      "cassert",          "cctype",      "cerrno",   "cfloat",      "charconv",
      "chrono",           "climits",     "cmath",    "cstddef",     "cstdint",
      "cstdio",           "cstdlib",     "cstring",  "deque",       "functional",
      "initializer_list", "iterator",    "limits",   "list",        "map",
      "memory",           "numeric",     "optional", "random",      "set",
      "string",           "string_view", "tuple",    "type_traits", "unordered_map",
      "unordered_set",    "utility",     "variant",  "vector"};
  return kHeaders;
}

TEST(EngineHygiene, CoreIncludesOnlyCoreAndTheStandardLibrary) {
  namespace fs = std::filesystem;
  const fs::path core = fs::path(CANASTA_SOURCE_DIR) / "core";
  const std::regex include(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  int files = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(core)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".h" && ext != ".cc") continue;
    ++files;
    std::ifstream in(e.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string name = m[2];
      const bool ok = m[1] == "\"" ? name.rfind("core/", 0) == 0 &&
                                         fs::exists(fs::path(CANASTA_SOURCE_DIR) / name)
                                   : StandardHeaders().count(name) > 0;
      EXPECT_TRUE(ok) << e.path().filename().string() << ":" << n << ": core/ may include only "
                      << "core/ headers and the standard library, not " << m[0];
    }
  }
  EXPECT_GE(files, 20);  // the scan saw the sources
}

// The scan's own rule, on lines it must refuse and accept.
TEST(EngineHygiene, IncludeScanTellsCoreFromTheRest) {
  const std::regex include(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  std::smatch m;
  const std::string bad = "#include \"replay/auditor.h\"";
  ASSERT_TRUE(std::regex_search(bad, m, include));
  EXPECT_NE(std::string(m[2]).rfind("core/", 0), 0u);
  const std::string lua = "#include <lua.hpp>";
  ASSERT_TRUE(std::regex_search(lua, m, include));
  EXPECT_EQ(StandardHeaders().count(m[2]), 0u);
  const std::string ok = "  #  include <vector>";
  ASSERT_TRUE(std::regex_search(ok, m, include));
  EXPECT_EQ(StandardHeaders().count(m[2]), 1u);
}

// ===========================================================================
// Every public function of the engine is tested directly: its name appears in
// a test. The scan reads each core/ header (not the *_internal.h ones, which
// only core/ sources include) and keeps the names of functions declared at
// namespace scope or in a public section of a class reachable from there,
// skipping inline bodies; a name no file of tests/ mentions fails the test.

// The names of the public functions a header declares (capitalised names,
// as the house style gives functions; accessors in snake_case are left out).
std::set<std::string> PublicFunctionNames(const std::string& text) {
  struct Scope {
    int body_depth;  // brace depth inside the scope
    bool visible;    // reachable by a user of the header
    bool is_public;  // the current access section
  };
  std::vector<Scope> scopes{{0, true, true}};  // the file
  const std::regex head(R"(^\s*(template\s*<[^>]*>\s*)?(class|struct|union|enum|namespace)\b)");
  const std::regex access(R"(^\s*(public|private|protected)\s*:)");
  const std::regex function(R"(\b([A-Z][A-Za-z0-9]*)\s*\()");
  const std::regex not_declaration(R"(\b(return|if|while|for|switch)\b|=)");
  std::set<std::string> names;
  std::istringstream in(text);
  int depth = 0;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find("//"));
    std::smatch m;
    const Scope& top = scopes.back();
    const bool here = depth == top.body_depth;  // a member, not a line of an inline body
    if (here && std::regex_search(line, m, access)) {
      scopes.back().is_public = m[1] == "public";
      continue;
    }
    const int opens = int(std::count(line.begin(), line.end(), '{'));
    const int closes = int(std::count(line.begin(), line.end(), '}'));
    if (here && std::regex_search(line, head) && opens > closes) {
      // A class starts private; a struct, a union and a namespace public.
      const bool is_class =
          line.find("class") != std::string::npos && line.find("enum") == std::string::npos;
      scopes.push_back({depth + 1, top.visible && top.is_public, !is_class});
    } else if (here && top.visible && top.is_public) {
      std::string rest = line;
      const size_t stop = rest.find_first_of("{=");  // a body or a default value follows
      const std::string decl = rest.substr(0, stop);
      if (!std::regex_search(decl, not_declaration)) {
        for (auto it = std::sregex_iterator(decl.begin(), decl.end(), function);
             it != std::sregex_iterator(); ++it)
          names.insert((*it)[1]);
      }
    }
    depth += opens - closes;
    while (scopes.size() > 1 && depth < scopes.back().body_depth) scopes.pop_back();
  }
  return names;
}

TEST(EngineHygiene, PublicFunctionScanKeepsOnlyWhatAUserCanCall) {
  const std::string header = R"(
namespace canasta {
int FreeOne(int a);
class Widget {
 public:
  Widget();
  void Visible(int x) {
    Hidden(x);
  }
  template <class M>
  bool Templated(const M& m);
  struct Inner {
    int ReachableToo() const;
  };
  enum class Kind : int {
    kA,
    kB
  };
  int AfterEnum();
 private:
  void Private();
  struct Secret {
    void NotReachable();
  };
 public:
  void AgainPublic();  // Comment(
};
namespace detail {
int InDetail();
}  // namespace detail
int AfterDetail();
}  // namespace canasta
int AtFileScope();
)";
  EXPECT_EQ(PublicFunctionNames(header),
            (std::set<std::string>{"FreeOne", "Widget", "Visible", "Templated", "ReachableToo",
                                   "AfterEnum", "AgainPublic", "InDetail", "AfterDetail",
                                   "AtFileScope"}));
}

TEST(EngineHygiene, EveryPublicLibraryFunctionIsNamedInATest) {
  namespace fs = std::filesystem;
  auto read = [](const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  // Every identifier the tests spell, once.
  std::set<std::string> named;
  for (const fs::directory_entry& e :
       fs::directory_iterator(fs::path(CANASTA_SOURCE_DIR) / "tests")) {
    if (e.path().extension() != ".cc" && e.path().extension() != ".h") continue;
    const std::string text = read(e.path());
    for (size_t i = 0; i < text.size();) {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      if (j > i) named.insert(text.substr(i, j - i));
      i = j + 1;
    }
  }
  // The engine, and the libraries an app links beside it (cli/ is tested
  // through the program).
  for (const char* dir : {"core", "replay", "lint", "scripting", "review"}) {
    int headers = 0, functions = 0;
    for (const fs::directory_entry& e :
         fs::directory_iterator(fs::path(CANASTA_SOURCE_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      if (e.path().extension() != ".h" || name.find("_internal.h") != std::string::npos) continue;
      ++headers;
      for (const std::string& f : PublicFunctionNames(read(e.path()))) {
        ++functions;
        EXPECT_TRUE(named.count(f) > 0)
            << dir << "/" << name << ": " << f << " is public and no test names it";
      }
    }
    EXPECT_GE(headers, 1) << dir;    // the scan saw the headers
    EXPECT_GE(functions, 4) << dir;  // and their functions
  }
}

// ===========================================================================
// Cards

TEST(EngineHygiene, AnInvalidCardIsNeverHeld) {
  CardCounts counts;
  counts.Add(C("KS"));
  EXPECT_EQ(counts.count(Card()), 0);  // read past the array before
  counts.Add(Card());
  EXPECT_EQ(counts.total(), 1);
  EXPECT_FALSE(counts.Remove(Card()));
  EXPECT_EQ(counts.total(), 1);
  EXPECT_TRUE(counts.Consistent());
}

TEST(EngineHygiene, CardCountsSaturateAt255Copies) {
  CardCounts counts;
  counts.Add(C("KS"), 300);
  EXPECT_EQ(counts.count(C("KS")), 255);
  EXPECT_EQ(counts.total(), 255);
  EXPECT_TRUE(counts.saturated());
  EXPECT_TRUE(counts.Consistent());
}

TEST(EngineHygiene, RedThreesIn) {
  CardCounts counts;
  for (Card c : Cs({"3H", "3D", "3D", "3S", "3C", "KH"})) counts.Add(c);
  EXPECT_EQ(RedThreesIn(counts), 3);
  EXPECT_EQ(RedThreesIn(CardCounts()), 0);
}

TEST(EngineHygiene, MeldRanksAreFourToAce) {
  ASSERT_EQ(kMeldRanks.size(), 11u);
  EXPECT_EQ(kMeldRanks.front(), Rank::kFour);
  EXPECT_EQ(kMeldRanks.back(), Rank::kAce);
  for (size_t i = 1; i < kMeldRanks.size(); ++i)
    EXPECT_EQ(int(kMeldRanks[i]), int(kMeldRanks[i - 1]) + 1);
}

TEST(EngineHygiene, GroupByRankPutsJokersFirst) {
  CardCounts hand;
  for (Card c : Cs({"2C", "KS", "JK", "KH", "2H", "4D", "JK", "3S"})) hand.Add(c);
  RankGroups g = GroupByRank(hand);
  EXPECT_EQ(g.wilds, Cs({"JK", "JK", "2H", "2C"}));
  EXPECT_EQ(g.naturals[int(Rank::kKing)], Cs({"KS", "KH"}));
  EXPECT_EQ(g.naturals[int(Rank::kFour)], Cs({"4D"}));
  EXPECT_EQ(g.naturals[int(Rank::kThree)], Cs({"3S"}));
  EXPECT_TRUE(g.naturals[int(Rank::kAce)].empty());
}

// ===========================================================================
// Arithmetic on hostile numbers (UBSan finds no signed overflow)

TEST(EngineHygiene, SaturatingScoreArithmetic) {
  EXPECT_EQ(SaturatingAdd(INT_MAX, 1), INT_MAX);
  EXPECT_EQ(SaturatingAdd(-INT_MAX, -5), -INT_MAX);  // so that it can be negated
  EXPECT_EQ(SaturatingAdd(2, 3), 5);
  EXPECT_EQ(SaturatingMul(INT_MAX, 2), INT_MAX);
  EXPECT_EQ(SaturatingMul(-3, INT_MAX), -INT_MAX);
  EXPECT_EQ(SaturatingMul(4, 500), 2000);
  ScoreBreakdown b;
  b.canastas = INT_MAX;
  b.going_out = 100;
  EXPECT_EQ(b.total(), INT_MAX);
  b.canastas = 500;
  b.in_hand = -30;
  EXPECT_EQ(b.total(), 570);
}

DealMove FullDeal() {
  // A deal from the test log builder: a consistent pack.
  test::Log log;
  test::DealSpec d;
  log.Deal(d);
  return log.deal_move();
}

TEST(EngineHygiene, HandNumberAfterIntMax) {
  const Rules rules;
  Game game(rules, DefaultHooks());
  TaggedViolations v = game.StartDeal(INT_MAX, FullDeal());
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].violation.message, "this deal is numbered 2147483647; the next is 1");
  game.FinishDeal();
  DealMove next = FullDeal();
  next.dealer = 1;
  v = game.StartDeal(INT_MAX, next);  // last + 1 overflowed int here
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].violation.message, "this deal is numbered 2147483647; the next is 2147483648");
}

// A game keeps its last position's storage for the thread's next game
// (Game::~Game): the next game's first deal starts with no card of it, even
// when the next game has another number of sides.
TEST(EngineHygiene, NextGameStartsCleanOnTheLastGamesStorage) {
  const Rules four;  // two sides
  Rules three;
  three.num_players = 3;
  three.hand_size = 13;
  ASSERT_EQ(three.num_sides(), 3);
  std::unique_ptr<Bot> bot = MakeRandomBot();
  Rng rng(7);
  bool melded = false;
  for (int i = 0; i < 3; ++i) {
    Game game(four, DefaultHooks());
    game.StartDeal(1, ShuffledDeal(four, 0, rng));
    PlayOut(game.position(), *bot, rng, 5000);
    for (int side = 0; side < 2; ++side) melded |= !game.position()->melds(side).empty();
  }
  ASSERT_TRUE(melded);  // there was storage to keep
  for (const Rules* rules : {static_cast<const Rules*>(&three), &four}) {
    Game game(*rules, DefaultHooks());
    const DealMove deal = ShuffledDeal(*rules, 0, rng);
    Position fresh(*rules, DefaultHooks(), std::vector<int>(size_t(rules->num_sides()), 0));
    const TaggedViolations expected = fresh.Deal(deal);
    const TaggedViolations found = game.StartDeal(1, deal);
    ASSERT_EQ(found.size(), expected.size());
    const Position& pos = *game.position();
    for (int side = 0; side < rules->num_sides(); ++side) {
      EXPECT_TRUE(pos.melds(side).empty());
      EXPECT_TRUE(pos.threes(side).empty());
    }
    EXPECT_EQ(pos.pile(), fresh.pile());
    EXPECT_EQ(pos.stock_size(), fresh.stock_size());
    for (int seat = 0; seat < rules->num_players; ++seat)
      EXPECT_EQ(pos.hand(seat).total(), fresh.hand(seat).total());
    PlayOut(game.position(), *bot, rng, 5000);
  }
}

TEST(EngineHygiene, DealerIntMaxThenASeat) {
  const Rules rules;
  Game game(rules, DefaultHooks());
  DealMove d = FullDeal();
  d.dealer = INT_MAX;
  TaggedViolations v = game.StartDeal(1, d);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].violation.id, CheckId::kDealDealer);
  game.FinishDeal();
  d.dealer = 2;  // no rotation to check after a dealer who is no seat
  EXPECT_TRUE(game.StartDeal(2, d).empty());
}

TEST(EngineHygiene, HugeRulesetValuesSaturateTheScore) {
  Rules rules;
  rules.undeclared_red_three_penalty = INT_MAX;
  rules.card_value[int(Rank::kAce)] = INT_MAX;
  test::Log log;
  test::DealSpec d;
  d.hands = {{}, {"3H", "3D", "AS", "AS", "AH"}};
  log.Deal(d);
  Position pos(rules, DefaultHooks(), {0, 0});
  EXPECT_EQ(pos.Deal(log.deal_move()).size(), 0u);
  const Card drawn = *log.stock_next();
  pos.Play(DrawMove{1, {drawn}});
  pos.Play(DiscardMove{1, drawn});
  const TaggedViolations end = pos.End(0);
  ASSERT_EQ(end.size(), 2u);  // the deal ends early; seat 1 holds two red threes
  EXPECT_EQ(end[1].violation.id, CheckId::kRedThreeUndeclared);
  const std::vector<ScoreBreakdown> s = pos.Score();
  EXPECT_EQ(s[1].penalties, -INT_MAX);
  EXPECT_EQ(s[1].in_hand, -INT_MAX);
  EXPECT_EQ(s[1].total(), -INT_MAX);
}

}  // namespace
}  // namespace canasta
