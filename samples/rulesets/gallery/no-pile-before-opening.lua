-- no-pile-before-opening: classic Canasta where a side that has not made its
-- initial meld may not open by taking the discard pile: it must meld from
-- its hand first.
-- Who plays it: the groups of seed 001 "Where tables differ" that never
-- allow the pile in the initial-meld turn, on the classic game.
return {
  name = "no-pile-before-opening",
  extends = "classic",
  description = "Classic; the pile is never taken before the side's initial meld",
  hooks = {
    may_take_pile = function(ctx, rules)
      if not ctx.opened then
        return "the side has not made its initial meld; it may not take the pile yet"
      end
    end,
  },
  sources = { may_take_pile = "001 L111: the pile in the initial-meld turn: some groups never allow it" },
}
