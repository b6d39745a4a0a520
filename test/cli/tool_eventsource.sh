#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_eventsource.sh PYTHON APP PETW: a manifest-based EventSource's trace
# (its manifest in ManifestData events, then its events), recorded by APP,
# decodes by that manifest in `petw dump --format json` with no --manifest:
# the ManifestData events show their envelopes, the event before the
# manifest stays raw, the ones after it carry names and fields.
set -eu
py=$1 app=$2 petw=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$app" t.etl > app.out
"$petw" dump t.etl --format json > json.out
"$py" - <<'PY'
import json
ev = [json.loads(l) for l in open("json.out")]
mine = [e for e in ev if e["provider_guid"] == "3c9e7a10-55b1-5d2e-a407-196b2f80c35d"]
chunks = int(open("app.out").read().split()[0])
md = [e for e in mine if e["event"] == "ManifestData"]
assert len(md) == chunks and chunks > 1, (len(md), chunks)
assert [e["fields"]["ChunkNumber"] for e in md] == list(range(chunks)), md
assert all(e["fields"]["TotalChunks"] == chunks and e["fields"]["Format"] == 1 for e in md), md
assert md[-1]["provider"] == "Petw-Demo-Cache", md[-1]
hits = [e for e in mine if e["id"] == 1]
assert len(hits) == 3, hits
assert hits[0]["event"] is None and "data" in hits[0]["fields"], hits[0]  # before the manifest
assert [e["event"] for e in hits[1:]] == ["Hit", "Hit"], hits
assert hits[1]["fields"] == {"key": "alpha", "size": 512, "tier": "Memory"}, hits[1]
assert hits[2]["message"] == "Hit beta (4096 bytes, Disk)", hits[2]
assert hits[2]["provider"] == "Petw-Demo-Cache", hits[2]
PY
