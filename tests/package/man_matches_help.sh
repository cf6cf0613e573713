#!/usr/bin/env bash
# The manual page and the bash completion are kept by hand: every command and every option that a command's --help
# names must be in the page, and in the completion's list for that command.
# Usage: man_matches_help.sh LIFELINE MANPAGE.1 [COMPLETION]
set -euo pipefail
lifeline="$1"
page="$2"
completion="${3:-$(dirname "$0")/../../resources/completion/lifeline.bash}"
missing=0
for command in "" run serve proxy lessons demo practice check screenshot; do
  # shellcheck disable=SC2086 # no command: the top-level help
  help=$("$lifeline" $command --help | sed "/^Examples\?:/,\$d") # not the examples: aws options there
  for option in $(grep -oE -- '--[a-z][a-z-]+' <<< "$help" | sort -u); do
    # roff writes a dash in an option as \-
    if ! grep -qF -- "${option//-/\\-}" "$page"; then
      echo "man page lacks ${command:-lifeline}'s $option" >&2
      missing=1
    fi
  done
  # The completion's options for the command: its case branch, up to the ;; that ends it.
  offered=$(awk -v c="        $command)" '$0 == c { on = 1; next } on { print } on && /;;/ { exit }' "$completion")
  # The command's own options: the lines of its list ("  --port N  ..."), not options quoted in its text.
  for option in $(grep -oE -- '^ +--[a-z][a-z-]+' <<< "$help" | tr -d ' ' | sort -u); do
    if [ -n "$command" ] && ! grep -qE -- "(^|[ \"])$option([ \"]|\$)" <<< "$offered"; then
      echo "completion lacks $command's $option" >&2
      missing=1
    fi
  done
  if [ -n "$command" ] && ! grep -q "^\.B $command\$" "$page"; then
    echo "man page lacks the command $command" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] && echo "man page and completion: every command and option of --help"
exit "$missing"
