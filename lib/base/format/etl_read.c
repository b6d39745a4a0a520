/* SPDX-License-Identifier: MIT */
/* etl_read.c - parsing ETL buffers and records without trusting them: every
 * length is checked against what is really there before it is used. */
#include <stdlib.h>

#include <xxhash.h>
#include <zstd.h>

#include "etl_record.h"
#include "xpress.h"

int petw__etl_parse_buffer(const uint8_t *d, uint64_t avail, uint64_t file_offset,
                           petw__etl_buffer *b, const char **why)
{
    if (avail < PETW__BH_SIZE) {
        *why = "truncated buffer header";
        return PETW_ECORRUPT;
    }
    memset(b, 0, sizeof(*b));
    b->file_offset = file_offset;
    b->disk_size = petw__rd32(d + PETW__BH_BUFFER_SIZE);
    b->used = petw__rd32(d + PETW__BH_SAVED_OFFSET);
    if (b->used == 0)
        b->used = petw__rd32(d + PETW__BH_OFFSET);
    b->timestamp = (int64_t)petw__rd64(d + PETW__BH_TIMESTAMP);
    b->sequence = (int64_t)petw__rd64(d + PETW__BH_SEQUENCE);
    b->buffer_flag = petw__rd16(d + PETW__BH_BUFFER_FLAG);
    b->buffer_type = petw__rd16(d + PETW__BH_BUFFER_TYPE);
    b->logger_id = petw__rd16(d + PETW__BH_LOGGER_ID);
    b->cpu = (b->buffer_flag & PETW__BUFFER_FLAG_PROCESSOR_INDEX)
                 ? petw__rd16(d + PETW__BH_PROCESSOR)
                 : d[PETW__BH_PROCESSOR];
    if (petw__rd32(d + PETW__BH_PETW_MAGIC) == PETW__MAGIC)
        b->petw_flags = petw__rd16(d + PETW__BH_PETW_FLAGS);
    if ((b->petw_flags & (PETW__BUF_ZSTD | PETW__BUF_FIRST_TS)) ==
        (PETW__BUF_ZSTD | PETW__BUF_FIRST_TS))
        b->first_ts = (int64_t)petw__rd64(d + PETW__BH_CLOCK);
    else
        b->petw_flags &= (uint16_t)~PETW__BUF_FIRST_TS; /* meaningless without zstd */
    int packed =
        (b->petw_flags & PETW__BUF_ZSTD) || (b->buffer_flag & PETW__BUFFER_FLAG_COMPRESSED);
    if (b->disk_size < PETW__BH_SIZE || b->disk_size > 2 * PETW__ETL_MAX_BUFFER_SIZE) {
        *why = "BufferSize out of range";
        return PETW_ECORRUPT;
    }
    if (b->used < PETW__BH_SIZE || b->used > PETW__ETL_MAX_BUFFER_SIZE ||
        (!packed && b->used > b->disk_size)) {
        *why = "SavedOffset out of range";
        return PETW_ECORRUPT;
    }
    return 0;
}

struct petw__etl_unpacker {
    ZSTD_DCtx *dctx;
};

petw__etl_unpacker *petw__etl_unpacker_new(void)
{
    petw__etl_unpacker *u = malloc(sizeof(*u));
    if (u && !(u->dctx = ZSTD_createDCtx())) {
        free(u);
        u = NULL;
    }
    return u;
}

void petw__etl_unpacker_free(petw__etl_unpacker *u)
{
    if (u) {
        ZSTD_freeDCtx(u->dctx);
        free(u);
    }
}

const uint8_t *petw__etl_unpack_buffer(const uint8_t *disk, const petw__etl_buffer *b, uint8_t *out,
                                       size_t out_size, petw__etl_unpacker *u, const char **why)
{
    if (b->petw_flags & PETW__BUF_CHECKSUM) {
        uint64_t want = petw__rd64(disk + PETW__BH_PETW_CHECKSUM);
        if (XXH64(disk + PETW__BH_SIZE, b->disk_size - PETW__BH_SIZE, 0) != want) {
            *why = "checksum mismatch";
            return NULL;
        }
    }
    if (b->buffer_flag & PETW__BUFFER_FLAG_COMPRESSED) {
        /* Windows: header as is, then MS-XCA plain LZ77 of the records. */
        if (out_size < b->used) {
            *why = "decompressed size too large";
            return NULL;
        }
        memcpy(out, disk, PETW__BH_SIZE);
        ptrdiff_t n = petw__xpress_decompress(disk + PETW__BH_SIZE, b->disk_size - PETW__BH_SIZE,
                                              out + PETW__BH_SIZE, b->used - PETW__BH_SIZE);
        if (n != (ptrdiff_t)(b->used - PETW__BH_SIZE)) {
            *why = "XPRESS payload does not decompress to SavedOffset bytes";
            return NULL;
        }
        return out;
    }
    if (!(b->petw_flags & PETW__BUF_ZSTD))
        return disk;
    if (out_size < b->used) {
        *why = "decompressed size too large";
        return NULL;
    }
    memcpy(out, disk, PETW__BH_SIZE);
    size_t n = u ? ZSTD_decompressDCtx(u->dctx, out + PETW__BH_SIZE, out_size - PETW__BH_SIZE,
                                       disk + PETW__BH_SIZE, b->disk_size - PETW__BH_SIZE)
                 : ZSTD_decompress(out + PETW__BH_SIZE, out_size - PETW__BH_SIZE,
                                   disk + PETW__BH_SIZE, b->disk_size - PETW__BH_SIZE);
    if (ZSTD_isError(n) || n != b->used - PETW__BH_SIZE) {
        *why = "zstd payload does not decompress to SavedOffset bytes";
        return NULL;
    }
    return out;
}

int petw__etl_parse_logfile_header(const uint8_t *p, uint32_t n, int pointer_size,
                                   petw_logfile_info *o)
{
    uint32_t ps = pointer_size == 4 ? 4u : 8u;
    /* BootTime: after the two name pointers, TimeZone and 4 bytes of padding. */
    uint32_t base = PETW__LH_LOGGER_NAME_PTR + 2 * ps + PETW__TZI_SIZE + 4;
    uint32_t hsize = base + (PETW__LOGFILE_HEADER_SIZE_64 - PETW__LH_BOOT_TIME_64);
    if (n < hsize)
        return PETW_ECORRUPT;
    memset(o, 0, sizeof(*o));
    o->buffer_size = petw__rd32(p + PETW__LH_BUFFER_SIZE);
    o->version = petw__rd32(p + PETW__LH_VERSION);
    o->provider_version = petw__rd32(p + PETW__LH_PROVIDER_VERSION);
    o->number_of_processors = petw__rd32(p + PETW__LH_NUMBER_OF_PROCESSORS);
    o->end_time = (int64_t)petw__rd64(p + PETW__LH_END_TIME);
    o->timer_resolution = petw__rd32(p + PETW__LH_TIMER_RESOLUTION);
    o->maximum_file_size = petw__rd32(p + PETW__LH_MAXIMUM_FILE_SIZE);
    o->log_file_mode = petw__rd32(p + PETW__LH_LOG_FILE_MODE);
    o->buffers_written = petw__rd32(p + PETW__LH_BUFFERS_WRITTEN);
    o->start_buffers = petw__rd32(p + PETW__LH_START_BUFFERS);
    o->pointer_size = petw__rd32(p + PETW__LH_POINTER_SIZE);
    o->events_lost = petw__rd32(p + PETW__LH_EVENTS_LOST);
    o->cpu_speed_mhz = petw__rd32(p + PETW__LH_CPU_SPEED);
    o->boot_time = (int64_t)petw__rd64(p + base);
    o->perf_freq = (int64_t)petw__rd64(p + base + 8);
    o->start_time = (int64_t)petw__rd64(p + base + 16);
    o->reserved_flags = petw__rd32(p + base + 24);
    o->buffers_lost = petw__rd32(p + base + 28);
    o->raw_header = p;
    o->raw_header_size = hsize;
    /* The two names follow as NUL-terminated UTF-16LE. */
    uint32_t units = (n - hsize) / 2, i;
    const uint8_t *s = p + hsize;
    petw__utf16le_to_utf8(s, units, o->logger_name, sizeof(o->logger_name));
    for (i = 0; i < units && petw__rd16(s + 2 * i) != 0; i++) {
    }
    if (i + 1 < units)
        petw__utf16le_to_utf8(s + 2 * (i + 1), units - i - 1, o->log_file_name,
                              sizeof(o->log_file_name));
    return 0;
}

uint32_t petw__etl_file_flags(uint16_t header_buffer_flags)
{
    return ((header_buffer_flags & PETW__BUF_HEADER_ZSTD) ? PETW_SESSION_ZSTD : 0) |
           ((header_buffer_flags & PETW__BUF_CHECKSUM) ? PETW_SESSION_CHECKSUM : 0) |
           ((header_buffer_flags & PETW__BUF_HEADER_TSC) ? PETW_FILE_CLOCK_TSC : 0);
}

int petw__etl_parse_header_buffer(const uint8_t *buf, uint32_t used, const petw__etl_buffer *hb,
                                  petw_logfile_info *out)
{
    uint32_t pos = PETW__BH_SIZE;
    petw__etl_record rec;
    const char *why;
    if (petw__etl_next_record(buf, used, &pos, &rec, &why) != 1)
        return PETW_ECORRUPT;
    const uint8_t *r = buf + rec.offset;
    /* EventTrace/Header: a SYSTEM record with HookId 0. */
    if ((rec.header_type != PETW__HDR_SYSTEM64 && rec.header_type != PETW__HDR_SYSTEM32) ||
        petw__rd16(r + 6) != 0 ||
        petw__etl_parse_logfile_header(r + PETW__SYSTEM_HEADER_SIZE,
                                       rec.size - PETW__SYSTEM_HEADER_SIZE,
                                       rec.header_type == PETW__HDR_SYSTEM32 ? 4 : 8, out) != 0)
        return PETW_ECORRUPT;
    out->start_timestamp = rec.timestamp;
    out->petw_flags = petw__etl_file_flags(hb->petw_flags);
    /* 1 Hz .. 1 THz: anything else is not a clock. */
    if (out->perf_freq <= 0 || out->perf_freq > 1000000000000LL)
        return PETW_ECORRUPT;
    return 0;
}

uint32_t petw__etl_count_records(const uint8_t *buf, uint32_t used)
{
    uint32_t pos = PETW__BH_SIZE, n = 0;
    petw__etl_record rec;
    const char *why;
    while (petw__etl_next_record(buf, used, &pos, &rec, &why) == 1)
        n++;
    return n;
}
