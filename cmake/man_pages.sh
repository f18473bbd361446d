#!/bin/sh
# Writes the man pages of `canasta` and of each of its commands into OUT_DIR,
# from the built program's own --help (cmake/help_to_man.awk does the roff).
# The commands and their one-line summaries come from `canasta --help`, so a
# new command gets its page with no change here.
#
#   man_pages.sh CANASTA OUT_DIR VERSION
set -eu
canasta=$1
out=$2
version=$3
here=$(dirname "$0")
mkdir -p "$out"
rm -f "$out"/*.1 "$out"/*.1.gz

top=$("$canasta" --help)
# "  audit PATH...   check logs" -> "audit<TAB>check logs", one line per entry.
entries=$(printf '%s\n' "$top" | awk '
  /^commands:$/ { on = 1; next }
  /^[^ ]/ || /^$/ { on = 0 }
  on && /^  [a-z]/ {
    s = $0; sub(/^ +/, "", s)
    name = s; sub(/ .*/, "", name)
    text = s; if (match(text, /  +/)) text = substr(text, RSTART + RLENGTH); else text = ""
    print name "\t" text
  }')
commands=$(printf '%s\n' "$entries" | cut -f1 | awk '!seen[$0]++')

see_also="\\fBcanasta\\fR(1)"
for c in $commands; do see_also="$see_also, \\fBcanasta-$c\\fR(1)"; done

# The first sentence of the description may run over two lines.
summary=$(printf '%s\n' "$top" | awk 'NR > 2 { if (!NF) exit; printf "%s%s", sep, $0; sep = " " }' | sed 's/[.]$//')
export VERSION="$version" SEE_ALSO="$see_also"
printf '%s\n' "$top" | PAGE=canasta SUMMARY="$summary" awk -f "$here/help_to_man.awk" > "$out/canasta.1"

for c in $commands; do
  # "rules" has three entries (list, show, diff): the summary joins them.
  summary=$(printf '%s\n' "$entries" | awk -F '\t' -v c="$c" '$1 == c { printf "%s%s", sep, $2; sep = "; " }')
  "$canasta" "$c" --help | PAGE="canasta-$c" SUMMARY="$summary" awk -f "$here/help_to_man.awk" \
    > "$out/canasta-$c.1"
done

# Installed compressed, as Debian's policy (12.1) has it; -n: no time stamp,
# so the same help gives the same bytes.
for f in "$out"/*.1; do gzip -9 -n -c "$f" > "$f.gz"; done
