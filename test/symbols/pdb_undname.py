#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pdb_undname.py UNDECORATE SOURCE_ROOT: petw's undecoration of the
publics' MSVC-decorated names (lib/read/pdb/undecorate.c, which the PDB
reader's publics fallback uses) agrees with llvm-undname's.

Two images are built with clang-cl-14 and lld-link-14 (/Z7): the fixture of
pdb_llvm_symbolizer.py (test/symbols/pdb/app.cpp, shapes.cpp, mathc.c) and
test/symbols/pdb/names.cpp (templates with class, pointer, reference and integer
arguments, nested templates, constructors, destructors, operators, a
conversion operator, virtual methods, a lambda and a local static of an
inline function). Every decorated public of their PDBs
(as llvm-pdbutil-14 lists them) is undecorated by UNDECORATE --stdin
(test_pdb_undecorate) and by llvm-undname-14, whose name part is taken
(the parameter list, return type, access and calling convention dropped).
Differences of presentation are normalized: llvm writes "class"/"struct"
before type names, spaces after commas and "ctor"/"dtor" in special names
where Windows tools write none and "constructor"/"destructor". The test
fails on any name that differs, and when petw leaves more than 5% of the
names decorated (those are listed). Exit 77 (skip) when a tool is absent.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pdb_llvm_symbolizer  # noqa: E402  (the fixture's build)

TOOLS = ["clang-cl-14", "lld-link-14", "llvm-pdbutil-14", "llvm-undname-14"]


def publics(pdb):
    out = subprocess.run(["llvm-pdbutil-14", "dump", "--publics", pdb], capture_output=True,
                         text=True, check=True).stdout
    return sorted(set(n for n in re.findall(r"S_PUB32 \[size = \d+\] `([^`]*)`", out)
                      if n.startswith("?")))


def llvm_undname(names):
    out = subprocess.run(["llvm-undname-14"], input="\n".join(names) + "\n",
                         capture_output=True, text=True, check=True).stdout
    blocks = [b.split("\n") for b in out.strip("\n").split("\n\n")]
    result = {}
    for b in blocks:
        if len(b) >= 2:
            result[b[0]] = b[1]
    return result


def split_top(text):
    """Space-separated tokens outside <>, () and `' nesting."""
    tokens, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<(`":
            depth += 1
        elif ch in ">)'" and depth:
            depth -= 1
        if ch == " " and depth == 0:
            if cur:
                tokens.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        tokens.append(cur)
    return tokens


def name_part(full):
    """llvm-undname's full declaration without parameters, return type,
    access, storage and calling convention."""
    text = pdb_llvm_symbolizer.plain_name(full)
    tokens = split_top(text)
    if not tokens:
        return text
    last = tokens[-1]
    if len(tokens) >= 2 and tokens[-2].endswith("operator"):
        # a conversion operator: "operator" and its type ("operator bool")
        i = len(tokens) - 2
        return " ".join(tokens[i:])
    if last.startswith("`RTTI Type Descriptor'") and len(tokens) >= 2:
        return tokens[-2] + " " + last
    return last


def normalize(name):
    name = re.sub(r"(?<![A-Za-z0-9_])(class|struct|union|enum) ", "", name)
    name = re.sub(r"\bdtor\b", "destructor", name)
    name = re.sub(r"\bctor\b", "constructor", name)
    return name.replace(" ", "")


def main():
    undecorate, src = sys.argv[1], os.path.join(sys.argv[2], "test", "symbols", "pdb")
    missing = [t for t in TOOLS if not shutil.which(t)]
    if missing:
        print("skipped: %s not installed" % ", ".join(missing))
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        fixture = os.path.join(tmp, "fixture")
        os.mkdir(fixture)
        _, pdb = pdb_llvm_symbolizer.build(src, fixture, "/Z7")
        names = publics(pdb)
        obj, exe = os.path.join(tmp, "names.obj"), os.path.join(tmp, "names.exe")
        subprocess.run(["clang-cl-14", "--target=x86_64-pc-windows-msvc", "/c", "/Z7", "/O2",
                        "/GS-", "/GR-", "/Fo" + obj, "--", os.path.join(src, "names.cpp")],
                       check=True)
        subprocess.run(["lld-link-14", "/DEBUG", "/NODEFAULTLIB", "/ENTRY:names_entry",
                        "/SUBSYSTEM:CONSOLE", "/OUT:" + exe, "/PDB:" + exe[:-4] + ".pdb", obj],
                       check=True)
        names = sorted(set(names) | set(publics(exe[:-4] + ".pdb")))
    out = subprocess.run([undecorate, "--stdin"], input="\n".join(names) + "\n",
                         capture_output=True, text=True, check=True).stdout
    petw = dict(line.split("\t", 1) for line in out.splitlines())
    llvm = llvm_undname(names)
    same, differ, unread = 0, [], []
    for n in names:
        want = llvm.get(n)
        got = petw.get(n, "")
        if not got:
            unread.append((n, want))
        elif want is not None and normalize(got) == normalize(name_part(want)):
            same += 1
        else:
            differ.append((n, got, want))
    print("%d decorated publics: %d undecorated as llvm-undname-14 does, %d differ, "
          "%d left decorated" % (len(names), same, len(differ), len(unread)))
    for n, got, want in differ:
        print("  differs: %s\n    petw %s\n    llvm %s" % (n, got, want))
    for n, want in unread:
        print("  left decorated: %s (llvm: %s)" % (n, want))
    if len(names) < 30 or differ or len(unread) > 0.05 * len(names):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
