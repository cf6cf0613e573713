#!/usr/bin/env python3
"""`lifeline run … --export F.html` in a real browser (Debian's chromium, headless): lesson 7's page loads with no
console error and asks for nothing over the network; its lane is drawn as the run says at a scrub time (pixels of the
app's in-flight colour at 10 s, over three times as many at 45 s with the delete's end cap); the table of
events holds as many rows as the run's CSV; the page stays small.

Usage: page_test.py LIFELINE CHROMIUM"""
import csv
import os
import re
import subprocess
import sys
import tempfile

LIFELINE, CHROMIUM = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="lifeline-page-")
IN_FLIGHT, DELETED = (0, 114, 178), (0, 158, 115)  # the app's Okabe-Ito blue and bluish green (TimelineStyle::light)


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


def chromium(*args):
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--enable-logging=stderr", "--v=0", "--force-prefers-color-scheme=light",
                           "--window-size=1366,900", "--virtual-time-budget=5000", *args],
                          capture_output=True, text=True, timeout=120)
    # What the page's script says or throws reaches the log as CONSOLE lines.
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return done.stdout, console


def count(png, colour):
    # ImageMagick (in the dependencies) gives the raw RGB bytes.
    raw = subprocess.run(["convert", png, "-depth", "8", "rgb:-"], capture_output=True, check=True).stdout
    wanted = bytes(colour)
    return sum(1 for i in range(0, len(raw), 3) if raw[i:i + 3] == wanted)


page = os.path.join(work, "lesson7.html")
table = os.path.join(work, "lesson7.csv")
subprocess.run([LIFELINE, "run", "--lesson", "7", "--export", page, "--csv", table], check=True,
               capture_output=True, timeout=120)
html = open(page, encoding="utf-8").read()
check("the page: one file under 300 KB", os.path.getsize(page) < 300 * 1024, True)
check("the page: nothing it would fetch (no src, href, url(), fetch or XMLHttpRequest)",
      re.findall(r"\bsrc=|\bhref=|url\(|fetch\(|XMLHttpRequest|@import", html), [])

pixels = {}
for at in ("0s", "10s", "45s"):
    shot = os.path.join(work, f"at-{at}.png")
    _, console = chromium(f"--screenshot={shot}", f"file://{page}#t={at}")
    check(f"at {at}: no console message", console, [])
    pixels[at] = (count(shot, IN_FLIGHT), count(shot, DELETED))
print("     in-flight and deleted pixels by scrub time:", pixels)
# At 0 s only the page's own blue is there (the legend's swatch, the scrub bar): the lane adds to it as the run goes.
base = pixels["0s"][0]
check("at 10 s: order #1 in flight (#1): 10 s of a 36-pixel lane", pixels["10s"][0] - base > 3000, True)
check("at 45 s: in flight for its two receives (0-30 s, 30-40 s), its delete's end cap drawn", (
    pixels["45s"][0] - base > 3 * (pixels["10s"][0] - base), pixels["45s"][1] > pixels["10s"][1]), (True, True))

dom, console = chromium("--dump-dom", f"file://{page}")
check("the DOM: no console message", console, [])
rows = len(re.findall(r"<tr>", dom.split("<tbody>", 1)[1].split("</tbody>", 1)[0]))
with open(table, newline="") as f:
    csv_rows = len(list(csv.reader(f))) - 1
check("the table of events: as many rows as the run's CSV", (rows, rows > 0), (csv_rows, True))
lesson = dom.split('id="lesson"', 1)[1].split("</div>", 1)[0]
check("the lesson's words, glossary marks taken off", ("[[" in lesson, "The trap" in lesson,
                                                       "the [visibility timeout" in lesson), (False, True, False))

# The site: every lesson's page and the index, written fast; the index links every page; a lesson page with a fix
# stacks both runs, each with its canvas and its table of events.
site = os.path.join(work, "site")
done = subprocess.run([LIFELINE, "site", site], capture_output=True, text=True, timeout=120, check=True)
print("    ", done.stdout.strip())
lessons = subprocess.run([LIFELINE, "lessons"], capture_output=True, text=True, check=True).stdout
count = len(re.findall(r"^\s*\d+\s", lessons, re.M))
pages = sorted(f for f in os.listdir(site) if f.startswith("lesson-"))
check("the site: a page per lesson and an index", (len(pages), os.path.exists(os.path.join(site, "index.html"))),
      (count, True))
sizes = {name: os.path.getsize(os.path.join(site, name)) for name in pages}
print("     the largest pages:", sorted(sizes.items(), key=lambda kv: -kv[1])[:3])
check("every lesson page under 300 KB (lesson 25's 3,120 messages as a band)",
      [name for name, size in sizes.items() if size > 300 * 1024], [])
index = open(os.path.join(site, "index.html"), encoding="utf-8").read()
check("the index links every lesson page, in the course's blocks",
      sorted(set(re.findall(r'href="(lesson-\d+\.html)"', index))), pages)
check("the index: a still of every lesson's run, inside the page (no file or address to fetch)",
      (len(re.findall(r'<img alt="Lesson \d+\'s run at its key moments" src="data:image/png;base64,', index)),
       re.findall(r'src="(?!data:image/png;base64,)', index)), (count, []))
dom, console = chromium("--dump-dom", "file://" + os.path.join(site, "index.html"))
check("the index: no console message", console, [])
dom, console = chromium("--dump-dom", "file://" + os.path.join(site, "lesson-08.html"))
check("lesson 8's page: no console message", console, [])
check("lesson 8's page: as written and with the fix, two timelines and two tables", (
    dom.count('<section class="run">'), dom.count('class="events"'), "As written" in dom, "With the fix" in dom),
      (2, 2, True, True))
exercises = [f for f in os.listdir(site) if f.startswith("practice-")]
listed = subprocess.run([LIFELINE, "practice"], capture_output=True, text=True).stdout
ids = re.findall(r"^([a-z0-9-]+)  +", listed, re.M)
check("an exercise page per exercise of `lifeline practice`, each linked from the index",
      (sorted(exercises), sorted(set(re.findall(r'href="(practice-[a-z0-9-]+\.html)"', index)))),
      (sorted(f"practice-{i}.html" for i in ids), sorted(f"practice-{i}.html" for i in ids)))
dom, console = chromium("--dump-dom", "file://" + os.path.join(site, "practice-lambda-six-times.html"))
check("an exercise page: no console message, the situation shown, its answers offered, no verdict yet",
      (console, dom.count('type="radio"'), "The situation" in dom, '<p id="verdict" aria-live="polite"></p>' in dom),
      ([], 5, True, True))
print("all page cases passed")
