#!/usr/bin/env python3
"""Prints the ninja targets that the named tests of a Meson build folder
need (their executables and what they depend on), so that a check builds
only the suites it runs: tools/suite-targets.py BUILD TEST..."""
import json
import os
import subprocess
import sys


def introspect(build, what):
    return json.loads(subprocess.check_output(["meson", "introspect", build, what]))


def main():
    build, names = sys.argv[1], set(sys.argv[2:])
    files = {t["id"]: t["filename"] for t in introspect(build, "--targets")}
    needed = set()
    found = set()
    for test in introspect(build, "--tests"):
        if test["name"] in names:
            found.add(test["name"])
            needed.add(test["cmd"][0])
            for target in test["depends"]:
                needed.update(files.get(target, []))
    if found != names:
        sys.exit(f"suite-targets: no such test: {' '.join(sorted(names - found))}")
    root = os.path.abspath(build)
    print(" ".join(sorted(os.path.relpath(path, root) for path in needed)))


main()
