-- A ruleset for the example of the discard-empty-pile check
-- (docs/checks/discard-empty-pile.md): the classic game with no upcard, and
-- on an empty pile no seven, wild card or ace while another card is held
-- (SWAD, 001 L46).
return {
  name = "swad",
  extends = "classic",
  description = "classic, the pile starts empty, and SWAD on an empty pile (001 L17, L46)",
  params = { upcards = 0, empty_pile_discard_restricted = true },
}
