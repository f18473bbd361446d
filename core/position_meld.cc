// Melds and additions (000 §8, §9), what counts toward the initial-meld
// minimum, and cards taken back (000 §10).
#include "core/position.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "core/position_internal.h"

namespace canasta {

using position_internal::Rare;
using position_internal::Seat;
using position_internal::Tv;

int Position::CountToward(const std::vector<Card>& cards, CardCounts* from_hand,
                          CardCounts* counted) const {
  int total = 0;
  for (Card c : cards) {
    // After taking the pile only cards that were already in the hand count
    // (000 §13 "not included in the minimum count"); the audit gives the
    // player the benefit of the doubt where a card could be either.
    if (from_hand && !from_hand->Remove(c)) continue;
    counted->Add(c);
    total = SaturatingAdd(total, hooks_->InitialMeldValue(*rules_, c));
  }
  return total;
}
Meld* Position::NewSideMeld(int side, size_t room) {
  std::vector<Meld>& melds = sides_[side].melds;
  if (melds.capacity() == 0) melds.reserve(12);
  Meld* meld = &melds.emplace_back();
  std::vector<std::vector<Card>>& spare = spare_cards_.vectors;
  if (!spare.empty()) {
    meld->cards = std::move(spare.back());
    spare.pop_back();
  }
  if (meld->cards.capacity() < room) meld->cards.reserve(room);
  return meld;
}
void Position::PassMeldStorage(Position* next) {
  std::vector<std::vector<Card>>& spare = next->spare_cards_.vectors;
  spare = std::move(spare_cards_.vectors);
  spare_cards_.vectors.clear();
  for (Side& s : sides_) {
    for (Meld& m : s.melds) {
      if (m.cards.capacity() == 0) continue;
      m.cards.clear();
      spare.push_back(std::move(m.cards));
    }
  }
  // The vectors that grow during a deal, emptied: the next deal starts with
  // their room (a fresh position would grow each again, one allocation at a
  // time). Only storage passes; `next` holds no card of this deal.
  auto pass = [](auto& from, auto& to) {
    if (from.capacity() <= to.capacity()) return;
    from.clear();
    to.swap(from);
  };
  pass(pile_, next->pile_);
  pass(turn_.black_three_tags, next->turn_.black_three_tags);
  for (size_t s = 0; s < sides_.size() && s < next->sides_.size(); ++s) {
    sides_[s].melds.clear();
    pass(sides_[s].melds, next->sides_[s].melds);
    pass(sides_[s].threes, next->sides_[s].threes);
    pass(sides_[s].special, next->sides_[s].special);
  }
}
Meld* Position::MeldToLayOn(int side, Rank rank, const Meld* found) {
  Meld* meld = const_cast<Meld*>(found);
  if (!meld) {
    meld = NewSideMeld(side, 12);
    meld->rank = rank;
  }
  return meld;
}

std::optional<Violation> Position::SequenceRefusal(int player, const Meld* target,
                                                   const std::vector<Card>& before,
                                                   const std::vector<Card>& cards) const {
  if (!rules_->sequence_melds)
    return Violation{CheckId::kMeldMixedRanks,
                     "the cards " + ToString(cards) +
                         " are laid as a sequence; sequences are not melds under this ruleset",
                     {"rule: " + rules_->Cite("sequence_melds", "000 §8")}};
  std::vector<Card> all = before;
  all.insert(all.end(), cards.begin(), cards.end());
  if (auto v = CheckSequence(*rules_, all, target == nullptr)) return v;
  MeldShape shape;
  shape.rank = Rank::kSequence;
  shape.sequence = true;
  shape.is_new = target == nullptr;
  shape.was_canasta = target && target->is_canasta(*rules_);
  for (Card c : all) {
    if (c.is_joker()) ++shape.jokers;
    else if (c.rank() == Rank::kTwo) ++shape.twos;
    else ++shape.naturals;
  }
  return MeldRefusal(player, shape, cards, /*from_pile=*/false);
}
void Position::CheckMeldParts(int player, const std::vector<MeldPart>& parts,
                              MeldShapes* shapes_after,
                              std::array<bool, 16>* known_after,
                              TaggedViolations* findings, MeldVerdicts* verdicts) const {
  TaggedViolations& out = *findings;
  MeldShapes& shapes = *shapes_after;
  std::array<bool, 16>& known = *known_after;
  if (parts.size() == 1) {
    CheckHeld(player, parts[0].cards, &out);
  } else if (player >= 0 && player < rules_->num_players) {
    // Usually every card is held: the cards are gathered only to word what is not.
    const CardCounts& held = Holding(player);
    CardCounts need;
    bool short_of_one = false;
    for (const MeldPart& part : parts) {
      for (Card c : part.cards) {
        need.Add(c);
        short_of_one |= need.count(c) > held.count(c);
      }
    }
    if (short_of_one) {
      std::vector<Card> all;
      for (const MeldPart& part : parts)
        all.insert(all.end(), part.cards.begin(), part.cards.end());
      CheckHeld(player, all, &out);
    }
  }
  const int side = side_of(player);

  // Shapes after this play, rank by rank, so several parts on one rank add
  // up; no meld is copied (this runs for every meld event).
  auto shape_of = [&](Rank r, bool adding) -> MeldShape& {
    if (!known[int(r)]) {
      known[int(r)] = true;
      const Meld* b = MeldFor(side, r, adding);
      shapes[int(r)].shape = b ? b->Shape() : MeldShape{};
      shapes[int(r)].shape.rank = r;
    }
    return shapes[int(r)].shape;
  };
  for (size_t index = 0; index < parts.size(); ++index) {
    const MeldPart& part = parts[index];
    // One pass over the part's cards: red threes, and the kinds a shape counts.
    bool red_three = false;
    int naturals = 0, twos = 0, jokers = 0;
    for (Card c : part.cards) {
      red_three |= c.is_red_three();
      if (c.is_joker()) ++jokers;
      else if (c.rank() == Rank::kTwo) ++twos;
      else ++naturals;
    }
    auto add_cards = [&](MeldShape* s) {
      s->naturals += naturals;
      s->twos += twos;
      s->jokers += jokers;
    };
    // Findings are worded out of line: the usual part has none.
    if (red_three) {
      Rare([&] {
        out.push_back(Tv(CheckId::kMeldRedThree,
                         "red threes are never melded; they are laid out face up",
                         rules_->Cite("rule.red_three_meld", "000 §7")));
      });
      continue;
    }
    if (part.cards.empty()) {
      Rare([&] { out.push_back(Tv(CheckId::kMeldTooSmall, "a meld with no cards", "000 §8")); });
      continue;
    }
    // A meld named by its id (canasta-log/1 "to"): a sequence, or a rank meld.
    std::optional<Rank> to = part.to;
    if (!part.to_id.empty()) {
      const Meld* named = FindMeldById(side, part.to_id);
      if (!named) {
        Rare([&] {
          out.push_back(Tv(CheckId::kMeldTargetMissing,
                           "the side has no meld named \"" + part.to_id + "\" to add to",
                           "000 §8"));
        });
        continue;
      }
      if (!named->sequence()) to = named->rank;
    }
    if (part.sequence && !rules_->sequence_melds) {
      // The part's one finding; cards of one rank are then checked and laid
      // as a meld of that rank (readings R122), so the melds that go on it
      // are not findings of their own.
      Rare([&] {
        const std::optional<Rank> one = MeldRank(part.cards, std::nullopt);
        if (!one) return;  // no rank to read it as: SequenceRefusal words it
        out.push_back(
            Tv(CheckId::kMeldMixedRanks,
               "the cards " + ToString(part.cards) +
                   " are declared a sequence (\"as\":\"sequence\"); sequences are "
                   "not melds under this ruleset, so they are replayed as a meld of " +
                   (*one == Rank::kJoker ? std::string("wild cards") : ToString(*one) + "s") +
                   " (readings R122)",
               rules_->Cite("rule.meld_ranks", "000 §8")));
      });
    }
    const Meld* sequence = nullptr;
    if (IsSequencePart(side, part, &sequence)) {
      Rare([&, index, player, sequence, verdicts] {  // only rulesets with sequences come here
        // Cards this move laid on the same sequence already count (one
        // event may extend it at both ends).
        std::vector<Card> before = sequence ? sequence->cards : std::vector<Card>{};
        for (size_t j = 0; j < index; ++j)
          if (!parts[j].to_id.empty() && parts[j].to_id == part.to_id && sequence)
            before.insert(before.end(), parts[j].cards.begin(), parts[j].cards.end());
        std::optional<Violation> refusal = SequenceRefusal(player, sequence, before, part.cards);
        if (verdicts) verdicts->Set(index, refusal.has_value());
        if (refusal) out.push_back(TaggedViolation{0, std::move(*refusal)});
      });
      continue;
    }
    // Without a named rank the part's rank is its natural rank: found once.
    const std::optional<Rank> named_rank = to ? to : part.as;
    const std::optional<Rank> natural_rank = MeldRank(part.cards, std::nullopt);
    const std::optional<Rank> rank = named_rank ? named_rank : natural_rank;
    if (!natural_rank || (rank && *natural_rank != Rank::kJoker && *natural_rank != *rank)) {
      Rare([&] {
        out.push_back(Tv(CheckId::kMeldMixedRanks,
                         "the cards " + ToString(part.cards) + " are not all of one rank",
                         rules_->Cite("rule.meld_ranks", "000 §8")));
      });
      continue;
    }
    MeldShape& current = shape_of(*rank, to.has_value());
    const bool exists = current.size() > 0;
    if (to && !exists) {
      Rare([&, side, rank] {
        const Meld* theirs = nullptr;
        for (int s = 0; s < rules_->num_sides() && !theirs; ++s)
          if (s != side) theirs = FindMeld(s, *rank);
        out.push_back(Tv(CheckId::kMeldTargetMissing,
                         theirs ? "the meld of " + ToString(*rank) +
                                      "s belongs to the other side; players never add to an "
                                      "opponent's meld"
                                : "the side has no meld of " + ToString(*rank) + "s to add to",
                         theirs ? rules_->Cite("rule.opponent_meld", "000 §8") : "000 §8"));
      });
      continue;
    }
    if (exists && !to) {
      // A new meld of a rank the side already holds is combined with it
      // (readings R18); the new cards must make a meld on their own first.
      MeldShape alone;  // as ShapeAfterAdding(nullptr, part.cards, *rank, ...)
      alone.rank = *rank;
      add_cards(&alone);
      if (auto v = CheckMeldShape(*rules_, *hooks_, alone)) {
        Rare([&] { out.push_back(TaggedViolation{0, std::move(*v)}); });
        continue;
      }
    }
    MeldShape shape = current;
    shape.is_new = !exists;
    shape.was_canasta = exists && current.size() >= rules_->canasta_size;
    add_cards(&shape);
    // A wrong meld is still laid as recorded, so later checks see the table.
    // An earlier part of this move may have laid the side's wild meld.
    std::optional<bool> wild_open;
    if (known[int(Rank::kJoker)] && *rank != Rank::kJoker) {
      const MeldShape& w = shapes[int(Rank::kJoker)].shape;
      wild_open = w.size() > 0 && w.size() < rules_->canasta_size;
    }
    std::optional<Violation> refusal =
        MeldRefusal(player, shape, part.cards, /*from_pile=*/false, wild_open);
    if (verdicts) {
      verdicts->Set(index, refusal.has_value());
      verdicts->SetRank(index, *rank);
    }
    if (refusal) Rare([&] { out.push_back(TaggedViolation{0, std::move(*refusal)}); });
    current = shape;
  }
}

bool Position::PlayUsualMeld(const MeldMove& m, TaggedViolations* out) {
  // The turn's order (CheckTurn) passes, and the apply begins no turn. The
  // seat in turn is a seat of the table (InvariantsHold), so m.player is.
  if (m.parts.size() != 1 || phase_ != Phase::kPlay || m.player != current_) return false;
  const MeldPart& part = m.parts[0];
  // A part named by rank alone (or by none): no sequence, no id to find.
  if (part.as || part.sequence || !part.to_id.empty()) return false;
  const std::vector<Card>& cards = part.cards;
  Player& p = players_[m.player];
  // Two cards kept: no keep_a_card, no going out, no foot (the hand is the holding).
  if (cards.empty() || p.hand.total() - int(cards.size()) < 2) return false;
  // One pass over the cards: red threes, the kinds a shape counts, and the
  // natural rank (MeldRank's: kJoker for wild cards only, none for mixed ranks).
  bool red_three = false, mixed = false;
  int naturals = 0, twos = 0, jokers = 0;
  Rank natural = Rank::kJoker;
  for (Card c : cards) {
    red_three |= c.is_red_three();
    if (c.is_joker()) {
      ++jokers;
    } else if (c.rank() == Rank::kTwo) {
      ++twos;
    } else {
      ++naturals;
      mixed |= natural != Rank::kJoker && c.rank() != natural;
      natural = c.rank();
    }
  }
  if (red_three || mixed) return false;
  if (part.to ? *part.to == Rank::kJoker || (natural != Rank::kJoker && natural != *part.to)
              : natural == Rank::kJoker)
    return false;
  const Rank rank = part.to ? *part.to : natural;
  if (!HoldsAll(p.hand, cards)) return false;
  // Added to the meld named, or a new meld of a rank the side has none of
  // (a second meld of a rank, readings R18, goes the general way).
  const int side = side_of(m.player);
  const Meld* base = FindMeld(side, rank);  // MeldFor's, for a rank of naturals
  MeldShape shape = base ? base->Shape() : MeldShape{};
  shape.rank = rank;
  const bool exists = shape.size() > 0;
  if (exists != part.to.has_value()) return false;
  shape.is_new = !exists;
  shape.was_canasta = exists && shape.size() >= rules_->canasta_size;
  shape.naturals += naturals;
  shape.twos += twos;
  shape.jokers += jokers;
  // Weighed once, as the general way does (a hook of the ruleset is asked once).
  std::optional<Violation> refusal = MeldRefusal(m.player, shape, cards, /*from_pile=*/false);
  const bool refused = refusal.has_value();
  if (refused) Rare([&] { out->push_back(TaggedViolation{0, std::move(*refusal)}); });
  for (Card c : cards) p.hand.Remove(c);
  LayOnRankMeld(side, rank, base, part, m.tag, refused);
  NoteMeldLaid(m.tag);
  CANASTA_DCHECK(InvariantsHold());
  return true;
}

TaggedViolations Position::Play(const MeldMove& m) {
  TaggedViolations v;  // one vector returned by either path (no move)
  if (PlayUsualMeld(m, &v)) return v;
  MeldVerdicts verdicts;
  v = CheckMeld(m, &verdicts);
  ApplyMeld(m, &verdicts);
  CANASTA_DCHECK(InvariantsHold());
  return v;
}

TaggedViolations Position::CheckMeld(const MeldMove& m, MeldVerdicts* verdicts) const {
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/false, &out);
  if (m.player < 0 || m.player >= rules_->num_players) return out;
  MeldShapes shapes;
  std::array<bool, 16> known{};
  MeldVerdicts own;
  if (!verdicts) verdicts = &own;
  CheckMeldParts(m.player, m.parts, &shapes, &known, &out, verdicts);
  int laid = 0;
  for (const MeldPart& part : m.parts) laid += int(part.cards.size());
  const int side = side_of(m.player);

  // Going out by melding every card (000 §17).
  const int left = players_[m.player].hand.total() - laid;
  auto canastas_after = [&] {
    int canastas = 0;
    for (const Meld& x : sides_[side].melds)
      canastas += !known[int(x.rank)] && x.is_canasta(*rules_);
    for (int r = 0; r < 16; ++r) canastas += known[r] && shapes[r].shape.size() >= rules_->canasta_size;
    // Sequences this move lays or completes (002 L67).
    for (const MeldPart& part : m.parts) {
      const Meld* sequence = nullptr;
      if (!IsSequencePart(side, part, &sequence)) continue;
      const int before = sequence ? sequence->size() : 0;
      canastas += before < rules_->canasta_size &&
                  before + int(part.cards.size()) >= rules_->canasta_size;
    }
    return canastas;
  };
  // keep_a_card (001 L21, readings R38): one card left is the discard that
  // goes out, so the meld is refused unless the player may go out now.
  if (rules_->keep_a_card && left == 1 && laid > 0 && phase_ == Phase::kPlay &&
      m.player == current_ && !MayMeldDownToOne(m.player)) {
    Rare([&] {  // once a hand at most
      SideSummary summary = Summary(side);
      summary.canastas = canastas_after();
      const int needed = hooks_->CanastasToGoOut(*rules_, summary);
      const bool told_no = turn_.answer && !*turn_.answer && rules_->out_answer_binds;
      if (summary.canastas < needed || told_no)
        out.push_back(Tv(CheckId::kMeldKeepACard,
                         Seat(m.player) + " melds down to one card without going out (" +
                             (told_no ? std::string("the partner answered no")
                                      : "the side has " + std::to_string(summary.canastas) +
                                            " of the " + std::to_string(needed) +
                                            " canastas needed") +
                             "); a player not going out keeps two cards after melding",
                         rules_->Cite("keep_a_card", "001 L21, readings R38")));
    });
  }
  if (left <= 0 && phase_ == Phase::kPlay && m.player == current_ && FootPending(m.player)) {
    // 002 L71: the hand is emptied, not gone out; under next_turn the turn ends here.
    if (rules_->foot_pickup == FootPickup::kNextTurn) {
      Rare([&] {
        Position copy_free_check = *this;
        copy_free_check.LayParts(m.player, m.parts, m.tag, verdicts);
        copy_free_check.CheckTurnEnd(false, canastas_after(), &out, Card(), "meld");
      });
    }
  } else if (left <= 0 && phase_ == Phase::kPlay && m.player == current_ && !turn_.draw_left_out) {
    Rare([&] {  // going out: once a hand
      const int canastas = canastas_after();
      if (rules_->discard_required_to_go_out)
        out.push_back(Tv(CheckId::kOutWithoutDiscard,
                         Seat(m.player) + " melds every card; going out needs a final discard",
                         rules_->Cite("discard_required_to_go_out",
                                     "002 Play-8, Play-11, readings R29")));
      // The turn-end checks, as if this meld were in the turn.
      Position copy_free_check = *this;  // cheap enough: once per hand
      copy_free_check.ApplyMeld(m, verdicts);
      copy_free_check.CheckTurnEnd(true, canastas, &out, Card(), "meld");
    });
  }
  return out;
}

bool Position::MayMeldAfterTurn(const MeldMove& m) const {
  const int n = rules_->num_players;
  // The seat whose turn just ended: the one before the seat in turn.
  if (m.player < 0 || m.player >= n || phase_ == Phase::kOver || m.player == current_ ||
      m.player != (current_ + n - 1) % n)
    return false;
  // readings R141: a side not opened laid nothing in the turn that ended,
  // so the meld is that turn's initial meld; not where an initial meld
  // earns bonus cards drawn after the discard (001 L37), already made.
  if (!sides_[side_of(m.player)].opened &&
      (rules_->bonus_cards_first > 0 || rules_->bonus_cards_second > 0))
    return false;
  int laid = 0;
  for (const MeldPart& part : m.parts) laid += int(part.cards.size());
  return laid > 0 && laid < players_[m.player].hand.total() && !FootPending(m.player);
}

TaggedViolations Position::PlayMeldAfterTurn(const MeldMove& m) {
  TaggedViolations out;
  if (!MayMeldAfterTurn(m)) return out;
  MeldShapes shapes;
  std::array<bool, 16> known{};
  MeldVerdicts verdicts;
  // The turn that laid it has ended: the turn in play keeps its own record.
  const Turn in_play = turn_;
  const bool opening = !sides_[side_of(m.player)].opened;
  if (opening) {
    // The ended turn's initial meld (readings R141), judged as its end
    // would have judged it.
    turn_.Reset();
    turn_.player = m.player;
    turn_.opening = true;
    turn_.drew = true;
  }
  CheckMeldParts(m.player, m.parts, &shapes, &known, &out, &verdicts);
  LayParts(m.player, m.parts, m.tag, &verdicts);
  if (opening) {
    if (TurnEndJudgesOpening()) OpeningFindings(&out, turn_.last_meld_tag);
    FinishTurn();  // the side opens
  }
  turn_ = in_play;
  players_[m.player].melded_before = true;
  CANASTA_DCHECK(InvariantsHold());
  return out;
}

void Position::ApplyMeld(const MeldMove& m, const MeldVerdicts* verdicts) {
  if (m.player < 0 || m.player >= rules_->num_players || phase_ == Phase::kOver) return;
  const bool own_turn = m.player == current_;
  const bool first_turn_due = phase_ == Phase::kBeforePlay && !play_begun_ && own_turn;
  if (m.player != current_) BeginTurn(m.player);
  if ((phase_ == Phase::kDraw || first_turn_due) && m.player == current_) {
    // A meld before the turn's draw (turn-sequence, once), the first turn's
    // too: the draw was left out of the record, or comes late (readings R121).
    if (turn_.player != m.player) BeginTurn(m.player);
    phase_ = Phase::kPlay;
    turn_.draw_left_out = true;
  }
  TakeUpFootPlayedOn(m.player);
  LayParts(m.player, m.parts, m.tag, verdicts);
  Player& p = players_[m.player];
  if (p.hand.empty() && phase_ == Phase::kPlay && FootPending(m.player)) {
    HandEmptiedBeforeFoot(m.player);
  } else if (p.hand.empty() && phase_ == Phase::kPlay && !(own_turn && turn_.draw_left_out)) {
    // (A hand emptied in its own turn before the turn's draw has not gone
    // out: the draw was left out or comes late, and the turn plays on;
    // readings R121.)
    ChargeGoingOut(m.player);
    went_out_ = m.player;
    concealed_ = !p.melded_before && !turn_.added_to_old_meld;
    phase_ = Phase::kOver;
    FinishTurn();
  }
}

void Position::LayParts(int player, const std::vector<MeldPart>& parts, int tag,
                        const MeldVerdicts* verdicts) {
  Player& p = players_[player];
  const int side = side_of(player);
  for (size_t index = 0; index < parts.size(); ++index) {
    const MeldPart& part = parts[index];
    // Cards not held are laid as recorded too (the check reported them).
    const std::vector<Card>& laid = part.cards;
    bool red_three = false;
    for (Card c : laid) {
      red_three |= c.is_red_three();
      if (!p.hand.Remove(c)) Conjure(c);
    }
    if (laid.empty()) continue;
    if (red_three) {
      Rare([&, side] {
        // Lay red threes out, as the player should have.
        for (Card c : laid) {
          if (c.is_red_three()) sides_[side].threes.push_back(c);
          else p.hand.Add(c);
        }
      });
      continue;
    }
    const bool weighed = verdicts && index < 32 && ((verdicts->weighed >> index) & 1u);
    // Named by no id, the part's kind and rank depend on the part alone: a
    // part the check weighed as a meld of a rank is no sequence, and of that
    // rank. (A meld named by id may be one an earlier part laid.)
    const bool ranked = weighed && part.to_id.empty() && ((verdicts->ranked >> index) & 1u);
    const Meld* sequence = nullptr;
    if (!ranked && IsSequencePart(side, part, &sequence)) {
      // Only rulesets with sequences come here.
      Rare([&, weighed, verdicts, index, player, side, sequence] {
        const bool refused =
            weighed ? ((verdicts->refused >> index) & 1u) != 0
                    : SequenceRefusal(player, sequence, sequence ? sequence->cards
                                                                 : std::vector<Card>{},
                                      laid)
                          .has_value();
        if (refused) turn_.illegal_meld = true;
        Meld* meld = const_cast<Meld*>(sequence);
        if (meld && !turn_.laid.Contains(meld->cards)) turn_.added_to_old_meld = true;
        if (!meld) {
          int n = 1;
          for (const Meld& x : sides_[side].melds) n += x.sequence();
          meld = NewSideMeld(side, 14);
          meld->rank = Rank::kSequence;
          // readings R115: a sequence the log names not is "seq1", "seq2", ...
          meld->id = part.id.empty() ? "seq" + std::to_string(n) : part.id;
        }
        if (turn_.opening) {
          const int value = CountToward(laid, turn_.from_hand_limited ? &turn_.from_hand : nullptr,
                                        &turn_.counted);
          turn_.initial_count = SaturatingAdd(turn_.initial_count, value);
          turn_.rank_count[int(Rank::kSequence)] =
              SaturatingAdd(turn_.rank_count[int(Rank::kSequence)], value);
          turn_.ranks_laid |= uint16_t(1u << int(Rank::kSequence));
        }
        for (Card c : laid) {
          meld->Add(c);
          turn_.laid.Add(c);
          if (c == turn_.top_to_hand) turn_.top_to_hand = Card();
        }
      });
      continue;
    }
    std::optional<Rank> to = part.to;
    std::optional<Rank> rank;
    if (!part.to_id.empty()) {
      if (const Meld* named = FindMeldById(side, part.to_id)) to = named->rank;
    } else if (ranked) {
      rank = verdicts->ranks[index];
    }
    if (!rank) rank = MeldRank(laid, to ? to : part.as);
    if (!rank) rank = laid.front().is_wild() ? Rank::kJoker : laid.front().rank();
    const Meld* base = MeldFor(side, *rank, to.has_value());
    const bool refused =
        weighed ? ((verdicts->refused >> index) & 1u) != 0
                : MeldRefusal(player, ShapeAfterAdding(base, laid, *rank, *rules_), laid,
                              /*from_pile=*/false)
                      .has_value();
    LayOnRankMeld(side, *rank, base, part, tag, refused);
  }
  NoteMeldLaid(tag);
}

// In line in both callers: the usual meld calls it once a move.
[[gnu::always_inline]] inline void Position::LayOnRankMeld(int side, Rank rank, const Meld* base,
                                                           const MeldPart& part, int tag,
                                                           bool refused) {
  const std::vector<Card>& laid = part.cards;
  if (refused) turn_.illegal_meld = true;
  // A meld not laid wholly this turn is an old one; asked only until the
  // turn has added to one (more cards than the turn laid cannot all be its).
  if (!turn_.added_to_old_meld && base && !base->cards.empty() &&
      (base->size() > turn_.laid.total() || !turn_.laid.Contains(base->cards)))
    turn_.added_to_old_meld = true;
  if (rank == Rank::kThree) turn_.black_three_tags.push_back(tag);
  if (turn_.opening) {
    const int counted_before = turn_.counted.total();
    const int value =
        CountToward(laid, turn_.from_hand_limited ? &turn_.from_hand : nullptr, &turn_.counted);
    turn_.initial_count = SaturatingAdd(turn_.initial_count, value);
    turn_.rank_count[int(rank)] = SaturatingAdd(turn_.rank_count[int(rank)], value);
    turn_.ranks_laid |= uint16_t(1u << int(rank));
    // A card that did not count came with the pile (000 §13).
    if (turn_.counted.total() - counted_before < int(laid.size()))
      turn_.ranks_from_pile |= uint16_t(1u << int(rank));
  }
  Meld* meld = MeldToLayOn(side, rank, base);
  if (!part.id.empty() && meld->id.empty()) meld->id = part.id;
  for (Card c : laid) {
    meld->Add(c);
    turn_.laid.Add(c);
    if (c == turn_.top_to_hand) turn_.top_to_hand = Card();  // melded (pile_top_to_hand)
  }
}

TaggedViolations Position::CheckRetract(const RetractMove& m) const {
  TaggedViolations out;
  CheckTurn(m.player, /*drawing=*/false, &out);
  if (!turn_.laid.Contains(m.cards)) {
    out.push_back(Tv(CheckId::kRetractNotAllowed,
                     "only cards laid down this turn may be taken back (" + ToString(m.cards) +
                         ")",
                     "000 §8, §10"));
  } else if (!turn_.illegal_meld && !OpeningShort()) {
    out.push_back(Tv(CheckId::kRetractNotAllowed,
                     "cards are taken back only to correct an illegal or insufficient meld",
                     "000 §8, §10"));
  }
  return out;
}

void Position::ApplyRetract(const RetractMove& m) {
  if (m.player < 0 || m.player >= rules_->num_players || phase_ == Phase::kOver) return;
  const int side = side_of(m.player);
  Side& s = sides_[side];
  const bool insufficient = OpeningShort();
  const bool all = turn_.laid.total() == int(m.cards.size());
  for (Card c : m.cards) {
    for (Meld& meld : s.melds) {
      if (meld.Remove(c)) {
        players_[m.player].hand.Add(c);
        turn_.laid.Remove(c);
        // A card that counted toward the minimum is a card from the hand
        // again (000 §10): it counts once more if melded again this turn
        // (readings R108). One that did not (from the pile) still does not.
        if (turn_.opening && turn_.counted.Remove(c)) {
          const int value = hooks_->InitialMeldValue(*rules_, c);
          turn_.initial_count = SaturatingAdd(turn_.initial_count, -value);
          turn_.rank_count[int(meld.rank)] =
              SaturatingAdd(turn_.rank_count[int(meld.rank)], -value);
          if (turn_.from_hand_limited) turn_.from_hand.Add(c);
        }
        break;
      }
    }
  }
  s.melds.erase(std::remove_if(s.melds.begin(), s.melds.end(),
                               [](const Meld& x) { return x.cards.empty(); }),
                s.melds.end());
  // 000 §10: penalties for correcting a meld.
  if (turn_.illegal_meld) {
    s.penalties = SaturatingAdd(s.penalties, rules_->illegal_meld_penalty);
    turn_.illegal_meld = false;
  } else if (insufficient && rules_->insufficient_meld_penalties) {
    if (all)
      s.minimum_increase = SaturatingAdd(s.minimum_increase, rules_->retract_all_minimum_increase);
    else
      s.penalties = SaturatingAdd(s.penalties, rules_->partial_retract_penalty);
  }
  if (turn_.laid.empty()) {
    turn_.melded = turn_.took_pile;
    turn_.first_meld_tag = turn_.last_meld_tag = 0;
    turn_.initial_count = 0;
    turn_.rank_count = {};
    turn_.ranks_laid = turn_.ranks_from_pile = 0;
  }
}

}  // namespace canasta
