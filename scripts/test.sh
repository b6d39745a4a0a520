#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds petw and passes the whole test suite: the plain build with every
# suite (the header matrix and the style check too), then the same suite
# under ASan+UBSan and under TSan (separate build directories) without the
# header matrix and the style check, which check sources, not behaviour.
# Then the libFuzzer targets share FUZZ_TOTAL_SECONDS (default 480) on their
# seeds, each an equal part (FUZZ_SECONDS, when set, is each one's time).
# Each phase says what it took ("== plain: build 95 s, tests 610 s").
# Usage: scripts/test.sh [plain|asan|tsan|fuzz]...   (default: all four)
set -eu
cd "$(dirname "$0")/.."
started=$(date +%s)
# chromium: the Chrome-trace export and the flame graph are also checked in a
# browser; golang-go, linux-perf, binutils: the analysis tests compare petw's
# views with `go tool pprof` and `perf report`, and build-ids with readelf;
# groff-base: the manual pages are checked with groff -ww;
# clang-tools-14, lld-14, llvm-14, llvm-16: the PDB tests build Windows images
# (clang-cl-14, lld-link-14) and compare petw's frames with llvm-symbolizer's
# and its undecorated public names with llvm-undname's (llvm-pdbutil lists them);
# gcab: the symbol server test writes a compressed .pd_ (a cabinet);
# clickhouse-server, clickhouse-client: the clickhouse suite loads traces
# into a server of its own (`petw export --to clickhouse`);
# strace: analysis_file compares `petw report file` with strace -f's logs of
# the same run; protobuf-compiler: the Perfetto exports are decoded by protoc
# with Perfetto's message layout (test/common/perfetto_trace.proto).
scripts/setup-debian.sh chromium golang-go linux-perf binutils groff-base clang-tools-14 \
    lld-14 llvm-14 llvm-16 gcab clickhouse-server clickhouse-client strace protobuf-compiler
# Public Windows traces (PerfView's and others' test inputs) for the compat
# test public_traces: fetched once when the network allows; without them
# that test is skipped.
if [ -z "${PETW_PUBLIC_TRACES:-}" ]; then
    if [ -f build-traces/.complete ] ||
        { mkdir -p build-traces &&
            timeout 300 scripts/fetch-public-traces.sh build-traces >build-traces/fetch.log 2>&1 &&
            touch build-traces/.complete; }; then
        PETW_PUBLIC_TRACES=$(pwd)/build-traces
        export PETW_PUBLIC_TRACES
    else
        echo "public traces not fetched (see build-traces/fetch.log): public_traces will be skipped"
    fi
fi
variants=${*:-plain asan tsan fuzz}
summary=""
timings=""
echo "== setup: $(($(date +%s) - started)) s"
for v in $variants; do
    case $v in
    # The timeouts are what a plain build needs (5 times its time): a
    # sanitized build gets a multiple of them.
    plain) dir=build-test; opts=""; slow=1 ;;
    asan) dir=build-asan; opts="-Db_sanitize=address,undefined -Db_lundef=false"; slow=3 ;;
    tsan) dir=build-tsan; opts="-Db_sanitize=thread -Db_lundef=false"; slow=10 ;;
    fuzz) dir=build-fuzz; opts="-Dfuzz=true -Dtests=true -Db_sanitize=address,undefined -Db_lundef=false"; slow=3 ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
    esac
    if [ ! -d "$dir" ]; then
        if [ "$v" = plain ]; then
            meson setup "$dir" $opts
        else
            CC=clang CXX=clang++ meson setup "$dir" $opts
        fi
    fi
    t0=$(date +%s)
    # A plain `ninja` builds the library, the tools and the examples (on
    # Meson before 1.7 too: scripts/meson_plain_build.py); `meson test`
    # builds the tests it runs. The fuzz build needs its libFuzzer targets
    # and their seeds alone.
    if [ "$v" = fuzz ]; then
        ninja -C "$dir" fuzzers
    else
        ninja -C "$dir"
    fi
    t1=$(date +%s)
    echo "== $v"
    if [ "$v" = fuzz ]; then
        targets=""
        for target in "$dir"/test/fuzz/fuzz_*; do
            case $target in *_replay|*.p) continue ;; esac
            [ -f "$target" ] && [ -x "$target" ] || continue
            targets="$targets $target"
        done
        [ -n "$targets" ] || { echo "no fuzz targets in $dir/test/fuzz" >&2; exit 1; }
        # One budget for all targets: each gets an equal share (at least
        # 10 s), unless FUZZ_SECONDS sets each one's time.
        # shellcheck disable=SC2086
        count=$(echo $targets | wc -w)
        if [ -n "${FUZZ_SECONDS:-}" ]; then
            seconds=$FUZZ_SECONDS
        else
            seconds=$((${FUZZ_TOTAL_SECONDS:-480} / count))
            [ "$seconds" -ge 10 ] || seconds=10
        fi
        for target in $targets; do
            name=$(basename "$target")
            corpus="$dir/corpus-$name"
            mkdir -p "$corpus"
            echo "-- $name for $seconds s"
            status=0
            # Inputs that once failed are kept under test/fuzz/regressions/ and
            # replayed with the seeds (libFuzzer writes only to the first folder).
            regressions=test/fuzz/regressions/$name
            [ -d "$regressions" ] || regressions=
            # A streaming reader needs little: 512 MB and 5 s per input are hard
            # limits (ASan's quarantine kept small so RSS is the reader's).
            # shellcheck disable=SC2086
            UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=quarantine_size_mb=16 \
                "$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=512 \
                -malloc_limit_mb=64 -print_final_stats=1 -artifact_prefix="$dir/" \
                "$corpus" "$dir/test/fuzz/seeds" $regressions > "$dir/$name.log" 2>&1 || status=$?
            grep -E "^(Done|stat::number_of_executed_units)" "$dir/$name.log" || true
            if [ "$status" -ne 0 ]; then
                tail -n 40 "$dir/$name.log"
                echo "fuzz target $name failed (status $status); inputs: $(ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* 2>/dev/null)"
                exit 1
            fi
        done
        t2=$(date +%s)
        timings="$timings
== $v: build $((t1 - t0)) s, fuzzing $((t2 - t1)) s"
        echo "== $v: build $((t1 - t0)) s, fuzzing $((t2 - t1)) s"
        continue
    fi
    # Two tests at a time. The plain build runs every suite, the long ones
    # too (--setup full: the header matrix, the style check); the sanitized
    # builds run the default setup, every suite but those two.
    if [ "$v" = plain ]; then
        setup="--setup full"
        log=testlog-full.json
    else
        setup=""
        log=testlog.json
    fi
    run="meson test -C $dir $setup --print-errorlogs --num-processes 2 --timeout-multiplier $slow"
    # TSan needs an address space layout it recognizes; tame ASLR if allowed.
    if [ "$v" = tsan ] && command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R true 2>/dev/null; then
        # shellcheck disable=SC2086
        setarch "$(uname -m)" -R $run
    else
        $run
    fi
    summary="$summary $dir/meson-logs/$log"
    t2=$(date +%s)
    timings="$timings
== $v: build $((t1 - t0)) s, tests $((t2 - t1)) s"
    echo "== $v: build $((t1 - t0)) s, tests $((t2 - t1)) s"
done
echo "$timings
== total: $(($(date +%s) - started)) s"
# One closing line over every variant: "N passed, N failed, N skipped".
python3 - $summary <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line).get("result", "")
        if r in ("OK", "EXPECTEDFAIL"):
            counts["OK"] += 1
        elif r == "SKIP":
            counts["SKIP"] += 1
        else:
            counts["FAIL"] += 1
print("%d passed, %d failed, %d skipped" % (counts["OK"], counts["FAIL"], counts["SKIP"]))
sys.exit(1 if counts["FAIL"] else 0)
PY
