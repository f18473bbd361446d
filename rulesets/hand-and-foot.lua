-- hand-and-foot: 002 Variations, "Hand and Foot" (002 L69-71). The paragraph names no base ruleset beyond "Partnerships are
-- the same as in standard Canasta" and gives no number, so this ruleset is
-- incomplete and refuses to run (readings R52); a user supplies the open values in a
-- file that extends it (docs/rulesets.md).
return {
  name = "hand-and-foot",
  description = "Hand and Foot (002 L69-71): a hand and a foot per player; most values are open",
  params = {
    -- "Partnerships are the same as in standard Canasta" (002 L71)
    num_players = 4,
  },
  sources = {
    num_players = "002 L71",
  },
  incomplete = {
    "base: the ruleset that fills every point 002 L69-71 leaves unsaid; none is named, jaques is the closest (readings R52) but must be your choice: base = \"jaques\"",
    "decks: 52-card decks in the pack (unstated)",
    "jokers: jokers in the pack (unstated)",
    "hand_size: cards in each player's hand, \"played first\" (002 L71; size unstated)",
    "stock_draw: cards drawn from the stock in a turn (unstated, readings R52)",
    "canastas_to_go_out: \"canasta requirements to go out are more numerous\" (002 L71), but no number is given (readings R52, TC-J15)",
    "target_score: \"the game runs considerably longer\" (002 L71); no target is given (readings R52)",
    "foot_size: cards in each player's foot, \"picked up and played once the hand is exhausted\" (002 L71; size unstated; readings R116); foot_pickup says when it is picked up (at_once unless set)",
  },
}
