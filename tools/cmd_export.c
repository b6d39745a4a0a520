/* SPDX-License-Identifier: MIT */
/* cmd_export.c - `petw export FILE... --to clickhouse URL`: each trace's
 * records, and its analysis model (processes, threads, images, symbolized
 * samples), loaded into ClickHouse over HTTP in RowBinary batches, the
 * tables created when absent (tools/clickhouse/, docs/clickhouse.md); and
 * `petw forward NAME --to clickhouse URL`, a real-time session's events as
 * they arrive, through an on-disk spool with --spool.
 *
 * Exactly once: every row carries its identity, (machine, trace_id, seq),
 * the same on every export of the same file, in the tables' sorting key
 * (ReplacingMergeTree): an export retried, or run again after it was
 * killed, adds no row that FINAL (or a merge) does not collapse. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The --help texts (tool_help.c), in every build. */
const char export_usage[] =
    "usage: petw export FILE... --to clickhouse URL [options]\n"
    "Loads trace files (petw's and Windows') into ClickHouse over its HTTP interface:\n"
    "their events, decoded, and the analysis model's processes, threads, images and\n"
    "samples with their symbolized stacks, into the tables docs/clickhouse.md\n"
    "describes (created when absent). A batch sent again is never counted twice.\n"
    "Options:\n"
    "  URL                  http[s]://[user:password@]host:port/?database=NAME\n"
    "                       (credentials also from PETW_CLICKHOUSE_USER and\n"
    "                       PETW_CLICKHOUSE_PASSWORD; never printed)\n"
    "  --machine NAME       the machine the traces come from (default: this host's name)\n"
    "  --batch-rows N       rows per insert at most (default 1000000)\n"
    "  --batch-bytes N      bytes per insert at most (default 67108864)\n"
    "  --retries N          tries again after a transport failure (default 10)\n"
    "  --parallel N         inserts in flight at once, 1 to 4 (default 2)\n"
    "  --compress           gzip the inserts' bodies (pays over a slow network;\n"
    "                       on the server's own machine it costs more CPU than it saves)\n"
    "  --no-model           the events alone: no processes, threads, images, samples\n"
    "  --manifest PATH, --tmf PATH  decode with these manifests or TMF files\n"
    "  --symbols DIR, --no-symbols, --no-inline  the samples' symbols, as petw report\n";

const char forward_usage[] =
    "usage: petw forward NAME --to clickhouse URL [options]\n"
    "Sends the events of the real-time shared session NAME (started with\n"
    "--realtime) to ClickHouse as they arrive, into the tables petw export fills,\n"
    "until the session stops (or Ctrl-C), then exits 0 once every event is\n"
    "delivered. Without --spool, while the server is unreachable, requests are\n"
    "retried (--retries) and the session drops what its buffers cannot hold\n"
    "(reported at the end). With --spool DIR, batches go to DIR first and are\n"
    "sent from there, so the consumer keeps up while the server is down; what\n"
    "does not fit in --spool-size is dropped, counted and reported (exit 1);\n"
    "killed and started again, it sends what DIR holds (with no session running,\n"
    "it sends DIR's batches and exits).\n"
    "Options:\n"
    "  --flush-ms N         send what arrived at least every N ms (default 1000)\n"
    "  --spool DIR          keep batches on disk in DIR until the server has them\n"
    "  --spool-size N       bytes DIR holds at most (default 1073741824)\n"
    "  --machine NAME, --batch-rows N, --batch-bytes N, --parallel N, --retries N,\n"
    "  --compress,\n"
    "  --manifest PATH, --tmf PATH   as for petw export\n";

#if !defined(PETW_HAVE_CURL)

int cmd_export(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("petw: export is not built in (petw was built without libcurl)\n", stderr);
    return 1;
}

int cmd_forward(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("petw: forward is not built in (petw was built without libcurl)\n", stderr);
    return 1;
}

#else

#include <stdatomic.h>
#include <time.h>
#if !defined(_WIN32)
#include <pthread.h>
#endif

#include "views/analysis_tool.h"
#include "clickhouse/clickhouse.h"
#include "clickhouse/clickhouse_schema.h"
#include "output/output.h"
#include "tool_session.h"

typedef struct batch {
    const clickhouse_table *table;
    char into[1024];
    sbuf rows;
    uint64_t count;  /* rows in `rows` */
    uint32_t number; /* batches sent of this table for this trace */
    uint64_t total;  /* rows sent */
} batch;

typedef struct exporter {
    clickhouse ch;
    batch batches[CLICKHOUSE_TABLE_COUNT];
    uint64_t max_rows, max_bytes;
    const char *machine;
    int no_model;
    model_args model;
    manifest_list manifests;
    /* The trace being exported. */
    uint64_t trace_id;
    int64_t boot_time; /* ns since 1970 */
    uint64_t seq;      /* the next event's */
    petw_decoder *decoder;
    sbuf value;              /* a field's text */
    int failed;              /* an insert failed: stop reading */
    clickhouse_spool *spool; /* forward --spool: batches go there first */
    uint64_t undecodable;
    petw_guid guid[2];     /* put_guid_text's last of each kind */
    char guid_text[2][40]; /* their text; "" before the first */
} exporter;

static int flush(exporter *x, batch *b)
{
    if (!b->count || x->failed)
        return x->failed ? -1 : 0;
    if (b->rows.failed) {
        snprintf(x->ch.error, sizeof(x->ch.error), "out of memory building a batch");
        x->failed = 1;
        return -1;
    }
    if (x->spool) { /* forward --spool: to disk; sent by forward_buffer */
        int rc = clickhouse_spool_put(x->spool, b->into, &b->rows, b->count);
        b->rows.len = 0;
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
    }
    if (clickhouse_insert_rows(&x->ch, b->into, &b->rows)) { /* takes the rows */
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
        flush(x, b);
    else if ((b->count & 255) == 0 && !x->spool) /* forward --spool never inserts here */
        clickhouse_insert_poll(&x->ch);
}

/* Sends what is left of every batch and waits for every insert. */
static int flush_all(exporter *x)
{
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++)
        flush(x, &x->batches[k]);
    /* forward --spool: the spool's inserts in flight are the spool's to
     * settle (clickhouse_spool_send). */
    if (!x->failed && !x->spool && clickhouse_insert_wait(&x->ch))
        x->failed = 1;
    return x->failed ? -1 : 0;
}

/* The identity every row of a trace starts with. */
static void row_identity(exporter *x, sbuf *b)
{
    rb_string(b, x->machine);
    rb_u64(b, x->trace_id);
}

/* 64-bit FNV-1a. */
static uint64_t hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

/* A trace's identity: what its header says of the session that wrote it,
 * and nothing a later copy or rename of the file changes. */
static uint64_t trace_identity(const petw_logfile_info *h)
{
    uint64_t k = hash(0xcbf29ce484222325ull, &h->start_time, sizeof(h->start_time));
    k = hash(k, &h->boot_time, sizeof(h->boot_time));
    k = hash(k, &h->perf_freq, sizeof(h->perf_freq));
    k = hash(k, &h->start_timestamp, sizeof(h->start_timestamp));
    k = hash(k, &h->number_of_processors, sizeof(h->number_of_processors));
    k = hash(k, &h->pointer_size, sizeof(h->pointer_size));
    k = hash(k, h->logger_name, strlen(h->logger_name));
    return k;
}

/* ---- events ---- */

/* A GUID as petw dump writes it: always 36 characters. The last one of
 * each `kind` (0 providers, 1 activity IDs) is kept as text: runs of events
 * share their provider's, and most activity IDs are zero. */
static void put_guid_text(exporter *x, sbuf *b, const petw_guid *g, int k)
{
    if (!x->guid_text[k][0] || memcmp(&x->guid[k], g, sizeof(*g)) != 0) {
        sbuf t = {x->guid_text[k], 0, sizeof(x->guid_text[k]), 0};
        sbuf_guid(&t, g); /* in place: 36 bytes fit */
        x->guid[k] = *g;
    }
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
static void put_properties(sbuf *b, const petw_event_record *r)
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
    rb_bytes(b, text.data, text.failed ? 0 : text.len);
    sbuf_free(&text);
    rb_u32(b, ts_id);
    rb_u64(b, start_key);
    rb_u64(b, event_key);
    rb_varint(b, frames);
    for (size_t f = 0; f < frames; f++) {
        uint64_t a;
        memcpy(&a, stack + 8 * f, 8);
        rb_u64(b, a);
    }
}

static void on_event(petw_event_record *r, void *context)
{
    exporter *x = context;
    if (x->failed)
        return;
    batch *bt = &x->batches[CLICKHOUSE_EVENTS];
    sbuf *b = &bt->rows;
    const petw_event_header *h = &r->header;
    const petw_event_descriptor *d = &h->descriptor;
    const petw_decoded_event *ev = NULL;
    if (petw_decode(x->decoder, r, &ev) != 0) {
        ev = NULL;
        x->undecodable++;
    }
    ev = with_schema(ev);
    /* column order: docs/clickhouse.md, clickhouse_schema.c */
    rb_string(b, x->machine);
    rb_i64(b, x->boot_time);
    rb_u64(b, x->trace_id);
    rb_u32(b, bt->number);
    rb_u64(b, x->seq++);
    rb_i64(b, clickhouse_time(h->timestamp));
    const char *provider =
        ev && ev->provider_name ? ev->provider_name : known_provider_name(&h->provider_id);
    if (provider)
        rb_string(b, provider);
    else
        put_guid_text(x, b, &h->provider_id, 0);
    put_guid_text(x, b, &h->provider_id, 0);
    rb_string(b, ev ? ev->event_name : NULL);
    rb_string(b, ev ? ev->task_name : NULL);
    rb_string(b, ev ? ev->opcode_name : NULL);
    rb_string(b, ev ? ev->level_name : NULL);
    rb_string(b, ev ? ev->message : NULL);
    rb_u16(b, d->id);
    rb_u8(b, d->version);
    rb_u8(b, d->channel);
    rb_u8(b, d->level);
    rb_u8(b, d->opcode);
    rb_u16(b, d->task);
    rb_u64(b, d->keyword);
    rb_u32(b, h->process_id);
    rb_u32(b, h->thread_id);
    rb_u32(b, record_cpu(r));
    put_guid_text(x, b, &h->activity_id, 1);
    petw_guid related;
    if (record_related(r, &related))
        put_guid_text(x, b, &related, 1);
    else
        rb_string(b, "");
    put_properties(b, r);
    uint64_t pair_key = 0;
    if (!petw_profile_event_pairs(r, &pair_key))
        pair_key = 0;
    rb_u64(b, pair_key);
    uint32_t nfields = ev ? ev->top_count : 0;
    rb_varint(b, nfields);
    for (uint32_t k = 0; k < nfields; k++)
        rb_string(b, ev->fields[k].name);
    rb_varint(b, nfields);
    for (uint32_t k = 0; k < nfields; k++)
        put_field_value(x, b, ev, &ev->fields[k]);
    rb_bytes(b, r->user_data, r->user_data_length);
    row_done(x, bt);
}

static int on_buffer(petw_trace *t, void *context)
{
    (void)t;
    return !((exporter *)context)->failed;
}

static void on_corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *why, void *ctx)
{
    (void)t;
    (void)ctx;
    fprintf(stderr, "petw: buffer %" PRIu64 " (offset %" PRIu64 ") skipped: %s\n", index, offset,
            why);
}

/* The file's events. Returns 0, or -1 (reported). */
static int export_events(exporter *x, const char *path, petw_trace_stats *stats,
                         petw_logfile_info *info)
{
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = on_event;
    cfg.on_buffer = on_buffer;
    cfg.on_corrupt = on_corrupt;
    cfg.context = x;
    petw_trace *t = NULL;
    int rc = petw_trace_open(path, &cfg, &t);
    if (rc) {
        fprintf(stderr, "petw: %s: %s\n", path, petw_strerror(rc));
        return -1;
    }
    *info = *petw_trace_info(t);
    x->trace_id = trace_identity(info);
    x->boot_time = clickhouse_time(info->boot_time);
    x->seq = 0;
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++)
        x->batches[k].number = 0;
    rc = petw_trace_process(&t, 1, 0, 0);
    petw_trace_stats_get(t, stats);
    petw_trace_close(t);
    if (!x->failed)
        flush(x, &x->batches[CLICKHOUSE_EVENTS]);
    if (x->failed)
        return -1;
    if (rc) {
        fprintf(stderr, "petw: %s: %s\n", path, petw_strerror(rc));
        return -1;
    }
    return 0;
}

/* ---- the analysis model ---- */

typedef struct sample_list {
    petw_profile_sample *items;
    size_t count, cap;
    int failed;
} sample_list;

static void on_sample(void *context, const petw_profile_sample *s)
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
        row_identity(x, &bt->rows);
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
        row_identity(x, &bt->rows);
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
        row_identity(x, &bt->rows);
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
        row_identity(x, &bt->rows);
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
static void put_model_rows(exporter *x, const petw_profile *p, const sample_list *samples)
{
    put_process_rows(x, p);
    put_thread_rows(x, p);
    put_image_rows(x, p);
    put_sample_rows(x, p, samples);
    for (int k = CLICKHOUSE_PROCESSES; k <= CLICKHOUSE_SAMPLES; k++)
        flush(x, &x->batches[k]);
}

/* The file's model. Returns 0, or -1 (reported). */
static int export_model(exporter *x, const char *path, uint64_t *nsamples)
{
    model_args m = x->model;
    m.files[0] = path;
    m.nfiles = 1;
    sample_list samples = {0};
    petw_profile_hooks hooks = {0};
    hooks.sample = on_sample;
    m.config.hooks = &hooks;
    m.config.hooks_context = &samples;
    petw_profile *p = model_read(&m);
    if (!p) {
        free(samples.items);
        return -1;
    }
    int rc = 0;
    if (samples.failed) {
        fprintf(stderr, "petw: %s: out of memory keeping the samples\n", path);
        rc = -1;
    } else {
        put_model_rows(x, p, &samples);
        rc = x->failed ? -1 : 0;
    }
    *nsamples = samples.count;
    petw_profile_free(p);
    free(samples.items);
    return rc;
}

/* The traces row, last: a trace listed there was exported whole. */
static int put_trace_row(exporter *x, const char *path, const petw_logfile_info *h, uint64_t events,
                         uint64_t samples)
{
    batch *bt = &x->batches[CLICKHOUSE_TRACES];
    if (flush_all(x)) /* every other row of the trace lands first */
        return -1;
    row_identity(x, &bt->rows);
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
    return flush_all(x);
}

static int export_file(exporter *x, const char *path)
{
    petw_trace_stats stats;
    petw_logfile_info info;
    uint64_t samples = 0;
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    uint64_t events_before = x->batches[CLICKHOUSE_EVENTS].total;
    if (export_events(x, path, &stats, &info))
        return -1;
    uint64_t events = x->batches[CLICKHOUSE_EVENTS].total - events_before;
    if (!x->no_model && export_model(x, path, &samples))
        return -1;
    if (put_trace_row(x, path, &info, events, samples))
        return -1;
    timespec_get(&t1, TIME_UTC);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    fprintf(stderr,
            "petw: %s: %" PRIu64 " events, %" PRIu64 " samples exported to %s (%s) in %.2f s "
            "(trace_id %" PRIu64 ")\n",
            path, events, samples, x->ch.where, x->ch.database, s, x->trace_id);
    if (stats.buffers_corrupt)
        fprintf(stderr, "petw: %s: %" PRIu64 " corrupt buffers skipped\n", path,
                stats.buffers_corrupt);
    return stats.buffers_corrupt ? 1 : 0;
}

static int parse_count(const char *opt, const char *v, uint64_t *out)
{
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (!*v || *end || n == 0 || v[0] == '-') {
        fprintf(stderr, "petw: bad value for %s: '%s'\n", opt, v);
        return -1;
    }
    *out = n;
    return 0;
}

/* The options export and forward share. */
typedef struct common_args {
    const char *to, *url;
    uint64_t retries, parallel;
    int retries_set;
    int compress;
} common_args;

/* Takes argv[*i] (and its values) when it is a shared option: 1 (and *i
 * advanced), 0 when it is not one, -1 when its value is wrong (reported). */
static int common_option(exporter *x, common_args *a, int argc, char **argv, int *i)
{
    const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(o, "--compress")) {
        a->compress = 1;
        return 1;
    }
    static const char *const names[] = {"--to",       "--machine", "--batch-rows", "--batch-bytes",
                                        "--parallel", "--retries", "--manifest",   "--tmf"};
    int known = 0;
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        known |= !strcmp(o, names[k]);
    if (!known)
        return 0;
    if (!v) {
        fprintf(stderr, "petw: %s needs a value\n", o);
        return -1;
    }
    int r = 0;
    if (!strcmp(o, "--to")) {
        a->to = v, a->url = *i + 2 < argc ? argv[*i + 2] : NULL;
        if (!a->url) {
            fprintf(stderr, "petw: --to clickhouse needs a URL\n");
            return -1;
        }
        (*i)++;
    } else if (!strcmp(o, "--machine")) {
        x->machine = v;
    } else if (!strcmp(o, "--batch-rows")) {
        r = parse_count(o, v, &x->max_rows);
    } else if (!strcmp(o, "--batch-bytes")) {
        r = parse_count(o, v, &x->max_bytes);
    } else if (!strcmp(o, "--parallel")) {
        r = parse_count(o, v, &a->parallel);
        if (!r && a->parallel > CLICKHOUSE_MAX_PARALLEL) {
            fprintf(stderr, "petw: --parallel takes 1 to %d\n", CLICKHOUSE_MAX_PARALLEL);
            r = -1;
        }
    } else if (!strcmp(o, "--retries")) {
        char *end;
        a->retries = strtoull(v, &end, 10);
        r = *v && !*end && v[0] != '-' ? 0 : -1;
        a->retries_set = 1;
        if (r)
            fprintf(stderr, "petw: bad value for --retries: '%s'\n", v);
    } else if (!strcmp(o, "--manifest")) {
        r = manifest_add(&x->manifests, v) || manifest_add(&x->model.manifests, v);
        if (r)
            fprintf(stderr, "petw: too many or empty --manifest values: '%s'\n", v);
    } else {
        r = tmf_add(&x->manifests, v);
        if (r)
            fprintf(stderr, "petw: too many or empty --manifest/--tmf values: '%s'\n", v);
    }
    (*i)++;
    return r ? -1 : 1;
}

static void exporter_init(exporter *x, common_args *a)
{
    memset(x, 0, sizeof(*x));
    memset(a, 0, sizeof(*a));
    petw_profile_config_init(&x->model.config);
    /* Large batches: each insert is a part of every column's files on the
     * server (one part per insert up to its max_insert_block_size, 1048576
     * rows), and creating and merging parts was most of the server's time
     * with 16 MB batches. */
    x->max_rows = 1000000;
    x->max_bytes = 64u << 20;
    a->retries = 10;
    a->parallel = 2;
}

/* Connects, makes the tables ready and the decoder. Returns 0, or 1
 * (reported; everything freed). */
static int exporter_start(exporter *x, const common_args *a, char *host, size_t host_size)
{
    if (!x->machine) {
        if (gethostname(host, host_size) != 0)
            snprintf(host, host_size, "localhost");
        host[host_size - 1] = 0;
        x->machine = host;
    }
    if (clickhouse_open(&x->ch, a->url) || clickhouse_schema_ensure(&x->ch)) {
        fprintf(stderr, "petw: %s\n", x->ch.error);
        clickhouse_close(&x->ch);
        return 1;
    }
    if (a->retries_set)
        x->ch.retries = (unsigned)(a->retries > 100 ? 100 : a->retries);
    x->ch.parallel = (unsigned)a->parallel;
    x->ch.compress = a->compress;
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++) {
        x->batches[k].table = &clickhouse_tables[k];
        clickhouse_table_into(&x->ch, &clickhouse_tables[k], x->batches[k].into,
                              sizeof(x->batches[k].into));
    }
    if (!(x->decoder = decoder_create(&x->manifests))) {
        clickhouse_close(&x->ch);
        return 1;
    }
    return 0;
}

/* Reports what the summary lines do not, and frees. */
static void exporter_end(exporter *x)
{
    if (x->ch.retried)
        fprintf(stderr, "petw: %" PRIu64 " requests to %s tried again after a transport failure\n",
                x->ch.retried, x->ch.where);
    if (x->undecodable)
        fprintf(stderr,
                "petw: %" PRIu64 " events with a malformed schema exported with no fields (their "
                "payload in data)\n",
                x->undecodable);
    petw_decoder_free(x->decoder);
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++)
        sbuf_free(&x->batches[k].rows);
    sbuf_free(&x->value);
    clickhouse_close(&x->ch);
}

static int check_to(const common_args *a, const char *command)
{
    if (!a->to)
        return command_usage_error(command, "%s", "no --to clickhouse URL");
    if (strcmp(a->to, "clickhouse") != 0)
        return command_usage_error(command, "unknown format '%s' (--to clickhouse URL)", a->to);
    return 0;
}

int cmd_export(int argc, char **argv)
{
    static exporter x; /* large; one per process */
    common_args a;
    exporter_init(&x, &a);
    const char *files[MAX_FILES];
    int nfiles = 0;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        int r = common_option(&x, &a, argc, argv, &i);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(o, "--symbols") || !strcmp(o, "--no-symbols") || !strcmp(o, "--no-inline")) {
            if (model_option(&x.model, argc, argv, &i) < 0)
                return 2;
        } else if (!strcmp(o, "--no-model")) {
            x.no_model = 1;
        } else if (o[0] == '-' && o[1]) {
            return command_usage_error("export", "unknown option '%s'", o);
        } else if (nfiles == MAX_FILES) {
            fprintf(stderr, "petw: at most %d files\n", MAX_FILES);
            return 2;
        } else {
            files[nfiles++] = o;
        }
    }
    if (!nfiles)
        return command_usage_error("export", "%s", "no FILE");
    int status = check_to(&a, "export");
    char host[256];
    if (status || (status = exporter_start(&x, &a, host, sizeof(host))))
        return status;
    for (int f = 0; f < nfiles && status != -1; f++) {
        int rc = export_file(&x, files[f]);
        if (rc < 0 && x.failed)
            fprintf(stderr, "petw: %s: %s\n", files[f], x.ch.error);
        status = rc < 0 ? -1 : rc ? 1 : status;
    }
    exporter_end(&x);
    return status ? 1 : 0;
}

/* ---- petw forward: a live session's events as they come ---- */

typedef struct sender sender;

typedef struct forwarder {
    exporter *x;
    uint64_t flush_ms;
    int64_t last_flush_ms;
    int64_t send_after_ms; /* --spool: the server failed; try again then */
    /* The session's real-time losses, asked every second while it runs
     * (once it has stopped, it can no longer be asked). */
    petw_session_handle session;
    int64_t asked_ms;
    uint64_t rt_events_lost; /* since the forwarder started */
    uint32_t rt_buffers_lost;
    uint64_t base_events; /* lost before it started */
    uint32_t base_buffers;
    sender *sender; /* --spool: the thread that sends, or NULL */
} forwarder;

/* Keeps the session's real-time losses so far. */
static void ask_losses(forwarder *f)
{
    petw_session_stats st;
    memset(&st, 0, sizeof(st));
    if (petw_session_query(f->session, &st) != 0)
        return;
    if (st.real_time_events_lost > f->base_events + f->rt_events_lost)
        f->rt_events_lost = st.real_time_events_lost - f->base_events;
    if (st.real_time_buffers_lost > f->base_buffers + f->rt_buffers_lost)
        f->rt_buffers_lost = st.real_time_buffers_lost - f->base_buffers;
}

static petw_trace *_Atomic forwarded;

static void forward_interrupted(void)
{
    petw_trace_cancel(atomic_load(&forwarded));
}

static int64_t now_ms(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* forward --spool: the spool's batches go out without waiting for the
 * server, and without retrying (the spool is the retry): after a failure,
 * again a second later. Returns -1 when the spool cannot be read
 * (x->ch.error says why). */
static int spool_send_some(forwarder *f, int64_t now)
{
    exporter *x = f->x;
    if (now < f->send_after_ms)
        return 0;
    int rc = clickhouse_spool_pump(x->spool, &x->ch);
    f->send_after_ms = rc > 0 ? now + 1000 : 0;
    return rc < 0 ? -1 : 0;
}

#if !defined(_WIN32)
/* forward --spool's sender: a thread of its own sends the spool's batches
 * (reading them back, building Native blocks, driving libcurl), so that
 * the consumer only decodes and appends, and keeps up with a faster
 * session. It alone uses the connection while the session runs. */
struct sender {
    forwarder *f;
    pthread_t thread;
    pthread_mutex_t lock; /* the spool's `files` and `bytes`; `stop` and `work` */
    pthread_cond_t wake;
    int stop, work;
    atomic_int failed; /* the spool could not be read: f->x->ch.error says why */
};

static void sender_lock(void *context)
{
    pthread_mutex_lock(&((sender *)context)->lock);
}

static void sender_unlock(void *context)
{
    pthread_mutex_unlock(&((sender *)context)->lock);
}

/* A batch is ready (or the session ended). */
static void sender_wake(sender *sd)
{
    pthread_mutex_lock(&sd->lock);
    sd->work = 1;
    pthread_cond_signal(&sd->wake);
    pthread_mutex_unlock(&sd->lock);
}

static void *sender_main(void *arg)
{
    sender *sd = arg;
    forwarder *f = sd->f;
    clickhouse *c = &f->x->ch;
    for (;;) {
        if (spool_send_some(f, now_ms()) < 0) {
            atomic_store(&sd->failed, 1); /* seq_cst: after c->error */
            break;
        }
        if (clickhouse_insert_busy(c)) {
            clickhouse_insert_wait_some(c, 20);
            continue;
        }
        pthread_mutex_lock(&sd->lock);
        if (!sd->work && !sd->stop) {
            struct timespec until;
            timespec_get(&until, TIME_UTC);
            until.tv_nsec += 100000000L; /* at least every 0.1 s: a retry's time */
            if (until.tv_nsec >= 1000000000L)
                until.tv_sec++, until.tv_nsec -= 1000000000L;
            pthread_cond_timedwait(&sd->wake, &sd->lock, &until);
        }
        int stop = sd->stop;
        sd->work = 0;
        pthread_mutex_unlock(&sd->lock);
        if (stop)
            break;
    }
    return NULL;
}

/* Starts the sender: 0, or -1 (the consumer then sends itself). */
static int sender_start(sender *sd, forwarder *f)
{
    memset(sd, 0, sizeof(*sd));
    sd->f = f;
    if (pthread_mutex_init(&sd->lock, NULL))
        return -1;
    if (pthread_cond_init(&sd->wake, NULL)) {
        pthread_mutex_destroy(&sd->lock);
        return -1;
    }
    clickhouse_spool *s = f->x->spool;
    s->lock = sender_lock;
    s->unlock = sender_unlock;
    s->lock_context = sd;
    if (pthread_create(&sd->thread, NULL, sender_main, sd)) {
        s->lock = s->unlock = NULL;
        pthread_cond_destroy(&sd->wake);
        pthread_mutex_destroy(&sd->lock);
        return -1;
    }
    f->sender = sd;
    return 0;
}

/* Stops the sender (its inserts in flight stay, for the final send). */
static void sender_stop(forwarder *f)
{
    sender *sd = f->sender;
    if (!sd)
        return;
    pthread_mutex_lock(&sd->lock);
    sd->stop = 1;
    pthread_cond_signal(&sd->wake);
    pthread_mutex_unlock(&sd->lock);
    pthread_join(sd->thread, NULL);
    if (atomic_load(&sd->failed)) /* seq_cst, though the join orders it already */
        f->x->failed = 1;
    clickhouse_spool *s = f->x->spool;
    s->lock = s->unlock = NULL;
    pthread_cond_destroy(&sd->wake);
    pthread_mutex_destroy(&sd->lock);
    f->sender = NULL;
}
#else /* no threads here: the consumer sends */
struct sender {
    atomic_int failed;
};
static void sender_wake(sender *sd)
{
    (void)sd;
}
static int sender_start(sender *sd, forwarder *f)
{
    (void)sd;
    (void)f;
    return -1; /* the consumer sends itself */
}
static void sender_stop(forwarder *f)
{
    (void)f;
}
#endif

/* forward --spool, after each session buffer: the events it brought are
 * appended to the spool's open file before the next buffer is taken, so a
 * kill of the forwarder loses none it consumed; the file becomes a batch
 * to send once --flush-ms has passed or it reached --batch-rows or
 * --batch-bytes. */
static void spool_buffer(forwarder *f, int64_t now)
{
    exporter *x = f->x;
    clickhouse_spool *s = x->spool;
    batch *b = &x->batches[CLICKHOUSE_EVENTS];
    int sealed = 0;
    if (b->count && !x->failed) {
        int rc = b->rows.failed ? -2 : clickhouse_spool_append(s, b->into, &b->rows, b->count);
        b->rows.len = 0;
        if (rc < 0) {
            snprintf(x->ch.error, sizeof(x->ch.error),
                     rc == -2 ? "out of memory building a batch"
                              : "cannot write in the spool directory %s",
                     s->dir);
            x->failed = 1;
            return;
        }
        b->total += rc == 0 ? b->count : 0;
        b->count = 0;
    }
    if (s->open && (now - f->last_flush_ms >= (int64_t)f->flush_ms || s->open_rows >= x->max_rows ||
                    s->open_bytes >= x->max_bytes)) {
        if (clickhouse_spool_seal(s)) {
            snprintf(x->ch.error, sizeof(x->ch.error), "cannot write in the spool directory %s",
                     s->dir);
            x->failed = 1;
            return;
        }
        b->number++;
        f->last_flush_ms = now;
        sealed = 1;
    }
    if (f->sender) {
        if (sealed)
            sender_wake(f->sender);
        if (atomic_load(&f->sender->failed)) /* seq_cst: its c->error was written before */
            x->failed = 1;
        return;
    }
    if (spool_send_some(f, now) < 0)
        x->failed = 1;
}

/* After each buffer: what arrived goes out when --flush-ms has passed. */
static int forward_buffer(petw_trace *t, void *context)
{
    (void)t;
    forwarder *f = context;
    exporter *x = f->x;
    int64_t now = now_ms();
    if (now - f->asked_ms >= 1000) {
        ask_losses(f);
        f->asked_ms = now;
    }
    if (x->spool) {
        spool_buffer(f, now);
    } else if (x->batches[CLICKHOUSE_EVENTS].count &&
               now - f->last_flush_ms >= (int64_t)f->flush_ms) {
        flush(x, &x->batches[CLICKHOUSE_EVENTS]);
        f->last_flush_ms = now;
    }
    if (!f->sender) /* else the sender alone uses the connection */
        clickhouse_insert_poll(&x->ch);
    return !x->failed;
}

static void forward_event(petw_event_record *r, void *context)
{
    on_event(r, ((forwarder *)context)->x);
}

/* This forwarder's own identity: a forwarder started again sends its
 * events under a trace_id of its own, never colliding with its
 * predecessor's rows. */
static uint64_t forward_trace_id(const char *name, const char *machine, int64_t started)
{
    uint64_t id = hash(0xcbf29ce484222325ull, name, strlen(name));
    id = hash(id, machine, strlen(machine));
    return hash(id, &started, sizeof(started));
}

/* petw forward's options into x, a and f (flush_ms); returns -1 to go on, else the exit status. */
static int forward_options(int argc, char **argv, exporter *x, common_args *a, forwarder *f,
                           const char **name, const char **spool_dir, uint64_t *spool_size)
{
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        if (is_help(o)) {
            fputs(forward_usage, stdout);
            return 0;
        }
        int r = common_option(x, a, argc, argv, &i);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(o, "--flush-ms") && i + 1 < argc) {
            if (parse_count(o, argv[++i], &f->flush_ms))
                return 2;
        } else if (!strcmp(o, "--spool") && i + 1 < argc) {
            *spool_dir = argv[++i];
        } else if (!strcmp(o, "--spool-size") && i + 1 < argc) {
            if (parse_count(o, argv[++i], spool_size))
                return 2;
        } else if (o[0] == '-' && o[1]) {
            return command_usage_error("forward", "unknown option '%s'", o);
        } else if (*name) {
            return command_usage_error("forward", "unexpected argument '%s'", o);
        } else {
            *name = o;
        }
    }
    if (!*name)
        return command_usage_error("forward", "%s", "no session NAME");
    return -1;
}

/* The session is gone: deliver what a previous run left in x's spool; the exit status. */
static int forward_spool_leftovers(exporter *x, common_args *a)
{
    clickhouse_spool *spool = x->spool;
    char host[256];
    int status = exporter_start(x, a, host, sizeof(host));
    if (status)
        return status;
    int rc = clickhouse_spool_send(spool, &x->ch, 1);
    if (rc)
        fprintf(stderr, "petw: %s; %" PRIu64 " batches left in the spool %s\n", x->ch.error,
                spool->files, spool->dir);
    else
        fprintf(stderr, "petw: %" PRIu64 " events left in the spool %s delivered to %s (%s)\n",
                spool->delivered_rows, spool->dir, x->ch.where, x->ch.database);
    exporter_end(x);
    clickhouse_spool_close(spool);
    return rc ? 1 : 0;
}

/* After the session's trace ended (process_rc): sends what is left, then
 * the traces row, reports the run and ends the export; the exit status. */
static int forward_finish(exporter *x, forwarder *f, const char *name,
                          const petw_logfile_info *info, int process_rc)
{
    clickhouse_spool *spool = x->spool;
    char label[300];
    snprintf(label, sizeof(label), "session:%s", name);
    /* The events first (from the spool: all of it, so the traces row finds
     * room there), then the traces row. */
    for (int pass = 0; pass < 2 && !x->failed; pass++) {
        if (pass == 0 ? flush_all(x)
                      : put_trace_row(x, label, info, x->batches[CLICKHOUSE_EVENTS].total, 0))
            break;
        if (spool && clickhouse_spool_send(spool, &x->ch, 1)) {
            x->failed = 1;
            fprintf(stderr, "petw: %" PRIu64 " batches left in the spool %s\n", spool->files,
                    spool->dir);
        }
    }
    if (spool && spool->dropped_rows)
        fprintf(stderr,
                "petw: %" PRIu64 " events (%" PRIu64
                " batches) dropped: the spool %s was full (%" PRIu64 " bytes)\n",
                spool->dropped_rows, spool->dropped_batches, spool->dir, spool->limit);
    if (x->failed)
        fprintf(stderr, "petw: %s\n", x->ch.error);
    else
        fprintf(
            stderr,
            "petw: %" PRIu64 " events of session '%s' forwarded to %s (%s), trace_id %" PRIu64 "\n",
            x->batches[CLICKHOUSE_EVENTS].total, name, x->ch.where, x->ch.database, x->trace_id);
    ask_losses(f); /* when the session is still there */
    if (f->rt_events_lost || f->rt_buffers_lost)
        fprintf(stderr,
                "petw: session '%s' lost %" PRIu64 " events (%" PRIu32
                " buffers) for real-time consumers: they were not forwarded\n",
                name, f->rt_events_lost, f->rt_buffers_lost);
    if (process_rc && !x->failed)
        fprintf(stderr, "petw: %s\n", petw_strerror(process_rc));
    exporter_end(x);
    int dropped = spool && spool->dropped_rows;
    if (spool)
        clickhouse_spool_close(spool);
    return x->failed || process_rc || dropped || f->rt_events_lost || f->rt_buffers_lost ? 1 : 0;
}

int cmd_forward(int argc, char **argv)
{
    static exporter x;
    common_args a;
    exporter_init(&x, &a);
    forwarder f = {&x, 1000, 0, 0, 0, 0, 0, 0, 0, 0, NULL};
    static sender sending;
    const char *name = NULL, *spool_dir = NULL;
    uint64_t spool_size = 1024u << 20;
    static clickhouse_spool spool;
    int status = forward_options(argc, argv, &x, &a, &f, &name, &spool_dir, &spool_size);
    if (status >= 0)
        return status;
    if ((status = check_to(&a, "forward")))
        return status;
    if (spool_dir) {
        char error[256];
        if (clickhouse_spool_open(&spool, spool_dir, spool_size, error, sizeof(error))) {
            fprintf(stderr, "petw: %s\n", error);
            return 1;
        }
        x.spool = &spool;
    }
    petw_session_handle session;
    petw_session_stats st;
    int rc = petw_session_find(name, &session);
    if (rc == 0)
        rc = petw_session_query(session, &st);
    if (rc == PETW_ENOTFOUND && x.spool && spool.files)
        return forward_spool_leftovers(&x, &a);
    if (rc == 0 && !(st.log_file_mode & PETW_MODE_REAL_TIME)) {
        fprintf(stderr,
                "petw: session '%s' is not a real-time session (start it with --realtime)\n", name);
        return 1;
    }
    if (rc) {
        fprintf(stderr, "petw: cannot forward session '%s': %s\n", name,
                rc == PETW_ENOTFOUND ? "no session of that name runs" : petw_strerror(rc));
        return 1;
    }
    f.session = session;
    f.base_events = st.real_time_events_lost;
    f.base_buffers = st.real_time_buffers_lost;
    char host[256];
    if ((status = exporter_start(&x, &a, host, sizeof(host))))
        return status;
    int64_t started = now_ms();
    x.trace_id = forward_trace_id(name, x.machine, started);
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = forward_event;
    cfg.on_buffer = forward_buffer;
    cfg.context = &f;
    petw_trace *t = NULL;
    rc = petw_trace_open_realtime(name, &cfg, &t);
    if (rc) {
        fprintf(stderr, "petw: cannot forward session '%s': %s\n", name, petw_strerror(rc));
        exporter_end(&x);
        return 1;
    }
    petw_logfile_info info = *petw_trace_info(t);
    x.boot_time = clickhouse_time(info.boot_time);
    unsigned retries = x.ch.retries;
    if (x.spool)
        x.ch.retries = 0; /* while the session runs: the spool keeps what fails */
    fprintf(stderr, "petw: forwarding session '%s' to %s (%s)\n", name, x.ch.where, x.ch.database);
    fflush(stderr);
    f.last_flush_ms = started;
    atomic_store(&forwarded, t);
    catch_interrupts(forward_interrupted);
    if (x.spool)
        sender_start(&sending, &f); /* or, failing, the consumer sends */
    int process_rc = petw_trace_process(&t, 1, 0, 0);
    sender_stop(&f);
    atomic_store(&forwarded, NULL);
    petw_trace_close(t);
    if (process_rc == PETW_ECANCELED && !x.failed)
        process_rc = 0; /* Ctrl-C */
    x.ch.retries = retries;
    return forward_finish(&x, &f, name, &info, process_rc);
}

#endif /* PETW_HAVE_CURL */
