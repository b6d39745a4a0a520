#!/bin/sh
# SPDX-License-Identifier: MIT
# kernel_logger_sample.sh PYTHON KERNEL_LOGGER KERNEL_CHILD PETW: the NT
# Kernel Logger started as Microsoft's documentation starts it
# (compat/kernel_logger.c: process, thread, image-load and context-switch
# events to kernel.etl, a key to stop) records a process started while it
# runs (kernel_child, which starts a second thread): `petw dump` shows the
# child's Process Start and End, named after its executable, with this
# script as the parent; the second thread's Thread Start and End; the Image
# Load of its executable; and context switches to or from its threads. The
# sample runs on a terminal, as it would be (_getch waits for the key; its
# prompt shows when it waits). Skips (77) when StartTrace says
# ERROR_NOT_SUPPORTED (50) or ERROR_ACCESS_DENIED (5): no kernel events on
# this system, or no permission for them.
set -eu
py=$1 sample=$2 child=$3 petw=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

"$py" - "$sample" "$child" "$petw" <<'PY'
import atexit, json, os, pty, re, select, subprocess, sys, time

sample, child, petw = sys.argv[1:4]
master, slave = pty.openpty()
logger = subprocess.Popen([sample], stdin=slave, stdout=slave, stderr=slave)
os.close(slave)


def stop_logger():
    """A failed check must not leave the session running: the key, then a kill."""
    if logger.poll() is None:
        try:
            os.write(master, b"\n")
            logger.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            logger.kill()


atexit.register(stop_logger)
out = b""


def read_until(done, seconds):
    """Reads the sample's terminal until done(output) or the time is up."""
    global out
    end = time.monotonic() + seconds
    while not done(out):
        left = end - time.monotonic()
        if left <= 0 or not select.select([master], [], [], left)[0]:
            return False
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the sample has exited
            chunk = b""
        if not chunk:
            return done(out)
        out += chunk
    return True


started = read_until(lambda o: b"Press any key" in o or b"failed with" in o
                     or b"already in use" in o, 60)
failed = re.search(rb"failed with (\d+)", out)
if failed and int(failed.group(1)) in (5, 50):
    logger.wait(30)
    print("kernel_logger_sample: skipped, StartTrace returned %s (%s)" % (
        failed.group(1).decode(), "not permitted" if failed.group(1) == b"5" else "not supported"))
    sys.exit(77)
assert started and b"Press any key" in out, out

run = subprocess.Popen([child], stdout=subprocess.PIPE)
child_out = run.communicate(timeout=60)[0].decode()
assert run.returncode == 0, (run.returncode, child_out)
pid = run.pid
tid = int(re.search(r"thread (\d+)", child_out).group(1))
name = os.path.basename(child)

os.write(master, b"\n")  # the key
read_until(lambda o: b"stopped." in o or b"failed with" in o, 60)
logger.wait(60)
assert b"The session stopped." in out and b"failed" not in out, out
os.close(master)

dump = subprocess.run([petw, "dump", "kernel.etl", "--format", "json"], check=True,
                      stdout=subprocess.PIPE).stdout.decode()
events = [json.loads(l) for l in dump.splitlines() if l.strip()]


def of(provider, event, **fields):
    return [e for e in events if e["provider"] == provider and e["event"] == event
            and all(e.get("fields", {}).get(k) == v for k, v in fields.items())]


def base_name(path):
    return re.split(r"[/\\]", path)[-1]


# Linux starts a process (fork) and then its program (exec); Windows has no
# exec, so the second is another Start with the same ProcessId: the last
# Start names the program. Every Start names this script as the parent.
starts = of("Process", "Start", ProcessId=pid)
ends = of("Process", "End", ProcessId=pid)
assert starts and len(ends) == 1, (starts, ends)
assert starts[-1]["fields"]["ImageFileName"] == name, starts
for e in starts + ends:
    assert e["fields"]["ParentId"] == os.getpid(), e
assert ends[0]["fields"]["ImageFileName"] == name, ends
assert of("Thread", "Start", ProcessId=pid, TThreadId=tid), "no Thread Start for %d" % tid
assert of("Thread", "End", ProcessId=pid, TThreadId=tid), "no Thread End for %d" % tid
loads = [e for e in of("Image", "Load", ProcessId=pid)
         if base_name(e["fields"]["FileName"]) == name]
assert loads, "no Image Load of %s in %d" % (name, pid)
threads = {pid, tid}
switches = [e for e in of("Thread", "CSwitch")
            if e["fields"]["NewThreadId"] in threads or e["fields"]["OldThreadId"] in threads]
assert switches, "no context switch of %s" % sorted(threads)
print("kernel_logger_sample: process %d (%s) started and ended, thread %d started "
      "and ended, %d image load(s) of it, %d context switches of its threads, in %d events"
      % (pid, name, tid, len(loads), len(switches), len(events)))
PY
