#!/usr/bin/env python3
"""core's folders are layered (HACKING.md, "The architecture in one picture"): a folder includes only the folders
below it, and each folder's code is in its namespace: the vocabulary every layer speaks (support, run, engine, io,
export, timeline) in `lifeline` itself, every other folder in `lifeline::<folder>`. Prints every include that goes up
or sideways and every namespace that does not match its folder and exits 1; exits 0 when there is none."""
import pathlib
import re
import sys

# Each folder and the folders directly below it: the links of its library in core/CMakeLists.txt. A folder may
# include these and whatever is below them.
BELOW = {
    "support": set(),
    "run": {"support"},
    "engine": {"run"},
    "io": {"run"},
    "export": {"run"},
    "timeline": {"run"},
    "analysis": {"timeline"},
    "picture": {"analysis"},
    "endpoint": {"engine"},
    "aws": {"endpoint"},
    "observe": {"aws"},
    "import": {"observe", "check"},
    "scenario": {"analysis", "endpoint"},
    "sim": {"scenario"},
    "teach": {"sim", "picture"},
    "check": {"sim"},
}


def below(folder):
    found = set()
    for lower in BELOW[folder]:
        found |= {lower} | below(lower)
    return found


ALLOWED = {folder: below(folder) for folder in BELOW}

core = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "core"
include = re.compile(r'#include "lifeline/([a-z_]+)/')
VOCABULARY = {"support", "run", "engine", "io", "export", "timeline"}
opened = re.compile(r"^namespace (lifeline(?:::\w+)*) \{")
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
        expected = "lifeline" if folder in VOCABULARY else f"lifeline::{folder}"
        for number, line in enumerate(path.read_text().splitlines(), 1):
            space = opened.match(line)
            if space and space.group(1) != expected and not space.group(1).startswith(expected + "::"):
                wrong.append(f"{path}:{number}: namespace {space.group(1)} in {folder}/, whose namespace is {expected}")
            match = include.match(line)
            if match and match.group(1) != folder and match.group(1) not in ALLOWED[folder]:
                wrong.append(f"{path}:{number}: {folder}/ includes {match.group(1)}/, which is not below it")
# The libraries link what the table says, so the picture holds at link time too.
cmake = (core / "CMakeLists.txt").read_text()
for call in re.finditer(r"lifeline_core_layer\((\w+)(.*?)\)\n", cmake, re.S):
    folder, words = call.group(1), call.group(2).split()
    linked = set()
    if "BELOW" in words:
        for word in words[words.index("BELOW") + 1:]:
            if word in ("SOURCES", "PRIVATE"):
                break
            linked.add(word)
    if folder not in BELOW:
        wrong.append(f"core/CMakeLists.txt: a library for {folder}/, which the layering does not know")
    elif linked != BELOW[folder]:
        wrong.append(f"core/CMakeLists.txt: lifeline_core_{folder} links {sorted(linked)}, "
                     f"the layering says {sorted(BELOW[folder])}")
for line in wrong:
    print(line)
print(f"layering: {len(wrong)} problem(s)")
sys.exit(1 if wrong else 0)
