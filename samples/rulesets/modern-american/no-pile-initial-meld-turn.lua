-- no-pile-initial-meld-turn: Modern American where a side never takes the
-- pile in the turn of its initial meld (001 L111: "The pile in the
-- initial-meld turn: some groups never allow it").
return {
  name = "no-pile-initial-meld-turn",
  extends = "modern-american",
  description = "Modern American, no pile before the side's initial meld (001 L111)",
  hooks = {
    may_take_pile = function(ctx, rules)
      if not ctx.opened then
        return "the side has not made its initial meld; this table never lets it take the pile in that turn"
      end
    end,
  },
  sources = { may_take_pile = "001 L111" },
}
