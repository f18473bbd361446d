-- splash-melds-need-minimum: Modern American where the melds laid with a
-- splash must reach the minimum on their own (001 L113: "sources do not say
-- whether melds laid with it need the minimum; here they do not"; this is
-- the other answer, readings R46).
return {
  name = "splash-melds-need-minimum",
  extends = "modern-american",
  description = "Modern American, melds laid with a splash need the minimum (001 L113)",
  params = { splash_companions_need_minimum = true },
  sources = { splash_companions_need_minimum = "001 L113, readings R46" },
}
