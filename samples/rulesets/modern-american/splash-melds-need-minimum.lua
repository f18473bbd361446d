-- splash-melds-need-minimum: Modern American where the melds laid with a
-- splash must reach the minimum on their own (001 L113: "sources do not say
-- whether melds laid with it need the minimum; here they do not"; this is
-- the other answer, readings R46).
-- The value is modern-american's splash, which the engine does not have
-- yet: this file only loads until then.
return {
  name = "splash-melds-need-minimum",
  extends = "modern-american",
  description = "Modern American, melds laid with a splash need the minimum (001 L113)",
  params = {},
}
