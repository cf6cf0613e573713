#!/usr/bin/env python3
"""HACKING.md is the map of the code: every source file of core, ui and app must be findable from it, named by its
path, its file name, its name without the extension, the class it holds (engine_clock -> EngineClock), or a
backticked path pattern that matches it (`core/src/engine/engine*.cpp`). Prints each file the map misses and exits
1; exits 0 when none is missed.

Usage: hacking_map.py REPOSITORY"""
import fnmatch
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1])
text = (root / "HACKING.md").read_text(encoding="utf-8")
files = subprocess.run(["git", "ls-files", "core/*.cpp", "core/*.h", "ui/*.cpp", "ui/*.h", "app/*.cpp", "app/*.h"],
                       cwd=root, capture_output=True, text=True, check=True).stdout.split()
patterns = [p for p in re.findall(r"`([^`\s]*[*][^`\s]*)`", text) if "/" in p]


def named(path):
    name = pathlib.PurePosixPath(path).name
    stem = name.split(".")[0]
    camel = "".join(part.capitalize() for part in stem.split("_"))
    if path in text or any(m in text for m in (name, stem + ".", stem + "*", "`" + stem + "`")):
        return True
    if re.search(r"\b" + camel + r"\b", text):
        return True
    return any(fnmatch.fnmatch(path, p) for p in patterns)


missed = [f for f in files if not named(f)]
for f in missed:
    print("HACKING.md does not say where this is:", f)
print(f"hacking map: {len(files) - len(missed)} of {len(files)} source files named")
sys.exit(1 if missed else 0)
