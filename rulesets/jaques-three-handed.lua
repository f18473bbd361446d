-- jaques-three-handed: 002 Variations, "Canasta for Two or Three Players"
-- (002 L61-63). "These formats ... use identical
-- melding and scoring rules otherwise." (002 L63), so this extends jaques.
return {
  name = "jaques-three-handed",
  extends = "jaques",
  description = "Jaques for three (002 L63): 13 cards each, individual play, two canastas",
  params = {
    -- "With three players, each is dealt 13 cards, play is individual"
    -- (002 L63)
    num_players = 3,
    hand_size = 13,
    -- "and each player must also complete two canastas" (002 L63; readings R29)
    canastas_to_go_out = 2,
    -- One card per draw, as in jaques (readings R34). Restated on purpose.
    stock_draw = 1,
  },
  sources = {
    num_players = "002 L63",
    hand_size = "002 L63",
    canastas_to_go_out = "002 L63, readings R29",
    stock_draw = "002 Play-2; L63 silent, readings R34",
    minimum_table = "002 L63 (\"remain the same\"), Play-9, readings R24",
  },
}
