#!/usr/bin/env python3
"""A class with one job stays small: the member functions a class defines outside its declaration, across every file
of core, ui and app, total at most LIMIT lines (a file may hold several small classes or one class's parts; what is
measured is the class). Prints each class over it with its lines per file and exits 1; exits 0 when there is none."""
import collections
import pathlib
import re
import subprocess
import sys

LIMIT = 900
# Classes already over it, at most the size they have: they may shrink, never grow (docs/decisions.md, "Class size").
CEILING = {"Engine": 1777, "Simulation": 1270}
root = pathlib.Path(__file__).resolve().parents[1]
files = subprocess.run(["git", "ls-files", "core/*.cpp", "ui/*.cpp", "app/*.cpp"], cwd=root, capture_output=True,
                       text=True, check=True).stdout.split()
# A definition starts at a line (not indented) naming Class::member( and ends at the first line that is "}".
start = re.compile(r"^(?:[\w:<>,*&\s]+?\s)?[*&]?((?:\w+::)*?)(\w+)::~?\w+\s*\(")
lines = collections.defaultdict(lambda: collections.Counter())
for name in files:
    text = (root / name).read_text().splitlines()
    owner = None
    for line in text:
        if owner is None:
            match = start.match(line)
            if match and not line.startswith((" ", "\t", "//", "#", "}")) and not line.rstrip().endswith(";"):
                owner = match.group(2)
        if owner is not None:
            lines[owner][name] += 1
            if line == "}":
                owner = None
wrong = []
for owner, per_file in sorted(lines.items()):
    total = sum(per_file.values())
    if total > CEILING.get(owner, LIMIT):
        where = ", ".join(f"{f} {n}" for f, n in per_file.most_common())
        wrong.append(f"  {owner}: {total} lines of member functions ({where})")
if wrong:
    print(f"classes over {LIMIT} lines, or over their ceiling (give a part its own class with one job):")
    print("\n".join(wrong))
    sys.exit(1)
largest = sorted(((sum(c.values()), o) for o, c in lines.items()), reverse=True)[:5]
print(f"class size: no class of core, ui or app over {LIMIT} lines; the largest: "
      + ", ".join(f"{o} {n}" for n, o in largest))
