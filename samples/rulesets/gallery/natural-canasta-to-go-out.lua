-- natural-canasta-to-go-out: classic Canasta where going out needs a natural
-- canasta (one with no wild card) among the side's canastas.
-- Who plays it: tables that think going out on mixed canastas alone is too
-- easy; Bolivia (seed 002, Variations) asks for more than one canasta too.
return {
  name = "natural-canasta-to-go-out",
  extends = "classic",
  description = "Classic; going out needs a natural canasta",
  hooks = {
    may_go_out = function(ctx, rules)
      if ctx.natural_canastas < 1 then
        return "going out needs a natural canasta; the side has " ..
          ctx.mixed_canastas .. " mixed"
      end
    end,
  },
  sources = { may_go_out = "house rule: a natural canasta to go out" },
}
