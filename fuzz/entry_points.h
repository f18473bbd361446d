// The bodies of the fuzz targets, one function per target, so that the
// fuzzers (fuzz/*_fuzzer.cc) and the regression test
// (tests/fuzz_regressions_test.cc) run the same code on the same bytes.
//
// Each takes any bytes and returns normally. A broken promise of the toolkit
// (an exception out of the reader or the audit, a finding without a message
// or with a line the input does not have, a report that is not valid JSON)
// aborts with a message on stderr, which libFuzzer reports as a crash.
#ifndef CANASTA_FUZZ_ENTRY_POINTS_H_
#define CANASTA_FUZZ_ENTRY_POINTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace canasta {
namespace fuzz {

// The bytes are one log, read event by event with LogReader.
void ReadLog(const uint8_t* data, size_t size);

// The first byte picks a built-in ruleset (BuiltinRulesetNames()[byte % n]),
// forced over the log's own; the rest is one log, audited with AuditStream,
// and the report is written as text, JSON and SARIF.
void AuditLog(const uint8_t* data, size_t size);

// The bytes are the Lua text of a ruleset file, loaded with LoadRuleset; a
// ruleset that loads then audits a short fixed log (its hooks run).
void LoadRulesetText(const uint8_t* data, size_t size);

// The first byte picks the hand (1 + byte % 8) and the game
// (1 + byte / 8 % 2); the rest is one log, whose decisions for that hand are
// collected with CollectDecisions (no Graphviz: it leaks, see
// docs/fuzzing.md). The log's ruleset is used when it is a built-in.
void CollectHandDecisions(const uint8_t* data, size_t size);

// The bytes are a score sheet (CSV), imported with ImportSheetCsv; the log it
// writes must be canasta-log/1 that the reader reads with no problem, and
// is audited under classic.
void ImportSheet(const uint8_t* data, size_t size);

// The bytes are JSON Lines as `canasta audit --format jsonl` writes them,
// added line by line to one summary (AddReportLine), written as text and
// JSON.
void SummarizeReportLines(const uint8_t* data, size_t size);

// The targets by name, as the fuzzers and fuzz/regressions/<name>/ call them.
struct Target {
  const char* name;
  void (*run)(const uint8_t* data, size_t size);
};
const std::vector<Target>& Targets();

}  // namespace fuzz
}  // namespace canasta

#endif  // CANASTA_FUZZ_ENTRY_POINTS_H_
