return {
  name = "broken-count",
  extends = "classic",
  hooks = {
    initial_meld_value = function(card, rules)
      return card.value  -- a card is a string such as "9S": this is nil
    end,
  },
}
