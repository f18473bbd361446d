-- red-threes-200: classic Canasta where a side holding three red threes
-- scores them 200 each (600) instead of 300; all four stay 800.
-- Who plays it: tables that find the jump from 300 for three to 800 for
-- four too steep (seed 000 §7 scores 100 each, 800 for all four).
return {
  name = "red-threes-200",
  extends = "classic",
  description = "Classic; three red threes score 200 each",
  hooks = {
    score = function(ctx, rules)
      if ctx.red_three_count == 3 then
        -- A side with no meld still loses them (000 §7).
        local sign = ctx.parts.red_threes < 0 and -1 or 1
        return { red_threes = sign * 600 }
      end
    end,
  },
  sources = { score = "house rule: red threes 200 each when a side has three" },
}
