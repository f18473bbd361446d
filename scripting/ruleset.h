// A ruleset: the rule values (core/rules.h) and hooks (core/hooks.h) that a
// Lua ruleset file describes, on top of the file it extends. The file format
// is documented in docs/lua-api.md; the built-ins in docs/rulesets.md.
//
// A Ruleset is an immutable value, safe to share between threads. Hooks run
// Lua code, so each thread gets its own from MakeHooks().
#ifndef CANASTA_SCRIPTING_RULESET_H_
#define CANASTA_SCRIPTING_RULESET_H_

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/hooks.h"
#include "core/rules.h"
#include "scripting/lua_sandbox.h"

namespace canasta {

class Ruleset {
 public:
  // One file of the chain that makes up a ruleset, the root first.
  struct Link {
    std::string name;  // the ruleset's `name`
    std::string file;  // "rulesets/hutto.lua" for a built-in, else the path used
    bool builtin = false;
  };

  // Where a parameter's value was set.
  struct Origin {
    std::string ruleset;  // name of the ruleset file that set it last
    std::string file;
    int line = 0;        // of the key in `params`; 0 when unknown
    std::string source;  // the file's `sources` entry for it, may be empty
  };

  // Something an incomplete ruleset needs before it can run (readings
  // R52): a parameter value or a base that a file extending it must give,
  // or a feature the engine does not have yet.
  struct Requirement {
    enum Kind { kParam, kBase, kFeature };
    Kind kind;
    std::string name;         // a parameter name, "base", or the missing feature
    std::string text;         // what is needed and why, with the source
    std::string declared_by;  // the ruleset that asks for it
  };

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::string& file() const { return chain_.back().file; }
  bool builtin() const { return chain_.back().builtin; }
  const std::vector<Link>& chain() const { return chain_; }

  const Rules& rules() const { return rules_; }
  // nullptr while the parameter has the engine's default value.
  const Origin* origin(const std::string& param) const;
  // Text for `rules show`: "hutto: 000 §21", "house: house.lua:12" or
  // "default: 000 §12" (the engine's source for its default).
  std::string SourceOf(const std::string& param) const;

  // The hooks the chain defines (names as in HookNames()), sorted.
  const std::vector<std::string>& hooks() const { return hooks_; }
  // Where the chain defines `hook` last ("house.lua:12"; "" if it does not).
  std::string HookWhere(const std::string& hook) const;

  // The chain's `checks` settings, a later file overriding an earlier one's
  // entry for the same check. The check names are not checked here: they
  // live in lint/checks.h, above scripting/, which validates these
  // (lint/check_levels.h) wherever a ruleset is chosen (the command line).
  // Keeping the name table in lint/ leaves one registry of checks.
  const std::vector<CheckSetting>& checks() const { return checks_; }

  // What is still missing; empty for a ruleset that can run.
  const std::vector<Requirement>& unmet() const { return unmet_; }
  bool runnable() const { return unmet_.empty(); }
  // The refusal message naming every missing value ("" when runnable).
  std::string IncompleteMessage() const;

  // Hooks for one thread. Without Lua hooks this is a plain RuleHooks and
  // costs nothing; otherwise a fresh sandbox runs the chain's files again
  // (LuaHooks; its failures are reported through TakeHookErrors()).
  std::unique_ptr<RuleHooks> MakeHooks() const;
  // The name, the values and fresh hooks, ready for one game or thread.
  RulesetChoice Choose() const {
    return RulesetChoice{name_, rules_, std::shared_ptr<const RuleHooks>(MakeHooks().release()),
                         checks_};
  }

 private:
  friend class RulesetLoader;
  Ruleset() = default;

  struct Chunks;  // the Lua sources, shared by copies for MakeHooks()

  std::string name_;
  std::string description_;
  std::vector<Link> chain_;
  Rules rules_;
  std::vector<std::pair<std::string, Origin>> origins_;
  std::vector<std::string> hooks_;
  std::vector<std::pair<std::string, std::string>> hook_where_;  // hook -> "file:line"
  std::vector<CheckSetting> checks_;
  std::vector<Requirement> unmet_;
  std::shared_ptr<const Chunks> chunks_;
  SandboxLimits hook_limits_;
  SandboxLimits load_limits_;  // the files run again under these in MakeHooks()
};

struct LoadOptions {
  // Load a ruleset that is not runnable (for `rules show bolivia`); by
  // default that is an error naming what is missing.
  bool allow_incomplete = false;
  // When not empty, every ruleset file of the chain (the one named and each
  // it extends) must lie inside one of these folders, compared as canonical
  // paths; a file outside is refused before it is opened (a log names its
  // ruleset: scripting/resolver.h).
  std::vector<std::string> confine_to;
  // Limits while the files are loaded, and for each hook call.
  SandboxLimits load_limits;
  SandboxLimits hook_limits = [] {
    SandboxLimits limits;
    limits.instructions = 1'000'000;
    limits.c_work = 10'000'000;
    limits.seconds = 0.5;
    // A game's calls together (a review's rollouts make millions): about a
    // minute at most (docs/lua-api.md, "Limits").
    limits.total_instructions = 5'000'000'000;
    limits.total_c_work = 50'000'000'000;
    limits.total_seconds = 60;
    return limits;
  }();
};

// Loads a built-in by name ("hutto") or a ruleset file by path. A name that
// is a built-in is the built-in; write "./hutto.lua" for a file of that name.
// "classic" is the engine's default rules.
std::variant<Ruleset, LuaError> LoadRuleset(const std::string& name_or_path,
                                            const LoadOptions& options = LoadOptions());

// The built-in names, sorted.
std::vector<std::string> BuiltinRulesetNames();

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_RULESET_H_
