#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/run.sh - every benchmark side by side: petw, LTTng-UST and the
# physical baseline, alternated round by round so machine drift hits all of
# them; then medians, ratios, plots and docs/benchmarks.md.
#
# usage: bench/run.sh            (ROUNDS=3 by default; ROUNDS=5 bench/run.sh)
#        PARTS="write perfetto" bench/run.sh
#            only those steps (of: write, sustained, consumers, readers,
#            analysis, perfetto, clickhouse; see the numbers below), merged into the last
#            run's bench/results/raw.jsonl: each kind of figure they measure
#            replaces the earlier run's, the rest is kept, and the report says
#            which figures are newer
# Installs what it needs (Debian packages), builds in build-bench/, starts
# lttng-sessiond if none runs, writes bench/results/ and docs/benchmarks.md.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
# Producer runs per round, in one process each (their median): the first
# run in a process pays its warm-up, which a single run would measure.
REPS=${REPS:-5}
EVENTS=${EVENTS:-200000}
RATES=${RATES:-"1000000 2000000 4000000 6000000 8000000 12000000"}
PARTS=${PARTS:-all}
for p in $PARTS; do
    case $p in all | write | sustained | consumers | readers | analysis | perfetto | clickhouse | io) ;;
    *) echo "PARTS: all, or some of: write sustained consumers readers analysis perfetto clickhouse io" >&2; exit 2 ;;
    esac
done
want() { # step name -> true when this run measures it
    case " $PARTS " in *" all "* | *" $1 "*) return 0 ;; esac
    return 1
}

scripts/setup-debian.sh lttng-tools liblttng-ust-dev babeltrace2 gnuplot-nox mingw-w64 \
    clickhouse-server clickhouse-client
# A release build (-O3), as the write-path targets are stated for; an older
# build-bench/ is switched over.
if [ -d build-bench ]; then
    meson configure build-bench -Dbuildtype=release >/dev/null
else
    meson setup build-bench --buildtype=release -Dtests=false >/dev/null
fi
ninja -C build-bench all benchmarks >/dev/null
B=build-bench/bench
out=bench/results
mkdir -p "$out"
raw="$out/raw.jsonl"
work=$(mktemp -d)
if ! want all; then
    [ -s "$raw" ] || { echo "PARTS needs an earlier run's $raw" >&2; exit 2; }
    cp "$raw" "$work/earlier.jsonl"
    # Where the kept figures come from: the earlier report's own note when it
    # was partial too, else its machine.
    earlier=$(sed -n 's/^- Partial run: \(.*\)\.$/as that report said: \1/p' docs/benchmarks.md | head -n 1)
    [ -n "$earlier" ] || earlier="the earlier full run's, on: $(sed -n 's/^- Machine: //p' docs/benchmarks.md | head -n 1)"
fi
: > "$raw"
# LTTng's session, named for this run: lttng-sessiond is shared by whoever
# runs benchmarks on the machine, and another run's session is not ours.
lt_session="petw-bench-$$"
trap 'lttng destroy "$lt_session" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

have_lttng=0
if [ -x "$B/bench_lttng" ] && command -v lttng >/dev/null 2>&1; then
    pgrep -x lttng-sessiond >/dev/null 2>&1 || lttng-sessiond --daemonize --no-kernel
    have_lttng=1
fi

# Native ETW harness: cross-compiled for Windows (run it there).
native=no
if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 &&
    x86_64-w64-mingw32-gcc -O2 -o "$out/bench_etw_native.exe" bench/bench_etw_native.c -ladvapi32; then
    native=yes
fi

emit() { # round, JSON object -> one line with the round added
    printf '%s\n' "$2" | sed "s/^{/{\"round\":$1,/" >> "$raw"
}

lttng_start() { # output dir, [discard (default) | overwrite]
    lttng create "$lt_session" --output="$1" >/dev/null
    lttng enable-channel --userspace --subbuf-size=1M --num-subbuf=8 --"${2:-discard}" ch >/dev/null
    lttng enable-event --userspace --channel ch 'petw_bench:*' >/dev/null
    lttng start >/dev/null
}
lttng_discarded() {
    lttng --mi xml list "$lt_session" -c ch 2>/dev/null |
        sed -n 's:.*<discarded_events>\([0-9]*\)</discarded_events>.*:\1:p' | head -n 1
}
lttng_stop() {
    lttng stop >/dev/null
}
lttng_destroy() {
    lttng destroy "$lt_session" >/dev/null
}

for r in $(seq 1 "$ROUNDS"); do
    echo "round $r of $ROUNDS"
    if want write; then
        # 1. Producers: petw and the baseline (alternated inside), then LTTng.
        # (it starts its shared session's host in a private PETW_RUNTIME_DIR of its own)
        "$B/bench_eventwrite" --reps "$REPS" --round "$r" --events "$EVENTS" --jsonl | while read -r l; do emit "$r" "$l"; done
        if [ $have_lttng = 1 ]; then
            emit "$r" "$("$B/bench_lttng" --mode throughput --reps "$REPS" --events "$EVENTS" --label lttng-disabled)"
            # Flight-recorder mode (its overwrite channel), as petw-memory's
            # buffering session: the producers' peer.
            lttng_start "$work/lt" overwrite
            emit "$r" "$("$B/bench_lttng" --mode throughput --reps "$REPS" --events "$EVENTS")"
            emit "$r" "$("$B/bench_lttng" --mode throughput --reps "$REPS" --threads 2 --events "$EVENTS")"
            emit "$r" "$("$B/bench_lttng" --mode latency --events 1000000)"
            lttng_stop
            lttng_destroy
            rm -rf "$work/lt"
        fi
        # Where an EventWrite's time goes: the baseline grown step by step.
        "$B/bench_floor" --reps "$REPS" | while read -r l; do emit "$r" "$l"; done
        # Instructions per event under callgrind, which no load changes (once:
        # they are the same every round).
        if [ "$r" = 1 ] && command -v valgrind >/dev/null 2>&1; then
            valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$B/bench_instr" \
                --events 20000 --fake-rseq >/dev/null 2>&1 &&
                callgrind_annotate --inclusive=yes "$work/cg.out" | python3 -c '
import re, sys
names = {"do_floor": "floor-eventwrite", "do_eventwrite": "petw-eventwrite",
         "do_tracelogging": "petw-tracelogging"}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) .*:(do_\w+) ", line)
    if m and m.group(2) in names:
        print("{\"contender\":\"instr-%s\",\"instructions_per_event\":%.1f}"
              % (names[m.group(2)], int(m.group(1).replace(",", "")) / 20000))' |
                while read -r l; do emit "$r" "$l"; done
            rm -f "$work/cg.out"
        fi
        # StartTrace would make its memory session a shared one (host process, the
        # user's runtime directory); this measures the in-process call.
        PETW_INPROC_SESSIONS=1 "$B/bench_latency" --events 1000000 | while read -r l; do emit "$r" "$l"; done
    fi
    if want sustained; then
        # 2. Sustained recording at paced rates, alternating contenders per rate.
        for rate in $RATES; do
            emit "$r" "$("$B/bench_sustained" --rate "$rate" --seconds 1 --zstd --file "$work/s.etl")"
            emit "$r" "$("$B/bench_sustained" --rate "$rate" --seconds 1 --file "$work/s.etl")"
            if [ $have_lttng = 1 ]; then
                lttng_start "$work/lt"
                line=$("$B/bench_lttng" --mode sustained --rate "$rate" --seconds 1)
                lttng_stop
                lost=$(lttng_discarded)
                lttng_destroy
                bytes=$(du -sb "$work/lt" | cut -f1)
                rm -rf "$work/lt"
                written=$(printf '%s' "$line" | sed 's/.*"written":\([0-9]*\).*/\1/')
                kept=$((written - ${lost:-0}))
                emit "$r" "$(printf '%s' "$line" | sed "s/}\$/,\"lost\":${lost:-0},\"loss_pct\":$(python3 -c "print(100.0*${lost:-0}/$written)"),\"file_bytes\":$bytes,\"bytes_per_event\":$(python3 -c "print($bytes/max($kept,1))")}/")"
            fi
        done
        # The loss-free rate searched (petw with zstd, then LTTng-UST), with the
        # clocksource and load average of each search.
        bench/sustained_search.sh "$B" "$work" petw-zstd $([ $have_lttng = 1 ] && echo lttng) |
            while read -r l; do emit "$r" "$l"; done
        # The same search with writers that sleep between their batches (an
        # application that is not 100% busy leaves its CPU to the others).
        PACE=sleep bench/sustained_search.sh "$B" "$work" petw-zstd $([ $have_lttng = 1 ] && echo lttng) |
            while read -r l; do emit "$r" "$l"; done
        # The background's floor, right after: bench_sustained's buffers
        # (recorded without compression) zstd-compressed and written by one
        # thread on one CPU while another CPU fills them; the most events/s
        # one CPU's compression keeps up with, against the searched rates.
        "$B/bench_sustained" --rate 2000000 --seconds 1 --keep --file "$work/plain.etl" >/dev/null
        emit "$r" "$("$B/bench_floor_flush" --input "$work/plain.etl" --out "$work/ff.bin" --pin)"
        rm -f "$work/plain.etl"
        # The largest burst each mode keeps without a loss, on both transports.
        "$B/bench_burst" | while read -r l; do emit "$r" "$l"; done
        # Kernel events (the system provider; a "skipped" line without perf events).
        if [ -x "$B/bench_kernel" ]; then
            "$B/bench_kernel" --reps 3 --file "$work/k.etl" | while read -r l; do emit "$r" "$l"; done
        fi
    fi
    if want consumers; then
        # 3. Consumers: ProcessTrace on a compressed file, and petw dump --format json.
        emit "$r" "$("$B/bench_consume" --events 2000000 --file "$work/c.etl" --keep)"
        t0=$(date +%s.%N)
        build-bench/tools/petw dump --format json "$work/c.etl" > /dev/null
        t1=$(date +%s.%N)
        emit "$r" "{\"contender\":\"petw-dump-json\",\"events\":2000001,\"seconds\":$(python3 -c "print($t1-$t0)"),\"events_per_s\":$(python3 -c "print(2000001/($t1-$t0))")}"
        # The same file decoded by name and field (its instrumentation manifest).
        t0=$(date +%s.%N)
        build-bench/tools/petw dump --format json --manifest bench/bench_payload.man "$work/c.etl" > /dev/null
        t1=$(date +%s.%N)
        emit "$r" "{\"contender\":\"petw-dump-json-manifest\",\"events\":2000001,\"seconds\":$(python3 -c "print($t1-$t0)"),\"events_per_s\":$(python3 -c "print(2000001/($t1-$t0))")}"
        rm -f "$work/c.etl"
    fi
    if want readers; then
        # 4. Reader memory on a 2 GB trace (uncompressed, 15 M events): ProcessTrace, petw info
        #    and petw dump must stream (peak RSS, kB).
        emit "$r" "$("$B/bench_consume" --events 15000000 --plain --reps 1 --file "$work/big.etl" --keep)"
        for cmd in info dump; do
            rss=$(python3 -c 'import resource, subprocess, sys
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' build-bench/tools/petw "$cmd" \
                $([ "$cmd" = dump ] && echo --format json) "$work/big.etl")
            emit "$r" "{\"contender\":\"petw-$cmd-big\",\"peak_rss_kb\":$rss}"
        done
        rm -f "$work/big.etl"
    fi
    if want analysis; then
        # 5. The analysis tools: a 60 s profile reported with symbols, and every
        #    view and export over a 2 GB profile (both made once, kept for the rounds).
        python3 bench/bench_report.py build-bench/tools/petw "$B/bench_gen_profile" \
            "$B/report_workload" "$B/peak_rss" "$work/report" --reps "$REPS" | while read -r l; do emit "$r" "$l"; done
    fi
    if want io; then
        # 7. Recording file I/O (root: BPF): an I/O-heavy workload untraced,
        #    under petw record --kernel file and under perf record of the
        #    same syscall tracepoints, interleaved.
        python3 bench/bench_io_overhead.py build-bench/tools/petw "$B/io_workload" --runs "$REPS" \
            --jsonl | grep '^{' | while read -r l; do emit "$r" "$l"; done
    fi
    if want perfetto; then
        # 6. petw convert --to perfetto on a 2 GB trace of a kernel mix: events/s and peak RSS.
        emit "$r" "$("$B/bench_perfetto" --petw build-bench/tools/petw --events 16000000 \
            --file "$work/pf.etl" 2>/dev/null)"
    fi

done

if want clickhouse; then
    # 7. ClickHouse (docs/clickhouse.md), once, after the rounds: petw export
    #    beside clickhouse-client loading petw's JSON dump of the same 100 MB
    #    trace, ROUNDS runs of each interleaved in a server of the
    #    benchmark's own; then petw forward of a session written at 1 M
    #    events/s into it.
    PETW_BENCH_REPS="$ROUNDS" python3 bench/bench_clickhouse.py build-bench/tools/petw \
        "$B/bench_gen_profile" 100 "$B/bench_forward_writer" --jsonl | while read -r l; do emit 0 "$l"; done
fi

if ! want all; then
    # The earlier run's lines of every kind of figure this run did not
    # measure (a kind: the contender, whether it ran at a paced rate, was a
    # loss-free search or ran in a mode, as LTTng's producers, its sustained
    # runs and its search share a name, and how its writer paced).
    python3 - "$work/earlier.jsonl" "$raw" <<'PY'
import json, sys
earlier, raw = sys.argv[1:3]
def kind(line):
    r = json.loads(line)
    return (r.get("contender"), "rate" in r, "loss_free_search" in r, r.get("mode"),
            r.get("pace"))
new = [l for l in open(raw) if l.strip()]
fresh = {kind(l) for l in new}
kept = [l for l in open(earlier) if l.strip() and kind(l) not in fresh]
open(raw, "w").writelines(kept + new)
PY
    export PETW_BENCH_PARTIAL="$PARTS re-measured on $(date -u +%Y-%m-%d) (PARTS=\"$PARTS\"); every other figure is ${earlier}"
fi
machine="$(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(uname -sr), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?'); petw built as meson's release (-O3) by $(cc --version | head -n 1)"
lttng_version=$(pkg-config --modversion lttng-ust 2>/dev/null || echo none)
python3 bench/report.py "$raw" "$out/results.json" docs/benchmarks.md docs \
    "$machine" "$lttng_version" "$native" "$ROUNDS" "$EVENTS"
echo "wrote $out/results.json, docs/benchmarks.md and docs/bench-*.png"
