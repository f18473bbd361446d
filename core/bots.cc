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

std::unique_ptr<Bot> MakeRandomBot() { return std::make_unique<RandomBot>(); }
std::unique_ptr<Bot> MakeSensibleBot() { return std::make_unique<SensibleBot>(); }
std::unique_ptr<Bot> MakeBot(const std::string& name) {
  if (name == "random") return MakeRandomBot();
  if (name == "sensible") return MakeSensibleBot();
  return nullptr;
}

}  // namespace canasta
