# SPDX-License-Identifier: MIT
"""analysis_net_windows.py PETW FOLDER...: on real Windows traces (the .etl
files of the folders: the samples folder, PETW_PUBLIC_TRACES' public
traces) that carry TcpIp or UdpIp records, `petw report net`'s connections
are those `petw dump` decodes (by the classes' schemas, not the model's
fixed offsets): per process, protocol, local and remote address and port,
the same send and receive counts and bytes. Skips (77) when no trace
there has such records."""
import collections
import ipaddress
import json
import os
import subprocess
import sys

petw = sys.argv[1]
folders = [f for f in sys.argv[2:] if f and os.path.isdir(f)]
env_folder = os.environ.get("PETW_PUBLIC_TRACES", "")
if env_folder and os.path.isdir(env_folder):
    folders.append(env_folder)


def fail(why):
    print("analysis_net_windows: FAIL: " + why)
    sys.exit(1)


def endpoint(addr, port):
    ip = ipaddress.ip_address(addr)
    return ("[%s]:%d" % (ip.compressed, port)) if ip.version == 6 else "%s:%d" % (ip, port)


def parse_endpoint(text):
    host, _, port = text.rpartition(":")
    return endpoint(host.strip("[]"), int(port))


checked = 0
for folder in folders:
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.lower().endswith(".etl"):
                continue
            path = os.path.join(root, name)
            r = subprocess.run([petw, "dump", path, "--format", "json"], capture_output=True,
                               text=True)
            if r.returncode != 0:
                continue
            want = collections.defaultdict(lambda: [0, 0, 0, 0])
            for line in r.stdout.splitlines():
                if '"TcpIp"' not in line and '"UdpIp"' not in line:
                    continue
                e = json.loads(line)
                f, ev = e.get("fields") or {}, e.get("event") or ""
                base = ev.replace("IPV6", "").replace("IPV4", "")
                if base not in ("Send", "Recv") or "sport" not in f or "connid" not in f:
                    continue
                key = (f["PID"], "TCP" if e["provider"] == "TcpIp" else "UDP",
                       endpoint(f["saddr"], f["sport"]), endpoint(f["daddr"], f["dport"]))
                k = 0 if base == "Send" else 2
                want[key][k] += 1
                want[key][k + 1] += f["size"]
            if not want:
                continue
            r = subprocess.run([petw, "report", "net", path, "--format", "json", "--top", "0"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                fail("%s: report net: %s" % (path, r.stderr))
            rows = json.JSONDecoder().raw_decode(r.stdout.lstrip())[0]["rows"]
            got = {}
            for row in rows:
                if not row.get("Local") or row["Local"].startswith("socket"):
                    continue
                key = (row["PID"], row["Proto"], parse_endpoint(row["Local"]),
                       parse_endpoint(row["Remote"]))
                got[key] = [row["Sends"], row["Sent bytes"], row["Receives"],
                            row["Received bytes"]]
            for key, v in want.items():
                if got.get(key) != v:
                    fail("%s: %s: the dump has %s, the view %s" % (path, key, v, got.get(key)))
            checked += 1
            print("analysis_net_windows: %s: %d connections as the dump decodes them" %
                  (name, len(want)))
if not checked:
    print("analysis_net_windows: no trace with TcpIp or UdpIp records in %s, skipped" %
          (folders or "no folder"))
    sys.exit(77)
