#!/bin/sh
# SPDX-License-Identifier: MIT
# cross/build-deps.sh PREFIX: builds libuv, zstd, xxHash and expat for
# x86_64-w64-mingw32 from Debian's own source packages (apt-get source),
# into PREFIX with pkg-config files. Cached: a dependency already in PREFIX
# is not rebuilt. No prebuilt binary is downloaded.
set -eu
prefix=$(realpath -m "$1")
host=x86_64-w64-mingw32
work="$prefix/src"
mkdir -p "$work" "$prefix/lib/pkgconfig" "$prefix/include"

# deb-src entries, derived from the machine's own apt sources (same mirrors).
if ! apt-get source --print-uris libuv1 >/dev/null 2>&1; then
    list=/etc/apt/sources.list.d/petw-deb-src.sources
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && [ "$f" != "$list" ] || continue
        sed -n 's/^Types:.*deb\b.*/Types: deb-src/p; /^Types:/!p' "$f"
        echo
    done > "$list.tmp"
    if [ -f /etc/apt/sources.list ]; then
        grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > /etc/apt/sources.list.d/petw-deb-src.list || true
    fi
    mv "$list.tmp" "$list"
    apt-get update -qq
fi

fetch() { # package -> extracted source dir on stdout
    # The candidate version first; when a mirror lacks it (a security
    # update not mirrored yet), every other version apt knows of.
    (cd "$work" && [ -n "$(ls -d "$1"-*/ 2>/dev/null | head -n 1)" ] ||
        apt-get source -qq "$1" >/dev/null 2>&1 ||
        for v in $(apt-cache showsrc "$1" | sed -n 's/^Version: //p'); do
            apt-get source -qq "$1=$v" >/dev/null 2>&1 && break
        done)
    ls -d "$work/$1"-*/ | head -n 1
}

toolchain="$work/toolchain.cmake"
cat > "$toolchain" <<TC
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_C_COMPILER $host-gcc)
set(CMAKE_CXX_COMPILER $host-g++)
set(CMAKE_RC_COMPILER $host-windres)
set(CMAKE_FIND_ROOT_PATH /usr/$host)
TC

if [ ! -f "$prefix/lib/libuv.a" ]; then
    src=$(fetch libuv1)
    cmake -S "$src" -B "$work/build-uv" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DLIBUV_BUILD_TESTS=OFF -DLIBUV_BUILD_BENCH=OFF \
        -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
    cmake --build "$work/build-uv" --target uv_a -j2 >/dev/null
    cp "$work/build-uv/libuv.a" "$prefix/lib/libuv.a" 2>/dev/null ||
        cp "$work/build-uv/libuv_a.a" "$prefix/lib/libuv.a"
    cp -r "$src/include/." "$prefix/include/"
fi
cat > "$prefix/lib/pkgconfig/libuv.pc" <<PC
prefix=$prefix
Name: libuv
Description: libuv (mingw-w64 build)
Version: 1.44.2
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib -luv
Libs.private: -lws2_32 -liphlpapi -luserenv -lpsapi -luser32 -ldbghelp -lole32 -lshell32
PC

if [ ! -f "$prefix/lib/libzstd.a" ]; then
    src=$(fetch libzstd)
    cmake -S "$src/build/cmake" -B "$work/build-zstd" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DZSTD_BUILD_PROGRAMS=OFF -DZSTD_BUILD_SHARED=OFF \
        -DZSTD_BUILD_TESTS=OFF -DZSTD_MULTITHREAD_SUPPORT=OFF \
        -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
    cmake --build "$work/build-zstd" -j2 >/dev/null
    cmake --install "$work/build-zstd" >/dev/null
fi
cat > "$prefix/lib/pkgconfig/libzstd.pc" <<PC
prefix=$prefix
Name: zstd
Description: zstd (mingw-w64 build)
Version: 1.5.4
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib -lzstd
PC

if [ ! -f "$prefix/lib/libxxhash.a" ]; then
    src=$(fetch xxhash)
    $host-gcc -O2 -c "$src/xxhash.c" -o "$work/xxhash.o"
    $host-ar rcs "$prefix/lib/libxxhash.a" "$work/xxhash.o"
    cp "$src/xxhash.h" "$prefix/include/"
fi
cat > "$prefix/lib/pkgconfig/libxxhash.pc" <<PC
prefix=$prefix
Name: libxxhash
Description: xxHash (mingw-w64 build)
Version: 0.8.1
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib -lxxhash
PC
if [ ! -f "$prefix/lib/libexpat.a" ]; then
    src=$(fetch expat)
    [ -f "$src/CMakeLists.txt" ] || src="$src/expat" # the Debian tree keeps it one level down
    cmake -S "$src" -B "$work/build-expat" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DEXPAT_SHARED_LIBS=OFF -DEXPAT_BUILD_TOOLS=OFF \
        -DEXPAT_BUILD_EXAMPLES=OFF -DEXPAT_BUILD_TESTS=OFF -DEXPAT_BUILD_DOCS=OFF \
        -DEXPAT_BUILD_PKGCONFIG=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
    # Debian's security patches test `XML_DTD == 1` (its autotools build
    # defines 1); CMake's config header defines the macros empty.
    sed -i 's/^#define XML_DTD$/#define XML_DTD 1/; s/^#define XML_NS$/#define XML_NS 1/' \
        "$work/build-expat/expat_config.h"
    cmake --build "$work/build-expat" -j2 >/dev/null
    cmake --install "$work/build-expat" >/dev/null
    # MinGW builds name it libexpat.a; some versions add a suffix.
    [ -f "$prefix/lib/libexpat.a" ] || cp "$(ls "$prefix"/lib/libexpat*.a | head -n 1)" "$prefix/lib/libexpat.a"
fi
# A static expat: its headers must not declare dllimport (XML_STATIC).
cat > "$prefix/lib/pkgconfig/expat.pc" <<PC
prefix=$prefix
Name: expat
Description: expat (mingw-w64 build)
Version: 2.5.0
Cflags: -I\${prefix}/include -DXML_STATIC
Libs: -L\${prefix}/lib -lexpat
PC
echo "dependencies for $host in $prefix"
