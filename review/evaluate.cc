#include "review/evaluate.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <memory>
#include <thread>
#include <type_traits>

#include "core/legal_moves.h"

namespace canasta {
namespace {

int PlayerOf(const Move& m) {
  return std::visit([](const auto& x) { return x.player; }, m);
}

// A card as it counts for equivalence: its rank (a three: and its colour).
std::string Face(Card c) {
  if (c.is_three()) return c.is_red() ? "3red" : "3black";
  return ToString(c.rank());
}

std::string Faces(std::vector<Card> cards) {
  std::sort(cards.begin(), cards.end());
  std::vector<std::string> f;
  for (Card c : cards) f.push_back(Face(c));
  std::sort(f.begin(), f.end());
  std::string s;
  for (const std::string& x : f) s += x + " ";
  return s;
}

// The rank a meld part lays its cards on.
Rank PartRank(const MeldPart& p) {
  if (p.to) return *p.to;
  if (p.as) return *p.as;
  for (Card c : p.cards)
    if (!c.is_wild()) return c.rank();
  return Rank::kTwo;  // a meld of wild cards only
}

}  // namespace

uint64_t MixSeed(uint64_t seed, uint64_t a, uint64_t b, uint64_t c) {
  Rng r(seed ^ 0x6A09E667F3BCC909ull);
  uint64_t x = r.Next() ^ (a * 0x9E3779B97F4A7C15ull);
  Rng r2(x);
  x = r2.Next() ^ (b * 0xC2B2AE3D27D4EB4Full);
  Rng r3(x);
  x = r3.Next() ^ (c * 0x165667B19E3779F9ull);
  Rng r4(x);
  return r4.Next();
}

std::string GroupKey(const Move& move) {
  if (std::holds_alternative<DrawMove>(move)) return "draw";
  if (auto* t = std::get_if<TakePileMove>(&move))
    return t->with.empty() ? "pile onto " + ToString(t->top.rank()) : "pile with " + Faces(t->with);
  if (auto* d = std::get_if<DiscardMove>(&move)) return "discard " + Face(d->card);
  if (auto* m = std::get_if<MeldMove>(&move)) {
    // The same cards on the same melds, however many events or parts.
    std::map<int, std::vector<Card>> by_rank;
    for (const MeldPart& p : m->parts) {
      std::vector<Card>& v = by_rank[int(PartRank(p))];
      v.insert(v.end(), p.cards.begin(), p.cards.end());
    }
    std::string s = "meld";
    for (const auto& [rank, cards] : by_rank)
      s += " | " + std::to_string(rank) + ": " + Faces(cards);
    return s;
  }
  if (auto* x = std::get_if<ThreeMove>(&move)) return "three " + ToString(x->card);
  if (std::holds_alternative<AskOutMove>(move)) return "ask";
  if (auto* a = std::get_if<AnswerMove>(&move)) return a->yes ? "answer yes" : "answer no";
  if (std::holds_alternative<SpecialHandMove>(move)) return "special hand";
  if (std::holds_alternative<FootMove>(move)) return "foot";
  return "retract";
}

std::string MoveWords(const Move& move, int pile_size) {
  if (std::holds_alternative<DrawMove>(move)) return "drew from the stock";
  if (auto* t = std::get_if<TakePileMove>(&move)) {
    std::string s = "took the pile (" + std::to_string(pile_size) + " cards) ";
    return s + (t->with.empty() ? "onto the " + ToString(t->top.rank()) + "s"
                                : "with " + ToString(t->with));
  }
  if (auto* d = std::get_if<DiscardMove>(&move)) return "discarded " + ToString(d->card);
  if (auto* m = std::get_if<MeldMove>(&move)) {
    std::string s;
    for (const MeldPart& p : m->parts) {
      if (!s.empty()) s += ", ";
      s += p.to ? "added " + ToString(p.cards) + " to the " + ToString(*p.to) + "s"
                : "melded " + ToString(p.cards);
    }
    return s;
  }
  if (auto* x = std::get_if<ThreeMove>(&move)) return "laid out " + ToString(x->card);
  if (std::holds_alternative<AskOutMove>(move)) return "asked \"may I go out?\"";
  if (auto* a = std::get_if<AnswerMove>(&move)) return a->yes ? "answered yes" : "answered no";
  if (auto* sh = std::get_if<SpecialHandMove>(&move))
    return "laid down a special hand (" + ToString(sh->cards) + ")";
  if (std::holds_alternative<FootMove>(move)) return "picked up the foot";
  return "took cards back";
}

std::string LossLabel(double lost, double lost_se) {
  if (lost <= 2 * lost_se) return "";
  if (lost >= kBlunder) return "blunder";
  if (lost >= kMistake) return "mistake";
  if (lost >= kInaccuracy) return "inaccuracy";
  return "";
}

CountedMove DecisionCounter::Count(int seat, const Move& move, const Position& before) {
  CountedMove c;
  c.draws = std::holds_alternative<DrawMove>(move) || std::holds_alternative<TakePileMove>(move);
  if (c.draws) ++turn_;
  // A draw, or another seat's move, ends the play phase being counted.
  if (c.draws || seat != play_seat_) play_started_ = false;
  if (c.draws) play_seat_ = seat;
  c.turn = turn_;
  const bool decision = c.draws || std::holds_alternative<MeldMove>(move) ||
                        std::holds_alternative<DiscardMove>(move);
  if (!decision || before.phase() == Phase::kOver || before.phase() == Phase::kBeforePlay) return c;
  c.index = decisions_++;
  c.starts_play = !c.draws && !play_started_ && before.phase() == Phase::kPlay &&
                  seat == before.current_player();
  if (c.starts_play) play_started_ = true;
  c.in_play = !c.draws && play_started_;
  return c;
}

double DecisionAccuracy(double lost) { return 100.0 * std::exp(-std::max(0.0, lost) / 300.0); }

// ---------------------------------------------------------------------------
// The history

HandHistory::HandHistory(const Rules& rules, const RuleHooks& hooks, std::vector<int> totals,
                         DealMove deal)
    : rules_(&rules), hooks_(&hooks), totals_(std::move(totals)), deal_(std::move(deal)) {
  const int n = rules.num_players;
  hidden_.resize(size_t(n));
  known_.resize(size_t(n));
  for (int s = 0; s < n && s < int(deal_.hands.size()); ++s) {
    for (size_t i = 0; i < deal_.hands[size_t(s)].size(); ++i)
      hidden_[size_t(s)].push_back(Held{deal_.hands[size_t(s)][i], -1, s, int(i)});
  }
}

void HandHistory::Play(int seat, Card c) {
  if (known_[size_t(seat)].Remove(c)) return;
  std::vector<Held>& h = hidden_[size_t(seat)];
  for (size_t i = h.size(); i-- > 0;) {
    if (h[i].card == c) {
      h.erase(h.begin() + long(i));
      return;
    }
  }
}

void HandHistory::Record(const Move& move, const Position& before, const Position& after) {
  const int seat = PlayerOf(move);
  if (seat < 0 || seat >= rules_->num_players) return;
  const int index = int(moves_.size());
  const int taken = std::max(0, before.stock_size() - after.stock_size());
  const int held_before = before.hand(seat).total(), held_after = after.hand(seat).total();
  if (auto* d = std::get_if<DrawMove>(&move)) {
    if (held_after > held_before)
      for (size_t i = 0; i < d->cards.size(); ++i)
        hidden_[size_t(seat)].push_back(Held{d->cards[i], index, seat, int(i)});
  } else if (auto* t = std::get_if<TakePileMove>(&move)) {
    if (!before.pile().empty() && after.pile().empty()) {
      for (Card c : t->with) Play(seat, c);
      for (size_t i = 0; i + 1 < before.pile().size(); ++i)
        known_[size_t(seat)].Add(before.pile()[i]);
    }
  } else if (auto* m = std::get_if<MeldMove>(&move)) {
    for (const MeldPart& p : m->parts)
      for (Card c : p.cards) Play(seat, c);
  } else if (auto* x = std::get_if<DiscardMove>(&move)) {
    Play(seat, x->card);
  } else if (auto* three = std::get_if<ThreeMove>(&move)) {
    Play(seat, three->card);
    if (three->replacement) {
      if (taken > 0)
        hidden_[size_t(seat)].push_back(Held{*three->replacement, index, seat, -1});
      else if (held_after == held_before)
        known_[size_t(seat)].Add(*three->replacement);
    }
  } else if (auto* r = std::get_if<RetractMove>(&move)) {
    for (Card c : r->cards) known_[size_t(seat)].Add(c);
  } else if (auto* sh = std::get_if<SpecialHandMove>(&move)) {
    for (Card c : sh->cards) Play(seat, c);
  }
  moves_.push_back(Recorded{move, taken});
}

std::optional<Position> HandHistory::Determinize(int viewer, const Position& truth, Rng& rng,
                                                 const RuleHooks* hooks) const {
  const Rules& r = *rules_;
  const int n = r.num_players;
  // The true rest of the stock: recorded, or what no hand, meld or pile holds.
  std::vector<Card> rest;
  if (truth.stock_known()) {
    rest = truth.StockTop(truth.stock_size());
  } else {
    CardCounts left;
    for (int i = 0; i < kNumFaces; ++i) left.Add(Card::FromIndex(i), r.copies(Card::FromIndex(i)));
    bool ok = true;
    auto take = [&](Card c) { ok &= left.Remove(c); };
    for (int s = 0; s < n; ++s)
      for (Card c : truth.hand(s).ToVector()) take(c);
    for (int side = 0; side < r.num_sides(); ++side) {
      for (const Meld& m : truth.melds(side))
        for (Card c : m.cards) take(c);
      for (Card c : truth.threes(side)) take(c);
    }
    for (Card c : truth.pile()) take(c);
    if (!ok) return std::nullopt;
    rest = left.ToVector();
  }
  if (int(rest.size()) != truth.stock_size()) return std::nullopt;

  // The unseen cards: the rest of the stock and the others' hidden cards.
  std::vector<Card> pool = rest;
  for (int s = 0; s < n; ++s) {
    if (s == viewer) continue;
    CardCounts held = known_[size_t(s)];
    for (const Held& h : hidden_[size_t(s)]) {
      held.Add(h.card);
      pool.push_back(h.card);
    }
    const CardCounts& real = truth.hand(s);
    if (held.total() != real.total()) return std::nullopt;
    for (int i = 0; i < kNumFaces; ++i)
      if (held.count(Card::FromIndex(i)) != real.count(Card::FromIndex(i))) return std::nullopt;
  }
  for (size_t i = pool.size(); i > 1; --i) std::swap(pool[i - 1], pool[size_t(rng.Below(int(i)))]);

  // Deal them to the hidden places, then rebuild the hand's history there.
  std::vector<Move> moves;
  moves.reserve(moves_.size());
  for (const Recorded& m : moves_) moves.push_back(m.move);
  DealMove deal = deal_;
  size_t next = 0;
  for (int s = 0; s < n; ++s) {
    if (s == viewer) continue;
    for (const Held& h : hidden_[size_t(s)]) {
      const Card c = pool[next++];
      if (h.move < 0) {
        deal.hands[size_t(s)][size_t(h.index)] = c;
      } else if (h.index >= 0) {
        std::get<DrawMove>(moves[size_t(h.move)]).cards[size_t(h.index)] = c;
      } else {
        std::get<ThreeMove>(moves[size_t(h.move)]).replacement = c;
      }
    }
  }
  std::vector<Card> stock;
  for (size_t i = 0; i < moves.size(); ++i) {
    const int taken = moves_[i].stock_taken;
    if (taken == 0) continue;
    if (auto* d = std::get_if<DrawMove>(&moves[i])) {
      for (int k = 0; k < taken && k < int(d->cards.size()); ++k)
        stock.push_back(d->cards[size_t(k)]);
    } else if (auto* t = std::get_if<ThreeMove>(&moves[i])) {
      if (t->replacement) stock.push_back(*t->replacement);
    }
  }
  stock.insert(stock.end(), pool.begin() + long(next), pool.end());
  deal.stock = std::move(stock);

  std::optional<Position> world(std::in_place, r, hooks ? *hooks : *hooks_, totals_);
  world->Deal(deal);
  for (const Move& m : moves) world->Apply(m);
  if (world->phase() != truth.phase() || world->current_player() != truth.current_player() ||
      world->stock_size() != truth.stock_size() ||
      world->hand(viewer).ToVector() != truth.hand(viewer).ToVector() ||
      world->pile() != truth.pile())
    return std::nullopt;
  return world;
}

// ---------------------------------------------------------------------------
// Rollouts

double Rollout(Position pos, int side, Bot& bot, Rng& rng) {
  // Keyed ties (TieBreak::key): the bot of one rollout plays alike in every
  // alternative wherever its candidates tie alike.
  const uint64_t tie_key = rng.Next() | 1;
  PlayOut(&pos, bot, rng, 3000, tie_key);
  pos.End(0);
  const std::vector<ScoreBreakdown> scores = pos.Score();
  double others = 0;
  int count = 0;
  for (int s = 0; s < int(scores.size()); ++s) {
    if (s == side) continue;
    others += scores[size_t(s)].total();
    ++count;
  }
  return scores[size_t(side)].total() - (count ? others / count : 0.0);
}

long AlternativeRollouts(const DecisionValue& v) {
  long n = 0;
  for (const AlternativeValue& a : v.alternatives) n += a.rollouts;
  return n;
}

DecisionValue GroupAlternatives(const Position& truth, const Move& played) {
  DecisionValue out;
  const int seat = truth.current_player();
  const int pile = int(truth.pile().size());
  if (PlayerOf(played) != seat || !truth.Check(played).empty()) {
    out.status = DecisionStatus::kIllegal;
    return out;
  }
  // The groups of equivalent legal moves, in the generator's order.
  std::map<std::string, size_t> index;
  for (const Move& m : LegalMoves(truth)) {
    if (std::holds_alternative<ThreeMove>(m)) {
      out.status = DecisionStatus::kForced;  // red threes are laid out first
      out.alternatives.clear();
      return out;
    }
    const std::string k = GroupKey(m);
    auto it = index.find(k);
    if (it != index.end()) {
      ++out.alternatives[it->second].members;
      continue;
    }
    index.emplace(k, out.alternatives.size());
    AlternativeValue a;
    a.move = m;
    a.key = k;
    a.words = MoveWords(m, pile);
    out.alternatives.push_back(std::move(a));
  }
  const std::string played_key = GroupKey(played);
  auto it = index.find(played_key);
  if (it == index.end()) {
    // Legal, yet not in the generator's list (e.g. several melds at once).
    AlternativeValue a;
    a.move = played;
    a.key = played_key;
    a.words = MoveWords(played, pile);
    out.alternatives.push_back(std::move(a));
    out.played = int(out.alternatives.size()) - 1;
  } else {
    out.played = int(it->second);
    out.alternatives[it->second].words = MoveWords(played, pile);  // the card played
  }
  out.alternatives[size_t(out.played)].played = true;
  out.status =
      out.alternatives.size() <= 1 ? DecisionStatus::kForced : DecisionStatus::kNotEvaluated;
  return out;
}

// The state of one decision's rollouts, kept between Refine calls.
struct DecisionEvaluation::State {
  State(const HandHistory& h, const Position& t, const Move& p, uint64_t k, const ReviewSettings& s)
      : history(h), truth(t), played(p), key(k), settings(s) {}
  const HandHistory history;  // a copy: the review records the hand on past this point
  const Position truth;
  const Move played;
  const uint64_t key;
  const ReviewSettings settings;
  DecisionValue out;     // the alternatives in the generator's order
  DecisionValue sorted;  // what value() shows: best first
  int seat = 0, side = 0, batch = 1;
  size_t groups = 0, made = 0;
  std::vector<double> values;
  std::vector<char> ran;  // rollout r of alternative g was played
  std::vector<char> ok;   // rollout r has a world
  // The alternatives still rolled out (racing: see Race).
  std::vector<char> active;
  int rollouts = 0;
  int n = 0;  // rollouts with a world
  std::vector<size_t> order;

  double Value(int r, size_t g) const { return values[size_t(r) * groups + g]; }
  bool Rolled(int r, size_t g) const { return ok[size_t(r)] && ran[size_t(r) * groups + g]; }

  // Runs every rollout r < `to` that an active alternative has not been
  // played in (the new ones, and the earlier ones of an alternative that
  // runs again): one determinization and one bot seed per rollout, shared by
  // every alternative, so that their difference is measured, not two
  // noises. Rollout r depends only on the seed, the key and r: the same
  // values whatever the number of threads.
  void Run(int to) {
    values.resize(size_t(to) * groups, 0.0);
    ran.resize(size_t(to) * groups, 0);
    ok.resize(size_t(to), 0);
    std::vector<int> todo;
    for (int r = 0; r < to; ++r) {
      bool missing = false;
      for (size_t g = 0; g < groups && !missing; ++g)
        missing = active[g] && !ran[size_t(r) * groups + g];
      if (missing && (r >= rollouts || ok[size_t(r)])) todo.push_back(r);
    }
    const int jobs = std::max(1, std::min(settings.jobs, int(todo.size())));
    auto work = [&](int t) {
      const RuleHooks* hooks = int(settings.thread_hooks.size()) >= settings.jobs
                                   ? settings.thread_hooks[size_t(t)]
                                   : nullptr;
      std::unique_ptr<Bot> bot = MakeSensibleBot();
      for (size_t i = size_t(t); i < todo.size(); i += size_t(jobs)) {
        const int r = todo[i];
        Rng deal_rng(MixSeed(settings.seed, key, uint64_t(r), 1));
        std::optional<Position> world = history.Determinize(seat, truth, deal_rng, hooks);
        if (!world) continue;
        ok[size_t(r)] = 1;
        const uint64_t bot_seed = MixSeed(settings.seed, key, uint64_t(r), 2);
        for (size_t g = 0; g < groups; ++g) {
          if (!active[g] || ran[size_t(r) * groups + g]) continue;
          Position q = *world;
          Move m = out.alternatives[g].move;
          if (auto* d = std::get_if<DrawMove>(&m))
            d->cards = q.StockTop(std::min(q.rules().stock_draw, q.stock_size()));
          q.Apply(m);
          Rng bot_rng(bot_seed);
          values[size_t(r) * groups + g] = Rollout(std::move(q), side, *bot, bot_rng);
          ran[size_t(r) * groups + g] = 1;
        }
      }
    };
    if (jobs == 1) {
      work(0);
    } else {
      std::vector<std::thread> threads;
      for (int t = 0; t < jobs; ++t) threads.emplace_back(work, t);
      for (std::thread& th : threads) th.join();
    }
    rollouts = to;
  }

  // The mean and standard error of value_of(r) over the rollouts where every
  // alternative of `gs` was played, summed in rollout order (the same bytes
  // whatever the number of threads); returns how many.
  template <class F>
  int Stats(std::initializer_list<size_t> gs, F value_of, double* mean, double* se) const {
    auto in = [&](int r) {
      for (size_t g : gs)
        if (!Rolled(r, g)) return false;
      return true;
    };
    int count = 0;
    double sum = 0;
    for (int r = 0; r < rollouts; ++r)
      if (in(r)) sum += value_of(r), ++count;
    *mean = count ? sum / count : 0.0;
    double sq = 0;
    for (int r = 0; r < rollouts; ++r)
      if (in(r)) sq += (value_of(r) - *mean) * (value_of(r) - *mean);
    *se = count > 1 ? std::sqrt(sq / (count - 1) / count) : 0.0;
    return count;
  }

  void Summarize() {
    n = 0;
    for (char c : ok) n += c;
    if (n == 0) return;
    for (size_t g = 0; g < groups; ++g) {
      AlternativeValue& a = out.alternatives[g];
      a.rollouts = Stats(
          {g}, [&](int r) { return Value(r, g); }, &a.mean, &a.se);
      Stats(
          {g, made}, [&](int r) { return Value(r, g) - Value(r, made); }, &a.vs_played,
          &a.vs_played_se);
    }
    for (size_t g = 0; g < groups; ++g) order[g] = g;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return out.alternatives[a].mean > out.alternatives[b].mean;
    });
    const size_t best = order[0];
    Stats(
        {best, made}, [&](int r) { return Value(r, best) - Value(r, made); }, &out.lost,
        &out.lost_se);
    out.margin_se = out.lost_se;
    if (best == made) {
      double lead = 0;
      const size_t second = order[1];
      Stats(
          {made, second}, [&](int r) { return Value(r, made) - Value(r, second); }, &lead,
          &out.margin_se);
    }
  }

  // Racing: after each batch, an alternative behind the best by more than
  // kDrop times the standard error of that paired difference gets no more
  // rollouts (its values so far stand, with their larger error); the move
  // played, the best, and the second best when the move played is the best
  // always run (an alternative dropped earlier runs again when it becomes
  // one of those, its missed rollouts played first). So the batches past
  // the first go to the close contests (docs/review.md, "Racing").
  void Race() {
    constexpr double kDrop = 2.0;
    const size_t best = order[0];
    for (size_t g = 0; g < groups; ++g) {
      const bool kept = g == made || g == best || (best == made && g == order[1]);
      if (kept) {
        active[g] = 1;
        continue;
      }
      if (!active[g]) continue;
      double behind = 0, se = 0;
      Stats(
          {best, g}, [&](int r) { return Value(r, best) - Value(r, g); }, &behind, &se);
      if (behind > kDrop * se) active[g] = 0;
    }
  }

  bool WouldRefine(int most) const {
    return rollouts > 0 && n > 0 && out.margin_se > settings.target_se &&
           rollouts < std::max(batch, most);
  }

  // What value() shows: the alternatives best first.
  void Publish() {
    sorted = out;
    sorted.rollouts = n;
    if (n == 0) {
      sorted.status = DecisionStatus::kNotEvaluated;
      return;
    }
    sorted.alternatives.clear();
    for (size_t g : order) sorted.alternatives.push_back(out.alternatives[g]);
    for (size_t g = 0; g < groups; ++g)
      if (sorted.alternatives[g].played) sorted.played = int(g);
    sorted.status = DecisionStatus::kEvaluated;
  }
};

DecisionEvaluation::DecisionEvaluation(const HandHistory& history, const Position& truth,
                                       const Move& played, uint64_t key,
                                       const ReviewSettings& settings)
    : s_(std::make_unique<State>(history, truth, played, key, settings)) {
  State& s = *s_;
  s.out = GroupAlternatives(truth, played);
  s.sorted = s.out;
  if (s.out.status != DecisionStatus::kNotEvaluated) return;  // nothing to roll out
  s.seat = truth.current_player();
  s.side = truth.side_of(s.seat);
  s.batch = std::max(1, settings.rollouts);
  s.groups = s.out.alternatives.size();
  s.made = size_t(s.out.played);
  s.active.assign(s.groups, 1);
  s.order.resize(s.groups);
}

DecisionEvaluation::~DecisionEvaluation() = default;
DecisionEvaluation::DecisionEvaluation(DecisionEvaluation&&) noexcept = default;
DecisionEvaluation& DecisionEvaluation::operator=(DecisionEvaluation&&) noexcept = default;

const DecisionValue& DecisionEvaluation::Refine(int most) {
  State& s = *s_;
  if (s.out.status != DecisionStatus::kNotEvaluated) return s.sorted;
  most = std::max(s.batch, most);
  if (s.rollouts == 0) {
    s.Run(s.batch);
    s.Summarize();
  } else if (!s.WouldRefine(most)) {
    return s.sorted;
  }
  while (s.n > 0 && s.out.margin_se > s.settings.target_se && s.rollouts < most) {
    s.Race();
    s.Run(std::min(most, s.rollouts + s.batch));
    s.Summarize();
  }
  s.Publish();
  return s.sorted;
}

bool DecisionEvaluation::WouldRefine(int most) const { return s_->WouldRefine(most); }

const DecisionValue& DecisionEvaluation::value() const { return s_->sorted; }

DecisionValue EvaluateDecision(const HandHistory& history, const Position& truth,
                               const Move& played, uint64_t key, const ReviewSettings& settings) {
  DecisionEvaluation e(history, truth, played, key, settings);
  return e.Refine(settings.max_rollouts);
}

std::vector<HookFailure> TakeRolloutHookFailures(const ReviewSettings& settings,
                                                 const RuleHooks* shared) {
  std::vector<HookFailure> all;
  for (const RuleHooks* hooks : settings.thread_hooks) {
    if (hooks == nullptr || hooks == shared || !hooks->HasFailures()) continue;
    for (HookFailure& f : hooks->TakeFailures()) {
      auto same = std::find_if(all.begin(), all.end(), [&](const HookFailure& g) {
        return g.hook == f.hook && g.where == f.where && g.message == f.message;
      });
      if (same != all.end()) {
        same->count += f.count;
      } else {
        all.push_back(std::move(f));
      }
    }
  }
  return all;
}

}  // namespace canasta
