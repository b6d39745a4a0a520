#!/bin/sh
# Builds petw and passes the whole test suite: the plain build, then the
# same suite under ASan+UBSan and under TSan (separate build directories).
# Usage: scripts/test.sh [plain|asan|tsan]...   (default: all three)
set -eu
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
variants=${*:-plain asan tsan}
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
done
