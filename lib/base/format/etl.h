/* SPDX-License-Identifier: MIT */
/* etl.h - the ETL on-disk layout (see docs/format.md), writer and reader.
 *
 * Allowed dependencies: common/, platform/, classes/, zstd, xxHash. format/ knows bytes, not
 * rings, sessions or files: callers hand it buffers. It owns every byte
 * layout: buffer and header-buffer parsing, record stepping and decoding
 * into EVENT_RECORDs live here and nowhere else.
 */
#ifndef PETW_ETL_H
#define PETW_ETL_H

#include <stdatomic.h>
#include <string.h>

#include "../common/common.h"

/* WMI_BUFFER_HEADER (0x48 bytes) field offsets. */
#define PETW__BH_BUFFER_SIZE 0x00
#define PETW__BH_SAVED_OFFSET 0x04
#define PETW__BH_CURRENT_OFFSET 0x08
#define PETW__BH_REFERENCE_COUNT 0x0C
#define PETW__BH_TIMESTAMP 0x10
#define PETW__BH_SEQUENCE 0x18
#define PETW__BH_CLOCK 0x20
#define PETW__BH_PROCESSOR 0x28
#define PETW__BH_LOGGER_ID 0x2A
#define PETW__BH_STATE 0x2C
#define PETW__BH_OFFSET 0x30
#define PETW__BH_BUFFER_FLAG 0x34
#define PETW__BH_BUFFER_TYPE 0x36
#define PETW__BH_PETW_CHECKSUM 0x38 /* petw: u64 xxh64 of the stored payload */
#define PETW__BH_PETW_MAGIC 0x40    /* petw: u32 "PTW1" */
#define PETW__BH_PETW_FLAGS 0x44    /* petw: u16 PETW__BUF_* */
#define PETW__BH_SIZE 0x48

#define PETW__BUFFER_FLAG_FLUSH_MARKER 0x0001
#define PETW__BUFFER_FLAG_EVENTS_LOST 0x0002
#define PETW__BUFFER_FLAG_BUFFER_LOST 0x0004
#define PETW__BUFFER_FLAG_PROCESSOR_INDEX 0x0020
#define PETW__BUFFER_FLAG_COMPRESSED 0x0040 /* Windows' XPRESS compression */
#define PETW__BUFFER_TYPE_GENERIC 0
#define PETW__BUFFER_TYPE_HEADER 4
#define PETW__BUFFER_STATE_FLUSHED 3

/* petw's buffer-header extension: the u16 at PETW__BH_PETW_FLAGS. A data
 * buffer describes itself (checksum present, payload is a zstd frame); the
 * header buffer, never compressed, also says whether the file's data
 * buffers use zstd. These are on-disk values, distinct from the session's
 * PETW_SESSION_* flags; petw__etl_buffer_flags/petw__etl_file_flags
 * translate. */
#define PETW__MAGIC 0x31575450u      /* "PTW1" little-endian */
#define PETW__BUF_CHECKSUM 0x1u      /* the checksum field is valid */
#define PETW__BUF_ZSTD 0x2u          /* payload is one zstd frame */
#define PETW__BUF_FIRST_TS 0x4u      /* zstd buffers: 0x20 holds the earliest record's timestamp */
#define PETW__BUF_HEADER_ZSTD 0x100u /* header buffer: the data buffers are zstd */
#define PETW__BUF_HEADER_TSC 0x200u  /* header buffer: the clock read the TSC */

/* Record header types (byte 2 of a record; byte 3 has marker bits 0xC0;
 * a WPP message has 0x90 or 0xB0 in its top nibble instead). */
#define PETW__HDR_MARKER_MASK 0xC0u
#define PETW__HDR_MESSAGE_MARK_MASK 0xF0u
#define PETW__HDR_MESSAGE_MARK 0x90u
#define PETW__HDR_MESSAGE_MARK_INDEXED 0xB0u
#define PETW__HDR_SYSTEM32 0x01
#define PETW__HDR_SYSTEM64 0x02
#define PETW__HDR_COMPACT32 0x03
#define PETW__HDR_COMPACT64 0x04
#define PETW__HDR_FULL32 0x0A
#define PETW__HDR_INSTANCE32 0x0B
#define PETW__HDR_MESSAGE 0x0F
#define PETW__HDR_PERFINFO32 0x10
#define PETW__HDR_PERFINFO64 0x11
#define PETW__HDR_EVENT32 0x12
#define PETW__HDR_EVENT64 0x13
#define PETW__HDR_FULL64 0x14
#define PETW__HDR_INSTANCE64 0x15
/* Bytes 2-3 of an EVENT record petw writes: the type and the marker bits. */
#define PETW__HDR_EVENT64_TYPE_WORD ((PETW__HDR_MARKER_MASK << 8) | PETW__HDR_EVENT64)

/* SYSTEM/COMPACT/PERFINFO Version word: bit 15, a PEBS index follows the
 * header; bits 8-10, that many PMC counters (8 bytes each). */
#define PETW__SYS_VERSION_PEBS 0x8000u
#define PETW__SYS_VERSION_PMC_SHIFT 8
#define PETW__SYS_VERSION_PMC_MASK 7u

/* WPP message option flags (TRACE_MESSAGE_*), the u16 at offset 6. */
#define PETW__MSG_SEQUENCE 0x01
#define PETW__MSG_GUID 0x02
#define PETW__MSG_COMPONENTID 0x04
#define PETW__MSG_TIMESTAMP 0x08
#define PETW__MSG_SYSTEMINFO 0x20

#define PETW__EVENT_HEADER_SIZE 0x50
#define PETW__SYSTEM_HEADER_SIZE 0x20
#define PETW__COMPACT_HEADER_SIZE 0x18
#define PETW__PERFINFO_HEADER_SIZE 0x10
#define PETW__FULL_HEADER_SIZE 0x30
#define PETW__INSTANCE_HEADER_SIZE 0x48
#define PETW__EXT_ITEM_HEADER 8
#define PETW__LOGFILE_HEADER_SIZE_64 0x118
#define PETW__LOGFILE_HEADER_SIZE_32 0x110

/* TRACE_LOGFILE_HEADER offsets, 64-bit layout (32-bit: -8 from 0x40 on,
 * -16 from TimeZone's end on). */
#define PETW__LH_BUFFER_SIZE 0x00
#define PETW__LH_VERSION 0x04
#define PETW__LH_PROVIDER_VERSION 0x08
#define PETW__LH_NUMBER_OF_PROCESSORS 0x0C
#define PETW__LH_END_TIME 0x10
#define PETW__LH_TIMER_RESOLUTION 0x18
#define PETW__LH_MAXIMUM_FILE_SIZE 0x1C
#define PETW__LH_LOG_FILE_MODE 0x20
#define PETW__LH_BUFFERS_WRITTEN 0x24
#define PETW__LH_START_BUFFERS 0x28
#define PETW__LH_POINTER_SIZE 0x2C
#define PETW__LH_EVENTS_LOST 0x30
#define PETW__LH_CPU_SPEED 0x34
#define PETW__LH_LOGGER_NAME_PTR 0x38
/* TIME_ZONE_INFORMATION: Bias, StandardName[32] (UTF-16), StandardDate
 * (SYSTEMTIME, 8 u16), StandardBias, DaylightName[32], DaylightDate,
 * DaylightBias. */
#define PETW__TZI_STANDARD_NAME 0x04
#define PETW__TZI_STANDARD_DATE 0x44
#define PETW__TZI_STANDARD_BIAS 0x54
#define PETW__TZI_DAYLIGHT_NAME 0x58
#define PETW__TZI_DAYLIGHT_DATE 0x98
#define PETW__TZI_DAYLIGHT_BIAS 0xA8
#define PETW__TZI_NAME_UNITS 32
#define PETW__TZI_SIZE 0xAC
/* From TimeZone on, the 64-bit layout's offsets (the 32-bit layout's are 8
 * lower: two pointers before them are 4 bytes each). */
#define PETW__LH_TIME_ZONE_64 0x48
#define PETW__LH_BOOT_TIME_64 0xF8
#define PETW__LH_PERF_FREQ_64 0x100
#define PETW__LH_START_TIME_64 0x108
#define PETW__LH_RESERVED_FLAGS_64 0x110
#define PETW__LH_BUFFERS_LOST_64 0x114

/* What the header buffer records about a session. */
typedef struct petw__etl_session_info {
    uint32_t buffer_size;
    uint32_t cpu_count;
    uint32_t clock;
    uint32_t log_file_mode;
    uint32_t maximum_file_size;
    uint32_t os_build; /* ProviderVersion */
    uint32_t cpu_speed_mhz;
    uint32_t timer_resolution; /* 100 ns units */
    /* The local zone (TIME_ZONE_INFORMATION): biases in minutes, UTC =
     * local + bias (+ daylight_bias in daylight time); the dates as
     * SYSTEMTIME's 8 u16 (NULL: none). */
    int32_t tz_bias;
    int32_t tz_standard_bias;
    int32_t tz_daylight_bias;
    const uint16_t *tz_standard_date;
    const uint16_t *tz_daylight_date;
    const char *tz_standard; /* UTF-8 zone names (NULL: "UTC") */
    const char *tz_daylight;
    uint32_t petw_flags; /* PETW_SESSION_* (translated to PETW__BUF_* on disk) */
    uint16_t logger_id;
    uint32_t process_id, thread_id;
    int64_t start_timestamp; /* session clock */
    int64_t start_filetime;
    int64_t perf_freq;
    int64_t boot_time;
    const char *logger_name; /* UTF-8 */
    const char *log_file_name;
    /* Rewritten as the file grows and at stop. */
    int64_t end_filetime;
    uint32_t buffers_written; /* header buffer included */
    uint32_t events_lost;
    uint32_t buffers_lost;
} petw__etl_session_info;

/* Fills a whole header buffer (buffer_size bytes) for `info`. */
void petw__etl_write_header_buffer(uint8_t *buf, const petw__etl_session_info *info);

typedef struct petw__etl_buffer_info {
    uint32_t buffer_size; /* in memory */
    uint32_t used;        /* bytes used, header included */
    int64_t timestamp;    /* flush time, session clock */
    int64_t sequence;
    uint16_t cpu;
    uint16_t logger_id;
    uint16_t flags;      /* PETW__BUFFER_FLAG_* to add */
    uint32_t petw_flags; /* PETW_SESSION_* (translated to PETW__BUF_* on disk) */
    int zstd_level;
} petw__etl_buffer_info;

/* Room for one compressed buffer of up to `buffer_size` bytes and a zstd
 * context, reused buffer after buffer: creating a context per buffer costs
 * more than compressing a small one (zstd probes the CPU each time, which
 * traps to the hypervisor in a VM). NULL when memory is short. */
typedef struct petw__etl_packer petw__etl_packer;
petw__etl_packer *petw__etl_packer_new(uint32_t buffer_size);
void petw__etl_packer_free(petw__etl_packer *p);

/* Seals a filled buffer in place: header fields, 0xFF fill, checksum.
 * Without compression (`packer` NULL or info->petw_flags without
 * PETW_SESSION_ZSTD) returns `buf` and sets *out_size = buffer_size. With
 * compression writes header + zstd frame into the packer's room and
 * returns it (valid until the next call with that packer). */
const uint8_t *petw__etl_seal_buffer(uint8_t *buf, const petw__etl_buffer_info *info,
                                     petw__etl_packer *packer, uint32_t *out_size);

/* ---- reading ---- */

/* Reader limits. A buffer is at most 16 MiB (ETW's largest BufferSize);
 * a compressed one is at most twice that on disk (incompressible data with
 * a codec's overhead), and its payload never expands more than 4096 times
 * (real ETW buffers compress 5-50:1; a 16 MiB run of one byte is the
 * extreme): anything beyond is damage or a decompression bomb. */
#define PETW__ETL_MAX_BUFFER_SIZE (16u << 20)
#define PETW__ETL_MAX_EXPANSION 4096u

/* A parsed buffer header. */
typedef struct petw__etl_buffer {
    uint64_t file_offset;
    uint32_t disk_size; /* bytes of this buffer on disk */
    uint32_t used;      /* SavedOffset: bytes of records + header, unpacked */
    int64_t timestamp;
    int64_t sequence;
    uint16_t cpu;
    uint16_t logger_id;
    uint16_t buffer_flag;
    uint16_t buffer_type;
    uint16_t petw_flags; /* PETW__BUF_* as on disk */
    /* With PETW__BUF_FIRST_TS: the earliest record's timestamp, so a
     * reader can order the buffer without decompressing it. A claim, not
     * checked here. */
    int64_t first_ts;
} petw__etl_buffer;

/* Parses the buffer header at data[0..avail). Returns 0, or PETW_ECORRUPT
 * with a reason in *why (sizes beyond the reader limits included). */
int petw__etl_parse_buffer(const uint8_t *data, uint64_t avail, uint64_t file_offset,
                           petw__etl_buffer *out, const char **why);

/* A zstd decompression context a reader reuses (see petw__etl_packer).
 * NULL when memory is short. */
typedef struct petw__etl_unpacker petw__etl_unpacker;
petw__etl_unpacker *petw__etl_unpacker_new(void);
void petw__etl_unpacker_free(petw__etl_unpacker *u);

/* Verifies and, if needed, decompresses a buffer into `out` (at least
 * b->used bytes, and b->disk_size), with `u`'s context (NULL: a new one for
 * this call). Returns the bytes to read records from, or NULL with *why
 * set. */
const uint8_t *petw__etl_unpack_buffer(const uint8_t *disk, const petw__etl_buffer *b, uint8_t *out,
                                       size_t out_size, petw__etl_unpacker *u, const char **why);

/* Writes one extended-data item at `out` and returns where the next goes:
 * u16 TotalSize (8 + data, padded to 8), u16 ExtType, u16 Linkage (bit 0:
 * another item follows), u16 DataSize, the data, zero padding. */
static inline uint8_t *petw__etl_put_ext(uint8_t *out, uint16_t type, const void *data,
                                         uint32_t size, int more)
{
    uint32_t total = PETW__ALIGN8(PETW__EXT_ITEM_HEADER + size);
    /* The padding (under 8 bytes) lies in the last 8: zero them first (one
     * store, not a variable-length memset), the header and data after. */
    memset(out + total - 8, 0, 8);
    /* The item's header, one store: its total size, type, linkage (1: an
     * item follows) and data size. */
    petw__wr64(out, (uint64_t)(uint16_t)total | ((uint64_t)type << 16) |
                        ((uint64_t)(more ? 1 : 0) << 32) | ((uint64_t)(uint16_t)size << 48));
    petw__copy_inline(out + PETW__EXT_ITEM_HEADER, data, size);
    return out + total;
}

/* ---- Records written in place (EventWrite's and the system provider's) ----
 *
 * The writers reserve a record in a ring and fill it with these, never
 * with offsets of their own. Crash evidence (docs/design.md, "Crashes"): a
 * session host may read a buffer after the writing process died, so a
 * record's first 4 bytes are stored twice: first its size alone
 * (petw__etl_record_open), last its size with its header type
 * (petw__etl_record_close), with compiler barriers between (no
 * instruction): a killed writer has executed a prefix of its stores in
 * program order, so a record without its type is incomplete. */

/* EVENT_HEADER (HeaderType EVENT64) field offsets. */
#define PETW__EH_SIZE 0x00
#define PETW__EH_HEADER_TYPE 0x02
#define PETW__EH_FLAGS 0x04
#define PETW__EH_EVENT_PROPERTY 0x06
#define PETW__EH_THREAD_ID 0x08
#define PETW__EH_PROCESS_ID 0x0C
#define PETW__EH_TIMESTAMP 0x10
#define PETW__EH_PROVIDER_ID 0x18
#define PETW__EH_DESCRIPTOR 0x28
#define PETW__EH_CPU_TIME 0x38 /* KernelTime, UserTime (u32 each) */
#define PETW__EH_ACTIVITY_ID 0x40

/* The first 8 bytes of an EVENT_HEADER: Size, HeaderType, Flags, and
 * EventProperty 0. */
static inline uint64_t petw__etl_event_word0(uint32_t size, uint16_t flags)
{
    return (uint64_t)(uint16_t)size | ((uint64_t)PETW__HDR_EVENT64_TYPE_WORD << 16) |
           ((uint64_t)flags << 32);
}

/* Starts a record of `size` bytes reserved as `asize` (8-aligned) at
 * `out`: its size alone (type 0: incomplete), then the alignment gap
 * zeroed (later stores may overwrite part of it). */
static inline void petw__etl_record_open(uint8_t *out, uint32_t size, uint32_t asize)
{
    const uint32_t size_only = (uint16_t)size;
    memcpy(out, &size_only, 4);
    /* Compiler-only: the size store first in program order. */
    atomic_signal_fence(memory_order_seq_cst);
    memset(out + asize - 8, 0, 8);
}

/* The rest of an EVENT_HEADER after petw__etl_record_open: word0's upper
 * half (Flags, EventProperty), `word1` (ThreadId | ProcessId << 32), the
 * timestamp, the provider GUID (16 bytes), the EVENT_DESCRIPTOR (16 bytes),
 * the CPU times (KernelTime | UserTime << 32; 0 with
 * PETW_EVENT_HEADER_FLAG_NO_CPUTIME) and the activity ID. */
static inline void petw__etl_event_fields(uint8_t *out, uint64_t word0, uint64_t word1, int64_t ts,
                                          const void *guid, const void *descriptor,
                                          const void *activity, uint64_t cpu)
{
    memcpy(out + PETW__EH_FLAGS, (const uint8_t *)&word0 + 4, 4);
    memcpy(out + PETW__EH_THREAD_ID, &word1, 8);
    memcpy(out + PETW__EH_TIMESTAMP, &ts, 8);
    memcpy(out + PETW__EH_PROVIDER_ID, guid, 16);
    memcpy(out + PETW__EH_DESCRIPTOR, descriptor, 16);
    memcpy(out + PETW__EH_CPU_TIME, &cpu, 8);
    memcpy(out + PETW__EH_ACTIVITY_ID, activity, 16);
}

/* Completes a record: its first 4 bytes with the type, after every other
 * store (compiler-only barrier). `head` holds them (Size, HeaderType). */
static inline void petw__etl_record_close(uint8_t *out, uint32_t head)
{
    /* Compiler-only: the type store last in program order. */
    atomic_signal_fence(memory_order_seq_cst);
    memcpy(out, &head, 4);
}

/* Classic kernel records (SYSTEM64, COMPACT64, PERFINFO64): header size. */
static inline uint32_t petw__etl_system_header_size(uint8_t type)
{
    return type == PETW__HDR_PERFINFO64  ? PETW__PERFINFO_HEADER_SIZE
           : type == PETW__HDR_COMPACT64 ? PETW__COMPACT_HEADER_SIZE
                                         : PETW__SYSTEM_HEADER_SIZE;
}

/* A classic kernel record's header after petw__etl_record_open, but its
 * first 4 bytes: Size, HookId, then ThreadId, ProcessId, the timestamp and
 * (SYSTEM64) unknown CPU times, or (PERFINFO64) the timestamp alone. */
static inline void petw__etl_system_fields(uint8_t *r, uint8_t type, uint32_t size, uint16_t hook,
                                           uint32_t pid, uint32_t tid, int64_t ts)
{
    petw__wr16(r + 4, (uint16_t)size);
    petw__wr16(r + 6, hook);
    if (type == PETW__HDR_PERFINFO64) {
        petw__wr64(r + 8, (uint64_t)ts);
    } else {
        petw__wr32(r + 8, tid);
        petw__wr32(r + 12, pid);
        petw__wr64(r + 16, (uint64_t)ts);
        if (type == PETW__HDR_SYSTEM64)
            petw__wr64(r + 24, 0); /* kernel and user time: not known */
    }
}

/* A classic kernel record's first 4 bytes (petw__etl_record_close's
 * `head`): Version, then the header type with the marker bits. */
static inline uint32_t petw__etl_system_head(uint8_t type, uint16_t version)
{
    return (uint32_t)version | ((uint32_t)(type | (PETW__HDR_MARKER_MASK << 8)) << 16);
}

/* 1 when the record at `r` (4 bytes readable) is a WPP message, whose
 * kind is in its top byte rather than in byte 2. */
static inline int petw__etl_is_message(const uint8_t *r)
{
    uint8_t mark = (uint8_t)(r[3] & PETW__HDR_MESSAGE_MARK_MASK);
    return mark == PETW__HDR_MESSAGE_MARK || mark == PETW__HDR_MESSAGE_MARK_INDEXED;
}

/* One record in a buffer. */
typedef struct petw__etl_record {
    uint32_t offset;     /* from the buffer start */
    uint32_t size;       /* the record's own Size field */
    uint8_t header_type; /* PETW__HDR_* */
    int64_t timestamp;
} petw__etl_record;

/* Stepping through a buffer's records: etl_record.h. */

/* Decodes TRACE_LOGFILE_HEADER from the payload of the header record
 * (`n` bytes after the SYSTEM_TRACE_HEADER). */
int petw__etl_parse_logfile_header(const uint8_t *p, uint32_t n, int pointer_size,
                                   petw_logfile_info *out);

/* The one header-buffer reader (consumers and the flusher's APPEND path):
 * `buf` is an unpacked header buffer of `used` bytes whose buffer header
 * parsed as `hb`. Its first record must be the session's SYSTEM header
 * (EventTrace/Header); fills `out` (petw_flags translated, start_timestamp
 * from the record) and checks PerfFreq is a plausible clock. Returns 0 or
 * PETW_ECORRUPT. */
int petw__etl_parse_header_buffer(const uint8_t *buf, uint32_t used, const petw__etl_buffer *hb,
                                  petw_logfile_info *out);

/* On-disk buffer-header flags <-> PETW_SESSION_* extension flags. */
uint16_t petw__etl_buffer_flags(uint32_t session_flags);     /* a data buffer's */
uint16_t petw__etl_header_flags(uint32_t session_flags);     /* the header buffer's */
uint32_t petw__etl_file_flags(uint16_t header_buffer_flags); /* what a file uses */

/* Number of well-formed records in the first `used` bytes of an unpacked
 * buffer (the flusher's count, and the ring's record-count callback). */
uint32_t petw__etl_count_records(const uint8_t *buf, uint32_t used);

/* Decodes the record at `r` (already bounded by petw__etl_next_record) into
 * `e`: header fields, extended items (into `ext`, at most `ext_max`), user
 * data pointers into `r`. Timestamps stay raw; the buffer context is left
 * to the caller. Returns 0, or PETW_ECORRUPT for a malformed record. */
int petw__etl_decode_record(const uint8_t *r, petw_event_record *e, petw_extended_item *ext,
                            uint32_t ext_max);

/* A buffer whose writer died (a killed provider process's shared pool):
 * copies the complete records of [header, end) to `out` (after a header's
 * room, so `out` is a buffer of the same size) and adds the incomplete ones
 * to *lost. A record is complete when its header type is stored: writers
 * store the size first and the type last (provider.c), and the host zeroes
 * buffers before reuse, so a record that was reserved and never finished
 * shows its size and no type, or nothing. Returns the bytes used in `out`
 * (header included). Every read is bounded by `end`. */
uint32_t petw__etl_salvage_records(const uint8_t *buf, uint32_t end, uint8_t *out, uint32_t *lost);

#endif /* PETW_ETL_H */
