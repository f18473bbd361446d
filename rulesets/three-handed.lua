-- three-handed: "Three-Handed Canasta", seed 000 §21 (column 3p-000).
-- "All regular rules are in play with the following exceptions." (000 §21)
-- "This is not the same as three-handed cutthroat canasta. Rules are
-- different for cutthroat." (000 §21) No source gives cutthroat's rules, so
-- there is no cutthroat ruleset (readings R54).
return {
  name = "three-handed",
  extends = "classic",
  description = "Three-Handed Canasta (000 §21): 3 players, 13 cards, draw 2, two canastas",
  params = {
    -- "There are three players playing as individuals instead of four
    -- players playing as partners." (000 §21; readings R21)
    num_players = 3,
    -- "Players are dealt 13 cards." (000 §21; readings R7)
    hand_size = 13,
    -- "Two cards are drawn from the stock and one card is discarded in a
    -- legal turn." (000 §21; readings R9, R10)
    stock_draw = 2,
    -- "A player must have two canastas to go out." (000 §21)
    canastas_to_go_out = 2,
    -- Penalties stay as in classic: the no-penalty sentence is only in the
    -- two-handed list (000 §21).
  },
  sources = {
    num_players = "000 §21, readings R21",
    hand_size = "000 §21, readings R7",
    stock_draw = "000 §21",
    canastas_to_go_out = "000 §21",
  },
}
