-- The classic ruleset restated in Lua, for the benchmark (docs/performance.md):
-- every value set to what the engine already has, and every hook defined,
-- giving the classic answer (the v2 hooks read their context and keep the
-- engine's verdict), so that the audit's findings and scores are the same
-- and only the cost differs.
return {
  name = "classic-in-lua",
  extends = "classic",
  description = "classic, restated in Lua with hooks (benchmark only)",
  params = {
    num_players = 4, decks = 2, jokers = 4, hand_size = 11, upcards = 1,
    stock_draw = 1, canasta_size = 7, min_meld_size = 3, min_naturals = 2,
    naturals_must_outnumber_wilds = true, max_wilds_incomplete = 3,
    natural_canasta_bonus = 500, mixed_canasta_bonus = 300,
    canastas_to_go_out = 1, going_out_bonus = 100, red_three_bonus = 100,
    all_red_threes_bonus = 800, target_score = 5000,
  },
  hooks = {
    initial_meld_value = function(card, rules)
      if card == "JK" then return 50 end
      local r = card:sub(1, 1)
      if r == "2" or r == "A" then return 20 end
      if r == "K" or r == "Q" or r == "J" or r == "T" or r == "9" or r == "8" then return 10 end
      return 5
    end,
    canastas_to_go_out = function(side, rules) return 1 end,
    minimum_count = function(total, rules)
      if total < 0 then return 15 elseif total < 1500 then return 50
      elseif total < 3000 then return 90 else return 120 end
    end,
    extra_meld_check = function(shape, rules) return nil end,
    house_score_adjustment = function(side, went_out, rules) return 0 end,
    may_take_pile = function(ctx, rules)
      if ctx.default == true then return nil end
    end,
    may_meld = function(ctx, rules)
      if ctx.size < 3 and ctx.is_new then return nil end
    end,
    may_discard = function(ctx, rules)
      if ctx.last_card then return nil end
    end,
    may_go_out = function(ctx, rules)
      if ctx.default == true then return nil end
    end,
    score = function(ctx, rules) return nil end,
    tie_break = function(ctx, rules) return nil end,
  },
}
