#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_pdb.py PETW GEN_PROFILE_TRACE GEN_PDB [PROTO]: Windows frames named from
PDBs found by the image's DbgID_RSDS identity (GUID, age, PDB name) under
--symbols DIR.

gen_profile_trace's app.exe carries DbgID_RSDS app.pdb, GUID
01020304-0506-0708-090a-0b0c0d0e0f10, age 3, and 40 samples at app+0x1010;
gen_pdb writes a PDB with "main" at RVA 0x1010 (a.c:10). `petw report cpu`
names that frame `main` at a.c:10, for 64- and 32-bit traces, with the PDB
as DIR/app.pdb and in a symbol store's layout
(DIR/app.pdb/0102030405060708090A0B0C0D0E0F103/app.pdb); a PDB of another
age is not used (said once, on stderr), nor is any without --symbols; the
local parts of _NT_SYMBOL_PATH (srv*CACHE*URL's cache, cache*DIR, plain
directories) are searched as well, and a server it names is not asked
when its cache holds the PDB (analysis_symsrv asks servers). The
Perfetto export (`petw convert --to perfetto --symbols DIR`, decoded by
protoc against PROTO) names the same 40 samples' leaf frame `main` with its
source file a.c and line 10 (that part skipped without protoc)."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import perfetto_decode  # noqa: E402
from perfetto_decode import one  # noqa: E402


def report(petw, trace, dirs, symbol_path=None):
    args = [petw, "report", "cpu", "--addresses", trace]
    for d in dirs:
        args += ["--symbols", d]
    env = dict(os.environ)
    env.pop("_NT_SYMBOL_PATH", None)
    if symbol_path is not None:
        env["_NT_SYMBOL_PATH"] = symbol_path
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit("petw report failed: %s" % r.stderr)
    return r.stdout, r.stderr


def named(out):
    return any(line.split()[4:5] == ["main"] and line.rstrip().endswith("a.c:10")
               for line in out.splitlines() if len(line.split()) > 4)


def perfetto_leaves(petw, trace, pdb_dir, proto, out):
    """Perfetto's samples counted by their leaf frame's (function, file,
    line) when the PDB is under --symbols."""
    def fail(why):
        raise SystemExit("perfetto: " + why)
    packets = perfetto_decode.convert(petw, trace, out, proto, fail, "--symbols", pdb_dir)
    frames, names, paths, stacks, leaves = {}, {}, {}, {}, {}
    for p in packets:
        for i in p.get("interned_data", []):
            frames.update({one(f, "iid"): f for f in i.get("frames", [])})
            names.update({one(n, "iid"): one(n, "str") for n in i.get("function_names", [])})
            paths.update({one(n, "iid"): one(n, "str") for n in i.get("source_paths", [])})
            stacks.update({one(c, "iid"): c.get("frame_ids", []) for c in i.get("callstacks", [])})
    for p in packets:
        for s in p.get("perf_sample", []):
            leaf = frames[stacks[one(s, "callstack_iid")][-1]]
            key = (names.get(one(leaf, "function_name_id")),
                   paths.get(one(leaf, "source_path_iid")), one(leaf, "line_number"))
            leaves[key] = leaves.get(key, 0) + 1
    return leaves


def main():
    petw, gen_trace, gen_pdb = sys.argv[1:4]
    proto = sys.argv[4] if len(sys.argv) > 4 else None
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain")
        store = os.path.join(tmp, "store", "app.pdb", "0102030405060708090A0B0C0D0E0F103")
        wrong = os.path.join(tmp, "wrong")
        for d in (plain, store, wrong):
            os.makedirs(d)
        subprocess.run([gen_pdb, os.path.join(plain, "app.pdb"), "3"], check=True)
        subprocess.run([gen_pdb, os.path.join(store, "app.pdb"), "3"], check=True)
        subprocess.run([gen_pdb, os.path.join(wrong, "app.pdb"), "4"], check=True)
        for bits in ("64", "32"):
            trace = os.path.join(tmp, "t%s.etl" % bits)
            subprocess.run([gen_trace, trace] + (["32"] if bits == "32" else []), check=True)
            cases = [("plain directory", [plain], True),
                     ("symbol store", [os.path.join(tmp, "store")], True),
                     ("other age", [wrong], False),
                     ("other age, then the right one", [wrong, plain], True),
                     ("no --symbols", [], False)]
            store_root = os.path.join(tmp, "store")
            cases += [("_NT_SYMBOL_PATH srv*CACHE*URL (found in the cache, the server not asked)", [], True,
                       "srv*%s*https://127.0.0.1:9/symbols" % store_root),
                      ("_NT_SYMBOL_PATH cache*DIR;DIR", [], True,
                       "cache*%s;%s" % (os.path.join(tmp, "none"), plain)),
                      ("_NT_SYMBOL_PATH of another age", [], False, wrong)]
            for case in cases:
                label, dirs, want = case[:3]
                out, err = report(petw, trace, dirs, case[3] if len(case) > 3 else None)
                if "srv*" in label and err:
                    print("%s-bit, %s: the server asked: %r" % (bits, label, err))
                    ok = False
                got = named(out)
                raw = "app.exe!+0x1010" in out
                if got != want or raw == want:
                    print("%s-bit, %s: expected %s\n%s%s" % (
                        bits, label, "main at a.c:10" if want else "app.exe!+0x1010", out, err))
                    ok = False
                if (dirs and dirs[0] == wrong or "another age" in label) and (
                        err.count("not used") != 1 or "age 4" not in err):
                    print("%s-bit, %s: the other age not said once: %r" % (bits, label, err))
                    ok = False
                print("%s-bit, %s: %s" % (bits, label, "main at a.c:10" if got else
                                          "app.exe!+0x1010"))
            if proto and shutil.which("protoc"):
                leaves = perfetto_leaves(petw, trace, plain, proto,
                                         os.path.join(tmp, "t%s.pftrace" % bits))
                if leaves.get(("main", "a.c", "10")) != 40 or any(
                        k[0] == "app.exe!+0x1010" for k in leaves):
                    print("%s-bit, perfetto: leaf frames %s" % (bits, leaves))
                    ok = False
                else:
                    print("%s-bit, perfetto: 40 samples' leaf frame main at a.c:10" % bits)
            else:
                print("%s-bit, perfetto: skipped (no protoc)" % bits)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
