#!/usr/bin/env python3
""".ci/tidy-cached.py's keys: the same sources and headers give the same key wherever the clone is (a clone under
/tmp sorts before /usr/include, one under /var/tmp after it), and a change to the source, to a header it includes,
to its compile command or to .clang-tidy gives another key. In a unity build, the unit's other sources and CMake's
generated file are not a source's inputs.

Usage: tidy_cache_keys.py REPOSITORY"""
import importlib.util
import os
import shutil
import sys
import tempfile

spec = importlib.util.spec_from_file_location("tidy_cached", os.path.join(sys.argv[1], ".ci", "tidy-cached.py"))
tidy_cached = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tidy_cached)
SYSTEM_HEADER = "/usr/include/stdc-predef.h"  # a system header every GCC compile includes


def clone(parent):
    """A stand-in clone: .clang-tidy, a source, a header, and a build folder."""
    root = os.path.realpath(tempfile.mkdtemp(prefix="lifeline-key-", dir=parent))
    for name, text in ((".clang-tidy", "Checks: '-*,bugprone-*'\n"), ("src/a.cpp", '#include "a.h"\n'),
                       ("src/a.h", "int a();\n")):
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    os.makedirs(os.path.join(root, "build"))
    return root


def key(root, command_flags="-O2"):
    keys = tidy_cached.Keys(root, os.path.join(root, "build"))
    command = f"/usr/bin/c++ -I{root}/src {command_flags} -c {root}/src/a.cpp"
    return keys.key(command, ["../src/a.cpp", SYSTEM_HEADER, "../src/a.h"])


def main():
    first, second = clone("/tmp"), clone("/var/tmp")
    try:
        checks = [("the same key in a clone under /tmp and one under /var/tmp", key(first) == key(second), True)]
        before = key(first)
        for name, text in (("src/a.cpp", '#include "a.h"\nint b;\n'), ("src/a.h", "int a(int);\n"),
                           (".clang-tidy", "Checks: '-*,performance-*'\n")):
            path = os.path.join(first, name)
            kept = open(path).read()
            with open(path, "w") as f:
                f.write(text)
            checks.append((f"another key when {name} changes", key(first) != before, True))
            with open(path, "w") as f:
                f.write(kept)
        checks.append(("another key for another compile command", key(first, "-O3") != before, True))
        checks.append(("the key again once every change is undone", key(first) == before, True))
        build = os.path.join(first, "build")
        unit = (os.path.join(first, "src", "b.cpp"), os.path.join(build, "Unity", "unity_0_cxx.cxx"))
        checks.append(("a unity build's source: its unit's other sources and CMake's file are not its inputs",
                       tidy_cached.source_inputs(build, ["Unity/unity_0_cxx.cxx", "../src/a.cpp", "../src/b.cpp",
                                                         SYSTEM_HEADER, "../src/a.h"], unit),
                       ["../src/a.cpp", SYSTEM_HEADER, "../src/a.h"]))
    finally:
        shutil.rmtree(first)
        shutil.rmtree(second)
    failed = [name for name, got, want in checks if got != want]
    for name, got, want in checks:
        print("ok  " if got == want else "FAIL", name, "" if got == want else f": got {got!r}, want {want!r}")
    if failed:
        return 1
    print("the clang-tidy cache's keys hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
