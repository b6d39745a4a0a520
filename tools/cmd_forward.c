/* SPDX-License-Identifier: MIT */
/* cmd_forward.c - `petw forward NAME --to clickhouse URL`: a real-time
 * session's events sent to ClickHouse as they arrive (the rows petw export
 * builds, export_rows.c), or with --spool through an on-disk spool
 * (tools/clickhouse/clickhouse_spool.c) that the session's buffers go to
 * as they come and a sender thread drains (forward_spool.c). */
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
    "delivered. Without --spool, the session keeps each buffer until the insert\n"
    "carrying its rows landed (killed and started again while the session runs,\n"
    "it loses none); while the server is unreachable, requests are retried\n"
    "(--retries) and the session drops what its buffers cannot hold (reported\n"
    "at the end). With --spool DIR, the session's buffers go to DIR\n"
    "as they come and are decoded and sent from there, so the consumer keeps up\n"
    "with a fast session and while the server is down or slow; what\n"
    "does not fit in --spool-size is dropped, counted and reported (exit 1);\n"
    "killed and started again, it sends what DIR holds (with no session running,\n"
    "it sends DIR's batches and exits).\n"
    "Options:\n"
    "  --flush-ms N         send what arrived at least every N ms (default 1000;\n"
    "                       without --spool, also once 32 buffers' rows wait)\n"
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

#include "forward.h"
#include "tool_session.h"

/* ---- petw forward: a live session's events as they come ---- */

/* Keeps the session's real-time losses so far. */
void forward_ask_losses(forwarder *f)
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

/* Without --spool, acks deferred: acknowledges to the session the
 * buffers whose rows landed (the inserts that carried them answered),
 * then notes that the buffers taken so far are the session's to forget
 * once the insert that will carry the batch (or, with the batch empty,
 * the last one started) has landed. */
static void forward_acks(forwarder *f)
{
    if (!f->defer)
        return;
    clickhouse *c = &f->x->ch;
    uint64_t landed = clickhouse_insert_landed(c), to = f->acked;
    for (; f->ack_count && f->acks[f->ack_head].insert <= landed; f->ack_count--) {
        to = f->acks[f->ack_head].position;
        f->ack_head = (f->ack_head + 1) % FORWARD_ACKS_WAITING;
    }
    uint64_t position = petw_trace_position(f->trace);
    uint64_t insert = c->inserts_started + (f->x->batches[CLICKHOUSE_EVENTS].count != 0);
    if (insert <= landed) {
        to = position;
    } else if (position > to) {
        forward_ack *last =
            f->ack_count ? &f->acks[(f->ack_head + f->ack_count - 1) % FORWARD_ACKS_WAITING] : NULL;
        /* With no room, the last waits for the later insert: acked later, never early. */
        if (!last || (last->insert != insert && f->ack_count < FORWARD_ACKS_WAITING))
            last = &f->acks[(f->ack_head + f->ack_count++) % FORWARD_ACKS_WAITING];
        last->insert = insert;
        last->position = position;
    }
    if (to > f->acked && petw_trace_ack(f->trace, to) == 0)
        f->acked = to;
}

/* Without --spool: sends the events' batch, noting where it was sent. */
static void forward_flush(forwarder *f, int64_t now)
{
    export_flush(f->x, &f->x->batches[CLICKHOUSE_EVENTS]);
    f->last_flush_ms = now;
    f->flushed_at = petw_trace_position(f->trace);
}

/* After each buffer: what arrived goes out when --flush-ms has passed (or,
 * without --spool, once FORWARD_ACK_EVERY buffers wait for their acks). */
static int forward_buffer(petw_trace *t, void *context)
{
    (void)t;
    forwarder *f = context;
    exporter *x = f->x;
    if (f->raw) /* a buffer the spool could not hold: its events were counted */
        return !x->failed;
    int64_t now = forward_now_ms();
    if (now - f->asked_ms >= 1000) {
        forward_ask_losses(f);
        f->asked_ms = now;
    }
    if (x->spool) {
        forward_spool_buffer(f, now);
        if (f->sender)
            forward_measure_busy(f);
    } else if (x->batches[CLICKHOUSE_EVENTS].count &&
               (now - f->last_flush_ms >= (int64_t)f->flush_ms ||
                (f->defer && petw_trace_position(f->trace) - f->flushed_at >= FORWARD_ACK_EVERY))) {
        forward_flush(f, now);
    }
    if (!f->sender) /* else the sender alone uses the connection */
        clickhouse_insert_poll(&x->ch);
    forward_acks(f);
    return !x->failed;
}

/* While no buffer comes (about every 100 ms): what arrived goes out once
 * --flush-ms has passed, without waiting for the next buffer; with
 * --spool, the open file becomes a batch then. */
static int forward_idle(petw_trace *t, void *context)
{
    (void)t;
    forwarder *f = context;
    exporter *x = f->x;
    int64_t now = forward_now_ms();
    if (now - f->asked_ms >= 1000) {
        forward_ask_losses(f);
        f->asked_ms = now;
    }
    if (x->spool) {
        forward_spool_idle(f, now);
    } else if (x->batches[CLICKHOUSE_EVENTS].count &&
               now - f->last_flush_ms >= (int64_t)f->flush_ms) {
        forward_flush(f, now);
    }
    /* The inserts in flight move on while nothing else is to do (a poll
     * every 100 ms alone would take a second or more to send one). */
    for (int64_t until = now + 50;
         !f->sender && clickhouse_insert_busy(&x->ch) && forward_now_ms() < until;)
        clickhouse_insert_wait_some(&x->ch, 10);
    forward_acks(f);
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
        f->buffer_ns = forward_now_ns();
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
    spool->convert = forward_convert_etl;
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
    forward_ask_losses(f); /* when the session is still there */
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

/* Finds the session `name` to forward and takes its loss counts as the
 * base the run's losses are measured from; returns -1 to go on, or the
 * command's exit status (an error, or the spool of a session that no
 * longer runs, sent). */
static int forward_find_session(exporter *x, common_args *a, forwarder *f, const char *name)
{
    petw_session_handle session;
    petw_session_stats st;
    int rc = petw_session_find(name, &session);
    if (rc == 0)
        rc = petw_session_query(session, &st);
    if (rc == PETW_ENOTFOUND && x->spool && x->spool->files)
        return forward_spool_leftovers(x, a);
    if (rc == 0 && !(st.log_file_mode & PETW_MODE_REAL_TIME)) {
        fprintf(stderr,
                "petw: session '%s' is not a real-time session (start it with --realtime)\n", name);
        return 1;
    }
    if (rc) {
        fprintf(stderr, "petw: cannot forward session '%s': %s%s\n", name,
                rc == PETW_ENOTFOUND ? "no session of that name runs" : petw_strerror(rc),
                session_refusal(rc, 0));
        return 1;
    }
    f->session = session;
    f->base_events = st.real_time_events_lost;
    f->base_buffers = st.real_time_buffers_lost;
    return -1;
}

/* The run's first line; then what the session lost for its real-time
 * consumers before this run (while no forwarder ran, what did not fit in
 * the queue it keeps for the next one): counted by the session, said here,
 * not this run's own loss. */
static void forward_say_start(const forwarder *f, const char *name)
{
    const exporter *x = f->x;
    fprintf(stderr, "petw: forwarding session '%s' to %s (%s)\n", name, x->ch.where,
            x->ch.database);
    if (f->base_buffers)
        fprintf(stderr,
                "petw: session '%s' had lost %" PRIu64 " events (%" PRIu64
                " buffers) for its real-time consumers before this run\n",
                name, (uint64_t)f->base_events, (uint64_t)f->base_buffers);
    fflush(stderr);
}

/* How the live trace `t` reaches the server: with a spool, the session's
 * buffers themselves to it, decoded when sent; without, decoded rows whose
 * buffers the session keeps until they landed. Either way the rows'
 * identity is the session's run, and an idle session still sends what is
 * due. */
static void forward_wire(forwarder *f, petw_trace *t, const petw_logfile_info *info)
{
    exporter *x = f->x;
    if (x->spool) {
        x->spool->convert = forward_convert_etl;
        x->spool->convert_context = x;
        f->raw = petw_trace_set_raw_callback(t, forward_raw) == 0;
        if (f->raw) /* the spooled rows carry the session's run: its traces row too */
            x->trace_id = forward_session_run_id(x, info);
        forward_sender_start(f); /* or, failing, the consumer sends */
    } else if (petw_trace_set_raw_callback(t, forward_sequence) == 0) {
        /* The rows' identity is the session's too: a buffer the session
         * hands again to a forwarder started after a kill lands once. And
         * the session keeps each buffer until its rows landed: a forwarder
         * killed with rows in its batch loses none of them. */
        x->trace_id = forward_session_run_id(x, info);
        f->trace = t;
        f->defer = petw_trace_defer_acks(t) == 0;
    }
    petw_trace_set_idle_callback(t, forward_idle);
}

int cmd_forward(int argc, char **argv)
{
    static exporter x;
    common_args a;
    exporter_init(&x, &a);
    static forwarder f;
    f.x = &x;
    f.flush_ms = 1000;
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
    if ((status = forward_find_session(&x, &a, &f, name)) >= 0)
        return status;
    char host[256];
    if ((status = exporter_start(&x, &a, host, sizeof(host))))
        return status;
    int64_t started = forward_now_ms();
    x.trace_id = forward_trace_id(name, x.machine, started);
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = forward_event;
    cfg.on_buffer = forward_buffer;
    cfg.context = &f;
    petw_trace *t = NULL;
    int rc = petw_trace_open_realtime(name, &cfg, &t);
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
    forward_say_start(&f, name);
    f.last_flush_ms = started;
    atomic_store(&forwarded, t);
    catch_interrupts(forward_interrupted);
    forward_wire(&f, t, &info);
    int process_rc = petw_trace_process(&t, 1, 0, 0);
    if (f.defer && !x.failed) { /* what is left lands, then the session may forget it */
        export_flush(&x, &x.batches[CLICKHOUSE_EVENTS]);
        if (!x.failed && clickhouse_insert_wait(&x.ch))
            x.failed = 1;
        forward_acks(&f);
    }
    forward_sender_stop(&f);
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
