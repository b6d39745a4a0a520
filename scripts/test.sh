#!/bin/sh
# Builds petw and passes the whole test suite: the plain build, then the
# same suite under ASan+UBSan and under TSan (separate build directories).
# Usage: scripts/test.sh [plain|asan|tsan]...   (default: all three)
set -eu
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
variants=${*:-plain asan tsan}
summary=""
for v in $variants; do
    case $v in
    plain) dir=build-test; opts="" ;;
    asan) dir=build-asan; opts="-Db_sanitize=address,undefined -Db_lundef=false" ;;
    tsan) dir=build-tsan; opts="-Db_sanitize=thread -Db_lundef=false" ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
    esac
    if [ ! -d "$dir" ]; then
        if [ "$v" = plain ]; then
            meson setup "$dir" $opts
        else
            CC=clang CXX=clang++ meson setup "$dir" $opts
        fi
    fi
    ninja -C "$dir"
    echo "== $v"
    # TSan needs an address space layout it recognizes; tame ASLR if allowed.
    if [ "$v" = tsan ] && command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R true 2>/dev/null; then
        setarch "$(uname -m)" -R meson test -C "$dir" --print-errorlogs --num-processes 2
    else
        meson test -C "$dir" --print-errorlogs --num-processes 2
    fi
    summary="$summary $dir/meson-logs/testlog.json"
done
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
