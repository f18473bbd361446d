// The replay driver's observer callbacks, in order, and the decision trees
// on logs the reader accepts but the engine cannot always follow.
#include "replay/driver.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "replay/decisions.h"
#include "test_util.h"

namespace canasta {
namespace {

using test::DealSpec;
using test::Log;

// Writes every callback as one short line.
class Recorder : public ReplayObserver {
 public:
  void OnGameStart(const GameReport& g, const RulesetChoice* r) override {
    Say("game " + std::to_string(g.line) + (r ? " " + r->name : " not replayed"));
  }
  void OnHandStart(const Event& deal, const Position& pos) override {
    Say("hand " + std::to_string(*deal.hand) + " seat " + std::to_string(pos.current_player()));
  }
  void BeforeMove(const Event& e, const Position& pos) override {
    Say("before " + std::to_string(e.line) + " " + EventTypeName(e.type) + " pile " +
        std::to_string(pos.pile().size()));
  }
  void AfterMove(const Event& e, const Position& pos, const TaggedViolations& found) override {
    Say("after " + std::to_string(e.line) + " pile " + std::to_string(pos.pile().size()) +
        " found " + std::to_string(found.size()));
  }
  void OnHandEnd(const HandReport& h, const Event* end_hand, const Position* pos) override {
    Say("end hand " + std::to_string(h.hand) +
        (end_hand ? " at " + std::to_string(end_hand->line) : std::string(" unended")) +
        (pos ? "" : " lost deal"));
  }
  void OnGameEnd(const GameReport&, const Event* end_game) override {
    Say(end_game ? "end game at " + std::to_string(end_game->line) : "end game none");
  }
  void OnFinding(const Finding& f) override {
    Say("finding " + std::to_string(f.line) + " " + test::IdName(f.id));
  }
  void OnStateLost(int line, const std::string&) override { Say("lost " + std::to_string(line)); }
  std::string text;

 private:
  void Say(const std::string& s) { text += s + "\n"; }
};

void Replay(const std::string& log, ReplayObserver* o) {
  ReplayDriver driver{AuditOptions{}};
  driver.AddObserver(o);
  std::istringstream in(log);
  driver.Run(in, "test.jsonl");
}

TEST(ReplayDriver, CallbacksInOrder) {
  Log log;
  log.Deal(DealSpec{});
  log.PassTurn();  // seat 1 draws and discards the card drawn
  log.Draw(3);     // seat 2's turn: one violation
  log.Raw(R"({"type":"draw","player":-1,"cards":["5S"]})");
  log.Raw(R"({"type":"discard","player":2,"card":"4H"})");
  log.EndHand(1);
  log.EndGame();
  Recorder r;
  Replay(log.str(), &r);
  EXPECT_EQ(r.text,
            "game 1 classic\n"
            "hand 1 seat 1\n"
            "before 3 draw pile 1\n"
            "after 3 pile 1 found 0\n"
            "before 4 discard pile 1\n"
            "after 4 pile 2 found 0\n"
            "before 5 draw pile 2\n"
            "finding 5 turn-order\n"
            "after 5 pile 2 found 1\n"
            "finding 6 log-bad-event\n"
            "lost 6\n"
            "end hand 1 at 8\n"
            "finding 9 game-end\n"
            "end game at 9\n");
}

TEST(ReplayDriver, LostDealAndAnObserverThatStops) {
  Log log;
  log.Raw(R"({"type":"deal","hand":1,"dealer":0,"hands":7,"upcard":[]})");
  log.Raw(R"({"type":"draw","player":1,"cards":["5S"]})");
  log.EndHand(1);
  log.Deal(DealSpec{2, 1});
  log.Draw(2);
  Recorder r;
  Replay(log.str(), &r);
  EXPECT_EQ(r.text,
            "game 1 classic\n"
            "finding 2 log-bad-event\n"
            "lost 2\n"
            "end hand 1 at 4 lost deal\n"
            "hand 2 seat 2\n"
            "before 6 draw pile 1\n"
            "after 6 pile 1 found 0\n"
            "finding 6 log-incomplete\n"
            "end hand 2 unended\n"
            "finding 6 log-incomplete\n"
            "end game none\n");

  // An observer may stop the replay: nothing after that event is read.
  class StopAtFirstMove : public ReplayObserver {
   public:
    explicit StopAtFirstMove(ReplayDriver* d) : driver_(d) {}
    void AfterMove(const Event&, const Position&, const TaggedViolations&) override {
      driver_->Stop();
    }

   private:
    ReplayDriver* driver_;
  };
  ReplayDriver driver{AuditOptions{}};
  StopAtFirstMove stop(&driver);
  driver.AddObserver(&stop);
  std::istringstream in(log.str());
  FileReport report = driver.Run(in, "x");
  ASSERT_EQ(report.games.size(), 1u);
  EXPECT_EQ(report.games[0].events, 6);  // header, deal, draw, end_hand, deal, draw: stopped
  EXPECT_TRUE(report.games[0].findings.size() == 1u &&
              report.games[0].findings[0].id == CheckId::kLogBadEvent);
}

#ifdef CANASTA_SOURCE_DIR
// Every log the reader accepts: the tree either draws the hand or says why,
// never crashes (issue 8). The classic sample with one line dropped, or one
// field replaced, at a time.
TEST(ReplayDriver, TreesSurviveMutatedLogs) {
  std::ifstream f(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl");
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  ASSERT_GT(lines.size(), 100u);
  const std::vector<std::pair<std::string, std::string>> swaps = {
      {"\"player\":1", "\"player\":-1"},     {"\"player\":2", "\"player\":99"},
      {"\"dealer\":0", "\"dealer\":-7"},     {"\"hand\":1", "\"hand\":2147483647"},
      {"\"cards\":[", "\"cards\":[\"JK\","}, {"\"card\":\"", "\"card\":\"3"}};
  int trees = 0, refused = 0;
  for (size_t k = 1; k < 80; k += 3) {
    for (int kind = 0; kind <= int(swaps.size()); ++kind) {
      std::string log;
      for (size_t i = 0; i < lines.size(); ++i) {
        std::string l = lines[i];
        if (i == k && kind == int(swaps.size())) continue;  // the line dropped
        if (i == k && kind < int(swaps.size())) {
          const size_t at = l.find(swaps[size_t(kind)].first);
          if (at != std::string::npos)
            l.replace(at, swaps[size_t(kind)].first.size(), swaps[size_t(kind)].second);
        }
        log += l + "\n";
      }
      std::istringstream in(log);
      HandDecisions d;
      std::string error;
      if (CollectDecisions(in, "m.jsonl", 1, 1, AuditOptions{}, &d, &error)) {
        ++trees;
        EXPECT_FALSE(d.decisions.empty());
      } else {
        ++refused;
        EXPECT_FALSE(error.empty());
      }
    }
  }
  EXPECT_GT(trees, 0);
  EXPECT_GT(refused, 0);
}
#endif

}  // namespace
}  // namespace canasta
