#include "core/legal_moves.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <type_traits>

#include "core/dcheck.h"
#include "core/special_hand.h"

namespace canasta {
namespace {

constexpr int kClasses = 16;
constexpr int kRedThree = 1;
constexpr int kTwos = 2;
constexpr int kBlackThree = 3;
constexpr int kJokers = 15;
using Counts = std::array<int, kClasses>;

// Card faces of each class, lowest index first.
struct ClassFaces {
  std::array<std::array<Card, 4>, kClasses> faces;
  std::array<int, kClasses> n{};
};

const ClassFaces& Faces() {
  static const ClassFaces table = [] {
    ClassFaces t;
    for (int i = 0; i < kNumFaces; ++i) {
      Card c = Card::FromIndex(i);
      int k = CardClass(c);
      t.faces[k][t.n[k]++] = c;
    }
    return t;
  }();
  return table;
}

// The hand's count per class, read off the face layout (Card: four suits a
// rank from the twos up, the joker last), asked for every candidate.
static_assert(Card(Rank::kTwo, Suit::kSpades).index() == 0 &&
              Card(Rank::kThree, Suit::kSpades).index() == 4 &&
              Card(Rank::kThree, Suit::kClubs).index() == 7 &&
              Card(Rank::kFour, Suit::kSpades).index() == 8 && Card::Joker().index() == 52 &&
              Card(Rank::kThree, Suit::kHearts).is_red() && Card(Rank::kThree, Suit::kDiamonds).is_red());
Counts ClassCounts(const CardCounts& hand) {
  Counts n{};
  auto four = [&](int i) {
    return hand.count_at(i) + hand.count_at(i + 1) + hand.count_at(i + 2) + hand.count_at(i + 3);
  };
  n[kTwos] = four(0);
  n[kBlackThree] = hand.count_at(4) + hand.count_at(7);
  n[kRedThree] = hand.count_at(5) + hand.count_at(6);
  for (int k = 4; k <= 14; ++k) n[size_t(k)] = four((k - 2) * 4);
  n[kJokers] = hand.count_at(52);
  return n;
}

// Appends `k` cards of class `cls` from the hand, lowest faces first.
void AppendClass(const CardCounts& hand, int cls, int k, std::vector<Card>* out) {
  const ClassFaces& f = Faces();
  for (int i = 0; i < f.n[cls] && k > 0; ++i) {
    for (int have = hand.count(f.faces[cls][i]); have > 0 && k > 0; --have, --k)
      out->push_back(f.faces[cls][i]);
  }
}

Card FirstOf(const CardCounts& hand, int cls) {
  const ClassFaces& f = Faces();
  for (int i = 0; i < f.n[cls]; ++i)
    if (hand.count(f.faces[cls][i]) > 0) return f.faces[cls][i];
  return Card();
}

// Objects kept per thread and reused down the search: the one at each depth
// keeps the storage of its vectors, so that the search allocates nothing per
// candidate once warm. Uses nest (one per level of the search), so the pool
// is a stack.
template <class T>
class ScratchStack {
 public:
  // The object of the next depth, made by `make()` the first time that depth
  // is reached, else as its last user left it (`fresh()` tells which).
  template <class Make>
  explicit ScratchStack(Make&& make) {
    std::vector<std::unique_ptr<T>>& pool = Pool();
    fresh_ = depth_ == pool.size();
    if (fresh_) pool.push_back(make());
    obj_ = pool[depth_++].get();
  }
  ~ScratchStack() { --depth_; }
  ScratchStack(const ScratchStack&) = delete;
  ScratchStack& operator=(const ScratchStack&) = delete;
  T& operator*() { return *obj_; }
  T* operator->() { return obj_; }
  bool fresh() const { return fresh_; }

 private:
  static std::vector<std::unique_ptr<T>>& Pool() {
    thread_local std::vector<std::unique_ptr<T>> pool;
    return pool;
  }
  static thread_local size_t depth_;
  T* obj_;
  bool fresh_;
};
template <class T>
thread_local size_t ScratchStack<T>::depth_ = 0;

// A copy of a position to play a candidate on: assigned into a pooled
// position, it keeps the storage of the hands' melds, the pile and the stock.
class ScratchCopy : public ScratchStack<Position> {
 public:
  explicit ScratchCopy(const Position& p)
      : ScratchStack([&] { return std::make_unique<Position>(p); }) {
    if (!fresh()) **this = p;
  }
};

// A meld move to build candidates in, kept as a Move (so that a sink reads
// it in place): its parts and their cards keep their storage.
class ScratchMeld : public ScratchStack<Move> {
 public:
  ScratchMeld() : ScratchStack([] { return std::make_unique<Move>(MeldMove{}); }) {}
  MeldMove& meld() { return std::get<MeldMove>(**this); }
};

template <class M>
bool Clean(const Position& p, const M& m) {
  return p.Check(m).empty();
}

// The side's meld a new part of `rank` joins (Position::MeldFor: wild cards
// go to the side's unfinished wild meld), or nullptr for a new meld.
const Meld* SideMeld(const Position& p, int side, Rank rank) {
  const Meld* m = p.MeldFor(side, rank, /*adding=*/false);
  return m && !m->cards.empty() ? m : nullptr;
}

// SideMeld of every natural rank (black threes to aces), in one pass over
// the side's melds: a rank's first meld (FindMeld), if it holds cards.
using RankMelds = std::array<const Meld*, 15>;
RankMelds SideMelds(const Position& p, int side) {
  RankMelds out{};
  std::array<bool, 15> seen{};
  for (const Meld& m : p.melds(side)) {
    const int k = int(m.rank);
    if (k < kBlackThree || k > 14 || seen[size_t(k)]) continue;
    seen[size_t(k)] = true;
    if (!m.cards.empty()) out[size_t(k)] = &m;
  }
  return out;
}

// A cheap necessary condition of CheckMeldShape (core/meld.cc), so that Check
// is asked only about candidates that may pass (a refused Check words its
// finding). It may only be weaker than CheckMeldShape: the brute force in
// tests/legal_moves_test.cc, which has no such filter, would see a move lost.
bool ShapeMayPass(const Rules& r, const Meld* base, Rank rank, int n, int t, int j) {
  const int naturals = (base ? base->naturals : 0) + n;
  const int wilds = (base ? base->wilds() : 0) + t + j;
  const int size = naturals + wilds;
  if (!base && size < r.min_meld_size) return false;
  if (r.max_meld_size > 0 && size > r.max_meld_size) return false;
  if (rank == Rank::kJoker) return r.wild_melds;
  if (naturals < r.min_naturals) return false;
  if (r.naturals_must_outnumber_wilds && wilds >= naturals) return false;
  if (size < r.canasta_size && wilds > r.max_wilds_incomplete) return false;
  return true;
}

// Fills `part` with n cards of `cls`, t twos and j jokers from the hand.
void FillPart(const CardCounts& hand, int cls, int n, int t, int j, std::vector<Card>* cards) {
  cards->clear();
  if (n) AppendClass(hand, cls, n, cards);
  if (t) AppendClass(hand, kTwos, t, cards);
  if (j) AppendClass(hand, kJokers, j, cards);
}

// The same, where only some cards count toward the initial meld (`limit`,
// after taking the pile): the faces that count first, so that a plan's count
// is the most its classes give.
void FillCounting(const CardCounts& hand, const CardCounts* limit, int cls, int n, int t, int j,
                  std::vector<Card>* cards) {
  if (!limit) return FillPart(hand, cls, n, t, j, cards);
  cards->clear();
  const ClassFaces& f = Faces();
  auto take = [&](int k, int want) {
    for (int pass = 0; pass < 2 && want > 0; ++pass) {
      for (int i = 0; i < f.n[k] && want > 0; ++i) {
        const Card c = f.faces[k][i];
        const int counting = std::min(hand.count(c), limit->count(c));
        for (int x = pass == 0 ? counting : hand.count(c) - counting; x > 0 && want > 0; --x, --want)
          cards->push_back(c);
      }
    }
  };
  take(cls, n);
  take(kTwos, t);
  take(kJokers, j);
}

// The one part of a scratch meld, cleared but for its cards' storage (a
// pooled scratch keeps what it last held).
MeldPart& OnePart(MeldMove* m) {
  if (m->parts.size() != 1) m->parts.resize(1);
  MeldPart& part = m->parts[0];
  part.to = std::nullopt;
  part.as = std::nullopt;
  part.sequence = false;
  part.id.clear();
  part.to_id.clear();
  return part;
}

// The meld candidates come in steps: one step per class that melds (black
// threes, then 4..A), then melds of wild cards alone, then all-wild melds
// named by `as`.
constexpr int kSteps = 14;
constexpr int kWildStep = 12;
constexpr int kAsStep = 13;

// Calls f(meld) for every one-part meld of step `step` that Check accepts,
// naturals, twos and jokers ascending (descending if `big_first`), until f
// returns true; returns whether it did. kLazy: for every one that passes
// ShapeMayPass, f(make) with `make()` filling *scratch with it (unchecked: f
// judges it), so that a candidate passed over is never built.
template <bool kLazy = false, class F>
bool ForEachMeldAt(const Position& p, int seat, const Counts& cnt, int step, bool big_first,
                   MeldMove* scratch, F&& f, const RankMelds* melds = nullptr) {
  const Rules& r = p.rules();
  const int side = p.side_of(seat);
  const CardCounts& hand = p.hand(seat);
  scratch->player = seat;
  scratch->tag = 0;
  MeldPart& part = OnePart(scratch);
  // n naturals of `cls` with every number of twos and jokers.
  auto each = [&](const Meld* base, int cls, Rank rank, int lo, int hi) {
    for (int a = lo; a <= hi; ++a) {
      const int n = big_first ? hi - (a - lo) : a;
      for (int b = 0; b <= cnt[kTwos]; ++b) {
        const int t = big_first ? cnt[kTwos] - b : b;
        for (int c = 0; c <= cnt[kJokers]; ++c) {
          const int j = big_first ? cnt[kJokers] - c : c;
          if (n + t + j == 0 || !ShapeMayPass(r, base, rank, n, t, j)) continue;
          if constexpr (kLazy) {
            auto make = [&, n, t, j]() -> const MeldMove& {
              FillCounting(hand, p.turn_count_limit(), cls, n, t, j, &part.cards);
              return *scratch;
            };
            if (f(make)) return true;
          } else {
            FillCounting(hand, p.turn_count_limit(), cls, n, t, j, &part.cards);
            if (!Clean(p, *scratch)) continue;
            if (f(*scratch)) return true;
          }
        }
      }
    }
    return false;
  };
  if (step < kWildStep) {
    const int cls = kBlackThree + step;
    const Rank rank = Rank(cls);
    if (cnt[cls] == 0 && cnt[kTwos] + cnt[kJokers] == 0) return false;
    const Meld* base = melds ? (*melds)[size_t(cls)] : SideMeld(p, side, rank);
    if (cnt[cls] == 0 && !base) return false;
    if (base) part.to = rank;
    return each(base, cls, rank, base ? 0 : 1, cnt[cls]);
  }
  if (cnt[kTwos] + cnt[kJokers] == 0) return false;
  if (step == kWildStep) {
    // A meld of wild cards alone (000 §8 where allowed; 002 L67).
    if (!r.wild_melds) return false;
    const Meld* base = SideMeld(p, side, Rank::kJoker);
    if (base) part.to = Rank::kJoker;
    return each(base, kTwos, Rank::kJoker, 0, 0);
  }
  // A new meld of wild cards named by `as`: it has no natural card.
  if (r.min_naturals > 0) return false;
  for (int cls = 4; cls <= 14; ++cls) {
    const Rank rank = Rank(cls);
    if (SideMeld(p, side, rank)) continue;  // additions are in the rank's step
    part.to = std::nullopt;
    part.as = rank;
    if (each(nullptr, kTwos, rank, 0, 0)) return true;
  }
  return false;
}

// How many candidates ForEachMeldAt<true> offers at a step of a rank (for a
// count, without enumerating them one by one), or -1 for the other steps.
// ShapeMayPass of a natural rank depends on the number of wild cards alone,
// so each number w of them is asked once and counted for every way to make
// it of twos and jokers.
int CountMeldsAt(const Position& p, const RankMelds& melds, const Counts& cnt, int step) {
  if (step >= kWildStep) return -1;
  const int cls = kBlackThree + step;
  if (cnt[cls] == 0 && cnt[kTwos] + cnt[kJokers] == 0) return 0;
  const Rank rank = Rank(cls);
  const Meld* base = melds[size_t(cls)];
  if (cnt[cls] == 0 && !base) return 0;
  const Rules& r = p.rules();
  const int twos = cnt[kTwos], jokers = cnt[kJokers];
  int total = 0;
  for (int n = base ? 0 : 1; n <= cnt[cls]; ++n) {
    for (int w = 0; w <= twos + jokers; ++w) {
      const int t = std::min(w, twos);
      if (n + w == 0 || !ShapeMayPass(r, base, rank, n, t, w - t)) continue;
      total += t - std::max(0, w - jokers) + 1;  // the splits of w into twos and jokers
    }
  }
  return total;
}

// The search for a legal finish of the turn. Melds of different ranks do not
// depend on one another's order, and the parts laid on one rank in a turn
// can be laid as one part (the same shape at the end; CheckMeldShape asks of
// the end shape what it asks of each step), so the search lays at most one
// part per step, in step order. Positions already judged are remembered by
// the hand's classes, the side's melds, the count so far and the step.
// One search serves moves that share the turn's binding answer.
constexpr int kSearchBudget = 300;  // positions judged per move
// A meld part's identity: its rank and how many naturals, twos and jokers.
uint32_t PartSig(const MeldPart& part) {
  std::optional<Rank> rank = MeldRank(part.cards, part.to ? part.to : part.as);
  uint32_t n = 0, t = 0, j = 0;
  for (Card c : part.cards) c.is_joker() ? ++j : c.rank() == Rank::kTwo ? ++t : ++n;
  return uint32_t(rank ? int(*rank) : 0) << 24 | n << 16 | t << 8 | j;
}

using Key = std::array<uint8_t, kClasses + 3 * kClasses + 5>;
struct Search {
  struct Seen {
    uint64_t hash;
    Key key;
    bool ok;
  };
  std::vector<Seen> seen;
  int nodes = 0;
  // The parts laid on the way to the position being judged, and, once a
  // finish is found, those on the way to it: each is part of a legal finish.
  std::vector<uint32_t> path, found;
  bool Found() {
    if (found.empty()) found = path;
    return true;
  }
  // Open addressing over `seen` (the budget keeps it under half full).
  std::array<int16_t, 1024> slots;
  Search() { slots.fill(-1); }
  Seen* Find(uint64_t hash, const Key& key) {
    for (size_t i = hash & 1023;; i = (i + 1) & 1023) {
      if (slots[i] < 0) return nullptr;
      Seen& x = seen[size_t(slots[i])];
      if (x.hash == hash && x.key == key) return &x;
    }
  }
  size_t Insert(uint64_t hash, const Key& key) {
    size_t i = hash & 1023;
    while (slots[i] >= 0) i = (i + 1) & 1023;
    slots[i] = int16_t(seen.size());
    seen.push_back({hash, key, false});
    return seen.size() - 1;
  }
};

Key KeyOf(const Position& p, int seat, const Counts& cnt, int step, uint64_t* hash) {
  Key k{};
  for (int i = 0; i < kClasses; ++i) k[size_t(i)] = uint8_t(cnt[i]);
  for (const Meld& m : p.melds(p.side_of(seat))) {
    // A side may hold several wild canastas (one_unfinished_wild_meld):
    // their number goes in rank 1's unused slot, the unfinished one in its own.
    if (m.rank == Rank::kJoker && p.rules().one_unfinished_wild_meld &&
        m.is_canasta(p.rules())) {
      ++k[kClasses + 3];
      continue;
    }
    const size_t at = kClasses + 3 * size_t(int(m.rank));
    k[at] = uint8_t(m.naturals);
    k[at + 1] = uint8_t(m.twos);
    k[at + 2] = uint8_t(m.jokers);
  }
  const int count = p.turn_initial_count();
  for (int b = 0; b < 4; ++b) k[k.size() - 5 + size_t(b)] = uint8_t((count >> (8 * b)) & 0xff);
  k.back() = uint8_t(step);
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (uint8_t x : k) h = (h ^ x) * 1099511628211ull;
  *hash = h;
  return k;
}

// Refusals of a discard that every discard of the turn gets alike while a
// card stays behind (the turn-end checks, the turn's order, red threes held).
// A binding yes excused when going out is impossible (002 L47) refuses a
// discard for the cards it leaves meldable, which depend on the discard.
bool TurnWide(const Rules& r, const TaggedViolations& v) {
  for (const TaggedViolation& t : v) {
    switch (t.violation.id) {
      case CheckId::kOutAnswerBinding:
        if (r.out_yes_excused_if_impossible) break;
        return true;
      case CheckId::kInitialMeldMinimum:
      case CheckId::kInitialMeldCondition:
      case CheckId::kMeldBlackThree:
      case CheckId::kThreeTiming:
      case CheckId::kTurnSequence:
      case CheckId::kTurnOrder:
        return true;
      default:
        break;
    }
  }
  return false;
}

// Whether a discard is legal now; with `ok`, which classes. Once a discard
// that keeps a card is refused for a turn-wide reason, so is every other.
bool Discards(const Position& p, int seat, const Counts& cnt, std::array<bool, kClasses>* ok) {
  // While the opening falls short, Check refuses every discard of the
  // player in turn (CheckTurnEnd): known without wording the refusal.
  if (p.phase() == Phase::kPlay && seat == p.current_player() && p.TurnEndOpeningShort())
    return false;
  const CardCounts& hand = p.hand(seat);
  bool any = false;
  for (int cls = 1; cls < kClasses; ++cls) {
    if (!cnt[cls]) continue;
    TaggedViolations v = p.Check(DiscardMove{seat, FirstOf(hand, cls), 0});
    if (v.empty()) {
      any = true;
      if (!ok) return true;
      (*ok)[size_t(cls)] = true;
    } else if (hand.total() >= 2 && TurnWide(p.rules(), v)) {
      break;
    }
  }
  return any;
}

// A bound on the initial-meld count the turn can reach from `step` on
// (hook values are points, never negative): every card of a later step
// that can meld at all (on the side's meld, or enough naturals for a new
// one, each new meld short of min_meld_size taking a wild card at least),
// and every wild card if any meld can take it.
int MostCount(const Position& p, int seat, const Counts& cnt, int step) {
  const Rules& r = p.rules();
  const RuleHooks& hooks = p.hooks();
  const CardCounts& hand = p.hand(seat);
  const int side = p.side_of(seat);
  const ClassFaces& f = Faces();
  auto value = [&](int k) {
    int v = 0;
    for (int i = 0; i < f.n[k]; ++i)
      if (int n = hand.count(f.faces[k][i])) v += n * hooks.InitialMeldValue(r, f.faces[k][i]);
    return v;
  };
  int most = p.turn_initial_count();
  bool any = r.wild_melds || !p.melds(side).empty();
  std::array<int, kClasses> needy{};
  int needy_n = 0;
  for (int k = kBlackThree + step; k <= 14; ++k) {
    const int c = cnt[k];
    if (c == 0) continue;
    if (SideMeld(p, side, Rank(k))) {
      most += value(k);
    } else if (c >= std::max(1, r.min_naturals)) {
      if (c >= r.min_meld_size) {
        most += value(k);
        any = true;
      } else {
        needy[size_t(needy_n++)] = value(k);
      }
    }
  }
  // Each new meld short of its size takes a wild card or more.
  const int wilds = cnt[kTwos] + cnt[kJokers];
  std::sort(needy.begin(), needy.begin() + needy_n, std::greater<int>());
  for (int i = 0; i < needy_n && i < wilds; ++i) {
    most += needy[size_t(i)];
    any = true;
  }
  if (any) most += value(kTwos) + value(kJokers);
  return most;
}

// Whether the turn's melds must still reach the minimum in sum, so that
// MostCount may cut the search: not after a take that judged the opening
// (initial_meld_before_pile), nor where a splash opens with no minimum.
bool CountBinds(const Position& p) {
  return p.turn_opening() && !p.turn_opening_judged() && !p.rules().splash_opens;
}

bool CanFinish(const Position& p, Search* s, int step = 0);
bool FromStep(const Position& p, Search* s, const Counts& cnt, int step);

// Lays out the red threes due (they come before anything else: 000 §7).
bool CanFinishAfterThrees(const Position& p, Search* s, int step) {
  ScratchCopy q(p);
  const int seat = q->current_player();
  for (int guard = 0; guard < 16; ++guard) {
    if (q->phase() == Phase::kOver) return true;
    std::vector<ThreeMove> due = DueThrees(*q, seat);
    if (due.empty()) break;
    q->Apply(due[0]);
  }
  return CanFinish(*q, s, step);
}

bool CanFinish(const Position& p, Search* s, int step) {
  if (p.phase() != Phase::kPlay) return s->Found();  // the turn (or the deal) is over
  const int seat = p.current_player();
  const CardCounts& hand = p.hand(seat);
  if (p.rules().LaidOutThreesIn(hand) > 0 && !DueThrees(p, seat).empty())
    return CanFinishAfterThrees(p, s, step);
  const Counts cnt = ClassCounts(hand);
  if (Discards(p, seat, cnt, nullptr)) return s->Found();
  return FromStep(p, s, cnt, step);
}

bool FromStep(const Position& p, Search* s, const Counts& cnt, int step) {
  const int seat = p.current_player();
  // Steps with no candidate at all are passed without a memo entry.
  const int wilds = cnt[kTwos] + cnt[kJokers];
  for (; step < kSteps; ++step) {
    if (step < kWildStep) {
      const int cls = kBlackThree + step;
      if (cnt[cls] > 0 || (wilds > 0 && SideMeld(p, p.side_of(seat), Rank(cls)))) break;
    } else if (wilds > 0 &&
               (step == kWildStep ? p.rules().wild_melds : p.rules().min_naturals <= 0)) {
      break;
    }
  }
  if (step >= kSteps) return false;
  uint64_t hash = 0;
  const Key key = KeyOf(p, seat, cnt, step, &hash);
  if (Search::Seen* x = s->Find(hash, key)) return x->ok && s->Found();
  if (++s->nodes > kSearchBudget) return false;
  const size_t at = s->Insert(hash, key);
  const int side = p.side_of(seat);
  // Bound to go out (a binding yes, or black threes laid, which only going
  // out allows: 000 §8, §17; neither where out_answer_binds is false or
  // black_three_meld is any_time): at most one card, the discard, may stay
  // behind, and natural cards of the steps passed can no longer be melded.
  const Rules& r = p.rules();
  // (Not where a yes that cannot be honoured is excused, 002 L47: the player
  // then melds what it can and discards.)
  if ((r.out_answer_binds && !r.out_yes_excused_if_impossible && p.turn_answer().value_or(false)) ||
      (r.black_three_meld != BlackThreeMeld::kAnyTime && SideMeld(p, side, Rank::kThree))) {
    int stuck = cnt[kRedThree];
    for (int k = kBlackThree; k < kBlackThree + step && k <= 14; ++k) stuck += cnt[k];
    if (stuck > 1) return false;
  }
  if (CountBinds(p) && p.turn_melded() && MostCount(p, seat, cnt, step) < p.Minimum(side))
    return false;
  ScratchMeld scratch;
  bool ok = ForEachMeldAt(p, seat, cnt, step, /*big_first=*/true, &scratch.meld(), [&](const MeldMove& m) {
    ScratchCopy q(p);
    q->Apply(m);
    s->path.push_back(PartSig(m.parts[0]));
    const bool done = CanFinish(*q, s, step + 1);
    s->path.pop_back();
    return done;
  });
  // Or nothing laid at this step (the same position, the discards judged).
  if (!ok) ok = FromStep(p, s, cnt, step + 1);
  s->seen[at].ok = ok;
  return ok;
}

// The opening's finish judged on card counts first. Most of the search's
// work is in opening turns, where a candidate is kept only if further melds
// can bring the count to the minimum and leave a card to discard. Before the
// search, a relaxation of it is solved on the hand's class counts: a plan of
// at most one part per class (as the search lays them), each passing
// ShapeMayPass (weaker than CheckMeldShape), that ends in one of the ways a
// turn may end (CheckTurnEnd, CheckMeld):
// - two cards or more left, one to discard, with the minimum reached;
// - one card left, whose discard goes out: the canastas to go out;
// - no card left, gone out by melding: the canastas to go out;
// black threes laid (in the plan or before) only with one of the last two
// (000 §8), never where black_three_meld is never (001 L48). The count is
// bounded above (each class at its rank's value, only the cards held
// before a take counting: 000 §13), so every finish the search accepts is
// such a plan, and no plan means no finish (exact). A plan found is played
// on a copy, each part through Check, and must end in a discard Check
// accepts or in going out: then it is a legal finish (exact too).
// Otherwise (the plan fails a rule the relaxation leaves out, or it is too
// large to solve) the search decides. Only where the relaxation is known to
// hold: no hook in the ruleset (a hook may allow what the engine refuses), no
// meld of wild cards alone or without naturals, no sequence, no foot, no red
// three in the hand.
enum class Quick { kNo, kYes, kUnknown };

// The relaxation's failed states, per thread, cleared by a new generation.
struct Memo {
  struct Slot {
    uint32_t key = ~0u;
    uint32_t gen = 0;
    int value = 0;
  };
  std::array<Slot, 4096> slots;
  uint32_t gen = 0;
  Slot& At(uint32_t key) { return slots[(key * 2654435761u) >> 20]; }
  static Memo& ForThread() {
    thread_local Memo memo;
    ++memo.gen;
    return memo;
  }
};
constexpr int kQuickBudget = 2000;  // relaxation nodes before the search decides

struct QuickPart {
  int cls, n, t, j;
};

// A plan's parts, at most one a class, held in place (a judge is made for
// every candidate judged: no allocation for its plan).
class QuickPlan {
 public:
  void push_back(const QuickPart& p) {
    CANASTA_DCHECK(n_ < kClasses);
    parts_[size_t(n_++)] = p;
  }
  void pop_back() { --n_; }
  void clear() { n_ = 0; }
  bool empty() const { return n_ == 0; }
  const QuickPart* begin() const { return parts_.data(); }
  const QuickPart* end() const { return parts_.data() + n_; }

 private:
  std::array<QuickPart, kClasses> parts_;
  int n_ = 0;
};

class QuickFinish {
 public:
  QuickFinish(const Position& q, const Counts& cnt)
      : q_(q), r_(q.rules()), cnt_(cnt), memo_(Memo::ForThread()), gen_(memo_.gen) {}

  Quick Judge(Search* s) {
    // The count binds only an opening whose end judges it; elsewhere no count
    // is needed (a looser bound, so still a relaxation).
    Setup(CountBinds(q_) && q_.turn_melded());
    if (!Dfs(kBlackThree, cnt_[kTwos], cnt_[kJokers], 0, 0, 0, base_[kBlackThree] != nullptr)) {
      return nodes_ > kQuickBudget ? Quick::kUnknown : Quick::kNo; }
    return Verify(s) ? Quick::kYes : Quick::kUnknown;
  }

  // Whether a finish of the turn begins with the meld part `m` (its parts[0]:
  // n naturals of class k, t twos and j jokers), judged on this position,
  // before it: exactly what Judge says on the position after it. There the
  // plan may lay more on class k, which makes one part with `m` of the same
  // final shape; the turn's count binds alike (CountBinds; laying `m`
  // melds), and what `m` counts with what the plan lays after it is what
  // their sum counts here: each class at its value, after a take up to the
  // cards of the class held before it (Gain: the sum of min(laid, room) over
  // the parts of a class is min(all laid, room), in any order; the generator
  // lays the counting faces first, FillCounting). So here the plan must lay
  // at least `m` on class k. Only where `m` leaves two cards or more; solved
  // once per position (Setup), its failed states past class k kept for the
  // next part (they do not depend on it).
  Quick JudgeFirst(const MeldMove& m, int k, int n, int t, int j, Search* s) {
    if (!set_up_) Setup(CountBinds(q_));
    set_up_ = true;
    nodes_ = 0;
    plan_.clear();
    forced_ = QuickPart{k, n, t, j};
    part_gen_ = ++memo_.gen;
    // The part is laid first: counted (each class up to what may count,
    // Gain) and its wild cards gone, as on the position after it.
    const int laid = Gain(k, 0, n) + Gain(kTwos, 0, t) + Gain(kJokers, 0, j);
    const bool ok = Dfs(kBlackThree, cnt_[kTwos] - t, cnt_[kJokers] - j, 0, laid, 0,
                        base_[kBlackThree] != nullptr || k == kBlackThree);
    forced_.cls = 0;
    if (!ok) return nodes_ > kQuickBudget ? Quick::kUnknown : Quick::kNo;
    return PlayPlan(&m, QuickPart{k, n, t, j}, s) ? Quick::kYes : Quick::kUnknown;
  }

  // Before any meld of the turn, where the count binds once one is laid and
  // falls short now: whether no plan reaches the minimum or goes out, so
  // that no meld can begin a finish of the turn (exact, as a kNo above: every
  // finish beginning with a meld is such a plan, its parts of one rank laid
  // as one). False where that is not shown.
  bool NoMeldFinishes() {
    if (!CountBinds(q_) || q_.turn_melded()) return false;
    Setup(true);
    if (need_ <= 0) return false;
    return !Dfs(kBlackThree, cnt_[kTwos], cnt_[kJokers], 0, 0, 0, base_[kBlackThree] != nullptr) &&
           nodes_ <= kQuickBudget;
  }

 private:
  void Setup(bool count_binds) {
    const int seat = q_.current_player();
    const int side = q_.side_of(seat);
    const RuleHooks& hooks = q_.hooks();
    const ClassFaces& f = Faces();
    cards_ = q_.hand(seat).total();
    need_ = count_binds ? q_.Minimum(side) - q_.turn_initial_count()
                        : std::numeric_limits<int>::min() / 2;
    const CardCounts* limit = q_.turn_count_limit();
    const Counts countable = limit ? ClassCounts(*limit) : Counts{};
    // With no hook, a card's count is its rank's (RuleHooks::InitialMeldValue):
    // one face stands for its class.
    for (int k = 0; k < kClasses; ++k) {
      value_[size_t(k)] = f.n[k] ? hooks.InitialMeldValue(r_, f.faces[k][0]) : 0;
      countable_[size_t(k)] = limit ? countable[size_t(k)] : cnt_[k];
    }
    threes_bound_ = r_.black_three_meld != BlackThreeMeld::kAnyTime;
    // A binding yes to "may I go out?" (000 §17; not where a yes that cannot
    // be honoured is excused, 002 L47).
    must_out_ = r_.out_answer_binds && !r_.out_yes_excused_if_impossible &&
                q_.turn_answer().value_or(false);
    told_no_ = r_.out_answer_binds && !q_.turn_answer().value_or(true);
    // Going out needs a canasta within reach (000 §17).
    bool reachable = false;
    base_ = SideMelds(q_, side);
    for (int k = kBlackThree; k <= 14; ++k) {
      const int size = base_[size_t(k)] ? base_[size_t(k)]->size() : 0;
      reachable |= size + cnt_[k] + cnt_[kTwos] + cnt_[kJokers] >= r_.canasta_size;
    }
    canastas_before_ = 0;
    for (const Meld& m : q_.melds(side)) canastas_before_ += m.is_canasta(r_);
    go_out_ = canastas_before_ >= r_.canastas_to_go_out || reachable;
    // The most the classes from k on can add to the count.
    rest_[15] = 0;
    for (int k = 14; k >= kBlackThree; --k)
      rest_[size_t(k)] = rest_[size_t(k + 1)] + Gain(k, 0, cnt_[k]);
    // The cards of the classes from k on that no meld can take: a class with
    // no meld of the side and fewer naturals than a new meld needs.
    stuck_[15] = 0;
    for (int k = 14; k >= kBlackThree; --k) {
      const bool never = k == kBlackThree && r_.black_three_meld == BlackThreeMeld::kNever;
      const bool stuck = never || (!base_[size_t(k)] && cnt_[k] < std::max(1, r_.min_naturals));
      stuck_[size_t(k)] = stuck_[size_t(k + 1)] + (stuck ? cnt_[k] : 0);
    }
  }

  // What `n` more cards of class k count when `had` of it are laid already.
  int Gain(int k, int had, int n) const {
    const int room = std::max(0, countable_[size_t(k)] - had);
    return value_[size_t(k)] * std::min(n, room);
  }

  // Whether the plan laid can end the turn, with `left` cards (2: two or more).
  bool Ends(int left, int value, int made, bool threes) const {
    // Going out ends the turn too, so the opening's count binds it alike
    // (CheckTurnEnd judges the opening whether or not the player goes out).
    const bool out_ok = go_out_ && !told_no_ && Canastas(made) >= r_.canastas_to_go_out &&
                        value >= need_;
    if (left == 0) return out_ok;
    if (left == 1 && r_.last_discard_goes_out) return out_ok;
    if (left >= 2 && ((threes && threes_bound_) || must_out_)) return false;
    return value >= need_;
  }

  // Whether a plan exists for the classes from k on, with t twos and j jokers
  // left, `kept` cards of the classes before k not laid (2: two or more),
  // `value` counted, `made` canastas made and black threes laid or not.
  bool Dfs(int k, int t, int j, int kept, int value, int made, bool threes) {
    if (++nodes_ > kQuickBudget) return false;
    if (k > 14) return Ends(std::min(kept + t + j, 2), value, made, threes);
    // A state that failed with this count or more fails again: the rest of
    // the plan does not depend on the count, and more count only helps.
    const uint32_t key = uint32_t(k) | uint32_t(std::min(t, 31)) << 4 |
                         uint32_t(std::min(j, 15)) << 9 | uint32_t(kept) << 13 |
                         uint32_t(std::min(made, 7)) << 15 | uint32_t(threes) << 18;
    // (JudgeFirst: the states past its part's class are the same for any
    // part, those up to it are the part's own.)
    const uint32_t gen = k <= forced_.cls ? part_gen_ : gen_;
    Memo::Slot& slot = memo_.At(key);
    if (slot.key == key && slot.gen == gen && slot.value >= value) return false;
    const bool ok = Explore(k, t, j, kept, value, made, threes);
    if (!ok && nodes_ <= kQuickBudget) slot = Memo::Slot{key, gen, value};
    return ok;
  }

  bool Explore(int k, int t, int j, int kept, int value, int made, bool threes) {
    const int ut = cnt_[kTwos] - t, uj = cnt_[kJokers] - j;
    // Every end of the turn needs the count.
    const bool reach = value + rest_[size_t(k)] + Gain(kTwos, ut, t) + Gain(kJokers, uj, j) >= need_;
    // Going out leaves at most one card, and cards no meld can take stay.
    const bool out_possible = reach && go_out_ && !told_no_ && kept + stuck_[size_t(k)] <= 1;
    // A discard that does not go out: no duty to go out.
    const bool discard_possible = reach && !must_out_ && !(threes && threes_bound_);
    if (!out_possible && !discard_possible) return false;
    const Meld* base = base_[size_t(k)];
    const int c = cnt_[k];
    const bool meldable = (c > 0 || base) && !(k == kBlackThree && r_.black_three_meld == BlackThreeMeld::kNever);
    if (k == forced_.cls) return ExploreForced(k, t, j, kept, value, made, threes, base);
    // Nothing laid is tried first where the count is reached (the smallest
    // plan), and for black threes (laid only to go out).
    const bool none_first = k == kBlackThree || value >= need_;
    if (none_first && Dfs(k + 1, t, j, std::min(kept + c, 2), value, made, threes)) return true;
    if (meldable) {
      for (int n = c; n >= (base ? 0 : 1); --n) {
        for (int a = t; a >= 0; --a) {
          for (int b = j; b >= 0; --b) {
            if (n + a + b == 0 || !ShapeMayPass(r_, base, Rank(k), n, a, b)) continue;
            const int size = (base ? base->size() : 0) + n + a + b;
            const int gain = Gain(k, 0, n) + Gain(kTwos, ut, a) + Gain(kJokers, uj, b);
            const bool was = base && base->is_canasta(r_);
            plan_.push_back({k, n, a, b});
            if (Dfs(k + 1, t - a, j - b, std::min(kept + c - n, 2), value + gain,
                    made + (size >= r_.canasta_size) - was, threes || k == kBlackThree))
              return true;
            plan_.pop_back();
            if (nodes_ > kQuickBudget) return false;
          }
        }
      }
    }
    return !none_first && Dfs(k + 1, t, j, std::min(kept + c, 2), value, made, threes);
  }

  // JudgeFirst's class: its part is laid already (counted from the start,
  // its wild cards gone, as on the position after it), and more of the
  // class may join it, as Explore would add to it there: nothing added
  // first where the count is reached, else the most first.
  [[gnu::noinline]] bool ExploreForced(int k, int t, int j, int kept, int value, int made,
                                       bool threes, const Meld* base) {
    const int ut = cnt_[kTwos] - t, uj = cnt_[kJokers] - j;
    const int c = cnt_[k];
    const QuickPart& f = forced_;
    const bool was = base && base->is_canasta(r_);
    auto add = [&](int n, int a, int b) {
      const int N = f.n + n, T = f.t + a, J = f.j + b;
      if (!ShapeMayPass(r_, base, Rank(k), N, T, J)) return false;
      const int size = (base ? base->size() : 0) + N + T + J;
      const int gain = Gain(k, f.n, n) + Gain(kTwos, ut, a) + Gain(kJokers, uj, b);
      plan_.push_back({k, N, T, J});
      if (Dfs(k + 1, t - a, j - b, std::min(kept + c - N, 2), value + gain,
              made + (size >= r_.canasta_size) - was, threes || k == kBlackThree))
        return true;
      plan_.pop_back();
      return false;
    };
    const bool none_first = k == kBlackThree || value >= need_;
    if (none_first && add(0, 0, 0)) return true;
    for (int n = c - f.n; n >= 0; --n) {
      for (int a = t; a >= 0; --a) {
        for (int b = j; b >= 0; --b) {
          if (n + a + b == 0) continue;
          if (add(n, a, b)) return true;
          if (nodes_ > kQuickBudget) return false;
        }
      }
    }
    return !none_first && add(0, 0, 0);
  }

  // The side's canastas when the plan is laid.
  int Canastas(int made) const { return canastas_before_ + made; }

  // Plays the plan on a copy, each part through Check, in the search's order.
  bool Verify(Search* s) {
    const int seat = q_.current_player();
    if (plan_.empty()) {  // the discard alone
      if (!Discards(q_, seat, cnt_, nullptr)) return false;
      s->path.clear();
      s->Found();
      return true;
    }
    return PlayPlan(nullptr, QuickPart{0, 0, 0, 0}, s);
  }

  // The plan played on a copy, after `first_move` (if any), less `first` on
  // its class, each part through Check; then a discard Check accepts, or
  // the hand gone out.
  bool PlayPlan(const MeldMove* first_move, const QuickPart& first, Search* s) {
    const int seat = q_.current_player();
    ScratchCopy v(q_);
    if (first_move) v->Apply(*first_move);  // Check accepted it (the generator asks first)
    ScratchMeld pooled;
    MeldMove& m = pooled.meld();
    m.player = seat;
    m.tag = 0;
    MeldPart& part = OnePart(&m);
    s->path.clear();
    for (QuickPart p : plan_) {
      if (p.cls == first.cls) {
        p.n -= first.n;
        p.t -= first.t;
        p.j -= first.j;
        if (p.n + p.t + p.j == 0) continue;
      }
      part.to = SideMeld(*v, v->side_of(seat), Rank(p.cls)) ? std::optional<Rank>(Rank(p.cls))
                                                             : std::nullopt;
      part.as = std::nullopt;
      FillCounting(v->hand(seat), v->turn_count_limit(), p.cls, p.n, p.t, p.j, &part.cards);
      // Checked and laid at once (Play hands the check's verdicts to the apply).
      if (!v->Play(m).empty()) return false;
      s->path.push_back(PartSig(part));
    }
    const bool done = v->phase() != Phase::kPlay ||
                      Discards(*v, seat, ClassCounts(v->hand(seat)), nullptr);
    if (done) s->Found();
    s->path.clear();
    return done;
  }

  const Position& q_;
  const Rules& r_;
  const Counts& cnt_;
  QuickPart forced_{0, 0, 0, 0};  // JudgeFirst's part (class 0: none)
  bool set_up_ = false;
  int cards_ = 0, need_ = 0, nodes_ = 0, canastas_before_ = 0;
  bool go_out_ = false, threes_bound_ = false, must_out_ = false, told_no_ = false;
  std::array<int, kClasses> value_{}, countable_{};
  RankMelds base_{};
  std::array<int, 16> rest_{}, stuck_{};
  QuickPlan plan_;
  Memo& memo_;
  const uint32_t gen_;     // this judge's generation of the memo
  uint32_t part_gen_ = 0;  // JudgeFirst's, for the states up to its part's class
};

// Whether the relaxation above holds for the position a candidate leads to.
bool QuickApplies(const Position& q, const Counts& cnt) {
  const Rules& r = q.rules();
  return q.phase() == Phase::kPlay && !q.hooks().OverridesAny() && !r.wild_melds && r.min_naturals > 0 &&
         !r.sequence_melds && !r.feet() && cnt[kRedThree] == 0;
}

// The finish after `m`: judged on counts where the relaxation holds and
// decides, else by the search.
template <class M>
bool FinishableAfter(const Position& pos, const M& m, Search* s) {
  ScratchCopy q(pos);
  q->Apply(m);
  // Red threes taken with the pile are laid out first (000 §7), as the
  // search does (CanFinishAfterThrees).
  const int seat = q->current_player();
  for (int guard = 0; guard < 16 && q->phase() == Phase::kPlay &&
                      q->rules().LaidOutThreesIn(q->hand(seat)) > 0;
       ++guard) {
    std::vector<ThreeMove> due = DueThrees(*q, seat);
    if (due.empty()) break;
    q->Apply(due[0]);
  }
  if (q->phase() == Phase::kPlay) {
    const Counts cnt = ClassCounts(q->hand(q->current_player()));
    if (QuickApplies(*q, cnt)) {
      const Quick quick = QuickFinish(*q, cnt).Judge(s);
      if (quick != Quick::kUnknown) return quick == Quick::kYes;
    }
  }
  return CanFinish(*q, s);
}

void AppendCounts(const std::vector<Card>& cards, std::string* out) {
  Counts n{};
  for (Card c : cards) ++n[CardClass(c)];
  static const int kOrder[] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2, 15, 1};
  bool any = false;
  for (int cls : kOrder) {
    if (!n[cls]) continue;
    if (any) *out += ' ';
    any = true;
    *out += cls == 1 ? "r3" : cls == 3 ? "b3" : ToString(Rank(cls));
    *out += 'x';
    *out += std::to_string(n[cls]);
  }
}

// How the generator hands over its candidates: each move with the test that
// decides whether it is legal (Check, then a finish of the turn). Offer
// returns true to stop the generation. LegalMoves judges every candidate in
// order (CollectSink); SampleLegalMove counts them (CountSink) and judges only
// the one it draws (PickSink). So the moves a sampler may draw are exactly
// those LegalMoves lists: one generator, one test per candidate.
// A candidate is handed over built or as a callable that builds it (the
// sink builds only those it looks at, always before judging them).
template <class X>
decltype(auto) Built(X& x) {
  if constexpr (std::is_invocable_v<X&>)
    return x();
  else
    return static_cast<const X&>(x);
}

// What SampleLegalMove's count learns of the play phase, for its picks on
// the same position: the hand's classes, whether no meld is offered
// (`hopeless`, judged once), how many each step offers, so that a pick
// passes over the steps before the one it wants without enumerating them,
// and whether the question may be asked.
struct PassMemo {
  bool known = false;  // the fields below are filled
  Counts cnt{};        // the hand's classes
  bool hopeless = false;
  bool ask_clean = false;  // Check accepts "may I go out?"
  RankMelds melds{};       // SideMelds of the player's side
  std::array<uint16_t, kSteps> step_offered{};
};

// Every sink answers memo() (nullptr: none kept) and Skip(k): whether the
// next k candidates may be passed over unseen (then counted as offered).
class CollectSink {
 public:
  explicit CollectSink(std::vector<Move>* out) : out_(out) {}
  PassMemo* memo() const { return nullptr; }
  bool Skip(size_t) { return false; }
  template <class X, class T>
  bool Offer(X&& x, T&& legal) {
    ++offered_;
    const auto& m = Built(x);
    if (legal()) out_->push_back(m);
    return false;
  }
  bool done() const { return false; }
  size_t offered() const { return offered_; }

 private:
  std::vector<Move>* out_;
  size_t offered_ = 0;
};

class CountSink {
 public:
  explicit CountSink(PassMemo* memo = nullptr) : memo_(memo) {}
  PassMemo* memo() const { return memo_; }
  bool Skip(size_t) { return false; }
  template <class X, class T>
  bool Offer(X&& x, T&&) {
    using M = std::decay_t<decltype(Built(x))>;
    constexpr bool kForced = std::is_same_v<M, ThreeMove> || std::is_same_v<M, FootMove>;
    if (offered_ == 0) {
      forced_ = kForced;
      special_ = std::is_same_v<M, SpecialHandMove>;
    } else if (offered_ == 1) {
      then_forced_ = kForced;
    }
    ++offered_;
    return false;
  }
  bool done() const { return false; }
  size_t offered() const { return offered_; }
  // k meld candidates counted without being offered (CountMeldsAt): they
  // are neither forced nor special, which the flags say by default.
  void Add(size_t k) { offered_ += k; }
  // Whether the first candidate is a red three or the foot (always legal).
  bool forced() const { return forced_; }
  // Whether a special hand comes first, with a red three after it.
  bool special_then_forced() const { return special_ && then_forced_; }

 private:
  PassMemo* memo_;
  size_t offered_ = 0;
  bool forced_ = false, special_ = false, then_forced_ = false;
};

class PickSink {
 public:
  PickSink(size_t want, Move* out, PassMemo* memo = nullptr)
      : want_(want), out_(out), memo_(memo) {}
  PassMemo* memo() const { return memo_; }
  bool Skip(size_t k) {
    if (offered_ + k > want_) return false;
    offered_ += k;
    return true;
  }
  template <class X, class T>
  bool Offer(X&& x, T&& legal) {
    if (offered_++ != want_) return false;
    const auto& m = Built(x);
    legal_ = legal();
    if (legal_) *out_ = m;
    return true;
  }
  bool done() const { return offered_ > want_; }
  size_t offered() const { return offered_; }
  bool legal() const { return legal_; }

 private:
  size_t want_, offered_ = 0;
  Move* out_;
  PassMemo* memo_;
  bool legal_ = false;
};

// BestLegalMove's one pass: every candidate built and scored; judged only
// while it may still win (its score within the draws of the best legal score
// so far), and kept, with its score, when legal. Where LegalMoves starts
// with a red three or the foot (first, or after a refused special hand, as
// SampleLegalMove), that move, and the generation stops.
class BestSink {
 public:
  // The legal candidates go into (*kept)[0 .. *kept_n).
  BestSink(const std::function<double(const Move&)>& score, double most,
           std::vector<std::pair<double, Move>>* kept, size_t* kept_n, Move* forced)
      : score_(score), most_(most), kept_(kept), kept_n_(kept_n), forced_(forced) {}
  PassMemo* memo() const { return nullptr; }
  bool Skip(size_t) { return false; }
  template <class X, class T>
  bool Offer(X&& x, T&& legal) {
    using M = std::decay_t<decltype(Built(x))>;
    const size_t i = offered_++;
    if constexpr (std::is_same_v<M, ThreeMove> || std::is_same_v<M, FootMove>) {
      if (i == 0 || (i == 1 && special_refused_)) {
        *forced_ = Built(x);
        took_forced_ = true;
        return true;
      }
    }
    // A candidate built as a Move is read in place; any other is assigned
    // into one scratch move, which keeps its storage.
    const Move* move;
    if constexpr (std::is_same_v<M, Move>) {
      move = &Built(x);
    } else {
      thread_local Move scratch;
      scratch = Built(x);
      move = &scratch;
    }
    const double s = score_(*move);
    if (found_ && !(s + most_ >= best_)) return false;  // cannot reach the best
    const bool ok = legal();
    if constexpr (std::is_same_v<M, SpecialHandMove>) special_refused_ |= i == 0 && !ok;
    if (!ok) return false;
    if (!found_ || s > best_) best_ = s;
    found_ = true;
    // Into the slots of earlier calls first: their moves keep their storage.
    if (*kept_n_ < kept_->size()) {
      (*kept_)[*kept_n_].first = s;
      (*kept_)[*kept_n_].second = *move;
    } else {
      kept_->emplace_back(s, *move);
    }
    ++*kept_n_;
    return false;
  }
  bool done() const { return took_forced_; }
  size_t offered() const { return offered_; }
  bool took_forced() const { return took_forced_; }
  bool found() const { return found_; }
  double best() const { return best_; }

 private:
  const std::function<double(const Move&)>& score_;
  const double most_;
  std::vector<std::pair<double, Move>>* kept_;
  size_t* kept_n_;
  Move* forced_;
  size_t offered_ = 0;
  bool special_refused_ = false, took_forced_ = false, found_ = false;
  double best_ = 0;
};

template <class Sink>
void SequenceMoves(const Position& pos, Sink& sink);

// The play phase: melds, "may I go out?", discards.
template <class Sink>
void PlayMoves(const Position& pos, Sink& sink) {
  const int seat = pos.current_player();
  const Rules& r = pos.rules();
  const CardCounts& hand = pos.hand(seat);
  PassMemo* memo = sink.memo();
  const bool recall = memo && memo->known;
  const Counts cnt = recall ? memo->cnt : ClassCounts(hand);
  // A question is waiting for the partner's answer: only answers.
  if (r.partnerships()) {
    const int partner = (seat + 2) % r.num_players;
    if (pos.question_waiting() && Clean(pos, AnswerMove{partner, true, 0})) {
      for (bool yes : {true, false}) {
        const AnswerMove a{partner, yes, 0};
        if (sink.Offer(a, [&] {
              Search s;
              return FinishableAfter(pos, a, &s);
            }))
          return;
      }
      return;
    }
  }
  // Whether the discard of a class is legal, judged once when first needed,
  // as Discards judges it: while the opening falls short none is; once one
  // that keeps a card is refused for a turn-wide reason, so is every other.
  std::array<int8_t, kClasses> discard_ok;
  discard_ok.fill(-1);
  bool none_judged = false, none_legal = false;
  auto discard_legal = [&](int cls) {
    int8_t& ok = discard_ok[size_t(cls)];
    if (ok < 0) {
      if (!none_judged) none_legal = pos.TurnEndOpeningShort();
      none_judged = true;
      TaggedViolations v;
      if (!none_legal) v = pos.Check(DiscardMove{seat, FirstOf(hand, cls), 0});
      ok = !none_legal && v.empty();
      if (!ok && hand.total() >= 2 && TurnWide(r, v)) none_legal = true;
    }
    return ok == 1;
  };

  // The candidates are built in a Move, so that a sink that wants one (to
  // score or keep it) reads it in place instead of copying it into one.
  ScratchMeld pooled;
  const Move& scratch_move = *pooled;
  MeldMove& scratch = pooled.meld();
  std::vector<uint32_t> good;
  const bool opening = pos.turn_opening();
  // No meld while the initial meld cannot reach the minimum (exact: the
  // bound is reached by no sequence of melds).
  // Nor where the relaxation of the finish shows that no plan of melds can
  // reach it (QuickFinish::NoMeldFinishes): judged once for every candidate.
  const bool hopeless =
      recall ? memo->hopeless
             : CountBinds(pos) &&
                   (MostCount(pos, seat, cnt, 0) < pos.Minimum(pos.side_of(seat)) ||
                    (!pos.turn_melded() && QuickApplies(pos, cnt) &&
                     QuickFinish(pos, cnt).NoMeldFinishes()));
  // The finish after a meld judged on this position (QuickFinish::JudgeFirst),
  // not on a copy with the meld laid.
  const bool first_judge_applies = QuickApplies(pos, cnt);
  std::optional<QuickFinish> first_judge;
  auto offer = [&](auto& make) {
      auto make_move = [&]() -> const Move& {
        make();
        return scratch_move;
      };
      return sink.Offer(make_move, [&] {
        const MeldMove& m = scratch;
        if (!Clean(pos, m)) return false;
        // Without the copy where a discard plainly remains: the side has
        // opened before this turn, no black three is laid, and a card whose
        // discard is legal now stays behind with another (so that it does not
        // go out).
        const MeldPart& part = m.parts[0];
        Counts after = cnt;
        for (Card c : part.cards) --after[CardClass(c)];
        bool easy = !opening && hand.total() - int(part.cards.size()) >= 2 &&
                    after[kBlackThree] == cnt[kBlackThree];
        if (easy) {
          easy = false;
          for (int cls = 1; cls < kClasses && !easy; ++cls)
            easy = after[cls] > 0 && discard_legal(cls);
        }
        // A part of a finish found for an earlier candidate is one too: the
        // order of the parts changes no check (see Search). Except a new meld
        // of wild cards alone under one_unfinished_wild_meld (001 L63): laid
        // first, it bars the wild cards the finish gave the other melds. Nor
        // after taking the pile in the opening: only cards held before the
        // take count (000 §13), and which faces of a class a part takes, so
        // what it counts, depends on the parts laid before it (FillCounting).
        const uint32_t sig = PartSig(part);
        const bool order_matters = (r.one_unfinished_wild_meld && !part.to &&
                                    MeldRank(part.cards, part.as) == Rank::kJoker) ||
                                   pos.turn_count_limit() != nullptr;
        if (!easy && !order_matters)
          easy = std::find(good.begin(), good.end(), sig) != good.end();
        if (!easy) {
          Search search;
          Quick quick = Quick::kUnknown;
          if (first_judge_applies && hand.total() - int(part.cards.size()) >= 2) {
            if (!first_judge) first_judge.emplace(pos, cnt);
            int n = 0, t = 0, j = 0;
            for (Card c : part.cards) c.is_joker() ? ++j : c.rank() == Rank::kTwo ? ++t : ++n;
            const std::optional<Rank> rank = MeldRank(part.cards, part.to ? part.to : part.as);
            if (rank) quick = first_judge->JudgeFirst(m, int(*rank), n, t, j, &search);
          }
          easy = quick == Quick::kUnknown ? FinishableAfter(pos, m, &search) : quick == Quick::kYes;
          if (easy) {
            good.push_back(sig);
            good.insert(good.end(), search.found.begin(), search.found.end());
          }
        }
        return easy;
      });
  };
  // Step by step (ForEachMeldAt), each step's candidates counted for a later
  // pass or passed over as a whole when the memo counted them.
  RankMelds own_melds;
  const RankMelds* melds = nullptr;
  if (!hopeless) {
    if (!recall) {
      own_melds = SideMelds(pos, pos.side_of(seat));
      if (memo) memo->melds = own_melds;
    }
    melds = recall ? &memo->melds : &own_melds;
  }
  for (int step = 0; step < kSteps && !hopeless; ++step) {
    if (recall && sink.Skip(memo->step_offered[size_t(step)])) continue;
    const size_t before = sink.offered();
    if constexpr (std::is_same_v<Sink, CountSink>) {
      if (const int k = CountMeldsAt(pos, *melds, cnt, step); k >= 0) {
        sink.Add(size_t(k));
        if (memo) memo->step_offered[size_t(step)] = uint16_t(k);
        continue;
      }
    }
    if (ForEachMeldAt<true>(pos, seat, cnt, step, false, &scratch, offer, melds)) return;
    if (memo && !recall) memo->step_offered[size_t(step)] = uint16_t(sink.offered() - before);
  }
  if (memo && !recall) {
    memo->cnt = cnt;
    memo->hopeless = hopeless;
    memo->known = true;
  }
  if (sink.done()) return;
  // "May I go out?" (000 §17): once a turn; whether after melding too is the
  // ruleset's (ask_out_after_melding), so Check decides.
  // (The refusal after melding or taking is known without wording it.)
  const bool ask_refused = pos.turn_took_pile_or_melded() && !r.ask_out_after_melding;
  bool may_ask = r.partnerships() && !pos.turn_answer() && !ask_refused;
  if (may_ask && recall) {
    may_ask = memo->ask_clean;
  } else if (may_ask) {
    may_ask = Clean(pos, AskOutMove{seat, 0});
    if (memo) memo->ask_clean = may_ask;
  }
  if (may_ask) {
    const bool stop = sink.Offer(AskOutMove{seat, 0}, [&] {
      // The answer no forbids only going out: a discard legal now that keeps
      // a card stays legal after it.
      bool any = false;
      for (int cls = 1; cls < kClasses && hand.total() >= 2 && !any; ++cls)
        any = cnt[cls] > 0 && discard_legal(cls);
      if (!any) {
        ScratchCopy asked(pos);
        asked->Apply(AskOutMove{seat, 0});
        for (bool yes : {false, true}) {
          if (any) break;
          Search s;
          any = FinishableAfter(*asked, AnswerMove{(seat + 2) % r.num_players, yes, 0}, &s);
        }
      }
      return any;
    });
    if (stop) return;
  }
  SequenceMoves(pos, sink);
  if (sink.done()) return;
  DiscardMove discard{seat, Card(), 0};
  for (int cls = 1; cls < kClasses; ++cls) {
    if (cnt[cls] == 0) continue;
    auto make = [&]() -> const DiscardMove& {
      discard.card = FirstOf(hand, cls);
      return discard;
    };
    if (sink.Offer(make, [&] { return discard_legal(cls); })) return;
  }
}

// Sequences (002 L67, L75; readings R115), generated apart from the rank
// melds because their suit matters: every new sequence the hand can lay, a
// window of consecutive places of the rank order in one suit whose missing
// places the hand's wild cards fill (up to sequence_max_wilds; twos before
// jokers), and every extension of each of the side's sequences at either
// end. Each is offered when Check accepts it and the turn can still finish.
template <class Sink>
void SequenceMoves(const Position& pos, Sink& sink) {
  const Rules& r = pos.rules();
  if (!r.sequence_melds) return;
  const int seat = pos.current_player();
  const int side = pos.side_of(seat);
  const CardCounts& hand = pos.hand(seat);
  const Counts cnt = ClassCounts(hand);
  const int wild_room = std::min(r.sequence_max_wilds, cnt[kTwos] + cnt[kJokers]);
  // The rank at a place of the order: the ace below sequence_lowest or above the king.
  auto rank_at = [&](int pip) { return pip == 14 || pip == r.sequence_lowest - 1 ? Rank::kAce : Rank(pip); };
  const int order_low = r.sequence_ace == SequenceAce::kHigh ? r.sequence_lowest : r.sequence_lowest - 1;
  const int order_high = r.sequence_ace == SequenceAce::kLow ? 13 : 14;
  std::vector<std::string> seen;
  // Returns true to stop.
  auto offer = [&](const MeldMove& m) {
    std::string key = PlayKey(m);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return false;
    seen.push_back(key);
    return sink.Offer(m, [&] {
      Search search;
      return Clean(pos, m) && FinishableAfter(pos, m, &search);
    });
  };
  // Cards for places lo..hi of `suit`, or false when more wild cards are needed than the hand may give.
  auto fill = [&](Suit suit, int lo, int hi, std::vector<Card>* cards) {
    cards->clear();
    int wilds = 0;
    for (int pip = lo; pip <= hi; ++pip) {
      const Card c(rank_at(pip), suit);
      if (hand.count(c) > 0) cards->push_back(c);
      else ++wilds;
    }
    if (wilds > wild_room || cards->empty()) return false;
    AppendClass(hand, kTwos, std::min(wilds, cnt[kTwos]), cards);
    AppendClass(hand, kJokers, wilds - std::min(wilds, cnt[kTwos]), cards);
    return true;
  };
  MeldMove m;
  m.player = seat;
  m.parts.resize(1);
  for (Suit suit : {Suit::kSpades, Suit::kHearts, Suit::kDiamonds, Suit::kClubs}) {
    for (int lo = order_low; lo <= order_high; ++lo) {
      // With the ace at both ends allowed, an order starting at the low ace
      // ends at the king.
      const int top = lo == r.sequence_lowest - 1 ? 13 : order_high;
      for (int hi = lo + r.sequence_min_length - 1; hi <= top; ++hi) {
        if (r.sequence_max_length > 0 && hi - lo + 1 > r.sequence_max_length) break;
        MeldPart& part = m.parts[0];
        part = MeldPart{};
        part.sequence = true;
        if (!fill(suit, lo, hi, &part.cards)) continue;
        if (offer(m)) return;
      }
    }
  }
  for (const Meld& seq : pos.melds(side)) {
    if (!seq.sequence() || seq.cards.empty() || seq.id.empty()) continue;
    int low = 0, high = 0;
    if (!SequenceSpan(r, seq.cards, &low, &high)) continue;
    const Suit suit = SequenceSuit(seq.cards);
    const int top = low == r.sequence_lowest - 1 ? 13 : order_high;
    for (int k = 1; low - k >= order_low || high + k <= top; ++k) {
      for (bool below : {true, false}) {
        const int lo = below ? low - k : high + 1, hi = below ? low - 1 : high + k;
        if (lo < order_low || hi > top) continue;
        MeldPart& part = m.parts[0];
        part = MeldPart{};
        part.to_id = seq.id;
        if (!fill(suit, lo, hi, &part.cards)) continue;
        if (offer(m)) return;
      }
    }
  }
}

// initial_meld_before_pile (001 L42): a few initial melds the hand can lay
// before taking the pile with `with`, each checked with the take by Check
// (a sample, not every way: the take is legal whatever the plan).
std::vector<std::vector<MeldPart>> BeforePlans(const Position& pos, int seat,
                                               const std::vector<Card>& with) {
  const Rules& r = pos.rules();
  CardCounts left = pos.hand(seat);
  for (Card c : with) left.Remove(c);
  const RankGroups g = GroupByRank(left);
  auto value = [&](const std::vector<Card>& cards) {
    int v = 0;
    for (Card c : cards) v += pos.hooks().InitialMeldValue(r, c);
    return v;
  };
  std::vector<MeldPart> naturals, pairs;
  for (Rank rank : kMeldRanks) {
    const std::vector<Card>& n = g.naturals[int(rank)];
    MeldPart part;
    part.cards = n;
    if (int(n.size()) >= std::max(r.min_meld_size, r.min_naturals)) naturals.push_back(part);
    else if (!n.empty() && int(n.size()) >= r.min_naturals) pairs.push_back(part);
  }
  auto by_value = [&](const MeldPart& a, const MeldPart& b) {
    return value(a.cards) > value(b.cards);
  };
  std::sort(naturals.begin(), naturals.end(), by_value);
  std::sort(pairs.begin(), pairs.end(), by_value);
  std::vector<std::vector<MeldPart>> plans;
  // Every natural meld; the fewest that reach the minimum; with short melds
  // made up by wild cards; with a meld of the wild cards.
  plans.push_back(naturals);
  std::vector<MeldPart> fewest;
  int count = 0;
  for (const MeldPart& part : naturals) {
    if (count >= pos.Minimum(pos.side_of(seat))) break;
    fewest.push_back(part);
    count += value(part.cards);
  }
  if (fewest.size() < naturals.size()) plans.push_back(fewest);
  std::vector<MeldPart> filled = naturals;
  size_t wild = 0;
  for (MeldPart part : pairs) {
    while (int(part.cards.size()) < r.min_meld_size && wild < g.wilds.size())
      part.cards.push_back(g.wilds[wild++]);
    if (int(part.cards.size()) >= r.min_meld_size) filled.push_back(part);
  }
  if (filled.size() > naturals.size()) plans.push_back(filled);
  if (r.wild_melds && int(g.wilds.size()) >= r.min_meld_size) {
    std::vector<MeldPart> with_wild = naturals;
    MeldPart part;
    part.cards = g.wilds;
    with_wild.push_back(part);
    plans.push_back(with_wild);
  }
  plans.erase(std::remove_if(plans.begin(), plans.end(),
                             [](const std::vector<MeldPart>& p) { return p.empty(); }),
              plans.end());
  return plans;
}

// The draw phase: the draw, then every way to take the pile.
template <class Sink>
void DrawMoves(const Position& pos, Sink& sink) {
  const Rules& r = pos.rules();
  const int seat = pos.current_player();
  const int side = pos.side_of(seat);
  if (r.partnerships()) {
    // A question asked before the draw (a recorded game may hold one).
    const int partner = (seat + 2) % r.num_players;
    if (pos.question_waiting() && Clean(pos, AnswerMove{partner, true, 0})) {
      if (!sink.Offer(AnswerMove{partner, true, 0}, [] { return true; }))
        sink.Offer(AnswerMove{partner, false, 0}, [] { return true; });
      return;
    }
  }
  if (pos.stock_size() > 0) {
    DrawMove d{seat, {}, 0};
    auto make = [&]() -> const DrawMove& {
      d.cards = pos.StockTop(std::min(r.stock_draw, pos.stock_size()));
      return d;
    };
    if (sink.Offer(make, [&] { return Clean(pos, d); })) return;
  }
  if (pos.pile().empty()) return;
  const Card top = pos.pile().back();
  // A ruleset's may_take_pile may allow what the engine refuses: then every
  // candidate goes to Check.
  const bool hook = pos.hooks().Overrides(HookId::kMayTakePile);
  // Never taken (000 §14): Check refuses these for every `with`.
  if (!hook && ((top.is_wild() && r.wild_top_blocks_take) ||
                (top.is_black_three() && r.black_three_blocks_until_covered)))
    return;
  const CardCounts& hand = pos.hand(seat);
  const Counts cnt = ClassCounts(hand);
  const int cls = CardClass(top);
  const bool frozen = pos.IsPileFrozenFor(side);
  const bool pair_needed =
      !hook && (frozen || r.unfrozen_take == UnfrozenTake::kTwoNaturalsFromHand ||
                r.unfrozen_take == UnfrozenTake::kNaturalPair);
  TakePileMove t{seat, top, {}, {}, {}, 0};
  auto take_legal = [&] {
    Search search;
    return Clean(pos, t) && FinishableAfter(pos, t, &search);
  };
  // The initial meld is laid from the hand with the take (001 L42).
  const bool before = r.initial_meld_before_pile && !pos.has_melded(side);
  // The classes of naturals shown with the top card: its own; for a wild top
  // card (when it does not block) any rank it may join.
  const int first = top.is_wild() ? kBlackThree : cls;
  const int last = top.is_wild() ? 14 : cls;
  for (bool to_hand : {false, true}) {
    if (to_hand && !r.pile_top_to_hand) break;
    t.to_hand = to_hand;
    for (int k = first; k <= last; ++k) {
      const Meld* meld = SideMeld(pos, side, Rank(k));
      for (int n = top.is_wild() ? 1 : 0; n <= cnt[k]; ++n) {
        if (n < 2 && pair_needed) continue;  // Check's first refusal (000 §13, §14; 002 Play-4)
        for (int w2 = 0; w2 <= cnt[kTwos]; ++w2) {
          for (int jk = 0; jk <= cnt[kJokers]; ++jk) {
            auto make = [&, k, n, w2, jk]() -> const TakePileMove& {
              FillPart(hand, k, n, w2, jk, &t.with);
              t.to = t.with.empty() && !to_hand ? std::optional<Rank>(top.rank()) : std::nullopt;
              return t;
            };
            if (before) {
              make();
              for (std::vector<MeldPart>& plan : BeforePlans(pos, seat, t.with)) {
                t.before = std::move(plan);
                if (sink.Offer(t, take_legal)) return;
              }
              t.before.clear();
              continue;
            }
            if (sink.Offer(make, take_legal)) return;
          }
        }
      }
      if (top.is_wild() && meld && !pair_needed) {
        // A wild top card alone onto the side's meld of this rank.
        t.with.clear();
        t.to = Rank(k);
        if (sink.Offer(t, take_legal)) return;
      }
    }
  }
}

// A special hand (001 L65-L71): the whole hand, when it makes one of the
// ruleset's and Check accepts it (after the stock draw, the side not
// melded). SpecialHandOf first: the one shape check, and cheap.
template <class Sink>
void SpecialHandMoves(const Position& pos, Sink& sink) {
  const int seat = pos.current_player();
  const CardCounts& hand = pos.hand(seat);
  if (!pos.rules().special_hands() || pos.phase() != Phase::kPlay ||
      hand.total() != kSpecialHandCards || pos.has_melded(pos.side_of(seat)) ||
      !SpecialHandOf(pos.rules(), hand))
    return;
  // A question waiting for the partner's answer comes first.
  const int n = pos.num_players();
  if (pos.rules().partnerships() && pos.question_waiting() &&
      Clean(pos, AnswerMove{(seat + 2) % n, true, 0}))
    return;
  const SpecialHandMove m{seat, hand.ToVector(), 0};
  sink.Offer(m, [&] { return Clean(pos, m); });
}

}  // namespace

std::string PlayKey(const Move& move) {
  return std::visit(
      [](const auto& m) -> std::string {
        using T = std::decay_t<decltype(m)>;
        std::string s;
        const std::string p = std::to_string(m.player);
        if constexpr (std::is_same_v<T, DrawMove>) {
          s = "draw " + p;
        } else if constexpr (std::is_same_v<T, TakePileMove>) {
          s = "take " + p + ":";
          if (m.with.empty())
            s += m.top.is_wild() && m.to ? " onto " + ToString(*m.to) : std::string(" onto");
          else
            s += " ", AppendCounts(m.with, &s);
          if (m.to_hand) s += " to hand";
          for (const MeldPart& part : m.before) {
            s += " after ";
            AppendCounts(part.cards, &s);
            s += ';';
          }
        } else if constexpr (std::is_same_v<T, MeldMove>) {
          s = "meld " + p;
          for (const MeldPart& part : m.parts) {
            if (part.sequence || !part.to_id.empty()) {
              // A sequence's suit and ranks matter (002 L67): its cards by name.
              s += " sequence " + part.to_id + ": " + ToString(part.cards) + ';';
              continue;
            }
            std::optional<Rank> rank = MeldRank(part.cards, part.to ? part.to : part.as);
            s += rank ? " " + ToString(*rank) + ": " : std::string(" mixed: ");
            AppendCounts(part.cards, &s);
            s += ';';
          }
        } else if constexpr (std::is_same_v<T, DiscardMove>) {
          s = "discard " + p + ": ";
          AppendCounts({m.card}, &s);
        } else if constexpr (std::is_same_v<T, ThreeMove>) {
          s = "three " + p + ": " + ToString(m.card) +
              (m.replacement ? " for " + ToString(*m.replacement) : std::string());
        } else if constexpr (std::is_same_v<T, AskOutMove>) {
          s = "ask " + p;
        } else if constexpr (std::is_same_v<T, AnswerMove>) {
          s = "answer " + p + (m.yes ? ": yes" : ": no");
        } else if constexpr (std::is_same_v<T, SpecialHandMove>) {
          s = "special " + p + ": ";
          AppendCounts(m.cards, &s);
        } else if constexpr (std::is_same_v<T, FootMove>) {
          s = "foot " + p;
        } else {
          s = "retract " + p + ": ";
          AppendCounts(m.cards, &s);
        }
        return s;
      },
      move);
}

std::vector<ThreeMove> DueThrees(const Position& pos, int seat) {
  std::vector<ThreeMove> out;
  if (pos.phase() == Phase::kOver) {
    // 000 §15: the last stock card was a red three; it is revealed.
    if (pos.went_out() >= 0 || seat != pos.current_player()) return out;
  } else if (pos.phase() == Phase::kBeforePlay) {
    // In the first-turn layout only the first player's turn has begun.
    if (pos.rules().three_layout == ThreeLayout::kFirstTurn && seat != pos.current_player())
      return out;
  } else if (seat != pos.current_player() && !pos.MayLayOutFootThrees(seat)) {
    return out;
  }
  const CardCounts& hand = pos.hand(seat);
  for (Card c : {Card(Rank::kThree, Suit::kHearts), Card(Rank::kThree, Suit::kDiamonds),
                 Card(Rank::kThree, Suit::kClubs), Card(Rank::kThree, Suit::kSpades)}) {
    if (hand.count(c) == 0 || !pos.rules().IsLaidOutThree(c)) continue;
    ThreeMove m;
    m.player = seat;
    m.card = c;
    if (pos.pile_threes(seat) == 0 && pos.stock_size() > 0) {
      std::vector<Card> top = pos.StockTop(1);
      if (!top.empty()) m.replacement = top[0];
    }
    out.push_back(m);
    break;  // one at a time: each replacement is the next stock card
  }
  return out;
}

bool MayEndDeal(const Position& pos) {
  if (pos.phase() == Phase::kOver) return true;
  if (pos.stock_size() > 0 || pos.phase() == Phase::kPlay) return false;
  Position copy = pos;
  return copy.End(0).empty();
}

bool LeavesLegalFinish(const Position& pos, const Move& move) {
  if (!pos.Check(move).empty()) return false;
  if (std::holds_alternative<DrawMove>(move) || std::holds_alternative<DiscardMove>(move) ||
      std::holds_alternative<ThreeMove>(move) || std::holds_alternative<SpecialHandMove>(move) ||
      std::holds_alternative<FootMove>(move))
    return true;
  if (std::holds_alternative<AskOutMove>(move)) {
    Position q = pos;
    q.Apply(move);
    if (q.phase() != Phase::kPlay) return true;
    for (bool yes : {false, true}) {
      Search t;
      if (FinishableAfter(q, AnswerMove{(pos.current_player() + 2) % pos.num_players(), yes, 0},
                          &t))
        return true;
    }
    return false;
  }
  Search s;
  return std::visit([&](const auto& m) { return FinishableAfter(pos, m, &s); }, move);
}

namespace internal {

FinishVerdicts JudgeFinish(const Position& pos, const Move& move) {
  FinishVerdicts v;
  ScratchCopy q(pos);
  std::visit([&](const auto& m) { q->Apply(m); }, move);
  Search search;
  v.search = CanFinish(*q, &search);
  v.search_budget_spent = search.nodes > kSearchBudget;
  if (q->phase() == Phase::kPlay) {
    const Counts cnt = ClassCounts(q->hand(q->current_player()));
    if (QuickApplies(*q, cnt)) {
      Search s;
      const Quick quick = QuickFinish(*q, cnt).Judge(&s);
      v.counted = quick != Quick::kUnknown;
      v.counts = quick == Quick::kYes;
    }
  }
  return v;
}

}  // namespace internal

namespace {

// The generator: every candidate of LegalMoves, in its order, into `sink`.
template <class Sink>
void Generate(const Position& pos, Sink& sink) {
  const Rules& r = pos.rules();
  const int seat = pos.current_player();
  auto always = [] { return true; };
  if (pos.phase() == Phase::kBeforePlay) {
    // Threes laid out before play go in seat order from the dealer's left.
    for (int i = 1; i <= r.num_players; ++i) {
      int s = (pos.dealer() + i) % r.num_players;
      for (const ThreeMove& m : DueThrees(pos, s))
        if (sink.Offer(m, always)) return;
      if (sink.offered() > 0) return;
    }
  }
  if (pos.phase() == Phase::kOver) {
    for (const ThreeMove& m : DueThrees(pos, seat))
      if (sink.Offer(m, always)) return;
    return;
  }
  // The foot, as soon as it is due (002 L71): nothing else until then.
  if (const int foot = pos.FootDue(); foot >= 0) {
    sink.Offer(FootMove{foot, 0}, always);
    return;
  }
  // Then the threes found in a foot picked up after the discard.
  for (int s = 0; s < r.num_players; ++s) {
    if (!pos.MayLayOutFootThrees(s)) continue;
    for (const ThreeMove& m : DueThrees(pos, s))
      if (sink.Offer(m, always)) return;
    if (sink.offered() > 0) return;
  }
  // Bonus cards due after an initial meld are drawn before the next turn (001 L37).
  if (pos.bonus_player() >= 0) {
    sink.Offer(DrawMove{pos.bonus_player(), pos.StockTop(pos.bonus_count()), 0, true}, always);
    return;
  }
  // A special hand before the threes: the straight holds a three (001 L57, L68).
  SpecialHandMoves(pos, sink);
  if (sink.done()) return;
  const size_t special = sink.offered();
  // Red threes first: they never stay in the hand (000 §7).
  for (const ThreeMove& m : DueThrees(pos, seat)) {
    if (pos.phase() == Phase::kPlay || r.three_layout != ThreeLayout::kBeforePlay ||
        pos.pile_threes(seat) > 0)
      if (sink.Offer(m, always)) return;
  }
  if (sink.offered() > special) return;
  if (pos.phase() != Phase::kPlay)
    DrawMoves(pos, sink);
  else
    PlayMoves(pos, sink);
}

}  // namespace

void LegalMoves(const Position& pos, std::vector<Move>* out) {
  out->clear();
  CollectSink sink(out);
  Generate(pos, sink);
}

bool SampleLegalMove(const Position& pos, Rng& rng, Move* out) {
  PassMemo memo;
  CountSink count(&memo);
  Generate(pos, count);
  const size_t n = count.offered();
  if (n == 0) return false;
  // A red three or the foot first: no choice. So too where a special hand
  // refused leaves the threes first.
  size_t forced = count.forced() ? 0 : n;
  if (count.special_then_forced()) {
    PickSink special(0, out);
    Generate(pos, special);
    if (!special.legal()) forced = 1;
  }
  if (forced < n) {
    PickSink first(forced, out);
    Generate(pos, first);
    return true;
  }
  // The candidates refused so far (kept per thread: no allocation per call).
  thread_local std::vector<uint8_t> refused;
  refused.assign(n, 0);
  for (size_t left = n; left > 0; --left) {
    size_t k = size_t(rng.Below(int(left)));
    size_t i = 0;
    for (;; ++i) {
      if (refused[i]) continue;
      if (k-- == 0) break;
    }
    PickSink pick(i, out, &memo);
    Generate(pos, pick);
    if (pick.legal()) return true;
    refused[i] = 1;
  }
  return false;
}

int KeyedDraw(uint64_t key, const Move& m, int draws) {
  if (draws <= 1) return 0;
  uint64_t h = key ^ (uint64_t(m.index()) << 56);
  auto mix = [&](uint64_t v) {  // splitmix's finalizer over each field
    h += v + 0x9E3779B97F4A7C15ull;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
  };
  auto cards = [&](const std::vector<Card>& cs) {
    for (Card c : cs) mix(uint64_t(c.index()) + 1);
    mix(0);
  };
  auto rank = [&](const std::optional<Rank>& r) { mix(r ? uint64_t(*r) + 1 : 0); };
  auto parts = [&](const std::vector<MeldPart>& ps) {
    for (const MeldPart& p : ps) {
      rank(p.to);
      rank(p.as);
      mix(p.sequence);
      cards(p.cards);
    }
    mix(ps.size());
  };
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        mix(uint64_t(x.player));
        if constexpr (std::is_same_v<T, DiscardMove> || std::is_same_v<T, ThreeMove>) {
          mix(x.card.index());
        } else if constexpr (std::is_same_v<T, MeldMove>) {
          parts(x.parts);
        } else if constexpr (std::is_same_v<T, TakePileMove>) {
          mix(x.top.index());
          cards(x.with);
          rank(x.to);
          mix(x.to_hand);
          parts(x.before);
        } else if constexpr (std::is_same_v<T, AnswerMove>) {
          mix(x.yes);
        } else if constexpr (std::is_same_v<T, RetractMove> || std::is_same_v<T, SpecialHandMove>) {
          cards(x.cards);
        }
      },
      m);
  return int(h % uint64_t(draws));
}

bool BestLegalMove(const Position& pos, const std::function<double(const Move&)>& score,
                   const TieBreak& tie, Rng& rng, Move* out) {
  // Per thread, so that a call allocates little once warm.
  thread_local std::vector<std::pair<double, Move>> kept;
  size_t kept_n = 0;
  const double most = tie.most();
  BestSink sink(score, most, &kept, &kept_n, out);
  Generate(pos, sink);
  if (sink.took_forced()) return true;
  if (!sink.found()) return false;
  // The draws, in LegalMoves order, for the legal moves still in the running.
  double top = -1e9;
  const Move* pick = nullptr;
  for (size_t i = 0; i < kept_n; ++i) {
    const auto& [s, m] = kept[i];
    if (!(s + most >= sink.best())) continue;
    const int draw = tie.key ? KeyedDraw(tie.key, m, tie.draws) : rng.Below(tie.draws);
    const double total = s + draw / tie.scale;
    if (pick == nullptr || total > top) {
      top = total;
      pick = &m;
    }
  }
  *out = *pick;
  return true;
}

std::vector<Move> LegalMoves(const Position& pos) {
  std::vector<Move> out;
  LegalMoves(pos, &out);
  return out;
}

}  // namespace canasta
