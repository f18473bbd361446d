#include "replay/log_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace canasta {
namespace {

using Cards = std::vector<Card>;

void ExpectSameBothWays(const std::string& text);

Card C(std::string_view text) {
  std::optional<Card> card = ParseCard(text);
  EXPECT_TRUE(card.has_value()) << text;
  return card.value_or(Card());
}

Cards Cs(std::initializer_list<std::string_view> texts) {
  Cards out;
  for (std::string_view t : texts) out.push_back(C(t));
  return out;
}

struct ReadResult {
  std::vector<Event> events;
  std::vector<InputProblem> problems;
};

ReadResult ReadAll(const std::string& text) {
  std::istringstream in(text);
  LogReader reader(in);
  ReadResult result;
  Event event;
  while (reader.Next(&event, &result.problems)) result.events.push_back(event);
  return result;
}

// Reads a log of exactly one line that must give one good event.
Event ReadOne(const std::string& line) {
  ReadResult r = ReadAll(line + "\n");
  EXPECT_TRUE(r.problems.empty()) << r.problems.front().message;
  EXPECT_EQ(r.events.size(), 1u);
  if (r.events.empty()) return Event();
  EXPECT_TRUE(r.events[0].ok);
  EXPECT_EQ(r.events[0].line, 1);
  return r.events[0];
}

// Reads one line that gives exactly one problem; returns it.
InputProblem OneProblem(const std::string& line, size_t expected_events) {
  ReadResult r = ReadAll(line + "\n");
  EXPECT_EQ(r.events.size(), expected_events) << line;
  EXPECT_EQ(r.problems.size(), 1u) << line;
  if (r.problems.empty()) return InputProblem{0, CheckId::kCount, ""};
  for (const Event& e : r.events) EXPECT_FALSE(e.ok);
  return r.problems[0];
}

// --- Every event type ---

TEST(LogReaderTest, Game) {
  Event e = ReadOne(R"({"type":"game","format":"canasta-log/1","ruleset":"classic",)"
                    R"("players":["Ann","Bob","Cat","Dan"],"meta":{"date":"2026-11-02"}})");
  EXPECT_EQ(e.type, EventType::kGame);
  EXPECT_EQ(e.format, "canasta-log/1");
  EXPECT_EQ(e.ruleset, "classic");
  EXPECT_EQ(e.players, (std::vector<std::string>{"Ann", "Bob", "Cat", "Dan"}));
  EXPECT_FALSE(e.player.has_value());

  Event no_ruleset = ReadOne(R"({"type":"game","format":"canasta-log/1","players":["A","B"]})");
  EXPECT_EQ(no_ruleset.ruleset, "");
  EXPECT_EQ(no_ruleset.players.size(), 2u);
}

TEST(LogReaderTest, Deal) {
  Event e = ReadOne(R"({"type":"deal","hand":1,"dealer":3,"hands":[["AS","KD"],["JK","10H"]],)"
                    R"("upcard":["2H","7C"],"stock":["9S","QD"]})");
  EXPECT_EQ(e.type, EventType::kDeal);
  EXPECT_EQ(e.hand, 1);
  EXPECT_EQ(e.dealer, 3);
  ASSERT_EQ(e.hands.size(), 2u);
  EXPECT_EQ(e.hands[0], Cs({"AS", "KD"}));
  EXPECT_EQ(e.hands[1], (Cards{Card::Joker(), Card(Rank::kTen, Suit::kHearts)}));
  EXPECT_EQ(e.upcard, Cs({"2H", "7C"}));
  ASSERT_TRUE(e.stock.has_value());
  EXPECT_EQ(*e.stock, Cs({"9S", "QD"}));
  EXPECT_FALSE(e.feet.has_value());

  Event bare = ReadOne(R"({"type":"deal","hand":2,"dealer":0,"hands":[[],[]],"upcard":[]})");
  EXPECT_EQ(bare.hand, 2);
  EXPECT_EQ(bare.hands.size(), 2u);
  EXPECT_TRUE(bare.upcard.empty());
  EXPECT_FALSE(bare.stock.has_value());

  Event feet =
      ReadOne(R"({"type":"deal","hand":1,"dealer":0,"hands":[["5S"],["6S"]],"upcard":["8D"],)"
              R"("feet":[["4H","4D"],["JK"]]})");
  ASSERT_TRUE(feet.feet.has_value());
  EXPECT_EQ(*feet.feet, (std::vector<Cards>{Cs({"4H", "4D"}), Cs({"JK"})}));
}

TEST(LogReaderTest, Three) {
  Event e = ReadOne(R"({"type":"three","player":0,"card":"3H","replacement":"9S"})");
  EXPECT_EQ(e.type, EventType::kThree);
  EXPECT_EQ(e.player, 0);
  EXPECT_EQ(e.card, C("3H"));
  EXPECT_EQ(e.replacement, C("9S"));

  Event bare = ReadOne(R"({"type":"three","player":2,"card":"3D"})");
  EXPECT_EQ(bare.player, 2);
  EXPECT_EQ(bare.card, C("3D"));
  EXPECT_FALSE(bare.replacement.has_value());
}

TEST(LogReaderTest, Draw) {
  Event e = ReadOne(R"({"type":"draw","player":1,"cards":["KS","2C"]})");
  EXPECT_EQ(e.type, EventType::kDraw);
  EXPECT_EQ(e.player, 1);
  EXPECT_EQ(e.cards, Cs({"KS", "2C"}));
  EXPECT_FALSE(e.bonus);

  Event bonus = ReadOne(R"({"type":"draw","player":3,"cards":["4S"],"bonus":true})");
  EXPECT_TRUE(bonus.bonus);
  EXPECT_EQ(bonus.cards, Cs({"4S"}));
}

TEST(LogReaderTest, TakePile) {
  Event with = ReadOne(R"({"type":"take_pile","player":1,"top":"KD","with":["KS","KH"]})");
  EXPECT_EQ(with.type, EventType::kTakePile);
  EXPECT_EQ(with.player, 1);
  EXPECT_EQ(with.top, C("KD"));
  EXPECT_EQ(with.with, Cs({"KS", "KH"}));
  EXPECT_FALSE(with.to.has_value());
  EXPECT_FALSE(with.count.has_value());

  Event to = ReadOne(R"({"type":"take_pile","player":2,"top":"9C","to":"9","count":14})");
  EXPECT_EQ(to.top, C("9C"));
  EXPECT_TRUE(to.with.empty());
  EXPECT_EQ(to.to, "9");
  EXPECT_EQ(to.count, 14);
}

TEST(LogReaderTest, Meld) {
  Event e = ReadOne(
      R"({"type":"meld","player":1,"melds":[{"cards":["QS","QH","QD"]},)"
      R"({"to":"K","cards":["KC","2S"]},{"id":"run1","as":"wild","cards":["JK","2D","2H"],"x":1}]})");
  EXPECT_EQ(e.type, EventType::kMeld);
  EXPECT_EQ(e.player, 1);
  ASSERT_EQ(e.melds.size(), 3u);
  EXPECT_EQ(e.melds[0].cards, Cs({"QS", "QH", "QD"}));
  EXPECT_FALSE(e.melds[0].to.has_value());
  EXPECT_FALSE(e.melds[0].id.has_value());
  EXPECT_FALSE(e.melds[0].as.has_value());
  EXPECT_EQ(e.melds[1].to, "K");
  EXPECT_EQ(e.melds[1].cards, Cs({"KC", "2S"}));
  EXPECT_EQ(e.melds[2].id, "run1");
  EXPECT_EQ(e.melds[2].as, "wild");
  EXPECT_EQ(e.melds[2].cards, Cs({"JK", "2D", "2H"}));
}

TEST(LogReaderTest, DiscardAskOutAnswer) {
  Event discard = ReadOne(R"({"type":"discard","player":1,"card":"5D"})");
  EXPECT_EQ(discard.type, EventType::kDiscard);
  EXPECT_EQ(discard.player, 1);
  EXPECT_EQ(discard.card, C("5D"));

  Event ask = ReadOne(R"({"type":"ask_out","player":0})");
  EXPECT_EQ(ask.type, EventType::kAskOut);
  EXPECT_EQ(ask.player, 0);

  Event yes = ReadOne(R"({"type":"answer","player":2,"yes":true})");
  EXPECT_EQ(yes.type, EventType::kAnswer);
  EXPECT_EQ(yes.player, 2);
  EXPECT_EQ(yes.yes, std::optional<bool>(true));
  Event no = ReadOne(R"({"type":"answer","player":2,"yes":false})");
  EXPECT_EQ(no.yes, std::optional<bool>(false));
}

TEST(LogReaderTest, SpecialHandRetractNote) {
  Event special = ReadOne(R"({"type":"special_hand","player":0,"cards":["AS","2D","7C"]})");
  EXPECT_EQ(special.type, EventType::kSpecialHand);
  EXPECT_EQ(special.player, 0);
  EXPECT_EQ(special.cards, Cs({"AS", "2D", "7C"}));

  Event retract = ReadOne(R"({"type":"retract","player":3,"cards":["9S","9H","2C"]})");
  EXPECT_EQ(retract.type, EventType::kRetract);
  EXPECT_EQ(retract.player, 3);
  EXPECT_EQ(retract.cards, Cs({"9S", "9H", "2C"}));

  Event note = ReadOne(R"({"type":"note","text":"West asked to see the pile"})");
  EXPECT_EQ(note.type, EventType::kNote);
  EXPECT_EQ(note.text, "West asked to see the pile");
  EXPECT_FALSE(note.player.has_value());
  Event empty_note = ReadOne(R"({"type":"note","player":1})");
  EXPECT_EQ(empty_note.text, "");
  EXPECT_EQ(empty_note.player, 1);
}

TEST(LogReaderTest, EndHandAndEndGame) {
  Event e = ReadOne(R"({"type":"end_hand","hand":1,"scores":[1260,-215],"totals":[1260,-215],)"
                    R"("breakdown":[{"canastas":800,"red_threes":100,"going_out":100,"melded":275,)"
                    R"("in_hand":-15},{"melded":-215}]})");
  EXPECT_EQ(e.type, EventType::kEndHand);
  EXPECT_EQ(e.hand, 1);
  EXPECT_EQ(e.scores, (std::vector<int>{1260, -215}));
  EXPECT_EQ(e.totals, (std::vector<int>{1260, -215}));
  ASSERT_TRUE(e.breakdown.has_value());
  using Parts = std::vector<std::pair<std::string, int>>;
  ASSERT_EQ(e.breakdown->size(), 2u);
  EXPECT_EQ((*e.breakdown)[0], (Parts{{"canastas", 800},
                                      {"red_threes", 100},
                                      {"going_out", 100},
                                      {"melded", 275},
                                      {"in_hand", -15}}));
  EXPECT_EQ((*e.breakdown)[1], (Parts{{"melded", -215}}));

  Event bare = ReadOne(R"({"type":"end_hand","hand":4})");
  EXPECT_EQ(bare.hand, 4);
  EXPECT_FALSE(bare.scores.has_value());
  EXPECT_FALSE(bare.totals.has_value());
  EXPECT_FALSE(bare.breakdown.has_value());

  Event end = ReadOne(R"({"type":"end_game","totals":[5120,3400],"winner":0})");
  EXPECT_EQ(end.type, EventType::kEndGame);
  EXPECT_EQ(end.totals, (std::vector<int>{5120, 3400}));
  EXPECT_EQ(end.winner, 0);
  Event end_bare = ReadOne(R"({"type":"end_game"})");
  EXPECT_FALSE(end_bare.totals.has_value());
  EXPECT_FALSE(end_bare.winner.has_value());
}

TEST(LogReaderTest, EventTypeNames) {
  EXPECT_STREQ(EventTypeName(EventType::kGame), "game");
  EXPECT_STREQ(EventTypeName(EventType::kTakePile), "take_pile");
  EXPECT_STREQ(EventTypeName(EventType::kSpecialHand), "special_hand");
  EXPECT_STREQ(EventTypeName(EventType::kEndGame), "end_game");
}

TEST(LogReaderTest, TenIsAcceptedForT) {
  Event e = ReadOne(R"({"type":"draw","player":0,"cards":["10H","TH","10S"]})");
  EXPECT_EQ(e.cards, (Cards{Card(Rank::kTen, Suit::kHearts), Card(Rank::kTen, Suit::kHearts),
                            Card(Rank::kTen, Suit::kSpades)}));
  EXPECT_EQ(ReadOne(R"({"type":"discard","player":0,"card":"10D"})").card,
            Card(Rank::kTen, Suit::kDiamonds));
}

// The reader parses cards with its own table; it must agree with ParseCard on
// every short string.
TEST(LogReaderTest, CardParsingAgreesWithParseCard) {
  std::vector<std::string> candidates = {"", "JK", "JKS", "10", "100H", "TH "};
  for (int a = 32; a < 127; ++a) {
    candidates.push_back(std::string(1, char(a)));
    for (int b = 32; b < 127; ++b) {
      candidates.push_back({char(a), char(b)});
      for (char first : {'1', 'J'}) candidates.push_back({first, char(a), char(b)});
    }
  }
  std::string line = R"({"type":"draw","player":0,"cards":[)";
  Cards expected;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i > 0) line += ',';
    line += '"';
    for (char c : candidates[i]) {
      if (c == '"' || c == '\\') line += '\\';
      line += c;
    }
    line += '"';
    if (std::optional<Card> card = ParseCard(candidates[i])) expected.push_back(*card);
  }
  line += "]}";
  ReadResult r = ReadAll(line);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].cards, expected);
  EXPECT_EQ(expected.size(), 13u * 4 + 2 + 4);  // every face, "JK" twice, the four "10"s
}

TEST(LogReaderTest, UnknownFieldsAndNullOptionalsAreIgnored) {
  Event e =
      ReadOne(R"({"type":"three","player":1,"card":"3D","replacement":null,"extra":[[[{"a":[]}]]],)"
              R"("cards":"not checked for a three"})");
  EXPECT_EQ(e.card, C("3D"));
  EXPECT_FALSE(e.replacement.has_value());
  EXPECT_TRUE(e.cards.empty());
}

// --- Lines ---

TEST(LogReaderTest, BlankLinesAndLineNumbers) {
  std::string log =
      "\n"
      "   \t\n"
      R"({"type":"ask_out","player":0})"
      "\n"
      "\r\n"
      R"({"type":"answer","player":2,"yes":true})"
      "\r\n"
      "\n"
      R"(  {"type":"ask_out","player":1}  )"
      "\n\n";
  std::istringstream in(log);
  LogReader reader(in);
  std::vector<InputProblem> problems;
  Event e;
  ASSERT_TRUE(reader.Next(&e, &problems));
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(reader.line(), 3);
  EXPECT_EQ(e.type, EventType::kAskOut);
  ASSERT_TRUE(reader.Next(&e, &problems));
  EXPECT_EQ(e.line, 5);  // CRLF line ending
  EXPECT_EQ(e.type, EventType::kAnswer);
  ASSERT_TRUE(reader.Next(&e, &problems));
  EXPECT_EQ(e.line, 7);
  EXPECT_EQ(e.player, 1);
  EXPECT_FALSE(reader.Next(&e, &problems));
  EXPECT_EQ(reader.line(), 8);
  EXPECT_FALSE(reader.Next(&e, &problems));  // stays at the end
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(reader.bytes_read(), log.size());
}

TEST(LogReaderTest, ByteOrderMarkOnFirstLine) {
  ReadResult r = ReadAll("\xEF\xBB\xBF{\"type\":\"ask_out\",\"player\":0}\n");
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].type, EventType::kAskOut);
  // A first line that is the mark alone is a blank line.
  r = ReadAll("\xEF\xBB\xBF\n{\"type\":\"ask_out\",\"player\":0}\n");
  EXPECT_TRUE(r.problems.empty()) << r.problems.front().message;
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].line, 2);
}

TEST(LogReaderTest, LastLineWithoutNewline) {
  ReadResult r =
      ReadAll("{\"type\":\"ask_out\",\"player\":0}\n{\"type\":\"ask_out\",\"player\":1}");
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[1].line, 2);
  EXPECT_EQ(r.events[1].player, 1);
}

TEST(LogReaderTest, TruncatedLastLine) {
  ReadResult r = ReadAll(
      "{\"type\":\"ask_out\",\"player\":0}\n"
      "{\"type\":\"draw\",\"player\":1,\"cards\":[\"K");
  ASSERT_EQ(r.events.size(), 1u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_EQ(r.problems[0].id, CheckId::kLogBadJson);
  EXPECT_EQ(r.problems[0].message,
            "bad JSON: Missing a closing quotation mark in string (column 38)");
}

TEST(LogReaderTest, ManyLinesAcrossReadChunks) {
  // Well over the reader's 64 KB chunks, so lines straddle chunk boundaries.
  std::string log;
  const int kLines = 20000;
  for (int i = 0; i < kLines; ++i) {
    log += "{\"type\":\"draw\",\"player\":" + std::to_string(i % 4) + ",\"cards\":[\"" +
           (i % 2 ? "10C" : "JK") + "\"]}\n";
  }
  std::istringstream in(log);
  LogReader reader(in);
  std::vector<InputProblem> problems;
  Event e;
  int n = 0;
  while (reader.Next(&e, &problems)) {
    ++n;
    ASSERT_EQ(e.line, n);
    ASSERT_EQ(e.player, (n - 1) % 4);
    ASSERT_EQ(e.cards, (Cards{(n - 1) % 2 ? Card(Rank::kTen, Suit::kClubs) : Card::Joker()}));
  }
  EXPECT_EQ(n, kLines);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(reader.bytes_read(), log.size());
}

TEST(LogReaderTest, EventStorageIsResetBetweenEvents) {
  ReadResult r = ReadAll(
      "{\"type\":\"draw\",\"player\":1,\"cards\":[\"KS\",\"KH\"],\"bonus\":true}\n"
      "{\"type\":\"discard\",\"player\":1,\"card\":\"5D\"}\n"
      "{\"type\":\"meld\",\"player\":1,\"melds\":[{\"cards\":[\"QS\"]}]}\n"
      "{\"type\":\"meld\",\"player\":1,\"melds\":[{\"to\":\"Q\",\"cards\":[\"QD\"]}]}\n");
  ASSERT_EQ(r.events.size(), 4u);
  EXPECT_TRUE(r.events[1].cards.empty());
  EXPECT_FALSE(r.events[1].bonus);
  EXPECT_EQ(r.events[1].card, C("5D"));
  EXPECT_FALSE(r.events[0].card.has_value());
  EXPECT_EQ(r.events[3].melds.size(), 1u);
  EXPECT_EQ(r.events[3].melds[0].cards, Cs({"QD"}));
  EXPECT_EQ(r.events[3].melds[0].to, "Q");
  EXPECT_FALSE(r.events[2].melds[0].to.has_value());
}

// --- Problems ---

TEST(LogReaderTest, BadJsonIsReportedAndTheNextLineRead) {
  ReadResult r = ReadAll(
      "{\"type\":\"ask_out\",\"player\":0}\n"
      "{\"type\":\"draw\" \"player\":1}\n"
      "{\"type\":\"ask_out\",\"player\":1}\n");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_EQ(r.problems[0].id, CheckId::kLogBadJson);
  EXPECT_EQ(r.problems[0].message,
            "bad JSON: Missing a comma or '}' after an object member (column 16)");
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[1].line, 3);
}

TEST(LogReaderTest, TrailingGarbageAndNulAreBadJson) {
  InputProblem p = OneProblem(R"({"type":"ask_out","player":0} x)", 0);
  EXPECT_EQ(p.id, CheckId::kLogBadJson);
  EXPECT_EQ(p.message,
            "bad JSON: The document root must not be followed by other values "
            "(column 31)");
  p = OneProblem(std::string("{\"type\":\"ask_out\",\"player\":0}\0x", 31), 0);
  EXPECT_EQ(p.id, CheckId::kLogBadJson);
  EXPECT_EQ(p.message, "bad JSON: a NUL byte (column 30)");
}

TEST(LogReaderTest, InvalidUtf8IsBadJson) {
  // Valid: 2, 3 and 4 byte sequences, kept as they are.
  Event e = ReadOne("{\"type\":\"note\",\"text\":\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x83\x8F\"}");
  EXPECT_EQ(e.text, "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x83\x8F");
  const std::vector<std::pair<std::string, int>> bad = {
      {"{\"type\":\"note\",\"text\":\"caf\xC3\"}", 27},           // cut short
      {"{\"type\":\"note\",\"text\":\"\xC0\xAF\"}", 24},          // overlong
      {"{\"type\":\"note\",\"text\":\"\xE0\x80\xAF\"}", 24},      // overlong
      {"{\"type\":\"note\",\"text\":\"\xED\xA0\x80\"}", 24},      // surrogate
      {"{\"type\":\"note\",\"text\":\"\xF4\x90\x80\x80\"}", 24},  // > U+10FFFF
      {"{\"type\":\"note\",\"text\":\"abcdefghij\xFF\"}", 34},    // never valid
      {"{\"type\":\"note\",\"text\":\"\\n\xE0", 26},              // ends inside a sequence
      // Found by fuzzing: RapidJSON's own check read past the end of such a line.
      {"{\"" + std::string(32, '{') + "t+\xE0", 37},
  };
  for (const auto& [line, column] : bad) {
    InputProblem p = OneProblem(line, 0);
    EXPECT_EQ(p.id, CheckId::kLogBadJson);
    EXPECT_EQ(p.line, 1);
    EXPECT_EQ(p.message, "bad JSON: invalid UTF-8 (column " + std::to_string(column) + ")");
    EXPECT_FALSE(ParseJsonOnly(line));
  }
  // The next line is read intact after a line that ends inside a sequence.
  ReadResult r =
      ReadAll("{\"type\":\"note\",\"text\":\"\\t\xF0\x9F\n{\"type\":\"ask_out\",\"player\":2}\n");
  ASSERT_EQ(r.problems.size(), 1u);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].player, 2);
}

// RapidJSON decodes an escaped lone surrogate into bytes that are not UTF-8:
// such text must not reach a report.
TEST(LogReaderTest, EscapedLoneSurrogates) {
  InputProblem p = OneProblem(R"({"type":"note","text":"a\udc00b"})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message, "\"note\" event: \"text\" is \"a\\udc00b\", which is not valid Unicode");
  EXPECT_EQ(
      OneProblem(R"({"type":"game","format":"canasta-log/1","players":["A","\udfff"]})", 1).message,
      "\"game\" event: \"players\"[1] is \"\\udfff\", which is not valid Unicode");
  EXPECT_EQ(
      OneProblem(R"({"type":"meld","player":0,"melds":[{"id":"\udc01","cards":[]}]})", 1).message,
      "\"meld\" event: \"melds\"[0].\"id\" is \"\\udc01\", which is not valid Unicode");
  EXPECT_EQ(OneProblem(R"({"type":"end_hand","hand":1,"breakdown":[{"\udc00":1}]})", 1).message,
            "\"end_hand\" event: \"breakdown\"[0] has a part \"\\udc00\", which is not valid "
            "Unicode");
  // Quoted in a message as the log escaped it.
  p = OneProblem(R"({"type":"discard","player":0,"card":"\udc00"})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadCard);
  EXPECT_EQ(p.message, "\"discard\" event: \"card\" is \"\\udc00\", not a card");
  // A proper pair and an escaped NUL are characters.
  Event e = ReadOne(R"({"type":"note","text":"\ud83c\udccf \u0000"})");
  EXPECT_EQ(e.text, std::string("\xF0\x9F\x83\x8F \0", 6));
}

TEST(LogReaderTest, NotAnObject) {
  ReadResult r = ReadAll("[1,2]\n42\n\"draw\"\n{\"type\":\"ask_out\",\"player\":0}\n");
  ASSERT_EQ(r.problems.size(), 3u);
  EXPECT_EQ(r.problems[0].line, 1);
  EXPECT_EQ(r.problems[0].id, CheckId::kLogBadEvent);
  EXPECT_EQ(r.problems[0].message, "not an event: the line holds an array, not a JSON object");
  EXPECT_EQ(r.problems[1].line, 2);
  EXPECT_EQ(r.problems[1].message, "not an event: the line holds 42, not a JSON object");
  EXPECT_EQ(r.problems[2].line, 3);
  EXPECT_EQ(r.problems[2].message, "not an event: the line holds \"draw\", not a JSON object");
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].line, 4);
}

TEST(LogReaderTest, MissingOrBadType) {
  InputProblem p = OneProblem(R"({"player":0})", 0);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message, "not an event: the object has no \"type\" field");
  p = OneProblem(R"({"type":5})", 0);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message, "not an event: \"type\" is 5, not a string");
}

TEST(LogReaderTest, UnknownType) {
  ReadResult r = ReadAll("\n{\"type\":\"shuffle\",\"player\":0}\n");
  EXPECT_TRUE(r.events.empty());
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_EQ(r.problems[0].id, CheckId::kLogUnknownEvent);
  EXPECT_EQ(r.problems[0].message, "unknown event type \"shuffle\"");
}

TEST(LogReaderTest, MissingField) {
  InputProblem p = OneProblem(R"({"type":"discard","player":1})", 1);
  EXPECT_EQ(p.line, 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message, "\"discard\" event: missing field \"card\"");

  ReadResult r = ReadAll("{\"type\":\"deal\"}\n");
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_FALSE(r.events[0].ok);
  ASSERT_EQ(r.problems.size(), 4u);
  EXPECT_EQ(r.problems[0].message, "\"deal\" event: missing field \"hand\"");
  EXPECT_EQ(r.problems[1].message, "\"deal\" event: missing field \"dealer\"");
  EXPECT_EQ(r.problems[2].message, "\"deal\" event: missing field \"hands\"");
  EXPECT_EQ(r.problems[3].message, "\"deal\" event: missing field \"upcard\"");

  r = ReadAll("{\"type\":\"game\",\"ruleset\":\"classic\"}\n");
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.problems[0].message, "\"game\" event: missing field \"format\"");
  EXPECT_EQ(r.problems[1].message, "\"game\" event: missing field \"players\"");

  EXPECT_EQ(OneProblem(R"({"type":"answer","player":1})", 1).message,
            "\"answer\" event: missing field \"yes\"");
  EXPECT_EQ(OneProblem(R"({"type":"ask_out"})", 1).message,
            "\"ask_out\" event: missing field \"player\"");
  EXPECT_EQ(OneProblem(R"({"type":"end_hand","scores":[1,2]})", 1).message,
            "\"end_hand\" event: missing field \"hand\"");
  EXPECT_EQ(OneProblem(R"({"type":"meld","player":0,"melds":[{"to":"K"}]})", 1).message,
            "\"meld\" event: \"melds\"[0]: missing field \"cards\"");
  EXPECT_EQ(OneProblem(R"({"type":"retract","player":0})", 1).message,
            "\"retract\" event: missing field \"cards\"");
  EXPECT_EQ(OneProblem(R"({"type":"special_hand","player":0})", 1).message,
            "\"special_hand\" event: missing field \"cards\"");
  EXPECT_EQ(OneProblem(R"({"type":"three","player":0})", 1).message,
            "\"three\" event: missing field \"card\"");
}

TEST(LogReaderTest, TakePileNeedsWithOrTo) {
  InputProblem p = OneProblem(R"({"type":"take_pile","player":1,"top":"KD"})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message,
            "\"take_pile\" event: needs \"with\" (cards from the hand for a new meld) or \"to\" "
            "(the meld the top card goes onto)");
  EXPECT_EQ(OneProblem(R"({"type":"take_pile","player":1,"with":["KS","KH"]})", 1).message,
            "\"take_pile\" event: missing field \"top\"");
}

// Both "with" and "to": the top card would go to a new meld and to an old
// one; the event is not replayed.
TEST(LogReaderTest, TakePileWithBothWithAndToIsRefused) {
  const InputProblem p =
      OneProblem(R"({"type":"take_pile","player":1,"top":"9D","with":["9S","9H"],"to":"9"})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message,
            "\"take_pile\" event: has both \"with\" (cards from the hand for a new meld) and "
            "\"to\" (a meld the side has): the top card goes to one of them");
  // "to_hand" with the cards shown in "with" stays valid.
  const Event e =
      ReadOne(R"({"type":"take_pile","player":1,"top":"KD","with":["KS","KH"],"to_hand":true})");
  EXPECT_TRUE(e.ok);
  EXPECT_TRUE(e.to_hand);
}

// A field given twice is refused, whichever reader reads it: most keep the
// last value, RapidJSON's lookup the first. A duplicate of a field the event
// does not read, or of an unknown one, changes nothing.
TEST(LogReaderTest, AFieldGivenTwiceIsRefused) {
  const InputProblem p = OneProblem(R"({"type":"discard","player":1,"card":"3S","card":"KX"})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message,
            "\"discard\" event: \"card\" is given twice; JSON readers differ on which value "
            "counts");
  EXPECT_EQ(OneProblem(R"({"type":"discard","player":1,"card":"3S","type":"draw"})", 1).message,
            "\"discard\" event: \"type\" is given twice; JSON readers differ on which value "
            "counts");
  // The same value twice is refused too: the log is not well formed.
  EXPECT_EQ(OneProblem(R"({"type":"draw","player":1,"player":1,"cards":["KS"]})", 1).message,
            "\"draw\" event: \"player\" is given twice; JSON readers differ on which value "
            "counts");
  const Event e =
      ReadOne(R"({"type":"draw","player":1,"cards":["KS"],"card":"3S","card":"4S","x":1,"x":2})");
  EXPECT_TRUE(e.ok);
  EXPECT_EQ(e.cards, Cs({"KS"}));
  // Inside a meld and a side's breakdown too, a null value counting as given.
  EXPECT_EQ(
      OneProblem(R"({"type":"meld","player":1,"melds":[{"to":null,"cards":["QS"],"to":"Q"}]})", 1)
          .message,
      "\"meld\" event: \"melds\"[0]: \"to\" is given twice; JSON readers differ on which "
      "value counts");
  EXPECT_EQ(
      OneProblem(
          R"({"type":"end_hand","hand":1,"breakdown":[{"canastas":800,"in_hand":-15,"canastas":1},{}]})",
          1)
          .message,
      "\"end_hand\" event: \"breakdown\"[0]: part \"canastas\" is given twice; JSON readers "
      "differ on which value counts");
}

TEST(LogReaderTest, MistypedFields) {
  InputProblem p = OneProblem(R"({"type":"deal","hand":1,"dealer":"0","hands":[],"upcard":[]})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message, "\"deal\" event: \"dealer\" is \"0\", not an integer");
  EXPECT_EQ(OneProblem(R"({"type":"draw","player":1.5,"cards":["KS"]})", 1).message,
            "\"draw\" event: \"player\" is 1.5, not an integer");
  EXPECT_EQ(OneProblem(R"({"type":"draw","player":1,"cards":["KS"],"bonus":1})", 1).message,
            "\"draw\" event: \"bonus\" is 1, not true or false");
  EXPECT_EQ(OneProblem(R"({"type":"draw","player":1,"cards":"KS"})", 1).message,
            "\"draw\" event: \"cards\" is \"KS\", not an array of cards");
  EXPECT_EQ(OneProblem(R"({"type":"answer","player":2,"yes":"yes"})", 1).message,
            "\"answer\" event: \"yes\" is \"yes\", not true or false");
  EXPECT_EQ(OneProblem(R"({"type":"answer","player":null,"yes":true})", 1).message,
            "\"answer\" event: \"player\" is null, not an integer");
  EXPECT_EQ(OneProblem(R"({"type":"game","format":"canasta-log/1","players":["A",2]})", 1).message,
            "\"game\" event: \"players\"[1] is 2, not a string");
  EXPECT_EQ(OneProblem(R"({"type":"note","text":{"a":1}})", 1).message,
            "\"note\" event: \"text\" is an object, not a string");
  EXPECT_EQ(OneProblem(R"({"type":"end_hand","hand":1,"scores":[10,"20"]})", 1).message,
            "\"end_hand\" event: \"scores\"[1] is \"20\", not an integer");
  EXPECT_EQ(OneProblem(R"({"type":"end_hand","hand":1,"breakdown":[{"melded":"5"}]})", 1).message,
            "\"end_hand\" event: \"breakdown\"[0].\"melded\" is \"5\", not an integer");
  EXPECT_EQ(OneProblem(R"({"type":"end_hand","hand":1,"breakdown":[7]})", 1).message,
            "\"end_hand\" event: \"breakdown\"[0] is 7, not an object of score parts");
  EXPECT_EQ(OneProblem(R"({"type":"end_game","winner":9999999999})", 1).message,
            "\"end_game\" event: \"winner\" is 9999999999, not an integer");
  EXPECT_EQ(OneProblem(R"({"type":"meld","player":0,"melds":{"cards":["KS"]}})", 1).message,
            "\"meld\" event: \"melds\" is an object, not an array of melds");
  EXPECT_EQ(OneProblem(R"({"type":"meld","player":0,"melds":[{"to":7,"cards":[]}]})", 1).message,
            "\"meld\" event: \"melds\"[0].\"to\" is 7, not a string");
  EXPECT_EQ(OneProblem(R"({"type":"deal","hand":1,"dealer":0,"hands":[["AS"],"KD"],)"
                       R"("upcard":[]})",
                       1)
                .message,
            "\"deal\" event: \"hands\"[1] is \"KD\", not an array of cards");
  EXPECT_EQ(OneProblem(R"({"type":"take_pile","player":0,"top":"KD","to":["K"]})", 1).message,
            "\"take_pile\" event: \"to\" is an array, not a string");
}

TEST(LogReaderTest, BadCards) {
  InputProblem p = OneProblem(R"({"type":"discard","player":1,"card":"1S"})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadCard);
  EXPECT_EQ(p.message, "\"discard\" event: \"card\" is \"1S\", not a card");

  ReadResult r = ReadAll("\n{\"type\":\"draw\",\"player\":1,\"cards\":[\"KS\",\"KX\",\"\",7]}\n");
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_FALSE(r.events[0].ok);
  EXPECT_EQ(r.events[0].line, 2);
  EXPECT_EQ(r.events[0].cards, Cs({"KS"}));  // the good cards are kept
  ASSERT_EQ(r.problems.size(), 3u);
  for (const InputProblem& q : r.problems) {
    EXPECT_EQ(q.line, 2);
    EXPECT_EQ(q.id, CheckId::kLogBadCard);
  }
  EXPECT_EQ(r.problems[0].message, "\"draw\" event: \"cards\"[1] is \"KX\", not a card");
  EXPECT_EQ(r.problems[1].message, "\"draw\" event: \"cards\"[2] is \"\", not a card");
  EXPECT_EQ(r.problems[2].message, "\"draw\" event: \"cards\"[3] is 7, not a card");

  EXPECT_EQ(OneProblem(R"({"type":"deal","hand":1,"dealer":0,"hands":[["AS"],["AS","10X"]],)"
                       R"("upcard":[]})",
                       1)
                .message,
            "\"deal\" event: \"hands\"[1][1] is \"10X\", not a card");
  EXPECT_EQ(OneProblem(R"({"type":"meld","player":0,"melds":[{"cards":["QS"]},)"
                       R"({"cards":["QS","JKR"]}]})",
                       1)
                .message,
            "\"meld\" event: \"melds\"[1].\"cards\"[1] is \"JKR\", not a card");
  EXPECT_EQ(OneProblem(R"({"type":"three","player":0,"card":"3H","replacement":"3"})", 1).message,
            "\"three\" event: \"replacement\" is \"3\", not a card");
  EXPECT_EQ(OneProblem(R"({"type":"take_pile","player":0,"top":"kd","to":"K"})", 1).message,
            "\"take_pile\" event: \"top\" is \"kd\", not a card");
  // Quoted values are escaped and cut short.
  EXPECT_EQ(
      OneProblem(
          R"({"type":"discard","player":0,"card":"a\"b\n0123456789012345678901234567890123456789"})",
          1)
          .message,
      "\"discard\" event: \"card\" is "
      "\"a\\\"b\\u000a012345678901234567890123456789012345...\", not a card");
}

TEST(LogReaderTest, ProblemsPerLineAreCapped) {
  std::string line = R"({"type":"draw","player":0,"cards":[)";
  for (int i = 0; i < 100; ++i) line += std::string(i ? "," : "") + "\"ZZ\"";
  line += "]}";
  ReadResult r = ReadAll(line + "\n");
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_FALSE(r.events[0].ok);
  ASSERT_EQ(r.problems.size(), 33u);
  EXPECT_EQ(r.problems[31].message, "\"draw\" event: \"cards\"[31] is \"ZZ\", not a card");
  EXPECT_EQ(r.problems[32].id, CheckId::kLogBadCard);
  EXPECT_EQ(r.problems[32].message, "\"draw\" event: 68 more problems like these not shown");
}

TEST(LogReaderTest, NullProblemsPointer) {
  std::istringstream in("oops\n{\"type\":\"discard\",\"player\":1,\"card\":\"XX\"}\n");
  LogReader reader(in);
  Event e;
  ASSERT_TRUE(reader.Next(&e, nullptr));
  EXPECT_EQ(e.line, 2);
  EXPECT_FALSE(e.ok);
  EXPECT_FALSE(reader.Next(&e, nullptr));
}

// --- Hostile input ---

// A line over the limit is one finding, skipped to its end without being
// held in memory; the next line is read.
TEST(LogReaderTest, FiftyMegabyteLine) {
  const size_t kTextSize = 50u * 1024 * 1024;
  std::string log = "{\"type\":\"ask_out\",\"player\":0}\n{\"type\":\"note\",\"text\":\"";
  log.append(kTextSize, 'x');
  log += "\"}\n{\"type\":\"ask_out\",\"player\":3}\n";
  std::istringstream in(std::move(log));
  LogReader reader(in);
  std::vector<InputProblem> problems;
  Event e;
  ASSERT_TRUE(reader.Next(&e, &problems));
  EXPECT_EQ(e.line, 1);
  ASSERT_TRUE(reader.Next(&e, &problems));
  EXPECT_TRUE(e.ok);
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.player, 3);
  EXPECT_FALSE(reader.Next(&e, &problems));
  EXPECT_FALSE(reader.stopped());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 2);
  EXPECT_EQ(problems[0].id, CheckId::kLogBadJson);
  EXPECT_EQ(problems[0].message,
            "line too long: more than 1048576 bytes, the limit (docs/log-format.md, Limits)");
  EXPECT_EQ(reader.bytes_read(), 2 * 30u + 26 + kTextSize);
}

// Just under the limit is read; the limit itself is the longest line.
TEST(LogReaderTest, LineAtTheLengthLimit) {
  std::string head = "{\"type\":\"note\",\"text\":\"";
  std::string line = head + std::string(log_limits::kMaxLineBytes - head.size() - 2, 'y') + "\"}";
  ASSERT_EQ(line.size(), log_limits::kMaxLineBytes);
  Event e = ReadOne(line);
  EXPECT_EQ(e.text.size(), log_limits::kMaxLineBytes - head.size() - 2);
  ReadResult r = ReadAll("{\"type\":\"ask_out\",\"player\":0}\n" + line + " \n");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_EQ(r.problems[0].message.rfind("line too long: ", 0), 0u);
  EXPECT_EQ(r.events.size(), 1u);
}

// A file that starts with a line longer than any header stops at once: one
// finding and the reason, however long the line goes on.
TEST(LogReaderTest, TooLongFirstLineStopsTheFile) {
  ReadResult r = ReadAll(std::string(3 * log_limits::kMaxLineBytes, '{') +
                         "\n{\"type\":\"ask_out\",\"player\":0}\n");
  EXPECT_TRUE(r.events.empty());
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.problems[0].line, 1);
  EXPECT_EQ(r.problems[0].id, CheckId::kLogBadJson);
  EXPECT_EQ(r.problems[1].line, 1);
  EXPECT_EQ(r.problems[1].id, CheckId::kLogNotCanastaLog);
  EXPECT_EQ(r.problems[1].message,
            "stopped reading the file: a line this long before any event: it is not a "
            "canasta-log/1 log");
}

TEST(LogReaderTest, MillionNestedBracketsIsBadJsonNotACrash) {
  std::string log = "{\"type\":\"ask_out\",\"player\":0}\n";
  log.append(1000000, '[');
  log += "\n{\"type\":\"ask_out\",\"player\":1}\n";
  ReadResult r = ReadAll(log);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_EQ(r.problems[0].id, CheckId::kLogBadJson);
  // Stopped at the 65th bracket.
  EXPECT_EQ(r.problems[0].message, "bad JSON: nested more than 64 deep, the limit (column 65)");
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[1].line, 3);
}

TEST(LogReaderTest, NestedObjectsStopAtTheLimitAtTheirBrace) {
  std::string log = "{\"type\":\"ask_out\",\"player\":0}\n";
  for (int i = 0; i < 100000; ++i) log += "{\"a\":";
  log += "\n{\"type\":\"ask_out\",\"player\":1}\n";
  ReadResult r = ReadAll(log);
  ASSERT_EQ(r.problems.size(), 1u);
  // The 65th brace is at column 64 * 5 + 1.
  EXPECT_EQ(r.problems[0].message, "bad JSON: nested more than 64 deep, the limit (column 321)");
  ASSERT_EQ(r.events.size(), 2u);
}

TEST(LogReaderTest, ALineThatOpensWithAClosingBracketIsAnInvalidValue) {
  InputProblem p = OneProblem("}{\"type\":\"ask_out\",\"player\":0}", 0);
  EXPECT_EQ(p.id, CheckId::kLogBadJson);
  EXPECT_EQ(p.message, "bad JSON: Invalid value (column 1)");
}

// Nesting in an unknown field is fine up to the limit (the event counts as
// one level), a finding past it.
TEST(LogReaderTest, NestingLimitInAnUnknownField) {
  auto line = [](int depth) {
    std::string l = "{\"type\":\"ask_out\",\"player\":0,\"deep\":";
    l.append(depth, '[');
    l.append(depth, ']');
    return l + "}";
  };
  Event e = ReadOne(line(log_limits::kMaxDepth - 1));
  EXPECT_EQ(e.type, EventType::kAskOut);
  InputProblem p = OneProblem(line(log_limits::kMaxDepth), 0);
  EXPECT_EQ(p.id, CheckId::kLogBadJson);
  EXPECT_EQ(p.message, "bad JSON: nested more than 64 deep, the limit (column 100)");
  ReadResult deep = ReadAll(line(500000));  // 1 MB of brackets: parsed only to depth 65
  ASSERT_EQ(deep.problems.size(), 1u);
  EXPECT_EQ(deep.problems[0].message, p.message);
}

// A file that is not a log: a few findings and a stop, not one per line.
TEST(LogReaderTest, BadLinesBeforeTheFirstEventStopTheFile) {
  std::string log;
  for (int i = 0; i < 30; ++i) log += "not json " + std::to_string(i) + "\n";
  log += "{\"type\":\"ask_out\",\"player\":0}\n";
  std::istringstream in(log);
  LogReader reader(in);
  std::vector<InputProblem> problems;
  Event e;
  EXPECT_FALSE(reader.Next(&e, &problems));
  EXPECT_TRUE(reader.stopped());
  EXPECT_FALSE(reader.Next(&e, &problems));
  ASSERT_EQ(problems.size(), size_t(log_limits::kMaxBadLinesBeforeEvent) + 1);
  EXPECT_EQ(problems[0].message, "bad JSON: Invalid value (column 2)");
  EXPECT_EQ(problems.back().line, 10);
  EXPECT_EQ(problems.back().id, CheckId::kLogNotCanastaLog);
  EXPECT_EQ(problems.back().message,
            "stopped reading the file: its first 10 lines hold no event; it is not a "
            "canasta-log/1 log");

  // One fewer, and the event after them is read; later bad lines never stop it.
  std::string nine;
  for (int i = 0; i < 9; ++i) nine += "[]\n\n";
  nine += "{\"type\":\"ask_out\",\"player\":0}\n";
  for (int i = 0; i < 20; ++i) nine += "[]\n";
  ReadResult r = ReadAll(nine);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].line, 19);
  EXPECT_EQ(r.problems.size(), 29u);
}

// However many bad lines follow a good start, the findings for a file stop.
TEST(LogReaderTest, ProblemsPerFileAreCapped) {
  std::string log = "{\"type\":\"ask_out\",\"player\":0}\n";
  for (int i = 0; i < 12000; ++i) log += "{\"type\":\"discard\",\"player\":0,\"card\":\"XX\"}\n";
  ReadResult r = ReadAll(log);
  ASSERT_EQ(r.problems.size(), size_t(log_limits::kMaxProblemsPerFile) + 1);
  EXPECT_EQ(r.events.size(), 1u + log_limits::kMaxProblemsPerFile);
  EXPECT_EQ(r.problems.back().line, 1 + log_limits::kMaxProblemsPerFile);
  EXPECT_EQ(r.problems.back().id, CheckId::kLogNotCanastaLog);
  EXPECT_EQ(r.problems.back().message,
            "stopped reading the file: 10000 problems found, the most reported for one file");
}

// Devices that never end: findings, a stop, and little memory.
TEST(LogReaderTest, DevZeroAndDevUrandomEnd) {
  {
    std::ifstream in("/dev/zero", std::ios::binary);
    ASSERT_TRUE(in);
    LogReader reader(in);
    std::vector<InputProblem> problems;
    Event e;
    EXPECT_FALSE(reader.Next(&e, &problems));
    EXPECT_TRUE(reader.stopped());
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].line, 1);
    EXPECT_EQ(problems[0].message.rfind("line too long: ", 0), 0u);
    EXPECT_EQ(problems[1].id, CheckId::kLogNotCanastaLog);
    EXPECT_LE(reader.bytes_read(), 2 * log_limits::kMaxLineBytes);
  }
  {
    std::ifstream in("/dev/urandom", std::ios::binary);
    ASSERT_TRUE(in);
    LogReader reader(in);
    std::vector<InputProblem> problems;
    Event e;
    // A random line may by chance be an event: read until the reader stops.
    for (int i = 0; i < 100000 && reader.Next(&e, &problems);) ++i;
    EXPECT_TRUE(reader.stopped());
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems.back().id, CheckId::kLogNotCanastaLog);
    EXPECT_LE(problems.size(), size_t(log_limits::kMaxProblemsPerFile) + 1);
  }
}

// Integers have documented ranges; outside one the field is a finding and
// the event is read as far as it can be.
TEST(LogReaderTest, IntegerRanges) {
  struct Case {
    std::string line;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"type":"deal","hand":1000001,"dealer":0,"hands":[],"upcard":[]})",
       "\"deal\" event: \"hand\" is 1000001, out of range (0 to 1000000)"},
      {R"({"type":"deal","hand":-1,"dealer":0,"hands":[],"upcard":[]})",
       "\"deal\" event: \"hand\" is -1, out of range (0 to 1000000)"},
      {R"({"type":"deal","hand":1,"dealer":-1,"hands":[],"upcard":[]})",
       "\"deal\" event: \"dealer\" is -1, out of range (0 to 1000)"},
      {R"({"type":"draw","player":1001,"cards":[]})",
       "\"draw\" event: \"player\" is 1001, out of range (0 to 1000)"},
      {R"({"type":"take_pile","player":0,"top":"KD","to":"K","count":-3})",
       "\"take_pile\" event: \"count\" is -3, out of range (0 to 1000000)"},
      {R"({"type":"end_hand","hand":2147483647})",
       "\"end_hand\" event: \"hand\" is 2147483647, out of range (0 to 1000000)"},
      {R"({"type":"end_hand","hand":1,"scores":[5,1000000001]})",
       "\"end_hand\" event: \"scores\"[1] is 1000000001, out of range (-1000000000 to 1000000000)"},
      {R"({"type":"end_hand","hand":1,"totals":[-2147483648,0]})",
       "\"end_hand\" event: \"totals\"[0] is -2147483648, out of range (-1000000000 to "
       "1000000000)"},
      {R"({"type":"end_hand","hand":1,"breakdown":[{"melded":-1000000001}]})",
       "\"end_hand\" event: \"breakdown\"[0].\"melded\" is -1000000001, out of range "
       "(-1000000000 to 1000000000)"},
      {R"({"type":"end_game","totals":[1e3],"winner":0})",
       "\"end_game\" event: \"totals\"[0] is 1000, not an integer"},
      {R"({"type":"end_game","winner":1001})",
       "\"end_game\" event: \"winner\" is 1001, out of range (0 to 1000)"},
  };
  for (const Case& c : cases) {
    InputProblem p = OneProblem(c.line, 1);
    EXPECT_EQ(p.id, CheckId::kLogBadEvent) << c.line;
    EXPECT_EQ(p.line, 1);
    EXPECT_EQ(p.message, c.message);
  }
  // The rest of the event is read.
  ReadResult r = ReadAll(R"({"type":"end_hand","hand":3,"scores":[7,-1000000001,9]})");
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].hand, 3);
  EXPECT_EQ(r.events[0].scores, (std::vector<int>{7, 9}));
  // The ends of each range are in it.
  Event e = ReadOne(R"({"type":"end_hand","hand":1000000,"scores":[-1000000000,1000000000],)"
                    R"("breakdown":[{"melded":1000000000}]})");
  EXPECT_EQ(e.hand, 1000000);
  EXPECT_EQ(e.scores, (std::vector<int>{-1000000000, 1000000000}));
  EXPECT_EQ(ReadOne(R"({"type":"deal","hand":0,"dealer":1000,"hands":[],"upcard":[]})").dealer,
            1000);
  EXPECT_EQ(ReadOne(R"({"type":"take_pile","player":0,"top":"KD","to":"K","count":1000000})").count,
            1000000);
}

// Every field of every type, given every kind of JSON value: never a crash or a
// RapidJSON assert, and an event is ok exactly when no problem was reported.
TEST(LogReaderTest, EveryFieldWithEveryKindOfValue) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> events = {
      {"game", {"format", "ruleset", "players"}},
      {"deal", {"hand", "dealer", "hands", "upcard", "stock", "feet"}},
      {"three", {"player", "card", "replacement"}},
      {"draw", {"player", "cards", "bonus"}},
      {"take_pile", {"player", "top", "with", "to", "count"}},
      {"meld", {"player", "melds"}},
      {"discard", {"player", "card"}},
      {"ask_out", {"player"}},
      {"answer", {"player", "yes"}},
      {"special_hand", {"player", "cards"}},
      {"retract", {"player", "cards"}},
      {"note", {"player", "text"}},
      {"end_hand", {"hand", "scores", "totals", "breakdown"}},
      {"end_game", {"totals", "winner"}},
  };
  const std::vector<std::string> values = {"null",
                                           "true",
                                           "0",
                                           "-1",
                                           "1.5",
                                           "1e300",
                                           "99999999999",
                                           "\"\"",
                                           "\"KS\"",
                                           "\"10H\"",
                                           "[]",
                                           "[null]",
                                           "[\"KS\"]",
                                           "[[\"KS\"]]",
                                           "[[\"KX\"]]",
                                           "[1,2]",
                                           "{}",
                                           "{\"a\":1}",
                                           "[{\"cards\":[\"KS\"]}]",
                                           "[{\"a\":\"b\"}]",
                                           "[{\"cards\":5,\"to\":[]}]",
                                           "[[]]",
                                           "[{\"x\":1},[]]",
                                           "[[[[[]]]]]"};
  for (const auto& [type, fields] : events) {
    for (const std::string& field : fields) {
      for (const std::string& value : values) {
        std::string text = "{\"type\":\"" + type + "\",\"" + field + "\":" + value + "}";
        ReadResult r = ReadAll(text);
        ExpectSameBothWays(text);
        ASSERT_EQ(r.events.size(), 1u) << text;
        EXPECT_EQ(r.events[0].ok, r.problems.empty()) << text;
        for (const InputProblem& p : r.problems) {
          EXPECT_EQ(p.line, 1);
          EXPECT_TRUE(p.id == CheckId::kLogBadEvent || p.id == CheckId::kLogBadCard) << text;
          EXPECT_EQ(p.message.rfind("\"" + type + "\" event: ", 0), 0u) << p.message;
        }
      }
    }
  }
}

// --- The SAX builder against the DOM conversion ---

std::string Dump(const Event& e) {
  std::ostringstream o;
  auto cards = [&](const std::vector<Card>& cs) {
    o << '[';
    for (Card c : cs) o << ToString(c) << ' ';
    o << ']';
  };
  auto opt = [&](const auto& v) {
    if (v) {
      o << *v;
    } else {
      o << '-';
    }
    o << ' ';
  };
  o << EventTypeName(e.type) << " line " << e.line << " ok " << e.ok << " format " << e.format
    << " ruleset " << e.ruleset << " players";
  for (const std::string& p : e.players) o << " " << p;
  o << " player ";
  opt(e.player);
  o << "hand ";
  opt(e.hand);
  o << "dealer ";
  opt(e.dealer);
  o << "hands ";
  for (const auto& h : e.hands) cards(h);
  o << " upcard ";
  cards(e.upcard);
  o << " stock ";
  if (e.stock) cards(*e.stock);
  o << " feet ";
  if (e.feet) {
    for (const auto& h : *e.feet) cards(h);
  }
  o << " card " << (e.card ? ToString(*e.card) : "-") << " replacement "
    << (e.replacement ? ToString(*e.replacement) : "-") << " cards ";
  cards(e.cards);
  o << " bonus " << e.bonus << " top " << (e.top ? ToString(*e.top) : "-") << " with ";
  cards(e.with);
  o << " to ";
  opt(e.to);
  o << "count ";
  opt(e.count);
  o << "melds";
  for (const MeldSpec& m : e.melds) {
    o << " {to ";
    opt(m.to);
    o << "id ";
    opt(m.id);
    o << "as ";
    opt(m.as);
    cards(m.cards);
    o << '}';
  }
  o << " yes ";
  opt(e.yes);
  o << "text " << e.text << " scores ";
  if (e.scores) {
    for (int v : *e.scores) o << v << ' ';
  }
  o << "totals ";
  if (e.totals) {
    for (int v : *e.totals) o << v << ' ';
  }
  o << "winner ";
  opt(e.winner);
  o << "breakdown";
  if (e.breakdown) {
    for (const auto& side : *e.breakdown) {
      o << " {";
      for (const auto& [k, v] : side) o << k << '=' << v << ' ';
      o << '}';
    }
  }
  return o.str();
}

struct Read {
  std::vector<std::string> events;
  std::vector<std::string> problems;
  int dom_lines = 0;
};

Read ReadWith(const std::string& text, bool dom_only) {
  std::istringstream in(text);
  LogReader reader(in);
  reader.set_dom_only_for_testing(dom_only);
  Read out;
  std::vector<InputProblem> problems;
  Event e;
  while (reader.Next(&e, &problems)) out.events.push_back(Dump(e));
  for (const InputProblem& p : problems) {
    out.problems.push_back(std::to_string(p.line) + " " + std::to_string(int(p.id)) + " " +
                           p.message);
  }
  out.dom_lines = reader.dom_lines();
  return out;
}

// Reads `text` both ways: the same events and problems.
void ExpectSameBothWays(const std::string& text) {
  Read sax = ReadWith(text, false);
  Read dom = ReadWith(text, true);
  EXPECT_EQ(sax.events, dom.events) << text.substr(0, 200);
  EXPECT_EQ(sax.problems, dom.problems) << text.substr(0, 200);
}

// A sheet entry's dealer (docs/log-format.md, "Score sheets"): read on
// end_hand, bounded as every seat, the same by the SAX builder and the DOM.
TEST(LogReaderTest, EndHandDealerIsReadBothWays) {
  const std::string good = R"({"type":"end_hand","hand":2,"dealer":1,"scores":[5,10]})";
  Event e = ReadOne(good);
  EXPECT_EQ(e.hand, 2);
  EXPECT_EQ(e.dealer, 1);
  EXPECT_EQ(ReadOne(R"({"type":"end_hand","hand":2,"dealer":1000})").dealer, 1000);
  EXPECT_FALSE(ReadOne(R"({"type":"end_hand","hand":2,"dealer":null})").dealer.has_value());
  EXPECT_FALSE(ReadOne(R"({"type":"end_hand","hand":2})").dealer.has_value());
  EXPECT_EQ(ReadWith(good, false).dom_lines, 0);  // no detour through the DOM

  InputProblem p = OneProblem(R"({"type":"end_hand","hand":2,"dealer":1001})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_EQ(p.message, "\"end_hand\" event: \"dealer\" is 1001, out of range (0 to 1000)");
  p = OneProblem(R"({"type":"end_hand","hand":2,"dealer":-1})", 1);
  EXPECT_EQ(p.message, "\"end_hand\" event: \"dealer\" is -1, out of range (0 to 1000)");
  p = OneProblem(R"({"type":"end_hand","hand":2,"dealer":"Ann"})", 1);
  EXPECT_EQ(p.id, CheckId::kLogBadEvent);
  EXPECT_NE(p.message.find("\"dealer\""), std::string::npos) << p.message;

  // A deal's dealer does not stay on the end_hand after it, nor an
  // end_hand's on the next one.
  const std::string log =
      std::string(R"({"type":"deal","hand":1,"dealer":3,"hands":[],"upcard":[]})") + "\n" + good +
      "\n" + R"({"type":"end_hand","hand":3})" + "\n" +
      R"({"type":"end_hand","hand":4,"dealer":"x"})" + "\n" +
      R"({"type":"end_hand","hand":5,"dealer":2.5})" + "\n";
  ReadResult r = ReadAll(log);
  ASSERT_EQ(r.events.size(), 5u);
  EXPECT_EQ(r.events[1].dealer, 1);
  EXPECT_FALSE(r.events[2].dealer.has_value());
  EXPECT_FALSE(r.events[3].dealer.has_value());
  EXPECT_FALSE(r.events[4].dealer.has_value());
  EXPECT_EQ(r.problems.size(), 2u);
  ExpectSameBothWays(log);
  for (const char* line : {R"({"type":"end_hand","dealer":0,"hand":7,"dealer":9})",
                           R"({"type":"end_hand","hand":7,"dealer":[1]})",
                           R"({"type":"end_hand","hand":7,"dealer":{"seat":1}})",
                           R"({"type":"end_hand","hand":7,"dealer":true})"})
    ExpectSameBothWays(line);
}

// A field given twice: the SAX builder leaves the line to the DOM, which
// words it; both read alike.
TEST(LogReaderTest, AFieldGivenTwiceGoesToTheDomAndReadsAlike) {
  for (const char* line : {
           R"({"type":"game","format":"canasta-log/1","players":["A","B"],"format":"x"})",
           R"({"type":"three","player":0,"card":"3H","player":5})",
           R"({"type":"meld","player":1,"melds":[{"cards":["QS"],"cards":["KS"]}]})",
           R"({"type":"end_hand","hand":1,"breakdown":[{"a":1,"b":2,"a":3}]})",
       }) {
    Read sax = ReadWith(line, false);
    EXPECT_EQ(sax.dom_lines, 1) << line;
    ASSERT_EQ(sax.problems.size(), 1u) << line;
    EXPECT_NE(sax.problems[0].find("is given twice"), std::string::npos) << line;
    ExpectSameBothWays(line);
  }
}

// A good log never needs the DOM, and reads as the DOM reads it.
TEST(LogReaderTest, SaxBuilderMatchesDomOnGoodLogs) {
  const std::string root = CANASTA_SOURCE_DIR;
  int files = 0;
  for (const char* path : {"/samples/classic/game.jsonl", "/samples/hutto/game.jsonl",
                           "/samples/jaques/game.jsonl", "/samples/two-handed/game.jsonl",
                           "/samples/three-handed/game.jsonl"}) {
    std::ifstream in(root + path, std::ios::binary);
    ASSERT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    Read sax = ReadWith(text.str(), false);
    EXPECT_EQ(sax.dom_lines, 0) << path;
    EXPECT_TRUE(sax.problems.empty()) << path;
    EXPECT_GT(sax.events.size(), 50u) << path;
    ExpectSameBothWays(text.str());
    ++files;
  }
  EXPECT_EQ(files, 5);
  // Every field in every order and with the optional parts, nulls and
  // unknown fields (a field given twice is refused: AFieldGivenTwiceIsRefused).
  const std::vector<std::string> lines = {
      R"({"type":"game","format":"canasta-log/1","ruleset":"classic","players":["Ann","Bob"],"meta":{"a":[1,{"b":null}]}})",
      R"({"type":"game","players":["A\u00e9","B"],"format":"canasta-log/1","ruleset":null})",
      R"({"type":"deal","hand":1,"dealer":3,"hands":[["AS","KD"],["JK","10H"],[]],"upcard":["2H","7C"],"stock":["9S","QD"]})",
      R"({"type":"deal","upcard":[],"feet":[["4H"],["JK","3D"]],"hands":[[]],"dealer":0,"hand":2,"stock":null})",
      R"({"type":"three","player":0,"card":"3H","replacement":"9S","cards":7})",
      R"({"type":"three","player":0,"card":"3H","replacement":null,"players":5})",
      R"({"type":"draw","player":1,"cards":["KS"],"bonus":true,"x":[[[]]]})",
      R"({"type":"draw","bonus":false,"cards":[],"player":2})",
      R"({"type":"take_pile","player":1,"top":"KD","with":["KS","KH"],"count":14})",
      R"({"type":"take_pile","player":1,"top":"KD","to":"K","with":null,"count":null})",
      R"({"type":"meld","player":1,"melds":[{"cards":["QS","QH","QD"]},{"to":"K","cards":["KC","2S"]},{"id":"r1","as":"wild","cards":["JK"],"x":{"cards":5}}]})",
      R"({"type":"meld","player":1,"melds":[{"to":"Q","cards":["QS"],"ids":["KS"]}],"meld":5})",
      R"({"type":"meld","player":1,"melds":[]})",
      R"({"type":"discard","player":1,"card":"5D","text":5})",
      R"({"type":"ask_out","player":0})",
      R"({"type":"answer","player":2,"yes":false})",
      R"({"type":"special_hand","player":0,"cards":["AS","2D"]})",
      R"({"type":"retract","player":3,"cards":["9S"]})",
      R"({"type":"note","text":"West \"asked\" \ud83c\udccf"})",
      R"({"type":"note"})",
      R"({"type":"note","player":null,"text":null})",
      R"({"type":"end_hand","hand":1,"scores":[1260,-215],"totals":[1260,-215],"breakdown":[{"canastas":800,"in_hand":-15,"Canastas":1},{}]})",
      R"({"type":"end_hand","hand":4,"scores":null,"totals":[],"breakdown":null})",
      R"({"type":"end_game","totals":[5120,3400],"winner":0})",
      R"({"type":"end_game","winner":null})",
  };
  std::string all;
  for (const std::string& line : lines) {
    Read sax = ReadWith(line, false);
    EXPECT_EQ(sax.dom_lines, 0) << line;
    EXPECT_TRUE(sax.problems.empty()) << line << ": " << sax.problems.front();
    ExpectSameBothWays(line);
    all += line + "\n";
  }
  // One reader for all, so that storage reused between events is reset.
  ExpectSameBothWays(all);
}

// Lines with problems: the SAX builder hands them to the DOM conversion.
TEST(LogReaderTest, SaxBuilderMatchesDomOnBadLogs) {
  const std::vector<std::string> lines = {
      R"({"player":0,"type":"ask_out"})",  // "type" not first: the DOM reads it
      R"({"type":"discard","player":1,"card":"XX"})",
      R"({"type":"discard","player":1})",
      R"({"type":"take_pile","player":1,"top":"KD"})",
      R"({"type":"take_pile","player":1,"top":"KD","with":null,"to":null})",
      R"({"type":"meld","player":1,"melds":[{"to":"K"}]})",
      R"({"type":"meld","player":1,"melds":[{"cards":["KS"],"id":"\udc00"}]})",
      R"({"type":"note","text":"\udc00"})",
      R"({"type":"end_hand","hand":1,"breakdown":[{"\udc00":1}]})",
      R"({"type":"end_hand","hand":1,"breakdown":[{"melded":1.5}]})",
      R"({"type":"deal","hand":1,"dealer":0,"hands":[["AS"],5],"upcard":[]})",
      R"({"type":"answer","player":null,"yes":true})",
      R"({"type":"shuffle"})",
      R"({"type":5})",
      R"([1])",
      R"("x")",
      R"({"type":"draw","player":4294967296,"cards":[]})",
      R"({"type":"draw","player":18446744073709551615,"cards":[]})",
      R"({"type":"draw","player":-9223372036854775808,"cards":[]})",
  };
  std::string all;
  for (const std::string& line : lines) {
    ExpectSameBothWays(line);
    all += line + "\n{\"type\":\"ask_out\",\"player\":0}\n";
  }
  ExpectSameBothWays(all);
}

// The builder resolves a key of the root once per event type (a table of
// what each field is for): every known name, near misses of them and
// duplicates, with values of every kind, at the front and at the end of a
// good event of every type, read as the DOM conversion reads them; a line
// without problems is built without the DOM.
TEST(LogReaderTest, SaxBuilderMatchesDomForEveryTypeAndFieldName) {
  const std::vector<std::string> bases = {
      R"({"type":"game","format":"canasta-log/1","players":["A","B"]})",
      R"({"type":"deal","hand":1,"dealer":0,"hands":[["AS"],["KD"]],"upcard":["2H"]})",
      R"({"type":"three","player":0,"card":"3H"})",
      R"({"type":"draw","player":1,"cards":["KS"]})",
      R"({"type":"take_pile","player":1,"top":"KD","with":["KS","KH"]})",
      R"({"type":"take_pile","player":1,"top":"KD","to":"K"})",
      R"({"type":"meld","player":1,"melds":[{"cards":["QS","QH","QD"]}]})",
      R"({"type":"discard","player":1,"card":"5D"})",
      R"({"type":"ask_out","player":0})",
      R"({"type":"answer","player":2,"yes":false})",
      R"({"type":"special_hand","player":0,"cards":["AS"]})",
      R"({"type":"retract","player":3,"cards":["9S"]})",
      R"({"type":"foot","player":1})",
      R"({"type":"note","text":"x"})",
      R"({"type":"note"})",
      R"({"type":"end_hand","hand":1,"scores":[5,10]})",
      R"({"type":"end_game","totals":[5,10],"winner":0})",
  };
  const std::vector<std::string> names = {
      "type", "format", "ruleset", "players", "player", "hand", "dealer", "hands", "upcard",
      "stock", "feet", "card", "replacement", "cards", "bonus", "top", "with", "to", "count",
      "melds", "yes", "text", "scores", "totals", "winner", "breakdown", "to_hand", "face_down",
      "before",
      // Near misses: unknown, so ignored.
      "", "t", "tO", "Type", "typ", "types", "playe", "playerx", "Player", "cardz", "car", "meld",
      "with ", "replacemen", "replacements", "breakdow", "face_dow", "to_han", "befor",
      "player\u00e9", "id", "as"};
  const std::vector<std::string> values = {"null",
                                           "true",
                                           "false",
                                           "0",
                                           "7",
                                           "-1",
                                           "1000001",
                                           "1.5",
                                           "\"\"",
                                           "\"KS\"",
                                           "\"10H\"",
                                           "\"K\"",
                                           "\"\\u00e9\"",
                                           "[]",
                                           "[\"KS\",\"10D\"]",
                                           "[\"KX\"]",
                                           "[[\"KS\"],[]]",
                                           "[1,2]",
                                           "[{\"cards\":[\"KS\"],\"to\":\"K\"}]",
                                           "[{\"canastas\":300,\"in_hand\":-5}]",
                                           "{}",
                                           "{\"a\":[1]}"};
  int lines = 0, built_by_sax = 0;
  for (const std::string& base : bases) {
    const size_t after_type =
        base.find(',') != std::string::npos ? base.find(',') : base.size() - 1;
    for (const std::string& name : names) {
      for (const std::string& value : values) {
        const std::string member = "\"" + name + "\":" + value;
        for (const std::string& line :
             {base.substr(0, after_type) + "," + member + base.substr(after_type),
              base.substr(0, base.size() - 1) + "," + member + "}"}) {
          Read sax = ReadWith(line, false);
          Read dom = ReadWith(line, true);
          ASSERT_EQ(sax.events, dom.events) << line;
          ASSERT_EQ(sax.problems, dom.problems) << line;
          ASSERT_EQ(sax.events.size(), 1u) << line;
          if (sax.problems.empty()) {
            EXPECT_EQ(sax.dom_lines, 0) << line;
            ++built_by_sax;
          } else {
            EXPECT_EQ(sax.dom_lines, 1) << line;
          }
          ++lines;
        }
      }
    }
  }
  // Both kinds are met often.
  EXPECT_GT(built_by_sax, lines / 3);
  EXPECT_LT(built_by_sax, lines);
}

// Each two-byte string (every byte pair that a line can hold, escaped or as
// UTF-8) is a card exactly when ParseCard says so, on the builder's path.
TEST(LogReaderTest, EveryTwoByteStringIsACardAsParseCardSays) {
  std::vector<std::string> texts;
  for (int a = 0; a < 128; ++a) {
    for (int b = 0; b < 128; ++b) texts.push_back({char(a), char(b)});
  }
  for (uint32_t code = 0x80; code < 0x800; ++code) {  // two-byte UTF-8
    texts.push_back({char(0xC0 | (code >> 6)), char(0x80 | (code & 0x3F))});
  }
  for (const char* three : {"10S", "10H", "10D", "10C", "10K", "1OH", "00H", "10h", "JKS"}) {
    texts.push_back(three);
  }
  // In pieces: a file stops at kMaxProblemsPerFile, and most are not cards.
  size_t cards = 0, dom_lines = 0;
  for (size_t from = 0; from < texts.size(); from += 5000) {
    const size_t to = std::min(texts.size(), from + 5000);
    std::string log;
    for (size_t i = from; i < to; ++i) {
      std::string quoted;
      for (unsigned char c : texts[i]) {
        if (c < 0x20 || c == '"' || c == '\\') {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          quoted += buf;
        } else {
          quoted += char(c);
        }
      }
      log += R"({"type":"discard","player":0,"card":")" + quoted + "\"}\n";
    }
    std::istringstream in(log);
    LogReader reader(in);
    std::vector<InputProblem> problems;
    Event e;
    size_t i = from;
    while (reader.Next(&e, &problems)) {
      ASSERT_LT(i, to);
      std::optional<Card> expected = ParseCard(texts[i]);
      EXPECT_EQ(e.card, expected) << i;
      EXPECT_EQ(e.ok, expected.has_value()) << i;
      if (expected) ++cards;
      ++i;
    }
    EXPECT_EQ(i, to);
    EXPECT_FALSE(reader.stopped());
    dom_lines += size_t(reader.dom_lines());
  }
  EXPECT_EQ(cards, 13u * 4 + 1 + 4);           // every face, "JK", the four "10"s
  EXPECT_EQ(dom_lines, texts.size() - cards);  // only bad cards take the DOM
}

// A meld event's specs are reused from earlier events: each event has its
// own melds, as many as it lists, with only the fields it gives.
TEST(LogReaderTest, MeldSpecsAreResetBetweenEvents) {
  const std::string log =
      R"({"type":"meld","player":1,"melds":[{"to":"K","id":"a","as":"wild","cards":["KS"]},{"cards":["QS","QH","QD"]},{"id":"b","cards":["JK"]}]})"
      "\n"
      R"({"type":"meld","player":1,"melds":[{"cards":["5S","5H","5D"]}]})"
      "\n"
      R"({"type":"discard","player":1,"card":"5D"})"
      "\n"
      R"({"type":"take_pile","player":2,"top":"KD","to":"K","before":[{"cards":["7S","7H","7D"]},{"as":"7","cards":["2C"]}]})"
      "\n"
      R"({"type":"meld","player":1,"melds":[{"to":"K","cards":["KS"]},{"to":5}]})"
      "\n"
      R"({"type":"meld","player":1,"melds":[]})"
      "\n"
      R"({"type":"meld","player":1,"melds":[{"cards":[]},{"cards":["9S"]}]})"
      "\n"
      R"({"type":"meld","player":1,"melds":[{"cards":["AS"],"x":1)"  // bad JSON: cut short
      "\n"
      R"({"type":"meld","player":1,"melds":[{"id":"c","cards":["AS"]}]})"
      "\n";
  ReadResult r = ReadAll(log);
  ASSERT_EQ(r.events.size(), 8u);
  const auto& e = r.events;
  ASSERT_EQ(e[0].melds.size(), 3u);
  EXPECT_EQ(e[0].melds[0].to, "K");
  EXPECT_EQ(e[0].melds[0].id, "a");
  EXPECT_EQ(e[0].melds[0].as, "wild");
  EXPECT_EQ(e[0].melds[2].id, "b");
  ASSERT_EQ(e[1].melds.size(), 1u);
  EXPECT_FALSE(e[1].melds[0].to || e[1].melds[0].id || e[1].melds[0].as);
  EXPECT_EQ(e[1].melds[0].cards, Cs({"5S", "5H", "5D"}));
  EXPECT_TRUE(e[2].melds.empty());
  EXPECT_TRUE(e[3].melds.empty());
  ASSERT_EQ(e[3].before.size(), 2u);
  EXPECT_FALSE(e[3].before[0].to || e[3].before[0].id || e[3].before[0].as);
  EXPECT_EQ(e[3].before[1].as, "7");
  EXPECT_EQ(e[3].before[1].cards, Cs({"2C"}));
  EXPECT_FALSE(e[4].ok);  // the second meld has no cards and a bad "to"
  EXPECT_TRUE(e[4].before.empty());
  ASSERT_EQ(e[5].melds.size(), 0u);
  ASSERT_EQ(e[6].melds.size(), 2u);
  EXPECT_TRUE(e[6].melds[0].cards.empty());
  EXPECT_EQ(e[6].melds[1].cards, Cs({"9S"}));
  EXPECT_FALSE(e[6].melds[1].to || e[6].melds[1].id || e[6].melds[1].as);
  ASSERT_EQ(e[7].melds.size(), 1u);
  EXPECT_EQ(e[7].melds[0].id, "c");
  EXPECT_FALSE(e[7].melds[0].to || e[7].melds[0].as);
  EXPECT_EQ(e[7].melds[0].cards, Cs({"AS"}));
  ExpectSameBothWays(log);
}

// Lines of the samples, changed at random (a fixed seed): the SAX builder
// and the DOM conversion agree on every one, events and findings.
TEST(LogReaderTest, SaxBuilderMatchesDomOnMutatedLines) {
  std::ifstream in(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl",
                   std::ios::binary);
  ASSERT_TRUE(in);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_GT(lines.size(), 50u);
  const std::string pieces[] = {"\"", "[", "]", "{", "}", ",", ":", "0", "-1", "1.5", "null",
                                "true", "\"KS\"", "\"10H\"", "\"XX\"", "99999999999", "1e9",
                                "1000001", "\"\\udc00\"", "\"to\"", "\"cards\"", "\"type\"",
                                "\"player\"", "[]", "{}", " "};
  uint64_t state = 12345;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  int mismatches = 0, built_by_sax = 0, with_problems = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = lines[next(lines.size())];
    const int edits = next(4) == 0 ? 2 : 1;
    for (int k = 0; k < edits && !line.empty(); ++k) {
      const size_t at = next(line.size());
      const size_t len = std::min<size_t>(line.size() - at, next(6));
      const std::string& piece = pieces[next(sizeof(pieces) / sizeof(pieces[0]))];
      switch (next(3)) {
        case 0:
          line.replace(at, len, piece);
          break;
        case 1:
          line.insert(at, piece);
          break;
        default:
          line.erase(at, len);
          break;
      }
    }
    Read sax = ReadWith(line, false);
    Read dom = ReadWith(line, true);
    if (sax.dom_lines == 0 && !sax.events.empty()) ++built_by_sax;
    if (!sax.problems.empty()) ++with_problems;
    if (sax.events != dom.events || sax.problems != dom.problems) {
      if (++mismatches <= 5) ADD_FAILURE() << "differs: " << line;
    }
  }
  EXPECT_EQ(mismatches, 0);
  // Both kinds of line are met often.
  EXPECT_GT(built_by_sax, 1000) << with_problems;
  EXPECT_GT(with_problems, 10000) << built_by_sax;
}

// --- The benchmark's floor ---

TEST(ParseJsonOnlyTest, ValidAndInvalid) {
  ParseScratch scratch;
  EXPECT_TRUE(ParseJsonOnly(R"({"type":"draw","player":1,"cards":["KS"]})", &scratch));
  EXPECT_TRUE(ParseJsonOnly("[1,2,3]", &scratch));
  EXPECT_FALSE(ParseJsonOnly(R"({"type":"draw" "player":1})", &scratch));
  EXPECT_FALSE(ParseJsonOnly("", &scratch));
  EXPECT_FALSE(ParseJsonOnly(std::string(1000000, '['), &scratch));
  // Objects in objects, as deep: the recursive parse stops at the limit too.
  std::string objects;
  for (int i = 0; i < 200000; ++i) objects += "{\"a\":";
  EXPECT_FALSE(ParseJsonOnly(objects, &scratch));
  EXPECT_TRUE(ParseJsonOnly(R"({"a":1})", &scratch));  // usable after a failure
  EXPECT_TRUE(ParseJsonOnly(R"({"a":1})"));            // no scratch
}

}  // namespace
}  // namespace canasta
