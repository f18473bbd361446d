#include "core/bots.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/meld.h"

namespace canasta {
namespace {

class RandomBot : public Bot {
 public:
  size_t Choose(const SeatView&, const std::vector<Move>& legal, Rng& rng) override {
    return size_t(rng.Below(int(legal.size())));
  }
  const char* name() const override { return "random"; }
  bool uniform() const override { return true; }
};

int CardsIn(const Move& m) {
  if (auto* x = std::get_if<MeldMove>(&m)) {
    int n = 0;
    for (const MeldPart& p : x->parts) n += int(p.cards.size());
    return n;
  }
  return 0;
}

// --- What the end of a hand may cost (001) ---
// Rules such as 001's punish what is on the table or in the hand when the
// hand ends: an unfinished meld of aces, of sevens or of wild cards
// (001 L59-L63, L98-L101) and a player caught holding three or more aces or
// sevens (001 L61, L102-L103). The sensible bot weighs a move by how it
// changes that exposure, in points. Every term is a product of those rule
// values, all 0 under classic, so rulesets without them see no change.

// Whether the rules punish anything the bot could still avoid at the end.
bool HandEndPunishes(const Rules& r) {
  if (r.unfinished_wild_meld_penalty > 0 || r.unfinished_wild_meld_all_jokers_penalty > 0)
    return true;
  for (int rank = 0; rank < 16; ++rank)
    if (r.unfinished_natural_meld_penalty[size_t(rank)] > 0 ||
        r.caught_holding_penalty[size_t(rank)] > 0)
      return true;
  return false;
}

bool IsWildRank(Rank rank) { return rank == Rank::kJoker || rank == Rank::kTwo; }

// What the bot can count of one rank (kJoker: the wild cards) from its seat.
class StakesModel {
 public:
  // The chance that a card not yet seen reaches the side while the hand
  // lasts (tuned on self-play: docs/simulation.md).
  static constexpr double kShare = 0.4;

  explicit StakesModel(const SeatView& v) : v_(v), r_(v.rules()), me_(v.side_of(v.seat())) {
    for (Card c : v.hand().ToVector()) hand_[Slot(c)] += 1;
    for (int side = 0; side < r_.num_sides(); ++side)
      for (const Meld& m : v.melds(side))
        for (Card c : m.cards) seen_[Slot(c)] += 1;
    for (Card c : v.pile()) seen_[Slot(c)] += 1;
    for (const Meld& m : v.melds(me_)) {
      if (m.cards.empty()) continue;
      Meld& mine = melds_[size_t(m.rank)];
      // Wild cards join the unfinished wild meld, not a wild canasta.
      if (mine.size() > 0 && m.is_canasta(r_)) continue;
      mine = m;
    }
    // How much of the rest of the hand is left to draw from: the stock, and
    // less when the other side may go out at any time.
    pace_ = std::min(1.0, v.stock_size() / 40.0);
    for (int side = 0; side < r_.num_sides(); ++side)
      if (side != me_ && v.CanastaCount(side) >= r_.canastas_to_go_out) pace_ *= 0.5;
  }

  // Natural cards of `rank` (kJoker: wild cards) in the hand.
  int held(Rank rank) const { return hand_[size_t(rank)]; }
  // The side's meld of `rank` (empty: none; kJoker: the unfinished wild meld).
  const Meld& meld(Rank rank) const { return melds_[size_t(rank)]; }

  // The expected end-of-hand value, in points, of the side's unfinished
  // meld `m` of `rank` with `in_hand` matching cards still in the hand.
  double Prospect(const Meld& m, int in_hand) const {
    if (m.cards.empty()) return 0;
    const int penalty = UnfinishedPenalty(r_, m);
    if (penalty == 0) return 0;
    if (m.is_canasta(r_)) return CanastaBonus(r_, m);
    const double p = ChanceToFinish(m.rank, m.size(), in_hand);
    return p * CanastaBonus(r_, m) - (1 - p) * penalty;
  }

  // The cost of being caught holding `n` cards of `rank` (001 L61).
  int Caught(Rank rank, int n) const {
    if (IsWildRank(rank)) return 0;
    return n >= r_.caught_holding_count ? r_.caught_holding_penalty[size_t(rank)] : 0;
  }

 private:
  static size_t Slot(Card c) { return c.is_wild() ? size_t(Rank::kJoker) : size_t(c.rank()); }

  // The chance that the side gets enough cards of the rank to finish: each
  // card not yet seen reaches it with a chance that shrinks as the hand
  // runs out (a binomial tail).
  double ChanceToFinish(Rank rank, int size, int in_hand) const {
    const int need = r_.canasta_size - size - in_hand;
    if (need <= 0) return 0.9;
    const int copies = rank == Rank::kJoker ? r_.decks * 4 + r_.jokers : r_.decks * 4;
    const int unseen = copies - hand_[size_t(rank)] - seen_[size_t(rank)];
    if (need > unseen) return 0;
    const double q = kShare * pace_;
    double tail = 0, term = std::pow(1 - q, unseen);  // P(X = 0)
    for (int k = 0; k <= unseen; ++k) {
      if (k >= need) tail += term;
      term *= q / (1 - q) * double(unseen - k) / double(k + 1);
    }
    return std::min(0.9, tail);
  }

  const SeatView& v_;
  const Rules& r_;
  int me_;
  double pace_ = 1;
  std::array<int, 16> hand_{};
  std::array<int, 16> seen_{};
  std::array<Meld, 16> melds_;
};

// The change in end-of-hand exposure, in points, when the cards `laid` go
// from the hand onto the side's melds, `gained` come into the hand and
// `shed` leave it (a discard).
double StakesDelta(const StakesModel& model, const std::vector<MeldPart>& laid,
                   const std::vector<Card>& gained, const std::vector<Card>& shed) {
  // The melds a part changes, copied into scratch melds that keep their
  // storage; the others are read from the model.
  thread_local std::array<Meld, 16> melds;
  std::array<bool, 16> copied{};
  std::array<int, 16> held{}, before{};
  std::array<bool, 16> touched{};
  for (int rank = 0; rank < 16; ++rank)
    held[size_t(rank)] = before[size_t(rank)] = model.held(Rank(rank));
  auto slot = [](Card c) { return c.is_wild() ? size_t(Rank::kJoker) : size_t(c.rank()); };
  for (Card c : gained) held[slot(c)] += 1, touched[slot(c)] = true;
  for (Card c : shed) held[slot(c)] -= 1, touched[slot(c)] = true;
  for (const MeldPart& p : laid) {
    std::optional<Rank> rank = p.to ? p.to : MeldRank(p.cards, p.as);
    if (!rank) continue;
    Meld& m = melds[size_t(*rank)];
    if (!copied[size_t(*rank)]) m = model.meld(*rank);
    copied[size_t(*rank)] = true;
    m.rank = *rank;
    touched[size_t(*rank)] = true;
    for (Card c : p.cards) {
      m.Add(c);
      held[slot(c)] -= 1;
      touched[slot(c)] = true;
    }
  }
  double delta = 0;
  for (int i = 0; i < 16; ++i) {
    if (!touched[size_t(i)]) continue;
    const Rank rank = Rank(i);
    const Meld& after = copied[size_t(i)] ? melds[size_t(i)] : model.meld(rank);
    delta += model.Prospect(after, held[size_t(i)]) -
             model.Prospect(model.meld(rank), before[size_t(i)]);
    delta -= model.Caught(rank, held[size_t(i)]) - model.Caught(rank, before[size_t(i)]);
  }
  return delta;
}

// Going out ends the hand: the side's unfinished melds cost their penalty
// instead of what finishing them might bring, and the other side's cost
// them theirs (every meld is on the table for all to see).
double GoingOutStakes(const SeatView& v, const StakesModel& model) {
  const Rules& r = v.rules();
  const int me = v.side_of(v.seat());
  double s = 0;
  for (int side = 0; side < r.num_sides(); ++side) {
    for (const Meld& m : v.melds(side)) {
      if (m.cards.empty() || m.is_canasta(r)) continue;
      const int penalty = UnfinishedPenalty(r, m);
      if (penalty == 0) continue;
      if (side == me)
        s -= penalty + model.Prospect(m, model.held(m.rank));
      else
        s += penalty / 2.0;
    }
  }
  return s;
}

// 000 §20: make canastas, take the pile when it pays, do not feed the next
// player, keep wild cards and black threes to block, do not freeze the pile
// when behind.
class SensibleBot : public Bot {
 public:
  size_t Choose(const SeatView& v, const std::vector<Move>& legal, Rng& rng) override {
    const TieBreak tie = tie_break();
    double best = -1e9;
    size_t pick = 0;
    for (size_t i = 0; i < legal.size(); ++i) {
      double s = Score(v, legal[i]) + rng.Below(tie.draws) / tie.scale;  // break ties
      if (s > best) {
        best = s;
        pick = i;
      }
    }
    return pick;
  }
  const char* name() const override { return "sensible"; }
  bool scored() const override { return true; }
  double Score(const SeatView& v, const Move& m) const override {
    if (!HandEndPunishes(v.rules())) return Base(v, m);
    const StakesModel model(v);
    return Base(v, m) + EndOfHandStakes(v, model, m);
  }
  // What every move's score of one view shares, worked out once: whether
  // the end of the hand punishes anything, and the model of its stakes.
  std::function<double(const Move&)> Scorer(const SeatView& v) const override {
    if (!HandEndPunishes(v.rules())) return [this, &v](const Move& m) { return Base(v, m); };
    auto model = std::make_shared<const StakesModel>(v);
    return [this, &v, model](const Move& m) { return Base(v, m) + EndOfHandStakes(v, *model, m); };
  }

 private:
  // The end-of-hand stakes of `m` (see StakesDelta), in the units of Score:
  // 0 unless the rules punish unfinished melds or cards caught in hand.
  // Only where HandEndPunishes: `model` is the view's.
  double EndOfHandStakes(const SeatView& v, const StakesModel& model, const Move& m) const {
    const Rules& r = v.rules();
    const double kUnit = 0.1;  // Score's units: a meld of three is worth about 60
    if (auto* x = std::get_if<MeldMove>(&m)) {
      const int left = v.hand().total() - CardsIn(m);
      double s = StakesDelta(model, x->parts, {}, {});
      // Melding down to the last card (or none) goes out.
      if (left == 0 || (left == 1 && (r.keep_a_card || r.discard_required_to_go_out)))
        s += GoingOutStakes(v, model);
      return kUnit * s;
    }
    if (auto* t = std::get_if<TakePileMove>(&m)) {
      std::vector<MeldPart> laid = t->before;
      MeldPart top{t->to, {}, t->with};
      top.cards.push_back(t->top);
      if (!t->to) top.as = t->top.rank();
      std::vector<Card> gained(v.pile().begin(), v.pile().end());
      laid.push_back(top);
      return kUnit * StakesDelta(model, laid, gained, {});
    }
    if (auto* d = std::get_if<DiscardMove>(&m)) {
      double s = StakesDelta(model, {}, {}, {d->card});
      if (v.hand().total() == 1) s += GoingOutStakes(v, model);
      return kUnit * s;
    }
    return 0;
  }
  double Base(const SeatView& v, const Move& m) const {
    const Rules& r = v.rules();
    const int me = v.side_of(v.seat());
    // A special hand offered is declared (001 L65-L71): it ends the hand.
    if (std::holds_alternative<SpecialHandMove>(m)) return 1e7;
    if (std::holds_alternative<ThreeMove>(m)) return 1000;
    // It goes out without asking; asked, its partner says yes (the asker
    // asks to go out, and a yes is offered only when it can).
    // Where going out needs the question (or costs points without it), it
    // asks first, before melding.
    if (std::holds_alternative<AskOutMove>(m))
      return r.partnerships() && (r.ask_to_go_out == AskToGoOut::kRequired ||
                                  r.out_without_asking_penalty > 0)
                 ? 1e6
                 : -1e6;
    if (auto* a = std::get_if<AnswerMove>(&m)) return a->yes ? 1 : 0;
    if (auto* t = std::get_if<TakePileMove>(&m)) {
      // Taking the pile is the best way to get cards (000 §20).
      return 10 + 5.0 * double(v.pile().size()) - double(t->with.size());
    }
    if (std::holds_alternative<DrawMove>(m)) return 10;
    if (auto* x = std::get_if<MeldMove>(&m)) {
      const int n = CardsIn(m);
      const int left = v.hand().total() - n;
      if (left == 0) return 500;  // going out
      // Lay out a variety of melds; additions build canastas.
      double s = 50 + 3.0 * n;
      for (const MeldPart& p : x->parts) {
        for (Card c : p.cards) s -= c.is_wild() ? 8 : 0;  // keep wilds flexible
      }
      if (!v.has_melded(me) && left < 6) s -= 30;  // 000 §20: keep six cards
      return s;
    }
    if (auto* d = std::get_if<DiscardMove>(&m)) {
      const Card c = d->card;
      const int next = (v.seat() + 1) % v.num_players();
      const int them = v.side_of(next);
      double s = 0;
      if (c.is_black_three()) s += 6;  // blocks the next player (000 §14)
      if (c.is_wild()) {
        // Freezing the pile when behind blocks ourselves (000 §20).
        s -= v.CanastaCount(me) < v.CanastaCount(them) ? 40 : 15;
      }
      for (const Meld& meld : v.melds(them)) {
        if (!meld.cards.empty() && meld.rank == c.rank()) s -= 25;  // feeds them
      }
      for (const Meld& meld : v.melds(me)) {
        if (!meld.cards.empty() && meld.rank == c.rank()) s -= 10;  // we could add it
      }
      const int same = v.hand().count(c);
      s -= 4.0 * (same - 1);  // keep pairs
      s += r.value(c) / 10.0;   // shed points
      return s;
    }
    return 0;
  }
};

}  // namespace

DealMove ShuffledDeal(const Rules& r, int dealer, Rng& rng) {
  std::vector<Card> pack;
  for (int i = 0; i < kNumFaces; ++i) {
    Card c = Card::FromIndex(i);
    for (int k = 0; k < r.copies(c); ++k) pack.push_back(c);
  }
  for (size_t i = pack.size(); i > 1; --i) std::swap(pack[i - 1], pack[rng.Below(int(i))]);
  DealMove d;
  d.dealer = dealer;
  d.hands.resize(r.num_players);
  size_t next = 0;
  // One at a time, from the dealer's left (000 §6).
  for (int round = 0; round < r.hand_size; ++round)
    for (int i = 1; i <= r.num_players; ++i)
      d.hands[(dealer + i) % r.num_players].push_back(pack[next++]);
  if (r.feet()) {
    // Then the feet, the same way (002 L71).
    d.feet.resize(r.num_players);
    for (int round = 0; round < r.foot_size; ++round)
      for (int i = 1; i <= r.num_players; ++i)
        d.feet[(dealer + i) % r.num_players].push_back(pack[next++]);
  }
  if (r.upcards > 0) {
    d.upcards.push_back(pack[next++]);
    while (next < pack.size() &&
           IsUpcardTrigger(d.upcards.back(), d.upcards.size() == 1 ? r.upcard_first_triggers
                                                             : r.upcard_more_triggers))
      d.upcards.push_back(pack[next++]);
  }
  std::vector<Card> stock(pack.begin() + long(next), pack.end());
  if (r.upcard_specials_to_stock && d.upcards.size() > 1) {
    // 002 Setup-6: the special cards are buried in the middle of the stock.
    stock.insert(stock.begin() + long(stock.size() / 2), d.upcards.begin(), d.upcards.end() - 1);
  }
  d.stock = std::move(stock);
  return d;
}

int PlayOut(Position* pos, Bot& bot, Rng& rng, int max_moves, uint64_t tie_key) {
  TieBreak tie = bot.tie_break();
  if (tie_key) tie.key = tie_key;
  std::vector<Move> legal;
  Move drawn;
  int played = 0;
  for (; played < max_moves; ++played) {
    if (pos->phase() == Phase::kOver && DueThrees(*pos, pos->current_player()).empty()) break;
    const bool may_end =
        pos->stock_size() == 0 && pos->phase() != Phase::kPlay && MayEndDeal(*pos);
    if (bot.uniform() && !may_end) {
      if (!SampleLegalMove(*pos, rng, &drawn)) break;
      pos->Apply(drawn);
      continue;
    }
    if (bot.scored() && !may_end) {
      const SeatView view(*pos, pos->current_player());
      if (!BestLegalMove(*pos, bot.Scorer(view), tie, rng, &drawn)) break;
      pos->Apply(drawn);
      continue;
    }
    LegalMoves(*pos, &legal);
    const bool three = !legal.empty() && std::holds_alternative<ThreeMove>(legal[0]);
    // With the stock gone, a player who may refuse the pile ends the deal.
    if (may_end && !three) break;
    if (legal.empty()) break;
    size_t pick = 0;
    if (!three) pick = bot.Choose(SeatView(*pos, pos->current_player()), legal, rng);
    pos->Apply(legal[pick]);
  }
  return played;
}

std::unique_ptr<Bot> MakeRandomBot() { return std::make_unique<RandomBot>(); }
std::unique_ptr<Bot> MakeSensibleBot() { return std::make_unique<SensibleBot>(); }
std::unique_ptr<Bot> MakeBot(const std::string& name) {
  if (name == "random") return MakeRandomBot();
  if (name == "sensible") return MakeSensibleBot();
  return nullptr;
}

}  // namespace canasta
