#!/usr/bin/env python3
"""The lesson and exercise counts that docs/command-line.md, docs/window.md, docs/engineering.md, the manual page and
the metainfo state match the files in resources/lessons/ and resources/practice/ (HACKING.md, "Add a lesson"), and
docs/sqs-semantics.md's section 6 has a row for every rule of `lifeline check` (HACKING.md, "Add a rule"). Prints what
is stale and exits 1."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]
lessons = len(list((root / "resources" / "lessons").glob("*.json")))
exercises = len(list((root / "resources" / "practice").glob("*.json")))
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty"}


def words(n):
    if n < 20:
        return WORDS[n]
    return TENS[n // 10] + ("-" + WORDS[n % 10] if n % 10 else "")


# (file, a pattern whose group is the count as written, what it counts, how it is written)
STATED = [
    ("docs/command-line.md", r"# the (\d+) built-in lessons", lessons, str),
    ("docs/engineering.md", r"scenario files, (\d+) lessons", lessons, str),
    ("docs/engineering.md", r"(\d+) practice exercises", exercises, str),
    ("docs/window.md", r"`lifeline practice` headless\): (\d+) exercises", exercises, str),
    ("docs/lifeline.1.in", r"with (\d+) built-in lessons", lessons, str),
    ("resources/desktop/lifeline.metainfo.xml.in", r"([A-Z][a-z-]+) built-in lessons", lessons,
     lambda n: words(n).capitalize()),
    ("resources/desktop/lifeline.metainfo.xml.in", r"The engine, (\d+) lessons", lessons, str),
]
wrong = []
for name, pattern, count, written in STATED:
    text = (root / name).read_text()
    found = re.findall(pattern, text)
    if not found:
        wrong.append(f"{name}: no longer says /{pattern}/: update tests/docs/counts.py with the new wording")
    for stated in found:
        if stated != written(count):
            wrong.append(f"{name}: says {stated} where the files are {written(count)} (/{pattern}/)")
# Every CheckRule defined in core/src/check has its row: | `id` | when | severity | why |.
rules = []
for source in sorted((root / "core" / "src" / "check").glob("*.cpp")):
    rules += re.findall(r'const CheckRule k\w+ \{ "([a-z0-9-]+)"', source.read_text())
semantics = (root / "docs" / "sqs-semantics.md").read_text()
section = semantics[semantics.find("## 6."):]
for rule in rules:
    if f"| `{rule}` |" not in section:
        wrong.append(f"docs/sqs-semantics.md: section 6 has no row for the check rule `{rule}`")
if not rules:
    wrong.append("core/src/check: no CheckRule found: update tests/docs/counts.py with the new way rules are defined")
for line in wrong:
    print(line)
print(f"counts: {lessons} lessons, {exercises} exercises, {len(rules)} check rules; {len(wrong)} stale")
sys.exit(1 if wrong else 0)
