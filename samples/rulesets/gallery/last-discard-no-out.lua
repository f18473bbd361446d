-- last-discard-no-out: classic Canasta where discarding the last card does
-- not go out: a player goes out only by melding every card.
-- Who plays it: tables that dislike a hand ending on a discard the next
-- player could have used; the opposite of the Jaques rule that going out
-- needs a discard (seed 002 Play-11).
return {
  name = "last-discard-no-out",
  extends = "classic",
  description = "Classic; going out only by melding every card, never by a discard",
  params = {
    last_discard_goes_out = false,
  },
  sources = { last_discard_goes_out = "house rule: discarding the last card does not go out" },
}
