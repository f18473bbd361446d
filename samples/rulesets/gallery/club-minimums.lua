-- club-minimums: classic Canasta with the minimums and target of a club
-- that plays longer games: 50 / 90 / 120 / 150 and game to 8,500.
-- Who plays it: groups of seed 001 "Where tables differ" ("Initial meld
-- minimums and the target score vary between groups") on the classic game.
return {
  name = "club-minimums",
  extends = "classic",
  description = "Classic to 8,500, with a fourth minimum of 150 from 5,000",
  params = {
    minimum_table = {
      { from_total = -1000000000, minimum = 15 },
      { from_total = 0, minimum = 50 },
      { from_total = 1500, minimum = 90 },
      { from_total = 3000, minimum = 120 },
      { from_total = 5000, minimum = 150 },
    },
    target_score = 8500,
  },
  sources = {
    minimum_table = "001 L109: minimums vary between groups",
    target_score = "001 L109: the target score varies",
  },
}
