-- hand-and-foot (002 L69-71) with every open value supplied, as a user would
-- (readings R52, R116): the engine's tests play it with the foot.
return {
  name = "hand-and-foot-supplied",
  extends = "hand-and-foot",
  base = "jaques",
  params = {
    decks = 5, jokers = 10, hand_size = 11, foot_size = 11, stock_draw = 2,
    canastas_to_go_out = 4, target_score = 8500, foot_pickup = "next_turn",
  },
}
