#!/usr/bin/env python3
"""Every answer a learner can give to an exercise, run by `lifeline practice` as they would run it.

For each exercise file given: every choice, or for its setting a grid over the control's whole range (both ends,
each side of the declared right range's edges, and values spread between). Each run is a child process with a
2 GB address-space limit and a time limit; it must exit 0 (passed), 1 (not passed) or 2 (a clear refusal), never
die by a signal or hang. And it must pass exactly when the exercise's `right` declaration says the answer is right.

usage: practice_sweep.py LIFELINE EXERCISE.json [EXERCISE.json ...]
Prints one line per answer, then "N passed, N failed".
"""
import json
import resource
import subprocess
import sys

ADDRESS_SPACE = 2 * 1024**3
SECONDS = 120

# Values a learner is likely to try (and SQS's own boundaries): kept where they fall inside a control's range.
LIKELY = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 25, 29, 30, 31, 45, 59, 60, 61, 89, 90,
          91, 119, 120, 179, 180, 181, 299, 300, 600, 899, 900, 901, 1800, 3600, 7200, 43199, 43200, 43201,
          86400, 345599, 345600, 1209600]


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def grid(control, right):
    lo, hi = control["min"], control["max"]
    values = {lo, hi}
    values.update(v for v in LIKELY if lo <= v <= hi)
    for edge in (right["from"] - 1, right["from"], right["to"], right["to"] + 1):
        if lo <= edge <= hi:
            values.add(edge)
    step = max(1, (hi - lo) // 12)
    values.update(range(lo, hi + 1, step))
    return sorted(values)


def answers(exercise):
    right = exercise["right"]
    if "choose" in right:
        for choice in exercise["choices"]:
            yield ["--choose", choice["id"]], choice["id"] in right["choose"]
        return
    (name, span), = right["set"].items()
    control = next(c for c in exercise["controls"] if c["name"] == name)
    for value in grid(control, span):
        yield ["--set", f"{name}={value}"], span["from"] <= value <= span["to"]


def main():
    lifeline, files = sys.argv[1], sys.argv[2:]
    passed = failed = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            exercise = json.load(f)
        for args, right in answers(exercise):
            command = [lifeline, "practice", exercise["id"], *args]
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=SECONDS, preexec_fn=limit)
                status, said = done.returncode, (done.stdout + done.stderr).strip().replace("\n", " ")
            except subprocess.TimeoutExpired:
                status, said = None, f"no answer in {SECONDS} s"
            problem = None
            if status is None or status < 0:
                problem = f"died ({said if status is None else 'signal ' + str(-status)})"
            elif status not in (0, 1, 2):
                problem = f"exit {status}"
            elif right and status != 0:
                problem = "a right answer did not pass"
            elif not right and status == 0:
                problem = "a wrong answer passed"
            verdict = "ok  " if problem is None else "FAIL"
            print(f"{verdict} {exercise['id']} {' '.join(args)}: exit {status}: {said[:200]}"
                  + (f"  <- {problem}" if problem else ""))
            if problem:
                failed += 1
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
