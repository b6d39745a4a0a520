#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_pe_exports.py PETW GEN_PROFILE_TRACE: the frames of a Windows
image without a PDB named from the image's own export table, as WPA names
them without symbols.

Builds ntdll.dll with clang-cl-14 and lld-link-14 (64- and 32-bit): exports
LdrInitializeThunk at RVA 0x1000, RtlUserThreadStart at 0x4fe0,
NtWaitForSingleObject at 0x8fec and a forwarder RtlAllocateHeap (not code:
never a frame's name), PE time stamp 0x5f001234. gen_profile_trace's
traces (`ntdll STAMP SIZE`: the DLL's time stamp and SizeOfImage in the
Image event and KernelTraceControl's ImageID) sample ntdll+0x5000 and
ntdll+0x9000: `petw report cpu` and `petw convert --to folded` read
ntdll.dll!RtlUserThreadStart+0x20 and ntdll.dll!NtWaitForSingleObject+0x14
with the DLL under --symbols DIR, in a symbol store's layout named by
_NT_SYMBOL_PATH (DIR/ntdll.dll/STAMPSIZE/ntdll.dll), and stay
ntdll.dll!+0x5000 without it or when the trace's time stamp differs (said
once on stderr). Exit 77 (skip) without clang-cl-14 or lld-link-14."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SOURCE = """__asm__(".text\\n"
        ".globl {p}LdrInitializeThunk\\n{p}LdrInitializeThunk:\\n ret\\n .fill 0x3fdf, 1, 0xcc\\n"
        ".globl {p}RtlUserThreadStart\\n{p}RtlUserThreadStart:\\n ret\\n .fill 0x400b, 1, 0xcc\\n"
        ".globl {p}NtWaitForSingleObject\\n{p}NtWaitForSingleObject:\\n ret\\n"
        " .fill 0x40, 1, 0xcc\\n");
"""
STAMP = 0x5F001234
WANT = ["ntdll.dll!RtlUserThreadStart+0x20", "ntdll.dll!NtWaitForSingleObject+0x14"]
RAW = ["ntdll.dll!+0x5000", "ntdll.dll!+0x9000"]


def build(tmp, bits):
    d = os.path.join(tmp, "build%s" % bits)
    os.makedirs(d)
    src = os.path.join(d, "ntdll.c")
    with open(src, "w") as f:
        f.write(SOURCE.replace("{p}", "_" if bits == "32" else ""))
    target = "x86_64-pc-windows-msvc" if bits == "64" else "i686-pc-windows-msvc"
    obj = os.path.join(d, "ntdll.obj")
    dll = os.path.join(d, "ntdll.dll")
    subprocess.run(["clang-cl-14", "--target=" + target, "/c", "/O2", src, "/Fo" + obj],
                   check=True)
    subprocess.run(["lld-link-14", "/dll", "/noentry", "/nodefaultlib", "/out:" + dll, obj,
                    "/export:LdrInitializeThunk", "/export:RtlUserThreadStart",
                    "/export:NtWaitForSingleObject", "/export:RtlAllocateHeap=NTDLL.RtlAllocateHeap",
                    "/timestamp:%d" % STAMP, "/machine:" + ("x64" if bits == "64" else "x86")],
                   check=True)
    data = open(dll, "rb").read()
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    stamp = struct.unpack_from("<I", data, pe + 8)[0]
    size = struct.unpack_from("<I", data, pe + 24 + 56)[0]
    return dll, stamp, size


def run(args, symbol_path=None):
    env = dict(os.environ)
    env.pop("_NT_SYMBOL_PATH", None)
    if symbol_path:
        env["_NT_SYMBOL_PATH"] = symbol_path
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit("%s failed: %s" % (args, r.stderr))
    return r.stdout, r.stderr


def main():
    petw, gen_trace = sys.argv[1:3]
    if not shutil.which("clang-cl-14") or not shutil.which("lld-link-14"):
        print("clang-cl-14 or lld-link-14 not installed")
        return 77
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for bits in ("64", "32"):
            dll, stamp, size = build(tmp, bits)
            if stamp != STAMP:
                print("%s-bit: lld-link wrote time stamp 0x%x" % (bits, stamp))
                return 1
            plain = os.path.join(tmp, "plain%s" % bits)
            store = os.path.join(tmp, "store%s" % bits)
            key = "%08X%x" % (stamp, size)
            os.makedirs(plain)
            os.makedirs(os.path.join(store, "ntdll.dll", key))
            shutil.copy(dll, plain)
            shutil.copy(dll, os.path.join(store, "ntdll.dll", key))
            extra = ["32"] if bits == "32" else []
            trace = os.path.join(tmp, "t%s.etl" % bits)
            other = os.path.join(tmp, "o%s.etl" % bits)
            subprocess.run([gen_trace, trace] + extra + ["ntdll", str(stamp), str(size)],
                           check=True)
            subprocess.run([gen_trace, other] + extra + ["ntdll", str(stamp + 1), str(size)],
                           check=True)
            folded = os.path.join(tmp, "f%s.folded" % bits)
            cases = [("--symbols DIR", trace, ["--symbols", plain], None, WANT, 0),
                     ("_NT_SYMBOL_PATH store", trace, [], store, WANT, 0),
                     ("no symbol path", trace, [], None, RAW, 0),
                     ("another time stamp", other, ["--symbols", plain], None, RAW, 1)]
            for label, etl, args, path, want, said in cases:
                out, err = run([petw, "report", "cpu", "--addresses", etl] + args, path)
                run([petw, "convert", etl, "--to", "folded", "--force", "-o", folded] + args,
                    path)
                text = open(folded).read()
                good = all(w in out and w in text for w in want) and \
                    "RtlAllocateHeap" not in out and err.count("not used") == said
                print("%s-bit, %s: %s" % (bits, label, "ok" if good else "FAILED"))
                if not good:
                    print(out + text + err)
                    ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
