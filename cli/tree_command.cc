// `canasta tree`: the decision points of one hand as a Graphviz tree, laid out
// and rendered to SVG in this process (cgraph + gvc), or written as DOT.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>

#include <boost/program_options.hpp>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "replay/decisions.h"

namespace po = boost::program_options;

namespace canasta {
namespace {

constexpr char kTreeUsage[] =
    "usage: canasta tree [options] LOG\n"
    "\n"
    "The decision points of one hand: every turn as played, with what else the\n"
    "rules allowed at that moment (dashed), and the key decisions outlined in red\n"
    "(a pile left behind, a chance to go out not taken, a discard that gave the\n"
    "next player the pile). Rendered to SVG in-process with Graphviz.\n";

// cgraph takes non-const char* (platform-facts.md).
char* C(const std::string& s) { return const_cast<char*>(s.c_str()); }

void Set(void* obj, const char* key, const std::string& value) {
  agsafeset(obj, const_cast<char*>(key), C(value), const_cast<char*>(""));
}

// Graphviz labels: escape what DOT's record syntax would read.
std::string Label(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// Graphviz HTML-like labels: escape what its HTML parser reads.
std::string Html(const std::string& text) {
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

// Builds the tree, top to bottom: the turns as played (only the key
// decisions unless `all`), each with the alternatives the rules allowed as
// dashed boxes beside it; key decisions are outlined in red.
Agraph_t* BuildGraph(const HandDecisions& h, bool all) {
  Agraph_t* g = agopen(C("hand"), Agdirected, nullptr);
  Set(g, "rankdir", "TB");
  Set(g, "fontname", "Helvetica");
  Set(g, "nodesep", "0.25");
  Set(g, "label", "game " + std::to_string(h.game) + ", hand " + std::to_string(h.hand) +
                      " (" + h.ruleset + ")" +
                      (all ? "" : ": key decisions; `canasta tree --all` shows every turn"));
  agattr(g, AGNODE, C("shape"), C("box"));
  agattr(g, AGNODE, C("style"), C("rounded"));
  agattr(g, AGNODE, C("fontname"), C("Helvetica"));
  agattr(g, AGNODE, C("fontsize"), C("10"));
  agattr(g, AGNODE, C("color"), C("black"));
  agattr(g, AGNODE, C("fontcolor"), C("black"));
  agattr(g, AGNODE, C("penwidth"), C("1"));
  agattr(g, AGEDGE, C("style"), C("solid"));
  agattr(g, AGEDGE, C("color"), C("black"));
  agattr(g, AGEDGE, C("label"), C(""));
  agattr(g, AGEDGE, C("fontsize"), C("9"));
  Agnode_t* prev = agnode(g, C("start"), 1);
  Set(prev, "label", "deal");
  Set(prev, "shape", "ellipse");
  int id = 0, skipped = 0;
  auto link = [&](Agnode_t* to) {
    Agedge_t* e = agedge(g, prev, to, nullptr, 1);
    if (skipped) Set(e, "label", std::to_string(skipped) + " other decision(s)");
    skipped = 0;
    prev = to;
  };
  for (const Decision& d : h.decisions) {
    if (!all && !d.key) {
      ++skipped;
      continue;
    }
    Agnode_t* n = agnode(g, C("d" + std::to_string(id++)), 1);
    SetHtmlLabel(g, n, DecisionHtml(d));
    if (d.key) {
      Set(n, "color", "red");
      Set(n, "penwidth", "2");
    }
    link(n);
    // The alternatives sit in the decision's row.
    Agraph_t* row = agsubg(g, C("row" + std::to_string(id)), 1);
    Set(row, "rank", "same");
    agsubnode(row, n, 1);
    for (const std::string& alt : d.alternatives) {
      Agnode_t* a = agnode(row, C("a" + std::to_string(id++)), 1);
      Set(a, "label", Label(alt));
      Set(a, "color", "gray50");
      Set(a, "fontcolor", "gray35");
      Set(a, "style", "rounded,dashed");
      Agedge_t* e = agedge(g, n, a, nullptr, 1);
      Set(e, "style", "dashed");
      Set(e, "color", "gray60");
    }
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

int TreeCommand(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string rules, output, format;
  int game = 1, hand = 1;
  opts.add_options()("help,h", "this help")(
      "hand", po::value(&hand)->default_value(1), "the hand (1-based)")(
      "game", po::value(&game)->default_value(1), "the game in the file (1-based)")(
      "rules,r", po::value(&rules), "ruleset: overrides the log's")(
      "output,o", po::value(&output), "write here (default: stdout)")(
      "all", "every turn, not only the key decisions")(
      "format,f", po::value(&format),
      "svg or dot (default: from the output's extension, else svg)");
  std::vector<std::string> paths;
  po::variables_map vm;
  if (!ParseOptions(args, opts, "tree", kTreeUsage, &paths, &vm)) return kExitTrouble;
  if (vm.count("help")) {
    std::cout << kTreeUsage << "\n"
              << opts;
    return kExitOk;
  }
  if (paths.size() != 1) {
    std::cerr << "canasta tree: error: give one log\n";
    return kExitTrouble;
  }
  if (format.empty())
    format = output.size() > 4 && output.substr(output.size() - 4) == ".dot" ? "dot" : "svg";
  if (format != "svg" && format != "dot") {
    std::cerr << "canasta tree: error: unknown format '" << format << "' (svg or dot)\n";
    return kExitTrouble;
  }
  std::ifstream in(paths[0], std::ios::binary);
  if (!in) {
    std::cerr << "canasta: error: cannot read '" << paths[0] << "'\n";
    return kExitTrouble;
  }
  AuditOptions options;
  options.forced_ruleset = rules;
  options.resolve = CommandLineResolver(rules, {}, paths[0]);
  HandDecisions decisions;
  std::string error;
  if (!CollectDecisions(in, paths[0], game, hand, options, &decisions, &error)) {
    std::cerr << "canasta tree: error: " << paths[0] << ": " << error << "\n";
    return kExitTrouble;
  }

  static std::mutex graphviz;
  std::lock_guard<std::mutex> lock(graphviz);
  Agraph_t* g = BuildGraph(decisions, vm.count("all") > 0);
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
  }
  if (format == "svg" || text.empty()) {
    if (gvLayout(Context(), g, "dot") != 0) {
      agclose(g);
      std::cerr << "canasta tree: error: Graphviz could not lay out the tree (is its plugin "
                   "configuration written? `libgvc6-config-update -c` as root); "
                   "`--format dot` needs no layout\n";
      return kExitTrouble;
    }
    char* data = nullptr;
    unsigned int length = 0;
    gvRenderData(Context(), g, format.c_str(), &data, &length);
    if (data) {
      text.assign(data, length);
      gvFreeRenderData(data);
    }
    gvFreeLayout(Context(), g);
  }
  agclose(g);
  if (text.empty()) {
    std::cerr << "canasta tree: error: Graphviz rendered nothing\n";
    return kExitTrouble;
  }
  return WriteOutput("tree", output, text, {paths[0]});
}

}  // namespace canasta
