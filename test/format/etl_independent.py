#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An ETL reader written from the on-disk layout alone (Microsoft's public
structures as documented in docs/format.md), sharing no code with petw.

    etl_independent.py FILE            print one line per record
    etl_independent.py --compare FILE DUMP_COMMAND...
        run DUMP_COMMAND (which prints petw's view in the same line format)
        and check both readers see exactly the same records.

Line format: kind provider id version channel level opcode task keyword pid
tid timestamp activity related payload-hex (kind: S = system header record,
E = EVENT_HEADER record).
"""
import struct
import subprocess
import sys


def guid(b):
    d1, d2, d3 = struct.unpack_from("<IHH", b, 0)
    d4 = b[8:16]
    return "%08x-%04x-%04x-%s-%s" % (d1, d2, d3, d4[:2].hex(), d4[2:].hex())


def records(data):
    if len(data) < 0x48:
        raise ValueError("no header buffer")
    buffer_size = struct.unpack_from("<I", data, 0)[0]
    out = []
    for base in range(0, len(data) - buffer_size + 1, buffer_size):
        buf = data[base:base + buffer_size]
        size, saved = struct.unpack_from("<II", buf, 0)
        if size != buffer_size:
            raise ValueError("buffer at %d: BufferSize %d" % (base, size))
        pos = 0x48
        while pos + 4 <= saved:
            if buf[pos:pos + 4] == b"\xff\xff\xff\xff":
                break
            htype, marker = buf[pos + 2], buf[pos + 3]
            if marker & 0xC0 != 0xC0:
                raise ValueError("record without marker at %d" % (base + pos))
            if htype in (1, 2):  # SYSTEM_TRACE_HEADER 32/64
                ver, _, _, rsize, hook, tid, pid, ts = struct.unpack_from("<HBBHHIIq", buf, pos)
                out.append(("S", "68fdd900-4a3e-11d1-84f4-0000f80464e3", 0, ver & 0xff, 0, 0,
                            hook & 0xff, hook >> 8, 0, pid, tid, ts, "-", "-",
                            buf[pos + 0x20:pos + rsize].hex()))
            elif htype in (0x12, 0x13):  # EVENT_HEADER 32/64
                rsize, _, flags, _, tid, pid, ts = struct.unpack_from("<HHHHIIq", buf, pos)
                prov = guid(buf[pos + 24:pos + 40])
                eid, ver, chan, lvl, opc, task, kw = struct.unpack_from("<HBBBBHQ", buf, pos + 40)
                act = guid(buf[pos + 64:pos + 80])
                p = pos + 0x50
                related = "-"
                if flags & 1:
                    while True:
                        total, etype, link, dsize = struct.unpack_from("<HHHH", buf, p)
                        if etype == 1:
                            related = guid(buf[p + 8:p + 24])
                        p += total
                        if not link & 1:
                            break
                out.append(("E", prov, eid, ver, chan, lvl, opc, task, kw, pid, tid, ts, act,
                            related, buf[p:pos + rsize].hex()))
            else:
                raise ValueError("unexpected header type %#x" % htype)
            pos += (rsize + 7) & ~7
    return out


def header_checks(data):
    """The consistency checks a strict reader applies to TRACE_LOGFILE_HEADER
    (some divide by CpuSpeedInMHz or TimerResolution); returns a list of
    problems, empty when the header is sound."""
    buffer_size = struct.unpack_from("<I", data, 0)[0]
    rec = 0x48
    if data[rec + 2] != 2:
        return ["first record is not a 64-bit SYSTEM header"]
    lh = rec + 0x20
    (bsize, version, provider_version, ncpu, end_time, timer_res, max_size, mode,
     written, start_buffers, ptr_size, lost, cpu_mhz) = struct.unpack_from("<IIIIqIIIIIIII", data, lh)
    bias = struct.unpack_from("<i", data, lh + 0x48)[0]
    std_name = data[lh + 0x4C:lh + 0x4C + 64].decode("utf-16-le").split("\0")[0]
    boot, perf_freq, start_time, clock, buffers_lost = struct.unpack_from("<qqqII", data, lh + 0xF8)
    problems = []
    def need(ok, what):
        if not ok:
            problems.append(what)
    need(bsize == buffer_size, "BufferSize %d differs from the buffer's %d" % (bsize, buffer_size))
    need(version & 0xFF >= 5, "Version major %d" % (version & 0xFF))
    need(ncpu >= 1, "NumberOfProcessors 0")
    need(cpu_mhz > 0, "CpuSpeedInMHz 0")
    need(timer_res > 0, "TimerResolution 0")
    need(ptr_size in (4, 8), "PointerSize %d" % ptr_size)
    need(perf_freq > 0, "PerfFreq %d" % perf_freq)
    need(clock in (1, 2, 3), "ReservedFlags (clock) %d" % clock)
    need(0 < boot <= start_time, "BootTime %d after StartTime %d" % (boot, start_time))
    need(start_time <= end_time, "EndTime %d before StartTime %d" % (end_time, start_time))
    need(-14 * 60 <= bias <= 14 * 60, "TimeZone bias %d minutes" % bias)
    need(std_name != "", "TimeZone StandardName empty")
    need(written == len(data) // buffer_size,
         "BuffersWritten %d, file holds %d" % (written, len(data) // buffer_size))
    return problems


def fmt(r):
    return " ".join(str(x) for x in r)


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--compare":
        path, cmd = sys.argv[2], sys.argv[3:]
        problems = header_checks(open(path, "rb").read())
        if problems:
            print("HEADER: " + "; ".join(problems))
            return 1
        theirs = subprocess.run(cmd + [path], check=True, capture_output=True, text=True).stdout
        petw = sorted(line for line in theirs.splitlines() if line)
        mine = sorted(fmt(r) for r in records(open(path, "rb").read()))
        if petw != mine:
            print("MISMATCH: petw %d records, independent reader %d" % (len(petw), len(mine)))
            for a, b in zip(petw, mine):
                if a != b:
                    print("petw:        " + a[:200])
                    print("independent: " + b[:200])
                    break
            return 1
        print("independent reader agrees on %d records" % len(mine))
        return 0
    for r in records(open(sys.argv[1], "rb").read()):
        print(fmt(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
