# SPDX-License-Identifier: MIT
"""kernel_logger_net.py SAMPLE WORKLOAD PETW: Microsoft's "Configuring and
Starting the NT Kernel Logger Session" sample with the page's own flags
(compat/kernel_logger.c built with EnableFlags EVENT_TRACE_FLAG_NETWORK_TCPIP)
records the TCP/IP traffic of net_workload, run while it runs: StartTrace
succeeds, and in kernel.etl the workload's IPv4 and IPv6 TCP connections
(IPv4 alone on a machine without an IPv6 loopback)
have their Connect (the client's) and Accept (the server's), with the
ports the workload printed, and Send and Recv events whose sizes sum to the
bytes each side counted. The session is the whole system's (the NT Kernel
Logger's): other traffic is told apart by process and port. Skips (77)
when StartTrace says ERROR_ACCESS_DENIED (5), or ERROR_NOT_SUPPORTED (50)
on a system without the sock tracepoints (where 50 fails the test)."""
import json
import os
import pty
import re
import select
import subprocess
import sys
import tempfile

sample, workload, petw = sys.argv[1:4]
os.chdir(tempfile.mkdtemp())
master, slave = pty.openpty()
logger = subprocess.Popen([sample], stdin=slave, stdout=slave, stderr=slave)
os.close(slave)
out = b""


def read_until(done, seconds):
    global out
    import time
    end = time.monotonic() + seconds
    while not done(out):
        left = end - time.monotonic()
        if left <= 0 or not select.select([master], [], [], left)[0]:
            return False
        try:
            chunk = os.read(master, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            return done(out)
        out += chunk
    return True


def fail(why):
    if logger.poll() is None:
        os.write(master, b"\n")
        logger.wait(10)
    print("kernel_logger_net: FAIL: " + why)
    sys.exit(1)


started = read_until(lambda o: b"Press any key" in o or b"failed with" in o
                     or b"already in use" in o, 60)
failed = re.search(rb"failed with (\d+)", out)
tracepoints = any(os.path.isdir(d + "/events/sock") for d in ("/sys/kernel/tracing",
                                                             "/sys/kernel/debug/tracing"))
if failed and int(failed.group(1)) == 50 and tracepoints:
    logger.wait(30)
    fail("StartTrace refused EVENT_TRACE_FLAG_NETWORK_TCPIP (50) on a kernel with sock "
         "tracepoints")
if failed and int(failed.group(1)) in (5, 50):
    logger.wait(30)
    print("kernel_logger_net: skipped, StartTrace returned %s" % failed.group(1).decode())
    sys.exit(77)
if not (started and b"Press any key" in out):
    fail("the sample said %r" % out)
run = subprocess.run([workload], capture_output=True, text=True, timeout=60)
os.write(master, b"\n")
read_until(lambda o: b"stopped." in o or b"failed with" in o, 60)
logger.wait(60)
if b"The session stopped." not in out or b"failed" in out:
    fail("the sample said %r" % out)
if run.returncode != 0:
    fail("the workload failed: " + run.stderr)
lines = [x.split() for x in run.stdout.splitlines() if x.startswith("net ")]
dump = subprocess.run([petw, "dump", "kernel.etl", "--format", "json"], check=True,
                      capture_output=True, text=True).stdout
events = [json.loads(x) for x in dump.splitlines() if x.strip()]
tcp = [e for e in events if e["provider"] == "TcpIp"]
for x in lines:
    pid, proto, lport, rport = int(x[1]), x[2], int(x[3]), int(x[4])
    sent, received = int(x[5]), int(x[7])
    if not proto.startswith("tcp"):
        continue
    v6 = "IPV6" if proto == "tcp6" else ""
    mine = [e for e in tcp if e["fields"].get("PID") == pid and
            e["fields"].get("sport") == lport and e["fields"].get("dport") == rport]
    opened = [e for e in mine if e["event"] in ("Connect" + v6, "Accept" + v6)]
    if len(opened) != 1:
        fail("%s %d -> %d of %d: %d Connect/Accept events" % (proto, lport, rport, pid,
                                                            len(opened)))
    sends = sum(e["fields"]["size"] for e in mine if e["event"] == "Send" + v6)
    recvs = sum(e["fields"]["size"] for e in mine if e["event"] == "Recv" + v6)
    if (sends, recvs) != (sent, received):
        fail("%s %d of %d: Send and Recv sizes sum to %d and %d, the workload counted %d and "
             "%d" % (proto, lport, pid, sends, recvs, sent, received))
ends = len([x for x in lines if x[2].startswith("tcp")])
if ends != (2 if "no ipv6: " in run.stdout else 4):
    fail("the workload said: " + run.stdout)
print("kernel_logger_net: StartTrace with EVENT_TRACE_FLAG_NETWORK_TCPIP recorded the "
      "workload's %d TCP endpoints, bytes exact, among %d TcpIp events%s"
      % (ends, len(tcp), " (no IPv6 loopback here)" if ends == 2 else ""))
