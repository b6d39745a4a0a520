#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_clickhouse.py PETW GEN_PROFILE_TRACE [MB]: a large trace (MB
megabytes of gen_profile_trace's `big` profile, 100 by default) loaded into
a local ClickHouse server of the benchmark's own (test/clickhouse_server.py;
a "skipped" line without one), side by side in one run:

  export   `petw export --no-model`: every event with every column of
           docs/clickhouse.md's events table (decoded fields, payload)
  json     `petw dump --format json | clickhouse-client ... JSONEachRow`
           into a table of the JSON's top-level members (ClickHouse 18.16
           cannot load the `fields` object into a column: it is skipped)
  export-model  `petw export` with the analysis model's tables too

Each line: wall seconds, events per second, the CPU seconds of the client
side (petw, or petw dump and clickhouse-client) and of the server, and the
rows that landed (checked against petw info's count). Best of --reps runs
(3), the server's tables dropped between runs."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test"))
import clickhouse_server  # noqa: E402

petw, gen = sys.argv[1], sys.argv[2]
mb = int(sys.argv[3]) if len(sys.argv) > 3 else 100
reps = 3

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
        print("clickhouse: skipped (no clickhouse-server or clickhouse-client)")
        return
    tmp = tempfile.mkdtemp(prefix="petw-bench-clickhouse-")
    server = clickhouse_server.start(tmp)
    try:
        run(server, tmp)
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
    }
    print("clickhouse: %d MB trace, %d events (%s)" % (os.path.getsize(etl) >> 20, events,
                                                     server.query("SELECT version()").strip()))
    for name, (table, drop, command) in kinds.items():
        best = None
        for _ in range(reps):
            server.query(drop)
            if name == "json":
                server.query("CREATE DATABASE bench_json")
                server.query(JSON_TABLE)
            result = timed(server, command)
            landed = int(server.query("SELECT count() FROM " + table))
            if landed != events:
                sys.exit("clickhouse: %s landed %d rows of %d" % (name, landed, events))
            best = result if best is None or result[0] < best[0] else best
        wall, client, srv = best
        print("  %-13s %6.2f s  %9.0f events/s  client CPU %5.2f s  server CPU %5.2f s" %
              (name, wall, events / wall, client, srv))
        server.query(drop)


main()
