#!/usr/bin/env python3
"""The web pages' speed in Debian's chromium, headless (driven over the DevTools protocol, tests/web/cdp.py): how
long a page takes to its first frame (from the navigation's start to the task after the first frame that shows the
run, which the page marks), and how fast it redraws while scrubbed (the scrub bar moved a step a frame, 240 steps
across the run: each step's redraw time and the frames a second the page kept up). The goals: a first frame within
200 ms, scrubbing at 60 frames a second (a redraw well within a frame's 16.7 ms).

Prints one `name value unit` per line, as lifeline-bench does. Usage: page_bench.py LIFELINE [CHROMIUM]"""
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web"))
from cdp import Browser  # noqa: E402

LIFELINE = sys.argv[1]
CHROMIUM = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/chromium"
LOADS = 7
SCRUB = """new Promise(done => {
  const scrub = document.getElementById("scrub"), steps = 240, draws = [], frames = [];
  let i = 0;
  function step(at) {
    frames.push(at);
    if (i > steps) { done({ draws, frames }); return; }
    scrub.value = String(END * i++ / steps);
    const begin = performance.now();
    scrub.dispatchEvent(new Event("input"));
    draws.push(performance.now() - begin);
    requestAnimationFrame(step);
  }
  requestAnimationFrame(step);
})"""

site = tempfile.mkdtemp(prefix="lifeline-site-")
subprocess.run([LIFELINE, "site", site], check=True, capture_output=True, timeout=120)
pages = {"lesson_07": "lesson-07.html", "lesson_12": "lesson-12.html", "lesson_25": "lesson-25.html",
         "backlog_exercise": "practice-consumers-for-the-backlog.html"}
for width, height in ((1920, 1080), (1366, 768)):
    browser = Browser(CHROMIUM, width, height)
    try:
        # The first page a fresh browser draws also sets up its canvas and fonts (50-100 ms here): printed apart, so
        # the figures below are a page's own.
        browser.open("file://" + os.path.join(site, "lesson-01.html"),
                     ready="performance.getEntriesByName('lifeline-first-frame').length > 0")
        cold = browser.evaluate("performance.getEntriesByName('lifeline-first-frame')[0].startTime")
        print(f"web.first_frame_ms_cold_browser.lesson_01.{width}x{height} {cold:.0f} ms (the browser's first page)")
        for name, page in pages.items():
            url = "file://" + os.path.join(site, page)
            firsts = []
            for _ in range(LOADS):
                browser.open(url, ready="performance.getEntriesByName('lifeline-first-frame').length > 0")
                firsts.append(browser.evaluate("performance.getEntriesByName('lifeline-first-frame')[0].startTime"))
            if name == "backlog_exercise":  # the longest answer's run, as a learner who chose it sees it
                browser.evaluate("document.querySelectorAll('#answers input')[0].click()")
            scrubbed = browser.evaluate(SCRUB)
            draws, frames = sorted(scrubbed["draws"]), scrubbed["frames"]
            fps = (len(frames) - 1) / ((frames[-1] - frames[0]) / 1000)
            size = f"{width}x{height}"
            print(f"web.first_frame_ms.{name}.{size} {statistics.median(firsts):.0f} ms (max {max(firsts):.0f} "
                  f"of {LOADS} loads; {os.path.getsize(os.path.join(site, page)) // 1000} KB)")
            print(f"web.scrub_redraw_ms.{name}.{size} {draws[len(draws) // 2]:.1f} ms (p95 "
                  f"{draws[int(len(draws) * 0.95)]:.1f}, max {draws[-1]:.1f})")
            print(f"web.scrub_fps.{name}.{size} {fps:.0f} fps")
    finally:
        browser.close()
