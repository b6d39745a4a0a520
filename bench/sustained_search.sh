#!/bin/sh
# SPDX-License-Identifier: MIT
# sustained_search.sh - the loss-free sustained rate to a file, searched:
# for each contender (petw with zstd, then LTTng-UST when it is there), the
# highest offered rate at which a paced run of SECONDS keeps every event and
# achieves the rate within 2%. A geometric bisection between LO and HI
# (STEPS steps, about 6% apart at the end). One JSON line per contender:
# the rate found, each trial, the clocksource and the load average when the
# search started, so a run on a busy machine says so.
# usage: bench/sustained_search.sh BENCH_DIR WORK_DIR [contenders...]
#   (contenders: petw-zstd lttng; default both; LTTng needs lttng-sessiond)
# env: LO (1000000), HI (32000000), STEPS (6), SECONDS_PER_TRIAL (1),
#      PACE (spin: each writer spins between its batches; sleep: it sleeps,
#      leaving its CPU free while it waits; the same for every contender)
set -eu
LO=${LO:-1000000}
HI=${HI:-32000000}
STEPS=${STEPS:-6}
SECS=${SECONDS_PER_TRIAL:-1}
PACE=${PACE:-spin}
export PACE
clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource \
    2>/dev/null || echo '?')

trial() { # contender rate -> one JSON line with lost, achieved
    case $1 in
    petw-zstd)
        "$B/bench_sustained" --rate "$2" --seconds "$SECS" --zstd --file "$work/search.etl" --pace "$PACE"
        ;;
    lttng)
        # A session name of this process's own: one lttng-sessiond may serve
        # other benchmark runs at the same time.
        lttng create petw-bench-search-$$ --output="$work/search-lt" >/dev/null
        lttng enable-channel --userspace --subbuf-size=1M --num-subbuf=8 --discard ch >/dev/null
        lttng enable-event --userspace --channel ch 'petw_bench:*' >/dev/null
        lttng start >/dev/null
        line=$("$B/bench_lttng" --mode sustained --rate "$2" --seconds "$SECS" --pace "$PACE")
        lttng stop >/dev/null
        lost=$(lttng --mi xml list petw-bench-search-$$ -c ch 2>/dev/null |
            sed -n 's:.*<discarded_events>\([0-9]*\)</discarded_events>.*:\1:p' | head -n 1)
        lttng destroy petw-bench-search-$$ >/dev/null
        rm -rf "$work/search-lt"
        printf '%s' "$line" | sed "s/}\$/,\"lost\":${lost:-0}}/"
        ;;
    esac
}

# One trial (the search runs this script again for each): --trial C RATE B WORK
if [ "${1:-}" = --trial ]; then
    B=$4
    work=$5
    trial "$2" "$3"
    exit 0
fi
B=$1
work=$2
shift 2
contenders=${*:-petw-zstd lttng}
for c in $contenders; do
    if [ "$c" = lttng ]; then
        [ -x "$B/bench_lttng" ] && command -v lttng >/dev/null 2>&1 || continue
    fi
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
    python3 - "$c" "$LO" "$HI" "$STEPS" "$clocksource" "$load" "$0" "$B" "$work" "$PACE" <<'PY'
import json, math, subprocess, sys
c, lo, hi, steps, clocksource, load, script, b, work, pace = sys.argv[1:11]
lo, hi, steps = float(lo), float(hi), int(steps)
trials = []
def ok(rate):
    rate = round(rate / 1e5) * 1e5  # 0.1 M/s steps
    out = subprocess.run(["sh", script, "--trial", c, str(int(rate)), b, work],
                         capture_output=True, text=True, check=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    good = r["lost"] == 0 and r["achieved"] >= 0.98 * rate
    trials.append({"rate": rate, "lost": r["lost"], "achieved": round(r["achieved"]),
                   "ok": good})
    return good
found = 0.0
if ok(lo):
    found = lo
    for _ in range(steps):
        mid = math.sqrt(lo * hi)
        if ok(mid):
            lo = found = round(mid / 1e5) * 1e5
        else:
            hi = mid
out = {"contender": c, "loss_free_search": found, "clocksource": clocksource,
       "load1": float(load), "trials": trials}
if pace != "spin":
    out["pace"] = pace
print(json.dumps(out))
PY
done
