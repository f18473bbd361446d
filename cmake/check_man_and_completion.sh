#!/usr/bin/env bash
# ctest InstallFiles.ManPagesAndCompletion: the man pages written at build
# time hold every command and every option of --help, render without a roff
# warning (when groff is there), and the bash completion offers the options
# of --help and the built-in rulesets.
#
#   check_man_and_completion.sh CANASTA MAN_DIR COMPLETION_SCRIPT
set -u
canasta=$1
man_dir=$2
completion=$3
fail=0
bad() { echo "FAIL: $*"; fail=1; }

commands=$("$canasta" --help | awk '/^commands:$/ { on = 1; next } /^[^ ]/ || /^$/ { on = 0 }
                                    on && /^  [a-z]/ { print $1 }' | sort -u)
[[ -n $commands ]] || bad "no commands in canasta --help"
long_options() { "$canasta" "$@" --help | grep -o -- '--[a-z][a-z-]*' | sort -u; }

# The pages as installed (NAME.1.gz) or as written in the build (NAME.1, and .1.gz).
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
for page in canasta $(printf 'canasta-%s\n' $commands); do
  if [[ -s $man_dir/$page.1.gz ]]; then
    zcat "$man_dir/$page.1.gz" >"$pages/$page.1"
    [[ ! -e $man_dir/$page.1 ]] || cmp -s "$man_dir/$page.1" "$pages/$page.1" ||
      bad "$man_dir/$page.1.gz is not $page.1"
  elif [[ -s $man_dir/$page.1 ]]; then
    cp "$man_dir/$page.1" "$pages/$page.1"
  fi
done
man_dir=$pages

for page in canasta $(printf 'canasta-%s\n' $commands); do
  f=$man_dir/$page.1
  [[ -s $f ]] || { bad "$page.1 missing"; continue; }
  grep -q "^\.TH ${page^^} 1 " "$f" || bad "$f: no .TH line for $page"
  grep -q '^\.SH SYNOPSIS' "$f" || bad "$f: no SYNOPSIS"
  if command -v groff >/dev/null; then
    warnings=$(groff -man -ww -z "$f" 2>&1)
    [[ -z $warnings ]] || bad "$f: groff: $warnings"
  fi
done
for c in $commands; do
  f=$man_dir/canasta-$c.1
  for opt in $(long_options "$c"); do
    grep -q -- "${opt//-/\\\\-}" "$f" || bad "$f: option $opt of 'canasta $c --help' is missing"
  done
  grep -q "^\\\\fB$c" "$man_dir/canasta.1" || bad "canasta.1: command $c is missing"
done

# Completion, as bash calls it, in an empty directory (files are offered too).
canasta=$(realpath "$canasta")
completion=$(realpath "$completion")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$pages"' EXIT
cd "$tmp" || exit 1
# shellcheck disable=SC1090
source "$completion"
complete_words() {
  COMP_WORDS=("$canasta" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _canasta 2>/dev/null
  printf '%s\n' "${COMPREPLY[@]}" | sort
}
got=$(complete_words "" | tr '\n' ' ')
want=$(printf '%s\n' $commands --help --version | sort | tr '\n' ' ')
[[ $got == "$want" ]] || bad "commands: got '$got', want '$want'"
for c in $commands; do
  [[ $c == rules ]] && continue
  got=$(complete_words "$c" "--" | tr '\n' ' ')
  want=$(long_options "$c" | sort | tr '\n' ' ')
  [[ $got == "$want" ]] || bad "options of $c: got '$got', want '$want'"
done
got=$(complete_words audit --rules "" | tr '\n' ' ')
want=$("$canasta" rules list | awk '{ print $1 }' | sort | tr '\n' ' ')
[[ $got == "$want" ]] || bad "rulesets after --rules: got '$got', want '$want'"
got=$(complete_words rules show hu | tr '\n' ' ')
[[ $got == "hutto " ]] || bad "rules show hu: got '$got', want 'hutto '"
got=$(complete_words audit --format "" | tr '\n' ' ')
[[ $got == "json jsonl sarif text " ]] || bad "audit --format: got '$got'"
got=$(complete_words tree --format "" | tr '\n' ' ')
[[ $got == "dot pdf png svg " ]] || bad "tree --format: got '$got'"
got=$(complete_words simulate --bots "" | tr '\n' ' ')
[[ $got == "random sensible " ]] || bad "simulate --bots: got '$got'"
got=$(complete_words rules "" | tr '\n' ' ')
[[ $got == "diff hooks list show " ]] || bad "rules: got '$got'"

[[ $fail == 0 ]] && echo "man pages and completion: ok"
exit $fail
