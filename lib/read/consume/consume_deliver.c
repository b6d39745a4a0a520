/* SPDX-License-Identifier: MIT */
/* consume_deliver.c - a trace's events delivered in time order: data
 * buffers loaded and released as processing reaches them, one trace's
 * records in order, live buffers as they come, several traces merged on a
 * heap by timestamp (petw_trace_process).
 *
 * Allowed dependencies: common/, platform/, classes/, format/.
 */
#include <stdlib.h>

#include "consume_trace.h"

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
    const uint8_t *disk = petw__trace_fetch(t, r->offset, r->disk_size);
    petw__etl_buffer hb;
    int first = r->records == NOT_COUNTED;
    *why = "buffer changed or unreadable since open";
    int rc = disk ? petw__etl_parse_buffer(disk, r->disk_size, r->offset, &hb, why) : PETW_EIO;
    if (rc == 0)
        rc = petw__trace_unpack_into(b, disk, &hb, t->unpacker, why);
    if (rc == 0)
        rc = petw__trace_index_buffer(t, b, first, r->file_index, r->offset);
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
        petw__trace_corrupt(t, b->file_index, off, "malformed record header or extended data");
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
        if (n == 0) {
            if (t->idle && !t->idle(t, t->config.context))
                rc = PETW_ECANCELED;
            continue;
        }
        petw__etl_buffer hb;
        const char *why = NULL;
        t->stats.buffers_read++;
        t->live_taken++;
        if (t->raw) {
            int go = t->raw(t, t->live_buffer, (uint32_t)n, t->config.context);
            if (!go) {
                rc = PETW_ECANCELED;
                break;
            }
            if (go == 2) {
                petw__trace_live_finished(t); /* the callback kept it */
                continue;
            }
        }
        if (petw__etl_parse_buffer(t->live_buffer, (uint64_t)n, 0, &hb, &why) != 0 ||
            !(b.data = petw__etl_unpack_buffer(t->live_buffer, &hb, NULL, 0, NULL, &why))) {
            petw__trace_corrupt(t, t->stats.buffers_read, 0, why);
            petw__trace_live_finished(t);
            continue;
        }
        b.used = hb.used;
        b.cpu = hb.cpu;
        b.logger_id = hb.logger_id;
        b.buffer_flag = hb.buffer_flag;
        b.file_index = t->stats.buffers_read;
        rc = petw__trace_index_buffer(t, &b, 1, b.file_index, 0);
        while (rc == 0 && b.next < b.rec_count)
            rc = deliver_one(t, &b, start, end, &dc);
        if (rc == 0)
            petw__trace_live_finished(t); /* every event of it delivered */
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
                petw__trace_corrupt(t, r->file_index, r->offset, why);
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
