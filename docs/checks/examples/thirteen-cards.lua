-- A ruleset for the examples of the meld-too-big and pile-empty checks
-- (docs/checks/meld-too-big.md, pile-empty.md): the classic game with two of
-- Modern American's table values, 13 cards and no upcard ("Deal 13 cards to
-- each player ... No card is turned up: the discard pile starts empty.",
-- 001 L17), and melds of at most seven cards ("Never more than seven.",
-- 001 L23).
return {
  name = "thirteen-cards",
  extends = "classic",
  description = "classic, 13 cards, no upcard, melds of at most seven cards (001 L17, L23)",
  params = { hand_size = 13, upcards = 0, max_meld_size = 7 },
}
