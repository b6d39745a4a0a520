#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""module_rules.py SOURCE_ROOT: the module rules of docs/design.md hold.

Reads the dependency table of docs/design.md (rows "| `lib/GROUP/X/` | ... | A, B |":
module X, in the group of modules GROUP) and checks that lib/ holds exactly
the table's modules, and, for every file under lib/:
  - each #include names a module the table allows for the file's module
    (its own, or one listed; public headers belong to the module that
    implements them; petw/types.h and petw/error.h, the shared vocabulary,
    are everyone's);
  - third-party headers (uv.h, zstd.h, xxhash.h, expat.h, elfutils' libdw headers) only where the table lists
    libuv, zstd or xxHash; OS headers (anything not the C standard library)
    only in platform/;
  - <...> includes of the surfaces' headers (<windows.h>, <evntprov.h>, ...) are
    dependencies on win32/ or etw/ like any other; platform/ never includes
    them, except in its files built for Windows only (*_win*), where
    <windows.h> and <sddl.h> are the OS's own;
  - every "Allowed dependencies:" line in a file lists exactly its module's row;
  - tools/ includes no internal header of lib/.
Exits 1 with one line per violation.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
LIBS = {"libuv": "uv.h", "zstd": "zstd.h", "xxHash": "xxhash.h", "expat": "expat.h"}
# Libraries with several headers (elfutils: libdwfl, libdw's DWARF constants, libelf's gelf).
LIB_HEADERS = {"elfutils/libdwfl.h": "libdw", "elfutils/libdw.h": "libdw", "dwarf.h": "libdw",
               "gelf.h": "libdw", "curl/curl.h": "libcurl", "mspack.h": "libmspack",
               "bpf/libbpf.h": "libbpf", "bpf/bpf.h": "libbpf"}
for _h, _lib in LIB_HEADERS.items():
    LIBS.setdefault(_lib, _h)
STD = {"assert.h", "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "math.h",
       "stdarg.h", "stdatomic.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
       "string.h", "time.h", "wchar.h", "wctype.h", "uchar.h"}
# Public headers and the module that implements them. The ETW-compatible
# headers (<evntprov.h>, ...) and the umbrella belong to etw/, the Win32
# layer's (<windows.h> and its API sets, <sddl.h>, <tchar.h>, ...) to win32/.
PUBLIC = {"petw/analysis.h": "analysis", "petw/pdb.h": "pdb", "petw/provider.h": "provider",
          "petw/session.h": "controller", "petw/session_types.h": "session",
          "petw/consume.h": "consume", "petw/shared.h": "host", "petw/decode.h": "decode", "petw/manifest.h": "decode", "petw/petw.h": "etw"}
VOCABULARY = {"petw/types.h", "petw/error.h"}
ETW_HEADERS = set(os.listdir(os.path.join(root, "include", "petw", "etw")))
WIN32_HEADERS = set(os.listdir(os.path.join(root, "include", "petw", "win32")))
# platform/'s files built for Windows only: there <windows.h> is the OS's.
WINDOWS_ONLY = re.compile(r"_win(_\w+)?\.[ch]$")


def read_table():
    text = open(os.path.join(root, "docs", "design.md"), encoding="utf-8").read()
    table = {}
    groups = {}
    for m in re.finditer(r"^\| `lib/(\w+)/(\w+)/` \|[^|]*\| ([^|]*) \|$", text, re.M):
        allowed = set()
        for tok in m.group(3).split(","):
            tok = tok.strip().strip("`").rstrip("/")
            if tok and tok != "none":
                allowed.add(tok)
        table[m.group(2)] = allowed
        groups[m.group(2)] = m.group(1)
    return table, groups


def main():
    table, groups = read_table()
    errors = []
    if not table:
        errors.append("docs/design.md: no dependency table found")
    modules = set(table)
    for mod, allowed in table.items():
        for a in allowed - modules - set(LIBS):
            errors.append("docs/design.md: %s may use unknown module or library %r" % (mod, a))
    lib = os.path.join(root, "lib")
    found = []
    for group in sorted(os.listdir(lib)):
        if not os.path.isdir(os.path.join(lib, group)):
            continue
        for mod in sorted(os.listdir(os.path.join(lib, group))):
            if os.path.isdir(os.path.join(lib, group, mod)):
                found.append((group, mod))
            else:
                errors.append("lib/%s/%s: a file outside any module" % (group, mod))
    for mod in sorted(set(table) - {m for _, m in found}):
        errors.append("docs/design.md: lib/%s/%s/ has a row but no folder" % (groups[mod], mod))
    for group, mod in found:
        path = os.path.join(lib, group, mod)
        if mod not in table or groups[mod] != group:
            errors.append("lib/%s/%s/: no row in docs/design.md's table" % (group, mod))
            continue
        allowed = table[mod]
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            rel = "lib/%s/%s/%s" % (group, mod, name)
            text = open(os.path.join(path, name), encoding="utf-8").read()
            line = re.search(r"Allowed dependencies: ([^.]*)\.", text)
            if line:
                said = {t.strip().rstrip("/") for t in line.group(1).replace("\n *", " ").split(",")}
                said.discard("none")
                if said != allowed:
                    errors.append("%s: 'Allowed dependencies' says %s, the table %s"
                                  % (rel, sorted(said), sorted(allowed)))
            for m in re.finditer(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', text, re.M):
                inc = m.group(2)
                owner = None
                if inc in LIB_HEADERS:
                    if LIB_HEADERS[inc] not in allowed:
                        errors.append("%s: includes <%s>, but %s may not use %s"
                                      % (rel, inc, mod, LIB_HEADERS[inc]))
                    continue
                surface = inc in ETW_HEADERS or inc in WIN32_HEADERS
                if m.group(1) == "<" and mod == "platform" and surface:
                    if not WINDOWS_ONLY.search(name):
                        errors.append("%s: includes the surface header <%s> (platform/ may "
                                      "only in its Windows-only files, where it is the OS's)"
                                      % (rel, inc))
                    continue
                if m.group(1) == "<" and mod == "platform" and inc not in LIBS.values():
                    continue  # the OS's own headers
                if m.group(1) == '"' and inc.startswith("../"):
                    # lib/GROUP/MODULE/FILE: the module is the folder it resolves to.
                    target = os.path.relpath(os.path.normpath(os.path.join(path, inc)), lib)
                    parts = target.split(os.sep)
                    owner = parts[1] if len(parts) == 3 and parts[0] == groups.get(parts[1]) \
                        else "lib/" + target
                elif inc in VOCABULARY:
                    continue
                elif inc in PUBLIC:
                    owner = PUBLIC[inc]
                elif m.group(1) == '"' and "/" not in inc:
                    continue  # a header of the same module
                elif inc in ETW_HEADERS:
                    owner = "etw"
                elif inc in WIN32_HEADERS:
                    owner = "win32"
                elif inc in STD:
                    continue
                elif inc in LIBS.values():
                    lib_name = [k for k, v in LIBS.items() if v == inc][0]
                    if lib_name not in allowed:
                        errors.append("%s: includes <%s>, but %s may not use %s"
                                      % (rel, inc, mod, lib_name))
                    continue
                else:
                    if mod != "platform":
                        errors.append("%s: includes the OS header <%s> (only platform/ may)"
                                      % (rel, inc))
                    continue
                if owner != mod and owner not in allowed:
                    errors.append("%s: includes %s (module %s), which %s may not use"
                                  % (rel, inc, owner, mod))
    # The tools are users of the installed API: public headers only.
    for dirpath, _, files in os.walk(os.path.join(root, "tools")):
        for name in files:
            if name.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                text = open(os.path.join(dirpath, name), encoding="utf-8").read()
                for m in re.finditer(r'^\s*#\s*include\s*"([^"]*lib/[^"]*)"', text, re.M):
                    errors.append("%s: includes the library's internal %s" % (rel, m.group(1)))
    for e in errors:
        print(e)
    print("module rules: %d modules, %d violations" % (len(table), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
