# Turns the text of `canasta [COMMAND] --help` into a man page (roff), so the
# page and --help never drift. Run by cmake/man_pages.cmake at build time.
#
#   PAGE=canasta-audit VERSION=0.1.0 SUMMARY="check logs ..." \
#   SEE_ALSO="canasta(1)" awk -f help_to_man.awk HELP
#
# (the values come from the environment: `awk -v` would read backslashes in
# them as escapes)
#
# The help text is read in blocks separated by blank lines:
#   "usage: ..." (and lines under it)  -> SYNOPSIS
#   "NAME:" on a line of its own        -> a section (OPTIONS, COMMANDS, ...)
#                                          whose indented lines are items
#   "Exit status: ..."                  -> EXIT STATUS
#   any other block                     -> a paragraph of DESCRIPTION; lines
#                                          of the form "term  text" are items

function esc(s) {
  gsub(/\\/, "\\e", s)
  return s
}
# A line of running text: a leading '.' or '\'' would be a roff request.
function text_line(s) {
  s = esc(s)
  if (s ~ /^[.']/) s = "\\&" s
  return s
}
function term(s) {
  s = esc(s)
  gsub(/-/, "\\-", s)
  return "\\fB" s "\\fR"
}
function set_section(name) {
  if (name != current_section) {
    print ".SH " name
    current_section = name
  }
}
function flush_item() {
  if (item_term != "") {
    print ".TP"
    print term(item_term)
    print text_line(item_text)
  }
  item_term = ""
  item_text = ""
}
# An item line "  term   text": the text starts at column `col` when the
# line is that long; else (a term alone) the text follows on deeper lines.
function start_item(line, col,    s) {
  flush_item()
  if (col > 0 && length(line) >= col && substr(line, col - 1, 1) == " ") {
    item_term = substr(line, 1, col - 1)
    item_text = substr(line, col)
  } else if (col == 0 && match(line, /[^ ]  +/)) {
    item_term = substr(line, 1, RSTART)
    item_text = substr(line, RSTART + RLENGTH)
  } else {
    item_term = line
    item_text = ""
  }
  sub(/^ +/, "", item_term)
  sub(/ +$/, "", item_term)
  sub(/ +$/, "", item_text)
}
# The column where a list's texts start (Boost aligns them; a term too long
# for the column leaves a single space): the most common start of a text
# after two spaces or of a wrapped line.
function text_column(    i, c, count, best, n) {
  for (i = 1; i <= nlist; ++i) {
    c = 0
    if (match(list[i], /^ +/) && RLENGTH > 4) c = RLENGTH + 1
    else if (match(list[i], /[^ ]  +[^ ]/)) c = RSTART + RLENGTH - 1
    if (c) count[c]++
  }
  best = 0
  n = 0
  for (c in count)
    if (count[c] > n || (count[c] == n && c + 0 < best)) {
      best = c + 0
      n = count[c]
    }
  return best
}
function flush_list(    i, col) {
  col = text_column()
  for (i = 1; i <= nlist; ++i) {
    # An item starts at the list's indentation; its wrapped lines are deeper.
    if (match(list[i], /^ +/) && RLENGTH <= 4) start_item(list[i], col)
    else continue_item(list[i])
  }
  nlist = 0
}
function continue_item(line) {
  sub(/^ +/, "", line)
  sub(/ +$/, "", line)
  item_text = item_text (item_text == "" ? "" : " ") line
}
function end_block() {
  flush_list()
  flush_item()
  if (para != "") {
    print ".PP"
    print text_line(para)
  }
  para = ""
  in_list = 0
  in_usage = 0
}

BEGIN {
  page = ENVIRON["PAGE"]
  see_also = ENVIRON["SEE_ALSO"]
  # The date is left out on purpose: the page is the same for the same help.
  printf ".TH %s 1 \"\" \"canasta %s\" \"canasta manual\"\n", toupper(page), ENVIRON["VERSION"]
  print ".SH NAME"
  print esc(page) " \\- " text_line(ENVIRON["SUMMARY"])
  current_section = "NAME"
}

/^[ \t]*$/ { end_block(); next }

/^usage: / {
  end_block()
  set_section("SYNOPSIS")
  in_usage = 1
  line = $0
  sub(/^usage: +/, "", line)
  print text_line(line)
  next
}
in_usage {
  line = $0
  sub(/^ +/, "", line)
  print ".br"
  print text_line(line)
  next
}

/^[A-Za-z][A-Za-z ]*:$/ {
  end_block()
  name = toupper(substr($0, 1, length($0) - 1))
  set_section(name)
  in_list = 1
  next
}

/^Exit status: / {
  end_block()
  set_section("EXIT STATUS")
  line = $0
  sub(/^Exit status: +/, "", line)
  para = line
  next
}

in_list {
  list[++nlist] = $0
  next
}

{
  if (current_section != "DESCRIPTION" && current_section != "EXIT STATUS") set_section("DESCRIPTION")
  if (para == "" && $0 ~ /^[^ ]+  +[^ ]/) {
    start_item($0, 0)
    next
  }
  if (item_term != "") {
    continue_item($0)
    next
  }
  line = $0
  sub(/ +$/, "", line)
  para = para (para == "" ? "" : " ") line
}

END {
  end_block()
  if (see_also != "") {
    print ".SH SEE ALSO"
    print see_also
  }
}
