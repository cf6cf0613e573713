#!/usr/bin/env python3
"""The web pages against WCAG 2.1 AA, audited by axe-core (npm, pinned in tests/lint/package-lock.json) in Debian's
chromium, headless: the site's index, its glossary, a lesson's page, an exercise's page and a run's page
(`lifeline run --export F.html`), each in the light, the dark and the high-contrast scheme (prefers-contrast: more),
after the page has drawn, by axe's WCAG 2.0 and 2.1 A and AA rules and its best practices (landmarks, one main,
headings in order). No violation of impact serious or critical may remain; each one found is printed with its rule,
its help and the elements it names.

Usage: axe_audit.py LIFELINE CHROMIUM AXE_MIN_JS"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

LIFELINE, CHROMIUM, AXE = sys.argv[1], sys.argv[2], sys.argv[3]
work = tempfile.mkdtemp(prefix="lifeline-axe-")
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def audit(browser, url, ready):
    browser.open(url, ready=ready)
    with open(AXE, encoding="utf-8") as f:
        browser.evaluate(f.read() + "\n;true")
    result = browser.evaluate(
        "axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})"
        ".then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, "
        "nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary.replace(/\\n/g, ' '))}))))"
        % json.dumps(RULES))
    return json.loads(result)


def main():
    site = os.path.join(work, "site")
    subprocess.run([LIFELINE, "site", site], check=True, capture_output=True)
    page = os.path.join(work, "lesson7.html")
    subprocess.run([LIFELINE, "run", "--lesson", "7", "--export", page], check=True, capture_output=True)
    exercise = sorted(f for f in os.listdir(site) if f.startswith("practice-"))[0]
    pages = [("index", os.path.join(site, "index.html"), "true"),
             ("glossary", os.path.join(site, "glossary.html"), "true"),
             ("lesson page", os.path.join(site, "lesson-08.html"), None),
             ("exercise page", os.path.join(site, exercise), None),
             ("a run's page", page, None)]
    browser = Browser(CHROMIUM, 1366, 900)
    failures = 0
    try:
        for scheme in ("light", "dark", "high contrast"):
            browser.scheme(scheme)
            for name, path, ready in pages:
                drawn = ready or "typeof views !== 'undefined' && views !== undefined"
                violations = audit(browser, "file://" + path, drawn)
                serious = [v for v in violations if v["impact"] in ("serious", "critical")]
                for v in violations:
                    print(f"{'FAIL' if v in serious else 'note'} {name} ({scheme}): {v['id']} [{v['impact']}] "
                          f"{v['help']}")
                    for node in v["nodes"][:5]:
                        print("       ", node[:300])
                failures += len(serious)
                if not serious:
                    print(f"ok   {name} ({scheme}): no serious or critical violation of WCAG 2.1 AA")
    finally:
        browser.close()
    if failures:
        print(f"{failures} serious or critical violations")
        return 1
    print("the pages pass axe-core's WCAG 2.1 AA rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
