#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_mc_errors.sh PETW: manifests petw mc cannot write correct code for
# are refused with the manifest's name and the line at fault, and no header
# is left behind; -km and -cs are refused.
set -eu
petw=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# bad NAME LINE TEXT TEMPLATE_BODY: a manifest whose template is
# TEMPLATE_BODY (starting on line 10) must fail on LINE with TEXT.
bad() {
    name=$1 line=$2 text=$3
    cat >"$tmp/$name.man" <<MAN
<?xml version="1.0" encoding="UTF-8"?>
<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"
    xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events">
 <instrumentation><events>
  <provider name="Bad" guid="{11111111-2222-3333-4444-555555555555}" symbol="BAD">
   <events>
    <event value="1" symbol="E1" level="win:Informational" template="T"/>
   </events>
   <templates><template tid="T">
$4
   </template></templates>
  </provider>
 </events></instrumentation>
</instrumentationManifest>
MAN
    if "$petw" mc -um -h "$tmp" -r "$tmp" "$tmp/$name.man" 2>"$tmp/err"; then
        fail "$name: accepted"
    fi
    grep -q "$name.man:$line: .*$text" "$tmp/err" || grep -q "line $line: .*$text" "$tmp/err" ||
        fail "$name: expected line $line and '$text', got: $(cat "$tmp/err")"
    [ ! -e "$tmp/$name.h" ] || fail "$name: a header was left behind"
    echo "ok: $name: $(cat "$tmp/err")"
}

bad structlength 10 "a length only applies" '    <struct name="S" length="4"><data name="X" inType="win:UInt8"/></struct>'
bad cbinary 12 "win:CountedBinary is not supported" '    <data name="A" inType="win:UInt32"/>

    <data name="Blob" inType="win:CountedBinary"/>'
bad counted 10 "win:CountedUnicodeString is not supported" '    <data name="C" inType="win:CountedUnicodeString"/>'
bad binary 11 "win:Binary needs a length" '    <data name="A" inType="win:UInt32"/>
    <data name="Blob" inType="win:Binary"/>'
bad sidarray 11 "arrays of SIDs" '    <data name="N" inType="win:UInt32"/>
    <data name="Sids" inType="win:SID" count="N"/>'
bad countref 11 "must name an integer field" '    <data name="Name" inType="win:AnsiString"/>
    <data name="Values" inType="win:UInt32" count="Name"/>'
bad intlength 10 "a length only applies" '    <data name="A" inType="win:UInt32" length="4"/>'
bad intype 10 "unknown inType" '    <data name="A" inType="win:Int128"/>'
bad xml 11 "XML" '    <data name="A" inType="win:UInt32">
    </template>'

# A symbol that is not an identifier, and one defined twice (line 7: the
# first event's).
sed -e 's/symbol="E1"/symbol="E-1"/' "$tmp/binary.man" | sed -e 's/<data name="Blob".*//' \
    >"$tmp/ident.man"
if "$petw" mc -h "$tmp" -r "$tmp" "$tmp/ident.man" 2>"$tmp/err"; then fail "ident: accepted"; fi
grep -q 'ident.man:7: symbol "E-1" is not a C identifier' "$tmp/err" || fail "ident: $(cat "$tmp/err")"
sed -e 's/symbol="BAD"/symbol="E1"/' "$tmp/ident.man" | sed -e 's/symbol="E-1"/symbol="E1"/' \
    >"$tmp/twice.man"
if "$petw" mc -h "$tmp" -r "$tmp" "$tmp/twice.man" 2>"$tmp/err"; then fail "twice: accepted"; fi
grep -q 'twice.man:7: symbol "E1" is defined twice' "$tmp/err" || fail "twice: $(cat "$tmp/err")"

# The same manifest without the bad field is fine.
sed -e 's/symbol="E-1"/symbol="E1"/' "$tmp/ident.man" >"$tmp/good.man"
"$petw" mc -um -h "$tmp" -r "$tmp" "$tmp/good.man" || fail "good: refused"
[ -s "$tmp/good.h" ] && [ -e "$tmp/good.rc" ] || fail "good: no header"

# Two providers: each gets its symbols (the second provider's were once
# taken for the first's, and refused as "defined twice"); an event symbol
# both use is refused.
cat >"$tmp/two.man" <<'MAN'
<?xml version="1.0" encoding="UTF-8"?>
<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
 <instrumentation><events>
  <provider name="One" guid="{11111111-2222-3333-4444-555555555551}" symbol="ONE">
   <events><event value="1" symbol="One_E1"/></events>
  </provider>
  <provider name="Two" guid="{11111111-2222-3333-4444-555555555552}" symbol="TWO">
   <events><event value="1" symbol="Two_E1"/></events>
  </provider>
 </events></instrumentation>
</instrumentationManifest>
MAN
"$petw" mc -um -h "$tmp" -r "$tmp" "$tmp/two.man" 2>"$tmp/err" || fail "two: $(cat "$tmp/err")"
for sym in ONE TWO One_E1 Two_E1 EventWriteOne_E1 EventWriteTwo_E1; do
    grep -q "$sym" "$tmp/two.h" || fail "two: no $sym"
done
sed -e 's/symbol="Two_E1"/symbol="One_E1"/' "$tmp/two.man" >"$tmp/twodup.man"
if "$petw" mc -h "$tmp" -r "$tmp" "$tmp/twodup.man" 2>"$tmp/err"; then fail "twodup: accepted"; fi
grep -q 'twodup.man:8: symbol "One_E1" is defined twice' "$tmp/err" || fail "twodup: $(cat "$tmp/err")"

# Kernel mode and C# are refused, whatever else is given.
if "$petw" mc -km "$tmp/good.man" 2>"$tmp/err"; then fail "-km: accepted"; fi
grep -q -- "-km (kernel-mode code) is not supported" "$tmp/err" || fail "-km: $(cat "$tmp/err")"
if "$petw" mc -cs Ns "$tmp/good.man" 2>"$tmp/err"; then fail "-cs: accepted"; fi
grep -q -- "-cs (C# code) is not supported" "$tmp/err" || fail "-cs: $(cat "$tmp/err")"
if "$petw" mc -um "$tmp/missing.man" 2>"$tmp/err"; then fail "missing: accepted"; fi
grep -q "cannot read" "$tmp/err" || fail "missing: $(cat "$tmp/err")"
echo "ok: petw mc refuses what it cannot generate, naming the line"
