/* SPDX-License-Identifier: MIT */
/* make_regressions DIR: writes the hand-built ETL files of
 * DIR/fuzz_trace_path/ (committed as test/fuzz/regressions/fuzz_trace_path/,
 * described in test/fuzz/regressions/README.md). Every byte is fixed (no
 * clock, no process ID, no compressor library: the XPRESS and zstd streams are built by hand), so
 * running it again reproduces the committed files exactly:
 *
 *     build/test/fuzz/make_regressions test/fuzz/regressions
 *
 * Each file stays under 16 KiB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(_WIN32)
#include <direct.h>
#define make_dir(d) _mkdir(d)
#else
#define make_dir(d) mkdir((d), 0755)
#endif

#include "base/format/etl.h"

#define HDR 4096u /* every file's header buffer, and the plain files' stride */
#define MAX_FILE (16u << 10)

static const petw_guid provider = {0x4e6e4e6e, 0x1111, 0x2222, {3, 3, 4, 4, 5, 5, 6, 6}};

static uint8_t file[1 << 16];
static size_t file_len;
static const char *out_dir;
static int failed;

static void save(const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (file_len >= MAX_FILE || !f || (file_len && fwrite(file, 1, file_len, f) != file_len) ||
        fclose(f) != 0) {
        fprintf(stderr, "make_regressions: cannot write %s (%zu bytes)\n", path, file_len);
        failed = 1;
        return;
    }
    printf("%-28s %6zu bytes\n", name, file_len);
}

/* The header buffer (HDR bytes on disk) of a session whose LogFileMode is
 * `mode` and whose TRACE_LOGFILE_HEADER.BufferSize says `claimed`. petw's
 * extension fields say `petw_flags` (PETW_SESSION_*), or nothing at all
 * (a Windows file) when `windows` is set. */
static void header(uint32_t mode, uint32_t claimed, uint32_t petw_flags, int windows)
{
    petw__etl_session_info in;
    memset(&in, 0, sizeof(in));
    in.buffer_size = HDR;
    in.cpu_count = 2;
    in.clock = 1;
    in.log_file_mode = mode;
    in.petw_flags = petw_flags;
    in.perf_freq = 10000000;
    in.start_timestamp = 1000;
    in.start_filetime = 133000000000000000LL;
    in.end_filetime = 133000000010000000LL;
    in.buffers_written = 3;
    in.logger_name = "regression";
    in.log_file_name = "C:\\regression.etl";
    memset(file, 0, sizeof(file));
    petw__etl_write_header_buffer(file, &in);
    if (windows)
        memset(file + PETW__BH_PETW_CHECKSUM, 0, 16);
    /* The header record's TRACE_LOGFILE_HEADER.BufferSize. */
    petw__wr32(file + PETW__BH_SIZE + PETW__SYSTEM_HEADER_SIZE + PETW__LH_BUFFER_SIZE, claimed);
    file_len = HDR;
}

/* A data buffer header at `b`: `disk` bytes stored, `used` unpacked. */
static void buffer_header(uint8_t *b, uint32_t disk, uint32_t used, uint16_t flag,
                          uint16_t petw_flags, int64_t ts)
{
    memset(b, 0, PETW__BH_SIZE);
    petw__wr32(b + PETW__BH_BUFFER_SIZE, disk);
    petw__wr32(b + PETW__BH_SAVED_OFFSET, used);
    petw__wr32(b + PETW__BH_CURRENT_OFFSET, used);
    petw__wr64(b + PETW__BH_TIMESTAMP, (uint64_t)ts);
    petw__wr32(b + PETW__BH_STATE, PETW__BUFFER_STATE_FLUSHED);
    petw__wr32(b + PETW__BH_OFFSET, used);
    petw__wr16(b + PETW__BH_BUFFER_FLAG, (uint16_t)(PETW__BUFFER_FLAG_FLUSH_MARKER | flag));
    if (petw_flags) {
        petw__wr32(b + PETW__BH_PETW_MAGIC, PETW__MAGIC);
        petw__wr16(b + PETW__BH_PETW_FLAGS, petw_flags);
    }
}

/* One EVENT_HEADER record (64-bit) with a `n`-byte payload at `r`;
 * returns its size rounded to 8. */
static uint32_t event_record(uint8_t *r, uint16_t id, int64_t ts, uint32_t n)
{
    uint32_t size = PETW__EVENT_HEADER_SIZE + n;
    memset(r, 0, PETW__ALIGN8(size));
    petw__wr16(r, (uint16_t)size);
    petw__wr16(r + 2, PETW__HDR_EVENT64_TYPE_WORD);
    petw__wr32(r + 8, 0x1234);  /* ThreadId */
    petw__wr32(r + 12, 0x5678); /* ProcessId */
    petw__wr64(r + 16, (uint64_t)ts);
    petw__wr_guid(r + 24, &provider);
    petw__wr16(r + 40, id); /* EventDescriptor.Id */
    r[44] = 4;              /* Level */
    for (uint32_t i = 0; i < n; i++)
        r[PETW__EVENT_HEADER_SIZE + i] = (uint8_t)(id + i);
    return PETW__ALIGN8(size);
}

/* A plain HDR-byte data buffer of `events` records, appended. */
static void plain_buffer(int events, int64_t ts)
{
    uint8_t *b = file + file_len;
    memset(b, 0xFF, HDR);
    uint32_t at = PETW__BH_SIZE;
    for (int i = 0; i < events; i++)
        at += event_record(b + at, (uint16_t)(100 + i), ts + i, 8 + 4 * (uint32_t)i);
    buffer_header(b, HDR, at, 0, 0, ts);
    file_len += HDR;
}

/* A stored (compressed) data buffer: header, then `payload`, appended. */
static void packed_buffer(uint32_t used, uint16_t flag, uint16_t petw_flags, const uint8_t *payload,
                          size_t n)
{
    uint8_t *b = file + file_len;
    buffer_header(b, (uint32_t)(PETW__BH_SIZE + n), used, flag, petw_flags, 2000);
    memcpy(b + PETW__BH_SIZE, payload, n);
    file_len += PETW__BH_SIZE + n;
}

/* MS-XCA plain LZ77: one literal zero, then a match at offset 1 for the
 * other `n - 1` zeros (the 32-bit length form), then `pad` zero bytes the
 * decompressor reads as literals it has no room for. */
static size_t xpress_zeros(uint8_t *out, size_t n, size_t pad)
{
    size_t o = 0;
    /* Flags: bit 31 literal (0), bit 30 match (1); the rest literals. */
    petw__wr32(out + o, 0x40000000u);
    o += 4;
    out[o++] = 0;
    size_t len = n - 1;
    petw__wr16(out + o, 7); /* offset 1 ((1 - 1) << 3), length 7: more follows */
    o += 2;
    out[o++] = 15; /* half byte 15: more follows */
    out[o++] = 255;
    petw__wr16(out + o, 0); /* 0: a 32-bit length follows */
    o += 2;
    petw__wr32(out + o, (uint32_t)(len - 3)); /* the whole length, less the 3 implied */
    o += 4;
    memset(out + o, 0, pad);
    return o + pad;
}

/* A zstd frame of RLE blocks (128 KiB each) that decodes to `n` zero
 * bytes, declaring `content_size` (0: n) as its Frame_Content_Size. */
static size_t zstd_zeros(uint8_t *out, uint64_t n, uint64_t content_size)
{
    size_t o = 0;
    petw__wr32(out + o, 0xFD2FB528u);
    o += 4;
    out[o++] = 0xE0; /* FCS 8 bytes, single segment, no checksum, no dictionary */
    petw__wr64(out + o, content_size ? content_size : n);
    o += 8;
    while (n) {
        uint32_t k = n > (128u << 10) ? (128u << 10) : (uint32_t)n;
        n -= k;
        uint32_t bh = (n == 0 ? 1u : 0u) | (1u << 1) | (k << 3); /* last?, RLE, size */
        out[o++] = (uint8_t)bh;
        out[o++] = (uint8_t)(bh >> 8);
        out[o++] = (uint8_t)(bh >> 16);
        out[o++] = 0; /* the byte repeated */
    }
    return o;
}

/* A skippable zstd frame of `n` bytes in all (at least 8). */
static size_t zstd_skip(uint8_t *out, size_t n)
{
    petw__wr32(out, 0x184D2A50u);
    petw__wr32(out + 4, (uint32_t)(n - 8));
    memset(out + 8, 0, n - 8);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_regressions DIR   (DIR: test/fuzz/regressions)\n");
        return 2;
    }
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/fuzz_trace_path", argv[1]);
    make_dir(argv[1]);
    make_dir(dir);
    out_dir = dir;
    static uint8_t p[1 << 14];
    size_t n;
    const uint32_t max = PETW__ETL_MAX_BUFFER_SIZE, mode = PETW_MODE_SEQUENTIAL;

    /* XPRESS bombs: a Windows file (64 KiB buffers) whose compressed
     * buffers claim more than their bytes can hold. */
    header(mode | PETW_MODE_COMPRESSED, 64u << 10, 0, 1);
    xpress_zeros(p, (64u << 10) - PETW__BH_SIZE, 0);
    packed_buffer(64u << 10, PETW__BUFFER_FLAG_COMPRESSED, 0, p, 8); /* 8 bytes -> 64 KiB */
    n = xpress_zeros(p, (1u << 20) - PETW__BH_SIZE, 4096);
    packed_buffer(1u << 20, PETW__BUFFER_FLAG_COMPRESSED, 0, p, n); /* beyond BufferSize */
    n = xpress_zeros(p, 4000, 0);
    packed_buffer(0xFFFFFFFFu, PETW__BUFFER_FLAG_COMPRESSED, 0, p, n); /* 4 GiB: ends the file */
    save("xpress-bomb.etl");

    /* The largest XPRESS buffer that is not refused: 16 MiB (the largest
     * BufferSize) from 4 KiB (4096x), all zeros, so no record. The reader
     * must unpack it within the time and memory bounds, twice at most. */
    header(mode | PETW_MODE_COMPRESSED, max, 0, 1);
    n = xpress_zeros(p, max - PETW__BH_SIZE, 0);
    memset(p + n, 0, 4096 - n);
    packed_buffer(max, PETW__BUFFER_FLAG_COMPRESSED, 0, p, 4096);
    save("xpress-max-expansion.etl");

    /* zstd bombs: a petw file (16 MiB buffers, zstd) whose frames claim or
     * hold more than the rules allow. */
    header(mode, max, PETW_SESSION_ZSTD, 0);
    n = zstd_zeros(p, max - PETW__BH_SIZE, 0); /* 525 bytes -> 16 MiB: beyond 4096x */
    packed_buffer(max, 0, PETW__BUF_ZSTD, p, n);
    n = zstd_zeros(p, 1024, 1ull << 40); /* says 1 TiB, SavedOffset says 1 KiB */
    packed_buffer(PETW__BH_SIZE + 1024, 0, PETW__BUF_ZSTD, p, n);
    n = zstd_zeros(p, 1u << 20, 0); /* 1 MiB where SavedOffset says 4 KiB */
    packed_buffer(HDR, 0, PETW__BUF_ZSTD, p, n);
    n = zstd_zeros(p, max - PETW__BH_SIZE, 0); /* 16 MiB from 4 KiB: allowed, all zeros */
    n += zstd_skip(p + n, 4096 - n);
    packed_buffer(max, 0, PETW__BUF_ZSTD, p, n);
    save("zstd-bomb.etl");

    /* A header that says its buffers are 64 MiB (ETW's largest is 16). */
    header(mode, 64u << 20, 0, 1);
    plain_buffer(3, 2000);
    save("buffer-size-64mib.etl");

    /* A data buffer whose own header says 64 MiB, then a good one: the
     * first is skipped by the file's stride, the second delivered. */
    header(mode, HDR, 0, 1);
    plain_buffer(2, 2000);
    petw__wr32(file + HDR + PETW__BH_BUFFER_SIZE, 64u << 20);
    petw__wr32(file + HDR + PETW__BH_SAVED_OFFSET, 64u << 20);
    plain_buffer(2, 3000);
    save("data-buffer-64mib.etl");

    /* Truncated: in the middle of the second data buffer's second record,
     * and in the middle of the header record. */
    header(mode, HDR, 0, 1);
    plain_buffer(3, 2000);
    plain_buffer(3, 3000);
    file_len = 2 * HDR + PETW__BH_SIZE + 0x58 + 0x20;
    save("truncated-data.etl");
    header(mode, HDR, 0, 1);
    file_len = PETW__BH_SIZE + 0x90;
    save("truncated-header.etl");

    /* A header buffer whose SavedOffset (and BufferSize) end 4 bytes into
     * a second record: 4 bytes of a SYSTEM header, whose size field lies
     * beyond them. */
    header(mode, HDR, 0, 1);
    {
        uint32_t end = PETW__BH_SIZE + PETW__ALIGN8(petw__rd16(file + PETW__BH_SIZE + 4));
        memset(file + end, 0, 8);
        file[end + 2] = PETW__HDR_SYSTEM64;
        file[end + 3] = PETW__HDR_MARKER_MASK;
        petw__wr32(file + PETW__BH_BUFFER_SIZE, end + 4);
        petw__wr32(file + PETW__BH_SAVED_OFFSET, end + 4);
        petw__wr32(file + PETW__BH_OFFSET, end + 4);
        file_len = end + 4;
    }
    save("record-header-cut.etl");

    /* Zero bytes: what stat says of a FIFO or an empty file. */
    file_len = 0;
    save("zero-length.etl");
    return failed;
}
