#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""clickhouse_export.py PETW GEN_PROFILE_TRACE DOCS_MD PROVIDER_APP: `petw export --to
clickhouse` into a ClickHouse server of the test's own (clickhouse_server.py;
exit 77 when none is installed). On the profile trace gen_profile_trace
writes, the queries docs/clickhouse.md gives (read from the page itself)
answer as `petw info` (events per provider and machine) and `petw report`
(CPU by function, Start/Stop pairs) do; exporting the same trace twice, or
an export killed mid-way (SIGKILL) and run again, or the server killed
mid-export and started again, counts every event exactly once with the documented queries (and after OPTIMIZE ... FINAL with
a plain count()); the user's credentials work from the URL and from the
environment and are never printed; bad credentials and a table of another
shape are one clear error each. With PETW_ETL_SAMPLES' Windows traces (when
there), their events per provider match `petw info` too. `petw forward`
sends a real-time session's events (PROVIDER_APP's ticks) as they come and
exits 0 once the session stopped, every event written there once; with
--spool, across a server restart, and killed (SIGKILL) with events it
consumed not yet sent, every event lands exactly once after the next run;
so it does without --spool, the session keeping each buffer until the
insert carrying its rows landed; and what arrived is sent once --flush-ms
passed while the session is idle."""
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "common"))  # petw_cli.py
sys.path.insert(0, os.path.join(here, ".."))  # clickhouse_server.py (bench/ uses it too)
import clickhouse_server  # noqa: E402
from petw_cli import Cli  # noqa: E402

petw, gen, docs, app, writer = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
cli = Cli("clickhouse_export", petw)
fail, run, rows = cli.fail, cli.run, cli.rows


def doc_queries():
    """The queries of docs/clickhouse.md marked <!-- query: NAME -->."""
    text = open(docs, encoding="utf-8").read()
    found = dict(re.findall(r"<!-- query: (\w+) -->\n```sql\n(.*?)```", text, re.S))
    for name in ("exact_count", "exact_count_uniq", "events_per_provider", "cpu_by_function",
                 "start_stop_durations"):
        if name not in found:
            fail("docs/clickhouse.md gives no query %s" % name)
    return found


def in_db(sql, db):
    return sql.replace("petw.", db + ".")


def export(server, db, *args, credentials="", env=None, expect=0):
    r = subprocess.run([petw, "export"] + list(args) +
                       ["--to", "clickhouse", server.url(db, credentials)],
                       capture_output=True, text=True, env=env)
    if r.returncode != expect:
        fail("petw export %s: exit %d, wanted %d: %s" % (" ".join(args), r.returncode, expect,
                                                         r.stderr))
    if clickhouse_server.PASSWORD in r.stdout + r.stderr:
        fail("petw export printed the password: " + r.stderr)
    return r.stderr


def info_counts(etl):
    """petw info's events: the total and {provider: count}."""
    text = run("info", etl)
    total = int(re.search(r"^  events\s+(\d+)$", text, re.M).group(1))
    per = {}
    for m in re.finditer(r"^    (\S+)\s+id \d+\s.*?(\d+)$", text, re.M):
        per[m.group(1)] = per.get(m.group(1), 0) + int(m.group(2))
    if sum(per.values()) != total:
        fail("petw info's kinds do not add up to its total:\n" + text)
    return total, per


def check_views(server, q, etl, db):
    """The documented queries against `petw info` and `petw report`."""
    total, per = info_counts(etl)
    got = {}
    for machine, provider, n in server.rows(in_db(q["events_per_provider"], db)):
        if machine != "host-a":
            fail("events of machine %s" % machine)
        got[provider] = int(n)
    if got != per:
        fail("events per provider:\n%s\npetw info:\n%s" % (got, per))
    want = {(r["Function"], r["Module"]): (int(r["Self"]), int(r["Incl"]))
            for r in rows("report", "cpu", "--addresses", etl)}
    got = {(f, m): (int(s), int(i)) for f, m, s, i in
           server.rows(in_db(q["cpu_by_function"], db))}
    if got != want or len(want) != 7:
        fail("cpu by function:\n%s\npetw report cpu:\n%s" % (got, want))
    want = {}
    for r in rows("report", "events", etl):
        if r["Pairs"]:
            want[r["Provider"]] = (int(r["Pairs"]), r["Mean ms"], r["Max ms"])
    got = {p: (int(n), "%.3f" % float(mean), "%.3f" % float(mx))
           for p, task, name, n, mean, mx in server.rows(in_db(q["start_stop_durations"], db))}
    if got != want or not want:
        fail("start/stop durations:\n%s\npetw report events:\n%s" % (got, want))
    return total


def exact(server, q, db):
    """The documented exact count, checked against the other documented
    form. The two are separate queries: while an insert of a killed export
    still lands, a batch may arrive between them, so they must agree once
    no more arrives (within 5 s), not at one instant."""
    deadline = time.monotonic() + 5
    while True:
        a = int(server.query(in_db(q["exact_count"], db)))
        b = int(server.query(in_db(q["exact_count_uniq"], db)))
        if a == b:
            return a
        if time.monotonic() > deadline:
            fail("count() FINAL %d, uniqExact %d" % (a, b))
        time.sleep(0.2)


def main():
    probe = subprocess.run([petw, "export"], capture_output=True, text=True)
    if "not built in" in probe.stderr:
        print("clickhouse_export: petw was built without libcurl: skipped")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="petw-clickhouse-")
    t0 = time.time()
    try:
        server = clickhouse_server.start(tmp)
    except RuntimeError as e:
        fail(str(e))
    if not server:
        shutil.rmtree(tmp, ignore_errors=True)
        print("clickhouse_export: no clickhouse-server installed: skipped")
        sys.exit(77)
    print("clickhouse_export: server started in %.1f s" % (time.time() - t0))
    try:
        body(server, tmp)
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("clickhouse_export: ok")


def body(server, tmp):
    start = time.time()
    q = doc_queries()
    etl = os.path.join(tmp, "p.etl")
    subprocess.run([gen, etl], check=True)

    # One export: every documented view agrees with petw's own.
    err = export(server, "one", etl, "--machine", "host-a")
    total = check_views(server, q, etl, "one")
    model = (server.rows("SELECT module, kernel FROM one.images FINAL ORDER BY module"),
             server.rows("SELECT pid, name, samples FROM one.processes FINAL ORDER BY pid"),
             server.rows("SELECT tid, samples FROM one.threads FINAL WHERE samples > 0 "
                         "ORDER BY tid"))
    threads = sorted([r["TID"], r["Samples"]] for r in rows("report", "cpu", etl, "--by",
                                                             "thread"))
    if model != ([["app.exe", "0"], ["ntdll.dll", "0"], ["ntoskrnl.exe", "1"]],
                 [["0", "Idle", "0"], ["1234", "app.exe", "70"]], threads):
        fail("the model's tables: %s; petw report cpu --by thread: %s" % (model, threads))
    if exact(server, q, "one") != total or "%d events, 70 samples" % total not in err:
        fail("one export: %d rows, petw info %d; %s" % (exact(server, q, "one"), total, err))

    # Gzip-compressed bodies (--compress) load the same rows.
    export(server, "gz", etl, "--machine", "host-a", "--compress")
    check_views(server, q, etl, "gz")
    if exact(server, q, "gz") != total:
        fail("--compress: %d rows, petw info %d" % (exact(server, q, "gz"), total))

    # The same trace twice (credentials from the environment the second
    # time): the documented counts stay exact, and so do the views.
    export(server, "twice", etl, "--machine", "host-a", "--batch-rows", "7")
    env = dict(os.environ, PETW_CLICKHOUSE_USER="loader",
               PETW_CLICKHOUSE_PASSWORD=clickhouse_server.PASSWORD)
    export(server, "twice", etl, "--machine", "host-a", "--batch-rows", "50", env=env)
    plain = int(server.query("SELECT count() FROM twice.events"))
    if exact(server, q, "twice") != total or plain < total:
        fail("exported twice: %d exact rows, %d plain, wanted %d" %
             (exact(server, q, "twice"), plain, total))
    check_views(server, q, etl, "twice")
    if int(server.query("SELECT count() FROM twice.traces FINAL")) != 1:
        fail("exported twice: traces lists it more than once")
    server.query("OPTIMIZE TABLE twice.events FINAL")
    if int(server.query("SELECT count() FROM twice.events")) != total:
        fail("after OPTIMIZE FINAL, a plain count is not %d" % total)

    # Two machines' copies coexist.
    export(server, "twice", etl, "--machine", "host-b")
    by_machine = server.rows("SELECT machine, count() FROM twice.events FINAL GROUP BY machine "
                             "ORDER BY machine")
    if by_machine != [["host-a", str(total)], ["host-b", str(total)]]:
        fail("two machines: %s" % by_machine)

    # Credentials: in the URL; wrong ones are one clear error, unprinted.
    export(server, "cred", etl, credentials="loader:%s@" % clickhouse_server.PASSWORD)
    err = export(server, "cred", etl, credentials="loader:%s-x@" % clickhouse_server.PASSWORD,
                 expect=1)
    if "password" not in err.lower() or len(err.strip().splitlines()) != 1 or \
            ":%d" % server.http not in err:
        fail("bad credentials: %r" % err)

    # A table of another shape: refused before anything is inserted.
    server.query("CREATE DATABASE other")
    server.query("CREATE TABLE other.events (machine String, x UInt8) ENGINE = MergeTree "
                 "ORDER BY machine")
    err = export(server, "other", etl, expect=1)
    if "other.events" not in err or "schema version" not in err or \
            server.query("SELECT count() FROM other.events").strip() != "0":
        fail("a table of another shape: %r" % err)
    err = export(server, "bad-name", etl, expect=1)
    if "database name" not in err:
        fail("a bad database name: %r" % err)

    print("clickhouse_export: views, exactly once, errors %.1f s" % (time.time() - start))
    for part in (distributed, killed, server_killed, samples, payload_undecoded, forward,
                 forward_spool, forward_killed_loaded, forward_killed_alone,
                 forward_killed_unspooled, forward_spool_idle, forward_spool_cut):
        t0 = time.time()
        part(server, q, tmp)
        print("clickhouse_export: %s %.1f s" % (part.__name__, time.time() - t0))


def distributed(server, q, tmp):
    """Two machines' exports on two shards, read through the Distributed
    tables docs/clickhouse.md creates: the documented queries count each
    machine's events, and CPU by function across both, exactly."""
    etl = os.path.join(tmp, "p.etl")
    export(server, "shard1", etl, "--machine", "host-a")
    export(server, "shard2", etl, "--machine", "host-b")
    export(server, "shard2", etl, "--machine", "host-b")  # a retried export
    for sql in re.findall(r"CREATE [^;]*;", doc_section("Scale-out")):
        server.query(sql.replace("cluster_name", "petw_shards").rstrip(";"))
    total, per = info_counts(etl)
    want = sorted([m, p, str(n)] for m in ("host-a", "host-b") for p, n in per.items())
    got = sorted(server.rows(q["events_per_provider"].replace("petw.", "fleet.")))
    if got != want or exact(server, q, "fleet") != 2 * total:
        fail("Distributed: events per provider and machine\n%s\nwanted\n%s" % (got, want))
    want = {(r["Function"], r["Module"]): (2 * int(r["Self"]), 2 * int(r["Incl"]))
            for r in rows("report", "cpu", "--addresses", etl)}
    got = {(f, m): (int(s), int(i)) for f, m, s, i in
           server.rows(q["cpu_by_function"].replace("petw.", "fleet."))}
    if got != want:
        fail("Distributed: cpu by function\n%s\nwanted\n%s" % (got, want))


def doc_section(title):
    text = open(docs, encoding="utf-8").read()
    m = re.search(r"^## %s.*?(?=^## )" % re.escape(title), text, re.M | re.S)
    if not m:
        fail("docs/clickhouse.md has no section %s" % title)
    return m.group(0)


def killed(server, q, tmp):
    """An export killed mid-way and run again: exactly once. The file's
    events go on one insert, which the server takes once its body has
    ended: a trace of 40 MB, so that the kill (0.3 s in, or once rows
    land) comes before its end."""
    subprocess.run([gen, os.path.join(tmp, "big.etl"), "big", "8"], check=True)  # server_killed's
    big = os.path.join(tmp, "big40.etl")
    subprocess.run([gen, big, "big", "40"], check=True)
    total, _ = info_counts(big)
    args = [petw, "export", big, "--no-model", "--batch-rows", "2000", "--to", "clickhouse",
            server.url("killed")]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 0.3
    landed = 0
    while time.time() < deadline and p.poll() is None and not landed:
        try:
            landed = int(server.query("SELECT count() FROM killed.events"))
        except Exception:
            landed = 0
        time.sleep(0.02)
    if p.poll() is not None:
        fail("the export ended before it could be killed (%d rows)" % landed)
    p.send_signal(signal.SIGKILL)
    p.wait()
    p.stderr.close()
    # An insert whose body had all arrived may still land after the kill.
    part, last = -1, exact(server, q, "killed")
    while part != last:
        time.sleep(0.5)
        part, last = last, exact(server, q, "killed")
    if part >= total:
        fail("killed export: %d of %d rows landed" % (part, total))
    for _ in range(2):  # run again, and once more: the second sends every row twice
        export(server, "killed", big, "--no-model", "--batch-rows", "5000")
        if exact(server, q, "killed") != total:
            fail("killed and run again: %d rows, wanted %d" % (exact(server, q, "killed"), total))


def server_killed(server, q, tmp):
    """The server killed (SIGKILL) mid-export and started again: the export
    retries and ends well, every event exactly once."""
    big = os.path.join(tmp, "big40.etl")  # its events' insert lasts past the kill (0.3 s in)
    total, _ = info_counts(big)
    args = [petw, "export", big, "--no-model", "--batch-rows", "2000", "--retries", "20",
            "--to", "clickhouse", server.url("restarted")]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 0.3
    landed = 0
    while time.time() < deadline and p.poll() is None and not landed:
        try:
            landed = int(server.query("SELECT count() FROM restarted.events"))
        except Exception:
            landed = 0
        time.sleep(0.02)
    if p.poll() is not None:
        fail("the export ended before the server could be killed (%d rows)" % landed)
    server.kill()
    time.sleep(0.5)
    server.launch()
    try:
        _, err = p.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("the export did not end after the server came back")
    if p.returncode != 0 or "tried again after a transport failure" not in err:
        fail("the export across a server restart: exit %d: %s" % (p.returncode, err))
    if exact(server, q, "restarted") != total:
        fail("across a server restart: %d rows, wanted %d" % (exact(server, q, "restarted"),
                                                              total))


def forward(server, q, tmp):
    """petw forward of a real-time session until it stops."""
    if os.environ.get("PETW_TEST_TSAN") == "1":
        return  # as tool_live: TSan follows no forked provider
    env = host_env(tmp)
    ready = os.path.join(tmp, "ready")
    ticker = subprocess.Popen([app, "30", ready], env=env)
    procs = [ticker]
    try:
        deadline = time.time() + 10
        while not os.path.exists(ready) and time.time() < deadline:
            time.sleep(0.05)
        # The ticker is enabled once the forwarder consumes: it sees every
        # event the session writes.
        subprocess.run([petw, "start", "fw", "--realtime", "-p", "Petw.Test.Nobody",
                        "--flush-timer", "0.1"], env=env, check=True, stdout=subprocess.DEVNULL)
        fw = start_forwarder("fw", server.url("fw"), ["--flush-ms", "100"], env, procs)
        subprocess.run([petw, "enable", "fw", "-p", "Petw.Test.Ticker"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        deadline = time.time() + 20
        landed = 0
        while time.time() < deadline and landed < 20:
            try:
                landed = int(server.query("SELECT count() FROM fw.events"))
            except Exception:
                landed = 0
            time.sleep(0.1)
        if landed < 20:
            fail("petw forward: %d events landed while the session ran" % landed)
        stop = subprocess.run([petw, "stop", "fw"], env=env, capture_output=True, text=True)
        written = int(re.search(r"Events written:\s+(\d+)", stop.stdout).group(1))
        _, err = fw.communicate(timeout=30)
        if fw.returncode != 0 or "%d events of session 'fw' forwarded" % written not in err:
            fail("petw forward: exit %d, %d events written: %s" % (fw.returncode, written, err))
        if exact(server, q, "fw") != written or \
                server.rows("SELECT file, events FROM fw.traces FINAL") != \
                [["session:fw", str(written)]]:
            fail("petw forward: %d rows, %d events written" % (exact(server, q, "fw"), written))
        # The rows' identity is the session's: seq is the buffer's sequence
        # number in the session times 2^32 plus the record's place in it (so
        # a buffer handed again to a forwarder started after a kill lands
        # once), under the one trace_id the traces row names.
        if int(server.query("SELECT count() FROM fw.events WHERE intDiv(seq, 4294967296) = 0")) \
                or server.query("SELECT DISTINCT trace_id FROM fw.events").split() != \
                server.query("SELECT trace_id FROM fw.traces FINAL").split():
            fail("petw forward: the rows' identity is not the session's buffers': %s" %
                 server.rows("SELECT trace_id, seq FROM fw.events ORDER BY seq LIMIT 3"))
    finally:
        end_session("fw", env, procs)


def host_env(tmp):
    """The environment of a test's shared sessions: a runtime directory of
    its own, sessions in a session host (not in the tool's process)."""
    env = dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt"))
    env.pop("PETW_INPROC_SESSIONS", None)
    return env


def start_writer(name, rate, count, env, procs):
    """The writer at `rate` events/s for `count` events, its provider
    enabled in session `name`; appended to `procs`."""
    w = subprocess.Popen([writer, str(rate), str(count)], env=env, stdout=subprocess.PIPE,
                         text=True)
    procs.append(w)
    subprocess.run([petw, "enable", name, "-p", "be0cbe0c-4444-5555-6666-000000000005"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return w


def end_session(name, env, procs):
    """Kills what of `procs` still runs and stops session `name` if it
    still runs (a test's cleanup, whatever failed)."""
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
        if p.stderr:
            p.stderr.close()
    subprocess.run([petw, "stop", name], env=env, capture_output=True)


def start_forwarder(name, url, options, env, procs):
    """petw forward NAME OPTIONS --to clickhouse URL, appended to `procs`
    once it says it forwards the session (its first line on stderr)."""
    fw = subprocess.Popen([petw, "forward", name] + list(options) + ["--to", "clickhouse", url],
                          env=env, stderr=subprocess.PIPE, text=True)
    procs.append(fw)
    first = fw.stderr.readline()
    if "forwarding session '%s'" % name not in first:
        fail("petw forward: " + first + fw.stderr.read())
    return fw


class Session:
    """A real-time session `name` and a forwarder of it; the ticker is
    enabled once the forwarder consumes."""

    def __init__(self, tmp, name):
        self.name = name
        self.env = host_env(tmp)
        ready = os.path.join(tmp, "ready-" + name)
        self.procs = [subprocess.Popen([app, "30", ready], env=self.env)]
        deadline = time.time() + 10
        while not os.path.exists(ready) and time.time() < deadline:
            time.sleep(0.05)
        subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Test.Nobody",
                        "--flush-timer", "0.1"], env=self.env, check=True,
                       stdout=subprocess.DEVNULL)

    def forward(self, url, *options):
        return start_forwarder(self.name, url, ["--flush-ms", "100"] + list(options), self.env,
                               self.procs)

    def enable(self):
        subprocess.run([petw, "enable", self.name, "-p", "Petw.Test.Ticker"], env=self.env,
                       check=True, stdout=subprocess.DEVNULL)

    def stop(self):
        """Stops the session: the events it wrote."""
        stop = subprocess.run([petw, "stop", self.name], env=self.env, capture_output=True,
                              text=True)
        return int(re.search(r"Events written:\s+(\d+)", stop.stdout).group(1))

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        subprocess.run([petw, "stop", self.name], env=self.env, capture_output=True)


def spooled_rows(spool):
    """spooled_rows_once, counted again when a file was sealed (renamed)
    or sent (removed) while it was being counted."""
    for _ in range(50):
        try:
            return spooled_rows_once(spool)
        except FileNotFoundError:
            time.sleep(0.05)
    fail("the spool %s changes too fast to be counted" % spool)


def spooled_rows_once(spool):
    """The rows the files in a spool directory hold: whole batches and the
    file being appended to, each a header and chunks of rows (up to its
    last whole chunk)."""
    total = 0
    for n in os.listdir(spool):
        if not n.endswith((".batch", ".open")):
            continue
        with open(os.path.join(spool, n), "rb") as f:
            version = f.readline()
            # A file the forwarder is starting (created, its head not yet
            # all written: it writes it with the first chunk) holds no row,
            # as its next run would find.
            if n.endswith(".open") and not version.endswith(b"\n"):
                continue
            if version == b"petw-spool 4\n":  # the session's buffers: an ETL file
                f.readline()  # the table and its columns
                meta = f.readline()  # trace_id, boot time, header size
                data = f.read()
                if n.endswith(".open"):
                    # Up to its last whole buffer (each starts with its size
                    # on disk), as the next run sends it; none after the
                    # header buffer yet: no row.
                    if not meta.endswith(b"\n"):
                        continue
                    whole = 0
                    while whole + 4 <= len(data):
                        size = struct.unpack_from("<I", data, whole)[0]
                        if size == 0 or whole + size > len(data):
                            break
                        whole += size
                    data = data[:whole]
                    if whole <= int(meta.split()[2]):
                        continue
                etl = os.path.join(os.path.dirname(spool), "spooled.etl")
                with open(etl, "wb") as out:
                    out.write(data)
                events, per = info_counts(etl)
                total += events - per.get("EventTrace", 0)  # each file's header record
                continue
            if version not in (b"petw-spool 2\n", b"petw-spool 3\n"):
                fail("spool file %s: %r" % (n, open(os.path.join(spool, n), "rb").read(40)))
            f.readline()  # the table and its columns
            while True:
                line = f.readline().split()
                if len(line) != 2 or len(f.read(int(line[1]))) != int(line[1]):
                    break
                total += int(line[0])
    return total


def forward_spool(server, q, tmp):
    """petw forward --spool: the server killed and started again while the
    session runs; the forwarder killed while the server is down, its spool
    sent by the next run; a spool too small for the outage, its overflow
    counted."""
    if os.environ.get("PETW_TEST_TSAN") == "1":
        return
    s = Session(tmp, "sp")
    spool = os.path.join(tmp, "spool")
    try:
        fw = s.forward(server.url("sp"), "--spool", spool)
        s.enable()
        time.sleep(0.7)
        server.kill()
        time.sleep(1.5)  # the consumer keeps up: batches go to the spool
        if spooled_rows(spool) == 0:
            fail("petw forward --spool: nothing spooled while the server was down")
        server.launch()
        written = s.stop()
        _, err = fw.communicate(timeout=60)
        if fw.returncode != 0 or exact(server, q, "sp") != written:
            fail("forward --spool across a server restart: exit %d, %d rows of %d: %s" %
                 (fw.returncode, exact(server, q, "sp"), written, err))
        if os.listdir(spool) != ["head"]:
            fail("forward --spool: left %s" % os.listdir(spool))
    finally:
        s.close()

    # Killed while the server is down, everything the session wrote
    # consumed but none of it sent (--flush-ms longer than the test): the
    # spool holds every event, and the next run delivers each exactly once.
    s = Session(tmp, "sk")
    spool = os.path.join(tmp, "spool-killed")
    try:
        fw = s.forward(server.url("sk"), "--spool", spool, "--flush-ms", "600000")
        s.enable()
        time.sleep(0.5)
        server.kill()
        time.sleep(0.5)
        s.procs[0].kill()  # the writer stops; the session hands over what it has
        s.procs[0].wait()
        deadline = time.time() + 10
        waiting, seen = -1, spooled_rows(spool)
        while time.time() < deadline and (seen != waiting or seen == 0):
            time.sleep(0.5)
            waiting, seen = seen, spooled_rows(spool)
        fw.kill()
        fw.wait()
        written = s.stop()
        waiting = spooled_rows(spool)
        if waiting != written:
            fail("forward killed: %d events in its spool, %d written" % (waiting, written))
        server.launch()
        r = subprocess.run([petw, "forward", "sk", "--spool", spool, "--to", "clickhouse",
                            server.url("sk")], env=s.env, capture_output=True, text=True)
        if r.returncode != 0 or "%d events left in the spool" % written not in r.stderr:
            fail("forward after a kill: exit %d: %s" % (r.returncode, r.stderr))
        got = exact(server, q, "sk")
        if got != written or spooled_rows(spool) != 0:
            fail("forward after a kill: %d rows, %d written" % (got, written))
    finally:
        s.close()

    # A spool too small for the outage: what overflows is counted.
    s = Session(tmp, "so")
    try:
        fw = s.forward(server.url("so"), "--spool", os.path.join(tmp, "spool-small"),
                       "--spool-size", "3000")
        s.enable()
        time.sleep(0.5)
        server.kill()
        time.sleep(1.5)
        server.launch()
        written = s.stop()
        _, err = fw.communicate(timeout=60)
        m = re.search(r"(\d+) events \(\d+ batches\) dropped: the spool \S+ was full", err)
        if fw.returncode != 1 or not m or \
                exact(server, q, "so") + int(m.group(1)) != written:
            fail("forward with a small spool: exit %d, %d rows, %d written: %s" %
                 (fw.returncode, exact(server, q, "so"), written, err))
    finally:
        s.close()


def forward_killed_loaded(server, q, tmp):
    """petw forward --spool killed (SIGKILL) mid-stream while a writer
    writes 150,000 events/s, and started again at once: every event the
    session wrote lands exactly once (their payloads are the events'
    indexes). The session keeps each buffer until the forwarder acked it
    (after appending it to its spool): what the killed one had not acked
    (its queue, the socket, a buffer it was appending) and what the session
    wrote while no forwarder ran go to the next one, and a buffer both
    spooled has the same rows twice (the session's run and the buffer's
    sequence number), so it counts once."""
    if os.environ.get("PETW_TEST_TSAN") == "1":
        return
    env = host_env(tmp)
    name, spool = "kl", os.path.join(tmp, "spool-kl")
    subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Test.Nobody", "--buffers",
                    "64:256", "--flush-timer", "0.1"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    procs = []

    def forwarder():
        return start_forwarder(name, server.url("kl"), ["--spool", spool, "--flush-ms", "200"],
                               env, procs)

    try:
        first = forwarder()
        w = start_writer(name, 150000, 300000, env, procs)
        time.sleep(0.8)
        first.kill()
        first.wait()
        first.stderr.close()
        # Started again at once: the killed one's spool is counted from a
        # copy afterwards. Counted first (petw info on each file), the gap
        # with no forwarder outgrew what the session keeps (256 + 64
        # buffers, a second at this rate) under ASan on a loaded machine.
        killed = spool + "-killed"
        shutil.copytree(spool, killed)
        second = forwarder()
        spooled = spooled_rows(killed)
        written = int(w.communicate(timeout=60)[0])
        stop = subprocess.run([petw, "stop", name], env=env, capture_output=True, text=True)
        _, err = second.communicate(timeout=120)
    finally:
        end_session(name, env, procs)
    if second.returncode != 0 or "events of session 'kl' forwarded" not in err or \
            "had lost" in err or "Real-time lost" in stop.stdout:
        fail("forward after a kill under load: exit %d: %s; petw stop: %s" %
             (second.returncode, err, stop.stdout))
    ids = [int(i) for i in server.query(
        "SELECT reinterpretAsUInt64(substring(data, 1, 8)) AS i FROM kl.events FINAL "
        "WHERE provider_guid = 'be0cbe0c-4444-5555-6666-000000000005' ORDER BY i").split()]
    identities = int(server.query("SELECT uniqExact(machine, trace_id, seq) FROM kl.events"))
    if len(set(ids)) != len(ids) or identities != exact(server, q, "kl"):
        fail("forward killed under load: an event landed twice (%d rows, %d events, "
             "%d identities)" % (len(ids), len(set(ids)), identities))
    have = set(ids)
    missing = [i for i in range(written) if i not in have]
    if missing or len(ids) != written:
        fail("forward killed under load: %d of %d events landed, %d lost (from %d to %d)" %
             (len(ids), written, len(missing), missing[0] if missing else -1,
              missing[-1] if missing else -1))
    if spooled == 0 or len(ids) < spooled:
        fail("forward killed under load: %d events in the killed one's spool, %d landed"
             % (spooled, len(ids)))
    # One run of the session, one trace: the events' trace_id is the one
    # the traces row of the forwarder that finished names.
    runs = server.query("SELECT DISTINCT trace_id FROM kl.events ORDER BY trace_id").split()
    listed = server.query("SELECT trace_id FROM kl.traces FINAL WHERE file = 'session:kl'").split()
    if len(runs) != 1 or listed != runs:
        fail("forward killed under load: the events carry trace_id %s, traces lists %s"
             % (runs, listed))
    print("clickhouse_export: forward killed under load: %d of %d events landed once, %d in "
          "the killed one's spool" % (len(ids), written, spooled))


def forward_killed_alone(server, q, tmp):
    """petw forward killed (SIGKILL) and none started again: the session
    keeps its buffers for the next forwarder, and when it stops with none
    having come, every one of them is counted lost for real time (petw
    stop's "Real-time lost"), never silent; so is what the queue of a
    killed forwarder held when a second one's takes its place."""
    env = host_env(tmp)
    name = "ka"
    subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Test.Nobody", "--buffers",
                    "64:256", "--flush-timer", "0.1"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    procs = []
    try:
        fw = start_forwarder(name, server.url("ka"), ["--spool", os.path.join(tmp, "spool-ka")],
                             env, procs)
        fw.kill()
        fw.wait()
        fw.stderr.close()
        w = start_writer(name, 150000, 50000, env, procs)
        written = int(w.communicate(timeout=60)[0])
        time.sleep(0.3)  # the flush timer hands the last buffers over
        stop = subprocess.run([petw, "stop", name], env=env, capture_output=True, text=True)
    finally:
        end_session(name, env, procs)
    buffers = re.search(r"Buffers written:\s+(\d+)", stop.stdout)
    lost = re.search(r"Real-time lost:\s+(\d+) buffers", stop.stdout)
    if written != 50000 or not buffers or not lost or int(buffers.group(1)) == 0 or \
            lost.group(1) != buffers.group(1):
        fail("forward killed, none after it: %d events written; petw stop: %s" %
             (written, stop.stdout))

    # Two forwarders of one session: the first killed, 50,000 events
    # written (the second spools them; the first's queue keeps its copy),
    # the second killed too: the session keeps one queue for the next
    # forwarder, the second's (empty: it acknowledged everything), and
    # counts what the first's held lost. The second's spool, sent
    # afterwards, holds every event.
    name = "k2"
    subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Test.Nobody", "--buffers",
                    "64:256", "--flush-timer", "0.1"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    procs = []
    try:
        fws = []
        for k in range(2):
            fws.append(start_forwarder(name, server.url("k2"),
                                       ["--spool", os.path.join(tmp, "spool-k2-%d" % k)], env,
                                       procs))
        fws[0].kill()
        fws[0].wait()
        w = start_writer(name, 150000, 50000, env, procs)
        written = int(w.communicate(timeout=60)[0])
        spool = os.path.join(tmp, "spool-k2-1")
        # Spooled or already sent (the forwarder sends its batches while
        # the session is idle): the rows landed are counted first, so a
        # file sent between the two counts is counted in neither.
        deadline = time.time() + 20
        while time.time() < deadline and \
                exact(server, q, "k2") + spooled_rows(spool) < written:
            time.sleep(0.2)
        fws[1].kill()
        fws[1].wait()
        time.sleep(0.3)
        stop = subprocess.run([petw, "stop", name], env=env, capture_output=True, text=True)
    finally:
        end_session(name, env, procs)
    # What the spool still holds is sent by a forwarder of the session
    # that no longer runs; with nothing left, that run says no session runs.
    left = spooled_rows(spool)
    r = subprocess.run([petw, "forward", name, "--spool", spool, "--to", "clickhouse",
                        server.url("k2")], env=env, capture_output=True, text=True)
    sent = r.returncode == 0 if left else "no session of that name runs" in r.stderr
    buffers = re.search(r"Buffers written:\s+(\d+)", stop.stdout)
    lost = re.search(r"Real-time lost:\s+(\d+) buffers", stop.stdout)
    if not sent or exact(server, q, "k2") != written or not buffers or not lost or \
            lost.group(1) != buffers.group(1):
        fail("two forwarders killed: %d of %d events landed (%d rows were left in the spool); "
             "petw stop: %s; the last forward: exit %d, %s" %
             (exact(server, q, "k2"), written, left, stop.stdout, r.returncode, r.stderr))


def payload_undecoded(server, q, tmp):
    """--payload undecoded: `data` is empty where the decoded fields hold
    the payload (kept only for events with no schema, whose one field is
    the payload itself); every event is still there."""
    etl = os.path.join(tmp, "payload.etl")
    subprocess.run([gen, etl], check=True)
    total, _ = info_counts(etl)
    sql = ("SELECT count(), countIf(length(data) > 0 AND NOT (field_names = ['data'] OR "
           "empty(field_names))) FROM %s.events FINAL")
    export(server, "pa", etl, "--no-model")
    n, decoded_with_data = [int(v) for v in server.query(sql % "pa").split()]
    if n != total or decoded_with_data == 0:
        fail("--payload all: %d rows of %d, %d decoded with their payload" %
             (n, total, decoded_with_data))
    export(server, "pu", etl, "--no-model", "--payload", "undecoded")
    n, decoded_with_data = [int(v) for v in server.query(sql % "pu").split()]
    if n != total or decoded_with_data != 0:
        fail("--payload undecoded: %d rows of %d, %d decoded with their payload" %
             (n, total, decoded_with_data))
    err = export(server, "pu", etl, "--payload", "some", expect=2)
    if "--payload takes all or undecoded" not in err:
        fail("--payload some: %r" % err)


def samples(server, q, tmp):
    """Windows' own traces, when the samples folder is there."""
    folder = os.environ.get("PETW_ETL_SAMPLES", "")
    if not os.path.isdir(folder):
        print("clickhouse_export: no PETW_ETL_SAMPLES folder: Windows traces skipped")
        return
    names = sorted(n for n in os.listdir(folder) if n.endswith(".etl"))
    for name in names:
        etl = os.path.join(folder, name)
        db = "win_" + re.sub(r"\W", "_", name[:-4])
        export(server, db, etl, "--machine", "host-a")
        total, per = info_counts(etl)
        got = {p: int(n) for m, p, n in server.rows(in_db(q_events(), db))}
        if got != per or exact_plain(server, db) != total:
            fail("%s: events per provider\n%s\npetw info\n%s" % (name, got, per))


def q_events():
    return doc_queries()["events_per_provider"]


def exact_plain(server, db):
    return int(server.query("SELECT count() FROM %s.events FINAL" % db))



def writer_ids(server, db):
    """The writer's event indexes that landed in db.events (FINAL)."""
    return [int(i) for i in server.query(
        "SELECT reinterpretAsUInt64(substring(data, 1, 8)) AS i FROM %s.events FINAL "
        "WHERE provider_guid = 'be0cbe0c-4444-5555-6666-000000000005' ORDER BY i" % db).split()]


def landed_within(server, db, want, seconds):
    """Waits up to `seconds` for `want` of the writer's rows in db.events:
    those there then."""
    deadline = time.time() + seconds
    while True:
        try:
            got = int(server.query("SELECT uniqExact(seq) FROM %s.events WHERE provider_guid = "
                                   "'be0cbe0c-4444-5555-6666-000000000005'" % db))
        except Exception:
            got = 0
        if got >= want or time.time() > deadline:
            return got
        time.sleep(0.1)


def forward_killed_unspooled(server, q, tmp):
    """petw forward WITHOUT --spool killed (SIGKILL) after it consumed every
    event the session wrote and before its batch was inserted (--flush-ms
    longer than the test), then started again: the session keeps each
    buffer until the insert carrying its rows landed, so the next run gets
    the killed one's buffers again and every event lands exactly once, sent
    while the session still runs (what arrived goes out once --flush-ms
    passed, without waiting for another buffer)."""
    if os.environ.get("PETW_TEST_TSAN") == "1":
        return
    env = host_env(tmp)
    name = "kn"
    subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Test.Nobody", "--buffers",
                    "64:256", "--buffer-size", "256", "--flush-timer", "0.1"], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    procs = []

    def forwarder(*options):
        return start_forwarder(name, server.url(name), options, env, procs)

    try:
        first = forwarder("--flush-ms", "600000")
        w = start_writer(name, 40000, 20000, env, procs)
        written = int(w.communicate(timeout=60)[0])
        # Every buffer handed over (about 15 of 256 KB: fewer than the
        # forwarder's batch holds before it sends), then taken.
        subprocess.run([petw, "flush", name], env=env, check=True, stdout=subprocess.DEVNULL)
        time.sleep(0.5)
        before = landed_within(server, name, written, 0)
        first.kill()
        first.wait()
        first.stderr.close()
        second = forwarder("--flush-ms", "200")
        during = landed_within(server, name, written, 10)
        stop = subprocess.run([petw, "stop", name], env=env, capture_output=True, text=True)
        _, err = second.communicate(timeout=60)
    finally:
        end_session(name, env, procs)
    if before >= written:
        fail("forward without --spool: %d of %d events landed before the kill (--flush-ms "
             "600000)" % (before, written))
    if second.returncode != 0 or "Real-time lost" in stop.stdout or "had lost" in err:
        fail("forward without --spool after a kill: exit %d: %s; petw stop: %s" %
             (second.returncode, err, stop.stdout))
    ids = writer_ids(server, name)
    if ids != list(range(written)) or exact(server, q, name) != len(ids):
        fail("forward without --spool killed: %d rows of %d events written (%d distinct), %d "
             "landed before the kill" % (len(ids), written, len(set(ids)), before))
    if during != written:
        fail("forward without --spool: %d of %d events landed while the session ran idle" %
             (during, written))


def forward_spool_cut(server, q, tmp):
    """A spool file whose last buffer was cut (as a forwarder killed while
    it appended that buffer leaves it; the session then gives the buffer
    again to the next forwarder): the next run sends the file's whole
    buffers, leaves the cut one out and says so, and exits 0. Here the
    cut is made after the kill, so its events are the only ones missing:
    the rest land once each."""
    if os.environ.get("PETW_TEST_TSAN") == "1":
        return
    env = host_env(tmp)
    name = "sc"
    spool = os.path.join(tmp, "spool-sc")
    subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Test.Nobody",
                    "--flush-timer", "0.1"], env=env, check=True, stdout=subprocess.DEVNULL)
    procs = []
    try:
        fw = start_forwarder(name, server.url(name), ["--spool", spool, "--flush-ms", "600000"],
                             env, procs)
        w = start_writer(name, 40000, 5000, env, procs)
        written = int(w.communicate(timeout=60)[0])
        deadline = time.time() + 20
        while time.time() < deadline and spooled_rows(spool) < written:
            time.sleep(0.1)
        fw.kill()
        fw.wait()
        fw.stderr.close()
    finally:
        end_session(name, env, procs)
    opened = [n for n in os.listdir(spool) if n.endswith(".open")]
    if len(opened) != 1:
        fail("forward --spool killed: the spool holds %s" % sorted(os.listdir(spool)))
    cut = os.path.join(spool, opened[0])
    whole = spooled_rows(spool)
    os.truncate(cut, os.path.getsize(cut) - 1000)
    # What the whole buffers left hold: the writer's events are not in id
    # order across buffers (its thread moves between CPUs), so the cut
    # buffer's are not the last ids, only the ones missing.
    kept = spooled_rows(spool)
    r = subprocess.run([petw, "forward", name, "--spool", spool, "--to", "clickhouse",
                        server.url(name)], env=env, capture_output=True, text=True)
    ids = writer_ids(server, name)
    if whole != written or not 0 < kept < written or r.returncode != 0 or \
            "its last buffer was cut" not in r.stderr or len(ids) != kept or \
            len(set(ids)) != kept or not set(ids) <= set(range(written)):
        fail("a spool whose last buffer was cut: %d of %d events spooled, %d in its whole "
             "buffers; exit %d: %s; %d events landed (%d distinct)"
             % (whole, written, kept, r.returncode, r.stderr, len(ids), len(set(ids))))


def forward_spool_idle(server, q, tmp):
    """petw forward --spool with a session gone idle: the file it appended
    the last buffers to becomes a batch once --flush-ms passed and is sent,
    without waiting for another buffer or the session's end."""
    if os.environ.get("PETW_TEST_TSAN") == "1":
        return
    env = host_env(tmp)
    name = "si"
    subprocess.run([petw, "start", name, "--realtime", "-p", "Petw.Test.Nobody",
                    "--flush-timer", "0.1"], env=env, check=True, stdout=subprocess.DEVNULL)
    procs = []
    try:
        fw = start_forwarder(name, server.url(name),
                             ["--spool", os.path.join(tmp, "spool-si"), "--flush-ms", "300"], env,
                             procs)
        w = start_writer(name, 40000, 10000, env, procs)
        written = int(w.communicate(timeout=60)[0])
        during = landed_within(server, name, written, 5)
        stop = subprocess.run([petw, "stop", name], env=env, capture_output=True, text=True)
        _, err = fw.communicate(timeout=60)
    finally:
        end_session(name, env, procs)
    if during != written or fw.returncode != 0 or writer_ids(server, name) != \
            list(range(written)):
        fail("forward --spool gone idle: %d of %d events landed while the session ran; exit "
             "%d: %s; petw stop: %s" % (during, written, fw.returncode, err, stop.stdout))


main()
