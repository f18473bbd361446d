-- pinnacle: 002 Variations, "Italian Canasta (Pinnacle)" (002 L73-75). The paragraph names no base ruleset and
-- leaves most values open, so this ruleset is incomplete and refuses to run
-- (readings R52); a user supplies the open values in a file that extends it
-- (docs/rulesets.md).
return {
  name = "pinnacle",
  description = "Italian Canasta / Pinnacle (002 L73-75): 162 cards and suited sequences; most values are open",
  params = {
    -- "a third deck is added for a total of 162 cards" (002 L75; TC-J14)
    decks = 3,
    -- "sequences of the same suit can be melded alongside standard rank
    -- sets" (002 L75; readings R115)
    sequence_melds = true,
  },
  sources = {
    decks = "002 L75",
    sequence_melds = "002 L75",
  },
  incomplete = {
    "base: the ruleset that fills every point 002 L73-75 leaves unsaid; none is named, jaques is the closest (readings R52) but must be your choice: base = \"jaques\"",
    "jokers: the pack has 162 cards (002 L75), which with three 52-card decks means 6 jokers, but the number is not stated (readings R52)",
    "num_players: how many play, and whether in partnerships (unstated)",
    "hand_size: cards dealt to each player (unstated, readings R52)",
    "stock_draw: cards drawn from the stock in a turn (unstated, readings R52)",
    "canastas_to_go_out: canastas needed to go out (unstated, readings R52)",
    "target_score: the score that ends the game (unstated, readings R52)",
    "sequence_min_length: the fewest cards of a new sequence (unstated: 002 L75; readings R115)",
    "sequence_lowest: the lowest rank a sequence holds (unstated; readings R115)",
    "sequence_ace: whether the ace stands high, low or either in a sequence (unstated; readings R115)",
    "sequence_max_wilds: whether wild cards may stand in a sequence, and how many (unstated; readings R115)",
    "sequence_canasta_bonus: \"a large bonus\" for seven suited consecutive cards (002 L75), amount unstated (TC-J14)",
  },
}
