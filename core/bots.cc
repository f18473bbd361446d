#include "core/bots.h"

#include <algorithm>

namespace canasta {
namespace {

class RandomBot : public Bot {
 public:
  size_t Choose(const SeatView&, const std::vector<Move>& legal, Rng& rng) override {
    return size_t(rng.Below(int(legal.size())));
  }
  const char* name() const override { return "random"; }
};

int CardsIn(const Move& m) {
  if (auto* x = std::get_if<MeldMove>(&m)) {
    int n = 0;
    for (const MeldPart& p : x->parts) n += int(p.cards.size());
    return n;
  }
  return 0;
}

// 000 §20: make canastas, take the pile when it pays, do not feed the next
// player, keep wild cards and black threes to block, do not freeze the pile
// when behind.
class SensibleBot : public Bot {
 public:
  size_t Choose(const SeatView& v, const std::vector<Move>& legal, Rng& rng) override {
    double best = -1e9;
    size_t pick = 0;
    for (size_t i = 0; i < legal.size(); ++i) {
      double s = Score(v, legal[i]) + rng.Below(100) / 1000.0;  // break ties
      if (s > best) {
        best = s;
        pick = i;
      }
    }
    return pick;
  }
  const char* name() const override { return "sensible"; }

 private:
  double Score(const SeatView& v, const Move& m) const {
    const Rules& r = v.rules();
    const int me = v.side_of(v.seat());
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

int PlayOut(Position* pos, Bot& bot, Rng& rng, int max_moves) {
  std::vector<Move> legal;
  int played = 0;
  for (; played < max_moves; ++played) {
    if (pos->phase() == Phase::kOver && DueThrees(*pos, pos->current_player()).empty()) break;
    LegalMoves(*pos, &legal);
    const bool three = !legal.empty() && std::holds_alternative<ThreeMove>(legal[0]);
    // With the stock gone, a player who may refuse the pile ends the deal.
    if (pos->stock_size() == 0 && pos->phase() != Phase::kPlay && MayEndDeal(*pos) && !three)
      break;
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
