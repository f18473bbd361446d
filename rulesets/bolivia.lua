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
    -- "a canasta consisting entirely of wild cards, worth 2,500 points" (002 L67)
    wild_canasta_bonus = 2500,
    -- "Sequences of three or more consecutive cards of the same suit may also
    -- be melded as an escalera and can be completed into a canasta for a
    -- 1,500-point bonus" (002 L67; readings R115)
    sequence_melds = true,
    sequence_min_length = 3,
    sequence_canasta_bonus = 1500,
  },
  sources = {
    wild_melds = "002 L67 (boliviana)",
    target_score = "002 L67 (\"typically\")",
    wild_canasta_bonus = "002 L67 (boliviana)",
    sequence_melds = "002 L67 (escalera)",
    sequence_min_length = "002 L67",
    sequence_canasta_bonus = "002 L67",
  },
  incomplete = {
    "base: the ruleset that fills every point 002 L65-67 leaves unsaid; none is named, jaques is the closest (readings R52) but must be your choice: base = \"jaques\"",
    "num_players: how many play, and whether in partnerships (unstated)",
    "decks: 52-card decks in the pack (unstated)",
    "jokers: jokers in the pack (unstated)",
    "hand_size: cards dealt to each player (unstated, readings R52)",
    "stock_draw: cards drawn from the stock in a turn (unstated, readings R52)",
    "canastas_to_go_out: canastas needed to go out (unstated, readings R52)",
    "sequence_lowest: the lowest rank an escalera holds (unstated: 002 L67 says only \"consecutive cards of the same suit\"; readings R115)",
    "sequence_ace: whether the ace stands high, low or either in an escalera (unstated; readings R115)",
    "sequence_max_wilds: whether wild cards may stand in an escalera, and how many (unstated; readings R115)",
  },
}
