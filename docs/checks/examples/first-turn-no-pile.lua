-- A house ruleset for the example of the pile-house-rule check
-- (docs/checks/pile-house-rule.md): the classic game, and no player takes
-- the discard pile in their first turn of a deal (a house rule).
return {
  name = "first-turn-no-pile",
  extends = "classic",
  description = "classic, with no pile taken in a player's first turn",
  hooks = {
    may_take_pile = function(ctx, rules)
      if ctx.turn == 1 then return "the pile may not be taken in a player's first turn" end
    end,
  },
}
