-- threes-in-hand: Modern American where threes may be kept in hand freely,
-- each counting 5 against at the end (001 L112: "some allow keeping threes
-- freely (5 each against at the end)"; readings R43).
return {
  name = "threes-in-hand",
  extends = "modern-american",
  description = "Modern American, threes may be kept in hand (001 L112)",
  params = { threes_kept_before_meld = 8 },  -- every three of the pack
  sources = { threes_kept_before_meld = "001 L112: keeping threes freely" },
}
