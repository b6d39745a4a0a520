#!/bin/sh
# SPDX-License-Identifier: MIT
# replay_seeds.sh REPLAY SEED_DIR [REGRESSION_DIR...]: every seed, plus every
# seed with bytes flipped at a spread of offsets, then every file of the
# regression folders as it is (test/fuzz/regressions/<target>/: inputs that
# once crashed, hung or blew up a target), through the target without
# libFuzzer.
set -eu
replay=$1 dir=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
i=0
for f in "$dir"/*; do
    [ -f "$f" ] || continue
    size=$(wc -c < "$f")
    for off in 0 4 8 52 54 72 74 76 90 100 150 4096 4100 4104 4148 4150 4200 8200; do
        [ "$off" -lt "$size" ] || continue
        i=$((i + 1))
        cp "$f" "$work/m$i"
        printf '\377' | dd of="$work/m$i" bs=1 seek="$off" conv=notrunc 2>/dev/null
    done
done
# replay takes directories: the seeds, the flipped copies, the regressions
# (a target without a regressions folder yet has none).
n=$#
for r in "$@"; do # the list is expanded once: appending below is safe
    if [ -d "$r" ]; then
        set -- "$@" "$r"
        echo "regressions: $r ($(ls "$r" | grep -vc '\.md$') files)"
    fi
done
shift "$n"
"$replay" "$dir" "$work" "$@"
