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
#include "petw/consume.h"

#define MAX_EXT_ITEMS 32
#define MAX_TRACES 64
#define NOT_LOADED UINT32_MAX
#define NOT_COUNTED UINT32_MAX /* bufref.records of a buffer not unpacked yet */

typedef struct rec_ix {
    int64_t timestamp;
    uint32_t offset;
} rec_ix;

/* A buffer in memory: the header buffer (for the trace's life), a data
 * buffer being delivered, or a live buffer. */
typedef struct tbuf {
    const uint8_t *data; /* records are read from here */
    uint8_t *owned;      /* the unpacked copy `data` points into, when any */
    uint32_t used;
    uint32_t extent; /* bytes that may hold records (header buffers: all of it) */
    uint16_t cpu;
    uint16_t logger_id;
    uint16_t buffer_flag;
    int header; /* the file's header buffer */
    uint32_t rec_count;
    uint32_t next;
    uint32_t rec_cap;
    rec_ix *recs;
    uint32_t index;      /* which data buffer (bufref) of the file */
    uint64_t file_index; /* position among the source's buffers, for reports */
} tbuf;

/* A data buffer of a file, as the open-time scan found it. */
typedef struct bufref {
    uint64_t offset;
    uint32_t disk_size;
    uint32_t records;    /* well-formed records (a damaged tail is not counted); NOT_COUNTED */
    int64_t first_ts;    /* the earliest record's raw timestamp */
    uint32_t loaded;     /* slot in petw_trace.slots, or NOT_LOADED */
    uint32_t file_index; /* position among all buffers of the file (reports) */
} bufref;

struct petw_trace {
    petw_trace_config config;
    petw__file file; /* the source, when a file */
    int has_file;
    uint8_t *memory; /* the source, when in memory */
    uint64_t size;
    petw_logfile_info info;
    tbuf header;
    bufref *refs;
    uint32_t ref_count, ref_cap;
    tbuf *slots; /* loaded data buffers; a free slot has data == NULL */
    uint32_t slot_count;
    uint32_t buffer_limit; /* the file's buffer size: no buffer unpacks larger */
    uint8_t *disk;         /* one buffer as stored (file sources read into it) */
    petw__udiv per_second; /* divides by perf_freq (when usable: per_second_ok) */
    int per_second_ok;
    petw__etl_unpacker *unpacker; /* zstd files: one context for every buffer */
    uint32_t disk_cap;
    petw_trace_stats stats;
    int processed;
    petw__bufqueue *live; /* real-time source, or NULL */
    uint8_t *live_buffer;
    petw_raw_buffer_callback raw; /* a live trace's buffers as they are, or NULL */
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

/* ---- the source: a file or memory ---- */

/* `n` bytes at `off` (within the source): a pointer into memory, or the
 * bytes read into t->disk (grown to fit). NULL on a read error. */
static const uint8_t *fetch(petw_trace *t, uint64_t off, uint32_t n)
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
static int index_buffer(petw_trace *t, tbuf *b, int report, uint64_t index, uint64_t offset)
{
    uint32_t pos = PETW__BH_SIZE;
    petw__etl_record rec;
    const char *why = NULL;
    int r;
    b->rec_count = b->next = 0;
    while ((r = petw__etl_next_record(b->data, b->used, &pos, &rec, &why)) == 1)
        PETW__FORWARD_IF_ERROR(push_rec(b, &rec));
    if (r < 0 && report)
        corrupt(t, index, offset + pos, why);
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
static int unpack_into(tbuf *b, const uint8_t *disk, const petw__etl_buffer *hb,
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
    const uint8_t *disk = fetch(t, 0, hb->disk_size);
    if (!disk)
        return PETW_EIO;
    t->stats.buffers_read++;
    tbuf *b = &t->header;
    b->header = 1;
    int rc = unpack_into(b, disk, hb, t->unpacker, &why);
    if (rc)
        return rc == PETW_ENOMEM ? rc : PETW_ECORRUPT;
    /* Uncompressed header buffers: the whole buffer as stored. */
    int packed =
        (hb->petw_flags & PETW__BUF_ZSTD) || (hb->buffer_flag & PETW__BUFFER_FLAG_COMPRESSED);
    b->extent = packed ? hb->used : hb->disk_size;
    PETW__FORWARD_IF_ERROR(index_buffer(t, b, 0, 0, 0));
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
        corrupt(t, index, off, why);
        return 0;
    }
    if (hb->petw_flags & PETW__BUF_FIRST_TS)
        return add_ref(t, hb, off, index, NOT_COUNTED, hb->first_ts);
    const uint8_t *disk = fetch(t, off, hb->disk_size);
    if (!disk)
        return PETW_EIO;
    int rc = unpack_into(scan, disk, hb, t->unpacker, &why);
    if (rc == PETW_ECORRUPT) {
        corrupt(t, index, off, why);
        return 0;
    }
    PETW__FORWARD_IF_ERROR(rc);
    PETW__FORWARD_IF_ERROR(index_buffer(t, scan, 1, index, off));
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
        const uint8_t *h = avail >= PETW__BH_SIZE ? fetch(t, off, PETW__BH_SIZE) : NULL;
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
            corrupt(t, index, off, why);
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
    const uint8_t *h = t->size >= PETW__BH_SIZE ? fetch(t, 0, PETW__BH_SIZE) : NULL;
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

int petw_trace_set_raw_callback(petw_trace *t, petw_raw_buffer_callback callback)
{
    PETW__RETURN_IF(!t || !t->live || t->processed, PETW_EINVAL);
    t->raw = callback;
    return 0;
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

/* ---- loading data buffers while processing ---- */

/* Reads data buffer `k` (again), into a free slot; returns the slot. When
 * the scan verified it, a difference now means the file changed; a buffer
 * it did not unpack is verified now, and *why says what was wrong. */
static int load_buffer(petw_trace *t, uint32_t k, tbuf **out, const char **why)
{
    bufref *r = &t->refs[k];
    uint32_t s = 0;
    while (s < t->slot_count && t->slots[s].data)
        s++;
    if (s == t->slot_count) {
        tbuf *g = realloc(t->slots, (t->slot_count + 1) * sizeof(*g));
        if (!g)
            return PETW_ENOMEM;
        t->slots = g;
        memset(&t->slots[t->slot_count++], 0, sizeof(*g));
    }
    tbuf *b = &t->slots[s];
    const uint8_t *disk = fetch(t, r->offset, r->disk_size);
    petw__etl_buffer hb;
    int first = r->records == NOT_COUNTED;
    *why = "buffer changed or unreadable since open";
    int rc = disk ? petw__etl_parse_buffer(disk, r->disk_size, r->offset, &hb, why) : PETW_EIO;
    if (rc == 0)
        rc = unpack_into(b, disk, &hb, t->unpacker, why);
    if (rc == 0)
        rc = index_buffer(t, b, first, r->file_index, r->offset);
    if (rc == 0 && first)
        r->records = b->rec_count;
    if (rc == 0 && (b->rec_count != r->records || b->rec_count == 0))
        rc = PETW_ECORRUPT;
    if (rc) {
        b->data = NULL;
        return rc;
    }
    b->index = k;
    b->file_index = r->file_index;
    r->loaded = s;
    *out = b;
    return 0;
}

/* Every record of the buffer was delivered: its memory goes back. */
static void release_buffer(petw_trace *t, tbuf *b)
{
    t->refs[b->index].loaded = NOT_LOADED;
    b->data = NULL;
    b->rec_count = b->next = 0;
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

/* Builds the EVENT_RECORD for one record; returns 0, or PETW_ECORRUPT
 * when the record is malformed (reported by the caller). */
static int build(petw_trace *t, const tbuf *b, uint32_t off, petw_event_record *e, deliver_ctx *dc)
{
    static const petw_event_record blank; /* copied: moves, where memset was a slow `rep stos` */
    *e = blank;
    e->user_context = t->config.context;
    PETW__FORWARD_IF_ERROR(petw__etl_decode_record(b->data + off, e, dc->ext, MAX_EXT_ITEMS));
    set_cpu(e, b);
    if (!(t->config.flags & PETW_TRACE_RAW_TIMESTAMP))
        e->header.timestamp = petw_trace_timestamp_to_filetime(t, e->header.timestamp);
    return 0;
}

/* Delivers the next record of buffer `b`; returns 0, or PETW_ECANCELED. */
static int deliver_one(petw_trace *t, tbuf *b, int64_t start, int64_t end, deliver_ctx *dc)
{
    petw_event_record e;
    uint32_t off = b->recs[b->next++].offset;
    if (build(t, b, off, &e, dc) != 0) {
        corrupt(t, b->file_index, off, "malformed record header or extended data");
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

/* A live trace: each buffer as it arrives. The header buffer's records
 * (the EventTrace header event) are not delivered: Windows gives that event
 * to consumers of log files only ("real-time sessions do not" contain it);
 * the header's fields still reach the consumer through petw_trace_info. */
static int process_live(petw_trace *t, int64_t start, int64_t end)
{
    deliver_ctx dc;
    int rc = 0;
    t->processed = 1;
    t->header.next = t->header.rec_count;
    tbuf b;
    memset(&b, 0, sizeof(b));
    /* The header buffer first: the raw buffers make an ETL file. */
    if (t->raw && !t->raw(t, t->memory, (uint32_t)t->size, t->config.context))
        rc = PETW_ECANCELED;
    while (rc == 0) {
        if (atomic_load_explicit(&t->cancel, memory_order_relaxed)) {
            rc = PETW_ECANCELED;
            break;
        }
        int n = petw__bufqueue_pop(t->live, t->live_buffer, 100);
        if (n < 0)
            break; /* the session stopped and everything was delivered */
        if (n == 0)
            continue;
        petw__etl_buffer hb;
        const char *why = NULL;
        t->stats.buffers_read++;
        if (t->raw) {
            int go = t->raw(t, t->live_buffer, (uint32_t)n, t->config.context);
            if (!go) {
                rc = PETW_ECANCELED;
                break;
            }
            if (go == 2)
                continue;
        }
        if (petw__etl_parse_buffer(t->live_buffer, (uint64_t)n, 0, &hb, &why) != 0 ||
            !(b.data = petw__etl_unpack_buffer(t->live_buffer, &hb, NULL, 0, NULL, &why))) {
            corrupt(t, t->stats.buffers_read, 0, why);
            continue;
        }
        b.used = hb.used;
        b.cpu = hb.cpu;
        b.logger_id = hb.logger_id;
        b.buffer_flag = hb.buffer_flag;
        b.file_index = t->stats.buffers_read;
        rc = index_buffer(t, &b, 1, b.file_index, 0);
        while (rc == 0 && b.next < b.rec_count)
            rc = deliver_one(t, &b, start, end, &dc);
    }
    free(b.recs);
    return rc;
}

typedef struct heap_item {
    int64_t timestamp;
    uint32_t trace;
    uint32_t buffer; /* bufref index */
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

/* The heap key of a raw timestamp: FILETIME when several files merge (their
 * raw clocks are not comparable). */
static int64_t merge_key(const petw_trace *t, int64_t ts, uint32_t count)
{
    return count > 1 ? petw_trace_timestamp_to_filetime(t, ts) : ts;
}

/* Every data buffer of every trace enters the heap by its earliest record. */
static heap_item *build_heap(petw_trace **traces, uint32_t count, uint32_t *n_out)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; i++)
        total += traces[i]->ref_count;
    heap_item *heap = malloc((total ? total : 1) * sizeof(*heap));
    if (!heap)
        return NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < traces[i]->ref_count; k++)
            heap[n++] = (heap_item){merge_key(traces[i], traces[i]->refs[k].first_ts, count), i, k};
    for (uint32_t j = n / 2; j-- > 0;)
        sift_down(heap, n, j);
    *n_out = n;
    return heap;
}

/* The k-way merge: pops the buffer with the earliest next record, loads it
 * the first time, delivers one record, and re-keys or releases it. */
static int merge(petw_trace **traces, uint32_t count, int64_t start, int64_t end)
{
    uint32_t n;
    heap_item *heap = build_heap(traces, count, &n);
    if (!heap)
        return PETW_ENOMEM;
    deliver_ctx dc;
    int rc = 0;
    while (n > 0 && rc == 0) {
        petw_trace *t = traces[heap[0].trace];
        bufref *r = &t->refs[heap[0].buffer];
        tbuf *b = r->loaded != NOT_LOADED ? &t->slots[r->loaded] : NULL;
        const char *why = NULL;
        if (!b && (rc = load_buffer(t, heap[0].buffer, &b, &why)) != 0) {
            if (rc != PETW_ECORRUPT)
                break;
            if (r->records != 0) /* no records: nothing lost, nothing to report */
                corrupt(t, r->file_index, r->offset, why);
            rc = 0;
            heap[0] = heap[--n];
        } else {
            rc = deliver_one(t, b, start, end, &dc);
            if (b->next < b->rec_count) {
                heap[0].timestamp = merge_key(t, b->recs[b->next].timestamp, count);
            } else {
                release_buffer(t, b);
                heap[0] = heap[--n];
            }
        }
        sift_down(heap, n, 0);
    }
    free(heap);
    return rc;
}

int petw_trace_process(petw_trace **traces, uint32_t count, int64_t start, int64_t end)
{
    PETW__RETURN_IF(!traces || count == 0 || count > MAX_TRACES, PETW_EINVAL);
    for (uint32_t i = 0; i < count; i++) {
        PETW__RETURN_IF(!traces[i] || traces[i]->processed || (traces[i]->live && count > 1),
                        PETW_EINVAL);
        for (uint32_t j = 0; j < i; j++)
            PETW__RETURN_IF(traces[j] == traces[i], PETW_EINVAL); /* the same trace twice */
    }
    if (traces[0]->live)
        return process_live(traces[0], start, end);
    deliver_ctx dc;
    int rc = 0;
    /* The sessions' header buffers first, as ETW does. */
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        petw_trace *t = traces[i];
        t->processed = 1;
        while (t->header.next < t->header.rec_count && rc == 0)
            rc = deliver_one(t, &t->header, start, end, &dc);
    }
    return rc ? rc : merge(traces, count, start, end);
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
