#include "cli/hand_tree.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "lint/format.h"
#include "replay/moves.h"

namespace canasta {
namespace {

// Alternatives drawn per point; the rest fold into "+N more".
constexpr int kShown = 4;

// cgraph takes non-const char* (platform-facts.md).
char* C(const std::string& s) { return const_cast<char*>(s.c_str()); }

void Set(void* obj, const char* key, const std::string& value) {
  agsafeset(obj, const_cast<char*>(key), C(value), const_cast<char*>(""));
}

// Text from the log (a player's name) in a label is shown as findings show
// it (Printable): Graphviz's HTML parser refuses a raw control code, and a
// DOT file on a terminal would send it there.

// A plain Graphviz label: cgraph quotes it when writing DOT; only a
// backslash would start one of Graphviz's label escapes (\n, \N).
std::string Label(const std::string& raw) {
  const std::string text = Printable(raw);
  std::string out;
  for (char c : text) {
    if (c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// Graphviz HTML-like labels: escape what its HTML parser reads.
std::string Html(const std::string& raw) {
  const std::string text = Printable(raw);
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A card as a club player writes it: rank and suit symbol, hearts and
// diamonds in red.
std::string CardHtml(Card c) {
  if (c.is_joker()) return "JK";
  std::string rank = c.rank() == Rank::kTen ? "10" : ToString(c.rank());
  static const char* kSymbols[] = {"\u2660", "\u2665", "\u2666", "\u2663"};
  const std::string text = rank + kSymbols[int(c.suit())];
  return c.is_red() ? "<FONT COLOR=\"#c00000\">" + text + "</FONT>" : text;
}

std::string CardsHtml(const std::vector<Card>& cards) {
  std::string s;
  for (Card c : cards) s += (s.empty() ? "" : " ") + CardHtml(c);
  return s;
}

// A decision's box: who and when, what was done, the hand, the pile.
std::string DecisionHtml(const Decision& d) {
  std::string rows = "<TR><TD>turn " + std::to_string(d.turn) + " \u00b7 " + Html(d.player) +
                     " \u00b7 line " + std::to_string(d.line) + "</TD></TR>";
  rows += "<TR><TD><B>" + Html(d.chosen) + "</B></TD></TR>";
  if (!d.hand.empty()) rows += "<TR><TD>hand: " + CardsHtml(d.hand) + "</TD></TR>";
  std::string pile =
      "pile: " + std::to_string(d.pile_size) + (d.pile_size == 1 ? " card" : " cards");
  if (d.pile_top) pile += ", " + CardHtml(*d.pile_top) + " on top";
  if (!d.pile_state.empty()) pile += "; " + Html(d.pile_state);
  rows += "<TR><TD>" + pile + "</TD></TR>";
  if (d.key) rows += "<TR><TD><FONT COLOR=\"red\">[" + Html(d.why_key) + "]</FONT></TD></TR>";
  return "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"1\">" + rows + "</TABLE>";
}

void SetHtmlLabel(Agraph_t* g, void* obj, const std::string& html) {
  char* h = agstrdup_html(g, C(html));
  agsafeset(obj, const_cast<char*>("label"), h, const_cast<char*>(""));
  agstrfree(g, h);
}

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return std::string(buf) == "-0" ? "0" : buf;
}

// "+410 ± 60": the alternative's value minus the move played's.
std::string Relative(const AlternativeValue& a) {
  const std::string v = Fixed(a.vs_played);
  return (v[0] == '-' || v == "0" ? v : "+" + v) + " \u00b1 " + Fixed(a.vs_played_se);
}

// The rank a meld part lays its cards on, and a card as it counts for
// grouping (GroupKey's equivalence).
int PartRank(const MeldPart& p) {
  if (p.to) return int(*p.to);
  if (p.as) return int(*p.as);
  for (Card c : p.cards)
    if (!c.is_wild()) return int(c.rank());
  return int(Rank::kTwo);
}
std::string Face(Card c) {
  if (c.is_three()) return c.is_red() ? "3red" : "3black";
  return ToString(c.rank());
}

// A meld alternative the phase played anyway, in one event or several: each
// of its cards (by face) went onto the same rank during the phase.
bool PlayedInPhase(const Move& m, const std::vector<MeldPart>& melded) {
  const MeldMove* x = std::get_if<MeldMove>(&m);
  if (!x || melded.empty()) return false;
  std::map<std::pair<int, std::string>, int> have;
  for (const MeldPart& p : melded)
    for (Card c : p.cards) ++have[{PartRank(p), Face(c)}];
  for (const MeldPart& p : x->parts)
    for (Card c : p.cards)
      if (--have[{PartRank(p), Face(c)}] < 0) return false;
  return true;
}

// The played line: bold and blue, so that it reads down the page.
void Played(Agedge_t* e) {
  Set(e, "color", "#1f5fbf");
  Set(e, "penwidth", "2.5");
  Set(e, "style", "bold");
}

// Builds the tree, top to bottom: the turns as played (only the key
// decisions unless `all`) joined by the played line, each with the groups of
// alternatives the rules allowed as dashed boxes beside it, their values on
// the edges when evaluated; key decisions are outlined in red.
Agraph_t* BuildGraph(const HandDecisions& h, const std::map<int, TreePoint>& points,
                     const TreeOptions& options) {
  const bool all = options.all;
  Agraph_t* g = agopen(C("hand"), Agdirected, nullptr);
  Set(g, "rankdir", "TB");
  Set(g, "fontname", "Helvetica");
  Set(g, "nodesep", "0.25");
  std::string title = "game " + std::to_string(h.game) + ", hand " + std::to_string(h.hand) + " (" +
                      h.ruleset + ")" + options.subtitle;
  if (!options.values.empty())
    title += "\\nvalues: hand points against the move played, " + options.values;
  Set(g, "label", title);
  agattr(g, AGNODE, C("shape"), C("box"));
  agattr(g, AGNODE, C("style"), C("rounded"));
  agattr(g, AGNODE, C("fontname"), C("Helvetica"));
  agattr(g, AGNODE, C("fontsize"), C("10"));
  agattr(g, AGNODE, C("color"), C("black"));
  agattr(g, AGNODE, C("fontcolor"), C("black"));
  agattr(g, AGNODE, C("penwidth"), C("1"));
  agattr(g, AGEDGE, C("style"), C("solid"));
  agattr(g, AGEDGE, C("color"), C("black"));
  agattr(g, AGEDGE, C("penwidth"), C("1"));
  agattr(g, AGEDGE, C("label"), C(""));
  agattr(g, AGEDGE, C("xlabel"), C(""));
  agattr(g, AGEDGE, C("fontsize"), C("9"));
  agattr(g, AGEDGE, C("fontname"), C("Helvetica"));
  Agnode_t* prev = agnode(g, C("start"), 1);
  Set(prev, "label", "deal");
  Set(prev, "shape", "ellipse");
  int id = 0, skipped = 0;
  auto link = [&](Agnode_t* to) {
    Agedge_t* e = agedge(g, prev, to, nullptr, 1);
    Played(e);
    if (skipped) Set(e, "label", std::to_string(skipped) + " other decision(s)");
    skipped = 0;
    prev = to;
  };
  for (const Decision& d : h.decisions) {
    if (!all && !d.key) {
      ++skipped;
      continue;
    }
    const TreePoint* start = nullptr;
    const TreePoint* discard = nullptr;
    if (auto it = points.find(d.first_line); it != points.end()) start = &it->second;
    if (d.line != d.first_line)
      if (auto it = points.find(d.line); it != points.end() && it->second.discard)
        discard = &it->second;
    Decision shown = d;
    if ((start && start->value.status == DecisionStatus::kIllegal) ||
        (discard && discard->value.status == DecisionStatus::kIllegal)) {
      shown.key = true;
      shown.why_key = (d.key ? d.why_key + "; " : "") + "illegal: the audit reports it";
    }
    Agnode_t* n = agnode(g, C("d" + std::to_string(id++)), 1);
    SetHtmlLabel(g, n, DecisionHtml(shown));
    if (shown.key) {
      Set(n, "color", "red");
      Set(n, "penwidth", "2");
    }
    link(n);
    // The alternatives sit in the decision's row.
    // Anonymous: cgraph orders named subgraphs by their name string's
    // address, which would make the DOT text differ from run to run.
    Agraph_t* row = agsubg(g, nullptr, 1);
    Set(row, "rank", "same");
    agsubnode(row, n, 1);
    const bool melded_first = start && discard;
    auto alternatives = [&](const TreePoint& p, bool in_phase_start) {
      const DecisionValue& v = p.value;
      if (v.status == DecisionStatus::kIllegal || v.status == DecisionStatus::kForced) return;
      const bool valued = v.status == DecisionStatus::kEvaluated;
      int drawn = 0, folded = 0;
      for (const AlternativeValue& a : v.alternatives) {
        if (a.played) continue;
        const bool best = options.mark_best && valued && &a == &v.alternatives[0];
        if (in_phase_start && PlayedInPhase(a.move, start->melded)) continue;
        if (drawn >= kShown) {
          ++folded;
          continue;
        }
        ++drawn;
        std::string words = a.words;
        if (in_phase_start && melded_first && std::holds_alternative<DiscardMove>(a.move))
          words += ", melding nothing";
        if (p.discard && !in_phase_start)
          words = "instead of " + p.played_words.substr(10) + ": " + words;
        if (a.members > 1) words += " (" + std::to_string(a.members) + " ways)";
        if (best) words = "best: " + words;
        Agnode_t* x = agnode(row, C("a" + std::to_string(id++)), 1);
        Set(x, "label", Label(words));
        Set(x, "color", "gray50");
        Set(x, "fontcolor", "gray35");
        Set(x, "style", "rounded,dashed");
        Agedge_t* e = agedge(g, n, x, nullptr, 1);
        Set(e, "style", "dashed");
        Set(e, "color", "gray60");
        if (best) {
          Set(x, "color", "#1a7f37");
          Set(x, "fontcolor", "#1a7f37");
          Set(x, "penwidth", "2");
          Set(e, "color", "#1a7f37");
        }
        if (valued) Set(e, "xlabel", Relative(a));  // a label on a flat edge crashes 2.42
      }
      if (folded) {
        Agnode_t* x = agnode(row, C("a" + std::to_string(id++)), 1);
        Set(x, "label", "+" + std::to_string(folded) + " more");
        Set(x, "color", "gray70");
        Set(x, "fontcolor", "gray45");
        Set(x, "style", "rounded,dotted");
        Agedge_t* e = agedge(g, n, x, nullptr, 1);
        Set(e, "style", "dotted");
        Set(e, "color", "gray70");
      }
    };
    if (start) alternatives(*start, true);
    if (discard) alternatives(*discard, false);
  }
  if (!h.scores.empty()) {
    Agnode_t* end = agnode(g, C("end"), 1);
    std::string s;
    for (size_t i = 0; i < h.scores.size(); ++i) s += (i ? ", " : "") + std::to_string(h.scores[i]);
    Set(end, "label", "hand scores: " + s);
    Set(end, "shape", "ellipse");
    link(end);
  }
  return g;
}

// Graphviz is not thread-safe, and one context per process (platform-facts.md).
GVC_t* Context() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

}  // namespace

bool TreePoints::Shows(const CountedMove& c, const Move& move) {
  return c.index >= 0 && (c.draws || c.starts_play || std::holds_alternative<DiscardMove>(move));
}

void TreePoints::Add(int line, const CountedMove& c, const Move& move, const Position& before,
                     DecisionValue value) {
  if (c.index < 0) return;
  if (c.starts_play) phase_start_ = line;
  if (Shows(c, move)) {
    TreePoint p;
    p.pile = int(before.pile().size());
    p.discard = std::holds_alternative<DiscardMove>(move);
    p.played_words = MoveWords(move, p.pile);
    p.value = std::move(value);
    // A phase's start keeps the parts melded so far in its phase.
    std::vector<MeldPart> melded = std::move(points_[line].melded);
    points_[line] = std::move(p);
    points_[line].melded = std::move(melded);
  }
  if (auto* m = std::get_if<MeldMove>(&move); m && c.in_play && phase_start_ >= 0) {
    std::vector<MeldPart>& parts = points_[phase_start_].melded;
    parts.insert(parts.end(), m->parts.begin(), m->parts.end());
  }
}

void TreePoints::Revalue(int line, const DecisionValue& value) {
  auto it = points_.find(line);
  if (it != points_.end() && it->second.value.status == DecisionStatus::kEvaluated)
    it->second.value = value;
}

bool RenderTree(const HandDecisions& h, const std::map<int, TreePoint>& points,
                const TreeOptions& options, const std::string& format, std::string* out,
                std::string* error) {
  static std::mutex graphviz;
  std::lock_guard<std::mutex> lock(graphviz);
  Agraph_t* g = BuildGraph(h, points, options);
  std::string text;
  if (format == "dot") {
    // DOT needs no layout: cgraph writes it.
    char* data = nullptr;
    size_t length = 0;
    if (FILE* mem = open_memstream(&data, &length)) {
      agwrite(g, mem);
      std::fclose(mem);
      text.assign(data, length);
      std::free(data);
    }
  } else {
    if (gvLayout(Context(), g, "dot") != 0) {
      agclose(g);
      *error =
          "Graphviz could not lay out the tree (is its plugin configuration written? "
          "`libgvc6-config-update -c` as root); `--format dot` needs no layout";
      return false;
    }
    char* data = nullptr;
    unsigned int length = 0;
    const int rc = gvRenderData(Context(), g, format.c_str(), &data, &length);
    if (rc == 0 && data) text.assign(data, length);
    if (data) gvFreeRenderData(data);
    gvFreeLayout(Context(), g);
    if (rc != 0) {
      agclose(g);
      *error = "this Graphviz has no '" + format +
               "' renderer (png and pdf come from its cairo plugin, Debian's libgvc6; "
               "`--format svg` or `dot` need none)";
      return false;
    }
  }
  agclose(g);
  if (text.empty()) {
    *error = "Graphviz rendered nothing";
    return false;
  }
  *out = std::move(text);
  return true;
}

std::string InlineSvg(const std::string& svg, const std::string& id_prefix) {
  const size_t start = svg.find("<svg");
  if (start == std::string::npos) return "";
  std::string s = svg.substr(start);
  for (const char* ns :
       {" xmlns=\"http://www.w3.org/2000/svg\"", " xmlns:xlink=\"http://www.w3.org/1999/xlink\""}) {
    const size_t at = s.find(ns);
    if (at != std::string::npos) s.erase(at, std::string(ns).size());
  }
  std::string o;
  o.reserve(s.size() + s.size() / 20);
  const std::string id = " id=\"";
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, id.size(), id) == 0) {
      o += id + id_prefix;
      i += id.size();
    } else {
      o += s[i++];
    }
  }
  return o;
}

}  // namespace canasta
