-- A house ruleset for the example of the out-without-asking check
-- (docs/checks/out-without-asking.md): the classic game, and a player asks
-- "Partner, may I go out?" before going out.
return {
  name = "ask-first",
  extends = "classic",
  description = "classic, and going out needs the question \"may I go out?\" (a house rule)",
  params = { ask_to_go_out = "required" },
}
