-- The pack of Hand and Foot (002 L69-71) on the Jaques game: five decks and
-- ten jokers, 270 cards, an eleven-card hand and two drawn from the stock
-- (tests/multi_deck_test.cc). The foot is not dealt here.
return {
  name = "five-decks",
  extends = "jaques",
  params = {
    decks = 5,
    jokers = 10,
    hand_size = 11,
    stock_draw = 2,
  },
}
