-- The largest pack a ruleset may ask (decks 1 to 6): six decks and twelve
-- jokers, 324 cards, for six players of the classic game (each plays for
-- themself: the engine partners four players only), thirteen cards each and
-- two drawn (tests/multi_deck_test.cc).
return {
  name = "six-decks",
  extends = "classic",
  params = {
    decks = 6,
    jokers = 12,
    num_players = 6,
    hand_size = 13,
    stock_draw = 2,
  },
}
