-- older-wild-rule: Modern American with the older wild-card rule, "no rule
-- of five; up to two wild cards in any meld except sevens" (001 L107; aces
-- then take wild cards at any time, readings R41).
-- The value it changes is modern-american's rule of five and its ace rule,
-- which the engine does not have yet (see modern-american's incomplete list:
-- rule_of_five, aces_wilds_initial_only): this file only loads until then.
return {
  name = "older-wild-rule",
  extends = "modern-american",
  description = "Modern American, older wild rule: no rule of five (001 L107)",
  params = {},
}
