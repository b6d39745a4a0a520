#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""plain_build.py BUILD_ROOT: a plain `ninja` builds the product alone.

Reads BUILD_ROOT/build.ninja and checks that the default target `all`
names no program of the test suite or the benchmarks (nothing under test/
or bench/, and not Meson's meson-test-prereq or meson-benchmark-prereq,
which Meson before 1.7 puts there and scripts/meson_plain_build.py takes
out), and that the `test` and `benchmark` targets still build what they
run first. A test or benchmark program without build_by_default: false
fails it. Exit 77 without a build.ninja (another backend).
"""
import os
import sys

path = os.path.join(sys.argv[1], "build.ninja")
if not os.path.exists(path):
    print("plain_build: no build.ninja")
    sys.exit(77)
lines = open(path, encoding="utf-8").read().split("\n")
errors = []
alls = [line for line in lines if line.startswith("build all: phony")]
if len(alls) != 1:
    errors.append("no single 'build all' line")
else:
    for dep in alls[0].split()[3:]:
        if dep.startswith(("test/", "bench/")) or dep in ("meson-test-prereq",
                                                         "meson-benchmark-prereq"):
            errors.append("a plain ninja builds %s" % dep)
for target, prereq in (("meson-internal__test", "meson-test-prereq"),
                       ("meson-internal__benchmark", "meson-benchmark-prereq")):
    rule = [line for line in lines if line.startswith("build %s:" % target)]
    if rule and prereq not in rule[0].split() and any(
            line.startswith("build %s:" % prereq) for line in lines):
        errors.append("%s does not build %s first" % (target, prereq))
for e in errors:
    print("plain_build: " + e)
if not errors:
    print("plain_build: a plain ninja builds %d targets, no test or benchmark program"
          % (len(alls[0].split()) - 3))
sys.exit(1 if errors else 0)
