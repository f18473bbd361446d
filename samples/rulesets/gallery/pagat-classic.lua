-- pagat-classic: classic Canasta as many home games play it: the unfrozen
-- pile is taken only with a natural pair, or by adding the top card to the
-- side's meld of its rank; each meld of the initial meld must reach the
-- minimum by itself; and one player deals every hand.
-- Who plays it: home groups on the classic game that keep one dealer for the
-- evening and ask each opening meld to carry the minimum alone.
return {
  name = "pagat-classic",
  extends = "classic",
  description = "Classic; the pile with a pair or onto a meld, each opening meld at the minimum, one dealer",
  params = {
    unfrozen_take = "pair_or_meld",
    each_meld_meets_minimum = true,
    dealer_rotation = "none",
  },
  sources = {
    unfrozen_take = "house rule: the pile with a natural pair, or the top card onto the side's meld",
    each_meld_meets_minimum = "house rule: each meld of the initial meld reaches the minimum",
    dealer_rotation = "house rule: the same dealer all game",
  },
}
