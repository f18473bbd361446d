-- special-hands-3500: Modern American where seven pairs and garbage score
-- 3,500 (001 L110: "some score pairs and garbage at 3,500"; others play ten
-- hands with garbage at 3,000, a list 001 does not give, readings R44).
-- The values are modern-american's special_hands, which the engine does not
-- score yet: this file only loads until then.
return {
  name = "special-hands-3500",
  extends = "modern-american",
  description = "Modern American, pairs and garbage at 3,500 (001 L110)",
  params = {},
}
