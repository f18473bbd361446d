-- bolivia-samba: Bolivia (002 L65-67) with the values of the published
-- "Bolivia" rules, which describe it as Samba with changes.
-- Who plays it: four players in two partnerships by the Bicycle rules
-- ("Bolivia": "the same game as Samba with the following changes", with
-- Bicycle's "Samba" for the rest), as restated by whiteknucklecards.com
-- ("Bolivia"), rummy-games.com ("Bolivia Rules") and the "Bolivian Canasta"
-- page of bright.net/~mile505 (web.archive.org, 2001). docs/rulesets.md,
-- "Bolivia, Hand and Foot, Pinnacle"; readings R111.
--
-- Not modelled (no parameter or hook expresses it):
--   * "There is no distinction between deuces and jokers" in a bolivia: the
--     engine counts twos and jokers apart, but no value here depends on it.
--   * The top card "can be added to a meld that is less than a canasta"
--     (Samba): unfrozen_take = "pair_or_meld" lets it onto a completed
--     canasta too.
--   * The top card alone onto an unfinished sequence (Samba): the engine
--     never takes the pile onto a sequence (readings R115).
--   * "A side may have two canastas in the same rank and may combine its
--     melds in the same rank at any time" (Samba): the engine keeps one meld
--     of a rank for a side.
--   * The samba/escalera "ranking as a canasta" for the red threes' sign:
--     the score hook below counts every completed meld in ctx.melds; that
--     escaleras are among them is for the sequence melds to settle.
return {
  name = "bolivia-samba",
  extends = "bolivia",
  base = "jaques",  -- 002 names no base; Jaques is the closest (readings R52)
  description = "Bolivia as Bicycle plays it: 162 cards, 15 each, draw 2, escaleras, bolivias 2,500",
  params = {
    -- "Players: 4"; "Four people play in two partnerships" (Bicycle Samba)
    num_players = 4,
    -- "Three standard 52-card packs plus six jokers for a total of 162 cards"
    decks = 3,
    jokers = 6,
    -- "The dealer distributes 15 cards to each player. When drawing from
    -- the stock, a player takes two cards and discards one." (Samba)
    hand_size = 15,
    stock_draw = 2,
    -- Groups: "no regular meld may contain more than two wild cards"
    -- (Samba; Bolivia changes only the melds of wild cards alone).
    max_wilds_incomplete = 2,
    max_wilds_completed = 2,
    -- "Three or more wild cards may be melded" (Bolivia; 002 L67 too)
    wild_melds = true,
    -- "A canasta of seven wild cards, called a 'bolivia,' counts 2,500"
    wild_canasta_bonus = 2500,
    -- "When the discard pile is topped by a wild card, it may not be taken"
    wild_top_blocks_take = true,
    -- "The discard pile may be taken only with a natural matching pair or,
    -- when it is not frozen, the top card can be added to a meld" (Samba)
    unfrozen_take = "pair_or_meld",
    -- Sequences (002 L67: "three or more consecutive cards of the same
    -- suit"; Samba: "ace high, four low", "no sequence meld may contain any
    -- wild card"; Bolivia restates "wild cards and threes are not involved").
    sequence_melds = true,         -- suited runs are melds
    sequence_min_length = 3,       -- "three or more"
    sequence_max_length = 7,       -- "Cards may be added until there are seven cards" (Samba)
    sequence_lowest = 4,           -- four low, the ace high
    sequence_ace = "high",
    sequence_max_wilds = 0,        -- no wild card in a sequence
    sequence_canasta_bonus = 1500, -- an escalera: 1,500 (002 L67; Bicycle)
    -- "The top card may not be taken to start a sequence meld or combine
    -- with a card from the hand in adding to a sequence meld" (Samba): the
    -- engine never takes the pile onto a sequence (readings R115).
    -- "At least one of the two canastas must be a sequence canasta"
    canastas_to_go_out = 2,
    sequence_canastas_to_go_out = 1,
    -- "15 with a minus score; 50 with a score of 0 to 1,495; 90 with 1,500
    -- to 2,995; 120 with 3,000 to 6,995" (Samba); "The initial meld
    -- requirement stays at 150 from 7,000 points up" (Bolivia).
    minimum_table = {
      { from_total = -1000000000, minimum = 15 },
      { from_total = 0, minimum = 50 },
      { from_total = 1500, minimum = 90 },
      { from_total = 3000, minimum = 120 },
      { from_total = 7000, minimum = 150 },
    },
    -- "a 200-point bonus for going out. No bonus is awarded for a concealed
    -- hand." (Samba)
    going_out_bonus = 200,
    concealed_going_out_bonus = 200,
    -- "Red threes are 100 each unless one side holds all six, in which case
    -- they count 1,000" (Samba); their sign: the hook `score` below.
    red_three_bonus = 100,
    all_red_threes_bonus = 1000,
    -- "Game is 15,000" (Bolivia; 002 L67 "typically")
    target_score = 15000,
  },
  hooks = {
    -- "No additional cards may be added to a bolivia" (rummy-games.com)
    may_meld = function(ctx, rules)
      if ctx.rank == "wild" and ctx.was_canasta then
        return "no card may be added to a bolivia (a canasta of wild cards)"
      end
    end,
    score = function(ctx, rules)
      local parts = {}
      -- Red threes "count plus if [the] partnership has melded two
      -- canastas of any kind, otherwise they are negative" (bright.net;
      -- HowStuffWorks' Samba: deducted "if two canastas have not been made").
      local canastas = 0
      for _, meld in ipairs(ctx.melds) do
        if meld.canasta then canastas = canastas + 1 end
      end
      local reds = math.abs(ctx.parts.red_threes)
      parts.red_threes = canastas >= 2 and reds or -reds
      -- "A black three left in the hand when any other player (including a
      -- partner) goes out counts minus 100 points. Black threes melded in
      -- going out count 5 points each." (Bolivia) card_value counts a three
      -- 5 everywhere, so each one left in a hand costs 95 more.
      local black = 0
      for _, hand in ipairs(ctx.hands) do
        for _, card in ipairs(hand) do
          if canasta.is_black_three(card) then black = black + 1 end
        end
      end
      if black > 0 then parts.in_hand = ctx.parts.in_hand - 95 * black end
      return parts
    end,
  },
  sources = {
    num_players = "Bicycle Samba: four in two partnerships",
    decks = "Bicycle Samba: three packs", jokers = "Bicycle Samba: six jokers, 162 cards",
    hand_size = "Bicycle Samba: 15 cards", stock_draw = "Bicycle Samba: takes two cards",
    max_wilds_incomplete = "Bicycle Samba: no more than two wild cards",
    max_wilds_completed = "Bicycle Samba: no more than two wild cards",
    wild_melds = "Bicycle Bolivia; 002 L67", wild_canasta_bonus = "Bicycle Bolivia: 2,500",
    wild_top_blocks_take = "Bicycle Bolivia", unfrozen_take = "Bicycle Samba",
    canastas_to_go_out = "Bicycle Bolivia: the two canastas",
    minimum_table = "Bicycle Samba and Bolivia", going_out_bonus = "Bicycle Samba: 200",
    concealed_going_out_bonus = "Bicycle Samba: no concealed bonus",
    red_three_bonus = "Bicycle Samba", all_red_threes_bonus = "Bicycle Samba: all six 1,000",
    target_score = "Bicycle Bolivia; 002 L67",
    may_meld = "rummy-games.com Bolivia: nothing added to a bolivia",
    score = "bright.net Bolivian Canasta: red threes' sign, black threes -100",
  },
}
