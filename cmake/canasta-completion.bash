# bash completion for canasta. The commands, the options and the values an
# option's help lists are read from the program's own --help, and the ruleset
# names from `canasta rules list`, when completing: they never drift from the
# program that is installed.
# Installed as share/bash-completion/completions/canasta.

# The commands, or a command's options, as --help prints them.
_canasta_help_words() {
  local prog=$1 cmd=$2
  if [[ -z $cmd ]]; then
    "$prog" --help 2>/dev/null |
      awk '/^commands:$/ { on = 1; next } /^[^ ]/ || /^$/ { on = 0 }
           on && /^  [a-z]/ { print $1 }' | sort -u
    echo --help
    echo --version
  else
    # "  -r [ --rules ] arg   ..." -> -r --rules
    "$prog" "$cmd" --help 2>/dev/null |
      awk '/^  -/ { for (i = 1; i <= NF; ++i) { w = $i; if (w ~ /^--?[A-Za-z]/) { sub(/,$/, "", w); print w } else if (w != "[" && w != "]") break } }'
  fi
}

# An option's line of --help, its wrapped lines joined: "-f [ --format ] arg
# (=text) text, json or sarif".
_canasta_option_help() {
  local prog=$1 cmd=$2 opt=$3
  "$prog" "$cmd" --help 2>/dev/null |
    awk -v opt="$opt" '
      /^  -/ { if (hit) exit; line = $0; for (i = 1; i <= NF; ++i) if ($i == opt) hit = 1; next }
      hit && /^      / { sub(/^ +/, " "); line = line $0; next }
      hit { exit }
      END { if (hit) print line }'
}

# Options that take a value: Boost prints "arg" after them.
_canasta_takes_value() {
  [[ $(_canasta_option_help "$@") =~ \ arg(\ |$) ]]
}

# The values an option's help lists: "text, json or sarif", "svg or dot
# (default: ...)", "...: random, sensible". Nothing for free text.
_canasta_option_values() {
  _canasta_option_help "$@" |
    awk '{
      sub(/^ *-[^ ]*( \[ [^ ]+ \])?( arg)?( \(=[^)]*\))? +/, "")  # the option itself
      gsub(/ *\([^)]*\)/, "")                                       # asides
      n = split($0, parts, ": "); text = parts[n]
      k = split(text, words, /, | or /)  # a list: one word between separators
      if (k < 2) exit
      for (i = 1; i <= k; ++i) if (words[i] !~ /^[a-z][a-z0-9-]*$/) exit
      out = words[1]
      for (i = 2; i <= k; ++i) out = out " " words[i]
      print out
    }'
}

_canasta_rulesets() {
  "$1" rules list 2>/dev/null | awk '{ print $1 }'
}

_canasta() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=${COMP_WORDS[COMP_CWORD-1]}
  local prog=${COMP_WORDS[0]}
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_canasta_help_words "$prog" "")" -- "$cur")
    return
  fi
  local cmd=${COMP_WORDS[1]}

  if [[ $cmd == rules ]]; then
    if ((COMP_CWORD == 2)); then
      # The usage lines: "canasta rules list", "canasta rules show NAME|FILE", ...
      local verbs
      verbs=$("$prog" rules --help 2>/dev/null | awk '{ sub(/^usage: /, "") } $1 == "canasta" && $2 == "rules" { print $3 }')
      mapfile -t COMPREPLY < <(compgen -W "$verbs" -- "$cur")
    elif [[ ${COMP_WORDS[2]} == show || ${COMP_WORDS[2]} == diff ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$(_canasta_rulesets "$prog")" -- "$cur")
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.lua' -- "$cur"; compgen -d -- "$cur")
      compopt -o filenames 2>/dev/null
    fi
    return
  fi

  case $prev in
    -r | --rules)
      mapfile -t COMPREPLY < <(compgen -W "$(_canasta_rulesets "$prog")" -- "$cur")
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.lua' -- "$cur"; compgen -d -- "$cur")
      compopt -o filenames 2>/dev/null
      return
      ;;
  esac
  if [[ $prev == -* ]] && _canasta_takes_value "$prog" "$cmd" "$prev"; then
    local values
    values=$(_canasta_option_values "$prog" "$cmd" "$prev")
    if [[ -n $values ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
      return
    fi
    # A path (--output, --out) or a number: offer files.
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
    return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_canasta_help_words "$prog" "$cmd")" -- "$cur")
    return
  fi
  # Logs: files and directories.
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  compopt -o filenames 2>/dev/null
}

complete -F _canasta canasta
