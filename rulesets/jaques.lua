-- jaques: "How to Play Canasta" by Jaques of London, seed 002 main text
-- (Setting up 1-7, How to play 1-13, Winning and scoring, The fine points).
-- 002 names no base. It describes the same classic game as 000 but differs
-- in places (docs/rulesets.md), so it extends nothing: what is not set here
-- is the engine's default, which 002 either states too (cited in `sources`)
-- or leaves silent (noted below with the reading used).
return {
  name = "jaques",
  description = "Jaques of London (002): bury special upcards, take the pile with two naturals, discard to go out",
  params = {
    -- "If that first face-up card is a joker, a two, or a red three, keep
    -- turning cards until a natural card from 4 to ace appears; bury the
    -- special cards in the middle of the stock." (002 Setup-6)
    -- A black three is no trigger as the first upcard; turned up during the
    -- re-turn it is no natural from 4 to ace, so turning goes on and it is
    -- buried too (readings R27).
    upcard_first_triggers = {"joker", "two", "red_three"},
    upcard_more_triggers = {"joker", "two", "red_three", "black_three"},
    upcard_specials_to_stock = true,
    -- "Any player who holds a red three in their initial hand must
    -- immediately place it face-up in front of them and draw a replacement
    -- card from stock." (002 Setup-7)
    three_layout = "immediately",
    -- "To take the discard pile, the top card must be a natural card that
    -- completes a valid meld for you using at least two natural cards from
    -- your hand." (002 Play-4; readings R25)
    unfrozen_take = "two_naturals_from_hand",
    -- "To take a frozen pile you must hold two natural cards of the same
    -- rank as the top discard card and use all three to form a new meld."
    -- (002 Play-5; readings R25)
    -- Read as: the pair alone, no wild card with it (readings R25); the three then
    -- join any meld of that rank the side has (readings R18).
    frozen_take_new_meld = true,
    -- 002 gives black threes no freezing or blocking effect: a
    -- black-three discard is allowed and freezes nothing (readings R27).
    black_three_blocks_until_covered = false,
    -- "Black threes may only be melded when a player goes out in that same
    -- turn, and only as a group of three or four. They cannot be used as
    -- wild cards." (002 Play-7; readings R19)
    black_three_meld = "three_or_four_no_wild",
    -- "You may not discard a wild card to freeze the pile deliberately
    -- unless the rules variant in use permits it." (002 Play-8) An engine
    -- cannot see intent: a wild may be discarded only when the hand holds
    -- nothing else (readings R26).
    wild_discard = "only_if_no_other_card",
    -- "a player goes out when they play all cards from their hand, including
    -- the final discard" (002 Play-11) with "You must discard exactly one
    -- card face-up onto the discard pile to end your turn." (Play-8; readings R29)
    discard_required_to_go_out = true,
    -- "Before going out a player may ask their partner 'May I go out?'"
    -- (002 Play-11): 002 sets no other time limit, unlike 000 §17's "not
    -- after melding": it may be asked after melding or taking the pile too
    -- (readings R109).
    ask_out_after_melding = true,
    -- "the player must go out if at all possible; if they genuinely cannot,
    -- there is no penalty, but they must meld as much as possible before
    -- discarding." (002 L47; readings R105)
    out_yes_excused_if_impossible = true,
    -- "The discard pile is frozen when it contains a wild card or a red
    -- three buried in it." (002 Play-5) 002 freezes the pile by its cards
    -- only, never for a side that has not melded; Play-4's two naturals
    -- from the hand apply to every take (readings R31).
    frozen_before_initial_meld = false,
    -- "going out concealed 200 points (instead of 100)" (002 Scoring;
    -- Play-12; readings R29)
    concealed_going_out_bonus = 200,
    -- "When a player cannot or will not take the discard, the hand ends"
    -- (002 Play-13): taking after the stock runs out is never compulsory.
    must_take_when_stock_out = false,
    -- "below 0 points ... 15 or more; 0 to 1,494 points, 50 or more; 1,500
    -- to 2,994 points, 90 or more; 3,000 points or more, 120 or more."
    -- (002 Play-9) 1,495 and 2,995 fall in no band: bands by lower bound,
    -- reading "1,494/2,994" as "below 1,500/3,000" (readings R24). Restated.
    minimum_table = {{-math.huge, 15}, {0, 50}, {1500, 90}, {3000, 120}},
    -- 002's only sanction is a redeal for signals (002 L49); it states no
    -- penalty for insufficient or illegal melds or an undeclared red three
    --, so none is scored.
    insufficient_meld_penalties = false,
    illegal_meld_penalty = 0,
    undeclared_red_three_penalty = 0,
  },
  -- Values 002 states that equal the engine's defaults, cited for
  -- `rules show` and in findings. Silent points keep the engine's value:
  --   one_card_rule: Play-4's two naturals from hand already decide every
  --     case (a one-card hand cannot hold two);
  --   max_wilds_incomplete, min_naturals: 002 has no cap and no minimum, but
  --     "more natural cards than wild cards" allows at most 2 wilds in any
  --     meld under 7 cards, the same melds;
  --   exact_tie: readings R33 reads "pass" as "reach or exceed"; an exact tie is
  --     unstated everywhere (readings R17).
  sources = {
    upcard_first_triggers = "002 Setup-6",
    upcard_more_triggers = "002 Setup-6, readings R27",
    upcard_specials_to_stock = "002 Setup-6",
    three_layout = "002 Setup-7",
    unfrozen_take = "002 Play-4, readings R25",
    frozen_take_new_meld = "002 Play-5, readings R25",
    black_three_blocks_until_covered = "002 silent, readings R27",
    black_three_meld = "002 Play-7, readings R19",
    wild_discard = "002 Play-8, readings R26",
    discard_required_to_go_out = "002 Play-8, Play-11, readings R29",
    ask_out_after_melding = "002 Play-11, R109",
    out_yes_excused_if_impossible = "002 Play-11, L47, R105",
    frozen_before_initial_meld = "002 Play-5, R31",
    concealed_going_out_bonus = "002 Scoring, readings R29",
    must_take_when_stock_out = "002 Play-13",
    minimum_table = "002 Play-9, readings R24",
    insufficient_meld_penalties = "002 states none",
    illegal_meld_penalty = "002 states none",
    undeclared_red_three_penalty = "002 Play-7 states none",
    num_players = "002 L5, Setup-1",
    decks = "002 Setup-2",
    jokers = "002 Setup-2",
    hand_size = "002 Setup-3",
    upcards = "002 Setup-5",
    stock_draw = "002 Play-2",
    card_value = "002 Scoring",
    naturals_must_outnumber_wilds = "002 Play-3",
    max_wilds_completed = "002 L49",
    canasta_size = "002 Play-6",
    natural_canasta_bonus = "002 Scoring",
    mixed_canasta_bonus = "002 Scoring",
    top_card_counts_toward_minimum = "002 silent, readings R31",
    canastas_to_go_out = "002 Play-11",
    going_out_bonus = "002 Scoring",
    red_three_bonus = "002 Scoring",
    all_red_threes_bonus = "002 Scoring (200 each if one side holds all four)",
    red_threes_count_against_unmelded = "002 Scoring",
    target_score = "002 Scoring",
    exact_tie = "002 Scoring, readings R33, R17",
    wild_melds = "002 Play-3",
    -- Rules no parameter decides (docs/lua-api.md, `sources`), where 002
    -- states them. 002 is silent on three, which keep the engine's classic
    -- citation since its default rule applies:
    --   rule.card_held: 002 never says a player plays only cards they hold;
    --   rule.pile_three_replacement: nor what a red three taken with the
    --     pile gets (Setup-7 replaces only those of the initial hand);
    --   rule.dealer: "Designate a dealer" (Setup-3) sets no rotation.
    ["rule.turn_order"] = "002 Play-1",
    ["rule.draw_first"] = "002 Play-2",
    ["rule.discard"] = "002 Play-8",
    ["rule.hand_end"] = "002 Play-11, Play-13",
    ["rule.meld_ranks"] = "002 Play-3",
    ["rule.red_three_meld"] = "002 Play-3, Setup-7",
    ["rule.opponent_meld"] = "002 Play-10",
    ["rule.three_replacement"] = "002 Setup-7",
    ["rule.stock_out"] = "002 Play-13",
    ["rule.totals"] = "002 Scoring",
    ["rule.game_end"] = "002 Scoring",
    ["rule.winner"] = "002 Scoring, readings R17",
  },
}
