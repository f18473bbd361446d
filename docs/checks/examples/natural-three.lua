-- A ruleset for the example of the initial-meld-condition check
-- (docs/checks/initial-meld-condition.md): the classic game with Modern
-- American's condition on the initial meld ("It must also include a natural
-- meld of three or more with no wild card, or a meld of three or more wild
-- cards.", 001 L35).
return {
  name = "natural-three",
  extends = "classic",
  description = "classic; the initial meld includes a natural meld of three (001 L35)",
  params = { initial_meld_condition = "natural_three_or_wild_meld" },
  sources = { initial_meld_condition = "001 L35" },
}
