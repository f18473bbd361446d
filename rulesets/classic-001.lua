-- classic-001: seed 001's own summary of the classic game, the "Classic
-- Canasta" paragraph (001 L114-L115), with its card-value row (001 L13) and
-- its blurb (001 L124). 001 calls it "The older game, standardized around
-- 1950" and links to a full rules page that is not among the seeds, so
-- everything the paragraph leaves unsaid is classic's (000), as readings
-- R53 recommends. It differs from classic in one point only: 001 states a
-- flat cap of three wild cards per meld, with no exception for a completed
-- canasta (000 §9 allows more once a canasta is complete).
return {
  name = "classic-001",
  extends = "classic",
  description = "001's summary of the classic game (001 L115): classic, with a flat cap of 3 wild cards",
  params = {
    -- "melds of any length with up to three wild cards" (001 L115): the cap
    -- holds for a completed canasta too (readings R53).
    max_wilds_completed = 3,
    -- Restated, the classic values: "11 cards each" (001 L115),
    hand_size = 11,
    -- "melds of any length" (001 L115),
    max_meld_size = 0,
    -- "no wild melds" (001 L115),
    wild_melds = false,
    -- "one canasta to go out" (001 L115),
    canastas_to_go_out = 1,
    -- "red threes 100 each" (001 L115),
    red_three_bonus = 100,
    -- "and game to 5,000" (001 L115, L124).
    target_score = 5000,
    -- "black three (Classic) | 5" (001 L13).
    card_value = { ["3"] = 5 },
  },
  sources = {
    max_wilds_completed = "001 L115 (\"up to three wild cards\"), readings R53",
    max_wilds_incomplete = "001 L115",
    hand_size = "001 L115",
    max_meld_size = "001 L115",
    wild_melds = "001 L115",
    canastas_to_go_out = "001 L115",
    red_three_bonus = "001 L115",
    target_score = "001 L115, L124",
    card_value = "001 L6-L13",
  },
}
