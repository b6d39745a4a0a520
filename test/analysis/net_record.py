# SPDX-License-Identifier: MIT
"""net_record.py PETW WORKLOAD: `petw record --kernel net --kernel-scope
process` of net_workload (known bytes each way over loopback: TCP on IPv4
and IPv6, UDP on both, between a server and its forked client; IPv4 alone
on a machine without an IPv6 loopback, which it says), run under
`strace -f` in the same recording when strace is there:
- `petw report net`: each TCP connection endpoint (process, local and
  remote port, 127.0.0.1 or [::1]) has exactly the sends, receives and
  bytes each way the workload counted, and an open time; each UDP socket
  (by process, its port and its peer's, from the BPF program on the
  syscall tracepoints) the workload's counts;
- per process, the calls and bytes strace saw (sendto, recvfrom) are the
  view's;
- the dump has a Connect and an Accept per connection (IPv4 and IPV6
  opcodes) and a Disconnect per endpoint;
- the Linux 6.1 path (PETW_NO_TRACEPOINTS makes sock_send_length and
  sock_recv_length absent): one line says the bytes are not recorded; the
  connections are still there with their addresses, with no bytes;
- without BPF (PETW_NO_BPF=1): one line says UDP's addresses are not
  recorded, and each UDP socket still has its calls and bytes exactly.
Skips (77) without the right to record kernel events or without the
tracepoints (an older kernel, no tracefs)."""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import need_kernel_groups  # noqa: E402

petw, workload = sys.argv[1:3]


def fail(why):
    print("net_record: FAIL: " + why)
    sys.exit(1)





def skip(why):
    print("net_record: skipped: " + why)
    sys.exit(77)


def tables(etl):
    r = subprocess.run([petw, "report", "net", etl, "--format", "json"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail("report net: " + r.stderr)
    dec, docs, at, text = json.JSONDecoder(), [], 0, r.stdout
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return docs[0]["rows"], docs[1]["rows"]
        doc, at = dec.raw_decode(text, at)
        docs.append(doc)


def record(tmp, name, env_extra, strace_log=None):
    etl = os.path.join(tmp, name + ".etl")
    env = dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt"), **env_extra)
    cmd = [workload]
    if strace_log:
        cmd = ["strace", "-f", "-qq", "-o", strace_log, "-e", "trace=sendto,recvfrom"] + cmd
    r = subprocess.run([petw, "record", "--kernel", "net,process", "--kernel-scope", "process",
                        "-o", etl, "--"] + cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        if re.search(r"not supported|permission denied|not allowed|no kernel events", r.stderr,
                     re.I):
            skip(r.stderr.strip())
        fail("petw record failed: " + r.stderr + r.stdout)
    need_kernel_groups(r.stdout, ["net"], skip=skip)
    lines = [line.split() for line in r.stdout.splitlines() if line.startswith("net ")]
    # 4 sockets a protocol, IPv4 and IPv6; IPv4 alone without an IPv6 loopback.
    if "no ipv6: " in r.stdout and name == "full":
        print("net_record: note: " + r.stdout.splitlines()[0] + " (IPv4 alone)")
    if len(lines) != (4 if "no ipv6: " in r.stdout else 8):
        fail("the workload said: " + r.stdout)
    return etl, r.stderr, [(int(x[1]), x[2], int(x[3]), int(x[4])) + tuple(map(int, x[5:9]))
                           for x in lines]


def strace_counts(path):
    """Per process: sendto calls and bytes, recvfrom calls that got bytes
    and the bytes."""
    out = collections.defaultdict(lambda: [0, 0, 0, 0])
    for line in open(path):
        m = re.match(r"(\d+)\s+(?:<\.\.\. )?(sendto|recvfrom)\b.*=\s+(-?\d+)", line)
        if not m or "unfinished" in line:
            continue
        pid, call, ret = int(m.group(1)), m.group(2), int(m.group(3))
        if ret <= 0:
            continue
        k = 0 if call == "sendto" else 2
        out[pid][k] += 1
        out[pid][k + 1] += ret
    return out


with tempfile.TemporaryDirectory() as tmp:
    strace = shutil.which("strace")
    log = os.path.join(tmp, "strace.log") if strace else None
    etl, err, counts = record(tmp, "full", {}, log)
    if "bytes sent and received not recorded" in err:
        skip("this kernel has no sock_send_length/sock_recv_length tracepoints (Linux 6.3+)")
    if "connects, accepts, disconnects" in err:
        skip("this kernel has no inet_sock_set_state tracepoint")
    bpf = "UDP datagrams recorded without" not in err
    if not bpf:
        print("net_record: no BPF here (%s): UDP sockets matched by their counts" %
              err.strip().splitlines()[0])
    conns, procs = tables(etl)
    udp_peer = {}  # (pid, proto) -> the other process's port for that protocol
    for pid, proto, lport, *_ in counts:
        for other, oproto, oport, *_ in counts:
            if oproto == proto and other != pid and proto.startswith("udp"):
                udp_peer[(pid, proto)] = oport
    for pid, proto, lport, rport, sent, sends, received, receives in counts:
        if proto.startswith("udp") and bpf:
            rport = udp_peer[(pid, proto)]
        if proto.startswith("tcp") or bpf:
            addr = "127.0.0.1" if proto.endswith("4") else "[::1]"
            rows = [c for c in conns if c["PID"] == pid and c["Local"] == "%s:%d" % (addr, lport)
                    and c["Remote"] == "%s:%d" % (addr, rport) and
                    c["Proto"] == proto[:3].upper()]
            if len(rows) != 1:
                fail("%s %d -> %d of %d: %d rows in\n%s" % (proto, lport, rport, pid, len(rows),
                                                          json.dumps(conns, indent=1)))
            c = rows[0]
            if proto.startswith("tcp") and not (isinstance(c["Open ms"], float) and
                                                c["Open ms"] > 0):
                fail("%s %d: no open time: %s" % (proto, lport, c))
        else:
            rows = [c for c in conns if c["PID"] == pid and c["Proto"] == "UDP" and
                    (c["Sent bytes"], c["Sends"], c["Received bytes"], c["Receives"]) ==
                    (sent, sends, received, receives)]
            if len(rows) != 1:
                fail("%s socket of %d (%d/%d sent, %d/%d received): %d rows in\n%s" %
                     (proto, pid, sends, sent, receives, received, len(rows),
                      json.dumps(conns, indent=1)))
            c = rows[0]
        got = (c["Sent bytes"], c["Sends"], c["Received bytes"], c["Receives"])
        if got != (sent, sends, received, receives):
            fail("%s %d of %d: the view says %s, the workload %s" %
                 (proto, lport, pid, got, (sent, sends, received, receives)))
    if len(conns) != len(counts):
        fail("%d connection rows, expected %d:\n%s" % (len(conns), len(counts),
                                                      json.dumps(conns, indent=1)))
    if strace:
        seen = strace_counts(log)
        for p in procs:
            want = seen.get(p["PID"])
            got = [p["Sends"], p["Sent bytes"], p["Receives"], p["Received bytes"]]
            if want != got:
                fail("process %d: strace saw %s (sendto calls, bytes, recvfrom calls, bytes), "
                     "the view %s" % (p["PID"], want, got))
        if len(procs) != 2 or len(seen) != 2:
            fail("processes: view %s, strace %s" % (procs, dict(seen)))
    dump = subprocess.run([petw, "dump", etl, "--format", "json"], capture_output=True,
                          text=True, check=True).stdout
    kinds = collections.Counter(e["event"] for e in map(json.loads, dump.splitlines())
                                if e["provider"] == "TcpIp")
    v6 = int(any(x[1] == "tcp6" for x in counts))
    want = {"Connect": 1, "ConnectIPV6": v6, "Accept": 1, "AcceptIPV6": v6, "Disconnect": 2,
            "DisconnectIPV6": 2 * v6}
    if any(kinds[k] != v for k, v in want.items()):
        fail("TcpIp events %s, expected among them %s" % (dict(kinds), want))

    # Linux 6.1: no sock_send_length, no sock_recv_length.
    etl61, err61, counts61 = record(tmp, "linux61", {
        "PETW_NO_TRACEPOINTS": "sock/sock_send_length,sock/sock_recv_length"})
    said = [x for x in err61.splitlines() if "bytes sent and received not recorded" in x]
    if len(said) != 1:
        fail("6.1 path: not one line about the bytes: %r" % err61)
    conns61, _ = tables(etl61)
    tcp = [c for c in conns61 if c["Proto"] == "TCP"]
    udp = [c for c in conns61 if c["Proto"] == "UDP"]
    want_udp = sorted((x[0], x[2], x[4], x[5], x[6], x[7]) for x in counts61
                      if x[1].startswith("udp")) if bpf else []
    got_udp = sorted((c["PID"], int(c["Local"].rsplit(":", 1)[1]), c["Sent bytes"], c["Sends"],
                      c["Received bytes"], c["Receives"]) for c in udp)
    if got_udp != want_udp:
        fail("6.1 path: UDP (through BPF: %s) %s, the workload %s" % (bpf, got_udp, want_udp))
    tcp_ends = len([x for x in counts61 if x[1].startswith("tcp")])
    if len(tcp) != tcp_ends or any(
            c["Sent bytes"] or c["Received bytes"] or not c["Open ms"] for c in tcp):
        fail("6.1 path: expected the %d TCP endpoints with their open time and no bytes:\n%s" %
             (tcp_ends, json.dumps(conns61, indent=1)))
    ports = sorted(c["Local"].rsplit(":", 1)[1] for c in tcp)
    if ports != sorted(str(x[2]) for x in counts61 if x[1].startswith("tcp")):
        fail("6.1 path: the endpoints' ports %s" % ports)
    # Without BPF: UDP without its addresses, its calls and bytes still exact.
    etl_nb, err_nb, counts_nb = record(tmp, "nobpf", {"PETW_NO_BPF": "1"})
    said = [x for x in err_nb.splitlines() if "UDP datagrams recorded without" in x]
    if len(said) != 1:
        fail("without BPF: not one line about UDP's addresses: %r" % err_nb)
    conns_nb, _ = tables(etl_nb)
    for pid, proto, lport, rport, sent, sends, received, receives in counts_nb:
        if proto.startswith("udp") and len([
                c for c in conns_nb if c["PID"] == pid and c["Proto"] == "UDP" and
                c["Local"].startswith("socket ") and
                (c["Sent bytes"], c["Sends"], c["Received bytes"], c["Receives"]) ==
                (sent, sends, received, receives)]) != 1:
            fail("without BPF: the %s socket of %d:\n%s" % (proto, pid,
                                                          json.dumps(conns_nb, indent=1)))
print("net_record: %d TCP endpoints and %d UDP sockets exact (bytes and calls each way)%s; "
      "the 6.1 path says in one line that bytes are missing; without BPF, that UDP's "
      "addresses are" %
      (len([x for x in counts if x[1].startswith("tcp")]),
       len([x for x in counts if x[1].startswith("udp")]),
       ", per process as strace saw them" if shutil.which("strace") else ""))
