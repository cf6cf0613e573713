#!/usr/bin/env python3
"""`lifeline practice --drill N`: played as a learner would, on standard input, one prompt at a time. Every solution
answered: a full score, every topic asked in the first round. A wrong answer and answers that do not read: asked
again, then the score by topic and the missed exercise's replay command. The end of input ends the drill early.

Usage: drill.py LIFELINE RESOURCES/practice"""
import glob
import json
import os
import re
import subprocess
import sys

LIFELINE, PRACTICE = sys.argv[1], sys.argv[2]
exercises = {}
for path in glob.glob(os.path.join(PRACTICE, "*.json")):
    with open(path) as f:
        e = json.load(f)
    exercises[e["id"]] = e
topics = {e["topic"] for e in exercises.values()}
failures = []


def play(count, seed, answer_for):
    """Runs a drill, answering each prompt with answer_for(exercise, prompt); returns (output, exit status)."""
    p = subprocess.Popen([LIFELINE, "practice", "--drill", str(count), "--seed", str(seed)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=0)
    out, current, buffer, shown = "", None, "", {}
    while True:
        ch = p.stdout.read(1)
        if not ch:
            break
        out += ch
        buffer += ch
        m = re.search(r"Question \d+ of \d+ \u00b7 [^\u00b7]+ \u00b7 (\S+)\n$", buffer)
        if m:
            current, shown = exercises[m.group(1)], {}
        if buffer.endswith("): "):
            # The choices as this drill letters them (shuffled): "  B) text"; asked again, the ones shown before.
            shown = dict(re.findall(r"^  ([A-Z])\) (.*)$", buffer, re.M)) or shown
            p.stdin.write(answer_for(current, buffer.splitlines()[-1], shown) + "\n")
            p.stdin.flush()
            buffer = ""
    p.wait(timeout=120)
    return out, p.returncode


def letter(exercise, choice_id, shown):
    """The letter this drill shows the exercise's choice under."""
    text = next(c["text"] for c in exercise["choices"] if c["id"] == choice_id)
    return next(k for k, v in shown.items() if v == text)


def solution(exercise, prompt, shown):
    s = exercise["solution"]
    if "choose" in s:
        return letter(exercise, s["choose"], shown)
    name = prompt.split(" (")[0]
    return str(s["set"][name])


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else ": " + detail))
    if not condition:
        failures.append(name)


orders = []


def solution_noting_order(exercise, prompt, shown):
    if shown:
        orders.append([c["text"] for c in exercise["choices"]] == list(shown.values()))
    return solution(exercise, prompt, shown)


out, status = play(20, 11, solution_noting_order)
check("the choices are shuffled: not every question in the file's order", orders and not all(orders), str(orders))
check("every solution answered: 20 of 20, exit 0", "Score: 20 of 20\n" in out and status == 0, out[-600:])
asked = re.findall(r"Question \d+ of 20 \u00b7 ([^\u00b7]+) \u00b7", out)
check("the first round asks every topic", {t.strip() for t in asked[:len(topics)]} == topics, str(asked))
check("the score lists each topic asked", all(re.search(r"\n  " + re.escape(t) + r" +\d+ of \d+\n", out)
                                             for t in {a.strip() for a in asked}), out[-800:])
check("no exercise twice", len(set(re.findall(r"\u00b7 (\S+)\n", out))) == 20)

state = {"n": 0}


def wrong_first(exercise, prompt, shown):
    state["n"] += 1
    if state["n"] == 1:
        return "not an answer"  # asked again
    if state["n"] == 2:
        w = exercise["wrong"]
        if "choose" in w:
            return letter(exercise, w["choose"], shown)
        return str(w["set"][prompt.split(" (")[0]])
    return solution(exercise, prompt, shown)


out, status = play(3, 11, wrong_first)
first = re.search(r"\u00b7 (\S+)\n", out).group(1)
check("an answer that does not read is asked again", re.search(r"(Answer with |takes a whole number from )", out)
      is not None, out[:800])
check("a wrong answer: 2 of 3, exit 1", "Score: 2 of 3\n" in out and status == 1, out[-600:])
check("the missed exercise's replay command", re.search(r"Missed .*\n  lifeline practice " + re.escape(first)
                                                        + r" (--choose \S+|--set \S+=\d+)\n", out) is not None,
      out[-600:])
review = exercises[first].get("practises") or exercises[first]["lesson"]
check("the missed topic names its lesson to review, as the command that plays it",
      re.search(r"\n  " + re.escape(exercises[first]["topic"]) + r" +\d+ of \d+   review: lifeline run --lesson "
                + re.escape(review) + r"\n", out) is not None, out[-700:])
check("its why is the exercise's own", "Not yet: " + exercises[first]["wrong"]["why"] in out, out[:1500])

p = subprocess.run([LIFELINE, "practice", "--drill", "3", "--seed", "11"], input="", capture_output=True, text=True)
check("the end of input ends the drill early", "Score: 0 of 0 (3 not answered)" in p.stdout and p.returncode == 1,
      p.stdout[-400:])
for bad, says in ((["--drill", "0"], "--drill takes how many exercises"), (["--drill", "101"], "--drill takes"),
                  (["--drill", "5", "--seed", "-1"], "--seed takes a whole number"),
                  (["--drill", "5", "--bogus"], "unknown option '--bogus'")):
    p = subprocess.run([LIFELINE, "practice", *bad], capture_output=True, text=True, input="")
    check("bad " + " ".join(bad) + ": exit 2 naming it", p.returncode == 2 and says in p.stderr, p.stderr)
if failures:
    sys.exit(1)
print("the drill plays as a learner would")
