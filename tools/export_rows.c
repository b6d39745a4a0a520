/* SPDX-License-Identifier: MIT */
/* export_rows.c - the rows `petw export` and `petw forward` send: an
 * events row per record (decoded: docs/clickhouse.md's columns, in
 * RowBinary), the analysis model's processes, threads, images and samples,
 * and a trace's traces row; and the batches they go out in.
 *
 * Exactly once: every row carries its identity, (machine, trace_id, seq),
 * the same on every export of the same file, in the tables' sorting key
 * (ReplacingMergeTree): an export retried, or run again after it was
 * killed, adds no row that FINAL (or a merge) does not collapse. */
#if defined(PETW_HAVE_CURL)
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export_clickhouse.h"
#include "output/output.h"

/* The events' columns as one Native block in x->block: 0, or -1 (out of
 * memory; x->failed set). */
static int events_block(exporter *x)
{
    if (clickhouse_columns_block(&x->events, &x->block) == 0)
        return 0;
    snprintf(x->ch.error, sizeof(x->ch.error), "out of memory building a batch");
    x->failed = 1;
    return -1;
}

int export_flush(exporter *x, batch *b)
{
    if (!b->count || x->failed)
        return x->failed ? -1 : 0;
    int events = b == &x->batches[CLICKHOUSE_EVENTS];
    if (events ? events_block(x) : b->rows.failed) {
        snprintf(x->ch.error, sizeof(x->ch.error), "out of memory building a batch");
        x->failed = 1;
        return -1;
    }
    sbuf *body = events ? &x->block : &b->rows;
    if (events && x->collect) { /* forward's spool converter: one body of blocks */
        sbuf_put(x->collect, body->data, body->len);
        body->len = 0;
    } else if (events && x->stream) { /* petw export: the block goes on the trace's insert */
        if (clickhouse_stream_put(x->stream, body)) {
            x->failed = 1; /* export_events ends the stream, which says why */
            return -1;
        }
    } else if (x->spool) { /* forward --spool: to disk; sent by forward_buffer */
        int rc = clickhouse_spool_put(x->spool, b->into, events, body, b->count);
        body->len = 0;
        if (rc < 0) {
            snprintf(x->ch.error, sizeof(x->ch.error), "cannot write in the spool directory %s",
                     x->spool->dir);
            x->failed = 1;
            return -1;
        }
        b->total += rc == 0 ? b->count : 0;
        b->number++;
        b->count = 0;
        return 0;
    } else if (events ? clickhouse_insert(&x->ch, b->into, "Native", body)
                      : clickhouse_insert_rows(&x->ch, b->into, body)) { /* takes the rows */
        x->failed = 1;
        return -1;
    }
    b->total += b->count;
    b->number++;
    b->count = 0;
    return 0;
}

/* After a row: sends the batch when it reached a limit, and moves the
 * inserts in flight on now and then. */
static void row_done(exporter *x, batch *b)
{
    if (++b->count >= x->max_rows || b->rows.len >= x->max_bytes)
        export_flush(x, b);
    else if ((b->count & 255) == 0 && !x->spool) /* forward --spool never inserts here */
        clickhouse_insert_poll(&x->ch);
}

/* After an events row: the block goes out when it reached a limit: on a
 * stream, blocks of EXPORT_BLOCK_ROWS (the server gathers them into its
 * parts); else at --batch-rows or --batch-bytes. */
static void event_done(exporter *x, batch *b)
{
    b->count++;
    x->events.rows++;
    uint64_t rows = x->stream && x->max_rows > EXPORT_BLOCK_ROWS ? EXPORT_BLOCK_ROWS : x->max_rows;
    uint64_t bytes = x->stream ? EXPORT_BLOCK_BYTES : x->max_bytes;
    if (b->count >= rows ||
        ((b->count & 255) == 0 && clickhouse_columns_bytes(&x->events) >= bytes))
        export_flush(x, b);
    else if ((b->count & 255) == 0 && !x->spool && !x->stream)
        clickhouse_insert_poll(&x->ch);
}

/* Sends what is left of every batch and waits for every insert. */
int export_flush_all(exporter *x)
{
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++)
        export_flush(x, &x->batches[k]);
    /* forward --spool: the spool's inserts in flight are the spool's to
     * settle (clickhouse_spool_send). */
    if (!x->failed && !x->spool && clickhouse_insert_wait(&x->ch))
        x->failed = 1;
    return x->failed ? -1 : 0;
}

/* The identity every row of a trace starts with. */
void export_row_identity(exporter *x, sbuf *b)
{
    rb_string(b, x->machine);
    rb_u64(b, x->trace_id);
}

/* 64-bit FNV-1a. */
uint64_t export_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

/* A trace's identity: what its header says of the session that wrote it,
 * and nothing a later copy or rename of the file changes. */
uint64_t export_trace_identity(const petw_logfile_info *h)
{
    uint64_t k = export_hash(0xcbf29ce484222325ull, &h->start_time, sizeof(h->start_time));
    k = export_hash(k, &h->boot_time, sizeof(h->boot_time));
    k = export_hash(k, &h->perf_freq, sizeof(h->perf_freq));
    k = export_hash(k, &h->start_timestamp, sizeof(h->start_timestamp));
    k = export_hash(k, &h->number_of_processors, sizeof(h->number_of_processors));
    k = export_hash(k, &h->pointer_size, sizeof(h->pointer_size));
    k = export_hash(k, h->logger_name, strlen(h->logger_name));
    return k;
}

/* ---- events ---- */

/* A GUID as petw dump writes it: always 36 characters. The last one of
 * each `kind` (0 providers, 1 activity IDs) is kept as text: runs of events
 * share their provider's, and most activity IDs are zero. */
static void put_guid_text(exporter *x, sbuf *b, const petw_guid *g, int k, int fixed)
{
    if (!x->guid_text[k][0] || memcmp(&x->guid[k], g, sizeof(*g)) != 0) {
        sbuf t = {x->guid_text[k], 0, sizeof(x->guid_text[k]), 0};
        sbuf_guid(&t, g); /* in place: 36 bytes fit */
        x->guid[k] = *g;
    }
    if (!fixed) /* a String: its length first; a FixedString(36) is the bytes */
        rb_varint(b, 36);
    sbuf_put(b, x->guid_text[k], 36);
}

/* A decoded top-level field as text: a string as it is, a map's label,
 * anything else as `petw dump --format json` writes it. */
static void put_field_value(exporter *x, sbuf *b, const petw_decoded_event *ev, const petw_field *f)
{
    if (!f->label && f->kind == PETW_VALUE_STRING) {
        rb_string(b, f->v.s);
        return;
    }
    x->value.len = 0;
    json_value(&x->value, ev, f);
    rb_bytes(b, x->value.data, x->value.len);
}

/* The enable properties' items: sid, ts_id, process_start_key, event_key,
 * stack; the last of each kind wins. */
static void put_properties(clickhouse_columns *c, int k, const petw_event_record *r)
{
    const uint8_t *sid = NULL, *stack = NULL;
    size_t sid_size = 0, frames = 0;
    uint32_t ts_id = 0;
    uint64_t start_key = 0, event_key = 0;
    for (int i = 0; i < r->extended_data_count; i++) {
        const petw_extended_item *it = &r->extended_data[i];
        const uint8_t *p = (const uint8_t *)(uintptr_t)it->data_ptr;
        switch (it->ext_type) {
        case PETW_EXT_TYPE_SID:
            sid = p, sid_size = it->data_size;
            break;
        case PETW_EXT_TYPE_TS_ID:
            if (it->data_size >= 4)
                memcpy(&ts_id, p, 4);
            break;
        case PETW_EXT_TYPE_PROCESS_START_KEY:
            if (it->data_size >= 8)
                memcpy(&start_key, p, 8);
            break;
        case PETW_EXT_TYPE_EVENT_KEY:
            if (it->data_size >= 8)
                memcpy(&event_key, p, 8);
            break;
        case PETW_EXT_TYPE_STACK_TRACE64: /* a match ID, then the frames */
            if (it->data_size >= 8)
                stack = p + 8, frames = (it->data_size - 8u) / 8u;
            break;
        default:
            break;
        }
    }
    sbuf text = {0};
    if (sid)
        sid_text(&text, sid, sid_size);
    rb_bytes(clickhouse_values(c, k), text.data, text.failed ? 0 : text.len);
    sbuf_free(&text);
    rb_u32(clickhouse_values(c, k + 1), ts_id);
    rb_u64(clickhouse_values(c, k + 2), start_key);
    rb_u64(clickhouse_values(c, k + 3), event_key);
    sbuf_put(clickhouse_column_array(c, k + 4, frames), stack, 8 * frames); /* little-endian */
}

void export_event(petw_event_record *r, void *context)
{
    exporter *x = context;
    if (x->failed)
        return;
    batch *bt = &x->batches[CLICKHOUSE_EVENTS];
    clickhouse_columns *c = &x->events;
    const petw_event_header *h = &r->header;
    const petw_event_descriptor *d = &h->descriptor;
    const petw_decoded_event *ev = NULL;
    if (petw_decode(x->decoder, r, &ev) != 0) {
        ev = NULL;
        x->undecodable++;
    }
    ev = with_schema(ev);
    /* Column by column, in the order of docs/clickhouse.md and
     * clickhouse_schema.c: k counts them. */
    int k = 0;
    rb_string(clickhouse_values(c, k++), x->machine);
    rb_i64(clickhouse_values(c, k++), x->boot_time);
    rb_u64(clickhouse_values(c, k++), x->trace_id);
    rb_u32(clickhouse_values(c, k++), bt->number);
    rb_u64(clickhouse_values(c, k++), x->seq++);
    rb_i64(clickhouse_values(c, k++), clickhouse_time(h->timestamp));
    const char *provider =
        ev && ev->provider_name ? ev->provider_name : known_provider_name(&h->provider_id);
    if (provider)
        rb_string(clickhouse_values(c, k++), provider);
    else
        put_guid_text(x, clickhouse_values(c, k++), &h->provider_id, 0, 0);
    put_guid_text(x, clickhouse_values(c, k++), &h->provider_id, 0, 1);
    rb_string(clickhouse_values(c, k++), ev ? ev->event_name : NULL);
    rb_string(clickhouse_values(c, k++), ev ? ev->task_name : NULL);
    rb_string(clickhouse_values(c, k++), ev ? ev->opcode_name : NULL);
    rb_string(clickhouse_values(c, k++), ev ? ev->level_name : NULL);
    rb_string(clickhouse_values(c, k++), ev ? ev->message : NULL);
    rb_u16(clickhouse_values(c, k++), d->id);
    rb_u8(clickhouse_values(c, k++), d->version);
    rb_u8(clickhouse_values(c, k++), d->channel);
    rb_u8(clickhouse_values(c, k++), d->level);
    rb_u8(clickhouse_values(c, k++), d->opcode);
    rb_u16(clickhouse_values(c, k++), d->task);
    rb_u64(clickhouse_values(c, k++), d->keyword);
    rb_u32(clickhouse_values(c, k++), h->process_id);
    rb_u32(clickhouse_values(c, k++), h->thread_id);
    rb_u32(clickhouse_values(c, k++), record_cpu(r));
    put_guid_text(x, clickhouse_values(c, k++), &h->activity_id, 1, 1);
    petw_guid related;
    if (record_related(r, &related))
        put_guid_text(x, clickhouse_values(c, k++), &related, 1, 0);
    else
        rb_string(clickhouse_values(c, k++), "");
    put_properties(c, k, r); /* sid, ts_id, process_start_key, event_key, stack */
    k += 5;
    uint64_t pair_key = 0;
    if (!petw_profile_event_pairs(r, &pair_key))
        pair_key = 0;
    rb_u64(clickhouse_values(c, k++), pair_key);
    uint32_t nfields = ev ? ev->top_count : 0;
    sbuf *names = clickhouse_column_array(c, k++, nfields);
    for (uint32_t f = 0; f < nfields; f++)
        rb_string(names, ev->fields[f].name);
    sbuf *values = clickhouse_column_array(c, k++, nfields);
    for (uint32_t f = 0; f < nfields; f++)
        put_field_value(x, values, ev, &ev->fields[f]);
    /* --payload undecoded: no payload where the fields hold it */
    int keep = !x->payload_undecoded || !nfields || !ev->has_schema;
    rb_bytes(clickhouse_values(c, k++), r->user_data, keep ? r->user_data_length : 0);
    event_done(x, bt);
}

/* ---- the analysis model ---- */

void export_on_sample(void *context, const petw_profile_sample *s)
{
    sample_list *l = context;
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4096;
        petw_profile_sample *p = realloc(l->items, cap * sizeof(*p));
        if (!p) {
            l->failed = 1;
            return;
        }
        l->items = p;
        l->cap = cap;
    }
    l->items[l->count++] = *s;
}

static const char *image_key(const void *items, uint32_t k)
{
    return ((char *const *)items)[k];
}

/* The processes table: one row per process of the model. */
static void put_process_rows(exporter *x, const petw_profile *p)
{
    batch *bt = &x->batches[CLICKHOUSE_PROCESSES];
    for (uint32_t k = 0; k < petw_profile_process_count(p) && !x->failed; k++) {
        const petw_profile_process *pr = petw_profile_process_at(p, k);
        export_row_identity(x, &bt->rows);
        rb_u64(&bt->rows, k);
        rb_u32(&bt->rows, pr->pid);
        rb_u32(&bt->rows, pr->parent_pid);
        rb_string(&bt->rows, pr->name);
        rb_string(&bt->rows, pr->command_line);
        rb_i64(&bt->rows, clickhouse_time(pr->start_time));
        rb_i64(&bt->rows, clickhouse_time(pr->end_time));
        rb_u64(&bt->rows, pr->samples);
        row_done(x, bt);
    }
}

/* The threads table: one row per thread of the model. */
static void put_thread_rows(exporter *x, const petw_profile *p)
{
    batch *bt = &x->batches[CLICKHOUSE_THREADS];
    for (uint32_t k = 0; k < petw_profile_thread_count(p) && !x->failed; k++) {
        const petw_profile_thread *th = petw_profile_thread_at(p, k);
        export_row_identity(x, &bt->rows);
        rb_u64(&bt->rows, k);
        rb_u32(&bt->rows, th->tid);
        rb_u32(&bt->rows, th->pid);
        rb_u64(&bt->rows, th->samples);
        rb_u64(&bt->rows, th->running * 100);
        rb_u64(&bt->rows, th->ready * 100);
        rb_u64(&bt->rows, th->waiting * 100);
        rb_u64(&bt->rows, th->switches_in);
        rb_u64(&bt->rows, th->preempted);
        rb_u64(&bt->rows, th->readied);
        row_done(x, bt);
    }
}

/* The images table: the distinct (module, path) the stacks' frames lie in. */
static void put_image_rows(exporter *x, const petw_profile *p)
{
    batch *bt = &x->batches[CLICKHOUSE_IMAGES];
    uint32_t nloc = petw_profile_location_count(p), nimages = 0;
    char **keys = calloc(nloc + 1u, sizeof(*keys));
    key_index seen = {0};
    for (uint32_t k = 0; k < nloc && !x->failed; k++) {
        const petw_profile_location *l = petw_profile_location_at(p, k);
        size_t n = strlen(l->module) + strlen(l->path) + 2;
        char *key = keys ? malloc(n) : NULL;
        uint32_t slot;
        int found = -1;
        if (key) {
            snprintf(key, n, "%s\x1f%s", l->module, l->path);
            found = key_index_find(&seen, key, nimages, image_key, keys, &slot);
        }
        if (found < 0) {
            free(key);
            snprintf(x->ch.error, sizeof(x->ch.error), "out of memory listing the images");
            x->failed = 1;
            break;
        }
        if (found) {
            free(key);
            continue;
        }
        keys[nimages] = key;
        key_index_add(&seen, slot, nimages);
        export_row_identity(x, &bt->rows);
        rb_u64(&bt->rows, nimages++);
        rb_string(&bt->rows, l->module);
        rb_string(&bt->rows, l->path);
        rb_u8(&bt->rows, (uint8_t)l->kernel);
        row_done(x, bt);
    }
    for (uint32_t k = 0; keys && k < nimages; k++)
        free(keys[k]);
    free(keys);
    key_index_free(&seen);
}

/* The samples table: each sample with its stack's functions and modules,
 * the sampled one first (as `petw report cpu` counts them: self at [1]). */
static void put_sample_rows(exporter *x, const petw_profile *p, const sample_list *samples)
{
    batch *bt = &x->batches[CLICKHOUSE_SAMPLES];
    for (size_t k = 0; k < samples->count && !x->failed; k++) {
        const petw_profile_sample *s = &samples->items[k];
        const petw_profile_stack *st = petw_profile_stack_at(p, s->stack);
        export_row_identity(x, &bt->rows);
        rb_u64(&bt->rows, k);
        rb_i64(&bt->rows, clickhouse_time(s->time));
        rb_u32(&bt->rows, s->cpu);
        rb_u32(&bt->rows, s->pid);
        rb_u32(&bt->rows, s->tid);
        rb_varint(&bt->rows, st->frame_count);
        for (uint32_t f = 0; f < st->frame_count; f++)
            rb_string(&bt->rows, petw_profile_location_at(p, st->frames[f])->name);
        rb_varint(&bt->rows, st->frame_count);
        for (uint32_t f = 0; f < st->frame_count; f++)
            rb_string(&bt->rows, petw_profile_location_at(p, st->frames[f])->module);
        row_done(x, bt);
    }
}

/* The model's tables, one after the other, then what is left of them sent. */
void export_model_rows(exporter *x, const petw_profile *p, const sample_list *samples)
{
    put_process_rows(x, p);
    put_thread_rows(x, p);
    put_image_rows(x, p);
    put_sample_rows(x, p, samples);
    for (int k = CLICKHOUSE_PROCESSES; k <= CLICKHOUSE_SAMPLES; k++)
        export_flush(x, &x->batches[k]);
}

/* The file's model. Returns 0, or -1 (reported). */

/* The traces row, last: a trace listed there was exported whole. */
int export_trace_row(exporter *x, const char *path, const petw_logfile_info *h, uint64_t events,
                     uint64_t samples)
{
    batch *bt = &x->batches[CLICKHOUSE_TRACES];
    if (export_flush_all(x)) /* every other row of the trace lands first */
        return -1;
    export_row_identity(x, &bt->rows);
    rb_i64(&bt->rows, x->boot_time);
    rb_string(&bt->rows, path);
    rb_string(&bt->rows, h->logger_name);
    rb_i64(&bt->rows, clickhouse_time(h->start_time));
    rb_i64(&bt->rows, clickhouse_time(h->end_time));
    rb_u32(&bt->rows, h->pointer_size);
    rb_u32(&bt->rows, h->number_of_processors);
    rb_u64(&bt->rows, h->events_lost);
    rb_u64(&bt->rows, h->buffers_lost);
    rb_u64(&bt->rows, events);
    rb_u64(&bt->rows, samples);
    rb_u32(&bt->rows, CLICKHOUSE_SCHEMA_VERSION);
    bt->count++;
    return export_flush_all(x);
}

#endif /* PETW_HAVE_CURL */
