// Every subcommand that reads a log, run as a user runs it over hostile
// inputs like those of the reader tests (issue 7, "Every input accounted
// for"): each run ends with exit status 0, 1 or 2 (never a signal, never an
// abort), within `timeout 20`, and says something about the bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include "tests/run_shell.h"

namespace {

namespace fs = std::filesystem;

using RunResult = canasta::test::ShellRun;  // out: stdout and stderr together

// Runs `canasta ARGS FILE` under `timeout 20` (status 124 when it hangs;
// a signal shows as 128 + its number).
RunResult Canasta(const std::string& args, const fs::path& file) {
  return canasta::test::RunShell("timeout 20 " + std::string(CANASTA_BINARY) + " " + args + " '" +
                                     file.string() + "' 2>&1 </dev/null",
                                 1u << 20);
}

std::vector<std::string> SampleLines() {
  std::ifstream in(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl",
                   std::ios::binary);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string Join(const std::vector<std::string>& lines, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to && i < lines.size(); ++i) s += lines[i] + "\n";
  return s;
}

// Replaces the first `from` in `s` by `to`.
std::string Replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

std::string Cards(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += std::string(i ? "," : "") + "\"9S\"";
  return s + "]";
}

// The hostile inputs: (file name, contents).
std::vector<std::pair<std::string, std::string>> HostileInputs() {
  const std::vector<std::string> sample = SampleLines();
  EXPECT_EQ(sample.size(), 597u);
  const std::string& header = sample[0];
  const std::string& deal = sample[1];  // hand 1, dealt by seat 0
  std::vector<std::pair<std::string, std::string>> in;
  in.emplace_back("empty.jsonl", "");
  in.emplace_back("nul.jsonl", std::string(1, '\0'));
  {
    std::mt19937 random(20261201);
    std::string bytes;
    for (int i = 0; i < 65536; ++i) bytes += char(random() & 0xff);
    in.emplace_back("random.jsonl", bytes);
  }
  in.emplace_back("brackets.jsonl", std::string(2u << 20, '['));
  {
    std::string line;
    for (int i = 0; i < 100000; ++i) line += "{\"a\":";
    in.emplace_back("nested.jsonl", line + "\n");
  }
  // Invalid UTF-8 in a string of the header, then inside a hand: in a note,
  // in a card, and a line of bare bytes.
  in.emplace_back("utf8-header.jsonl",
                  Replace(header, "\"Ann\"", "\"A\xc3\x28\xff\"") + "\n" + Join(sample, 1, 77));
  in.emplace_back("utf8.jsonl", Join(sample, 0, 3) +
                                    "{\"type\":\"note\",\"text\":\"\xed\xa0\x80\xc0\xaf\"}\n" +
                                    "{\"type\":\"discard\",\"player\":1,\"card\":\"3\xe2\x99\"}\n" +
                                    "\xfe\xff\n" + Join(sample, 3, 77));
  // The "player": -1 of issue 7 (tree died of std::bad_alloc).
  in.emplace_back("player-minus-one.jsonl", header + "\n" + deal + "\n" +
                                                R"({"type":"draw","player":-1,"cards":["QC"]})" +
                                                "\n" + Join(sample, 3, 20));
  in.emplace_back("huge-hand.jsonl",
                  header + "\n" + Replace(deal, "\"hand\":1,", "\"hand\":1000000,") + "\n" +
                      Join(sample, 2, 77) +
                      Replace(sample[76], "\"hand\":1,", "\"hand\":2147483647,") + "\n");
  in.emplace_back("huge-hand-first.jsonl", header + "\n" +
                                               Replace(deal, "\"hand\":1,", "\"hand\":1000000,") +
                                               "\n" + Join(sample, 2, 77));
  {
    // Seat 0's 11 cards become 200.
    std::string big = deal;
    const size_t from = big.find("\"hands\":[") + 9;
    big.replace(from, big.find(']', from) + 1 - from, Cards(200));
    in.emplace_back("deal-200-cards.jsonl", header + "\n" + big + "\n" + Join(sample, 2, 77));
  }
  // Seat 3 takes the pile (line 10), then takes it again: it is empty.
  in.emplace_back("take-empty-pile.jsonl",
                  Join(sample, 0, 10) + sample[9] + "\n" + Join(sample, 10, 77));
  in.emplace_back("meld-500.jsonl", Join(sample, 0, 3) +
                                        R"({"type":"meld","player":1,"melds":[{"cards":)" +
                                        Cards(500) + "}]}\n" + Join(sample, 3, 77));
  {
    std::string s = header + "\n";
    for (int hand = 1; hand <= 3; ++hand)
      s += "{\"type\":\"end_hand\",\"hand\":" + std::to_string(hand) +
           R"(,"dealer":0,"scores":[1000000000,-1000000000],"totals":[1000000000,-1000000000],)"
           R"("breakdown":[{"canastas":1000000000,"melded":1000000000,"in_hand":-1000000000},)"
           R"({"red_threes":-1000000000,"penalties":-1000000000}]})"
           "\n";
    s += R"({"type":"end_game","totals":[1000000000,-1000000000],"winner":0})"
         "\n";
    in.emplace_back("scores-1e9.jsonl", s);
    // The same numbers after a hand played out.
    in.emplace_back(
        "played-then-1e9.jsonl",
        Join(sample, 0, 77) + Replace(s.substr(s.find('\n') + 1), "\"hand\":1,", "\"hand\":2,"));
  }
  {
    const std::string& last = sample[100];
    in.emplace_back("truncated.jsonl", Join(sample, 0, 100) + last.substr(0, last.size() / 2));
  }
  return in;
}

const char* const kCommands[] = {
    "audit",
    "tree --hand 1 --format dot",
    "review --hand 1 --rollouts 2 --max-rollouts 2",
    "sheet export",
};

class SubcommandInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("canasta-subcommand-inputs-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path Write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  fs::path dir_;
};

TEST_F(SubcommandInputs, EveryRunEndsWithAStatusAndSaysWhy) {
  const auto inputs = HostileInputs();
  ASSERT_EQ(inputs.size(), 16u);
  for (const auto& [name, text] : inputs) {
    const fs::path file = Write(name, text);
    for (const char* command : kCommands) {
      SCOPED_TRACE(std::string(command) + " " + name);
      const RunResult r = Canasta(command, file);
      EXPECT_TRUE(r.status == 0 || r.status == 1 || r.status == 2)
          << "status " << r.status << " (124: timed out; 128+N: signal N)\n"
          << r.out.substr(0, 2000);
      EXPECT_NE(r.out.find('\n'), std::string::npos) << "nothing printed";
    }
  }
}

// A directory opens and reads as nothing: every command that reads one
// file says it cannot, with the reason, as for a file that is not there.
TEST_F(SubcommandInputs, ADirectoryOrAMissingFileCannotBeReadAndSaysWhy) {
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"tree --hand 1", "canasta tree"},
      {"review --hand 1", "canasta review"},
      {"sheet export", "canasta sheet"},
      {"sheet import", "canasta sheet"},
      {"summarize", "canasta"}};
  for (const auto& [command, prefix] : commands) {
    for (const auto& [path, reason] : std::vector<std::pair<fs::path, std::string>>{
             {dir_, "Is a directory"}, {dir_ / "missing.jsonl", "No such file or directory"}}) {
      SCOPED_TRACE(command + " " + path.string());
      const RunResult r = Canasta(command, path);
      EXPECT_EQ(r.status, 2);
      EXPECT_EQ(r.out.substr(0, r.out.find('\n') + 1),
                prefix + ": error: cannot read '" + path.string() + "': " + reason + "\n")
          << r.out;
    }
  }
}

// A file with no game in it has no score sheet: exporting one is no
// success (issue 7: nothing to audit is not success), and says why.
TEST_F(SubcommandInputs, SheetExportOfAFileWithNoGameSaysWhy) {
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"empty.jsonl", ""}, {"nul.jsonl", std::string(1, '\0')}, {"words.jsonl", "hello\n"}}) {
    SCOPED_TRACE(name);
    const fs::path file = Write(name, text);
    const RunResult r = Canasta("sheet export", file);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find(file.string() + ":"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("error: this file is "), std::string::npos) << r.out;
  }
}

// Issue 7's own case: the line of the bad player index, and exit status 2
// for a hand the tree cannot show.
TEST_F(SubcommandInputs, TreeOnABadPlayerIndexReportsTheLine) {
  const std::vector<std::string> sample = SampleLines();
  const fs::path file =
      Write("player.jsonl", sample[0] + "\n" + sample[1] + "\n" +
                                R"({"type":"draw","player":-1,"cards":["QC"]})" + "\n");
  const RunResult r = Canasta("tree --hand 1 --format dot", file);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(file.string() + ": line 3: \"draw\" event: \"player\" is -1, out of range"),
            std::string::npos)
      << r.out;
}

}  // namespace
