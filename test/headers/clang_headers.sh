#!/bin/sh
# SPDX-License-Identifier: MIT
# clang_headers.sh CLANGXX INCLUDE_DIR STDLIB STD SOURCE...: the C++ header
# tests (generated hdr_*_before.cpp / hdr_*_after.cpp, and the usage
# sources) compiled by clang++ as STD (c++11, c++17, c++20) against STDLIB
# (libstdc++, or libc++: skipped when it is not installed, and there without
# the *_before.cpp half: libc++ names nothing __in or __out), warnings as
# errors. Syntax only. Meson runs one of these per STDLIB and STD, in
# parallel.
set -eu
cxx=$1
inc=$2
lib=$3
std=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$@" >"$tmp/list"
if [ "$lib" = libc++ ]; then
    if ! echo '#include <vector>' | "$cxx" -stdlib=libc++ -x c++ -fsyntax-only - 2>/dev/null; then
        echo "libc++ not installed"
        exit 77
    fi
    grep -v '_before\.cpp$' "$tmp/list" >"$tmp/after" || true
    mv "$tmp/after" "$tmp/list"
fi
if xargs -I{} "$cxx" -stdlib="$lib" -std="$std" -fsyntax-only -Werror -Wall -Wextra \
    -DUNICODE -D_UNICODE -I"$inc" -I"$inc/petw/etw" -I"$inc/petw/win32" {} <"$tmp/list"; then
    echo "clang++ $std $lib: $(wc -l <"$tmp/list") sources"
else
    echo "clang++ $std $lib: FAILED"
    exit 1
fi
