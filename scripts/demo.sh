#!/bin/sh
# petw's main job on a built-in default: build, record a trace from the
# example provider app into example.etl, and show its events.
# Usage: scripts/demo.sh [events]
set -eu
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
[ -d build ] || meson setup build
ninja -C build
./build/examples/record_trace example.etl "${1:-12}"
./build/tools/petw info example.etl
./build/tools/petw dump example.etl
