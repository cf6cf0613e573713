#!/usr/bin/env bash
# The plugin installs with no network, as its README and docs/testing.md say: Debian's setuptools and wheel build it
# (`pip install --no-build-isolation --no-index`), into a virtual environment that sees Debian's pytest and boto3;
# pytest then loads it through its entry point (no -p) and the example suite passes.
# Usage: install_offline.sh LIFELINE PLUGIN_DIR SCRATCH_DIR
set -euo pipefail
lifeline="$1"
plugin="$2"
scratch="$3"
rm -rf "$scratch"
mkdir -p "$scratch"
cp -r "$plugin" "$scratch/source" # pip builds in place: the checkout stays clean
/usr/bin/python3 -m venv --system-site-packages "$scratch/venv"
"$scratch/venv/bin/pip" install --no-build-isolation --no-index --no-cache-dir "$scratch/source" > "$scratch/pip.log" 2>&1 \
  || { cat "$scratch/pip.log" >&2; echo "install_offline: pip failed" >&2; exit 1; }
cd "$scratch"
LIFELINE="$lifeline" "$scratch/venv/bin/python" -m pytest -q -p no:cacheprovider "$scratch/source/examples"
