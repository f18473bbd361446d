#include "scripting/ruleset_info.h"

#include <algorithm>
#include <vector>

#include "core/hook_api.h"
#include "core/utf8.h"
#include "scripting/param_values.h"

namespace canasta {
namespace {

constexpr size_t kMaxValueWidth = 44;  // fits the trigger sets; card_value overflows

// Columns are aligned by characters, not bytes ("§" is two bytes).
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Renders rows as columns separated by two spaces. A cell wider than its
// column's cap keeps its full text and pushes the rest of its row along.
std::string Table(const std::vector<std::vector<std::string>>& rows,
                  const std::vector<size_t>& caps) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      size_t w = Width(row[i]);
      if (i < caps.size() && caps[i] > 0) w = std::min(w, caps[i]);
      widths[i] = std::max(widths[i], w);
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        size_t w = Width(row[i]);
        line += std::string(w < widths[i] ? widths[i] - w + 2 : 2, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string ChainText(const Ruleset& rs) {
  std::string out;
  for (const Ruleset::Link& link : rs.chain()) {
    if (!out.empty()) out += " -> ";
    out += link.builtin ? link.name : link.name + " (" + link.file + ")";
  }
  return out;
}

std::string HooksText(const Ruleset& rs) {
  if (rs.hooks().empty()) return "none (the engine's defaults)";
  std::string out;
  for (const std::string& h : rs.hooks()) out += (out.empty() ? "" : ", ") + h;
  return out;
}

// Each hook the ruleset defines with where it is defined, one a line.
std::string HookLines(const Ruleset& rs) {
  std::string out;
  for (const std::string& h : rs.hooks()) out += "  " + h + "  " + rs.HookWhere(h) + "\n";
  return out;
}

std::string ResultText(const HookSpec& s) {
  switch (s.result) {
    case HookResult::kInteger:
      return "integer, " + std::to_string(s.min) + " to " + std::to_string(s.max);
    case HookResult::kReason:
      return "nil, true, false or a string";
    case HookResult::kParts:
      return "nil or a table of score parts";
    case HookResult::kSide:
      return "nil or a side number";
  }
  return "";
}

// A file's own one-line text (its name, its description) on one line of the
// page: its line breaks escaped, so that it cannot print lines of its own.
std::string OneLine(std::string_view text) {
  std::string out;
  AppendPrintable(&out, text);
  return out;
}

}  // namespace

std::string ShowRuleset(const Ruleset& rs) {
  std::string out;
  out += "ruleset:     " + OneLine(rs.name()) + "\n";
  if (!rs.description().empty()) out += "description: " + OneLine(rs.description()) + "\n";
  out += "file:        " + rs.file() + (rs.builtin() ? " (built-in)" : "") + "\n";
  out += "chain:       " + ChainText(rs) + "\n";
  out += "hooks:       " + HooksText(rs) + "\n";
  out += HookLines(rs);
  if (!rs.checks().empty()) {
    out += "checks:     ";
    for (const CheckSetting& c : rs.checks())
      out += " " + c.check + "=" + c.level + " (" + c.where + ")";
    out += "\n";
  }
  if (!rs.runnable()) out += "status:      incomplete, cannot run (see below)\n";
  out += "\n";
  std::vector<std::vector<std::string>> rows = {{"parameter", "value", "source"}};
  for (const ParamText& p : DescribeParams(rs.rules())) {
    rows.push_back({p.name, p.value, rs.SourceOf(p.name)});
  }
  out += Table(rows, {0, kMaxValueWidth, 0});
  if (!rs.runnable()) out += "\n" + rs.IncompleteMessage() + "\n";
  return out;
}

std::string DiffRulesets(const Ruleset& a, const Ruleset& b) {
  std::string name_a = a.name(), name_b = b.name();
  if (name_a == name_b) {
    name_a = a.file();
    name_b = b.file();
  }
  std::vector<ParamText> pa = DescribeParams(a.rules(), true);
  std::vector<ParamText> pb = DescribeParams(b.rules(), true);
  std::vector<std::vector<std::string>> rows = {
      {"parameter", name_a, name_b, name_a + " source", name_b + " source"}};
  for (size_t i = 0; i < pa.size() && i < pb.size(); ++i) {
    if (pa[i].value == pb[i].value) continue;
    std::string param = pa[i].info.name;
    rows.push_back({pa[i].name, pa[i].value, pb[i].value, a.SourceOf(param), b.SourceOf(param)});
  }
  std::string out;
  size_t differ = rows.size() - 1;
  if (differ == 0) {
    out += name_a + " and " + name_b + " have the same parameter values.\n";
  } else {
    out += name_a + " -> " + name_b + ": " + std::to_string(differ) +
           (differ == 1 ? " value differs" : " values differ") + "\n\n";
    out += Table(rows, {0, kMaxValueWidth, kMaxValueWidth, 0, 0});
    // What each value decides, in words, for a reader who does not know the
    // parameter names (a club reading the differences before a game).
    out += "\nwhat they decide:\n";
    std::vector<std::string> said;
    for (size_t i = 0; i < pa.size() && i < pb.size(); ++i) {
      if (pa[i].value == pb[i].value) continue;
      const std::string param = pa[i].info.name;
      if (std::find(said.begin(), said.end(), param) != said.end()) continue;
      said.push_back(param);
      out += "  " + param + ": " + pa[i].info.doc + "\n";
    }
  }
  if (a.hooks() != b.hooks()) {
    out += "\nhooks: " + name_a + ": " + HooksText(a) + "; " + name_b + ": " + HooksText(b) + "\n";
  }
  if (a.runnable() != b.runnable()) {
    const Ruleset& open = a.runnable() ? b : a;
    out += "\n" + (a.runnable() ? name_b : name_a) + " is incomplete and cannot run; it lacks:\n";
    for (const Ruleset::Requirement& r : open.unmet()) out += "  " + r.name + ": " + r.text + "\n";
  }
  return out;
}

std::string ListRulesets() {
  LoadOptions options;
  options.allow_incomplete = true;
  std::vector<std::vector<std::string>> rows;
  for (const std::string& name : BuiltinRulesetNames()) {
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(name, options);
    if (const auto* error = std::get_if<LuaError>(&loaded)) {
      rows.push_back({name, "(cannot load: " + error->ToString() + ")"});
      continue;
    }
    const Ruleset& rs = std::get<Ruleset>(loaded);
    rows.push_back({rs.runnable() ? name : name + " (incomplete)", OneLine(rs.description())});
  }
  return Table(rows, {});
}

}  // namespace canasta

namespace canasta {

std::string HookReference(bool markdown) {
  std::string out;
  for (const HookSpec& s : HookSpecs()) {
    const std::string result = ResultText(s);
    const char* fields = s.v2 ? "ctx field" : "argument";
    if (markdown) {
      out += "### `" + std::string(s.name) + "`\n\n";
      out += "`" + std::string(s.signature) + "` → " + result +
             (s.v2 ? "" : " (v1: positional arguments)") + "\n\n";
      out += std::string(s.doc) + "\n\n";
      out += "Returns: " + std::string(s.returns) + ".\n\n";
      out += "| " + std::string(fields) + " | type | meaning |\n|---|---|---|\n";
      for (const HookField& f : s.fields)
        out += "| `" + std::string(f.name) + "` | " + f.type + " | " + f.doc + " |\n";
      out += "\n```lua\n" + std::string(s.example) + ",\n```\n\n";
    } else {
      out += std::string(s.signature) + " -> " + result + (s.v2 ? "" : "  (v1)") + "\n";
      out += "  " + std::string(s.doc) + "\n";
      out += "  returns: " + std::string(s.returns) + "\n";
      out += "  " + std::string(fields) + "s:\n";
      size_t width = 0;
      for (const HookField& f : s.fields) width = std::max(width, std::string_view(f.name).size());
      for (const HookField& f : s.fields) {
        std::string name = f.name;
        name.resize(width, ' ');
        std::string type = f.type;
        type.resize(std::max<size_t>(type.size(), 8), ' ');
        out += "    " + name + "  " + type + "  " + f.doc + "\n";
      }
      out += "  example:\n";
      std::string example = s.example;
      size_t start = 0;
      while (start <= example.size()) {
        size_t nl = example.find('\n', start);
        if (nl == std::string::npos) nl = example.size();
        out += "    " + example.substr(start, nl - start) + "\n";
        start = nl + 1;
      }
      out += "\n";
    }
  }
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

}  // namespace canasta
