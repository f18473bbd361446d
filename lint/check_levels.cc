#include "lint/check_levels.h"

#include <algorithm>
#include <fnmatch.h>

#include "core/suggest.h"
#include "lint/checks.h"

namespace canasta {
namespace {

std::string UnknownCheck(std::string_view name) {
  std::vector<std::string> names;
  for (const CheckInfo& c : AllChecks()) names.emplace_back(c.name);
  const std::string best = NearestName(name, names, 5);
  std::string out = "unknown check \"" + std::string(name) + "\"";
  if (!best.empty()) out += " (did you mean \"" + best + "\"?)";
  return out + "; docs/checks/README.md lists them";
}

bool ParseLevel(std::string_view word, int8_t* level) {
  if (word == "error") *level = int8_t(Severity::kError);
  else if (word == "warning") *level = int8_t(Severity::kWarning);
  else if (word == "note") *level = int8_t(Severity::kNote);
  else if (word == "off") *level = 3;
  else return false;
  return true;
}

}  // namespace

std::string CheckLevels::ParseOption(std::string_view text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view entry = text.substr(start, comma - start);
    start = comma + 1;
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (entry.empty()) continue;
    int8_t level = kOn;
    if (entry.front() == '-') {
      level = kOff;
      entry.remove_prefix(1);
    } else if (size_t colon = entry.find(':'); colon != std::string_view::npos) {
      const std::string_view word = entry.substr(0, colon);
      if (!ParseLevel(word, &level) || level == kOff)
        return "--checks: \"" + std::string(word) + "\" is not a severity (error, warning or " +
               "note; write -NAME to switch a check off)";
      entry.remove_prefix(colon + 1);
    }
    if (entry.empty()) return "--checks: an entry names no check";
    const std::string pattern(entry);
    if (pattern.find('*') == std::string::npos) {
      std::optional<CheckId> id = FindCheck(pattern);
      if (!id) return "--checks: " + UnknownCheck(pattern);
      level_[size_t(*id)] = level;
      continue;
    }
    bool matched = false;
    for (const CheckInfo& c : AllChecks()) {
      if (fnmatch(pattern.c_str(), c.name, 0) != 0) continue;
      level_[size_t(c.id)] = level;
      matched = true;
    }
    if (!matched) return "--checks: \"" + pattern + "\" matches no check";
  }
  return "";
}

std::string CheckLevels::ApplySettings(const std::vector<CheckSetting>& settings) {
  for (const CheckSetting& s : settings) {
    const std::string where = s.where.empty() ? "" : s.where + ": ";
    std::optional<CheckId> id = FindCheck(s.check);
    if (!id) return where + "checks: " + UnknownCheck(s.check);
    int8_t level = kDefault;
    if (!ParseLevel(s.level, &level))
      return where + "checks[\"" + s.check + "\"]: \"" + s.level +
             "\" is not off, error, warning or note";
    level_[size_t(*id)] = level;
  }
  return "";
}

void CheckLevels::Overlay(const CheckLevels& other) {
  for (size_t i = 0; i < level_.size(); ++i)
    if (other.level_[i] != kDefault) level_[i] = other.level_[i];
}

bool CheckLevels::empty() const {
  return std::all_of(level_.begin(), level_.end(), [](int8_t l) { return l == kDefault; });
}

Severity CheckLevels::SeverityOf(CheckId id) const {
  const int8_t l = level_[size_t(id)];
  return l >= 0 && l < kOff ? Severity(l) : GetCheck(id).severity;
}

Severity SeverityOf(const Finding& f) { return f.severity.value_or(GetCheck(f.id).severity); }

namespace {

void Apply(std::vector<Finding>* findings, const CheckLevels& levels) {
  findings->erase(std::remove_if(findings->begin(), findings->end(),
                                 [&](const Finding& f) { return levels.off(f.id); }),
                  findings->end());
  for (Finding& f : *findings) {
    const Severity s = levels.SeverityOf(f.id);
    if (s != GetCheck(f.id).severity) f.severity = s;
  }
}

}  // namespace

std::string ApplyCheckLevels(FileReport* report, const CheckLevels& command_line) {
  std::string error;
  if (!command_line.empty()) Apply(&report->findings, command_line);
  for (GameReport& game : report->games) {
    if (game.checks.empty() && command_line.empty()) continue;
    CheckLevels levels;
    if (std::string why = levels.ApplySettings(game.checks); !why.empty() && error.empty())
      error = why;
    levels.Overlay(command_line);
    Apply(&game.findings, levels);
  }
  return error;
}

}  // namespace canasta
