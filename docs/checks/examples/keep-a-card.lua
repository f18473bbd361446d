-- A ruleset for the example of the meld-keep-a-card check
-- (docs/checks/meld-keep-a-card.md): the classic game, and a player who is
-- not going out may not meld down to a single card (001 L21).
return {
  name = "keep-a-card",
  extends = "classic",
  description = "classic, and a player keeps two cards after melding unless going out (001 L21)",
  params = { keep_a_card = true },
}
