#!/bin/sh
# SPDX-License-Identifier: MIT
# run_independent.sh PYTHON SCRIPT GEN_AND_DUMP: record a trace, then check
# that petw's consumer and the independent reader see the same records.
set -e
py=$1 script=$2 gen=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$gen" "$dir/t.etl"
"$py" "$script" --compare "$dir/t.etl" "$gen" --dump-only
