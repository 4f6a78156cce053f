#!/usr/bin/env zsh
# What a real zsh completes for command lines: zsh-complete.zsh <script> <line>... starts an
# interactive zsh in a pseudo-terminal (zpty) with compinit and the completion script, types
# each line and Tab, and prints each match compadd was given, one per line, and "--" after
# each line's matches.
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
local line script=$1
shift
zpty -w z "PROMPT=; autoload -Uz compinit; compinit -u -D 2>/dev/null"
zpty -w z "source ${(q)script}"
zpty -w z 'zstyle ":completion:*" list-grouped false; zstyle ":completion:*" insert-tab false'
zpty -w z 'compadd () { builtin compadd -O __hits "$@"; print -l -- "<"m">"${^__hits}; builtin compadd "$@" }'
zpty -w z 'bindkey "^I" complete-word; zle_done () { echo "<E""OC>" }; zle -N zle_done; bindkey "^X" zle_done'
for typed in "$@"; do
  # the line, Tab, then the marker; Ctrl-U clears the line for the next one
  zpty -n -w z "$typed"$'\t'$'\x18'
  while zpty -r z line; do
    [[ $line == *'<EOC>'* ]] && break
    [[ $line == *'<m>'* ]] && print -r -- "${${line##*<m>}%$'\r'}"
  done
  print -r -- "--"
  zpty -n -w z $'\x15'
done
zpty -d z
