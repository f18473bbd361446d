// `canasta rules list|show|diff`: what a ruleset says, before a game.
#include <iostream>
#include <string>

#include "cli/commands.h"
#include "lint/check_levels.h"
#include "lint/format.h"
#include "scripting/ruleset.h"
#include "scripting/ruleset_info.h"

namespace canasta {
namespace {

constexpr char kRulesUsage[] =
    "usage: canasta rules list\n"
    "       canasta rules show NAME|FILE\n"
    "       canasta rules diff A B\n"
    "       canasta rules hooks [--markdown]\n"
    "\n"
    "list  the built-in rulesets, one line each\n"
    "show  every parameter of a ruleset with its value and its source, and its hooks\n"
    "diff  what differs between two rulesets: the table a group reads before playing\n"
    "hooks  every hook a ruleset may define: signature, ctx fields, result, example\n"
    "--markdown  with hooks: the hook reference of docs/lua-api.md, as Markdown\n"
    "\n"
    "NAME is a built-in ruleset; FILE a Lua ruleset (docs/lua-api.md).\n";

// A ruleset file's own text (its name, description, sources, an error it
// raises) may hold a terminal's control codes: it is printed escaped, as
// findings are (PrintableLines).
bool Load(const std::string& name, std::optional<Ruleset>* out) {
  LoadOptions options;
  options.allow_incomplete = true;  // showing an incomplete ruleset says what it lacks
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(name, options);
  if (auto* e = std::get_if<LuaError>(&loaded)) {
    std::cerr << "canasta rules: error: " << PrintableLines(e->ToString()) << "\n";
    if (!e->traceback.empty()) std::cerr << PrintableLines(e->traceback) << "\n";
    return false;
  }
  // The names of `checks` are lint/'s to know (scripting/ruleset.h).
  const std::string bad = CheckLevels().ApplySettings(std::get<Ruleset>(loaded).checks());
  if (!bad.empty()) {
    std::cerr << "canasta rules: error: " << PrintableLines(bad) << "\n";
    return false;
  }
  out->emplace(std::move(std::get<Ruleset>(loaded)));
  return true;
}

}  // namespace

int RulesCommand(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << kRulesUsage;
    return kExitTrouble;
  }
  const std::string& sub = args[0];
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      std::cout << kRulesUsage;
      return kExitOk;
    }
  }
  if (sub == "list" && args.size() == 1) {
    std::cout << ListRulesets();
    return kExitOk;
  }
  if (sub == "hooks" && (args.size() == 1 || (args.size() == 2 && args[1] == "--markdown"))) {
    std::cout << HookReference(args.size() == 2);
    return kExitOk;
  }
  if (sub == "show" && args.size() == 2) {
    std::optional<Ruleset> r;
    if (!Load(args[1], &r)) return kExitTrouble;
    std::cout << PrintableLines(ShowRuleset(*r));
    return kExitOk;
  }
  if (sub == "diff" && args.size() == 3) {
    std::optional<Ruleset> a, b;
    if (!Load(args[1], &a) || !Load(args[2], &b)) return kExitTrouble;
    std::cout << PrintableLines(DiffRulesets(*a, *b));
    return kExitOk;
  }
  std::cerr << "canasta rules: error: bad arguments\n\n" << kRulesUsage;
  return kExitTrouble;
}

}  // namespace canasta
