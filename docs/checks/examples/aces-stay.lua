-- A house ruleset for the example of the discard-house-rule check
-- (docs/checks/discard-house-rule.md): the classic game, and aces are never
-- discarded.
return {
  name = "aces-stay",
  extends = "classic",
  description = "classic, and an ace is never discarded (a house rule)",
  hooks = {
    may_discard = function(ctx, rules)
      if canasta.rank(ctx.card) == "A" then return "aces are never discarded at this table" end
    end,
  },
}
