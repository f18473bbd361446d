-- A ruleset for the examples of the sequence checks
-- (docs/checks/meld-sequence-not-consecutive.md, meld-sequence-mixed-suits.md,
-- meld-sequence-too-many-wilds.md): the classic game with sequences of one suit
-- (002 L67, readings R115), no wild card in them, a canasta of seven 1,500.
return {
  name = "escaleras",
  extends = "classic",
  description = "classic, with sequences of one suit (escaleras)",
  params = {
    sequence_melds = true,
    sequence_canasta_bonus = 1500,
  },
}
