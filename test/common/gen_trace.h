/* SPDX-License-Identifier: MIT */
/* gen_trace.h - what the hand-made kernel traces of the tests share
 * (gen_kernel_trace.c, gen_profile_trace.c): data buffers of GEN_BUF bytes,
 * at most GEN_MAX_BUFFERS of them after the header buffer, filled with
 * classic kernel records as Windows' kernel logger writes them. The
 * includer defines GEN_BUF and GEN_MAX_BUFFERS first, and may set gen_bits32
 * for a 32-bit system's records. After gen_stream(path), buffers go to the
 * file as they are finished, so a trace of any size takes one buffer of
 * memory (the benchmarks' large traces). */
#ifndef PETW_TEST_GEN_TRACE_H
#define PETW_TEST_GEN_TRACE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/base/format/etl.h"

static uint32_t at, buffers;
static int gen_bits32; /* a 32-bit system's records */
static uint8_t file[(GEN_MAX_BUFFERS + 1) * GEN_BUF];
static FILE *gen_out; /* streaming: data buffers are written as they end */

/* The data buffer being filled. */
static uint8_t *gen_buffer(void)
{
    return file + (gen_out ? 1 : buffers) * GEN_BUF;
}

/* Streams the trace to `path`: its header buffer's place is kept, and
 * written by write_trace when the count is known. 0, or 1 (reason on
 * stderr). */
static inline int gen_stream(const char *path)
{
    gen_out = fopen(path, "wb");
    if (!gen_out || fwrite(file, 1, GEN_BUF, gen_out) != GEN_BUF) {
        perror(path);
        return 1;
    }
    return 0;
}

/* Starts the next data buffer, written on CPU `cpu`. */
static void begin_buffer(uint8_t cpu)
{
    buffers++;
    at = PETW__BH_SIZE;
    memset(gen_buffer(), 0, PETW__BH_SIZE);
    gen_buffer()[PETW__BH_PROCESSOR] = cpu;
}

static void end_buffer(void)
{
    uint8_t *b = gen_buffer();
    memset(b + at, 0xFF, GEN_BUF - at);
    petw__wr32(b + PETW__BH_BUFFER_SIZE, GEN_BUF);
    petw__wr32(b + PETW__BH_SAVED_OFFSET, at);
    petw__wr32(b + PETW__BH_OFFSET, at);
    petw__wr16(b + PETW__BH_BUFFER_FLAG, PETW__BUFFER_FLAG_FLUSH_MARKER);
    memset(b + PETW__BH_PETW_CHECKSUM, 0, 16);
    if (gen_out && fwrite(b, 1, GEN_BUF, gen_out) != GEN_BUF)
        perror("write"), exit(1);
}

/* Appends a record with a header of `type` (filled here), then `n` payload
 * bytes. */
static void record(uint8_t type, uint16_t hook, uint8_t version, uint32_t pid, uint32_t tid,
                   int64_t ts, const uint8_t *payload, uint32_t n)
{
    uint8_t *r = gen_buffer() + at;
    uint32_t hsize = type == PETW__HDR_PERFINFO64  ? PETW__PERFINFO_HEADER_SIZE
                     : type == PETW__HDR_COMPACT64 ? PETW__COMPACT_HEADER_SIZE
                                                   : PETW__SYSTEM_HEADER_SIZE;
    memset(r, 0, PETW__ALIGN8(hsize + n));
    petw__wr16(r, version);
    /* The 32-bit types are the 64-bit ones less one. */
    r[2] = (uint8_t)(gen_bits32 ? type - 1 : type), r[3] = 0xC0;
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

/* A NUL-terminated ASCII string as UTF-16LE at p; returns its bytes. */
static uint32_t put_utf16(uint8_t *p, const char *s)
{
    uint32_t n = 0;
    for (; *s; s++, n += 2)
        p[n] = (uint8_t)*s, p[n + 1] = 0;
    p[n] = p[n + 1] = 0;
    return n + 2;
}

/* Writes the header buffer (an NT Kernel Logger's, its clock QPC at 10 MHz)
 * and the file: 0, or 1 with the reason on stderr. */
static int write_trace(const char *path)
{
    petw__etl_session_info in;
    memset(&in, 0, sizeof(in));
    in.buffer_size = GEN_BUF;
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
    if (gen_out) {
        if (fseek(gen_out, 0, SEEK_SET) != 0 || fwrite(file, 1, GEN_BUF, gen_out) != GEN_BUF ||
            fclose(gen_out) != 0) {
            perror(path);
            return 1;
        }
        return 0;
    }
    size_t size = (buffers + 1) * GEN_BUF;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(file, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

#endif
