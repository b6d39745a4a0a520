#!/bin/sh
# clang_headers.sh CLANGXX INCLUDE_DIR SOURCE...: the C++ header tests
# (generated hdr_*_before.cpp / hdr_*_after.cpp, and the usage sources)
# compiled by clang++ as C++11, C++17 and C++20, warnings as errors, against
# libstdc++, and against libc++ when it is installed (there without the
# *_before.cpp half: libc++ names nothing __in or __out). Syntax only.
set -eu
cxx=$1
inc=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$@" >"$tmp/all"
grep -v '_before\.cpp$' "$tmp/all" >"$tmp/after" || true
libs=libstdc++
if echo '#include <vector>' | "$cxx" -stdlib=libc++ -x c++ -fsyntax-only - 2>/dev/null; then
    libs="$libs libc++"
else
    echo "libc++ not installed: libstdc++ only"
fi
status=0
for lib in $libs; do
    list="$tmp/all"
    [ "$lib" = libc++ ] && list="$tmp/after"
    for std in c++11 c++17 c++20; do
        if xargs -P 2 -I{} "$cxx" -stdlib="$lib" -std="$std" -fsyntax-only -Werror -Wall -Wextra \
            -DUNICODE -D_UNICODE -I"$inc" -I"$inc/petw/etw" -I"$inc/petw/win32" {} <"$list"; then
            echo "clang++ $std $lib: $(wc -l <"$list") sources"
        else
            echo "clang++ $std $lib: FAILED"
            status=1
        fi
    done
done
exit $status
