# SPDX-License-Identifier: MIT
"""perfetto_decode.py: what the Perfetto export's tests share: a trace
decoded by `protoc --decode` against test/common/perfetto_trace.proto (the
messages petw writes) and read into nested dicts of lists."""
import os
import re
import subprocess


def decode(path, proto, fail):
    """The trace's packets; fail(why) on a decoding error or a field the
    .proto does not declare (protoc prints its number)."""
    with open(path, "rb") as f:
        r = subprocess.run(["protoc", "--proto_path", os.path.dirname(os.path.abspath(proto)),
                            "--decode", "petw_check.Trace", os.path.basename(proto)],
                           stdin=f, capture_output=True)
    if r.returncode != 0:
        fail("protoc --decode failed: " + r.stderr.decode(errors="replace"))
    root, stack = {}, []
    cur = root
    for line in r.stdout.decode("utf-8", errors="replace").splitlines():
        line = line.strip()
        if line.endswith("{"):
            child = {}
            cur.setdefault(line[:-1].strip(), []).append(child)
            stack.append(cur)
            cur = child
        elif line == "}":
            cur = stack.pop()
        elif line:
            key, _, value = line.partition(": ")
            if re.fullmatch(r"\d+", key):
                fail("a field the .proto does not declare: " + line)
            if value.startswith('"'):
                value = value[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
            cur.setdefault(key, []).append(value)
    return root.get("packet", [])


def one(d, key, default=None):
    """The first value of `key` in a decoded message."""
    v = d.get(key)
    return v[0] if v else default


def convert(petw, etl, out, proto, fail, *extra):
    """`petw convert ETL --to perfetto`, decoded."""
    r = subprocess.run([petw, "convert", etl, "--to", "perfetto", "-o", out, "--force"] +
                       list(extra), capture_output=True, text=True)
    if r.returncode != 0:
        fail("petw convert failed: " + r.stderr)
    return decode(out, proto, fail)
