#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_header_text.sh PYTHON RECORD_TRACE PETW SAMPLES: the trace header as a person reads it.
# petw dump's text shows the EventTrace header's TIME_ZONE_INFORMATION by its members (bias,
# standard and daylight names, yearly change rules as "second Sunday of March, 02:00", biases)
# and its pointers as addresses (LoggerName=0x0), for zones set through TZ and for Windows' own
# file (powershell.etl, when the samples are there); JSON keeps the exact values: the structure's
# 176 bytes as hex and the pointers as strings.
set -eu
py=$1 record=$2 petw=$3 samples=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

TZ="EST5EDT,M3.2.0,M11.1.0" "$record" ny.etl 1 >/dev/null
"$petw" dump ny.etl | head -1 > ny.txt
cat ny.txt
grep -q ' LoggerName=0x0 LogFileName=0x0 ' ny.txt
zone='TimeZoneInformation={Bias=300 StandardName="EST"'
zone="$zone"' StandardDate="first Sunday of November, 02:00" StandardBias=0 DaylightName="EDT"'
zone="$zone"' DaylightDate="second Sunday of March, 02:00"'
grep -qF "$zone DaylightBias=-60} " ny.txt

TZ="LHS-10:30LHD-11,M10.1.0,M4.5.0/3" "$record" lh.etl 1 >/dev/null
"$petw" dump lh.etl | head -1 > lh.txt
zone='TimeZoneInformation={Bias=-630 StandardName="LHS" StandardDate="last Sunday of April, 03:00"'
zone="$zone"' StandardBias=0 DaylightName="LHD" DaylightDate="first Sunday of October, 02:00"'
grep -qF "$zone DaylightBias=-30} " lh.txt

TZ="UTC0" "$record" utc.etl 1 >/dev/null
"$petw" dump utc.etl | head -1 > utc.txt
zone='TimeZoneInformation={Bias=0 StandardName="UTC" StandardDate="none" StandardBias=0'
grep -qF "$zone DaylightName=\"UTC\" DaylightDate=\"none\" DaylightBias=0} " utc.txt

# JSON: exact, as before.
"$petw" dump ny.etl --format json | head -1 > ny.json
"$py" - <<'PY'
import json
h = json.loads(open("ny.json").read())["fields"]
assert h["LoggerName"] == "0x0" and h["LogFileName"] == "0x0", h
tz = bytes.fromhex(h["TimeZoneInformation"])
assert len(tz) == 176, len(tz)
assert int.from_bytes(tz[0:4], "little", signed=True) == 300
assert tz[4:68].decode("utf-16-le").rstrip("\0") == "EST"
assert int.from_bytes(tz[168:172], "little", signed=True) == -60
PY

# Windows' own header: New York's zone as Windows names it.
ps="$samples/powershell.etl"
[ -f "$ps" ] || exit 0
"$petw" dump "$ps" | head -1 > ps.txt
grep -q ' LoggerName=0xa LogFileName=0x7 ' ps.txt
zone='TimeZoneInformation={Bias=300 StandardName="@tzres.dll,-112" StandardDate="first Sunday of'
zone="$zone"' November, 02:00" StandardBias=0 DaylightName="@tzres.dll,-111" DaylightDate="second'
grep -qF "$zone Sunday of March, 02:00\" DaylightBias=-60} " ps.txt
