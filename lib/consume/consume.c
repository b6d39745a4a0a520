/* consume.c - reading ETL files and delivering their events in order.
 *
 * Allowed dependencies: common/, platform/, format/.
 *
 * A file is read whole. Each buffer is verified (and decompressed), its
 * records indexed and sorted by timestamp (writers on one CPU can land
 * slightly out of order), and the buffers are then merged with a binary
 * heap: a k-way merge over every buffer of every file, which is exact even
 * when a record in one buffer is older than the end of the previous one.
 */
#include <stdlib.h>

#include <stdatomic.h>

#include "../format/etl.h"
#include "../platform/platform.h"
#include "consume_internal.h"
#include "petw/consume.h"
#include "petw/session.h" /* PETW_SESSION_* flag values only */

#define MAX_EXT_ITEMS 32
#define MAX_TRACES 64

/* Classic kernel events: the event class of a HookId group, as the NT
 * Kernel Logger's MOF classes name them (groups not listed keep a zero
 * provider and carry the group in Task). */
static const struct {
    uint8_t group;
    petw_guid guid;
} kernel_groups[] = {
    {0x00, {0x68fdd900, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}}}, /* EventTrace
                                                                                             */
    {0x01,
     {0x3d6fa8d4, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}}}, /* DiskIo */
    {0x02, {0x3d6fa8d3, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}}}, /* PageFault
                                                                                             */
    {0x03,
     {0x3d6fa8d0, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}}}, /* Process */
    {0x04,
     {0x90cbdc39, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}}}, /* FileIo */
    {0x05,
     {0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}}}, /* Thread */
    {0x06,
     {0x9a280ac0, 0xc8e0, 0x11d1, {0x84, 0xe2, 0x00, 0xc0, 0x4f, 0xb9, 0x98, 0xa2}}}, /* TcpIp */
    {0x08,
     {0xbf3a50c5, 0xa9c9, 0x4988, {0xa0, 0x05, 0x2d, 0xf0, 0xb7, 0xc8, 0x0f, 0x80}}}, /* UdpIp */
    {0x09,
     {0xae53722e, 0xc863, 0x11d2, {0x86, 0x59, 0x00, 0xc0, 0x4f, 0xa3, 0x21, 0xa1}}}, /* Registry */
    {0x0B, {0x01853a65, 0x418f, 0x4f36, {0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35}}}, /* SystemConfig
                                                                                             */
    {0x0F,
     {0xce1dbfb4, 0x137e, 0x4da6, {0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}}}, /* PerfInfo */
    {0x14,
     {0x2cb15d1d, 0x5fc1, 0x11d2, {0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18}}}, /* Image */
    {0x18, {0xdef2fe46, 0x7bd6, 0x4b80, {0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3}}}, /* StackWalk
                                                                                             */
    {0x1A,
     {0x45d8cccd, 0x539f, 0x4b72, {0xa8, 0xb7, 0x5c, 0x68, 0x31, 0x42, 0x60, 0x9a}}}, /* ALPC */
};

typedef struct rec_ix {
    int64_t timestamp;
    uint32_t offset;
} rec_ix;

typedef struct tbuf {
    const uint8_t *data; /* records are read from here */
    uint8_t *owned;      /* decompressed copy, when any */
    uint32_t used;
    uint32_t extent; /* bytes that may hold records (header buffers: all of it) */
    uint16_t cpu;
    uint16_t logger_id;
    uint16_t buffer_flag;
    int header; /* the file's header buffer */
    uint32_t rec_count;
    uint32_t next;
    rec_ix *recs;
} tbuf;

struct petw_trace {
    petw_trace_config config;
    uint8_t *file;
    size_t file_size;
    petw_logfile_info info;
    tbuf *bufs;
    uint32_t buf_count;
    petw_trace_stats stats;
    int processed;
    petw__bufqueue *live; /* real-time source, or NULL */
    uint8_t *live_buffer;
    _Atomic int cancel;
};

void petw_trace_config_init(petw_trace_config *c)
{
    if (c)
        memset(c, 0, sizeof(*c));
}

const petw_logfile_info *petw_trace_info(const petw_trace *t)
{
    return t ? &t->info : NULL;
}
void *petw_trace_context(const petw_trace *t)
{
    return t ? t->config.context : NULL;
}

void petw_trace_stats_get(const petw_trace *t, petw_trace_stats *s)
{
    if (t && s)
        *s = t->stats;
}

static void corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *why)
{
    t->stats.buffers_corrupt++;
    if (t->config.on_corrupt)
        t->config.on_corrupt(t, index, offset, why, t->config.context);
}

static int cmp_rec(const void *a, const void *b)
{
    const rec_ix *x = a, *y = b;
    if (x->timestamp != y->timestamp)
        return x->timestamp < y->timestamp ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Appends `rec` to the growing index; on failure frees it and returns -1. */
static int push_rec(rec_ix **recs, uint32_t *n, uint32_t *cap, const petw__etl_record *rec)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        rec_ix *g = realloc(*recs, *cap * sizeof(*g));
        if (!g) {
            free(*recs);
            *recs = NULL;
            return -1;
        }
        *recs = g;
    }
    (*recs)[*n].timestamp = rec->timestamp;
    (*recs)[*n].offset = rec->offset;
    (*n)++;
    return 0;
}

/* Indexes one unpacked buffer's records. On a malformed record keeps those
 * before it and reports the buffer. */
static int index_buffer(petw_trace *t, tbuf *b, uint64_t index, uint64_t offset)
{
    uint32_t pos = PETW__BH_SIZE, cap = 0, n = 0;
    rec_ix *recs = NULL;
    petw__etl_record rec;
    const char *why = NULL;
    int r;
    while ((r = petw__etl_next_record(b->data, b->used, &pos, &rec, &why)) == 1) {
        if (push_rec(&recs, &n, &cap, &rec) != 0)
            return PETW_ENOMEM;
    }
    if (r < 0)
        corrupt(t, index, offset + pos, why);
    /* A header buffer may hold valid records past its SavedOffset (relogged
     * Windows files append the extension record without updating it); read
     * on while records are valid, up to the 0xFF fill or the buffer's end. */
    if (r == 0 && b->header && b->extent > b->used) {
        uint32_t extent = b->extent;
        while (petw__etl_next_record(b->data, extent, &pos, &rec, &why) == 1) {
            if (push_rec(&recs, &n, &cap, &rec) != 0)
                return PETW_ENOMEM;
        }
    }
    /* Mostly sorted already; qsort with the offset tie-break is stable. */
    int sorted = 1;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = recs[i - 1].timestamp <= recs[i].timestamp;
    if (!sorted)
        qsort(recs, n, sizeof(*recs), cmp_rec);
    b->recs = recs;
    b->rec_count = n;
    return 0;
}

static int load(petw_trace *t)
{
    uint64_t off = 0, index = 0;
    uint32_t cap = 0;
    uint32_t stride = 0;
    while (off < t->file_size) {
        uint64_t avail = t->file_size - off;
        petw__etl_buffer hb;
        const char *why = NULL;
        if (avail < PETW__BH_SIZE) {
            t->stats.bytes_truncated += avail;
            break;
        }
        /* Zeros where a buffer header should be: the unused part of a
         * preallocated file (PREALLOCATE while recording). The data ends. */
        if (index > 0 && petw__rd32(t->file + off) == 0 && petw__rd32(t->file + off + 4) == 0)
            break;
        if (petw__etl_parse_buffer(t->file + off, avail, off, &hb, &why) != 0) {
            if (index == 0)
                return PETW_ECORRUPT;
            corrupt(t, index, off, why);
            t->stats.buffers_read++;
            /* Fixed-size files: skip one buffer and resynchronize. */
            if (stride == 0 || (t->info.petw_flags & PETW_SESSION_ZSTD))
                break;
            off += stride;
            index++;
            continue;
        }
        /* Uncompressed files have fixed-size buffers: a different size is
         * damage, and the known stride lets us step over it. */
        int fixed = stride != 0 && !(t->info.petw_flags & PETW_SESSION_ZSTD) &&
                    !(t->info.log_file_mode & 0x04000000u /* COMPRESSED_MODE */);
        if (fixed && hb.disk_size != stride) {
            if (avail < stride) {
                t->stats.bytes_truncated += avail;
                break;
            }
            corrupt(t, index, off, "BufferSize differs from the file's buffer size");
            t->stats.buffers_read++;
            off += stride;
            index++;
            continue;
        }
        if (hb.disk_size > avail) {
            t->stats.bytes_truncated += avail;
            break;
        }
        if (index == 0)
            stride = hb.disk_size;
        if (cap == t->buf_count) {
            cap = cap ? cap * 2 : 16;
            tbuf *g = realloc(t->bufs, cap * sizeof(*g));
            if (!g)
                return PETW_ENOMEM;
            t->bufs = g;
        }
        tbuf *b = &t->bufs[t->buf_count];
        memset(b, 0, sizeof(*b));
        if ((hb.petw_flags & PETW__BUF_ZSTD) || (hb.buffer_flag & PETW__BUFFER_FLAG_COMPRESSED)) {
            b->owned = malloc(hb.used);
            if (!b->owned)
                return PETW_ENOMEM;
        }
        b->data = petw__etl_unpack_buffer(t->file + off, &hb, b->owned, hb.used, &why);
        t->stats.buffers_read++;
        if (!b->data) {
            free(b->owned);
            if (index == 0)
                return PETW_ECORRUPT;
            corrupt(t, index, off, why);
        } else {
            b->used = hb.used;
            b->header = index == 0;
            /* Uncompressed header buffers: the whole buffer as stored. */
            b->extent = b->header && b->data == t->file + off ? hb.disk_size : hb.used;
            b->cpu = hb.cpu;
            b->logger_id = hb.logger_id;
            b->buffer_flag = hb.buffer_flag;
            int rc = index_buffer(t, b, index, off);
            if (rc)
                return rc;
            t->buf_count++;
            if (index == 0) {
                /* The first record must be the session header. */
                if (b->rec_count == 0)
                    return PETW_ECORRUPT;
                const uint8_t *r = b->data + PETW__BH_SIZE;
                uint8_t type = r[2];
                uint16_t size = petw__rd16(r + 4);
                if ((type != PETW__HDR_SYSTEM64 && type != PETW__HDR_SYSTEM32) ||
                    petw__rd16(r + 6) != 0 ||
                    petw__etl_parse_logfile_header(
                        r + PETW__SYSTEM_HEADER_SIZE, size - PETW__SYSTEM_HEADER_SIZE,
                        type == PETW__HDR_SYSTEM32 ? 4 : 8, &t->info) != 0)
                    return PETW_ECORRUPT;
                t->info.start_timestamp = (int64_t)petw__rd64(r + 16);
                uint16_t pf = hb.petw_flags;
                t->info.petw_flags = ((pf & 0x100u) ? PETW_SESSION_ZSTD : 0) |
                                     ((pf & PETW__BUF_CHECKSUM) ? PETW_SESSION_CHECKSUM : 0);
                /* 1 Hz .. 1 THz: anything else is not a clock. */
                if (t->info.perf_freq <= 0 || t->info.perf_freq > 1000000000000LL)
                    return PETW_ECORRUPT;
            }
        }
        off += hb.disk_size;
        index++;
    }
    return t->buf_count ? 0 : PETW_ECORRUPT;
}

int petw_trace_open(const char *path, const petw_trace_config *config, petw_trace **out)
{
    PETW__RETURN_IF(!path || !config || !config->on_event || !out, PETW_EINVAL);
    petw__library_init();
    petw_trace *t = calloc(1, sizeof(*t));
    if (!t)
        return PETW_ENOMEM;
    t->config = *config;
    int rc = petw__file_read_all(path, &t->file, &t->file_size);
    if (rc == 0)
        rc = load(t);
    if (rc) {
        petw_trace_close(t);
        return rc;
    }
    *out = t;
    return 0;
}

int petw_trace_open_memory(const void *data, size_t size, const petw_trace_config *config,
                           petw_trace **out)
{
    PETW__RETURN_IF((!data && size) || !config || !config->on_event || !out, PETW_EINVAL);
    petw__library_init();
    petw_trace *t = calloc(1, sizeof(*t));
    if (!t)
        return PETW_ENOMEM;
    t->config = *config;
    t->file = malloc(size ? size : 1);
    if (!t->file) {
        free(t);
        return PETW_ENOMEM;
    }
    if (size)
        memcpy(t->file, data, size);
    t->file_size = size;
    int rc = load(t);
    if (rc) {
        petw_trace_close(t);
        return rc;
    }
    *out = t;
    return 0;
}

int petw__trace_open_live(const uint8_t *header, uint32_t size, petw__bufqueue *queue,
                          const petw_trace_config *config, petw_trace **out)
{
    petw_trace *t = NULL;
    int rc = petw_trace_open_memory(header, size, config, &t);
    if (rc)
        return rc;
    t->live_buffer = malloc(petw__bufqueue_buffer_size(queue));
    if (!t->live_buffer) {
        petw_trace_close(t);
        return PETW_ENOMEM;
    }
    petw__bufqueue_ref(queue);
    t->live = queue;
    *out = t;
    return 0;
}

void petw_trace_cancel(petw_trace *t)
{
    if (t)
        atomic_store_explicit(&t->cancel, 1, memory_order_relaxed);
}

void petw_trace_close(petw_trace *t)
{
    if (!t)
        return;
    if (t->live)
        petw__bufqueue_unref(t->live);
    free(t->live_buffer);
    for (uint32_t i = 0; i < t->buf_count; i++) {
        free(t->bufs[i].owned);
        free(t->bufs[i].recs);
    }
    free(t->bufs);
    free(t->file);
    free(t);
}

int64_t petw_trace_timestamp_to_filetime(const petw_trace *t, int64_t ts)
{
    /* Untrusted inputs: compute wide and saturate instead of overflowing. */
    const petw_logfile_info *i = &t->info;
#ifdef __SIZEOF_INT128__
    __int128 v =
        (__int128)i->start_time + ((__int128)ts - i->start_timestamp) * 10000000 / i->perf_freq;
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
#else
    double v = (double)i->start_time +
               ((double)ts - (double)i->start_timestamp) * 1e7 / (double)i->perf_freq;
    if (v >= 9.2e18 || v <= -9.2e18)
        return v > 0 ? INT64_MAX : INT64_MIN;
    int64_t d = (int64_t)((uint64_t)ts - (uint64_t)i->start_timestamp);
    int64_t q = d / i->perf_freq, r = d % i->perf_freq;
    return i->start_time + q * 10000000LL + r * 10000000LL / i->perf_freq;
#endif
}

/* ---- delivery ---- */

typedef struct deliver_ctx {
    petw_extended_item ext[MAX_EXT_ITEMS];
} deliver_ctx;

static void set_cpu(petw_event_record *e, const tbuf *b)
{
    if (b->buffer_flag & PETW__BUFFER_FLAG_PROCESSOR_INDEX) {
        e->buffer_context.u.processor_index = b->cpu;
        e->header.flags |= PETW_EVENT_HEADER_FLAG_PROCESSOR_INDEX;
    } else {
        e->buffer_context.u.p.processor_number = (uint8_t)b->cpu;
        e->buffer_context.u.p.alignment = 0;
    }
    e->buffer_context.logger_id = b->logger_id;
}

/* Builds the EVENT_RECORD for one record; returns 0, or -1 when the record
 * is malformed (reported by the caller). */
static int build(petw_trace *t, const tbuf *b, uint32_t off, petw_event_record *e, deliver_ctx *dc)
{
    const uint8_t *r = b->data + off;
    /* WPP messages carry their kind in the top byte, not in byte 2. */
    uint8_t type = ((r[3] & 0xF0) == 0x90 || (r[3] & 0xF0) == 0xB0) ? PETW__HDR_MESSAGE : r[2];
    memset(e, 0, sizeof(*e));
    e->user_context = t->config.context;
    switch (type) {
    case PETW__HDR_EVENT32:
    case PETW__HDR_EVENT64: {
        uint16_t size = petw__rd16(r);
        memcpy(&e->header, r, PETW__EVENT_HEADER_SIZE);
        e->header.header_type = 0;
        e->header.flags |= type == PETW__HDR_EVENT64 ? PETW_EVENT_HEADER_FLAG_64_BIT_HEADER
                                                     : PETW_EVENT_HEADER_FLAG_32_BIT_HEADER;
        uint32_t pos = PETW__EVENT_HEADER_SIZE;
        if (e->header.flags & PETW_EVENT_HEADER_FLAG_EXTENDED_INFO) {
            for (;;) {
                if (pos + PETW__EXT_ITEM_HEADER > size || e->extended_data_count >= MAX_EXT_ITEMS)
                    return -1;
                uint16_t total = petw__rd16(r + pos), data_size = petw__rd16(r + pos + 6);
                uint16_t linkage = petw__rd16(r + pos + 4);
                if (total < PETW__EXT_ITEM_HEADER || pos + total > size ||
                    data_size > total - PETW__EXT_ITEM_HEADER)
                    return -1;
                petw_extended_item *x = &dc->ext[e->extended_data_count++];
                x->reserved1 = 0;
                x->ext_type = petw__rd16(r + pos + 2);
                x->linkage = (uint16_t)(linkage & 1);
                x->data_size = data_size;
                x->data_ptr = (uint64_t)(uintptr_t)(r + pos + PETW__EXT_ITEM_HEADER);
                pos += total;
                if (!(linkage & 1))
                    break;
            }
            e->extended_data = dc->ext;
        }
        e->user_data = (void *)(uintptr_t)(r + pos);
        e->user_data_length = (uint16_t)(size - pos);
        break;
    }
    case PETW__HDR_SYSTEM32:
    case PETW__HDR_SYSTEM64:
    case PETW__HDR_COMPACT32:
    case PETW__HDR_COMPACT64:
    case PETW__HDR_PERFINFO32:
    case PETW__HDR_PERFINFO64: {
        int perf = type == PETW__HDR_PERFINFO32 || type == PETW__HDR_PERFINFO64;
        int compact = type == PETW__HDR_COMPACT32 || type == PETW__HDR_COMPACT64;
        uint32_t hsize = perf ? 0x10 : compact ? 0x18 : PETW__SYSTEM_HEADER_SIZE;
        uint16_t size = petw__rd16(r + 4);
        uint16_t hook = petw__rd16(r + 6);
        /* Version bit 0x8000: an 8-byte PEBS index follows the header;
         * bits 0x0700: that many 8-byte PMC counters. */
        uint16_t version = petw__rd16(r);
        if (version & 0x8000)
            hsize += 8;
        hsize += 8u * ((version >> 8) & 7u);
        if (hsize > size)
            return -1;
        e->header.size = size;
        e->header.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                                     ((type & 1) ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                                 : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER));
        if (type == PETW__HDR_PERFINFO32)
            e->header.flags =
                PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER | PETW_EVENT_HEADER_FLAG_32_BIT_HEADER;
        if (type == PETW__HDR_PERFINFO64)
            e->header.flags =
                PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER | PETW_EVENT_HEADER_FLAG_64_BIT_HEADER;
        if (!perf) {
            e->header.thread_id = petw__rd32(r + 8);
            e->header.process_id = petw__rd32(r + 12);
        } else {
            e->header.thread_id = e->header.process_id = UINT32_MAX;
        }
        e->header.timestamp = (int64_t)petw__rd64(r + (perf ? 8 : 16));
        if (!perf && !compact)
            e->header.cpu.times.kernel_time = petw__rd32(r + 24),
            e->header.cpu.times.user_time = petw__rd32(r + 28);
        for (size_t k = 0; k < sizeof(kernel_groups) / sizeof(kernel_groups[0]); k++)
            if (kernel_groups[k].group == (hook >> 8))
                e->header.provider_id = kernel_groups[k].guid;
        e->header.descriptor.opcode = (uint8_t)hook;
        e->header.descriptor.task = (uint16_t)(hook >> 8);
        e->header.descriptor.version = (uint8_t)petw__rd16(r);
        e->user_data = (void *)(uintptr_t)(r + hsize);
        e->user_data_length = (uint16_t)(size - hsize);
        break;
    }
    case PETW__HDR_FULL32:
    case PETW__HDR_FULL64:
    case PETW__HDR_INSTANCE32:
    case PETW__HDR_INSTANCE64: {
        uint16_t size = petw__rd16(r);
        uint32_t hsize = (type == PETW__HDR_FULL32 || type == PETW__HDR_FULL64) ? 0x30 : 0x48;
        e->header.size = size;
        e->header.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                                     ((type == PETW__HDR_FULL32 || type == PETW__HDR_INSTANCE32)
                                          ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                          : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER));
        e->header.descriptor.opcode = r[4];
        e->header.descriptor.level = r[5];
        e->header.descriptor.version = (uint8_t)petw__rd16(r + 6);
        e->header.thread_id = petw__rd32(r + 8);
        e->header.process_id = petw__rd32(r + 12);
        e->header.timestamp = (int64_t)petw__rd64(r + 16);
        petw__rd_guid(r + 24, &e->header.provider_id);
        e->header.cpu.processor_time = petw__rd64(r + 40);
        e->user_data = (void *)(uintptr_t)(r + hsize);
        e->user_data_length = (uint16_t)(size - hsize);
        break;
    }
    case PETW__HDR_MESSAGE: {
        /* WPP: u16 Size, flags; u16 MessageNumber, u16 OptionFlags; then
         * sequence, GUID or component ID, timestamp, TID/PID as flagged. */
        uint16_t size = petw__rd16(r), number = petw__rd16(r + 4), opts = petw__rd16(r + 6);
        uint32_t at = 8;
        e->header.size = size;
        e->header.flags = PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE |
                          PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                          PETW_EVENT_HEADER_FLAG_64_BIT_HEADER;
        e->header.descriptor.id = number;
        if (opts & 0x1)
            at += 4;
        if (opts & 0x2) {
            if (at + 16 > size)
                return -1;
            petw__rd_guid(r + at, &e->header.provider_id);
            at += 16;
        } else if (opts & 0x4) {
            if (at + 4 > size)
                return -1;
            e->header.provider_id.data1 = petw__rd32(r + at); /* component ID */
            at += 4;
        }
        if (opts & 0x8) {
            if (at + 8 > size)
                return -1;
            e->header.timestamp = (int64_t)petw__rd64(r + at);
            at += 8;
        }
        if (opts & 0x20) {
            if (at + 8 > size)
                return -1;
            e->header.thread_id = petw__rd32(r + at);
            e->header.process_id = petw__rd32(r + at + 4);
            at += 8;
        }
        if (at > size)
            return -1;
        e->user_data = (void *)(uintptr_t)(r + at);
        e->user_data_length = (uint16_t)(size - at);
        break;
    }
    default:
        return -1;
    }
    set_cpu(e, b);
    if (!(t->config.flags & PETW_TRACE_RAW_TIMESTAMP))
        e->header.timestamp = petw_trace_timestamp_to_filetime(t, e->header.timestamp);
    return 0;
}

typedef struct heap_item {
    int64_t timestamp;
    uint32_t trace;
    uint32_t buffer;
} heap_item;

static int item_less(const heap_item *a, const heap_item *b)
{
    if (a->timestamp != b->timestamp)
        return a->timestamp < b->timestamp;
    if (a->trace != b->trace)
        return a->trace < b->trace;
    return a->buffer < b->buffer;
}

static void sift_down(heap_item *h, uint32_t n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        if (l < n && item_less(&h[l], &h[m]))
            m = l;
        if (l + 1 < n && item_less(&h[l + 1], &h[m]))
            m = l + 1;
        if (m == i)
            return;
        heap_item x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

/* Delivers record `k` of buffer `b`; returns 0, or PETW_ECANCELED. */
static int deliver_one(petw_trace *t, tbuf *b, int64_t start, int64_t end, deliver_ctx *dc)
{
    petw_event_record e;
    uint32_t off = b->recs[b->next++].offset;
    if (build(t, b, off, &e, dc) != 0) {
        corrupt(t, (uint64_t)(b - t->bufs), off, "malformed record header or extended data");
    } else {
        int64_t ft = (t->config.flags & PETW_TRACE_RAW_TIMESTAMP)
                         ? petw_trace_timestamp_to_filetime(t, e.header.timestamp)
                         : e.header.timestamp;
        if (b->header || ((start == 0 || ft >= start) && (end == 0 || ft <= end))) {
            t->stats.events_read++;
            t->config.on_event(&e, t->config.context);
        }
    }
    if (b->next == b->rec_count && t->config.on_buffer &&
        !t->config.on_buffer(t, t->config.context))
        return PETW_ECANCELED;
    return 0;
}

/* A live trace: the header records, then each buffer as it arrives. */
static int process_live(petw_trace *t, int64_t start, int64_t end)
{
    deliver_ctx dc;
    int rc = 0;
    t->processed = 1;
    tbuf *h = &t->bufs[0];
    while (h->next < h->rec_count && rc == 0)
        rc = deliver_one(t, h, start, end, &dc);
    while (rc == 0) {
        if (atomic_load_explicit(&t->cancel, memory_order_relaxed))
            return PETW_ECANCELED;
        int n = petw__bufqueue_pop(t->live, t->live_buffer, 100);
        if (n < 0)
            break; /* the session stopped and everything was delivered */
        if (n == 0)
            continue;
        petw__etl_buffer hb;
        const char *why = NULL;
        tbuf b;
        memset(&b, 0, sizeof(b));
        t->stats.buffers_read++;
        if (petw__etl_parse_buffer(t->live_buffer, (uint64_t)n, 0, &hb, &why) != 0 ||
            !(b.data = petw__etl_unpack_buffer(t->live_buffer, &hb, NULL, 0, &why))) {
            corrupt(t, t->stats.buffers_read, 0, why);
            continue;
        }
        b.used = hb.used;
        b.cpu = hb.cpu;
        b.logger_id = hb.logger_id;
        b.buffer_flag = hb.buffer_flag;
        rc = index_buffer(t, &b, t->stats.buffers_read, 0);
        while (rc == 0 && b.next < b.rec_count)
            rc = deliver_one(t, &b, start, end, &dc);
        free(b.recs);
    }
    return rc;
}

int petw_trace_process(petw_trace **traces, uint32_t count, int64_t start, int64_t end)
{
    PETW__RETURN_IF(!traces || count == 0 || count > MAX_TRACES, PETW_EINVAL);
    for (uint32_t i = 0; i < count; i++)
        PETW__RETURN_IF(!traces[i] || traces[i]->processed || (traces[i]->live && count > 1),
                        PETW_EINVAL);
    if (traces[0]->live)
        return process_live(traces[0], start, end);
    deliver_ctx dc;
    int rc = 0;
    uint64_t total = 0;
    /* The sessions' header buffers first, as ETW does. */
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        petw_trace *t = traces[i];
        t->processed = 1;
        for (uint32_t k = 0; k < t->buf_count; k++) {
            tbuf *b = &t->bufs[k];
            if (b->header)
                while (b->next < b->rec_count && rc == 0)
                    rc = deliver_one(t, b, start, end, &dc);
            else
                total += b->rec_count ? 1 : 0;
        }
    }
    heap_item *heap = malloc((total ? total : 1) * sizeof(*heap));
    if (!heap)
        return PETW_ENOMEM;
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < traces[i]->buf_count; k++) {
            tbuf *b = &traces[i]->bufs[k];
            if (!b->header && b->rec_count)
                heap[n++] = (heap_item){b->recs[0].timestamp, i, k};
        }
    /* Raw timestamps of different files are not comparable: merge on
     * FILETIME when there is more than one file. */
    if (count > 1)
        for (uint32_t j = 0; j < n; j++)
            heap[j].timestamp =
                petw_trace_timestamp_to_filetime(traces[heap[j].trace], heap[j].timestamp);
    for (uint32_t j = n / 2; j-- > 0;)
        sift_down(heap, n, j);
    while (n > 0 && rc == 0) {
        petw_trace *t = traces[heap[0].trace];
        tbuf *b = &t->bufs[heap[0].buffer];
        rc = deliver_one(t, b, start, end, &dc);
        if (b->next < b->rec_count) {
            int64_t ts = b->recs[b->next].timestamp;
            heap[0].timestamp = count > 1 ? petw_trace_timestamp_to_filetime(t, ts) : ts;
        } else {
            heap[0] = heap[--n];
        }
        sift_down(heap, n, 0);
    }
    free(heap);
    return rc;
}
