-- no-wild-discards: classic Canasta where a wild card is never discarded.
-- Who plays it: many family tables, who find that throwing a two or a joker
-- to freeze the pile spoils the game; the Jaques rules (seed 002 Play-8)
-- allow it only when nothing else is held, these tables never.
return {
  name = "no-wild-discards",
  extends = "classic",
  description = "Classic; a wild card may never be discarded",
  params = {
    wild_discard = "never",
  },
  sources = { wild_discard = "house rule: no wild-card discards" },
}
