-- tutorial: the interactive tutorial of seed 004. 004 declares no base, but
-- it teaches the classic game and agrees with 000 on everything but the
-- points below, so this is classic with these overrides; what 004 is
-- silent on (penalties, stock exhaustion, the one-card rule, ties)
-- falls back to classic.
return {
  name = "tutorial",
  extends = "classic",
  description = "The tutorial of 004: classic, but 2 naturals + up to 3 wilds, no black-three trigger",
  params = {
    -- "Remember: at least two natural cards per meld, at most three wild
    -- ones." (004 L22, L51) 004 has no "more naturals than wilds" rule, and
    -- its own example melds 9-9-2-Joker (L32, L40; TC-T09).
    naturals_must_outnumber_wilds = false,
    min_naturals = 2,
    max_wilds_incomplete = 3,
    -- 004 states no exception for completed canastas ("at most three wild
    -- ones"); readings R36 recommends keeping classic's: no cap once complete.
    -- Flagged: a literal reading would cap it at 3.
    max_wilds_completed = -1,
    -- "If the first upcard is wild or a red three, turn more cards onto it
    -- until a card that is neither shows." (004 L7; readings R35)
    -- The cards stay in the pile (upcard_specials_to_stock keeps false).
    upcard_first_triggers = {"joker", "two", "red_three"},
    upcard_more_triggers = {"joker", "two", "red_three"},
    -- "You can only meld black threes (three or four of them, with no wild
    -- cards) in the turn you go out." (004 L26)
    black_three_meld = "three_or_four_no_wild",
  },
  sources = {
    naturals_must_outnumber_wilds = "004 L22, L51 (no such rule), L32",
    min_naturals = "004 L22, L51",
    max_wilds_incomplete = "004 L22, L51",
    max_wilds_completed = "004 silent, readings R36 (flagged)",
    upcard_first_triggers = "004 L7, readings R35",
    upcard_more_triggers = "004 L7",
    black_three_meld = "004 L26",
    hand_size = "004 L5, L50",
    minimum_table = "004 L44-47",
    three_layout = "004 L6",
    wild_discard = "004 L28",
    canastas_to_go_out = "004 L33, L53",
    discard_required_to_go_out = "004 L33",
    target_score = "004 L43",
  },
}
