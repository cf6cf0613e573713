#!/usr/bin/env bash
# The manual page is kept by hand: every command and every option that a command's --help names must be in it.
# Usage: man_matches_help.sh LIFELINE MANPAGE.1
set -euo pipefail
lifeline="$1"
page="$2"
missing=0
for command in "" run serve proxy lessons demo practice check; do
  # shellcheck disable=SC2086 # no command: the top-level help
  help=$("$lifeline" $command --help | sed "/^Examples\?:/,\$d") # not the examples: aws options there
  for option in $(grep -oE -- '--[a-z][a-z-]+' <<< "$help" | sort -u); do
    # roff writes a dash in an option as \-
    if ! grep -qF -- "${option//-/\\-}" "$page"; then
      echo "man page lacks ${command:-lifeline}'s $option" >&2
      missing=1
    fi
  done
  if [ -n "$command" ] && ! grep -q "^\.B $command\$" "$page"; then
    echo "man page lacks the command $command" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] && echo "man page: every command and option of --help"
exit "$missing"
