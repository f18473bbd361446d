#include "scripting/ruleset.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "scripting/builtin_rulesets.h"
#include "core/scoring.h"
#include "scripting/lua_hooks.h"
#include "scripting/lua_internal.h"
#include "scripting/param_values.h"

namespace canasta {

struct Ruleset::Chunks {
  std::vector<LuaHooks::Chunk> files;
};

namespace {

namespace fs = std::filesystem;

constexpr int kMaxChainDepth = 16;
constexpr uintmax_t kMaxFileBytes = 1 << 20;

const std::vector<std::string>& TopLevelFields() {
  static const std::vector<std::string> kFields = {
      "name",  "description", "extends",    "base",
      "params", "sources",    "hooks",      "incomplete", "score_parts", "checks"};
  return kFields;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `text` contains `word` not as part of a longer identifier.
bool MentionsWord(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool starts = at == 0 || !IsIdentifierChar(text[at - 1]);
    size_t end = at + word.size();
    bool ends = end >= text.size() || !IsIdentifierChar(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

const BuiltinRuleset* FindBuiltin(const std::string& name) {
  for (const BuiltinRuleset& b : BuiltinRulesets()) {
    if (name == b.name) return &b;
  }
  return nullptr;
}

// Reads the raw field `key` of the table at `idx` as a string; "" if absent.
// Returns false (with `why`) when present but not a string.
bool RawString(lua_State* L, int idx, const char* key, std::string* out, std::string* why) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, key);
  int type = lua_rawget(L, idx);
  bool ok = true;
  if (type == LUA_TSTRING) {
    size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    out->assign(s, len);
  } else if (type != LUA_TNIL) {
    *why = "expected a string, got " + DescribeLuaValue(L, -1);
    ok = false;
  }
  lua_pop(L, 1);
  return ok;
}

// Whether `path` (canonical: symlinks followed) lies inside one of `roots`.
bool InsideAny(const fs::path& path, const std::vector<std::string>& roots) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  if (ec) return false;
  for (const std::string& root : roots) {
    fs::path r = fs::weakly_canonical(root, ec);
    if (ec) continue;
    auto [ri, pi] = std::mismatch(r.begin(), r.end(), p.begin(), p.end());
    if (ri == r.end() || (std::next(ri) == r.end() && ri->empty())) return true;
  }
  return false;
}

}  // namespace

class RulesetLoader {
 public:
  explicit RulesetLoader(const LoadOptions& options)
      : options_(options), sandbox_(options.load_limits) {}

  std::variant<Ruleset, LuaError> Load(const std::string& name_or_path);

 private:
  struct File {
    std::string name;
    std::string file;      // chunk name, as shown in errors
    std::string dir;       // base for relative `extends`; empty for built-ins
    std::string identity;  // detects cycles
    bool builtin = false;
    std::string source;
    std::map<std::string, int> lines;
    int table_ref = LUA_NOREF;
    std::string description, extends, base;
    bool base_given = false;                         // a file extending this root named its base
    std::vector<Ruleset::Requirement> requirements;  // its `incomplete` list
  };

  // Where a file is: what `spec` names, seen from `from`.
  // `key` is the field of `from` that names it ("extends" or "base").
  std::optional<LuaError> Resolve(const std::string& spec, const File* from, const char* key,
                                  File* out);
  // Loads `spec` and, first, everything it extends; appends root first.
  bool LoadFile(const std::string& spec, const File* from, int depth, const File* base_giver,
                const char* key = "extends");
  // Reads the metadata of the table on top of the stack into `f`.
  bool ReadMetadata(File& f);
  bool Apply(Ruleset& rs);

  void Fail(const File& f, const std::string& key_path, const std::string& message) {
    if (error_) return;
    auto it = f.lines.find(key_path);
    error_ = LuaError{f.file, it == f.lines.end() ? 0 : it->second, message, ""};
  }

  LoadOptions options_;
  LuaSandbox sandbox_;
  std::optional<LuaError> error_;
  std::vector<File> chain_;
  std::vector<std::string> visiting_;
};

std::optional<LuaError> RulesetLoader::Resolve(const std::string& spec, const File* from,
                                               const char* key, File* out) {
  if (const BuiltinRuleset* b = FindBuiltin(spec)) {
    out->builtin = true;
    out->name = b->name;
    out->file = "rulesets/" + spec + ".lua";
    out->identity = "builtin:" + spec;
    out->source = b->source;
    return std::nullopt;
  }
  auto where = [&](const std::string& message) {
    if (from == nullptr) return LuaError{spec, 0, message, ""};
    auto it = from->lines.find(key);
    return LuaError{from->file, it == from->lines.end() ? 0 : it->second, message, ""};
  };
  if (from != nullptr && from->builtin) {
    return where("a built-in ruleset may only extend built-ins, not \"" + spec + "\"");
  }
  fs::path path(spec);
  if (path.is_relative() && from != nullptr && !from->dir.empty())
    path = fs::path(from->dir) / path;
  std::error_code ec;
  bool looks_like_name = spec.find('/') == std::string::npos &&
                         (spec.size() < 4 || spec.compare(spec.size() - 4, 4, ".lua") != 0);
  // A file extends only a ruleset file: never another kind of file whose
  // text a syntax error would quote (the user named the first file only).
  if (from != nullptr && (spec.size() < 4 || spec.compare(spec.size() - 4, 4, ".lua") != 0)) {
    if (looks_like_name)
      return where("no ruleset \"" + spec + "\": not a built-in (" +
                   JoinNames(BuiltinRulesetNames()) + ")" + Suggest(spec, BuiltinRulesetNames()) +
                   "; a ruleset file's name ends in .lua");
    return where("ruleset file \"" + spec +
                 "\" does not end in .lua; a ruleset extends only ruleset files, and it was not "
                 "opened");
  }
  if (!options_.confine_to.empty() && !InsideAny(path, options_.confine_to)) {
    return where("ruleset file \"" + spec +
                 "\" is outside the folders a log may name rulesets from; it was not opened");
  }
  if (!fs::is_regular_file(path, ec)) {
    // Something that is not a file (a folder, a device, a pipe) is said so:
    // it is not opened.
    const fs::file_status status = fs::status(path, ec);
    if (!ec && fs::exists(status)) {
      const char* kind = fs::is_directory(status) ? "a folder" : "not a regular file";
      return where("ruleset \"" + spec + "\" names " + path.string() + ", which is " + kind +
                   "; a ruleset is a built-in name or a .lua file");
    }
    std::string message = "no ruleset \"" + spec + "\": ";
    message += looks_like_name ? "not a built-in (" + JoinNames(BuiltinRulesetNames()) +
                                     ") and no such file" + Suggest(spec, BuiltinRulesetNames())
                               : "no such file " + path.string();
    return where(message);
  }
  if (fs::file_size(path, ec) > kMaxFileBytes) {
    return where("ruleset file " + path.string() + " is larger than 1 MB");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return where("cannot read ruleset file " + path.string());
  out->builtin = false;
  out->file = path.lexically_normal().string();
  out->name = path.stem().string();
  out->dir = path.parent_path().string();
  fs::path canonical = fs::weakly_canonical(path, ec);
  out->identity = ec ? out->file : canonical.string();
  out->source = text.str();
  return std::nullopt;
}

bool RulesetLoader::LoadFile(const std::string& spec, const File* from, int depth,
                             const File* base_giver, const char* key) {
  File f;
  if (std::optional<LuaError> e = Resolve(spec, from, key, &f)) {
    error_ = e;
    return false;
  }
  if (depth > kMaxChainDepth) {
    Fail(*from, "extends",
         "more than " + std::to_string(kMaxChainDepth) + " files extend each other");
    return false;
  }
  if (std::find(visiting_.begin(), visiting_.end(), f.identity) != visiting_.end()) {
    Fail(*from, "extends", "\"" + spec + "\" extends itself (a cycle of extends)");
    return false;
  }
  f.lines = ScanKeyLines(f.source);
  if ((error_ = sandbox_.Run(f.source, f.file, 1))) return false;
  if (!ReadMetadata(f)) return false;

  visiting_.push_back(f.identity);
  if (!f.base.empty() && f.extends.empty()) {
    Fail(f, "base", "base names the ruleset under an incomplete one, so it needs extends");
    return false;
  }
  if (!f.base.empty() && base_giver != nullptr) {
    Fail(f, "base", "base is already given by " + base_giver->file);
    return false;
  }
  const File* giver = base_giver != nullptr ? base_giver : (f.base.empty() ? nullptr : &f);
  if (!f.extends.empty()) {
    if (!LoadFile(f.extends, &f, depth + 1, giver)) return false;
  } else if (giver != nullptr) {
    // The root of the chain: the base goes under it. Only a root that asks
    // for a base (an incomplete ruleset, readings R52) may get one.
    bool asks = std::any_of(f.requirements.begin(), f.requirements.end(),
                            [](const Ruleset::Requirement& r) { return r.name == "base"; });
    if (!asks) {
      Fail(*giver, "base",
           "base is only for extending an incomplete ruleset that asks for one; " + f.file +
               " does not (use extends instead)");
      return false;
    }
    if (!LoadFile(giver->base, giver, depth + 1, nullptr, "base")) return false;
    f.base_given = true;
  }
  visiting_.pop_back();
  chain_.push_back(std::move(f));
  return true;
}

bool RulesetLoader::ReadMetadata(File& f) {
  std::optional<LuaError> lua_error = sandbox_.Protected(
      [this, &f](lua_State* L) {
        if (!lua_istable(L, 1)) {
          Fail(f, "", "a ruleset file must return a table, not " + DescribeLuaValue(L, 1));
          return;
        }
        // Unknown top-level fields are mistakes (a misspelt "params" would
        // silently change nothing).
        lua_pushnil(L);
        while (lua_next(L, 1)) {
          lua_pop(L, 1);
          std::string key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
          const std::vector<std::string>& known = TopLevelFields();
          if (std::find(known.begin(), known.end(), key) == known.end()) {
            Fail(f, key,
                 "unknown field " + DescribeLuaValue(L, -1) + Suggest(key, known) +
                     "; a ruleset has " + JoinNames(known));
            lua_pop(L, 1);
            return;
          }
        }
        std::string why;
        for (auto [key, out] : {std::pair{"name", &f.name},
                                {"description", &f.description},
                                {"extends", &f.extends},
                                {"base", &f.base}}) {
          std::string value;
          if (!RawString(L, 1, key, &value, &why)) {
            Fail(f, key, std::string(key) + ": " + why);
            return;
          }
          if (!value.empty() || std::string(key) != "name") *out = value;
        }
        for (const char* key :
             {"params", "sources", "hooks", "incomplete", "score_parts", "checks"}) {
          lua_pushstring(L, key);
          int type = lua_rawget(L, 1);
          if (type != LUA_TNIL && type != LUA_TTABLE) {
            Fail(f, key, std::string(key) + ": expected a table, got " + DescribeLuaValue(L, -1));
            return;
          }
          lua_pop(L, 1);
        }
        // incomplete: a list of "name: what is needed".
        lua_pushliteral(L, "incomplete");
        if (lua_rawget(L, 1) == LUA_TTABLE) {
          lua_Integer n = lua_Integer(lua_rawlen(L, 2));
          for (lua_Integer k = 1; k <= n; ++k) {
            lua_rawgeti(L, 2, k);
            std::string entry = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
            size_t colon = entry.find(':');
            if (colon == std::string::npos || colon == 0) {
              Fail(f, "incomplete",
                   "incomplete: entry " + std::to_string(k) +
                       " must be a string \"name: what is needed\", got " +
                       DescribeLuaValue(L, -1));
              return;
            }
            lua_pop(L, 1);
            Ruleset::Requirement req;
            req.name = entry.substr(0, colon);
            size_t start = entry.find_first_not_of(' ', colon + 1);
            req.text = start == std::string::npos ? "" : entry.substr(start);
            req.declared_by = f.name;
            req.kind = req.name == "base"               ? Ruleset::Requirement::kBase
                       : FindParam(req.name) != nullptr ? Ruleset::Requirement::kParam
                                                        : Ruleset::Requirement::kFeature;
            f.requirements.push_back(std::move(req));
          }
        }
        lua_settop(L, 1);
        // score_parts: a list of the names of the ruleset's own score parts,
        // which the hook `score` may set (docs/lua-api.md).
        lua_pushliteral(L, "score_parts");
        if (lua_rawget(L, 1) == LUA_TTABLE) {
          lua_Integer n = lua_Integer(lua_rawlen(L, 2));
          for (lua_Integer k = 1; k <= n; ++k) {
            lua_rawgeti(L, 2, k);
            std::string part = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
            bool ok = !part.empty() && part.size() <= 40 &&
                      std::islower(static_cast<unsigned char>(part[0]));
            for (char ch : part)
              ok = ok && (std::islower(static_cast<unsigned char>(ch)) ||
                          std::isdigit(static_cast<unsigned char>(ch)) || ch == '_');
            if (!ok) {
              Fail(f, "score_parts",
                   "score_parts: entry " + std::to_string(k) +
                       " must be a name such as \"sevens_bonus\" (lower case, digits, _), got " +
                       DescribeLuaValue(L, -1));
              return;
            }
            for (const BreakdownPart& standard : BreakdownParts()) {
              if (part == standard.name) {
                Fail(f, "score_parts",
                     "score_parts: \"" + part +
                         "\" is a standard part; the hook score sets it without declaring it");
                return;
              }
            }
            lua_pop(L, 1);
          }
        }
        lua_settop(L, 1);
        f.table_ref = luaL_ref(L, LUA_REGISTRYINDEX);
      },
      1);
  if (lua_error) error_ = lua_error;
  if (error_) return false;
  if (f.builtin && f.name != f.identity.substr(8)) {
    Fail(f, "name", "a built-in's name must be its file name, \"" + f.identity.substr(8) + "\"");
    return false;
  }
  return true;
}

bool RulesetLoader::Apply(Ruleset& rs) {
  std::map<std::string, int> last_set;  // parameter -> index in chain_ of the last file setting it
  std::map<std::string, Ruleset::Origin> origins;
  std::set<std::string> hooks;
  std::map<std::string, std::string> hook_where;
  std::map<std::string, CheckSetting> checks;
  std::map<std::string, std::string> hook_sources;

  std::optional<LuaError> lua_error = sandbox_.Protected([&](lua_State* L) {
    for (size_t i = 0; i < chain_.size() && !error_; ++i) {
      const File& f = chain_[i];
      lua_settop(L, 0);
      lua_rawgeti(L, LUA_REGISTRYINDEX, f.table_ref);  // 1: the file's table

      // params: names first, so that a misspelt name is reported as such.
      lua_pushliteral(L, "params");
      if (lua_rawget(L, 1) == LUA_TTABLE) {  // 2
        // Table order is arbitrary: report the first unknown name in the file.
        std::string unknown, unknown_text;
        int unknown_line = INT_MAX;
        lua_pushnil(L);
        while (lua_next(L, 2)) {
          lua_pop(L, 1);
          std::string key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
          if (FindParam(key) != nullptr) continue;
          auto line = f.lines.find("params." + key);
          int at = line == f.lines.end() ? INT_MAX - 1 : line->second;
          if (at < unknown_line) {
            unknown_line = at;
            unknown = key;
            unknown_text = DescribeLuaValue(L, -1);
          }
        }
        if (unknown_line != INT_MAX) {
          Fail(f, "params." + unknown,
               "unknown parameter " + unknown_text + Suggest(unknown, ParamNames()) +
                   " (the parameters are listed in docs/lua-api.md)");
          return;
        }
        VisitParams(rs.rules_, [&](const ParamInfo& info, auto& field) {
          if (error_) return;
          lua_pushstring(L, info.name);
          if (lua_rawget(L, 2) == LUA_TNIL) {
            lua_pop(L, 1);
            return;
          }
          std::string why = ReadValue(L, -1, field);
          lua_pop(L, 1);
          std::string path = std::string("params.") + info.name;
          if (!why.empty()) {
            Fail(f, path, "parameter " + std::string(info.name) + ": " + why);
            return;
          }
          auto line = f.lines.find(path);
          origins[info.name] = {f.name, f.file, line == f.lines.end() ? 0 : line->second, ""};
          last_set[info.name] = int(i);
        });
        if (error_) return;
      }
      lua_settop(L, 1);

      // sources: a citation per parameter, for `rules show`, or per rule
      // key (Rules::RuleKeys()) for the findings of rules no parameter decides.
      lua_pushliteral(L, "sources");
      if (lua_rawget(L, 1) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
          std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
          const std::vector<std::string>& rule_keys = Rules::RuleKeys();
          const bool rule_key =
              std::find(rule_keys.begin(), rule_keys.end(), key) != rule_keys.end();
          const bool hook_key = FindHook(key) != HookId::kCount;
          if (FindParam(key) == nullptr && !rule_key && !hook_key) {
            std::vector<std::string> known = ParamNames();
            known.insert(known.end(), rule_keys.begin(), rule_keys.end());
            known.insert(known.end(), HookNames().begin(), HookNames().end());
            Fail(f, "sources." + key,
                 "sources: unknown parameter, rule key or hook " + DescribeLuaValue(L, -2) +
                     Suggest(key, known));
            return;
          }
          if (lua_type(L, -1) != LUA_TSTRING) {
            Fail(f, "sources." + key,
                 "sources." + key + ": expected a string, got " + DescribeLuaValue(L, -1));
            return;
          }
          std::string text = lua_tostring(L, -1);
          if (hook_key) {  // cited by the findings of the hook's refusals (HookRefusal)
            hook_sources[key] = text;
            // A name that is a parameter too (canastas_to_go_out) cites both.
            if (FindParam(key) == nullptr) {
              lua_pop(L, 1);
              continue;
            }
          }
          auto it = last_set.find(key);
          if (it != last_set.end() && it->second == int(i)) {
            origins[key].source = text;
          } else {
            // A citation for a value the file keeps (inherited or default).
            auto line = f.lines.find("sources." + key);
            origins[key] = {f.name, f.file, line == f.lines.end() ? 0 : line->second, text};
          }
          lua_pop(L, 1);
        }
      }
      lua_settop(L, 1);

      // hooks: names are checked here; LuaHooks calls them later.
      lua_pushliteral(L, "hooks");
      if (lua_rawget(L, 1) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
          std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
          const std::vector<std::string>& names = HookNames();
          if (std::find(names.begin(), names.end(), key) == names.end()) {
            Fail(f, "hooks." + key,
                 "unknown hook " + DescribeLuaValue(L, -2) + Suggest(key, names) +
                     "; the hooks are " + JoinNames(names));
            return;
          }
          if (lua_type(L, -1) != LUA_TFUNCTION) {
            Fail(f, "hooks." + key,
                 "hooks." + key + ": expected a function, got " + DescribeLuaValue(L, -1));
            return;
          }
          hooks.insert(key);
          auto line = f.lines.find("hooks." + key);
          hook_where[key] =
              f.file + (line == f.lines.end() ? "" : ":" + std::to_string(line->second));
          lua_pop(L, 1);
        }
      }
      lua_settop(L, 1);

      // checks: check name -> "off", "error", "warning" or "note". The names
      // are lint/'s (see Ruleset::checks()); the levels are checked here.
      lua_pushliteral(L, "checks");
      if (lua_rawget(L, 1) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
          if (lua_type(L, -2) != LUA_TSTRING) {
            Fail(f, "checks",
                 "checks: keys are check names such as \"deal-dealer\", got " +
                     DescribeLuaValue(L, -2));
            return;
          }
          std::string key = lua_tostring(L, -2);
          static const std::vector<std::string> kLevels = {"off", "error", "warning", "note"};
          std::string level = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
          if (std::find(kLevels.begin(), kLevels.end(), level) == kLevels.end()) {
            Fail(f, "checks." + key,
                 "checks[\"" + key + "\"]: expected \"off\", \"error\", \"warning\" or " +
                     "\"note\", got " + DescribeLuaValue(L, -1) +
                     (level.empty() ? "" : Suggest(level, kLevels)));
            return;
          }
          auto line = f.lines.find("checks." + key);
          checks[key] = CheckSetting{
              key, level,
              f.file + (line == f.lines.end() ? "" : ":" + std::to_string(line->second))};
          lua_pop(L, 1);
        }
      }
      lua_settop(L, 1);

      lua_settop(L, 0);
    }
  });
  if (lua_error && !error_) error_ = lua_error;
  if (error_) return false;

  for (auto& [name, origin] : origins) rs.origins_.emplace_back(name, std::move(origin));
  // The file's citations travel with the rules: findings cite them.
  // A value a user's file set without a `sources` entry is cited by its
  // file and line ("house.lua:12"): that file, not the seed, decided it.
  // Built-in files keep the engine's citations unless they give their own.
  for (const auto& [name, origin] : rs.origins_) {
    if (!origin.source.empty()) {
      rs.rules_.SetCitation(name, origin.source);
    } else if (origin.line > 0) {
      const std::string& file = origin.file;  // a structured binding cannot be captured (C++17)
      const bool builtin = std::any_of(chain_.begin(), chain_.end(), [&](const File& f) {
        return f.builtin && f.file == file;
      });
      if (!builtin) rs.rules_.SetCitation(name, origin.file + ":" + std::to_string(origin.line));
    }
  }
  for (const auto& [hook, text] : hook_sources) rs.rules_.SetCitation(hook, text);
  rs.hooks_.assign(hooks.begin(), hooks.end());
  rs.hook_where_.assign(hook_where.begin(), hook_where.end());
  for (auto& [name, setting] : checks) rs.checks_.push_back(std::move(setting));
  for (size_t index = 0; index < chain_.size(); ++index) {
    for (Ruleset::Requirement req : chain_[index].requirements) {
      bool met = false;
      switch (req.kind) {
        case Ruleset::Requirement::kParam: {
          auto it = last_set.find(req.name);
          met = it != last_set.end() && it->second > int(index);
          break;
        }
        case Ruleset::Requirement::kBase:
          met = chain_[index].base_given;
          break;
        case Ruleset::Requirement::kFeature:
          met = false;
          break;
      }
      if (!met) rs.unmet_.push_back(std::move(req));
    }
  }
  return true;
}

std::variant<Ruleset, LuaError> RulesetLoader::Load(const std::string& name_or_path) {
  {
    std::optional<LuaError> setup = sandbox_.Protected([](lua_State* L) { OpenCanastaLibrary(L); });
    if (setup) return *setup;
  }
  if (!LoadFile(name_or_path, nullptr, 0, nullptr)) return *error_;

  Ruleset rs;
  if (!Apply(rs)) return *error_;
  const File& leaf = chain_.back();
  rs.name_ = leaf.name;
  rs.description_ = leaf.description;
  rs.hook_limits_ = options_.hook_limits;
  rs.load_limits_ = options_.load_limits;
  auto chunks = std::make_shared<Ruleset::Chunks>();
  for (const File& f : chain_) {
    rs.chain_.push_back({f.name, f.file, f.builtin});
    chunks->files.push_back({f.file, f.source});
  }
  rs.chunks_ = std::move(chunks);

  std::string invalid = rs.rules_.Validate();
  if (!invalid.empty()) {
    // Say where each parameter the message names was set, and point at the
    // most recent of them: the latest change is the likeliest mistake.
    LuaError e{leaf.file, 0, "the rules do not make a playable game: " + invalid, ""};
    std::string where;
    int best_index = -1;
    for (const std::string& name : ParamNames()) {
      if (!MentionsWord(invalid, name)) continue;
      const Ruleset::Origin* origin = rs.origin(name);
      if (origin == nullptr || origin->line == 0) continue;
      where += (where.empty() ? "" : ", ") + name + " is set at " + origin->file + ":" +
               std::to_string(origin->line);
      int index = 0;
      for (size_t i = 0; i < chain_.size(); ++i) {
        if (chain_[i].file == origin->file) index = int(i);
      }
      if (index > best_index || (index == best_index && origin->line > e.line)) {
        best_index = index;
        e.file = origin->file;
        e.line = origin->line;
      }
    }
    if (!where.empty()) e.message += " (" + where + ")";
    return e;
  }
  if (!rs.runnable() && !options_.allow_incomplete) {
    return LuaError{leaf.file, 0, rs.IncompleteMessage(), ""};
  }
  return rs;
}

const Ruleset::Origin* Ruleset::origin(const std::string& param) const {
  for (const auto& [name, origin] : origins_) {
    if (name == param) return &origin;
  }
  return nullptr;
}

std::string Ruleset::SourceOf(const std::string& param) const {
  if (const Origin* o = origin(param)) {
    std::string where = o->file;
    if (o->line > 0) where += ":" + std::to_string(o->line);
    return o->ruleset + ": " + (o->source.empty() ? where : o->source);
  }
  const ParamInfo* info = FindParam(param);
  return std::string("default: ") + (info ? info->source : "");
}

std::string Ruleset::HookWhere(const std::string& hook) const {
  for (const auto& [name, where] : hook_where_)
    if (name == hook) return where;
  return "";
}

std::string Ruleset::IncompleteMessage() const {
  if (unmet_.empty()) return "";
  std::string values, features;
  for (const Requirement& r : unmet_) {
    std::string line = "  " + r.name + ": " + r.text + "\n";
    (r.kind == Requirement::kFeature ? features : values) += line;
  }
  std::string out = "ruleset \"" + name_ + "\" cannot run: ";
  out += values.empty() ? std::string("the engine cannot check every rule of its source yet.\n")
                        : "its source leaves values open that an audit cannot guess (readings R52).\n";
  if (!values.empty()) {
    out += "Give each of these in your own ruleset file that extends \"" + name_ +
           "\" (see docs/rulesets.md):\n" + values;
  }
  if (!features.empty()) {
    out += "The engine cannot play these yet (no parameter exists for them):\n" + features;
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::unique_ptr<RuleHooks> Ruleset::MakeHooks() const {
  if (hooks_.empty()) return std::make_unique<RuleHooks>();
  return std::make_unique<LuaHooks>(chunks_->files, hook_limits_, load_limits_);
}

std::variant<Ruleset, LuaError> LoadRuleset(const std::string& name_or_path,
                                            const LoadOptions& options) {
  try {
    RulesetLoader loader(options);
    return loader.Load(name_or_path);
  } catch (const std::exception& e) {
    return LuaError{name_or_path, 0, e.what(), ""};
  }
}

std::vector<std::string> BuiltinRulesetNames() {
  std::vector<std::string> names;
  for (const BuiltinRuleset& b : BuiltinRulesets()) names.emplace_back(b.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace canasta
