#!/bin/sh
# SPDX-License-Identifier: MIT
# petw's main job on a built-in default: build, record a trace from the
# example provider app into example.etl, and show its events, decoded by
# the provider's instrumentation manifest (examples/example_provider.man).
# Usage: scripts/demo.sh [events]
set -eu
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
[ -d build ] || meson setup build
# Only what the demo runs (the test suite builds in its own folders).
ninja -C build examples/record_trace tools/petw
./build/examples/record_trace example.etl "${1:-12}"
./build/tools/petw info example.etl --manifest examples/example_provider.man
./build/tools/petw dump example.etl --manifest examples/example_provider.man
