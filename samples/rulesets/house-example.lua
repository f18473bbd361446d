-- house-example: a house ruleset written from scratch, as walked through in
-- docs/rulesets.md ("Writing your own house rules").
--
-- Our table plays the classic game (seed 000) with four changes:
--   1. We deal 13 cards, because we like bigger hands.
--   2. Going out needs two canastas, as in the Hutto family's rules.
--   3. Jokers count only 30 toward the initial meld (they still score 50).
--   4. A side that goes out with three or more canastas gets 200 extra.
--   5. Nobody may meld sevens with wild cards.
-- Values go in `params`; anything a value cannot say goes in `hooks`.
--
-- Try it:  canasta rules show samples/rulesets/house-example.lua
--          canasta rules diff classic samples/rulesets/house-example.lua
return {
  name = "house-example",
  extends = "classic",
  description = "Our kitchen table: classic with 13 cards, two canastas to go out",

  params = {
    hand_size = 13,
    canastas_to_go_out = 2,
  },

  -- Shown by `rules show` next to each value.
  sources = {
    hand_size = "house vote, 2026-01",
    canastas_to_go_out = "as Hutto, 000 §21",
  },

  hooks = {
    -- Points a card counts toward the initial-meld minimum.
    initial_meld_value = function(card, rules)
      if canasta.is_joker(card) then
        return 30
      end
      return canasta.value(card, rules)
    end,

    -- A last say on a side's score for the hand, added as "house" points.
    house_score_adjustment = function(side, went_out, rules)
      if went_out and side.canastas >= 3 then
        return 200
      end
      return 0
    end,

    -- Checked after the built-in meld rules: nil means fine, a string says why not.
    extra_meld_check = function(shape, rules)
      if shape.rank == "7" and shape.wilds > 0 then
        return "we never meld sevens with wild cards"
      end
    end,
  },
}
