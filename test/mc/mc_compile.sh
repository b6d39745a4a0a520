#!/bin/sh
# SPDX-License-Identifier: MIT
# mc_compile.sh INCLUDE_DIR GENERATED_DIR SOURCE...: code using headers
# `petw mc` generated, compiled by gcc and clang (each when installed) as
# C99 and C11 and by g++ and clang++ as C++11, C++14, C++17 and C++20,
# -Wall -Wextra -Werror. Syntax only.
set -eu
inc=$1
gen=$2
shift 2
status=0
ran=0
# The paths stay words of their own (a build directory's path may hold
# spaces): the flags are written out in the call, the sources are "$@".
run() { # COMPILER LANG STD SOURCE...
    cc=$1 lang=$2 std=$3
    shift 3
    command -v "$cc" >/dev/null 2>&1 || return 0
    result=ok
    for src in "$@"; do
        if ! "$cc" -x "$lang" -std="$std" -fsyntax-only -Wall -Wextra -Werror -I"$inc" \
            -I"$inc/petw/etw" -I"$inc/petw/win32" -I"$gen" -DMC_EXAMPLE_MANIFEST='"x"' \
            -DMC_TYPES_MANIFEST='"y"' -DMC_ARRAYS_MANIFEST='"z"' "$src"; then
            echo "FAILED: $cc -std=$std $src"
            status=1
            result=FAILED
        fi
    done
    echo "$cc -std=$std: $result"
    ran=$((ran + 1))
}
for cc in gcc clang; do
    for std in c99 c11; do run "$cc" c "$std" "$@"; done
done
for cxx in g++ clang++; do
    for std in c++11 c++14 c++17 c++20; do run "$cxx" c++ "$std" "$@"; done
done
[ "$ran" -gt 0 ] || { echo "no compiler found"; exit 77; }
exit $status
