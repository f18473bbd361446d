-- special-hands-3500: Modern American where seven pairs and garbage score
-- 3,500 (001 L110: "some score pairs and garbage at 3,500"). Both pair hands
-- are pairs (readings R42); the straight keeps its 3,000. The other reading
-- of L110, ten hands with garbage at 3,000, names hands 001 does not give
-- (readings R44), so it has no file here.
return {
  name = "special-hands-3500",
  extends = "modern-american",
  description = "Modern American, pairs and garbage at 3,500 (001 L110)",
  params = {
    special_hand_pairs_natural = 3500,
    special_hand_pairs_with_twos = 3500,
    special_hand_garbage = 3500,
  },
  sources = {
    special_hand_pairs_natural = "001 L110: pairs at 3,500",
    special_hand_pairs_with_twos = "001 L110: pairs at 3,500",
    special_hand_garbage = "001 L110: garbage at 3,500",
  },
}
