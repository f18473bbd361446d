// Score sheets as CSV (docs/sheets.md): a club's spreadsheet export turned
// into a canasta-log/1 sheet log, and the computed score sheet of any log
// written back as CSV. One row per hand and side, columns named by the part.
#ifndef CANASTA_REPLAY_SHEET_CSV_H_
#define CANASTA_REPLAY_SHEET_CSV_H_

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "replay/driver.h"
#include "replay/report.h"

namespace canasta {

// A column of a sheet CSV: what its header names.
enum class SheetColumn {
  kGame,
  kHand,
  kSide,
  kCanastas,
  kRedThrees,
  kGoingOut,
  kMelded,
  kInHand,
  kPenalties,
  kHouse,
  kSpecialHand,
  kScore,
  kTotal,
  kIgnored,  // free text a sheet may carry (notes, date)
  kUnknown,
};

// The column a header cell names, in any of its accepted spellings ("Red
// 3s", "red_threes", "Threes"): case, spaces and punctuation do not matter.
SheetColumn ColumnFor(const std::string& header);

struct SheetImportOptions {
  std::string ruleset = "classic";   // written in the game header
  int num_players = 4;               // of the ruleset
  std::vector<std::string> players;  // seat names; defaults when empty
};

struct SheetImport {
  std::string log;                   // the canasta-log/1 sheet log
  FileReport report;                 // findings about the CSV, by its lines
  std::vector<std::string> ignored;  // header cells of columns left out
};

// Reads a sheet CSV (comma, semicolon or tab separated, with a header row).
// Every bad cell is a finding with the CSV's line and a note naming the
// column; what can be read is still written to the log.
SheetImport ImportSheetCsv(std::istream& csv, const std::string& file,
                           const SheetImportOptions& options);

// Replays the log and writes its computed score sheet as CSV (the columns
// ImportSheetCsv reads). Returns the replay's report.
FileReport ExportSheetCsv(std::istream& log, const std::string& file, const AuditOptions& options,
                          std::ostream& csv);

}  // namespace canasta

#endif  // CANASTA_REPLAY_SHEET_CSV_H_
