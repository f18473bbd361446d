-- black-threes-any-time: classic Canasta where black threes may be melded in
-- any turn (three or four of them, no wild card), not only when going out.
-- Who plays it: families who teach the game to children and find the
-- going-out-only rule of seed 000 §8 a trap; the make-up kept is the only
-- one a seed gives (002 Play-7, 004 L26).
return {
  name = "black-threes-any-time",
  extends = "classic",
  description = "Classic; black threes may be melded at any time",
  params = {
    black_three_meld = "any_time",
  },
  sources = { black_three_meld = "house rule: black threes melded at any time" },
}
