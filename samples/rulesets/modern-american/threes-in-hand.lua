-- threes-in-hand: Modern American where threes may be kept in hand freely,
-- each counting 5 against at the end (001 L112: "some allow keeping threes
-- freely (5 each against at the end)"; readings R43).
-- The value is modern-american's three_kept_toward_straight, which the engine
-- does not have yet: this file only loads until then.
return {
  name = "threes-in-hand",
  extends = "modern-american",
  description = "Modern American, threes may be kept in hand (001 L112)",
  params = {},
}
