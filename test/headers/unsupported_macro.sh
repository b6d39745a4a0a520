#!/bin/sh
# SPDX-License-Identifier: MIT
# unsupported_macro.sh INCLUDE_DIR COMPILER...: a TraceLogging macro petw
# does not provide fails to compile, in C and in C++, with an error that
# names it (not an error about petw's internals). Syntax only.
set -eu
inc=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/u.c" <<'SRC'
#include <TraceLoggingProvider.h>
TRACELOGGING_DEFINE_PROVIDER(g_p, "Contoso.Unsupported",
                             (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
void f(void);
void f(void)
{
    TraceLoggingWrite(g_p, "E", TraceLoggingInt32(1, "a"), TraceLoggingChar32(65, "c"));
}
SRC
status=0
for cc in "$@"; do
    for lang in c c++; do
        if "$cc" -x "$lang" -fsyntax-only -Wall -Wextra -I"$inc" -I"$inc/petw/etw" -I"$inc/petw/win32" "$tmp/u.c" \
            2>"$tmp/err"; then
            echo "$cc ($lang): compiled"
            status=1
        elif grep -q 'petw: TraceLoggingChar32 is not supported' "$tmp/err"; then
            echo "$cc ($lang): refused, naming the macro"
        else
            echo "$cc ($lang): refused without naming the macro:"
            cat "$tmp/err"
            status=1
        fi
    done
done
exit $status
