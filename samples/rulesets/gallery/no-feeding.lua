-- no-feeding: classic Canasta where a player may not discard a card of a
-- rank the other side has an unfinished meld of (it would only feed them),
-- unless nothing else can be discarded.
-- Who plays it: teaching tables, to stop beginners handing over the pile.
return {
  name = "no-feeding",
  extends = "classic",
  description = "Classic; no discard that fits the other side's unfinished meld",
  hooks = {
    may_discard = function(ctx, rules)
      local function feeds(card)
        if canasta.is_wild(card) then return false end
        for _, meld in ipairs(ctx.other_melds) do
          if meld.rank == canasta.rank(card) and not meld.canasta then return true end
        end
        return false
      end
      if not feeds(ctx.card) then return nil end
      for _, other in ipairs(ctx.hand) do
        if not feeds(other) and not canasta.is_red_three(other) then
          return "the other side has an unfinished meld of " .. canasta.rank(ctx.card) ..
            "s; discard something else"
        end
      end
    end,
  },
  sources = { may_discard = "house rule: no feeding the other side" },
}
