#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_clickhouse.py PETW GEN_PROFILE_TRACE [MB [WRITER]]: a large trace (MB
megabytes of gen_profile_trace's `big` profile, 100 by default) loaded into
a local ClickHouse server of the benchmark's own (test/clickhouse_server.py;
a "skipped" line without one), side by side in one run:

  export   `petw export --no-model`: every event with every column of
           docs/clickhouse.md's events table (decoded fields, payload)
  json     `petw dump --format json | clickhouse-client ... JSONEachRow`
           into a table of the JSON's top-level members (ClickHouse 18.16
           cannot load the `fields` object into a column: it is skipped)
  export-model  `petw export` with the analysis model's tables too
  export-undecoded  `petw export --no-model --payload undecoded`: `data`
           only for the events with no decoded fields

Each line: wall seconds, events per second, the CPU seconds of the client
side (petw, or petw dump and clickhouse-client) and of the server, and the
rows that landed (checked against petw info's count). REPS runs of each
(5; PETW_BENCH_REPS), interleaved (export, json, export, json, ...) so that
the load of a shared machine falls on both alike, the server's tables
dropped before each: the median and the spread (lowest to highest) of each,
and the ratio of the medians, json's wall time over export's (above 1:
petw export is the faster).

With WRITER (bench_forward_writer), then `petw forward --spool` of a live
real-time session into the same server while WRITER writes RATE events/s
(PETW_BENCH_FORWARD_RATE, 1000000) for PETW_BENCH_FORWARD_SECONDS (5): the
rate the writer achieved, the events the session wrote, lost (the
session's real-time losses and the spool's overflow), and the rows that
landed exactly once; the forwarder's own rate is the events over the time
from the writer's start to the forwarder's end. PETW_BENCH_PARTS picks
"export", "forward" or both (the default). With --jsonl, each run is also
one JSON line on stdout (bench/run.sh's "clickhouse" part, which
bench/report.py turns into docs/benchmarks.md's section), the text on
stderr."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test"))
import clickhouse_server  # noqa: E402

jsonl = "--jsonl" in sys.argv
if jsonl:
    sys.argv.remove("--jsonl")
    text = sys.stderr
else:
    text = sys.stdout


def say(line):
    print(line, file=text, flush=True)


def emit(obj):
    if jsonl:
        print(json.dumps(obj), flush=True)

petw, gen = sys.argv[1], sys.argv[2]
mb = int(sys.argv[3]) if len(sys.argv) > 3 else 100
writer = sys.argv[4] if len(sys.argv) > 4 else None
parts = os.environ.get("PETW_BENCH_PARTS", "export,forward").split(",")
reps = int(os.environ.get("PETW_BENCH_REPS", "5"))

JSON_TABLE = """CREATE TABLE bench_json.events (timestamp String, provider String,
    provider_guid String, event Nullable(String), task_name Nullable(String),
    opcode_name Nullable(String), level_name Nullable(String), message Nullable(String),
    id UInt16, version UInt8, channel UInt8, level UInt8, opcode UInt8, task UInt16,
    keyword String, pid UInt32, tid UInt32, cpu UInt32, activity_id String,
    related_activity_id Nullable(String)) ENGINE = MergeTree ORDER BY timestamp"""


def cpu_of(pid):
    """utime + stime of a process, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(server, command):
    """Runs `command` (a shell line): wall, client CPU, server CPU."""
    before = cpu_of(server.proc.pid)
    t0 = time.time()
    usage0 = os.times()
    subprocess.run(["sh", "-c", command], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    usage1 = os.times()
    wall = time.time() - t0
    client = (usage1.children_user - usage0.children_user +
              usage1.children_system - usage0.children_system)
    return wall, client, cpu_of(server.proc.pid) - before


def main():
    if not clickhouse_server.server_command() or not shutil.which("clickhouse-client"):
        say("clickhouse: skipped (no clickhouse-server or clickhouse-client)")
        return
    tmp = tempfile.mkdtemp(prefix="petw-bench-clickhouse-")
    server = clickhouse_server.start(tmp)
    try:
        if "export" in parts:
            run(server, tmp)
        if writer and "forward" in parts:
            forward(server, tmp)
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def run(server, tmp):
    etl = os.path.join(tmp, "big.etl")
    subprocess.run([gen, etl, "big", str(mb)], check=True)
    info = subprocess.run([petw, "info", etl], capture_output=True, text=True).stdout
    events = int(re.search(r"^  events\s+(\d+)$", info, re.M).group(1))
    url = server.url("bench")
    kinds = {
        "export": ("bench.events FINAL", "DROP DATABASE IF EXISTS bench",
                   "%s export %s --no-model --to clickhouse '%s'" % (petw, etl, url)),
        "json": ("bench_json.events", "DROP DATABASE IF EXISTS bench_json",
                 "%s dump %s --format json | clickhouse-client --port %d "
                 "--input_format_skip_unknown_fields=1 "
                 "--query 'INSERT INTO bench_json.events FORMAT JSONEachRow'" %
                 (petw, etl, server.tcp)),
        "export-model": ("bench.events FINAL", "DROP DATABASE IF EXISTS bench",
                         "%s export %s --to clickhouse '%s'" % (petw, etl, url)),
        "export-undecoded": ("bench.events FINAL", "DROP DATABASE IF EXISTS bench",
                             "%s export %s --no-model --payload undecoded --to clickhouse '%s'" %
                             (petw, etl, url)),
    }
    version = server.query("SELECT version()").strip()
    say("clickhouse: %d MB trace, %d events (%s)" % (os.path.getsize(etl) >> 20, events, version))
    results = {name: [] for name in kinds}
    for _ in range(reps):
        for name, (table, drop, command) in kinds.items():
            server.query(drop)
            if name == "json":
                server.query("CREATE DATABASE bench_json")
                server.query(JSON_TABLE)
            results[name].append(timed(server, command))
            wall, client, srv = results[name][-1]
            emit({"contender": "clickhouse-" + name, "seconds": wall, "client_cpu_s": client,
                  "server_cpu_s": srv, "events": events, "trace_mb": mb, "server": version})
            landed = int(server.query("SELECT count() FROM " + table))
            if landed != events:
                sys.exit("clickhouse: %s landed %d rows of %d" % (name, landed, events))
            server.query(drop)
    median = {}
    for name, runs in results.items():
        walls = sorted(r[0] for r in runs)
        mid = sorted(runs)[len(runs) // 2]
        median[name] = mid[0]
        say("  %-16s median %6.2f s (%5.2f-%5.2f)  %9.0f events/s  client CPU %5.2f s  "
              "server CPU %5.2f s" % (name, mid[0], walls[0], walls[-1], events / mid[0],
                                      mid[1], mid[2]))
    say("  ratio json/export (medians): %.2f (%d runs each; above 1: petw export is faster)" %
          (median["json"] / median["export"], reps))
    say("  ratio json/export-undecoded (medians): %.2f" %
        (median["json"] / median["export-undecoded"]))


def forward(server, tmp):
    rate = float(os.environ.get("PETW_BENCH_FORWARD_RATE", "1000000"))
    seconds = float(os.environ.get("PETW_BENCH_FORWARD_SECONDS", "5"))
    env = dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt"))
    env.pop("PETW_INPROC_SESSIONS", None)
    spool = os.path.join(tmp, "spool")
    name = "petw-bench-forward"
    # 1024 buffers of 64 KB: what the session holds for the forwarder while
    # it is not scheduled (about 0.45 s of events at 1 M/s).
    buffers = int(os.environ.get("PETW_BENCH_FORWARD_BUFFERS", "1024"))
    subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Bench.Nobody",
                    "--buffers", "64:%d" % buffers, "--flush-timer", "0.2"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    fw = None
    try:
        # A spool of 4 GiB: what the server has not taken yet waits there
        # (about 215 bytes an event).
        fw = subprocess.Popen([petw, "forward", name, "--spool", spool, "--spool-size",
                               str(4 << 30), "--to", "clickhouse", server.url("bench_fw")],
                              env=env, stderr=subprocess.PIPE, text=True)
        first = fw.stderr.readline()
        if "forwarding session" not in first:
            sys.exit("clickhouse: petw forward: " + first + fw.stderr.read())
        w = subprocess.Popen([writer, "--rate", "%d" % rate, "--seconds", "%g" % seconds],
                             env=env, stdout=subprocess.PIPE, text=True)
        cpu0 = cpu_of(server.proc.pid)
        t0 = time.time()
        subprocess.run([petw, "enable", name, "-p", "be0cbe0c-4444-5555-6666-000000000004"],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        out, _ = w.communicate()
        stop = subprocess.run([petw, "stop", name], env=env, capture_output=True, text=True)
        _, err = fw.communicate(timeout=600)
        wall = time.time() - t0
        srv = cpu_of(server.proc.pid) - cpu0
    finally:
        if fw and fw.poll() is None:
            fw.kill()
        subprocess.run([petw, "stop", name], env=env, capture_output=True)
    written = int(re.search(r"Events written:\s+(\d+)", stop.stdout).group(1))
    m = re.search(r"(\d+) events of session '[^']*' forwarded", err)
    forwarded = int(m.group(1)) if m else 0
    m = re.search(r"lost (\d+) events for real-time consumers", err)
    rt_lost = int(m.group(1)) if m else 0
    m = re.search(r"(\d+) events \(\d+ batches\) dropped", err)
    dropped = int(m.group(1)) if m else 0
    m = re.search(r"Real-time lost:\s+(\d+) buffers", stop.stdout)
    rt_buffers = int(m.group(1)) if m else 0
    landed = int(server.query("SELECT count() FROM bench_fw.events FINAL"))
    uniq = int(server.query("SELECT uniqExact(machine, trace_id, seq) FROM bench_fw.events"))
    say("  forward: writer %s" % out.strip())
    say("  forward: petw stop: " + "; ".join(l.strip() for l in stop.stdout.splitlines()
                                               if "lost" in l.lower() or "written" in l.lower()))
    say("  forward: %d events written by the session, %d forwarded, %d landed (%d distinct); "
        "lost: %d real-time buffers (petw stop), %d events the spool could not hold; exit %d" %
        (written, forwarded, landed, uniq, rt_buffers, dropped, fw.returncode))
    say("  forward: %.2f s from the writer's start to the forwarder's end: %.0f events/s; "
          "server CPU %.2f s" % (wall, landed / wall, srv))
    wrote = json.loads(out)
    emit({"contender": "clickhouse-forward", "rate": rate, "achieved": wrote["achieved"],
          "seconds_written": seconds, "written": written, "forwarded": forwarded,
          "landed": landed, "distinct": uniq, "rt_lost_buffers": rt_buffers,
          "rt_lost_events": rt_lost, "spool_dropped": dropped, "seconds": wall,
          "events_per_s": landed / wall, "server_cpu_s": srv, "exit": fw.returncode,
          "session_buffers": "64:%d" % buffers, "spool_gib": 4})
    if landed != written or uniq != written or rt_buffers or dropped:
        say("  forward: NOT every event exactly once: " + err.strip().replace("\n", "; "))


main()
