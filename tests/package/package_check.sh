#!/usr/bin/env bash
# Builds the Debian package from a release build, unpacks it into a scratch folder and checks it as a user's
# machine would see it: the program runs from there, the metainfo and the desktop entry validate, the manual page
# renders, the completion offers commands, options and lessons, and lintian finds no error.
# Usage: package_check.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build="$1"
scratch="$2"
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "package check: $*" >&2; exit 1; }

cpack -G DEB -B "$scratch/out" --config "$build/CPackConfig.cmake" > "$scratch/cpack.log" 2>&1 \
  || { cat "$scratch/cpack.log" >&2; fail "cpack failed"; }
deb=$(ls "$scratch"/out/lifeline_*_amd64.deb)
dpkg-deb -x "$deb" "$scratch/root"
root="$scratch/root"

# The program, from where the package put it.
version=$("$root/usr/bin/lifeline" --version)
[[ "$version" =~ ^lifeline\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version said '$version'"
summary=$("$root/usr/bin/lifeline" run --lesson 1 --summary)
grep -q '"sent": 1,' <<< "$summary" || fail "lesson 1's summary lacks its one message sent"

# Desktop integration.
metainfo=$(ls "$root"/usr/share/metainfo/*.metainfo.xml)
appstreamcli validate --no-net "$metainfo" > "$scratch/appstream.log" 2>&1 \
  || { cat "$scratch/appstream.log" >&2; fail "the metainfo does not validate"; }
grep -q '<launchable type="desktop-id">lifeline.desktop</launchable>' "$metainfo" || fail "no launchable"
desktop-file-validate "$root/usr/share/applications/lifeline.desktop" || fail "the desktop entry does not validate"
for icon in usr/share/icons/hicolor/scalable/apps/lifeline.svg usr/share/icons/hicolor/256x256/apps/lifeline.png; do
  [ -s "$root/$icon" ] || fail "missing $icon"
done
[[ $(file "$root/usr/share/icons/hicolor/256x256/apps/lifeline.png") == *"256 x 256"* ]] || fail "the PNG icon is not 256 px"

# The manual page renders, with every command.
manual=$(MANWIDTH=100 man -l "$root/usr/share/man/man1/lifeline.1.gz" 2>&1)
for word in "lifeline run" "lifeline serve" "EXIT STATUS" "--allow-get-actions"; do
  grep -qF -- "$word" <<< "$manual" || fail "the manual page lacks '$word'"
done

# The completion: commands, a command's options, the lessons' ids (asked of the packaged program).
# Run in the empty scratch folder (the completion also offers the folder's .json files), and keep the words in
# a variable: a `grep -q` that stops reading early would break the pipe, which pipefail reports as a failure.
complete_words() {
  (cd "$scratch" && bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lifeline
    printf "%s\n" "${COMPREPLY[@]}"' _ "$root/usr/share/bash-completion/completions/lifeline" "$@")
}
offers() { # offers WORD COMMAND-LINE...: the completion of COMMAND-LINE includes WORD
  local word="$1" words
  shift
  words=$(complete_words "$@")
  grep -qx -- "$word" <<< "$words"
}
offers run lifeline "" || fail "completion does not offer run"
offers --lesson lifeline run --le || fail "completion does not offer --lesson"
offers visibility-too-short "$root/usr/bin/lifeline" run --lesson vis \
  || fail "completion does not offer the lesson visibility-too-short"
offers heartbeat-every "$root/usr/bin/lifeline" practice heart \
  || fail "completion does not offer the exercise heartbeat-every"

# The pytest plugin, as docs/testing.md's CI recipe uses it from the package: its example suite passes with the
# packaged program and the packaged plugin only (PYTHONPATH as the recipe says, under the unpacked root).
grep -qF "env: { PYTHONPATH: /usr/share/lifeline/python }" "$(dirname "$0")/../../docs/testing.md" \
  || fail "docs/testing.md's CI recipe does not point PYTHONPATH at the packaged plugin"
(cd "$scratch" && env -u LIFELINE PATH="$root/usr/bin:$PATH" PYTHONPATH="$root/usr/share/lifeline/python" \
  /usr/bin/python3 -m pytest -p pytest_lifeline.plugin -p no:cacheprovider -q \
  "$(dirname "$0")/../../integrations/pytest-lifeline/examples" > "$scratch/plugin.log" 2>&1) \
  || { cat "$scratch/plugin.log" >&2; fail "the packaged plugin's example suite failed"; }
grep -q "passed" "$scratch/plugin.log" || fail "the packaged plugin ran no test"

# Lintian: no errors (its warnings and infos are listed in the closing note of the packaging issue).
lintian "$deb" > "$scratch/lintian.log" 2>&1 || true
if grep -q '^E: ' "$scratch/lintian.log"; then
  cat "$scratch/lintian.log" >&2
  fail "lintian reports errors"
fi
grep -q '^W: ' "$scratch/lintian.log" && { grep '^W: ' "$scratch/lintian.log" >&2; fail "lintian warns"; }
echo "package checked: $(basename "$deb"), $(dpkg-deb -f "$deb" Installed-Size) KiB installed"
