# SPDX-License-Identifier: MIT
"""analysis_net.py PETW GEN_PROFILE_TRACE PROTO: `petw report net` and the
Perfetto export's network events on a trace of TcpIp and UdpIp records in
Windows' layouts (gen_profile_trace's `net`, 64-bit and 32-bit pointers):
each connection's sends, receives, bytes, retransmits and open time exactly
as written, IPv6 endpoints in RFC 5952 form ([2001:db8::1:0:0:2], the
first of two tied zero runs shortened), receives whose header names no
process (a DPC's) counted for the payload's PID, the per-process totals,
the two hostile records (cut short, unknown version) skipped and counted
in one line, and each kept record an instant on thread 77's track with
its endpoints and bytes."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import perfetto_decode  # noqa: E402
from perfetto_decode import one  # noqa: E402

petw, gen, proto = sys.argv[1:4]

EXPECTED = [
    # Proto, Local, Remote, Sends, Sent bytes, Receives, Received bytes, Retransmits, Open ms
    ("TCP", "10.0.0.5:50000", "93.184.216.34:443", 3, 3000, 2, 3000, 1, 0.010),
    ("TCP", "[2001:db8::1]:50001", "[2001:db8::1:0:0:2]:8080", 2, 800, 1, 700, 0, None),
    ("UDP", "10.0.0.5:5353", "224.0.0.251:5353", 2, 200, 1, 50, 0, None),
]


def fail(why):
    print("analysis_net: FAIL: " + why)
    sys.exit(1)


with tempfile.TemporaryDirectory() as d:
    for bits in ("64", "32"):
        etl = os.path.join(d, "net%s.etl" % bits)
        subprocess.run([gen, etl, "net"] + (["32"] if bits == "32" else []), check=True)
        r = subprocess.run([petw, "report", "net", etl, "--format", "json"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail("report net: " + r.stderr)
        text = r.stdout
        # The JSON output is one document per table, one after the other.
        dec = json.JSONDecoder()
        docs, at = [], 0
        while at < len(text):
            while at < len(text) and text[at].isspace():
                at += 1
            if at >= len(text):
                break
            doc, at = dec.raw_decode(text, at)
            docs.append(doc)
        if len(docs) != 2:
            fail("%s-bit: expected two tables, got %d" % (bits, len(docs)))
        rows = docs[0]["rows"]
        got = [(x["Proto"], x["Local"], x["Remote"], x["Sends"], x["Sent bytes"], x["Receives"],
                x["Received bytes"], x["Retransmits"],
                x["Open ms"] if x["Open ms"] != "" else None) for x in rows]
        if sorted(got, key=str) != sorted(EXPECTED, key=str):
            fail("%s-bit: connections %s, expected %s" % (bits, got, EXPECTED))
        if any(x["PID"] != 1234 or x["Process"] != "app.exe" for x in rows):
            fail("%s-bit: a row not of app.exe (1234): %s" % (bits, rows))
        procs = docs[1]["rows"]
        want = {"PID": 1234, "Connections": 3, "Sends": 7, "Sent bytes": 4000, "Receives": 4,
                "Received bytes": 3750, "Retransmits": 1}
        if len(procs) != 1 or any(procs[0][k] != v for k, v in want.items()):
            fail("%s-bit: per process %s, expected %s" % (bits, procs, want))
        lines = [x for x in r.stderr.splitlines() if "skipped" in x]
        if len(lines) != 1 or " 2 TcpIp/UdpIp records skipped" not in lines[0]:
            fail("%s-bit: the hostile records' count: %r" % (bits, r.stderr))

        if not shutil.which("protoc"):
            continue
        packets = perfetto_decode.convert(petw, etl, os.path.join(d, "net.pftrace"), proto, fail)
        tracks = {}
        for p in packets:
            for td in p.get("track_descriptor", []):
                tracks[int(one(td, "uuid"))] = td
        ops = []
        for p in packets:
            for te in p.get("track_event", []):
                if one(te, "categories") in ("TcpIp", "UdpIp"):
                    ann = {one(a, "name"): one(a, "string_value", one(a, "uint_value"))
                           for a in te.get("debug_annotations", [])}
                    ops.append((one(te, "name"), one(te, "type"), int(one(te,
                                "track_uuid")), ann))
        if len(ops) != 14:
            fail("%s-bit: %d network events in the Perfetto trace, expected 14" %
                 (bits, len(ops)))
        names = sorted(o[0] for o in ops)
        want_names = sorted(["TCP Connect", "TCP Send", "TCP Send", "TCP Send", "TCP Recv",
                             "TCP Recv", "TCP Retransmit", "TCP Disconnect", "TCP Send",
                             "TCP Send", "TCP Recv", "UDP Send", "UDP Send", "UDP Recv"])
        if names != want_names:
            fail("%s-bit: Perfetto network events %s" % (bits, names))
        thread77 = 2 << 56 | 77
        on_thread = [o for o in ops if o[2] == thread77]
        if len(on_thread) != 12 or any(o[1] != "TYPE_INSTANT" for o in ops):
            fail("%s-bit: %d of 14 instants on thread 77's track (the 2 DPC receives have "
                 "none)" % (bits, len(on_thread)))
        v6 = [o for o in ops if o[3].get("remote") == "[2001:db8::1:0:0:2]:8080"]
        if len(v6) != 3 or sorted(int(o[3]["bytes"]) for o in v6) != [400, 400, 700]:
            fail("%s-bit: the IPv6 connection's instants %s" % (bits, v6))
print("analysis_net: 3 connections exact in 64- and 32-bit layouts, 2 hostile records "
      "skipped and counted, 14 Perfetto instants")
