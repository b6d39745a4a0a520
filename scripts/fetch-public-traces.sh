#!/bin/sh
# SPDX-License-Identifier: MIT
# Downloads the public Windows traces the 'compat' test public_traces reads
# (test/decode/public_traces.py) into DIR, from their repositories at pinned
# commits, and checks every archive and every trace against its SHA-256.
# Usage: scripts/fetch-public-traces.sh DIR
# Then: meson configure build -Dpublic_traces=DIR (or PETW_PUBLIC_TRACES=DIR
# in the test's environment) and meson test -C build public_traces.
#
# Each archive comes from raw.githubusercontent.com, or, where that fails,
# from a shallow git fetch of the pinned commit. PETW_TRACES_RAW_BASE and
# PETW_TRACES_GIT_BASE replace https://raw.githubusercontent.com and
# https://github.com (a mirror holding OWNER/NAME; a git server must allow
# filters and any commit in a want, as GitHub does).
# What it needs to unpack (unzip, 7z) it installs with scripts/setup-debian.sh.
# The traces are other projects' files (MIT licensed): never commit them.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
raw_base=${PETW_TRACES_RAW_BASE:-https://raw.githubusercontent.com}
git_base=${PETW_TRACES_GIT_BASE:-https://github.com}

need=""
command -v unzip >/dev/null 2>&1 || need="$need unzip"
command -v 7z >/dev/null 2>&1 || need="$need p7zip-full"
command -v sha256sum >/dev/null 2>&1 || need="$need coreutils"
command -v curl >/dev/null 2>&1 || need="$need curl ca-certificates"
command -v git >/dev/null 2>&1 || need="$need git"
if [ -n "$need" ]; then
    # shellcheck disable=SC2086
    "$here/setup-debian.sh" $need
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

check() { # FILE SHA256
    got=$(sha256sum "$1" | cut -d' ' -f1)
    if [ "$got" != "$2" ]; then
        echo "$1: SHA-256 $got, expected $2" >&2
        exit 1
    fi
}

# fetch REPO COMMIT PATH SHA256 OUT: one file of REPO at COMMIT.
fetch() {
    repo=$1 commit=$2 path=$3 sum=$4 out=$5
    if [ -f "$out" ] && [ "$(sha256sum "$out" | cut -d' ' -f1)" = "$sum" ]; then
        return 0
    fi
    echo "fetching $repo@$commit:$path"
    if curl -fsSL --retry 3 -o "$out.part" "$raw_base/$repo/$commit/$path" 2>/dev/null &&
        [ "$(sha256sum "$out.part" | cut -d' ' -f1)" = "$sum" ]; then
        mv "$out.part" "$out"
        return 0
    fi
    rm -f "$out.part"
    # A shallow fetch of the one commit, blobs on demand: only this file's.
    g="$work/git-$(echo "$repo" | tr / +)"
    if [ ! -d "$g" ]; then
        git init -q --bare "$g"
        git --git-dir="$g" remote add origin "$git_base/$repo"
        git --git-dir="$g" fetch -q --depth 1 --filter=blob:none origin "$commit"
    fi
    git --git-dir="$g" show "$commit:$path" >"$out.part"
    check "$out.part" "$sum"
    mv "$out.part" "$out"
}

perfview=microsoft/perfview
perfview_commit=f3ec1b38a6d7535e4f878510e5041f9da7d0fdb6
inputs=src/TraceEvent/TraceEvent.Tests/inputs
etwanalyzer=Siemens-Healthineers/ETWAnalyzer
etwanalyzer_commit=7c451d970da3d271ec080691bc3d051d9152b6ad

mkdir -p "$dir/archives"
a="$dir/archives"
fetch $perfview $perfview_commit $inputs/net.4.5.2.x64.etl.zip \
    7ff6701d6efe27f755678d009e78c765ae7cdf2255610863ddf4605cff29cbc8 "$a/net.4.5.2.x64.etl.zip"
fetch $perfview $perfview_commit $inputs/net.4.5.2.x86.etl.zip \
    9852349d8969d912674fa4875be72d3f521811c32f6c0226d02678429c45e795 "$a/net.4.5.2.x86.etl.zip"
fetch $perfview $perfview_commit $inputs/diaghub-dotnetcore3.1-win-x64-diagsession.zip \
    320db90d68c4e66cd15a6af90a07a6cfc8f940a00c9e75b87d94ac07b771e6fd \
    "$a/diaghub-dotnetcore3.1-win-x64-diagsession.zip"
fetch $etwanalyzer $etwanalyzer_commit ETWAnalyzer_uTest/TestData/TraceLoggingTester.7z \
    06f548a7b3378f7d8e6844064f7db7ee14f8a4e35de08a407b0aa4678ab00316 "$a/TraceLoggingTester.7z"

unzip -q -o "$a/net.4.5.2.x64.etl.zip" -d "$dir/net.4.5.2.x64"
unzip -q -o "$a/net.4.5.2.x86.etl.zip" -d "$dir/net.4.5.2.x86"
unzip -q -o "$a/diaghub-dotnetcore3.1-win-x64-diagsession.zip" -d "$dir/diaghub"
7z x -y -bd -o"$dir/tltester" "$a/TraceLoggingTester.7z" >/dev/null

d=diaghub/diaghub-dotnetcore3.1-win-x64-diagsession
while read -r sum path; do
    check "$dir/$path" "$sum"
done <<EOF
50da7f725f80f88a7622b37f9826844a790cb0c4f64e351fa1f38cf24916889a net.4.5.2.x64/net.4.5.2.x64.etl
18e62d477308bdc9b01ca6674cbbcbb7c350acf2bf68733ba6361976fac9538d net.4.5.2.x86/net.4.5.2.x86.etl
495834f16a22f48864a3bc2d758cfce40e9a32f603db35faf38d6bd8b3439858 $d/diaghub.etl
7e96a60a9a8c023b011c06c300f7eced1663d44be175c68a514bffc9d24a4e9c $d/diaghub.kernel.1.etl
132ed73935e7c0f4740659bd53068dc2d904a8bcbcb296661a67e98fac5a0f68 $d/diaghub.user_injected.1.etl
a70ba4afcc8395e769aef1397426898ec113017e27556c923019df112852e455 $d/diaghub.user_paged.1.etl
6b6c6731d6aa9da63b223cec4fc27b87343e5791bed9764a6138c63540c03c96 tltester/TraceLoggingTester.etl
EOF
echo "public traces in $dir"
