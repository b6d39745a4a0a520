#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""public_traces.py PETW VAR: every kernel-class and KernelTraceControl
record of real Windows traces decodes by name and field.

VAR names the environment variable holding the folder: PETW_PUBLIC_TRACES
(the public traces scripts/fetch-public-traces.sh downloads: PerfView's
net.4.5.2 x64 and x86 traces from Windows 8, its Windows 10 diagnostics hub
session, ETWAnalyzer's Windows 11 TraceLoggingTester trace) or
PETW_ETL_SAMPLES (the samples folder). `petw dump --format json` runs on
each .etl file under it; the test fails when a record of a kernel class
(EventTrace, Process, SystemConfig, ...), of KernelTraceControl's ImageID
events, SystemConfigEx or WinSat stays raw, except the records listed in
KNOWN_RAW, and checks values read by hand from the payloads. Exits 77 when
the variable is unset or its folder is absent."""
import json
import os
import re
import subprocess
import sys

petw, var = sys.argv[1], sys.argv[2]
GUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
KERNEL_GUIDS = {
    "b3e675d7-2554-4f18-830b-2762732560de",  # KernelTraceControl (ImageID events)
    "9b79ee91-b5fd-41c0-a243-4248e266e9d0",  # SystemConfigEx
    "ed54dff8-c409-4cf6-bf83-05e1e61a09c4",  # WinSat
}
# (provider, version, opcode): why it stays raw.
KNOWN_RAW = {
    ("SystemConfig", 2, 19): "PhysicalDiskEx: no public description of its layout",
}

D = "diaghub/diaghub-dotnetcore3.1-win-x64-diagsession/"
# file: [(provider, event, fields that must all match, records at least)].
# Fields hold the values `petw dump --format json` shows.
EXPECT = {
    "net.4.5.2.x64/net.4.5.2.x64.etl": [
        # FileVersion version 0 (Windows 8's KernelTraceControl).
        ("KernelTraceControl", "FileVersion",
         {"OrigFileName": "ntdll.dll", "BinFileVersion": "6.2.9200.16384",
          "FileVersion": "6.2.9200.16384 (win8_rtm.120725-1247)", "ImageSize": 1404928,
          "CompanyName": "Microsoft Corporation"}, 1),
        ("KernelTraceControl", "FileVersion", {}, 705),
        ("KernelTraceControl", "DbgID_ILRSDS",
         {"ProcessId": 3988, "GuidSig": "46c7f945-589d-4bf7-bcf8-2771980299f4", "Age": 1,
          "PdbFileName": "mscorlib.pdb"}, 1),
        ("SystemConfig", "CPU",
         {"ComputerName": "BRIANROB-W8", "NumberOfProcessors": 8, "MHz": 3592,
          "HighestUserAddress": "0x7fffffeffff", "ProcessorArchitecture": 9,
          "NxEnabled": 1}, 1),
        ("PerfInfo", "CollectionStart",
         {"Source": 0, "NewInterval": 10000, "OldInterval": 10000, "SourceName": "Timer"}, 1),
        ("Image", "KernelBase", {"ImageBase": "0xfffff80021489000"}, 1),
    ],
    "net.4.5.2.x86/net.4.5.2.x86.etl": [
        ("KernelTraceControl", "FileVersion", {"OrigFileName": "ntdll.dll"}, 2),
        ("KernelTraceControl", "FileVersion", {}, 680),
        ("SystemConfig", "Services", {}, 157),
        ("SystemConfig", "PnP", {}, 78),
    ],
    D + "diaghub.etl": [
        ("KernelTraceControl", "DbgPPDB", {"MajorVersion": "0x100", "MinorVersion": "0x504d"}, 1),
        ("KernelTraceControl", "DbgPPDB", {}, 14154),
        ("KernelTraceControl", "DbgDeterm", {}, 13054),
        ("KernelTraceControl", "None", {}, 347),
    ],
    D + "diaghub.kernel.1.etl": [
        ("Process", "Defunct",
         {"ProcessId": 4384, "ImageFileName": "MpCmdRun.exe", "UserSID": "S-1-5-18",
          "CreateTime": "2020-09-14T22:29:07.4624863Z"}, 1),
        ("SystemConfig", "Platform",
         {"SystemManufacturer": "Microsoft Corporation", "SystemProductName": "Virtual Machine",
          "BiosDate": "12/07/2018", "BiosVersion": "090008"}, 1),
        ("SystemConfig", "IRQ",
         {"IRQAffinity": "0xffffffff", "IRQNum": 10, "DeviceDescriptionLen": 61}, 1),
        ("Image", "HypercallPage", {}, 1),
    ],
    "tltester/TraceLoggingTester.etl": [
        # The DbgID_NB10 record of an image repeats its Image event's checksum,
        # timestamp and size.
        ("KernelTraceControl", "DbgID_NB10",
         {"ImageBase": "0x400000", "ProcessId": 19500, "ImageCheckSum": 6366053,
          "TimeDateStamp": 1746756805, "ImageSize": 6344704,
          "DbgFileName": "ROCCAT_Swarm_Monitor.dbg"}, 1),
        ("Image", "DCEnd",
         {"ImageBase": "0x400000", "ProcessId": 19500, "ImageCheckSum": 6366053,
          "ImageSize": "0x60d000"}, 1),
        ("KernelTraceControl", "DbgEmbeddedPPDB",
         {"ImageBase": "0x7ff884790000", "MajorVersion": "0x100", "MinorVersion": "0x100",
          "GuidSig": "35d73f44-859c-480e-bcdd-29fab6a9d381", "Age": 1}, 1),
        ("KernelTraceControl", "ImageIDError", {}, 11),
        ("Thread", "SetName",
         {"ProcessId": 4, "ThreadId": 19712,
          "ThreadName": "WPR_initiated_WprApp_WPR System Collector_Rundown_e520"}, 1),
        ("PerfInfo", "Mark", {"Message": "Wpr_Initiated_Rundown"}, 1),
        ("EventTrace", "LastDroppedTimes", {"TimeStampCount": 20}, 4),
        ("SystemConfig", "Processors",
         {"ProcessorName": "13th Gen Intel(R) Core(TM) i5-13600KF",
          "ProcessorIdentifier": "Intel64 Family 6 Model 183 Stepping 1",
          "VendorIdentifier": "GenuineIntel", "ProcessorSpeed": 3494}, 1),
        ("SystemConfig", "ProcessorNumber", {"ProcessorCount": 20}, 1),
        ("SystemConfig", "DPI", {"MachineDPI": 288, "UserDPI": 96}, 1),
        ("SystemConfig", "OpticalDisk", {"DriveLetter": "D:", "ManufacturerName": "ASUS    "}, 1),
        ("SystemConfig", "PnP", {"ServiceName": "Serial", "UpperFilters": ["serenum"]}, 1),
        ("SystemConfig", "Services",
         {"ServiceName": "AppIDSvc", "LoadOrderGroup": "ProfSvc_Group",
          "SvchostGroup": "LocalServiceNetworkRestricted"}, 1),
        ("SystemConfigEx", "NetworkInterface",
         {"InterfaceIndex": 24, "PhysicalAddressLength": 6, "Mtu": 1500, "Type": 6,
          "TransmitLinkSpeed": 10000000000}, 1),
        ("SystemConfig", "NumaNode",
         {"NodeCount": 1, "NodeMap": [{"Mask": "0xfffff", "Group": 0,
                                       "Reserved": "000000000000"}]}, 1),
    ],
    # The relogged sample's DeviceFamily packs the build its BuildInfo names
    # (10.0.22000.613).
    "SelfDescribingSingleEvent.etl": [
        ("SystemConfigEx", "DeviceFamily",
         {"UAPInfo": "0xa000055f00265", "DeviceFamily": 3, "DeviceForm": 0}, 1),
    ],
}


def fail(why):
    print("public_traces: " + why)
    sys.exit(1)


folder = os.environ.get(var, "")
if not folder or not os.path.isdir(folder):
    print("public_traces: %s names no folder, skipped" % var)
    sys.exit(77)

files = []
for root, _, names in os.walk(folder):
    files += [os.path.join(root, n) for n in names if n.lower().endswith(".etl")]
files.sort()
if not files:
    fail("no .etl file under %s" % folder)
rels = {os.path.relpath(f, folder).replace(os.sep, "/") for f in files}
if var == "PETW_PUBLIC_TRACES":
    for rel in EXPECT:
        if rel.count("/") and rel not in rels:
            fail("%s is missing from %s (scripts/fetch-public-traces.sh fetches it)" %
                 (rel, folder))

problems = []
for path in files:
    rel = os.path.relpath(path, folder).replace(os.sep, "/")
    run = subprocess.run([petw, "dump", "--format", "json", path], capture_output=True,
                         text=True)
    if run.returncode != 0:
        fail("petw dump %s: exit %d: %s" % (rel, run.returncode, run.stderr[-2000:]))
    expect = EXPECT.get(rel, [])
    seen = [0] * len(expect)
    raw, known, records = {}, {}, 0
    for line in run.stdout.splitlines():
        e = json.loads(line)
        records += 1
        provider, fields = e.get("provider") or "", e.get("fields") or {}
        if e.get("event") is None:
            if GUID.match(provider) and e.get("provider_guid") not in KERNEL_GUIDS:
                continue  # a provider whose schema the file lacks: not ours
            key = (provider, e.get("version"), e.get("opcode"))
            tally = known if key in KNOWN_RAW else raw
            tally[key] = tally.get(key, 0) + 1
            continue
        for i, (p, name, want, _) in enumerate(expect):
            if provider == p and e["event"] == name and all(
                    fields.get(k) == v for k, v in want.items()):
                seen[i] += 1
    for key, n in sorted(raw.items(), key=str):
        problems.append("%s: %d raw %s v%s opcode %s records" % (rel, n, key[0], key[1], key[2]))
    for (p, name, want, least), n in zip(expect, seen):
        if n < least:
            problems.append("%s: %d %s/%s records with %s, expected %d or more" %
                            (rel, n, p, name, json.dumps(want), least))
    print("%s: %d records; kernel records raw: %d, known raw: %s" %
          (rel, records, sum(raw.values()),
           ", ".join("%s v%s op %s (%s) x%d" % (k + (KNOWN_RAW[k], n)) for k, n in known.items())
           or "none"))
if problems:
    fail("\n  " + "\n  ".join(problems))
print("public_traces: every kernel-class and KernelTraceControl record decoded")
