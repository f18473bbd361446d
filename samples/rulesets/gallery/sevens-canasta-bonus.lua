-- sevens-canasta-bonus: classic Canasta with 500 extra for a canasta of
-- sevens, shown as its own part of the score.
-- Who plays it: tables that borrow Modern American's love of sevens
-- (seed 001 scores a sevens canasta 2,500) without changing the classic game.
return {
  name = "sevens-canasta-bonus",
  extends = "classic",
  description = "Classic; a canasta of sevens scores 500 extra (part sevens_bonus)",
  score_parts = { "sevens_bonus" },
  hooks = {
    score = function(ctx, rules)
      local bonus = 0
      for _, meld in ipairs(ctx.melds) do
        if meld.rank == "7" and meld.canasta then bonus = bonus + 500 end
      end
      if bonus > 0 then return { sevens_bonus = bonus } end
    end,
  },
  sources = { score = "house rule: 500 for a canasta of sevens" },
}
