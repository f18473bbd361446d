-- hutto: "Hutto family rules", seed 000 §21. The section opens: "All regular
-- rules are in play with the following exceptions." (000 §21), so this
-- extends classic and changes only the four listed points. Still four
-- players in two teams: "A team must have two canastas" (000 §21).
return {
  name = "hutto",
  extends = "classic",
  description = "The Hutto family's rules (000 §21): draw 2, two canastas, no jokers in the count",
  params = {
    -- "Red threes are shown immediately after the deal and replacements for
    -- red threes are also drawn before the first person takes a turn and
    -- before the dealer turns a card face up. Players replace their red
    -- threes in order, starting to the left of the dealer." (000 §21; readings R23:
    -- seat order from the dealer's left, repeating while a replacement is a
    -- red three, and only then is the upcard turned)
    three_layout = "before_play",
    -- "Jokers cannot be used for the initial meld to meet the minimum count."
    -- (000 §21) Read as readings R22 (b): jokers may be in the initial meld but their
    -- 50 points do not count.
    jokers_count_toward_minimum = false,
    -- "Two cards are drawn from the stock and one card is discarded in a
    -- legal turn." (000 §21; readings R9 and R10 for over-drawing and the last card)
    stock_draw = 2,
    -- "A team must have two canastas to go out." (000 §21)
    canastas_to_go_out = 2,
    -- "At one time a player had to discard when going out. By mutual
    -- agreement, this is no longer the case." (000 §21) Restated: the
    -- classic value, kept on purpose.
    discard_required_to_go_out = false,
  },
  sources = {
    three_layout = "000 §21, readings R23",
    jokers_count_toward_minimum = "000 §21, readings R22 (b)",
    stock_draw = "000 §21",
    canastas_to_go_out = "000 §21",
    discard_required_to_go_out = "000 §21 (no longer required)",
  },
}
