#include "replay/sheet_csv.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "core/utf8.h"
#include "replay/log_reader.h"

namespace canasta {
namespace {

// --- CSV reading (RFC 4180: quoted cells may hold the separator, quotes
// doubled, and line breaks) ---

using log_limits::kMaxHand;
using log_limits::kMaxScore;

// The limits of a sheet (docs/sheets.md, "Limits").
constexpr size_t kMaxSheetBytes = 64u * 1024 * 1024;
constexpr size_t kMaxRowBytes = 1024 * 1024;
constexpr size_t kMaxCells = 1000;

struct CsvRow {
  int line = 0;  // 1-based line where the row starts
  std::vector<std::string> cells;
  // Over kMaxRowBytes or kMaxCells: only the whole cells before are kept.
  enum class Over : uint8_t { kNone, kBytes, kCells } over = Over::kNone;
  bool too_long() const { return over != Over::kNone; }
};

char GuessSeparator(const std::string& first_line) {
  int comma = 0, semicolon = 0, tab = 0;
  bool quoted = false;
  for (char c : first_line) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    comma += c == ',';
    semicolon += c == ';';
    tab += c == '\t';
  }
  if (tab > comma && tab >= semicolon) return '\t';
  if (semicolon > comma) return ';';
  return ',';
}

// A sheet is untrusted input: what one row may cost is bounded (docs/sheets.md,
// "Limits"), far above what a spreadsheet writes, so that no file can make
// the import hold many times its size.
std::vector<CsvRow> ReadCsv(const std::string& text) {
  std::vector<CsvRow> rows;
  size_t first_end = text.find('\n');
  const char sep = GuessSeparator(text.substr(0, first_end));
  size_t i = 0;
  int line = 1;
  // A UTF-8 byte order mark, as spreadsheets write it.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
  while (i < text.size()) {
    CsvRow row;
    row.line = line;
    std::string cell;
    bool quoted = false, done = false;
    const size_t start = i;
    while (i < text.size() && !done) {
      if (!row.too_long() && (i - start > kMaxRowBytes || row.cells.size() >= kMaxCells)) {
        // Read on to the row's end, keeping only the whole cells before.
        row.over = i - start > kMaxRowBytes ? CsvRow::Over::kBytes : CsvRow::Over::kCells;
        cell.clear();
        cell.shrink_to_fit();
      }
      const char c = text[i++];
      if (quoted) {
        if (c == '"' && i < text.size() && text[i] == '"') {
          if (!row.too_long()) cell += '"';
          ++i;
        } else if (c == '"') {
          quoted = false;
        } else {
          if (c == '\n') ++line;
          if (!row.too_long()) cell += c;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == sep) {
        if (!row.too_long()) row.cells.push_back(std::move(cell));
        cell.clear();
      } else if (c == '\n') {
        ++line;
        done = true;
      } else if (c != '\r' && !row.too_long()) {
        cell += c;
      }
    }
    if (!row.too_long()) row.cells.push_back(std::move(cell));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Lower-case letters and digits only: "Red 3s" -> "red3s".
std::string Key(const std::string& s) {
  std::string k;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)))
      k += char(std::tolower(static_cast<unsigned char>(c)));
  return k;
}

// A number of points as spreadsheets write it: "1260", "-215", "+100",
// "1,260", "1 260", "−215" (a Unicode minus). Nullopt when it is not one.
std::optional<int64_t> ParsePoints(const std::string& raw) {
  std::string s = Trim(raw);
  bool negative = false;
  if (s.compare(0, 3, "\xE2\x88\x92") == 0) {  // U+2212 MINUS SIGN
    negative = true;
    s = s.substr(3);
  } else if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s = s.substr(1);
  }
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return std::nullopt;
  int64_t v = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      v = v * 10 + (c - '0');
      if (v > INT32_MAX) return std::nullopt;
    } else if ((c == ',' || c == ' ' || c == '\'') && i + 1 < s.size() &&
               std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      continue;  // a thousands separator
    } else {
      return std::nullopt;
    }
  }
  return negative ? -v : v;
}

// A JSON string of `s`, valid UTF-8 whatever `s` holds (a file's name).
std::string Quote(const std::string& raw) {
  const std::string s = ValidUtf8(raw);
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string IntList(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

struct PartColumn {
  SheetColumn column;
  const char* part;    // canasta-log/1 breakdown name
  const char* header;  // what export writes
};
constexpr PartColumn kPartColumns[] = {
    {SheetColumn::kCanastas, "canastas", "Canastas"},
    {SheetColumn::kRedThrees, "red_threes", "Red threes"},
    {SheetColumn::kGoingOut, "going_out", "Going out"},
    {SheetColumn::kMelded, "melded", "Melded"},
    {SheetColumn::kInHand, "in_hand", "In hand"},
    {SheetColumn::kPenalties, "penalties", "Penalties"},
    {SheetColumn::kHouse, "house", "House"},
    {SheetColumn::kSpecialHand, "special_hand", "Special hand"},
};

// One side's row of one hand.
struct SideRow {
  int line = 0;
  std::vector<std::pair<std::string, int>> parts;
  std::optional<int> score;
  std::optional<int> total;
};

struct HandRows {
  int hand = 0;
  int line = 0;  // its first row
  std::map<int, SideRow> sides;
};

struct GameRows {
  std::string name;
  std::vector<HandRows> hands;
  std::unordered_map<int, size_t> index;  // hand number -> its place in hands
};

}  // namespace

SheetColumn ColumnFor(const std::string& header) {
  static const std::map<std::string, SheetColumn> kNames = {
      {"game", SheetColumn::kGame},
      {"hand", SheetColumn::kHand},
      {"handno", SheetColumn::kHand},
      {"handnumber", SheetColumn::kHand},
      {"deal", SheetColumn::kHand},
      {"round", SheetColumn::kHand},
      {"side", SheetColumn::kSide},
      {"team", SheetColumn::kSide},
      {"partnership", SheetColumn::kSide},
      {"pair", SheetColumn::kSide},
      {"player", SheetColumn::kSide},
      {"canastas", SheetColumn::kCanastas},
      {"canasta", SheetColumn::kCanastas},
      {"canastabonus", SheetColumn::kCanastas},
      {"canastabonuses", SheetColumn::kCanastas},
      {"red3s", SheetColumn::kRedThrees},
      {"red3", SheetColumn::kRedThrees},
      {"redthrees", SheetColumn::kRedThrees},
      {"redthree", SheetColumn::kRedThrees},
      {"threes", SheetColumn::kRedThrees},
      {"3s", SheetColumn::kRedThrees},
      {"goingout", SheetColumn::kGoingOut},
      {"out", SheetColumn::kGoingOut},
      {"goout", SheetColumn::kGoingOut},
      {"wentout", SheetColumn::kGoingOut},
      {"goingoutbonus", SheetColumn::kGoingOut},
      {"melded", SheetColumn::kMelded},
      {"meld", SheetColumn::kMelded},
      {"melds", SheetColumn::kMelded},
      {"cardsmelded", SheetColumn::kMelded},
      {"meldedcards", SheetColumn::kMelded},
      {"ontable", SheetColumn::kMelded},
      {"cardsontable", SheetColumn::kMelded},
      {"inhand", SheetColumn::kInHand},
      {"cardsinhand", SheetColumn::kInHand},
      {"leftinhand", SheetColumn::kInHand},
      {"cardsleft", SheetColumn::kInHand},
      {"penalties", SheetColumn::kPenalties},
      {"penalty", SheetColumn::kPenalties},
      {"house", SheetColumn::kHouse},
      {"houserule", SheetColumn::kHouse},
      {"specialhand", SheetColumn::kSpecialHand},
      {"score", SheetColumn::kScore},
      {"handscore", SheetColumn::kScore},
      {"points", SheetColumn::kScore},
      {"net", SheetColumn::kScore},
      {"total", SheetColumn::kTotal},
      {"totals", SheetColumn::kTotal},
      {"runningtotal", SheetColumn::kTotal},
      {"cumulative", SheetColumn::kTotal},
      {"gametotal", SheetColumn::kTotal},
      {"note", SheetColumn::kIgnored},
      {"notes", SheetColumn::kIgnored},
      {"comment", SheetColumn::kIgnored},
      {"comments", SheetColumn::kIgnored},
      {"date", SheetColumn::kIgnored},
  };
  const auto it = kNames.find(Key(header));
  return it == kNames.end() ? SheetColumn::kUnknown : it->second;
}

SheetImport ImportSheetCsv(std::istream& csv, const std::string& file,
                           const SheetImportOptions& options) {
  SheetImport out;
  out.report.file = file;
  std::vector<Finding>& findings = out.report.findings;
  // At most one block past the limit is read: /dev/zero is refused, not held.
  std::string sheet;
  std::vector<char> block(64 * 1024);
  while (sheet.size() <= kMaxSheetBytes &&
         (csv.read(block.data(), std::streamsize(block.size())) || csv.gcount() > 0))
    sheet.append(block.data(), size_t(csv.gcount()));
  if (sheet.size() > kMaxSheetBytes) {
    findings.push_back(Finding{1,
                               CheckId::kLogNotCanastaLog,
                               "this sheet is larger than " +
                                   std::to_string(kMaxSheetBytes / (1024 * 1024)) +
                                   " MiB, the limit (docs/sheets.md, Limits): it is not imported",
                               {}});
    return out;
  }
  // A log is UTF-8 (canasta-log/1): a sheet saved in another encoding (a
  // Latin-1 "Müller") is read with U+FFFD for each byte that is not, and
  // one finding says where the first one is.
  if (const size_t bad_byte = FindInvalidUtf8(sheet); bad_byte != std::string_view::npos) {
    const int line = 1 + int(std::count(sheet.begin(), sheet.begin() + long(bad_byte), '\n'));
    findings.push_back(
        Finding{line,
                CheckId::kLogBadEvent,
                "this sheet is not UTF-8 text: the bytes that are not are read as U+FFFD",
                {"the first is byte " + std::to_string(bad_byte + 1) +
                 " of the file; save the sheet as UTF-8 to keep its names"}});
    sheet = ValidUtf8(sheet);
  }
  const std::vector<CsvRow> rows = ReadCsv(sheet);
  sheet = std::string();
  const int players = options.num_players;
  const int sides = players == 4 ? 2 : players;
  // Listed up to the audit's cap per file, then one finding says the rest
  // are not (the import itself goes on: the log is written whole).
  constexpr size_t kMaxListed = size_t(kDefaultMaxFindings);
  auto bad = [&](int line, std::string message, std::vector<std::string> notes) {
    if (findings.size() > kMaxListed) return;
    if (findings.size() == kMaxListed) {
      findings.push_back(Finding{
          line,
          CheckId::kLogIncomplete,
          "more than " + std::to_string(kMaxListed) +
              " findings in this sheet: the rest are not listed",
          {"the limit is " + std::to_string(kMaxListed) + " findings per file (docs/sheets.md)"}});
      return;
    }
    findings.push_back(Finding{line, CheckId::kLogBadEvent, std::move(message), std::move(notes)});
  };

  // The header row: the first row with a cell in it.
  size_t r = 0;
  while (r < rows.size() && !rows[r].too_long() &&
         std::all_of(rows[r].cells.begin(), rows[r].cells.end(),
                     [](const std::string& c) { return Trim(c).empty(); }))
    ++r;
  if (r == rows.size()) {
    bad(1, "the sheet has no header row", {"the first row names the columns: Hand, Side, ..."});
    return out;
  }
  auto too_long = [&](const CsvRow& row, const char* what) {
    bad(row.line,
        row.over == CsvRow::Over::kBytes
            ? "this row is longer than " + std::to_string(kMaxRowBytes / (1024 * 1024)) +
                  " MiB, the limit (docs/sheets.md, Limits)"
            : "this row has more than " + std::to_string(kMaxCells) +
                  " cells, the limit (docs/sheets.md, Limits)",
        {what});
  };
  if (rows[r].too_long()) {
    too_long(rows[r], "it is the header: the sheet is not imported");
    return out;
  }
  const CsvRow& header = rows[r];
  std::vector<SheetColumn> columns;
  std::map<SheetColumn, int> where;  // column kind -> its index
  for (size_t c = 0; c < header.cells.size(); ++c) {
    const std::string name = Trim(header.cells[c]);
    SheetColumn kind = name.empty() ? SheetColumn::kIgnored : ColumnFor(name);
    if (kind == SheetColumn::kUnknown) {
      out.ignored.push_back(name);
      kind = SheetColumn::kIgnored;
    } else if (kind != SheetColumn::kIgnored && where.count(kind)) {
      bad(header.line,
          "column " + std::to_string(c + 1) + " (\"" + name + "\") names the same part as column " +
              std::to_string(where[kind] + 1) + " (\"" + Trim(header.cells[size_t(where[kind])]) +
              "\")",
          {"column " + std::to_string(c + 1) + " is ignored"});
      kind = SheetColumn::kIgnored;
    }
    if (kind != SheetColumn::kIgnored) where[kind] = int(c);
    columns.push_back(kind);
  }
  for (SheetColumn needed : {SheetColumn::kHand, SheetColumn::kSide}) {
    if (!where.count(needed))
      bad(header.line,
          std::string("the header has no ") +
              (needed == SheetColumn::kHand ? "\"Hand\"" : "\"Side\" (or \"Team\")") + " column",
          {"columns: Hand, Side, then the parts (Canastas, Red 3s, Going out, Melded, In hand, "
           "Penalties), Score and Total; see docs/sheets.md"});
  }
  if (!where.count(SheetColumn::kHand) || !where.count(SheetColumn::kSide)) return out;
  auto column_note = [&](size_t c) {
    return "column " + std::to_string(c + 1) + " (\"" + Trim(header.cells[c]) + "\")";
  };

  // Sides: numbers as the log counts them (0, 1, ...; or 1, 2, ... when no
  // 0 appears), or names, numbered in the order they first appear.
  const size_t side_col = size_t(where[SheetColumn::kSide]);
  bool names = false, zero = false;
  for (size_t i = r + 1; i < rows.size(); ++i) {
    if (side_col >= rows[i].cells.size()) continue;
    const std::string v = Trim(rows[i].cells[side_col]);
    if (v.empty()) continue;
    const std::optional<int64_t> n = ParsePoints(v);
    if (!n)
      names = true;
    else if (*n == 0)
      zero = true;
  }
  std::vector<std::string> side_names;

  std::vector<GameRows> games;
  std::map<std::string, size_t> game_index;
  for (size_t i = r + 1; i < rows.size(); ++i) {
    const CsvRow& row = rows[i];
    // A row over the limits is one finding. Its hand and side, where its
    // cells kept name them, still count as recorded (the hand is not said
    // to lack that side too); its other cells are left out.
    const bool over = row.too_long();
    if (over) too_long(row, "its cells are left out");
    auto cell = [&](size_t c) { return c < row.cells.size() ? Trim(row.cells[c]) : std::string(); };
    bool empty = true;
    for (size_t c = 0; c < row.cells.size(); ++c) empty &= Trim(row.cells[c]).empty();
    if (empty) continue;
    // The game this row belongs to.
    std::string game_name;
    if (where.count(SheetColumn::kGame)) game_name = cell(size_t(where[SheetColumn::kGame]));
    if (!game_index.count(game_name)) {
      game_index[game_name] = games.size();
      games.push_back(GameRows{game_name, {}, {}});
    }
    GameRows& game = games[game_index[game_name]];
    // The hand.
    const size_t hand_col = size_t(where[SheetColumn::kHand]);
    const std::string hand_text = cell(hand_col);
    const std::optional<int64_t> hand = ParsePoints(hand_text);
    // The bounds are the log's (docs/log-format.md, Limits): what the import
    // writes, the reader reads.
    if (!hand || *hand < 1 || *hand > kMaxHand) {
      if (over) continue;
      bad(row.line,
          hand_text.empty() ? "the row has no hand number"
          : hand && *hand > kMaxHand
              ? "hand " + std::to_string(*hand) + " is past the last a log may number (" +
                    std::to_string(kMaxHand) + ")"
              : "\"" + hand_text + "\" is not a hand number (1, 2, 3, ...)",
          {column_note(hand_col), "the row is left out"});
      continue;
    }
    // The side.
    const std::string side_text = cell(side_col);
    int side = -1;
    if (side_text.empty()) {
      if (over) continue;
      bad(row.line, "the row names no side", {column_note(side_col), "the row is left out"});
      continue;
    }
    if (names) {
      auto it = std::find(side_names.begin(), side_names.end(), side_text);
      side = int(it - side_names.begin());
      // A name past the game's sides is refused below, and never named a side.
      if (it == side_names.end() && side < sides) side_names.push_back(side_text);
    } else {
      side = int(*ParsePoints(side_text)) - (zero ? 0 : 1);
    }
    if (side < 0 || side >= sides) {
      if (over) continue;
      bad(row.line,
          names
              ? "\"" + side_text + "\" is one side too many: the game has " +
                    std::to_string(sides) + " sides"
              : "there is no side " + side_text + ": sides are " +
                    (zero ? "0 to " + std::to_string(sides - 1) : "1 to " + std::to_string(sides)),
          {column_note(side_col), "the row is left out"});
      continue;
    }
    // Found by number, not by a walk over the hands: a sheet of any length
    // imports in time linear in its rows.
    const auto [at, added] = game.index.emplace(int(*hand), game.hands.size());
    if (added) game.hands.push_back(HandRows{int(*hand), row.line, {}});
    HandRows* hit = &game.hands[at->second];
    if (hit->sides.count(side)) {
      if (over) continue;
      bad(row.line,
          "hand " + std::to_string(*hand) + " has a second row for side " + side_text +
              " (the first is line " + std::to_string(hit->sides[side].line) + ")",
          {"the row is left out"});
      continue;
    }
    SideRow sr;
    sr.line = row.line;
    for (size_t c = 0; c < columns.size() && !over; ++c) {
      const SheetColumn kind = columns[c];
      if (kind == SheetColumn::kIgnored || kind == SheetColumn::kGame ||
          kind == SheetColumn::kHand || kind == SheetColumn::kSide)
        continue;
      const std::string text = cell(c);
      if (text.empty()) continue;  // not recorded
      const std::optional<int64_t> v = ParsePoints(text);
      if (!v || *v > kMaxScore || *v < -kMaxScore) {
        bad(row.line,
            v ? std::to_string(*v) + " points is out of range (-" + std::to_string(kMaxScore) +
                    " to " + std::to_string(kMaxScore) + ")"
              : "\"" + text + "\" is not a number of points",
            {column_note(c),
             "hand " + std::to_string(*hand) + ", side " + side_text + ": the cell is left out"});
        continue;
      }
      if (kind == SheetColumn::kScore)
        sr.score = int(*v);
      else if (kind == SheetColumn::kTotal)
        sr.total = int(*v);
      else
        for (const PartColumn& p : kPartColumns)
          if (p.column == kind) sr.parts.emplace_back(p.part, int(*v));
    }
    hit->sides[side] = std::move(sr);
  }

  // The log: one end_hand per hand, then end_game.
  std::ostringstream log;
  std::vector<std::string> seats = options.players;
  if (int(seats.size()) != players) {
    seats.clear();
    static const char* const kFour[] = {"North", "East", "South", "West"};
    for (int s = 0; s < players; ++s)
      seats.push_back(players == 4                 ? kFour[s]
                      : s < int(side_names.size()) ? side_names[size_t(s)]
                                                   : "Player " + std::to_string(s + 1));
  }
  for (const GameRows& game : games) {
    log << "{\"type\":\"game\",\"format\":\"canasta-log/1\",\"ruleset\":" << Quote(options.ruleset)
        << ",\"players\":[";
    for (size_t s = 0; s < seats.size(); ++s) log << (s ? "," : "") << Quote(seats[s]);
    log << "],\"meta\":{\"source\":" << Quote(file);
    if (!game.name.empty()) log << ",\"game\":" << Quote(game.name);
    if (!side_names.empty()) {
      log << ",\"sides\":[";
      for (size_t s = 0; s < side_names.size(); ++s) log << (s ? "," : "") << Quote(side_names[s]);
      log << "]";
    }
    log << "}}\n";
    std::vector<int64_t> running(size_t(sides), 0);
    std::optional<std::vector<int>> last_totals;
    bool running_known = true;
    for (const HandRows& h : game.hands) {
      for (int s = 0; s < sides; ++s)
        if (!h.sides.count(s))
          bad(h.line,
              "hand " + std::to_string(h.hand) + " has no row for side " +
                  (names ? (size_t(s) < side_names.size() ? "\"" + side_names[size_t(s)] + "\""
                                                          : std::to_string(s))
                         : std::to_string(zero ? s : s + 1)),
              {"the hand is written without its scores"});
      log << "{\"type\":\"end_hand\",\"hand\":" << h.hand;
      if (int(h.sides.size()) == sides) {
        bool all_scores = true, all_totals = true, all_parts = true;
        for (const auto& [s, row] : h.sides) {
          all_scores &= bool(row.score);
          all_totals &= bool(row.total);
          all_parts &= !row.parts.empty();
        }
        std::vector<int> scores, totals;
        for (const auto& [s, row] : h.sides) {
          int64_t score = 0;
          if (row.score) {
            score = *row.score;
          } else {
            for (const auto& p : row.parts) score += p.second;
          }
          running[size_t(s)] += score;
          if (all_scores) scores.push_back(*row.score);
          if (all_totals) totals.push_back(*row.total);
        }
        running_known &= all_scores || all_parts;
        if (all_scores) log << ",\"scores\":" << IntList(scores);
        if (all_totals) {
          log << ",\"totals\":" << IntList(totals);
          last_totals = totals;
          for (int s = 0; s < sides; ++s) running[size_t(s)] = totals[size_t(s)];
          running_known = true;
        }
        if (all_parts) {
          log << ",\"breakdown\":[";
          bool first_side = true;
          for (const auto& [s, row] : h.sides) {
            log << (first_side ? "" : ",") << "{";
            first_side = false;
            for (size_t p = 0; p < row.parts.size(); ++p)
              log << (p ? "," : "") << Quote(row.parts[p].first) << ":" << row.parts[p].second;
            log << "}";
          }
          log << "]";
        }
      } else {
        running_known = false;
      }
      log << "}\n";
    }
    // The end as the sheet has it: its last running totals, and the side
    // ahead on them as the winner.
    log << "{\"type\":\"end_game\"";
    std::vector<int> final_totals;
    if (last_totals)
      final_totals = *last_totals;
    else if (running_known && !game.hands.empty() &&
             std::all_of(running.begin(), running.end(),
                         [](int64_t v) { return v >= -kMaxScore && v <= kMaxScore; }))
      for (int64_t v : running) final_totals.push_back(int(v));  // a log's range
    if (!final_totals.empty()) {
      log << ",\"totals\":" << IntList(final_totals);
      const auto best = std::max_element(final_totals.begin(), final_totals.end());
      if (std::count(final_totals.begin(), final_totals.end(), *best) == 1)
        log << ",\"winner\":" << (best - final_totals.begin());
    }
    log << "}\n";
  }
  out.log = log.str();
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.line < b.line; });
  return out;
}

namespace {

// Collects every hand's computed scores as the replay closes it.
class SheetCollector : public ReplayObserver {
 public:
  struct Row {
    int game = 0;
    HandReport hand;
    std::vector<bool> parts_known;
  };
  void OnGameStart(const GameReport&, const RulesetChoice*) override { ++game_; }
  void OnHandEnd(const HandReport& h, const Event* end_hand, const Position* pos) override {
    Row row{game_, h, std::vector<bool>(h.scores.size(), pos != nullptr)};
    // A hand the engine did not play: its parts are the sheet's own, where
    // they were recorded and add up to the score taken (a lost hand's are
    // unknown).
    if (!pos && end_hand && end_hand->breakdown)
      for (size_t s = 0; s < h.scores.size() && s < h.breakdown.size(); ++s)
        row.parts_known[s] = h.breakdown[s].total() == h.scores[s];
    rows_.push_back(std::move(row));
  }
  const std::vector<Row>& rows() const { return rows_; }
  int games() const { return game_; }

 private:
  int game_ = 0;
  std::vector<Row> rows_;
};

}  // namespace

FileReport ExportSheetCsv(std::istream& log, const std::string& file, const AuditOptions& options,
                          std::ostream& csv) {
  ReplayDriver driver(options);
  SheetCollector collector;
  driver.AddObserver(&collector);
  FileReport report = driver.Run(log, file);
  bool house = false;
  bool special = false;  // a special hand scored (001 L79)
  // The ruleset's own parts (score_parts), a column each after the standard ones.
  std::vector<std::string> extra;
  for (const SheetCollector::Row& row : collector.rows())
    for (const ScoreBreakdown& b : row.hand.breakdown) {
      house |= b.house != 0;
      special |= b.special_hand != 0;
      for (const auto& part : b.extra)
        if (std::find(extra.begin(), extra.end(), part.first) == extra.end())
          extra.push_back(part.first);
    }
  const bool several = collector.games() > 1;
  if (several) csv << "Game,";
  csv << "Hand,Side";
  for (const PartColumn& p : kPartColumns) {
    if (p.column == SheetColumn::kSpecialHand && !special) continue;
    if (p.column == SheetColumn::kHouse && !house) continue;
    csv << "," << p.header;
  }
  for (const std::string& name : extra) csv << "," << name;  // [a-z0-9_]: no quoting
  csv << ",Score,Total\n";
  // Hands are numbered 1, 2, 3, ... in each game, as a sheet counts them,
  // whatever the log numbered them (a misnumbered deal is the audit's
  // deal-hand-number finding; the import takes numbers from 1 on).
  int game = 0, ordinal = 0;
  for (const SheetCollector::Row& row : collector.rows()) {
    const HandReport& h = row.hand;
    if (row.game != game) {
      game = row.game;
      ordinal = 0;
    }
    ++ordinal;
    for (size_t s = 0; s < h.scores.size(); ++s) {
      if (several) csv << row.game << ",";
      csv << ordinal << "," << s;
      const ScoreBreakdown& b = s < h.breakdown.size() ? h.breakdown[s] : ScoreBreakdown();
      const bool known = row.parts_known[s];
      for (const PartColumn& p : kPartColumns) {
        if (p.column == SheetColumn::kSpecialHand && !special) continue;
        if (p.column == SheetColumn::kHouse && !house) continue;
        csv << ",";
        if (!known) continue;
        for (const BreakdownPart& part : BreakdownParts())
          if (std::string(part.name) == p.part) csv << b.*part.field;
      }
      for (const std::string& name : extra) {
        csv << ",";
        const int* value = b.Find(name);
        if (known && value) csv << *value;
      }
      csv << "," << h.scores[s] << "," << (s < h.totals.size() ? h.totals[s] : 0) << "\n";
    }
  }
  return report;
}

}  // namespace canasta
