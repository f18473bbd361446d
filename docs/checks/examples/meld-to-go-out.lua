-- A house ruleset for the example of the out-by-discard check
-- (docs/checks/out-by-discard.md): the classic game, and a player goes out
-- only by melding every card.
return {
  name = "meld-to-go-out",
  extends = "classic",
  description = "classic, and going out is by melding every card (a house rule)",
  params = { last_discard_goes_out = false },
}
