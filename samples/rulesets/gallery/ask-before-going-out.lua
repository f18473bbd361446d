-- ask-before-going-out: classic Canasta where a player must ask the partner
-- "may I go out?" before going out; going out without asking is an error
-- and costs the side 100.
-- Who plays it: bridge-club tables, where partnership etiquette is strict;
-- seed 000 §17 makes the question optional.
return {
  name = "ask-before-going-out",
  extends = "classic",
  description = "Classic; no going out without asking the partner (100 penalty)",
  params = {
    ask_to_go_out = "required",
    out_without_asking_penalty = 100,
  },
  sources = {
    ask_to_go_out = "house rule: no going out without asking",
    out_without_asking_penalty = "house rule: 100 for going out without asking",
  },
}
