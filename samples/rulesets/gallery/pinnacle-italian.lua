-- pinnacle-italian: Italian Canasta / Pinnacle (002 L73-75) with the values
-- of the published "Italian Canasta" rules.
-- Who plays it: four players in two partnerships by the rules of
-- rummy-games.com ("Italian Canasta Rules", a variation of Samba) and
-- HowStuffWorks ("How to Play Canasta": Italian Canasta), with Bicycle's
-- "Samba" for what they take from Samba (two cards drawn, sequences).
-- docs/rulesets.md, "Bolivia, Hand and Foot, Pinnacle"; readings R113.
--
-- The "large bonus" for a seven-card sequence (002 L75) has no value in any
-- source found: rummy-games.com and HowStuffWorks give Italian Canasta no
-- sequences at all, and 002 gives no number. This file CHOOSES 1,500, the
-- value of a samba (Bicycle Samba) and of an escalera (002 L67), and says so
-- in `sources`.
--
-- Not modelled (no parameter or hook expresses it):
--   * The opening of the pile: "the number of cards indicated by [the
--     upcard's] value ... are removed from the top of the stock" and laid
--     under it, and each player then takes as many from the stock.
--   * Twos "as a rank of their own" (a meld of twos; "a canasta of seven
--     twos 3,000", "a mixed canasta of deuces 2,000") and the rule that no
--     two is wild while a meld of twos is open: the engine melds twos only
--     as wild cards.
--   * "a wildcard canasta does not count" toward going out: moot here, as
--     wild cards are never melded alone (wild_melds is false).
--   * Whether sequence canastas count toward "five pure canastas" and the
--     other sets below: unstated; the hook counts rank melds only.
return {
  name = "pinnacle-italian",
  extends = "pinnacle",
  base = "jaques",  -- 002 names no base; Jaques is the closest (readings R52)
  description = "Italian Canasta: 162 cards, 15 each, a pile always frozen, natural openings, game 12,000",
  params = {
    -- "Number of players: Four, in partnerships. Pairs face each other."
    -- (HowStuffWorks)
    num_players = 4,
    -- "Three standard 52-card decks are mixed together with six jokers,
    -- totaling 162 cards." (HowStuffWorks; 002 L75)
    jokers = 6,
    -- "The dealer gives each player 15 cards" (HowStuffWorks)
    hand_size = 15,
    -- Samba's draw, which Italian Canasta keeps: "a player takes two cards
    -- and discards one" (Bicycle Samba)
    stock_draw = 2,
    -- "The discard pile is always 'frozen', and can only be taken by a
    -- player having a natural pair matching the upcard." (rummy-games.com)
    -- With natural_pair the unfrozen pile is taken as the frozen one is.
    unfrozen_take = "natural_pair",
    frozen_before_initial_meld = true,
    -- "Initial melds must be naturals (no wildcards)": the hook may_meld.
    -- Groups: Samba's limit, "no regular meld may contain more than two
    -- wild cards" (Bicycle Samba); no meld of wild cards alone.
    max_wilds_incomplete = 2,
    max_wilds_completed = 2,
    wild_melds = false,
    -- Sequences: "sequences of the same suit can be melded alongside
    -- standard rank sets" (002 L75), with Samba's form (Bicycle Samba:
    -- three or more, four low, ace high, no wild card, seven at most).
    sequence_melds = true,         -- suited runs are melds
    sequence_min_length = 3,       -- "three or more cards of the same suit in sequence" (Samba)
    sequence_max_length = 7,       -- a sequence stops at seven cards (Samba)
    sequence_lowest = 4,           -- four low, the ace high
    sequence_ace = "high",
    sequence_max_wilds = 0,        -- no wild card in a sequence (Samba)
    sequence_canasta_bonus = 1500, -- 002 L75's "large bonus": CHOSEN here (see above)
    -- "Two canastas are required to go out" (rummy-games.com); a sequence
    -- canasta is one of them but none must be.
    canastas_to_go_out = 2,
    sequence_canastas_to_go_out = 0,
    -- "Negative 15, 0 to 1495 50, 1500 to 2995 90, 3000 to 4995 120, 5000
    -- to 7495 160, 7500 to 9995 180, 10000 and up 200" (rummy-games.com)
    minimum_table = {
      { from_total = -1000000000, minimum = 15 },
      { from_total = 0, minimum = 50 },
      { from_total = 1500, minimum = 90 },
      { from_total = 3000, minimum = 120 },
      { from_total = 5000, minimum = 160 },
      { from_total = 7500, minimum = 180 },
      { from_total = 10000, minimum = 200 },
    },
    -- "The bonus for going out is 300 points." (rummy-games.com); no
    -- concealed bonus is given.
    going_out_bonus = 300,
    concealed_going_out_bonus = 300,
    -- "Red threes count 100 points each for one to three, 200 points each
    -- for four or more." (rummy-games.com): 100, 200, 300, then 800, 1,000
    -- and 1,200 in total.
    three_values = { 100, 200, 300, 800, 1000, 1200 },
    -- "Game is 12000 points." (rummy-games.com; HowStuffWorks: 12,000)
    target_score = 12000,
  },
  score_parts = { "canasta_sets" },
  hooks = {
    -- "Initial melds must be naturals (no wildcards)." (rummy-games.com)
    may_meld = function(ctx, rules)
      if ctx.opening and ctx.wilds > 0 then
        return "the initial meld is of natural cards only"
      end
    end,
    -- "Five Pure Canastas 2000; Four Pure Canastas Plus One Mixed Canasta
    -- 1000; Ten Canastas of Any Kind 2000" (rummy-games.com; HowStuffWorks
    -- the same), in addition to the canastas' own bonuses.
    score = function(ctx, rules)
      local pure, mixed = 0, 0
      for _, meld in ipairs(ctx.melds) do
        if meld.canasta and meld.rank ~= "wild" then
          if meld.natural then pure = pure + 1 else mixed = mixed + 1 end
        end
      end
      local bonus = 0
      if pure >= 5 then bonus = bonus + 2000
      elseif pure == 4 and mixed >= 1 then bonus = bonus + 1000 end
      if pure + mixed >= 10 then bonus = bonus + 2000 end
      if bonus > 0 then return { canasta_sets = bonus } end
    end,
  },
  sources = {
    num_players = "HowStuffWorks Italian Canasta: four, in partnerships",
    jokers = "HowStuffWorks Italian Canasta: six jokers, 162 cards; 002 L75",
    hand_size = "HowStuffWorks Italian Canasta: 15 cards",
    stock_draw = "Bicycle Samba: two cards (Italian Canasta is a Samba variation, rummy-games.com)",
    unfrozen_take = "rummy-games.com Italian Canasta: always frozen, a natural pair",
    frozen_before_initial_meld = "rummy-games.com Italian Canasta: always frozen",
    max_wilds_incomplete = "Bicycle Samba: no more than two wild cards",
    max_wilds_completed = "Bicycle Samba: no more than two wild cards",
    canastas_to_go_out = "rummy-games.com Italian Canasta: two canastas",
    minimum_table = "rummy-games.com Italian Canasta", going_out_bonus = "rummy-games.com Italian Canasta: 300",
    three_values = "rummy-games.com Italian Canasta: 100 each to three, 200 each from four",
    target_score = "rummy-games.com and HowStuffWorks Italian Canasta: 12,000",
    may_meld = "rummy-games.com Italian Canasta: natural initial melds",
    score = "rummy-games.com Italian Canasta: bonuses for sets of canastas",
  },
}
