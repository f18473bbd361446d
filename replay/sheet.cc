#include "replay/sheet.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string_view>

namespace canasta {
namespace {

// Recorded numbers are untrusted: sums of them are made in 64 bits.
int64_t Sum(const ScoreBreakdown& b) {
  int64_t sum = int64_t(b.canastas) + b.red_threes + b.going_out + b.melded + b.in_hand +
                b.penalties + b.house + b.special_hand;
  for (const auto& part : b.extra) sum += part.second;
  return sum;
}

std::string List(const std::vector<int>& values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s;
}

// Whether `value` (>= 0) is a sum of the positive `coins`, each any number of
// times. Exact up to a bound; beyond it only the common divisor is asked.
bool IsSumOf(int64_t value, const std::vector<int>& coins) {
  if (value == 0) return true;
  if (coins.empty()) return false;
  int g = 0;
  for (int c : coins) g = std::gcd(g, c);
  if (value % g != 0) return false;
  constexpr int64_t kExactUpTo = 100000;
  if (value > kExactUpTo) return true;
  std::vector<char> can(size_t(value) + 1, 0);
  can[0] = 1;
  for (int64_t v = 1; v <= value; ++v)
    for (int c : coins)
      if (c <= v && can[size_t(v - c)]) {
        can[size_t(v)] = 1;
        break;
      }
  return can[size_t(value)] != 0;
}

// The ranks a player can hold besides the red three (its value is a bonus).
constexpr Rank kCardRanks[] = {Rank::kTwo,   Rank::kThree, Rank::kFour, Rank::kFive, Rank::kSix,
                               Rank::kSeven, Rank::kEight, Rank::kNine, Rank::kTen,  Rank::kJack,
                               Rank::kQueen, Rank::kKing,  Rank::kAce,  Rank::kJoker};

}  // namespace

std::vector<std::pair<int, int>> CanastaCombinations(const Rules& rules, int value) {
  std::vector<std::pair<int, int>> out;
  if (value < 0) return out;
  const int most = rules.canasta_size > 0 ? rules.pack_size() / rules.canasta_size : 0;
  // One pass over the natural count: the mixed count is what is left.
  for (int natural = 0; natural <= most; ++natural) {
    const int64_t rest = int64_t(value) - int64_t(natural) * rules.natural_canasta_bonus;
    if (rest < 0) break;
    if (rules.mixed_canasta_bonus <= 0) {
      if (rest == 0) out.emplace_back(natural, 0);
      continue;
    }
    if (rest % rules.mixed_canasta_bonus != 0) continue;
    const int64_t mixed = rest / rules.mixed_canasta_bonus;
    if (natural + mixed <= most) out.emplace_back(natural, int(mixed));
  }
  return out;
}

int CardPointStep(const Rules& rules) {
  int g = 0;
  for (Rank r : kCardRanks) g = std::gcd(g, std::abs(rules.card_value[size_t(int(r))]));
  return g;
}

std::vector<std::pair<int, int>> RedThreeValues(const Rules& rules) {
  // 000 §7, §18 (readings R8): each red three scores red_three_bonus; all of them
  // held by one side score all_red_threes_bonus in total.
  const int all = 2 * rules.decks;
  std::vector<std::pair<int, int>> out;
  for (int k = 0; k < all; ++k) out.emplace_back(k * rules.red_three_bonus, k);
  out.emplace_back(rules.all_red_threes_bonus, all);
  std::sort(out.begin(), out.end());
  return out;
}

SheetResult CheckSheetEntry(const Rules& rules, const RuleHooks& hooks, const SheetEntry& entry,
                            const std::function<std::string(int)>& side_name) {
  const int sides = rules.num_sides();
  SheetResult r;
  r.parts.assign(size_t(sides), EmptyBreakdown(hooks.ExtraParts()));
  r.has_parts.assign(size_t(sides), false);
  r.scores.assign(size_t(sides), std::nullopt);
  auto add = [&](CheckId id, int side, const char* part, std::string message,
                 std::vector<std::string> notes, bool changes_score = false) {
    r.findings.push_back(
        SheetFinding{id, side, part, std::move(message), std::move(notes), changes_score});
  };
  const bool breakdown_ok = entry.breakdown && int(entry.breakdown->size()) == sides;
  const bool scores_ok = entry.scores && int(entry.scores->size()) == sides;
  if (entry.breakdown && !breakdown_ok)
    add(CheckId::kLogBadEvent, -1, "",
        "\"breakdown\" has " + std::to_string(entry.breakdown->size()) + " entries; there are " +
            std::to_string(sides) + " sides",
        {});
  if (entry.scores && !scores_ok)
    add(CheckId::kLogBadEvent, -1, "",
        "\"scores\" has " + std::to_string(entry.scores->size()) + " entries; there are " +
            std::to_string(sides) + " sides",
        {});

  // Which parts each side recorded.
  struct Seen {
    bool canastas = false, red_threes = false, going_out = false, melded = false, in_hand = false,
         penalties = false, house = false, special_hand = false;
  };
  std::vector<Seen> seen(static_cast<size_t>(sides));
  std::vector<int64_t> recorded_sum(size_t(sides), 0);
  std::vector<bool> unknown_part(size_t(sides), false);  // a part of no known name
  if (breakdown_ok) {
    for (int s = 0; s < sides; ++s) {
      ScoreBreakdown& b = r.parts[size_t(s)];
      r.has_parts[size_t(s)] = true;
      for (const auto& [name, value] : (*entry.breakdown)[size_t(s)]) {
        const std::string_view key =
            name.size() == 6 && name == "threes" ? std::string_view("red_threes") : name;
        if (key == "special_hand" && !rules.special_hands()) {
          recorded_sum[size_t(s)] += value;
          if (value != 0)
            add(CheckId::kScoreBreakdown, s, "special_hand",
                side_name(s) + " records special_hand " + std::to_string(value) +
                    ": this ruleset has no special hands",
                {"rule: 001 L65 (special hands are a Modern American rule)"},
                /*changes_score=*/true);
          continue;
        }
        const BreakdownPart* part = nullptr;
        // The first letter first: this runs for every part of every hand.
        for (const BreakdownPart& p : BreakdownParts())
          if (!key.empty() && key[0] == p.name[0] && key == p.name) part = &p;
        // The ruleset's own parts (score_parts), set by its hook score.
        int* extra = part ? nullptr : b.Find(key);
        if (!part && !extra) {
          std::string known =
              "known parts: canastas, red_threes (threes), going_out, melded, in_hand, "
              "penalties, house, special_hand";
          for (const std::string& x : hooks.ExtraParts()) known += ", " + x;
          add(CheckId::kLogBadEvent, s, "", "unknown breakdown part \"" + name + "\"",
              {known, "its value counts toward the side's recorded score, which stands"});
          // Its value is still the scorekeeper's: it adds up with the others,
          // and the side's recorded score stands (one finding, this one).
          recorded_sum[size_t(s)] += value;
          unknown_part[size_t(s)] = true;
          continue;
        }
        int& field = part ? b.*part->field : *extra;
        field = int(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, int64_t(field) + value)));
        recorded_sum[size_t(s)] += value;
        // Every flag names a standard part: known by its field, not its name again.
        Seen& sn = seen[size_t(s)];
        int ScoreBreakdown::*f = part ? part->field : nullptr;
        if (f == &ScoreBreakdown::canastas) sn.canastas = true;
        if (f == &ScoreBreakdown::red_threes) sn.red_threes = true;
        if (f == &ScoreBreakdown::going_out) sn.going_out = true;
        if (f == &ScoreBreakdown::melded) sn.melded = true;
        if (f == &ScoreBreakdown::in_hand) sn.in_hand = true;
        if (f == &ScoreBreakdown::penalties) sn.penalties = true;
        if (f == &ScoreBreakdown::house) sn.house = true;
        if (f == &ScoreBreakdown::special_hand) sn.special_hand = true;
      }
    }
  }

  const int step = CardPointStep(rules);
  int cheapest_card = INT32_MAX;  // of the cards a canasta may hold (no three)
  for (Rank rk : kCardRanks)
    if (rk != Rank::kThree)
      cheapest_card = std::min(cheapest_card, rules.card_value[size_t(int(rk))]);
  bool every_card_counts = true;  // then nothing melded means no meld at all
  for (Rank rk : kCardRanks) every_card_counts &= rules.card_value[size_t(int(rk))] > 0;
  const std::vector<std::pair<int, int>> red_values = RedThreeValues(rules);
  int red_threes_counted = 0;
  bool red_counts_known = true;
  std::vector<int> going_out_sides;

  // A ruleset's hook score may set any part to any value: then only the
  // parts' sum is checked.
  const bool parts_free = hooks.Overrides(HookId::kScore);
  for (int s = 0; s < sides && breakdown_ok && !parts_free; ++s) {
    ScoreBreakdown& b = r.parts[size_t(s)];
    const Seen& sn = seen[size_t(s)];
    const std::string who = side_name(s);

    // A special hand (001 L79, readings R44): one of the ruleset's values,
    // and nothing else for that side.
    if (sn.special_hand && b.special_hand != 0) {
      std::vector<int> values;
      for (int v : {rules.special_hand_straight, rules.special_hand_pairs_natural,
                    rules.special_hand_pairs_with_twos, rules.special_hand_garbage})
        if (v > 0 && std::find(values.begin(), values.end(), v) == values.end())
          values.push_back(v);
      if (std::find(values.begin(), values.end(), b.special_hand) == values.end())
        add(CheckId::kScoreBreakdown, s, "special_hand",
            who + " records special_hand " + std::to_string(b.special_hand) +
                ", which no special hand of this ruleset scores",
            {"special hands score " + List(values), "rule: 001 L65-L71"});
      std::vector<std::string> others;
      for (const BreakdownPart& p : BreakdownParts())
        if (p.field != &ScoreBreakdown::special_hand && b.*p.field != 0)
          others.push_back(std::string(p.name) + " " + std::to_string(b.*p.field));
      for (const auto& [name, value] : b.extra)
        if (value != 0) others.push_back(name + " " + std::to_string(value));
      if (!others.empty()) {
        std::string list;
        for (const std::string& o : others) list += (list.empty() ? "" : ", ") + o;
        add(CheckId::kScoreBreakdown, s, "special_hand",
            who + " records a special hand and " + list +
                ": a side out with a special hand scores that value and nothing else",
            {"rule: 001 L79, readings R44"});
      }
      continue;
    }

    // Card points (000 §3): melded cards count for the side, cards left in
    // hand against it, each a multiple of what every card is worth; under
    // melded_counts_against_without_canasta (001 L84) a side with no canasta
    // has its melded cards count against it.
    if (sn.melded) {
      const bool may_be_negative =
          rules.melded_counts_against_without_canasta && (!sn.canastas || b.canastas == 0);
      if (b.melded < 0 && !may_be_negative)
        add(CheckId::kScoreBreakdown, s, "melded",
            who + " records melded " + std::to_string(b.melded) +
                ": melded cards count for the side, never against it",
            {"rule: 000 §18"});
      else if (step > 0 && b.melded % step != 0)
        add(CheckId::kScoreBreakdown, s, "melded",
            who + " records melded " + std::to_string(b.melded) + ", not a multiple of " +
                std::to_string(step) + ": every card counts a multiple of " + std::to_string(step),
            {"card values: " + std::to_string(step) + " and multiples", "rule: 000 §3"});
    }
    if (sn.in_hand) {
      if (b.in_hand > 0)
        add(CheckId::kScoreBreakdown, s, "in_hand",
            who + " records in_hand " + std::to_string(b.in_hand) +
                ": cards left in hand count against the side",
            {"rule: 000 §18"});
      else if (step > 0 && b.in_hand % step != 0)
        add(CheckId::kScoreBreakdown, s, "in_hand",
            who + " records in_hand " + std::to_string(b.in_hand) + ", not a multiple of " +
                std::to_string(step) + ": every card counts a multiple of " + std::to_string(step),
            {"rule: 000 §3"});
    }

    // Canasta bonuses (000 §9, §18): a sum of the ruleset's canasta values.
    std::vector<std::pair<int, int>> combos;
    if (sn.canastas) {
      combos = CanastaCombinations(rules, b.canastas);
      if (combos.empty()) {
        add(CheckId::kScoreBreakdown, s, "canastas",
            who + " records canastas " + std::to_string(b.canastas) +
                ", which no set of canastas scores: a natural canasta scores " +
                std::to_string(rules.natural_canasta_bonus) + ", a mixed one " +
                std::to_string(rules.mixed_canasta_bonus),
            {"rule: 000 §9, §18"});
      } else if (sn.melded && b.canastas > 0 && b.melded == 0) {
        add(CheckId::kScoreBreakdown, s, "canastas",
            who + " records canastas " + std::to_string(b.canastas) +
                " with nothing melded: a canasta is made of melded cards",
            {"rule: 000 §9"});
      } else if (sn.melded && b.melded > 0 && cheapest_card > 0) {
        // Each canasta is canasta_size melded cards: the fewest canastas the
        // bonus stands for, at the cheapest card, is the least melded.
        int fewest = INT32_MAX;
        for (const auto& [n, m] : combos) fewest = std::min(fewest, n + m);
        const int64_t least = int64_t(fewest) * rules.canasta_size * cheapest_card;
        if (b.melded < least)
          add(CheckId::kScoreBreakdown, s, "melded",
              who + " records melded " + std::to_string(b.melded) + " with canastas " +
                  std::to_string(b.canastas) + ": " + std::to_string(fewest) + " canasta(s) of " +
                  std::to_string(rules.canasta_size) + " cards count at least " +
                  std::to_string(least),
              {"the cheapest card counts " + std::to_string(cheapest_card), "rule: 000 §3, §9"});
      }
    }
    int most_canastas = -1;  // unknown
    for (const auto& [n, m] : combos) most_canastas = std::max(most_canastas, n + m);

    // Whether the side melded: its melded part says so (000 §7).
    std::optional<bool> melded;
    if (sn.melded && every_card_counts) melded = b.melded > 0;
    if (sn.canastas && b.canastas > 0) melded = true;

    // Red threes (000 §7, §18; readings R8): one of the ruleset's values, with the
    // sign its rule gives.
    int reds = 0;
    if (sn.red_threes) {
      const int64_t magnitude = b.red_threes < 0 ? -int64_t(b.red_threes) : b.red_threes;
      const auto it =
          std::find_if(red_values.begin(), red_values.end(),
                       [&](const std::pair<int, int>& v) { return v.first == magnitude; });
      if (it == red_values.end()) {
        red_counts_known = false;
        std::vector<int> possible;
        for (const auto& v : red_values) possible.push_back(v.first);
        add(CheckId::kScoreBreakdown, s, "red_threes",
            who + " records red_threes " + std::to_string(b.red_threes) +
                ", which no number of red threes scores: each scores " +
                std::to_string(rules.red_three_bonus) + ", all " + std::to_string(2 * rules.decks) +
                " together " + std::to_string(rules.all_red_threes_bonus),
            {"possible: " + List(possible) +
                 (rules.red_threes_count_against_unmelded ? " (against a side with no meld)" : ""),
             "rule: 000 §7, §18"});
      } else {
        reds = it->second;
        red_threes_counted += reds;
        const bool against = melded && !*melded && rules.red_threes_count_against_unmelded;
        if (melded && magnitude != 0) {
          if (against && b.red_threes > 0) {
            add(CheckId::kScoreBreakdown, s, "red_threes",
                who + " records red_threes " + std::to_string(b.red_threes) +
                    " for a side with no meld: a side without a meld loses its red threes",
                {"its melded part is 0; true red_threes: " + std::to_string(-b.red_threes),
                 "rule: 000 §7"},
                /*changes_score=*/true);
            b.red_threes = -b.red_threes;
          } else if (!against && b.red_threes < 0) {
            add(CheckId::kScoreBreakdown, s, "red_threes",
                who + " records red_threes " + std::to_string(b.red_threes) +
                    (*melded ? " for a side that melded: its red threes count for it"
                             : ": under this ruleset red threes never count against a side"),
                {"true red_threes: " + std::to_string(-b.red_threes), "rule: 000 §7"},
                /*changes_score=*/true);
            b.red_threes = -b.red_threes;
          }
        } else if (b.red_threes < 0 && !rules.red_threes_count_against_unmelded) {
          add(CheckId::kScoreBreakdown, s, "red_threes",
              who + " records red_threes " + std::to_string(b.red_threes) +
                  ": under this ruleset red threes never count against a side",
              {"true red_threes: " + std::to_string(-b.red_threes), "rule: 000 §7"},
              /*changes_score=*/true);
          b.red_threes = -b.red_threes;
        }
      }
    }

    // Going out (000 §17, §18): only the values the ruleset pays, and only
    // with the canastas the ruleset's rule asks for.
    if (sn.going_out && b.going_out != 0) {
      going_out_sides.push_back(s);
      const bool paid =
          b.going_out == rules.going_out_bonus ||
          (rules.concealed_going_out_bonus > 0 && b.going_out == rules.concealed_going_out_bonus);
      std::string pays = std::to_string(rules.going_out_bonus);
      if (rules.concealed_going_out_bonus > 0)
        pays += ", or " + std::to_string(rules.concealed_going_out_bonus) + " going out concealed";
      if (!paid) {
        add(CheckId::kScoreBreakdown, s, "going_out",
            who + " records going_out " + std::to_string(b.going_out) +
                ", which this ruleset never pays: going out scores " + pays,
            {"rule: 000 §18"});
      } else if (most_canastas >= 0) {
        SideSummary sum;
        sum.side = s;
        for (const auto& [n, m] : combos)
          if (n + m == most_canastas) {
            sum.natural_canastas = n;
            sum.mixed_canastas = m;
          }
        sum.canastas = most_canastas;
        sum.melds = most_canastas;
        sum.red_threes = reds;
        const int needed = hooks.CanastasToGoOut(rules, sum);
        if (most_canastas < needed)
          add(CheckId::kScoreBreakdown, s, "going_out",
              who + " records going_out " + std::to_string(b.going_out) + " with canastas " +
                  std::to_string(b.canastas) + ": a side needs " + std::to_string(needed) +
                  " canasta(s) to go out",
              {most_canastas == 0
                   ? "canastas 0: no canasta"
                   : "canastas " + std::to_string(b.canastas) + " stand for at most " +
                         std::to_string(most_canastas) + " canasta(s)",
               "rule: 000 §17"});
      }
    } else if (sn.going_out && b.going_out < 0) {
      add(CheckId::kScoreBreakdown, s, "going_out",
          who + " records going_out " + std::to_string(b.going_out) +
              ": going out is a bonus, never a loss",
          {"rule: 000 §18"});
    }

    // Penalties (000 §7, §10): a sum of the penalties the ruleset has.
    if (sn.penalties && b.penalties != 0) {
      std::vector<int> coins;
      std::vector<std::string> named;
      auto coin = [&](int v, const char* what) {
        if (v <= 0) return;
        coins.push_back(v);
        named.push_back(std::to_string(v) + " (" + what + ")");
      };
      coin(rules.undeclared_red_three_penalty, "a red three not laid out");
      coin(rules.illegal_meld_penalty, "an illegal meld taken back");
      if (rules.insufficient_meld_penalties)
        coin(rules.partial_retract_penalty, "part of an insufficient meld taken back");
      std::string have;
      for (size_t i = 0; i < named.size(); ++i) have += (i ? ", " : "") + named[i];
      if (b.penalties > 0)
        add(CheckId::kScoreBreakdown, s, "penalties",
            who + " records penalties " + std::to_string(b.penalties) +
                ": penalties count against the side",
            {"rule: 000 §7, §10"});
      else if (coins.empty())
        add(CheckId::kScoreBreakdown, s, "penalties",
            who + " records penalties " + std::to_string(b.penalties) +
                ": this ruleset has no penalties",
            {"rule: 002 (no penalty stated)"});
      else if (!IsSumOf(-int64_t(b.penalties), coins))
        add(CheckId::kScoreBreakdown, s, "penalties",
            who + " records penalties " + std::to_string(b.penalties) +
                ", which no set of this ruleset's penalties makes",
            {"penalties: " + have, "rule: 000 §7, §10"});
    }

    // A house rule's points: what the ruleset's hook gives for some set of
    // canastas the canasta bonus stands for.
    if (sn.house && sn.canastas && !combos.empty()) {
      std::set<int> possible;
      for (const auto& [n, m] : combos) {
        SideSummary sum;
        sum.side = s;
        sum.canastas = n + m;
        sum.natural_canastas = n;
        sum.mixed_canastas = m;
        sum.melds = std::max(n + m, melded && *melded ? 1 : 0);
        sum.red_threes = reds;
        possible.insert(hooks.HouseScoreAdjustment(rules, sum, b.going_out > 0));
      }
      if (!possible.count(b.house))
        add(CheckId::kScoreBreakdown, s, "house",
            who + " records house " + std::to_string(b.house) +
                ", which the ruleset's house rule does not give",
            {"the house rule gives " + List(std::vector<int>(possible.begin(), possible.end())) +
                 " for canastas " + std::to_string(b.canastas),
             "rule: the ruleset's house_score_adjustment"});
    }
  }

  if (going_out_sides.size() > 1) {
    std::string names;
    for (size_t i = 0; i < going_out_sides.size(); ++i)
      names += (i ? " and " : "") + side_name(going_out_sides[i]);
    add(CheckId::kScoreBreakdown, going_out_sides[1], "going_out",
        "the going-out bonus is recorded for " + names + ": only one side goes out in a hand",
        {"rule: 000 §17, §18"});
  }
  if (breakdown_ok && red_counts_known && red_threes_counted > 2 * rules.decks)
    add(CheckId::kScoreBreakdown, -1, "red_threes",
        "the sides' red threes stand for " + std::to_string(red_threes_counted) +
            " red threes; the pack has " + std::to_string(2 * rules.decks),
        {"rule: 000 §1, §7"});

  // The parts add up to the hand score (000 §18).
  for (int s = 0; s < sides; ++s) {
    if (breakdown_ok) {
      // A part of no known name has no value the rules can check: the side's
      // recorded score, or else the sum of what it recorded, is taken.
      const int64_t truth = !unknown_part[size_t(s)] ? Sum(r.parts[size_t(s)])
                            : scores_ok             ? (*entry.scores)[size_t(s)]
                                                    : recorded_sum[size_t(s)];
      r.scores[size_t(s)] = int(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, truth)));
      if (scores_ok && recorded_sum[size_t(s)] != (*entry.scores)[size_t(s)]) {
        std::string parts;
        for (const auto& [name, value] : (*entry.breakdown)[size_t(s)])
          parts += (parts.empty() ? "" : ", ") + name + " " + std::to_string(value);
        add(CheckId::kScoreHand, s, "",
            side_name(s) + "'s parts add up to " + std::to_string(recorded_sum[size_t(s)]) +
                ", not the recorded hand score " + std::to_string((*entry.scores)[size_t(s)]),
            {"parts: " + (parts.empty() ? std::string("none") : parts), "rule: 000 §18"},
            /*changes_score=*/true);
      }
    } else if (scores_ok) {
      r.scores[size_t(s)] = (*entry.scores)[size_t(s)];
    }
  }
  return r;
}

}  // namespace canasta
