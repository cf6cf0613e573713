#!/usr/bin/env python3
"""Runs clang-tidy over the given sources, skipping each one already checked clean with the same inputs.

A source's inputs are everything that decides clang-tidy's findings on it: clang-tidy's version, .clang-tidy, the
extra arguments, the source's compile command, and the content of the source and of every header it includes (the
list ninja recorded when the build compiled it, system headers included). Their SHA-256 is the source's key; a clean
check leaves an empty file named by the key in the cache (outside the clone, so a fresh clone on the same machine
reuses it), and a source whose key is there is not checked again. Paths inside the clone are written relative to it,
so the key does not depend on where the clone is. A source ninja has no record of is always checked.

Usage: tidy-cached.py BUILD_DIR CACHE_DIR SOURCE...   (prints findings and exits 1 if any source has one)
"""

import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

EXTRA_ARGS = ["-extra-arg=-Wno-unknown-warning-option", "-extra-arg=-Werror"]


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


def compile_commands(build):
    """Maps each source's absolute path to (its command, the object file it writes)."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    commands = {}
    for entry in entries:
        words = shlex.split(entry["command"])
        output = words[words.index("-o") + 1] if "-o" in words else None
        commands[os.path.realpath(os.path.join(entry["directory"], entry["file"]))] = (entry["command"], output)
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


def newest_change(paths):
    """The latest modification time among the files: one edited while clang-tidy read it leaves its key unrecorded."""
    return max((os.stat(path).st_mtime_ns for path in paths if os.path.exists(path)), default=0)


def check(build, source):
    """clang-tidy over one source: (passed, what it printed)."""
    result = subprocess.run(["clang-tidy", "-p", build, "--quiet", *EXTRA_ARGS, source],
                            capture_output=True, text=True)
    printed = result.stdout + result.stderr
    found = any(word in printed for word in ("warning:", "error:"))
    return result.returncode == 0 and not found, printed


def main():
    build, cache, sources = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    os.makedirs(cache, exist_ok=True)
    deps, commands, keys = object_dependencies(build), compile_commands(build), Keys(root, build)

    to_check = []
    for source in sources:
        path = os.path.realpath(source)
        command, output = commands.get(path, (None, None))
        if command is None:
            sys.exit(f"clang-tidy: {source} is in no compile command of {build}")
        key = keys.key(command, deps[output]) if output in deps else None
        if key is None or not os.path.exists(os.path.join(cache, key)):
            inputs = keys.paths(deps[output]) if key else []
            to_check.append((path, key, inputs, newest_change(inputs)))

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        runs = {pool.submit(check, build, entry[0]): entry for entry in to_check}
        for run in concurrent.futures.as_completed(runs):
            path, key, inputs, changed = runs[run]
            passed, printed = run.result()
            if passed and key is not None and newest_change(inputs) == changed:
                open(os.path.join(cache, key), "w").close()
            elif not passed:
                failed.append(keys.relative(path))
                print(printed, end="")
    cached = len(sources) - len(to_check)
    if failed:
        print(f"clang-tidy: findings in {len(failed)} of {len(sources)} files "
              f"({cached} unchanged since a clean check):", " ".join(sorted(failed)))
        return 1
    print(f"clang-tidy: no findings in {len(sources)} files "
          f"({len(to_check)} checked, {cached} unchanged since a clean check)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
