/* SPDX-License-Identifier: MIT */
/* consume.c - reading ETL files and delivering their events in order.
 *
 * Allowed dependencies: common/, platform/, classes/, format/.
 *
 * Files are streamed, never read whole. Opening a file scans it once:
 * each buffer is read, verified and unpacked into one scratch buffer, and
 * only a small descriptor stays (offset, size, record count, earliest
 * timestamp: 32 bytes a buffer). A zstd buffer whose header states its
 * earliest timestamp (petw writes it) is neither verified nor unpacked at
 * open: that happens once, when the merge reaches it, and damage found
 * then is reported then. Processing merges every buffer of every
 * file with a binary heap keyed by each buffer's next timestamp: a buffer
 * enters the heap by its earliest timestamp and is read again (and its
 * records indexed and sorted) only when it reaches the top; it is released
 * when its last record is delivered. So the merge is exact even when a
 * record in one buffer is older than the end of the previous one, and
 * memory holds only the buffers whose time ranges overlap the current
 * time (about one per CPU of each file) plus the descriptors.
 */
#include <stdlib.h>

#include <stdatomic.h>

#include "../../base/classes/kernel_class.h"
#include "../../base/format/etl_record.h"
#include "../../base/platform/platform.h"
#include "consume_internal.h"
#include "consume_trace.h"
#include "petw/consume.h"

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

void petw__trace_corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *why)
{
    t->stats.buffers_corrupt++;
    if (t->config.on_corrupt)
        t->config.on_corrupt(t, index, offset, why, t->config.context);
}

/* ---- the source: a file or memory ---- */

/* `n` bytes at `off` (within the source): a pointer into memory, or the
 * bytes read into t->disk (grown to fit). NULL on a read error. */
const uint8_t *petw__trace_fetch(petw_trace *t, uint64_t off, uint32_t n)
{
    if (t->memory)
        return t->memory + off;
    if (n > t->disk_cap) {
        uint8_t *g = realloc(t->disk, n);
        if (!g)
            return NULL;
        t->disk = g;
        t->disk_cap = n;
    }
    return petw__file_pread(&t->file, t->disk, n, off) == 0 ? t->disk : NULL;
}

/* ---- indexing ---- */

static int cmp_rec(const void *a, const void *b)
{
    const rec_ix *x = a, *y = b;
    if (x->timestamp != y->timestamp)
        return x->timestamp < y->timestamp ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Appends `rec` to the buffer's growing index. */
static int push_rec(tbuf *b, const petw__etl_record *rec)
{
    PETW__FORWARD_IF_ERROR(
        petw__array_grow((void **)&b->recs, &b->rec_cap, b->rec_count, sizeof(*b->recs)));
    b->recs[b->rec_count].timestamp = rec->timestamp;
    b->recs[b->rec_count].offset = rec->offset;
    b->rec_count++;
    return 0;
}

/* Indexes an unpacked buffer's records, sorted by time. A malformed record
 * ends the buffer; it is reported when `report` is set (the open-time scan
 * reports, a later reload does not). */
int petw__trace_index_buffer(petw_trace *t, tbuf *b, int report, uint64_t index, uint64_t offset)
{
    uint32_t pos = PETW__BH_SIZE;
    petw__etl_record rec;
    const char *why = NULL;
    int r;
    b->rec_count = b->next = 0;
    while ((r = petw__etl_next_record(b->data, b->used, &pos, &rec, &why)) == 1)
        PETW__FORWARD_IF_ERROR(push_rec(b, &rec));
    if (r < 0 && report)
        petw__trace_corrupt(t, index, offset + pos, why);
    /* A header buffer may hold valid records past its SavedOffset (relogged
     * Windows files append the extension record without updating it); read
     * on while records are valid, up to the 0xFF fill or the buffer's end. */
    if (r == 0 && b->header && b->extent > b->used) {
        while (petw__etl_next_record(b->data, b->extent, &pos, &rec, &why) == 1)
            PETW__FORWARD_IF_ERROR(push_rec(b, &rec));
    }
    /* Mostly sorted already; qsort with the offset tie-break is stable. */
    int sorted = 1;
    for (uint32_t i = 1; i < b->rec_count && sorted; i++)
        sorted = b->recs[i - 1].timestamp <= b->recs[i].timestamp;
    if (!sorted)
        qsort(b->recs, b->rec_count, sizeof(*b->recs), cmp_rec);
    return 0;
}

/* Unpacks the stored buffer `disk` (header parsed as `hb`) into `b`,
 * which keeps its own copy. Returns 0, PETW_ENOMEM, or PETW_ECORRUPT with
 * *why set. */
int petw__trace_unpack_into(tbuf *b, const uint8_t *disk, const petw__etl_buffer *hb,
                            petw__etl_unpacker *u, const char **why)
{
    size_t room = hb->used > hb->disk_size ? hb->used : hb->disk_size;
    uint8_t *copy = realloc(b->owned, room);
    if (!copy)
        return PETW_ENOMEM;
    b->owned = copy;
    const uint8_t *data = petw__etl_unpack_buffer(disk, hb, copy, room, u, why);
    if (!data)
        return PETW_ECORRUPT;
    if (data == disk) /* stored plain: keep the bytes, the source may change */
        memcpy(copy, disk, hb->disk_size);
    b->data = copy;
    b->used = hb->used;
    b->cpu = hb->cpu;
    b->logger_id = hb->logger_id;
    b->buffer_flag = hb->buffer_flag;
    return 0;
}

/* ---- the open-time scan ---- */

/* The first buffer: the session's header, kept for the trace's life. */
static int load_header(petw_trace *t, const petw__etl_buffer *hb)
{
    const char *why = NULL;
    const uint8_t *disk = petw__trace_fetch(t, 0, hb->disk_size);
    if (!disk)
        return PETW_EIO;
    t->stats.buffers_read++;
    tbuf *b = &t->header;
    b->header = 1;
    int rc = petw__trace_unpack_into(b, disk, hb, t->unpacker, &why);
    if (rc)
        return rc == PETW_ENOMEM ? rc : PETW_ECORRUPT;
    /* Uncompressed header buffers: the whole buffer as stored. */
    int packed =
        (hb->petw_flags & PETW__BUF_ZSTD) || (hb->buffer_flag & PETW__BUFFER_FLAG_COMPRESSED);
    b->extent = packed ? hb->used : hb->disk_size;
    PETW__FORWARD_IF_ERROR(petw__trace_index_buffer(t, b, 0, 0, 0));
    if (b->rec_count == 0 || petw__etl_parse_header_buffer(b->data, b->extent, hb, &t->info))
        return PETW_ECORRUPT;
    /* The remainder of a second, times 10^7, must fit 64 bits. */
    int64_t f = t->info.perf_freq;
    t->per_second_ok = f > 0 && (uint64_t)f <= UINT64_MAX / 10000000u &&
                       petw__udiv_init(&t->per_second, (uint64_t)f) == 0;
    return 0;
}

/* A data buffer's size claims, against the file's buffer size (at most
 * PETW__ETL_MAX_BUFFER_SIZE): a buffer never unpacks to more than that,
 * and a packed one never expands more
 * than PETW__ETL_MAX_EXPANSION times. A claim beyond either is damage (or a
 * decompression bomb). */
static const char *implausible(const petw_trace *t, const petw__etl_buffer *hb)
{
    int packed =
        (hb->petw_flags & PETW__BUF_ZSTD) || (hb->buffer_flag & PETW__BUFFER_FLAG_COMPRESSED);
    if (hb->used > t->buffer_limit)
        return "SavedOffset larger than the file's buffer size";
    if (hb->disk_size > 2 * (uint64_t)t->buffer_limit + PETW__BH_SIZE)
        return "BufferSize larger than the file's buffer size";
    if (packed && (uint64_t)(hb->used - PETW__BH_SIZE) >
                      (uint64_t)(hb->disk_size - PETW__BH_SIZE) * PETW__ETL_MAX_EXPANSION)
        return "compressed buffer expands beyond any real one";
    return NULL;
}

/* Keeps the descriptor of a data buffer. */
static int add_ref(petw_trace *t, const petw__etl_buffer *hb, uint64_t off, uint64_t index,
                   uint32_t records, int64_t first_ts)
{
    PETW__FORWARD_IF_ERROR(
        petw__array_grow((void **)&t->refs, &t->ref_cap, t->ref_count, sizeof(*t->refs)));
    bufref *r = &t->refs[t->ref_count++];
    r->offset = off;
    r->disk_size = hb->disk_size;
    r->records = records;
    r->first_ts = first_ts;
    r->loaded = NOT_LOADED;
    r->file_index = (uint32_t)index;
    return 0;
}

/* Reads, verifies and unpacks one data buffer into `scan`, and keeps its
 * descriptor (a buffer that states its earliest timestamp: only the
 * descriptor). A damaged buffer is reported and skipped. */
static int scan_buffer(petw_trace *t, tbuf *scan, const petw__etl_buffer *hb, uint64_t off,
                       uint64_t index)
{
    const char *why = implausible(t, hb);
    t->stats.buffers_read++;
    if (why) {
        petw__trace_corrupt(t, index, off, why);
        return 0;
    }
    if (hb->petw_flags & PETW__BUF_FIRST_TS)
        return add_ref(t, hb, off, index, NOT_COUNTED, hb->first_ts);
    const uint8_t *disk = petw__trace_fetch(t, off, hb->disk_size);
    if (!disk)
        return PETW_EIO;
    int rc = petw__trace_unpack_into(scan, disk, hb, t->unpacker, &why);
    if (rc == PETW_ECORRUPT) {
        petw__trace_corrupt(t, index, off, why);
        return 0;
    }
    PETW__FORWARD_IF_ERROR(rc);
    PETW__FORWARD_IF_ERROR(petw__trace_index_buffer(t, scan, 1, index, off));
    if (scan->rec_count == 0)
        return 0; /* nothing to deliver: no descriptor */
    return add_ref(t, hb, off, index, scan->rec_count, scan->recs[0].timestamp);
}

/* Steps over the data buffers. Uncompressed files have fixed-size buffers,
 * so a damaged buffer header can be skipped by its stride; in files whose
 * buffers vary in size (compressed), the data ends at the first damage. */
static int scan(petw_trace *t, uint32_t stride)
{
    int varying =
        (t->info.petw_flags & PETW_SESSION_ZSTD) || (t->info.log_file_mode & PETW_MODE_COMPRESSED);
    tbuf work;
    memset(&work, 0, sizeof(work));
    int rc = 0;
    uint64_t off = stride, index = 1;
    while (off < t->size && rc == 0) {
        uint64_t avail = t->size - off;
        petw__etl_buffer hb;
        const char *why = NULL;
        const uint8_t *h = avail >= PETW__BH_SIZE ? petw__trace_fetch(t, off, PETW__BH_SIZE) : NULL;
        if (!h) {
            t->stats.bytes_truncated += avail;
            rc = avail >= PETW__BH_SIZE ? PETW_EIO : 0;
            break;
        }
        /* Zeros where a buffer header should be: the unused part of a
         * preallocated file (PREALLOCATE while recording). The data ends. */
        if (petw__rd32(h) == 0 && petw__rd32(h + 4) == 0)
            break;
        if (petw__etl_parse_buffer(h, avail, off, &hb, &why) != 0) {
            petw__trace_corrupt(t, index, off, why);
            t->stats.buffers_read++;
            if (varying)
                break; /* no stride to step over it */
            off += stride;
            index++;
            continue;
        }
        /* Fixed-size buffers: a different size is damage, and the known
         * stride lets us step over it. */
        if (!varying && hb.disk_size != stride) {
            if (avail < stride) {
                t->stats.bytes_truncated += avail;
                break;
            }
            petw__trace_corrupt(t, index, off, "BufferSize differs from the file's buffer size");
            t->stats.buffers_read++;
            off += stride;
            index++;
            continue;
        }
        if (hb.disk_size > avail) {
            t->stats.bytes_truncated += avail;
            break;
        }
        rc = scan_buffer(t, &work, &hb, off, index);
        off += hb.disk_size;
        index++;
    }
    free(work.owned);
    free(work.recs);
    return rc;
}

static int load(petw_trace *t)
{
    petw__etl_buffer hb;
    const char *why = NULL;
    const uint8_t *h = t->size >= PETW__BH_SIZE ? petw__trace_fetch(t, 0, PETW__BH_SIZE) : NULL;
    if (!h || petw__etl_parse_buffer(h, t->size, 0, &hb, &why) != 0 || hb.disk_size > t->size)
        return PETW_ECORRUPT;
    PETW__FORWARD_IF_ERROR(load_header(t, &hb));
    if (t->info.buffer_size < PETW__BH_SIZE || t->info.buffer_size > PETW__ETL_MAX_BUFFER_SIZE)
        return PETW_ECORRUPT;
    /* Writers store the header buffer whole (petw) or cut to its records
     * (relogged Windows files); BufferSize in its record is the size. */
    t->buffer_limit = t->info.buffer_size > hb.disk_size ? t->info.buffer_size : hb.disk_size;
    if ((t->info.petw_flags & PETW_SESSION_ZSTD) && !(t->unpacker = petw__etl_unpacker_new()))
        return PETW_ENOMEM;
    return scan(t, hb.disk_size);
}

/* ---- open and close ---- */

static petw_trace *trace_new(const petw_trace_config *config)
{
    petw__library_init();
    petw_trace *t = calloc(1, sizeof(*t));
    if (t)
        t->config = *config;
    return t;
}

int petw_trace_open(const char *path, const petw_trace_config *config, petw_trace **out)
{
    PETW__RETURN_IF(!path || !config || !config->on_event || !out, PETW_EINVAL);
    petw_trace *t = trace_new(config);
    if (!t)
        return PETW_ENOMEM;
    int rc = petw__file_open_read(path, &t->file, &t->size);
    t->has_file = rc == 0;
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
    petw_trace *t = trace_new(config);
    if (!t)
        return PETW_ENOMEM;
    t->memory = malloc(size ? size : 1);
    if (!t->memory) {
        free(t);
        return PETW_ENOMEM;
    }
    if (size)
        memcpy(t->memory, data, size);
    t->size = size;
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

void petw__trace_on_live_close(petw_trace *t, void (*fn)(void *), void *arg)
{
    t->live_close = fn;
    t->live_close_arg = arg;
}

int petw_trace_set_raw_callback(petw_trace *t, petw_raw_buffer_callback callback)
{
    PETW__RETURN_IF(!t || !t->live || t->processed, PETW_EINVAL);
    t->raw = callback;
    return 0;
}

int petw_trace_set_idle_callback(petw_trace *t, petw_buffer_callback callback)
{
    PETW__RETURN_IF(!t || !t->live || t->processed, PETW_EINVAL);
    t->idle = callback;
    return 0;
}

int petw_trace_defer_acks(petw_trace *t)
{
    PETW__RETURN_IF(!t || !t->live || t->processed, PETW_EINVAL);
    t->defer_acks = 1;
    return 0;
}

uint64_t petw_trace_position(const petw_trace *t)
{
    return t && t->live ? t->live_taken : 0;
}

/* The finished buffers up to the acknowledged position go to the session. */
static void release_acked(petw_trace *t)
{
    uint64_t to = t->live_ack_to < t->live_finished ? t->live_ack_to : t->live_finished;
    if (to <= t->live_acked)
        return;
    for (uint64_t n = to - t->live_acked; n;) { /* the queue counts in 32 bits */
        uint32_t step = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
        petw__bufqueue_release(t->live, step);
        n -= step;
    }
    t->live_acked = to;
}

int petw_trace_ack(petw_trace *t, uint64_t position)
{
    PETW__RETURN_IF(!t || !t->live || !t->defer_acks || position > t->live_taken, PETW_EINVAL);
    if (position > t->live_ack_to)
        t->live_ack_to = position;
    release_acked(t);
    return 0;
}

void petw__trace_live_finished(petw_trace *t)
{
    if (!t->defer_acks) {
        petw__bufqueue_done(t->live);
        return;
    }
    t->live_finished++;
    petw__bufqueue_hold(t->live);
    release_acked(t);
}

void petw_trace_cancel(petw_trace *t)
{
    if (t)
        atomic_store_explicit(&t->cancel, 1, memory_order_relaxed);
}

static void tbuf_free(tbuf *b)
{
    free(b->owned);
    free(b->recs);
}

void petw_trace_close(petw_trace *t)
{
    if (!t)
        return;
    if (t->live)
        petw__bufqueue_unref(t->live);
    if (t->live_close)
        t->live_close(t->live_close_arg);
    free(t->live_buffer);
    tbuf_free(&t->header);
    for (uint32_t i = 0; i < t->slot_count; i++)
        tbuf_free(&t->slots[i]);
    free(t->slots);
    free(t->refs);
    free(t->disk);
    free(t->memory);
    petw__etl_unpacker_free(t->unpacker);
    if (t->has_file)
        petw__file_close(&t->file);
    free(t);
}

int64_t petw_trace_timestamp_to_filetime(const petw_trace *t, int64_t ts)
{
    /* Untrusted inputs: compute wide and saturate instead of overflowing. */
    const petw_logfile_info *i = &t->info;
    /* Every record of a session comes after its start: the elapsed ticks
     * split into whole seconds and the rest, each divided by multiplying
     * (a 128-bit division costs more than the rest of a record's delivery).
     * floor(dt * 10^7 / f) = q * 10^7 + floor(r * 10^7 / f) for dt = q * f + r,
     * so the result is the one below, exactly. */
    if (t->per_second_ok && ts >= i->start_timestamp) {
        const uint64_t f = (uint64_t)i->perf_freq, dt = (uint64_t)ts - (uint64_t)i->start_timestamp;
        const uint64_t q = petw__udiv_div(&t->per_second, dt);
        const uint64_t frac = petw__udiv_div(&t->per_second, (dt - q * f) * 10000000u);
        if (q < (uint64_t)INT64_MAX / 10000000u) {
            int64_t d = (int64_t)(q * 10000000u + frac);
            if (i->start_time <= INT64_MAX - d)
                return i->start_time + d;
        }
    }
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

const char *petw_kernel_class_name(const petw_guid *provider)
{
    const petw__kernel_class *c = provider ? petw__kernel_class_by_guid(provider) : NULL;
    return c ? c->name : NULL;
}

int petw_kernel_class_guid(const char *name, petw_guid *out)
{
    const petw__kernel_class *c = name && out ? petw__kernel_class_by_name(name) : NULL;
    if (!c)
        return PETW_ENOTFOUND;
    *out = c->guid;
    return 0;
}
