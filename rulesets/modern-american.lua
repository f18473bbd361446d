-- modern-american: "Modern American Canasta rules", seed 001 (cited "001
-- L<n>", the line of the seed). A different game from classic (readings
-- R53: 001 calls classic "The older game"), so it extends nothing: every
-- value 001 states is set here with its line; what 001 leaves unsaid keeps
-- the engine's classic default.
--
-- The engine cannot yet check every rule of 001: the `incomplete` list
-- names each one as a feature, and the ruleset refuses to run until they
-- exist (`canasta rules show modern-american` still shows it). The options
-- of "Where tables differ" (001 L105-L113) are sample files in
-- samples/rulesets/modern-american/.
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
    -- "draw the top card of the stock (or take the whole discard pile, if
    -- allowed); meld if you want; then discard one card." (001 L19)
    stock_draw = 1,
    -- "Threes go straight out. Lay any three face up in front of your team
    -- and draw a replacement at once." (001 L20)
    three_layout = "immediately",
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
    -- "Threes are never melded." (001 L48)
    black_three_meld = "never",
    -- "Seven cards make a canasta: natural with no wild cards, mixed with one
    -- or two." (001 L27); bonuses 500 and 300 (001 L88-L89).
    canasta_size = 7,
    natural_canasta_bonus = 500,
    mixed_canasta_bonus = 300,
    -- "Below 3,000 (negative scores too) | 125; 3,000 to 4,995 | 155; 5,000
    -- or more | 180" (001 L30-L34), "set by your score before the hand"
    -- (001 L35).
    minimum_table = {{-math.huge, 125}, {3000, 155}, {5000, 180}},
    -- "the top card and the pile never count towards the minimum" (001 L42)
    top_card_counts_toward_minimum = false,
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
    ["rule.face_down_discard"] = "001 L74",
  },
  -- Rules of 001 the engine cannot check yet: each a feature, by 001 line.
  incomplete = {
    "turn_card: the ninth card from the bottom of the stock is turned sideways; when it is drawn, eight cards are left (001 L18)",
    "keep_a_card_exception: the player who makes the side's initial meld before the turn card is drawn may meld down to one card (001 L21, readings R38)",
    "rule_of_five: a new meld takes wild cards only in the side's initial meld; after that, wild cards join a meld only once it holds five natural cards (001 L25)",
    "one_meld_per_rank: a side keeps one meld per rank, a completed canasta included (001 L26)",
    "dead_cards: once either side completes a natural canasta, its rank is closed to both sides, may not be taken from the pile, and is avoided on an empty pile (001 L28, L41, L46)",
    "initial_meld_condition: the initial meld includes a natural meld of three or more, or a meld of three or more wild cards (001 L35)",
    "splash: a complete natural or wild canasta laid whole from the hand opens with no minimum, and melds laid with it need none (001 L36, L113)",
    "bonus_cards: while the turn card is in the stock, the player who makes the side's initial meld and does not go out draws four cards after discarding, three if the other side has melded (001 L37)",
    "pile_initial_meld_from_hand: before the side has melded, the whole initial meld is laid from the hand before the pile is taken (001 L42)",
    "pile_onto_meld_limit: the three cards of a take join the side's meld of three or four; with five or more the top card cannot be taken (001 L40)",
    "threes_all_laid_out: black threes are laid out and replaced like red threes; they never go to the pile (001 L20, L48)",
    "three_kept_toward_straight: while the side has not melded a player may keep one three in hand toward a straight; one left at the end counts 5 against (001 L57)",
    "threes_table: red and black threes are scored separately, 1/2/3/4 of a colour = 100/300/500/1,000; with no canasta they count against the side, with one nothing, with two or more for it (001 L48-L57, L83)",
    "sevens_no_wilds: sevens are never melded with wild cards; a canasta of sevens scores 2,500, an unfinished meld of sevens costs 2,500 (001 L59, L91, L99)",
    "aces_wilds_initial_only: an ace meld takes wild cards only in the side's initial meld; a natural ace canasta scores 2,500, an unfinished natural ace meld costs 2,500 (001 L60, L90, L98)",
    "caught_holding: each player holding three or more aces at the end costs the side 1,500, the same again for three or more sevens (001 L61, L85, L102-L103)",
    "wild_meld_rules: while a side's wild meld is unfinished no other meld of the side takes wild cards (001 L63)",
    "wild_canasta_bonuses: seven twos 3,000, four jokers and three twos 2,500, any other wild canasta 2,000; an unfinished wild meld costs 2,000, 2,500 with all four jokers (001 L63, L92-L94, L100-L101)",
    "special_hands: straight 3,000, seven natural pairs 2,500, seven pairs with twos, sevens and aces 2,000, garbage 2,000, declared after drawing by a player whose side has not melded; the side scores only that (001 L65-L71, L74, L79)",
    "bonuses_need_a_canasta: canasta bonuses and the going-out bonus count only for a side with a canasta (001 L81)",
    "melds_count_against_without_canasta: the melded cards of a side with no canasta are subtracted (001 L84)",
  },
}
