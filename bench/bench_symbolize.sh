#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/bench_symbolize.sh - petw symbolize beside llvm-symbolizer on a large
# generated PDB: 100,000 distinct addresses, time and peak RSS in one run
# (bench_symbolize.py says how). Not run by CI.
#
# usage: bench/bench_symbolize.sh [FUNCTIONS [ADDRESSES]]   (ROUNDS=3 by default)
# Builds in build-bench/ (release), writes the fixture and outputs under
# build-bench/symbolize/.
set -eu
cd "$(dirname "$0")/.."
scripts/setup-debian.sh clang-tools-14 lld-14 llvm-14
if [ -d build-bench ]; then
    meson configure build-bench -Dbuildtype=release >/dev/null
else
    meson setup build-bench --buildtype=release -Dtests=false >/dev/null
fi
ninja -C build-bench tools/petw bench/peak_rss >/dev/null
python3 bench/bench_symbolize.py build-bench/tools/petw build-bench/bench/peak_rss \
    build-bench/symbolize "$@"
