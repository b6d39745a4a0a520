#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""meson_plain_build.py: a plain `ninja` builds the product on Meson before 1.7.

Meson before 1.7 makes its default target `all` build every program a
test() or benchmark() runs (through its meson-test-prereq and
meson-benchmark-prereq targets), whatever their build_by_default
(mesonbuild/meson#2518); 1.7 stopped it. Registered by meson.build with
meson.add_postconf_script on those versions, this runs each time Meson has
written build.ninja (setup and every regeneration) and does what 1.7 does:
`all` builds the targets built by default (the library, the tools, the
examples), the `test` and `benchmark` targets build what they run first,
and `meson test` builds what the tests it runs name, as it always did.
A build.ninja that does not read as expected is left as it is, with a note.
"""
import os
import sys

ALL = "build all: phony meson-test-prereq meson-benchmark-prereq"
RUNS = {
    "build meson-internal__test: CUSTOM_COMMAND all PHONY":
        "build meson-internal__test: CUSTOM_COMMAND all meson-test-prereq PHONY",
    "build meson-internal__benchmark: CUSTOM_COMMAND all PHONY":
        "build meson-internal__benchmark: CUSTOM_COMMAND all meson-benchmark-prereq PHONY",
}


def main():
    path = os.path.join(os.environ["MESON_BUILD_ROOT"], "build.ninja")
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    alls = [k for k, line in enumerate(lines) if line == ALL or line.startswith(ALL + " ")]
    runs = {k: RUNS[line] for k, line in enumerate(lines) if line in RUNS}
    if len(alls) != 1 or len(runs) != len(RUNS):
        print("meson_plain_build.py: build.ninja not as expected; a plain ninja "
              "builds the test programs too")
        return 0
    k = alls[0]
    lines[k] = "build all: phony" + lines[k][len(ALL):]
    for at, line in runs.items():
        lines[at] = line
    tmp = path + ".plain"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
