#!/usr/bin/env python3
"""`lifeline run … --export F.html` and `lifeline site` in a real browser (Debian's chromium, headless, driven over
the DevTools protocol: tests/web/cdp.py).

Lesson 7's page loads with no console message and asks for nothing but itself; its lane is drawn as the run says at
a scrub time (pixel probes: in flight at 10 s, in flight again at 31 s, its delete's end cap at 40 s, nothing past
now), the hover says what the app's hover says, Space plays and the now line moves, Space again pauses it, the arrows
and N move it, the table of events holds as many rows as the run's CSV, dark follows the system. The site: a page per
lesson and per exercise, all linked from the index, every page loads clean, and an exercise page's every answer
shows the verdict `lifeline practice` gives it.

Usage: page_test.py LIFELINE CHROMIUM"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

LIFELINE, CHROMIUM = sys.argv[1], sys.argv[2]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "glossary.json")) as f:
    TERMS = json.load(f)["terms"]
# Every form a text may link, in lower case, to "term: definition" as a page shows it.
GLOSSARY = {form.lower(): f"{t['term']}: {t['definition']}" for t in TERMS for form in t["forms"] + [t["id"]]}
work = tempfile.mkdtemp(prefix="lifeline-page-")
WIDTH, HEIGHT = 1366, 900


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


def rgb(css):
    return tuple(int(v) for v in re.match(r"rgba\((\d+),(\d+),(\d+),", css).groups())


class Shot:
    """A screenshot's pixels (ImageMagick, in the dependencies, gives the raw RGB bytes)."""

    def __init__(self, browser, name):
        path = os.path.join(work, name + ".png")
        browser.screenshot(path)
        self.raw = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], capture_output=True, check=True).stdout

    def at(self, x, y):
        i = (int(y) * WIDTH + int(x)) * 3
        return tuple(self.raw[i:i + 3])

    def count(self, box, colour):
        x0, y0, x1, y1 = (int(v) for v in box)
        return sum(1 for y in range(y0, y1) for x in range(x0, x1) if self.at(x, y) == colour)


def lane_probe(browser, view, lane, t_ms):
    """Where on the screen lane's row is at time t: the middle of its bar, below the pattern's line."""
    return browser.evaluate(
        f"(() => {{ const v = views[{view}], r = v.rows.find(r => r.lane && r.lane.label === {json.dumps(lane)});"
        f"const box = v.track.getBoundingClientRect();"
        f"return [box.left + v.xOf({t_ms}), box.top + r.y + v.rowHeight / 2 + 2]; }})()")


# Opens every table of events and waits for them: how many rows each has.
OPEN_TABLES = """(async () => {
  for (const s of document.querySelectorAll("#tables details.log summary")) s.click();
  const wanted = document.querySelectorAll("#tables details.log").length;
  while (document.querySelectorAll("table.events").length < wanted) await new Promise(r => setTimeout(r, 10));
  return [...document.querySelectorAll("table.events")].map(t => t.querySelectorAll("tbody tr").length);
})()"""


# The pixels that differ between a frame drawn from the pictures and one painted whole (no pictures yet), other
# than within a pixel of the now line: their x.
SAME_EITHER_WAY = """(() => {
  const v = views[0], grab = () => v.ctx.getImageData(0, 0, v.canvas.width, v.canvas.height).data;
  if (!v.pictures) throw new Error("no pictures yet");
  v.draw(); const cached = grab();
  v.forget(); v.draw(); const whole = grab();
  const cut = v.xOf(now) * v.scale, odd = [];
  for (let i = 0; i < cached.length; i += 4)
    if (cached.slice(i, i + 4).join() !== whole.slice(i, i + 4).join()) {
      const x = (i / 4) % v.canvas.width;
      if (Math.abs(x - cut) > 1.5 && !odd.includes(x)) odd.push(x);
    }
  return odd;
})()"""


def run(*args, **kwargs):
    return subprocess.run([LIFELINE, *args], capture_output=True, text=True, timeout=120, **kwargs)


browser = Browser(CHROMIUM, WIDTH, HEIGHT)
try:
    # --- One run's page: lesson 7, a consumer crashes and its message comes back -----------------------------------
    page = os.path.join(work, "lesson7.html")
    table = os.path.join(work, "lesson7.csv")
    run("run", "--lesson", "7", "--export", page, "--csv", table, check=True)
    html = open(page, encoding="utf-8").read()
    check("the page: one file under 300 KB", os.path.getsize(page) < 300 * 1000, True)
    check("the page: nothing it would fetch in its text (no src, href, url(), fetch or XMLHttpRequest)",
          re.findall(r"\bsrc=|\bhref=|url\(|fetch\(|XMLHttpRequest|@import", html), [])

    browser.scheme("light")
    browser.open(f"file://{page}#t=10s")
    palette = browser.evaluate("page.palette.light")
    IN_FLIGHT, DELETED = rgb(palette["states"]["in-flight"]["fill"]), rgb(palette["states"]["deleted"]["fill"])
    BACKGROUND, NOW = rgb(palette["background"]), rgb(palette["now"])
    check("the palette is the app's (TimelineStyle::light: Okabe-Ito blue, bluish green)", (IN_FLIGHT, DELETED),
          ((0, 114, 178), (0, 158, 115)))
    check("at 10 s: the time says so", browser.evaluate("document.getElementById('time').textContent"),
          "10 s / 42 s")  # the story framed: first send to the last change, 40 s, and its margin
    shot = Shot(browser, "at-10s")
    check("at 10 s: order #1 in flight at 3 s and 9 s, nothing drawn at 41 s (after now and its countdown)", [
        shot.at(*lane_probe(browser, 0, "order #1", t)) for t in (3000, 9000, 41000)],
          [IN_FLIGHT, IN_FLIGHT, BACKGROUND])
    # Just after now the lane counts down to its visibility deadline ("visible again in 20 s"), in the text colour.
    TEXT = rgb(palette["text"])
    x0, y = lane_probe(browser, 0, "order #1", 10500)
    x1, _ = lane_probe(browser, 0, "order #1", 30000)
    check("at 10 s: the countdown is drawn after now", shot.count((x0, y - 8, x1, y + 8), TEXT) > 20, True)

    crash = rgb(palette["marks"]["crash"]["color"])
    x, y = lane_probe(browser, 0, "order #1", 5000)
    mark = (x - 8, y - 10, x + 9, y + 8)
    check("at 10 s: the crash mark on the lane at 5 s, in the app's crash red (✕, as the legend says), and the "
          "consumers' colours the rows use named (worker-1's failed work, its crash)",
          (shot.count(mark, crash) > 10, browser.evaluate("document.getElementById('legend').textContent")),
          (True, "delayedvisiblein flightdeleteddead-letteredexpiredcrashConsumers:pollingworkingfailedcrashed"))
    check("the legend's crash mark is drawn as the lane draws it, in the app's crash red (its edges smoothed), and "
          "named for a reader",
          browser.evaluate("(() => { const c = document.querySelector('#legend span[data-mark=crash] canvas');"
                           " const d = c.getContext('2d').getImageData(0, 0, 16, 16).data; let red = 0;"
                           " for (let i = 0; i < d.length; i += 4) red += Math.abs(d[i] - %d) < 24"
                           " && Math.abs(d[i + 1] - %d) < 24 && Math.abs(d[i + 2] - %d) < 24 && d[i + 3] === 255"
                           " ? 1 : 0; return [red > 6, c.getAttribute('aria-label')]; })()" % crash),
          [True, "✕"])
    check("the legend's failed swatch is the colour of worker-1's failed work",
          browser.evaluate("(() => { const c = document.querySelector('#legend span[data-activity=failed] canvas');"
                           " const d = c.getContext('2d').getImageData(13, 6, 1, 1).data;"
                           " return [d[0], d[1], d[2]]; })()"),
          list(rgb(palette["failed"])))
    browser.evaluate("setNow(4000)")
    check("at 4 s: no mark yet", Shot(browser, "at-4s").count(mark, crash), 0)

    browser.evaluate("setNow(31000)")
    shot = Shot(browser, "at-31s")
    check("at 31 s: in flight again (worker-2's receive #2 at 30 s, its long poll waiting for it)", [
        shot.at(*lane_probe(browser, 0, "order #1", t)) for t in (29000, 30500, 41500)],
          [IN_FLIGHT, IN_FLIGHT, BACKGROUND])
    x, y = lane_probe(browser, 0, "order #1", 30800)
    browser.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
    check("the hover at 30.8 s, in the app's words",
          browser.evaluate("document.getElementById('tip').textContent"),
          "order #1 · in flight · #2 · visibility 30 s · from 30 s to 40 s")
    check("the caption: the latest moment reached (3 of 4)", browser.evaluate("views[0].caption.textContent"),
          "3  worker-2 receives it (#2)")

    browser.pump(0.3)
    check("no console message, no request but the page itself", (browser.console(), browser.requests()),
          ([], [f"file://{page}"]))
    check("at 31 s, the frame from the run's pictures (painted when the page was idle) is the frame painted whole, "
          "but for the antialiased column where the now line cuts them", browser.evaluate(SAME_EITHER_WAY), [])
    browser.events.clear()  # Chromium's advice on the test's own getImageData

    browser.evaluate("setNow(45000)")  # past the frame's end: at its end
    check("45 s is past the story's frame: the page stands at its end", browser.evaluate("now"), 42000)
    shot = Shot(browser, "at-42s")
    x, y = lane_probe(browser, 0, "order #1", 40000)
    check("at 42 s: in flight to 40 s, the delete's end cap at 40 s, nothing after it",
          (shot.at(*lane_probe(browser, 0, "order #1", 39000)), shot.at(x + 2, y),
           shot.at(*lane_probe(browser, 0, "order #1", 41500))), (IN_FLIGHT, DELETED, BACKGROUND))

    # Playing: Space starts it and the now line moves; Space again stops it where it is.
    browser.evaluate("setNow(0); document.activeElement.blur()")
    browser.press(" ", "Space", 32)
    browser.pump(0.6)
    moved = browser.evaluate("now")
    check("Space plays: now moves (5x: about 3 s in 0.6 s, stopping at moment 1, 5 s)",
          (0 < moved <= 5000, browser.evaluate("document.getElementById('play').textContent")), (True, "Pause"))
    browser.press(" ", "Space", 32)
    paused = browser.evaluate("now")
    browser.pump(0.4)
    check("Space again pauses: now stays", (browser.evaluate("now") == paused, browser.evaluate("playing"),
                                            browser.evaluate("document.getElementById('play').textContent")),
          (True, False, "Play"))
    x_now, group_y = browser.evaluate("(() => { const box = views[0].track.getBoundingClientRect();"
                                      "return [box.left + views[0].xOf(now), box.top + views[0].rows[0].y + 20]; })()")
    x_start = browser.evaluate("views[0].track.getBoundingClientRect().left + views[0].xOf(0)")
    shot = Shot(browser, "paused")
    check("the now line has moved to where play paused, across the queue's heading",
          (x_now - x_start > 10, shot.at(x_now, group_y), shot.at(x_start + 3, group_y) == NOW), (True, NOW, False))
    browser.press("ArrowRight", "ArrowRight", 39)
    check("→ moves a second on", browser.evaluate("now"), paused + 1000)
    browser.evaluate("setNow(0)")
    browser.press("n", "KeyN", 78)
    check("N: the next key moment (1 at 5 s), its caption shown",
          (browser.evaluate("now"), browser.evaluate("views[0].caption.textContent")),
          (5000, "1  worker-1 crashes holding the message: nobody will delete it"))
    browser.press("End", "End", 35)
    check("End: the run's end", browser.evaluate("now"), browser.evaluate("END"))
    check("playing, pausing, scrubbing: no console message", browser.console(), [])

    check("the table of events: not built until opened (the first frame does not wait for it)",
          (browser.evaluate("document.querySelectorAll('#tables details.log').length"),
           browser.evaluate("document.querySelectorAll('table.events').length")), (1, 0))
    rows = browser.evaluate(OPEN_TABLES + ".then(rows => rows[0])")
    with open(table, newline="") as f:
        csv_rows = len(list(csv.reader(f))) - 1
    check("the table of events: as many rows as the run's CSV", (rows, rows > 0), (csv_rows, True))
    check("the key moments in words, numbered as the pins", browser.evaluate(
        "[...document.querySelectorAll('.moments li')].map(li => li.value + ' ' + li.textContent)"), [
        "1 5 s worker-1 crashes holding the message: nobody will delete it",
        "2 30 s The visibility timeout ends 30 s after the receive: the message worker-1 held is visible again",
        "3 30 s worker-2 receives it (#2)", "4 40 s worker-2 finishes the job and deletes it"])
    browser.evaluate("document.querySelectorAll('.moments button')[3].click()")
    check("a moment's button goes to its instant", (browser.evaluate("now"), browser.evaluate(
        "views[0].caption.textContent")), (40000, "4  worker-2 finishes the job and deletes it"))
    lesson = browser.evaluate("document.getElementById('lesson').textContent")
    check("the lesson's words, glossary marks taken off", ("[[" in lesson, "The trap" in lesson), (False, True))
    terms = browser.evaluate("[...document.querySelectorAll('#lesson .term')].map(t => [t.firstChild.textContent,"
                             "t.querySelector('.definition').textContent])")
    check("its glossary terms: each with the glossary's definition (a page alone: no link)", (
        len(terms) > 0, all(definition == GLOSSARY[words.lower()] for words, definition in terms),
        browser.evaluate("document.querySelectorAll('#lesson a.term').length")), (True, True, 0))
    browser.evaluate("document.querySelector('#lesson .term').focus()")
    check("a term's definition shows on focus (and hover)", browser.evaluate(
        "getComputedStyle(document.querySelector('#lesson .term .definition')).display"), "block")

    browser.scheme("dark")
    browser.pump(0.1)
    dark = browser.evaluate("page.palette.dark")
    shot = Shot(browser, "dark")
    check("dark follows the system: the canvas takes the app's dark background",
          shot.at(*lane_probe(browser, 0, "order #1", 67000)), rgb(dark["background"]))
    browser.scheme("light")

    # --- The site ----------------------------------------------------------------------------------------------------
    site = os.path.join(work, "site")
    done = run("site", site, check=True)
    print("    ", done.stdout.strip())
    lessons = run("lessons", check=True).stdout
    count = len(re.findall(r"^  \d+[.]\d+ +\d+  ", lessons, re.M))  # place, number, id
    pages = sorted(f for f in os.listdir(site) if f.startswith("lesson-"))
    check("the site: a page per lesson and an index", (len(pages), os.path.exists(os.path.join(site, "index.html"))),
          (count, True))
    sizes = {name: os.path.getsize(os.path.join(site, name)) for name in os.listdir(site)}
    print("     the largest pages:", sorted(sizes.items(), key=lambda kv: -kv[1])[:4])
    check("every lesson page under 300 KB (lesson 25's 3,120 messages as a band)",
          [name for name in pages if sizes[name] > 300 * 1000], [])
    index = open(os.path.join(site, "index.html"), encoding="utf-8").read()
    check("the index links every lesson page, in the course's blocks",
          sorted(set(re.findall(r'href="(lesson-\d+\.html)"', index))), pages)
    glossary = open(os.path.join(site, "glossary.html"), encoding="utf-8").read()
    anchors = re.findall(r'<dt id="([a-z0-9-]+)">', glossary)
    check("the glossary page: every term of the glossary, an anchor each", anchors, [t["id"] for t in TERMS])
    linked = set(re.findall(r'href="glossary\.html#([a-z0-9-]+)"', index))
    check("the index links its terms to the glossary's anchors", (len(linked) > 3, linked - set(anchors)),
          (True, set()))
    check("the index: a light and a dark still of every lesson's run, inside the page (no file or address to fetch)",
          (len(re.findall(r'<img alt="Lesson \d+\'s run at its key moments" src="data:image/png;base64,', index)),
           len(re.findall(r'<source media="\(prefers-color-scheme: dark\)" srcset="data:image/png;base64,', index)),
           re.findall(r'src="(?!data:image/png;base64,)', index)), (count, count, []))
    browser.open("file://" + os.path.join(site, "index.html"), ready="true")
    check("the index: every still decoded from the page itself, no console message, no request but the page",
          (browser.evaluate("[...document.images].filter(i => !i.complete || !i.naturalWidth).length"),
           browser.console(), [url for url in browser.requests() if not url.startswith("data:image/png;base64,")]),
          (0, [], ["file://" + os.path.join(site, "index.html")]))
    light_still = browser.evaluate("document.images[0].currentSrc")
    browser.scheme("dark")
    browser.open("file://" + os.path.join(site, "index.html"), ready="document.images[0].complete")
    check("the index, dark: the dark stills shown", (
        browser.evaluate("document.images[0].currentSrc") == browser.evaluate(
            "document.querySelector('picture source').srcset"), light_still == browser.evaluate(
            "document.images[0].currentSrc")), (True, False))
    browser.scheme("light")
    browser.open("file://" + os.path.join(site, "lesson-08.html"))
    check("lesson 8's page: as written and with the fix, two timelines and two tables, no console message", (
        browser.evaluate("document.querySelectorAll('section.run').length"),
        browser.evaluate(OPEN_TABLES + ".then(rows => rows.length)"),
        browser.evaluate("[...document.querySelectorAll('section.run h2')].map(h => h.textContent)"),
        browser.console()), (2, 2, ["As written", "With the fix"], []))
    hrefs = set(browser.evaluate("[...document.querySelectorAll('a.term')].map(a => a.getAttribute('href'))"))
    check("lesson 8's terms link to the glossary page's anchors", (len(hrefs) > 0, hrefs - {
        f"glossary.html#{a}" for a in anchors}), (True, set()))

    exercises = [f for f in os.listdir(site) if f.startswith("practice-")]
    ids = re.findall(r"^([a-z0-9-]+)  +", run("practice").stdout, re.M)
    check("an exercise page per exercise of `lifeline practice`, each linked from the index",
          (sorted(exercises), sorted(set(re.findall(r'href="(practice-[a-z0-9-]+\.html)"', index)))),
          (sorted(f"practice-{i}.html" for i in ids), sorted(f"practice-{i}.html" for i in ids)))

    # Every answer of three exercises (of choices; of a setting's values; one AWS refuses): the page's verdict is the
    # one `lifeline practice` gives, and the answer's run is the one shown.
    for exercise in ("lambda-maximum-concurrency", "visibility-for-the-work", "lambda-six-times"):
        browser.open("file://" + os.path.join(site, f"practice-{exercise}.html"))
        check(f"{exercise}: the situation shown, no verdict yet",
              (browser.evaluate("document.getElementById('verdict').textContent"),
               browser.evaluate("[...document.querySelectorAll('section.run')].filter(s => !s.hidden)"
                                ".map(s => s.querySelector('h2').textContent)")), ("", ["The situation"]))
        labels = browser.evaluate("[...document.querySelectorAll('#answers label')].map(l => l.textContent.trim())")
        for i, label in enumerate(labels):
            browser.evaluate(f"document.querySelectorAll('#answers input')[{i}].click()")
            choice = re.match(r"^([A-Z])\. ", label)
            args = ["--choose", choice.group(1)] if choice else [
                "--set", re.sub(r"^(\w+) = (\d+).*", r"\1=\2", label)]
            said = run("practice", exercise, *args)
            verdict = json.loads(said.stdout) if said.returncode in (0, 1) else None
            expected = (("Right: " if verdict["passed"] else "Not yet: ") + verdict["why"].removeprefix("passed: ")
                        if verdict else "Not yet: " + said.stderr.strip().removeprefix("lifeline practice: "))
            shown = browser.evaluate("[...document.querySelectorAll('section.run')].filter(s => !s.hidden)"
                                     ".map(s => s.querySelector('h2').textContent)")
            check(f"{exercise}: {label}: the verdict `lifeline practice {' '.join(args)}` gives, its run shown",
                  (browser.evaluate("document.getElementById('verdict').textContent"), shown),
                  (expected, [f"Your answer: {label}"] if verdict else []))
        check(f"{exercise}: no console message", browser.console(), [])
finally:
    browser.close()
print("all page cases passed")
