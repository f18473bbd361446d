-- modern-american: "Modern American Canasta rules", seed 001 (cited "001
-- L<n>", the line of the seed). A different game from classic (readings
-- R53: 001 calls classic "The older game"), so it extends nothing: every
-- value 001 states is set here with its line; what 001 leaves unsaid keeps
-- the engine's classic default.
--
-- The engine checks every rule of 001, the special hands included (001
-- L65-L71). The options of "Where tables differ" (001 L105-L113) are sample
-- files in samples/rulesets/modern-american/.
return {
  name = "modern-american",
  description = "Modern American Canasta (001): 13 cards, two canastas to go out, game to 8,500",
  params = {
    -- "Four players in two partnerships, partners sitting opposite. You need
    -- two standard decks plus four jokers: 108 cards. Twos and jokers are
    -- wild." (001 L4)
    num_players = 4,
    decks = 2,
    jokers = 4,
    -- "Deal 13 cards to each player, one at a time. ... No card is turned
    -- up: the discard pile starts empty." (001 L17)
    hand_size = 13,
    upcards = 0,
    -- "Count eight cards up from the bottom of the stock and turn the ninth
    -- sideways. When someone draws it, everyone knows eight cards are left."
    -- (001 L18)
    turn_card_from_bottom = 9,
    -- "draw the top card of the stock (or take the whole discard pile, if
    -- allowed); meld if you want; then discard one card." (001 L19)
    stock_draw = 1,
    -- "Threes go straight out. Lay any three face up in front of your team
    -- and draw a replacement at once." (001 L20)
    three_layout = "immediately",
    -- Black threes too: "Lay any three face up" (001 L20), "Threes are never
    -- melded" (001 L48).
    black_threes_laid_out = true,
    -- "You may keep one three in hand toward a straight while your team has
    -- not melded" (001 L57; readings R43).
    threes_kept_before_meld = 1,
    -- "1 | 100; 2 | 300; 3 | 500; 4 | 1,000", red and black looked up
    -- separately and added; against a team with no canasta, nothing with
    -- one, for it with two or more (001 L49-L57, L83).
    three_values = {100, 300, 500, 1000},
    three_sign_by_canastas = true,
    -- The card values (001 L6-L13): as classic, and "Three left in a hand
    -- (Modern American) | 5" (001 L13).
    card_value = { ["3"] = 5 },
    -- "A meld is three to seven cards of one rank (fours up to aces). Never
    -- more than seven." (001 L23)
    min_meld_size = 3,
    max_meld_size = 7,
    -- "It needs at least two natural cards and may hold at most two wild
    -- cards." (001 L24) No "more naturals than wild cards" rule: 2 + 2 is a meld.
    min_naturals = 2,
    naturals_must_outnumber_wilds = false,
    max_wilds_incomplete = 2,
    max_wilds_completed = 2,
    -- "A team may meld three to seven wild cards on their own." (001 L63)
    wild_melds = true,
    -- "Only one wild meld may be unfinished at a time, and while it is, no
    -- wild card may be added to the team's other melds." (001 L63; readings R40)
    one_unfinished_wild_meld = true,
    -- "The rule of five: a new meld may include wild cards only as part of
    -- the team's initial meld. After that, wild cards may join a meld only
    -- once it holds five natural cards." (001 L25; readings R40)
    wilds_need_naturals = 5,
    -- "Sevens can never be melded with wild cards." (001 L59) "Aces take
    -- wild cards only in the initial meld." (001 L60; readings R41)
    no_wild_ranks = {"7"},
    wild_only_in_initial_meld_ranks = {"A"},
    -- "Dead cards: once either team closes a natural canasta, that rank is
    -- closed to both teams." (001 L28, L41; readings R39). "A team keeps one
    -- meld per rank" (001 L26): melds of a rank join (readings R18, R39).
    natural_canasta_closes_rank = true,
    -- "Threes are never melded." (001 L48)
    black_three_meld = "never",
    -- "Seven cards make a canasta: natural with no wild cards, mixed with one
    -- or two." (001 L27); bonuses 500 and 300 (001 L88-L89).
    canasta_size = 7,
    natural_canasta_bonus = 500,
    mixed_canasta_bonus = 300,
    -- "Natural canasta of aces | 2,500; Canasta of sevens (always natural) |
    -- 2,500" (001 L90-L91); "Wild canasta of seven twos | 3,000; four jokers
    -- and three twos | 2,500; Any other wild canasta | 2,000" (001 L92-L94).
    natural_canasta_bonus_by_rank = { A = 2500, ["7"] = 2500 },
    wild_canasta_bonus = 2000,
    wild_canasta_twos_bonus = 3000,
    wild_canasta_all_jokers_bonus = 2500,
    -- "Unfinished meld of natural aces | -2,500; of sevens | -2,500;
    -- Unfinished wild-card meld | -2,000; ...holding all four jokers |
    -- -2,500" (001 L98-L101), whatever the canasta count (readings R51).
    unfinished_natural_meld_penalty = { A = 2500, ["7"] = 2500 },
    unfinished_wild_meld_penalty = 2000,
    unfinished_wild_meld_all_jokers_penalty = 2500,
    -- "1,500 for each player holding three or more aces, and again for three
    -- or more sevens" (001 L61, L85, L102-L103; readings R49).
    caught_holding_penalty = { A = 1500, ["7"] = 1500 },
    caught_holding_count = 3,
    -- "Melded cards: add their values, or subtract them if the team has no
    -- canasta." (001 L84) "Bonuses (only with at least one canasta)" (001
    -- L81) needs no value: going out takes two canastas (001 L73).
    melded_counts_against_without_canasta = true,
    -- "Below 3,000 (negative scores too) | 125; 3,000 to 4,995 | 155; 5,000
    -- or more | 180" (001 L30-L34), "set by your score before the hand"
    -- (001 L35).
    minimum_table = {{-math.huge, 125}, {3000, 155}, {5000, 180}},
    -- "the top card and the pile never count towards the minimum" (001 L42)
    top_card_counts_toward_minimum = false,
    -- "Before your team has melded, the whole initial meld must already be
    -- complete in your hand and laid down first" (001 L42; readings R46).
    initial_meld_before_pile = true,
    -- "It must also include a natural meld of three or more with no wild
    -- card, or a meld of three or more wild cards." (001 L35)
    initial_meld_condition = "natural_three_or_wild_meld",
    -- "Splash: a complete natural or wild canasta laid down whole from your
    -- hand opens with no minimum." (001 L36); melds laid with it need none
    -- (001 L113, readings R46).
    splash_opens = true,
    splash_companions_need_minimum = false,
    -- "while the turn card is still in the stock, the player who makes the
    -- initial meld (and does not go out) draws extra cards after
    -- discarding: four if theirs is the first team to meld this hand, three
    -- if the other team already has." (001 L37; readings R47)
    bonus_cards_first = 4,
    bonus_cards_second = 3,
    -- "You may take the whole pile only with a natural pair matching the top
    -- card: meld the three, then pick up the rest. Wild cards never help."
    -- (001 L39)
    unfrozen_take = "natural_pair",
    -- "A dead card, a three or a wild card on top can never be taken." (001 L41)
    wild_top_blocks_take = true,
    -- "Threes can never be discarded." (001 L44)
    threes_discardable = false,
    -- "Wild cards may be discarded only as your final card when going out,
    -- or when you hold nothing but wild cards." (001 L45; "it may be wild",
    -- 001 L74)
    wild_discard = "only_if_no_other_card",
    wild_discard_to_go_out = true,
    -- "On an empty pile, avoid a seven, wild card, ace or dead card unless
    -- you have no choice. Players remember it as SWAD." (001 L46; enforced,
    -- readings R45)
    empty_pile_discard_restricted = true,
    empty_pile_avoid = { ["7"] = 1, ["2"] = 1, A = 1, JK = 1 },
    -- "Keep a card. Unless you are going out, you may not meld down to a
    -- single card." (001 L21; readings R38)
    keep_a_card = true,
    -- "Your team needs two canastas (any kind), counting any completed this
    -- turn." (001 L73)
    canastas_to_go_out = 2,
    -- "You must meld all but one card and discard the last (face down; it
    -- may be wild). You cannot go out by melding every card" (001 L74)
    discard_required_to_go_out = true,
    -- "You may ask your partner "May I go out?" once a hand. A yes obliges
    -- you to go out; a no forbids it this turn." (001 L75; once per player,
    -- readings R48)
    ask_out_once_per_hand = true,
    out_answer_binds = true,
    -- "If the stock runs out, players may keep taking the pile under the
    -- usual rule; the first who cannot or will not ends the hand." (001 L76)
    must_take_when_stock_out = false,
    -- "plus 100 for going out" (001 L81, L95)
    going_out_bonus = 100,
    -- "A special hand is 14 cards declared by a player whose team has not
    -- melded: after drawing, lay the whole hand down without discarding. The
    -- hand ends; that team scores only the special hand, and the other team
    -- scores as usual." (001 L65; "except with a special hand", L74; "it
    -- scores that value and nothing else", L79; readings R44). "Straight:
    -- one of every rank, ace to king, plus a joker | 3,000; Seven pairs, no
    -- wild cards | 2,500; Seven pairs including twos, sevens and aces |
    -- 2,000; Garbage: two fours-of-a-kind and two threes-of-a-kind | 2,000"
    -- (001 L66-L71; which pairs are which: readings R42).
    special_hand_straight = 3000,
    special_hand_pairs_natural = 2500,
    special_hand_pairs_with_twos = 2000,
    special_hand_garbage = 2000,
    -- "Once a hand ends with either team at 8,500 or more, the higher total
    -- wins." (001 L4, L104) An exact tie plays another deal (readings R50,
    -- as R17).
    target_score = 8500,
    exact_tie = "play_another_deal",
  },
  sources = {
    num_players = "001 L4",
    decks = "001 L4",
    jokers = "001 L4",
    hand_size = "001 L17",
    upcards = "001 L17",
    stock_draw = "001 L19",
    three_layout = "001 L20, L48",
    card_value = "001 L6-L13",
    min_meld_size = "001 L23",
    max_meld_size = "001 L23",
    min_naturals = "001 L24",
    naturals_must_outnumber_wilds = "001 L24 (no such rule)",
    max_wilds_incomplete = "001 L24",
    max_wilds_completed = "001 L24, L27",
    wild_melds = "001 L63",
    black_three_meld = "001 L48",
    canasta_size = "001 L23, L27",
    natural_canasta_bonus = "001 L88",
    mixed_canasta_bonus = "001 L88",
    minimum_table = "001 L30-L35",
    top_card_counts_toward_minimum = "001 L42",
    unfrozen_take = "001 L39",
    wild_top_blocks_take = "001 L41",
    threes_discardable = "001 L44",
    wild_discard = "001 L45",
    wild_discard_to_go_out = "001 L45, L74",
    empty_pile_discard_restricted = "001 L46, readings R45",
    empty_pile_avoid = "001 L46",
    keep_a_card = "001 L21, readings R38",
    canastas_to_go_out = "001 L73",
    discard_required_to_go_out = "001 L74",
    ask_out_once_per_hand = "001 L75, readings R48",
    out_answer_binds = "001 L75",
    must_take_when_stock_out = "001 L76",
    going_out_bonus = "001 L81, L95",
    target_score = "001 L4, L104",
    exact_tie = "001 L104, readings R50",
    turn_card_from_bottom = "001 L18",
    black_threes_laid_out = "001 L20, L48",
    threes_kept_before_meld = "001 L57, readings R43",
    three_values = "001 L49-L57",
    three_sign_by_canastas = "001 L52-L57, L83",
    one_unfinished_wild_meld = "001 L63, readings R40",
    wilds_need_naturals = "001 L25, readings R40",
    no_wild_ranks = "001 L59",
    wild_only_in_initial_meld_ranks = "001 L60, readings R41",
    natural_canasta_closes_rank = "001 L28, L41, readings R39",
    natural_canasta_bonus_by_rank = "001 L90-L91",
    wild_canasta_bonus = "001 L94",
    wild_canasta_twos_bonus = "001 L92",
    wild_canasta_all_jokers_bonus = "001 L93",
    unfinished_natural_meld_penalty = "001 L98-L99, readings R51",
    unfinished_wild_meld_penalty = "001 L100",
    unfinished_wild_meld_all_jokers_penalty = "001 L101",
    caught_holding_penalty = "001 L61, L102-L103, readings R49",
    caught_holding_count = "001 L61",
    melded_counts_against_without_canasta = "001 L84",
    initial_meld_before_pile = "001 L42, readings R46",
    initial_meld_condition = "001 L35",
    splash_opens = "001 L36",
    splash_companions_need_minimum = "001 L113, readings R46",
    bonus_cards_first = "001 L37, readings R47",
    bonus_cards_second = "001 L37, readings R47",
    ["rule.face_down_discard"] = "001 L74",
    special_hand_straight = "001 L65, L68, readings R42, R44",
    special_hand_pairs_natural = "001 L65, L69, readings R42, R44",
    special_hand_pairs_with_twos = "001 L65, L70, readings R42, R44",
    special_hand_garbage = "001 L65, L71, readings R42, R44",
  },
}
