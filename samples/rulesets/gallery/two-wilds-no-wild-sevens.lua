-- two-wilds-no-wild-sevens: classic Canasta with the older Modern American
-- wild-card rule: at most two wild cards in any meld, and never in sevens.
-- Who plays it: the tables of seed 001 "Where tables differ" that use "the
-- older rule (no rule of five; up to two wild cards in any meld except
-- sevens)", on the classic game.
return {
  name = "two-wilds-no-wild-sevens",
  extends = "classic",
  description = "Classic; at most two wild cards in a meld, none in sevens",
  params = {
    max_wilds_incomplete = 2,
    max_wilds_completed = 2,
  },
  hooks = {
    may_meld = function(ctx, rules)
      if ctx.rank == "7" and ctx.wilds > 0 then
        return "sevens are never melded with wild cards"
      end
    end,
  },
  sources = {
    max_wilds_incomplete = "001 L107: up to two wild cards in any meld",
    max_wilds_completed = "001 L107: up to two wild cards in any meld",
    may_meld = "001 L107: except sevens",
  },
}
