#include "cli/options.h"

#include <iostream>

namespace po = boost::program_options;

namespace canasta {

bool ParseOptions(const std::vector<std::string>& args, const po::options_description& options,
                  const char* command, const char* usage, std::vector<std::string>* paths,
                  po::variables_map* vm) {
  po::options_description hidden;
  hidden.add_options()("path", po::value(paths));
  po::positional_options_description positional;
  positional.add("path", -1);
  po::options_description all;
  all.add(options).add(hidden);
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), *vm);
    po::notify(*vm);
  } catch (const po::error& e) {
    std::cerr << "canasta " << command << ": error: " << e.what() << "\n\n" << usage << options;
    return false;
  }
  return true;
}

bool CheckRanges(const char* command, const po::variables_map& vm,
                 std::initializer_list<OptionRange> ranges) {
  bool ok = true;
  for (const OptionRange& r : ranges) {
    if (!vm.count(r.name) || (r.value >= r.min && r.value <= r.max)) continue;
    std::cerr << "canasta " << command << ": error: --" << r.name << " is " << r.value
              << "; it must be ";
    if (r.max == std::numeric_limits<long long>::max())
      std::cerr << "at least " << r.min << "\n";
    else
      std::cerr << r.min << " to " << r.max << "\n";
    ok = false;
  }
  return ok;
}

}  // namespace canasta
