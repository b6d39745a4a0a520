/* SPDX-License-Identifier: MIT */
/* forward_spool.c - `petw forward --spool DIR`'s two sides: the consumer
 * appending the session's buffers to the spool as they come
 * (forward_raw), and the sender, a thread that sends the spool's batches
 * (decoding the buffers then: forward_convert_etl), holding back while the
 * consumer is busy (forward_measure_busy). */
#if defined(PETW_HAVE_CURL)
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if !defined(_WIN32)
#include <pthread.h>
#endif

#include "forward.h"

/* The ETL format's buffer header (WMI_BUFFER_HEADER): its size, and where
 * its sequence number (int64, little-endian) is. */
#define BUFFER_HEADER_SIZE 0x48u
#define BUFFER_SEQUENCE 0x18u

uint64_t forward_session_run_id(const exporter *x, const petw_logfile_info *li)
{
    uint64_t id = export_hash(0xcbf29ce484222325ull, li->logger_name, strlen(li->logger_name));
    id = export_hash(id, x->machine, strlen(x->machine));
    id = export_hash(id, &li->start_time, sizeof(li->start_time));
    return export_hash(id, &li->boot_time, sizeof(li->boot_time));
}

int forward_sequence(petw_trace *t, const void *buffer, uint32_t size, void *context)
{
    (void)t;
    forwarder *f = context;
    if (size >= BUFFER_HEADER_SIZE) {
        uint64_t sequence;
        memcpy(&sequence, (const uint8_t *)buffer + BUFFER_SEQUENCE, sizeof(sequence));
        f->x->seq = sequence << 32;
    }
    return 1;
}

int64_t forward_now_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t forward_now_ms(void)
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
        int64_t now = forward_now_ms();
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
int forward_sender_start(forwarder *f)
{
    static sender sending;
    sender *sd = &sending;
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
void forward_sender_stop(forwarder *f)
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
int forward_sender_start(forwarder *f)
{
    (void)f;
    return -1; /* the consumer sends itself */
}
void forward_sender_stop(forwarder *f)
{
    (void)f;
}
#endif

/* forward --spool, after each session buffer: the events it brought are
 * appended to the spool's open file before the next buffer is taken, so a
 * kill of the forwarder loses none it consumed; the file becomes a batch
 * to send once --flush-ms has passed or it reached --batch-rows or
 * --batch-bytes. */
/* After a buffer went to the spool: seals the open file into a batch when
 * `due`, then has the batches sent (the sender woken, or, without one, some
 * sent from here). Sets x->failed on an error; returns 1 when it sealed. */
static int spool_seal_and_send(forwarder *f, int64_t now, int due)
{
    exporter *x = f->x;
    clickhouse_spool *s = x->spool;
    int sealed = 0;
    if (s->open && due) {
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
    } else if (spool_send_some(f, now) < 0) {
        x->failed = 1;
    }
    return sealed;
}

void forward_spool_buffer(forwarder *f, int64_t now)
{
    exporter *x = f->x;
    clickhouse_spool *s = x->spool;
    batch *b = &x->batches[CLICKHOUSE_EVENTS];
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
    int due = now - f->last_flush_ms >= (int64_t)f->flush_ms || s->open_rows >= x->max_rows ||
              s->open_bytes >= x->max_bytes;
    if (spool_seal_and_send(f, now, due))
        b->number++;
}

void forward_spool_idle(forwarder *f, int64_t now)
{
    clickhouse_spool *s = f->x->spool;
    int due = s->open && now - f->last_flush_ms >= (int64_t)f->flush_ms;
    if (spool_seal_and_send(f, now, due) && !f->raw)
        f->x->batches[CLICKHOUSE_EVENTS].number++;
}

/* After a buffer, with a sender: the time the consumer spent on it. Every
 * 0.2 s, when the consumer was busy more than half of it, the sender holds
 * back for 0.3 s. */
void forward_measure_busy(forwarder *f)
{
    int64_t t = forward_now_ns();
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
 * (forward_convert_etl). A buffer the spool cannot hold has its events delivered,
 * to be counted (forward_event). */
int forward_raw(petw_trace *t, const void *buffer, uint32_t size, void *context)
{
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
        /* The spooled rows' trace_id: the session's run. */
        const petw_logfile_info *li = petw_trace_info(t);
        uint64_t id = forward_session_run_id(x, li);
        /* Not x->boot_time: the sender's converter swaps it meanwhile. */
        snprintf(f->meta, sizeof(f->meta), "%" PRIu64 " %" PRId64 " %" PRIu32, id,
                 clickhouse_time(li->boot_time), size);
        return 2;
    }
    if (f->sender) { /* the consumer's time from here, for measure_busy */
        f->in_buffer = 1;
        f->buffer_ns = forward_now_ns();
        if (f->last_end_ns)
            f->idle_ns += f->buffer_ns - f->last_end_ns;
    }
    int64_t now = forward_now_ms();
    if (now - f->asked_ms >= 1000) {
        forward_ask_losses(f);
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
    spool_seal_and_send(
        f, now, now - f->last_flush_ms >= (int64_t)f->flush_ms || s->open_bytes >= x->max_bytes);
    if (f->sender)
        forward_measure_busy(f);
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
 * from the session: the trace_id of its run (in the file's line) and seq,
 * the buffer's sequence number in the session times 2^32 plus the record's
 * place in the buffer. A buffer that a killed forwarder had spooled but
 * not acknowledged, which the session gives again to the next forwarder,
 * so has the same rows both times. Each buffer is read with the header
 * buffer, on its own. Runs where the spool is sent (the sender thread, or
 * the consumer after the session). */
int forward_convert_etl(void *context, const char *meta, uint64_t seq, const sbuf *etl, sbuf *out,
                        uint64_t *rows)
{
    exporter *x = context;
    uint64_t trace_id;
    int64_t boot_time;
    uint32_t header_size;
    if (sscanf(meta, "%" SCNu64 " %" SCNd64 " %" SCNu32, &trace_id, &boot_time, &header_size) !=
            3 ||
        header_size < BUFFER_HEADER_SIZE || header_size > etl->len) {
        snprintf(x->ch.error, sizeof(x->ch.error), "spool file %020" PRIu64 " is damaged", seq);
        return -1;
    }
    batch *b = &x->batches[CLICKHOUSE_EVENTS];
    uint64_t total = b->total, own_id = x->trace_id;
    int64_t own_boot = x->boot_time;
    x->trace_id = trace_id;
    x->boot_time = boot_time;
    b->number = (uint32_t)seq;
    out->len = 0;
    out->failed = 0;
    x->collect = out;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = spooled_event;
    cfg.context = x;
    uint8_t *one = malloc(etl->len); /* the header buffer and one buffer */
    int rc = one ? 0 : PETW_ENOMEM;
    if (one)
        memcpy(one, etl->data, header_size);
    /* The session's buffers all have its buffer size (the header
     * buffer's): a last one shorter than that was cut by a kill while it
     * was appended, before the forwarder acknowledged it, so the session
     * hands it again to the next forwarder: it is left out, said once. */
    uint32_t buffer_size;
    memcpy(&buffer_size, etl->data, sizeof(buffer_size));
    for (size_t off = header_size; rc == 0 && !x->failed && off < etl->len;) {
        uint32_t size;
        uint64_t sequence;
        size_t left = etl->len - off;
        if (left >= sizeof(size))
            memcpy(&size, (const uint8_t *)etl->data + off, sizeof(size));
        if (left < sizeof(size) || (size == buffer_size && size > left)) {
            fprintf(stderr,
                    "petw: spool file %020" PRIu64 ": its last buffer was cut (%zu of %" PRIu32
                    " bytes), as a forwarder killed while appending it leaves it; the session "
                    "gives that buffer again to the next forwarder\n",
                    seq, left, buffer_size);
            break;
        }
        if (size < BUFFER_HEADER_SIZE || size > left) {
            rc = PETW_ECORRUPT;
            break;
        }
        memcpy(&sequence, (const uint8_t *)etl->data + off + BUFFER_SEQUENCE, sizeof(sequence));
        memcpy(one + header_size, (const uint8_t *)etl->data + off, size);
        x->seq = sequence << 32;
        petw_trace *t = NULL;
        rc = petw_trace_open_memory(one, header_size + size, &cfg, &t);
        if (rc == 0)
            rc = petw_trace_process(&t, 1, 0, 0);
        petw_trace_close(t);
        off += size;
    }
    free(one);
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

#endif /* PETW_HAVE_CURL */
