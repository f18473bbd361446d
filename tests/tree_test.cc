// `canasta tree` as a user runs it: golden DOT trees of scripted hands (the
// alternatives are exactly the expected groups, the played line is the
// highlighted one), the formats by extension, well-formed SVG, the same seed
// giving the same bytes, and the committed sample review and tree.
//
// After a deliberate change, regenerate with
//   CANASTA_UPDATE_GOLDEN=1 build/tests/canasta_tests --gtest_filter='TreeGolden*'
// and review the diff (tests/golden/trees/, samples/review/).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = CANASTA_SOURCE_DIR;
const std::string kSample = (kSource / "samples/classic/game.jsonl").string();

struct Result {
  int status = -1;
  std::string out;
};

// `canasta ARGS`, from the source tree (relative paths as the README has
// them), stdout only unless `with_stderr`.
Result Canasta(const std::string& args, bool with_stderr = false) {
  const std::string cmd = "cd '" + kSource.string() + "' && " + std::string(CANASTA_BINARY) + " " +
                          args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Updating() {
  const char* v = std::getenv("CANASTA_UPDATE_GOLDEN");
  return v && *v && std::string(v) != "0";
}

// Compares `text` with the golden file (rewriting it when updating).
void ExpectGolden(const fs::path& golden, const std::string& text) {
  if (Updating()) {
    fs::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << text;
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " is missing: run with CANASTA_UPDATE_GOLDEN=1";
  EXPECT_EQ(ReadAll(golden), text) << "differs from " << golden;
}

// The DOT edges: tail, head, attributes.
struct Edge {
  std::string from, to, attrs;
};
std::vector<Edge> Edges(const std::string& dot) {
  std::vector<Edge> out;
  const std::regex re(R"(\n\s*(\w+) -> (\w+)\s*(\[[^\]]*\])?)");
  for (auto it = std::sregex_iterator(dot.begin(), dot.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back({(*it)[1], (*it)[2], (*it)[3]});
  return out;
}

// The plain-text label of node `id` (the alternatives' labels).
std::string NodeLabel(const std::string& dot, const std::string& id) {
  std::smatch m;
  const std::regex re("\\n\\s*" + id + "\\s*\\[[^\\]]*?label=\"((?:[^\"\\\\]|\\\\.)*)\"");
  return std::regex_search(dot, m, re) ? std::string(m[1]) : "";
}

// The alternatives drawn beside decision node `id`.
std::vector<std::string> AlternativesOf(const std::string& dot, const std::string& id) {
  std::vector<std::string> out;
  for (const Edge& e : Edges(dot))
    if (e.from == id && e.to[0] == 'a') out.push_back(NodeLabel(dot, e.to));
  return out;
}

struct Case {
  const char* name;
  const char* args;
};
// Scripted hands of the classic sample: every turn, only the groups; the key
// decisions; every turn of a short hand, evaluated.
const Case kCases[] = {
    {"classic-hand1-all", "tree --all --format dot samples/classic/game.jsonl"},
    {"classic-hand2-key", "tree --hand 2 --format dot samples/classic/game.jsonl"},
    {"classic-hand4-values", "tree --hand 4 --rollouts 4 --seed 3 --format dot "
                             "samples/classic/game.jsonl"},
    {"hutto-hand1-key", "tree --format dot samples/hutto/game.jsonl"},
};

TEST(TreeGolden, DotTextOfScriptedHands) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    Result r = Canasta(c.args);
    ASSERT_EQ(r.status, 0) << r.out.substr(0, 300);
    ASSERT_EQ(r.out.rfind("digraph", 0), 0u);
    ExpectGolden(kSource / "tests/golden/trees" / (std::string(c.name) + ".dot"), r.out);
  }
}

// The played line: bold blue edges from the deal, through every decision, to
// the hand's scores, one after the other; no alternative is on it, and every
// alternative hangs off a decision by a dashed or dotted edge.
TEST(TreeGolden, ThePlayedPathIsTheHighlightedOne) {
  Result r = Canasta("tree --all --format dot samples/classic/game.jsonl");
  ASSERT_EQ(r.status, 0);
  std::string at = "start";
  std::set<std::string> on_path = {at};
  int steps = 0, alternatives = 0;
  for (const Edge& e : Edges(r.out)) {
    const bool played = e.attrs.find("#1f5fbf") != std::string::npos;
    if (played) {
      EXPECT_EQ(e.from, at) << e.to;
      EXPECT_NE(e.attrs.find("penwidth=2.5"), std::string::npos) << e.attrs;
      EXPECT_NE(e.to[0], 'a') << "an alternative on the played line";
      at = e.to;
      on_path.insert(at);
      ++steps;
    } else {
      EXPECT_EQ(e.to[0], 'a') << e.from << " -> " << e.to;
      EXPECT_TRUE(on_path.count(e.from)) << e.from;
      EXPECT_TRUE(e.attrs.find("dashed") != std::string::npos ||
                  e.attrs.find("dotted") != std::string::npos)
          << e.attrs;
      ++alternatives;
    }
  }
  EXPECT_EQ(at, "end");
  EXPECT_GT(steps, 40);
  EXPECT_GT(alternatives, 40);
}

// The groups beside a decision are exactly the expected ones: equivalent
// plays once (one rank's suits, one event or two), the move played never.
TEST(TreeGolden, TheAlternativesAreTheExpectedGroups) {
  Result r = Canasta("tree --all --format dot samples/classic/game.jsonl");
  ASSERT_EQ(r.status, 0);
  // d0: Bob's first draw (line 3), the pile a single 5S, frozen for his side.
  EXPECT_EQ(AlternativesOf(r.out, "d0"), std::vector<std::string>{})
      << "drawing was the only way";
  // d1: Bob's first play (line 4 on): melded 9S 9S 9D 2H, added 2S, discarded 3S.
  const std::vector<std::string> play = AlternativesOf(r.out, "d1");
  // Bob held 9S 9S 9D, twos and the joker: the melds he did not lay (with
  // the joker), asking to go out, the other discards; "melded 9S 9S 9D 2H
  // 2S" is what he laid in two events, so it is not offered.
  const std::vector<std::string> expected = {
      "melded 9S 9S JK", "melded 9S 9S 9D JK", "melded 9S 9S 9D 2S JK",
      "asked \\\"may I go out?\\\"", "+9 more", "instead of 3S: discarded 4D",
      "instead of 3S: discarded 8C", "instead of 3S: discarded QC", "instead of 3S: discarded KD",
      "+2 more"};
  EXPECT_EQ(play, expected);
  for (const std::string& a : play) {
    EXPECT_EQ(a.find("melded 9S 9S 9D 2H 2S"), std::string::npos) << "played in two events";
    EXPECT_EQ(a.find("instead of 3S: discarded 3S"), std::string::npos) << "the move played";
  }
  std::set<std::string> unique(play.begin(), play.end());
  EXPECT_EQ(unique.size(), play.size()) << "a group drawn twice";
}

TEST(TreeFormats, ByExtensionAndUsageErrors) {
  const canasta::test::TempDir temp;
  const fs::path dir = temp.path();
  ASSERT_EQ(Canasta("tree -o " + (dir / "t.png").string() + " " + kSample).status, 0);
  EXPECT_EQ(ReadAll(dir / "t.png").substr(0, 8), "\x89PNG\r\n\x1a\n");
  ASSERT_EQ(Canasta("tree -o " + (dir / "t.pdf").string() + " " + kSample).status, 0);
  EXPECT_EQ(ReadAll(dir / "t.pdf").substr(0, 5), "%PDF-");
  ASSERT_EQ(Canasta("tree -o " + (dir / "t.dot").string() + " " + kSample).status, 0);
  EXPECT_EQ(ReadAll(dir / "t.dot").rfind("digraph", 0), 0u);
  ASSERT_EQ(Canasta("tree -o " + (dir / "t.SVG").string() + " " + kSample).status, 0);
  EXPECT_NE(ReadAll(dir / "t.SVG").find("<svg"), std::string::npos);
  // --format overrides the extension.
  ASSERT_EQ(Canasta("tree --format dot -o " + (dir / "t.txt").string() + " " + kSample).status, 0);
  EXPECT_EQ(ReadAll(dir / "t.txt").rfind("digraph", 0), 0u);
  // An unknown extension: a usage error naming the supported ones, nothing written.
  Result bad = Canasta("tree -o " + (dir / "t.jpeg").string() + " " + kSample, true);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("use .svg, .png, .pdf or .dot"), std::string::npos) << bad.out;
  EXPECT_FALSE(fs::exists(dir / "t.jpeg"));
  bad = Canasta("tree -o " + (dir / "noext").string() + " " + kSample, true);
  EXPECT_EQ(bad.status, 2);
  bad = Canasta("tree --format gif " + kSample, true);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("svg, png, pdf or dot"), std::string::npos) << bad.out;
  // A value out of range names its option, its value and the range.
  Result low = Canasta("tree --rollouts -1 " + kSample, true);
  EXPECT_EQ(low.status, 2);
  EXPECT_EQ(low.out, "canasta tree: error: --rollouts is -1; it must be 0 to 100000\n");
  EXPECT_EQ(Canasta("tree --rollouts 100001 " + kSample).status, 2);
  // 100000 is in range: the log's absence is the only trouble then.
  Result most = Canasta("tree --rollouts 100000 /nonexistent/log.jsonl", true);
  EXPECT_EQ(most.status, 2);
  EXPECT_EQ(most.out.find("--rollouts is"), std::string::npos) << most.out;
  // Hands and games count from 1: 0 is no hand (it was taken as hand 1).
  for (const char* option : {"hand", "game"}) {
    for (const char* value : {"0", "-1"}) {
      Result r = Canasta(std::string("tree --") + option + " " + value + " " + kSample, true);
      EXPECT_EQ(r.status, 2) << option << " " << value;
      EXPECT_EQ(r.out, std::string("canasta tree: error: --") + option + " is " + value +
                           "; it must be at least 1\n");
    }
  }
  // Every option out of range is named, not only the first.
  Result two = Canasta("tree --jobs 0 --hand 0 " + kSample, true);
  EXPECT_EQ(two.out,
            "canasta tree: error: --jobs is 0; it must be 1 to 256\n"
            "canasta tree: error: --hand is 0; it must be at least 1\n");
  // PNG to a pipe is what was asked for.
  Result pipe = Canasta("tree --format png " + kSample);
  EXPECT_EQ(pipe.status, 0);
  EXPECT_EQ(pipe.out.substr(1, 3), "PNG");
}

// No binary to a terminal: under a pseudo-terminal (util-linux `script`), a
// PNG without -o is refused with what to pass; SVG text is written.
TEST(TreeFormats, NothingBinaryToATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "util-linux `script` is not installed: no pseudo-terminal to test with";
  const std::string bin = CANASTA_BINARY;
  auto tty = [&](const std::string& args) {
    const std::string cmd = "script -qec '" + bin + " " + args + "' /dev/null </dev/null 2>&1";
    Result r;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  };
  Result png = tty("tree --format png " + kSample);
  EXPECT_EQ(png.status, 2) << png.out.substr(0, 200);
  EXPECT_NE(png.out.find("pass -o FILE.png"), std::string::npos) << png.out.substr(0, 200);
  EXPECT_EQ(png.out.find("PNG"), std::string::npos);
  Result svg = tty("tree " + kSample);
  EXPECT_EQ(svg.status, 0);
  EXPECT_NE(svg.out.find("<svg"), std::string::npos);
}

// Well-formed XML, by xmllint (Debian's libxml2-utils) where installed.
TEST(TreeFormats, SvgIsWellFormedXml) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "xmllint is not installed (Debian package libxml2-utils): SVG not parsed";
  const canasta::test::TempDir temp;
  const fs::path svg = fs::path(temp.path()) / "tree.svg";
  for (const char* args : {"--all", "--hand 4 --rollouts 2"}) {
    ASSERT_EQ(Canasta(std::string("tree ") + args + " -o " + svg.string() + " " + kSample).status,
              0);
    EXPECT_EQ(std::system(("xmllint --noout " + svg.string()).c_str()), 0) << args;
  }
}

// A player's name from the log with a line break and a terminal's control
// code: shown escaped in the labels, as findings show it. Graphviz's HTML
// parser refused the raw byte (an error on stderr, a label lost), and DOT on
// a terminal would have sent it there.
TEST(TreeFormats, ControlCodesInTheLogAreShownEscaped) {
  const canasta::test::TempDir temp;
  std::ifstream in(kSource / kSample, std::ios::binary);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string ann = "\"Ann\"";
  ASSERT_NE(log.find(ann), std::string::npos);
  log.replace(log.find(ann), ann.size(), "\"Ann\\n\\u001b[2J\"");
  const fs::path file = fs::path(temp.path()) / "names.jsonl";
  std::ofstream(file, std::ios::binary) << log;
  const Result dot = Canasta("tree --hand 1 --rollouts 2 --format dot " + file.string(), true);
  EXPECT_EQ(dot.status, 0);
  EXPECT_EQ(dot.out.find('\x1b'), std::string::npos);
  EXPECT_NE(dot.out.find("turn 4 \u00b7 Ann\\n\\x1b[2J \u00b7 line 17"), std::string::npos)
      << dot.out.substr(0, 2000);
  const fs::path svg = fs::path(temp.path()) / "names.svg";
  const Result rendered =
      Canasta("tree --hand 1 --rollouts 2 -o " + svg.string() + " " + file.string(), true);
  EXPECT_EQ(rendered.status, 0);
  EXPECT_EQ(rendered.out, "");  // no error of Graphviz's
  std::ifstream svg_in(svg, std::ios::binary);
  const std::string svg_text((std::istreambuf_iterator<char>(svg_in)),
                             std::istreambuf_iterator<char>());
  EXPECT_NE(svg_text.find("Ann\\n\\x1b[2J"), std::string::npos);
}

TEST(TreeValues, SameSeedSameBytesWhateverTheJobs) {
  const std::string base = "tree --all --hand 4 --rollouts 3 --format dot ";
  Result a = Canasta(base + "--seed 5 " + kSample);
  ASSERT_EQ(a.status, 0);
  EXPECT_EQ(a.out, Canasta(base + "--seed 5 " + kSample).out);
  EXPECT_EQ(a.out, Canasta(base + "--seed 5 --jobs 2 " + kSample).out);
  EXPECT_NE(a.out, Canasta(base + "--seed 6 " + kSample).out);
  // Values on the alternatives' edges, relative to the move played.
  EXPECT_TRUE(std::regex_search(a.out, std::regex("label=\"[+-]?[0-9]+ \u00b1 [0-9]+\"")))
      << a.out.substr(0, 1500);
  EXPECT_NE(a.out.find("3 rollouts, seed 5"), std::string::npos);
}

// samples/review/: what the README's commands produce now, byte for byte.
TEST(TreeGolden, TheCommittedSampleReviewIsWhatTheCommandsProduce) {
  const canasta::test::TempDir temp;
  const fs::path dir = temp.path();
  struct Sample {
    const char* file;
    const char* command;
  };
  // The README's commands (Samples section), with the output redirected.
  const Sample samples[] = {
      {"classic-hand1.html", "review samples/classic/game.jsonl --hand 1 --jobs 2 -o "},
      {"classic-hand1.svg",
       "tree samples/classic/game.jsonl --hand 1 --rollouts 16 --jobs 2 -o "},
  };
  const std::string readme = ReadAll(kSource / "README.md");
  for (const Sample& s : samples) {
    SCOPED_TRACE(s.file);
    const std::string as_in_readme =
        std::string("build/canasta ") + s.command + "samples/review/" + s.file;
    EXPECT_NE(readme.find(as_in_readme), std::string::npos) << as_in_readme;
    const fs::path out = Updating() ? kSource / "samples/review" / s.file : dir / s.file;
    ASSERT_EQ(Canasta(std::string(s.command) + out.string()).status, 0);
    if (!Updating()) {
      EXPECT_EQ(ReadAll(out), ReadAll(kSource / "samples/review" / s.file));
    }
  }
}

}  // namespace
