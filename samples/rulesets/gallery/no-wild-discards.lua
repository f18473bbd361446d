-- no-wild-discards: classic Canasta where a wild card is not discarded.
-- Who plays it: many family tables, who find that throwing a two or a joker
-- to freeze the pile spoils the game. Like the Jaques rules (seed 002
-- Play-8, readings R26) they let a player who holds nothing but wild cards
-- discard one, the only way such a player's turn can end.
return {
  name = "no-wild-discards",
  extends = "classic",
  description = "Classic; no wild-card discards while other cards are held",
  params = {
    wild_discard = "only_if_no_other_card",
  },
  sources = { wild_discard = "house rule: no wild-card discards" },
}
