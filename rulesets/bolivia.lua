-- bolivia: 002 Variations, "Bolivia" (002 L65-67). The paragraph names no base ruleset and states only three
-- things, so this ruleset is incomplete and refuses to run (readings R52): a user
-- supplies the open values in a file that extends it (docs/rulesets.md).
-- "Everything else is unspecified" (readings R52) - the entries below name what an
-- audit cannot do without.
return {
  name = "bolivia",
  description = "Bolivia (002 L65-67): bolivianas and escaleras; most values are open",
  params = {
    -- "wild cards may be melded together to form a boliviana, a canasta
    -- consisting entirely of wild cards" (002 L67)
    wild_melds = true,
    -- "The game typically plays to 15,000 points" (002 L67; TC-J13)
    target_score = 15000,
  },
  sources = {
    wild_melds = "002 L67 (boliviana)",
    target_score = "002 L67 (\"typically\")",
  },
  incomplete = {
    "base: the ruleset that fills every point 002 L65-67 leaves unsaid; none is named, jaques is the closest (readings R52) but must be your choice: base = \"jaques\"",
    "num_players: how many play, and whether in partnerships (unstated)",
    "decks: 52-card decks in the pack (unstated)",
    "jokers: jokers in the pack (unstated)",
    "hand_size: cards dealt to each player (unstated, readings R52)",
    "stock_draw: cards drawn from the stock in a turn (unstated, readings R52)",
    "canastas_to_go_out: canastas needed to go out (unstated, readings R52)",
    "boliviana_bonus: a canasta of wild cards only scores 2,500 (002 L67); the engine scores a canasta as natural or mixed only, and whether a boliviana counts toward going out is unstated",
    "escalera_melds: 3 or more consecutive cards of one suit (002 L67), a canasta of them 1,500; the engine melds cards of one rank only, and the wild-card rules for sequences are unstated (readings R52)",
  },
}
