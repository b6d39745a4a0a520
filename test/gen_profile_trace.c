/* SPDX-License-Identifier: MIT */
/* gen_profile_trace FILE [32] [shift] [keys] [clr] [child] [elf] [garbage] [idle] [offcpu] [memory]
 * [net] [big MB] [ntdll STAMP SIZE]: writes a small .etl file as Windows' kernel logger writes a
 * CPU profile (logfile header buffer, then data buffers of SYSTEM, COMPACT, PERFINFO and FULL
 * records; with `32`, the records of a 32-bit system: 32-bit header types and 4-byte pointers,
 * addresses below 4 GB), for the tests of `petw report` and `petw convert`'s profiles. Its content
 * is known: Process/DCStart pid 1234 "app.exe"; Thread/DCStart tids 77 and 78; Image/DCStart
 * C:\app\app.exe at 0x140000000, ntdll.dll at 0x7ffb10000000 (pid 1234), ntoskrnl.exe at
 * 0xfffff80000000000 (pid 0); KernelTraceControl ImageID, DbgID_RSDS and FileVersion for app.exe
 * (PDB app.pdb, GUID 01020304-0506-0708-090a-0b0c0d0e0f10, age 3), and for ntdll.dll None,
 * DbgID_NB10 (ntdll.dbg, checksum 0x1f2a3b, timestamp 0x5010ae7a, size 0x1f0000), DbgPPDB (0x0100,
 * 0x504d) and a version 0 FileVersion (6.2.9200.16384) as Windows 8 writes it;
 * PerfInfo/CollectionStart: a 1 ms interval (10000 x 100 ns). (32-bit: app.exe at 0x400000,
 * ntdll.dll at 0x77000000, ntoskrnl.exe at 0x82000000.) CPU 1: 70 samples, each with its StackWalk
 * (innermost first): 40 x tid 77  app+0x1010, app+0x2000, ntdll+0x5000 20 x tid 78  ntdll+0x9000,
 * app+0x2100, ntdll+0x5000 10 x tid 77  ntoskrnl+0x3000, app+0x1500, app+0x2000, ntdll+0x5000 CPU 0
 * (100 ns ticks): 2000 CSwitch 0 -> 77; 4000 CSwitch 77 -> 0 (77 Waiting, UserRequest); 5000
 * ReadyThread 77 by 78; 6000 CSwitch 0 -> 77; 8000 CSwitch 77 -> 0 (Waiting, UserRequest). DiskIo
 * (process 0 in the header; the issuing thread says whose): Read 4096 bytes x 3 by tid 77 (response
 * 0.1, 0.2, 0.3 ms), Write 8192 bytes by tid 78 (0.05 ms). With `net`, TcpIp and UdpIp v2 records
 * of pid 1234 (thread 77) from 4450 to 4730: TCP 10.0.0.5:50000 to 93.184.216.34:443 Connect, 3
 * Send of 1000 bytes, 2 Recv of 1500 (header without a process or thread, as from a DPC), a
 * Retransmit, Disconnect at 4550; a Send cut to 10 bytes and a Recv of version 9 (hostile:
 * skipped); TCP [2001:db8::1]:50001 to [2001:db8::1:0:0:2]:8080 2 SendIPV6 of 400 bytes, a RecvIPV6
 * of 700; UDP 10.0.0.5:5353 to 224.0.0.251:5353 2 Send of 100 bytes, a Recv of 50. Provider
 * {6e0c3b5a-...}, task 5: Start 3000 / Stop 3500 and Start 4000 / Stop 5000 on thread 77 (EVENT
 * records without a schema). So thread 77 runs 0.4 ms, waits 0.1 ms and is ready 0.1 ms. With
 * `offcpu`, StackWalk events follow the ReadyThread (78's stack: app+0x2200,
 * ntdll+0x5000) and the CSwitch at 6000 (77's, where it had blocked:
 * ntoskrnl+0x3100, ntdll+0x7000, app+0x1800, ntdll+0x5000), as Windows
 * records them with CSwitch and ReadyThread stack walking. With
 * `shift` (for diffs), the first two stacks come 20 and 40 times. With
 * `ntdll STAMP SIZE`, ntdll.dll's Image event has that PE time stamp and
 * size, and a KernelTraceControl ImageID says them too.
 * With `idle`, the Idle process is there too, as Windows' rundown gives it (Process/DCStart pid 0
 * with no name, Thread/DCStart tid 0), and CPU 1 has 5 more samples in it (tid 0, ntoskrnl+0x3000).
 * With `keys`, CPU 1's samples instead have cached stacks, as Windows 8 and
 * later record them (StackKeyKernel/StackKeyUser naming a key, the key's
 * frames in a later KeyDelete or KeyRundown):
 *   10 x tid 77  kernel key A0 + user key B0: ntoskrnl+0x3000, +0x3100,
 *                then app+0x1500, app+0x2000, ntdll+0x5000
 *    5 x tid 78  user key B1: ntdll+0x9000, app+0x2100, ntdll+0x5000
 *   (KeyDelete A0 and B0: B0 then names another stack)
 *    7 x tid 77  user key B0 again: app+0x1010, ntdll+0x5000 (KeyRundown)
 *    3 x tid 78  user key B2, never defined: the sampled address alone,
 *                app+0x1234
 *   and processes 555 "late.exe" (a Process/DCEnd alone) and 556
 *   "gone.exe" (Process/Defunct), both children of 4.
 * With `clr`, CPU 1's samples are instead .NET code (addresses in no image)
 * that the .NET runtime's events name: ModuleLoad "C:\app\Contoso.Orders.dll"
 * and MethodLoadVerbose Contoso.Orders.Place at code+0x100 (0x80 bytes;
 * code is 0x7ff000000000, 0x30000000 in a 32-bit trace); at the end the
 * rundown's MethodDCEndVerbose "Total" (no namespace) at code+0x4000 (0x40
 * bytes), then its module, ModuleDCEnd
 * "C:\app\Lib.exe":
 *    6 x tid 77  Place+0x20, app+0x2000, ntdll+0x5000
 *    4 x tid 77  Total+0x10, Place+0x50, app+0x2000, ntdll+0x5000
 * With `child`, process 4321 "child.exe" (a child of 4) starts at 1500 and
 * ends at 7000, its command line 300 characters long.
 * With `elf`, the images' paths are Linux's (/opt/app/app.exe,
 * /usr/lib/ntdll.dll, /boot/ntoskrnl.exe): frames read module+0xOFFSET and
 * stacks are frame-pointer walks. With `garbage`, the 10 samples of tid 77
 * through ntoskrnl have 0x7370616d2f ("/maps", in no image) between
 * app+0x1500 and app+0x2000.
 * With `memory`, PageFault and FileIo records as Windows writes them (times
 * in 100 ns ticks, the clock's): tid 77 takes 5 DemandZeroFault, 3
 * TransitionFault, 2 CopyOnWrite and 4 HardPageFault; FileIo Name names
 * FileObject 0xA000 "\Device\HarddiskVolume3\app\data.bin" and FileRundown
 * 0xB000 "\Windows\System32\ntdll.dll"; HardFault (header process 0, TThreadId
 * 77) in 0xA000 at 4500 from 4000 (4096 bytes), 4600 from 4550 (4096), 4800
 * from 4700 (32768), in 0xB000 at 4900 from 4880 (8192); VirtualAlloc of
 * process 1234 (ProcessId field, header process 0): alloc 0x10000, alloc
 * 0x20000, free 0x10000, alloc 0x8000. And hostile ones, which the model
 * skips: a HardFault of 10 bytes, a VirtualAlloc of 8, a fault of 4, a
 * VirtualFree of RegionSize 2^64-1.
 * With `big MB` (the benchmarks' large traces), the samples are instead MB
 * megabytes of buffers streamed to the file: 1 kHz on each of the 2 CPUs,
 * each sample with a 30-frame stack, one of 20,000 distinct stacks over
 * 4,096 functions of app.exe, and a CSwitch pair every fourth sample. */
#define GEN_BUF 65536
#define GEN_MAX_BUFFERS 2
#include "common/gen_trace.h"

static uint32_t ptr; /* pointer size: 8, or 4 */
/* ntdll.dll's PE time stamp and size (`ntdll STAMP SIZE`; 0: none given). */
static uint32_t ntdll_stamp, ntdll_size;

/* A pointer-sized value at p; returns its size. */
static uint32_t put_ptr(uint8_t *p, uint64_t v)
{
    if (gen_bits32)
        petw__wr32(p, (uint32_t)v);
    else
        petw__wr64(p, v);
    return ptr;
}

/* A Process record of opcode `op` (1 Start, 2 End, 3 DCStart, 4 DCEnd,
 * 39 Defunct) with command line `command` (NULL: the image's name). */
static void process_command(uint8_t op, uint32_t pid, const char *image, const char *command,
                            int64_t ts)
{
    uint8_t p[2048];
    memset(p, 0, sizeof(p));
    /* UniqueProcessKey, pid, parent, session, exit status, directory table
     * base, flags; TOKEN_USER (the SID's address, attributes), S-1-5-18. */
    uint32_t n = ptr;
    petw__wr32(p + n, pid);
    petw__wr32(p + n + 4, 4);
    n += 16 + ptr + 4;
    n += put_ptr(p + n, 0xffffa00000001000ull);
    n += ptr;
    p[n] = 1, p[n + 1] = 1, p[n + 7] = 5, p[n + 8] = 18;
    n += 12;
    memcpy(p + n, image, strlen(image) + 1);
    n += (uint32_t)strlen(image) + 1;
    n += put_utf16(p + n, command ? command : image);
    n += put_utf16(p + n, "");
    n += put_utf16(p + n, "");
    record(PETW__HDR_SYSTEM64, (uint16_t)(0x0300 | op), 4, pid, 0, ts, p, n);
}

static void process_record(uint8_t op, uint32_t pid, const char *image, int64_t ts)
{
    process_command(op, pid, image, NULL, ts);
}

static void thread_dcstart(uint32_t pid, uint32_t tid, int64_t ts)
{
    uint8_t p[72];
    memset(p, 0, sizeof(p));
    petw__wr32(p, pid);
    petw__wr32(p + 4, tid);
    /* 7 pointers (stacks, affinity, start address, TEB), tag, 4 bytes. */
    record(PETW__HDR_SYSTEM64, 0x0503, 3, pid, tid, ts, p, 8 + 7 * ptr + 8);
}

static void image_dcstart(uint32_t pid, uint64_t base, uint64_t size, const char *path, int64_t ts)
{
    uint8_t p[256];
    memset(p, 0, sizeof(p));
    uint32_t n = put_ptr(p, base);
    n += put_ptr(p + n, size);
    petw__wr32(p + n, pid);
    if (strstr(path, "ntdll.dll"))
        petw__wr32(p + n + 8, ntdll_stamp); /* TimeDateStamp */
    n += 12 + 4;               /* pid, checksum, time stamp; signature level and type, reserved */
    n += put_ptr(p + n, base); /* DefaultBase */
    n += 16;                   /* Reserved1-4 */
    n += put_utf16(p + n, path);
    record(PETW__HDR_SYSTEM64, 0x1403, 3, pid, 0, ts, p, n);
}

/* A FULL (EVENT_TRACE_HEADER) record of KernelTraceControl, opcode `op`,
 * version `version`. */
static void ktc_record(uint8_t op, uint8_t version, uint32_t pid, int64_t ts,
                       const uint8_t *payload, uint32_t n)
{
    static const uint8_t guid[16] = {0xd7, 0x75, 0xe6, 0xb3, 0x54, 0x25, 0x18, 0x4f,
                                     0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde};
    uint8_t *r = gen_buffer() + at;
    uint32_t size = PETW__FULL_HEADER_SIZE + n;
    memset(r, 0, PETW__ALIGN8(size));
    petw__wr16(r, (uint16_t)size);
    r[2] = gen_bits32 ? PETW__HDR_FULL32 : PETW__HDR_FULL64, r[3] = 0xC0;
    r[4] = op;
    petw__wr16(r + 6, version);
    petw__wr32(r + 12, pid);
    petw__wr64(r + 16, (uint64_t)ts);
    memcpy(r + 24, guid, 16);
    memcpy(r + PETW__FULL_HEADER_SIZE, payload, n);
    at += PETW__ALIGN8(size);
}

/* What xperf's merge writes for an image: ImageID, DbgID_RSDS, FileVersion. */
static void image_identity(uint32_t pid, uint64_t base, uint64_t size, const char *name, int64_t ts)
{
    uint8_t p[512];
    memset(p, 0, sizeof(p));
    uint32_t n = put_ptr(p, base);
    n += put_ptr(p + n, size);
    petw__wr32(p + n, pid);
    petw__wr32(p + n + 4, 0x5f000000); /* TimeDateStamp */
    n += 8;
    n += put_utf16(p + n, name);
    ktc_record(0, 2, pid, ts, p, n);
    memset(p, 0, sizeof(p));
    n = put_ptr(p, base);
    petw__wr32(p + n, pid);
    n += 4;
    for (int k = 0; k < 16; k++) /* GUID 01020304-0506-0708-090a-0b0c0d0e0f10 */
        p[n + k] = (uint8_t)(k + 1);
    petw__wr32(p + n, 0x01020304);
    petw__wr16(p + n + 4, 0x0506);
    petw__wr16(p + n + 6, 0x0708);
    n += 16;
    petw__wr32(p + n, 3); /* Age */
    n += 4;
    memcpy(p + n, "app.pdb", 8);
    n += 8;
    ktc_record(36, 2, pid, ts, p, n);
    memset(p, 0, sizeof(p));
    petw__wr32(p, (uint32_t)size);
    petw__wr32(p + 4, 0x5f000000);
    n = 8;
    const char *const strings[] = {name,  "The app", "1.2.3.4", "1.2.3.4", "0409",
                                   "App", "Contoso", "1.2",     "",        ""};
    for (size_t k = 0; k < sizeof(strings) / sizeof(strings[0]); k++)
        n += put_utf16(p + n, strings[k]);
    ktc_record(64, 2, pid, ts, p, n);
}

/* Records of other debug directory entries, and Windows 8's FileVersion
 * (version 0), for ntdll.dll. */
static void image_debug_entries(uint32_t pid, uint64_t base, int64_t ts)
{
    uint8_t p[512];
    memset(p, 0, sizeof(p));
    uint32_t n = put_ptr(p, base);
    petw__wr32(p + n, pid);
    n += 4;
    ktc_record(32, 2, pid, ts, p, n); /* None */
    petw__wr32(p + n, 0x1f2a3b);      /* DbgID_NB10: checksum, timestamp, size, name */
    petw__wr32(p + n + 4, 0x5010ae7a);
    petw__wr32(p + n + 8, 0x1f0000);
    uint32_t nb10 = n + 12 + put_utf16(p + n + 12, "ntdll.dbg");
    ktc_record(34, 2, pid, ts, p, nb10);
    petw__wr32(p + n, 0x5010ae7a); /* DbgPPDB: timestamp, major and minor version */
    petw__wr16(p + n + 4, 0x100);
    petw__wr16(p + n + 6, 0x504d);
    ktc_record(38, 2, pid, ts, p, n + 8);
    memset(p, 0, sizeof(p));
    petw__wr32(p, 0x157000);
    petw__wr32(p + 4, 0x5010ae7a);
    n = 8;
    const char *const strings[] = {"ntdll.dll",
                                   "NT Layer DLL",
                                   "6.2.9200.16384 (win8_rtm.120725-1247)",
                                   "6.2.9200.16384",
                                   "1033",
                                   "Microsoft Windows Operating System",
                                   "Microsoft Corporation",
                                   "6.2.9200.16384",
                                   "",
                                   ""};
    for (size_t k = 0; k < sizeof(strings) / sizeof(strings[0]); k++)
        n += put_utf16(p + n, strings[k]);
    ktc_record(64, 0, pid, ts, p, n);
}

static void cswitch(uint32_t new_tid, uint32_t old_tid, int64_t ts)
{
    uint8_t p[24];
    memset(p, 0, sizeof(p));
    petw__wr32(p, new_tid);
    petw__wr32(p + 4, old_tid);
    p[12] = 6; /* OldThreadWaitReason: UserRequest */
    p[14] = 5; /* OldThreadState: Waiting */
    record(PETW__HDR_COMPACT64, 0x0524, 2, 0, new_tid, ts, p, 24);
}

static void page_fault(uint8_t op, uint32_t tid, uint64_t va, int64_t ts)
{
    uint8_t p[16];
    uint32_t n = put_ptr(p, va);
    n += put_ptr(p + n, 0x140001000ull); /* ProgramCounter */
    record(PETW__HDR_SYSTEM64, (uint16_t)(0x0200 | op), 2, 1234, tid, ts, p, n);
}

static void file_name(uint8_t op, uint64_t object, const char *name, int64_t ts)
{
    uint8_t p[512];
    uint32_t n = put_ptr(p, object);
    n += put_utf16(p + n, name);
    record(PETW__HDR_SYSTEM64, (uint16_t)(0x0400 | op), 2, 0, 0, ts, p, n);
}

static void hard_fault(uint64_t object, uint64_t offset, uint32_t bytes, int64_t start, int64_t ts)
{
    uint8_t p[48];
    petw__wr64(p, (uint64_t)start); /* InitialTime, in clock ticks */
    petw__wr64(p + 8, offset);      /* ReadOffset */
    uint32_t n = 16 + put_ptr(p + 16, 0x7ff600010000ull + offset);
    n += put_ptr(p + n, object);
    petw__wr32(p + n, 77); /* TThreadId */
    petw__wr32(p + n + 4, bytes);
    record(PETW__HDR_SYSTEM64, 0x0220, 2, 0, 0, ts, p, n + 8);
}

static void virtual_alloc(int free_op, uint64_t base, uint64_t size, int64_t ts, uint32_t cut)
{
    uint8_t p[24];
    uint32_t n = put_ptr(p, base);
    n += put_ptr(p + n, size);
    petw__wr32(p + n, 1234);
    petw__wr32(p + n + 4, free_op ? 0x8000 : 0x3000);
    record(PETW__HDR_SYSTEM64, free_op ? 0x0263 : 0x0262, 2, 0, 78, ts, p, cut ? cut : n + 8);
}

static void memory_records(void)
{
    for (int k = 0; k < 5; k++)
        page_fault(11, 77, 0x20000000ull + 4096 * (uint64_t)k, 4010 + k);
    for (int k = 0; k < 3; k++)
        page_fault(10, 77, 0x30000000ull + 4096 * (uint64_t)k, 4020 + k);
    for (int k = 0; k < 2; k++)
        page_fault(12, 77, 0x31000000ull + 4096 * (uint64_t)k, 4030 + k);
    for (int k = 0; k < 4; k++)
        page_fault(14, 77, 0x7ff600010000ull + 4096 * (uint64_t)k, 4040 + k);
    file_name(0, 0xA000, "\\Device\\HarddiskVolume3\\app\\data.bin", 4050);
    file_name(36, 0xB000, "\\Windows\\System32\\ntdll.dll", 4051);
    hard_fault(0xA000, 0, 4096, 4000, 4500);
    hard_fault(0xA000, 4096, 4096, 4550, 4600);
    hard_fault(0xA000, 65536, 32768, 4700, 4800);
    hard_fault(0xB000, 8192, 8192, 4880, 4900);
    virtual_alloc(0, 0x50000000, 0x10000, 4910, 0);
    virtual_alloc(0, 0x50010000, 0x20000, 4920, 0);
    virtual_alloc(1, 0x50000000, 0x10000, 4930, 0);
    virtual_alloc(0, 0x60000000, 0x8000, 4940, 0);
    /* Hostile: cut short, and a size no address space has. */
    uint8_t cut[16] = {0};
    record(PETW__HDR_SYSTEM64, 0x0220, 2, 0, 0, 4950, cut, 10);
    virtual_alloc(0, 0x70000000, 0x1000, 4951, 8);
    record(PETW__HDR_SYSTEM64, 0x020B, 2, 1234, 77, 4952, cut, 4);
    virtual_alloc(1, 0x70000000, UINT64_MAX, 4953, 0);
}

static void ready(uint32_t tid, uint32_t by, int64_t ts)
{
    uint8_t p[8];
    memset(p, 0, sizeof(p));
    petw__wr32(p, tid);
    record(PETW__HDR_COMPACT64, 0x0532, 2, 1234, by, ts, p, 8);
}

static void disk(int write, uint32_t tid, uint32_t bytes, uint64_t response, int64_t ts)
{
    uint8_t p[64];
    memset(p, 0, sizeof(p));
    petw__wr32(p + 8, bytes);
    petw__wr64(p + 16, 0x100000); /* ByteOffset */
    uint32_t n = 24 + 2 * ptr;    /* FileObject, Irp */
    petw__wr64(p + n, response);  /* HighResResponseTime, in clock ticks (100 ns here) */
    petw__wr32(p + n + 8, tid);   /* IssuingThreadId */
    record(PETW__HDR_SYSTEM64, write ? 0x010B : 0x010A, 3, 0, 0, ts, p, n + 12);
}

/* A TcpIp (group 6) or UdpIp (8) v2 record of process 1234's thread 77
 * (the header's: `hpid`, `htid`) in Windows' layout: PID, size, daddr,
 * saddr, dport, sport (network order), then per opcode's template:
 * Send startime, endtime, seqnum, connid; Connect and Accept options,
 * seqnum, connid; Recv, Disconnect, Retransmit connid, seqnum; UdpIp
 * seqnum, connid. `cut`: the payload's size instead (a hostile record). */
static void net(uint8_t group, uint8_t op, uint8_t version, uint32_t hpid, uint32_t htid,
                uint32_t size, const uint8_t *remote, const uint8_t *local, uint16_t rport,
                uint16_t lport, int64_t ts, uint32_t cut)
{
    uint8_t p[128];
    memset(p, 0, sizeof(p));
    uint32_t a = op >= 26 ? 16 : 4, base = op >= 26 ? op - 16u : op, n;
    petw__wr32(p, 1234);
    petw__wr32(p + 4, size);
    memcpy(p + 8, remote, a);
    memcpy(p + 8 + a, local, a);
    n = 8 + 2 * a;
    p[n] = (uint8_t)(rport >> 8), p[n + 1] = (uint8_t)rport;
    p[n + 2] = (uint8_t)(lport >> 8), p[n + 3] = (uint8_t)lport;
    n += 4;
    if (group == 8)
        n += 4 + put_ptr(p + n + 4, 0xffffb00000002000ull);
    else if (base == 10)
        n += 12 + put_ptr(p + n + 12, 0xffffb00000001000ull + a);
    else if (base == 12 || base == 15)
        n += 20 + put_ptr(p + n + 20, 0xffffb00000001000ull + a);
    else
        n += put_ptr(p + n, 0xffffb00000001000ull + a) + 4;
    record(PETW__HDR_SYSTEM64, (uint16_t)(group << 8 | op), version, hpid, htid, ts, p,
           cut ? cut : n);
}

/* The `net` option's records (see the top of the file). */
static void net_records(void)
{
    static const uint8_t remote4[4] = {93, 184, 216, 34}, local4[4] = {10, 0, 0, 5},
                         mdns[4] = {224, 0, 0, 251};
    static const uint8_t remote6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2};
    static const uint8_t local6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    net(6, 12, 2, 1234, 77, 0, remote4, local4, 443, 50000, 4450, 0); /* Connect */
    for (int k = 0; k < 3; k++)                                       /* Send */
        net(6, 10, 2, 1234, 77, 1000, remote4, local4, 443, 50000, 4460 + 10 * k, 0);
    for (int k = 0; k < 2; k++) /* Recv, from a DPC: no process or thread in the header */
        net(6, 11, 2, UINT32_MAX, UINT32_MAX, 1500, remote4, local4, 443, 50000, 4490 + 10 * k, 0);
    net(6, 14, 2, 1234, 77, 0, remote4, local4, 443, 50000, 4510, 0);     /* Retransmit */
    net(6, 10, 2, 1234, 77, 1000, remote4, local4, 443, 50000, 4520, 10); /* cut short */
    net(6, 11, 9, 1234, 77, 1000, remote4, local4, 443, 50000, 4530, 0);  /* unknown version */
    net(6, 13, 2, 1234, 77, 0, remote4, local4, 443, 50000, 4550, 0);     /* Disconnect */
    for (int k = 0; k < 2; k++)                                           /* SendIPV6 */
        net(6, 26, 2, 1234, 77, 400, remote6, local6, 8080, 50001, 4600 + 10 * k, 0);
    net(6, 27, 2, 1234, 77, 700, remote6, local6, 8080, 50001, 4630, 0); /* RecvIPV6 */
    for (int k = 0; k < 2; k++)                                          /* UdpIp Send */
        net(8, 10, 2, 1234, 77, 100, mdns, local4, 5353, 5353, 4700 + 10 * k, 0);
    net(8, 11, 2, 1234, 77, 50, mdns, local4, 5353, 5353, 4730, 0); /* UdpIp Recv */
}

/* An EVENT (EVENT_HEADER) record: a manifest provider's event, no payload. */
/* An EVENT (EVENT_HEADER) record of process 1234: a manifest provider's
 * event with `n` payload bytes. */
static void event_record(const uint8_t guid[16], uint16_t id, uint8_t version, uint8_t opcode,
                         uint16_t task, uint32_t tid, int64_t ts, const uint8_t *payload,
                         uint32_t n)
{
    uint8_t *r = gen_buffer() + at;
    memset(r, 0, PETW__ALIGN8(PETW__EVENT_HEADER_SIZE + n));
    petw__wr16(r, (uint16_t)(PETW__EVENT_HEADER_SIZE + n));
    r[2] = gen_bits32 ? PETW__HDR_EVENT32 : PETW__HDR_EVENT64, r[3] = 0xC0;
    petw__wr16(r + 4, PETW_EVENT_HEADER_FLAG_NO_CPUTIME);
    petw__wr32(r + 8, tid);
    petw__wr32(r + 12, 1234);
    petw__wr64(r + 16, (uint64_t)ts);
    memcpy(r + 24, guid, 16);
    petw__wr16(r + 40, id);
    r[42] = version;
    r[44] = 4; /* Level */
    r[45] = opcode;
    petw__wr16(r + 46, task);
    if (n)
        memcpy(r + PETW__EVENT_HEADER_SIZE, payload, n);
    at += PETW__ALIGN8(PETW__EVENT_HEADER_SIZE + n);
}

/* A Start (1) or Stop (2) of task 5, without a payload. */
static void activity(uint8_t opcode, uint32_t tid, int64_t ts)
{
    static const uint8_t guid[16] = {0x5a, 0x3b, 0x0c, 0x6e, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    event_record(guid, opcode, 0, opcode, 5, tid, ts, NULL, 0); /* Id: one per opcode */
}

/* StackWalk's Stack event after the event of `tid` at `ts`. */
static void stackwalk(uint32_t pid, uint32_t tid, int64_t ts, const uint64_t *frames, uint32_t n)
{
    uint8_t p[16 + 8 * 32];
    memset(p, 0, sizeof(p));
    petw__wr64(p, (uint64_t)ts);
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, tid);
    for (uint32_t i = 0; i < n; i++)
        put_ptr(p + 16 + ptr * i, frames[i]);
    record(PETW__HDR_PERFINFO64, 0x1820, 2, 0, 0, ts, p, 16 + ptr * n);
}

static void sample(uint32_t pid, uint32_t tid, int64_t ts, const uint64_t *frames, uint32_t n)
{
    uint8_t p[16 + 8 * 32];
    memset(p, 0, sizeof(p));
    uint32_t at_tid = put_ptr(p, frames[0]);
    petw__wr32(p + at_tid, tid);
    petw__wr16(p + at_tid + 4, 1);
    record(PETW__HDR_PERFINFO64, 0x0F2E, 2, 0, 0, ts, p, at_tid + 8);
    petw__wr64(p, (uint64_t)ts);
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, tid);
    for (uint32_t i = 0; i < n; i++)
        put_ptr(p + 16 + ptr * i, frames[i]);
    record(PETW__HDR_PERFINFO64, 0x1820, 2, 0, 0, ts, p, 16 + ptr * n);
}

/* The .NET runtime's (rundown 0) or its rundown provider's (1) GUID. */
static const uint8_t *clr_guid(int rundown)
{
    static const uint8_t runtime[16] = {0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e,
                                        0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4};
    static const uint8_t down[16] = {0x1c, 0x02, 0x69, 0xa6, 0x50, 0xc4, 0x09, 0x46,
                                     0xa0, 0x35, 0x5a, 0xf5, 0x9a, 0xf4, 0xdf, 0x18};
    return rundown ? down : runtime;
}

/* A method event of version 1 (MethodLoadVerbose: id 143 of the runtime;
 * MethodDCEndVerbose: 144 of the rundown provider). */
static void clr_method(uint16_t id, int rundown, uint64_t module, uint64_t start, uint32_t size,
                       const char *ns, const char *name, int64_t ts)
{
    uint8_t p[512];
    memset(p, 0, sizeof(p));
    petw__wr64(p, start ^ 0x5555); /* MethodID */
    petw__wr64(p + 8, module);
    petw__wr64(p + 16, start);
    petw__wr32(p + 24, size);
    petw__wr32(p + 28, 0x06000001); /* MethodToken */
    uint32_t n = 36;                /* and MethodFlags */
    n += put_utf16(p + n, ns);
    n += put_utf16(p + n, name);
    n += put_utf16(p + n, "void  ()");
    petw__wr16(p + n, 9); /* ClrInstanceID */
    event_record(clr_guid(rundown), id, 1, rundown ? 40 : 37, rundown ? 1 : 9, 77, ts, p, n + 2);
}

/* A module event of version 1 (ModuleLoad: 152 of the runtime;
 * ModuleDCEnd: 154 of the rundown provider). */
static void clr_module(uint16_t id, int rundown, uint64_t module, const char *path, int64_t ts)
{
    uint8_t p[512];
    memset(p, 0, sizeof(p));
    petw__wr64(p, module);
    petw__wr64(p + 8, module + 0x100); /* AssemblyID */
    uint32_t n = 24;                   /* and ModuleFlags, Reserved1 */
    n += put_utf16(p + n, path);
    n += put_utf16(p + n, "");
    petw__wr16(p + n, 9);
    event_record(clr_guid(rundown), id, 1, rundown ? 36 : 33, 10, 77, ts, p, n + 2);
}

/* .NET code (see the top): a method loaded while the trace ran and one
 * named by the rundown at its end, each module named by its own event. */
static void clr_samples(uint64_t app, uint64_t ntdll)
{
    const uint64_t code = gen_bits32 ? 0x30000000u : 0x7ff000000000ull;
    const uint64_t mod = code + 0xaa000000u, mod2 = code + 0xbb000000u;
    clr_module(152, 0, mod, "C:\\app\\Contoso.Orders.dll", 2000);
    clr_method(143, 0, mod, code + 0x100, 0x80, "Contoso.Orders", "Place", 2000);
    const uint64_t place[] = {code + 0x120, app + 0x2000, ntdll + 0x5000};
    const uint64_t total[] = {code + 0x4010, code + 0x150, app + 0x2000, ntdll + 0x5000};
    for (int k = 0; k < 10; k++) {
        if (k < 6)
            sample(1234, 77, 2001 + k, place, 3);
        else
            sample(1234, 77, 2001 + k, total, 4);
    }
    clr_method(144, 1, mod2, code + 0x4000, 0x40, "", "Total", 2100);
    clr_module(154, 1, mod2, "C:\\app\\Lib.exe", 2101);
}

/* `mb` megabytes of samples and switches, streamed (see the top). */
static void big_profile(uint64_t mb, uint64_t app, uint64_t ntdll)
{
    enum { FRAMES = 30, STACKS = 20000, FUNCTIONS = 4096 };
    const uint32_t worst =
        2 * (PETW__PERFINFO_HEADER_SIZE + 16 + 8 * FRAMES) + 2 * (PETW__COMPACT_HEADER_SIZE + 24);
    int64_t ts = 10000;
    uint64_t n = 0;
    while ((uint64_t)buffers * GEN_BUF < mb << 20) {
        begin_buffer((uint8_t)(buffers & 1));
        while (at + worst <= GEN_BUF) {
            uint64_t frames[FRAMES];
            uint32_t stack = (uint32_t)((n * 2654435761u) % STACKS);
            for (uint32_t d = 0; d + 1 < FRAMES; d++)
                frames[d] = app + 0x1000 + ((stack * 40503u + d * 977u) % FUNCTIONS) * 0x10;
            frames[FRAMES - 1] = ntdll + 0x5000;
            uint32_t tid = n & 1 ? 78 : 77;
            sample(1234, tid, ts, frames, FRAMES);
            if (n % 4 == 0) {
                cswitch(tid, 0, ts + 1);
                cswitch(0, tid, ts + 2);
            }
            ts += 5000; /* two CPUs at 1 kHz: a sample every 0.5 ms */
            n++;
        }
        end_buffer();
    }
}

/* A StackKeyKernel (user 0) or StackKeyUser (user 1) record: the stack of
 * the event at `ts` on thread `tid` is cache key `key`. */
static void stack_key(int user, uint32_t pid, uint32_t tid, int64_t ts, uint64_t key)
{
    uint8_t p[24];
    memset(p, 0, sizeof(p));
    petw__wr64(p, (uint64_t)ts);
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, tid);
    uint32_t n = 16 + put_ptr(p + 16, key);
    record(PETW__HDR_PERFINFO64, user ? 0x1826 : 0x1825, 2, 0, 0, ts, p, n);
}

/* A KeyDelete (rundown 0) or KeyRundown (1) record: key `key`'s frames. */
static void stack_key_def(int rundown, int64_t ts, uint64_t key, const uint64_t *frames, uint32_t n)
{
    uint8_t p[8 + 8 * 8];
    memset(p, 0, sizeof(p));
    uint32_t at_frames = put_ptr(p, key);
    for (uint32_t i = 0; i < n; i++)
        put_ptr(p + at_frames + ptr * i, frames[i]);
    record(PETW__HDR_PERFINFO64, rundown ? 0x1824 : 0x1823, 2, 0, 0, ts, p, at_frames + ptr * n);
}

/* A sample whose stack comes by key (0: no such part). */
static void keyed_sample(uint32_t tid, int64_t ts, uint64_t ip, uint64_t kkey, uint64_t ukey)
{
    uint8_t p[16];
    memset(p, 0, sizeof(p));
    uint32_t at_tid = put_ptr(p, ip);
    petw__wr32(p + at_tid, tid);
    petw__wr16(p + at_tid + 4, 1);
    record(PETW__HDR_PERFINFO64, 0x0F2E, 2, 0, 0, ts, p, at_tid + 8);
    if (kkey)
        stack_key(0, 1234, tid, ts, kkey);
    if (ukey)
        stack_key(1, 1234, tid, ts, ukey);
}

/* CPU 1's samples with cached stacks (see the top). */
static void keyed_samples(uint64_t app, uint64_t ntdll, uint64_t nt)
{
    const uint64_t a0[] = {nt + 0x3000, nt + 0x3100};
    const uint64_t b0[] = {app + 0x1500, app + 0x2000, ntdll + 0x5000};
    const uint64_t b0_again[] = {app + 0x1010, ntdll + 0x5000};
    const uint64_t b1[] = {ntdll + 0x9000, app + 0x2100, ntdll + 0x5000};
    const uint64_t ka0 = 0xA0A0A0A0, kb0 = 0xB0B0B0B0, kb1 = 0xB1B1B1B1, kb2 = 0xB2B2B2B2;
    int64_t ts = 2001;
    for (int k = 0; k < 15; k++, ts++) {
        if (k % 3 == 2)
            keyed_sample(78, ts, ntdll + 0x9000, 0, kb1);
        else
            keyed_sample(77, ts, nt + 0x3000, ka0, kb0);
    }
    stack_key_def(0, ts++, ka0, a0, 2);
    stack_key_def(0, ts++, kb0, b0, 3);
    for (int k = 0; k < 10; k++, ts++) {
        if (k < 7)
            keyed_sample(77, ts, app + 0x1010, 0, kb0);
        else
            keyed_sample(78, ts, app + 0x1234, 0, kb2);
    }
    stack_key_def(1, ts++, kb0, b0_again, 2);
    stack_key_def(1, ts++, kb1, b1, 3);
    process_record(4, 555, "late.exe", ts++); /* known by its rundown at the end alone */
    process_record(39, 556, "gone.exe", ts);
}

/* ImageID of ntdll.dll (`ntdll STAMP SIZE`): what names its frames from
 * its export table. */
static void ntdll_image_id(uint32_t pid, uint64_t base, int64_t ts)
{
    uint8_t p[128];
    memset(p, 0, sizeof(p));
    uint32_t n = put_ptr(p, base);
    n += put_ptr(p + n, ntdll_size);
    petw__wr32(p + n, pid);
    petw__wr32(p + n + 4, ntdll_stamp);
    n += 8;
    n += put_utf16(p + n, "ntdll.dll");
    ktc_record(0, 2, pid, ts, p, n);
}

int main(int argc, char **argv)
{
    int shift = 0, keys = 0, clr = 0, child = 0, elf = 0, garbage = 0, idle = 0, offcpu = 0,
        memory = 0, network = 0;
    uint64_t big = 0;
    for (int k = 2; k < argc; k++) {
        if (!strcmp(argv[k], "32"))
            gen_bits32 = 1;
        else if (!strcmp(argv[k], "shift"))
            shift = 1;
        else if (!strcmp(argv[k], "keys"))
            keys = 1;
        else if (!strcmp(argv[k], "clr"))
            clr = 1;
        else if (!strcmp(argv[k], "child"))
            child = 1;
        else if (!strcmp(argv[k], "elf"))
            elf = 1;
        else if (!strcmp(argv[k], "garbage"))
            garbage = 1;
        else if (!strcmp(argv[k], "idle"))
            idle = 1;
        else if (!strcmp(argv[k], "offcpu"))
            offcpu = 1;
        else if (!strcmp(argv[k], "memory"))
            memory = 1;
        else if (!strcmp(argv[k], "net"))
            network = 1;
        else if (!strcmp(argv[k], "big") && k + 1 < argc && (big = strtoull(argv[++k], NULL, 10)))
            continue;
        else if (!strcmp(argv[k], "ntdll") && k + 2 < argc) {
            ntdll_stamp = (uint32_t)strtoul(argv[++k], NULL, 0);
            ntdll_size = (uint32_t)strtoul(argv[++k], NULL, 0);
        } else
            argc = 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: gen_profile_trace FILE [32] [shift] [keys] [clr] [child] [elf] "
                        "[garbage] [idle] [offcpu] [memory] [big MB] [ntdll STAMP SIZE]\n");
        return 2;
    }
    if (big && gen_stream(argv[1]))
        return 1;
    ptr = gen_bits32 ? 4 : 8;
    const uint64_t app = gen_bits32 ? 0x400000u : 0x140000000ull;
    const uint64_t ntdll = gen_bits32 ? 0x77000000u : 0x7ffb10000000ull;
    const uint64_t nt = gen_bits32 ? 0x82000000u : 0xfffff80000000000ull;
    const uint64_t s1[] = {app + 0x1010, app + 0x2000, ntdll + 0x5000};
    const uint64_t s2[] = {ntdll + 0x9000, app + 0x2100, ntdll + 0x5000};
    const uint64_t s3[] = {nt + 0x3000, app + 0x1500, app + 0x2000, ntdll + 0x5000};
    /* A frame-pointer walk through code without frame pointers: "/maps" read
     * as a return address, then more of the stack. */
    const uint64_t s3_garbage[] = {nt + 0x3000, app + 0x1500, 0x7370616d2full, app + 0x2000,
                                   ntdll + 0x5000};
    begin_buffer(0);
    if (idle) { /* as Windows' rundown names it: not at all */
        process_record(3, 0, "", 1000);
        thread_dcstart(0, 0, 1001);
    }
    process_record(3, 1234, "app.exe", 1000);
    thread_dcstart(1234, 77, 1001);
    thread_dcstart(1234, 78, 1001);
    image_dcstart(1234, app, 0x20000, elf ? "/opt/app/app.exe" : "C:\\app\\app.exe", 1002);
    image_identity(1234, app, 0x20000, "app.exe", 1002);
    image_dcstart(1234, ntdll, ntdll_size ? ntdll_size : 0x1f0000,
                  elf ? "/usr/lib/ntdll.dll" : "C:\\Windows\\System32\\ntdll.dll", 1002);
    image_debug_entries(1234, ntdll, 1002);
    if (ntdll_size)
        ntdll_image_id(1234, ntdll, 1002);
    image_dcstart(0, nt, 0x1000000,
                  elf ? "/boot/ntoskrnl.exe" : "\\SystemRoot\\system32\\ntoskrnl.exe", 1002);
    uint8_t p[32];
    memset(p, 0, sizeof(p));
    petw__wr32(p + 4, 10000); /* CollectionStart v3: Source 0, NewInterval, OldInterval */
    petw__wr32(p + 8, 10000);
    record(PETW__HDR_SYSTEM64, 0x0F49, 3, 0, 0, 1003, p, 12 + put_utf16(p + 12, "Timer"));
    if (child) {
        char command[400] = "child.exe";
        for (size_t k = strlen(command); k < 300; k++)
            command[k] = k % 2 ? ' ' : 'x';
        process_command(1, 4321, "child.exe", command, 1500);
        process_command(2, 4321, "child.exe", command, 7000);
    }
    cswitch(77, 0, 2000);
    activity(1, 77, 3000);
    activity(2, 77, 3500);
    cswitch(0, 77, 4000);
    activity(1, 77, 4000);
    disk(0, 77, 4096, 1000, 4100);
    disk(0, 77, 4096, 2000, 4200);
    disk(0, 77, 4096, 3000, 4300);
    disk(1, 78, 8192, 500, 4400);
    if (network)
        net_records();
    ready(77, 78, 5000);
    if (offcpu) /* the readying thread's stack */
        stackwalk(1234, 78, 5000, (const uint64_t[]){app + 0x2200, ntdll + 0x5000}, 2);
    activity(2, 77, 5000);
    cswitch(77, 0, 6000);
    if (offcpu) /* the stack thread 77 had blocked with */
        stackwalk(1234, 77, 6000,
                  (const uint64_t[]){nt + 0x3100, ntdll + 0x7000, app + 0x1800, ntdll + 0x5000}, 4);
    if (memory)
        memory_records();
    cswitch(0, 77, 8000);
    end_buffer();
    if (big) {
        big_profile(big, app, ntdll);
        return write_trace(argv[1]);
    }
    begin_buffer(1);
    if (keys || clr) {
        if (keys)
            keyed_samples(app, ntdll, nt);
        else
            clr_samples(app, ntdll);
        end_buffer();
        return write_trace(argv[1]);
    }
    for (int k = 0; k < 70; k++) {
        int64_t ts = 2001 + k;
        if (k < (shift ? 20 : 40))
            sample(1234, 77, ts, s1, 3);
        else if (k < 60)
            sample(1234, 78, ts, s2, 3);
        else if (garbage)
            sample(1234, 77, ts, s3_garbage, 5);
        else
            sample(1234, 77, ts, s3, 4);
    }
    for (int k = 0; idle && k < 5; k++)
        sample(0, 0, 2100 + k, s3, 1);
    end_buffer();
    return write_trace(argv[1]);
}
