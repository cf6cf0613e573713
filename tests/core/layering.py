#!/usr/bin/env python3
"""core's folders are layered (HACKING.md, "The architecture in one picture"): a folder includes only the folders
below it. Prints every include that goes up or sideways and exits 1; exits 0 when there is none."""
import pathlib
import re
import sys

# Each folder and what it may include besides itself. The four at the top still include each other (the picture says
# why); everything else is strict.
TOP = {"scenario", "sim", "teach", "check"}
BELOW_TOP = {"support", "run", "engine", "endpoint", "io", "export", "timeline", "aws", "observe"}
ALLOWED = {
    "support": set(),
    "run": {"support"},
    "engine": {"run", "support"},
    "io": {"run", "support"},
    "export": {"run", "support"},
    "timeline": {"run", "support"},
    "endpoint": {"engine", "run", "support"},
    "aws": {"endpoint", "run", "support"},
    "observe": {"aws", "endpoint", "engine", "run", "support"},
}
for folder in TOP:
    ALLOWED[folder] = BELOW_TOP | TOP

core = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "core"
include = re.compile(r'#include "lifeline/([a-z_]+)/')
wrong = []
for root in (core / "src", core / "include" / "lifeline"):
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        if path.parent == root:
            wrong.append(f"{path}: a file at the top of {root}: it belongs in a folder")
            continue
        folder = path.relative_to(root).parts[0]
        if folder not in ALLOWED:
            wrong.append(f"{path}: a folder the layering does not know ({folder}): add it to tests/core/layering.py")
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = include.match(line)
            if match and match.group(1) != folder and match.group(1) not in ALLOWED[folder]:
                wrong.append(f"{path}:{number}: {folder}/ includes {match.group(1)}/, which is not below it")
for line in wrong:
    print(line)
print(f"layering: {len(wrong)} include(s) out of place")
sys.exit(1 if wrong else 0)
