-- classic: the author's main rules of seed 000 (§1-§19): four players in two
-- partnerships, two decks and four jokers, 11 cards each.
--
-- The engine's defaults (core/rules.h) ARE these rules, so this file sets
-- nothing: every value and its citation is in VisitParams, and
-- `canasta rules show classic` prints them. Where 000 is ambiguous the
-- defaults follow the readings of docs/readings.md:
--   readings R1  naturals must outnumber wilds; at most 3 wilds until a canasta is
--       complete, no cap after (naturals_must_outnumber_wilds,
--       max_wilds_incomplete, max_wilds_completed)
--   readings R2  an unfrozen pile is taken with a natural pair, natural + wild, or the
--       top card onto an unfinished meld (unfrozen_take)
--   readings R4  a joker, two or any three as the first upcard makes more cards turn
--       (upcard_first_triggers, upcard_more_triggers)
--   readings R6  dealt red threes are laid out in the player's first turn (three_layout)
--   readings R8  all four red threes score 800 in total (all_red_threes_bonus)
--   readings R11 a one-card hand may not take a one-card pile (one_card_rule)
--   readings R12 taking is compulsory after the stock runs out only onto an
--       unfinished meld (must_take_when_stock_out)
--   readings R15 +10 to the minimum per full retraction (retract_all_minimum_increase)
--   readings R17 an exact tie at the end plays another deal (exact_tie)
--   readings R19 a black-three meld when going out follows the general rules
--       (black_three_meld)
--   readings R24 minimum-count bands by lower bound: 15 / 50 / 90 / 120 (minimum_table)
--   readings R31 the top discard counts toward the initial meld
--       (top_card_counts_toward_minimum)
-- readings R53 treats 001's "Classic Canasta" paragraph as this same ruleset.
return {
  name = "classic",
  description = "Seed 000 §1-§19: four players in partnerships (the engine's defaults)",
  params = {},
}
