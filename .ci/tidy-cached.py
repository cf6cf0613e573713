#!/usr/bin/env python3
"""Runs clang-tidy over the given sources, skipping each one already checked clean with the same inputs.

A source's inputs are everything that decides clang-tidy's findings on it: clang-tidy's version, .clang-tidy, the
extra arguments, the source's compile command, and the content of the source and of every header it includes (the
list ninja recorded when the build compiled it, system headers included). Their SHA-256 is the source's key; a clean
check leaves an empty file named by the key in the cache (outside the clone, so a fresh clone on the same machine
reuses it), and a source whose key is there is not checked again. Paths inside the clone are written relative to it,
so the key does not depend on where the clone is. A source ninja has no record of is always checked.

In a unity build (CMAKE_UNITY_BUILD, as CI's), a source has no command of its own: it is checked with its unit's
command, and its inputs are the unit's headers (ninja records them together) without the unit's other sources.

Sources are checked in batches: up to BATCH_SIZE sources with the same compile command (but for the file and its
object) are #included by one generated file that clang-tidy checks once, so Qt's, the standard library's and
nlohmann's headers are parsed and walked once per batch instead of once per source (most of clang-tidy's time on a
source goes there; docs/decisions.md has the figures). A batch that reports nothing but its own includes of .cpp files
passes every source in it. Anything else (a finding, or two sources that cannot share a translation unit, such as
helpers of the same name in anonymous namespaces) makes each of its sources be checked alone, and those runs decide
and print the findings, exactly as without batches.

Usage: tidy-cached.py BUILD_DIR CACHE_DIR SOURCE...   (prints findings and exits 1 if any source has one)
"""

import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

EXTRA_ARGS = ["-extra-arg=-Wno-unknown-warning-option", "-extra-arg=-Werror"]
# Named, not looked up beside the file checked: a batch's file is in the build folder, which may be outside the clone.
CONFIG_FILE = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".clang-tidy"))
BATCH_SIZE = 8
# One diagnostic line of clang-tidy's: where, how severe, what, and (for a check's finding) the check's name.
DIAGNOSTIC = re.compile(r"^(?P<file>.+?):\d+:\d+: (?P<severity>warning|error): .*?(?: \[(?P<check>[^\]]+)\])?$")


def object_dependencies(build):
    """Maps each object file (relative to the build folder) to the files ninja recorded it as depending on."""
    out = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True, check=True).stdout
    deps, current = {}, None
    for line in out.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            target, _, state = line.partition(": #deps")
            current = deps.setdefault(target, []) if "(VALID)" in state else None
        elif current is not None:
            current.append(line.strip())
    return deps


UNITY_INCLUDE = re.compile(r'^#include "(?P<source>[^"]+)"$', re.MULTILINE)


def compile_commands(build):
    """Maps each source's absolute path to (its command, the object file it writes, the other sources in its unit).

    A unity build's entries (CMAKE_UNITY_BUILD) name CMake's generated files, each #including up to eight sources; each
    of those sources gets the unit's command with itself in place of the generated file, and the unit's object."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    commands = {}
    for entry in entries:
        words = shlex.split(entry["command"])
        output = words[words.index("-o") + 1] if "-o" in words else None
        file = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        if os.path.basename(os.path.dirname(file)) != "Unity":
            commands[file] = (entry["command"], output, ())
            continue
        with open(file) as f:
            unit = [os.path.realpath(source) for source in UNITY_INCLUDE.findall(f.read())]
        for source in unit:
            command = shlex.join(source if os.path.realpath(word) == file else word for word in words)
            commands[source] = (command, output, tuple(other for other in unit if other != source) + (file,))
    return commands


class Keys:
    """Computes sources' keys, hashing each input file once."""

    def __init__(self, root, build):
        self.root = root
        self.build = build
        self.file_hashes = {}
        tidy_version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
        with open(os.path.join(root, ".clang-tidy"), "rb") as f:
            config = f.read()
        self.common = hashlib.sha256(tidy_version.encode() + config + " ".join(EXTRA_ARGS).encode()).digest()

    def relative(self, path):
        """A path inside the clone written from the clone's root; one outside, as it is."""
        return os.path.relpath(path, self.root) if path.startswith(self.root + os.sep) else path

    def file_hash(self, path):
        if path not in self.file_hashes:
            try:
                with open(path, "rb") as f:
                    self.file_hashes[path] = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                self.file_hashes[path] = "missing"
        return self.file_hashes[path]

    def paths(self, dependencies):
        # In the order of the names the key writes (a clone's path sorts apart from /usr's by where the clone is).
        return sorted((os.path.realpath(os.path.join(self.build, d)) for d in dependencies), key=self.relative)

    def key(self, command, dependencies):
        digest = hashlib.sha256(self.common)
        digest.update(command.replace(self.root, "<clone>").encode())
        for dependency in self.paths(dependencies):
            digest.update(f"\n{self.relative(dependency)} {self.file_hash(dependency)}".encode())
        return digest.hexdigest()


def source_inputs(build, dependencies, unit):
    """What ninja recorded for a source's object, less the other sources of its unit and CMake's file that includes
    them (which names the clone's path); the unit's headers stay in, as ninja records them together."""
    return [d for d in dependencies if os.path.realpath(os.path.join(build, d)) not in unit]


def newest_change(paths):
    """The latest modification time among the files: one edited while clang-tidy read it leaves its key unrecorded."""
    return max((os.stat(path).st_mtime_ns for path in paths if os.path.exists(path)), default=0)


def run_tidy(build, shape, source, folder):
    """clang-tidy over one file with a compile command of the given shape: what it printed, and its exit status."""
    database = tempfile.mkdtemp(dir=folder)
    with open(os.path.join(database, "compile_commands.json"), "w") as f:
        json.dump([{"directory": build, "file": source, "command": f"{shape} -c {shlex.quote(source)}"}], f)
    result = subprocess.run(["clang-tidy", "-p", database, f"--config-file={CONFIG_FILE}", "--quiet", *EXTRA_ARGS,
                             source], capture_output=True, text=True)
    return result.stdout + result.stderr, result.returncode


def check(build, shape, source, folder):
    """clang-tidy over one source: (passed, what it printed)."""
    printed, status = run_tidy(build, shape, source, folder)
    found = any(word in printed for word in ("warning:", "error:"))
    return status == 0 and not found, printed


def command_shape(command, source, output):
    """A compile command with its source and object left out: sources with the same shape can share a batch."""
    words = shlex.split(command)
    if output is not None and "-o" in words:
        at = words.index("-o")
        del words[at:at + 2]
    return shlex.join(word for word in words if word != "-c" and os.path.realpath(word) != source)


def batches(entries, size=BATCH_SIZE):
    """Groups (source, command, object) entries by their command's shape, in runs of at most `size` sources."""
    shapes = {}
    for source, command, output in entries:
        shapes.setdefault(command_shape(command, source, output), []).append(source)
    groups = []
    for shape, sources in sorted(shapes.items()):
        groups += [(shape, sources[at:at + size]) for at in range(0, len(sources), size)]
    return groups


def batch_clean(printed, batch_file):
    """Whether a batch's run found nothing but the batch file's own includes of .cpp files."""
    if "Error while processing" in printed:
        return False
    for line in printed.splitlines():
        diagnostic = DIAGNOSTIC.match(line)
        if diagnostic is None:
            continue
        own_include = (os.path.realpath(diagnostic["file"]) == batch_file
                       and diagnostic["check"] and "bugprone-suspicious-include" in diagnostic["check"])
        if not own_include:
            return False
    return True


def check_batch(build, shape, sources, folder):
    """clang-tidy once over one file that includes every source of the batch.

    Returns ({source: (passed, printed)}, whether each source was checked alone): every source passes when the batch
    is clean; otherwise each is checked alone."""
    handle, batch_file = tempfile.mkstemp(suffix=".cpp", dir=folder)
    with os.fdopen(handle, "w") as f:
        f.writelines(f'#include "{source}"\n' for source in sources)
    printed, _ = run_tidy(build, shape, batch_file, folder)
    if batch_clean(printed, os.path.realpath(batch_file)):
        return {source: (True, "") for source in sources}, False
    return {source: check(build, shape, source, folder) for source in sources}, True


def check_all(build, entries, folder):
    """Checks (source, command, object) entries in batches on every core.

    Returns ({source: (passed, printed)}, the number of batches, how many of them had each source checked alone)."""
    results, alone = {}, 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        runs = [pool.submit(check_batch, build, shape, sources, folder) for shape, sources in batches(entries)]
        for run in concurrent.futures.as_completed(runs):
            batch_results, checked_alone = run.result()
            results.update(batch_results)
            alone += checked_alone
    return results, len(runs), alone


def main():
    build, cache, sources = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    os.makedirs(cache, exist_ok=True)
    deps, commands, keys = object_dependencies(build), compile_commands(build), Keys(root, build)

    to_check = []
    for source in sources:
        path = os.path.realpath(source)
        command, output, unit = commands.get(path, (None, None, ()))
        if command is None:
            sys.exit(f"clang-tidy: {source} is in no compile command of {build}")
        inputs = source_inputs(build, deps.get(output, []), unit)
        key = keys.key(command_shape(command, path, output) + " " + path, inputs) if output in deps else None
        if key is None or not os.path.exists(os.path.join(cache, key)):
            inputs = keys.paths(inputs) if key else []
            to_check.append((path, command, output, key, inputs, newest_change(inputs)))

    failed = []
    with tempfile.TemporaryDirectory(prefix="tidy-batches-", dir=build) as folder:
        results, batch_count, alone = check_all(build, [entry[:3] for entry in to_check], folder)
    for path, _, _, key, inputs, changed in to_check:
        passed, printed = results[path]
        if passed and key is not None and newest_change(inputs) == changed:
            open(os.path.join(cache, key), "w").close()
        elif not passed:
            failed.append(keys.relative(path))
            print(printed, end="")
    cached = len(sources) - len(to_check)
    if to_check:
        print(f"clang-tidy: {len(to_check)} files in {batch_count} batches, "
              f"{alone} of them checked file by file (a finding, or sources that cannot share a translation unit)")
    if failed:
        print(f"clang-tidy: findings in {len(failed)} of {len(sources)} files "
              f"({cached} unchanged since a clean check):", " ".join(sorted(failed)))
        return 1
    print(f"clang-tidy: no findings in {len(sources)} files "
          f"({len(to_check)} checked, {cached} unchanged since a clean check)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
