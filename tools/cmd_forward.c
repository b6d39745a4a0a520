/* SPDX-License-Identifier: MIT */
/* cmd_forward.c - `petw forward NAME --to clickhouse URL`: a real-time
 * session's events sent to ClickHouse as they arrive (the rows petw export
 * builds, export_rows.c), through an on-disk spool with --spool
 * (tools/clickhouse/clickhouse_spool.c) that a sender thread drains. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The --help text (tool_help.c), in every build. */
const char forward_usage[] =
    "usage: petw forward NAME --to clickhouse URL [options]\n"
    "Sends the events of the real-time shared session NAME (started with\n"
    "--realtime) to ClickHouse as they arrive, into the tables petw export fills,\n"
    "until the session stops (or Ctrl-C), then exits 0 once every event is\n"
    "delivered. Without --spool, while the server is unreachable, requests are\n"
    "retried (--retries) and the session drops what its buffers cannot hold\n"
    "(reported at the end). With --spool DIR, the session's buffers go to DIR\n"
    "as they come and are decoded and sent from there, so the consumer keeps up\n"
    "with a fast session and while the server is down or slow; what\n"
    "does not fit in --spool-size is dropped, counted and reported (exit 1);\n"
    "killed and started again, it sends what DIR holds (with no session running,\n"
    "it sends DIR's batches and exits).\n"
    "Options:\n"
    "  --flush-ms N         send what arrived at least every N ms (default 1000)\n"
    "  --spool DIR          keep batches on disk in DIR until the server has them\n"
    "  --spool-size N       bytes DIR holds at most (default 1073741824)\n"
    "  --machine NAME, --batch-rows N, --batch-bytes N, --parallel N, --retries N,\n"
    "  --compress, --payload all|undecoded,\n"
    "  --manifest PATH, --tmf PATH   as for petw export\n";

#if !defined(PETW_HAVE_CURL)

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

#include "export_clickhouse.h"
#include "tool_session.h"

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
    /* --spool with a sender: how busy the consumer is (forward_event and
     * forward_buffer measure it), so that the sender holds back while the
     * session writes faster than the consumer could keep up with if the
     * server (on the same machine, say) took CPU time too. */
    int64_t window_ns, busy_ns, idle_ns; /* this window's */
    int64_t buffer_ns, last_end_ns;      /* this buffer's first event; the last one's end */
    int in_buffer;
    _Atomic int64_t hold_until_ms; /* the sender starts no insert before then */
    /* --spool: the session's buffers go to the spool as they come (an ETL
     * file, the header buffer first), decoded when they are sent. */
    int raw;
    uint8_t *header; /* the session's header buffer */
    uint32_t header_size;
    char meta[128]; /* the spool files' converter line: trace_id boot_time header_size */
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

static int64_t now_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
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
    int64_t held_ms;   /* the sender's own: time it held back */
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
        /* While the consumer is busy, nothing new starts (unless the spool
         * is half full): the server's work would take the CPU time the
         * consumer needs to keep up with the session, which loses what its
         * buffers cannot hold; the spool holds it instead. */
        pthread_mutex_lock(&sd->lock);
        int roomy = f->x->spool->bytes < f->x->spool->limit / 2, stop = sd->stop;
        pthread_mutex_unlock(&sd->lock);
        int64_t now = now_ms();
        /* acquire: pairs with the consumer's release (a time alone) */
        int hold =
            !stop && roomy && now < atomic_load_explicit(&f->hold_until_ms, memory_order_acquire);
        if (hold)
            sd->held_ms += 20;
        if (!hold && spool_send_some(f, now) < 0) {
            atomic_store(&sd->failed, 1); /* seq_cst: after c->error */
            break;
        }
        if (hold) {
            clickhouse_insert_wait_some(c, 20); /* what is in flight goes on */
            if (!clickhouse_insert_busy(c)) {
                struct timespec pause = {0, 20000000L};
                nanosleep(&pause, NULL);
            }
            continue;
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
        stop = sd->stop;
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
        /* the buffer's rows, one Native block: the file's next chunk */
        int rc = clickhouse_columns_block(&x->events, &x->block)
                     ? -2
                     : clickhouse_spool_append(s, b->into, 1, &x->block, b->count);
        x->block.len = 0;
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

/* After a buffer, with a sender: the time the consumer spent on it. Every
 * 0.2 s, when the consumer was busy more than half of it, the sender holds
 * back for 0.3 s. */
static void measure_busy(forwarder *f)
{
    int64_t t = now_ns();
    if (f->in_buffer)
        f->busy_ns += t - f->buffer_ns;
    f->in_buffer = 0;
    f->last_end_ns = t;
    if (!f->window_ns)
        f->window_ns = t;
    if (t - f->window_ns < 200000000)
        return;
    if (f->busy_ns > f->idle_ns) /* release: a time alone */
        atomic_store_explicit(&f->hold_until_ms, t / 1000000 + 300, memory_order_release);
    f->window_ns = t;
    f->busy_ns = f->idle_ns = 0;
}

/* forward --spool: each buffer of the session as it comes, appended to
 * the spool's open ETL file (written to the file before the next buffer
 * is taken), not decoded: the consumer keeps up with a session far faster
 * than it could decode. The file becomes a batch to send once --flush-ms
 * has passed or it reached --batch-bytes; the sender decodes it
 * (convert_etl). A buffer the spool cannot hold has its events delivered,
 * to be counted (forward_event). */
static int forward_raw(petw_trace *t, const void *buffer, uint32_t size, void *context)
{
    (void)t;
    forwarder *f = context;
    exporter *x = f->x;
    clickhouse_spool *s = x->spool;
    if (!f->header) { /* the header buffer: each file starts with it */
        if (!(f->header = malloc(size))) {
            snprintf(x->ch.error, sizeof(x->ch.error), "out of memory");
            x->failed = 1;
            return 0;
        }
        memcpy(f->header, buffer, size);
        f->header_size = size;
        snprintf(f->meta, sizeof(f->meta), "%" PRIu64 " %" PRId64 " %" PRIu32, x->trace_id,
                 x->boot_time, size);
        return 2;
    }
    if (f->sender) { /* the consumer's time from here, for measure_busy */
        f->in_buffer = 1;
        f->buffer_ns = now_ns();
        if (f->last_end_ns)
            f->idle_ns += f->buffer_ns - f->last_end_ns;
    }
    int64_t now = now_ms();
    if (now - f->asked_ms >= 1000) {
        ask_losses(f);
        f->asked_ms = now;
    }
    int rc = clickhouse_spool_append_etl(s, x->batches[CLICKHOUSE_EVENTS].into, f->meta, f->header,
                                         f->header_size, buffer, size);
    if (rc < 0) {
        snprintf(x->ch.error, sizeof(x->ch.error), "cannot write in the spool directory %s",
                 s->dir);
        x->failed = 1;
        return 0;
    }
    int sealed = 0;
    if (s->open &&
        (now - f->last_flush_ms >= (int64_t)f->flush_ms || s->open_bytes >= x->max_bytes)) {
        if (clickhouse_spool_seal(s)) {
            snprintf(x->ch.error, sizeof(x->ch.error), "cannot write in the spool directory %s",
                     s->dir);
            x->failed = 1;
            return 0;
        }
        f->last_flush_ms = now;
        sealed = 1;
    }
    if (f->sender) {
        if (sealed)
            sender_wake(f->sender);
        if (atomic_load(&f->sender->failed)) /* seq_cst: its c->error was written before */
            x->failed = 1;
        measure_busy(f);
    } else if (spool_send_some(f, now) < 0) {
        x->failed = 1;
    }
    if (x->failed)
        return 0;
    return rc == 1 ? 1 : 2; /* full: its events are delivered, to be counted */
}

/* A spool file's record: each file starts with the session's header
 * buffer, whose header record a real-time consumer is not given (as on
 * Windows): left out, as when forwarding without a spool. */
static void spooled_event(petw_event_record *r, void *context)
{
    static const petw_guid event_trace = {
        0x68fdd900, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}};
    if (r->header.descriptor.opcode == 0 &&
        !memcmp(&r->header.provider_id, &event_trace, sizeof(event_trace)))
        return;
    export_event(r, context);
}

/* The spool's converter (clickhouse_spool's convert): an ETL file of the
 * session's buffers into the events' Native body, each row's identity
 * from the file: its trace_id (the forwarder that wrote it) and seq, the
 * file's number times 2^32 plus the record's place in it. Runs where the
 * spool is sent (the sender thread, or the consumer after the session). */
static int convert_etl(void *context, const char *meta, uint64_t seq, const sbuf *etl, sbuf *out,
                       uint64_t *rows)
{
    exporter *x = context;
    uint64_t trace_id;
    int64_t boot_time;
    if (sscanf(meta, "%" SCNu64 " %" SCNd64, &trace_id, &boot_time) != 2) {
        snprintf(x->ch.error, sizeof(x->ch.error), "spool file %020" PRIu64 " is damaged", seq);
        return -1;
    }
    batch *b = &x->batches[CLICKHOUSE_EVENTS];
    uint64_t total = b->total, own_id = x->trace_id;
    int64_t own_boot = x->boot_time;
    x->trace_id = trace_id;
    x->boot_time = boot_time;
    x->seq = seq << 32;
    b->number = (uint32_t)seq;
    out->len = 0;
    out->failed = 0;
    x->collect = out;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = spooled_event;
    cfg.context = x;
    petw_trace *t = NULL;
    int rc = petw_trace_open_memory(etl->data, etl->len, &cfg, &t);
    if (rc == 0)
        rc = petw_trace_process(&t, 1, 0, 0);
    petw_trace_close(t);
    if (!x->failed)
        export_flush(x, b);
    x->collect = NULL;
    x->trace_id = own_id; /* the forwarder's own again, for its traces row */
    x->boot_time = own_boot;
    *rows = b->total - total;
    b->total = total; /* counted once delivered (the spool's delivered_rows) */
    if (rc && !x->failed)
        snprintf(x->ch.error, sizeof(x->ch.error), "spool file %020" PRIu64 ": %s", seq,
                 petw_strerror(rc));
    int failed = rc || x->failed || out->failed;
    x->failed = 0; /* the spool reports it */
    return failed ? -1 : 0;
}

/* After each buffer: what arrived goes out when --flush-ms has passed. */
static int forward_buffer(petw_trace *t, void *context)
{
    (void)t;
    forwarder *f = context;
    exporter *x = f->x;
    if (f->raw) /* a buffer the spool could not hold: its events were counted */
        return !x->failed;
    int64_t now = now_ms();
    if (now - f->asked_ms >= 1000) {
        ask_losses(f);
        f->asked_ms = now;
    }
    if (x->spool) {
        spool_buffer(f, now);
        if (f->sender)
            measure_busy(f);
    } else if (x->batches[CLICKHOUSE_EVENTS].count &&
               now - f->last_flush_ms >= (int64_t)f->flush_ms) {
        export_flush(x, &x->batches[CLICKHOUSE_EVENTS]);
        f->last_flush_ms = now;
    }
    if (!f->sender) /* else the sender alone uses the connection */
        clickhouse_insert_poll(&x->ch);
    return !x->failed;
}

static void forward_event(petw_event_record *r, void *context)
{
    forwarder *f = context;
    if (f->raw) { /* a buffer the spool could not hold */
        f->x->spool->dropped_rows++;
        return;
    }
    if (!f->in_buffer && f->sender) { /* a buffer's first event: the consumer waited till now */
        f->in_buffer = 1;
        f->buffer_ns = now_ns();
        if (f->last_end_ns)
            f->idle_ns += f->buffer_ns - f->last_end_ns;
    }
    export_event(r, f->x);
}

/* This forwarder's own identity: a forwarder started again sends its
 * events under a trace_id of its own, never colliding with its
 * predecessor's rows. */
static uint64_t forward_trace_id(const char *name, const char *machine, int64_t started)
{
    uint64_t id = export_hash(0xcbf29ce484222325ull, name, strlen(name));
    id = export_hash(id, machine, strlen(machine));
    return export_hash(id, &started, sizeof(started));
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
        int r = export_option(x, a, argc, argv, &i);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(o, "--flush-ms") && i + 1 < argc) {
            if (export_parse_count(o, argv[++i], &f->flush_ms))
                return 2;
        } else if (!strcmp(o, "--spool") && i + 1 < argc) {
            *spool_dir = argv[++i];
        } else if (!strcmp(o, "--spool-size") && i + 1 < argc) {
            if (export_parse_count(o, argv[++i], spool_size))
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
    spool->convert = convert_etl;
    spool->convert_context = x;
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
    uint64_t events = x->batches[CLICKHOUSE_EVENTS].total;
    for (int pass = 0; pass < 2 && !x->failed; pass++) {
        if (pass == 1) /* with raw buffers, the events the spool delivered, decoded there */
            events = f->raw ? spool->delivered_rows : x->batches[CLICKHOUSE_EVENTS].total;
        if (pass == 0 && f->raw && clickhouse_spool_seal(spool)) { /* the last ETL file */
            snprintf(x->ch.error, sizeof(x->ch.error), "cannot write in the spool directory %s",
                     spool->dir);
            x->failed = 1;
            break;
        }
        if (pass == 0 ? export_flush_all(x) : export_trace_row(x, label, info, events, 0))
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
        fprintf(stderr,
                "petw: %" PRIu64 " events of session '%s' forwarded to %s (%s), trace_id %" PRIu64
                "\n",
                events, name, x->ch.where, x->ch.database, x->trace_id);
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
    static forwarder f;
    f.x = &x;
    f.flush_ms = 1000;
    static sender sending;
    const char *name = NULL, *spool_dir = NULL;
    uint64_t spool_size = 1024u << 20;
    static clickhouse_spool spool;
    int status = forward_options(argc, argv, &x, &a, &f, &name, &spool_dir, &spool_size);
    if (status >= 0)
        return status;
    if ((status = export_check_to(&a, "forward")))
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
    if (x.spool) {
        /* The buffers themselves to the spool, decoded when sent. */
        spool.convert = convert_etl;
        spool.convert_context = &x;
        f.raw = petw_trace_set_raw_callback(t, forward_raw) == 0;
        sender_start(&sending, &f); /* or, failing, the consumer sends */
    }
    int process_rc = petw_trace_process(&t, 1, 0, 0);
    sender_stop(&f);
    atomic_store(&forwarded, NULL);
    petw_trace_close(t);
    if (process_rc == PETW_ECANCELED && !x.failed)
        process_rc = 0; /* Ctrl-C */
    x.ch.retries = retries;
    status = forward_finish(&x, &f, name, &info, process_rc);
    free(f.header);
    return status;
}

#endif /* PETW_HAVE_CURL */
