// Command-line parsing shared by the subcommands: named options plus any
// number of positional paths.
#ifndef CANASTA_CLI_OPTIONS_H_
#define CANASTA_CLI_OPTIONS_H_

#include <boost/program_options.hpp>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace canasta {

// Parses `args` into `vm`, the positional arguments into `paths`. On a usage
// error prints "canasta COMMAND: error: ..." and `usage` with the options,
// and returns false.
bool ParseOptions(const std::vector<std::string>& args,
                  const boost::program_options::options_description& options,
                  const char* command, const char* usage, std::vector<std::string>* paths,
                  boost::program_options::variables_map* vm);

// The rollouts per decision of `review` and `tree` at most (the review's
// refinement caps may reach 4 times this), and the threads either may use.
inline constexpr int kMaxRollouts = 100000;
inline constexpr int kMaxThreads = 256;

// An integer option's accepted values, `min` to `max`.
struct OptionRange {
  const char* name;  // without the dashes: "hand"
  long long value;
  long long min;
  long long max = std::numeric_limits<long long>::max();
};

// Checks each option of `ranges` that `vm` holds (given, or by its default):
// for every one out of its range prints "canasta COMMAND: error: --NAME is
// VALUE; it must be MIN to MAX" (or "at least MIN"), and returns false if
// there was one. A message names the option, so a user knows what to change.
bool CheckRanges(const char* command, const boost::program_options::variables_map& vm,
                 std::initializer_list<OptionRange> ranges);

}  // namespace canasta

#endif  // CANASTA_CLI_OPTIONS_H_
