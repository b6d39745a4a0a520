/* gen_profile_trace FILE: writes a small .etl file as Windows' kernel
 * logger writes a CPU profile (64-bit: logfile header buffer, then data
 * buffers of SYSTEM, COMPACT and PERFINFO records), for the tests of
 * `petw report` and `petw convert`'s profiles. Its content is known:
 *   Process/DCStart pid 1234 "app.exe"; Thread/DCStart tids 77 and 78;
 *   Image/DCStart C:\app\app.exe at 0x140000000, ntdll.dll at
 *   0x7ffb10000000 (pid 1234), ntoskrnl.exe at 0xfffff80000000000 (pid 0);
 *   PerfInfo/CollectionStart: a 1 ms interval (10000 x 100 ns).
 *   CPU 1: 70 samples, each with its StackWalk (innermost first):
 *     40 x tid 77  app+0x1010, app+0x2000, ntdll+0x5000
 *     20 x tid 78  ntdll+0x9000, app+0x2100, ntdll+0x5000
 *     10 x tid 77  ntoskrnl+0x3000, app+0x1500, app+0x2000, ntdll+0x5000
 *   CPU 0 (100 ns ticks): 2000 CSwitch 0 -> 77; 4000 CSwitch 77 -> 0 (77
 *     Waiting, UserRequest); 5000 ReadyThread 77 by 78; 6000 CSwitch 0 -> 77;
 *     8000 CSwitch 77 -> 0 (Waiting, UserRequest).
 * So thread 77 runs 0.4 ms, waits 0.1 ms and is ready 0.1 ms. */
#include <stdio.h>
#include <string.h>

#include "../lib/format/etl.h"

#define BUF 65536
#define MAX_BUFFERS 2

static uint32_t at, buffers;
static uint8_t file[(MAX_BUFFERS + 1) * BUF];

static void begin_buffer(uint8_t cpu)
{
    buffers++;
    at = PETW__BH_SIZE;
    file[buffers * BUF + PETW__BH_PROCESSOR] = cpu;
}

static void end_buffer(void)
{
    uint8_t *b = file + buffers * BUF;
    memset(b + at, 0xFF, BUF - at);
    petw__wr32(b + PETW__BH_BUFFER_SIZE, BUF);
    petw__wr32(b + PETW__BH_SAVED_OFFSET, at);
    petw__wr32(b + PETW__BH_OFFSET, at);
    petw__wr16(b + PETW__BH_BUFFER_FLAG, PETW__BUFFER_FLAG_FLUSH_MARKER);
    memset(b + PETW__BH_PETW_CHECKSUM, 0, 16);
}

static void record(uint8_t type, uint16_t hook, uint8_t version, uint32_t pid, uint32_t tid,
                   int64_t ts, const uint8_t *payload, uint32_t n)
{
    uint8_t *r = file + buffers * BUF + at;
    uint32_t hsize = type == PETW__HDR_PERFINFO64  ? PETW__PERFINFO_HEADER_SIZE
                     : type == PETW__HDR_COMPACT64 ? PETW__COMPACT_HEADER_SIZE
                                                   : PETW__SYSTEM_HEADER_SIZE;
    memset(r, 0, PETW__ALIGN8(hsize + n));
    petw__wr16(r, version);
    r[2] = type, r[3] = 0xC0;
    petw__wr16(r + 4, (uint16_t)(hsize + n));
    petw__wr16(r + 6, hook);
    if (type == PETW__HDR_PERFINFO64) {
        petw__wr64(r + 8, (uint64_t)ts);
    } else {
        petw__wr32(r + 8, tid), petw__wr32(r + 12, pid);
        petw__wr64(r + 16, (uint64_t)ts);
    }
    memcpy(r + hsize, payload, n);
    at += PETW__ALIGN8(hsize + n);
}

static uint32_t put_utf16(uint8_t *p, const char *s)
{
    uint32_t n = 0;
    for (; *s; s++, n += 2)
        p[n] = (uint8_t)*s, p[n + 1] = 0;
    p[n] = p[n + 1] = 0;
    return n + 2;
}

static void process_dcstart(uint32_t pid, const char *image, int64_t ts)
{
    uint8_t p[256];
    memset(p, 0, sizeof(p));
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, 4);
    uint32_t n = 36;
    petw__wr64(p + n, 0xffffa00000001000ull); /* TOKEN_USER, then S-1-5-18 */
    n += 16;
    p[n] = 1, p[n + 1] = 1, p[n + 7] = 5, p[n + 8] = 18;
    n += 12;
    memcpy(p + n, image, strlen(image) + 1);
    n += (uint32_t)strlen(image) + 1;
    n += put_utf16(p + n, image);
    n += put_utf16(p + n, "");
    n += put_utf16(p + n, "");
    record(PETW__HDR_SYSTEM64, 0x0303, 4, pid, 0, ts, p, n);
}

static void thread_dcstart(uint32_t pid, uint32_t tid, int64_t ts)
{
    uint8_t p[72];
    memset(p, 0, sizeof(p));
    petw__wr32(p, pid);
    petw__wr32(p + 4, tid);
    record(PETW__HDR_SYSTEM64, 0x0503, 3, pid, tid, ts, p, 72);
}

static void image_dcstart(uint32_t pid, uint64_t base, uint64_t size, const char *path, int64_t ts)
{
    uint8_t p[256];
    memset(p, 0, sizeof(p));
    petw__wr64(p, base);
    petw__wr64(p + 8, size);
    petw__wr32(p + 16, pid);
    uint32_t n = 56 + put_utf16(p + 56, path);
    record(PETW__HDR_SYSTEM64, 0x1403, 3, pid, 0, ts, p, n);
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

static void ready(uint32_t tid, uint32_t by, int64_t ts)
{
    uint8_t p[8];
    memset(p, 0, sizeof(p));
    petw__wr32(p, tid);
    record(PETW__HDR_COMPACT64, 0x0532, 2, 1234, by, ts, p, 8);
}

static void sample(uint32_t pid, uint32_t tid, int64_t ts, const uint64_t *frames, uint32_t n)
{
    uint8_t p[16 + 8 * 8];
    memset(p, 0, sizeof(p));
    petw__wr64(p, frames[0]);
    petw__wr32(p + 8, tid);
    petw__wr16(p + 12, 1);
    record(PETW__HDR_PERFINFO64, 0x0F2E, 2, 0, 0, ts, p, 16);
    petw__wr64(p, (uint64_t)ts);
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, tid);
    for (uint32_t i = 0; i < n; i++)
        petw__wr64(p + 16 + 8 * i, frames[i]);
    record(PETW__HDR_PERFINFO64, 0x1820, 2, 0, 0, ts, p, 16 + 8 * n);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_profile_trace FILE\n");
        return 2;
    }
    const uint64_t app = 0x140000000ull, ntdll = 0x7ffb10000000ull, nt = 0xfffff80000000000ull;
    const uint64_t s1[] = {app + 0x1010, app + 0x2000, ntdll + 0x5000};
    const uint64_t s2[] = {ntdll + 0x9000, app + 0x2100, ntdll + 0x5000};
    const uint64_t s3[] = {nt + 0x3000, app + 0x1500, app + 0x2000, ntdll + 0x5000};
    begin_buffer(0);
    process_dcstart(1234, "app.exe", 1000);
    thread_dcstart(1234, 77, 1001);
    thread_dcstart(1234, 78, 1001);
    image_dcstart(1234, app, 0x20000, "C:\\app\\app.exe", 1002);
    image_dcstart(1234, ntdll, 0x1f0000, "C:\\Windows\\System32\\ntdll.dll", 1002);
    image_dcstart(0, nt, 0x1000000, "\\SystemRoot\\system32\\ntoskrnl.exe", 1002);
    uint8_t p[32];
    memset(p, 0, sizeof(p));
    petw__wr32(p + 4, 10000); /* CollectionStart v3: Source 0, NewInterval, OldInterval */
    petw__wr32(p + 8, 10000);
    record(PETW__HDR_SYSTEM64, 0x0F49, 3, 0, 0, 1003, p, 12 + put_utf16(p + 12, "Timer"));
    cswitch(77, 0, 2000);
    cswitch(0, 77, 4000);
    ready(77, 78, 5000);
    cswitch(77, 0, 6000);
    cswitch(0, 77, 8000);
    end_buffer();
    begin_buffer(1);
    for (int k = 0; k < 70; k++) {
        int64_t ts = 2001 + k;
        if (k < 40)
            sample(1234, 77, ts, s1, 3);
        else if (k < 60)
            sample(1234, 78, ts, s2, 3);
        else
            sample(1234, 77, ts, s3, 4);
    }
    end_buffer();
    petw__etl_session_info in;
    memset(&in, 0, sizeof(in));
    in.buffer_size = BUF;
    in.cpu_count = 2;
    in.clock = 1;
    in.perf_freq = 10000000;
    in.start_timestamp = 900;
    in.start_filetime = 133000000000000000LL;
    in.buffers_written = buffers + 1;
    in.logger_name = "NT Kernel Logger";
    in.log_file_name = "kernel.etl";
    petw__etl_write_header_buffer(file, &in);
    memset(file + PETW__BH_PETW_CHECKSUM, 0, 16); /* as Windows writes them */
    size_t size = (buffers + 1) * BUF;
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(file, 1, size, f) != size || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
