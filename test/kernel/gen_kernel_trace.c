/* SPDX-License-Identifier: MIT */
/* gen_kernel_trace FILE [timeline]: writes a small .etl file laid out as
 * the NT Kernel Logger writes one (a 64-bit logfile header buffer, then
 * data buffers of SYSTEM, COMPACT and PERFINFO records), for tests of what
 * `petw dump` and `petw convert` make of kernel events. By default one
 * buffer (CPU 0):
 *   ts 1000  Image/Load v3      pid 1234  C:\app\lib.dll at 0x7ff600000000
 *   ts 1001  Thread/Start v3    pid 1234  tid 77
 *   ts 1002  Thread/CSwitch v2  new tid 77, old tid 0, wait time 9
 *   ts 1003  PerfInfo/SampledProfile v2 (no process: PERFINFO header)
 *            at 0xfffff80012345678, tid 77
 * With `timeline`, a system's few milliseconds on two CPUs (a buffer
 * each), as a recording with process, thread, cswitch and profile (stacks)
 * has them:
 *   ts 1000  Process/DCStart v4  pid 1234 "app.exe", pid 4321 "other.exe"
 *   ts 1001  Thread/DCStart v3   tid 77 (1234), tids 88 and 4321 (4321)
 *   CPU 0: ts 2000 CSwitch 0 -> 77, 3000 SampledProfile 77 + StackWalk
 *          (3 frames), 4000 CSwitch 77 -> 0
 *   CPU 1: ts 2500 CSwitch 0 -> 88, 3500 SampledProfile 88 (no stack),
 *          5000 CSwitch 88 -> 77, 5500 SampledProfile 77 + StackWalk
 *          (2 frames), 6000 Process/Start v4 pid 4321 "renamed.exe" (a
 *          process that runs a new program, as Linux's exec)
 * With `fileio`, file and disk I/O as a Windows trace has them (FileIo v3,
 * DiskIo v3 whose FileObject is a FileKey), and hostile FileIo records:
 *   ts 1000  Process/DCStart app.exe (1234), System (4); Thread/DCStart 77
 *            (1234), 8 (4)
 *   ts 2000  FileCreate  key 0xA1 "C:\data\b.txt"
 *   ts 2100  Read  irp 0x100 key 0xA0 (named at the end) 4096 by 77
 *   ts 2300  OperationEnd irp 0x100, 4096 bytes (200 ticks: 20 us)
 *   ts 2400  Write irp 0x200 key 0xA1 100 by 77; ts 2500 its end, 100
 *   ts 2600  Cleanup irp 0x300 key 0xA1 by 77; ts 2610 its end
 *   ts 3000  DiskIo Read 8192 of 0xA0 by 77; DiskIo Write 4096 of 0xA1 by
 *            8 (System's lazy writer); DiskIo Read 512 of no file by 77
 *   hostile: a Read of 10 bytes (truncated), a Name of 4 bytes, a Write
 *            of 0xA1 asking 0xFFFFFFFF bytes that never ends, an
 *            OperationEnd of an IrpPtr never seen
 *   ts 9000  FileRundown key 0xA0 "C:\data\a.txt" (the session's end) */
#define GEN_BUF 4096
#define GEN_MAX_BUFFERS 3
#include "gen_trace.h"

/* The records of the default file: one of each kind. */
static void one_of_each(void)
{
    uint8_t p[256];
    begin_buffer(0);
    /* Image_Load v3: base, size, pid, checksum, stamp, signature level and
     * type, reserved, default base, 4 reserved, file name. */
    memset(p, 0, sizeof(p));
    petw__wr64(p, 0x7ff600000000ull);
    petw__wr64(p + 8, 0x20000);
    petw__wr32(p + 16, 1234);
    uint32_t n = 56 + put_utf16(p + 56, "C:\\app\\lib.dll");
    record(PETW__HDR_SYSTEM64, 0x030A, 3, 1234, 77, 1000, p, n);
    /* Thread_TypeGroup1 v3 Start: pid, tid, 7 pointers, tag, 4 bytes. */
    memset(p, 0, sizeof(p));
    petw__wr32(p, 1234);
    petw__wr32(p + 4, 77);
    petw__wr64(p + 48, 0x7ff600001000ull); /* Win32StartAddr */
    p[68] = 8;                             /* BasePriority */
    record(PETW__HDR_SYSTEM64, 0x0501, 3, 1234, 77, 1001, p, 72);
    /* CSwitch v2. */
    memset(p, 0, sizeof(p));
    petw__wr32(p, 77);
    p[8] = 8;
    petw__wr32(p + 16, 9);
    record(PETW__HDR_COMPACT64, 0x0524, 2, 0, 0, 1002, p, 24);
    /* SampledProfile v2: ip, tid, count, reserved. */
    memset(p, 0, sizeof(p));
    petw__wr64(p, 0xfffff80012345678ull);
    petw__wr32(p + 8, 77);
    petw__wr16(p + 12, 1);
    record(PETW__HDR_PERFINFO64, 0x0F2E, 2, 0, 0, 1003, p, 16);
    end_buffer();
}

/* Process_TypeGroup1 v4 DCStart: key, pid, parent, session, exit status,
 * directory table base, flags, user SID (TOKEN_USER, then a SID), image
 * name (ANSI), command line, package name, application ID (UTF-16). */
static void process_record(uint8_t opcode, uint32_t pid, const char *image, int64_t ts)
{
    uint8_t p[256];
    memset(p, 0, sizeof(p));
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, 1);
    uint32_t n = 36;
    /* TOKEN_USER (the SID's kernel address, attributes), then S-1-5-18. */
    petw__wr64(p + n, 0xffffa00000001000ull);
    n += 16;
    p[n] = 1, p[n + 1] = 1, p[n + 7] = 5, p[n + 8] = 18;
    n += 12;
    memcpy(p + n, image, strlen(image) + 1);
    n += (uint32_t)strlen(image) + 1;
    n += put_utf16(p + n, image);
    n += put_utf16(p + n, "");
    n += put_utf16(p + n, "");
    record(PETW__HDR_SYSTEM64, (uint16_t)(0x0300 | opcode), 4, pid, 0, ts, p, n);
}

static void process_rundown(uint32_t pid, const char *image, int64_t ts)
{
    process_record(3, pid, image, ts);
}

/* A process that runs a new program (Linux's exec): Start again, new image. */
static void process_start(uint32_t pid, const char *image, int64_t ts)
{
    process_record(1, pid, image, ts);
}

static void thread_rundown(uint32_t pid, uint32_t tid, int64_t ts)
{
    uint8_t p[72];
    memset(p, 0, sizeof(p));
    petw__wr32(p, pid);
    petw__wr32(p + 4, tid);
    record(PETW__HDR_SYSTEM64, 0x0503, 3, pid, tid, ts, p, 72);
}

static void context_switch(uint32_t new_tid, uint32_t old_tid, int64_t ts)
{
    uint8_t p[24];
    memset(p, 0, sizeof(p));
    petw__wr32(p, new_tid);
    petw__wr32(p + 4, old_tid);
    record(PETW__HDR_COMPACT64, 0x0524, 2, 0, 0, ts, p, 24);
}

/* A SampledProfile of `tid` at `ip`, and when `frames` the StackWalk event
 * Windows logs after it: the sample's time (raw), process, thread, frames. */
static void sample(uint32_t pid, uint32_t tid, uint64_t ip, int64_t ts, const uint64_t *frames,
                   uint32_t count)
{
    uint8_t p[16 + 8 * 8];
    memset(p, 0, sizeof(p));
    petw__wr64(p, ip);
    petw__wr32(p + 8, tid);
    petw__wr16(p + 12, 1);
    record(PETW__HDR_PERFINFO64, 0x0F2E, 2, 0, 0, ts, p, 16);
    if (!count)
        return;
    petw__wr64(p, (uint64_t)ts);
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, tid);
    for (uint32_t i = 0; i < count; i++)
        petw__wr64(p + 16 + 8 * i, frames[i]);
    record(PETW__HDR_PERFINFO64, 0x1820, 2, 0, 0, ts, p, 16 + 8 * count);
}

static void timeline(void)
{
    static const uint64_t stack0[] = {0x401000, 0x402000, 0x403000};
    static const uint64_t stack1[] = {0x401100, 0x403000};
    begin_buffer(0);
    process_rundown(1234, "app.exe", 1000);
    process_rundown(4321, "other.exe", 1000);
    thread_rundown(1234, 77, 1001);
    thread_rundown(4321, 88, 1001);
    thread_rundown(4321, 4321, 1001);
    context_switch(77, 0, 2000);
    sample(1234, 77, 0x401000, 3000, stack0, 3);
    context_switch(0, 77, 4000);
    end_buffer();
    begin_buffer(1);
    context_switch(88, 0, 2500);
    sample(4321, 88, 0x501000, 3500, NULL, 0);
    context_switch(77, 88, 5000);
    sample(1234, 77, 0x401100, 5500, stack1, 2);
    process_start(4321, "renamed.exe", 6000);
    end_buffer();
}

static void file_name(uint8_t opcode, uint64_t key, const char *name, int64_t ts)
{
    uint8_t p[256];
    petw__wr64(p, key);
    record(PETW__HDR_PERFINFO64, (uint16_t)(0x0400 | opcode), 3, 0, 0, ts, p,
           8 + put_utf16(p + 8, name));
}

/* FileIo_ReadWrite v3: Offset, IrpPtr, FileObject, FileKey, TTID, IoSize, IoFlags. */
static void file_rw(int write, uint64_t irp, uint64_t key, uint32_t tid, uint32_t size, int64_t ts)
{
    uint8_t p[44];
    memset(p, 0, sizeof(p));
    petw__wr64(p + 8, irp);
    petw__wr64(p + 16, key + 0x1000); /* FileObject */
    petw__wr64(p + 24, key);
    petw__wr32(p + 32, tid);
    petw__wr32(p + 36, size);
    record(PETW__HDR_PERFINFO64, write ? 0x0444 : 0x0443, 3, 0, 0, ts, p, 44);
}

static void file_end(uint64_t irp, uint64_t bytes, int64_t ts)
{
    uint8_t p[20];
    petw__wr64(p, irp);
    petw__wr64(p + 8, bytes);
    petw__wr32(p + 16, 0);
    record(PETW__HDR_PERFINFO64, 0x044C, 3, 0, 0, ts, p, 20);
}

/* DiskIo_TypeGroup1 v3: DiskNumber, IrpFlags, TransferSize, Reserved,
 * ByteOffset, FileObject, Irp, HighResResponseTime, IssuingThreadId. */
static void disk_io(int write, uint64_t key, uint32_t tid, uint32_t bytes, int64_t ts)
{
    uint8_t p[52];
    memset(p, 0, sizeof(p));
    petw__wr32(p + 8, bytes);
    petw__wr64(p + 24, key);
    petw__wr64(p + 32, 0xffff0000u + (uint64_t)ts);
    petw__wr64(p + 40, 100);
    petw__wr32(p + 48, tid);
    record(PETW__HDR_SYSTEM64, write ? 0x010B : 0x010A, 3, 0, 0, ts, p, 52);
}

static void fileio(void)
{
    uint8_t p[64];
    begin_buffer(0);
    process_rundown(1234, "app.exe", 1000);
    process_rundown(4, "System", 1000);
    thread_rundown(1234, 77, 1000);
    thread_rundown(4, 8, 1000);
    file_name(32, 0xA1, "C:\\data\\b.txt", 2000);
    file_rw(0, 0x100, 0xA0, 77, 4096, 2100);
    file_end(0x100, 4096, 2300);
    file_rw(1, 0x200, 0xA1, 77, 100, 2400);
    file_end(0x200, 100, 2500);
    /* Cleanup v3: IrpPtr, FileObject, FileKey, TTID. */
    memset(p, 0, sizeof(p));
    petw__wr64(p, 0x300);
    petw__wr64(p + 8, 0xA1 + 0x1000);
    petw__wr64(p + 16, 0xA1);
    petw__wr32(p + 24, 77);
    record(PETW__HDR_PERFINFO64, 0x0441, 3, 0, 0, 2600, p, 28);
    file_end(0x300, 0, 2610);
    disk_io(0, 0xA0, 77, 8192, 3000);
    disk_io(1, 0xA1, 8, 4096, 3001);
    disk_io(0, 0, 77, 512, 3002);
    /* Hostile: truncated records, an absurd size never ended, a stray end. */
    memset(p, 0xEE, sizeof(p));
    record(PETW__HDR_PERFINFO64, 0x0443, 3, 0, 0, 4000, p, 10);
    record(PETW__HDR_PERFINFO64, 0x0400, 3, 0, 0, 4001, p, 4);
    file_rw(1, 0x400, 0xA1, 77, 0xFFFFFFFFu, 4002);
    file_end(0xBAD, 7, 4003);
    file_name(36, 0xA0, "C:\\data\\a.txt", 9000);
    end_buffer();
}

int main(int argc, char **argv)
{
    int with_timeline = argc == 3 && !strcmp(argv[2], "timeline");
    int with_fileio = argc == 3 && !strcmp(argv[2], "fileio");
    if (argc != 2 && !with_timeline && !with_fileio) {
        fprintf(stderr, "usage: gen_kernel_trace FILE [timeline|fileio]\n");
        return 2;
    }
    if (with_timeline)
        timeline();
    else if (with_fileio)
        fileio();
    else
        one_of_each();
    return write_trace(argv[1]);
}
