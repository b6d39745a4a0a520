#!/bin/sh
# replay_seeds.sh REPLAY SEED_DIR: every seed, plus every seed with bytes
# flipped at a spread of offsets, through the target without libFuzzer.
set -eu
replay=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
i=0
for f in "$dir"/*; do
    size=$(wc -c < "$f")
    for off in 0 4 8 52 54 72 74 76 90 100 150 4096 4100 4104 4148 4150 4200 8200; do
        [ "$off" -lt "$size" ] || continue
        i=$((i + 1))
        cp "$f" "$work/m$i"
        printf '\377' | dd of="$work/m$i" bs=1 seek="$off" conv=notrunc 2>/dev/null
    done
done
"$replay" "$dir"/* "$work"/m*
