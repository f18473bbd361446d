-- jaques-two-handed: 002 Variations, "Canasta for Two or Three Players"
-- (002 L61-63). "These formats ... use identical
-- melding and scoring rules otherwise." (002 L63), so this extends jaques.
return {
  name = "jaques-two-handed",
  extends = "jaques",
  description = "Jaques for two (002 L63): 15 cards each, individual play, two canastas",
  params = {
    -- "With two players, each is dealt 15 cards and plays individually"
    -- (002 L63)
    num_players = 2,
    hand_size = 15,
    -- "a player must complete two canastas to go out" (002 L63); a concealed
    -- going out needs two as well (readings R29).
    canastas_to_go_out = 2,
    -- 002 L63 does not change the draw: it stays at one card. 000 §21's
    -- draw-2 must not be copied here (readings R34). Restated on purpose.
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
