#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the build into a scratch directory and checks what an ETW user
# gets: both pkg-config files, a static link line with every dependency, the
# manual pages, the bash completion and the license, and ETW code (the
# examples) compiling unmodified against petw-etw and running.
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --quiet --no-rebuild >/dev/null
pcdir=$(dirname "$(find "$dest" -name petw-etw.pc | head -n 1)")
[ -f "$pcdir/petw.pc" ] || { echo "petw.pc not installed"; exit 1; }
# Point our .pc files at the scratch prefix (the system's stay untouched).
prefix=$(sed -n 's/^prefix=//p' "$pcdir/petw.pc")
mkdir -p "$dest/pc"
for f in petw petw-etw petw-wmain; do
    sed "s|^prefix=.*|prefix=$dest$prefix|" "$pcdir/$f.pc" > "$dest/pc/$f.pc"
done
export PKG_CONFIG_PATH="$dest/pc"
pc="pkg-config"
libs=$($pc --static --libs petw-etw)
for want in -lpetw -luv -lzstd -lxxhash -lpthread; do
    case " $libs " in *" $want "*) ;; *) echo "missing $want in: $libs"; exit 1 ;; esac
done
[ -f "$($pc --variable=includedir petw)/petw/petw.h" ] || { echo "petw.h not installed"; exit 1; }
# The command's manual pages, its bash completion and the license.
for f in share/man/man1/petw.1 share/man/man1/petw-record.1 share/man/man1/petw-report.1 \
    share/bash-completion/completions/petw share/doc/petw/LICENSE; do
    [ -s "$dest$prefix/$f" ] || { echo "$f not installed"; exit 1; }
done
cflags=$($pc --cflags petw-etw)
cc -DUNICODE -D_UNICODE -o "$dest/record" "$src/examples/record_trace.c" \
    "$src/examples/example_provider.c" $cflags $libs
cc -DUNICODE -D_UNICODE -o "$dest/print" "$src/examples/print_trace.c" $cflags $libs
"$dest/record" "$dest/t.etl" 20 >/dev/null
"$dest/print" "$dest/t.etl" > "$dest/out.txt"
grep -q "^28 events" "$dest/out.txt" || { cat "$dest/out.txt"; exit 1; }
# The other spellings of the header names Windows code uses, and tchar.h.
printf '#include <SDKDDKVer.h>\n#include <tchar.h>\n#include <Windows.h>\n#include <Evntrace.h>\n#include <Evntcons.h>\n#include <Tdh.h>\nint _tmain(int argc, _TCHAR *argv[]) { (void)argv; return argc > 0 ? 0 : 1; }\n' > "$dest/alias.c"
# _tmain with _UNICODE is wmain: the program asks for petw-wmain's main.
cc -DUNICODE -D_UNICODE -o "$dest/alias" "$dest/alias.c" $cflags $($pc --static --libs petw-wmain)
"$dest/alias"
# A native user is a program with its own names: its HeapAlloc, sprintf_s and
# main link against petw (no Win32 layer, no main of petw's) and are the ones
# called.
cat > "$dest/guest.c" <<'GUEST'
#include <petw/petw.h>
#include <stdio.h>
#include <stdlib.h>
void *HeapAlloc(void *heap, unsigned flags, size_t size)
{
    (void)heap, (void)flags;
    return malloc(size);
}
int sprintf_s(char *buf, size_t size, const char *fmt, int v)
{
    return snprintf(buf, size, fmt, v + 1);
}
int main(void)
{
    petw_session_config c;
    petw_session_config_init(&c);
    char text[16];
    char *p = HeapAlloc(NULL, 0, 4);
    sprintf_s(text, sizeof text, "%d", 41);
    free(p);
    puts(text);
    return c.buffer_size_kb == 64 && p ? 0 : 1;
}
GUEST
cc -o "$dest/guest" "$dest/guest.c" $($pc --cflags petw) $($pc --static --libs petw)
[ "$("$dest/guest")" = 42 ] || { echo "a program's own HeapAlloc/sprintf_s/main: wrong result"; exit 1; }
# Native API too, from C++.
printf '#include <petw/petw.h>\nint main() { petw_session_config c; petw_session_config_init(&c); return c.buffer_size_kb == 64 ? 0 : 1; }\n' > "$dest/n.cpp"
if command -v c++ >/dev/null 2>&1; then
    c++ -o "$dest/n" "$dest/n.cpp" $($pc --cflags petw) $($pc --static --libs petw)
    "$dest/n"
fi
echo "install: pkg-config and an ETW build against the installed prefix work"
