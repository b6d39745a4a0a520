/* gen_kernel_trace FILE: writes a small .etl file laid out as the NT Kernel
 * Logger writes one (a 64-bit logfile header buffer, then one data buffer
 * of SYSTEM, COMPACT and PERFINFO records), for tests of what `petw dump`
 * and `petw convert` make of kernel events:
 *   ts 1000  Image/Load v3      pid 1234  C:\app\lib.dll at 0x7ff600000000
 *   ts 1001  Thread/Start v3    pid 1234  tid 77
 *   ts 1002  Thread/CSwitch v2  new tid 77, old tid 0, wait time 9
 *   ts 1003  PerfInfo/SampledProfile v2 (no process: PERFINFO header)
 *            at 0xfffff80012345678, tid 77 */
#include <stdio.h>
#include <string.h>

#include "../lib/format/etl.h"

#define BUF 4096

static uint32_t at;
static uint8_t file[2 * BUF];

/* Appends a record with a `hsize`-byte header of `type` (filled here), then
 * `n` payload bytes. */
static void record(uint8_t type, uint16_t hook, uint8_t version, uint32_t pid, uint32_t tid,
                   int64_t ts, const uint8_t *payload, uint32_t n)
{
    uint8_t *b = file + BUF, *r = b + at;
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

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_kernel_trace FILE\n");
        return 2;
    }
    petw__etl_session_info in;
    memset(&in, 0, sizeof(in));
    in.buffer_size = BUF;
    in.cpu_count = 2;
    in.clock = 1;
    in.perf_freq = 10000000;
    in.start_timestamp = 900;
    in.start_filetime = 133000000000000000LL;
    in.buffers_written = 2;
    in.logger_name = "NT Kernel Logger";
    in.log_file_name = "kernel.etl";
    petw__etl_write_header_buffer(file, &in);

    uint8_t p[256];
    at = PETW__BH_SIZE;
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

    uint8_t *b = file + BUF;
    memset(b + at, 0xFF, BUF - at);
    petw__wr32(b + PETW__BH_BUFFER_SIZE, BUF);
    petw__wr32(b + PETW__BH_SAVED_OFFSET, at);
    petw__wr32(b + PETW__BH_OFFSET, at);
    petw__wr16(b + PETW__BH_BUFFER_FLAG, PETW__BUFFER_FLAG_FLUSH_MARKER);
    memset(b + PETW__BH_PETW_CHECKSUM, 0, 16);
    memset(file + PETW__BH_PETW_CHECKSUM, 0, 16); /* as Windows writes them */
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(file, 1, sizeof(file), f) != sizeof(file) || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
