#!/bin/sh
# SPDX-License-Identifier: MIT
# Every installed archive is a clean guest in other people's programs: nm
# shows it defines petw_ and petw__ names only, plus, in the archives that
# exist to give them, the names of the API they emulate as their installed
# headers declare them: libpetw_etw the ETW functions (petw/etw/), libpetw_win32
# the Win32 and C runtime functions (petw/win32/),
# libpetw_wmain main alone. Anything else (a Win32 name in libpetw, a helper
# without the prefix, a main outside libpetw_wmain) fails.
# usage: install_symbols.sh BUILD_DIR
set -eu
build=$1
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --quiet --no-rebuild >/dev/null
inc=$(dirname "$(find "$dest" -path '*/petw/petw.h' | head -n 1)")
# The function names headers (on stdin) declare: NAME( at a declaration.
declared() {
    tr -s ' \t' '\n\n' | sed -n 's/^\**\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' | sort -u
}
# The headers and their chapters (etw/evntrace/*.h, win32/sal/*.h, ...).
find "$inc/etw" -name '*.h' -exec cat {} + | declared > "$dest/etw.names"
find "$inc/win32" -name '*.h' -exec cat {} + | declared > "$dest/win32.names"
echo main > "$dest/wmain.names"
: > "$dest/none.names"
status=0 count=0
for a in $(find "$dest" -name 'libpetw*.a' | sort); do
    name=$(basename "$a" .a)
    case $name in
    libpetw_etw) allowed=etw ;;
    libpetw_win32) allowed=win32 ;;
    libpetw_wmain) allowed=wmain ;;
    *) allowed=none ;;
    esac
    nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | grep -v '^petw_' | sort -u \
        > "$dest/$name.other" || true
    bad=$(comm -23 "$dest/$name.other" "$dest/$allowed.names")
    if [ -n "$bad" ]; then
        echo "$name.a defines names outside petw_ and its API:" $bad
        status=1
    fi
    count=$((count + 1))
done
[ "$count" -ge 2 ] || { echo "only $count archives installed"; exit 1; }
[ "$status" -eq 0 ] && echo "install symbols: $count archives, petw_ names and their APIs only"
exit $status
