-- initial-meld-count-only: Modern American where the initial meld needs only
-- the count, not a natural meld of three or a wild meld (001 L108: "others
-- ask only for a meld with three natural cards, or only the count").
return {
  name = "initial-meld-count-only",
  extends = "modern-american",
  description = "Modern American, the initial meld needs only the count (001 L108)",
  params = { initial_meld_condition = "count_only" },
  sources = { initial_meld_condition = "001 L108: others ask only for the count" },
}
