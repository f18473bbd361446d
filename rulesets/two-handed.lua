-- two-handed: "Two-Handed Canasta", seed 000 §21.
-- "All regular rules are in play with the following exceptions." (000 §21)
return {
  name = "two-handed",
  extends = "classic",
  description = "Two-Handed Canasta (000 §21): 2 players, 15 cards, draw 2, two canastas",
  params = {
    -- "There are two players playing as individuals instead of four players
    -- playing as partners." (000 §21) With 2 players each seat is a side;
    -- the minimum count follows the player's own total (readings R21).
    num_players = 2,
    -- "Players are dealt 15 cards." (000 §21) Red threes are replaced one
    -- for one, restoring the dealt size, not "11 cards" (readings R7).
    hand_size = 15,
    -- "Two cards are drawn from the stock and one card is discarded in a
    -- legal turn." (000 §21; readings R9, R10)
    stock_draw = 2,
    -- "A player must have two canastas to go out." (000 §21; readings R21: counting
    -- one made in going out)
    canastas_to_go_out = 2,
    -- "There are no penalties for exposed cards or insufficient melds."
    -- (000 §21; TC-C05) The exposed-card rule (000 §8) has no
    -- parameter: the engine does not model exposed cards. Illegal melds are
    -- still penalised (TC-T09).
    insufficient_meld_penalties = false,
  },
  sources = {
    num_players = "000 §21, readings R21",
    hand_size = "000 §21, readings R7",
    stock_draw = "000 §21",
    canastas_to_go_out = "000 §21",
    insufficient_meld_penalties = "000 §21",
  },
}
