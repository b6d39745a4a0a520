/* SPDX-License-Identifier: MIT */
/* etl_write.c - building ETL buffers: the header buffer and sealed data
 * buffers, with petw's optional zstd compression and xxHash64 checksum. */
#include <stdlib.h>

#include <xxhash.h>
#include <zstd.h>

#include "etl_record.h"

static void write_buffer_header(uint8_t *b, uint32_t disk_size, uint32_t used, int64_t ts,
                                int64_t seq, uint16_t cpu, uint16_t logger, uint16_t flag,
                                uint16_t type)
{
    petw__wr32(b + PETW__BH_BUFFER_SIZE, disk_size);
    petw__wr32(b + PETW__BH_SAVED_OFFSET, used);
    petw__wr32(b + PETW__BH_CURRENT_OFFSET, used);
    petw__wr32(b + PETW__BH_REFERENCE_COUNT, 0);
    petw__wr64(b + PETW__BH_TIMESTAMP, (uint64_t)ts);
    petw__wr64(b + PETW__BH_SEQUENCE, (uint64_t)seq);
    petw__wr64(b + PETW__BH_CLOCK, 0);
    petw__wr16(b + PETW__BH_PROCESSOR, cpu);
    petw__wr16(b + PETW__BH_LOGGER_ID, logger);
    petw__wr32(b + PETW__BH_STATE, PETW__BUFFER_STATE_FLUSHED);
    petw__wr32(b + PETW__BH_OFFSET, used);
    petw__wr16(b + PETW__BH_BUFFER_FLAG, flag);
    petw__wr16(b + PETW__BH_BUFFER_TYPE, type);
    memset(b + PETW__BH_PETW_CHECKSUM, 0, 16);
}

static void stamp_petw(uint8_t *b, uint32_t stored_size, uint16_t petw_flags)
{
    petw__wr32(b + PETW__BH_PETW_MAGIC, PETW__MAGIC);
    petw__wr16(b + PETW__BH_PETW_FLAGS, petw_flags);
    if (petw_flags & PETW__BUF_CHECKSUM)
        petw__wr64(b + PETW__BH_PETW_CHECKSUM,
                   XXH64(b + PETW__BH_SIZE, stored_size - PETW__BH_SIZE, 0));
}

static void write_tz_date(uint8_t *p, const uint16_t *date)
{
    for (int i = 0; i < 8; i++)
        petw__wr16(p + 2 * i, date ? date[i] : 0);
}

/* TIME_ZONE_INFORMATION; the names truncated to keep their NUL within
 * the 32 units (the record is zeroed before). */
static void write_time_zone(uint8_t *tz, const petw__etl_session_info *in)
{
    petw__wr32(tz, (uint32_t)in->tz_bias);
    petw__utf8_to_utf16le(in->tz_standard ? in->tz_standard : "UTC", tz + PETW__TZI_STANDARD_NAME,
                          PETW__TZI_NAME_UNITS);
    write_tz_date(tz + PETW__TZI_STANDARD_DATE, in->tz_standard_date);
    petw__wr32(tz + PETW__TZI_STANDARD_BIAS, (uint32_t)in->tz_standard_bias);
    petw__utf8_to_utf16le(in->tz_daylight ? in->tz_daylight : "UTC", tz + PETW__TZI_DAYLIGHT_NAME,
                          PETW__TZI_NAME_UNITS);
    write_tz_date(tz + PETW__TZI_DAYLIGHT_DATE, in->tz_daylight_date);
    petw__wr32(tz + PETW__TZI_DAYLIGHT_BIAS, (uint32_t)in->tz_daylight_bias);
}

void petw__etl_write_header_buffer(uint8_t *buf, const petw__etl_session_info *in)
{
    uint32_t size = in->buffer_size;
    uint8_t *rec = buf + PETW__BH_SIZE;
    uint8_t *lh = rec + PETW__SYSTEM_HEADER_SIZE;
    const uint32_t lh_size = PETW__LOGFILE_HEADER_SIZE_64;
    /* Names go after the logfile header as UTF-16LE; keep them inside the
     * buffer (a 4 KB buffer minimum leaves > 3.5 KB for both). */
    uint32_t room_units = (size - PETW__BH_SIZE - PETW__SYSTEM_HEADER_SIZE - lh_size - 8) / 4;
    memset(buf, 0xFF, size);
    memset(rec, 0, PETW__SYSTEM_HEADER_SIZE + lh_size);
    uint8_t *names = lh + lh_size;
    size_t n1 = petw__utf8_to_utf16le(in->logger_name ? in->logger_name : "", names, room_units);
    uint8_t *name2 = names + 2 * (n1 + 1);
    size_t n2 =
        petw__utf8_to_utf16le(in->log_file_name ? in->log_file_name : "", name2, room_units);
    uint32_t rec_size =
        PETW__SYSTEM_HEADER_SIZE + lh_size + 2 * (uint32_t)(n1 + 1) + 2 * (uint32_t)(n2 + 1);

    /* SYSTEM_TRACE_HEADER: Version 2, SYSTEM64, marker 0xC0, group/type 0. */
    petw__wr16(rec + 0, 2);
    rec[2] = PETW__HDR_SYSTEM64;
    rec[3] = PETW__HDR_MARKER_MASK;
    petw__wr16(rec + 4, (uint16_t)rec_size);
    petw__wr16(rec + 6, 0);
    petw__wr32(rec + 8, in->thread_id);
    petw__wr32(rec + 12, in->process_id);
    petw__wr64(rec + 16, (uint64_t)in->start_timestamp);

    petw__wr32(lh + PETW__LH_BUFFER_SIZE, size);
    /* Version is the writing OS's major.minor to readers, and they pick
     * record layouts by it (TraceEvent's OSVersion): it names the layout
     * of Windows 10's files, which petw's records follow on every system.
     * The OS that wrote the file is in ProviderVersion. */
    lh[PETW__LH_VERSION + 0] = 10;
    lh[PETW__LH_VERSION + 1] = 0;
    lh[PETW__LH_VERSION + 2] = 1;
    lh[PETW__LH_VERSION + 3] = 5;
    petw__wr32(lh + PETW__LH_PROVIDER_VERSION, in->os_build);
    petw__wr32(lh + PETW__LH_NUMBER_OF_PROCESSORS, in->cpu_count);
    petw__wr64(lh + PETW__LH_END_TIME, (uint64_t)in->end_filetime);
    petw__wr32(lh + PETW__LH_TIMER_RESOLUTION, in->timer_resolution ? in->timer_resolution : 1);
    petw__wr32(lh + PETW__LH_MAXIMUM_FILE_SIZE, in->maximum_file_size);
    petw__wr32(lh + PETW__LH_LOG_FILE_MODE, in->log_file_mode);
    petw__wr32(lh + PETW__LH_BUFFERS_WRITTEN, in->buffers_written);
    petw__wr32(lh + PETW__LH_START_BUFFERS, 1);
    /* The pointer size of the file's layout: readers size this record's
     * two name pointers by it, and petw writes the 64-bit headers
     * (SYSTEM64, EVENT_HEADER64) on every system. */
    petw__wr32(lh + PETW__LH_POINTER_SIZE, 8);
    petw__wr32(lh + PETW__LH_EVENTS_LOST, in->events_lost);
    /* Readers divide by it: never 0. */
    petw__wr32(lh + PETW__LH_CPU_SPEED, in->cpu_speed_mhz ? in->cpu_speed_mhz : 1);
    /* 0x38, 0x40: LoggerName/LogFileName pointers: 0 on disk. */
    write_time_zone(lh + PETW__LH_TIME_ZONE_64, in);
    petw__wr64(lh + PETW__LH_BOOT_TIME_64, (uint64_t)in->boot_time);
    petw__wr64(lh + PETW__LH_PERF_FREQ_64, (uint64_t)in->perf_freq);
    petw__wr64(lh + PETW__LH_START_TIME_64, (uint64_t)in->start_filetime);
    petw__wr32(lh + PETW__LH_RESERVED_FLAGS_64, in->clock);
    petw__wr32(lh + PETW__LH_BUFFERS_LOST_64, in->buffers_lost);

    uint32_t used = PETW__BH_SIZE + PETW__ALIGN8(rec_size);
    /* Gap after the record: zero, then the 0xFF fill. */
    memset(rec + rec_size, 0, PETW__ALIGN8(rec_size) - rec_size);
    write_buffer_header(buf, size, used, in->start_timestamp, 0, 0, in->logger_id,
                        PETW__BUFFER_FLAG_FLUSH_MARKER | PETW__BUFFER_FLAG_PROCESSOR_INDEX,
                        PETW__BUFFER_TYPE_HEADER);
    /* The header buffer is never compressed; its flags word tells readers
     * which extensions the file's data buffers use. */
    stamp_petw(buf, size, petw__etl_header_flags(in->petw_flags));
}

uint16_t petw__etl_buffer_flags(uint32_t session_flags)
{
    return (session_flags & PETW_SESSION_CHECKSUM) ? PETW__BUF_CHECKSUM : 0;
}

uint16_t petw__etl_header_flags(uint32_t session_flags)
{
    return (uint16_t)(petw__etl_buffer_flags(session_flags) |
                      ((session_flags & PETW_SESSION_ZSTD) ? PETW__BUF_HEADER_ZSTD : 0) |
                      ((session_flags & PETW_FILE_CLOCK_TSC) ? PETW__BUF_HEADER_TSC : 0));
}

struct petw__etl_packer {
    ZSTD_CCtx *cctx;
    size_t room; /* bytes of `out` after the buffer header */
    uint8_t out[];
};

petw__etl_packer *petw__etl_packer_new(uint32_t buffer_size)
{
    size_t room = ZSTD_compressBound(buffer_size);
    petw__etl_packer *p = malloc(sizeof(*p) + PETW__BH_SIZE + room);
    if (p && !(p->cctx = ZSTD_createCCtx())) {
        free(p);
        p = NULL;
    }
    if (p)
        p->room = room;
    return p;
}

void petw__etl_packer_free(petw__etl_packer *p)
{
    if (p) {
        ZSTD_freeCCtx(p->cctx);
        free(p);
    }
}

/* The earliest timestamp of the buffer's records, in *out; returns 0 when it has none. */
static int earliest_record(const uint8_t *buf, uint32_t used, int64_t *out)
{
    uint32_t pos = PETW__BH_SIZE;
    petw__etl_record rec;
    const char *why = NULL;
    int found = 0;
    int64_t earliest = INT64_MAX;
    while (petw__etl_next_record(buf, used, &pos, &rec, &why) == 1) {
        if (rec.timestamp < earliest)
            earliest = rec.timestamp;
        found = 1;
    }
    *out = earliest;
    return found;
}

const uint8_t *petw__etl_seal_buffer(uint8_t *buf, const petw__etl_buffer_info *in,
                                     petw__etl_packer *packer, uint32_t *out_size)
{
    uint16_t flag =
        (uint16_t)(PETW__BUFFER_FLAG_FLUSH_MARKER | PETW__BUFFER_FLAG_PROCESSOR_INDEX | in->flags);
    uint16_t pf = petw__etl_buffer_flags(in->petw_flags);
    memset(buf + in->used, 0xFF, in->buffer_size - in->used);
    /* The in-memory buffer is always left sealed and uncompressed (real-time
     * consumers and snapshots read it); compression goes to `scratch`. */
    write_buffer_header(buf, in->buffer_size, in->used, in->timestamp, in->sequence, in->cpu,
                        in->logger_id, flag, PETW__BUFFER_TYPE_GENERIC);
    stamp_petw(buf, in->buffer_size, pf);
    if ((in->petw_flags & PETW_SESSION_ZSTD) && packer &&
        ZSTD_compressBound(in->buffer_size) <= packer->room) {
        uint8_t *scratch = packer->out;
        size_t n = ZSTD_compressCCtx(packer->cctx, scratch + PETW__BH_SIZE, packer->room,
                                     buf + PETW__BH_SIZE, in->used - PETW__BH_SIZE,
                                     in->zstd_level ? in->zstd_level : 1);
        if (!ZSTD_isError(n)) {
            uint32_t disk = PETW__BH_SIZE + (uint32_t)n;
            write_buffer_header(scratch, disk, in->used, in->timestamp, in->sequence, in->cpu,
                                in->logger_id, flag, PETW__BUFFER_TYPE_GENERIC);
            /* The earliest timestamp where Windows keeps ClockType (its
             * readers never see zstd buffers): readers order the buffer
             * without decompressing it first. */
            int64_t first;
            if (earliest_record(buf, in->used, &first)) {
                petw__wr64(scratch + PETW__BH_CLOCK, (uint64_t)first);
                pf = (uint16_t)(pf | PETW__BUF_FIRST_TS);
            }
            stamp_petw(scratch, disk, (uint16_t)(pf | PETW__BUF_ZSTD));
            *out_size = disk;
            return scratch;
        }
        /* Compression failed (cannot happen with a bound-sized output):
         * store the buffer plain; the flags say so. */
    }
    *out_size = in->buffer_size;
    return buf;
}
