-- The meld and pile values of seed 001 (Modern American) on the classic
-- game, for the move generator's brute-force test (tests/legal_moves_test.cc).
return {
  name = "modern-melds",
  extends = "classic",
  params = {
    hand_size = 13,
    upcards = 0,
    max_meld_size = 7,
    max_wilds_incomplete = 2,
    wild_melds = true,
    one_unfinished_wild_meld = true,
    wilds_need_naturals = 5,
    no_wild_ranks = {"7"},
    wild_only_in_initial_meld_ranks = {"A"},
    natural_canasta_closes_rank = true,
    unfrozen_take = "natural_pair",
  },
}
