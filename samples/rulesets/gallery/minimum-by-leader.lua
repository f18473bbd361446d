-- minimum-by-leader: classic Canasta where both sides' initial-meld minimum
-- is set by the leading side's total, so a side far behind cannot open
-- cheaply while the leaders need 120.
-- Who plays it: some clubs, to keep a game close near its end.
return {
  name = "minimum-by-leader",
  extends = "classic",
  description = "Classic; the initial-meld minimum follows the leading side's total",
  params = {
    minimum_by = "leading_total",
  },
  sources = { minimum_by = "house rule: the leader's total sets the minimum" },
}
