#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what petw needs to build, test and run its examples on Debian 12.
# Usage: scripts/setup-debian.sh [extra package...]
# libdw-dev: the analysis tools' symbolizer (elfutils' libdwfl);
# libcurl4-openssl-dev, libmspack-dev: Windows PDBs from symbol servers
# (and their compressed .pd_ files), and `petw export --to clickhouse`;
# libbpf-dev: BPF programs (file I/O with file names in `petw record --kernel
# file`; clang compiles them). What only the tests use (go tool pprof, perf
# report, a browser) scripts/test.sh asks for as extra packages.
set -eu
pkgs="build-essential clang meson ninja-build pkg-config python3 \
libuv1-dev libzstd-dev libxxhash-dev libexpat1-dev libclang-rt-14-dev clang-format \
libdw-dev libcurl4-openssl-dev libmspack-dev libbpf-dev"
missing=""
for p in $pkgs "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi
