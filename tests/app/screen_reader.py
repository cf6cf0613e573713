#!/usr/bin/env python3
"""The window as a screen reader reads it: through AT-SPI (python3-pyatspi, the interface Orca uses), under Xvfb
with its own accessibility bus, keys typed with xdotool. The timeline is a table whose rows are the lanes and
consumers; a consumer is crashed and restarted by keyboard alone (Ctrl+T to the tiles, Enter), and the table tells
the message's life: in flight held by the worker, still in flight after the crash, visible again when the
visibility timeout ends (received once), in flight again after the restart (received twice). Then lesson 7: its
first key moment is said as it is reached, an alert showing with the moment's caption (what Orca speaks as it
appears), and the table has the lesson's order and both workers.

Usage: screen_reader.py LIFELINE SCENARIO.json   (run inside dbus-run-session; exit 77 when a tool is missing)
"""

import os
import shutil
import subprocess
import sys
import time

COLUMNS = ["Message", "Queue", "State", "Since", "Receives", "Held by", "Next"]


def missing_tools():
    missing = [tool for tool in ("Xvfb", "xdotool", "dbus-run-session") if not shutil.which(tool)]
    if not os.path.exists("/usr/libexec/at-spi-bus-launcher"):
        missing.append("at-spi2-core")
    try:
        import pyatspi  # noqa: F401
    except ImportError:
        missing.append("python3-pyatspi")
    return missing


def start_display():
    """Xvfb on a display number it picks itself; returns (process, ":N")."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    return xvfb, ":" + number


def wait_for(what, probe, timeout=60):
    """Polls probe() until it returns something true; fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = probe()
        except Exception as error:  # the tree may be rebuilt under us: ask again
            last = error
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.1)
    sys.exit(f"FAIL: waited {timeout} s for {what}; last read: {last!r}")


def find_timeline(pyatspi):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app and app.name == "Lifeline":
            found = pyatspi.findDescendant(app, lambda n: n.getRole() == pyatspi.ROLE_TABLE and n.name == "Timeline")
            if found:
                return found
    return None


def read_rows(timeline):
    """The table as a list of {column: text}, read cell by cell through the Table interface."""
    table = timeline.queryTable()
    headings = [table.getColumnDescription(c) for c in range(table.nColumns)]
    if headings != COLUMNS:
        sys.exit(f"FAIL: the timeline's columns are {headings}, not {COLUMNS}")
    return [{headings[c]: table.getAccessibleAt(r, c).name for c in range(table.nColumns)} for r in range(table.nRows)]


def row_named(timeline, name):
    return next((row for row in read_rows(timeline) if row["Message"] == name), None)


def showing_alert(pyatspi, name):
    """The application's alert with this name, if one is showing."""
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app and app.name == "Lifeline":
            found = pyatspi.findDescendant(app, lambda n: n is not None and n.getRole() == pyatspi.ROLE_ALERT
                                           and n.name == name)
            if found and found.getState().contains(pyatspi.STATE_SHOWING):
                return found
    return None


def main():
    lifeline, scenario = sys.argv[1], sys.argv[2]
    missing = missing_tools()
    if missing:
        print("not tested as a screen reader reads it: missing " + ", ".join(missing)
              + " (.ci/install-deps installs them)")
        return 77
    import pyatspi

    xvfb, display = start_display()
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
               XDG_CONFIG_HOME=os.path.join(os.environ.get("TMPDIR", "/tmp"), f"lifeline-a11y-{os.getpid()}"))
    bus = subprocess.Popen(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], env=env,
                           stderr=subprocess.DEVNULL)
    app = None
    try:
        time.sleep(0.5)  # the bus launcher registers the accessibility bus on the session bus
        app = subprocess.Popen([lifeline, scenario], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.environ["DISPLAY"] = display
        timeline = wait_for("the timeline's table on the accessibility bus", lambda: find_timeline(pyatspi))

        def keys(*names):
            window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "Lifeline"], env=env,
                                    capture_output=True, text=True, check=True).stdout.split()[0]
            subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, check=True)
            subprocess.run(["xdotool", "key", "--delay", "80", *names], env=env, check=True)

        held = wait_for("order #1 in flight, held by the worker", lambda: (
            (row := row_named(timeline, "order #1")) and row["State"] == "in flight" and row))
        keys("space")  # pause: the crash lands while the worker holds the order
        wait_for("the worker's row", lambda: row_named(timeline, "worker"))
        checks = [("the order's queue, receives and holder",
                   (held["Queue"], held["Receives"], held["Held by"]), ("orders", "1", "worker"))]

        keys("ctrl+t", "Return")  # to the consumer tiles; Enter crashes the focused one
        crashed = wait_for("the worker crashed", lambda: (
            (row := row_named(timeline, "worker")) and row["State"] == "crashed" and row))
        order = row_named(timeline, "order #1")
        checks.append(("after the crash the order is still in flight, its countdown told",
                       (order["State"], order["Next"].startswith("visible again in ")), ("in flight", True)))
        checks.append(("the crashed worker's row", (crashed["Queue"], crashed["State"]), ("consumer", "crashed")))

        keys("space", "bracketright", "bracketright")  # play, faster
        # Each cell's name reaches the bus by its own change event: the row is read once its State and Since cells
        # both tell the new state (a read between the two events saw "visible" beside the in-flight "since 1s").
        visible = wait_for("order #1 visible again after its visibility timeout", lambda: (
            (row := row_named(timeline, "order #1")) and row["State"] == "visible" and row["Since"] != held["Since"]
            and row), timeout=90)
        checks.append(("visible again, received once, nobody holding it",
                       (visible["Receives"], visible["Held by"], visible["Since"]), ("1", "", "21s")))

        keys("ctrl+t", "Return")  # Enter again restarts the worker, which receives the order again
        again = wait_for("order #1 received a second time", lambda: (
            (row := row_named(timeline, "order #1")) and row["Receives"] == "2" and row["Held by"] != "" and row),
            timeout=90)
        checks.append(("received again by the restarted worker", (again["State"], again["Held by"]),
                       ("in flight", "worker")))

        app.terminate()
        app.wait(timeout=10)
        app = subprocess.Popen([lifeline, "--lesson", "7"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        said = "Key moment 1 at 5s: worker-1 crashes holding the message: nobody will delete it."
        checks.append(("lesson 7's first key moment said as an alert", bool(wait_for(
            "the alert of lesson 7's first key moment", lambda: showing_alert(pyatspi, said))), True))
        lesson = wait_for("lesson 7's table", lambda: find_timeline(pyatspi))
        rows = wait_for("lesson 7's rows", lambda: [(r["Message"], r["Queue"]) for r in read_rows(lesson)])
        checks.append(("lesson 7's rows: its order and both workers", rows,
                       [("order #1", "orders"), ("worker-1", "consumer"), ("worker-2", "consumer")]))

        failed = [f"{name}: got {got}, expected {want}" for name, got, want in checks if got != want]
        for line in failed:
            print("FAIL:", line)
        if failed:
            return 1
        print(f"the timeline read as a screen reader reads it: {len(checks)} checks passed")
        return 0
    finally:
        for process in (app, bus, xvfb):
            if process:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()


if __name__ == "__main__":
    sys.exit(main())
