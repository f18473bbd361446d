-- The pack of Italian Canasta / Pinnacle and Bolivia on the Jaques game:
-- three decks and six jokers, 162 cards (002 L75; TC-J14), fifteen cards
-- each and two drawn from the stock (tests/multi_deck_test.cc).
return {
  name = "three-decks",
  extends = "jaques",
  params = {
    decks = 3,
    jokers = 6,
    hand_size = 15,
    stock_draw = 2,
  },
}
