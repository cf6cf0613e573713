#!/usr/bin/env python3
""".ci/tidy-cached.py's batches: sources with one compile command are checked together in one clang-tidy run, a clean
batch passes them all without another run, and a batch with a finding, or with sources that cannot share a translation
unit, has each source checked alone, so the findings and their text are those of a run over that source.

The stand-in sources live under a `core/` folder with the repository's own .clang-tidy, so its header filter and its
naming rule apply to them as they do to the project's sources.

Usage: tidy_batches.py REPOSITORY"""
import importlib.util
import json
import os
import shutil
import sys
import tempfile

spec = importlib.util.spec_from_file_location("tidy_cached", os.path.join(sys.argv[1], ".ci", "tidy-cached.py"))
tidy_cached = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tidy_cached)

SOURCES = {
    "first.cpp": "int firstValue() { return 1; }\n",
    "badly_named.cpp": "int Badly_Named() { return 2; }\n",
    # Two helpers of one name in anonymous namespaces: fine apart, a redefinition in one translation unit.
    "second.cpp": "namespace {\nint helper() { return 3; }\n}  // namespace\nint secondValue() { return helper(); }\n",
    "third.cpp": "namespace {\nint helper() { return 4; }\n}  // namespace\nint thirdValue() { return helper(); }\n",
}


def project(repository):
    """A stand-in project: the repository's .clang-tidy, the sources and a compile database for them."""
    root = os.path.realpath(tempfile.mkdtemp(prefix="lifeline-batches-"))
    shutil.copy(os.path.join(repository, ".clang-tidy"), root)
    os.makedirs(os.path.join(root, "core"))
    os.makedirs(os.path.join(root, "build"))
    entries = []
    for name, text in SOURCES.items():
        with open(os.path.join(root, "core", name), "w") as f:
            f.write(text)
        source = os.path.join(root, "core", name)
        entries.append({"directory": os.path.join(root, "build"), "file": source,
                        "command": f"/usr/bin/c++ -std=c++20 -O2 -o {name}.o -c {source}"})
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        json.dump(entries, f)
    return root, [(e["file"], e["command"], f"{os.path.basename(e['file'])}.o") for e in entries]


class CountedChecks:
    """Counts the runs of clang-tidy over a single source."""

    def __init__(self):
        self.sources = []
        self.check = tidy_cached.check
        tidy_cached.check = self.counted

    def counted(self, build, shape, source, folder):
        self.sources.append(os.path.basename(source))
        return self.check(build, shape, source, folder)


def run(root, entries, names, outside=False):
    """check_all over the named sources: ({name: passed}, {name: printed}, the sources checked alone). With `outside`,
    the batches' files are written outside the stand-in project (as for a build folder outside the clone)."""
    counted = CountedChecks()
    try:
        chosen = [entry for entry in entries if os.path.basename(entry[0]) in names]
        with tempfile.TemporaryDirectory(dir=None if outside else os.path.join(root, "build")) as folder:
            results, _, _ = tidy_cached.check_all(os.path.join(root, "build"), chosen, folder)
    finally:
        tidy_cached.check = counted.check
    passed = {os.path.basename(source): result[0] for source, result in results.items()}
    printed = {os.path.basename(source): result[1] for source, result in results.items()}
    return passed, printed, sorted(counted.sources)


def main():
    root, entries = project(sys.argv[1])
    checks = []
    try:
        passed, _, alone = run(root, entries, ("first.cpp", "second.cpp"))
        checks.append(("a clean batch passes both sources", passed, {"first.cpp": True, "second.cpp": True}))
        checks.append(("a clean batch checks no source alone", alone, []))

        passed, printed, alone = run(root, entries, ("first.cpp", "badly_named.cpp"))
        checks.append(("a batch with a finding fails only its source", passed,
                       {"first.cpp": True, "badly_named.cpp": False}))
        checks.append(("a batch with a finding checks each source alone", alone, ["badly_named.cpp", "first.cpp"]))
        checks.append(("the finding is printed as a run over its source prints it",
                       "invalid case style for function 'Badly_Named'" in printed["badly_named.cpp"]
                       and "core/badly_named.cpp:1:5: error:" in printed["badly_named.cpp"], True))

        passed, _, _ = run(root, entries, ("first.cpp", "badly_named.cpp"), outside=True)
        checks.append(("a batch written outside the clone is checked with the clone's .clang-tidy", passed,
                       {"first.cpp": True, "badly_named.cpp": False}))

        passed, _, alone = run(root, entries, ("second.cpp", "third.cpp"))
        checks.append(("sources that cannot share a translation unit pass alone", passed,
                       {"second.cpp": True, "third.cpp": True}))
        checks.append(("... after each was checked alone", alone, ["second.cpp", "third.cpp"]))

        shaped = tidy_cached.batches([(f"/p/core/s{n}.cpp", f"c++ -O2 -o s{n}.o -c /p/core/s{n}.cpp", f"s{n}.o")
                                      for n in range(10)]
                                     + [("/p/ui/w.cpp", "c++ -O2 -DQT -o w.o -c /p/ui/w.cpp", "w.o")])
        checks.append(("batches group sources by their command and hold at most eight",
                       [(shape, len(sources)) for shape, sources in shaped],
                       [("c++ -O2", 8), ("c++ -O2", 2), ("c++ -O2 -DQT", 1)]))

        # A unity build's database names CMake's generated file; its sources take its command and its object.
        unity = os.path.join(root, "build", "core", "CMakeFiles", "core.dir", "Unity", "unity_0_cxx.cxx")
        os.makedirs(os.path.dirname(unity))
        with open(unity, "w") as f:
            f.write(f'/* generated by CMake */\n\n#include "{root}/core/first.cpp"\n\n'
                    f'#include "{root}/core/badly_named.cpp"\n\n')
        with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
            json.dump([{"directory": os.path.join(root, "build"), "file": unity,
                        "command": f"/usr/bin/c++ -std=c++20 -O2 -o core/unity_0_cxx.cxx.o -c {unity}"}], f)
        commands = tidy_cached.compile_commands(os.path.join(root, "build"))
        first, badly_named = (os.path.join(root, "core", name) for name in ("first.cpp", "badly_named.cpp"))
        checks.append(("a unit's source has the unit's command with itself in place of CMake's file",
                       commands.get(first), (f"/usr/bin/c++ -std=c++20 -O2 -o core/unity_0_cxx.cxx.o -c {first}",
                                             "core/unity_0_cxx.cxx.o", (badly_named, unity))))
        unit_entries = [(source, command, output) for source, (command, output, _) in commands.items()]
        counted = CountedChecks()
        try:
            with tempfile.TemporaryDirectory(dir=os.path.join(root, "build")) as folder:
                results, _, _ = tidy_cached.check_all(os.path.join(root, "build"), unit_entries, folder)
        finally:
            tidy_cached.check = counted.check
        checks.append(("a unit's sources are checked with its command: the finding fails only its source",
                       {os.path.basename(source): result[0] for source, result in results.items()},
                       {"first.cpp": True, "badly_named.cpp": False}))
        checks.append(("... and is printed at its line", "core/badly_named.cpp:1:5: error:" in results[badly_named][1],
                       True))
    finally:
        shutil.rmtree(root)
    failed = [name for name, got, want in checks if got != want]
    for name, got, want in checks:
        print("ok  " if got == want else "FAIL", name, "" if got == want else f": got {got!r}, want {want!r}")
    if failed:
        return 1
    print("clang-tidy's batches hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
