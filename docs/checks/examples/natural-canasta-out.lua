-- A house ruleset for the example of the out-house-rule check
-- (docs/checks/out-house-rule.md): the classic game, and going out needs a
-- natural canasta.
return {
  name = "natural-canasta-out",
  extends = "classic",
  description = "classic, and going out needs a natural canasta (a house rule)",
  hooks = {
    may_go_out = function(ctx, rules)
      if ctx.natural_canastas < 1 then return "going out needs a natural canasta" end
    end,
  },
}
