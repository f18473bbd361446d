-- older-wild-rule: Modern American with the older wild-card rule, "no rule
-- of five; up to two wild cards in any meld except sevens" (001 L107; aces
-- then take wild cards at any time, readings R41).
return {
  name = "older-wild-rule",
  extends = "modern-american",
  description = "Modern American, older wild rule: no rule of five (001 L107)",
  params = {
    wilds_need_naturals = 0,              -- no rule of five
    wild_only_in_initial_meld_ranks = {}, -- aces take wild cards at any time
  },
  sources = {
    wilds_need_naturals = "001 L107",
    wild_only_in_initial_meld_ranks = "001 L107, readings R41",
  },
}
