#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_symbolize.py PETW PEAK_RSS OUT_DIR [FUNCTIONS] [ADDRESSES]: what
symbolizing costs from a large PDB, petw beside llvm-symbolizer.

Generates C files of FUNCTIONS functions (default 6000, in 12 object
files), each a loop and a switch over two forced-inline helpers so that
every function has inline sites and line tables; builds them with
clang-cl-14 /Z7 /O2 and lld-link-14 /DEBUG into bench.exe and bench.pdb;
draws ADDRESSES distinct RVAs of .text (default 100,000, in random order,
seed 41); then, in one run, alternating, symbolizes them all (addresses on
stdin, inlined frames included) with `petw symbolize bench.pdb` and
`llvm-symbolizer-N --obj=bench.exe --relative-address --inlines` for each
N of 14 and 16 installed, each ROUNDS times (default 3, $ROUNDS), and
prints each tool's median wall time and peak RSS (peak_rss) as a table,
and at how many addresses petw's frames equal each llvm-symbolizer's."""
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys


def source(path, first, count):
    lines = ["extern volatile int sink;"]
    for i in range(first, first + count):
        lines += ["static __forceinline int leaf%d(int v) { return (v ^ %d) * %d; }"
                  % (i, i * 7 + 1, i % 5 + 3),
                  "static __forceinline int mid%d(int v)" % i, "{",
                  "    int r = leaf%d(v + 1);" % i, "    if (r & %d)" % (1 << (i % 4)),
                  "        r += leaf%d(r);" % i, "    return r;", "}",
                  "int fn%d(int v)" % i, "{", "    int acc = 0;",
                  "    for (int k = 0; k < (v & %d); k++) {" % (i % 7 + 3),
                  "        switch ((k + v) %% %d) {" % (i % 4 + 2),
                  "        case 0:", "            acc += mid%d(k);" % i, "            break;",
                  "        case 1:", "            acc ^= leaf%d(acc);" % i, "            break;",
                  "        default:", "            acc -= k;", "        }", "    }",
                  "    sink = acc;", "    return acc;", "}"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def build(out, functions):
    files = 12
    per = (functions + files - 1) // files
    objs = []
    for k in range(files):
        c = os.path.join(out, "part%d.c" % k)
        source(c, k * per, min(per, functions - k * per))
        obj = c[:-2] + ".obj"
        subprocess.run(["clang-cl-14", "--target=x86_64-pc-windows-msvc", "/c", "/Z7", "/O2",
                        "/GS-", "/Fo" + obj, "--", c], check=True)
        objs.append(obj)
    main = os.path.join(out, "main.c")
    with open(main, "w") as f:
        f.write("volatile int sink;\nint fn0(int v);\nint bench_entry(void) { return fn0(3); }\n")
    subprocess.run(["clang-cl-14", "--target=x86_64-pc-windows-msvc", "/c", "/Z7", "/O2",
                    "/GS-", "/Fo" + main[:-2] + ".obj", "--", main], check=True)
    exe = os.path.join(out, "bench.exe")
    subprocess.run(["lld-link-14", "/DEBUG", "/NODEFAULTLIB", "/ENTRY:bench_entry",
                    "/SUBSYSTEM:CONSOLE", "/OPT:NOREF", "/OUT:" + exe,
                    "/PDB:" + exe[:-4] + ".pdb", main[:-2] + ".obj"] + objs, check=True)
    return exe, exe[:-4] + ".pdb"


def text_section(exe):
    data = open(exe, "rb").read()
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    sections, opt_size = struct.unpack_from("<H", data, pe + 6)[0], \
        struct.unpack_from("<H", data, pe + 20)[0]
    at = pe + 24 + opt_size
    for _ in range(sections):
        if data[at:at + 8].rstrip(b"\0") == b".text":
            vsize, rva = struct.unpack_from("<II", data, at + 8)
            return rva, vsize
        at += 40
    raise SystemExit("no .text section")


def llvm_frames(path):
    out = []
    for block in open(path).read().strip("\n").split("\n\n"):
        lines = block.split("\n")
        out.append(tuple((lines[i], lines[i + 1].rsplit(":", 2)[1])
                         for i in range(0, len(lines) - 1, 2)))
    return out


def petw_frames(path):
    out, cur = [], None
    for line in open(path):
        if line.startswith("0x"):
            if cur is not None:
                out.append(tuple(cur))
            cur = []
        else:
            m = re.match(r"\s+(\S+) at (.*):(\d+)", line)
            cur.append((m.group(1), m.group(3)) if m else (line.strip(), "0"))
    out.append(tuple(cur or ()))
    return out


def measure(peak_rss, cmd, stdin_path, out_path):
    with open(stdin_path) as i, open(out_path, "w") as o:
        r = subprocess.run([peak_rss] + cmd, stdin=i, stdout=o, stderr=subprocess.PIPE,
                           text=True)
    seconds, kb, code = r.stderr.strip().splitlines()[-1].split()
    if code != "0":
        raise SystemExit("%s failed: %s" % (cmd[0], r.stderr))
    return float(seconds), int(kb)


def main():
    petw, peak_rss, out = sys.argv[1:4]
    functions = int(sys.argv[4]) if len(sys.argv) > 4 else 6000
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 100000
    rounds = int(os.environ.get("ROUNDS", "3"))
    os.makedirs(out, exist_ok=True)
    exe, pdb = build(out, functions)
    rva, size = text_section(exe)
    if size < count:
        raise SystemExit(".text has %d bytes, fewer than %d addresses" % (size, count))
    rng = random.Random(41)
    addrs = rng.sample(range(rva, rva + size), count)
    stdin_path = os.path.join(out, "addresses.txt")
    with open(stdin_path, "w") as f:
        f.write("\n".join("0x%x" % a for a in addrs) + "\n")
    tools = [("petw", [petw, "symbolize", pdb])]
    for v in ("14", "16"):
        t = shutil.which("llvm-symbolizer-" + v)
        if t:
            tools.append(("llvm-symbolizer-" + v, [t, "--obj=" + exe, "--relative-address",
                                                   "--inlines"]))
    results = {name: [] for name, _ in tools}
    for _ in range(rounds):
        for name, cmd in tools:
            results[name].append(measure(peak_rss, cmd, stdin_path,
                                         os.path.join(out, name + ".out")))
    print("PDB: %d functions, %d bytes; .text %d bytes; %d distinct addresses; "
          "median of %d rounds" % (functions, os.path.getsize(pdb), size, count, rounds))
    print("%-20s %10s %14s" % ("tool", "seconds", "peak RSS (MB)"))
    for name, _ in tools:
        secs = statistics.median(s for s, _ in results[name])
        kb = statistics.median(k for _, k in results[name])
        print("%-20s %10.2f %14.1f" % (name, secs, kb / 1024.0))
    mine = petw_frames(os.path.join(out, "petw.out"))
    for name, _ in tools[1:]:
        theirs = llvm_frames(os.path.join(out, name + ".out"))
        same = sum(a == b for a, b in zip(mine, theirs))
        print("petw and %s agree in every frame (function, line) at %d of %d addresses"
              % (name, same, count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
