// Command-line parsing shared by the subcommands: named options plus any
// number of positional paths.
#ifndef CANASTA_CLI_OPTIONS_H_
#define CANASTA_CLI_OPTIONS_H_

#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace canasta {

// Parses `args` into `vm`, the positional arguments into `paths`. On a usage
// error prints "canasta COMMAND: error: ..." and `usage` with the options,
// and returns false.
bool ParseOptions(const std::vector<std::string>& args,
                  const boost::program_options::options_description& options,
                  const char* command, const char* usage, std::vector<std::string>* paths,
                  boost::program_options::variables_map* vm);

}  // namespace canasta

#endif  // CANASTA_CLI_OPTIONS_H_
