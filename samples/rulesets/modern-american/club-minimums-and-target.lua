-- club-minimums-and-target: Modern American as a club that plays to 10,000
-- with higher minimums. 001 L109: "Initial meld minimums and the target
-- score vary between groups." The values are this club's (a house rule).
return {
  name = "club-minimums-and-target",
  extends = "modern-american",
  description = "Modern American to 10,000, minimums 150 / 180 / 200 (001 L109)",
  params = {
    minimum_table = {{-math.huge, 150}, {3000, 180}, {5000, 200}},
    target_score = 10000,
  },
  sources = {
    minimum_table = "001 L109 (house values)",
    target_score = "001 L109 (house value)",
  },
}
