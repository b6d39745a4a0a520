#!/bin/sh
# SPDX-License-Identifier: MIT
# cross/test-windows.sh - the Windows build, tested under Wine, from a fresh
# checkout on Debian 12:
#   1. installs mingw-w64, Wine and the build tools (Debian packages);
#   2. builds libuv, zstd and xxHash for mingw from Debian's source packages
#      (cross/build-deps.sh, cached in build-win/deps);
#   3. cross-builds petw, the petw tool, the examples and the tests, and runs
#      the suite under Wine (tests that cannot run there are listed with the
#      reason in test/meson.build);
#   4. installs the Windows build into build-win/prefix;
#   5. compiles ETW code written as Microsoft documents it (the examples)
#      with mingw-w64 against build-win/prefix's petw-etw.pc, runs it under
#      Wine, and checks the trace it wrote with the independent reader;
#   6. builds the same code with PETW_USE_NATIVE_ETW (the operating system's
#      own ETW), which needs Windows to run.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/setup-debian.sh mingw-w64 wine wine64 cmake dpkg-dev
deps="$root/build-win/deps"
cross/build-deps.sh "$deps"
# Only the Windows builds' .pc files: a caller's PKG_CONFIG_PATH (say, a
# Linux petw install) would be searched first and its petw.pc linked in.
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
export PKG_CONFIG_LIBDIR="$deps/lib/pkgconfig"
export WINEDEBUG=-all
build=build-win/build
if [ ! -d "$build" ]; then
    meson setup "$build" --cross-file cross/mingw-w64.ini -Dbuildtype=debugoptimized \
        -Dpkg_config_path="$PKG_CONFIG_LIBDIR" --wrap-mode=nodownload \
        --prefix="$root/build-win/prefix" >/dev/null
fi
meson configure "$build" -Dprefix="$root/build-win/prefix" >/dev/null
t0=$(date +%s)
# The library, the tools and the examples; `meson test` below builds the
# tests it runs.
ninja -C "$build"
t1=$(date +%s)

# A warm Wine for the whole run: the prefix is booted before the first test
# (on a fresh machine that creates it, inside no test's timeout), and
# wineserver is kept running (it exits 3 s after its last client, and each
# restart boots the prefix's services again while tests start).
wineserver -p || true # refused (2) when a server already runs: that one serves
wineboot -u >/dev/null 2>&1 || true
trap 'wineserver -k 2>/dev/null || true' EXIT

# Under Wine, run each failing test once more before calling it a failure
# (Wine's own start-up is timing-sensitive on a loaded 2-CPU machine); a test
# that fails twice fails the run. Every suite (--setup full: the header matrix
# too); the timeouts are a plain Linux build's, and Wine starts each process
# in about a second, hence the multiplier.
rm -f "$build/meson-logs/testlog-first.json"
if ! meson test -C "$build" --setup full --num-processes 2 --timeout-multiplier 10 --print-errorlogs; then
    failed=$(python3 -c "
import json
for l in open('$build/meson-logs/testlog-full.json'):
    r = json.loads(l)
    if r['result'] not in ('OK', 'SKIP', 'EXPECTEDFAIL'):
        print(r['name'])")
    echo "retrying under Wine: $failed"
    cp "$build/meson-logs/testlog-full.json" "$build/meson-logs/testlog-first.json"
    # shellcheck disable=SC2086
    meson test -C "$build" --setup full --timeout-multiplier 10 --print-errorlogs $failed
fi

t2=$(date +%s)
echo "== windows: build $((t1 - t0)) s, tests $((t2 - t1)) s"
meson install -C "$build" --quiet >/dev/null
prefix="$root/build-win/prefix"
[ -f "$prefix/lib/pkgconfig/petw-etw.pc" ]

# ETW code as Microsoft documents it, against the installed Windows petw.
export PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig:$deps/lib/pkgconfig"
work=$(mktemp -d)
trap 'rm -rf "$work"; wineserver -k 2>/dev/null || true' EXIT
cc=x86_64-w64-mingw32-gcc
flags="-DUNICODE -D_UNICODE $(pkg-config --cflags petw-etw)"
libs=$(pkg-config --static --libs petw-etw)
# shellcheck disable=SC2086
$cc $flags -o "$work/record_trace.exe" examples/record_trace.c examples/example_provider.c $libs
# shellcheck disable=SC2086
$cc $flags -o "$work/print_trace.exe" examples/print_trace.c $libs
(cd "$work" && wine ./record_trace.exe trace.etl 40 >/dev/null && wine ./print_trace.exe trace.etl > out.txt)
tr -d '\r' < "$work/out.txt" | grep -q "^53 events" || { cat "$work/out.txt"; exit 1; }
# The file Windows' petw wrote, read by the independent (Python) reader.
records=$(python3 test/format/etl_independent.py "$work/trace.etl" | wc -l)
[ "$records" -eq 53 ] || { echo "independent reader saw $records records"; exit 1; }
echo "windows: ETW example recorded 53 records under Wine; the independent reader agrees"

# The same code on the operating system's ETW (build only: it needs Windows).
# shellcheck disable=SC2086
$cc -DUNICODE -D_UNICODE -DINITGUID -DPETW_USE_NATIVE_ETW -I include/petw/etw -o "$work/native.exe" \
    examples/record_trace.c examples/example_provider.c -ladvapi32
echo "windows: PETW_USE_NATIVE_ETW build of the same example links against advapi32"
# The summary: the full run, with retried tests counted by their retry.
python3 - "$build/meson-logs/testlog-first.json" "$build/meson-logs/testlog-full.json" <<'PY'
import json, os, sys
results = {}
retried = 0
for i, path in enumerate(sys.argv[1:]):
    if not os.path.exists(path):
        continue
    for line in open(path):
        t = json.loads(line)
        retried += i == 1 and os.path.exists(sys.argv[1])
        results[t["name"]] = t["result"]
ok = bad = skip = 0
for r in results.values():
    if r in ("OK", "EXPECTEDFAIL"):
        ok += 1
    elif r == "SKIP":
        skip += 1
    else:
        bad += 1
print("windows: %d passed, %d failed, %d skipped (%d run twice)" % (ok, bad, skip, retried))
PY
