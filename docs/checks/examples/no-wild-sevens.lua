-- A house ruleset for the example of the meld-house-rule check
-- (docs/checks/meld-house-rule.md): the classic game, and no wild cards in a
-- meld of sevens, a rule borrowed from modern-american ("Sevens can never be
-- melded with wild cards.", 001 L59).
return {
  name = "no-wild-sevens",
  extends = "classic",
  description = "classic, with no wild cards in a meld of sevens (001 L59)",
  hooks = {
    extra_meld_check = function(shape, rules)
      if shape.rank == "7" and shape.wilds > 0 then
        return "sevens can never be melded with wild cards (001 L59)"
      end
    end,
  },
}
