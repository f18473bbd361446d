-- hand-and-foot-basic: Hand and Foot (002 L69-71) with the values of the
-- basic published rules.
-- Who plays it: four players in two partnerships by the basic rules that
-- Bicycle's "Hand and Foot" page gives and club pages restate (ourpastimes.com
-- "How to Play Hand and Foot": five decks with ten jokers, 270 cards, 11 and
-- 11; jerrycolby.com "Hand and Foot": red threes 100, going out 100, clean
-- 500, dirty 300; nwpages.net "Hand and Foot": sets only, no runs, wild
-- cards fewer than naturals and never more than three; the contract of two
-- clean and two dirty books is "a common contract for teams of two").
-- docs/rulesets.md, "Bolivia, Hand and Foot, Pinnacle"; readings R112.
--
-- Not modelled (no parameter or hook expresses it):
--   * A game of four deals whose minimum rises by the deal (50, 90, 120,
--     150) and whose highest total after the fourth wins: the engine plays
--     to a target score and sets minimums by the side's total. The minimum
--     table and target below are this file's choice, not the sources'.
--   * Taking only the top seven cards of the discard pile (some tables):
--     the engine's take is the whole pile.
--   * Red threes that count -500 when left in the hand or foot (some
--     tables): here they are laid out and replaced as in Canasta.
--   * "If you draw exactly 22 cards you get 100 points" (a dealing bonus).
return {
  name = "hand-and-foot-basic",
  extends = "hand-and-foot",
  base = "jaques",  -- 002 names no base; Jaques is the closest (readings R52)
  description = "Hand and Foot, basic rules: 270 cards, a hand and a foot of 11, two clean and two dirty books to go out",
  params = {
    -- "best played with four people in two competing partnerships"
    num_players = 4,
    -- "five standard decks of cards including 10 jokers", 270 cards
    decks = 5,
    jokers = 10,
    -- "Eleven cards are then dealt to each player. These first deals are
    -- called the 'Hand' ... Another deal of 11 cards ... the 'Foot'"
    hand_size = 11,
    foot_size = 11,            -- the second packet, played once the hand is gone (002 L71)
    -- A player who plays the last card of the hand without a discard picks
    -- up the foot and plays on ("running to the foot"); the tables that make
    -- a player who discarded the last card wait for the next turn
    -- ("walking") play foot_pickup = "next_turn".
    foot_pickup = "at_once",   -- at_once: the foot is played in the same turn
    -- "In turn each person will draw two cards and discard one"
    stock_draw = 2,
    -- Books: "A Meld is a set of 3 - 7 cards of the same rank"; "Once the
    -- total number of cards in an OPEN book reaches 7 the book is ...
    -- CLOSED"
    min_meld_size = 3,
    max_meld_size = 7,
    canasta_size = 7,
    -- "the number of wilds must be less than the number of clean/natural
    -- cards"; "The total number of wilds can never exceed 3"
    naturals_must_outnumber_wilds = true,
    max_wilds_incomplete = 3,
    max_wilds_completed = 3,
    wild_melds = false,
    -- "Hand and Foot uses Sets ... but it does NOT use Runs"
    sequence_melds = false,
    -- Threes are not melded ("A set of all threes is not allowed")
    black_three_meld = "never",
    -- "Each 'Clean' pile-500 points / Each 'Dirty' pile-300 points /
    -- For 'Going Out'---100 points"
    natural_canasta_bonus = 500,
    mixed_canasta_bonus = 300,
    going_out_bonus = 100,
    concealed_going_out_bonus = 100,
    -- "Red Threes---100 points"; ten of them earn no more than ten times 100
    red_three_bonus = 100,
    all_red_threes_bonus = 1000,
    -- "Must have 2 cards in your hand which match the top card of the
    -- Discard Pile"
    unfrozen_take = "natural_pair",
    -- The contract, two clean and two dirty books: four books at least, the
    -- kinds checked by the hook may_go_out below (002 L71: "canasta
    -- requirements to go out are more numerous").
    canastas_to_go_out = 4,
    -- Minimums by the side's total as in Canasta (this file's choice: the
    -- sources raise them by the deal, 50, 90, 120, 150).
    minimum_table = {
      { from_total = -1000000000, minimum = 15 },
      { from_total = 0, minimum = 50 },
      { from_total = 1500, minimum = 90 },
      { from_total = 3000, minimum = 120 },
      { from_total = 5000, minimum = 150 },
    },
    -- "the game runs considerably longer" (002 L71); the sources play four
    -- deals, which at a few thousand points each comes to about this.
    target_score = 15000,
  },
  hooks = {
    may_go_out = function(ctx, rules)
      if ctx.natural_canastas < 2 or ctx.mixed_canastas < 2 then
        return "going out needs two clean and two dirty books; the side has " ..
          ctx.natural_canastas .. " clean and " .. ctx.mixed_canastas .. " dirty"
      end
    end,
  },
  sources = {
    num_players = "ourpastimes.com Hand and Foot: two partnerships; 002 L71",
    decks = "ourpastimes.com Hand and Foot: five decks", jokers = "ourpastimes.com: 10 jokers, 270 cards",
    hand_size = "ourpastimes.com Hand and Foot: 11 cards",
    stock_draw = "positivelyorganic.blogspot.com Hand and Foot: draw two, discard one",
    min_meld_size = "nwpages.net Hand and Foot: 3 or more to start a book",
    max_meld_size = "nwpages.net Hand and Foot: 7 closes a book",
    canasta_size = "nwpages.net Hand and Foot",
    naturals_must_outnumber_wilds = "nwpages.net Hand and Foot: wilds fewer than naturals",
    max_wilds_incomplete = "nwpages.net Hand and Foot: never more than 3 wilds",
    max_wilds_completed = "nwpages.net Hand and Foot: never more than 3 wilds",
    natural_canasta_bonus = "jerrycolby.com Hand and Foot: clean 500",
    mixed_canasta_bonus = "jerrycolby.com Hand and Foot: dirty 300",
    going_out_bonus = "jerrycolby.com Hand and Foot: going out 100",
    red_three_bonus = "jerrycolby.com Hand and Foot: red threes 100",
    unfrozen_take = "handandfoot.northwestpages.com: two matching cards",
    canastas_to_go_out = "two clean and two dirty books, a common contract; 002 L71",
    target_score = "002 L71: considerably longer (value chosen here)",
    may_go_out = "two clean and two dirty books, a common contract",
  },
}
