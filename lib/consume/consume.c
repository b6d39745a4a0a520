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

#define MAX_EXT_ITEMS 32
#define MAX_TRACES 64

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

/* Verifies, unpacks and indexes the buffer at `off` (its header parsed as
 * `hb`); a damaged data buffer is reported and skipped, a damaged header
 * buffer makes the file unreadable. */
static int add_buffer(petw_trace *t, const petw__etl_buffer *hb, uint64_t off, uint64_t index,
                      uint32_t *cap)
{
    const char *why = NULL;
    if (*cap == t->buf_count) {
        *cap = *cap ? *cap * 2 : 16;
        tbuf *g = realloc(t->bufs, *cap * sizeof(*g));
        if (!g)
            return PETW_ENOMEM;
        t->bufs = g;
    }
    tbuf *b = &t->bufs[t->buf_count];
    memset(b, 0, sizeof(*b));
    if ((hb->petw_flags & PETW__BUF_ZSTD) || (hb->buffer_flag & PETW__BUFFER_FLAG_COMPRESSED)) {
        b->owned = malloc(hb->used);
        if (!b->owned)
            return PETW_ENOMEM;
    }
    b->data = petw__etl_unpack_buffer(t->file + off, hb, b->owned, hb->used, &why);
    t->stats.buffers_read++;
    if (!b->data) {
        free(b->owned);
        if (index == 0)
            return PETW_ECORRUPT;
        corrupt(t, index, off, why);
        return 0;
    }
    b->used = hb->used;
    b->header = index == 0;
    /* Uncompressed header buffers: the whole buffer as stored. */
    b->extent = b->header && b->data == t->file + off ? hb->disk_size : hb->used;
    b->cpu = hb->cpu;
    b->logger_id = hb->logger_id;
    b->buffer_flag = hb->buffer_flag;
    PETW__FORWARD_IF_ERROR(index_buffer(t, b, index, off));
    t->buf_count++;
    if (index == 0 && petw__etl_parse_header_buffer(b->data, b->extent, hb, &t->info))
        return PETW_ECORRUPT;
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
                    !(t->info.log_file_mode & PETW_MODE_COMPRESSED);
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
        int rc = add_buffer(t, &hb, off, index, &cap);
        if (rc)
            return rc;
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

/* Builds the EVENT_RECORD for one record; returns 0, or PETW_ECORRUPT
 * when the record is malformed (reported by the caller). */
static int build(petw_trace *t, const tbuf *b, uint32_t off, petw_event_record *e, deliver_ctx *dc)
{
    memset(e, 0, sizeof(*e));
    e->user_context = t->config.context;
    PETW__FORWARD_IF_ERROR(petw__etl_decode_record(b->data + off, e, dc->ext, MAX_EXT_ITEMS));
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
