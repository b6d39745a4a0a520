#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""symbolize_elf.py PETW: `petw symbolize` on an ELF file (petw itself) names
a function's address as addr2line does (function, file's name, line), in
text and JSON. Skips (77) without addr2line and nm or in a build without
libdw (the symbolizer then says so)."""
import json
import os
import shutil
import subprocess
import sys


def main():
    petw = sys.argv[1]
    if not shutil.which("addr2line") or not shutil.which("nm"):
        print("skipped: addr2line or nm not installed")
        return 77
    syms = subprocess.run(["nm", petw], capture_output=True, text=True, check=True).stdout
    base = [int(line.split()[0], 16) for line in syms.splitlines()
            if line.endswith(" cmd_guid") and len(line.split()) == 3]
    if not base:
        print("skipped: no symbol table")
        return 77
    addr = "0x%x" % (base[0] + 8)
    r = subprocess.run([petw, "symbolize", petw, addr, "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode != 0 and "reads no ELF symbols" in r.stderr:
        print("skipped: this build has no ELF symbolizer")
        return 77
    if r.returncode != 0:
        print("petw symbolize failed: %s" % r.stderr)
        return 1
    got = json.loads(r.stdout)
    want = subprocess.run(["addr2line", "-f", "-e", petw, addr], capture_output=True,
                          text=True, check=True).stdout.split("\n")
    fn, loc = want[0], want[1].rsplit(":", 1)
    frames = got[0]["frames"]
    if got[0]["address"] != addr or not frames:
        print("no frame for %s: %s" % (addr, r.stdout))
        return 1
    outer = frames[-1]
    if (outer["function"] != fn or os.path.basename(outer["file"] or "") !=
            os.path.basename(loc[0]) or str(outer["line"]) != loc[1].split()[0]):
        print("petw %s, addr2line %s %s" % (outer, fn, want[1]))
        return 1
    text = subprocess.run([petw, "symbolize", petw, addr], capture_output=True, text=True)
    if text.returncode != 0 or not text.stdout.startswith(addr + "\n  " + fn + " at "):
        print("text output: %r" % text.stdout)
        return 1
    print("%s: %s at %s:%s, as addr2line says" % (addr, fn, outer["file"], outer["line"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
