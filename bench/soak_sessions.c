/* SPDX-License-Identifier: MIT */
/* soak_sessions - sessions come and go while 8 writer threads never stop
 * writing: does every event a session accepted reach its consumer or its
 * loss counters, and no event reach a session it was not written to?
 *
 * The main thread runs rounds, alternating three kinds of session:
 *   file       a sequential ETL file, read back after the stop;
 *   buffering  memory only (a snapshot is taken and checked mid-round; at
 *              the stop every event counts as overwritten);
 *   real-time  no file, a consumer thread (petw_trace_open_realtime) that
 *              processes until the session stops.
 * Each round: start the session (the same name every time, so the slot is
 * reused), enable the provider, let writers run 1-8 ms, stop it (every
 * other round of a kind disables the provider just before), then check the
 * accounting.
 *
 * Which writes count. Every writer publishes, per write, `started` before
 * it and `completed` after it (with its result in a status ring), and the
 * first sequence number that saw each value of the round `phase` the main
 * thread publishes after the enable returns and before it stops:
 *   [lo, hi)       writes that may touch the session: lo = completed before
 *                  the enable, hi = started after the stop (or the disable
 *                  before it) returned;
 *   [first, end)   writes that must: begun after the enable returned
 *                  (they saw its phase), returned before the stop began
 *                  (end = completed just before the stop).
 * Checked every round, per writer:
 *   - every delivered event comes from [lo, hi), once, from a write that
 *     returned success (an event from outside the session's life is one
 *     written to another session: the slot-reuse race);
 *   - failed writes (ENOBUFS) + successful writes of [first, end) that
 *     were not delivered <= the session's losses (events_lost +
 *     events_overwritten + real_time_events_lost) <= the same + the
 *     successful writes of the margins [lo, first) and [end, hi) that were
 *     not delivered. With no margin this is: delivered + lost == written.
 *
 * usage: soak_sessions [--seconds N] (default 60) [--only file|buffering|real-time]
 *                      [--verbose]
 * prints one JSON line with the totals; exits 1 on any violation. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include <petw/petw.h>

#include "bench_common.h"

#define WRITERS 8
#define RING (1u << 20) /* writes whose result a writer keeps, per writer */
#define MAGIC 0x50534f4bu
#define MAX_REPORTS 40

static const petw_guid soak_provider = {
    0x50a450a4, 0x1111, 0x2222, {0x33, 0x33, 0, 0, 0, 0, 0, 0x50}};

typedef struct soak_payload {
    uint32_t magic, thread;
    uint64_t seq;
} soak_payload;

enum { ST_NONE, ST_OK, ST_FAILED };

typedef struct writer {
    _Atomic uint64_t started;        /* writes begun: every seq < started */
    _Atomic uint64_t completed;      /* writes returned: every seq < completed */
    _Atomic uint64_t limit;          /* a write may begin only below this seq */
    _Atomic uint64_t phase_first[8]; /* phase << 40 | first seq that saw the phase */
    _Atomic uint8_t *status;         /* ST_* of seq at [seq % RING] */
    uint32_t index;
    uv_thread_t thread;
} writer;

/* The bookkeeping between the writers and the controller is made of
 * relaxed accesses ordered by seq_cst fences. That is sound C11 (fences
 * synchronize through the relaxed accesses between them, and two seq_cst
 * fences order a store before a load, Dekker-style) and costs two fences a
 * write; and ThreadSanitizer does not model fences, so the soak adds no
 * happens-before edge of its own between a writer and the controller: a
 * data race inside petw between a writer finishing an event and a session
 * starting or stopping stays visible to it, where a join, a lock or an
 * acquire load in the harness would hide it (as the suite's tests do). */
static inline void put(_Atomic uint64_t *a, uint64_t v)
{
    atomic_thread_fence(memory_order_seq_cst);
    atomic_store_explicit(a, v, memory_order_relaxed);
}
static inline uint64_t get(_Atomic uint64_t *a)
{
    atomic_thread_fence(memory_order_seq_cst);
    uint64_t v = atomic_load_explicit(a, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    return v;
}
/* Status bytes: relaxed, ordered by the fences of put(completed) and get. */
static inline void put_status(writer *w, uint64_t seq, uint8_t st)
{
    atomic_store_explicit(&w->status[seq % RING], st, memory_order_relaxed);
}
static inline uint8_t get_status(writer *w, uint64_t seq)
{
    return atomic_load_explicit(&w->status[seq % RING], memory_order_relaxed);
}

static writer writers[WRITERS];
static _Atomic uint64_t phase; /* odd: round (phase-1)/2 enabled; even: not */
static _Atomic uint64_t stop_writers;
static petw_provider_handle provider;
static int verbose;
static uint64_t violations;

#define VIOLATION(...)                                                                             \
    do {                                                                                           \
        if (violations++ < MAX_REPORTS) {                                                          \
            fprintf(stderr, "soak_sessions: VIOLATION: " __VA_ARGS__);                             \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static void write_loop(void *arg)
{
    writer *w = arg;
    petw_event_descriptor d = {7, 0, 0, 4, 0, 0, 1};
    uint64_t seq = 0, last_phase = UINT64_MAX;
    while (!get(&stop_writers)) {
        if (seq >= get(&w->limit)) {
            uv_sleep(0); /* the main thread still checks writes this would overwrite */
            continue;
        }
        uint64_t ph = get(&phase);
        if (ph != last_phase) {
            put(&w->phase_first[ph & 7], ph << 40 | seq);
            last_phase = ph;
        }
        /* The fence after the store: it is visible before the write looks
         * at the provider's state (x86 would otherwise let that load pass it). */
        put(&w->started, seq + 1);
        atomic_thread_fence(memory_order_seq_cst);
        soak_payload p = {MAGIC, w->index, seq};
        petw_data_descriptor dd = {(uint64_t)(uintptr_t)&p, sizeof(p), 0, 0, 0};
        int rc = petw_event_write(provider, &d, NULL, NULL, 1, &dd);
        put_status(w, seq, rc == 0 ? ST_OK : ST_FAILED);
        put(&w->completed, seq + 1);
        seq++;
    }
}

/* ---- what a session delivered ---- */

typedef struct delivered {
    uint64_t *items; /* thread << 48 | seq */
    struct where {
        int64_t timestamp;
        uint32_t cpu;
    } * where; /* each item's record: for reports */
    size_t count, cap;
    uint64_t foreign; /* records of our provider that are not ours */
} delivered;

static void add(delivered *dv, const petw_event_record *r)
{
    if (!petw_guid_equal(&r->header.provider_id, &soak_provider))
        return; /* the session's header record */
    soak_payload p;
    if (r->user_data_length != sizeof(p)) {
        dv->foreign++;
        return;
    }
    memcpy(&p, r->user_data, sizeof(p));
    if (p.magic != MAGIC || p.thread >= WRITERS || p.seq >> 48) {
        dv->foreign++;
        return;
    }
    if (dv->count == dv->cap) {
        size_t cap = dv->cap ? dv->cap * 2 : 4096;
        uint64_t *g = realloc(dv->items, cap * sizeof(*g));
        struct where *wg = g ? realloc(dv->where, cap * sizeof(*wg)) : NULL;
        if (!wg) {
            fprintf(stderr, "soak_sessions: out of memory\n");
            exit(2);
        }
        dv->items = g;
        dv->where = wg;
        dv->cap = cap;
    }
    dv->where[dv->count].timestamp = r->header.timestamp;
    dv->where[dv->count].cpu = (r->header.flags & PETW_EVENT_HEADER_FLAG_PROCESSOR_INDEX)
                                   ? r->buffer_context.u.processor_index
                                   : r->buffer_context.u.p.processor_number;
    dv->items[dv->count++] = (uint64_t)p.thread << 48 | p.seq;
}

static void on_event(petw_event_record *r, void *ctx)
{
    add(ctx, r);
}

static int read_file(const char *path, delivered *dv, uint64_t *corrupt)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = dv;
    petw_trace *t;
    int rc = petw_trace_open(path, &c, &t);
    if (rc)
        return rc;
    rc = petw_trace_process(&t, 1, 0, 0);
    petw_trace_stats st;
    petw_trace_stats_get(t, &st);
    *corrupt = st.buffers_corrupt;
    petw_trace_close(t);
    return rc;
}

typedef struct consumer {
    petw_trace *trace;
    delivered dv;
    int rc;
    uv_thread_t thread;
} consumer;

static void consume_loop(void *arg)
{
    consumer *c = arg;
    c->rc = petw_trace_process(&c->trace, 1, 0, 0);
}

/* ---- the accounting ---- */

typedef struct window {
    uint64_t lo, first, end, hi;
} window;

typedef struct totals {
    uint64_t rounds[3], written, delivered, lost, margin, failed;
} totals;

static const char *const mode_names[3] = {"file", "buffering", "real-time"};

/* Checks a round's deliveries against the writers' windows. With
 * `snapshot`, only that each delivered event is legal and each thread's
 * run is contiguous; else the loss bounds too. */
static void check(uint64_t round, int mode, const window *win, const delivered *dv, uint64_t losses,
                  int snapshot, totals *tot)
{
    uint8_t *seen[WRITERS];
    uint64_t prev[WRITERS];
    size_t prev_at[WRITERS];
    for (int t = 0; t < WRITERS; t++) {
        seen[t] = calloc((size_t)(win[t].hi - win[t].lo) / 8 + 1, 1);
        prev[t] = UINT64_MAX;
        if (!seen[t]) {
            fprintf(stderr, "soak_sessions: out of memory\n");
            exit(2);
        }
    }
    const char *what = snapshot ? "snapshot" : mode_names[mode];
    if (dv->foreign)
        VIOLATION("round %" PRIu64 " (%s): %" PRIu64 " records of the provider not written here",
                  round, what, dv->foreign);
    for (size_t i = 0; i < dv->count; i++) {
        uint32_t t = (uint32_t)(dv->items[i] >> 48);
        uint64_t seq = dv->items[i] & ((1ull << 48) - 1);
        const window *w = &win[t];
        if (seq < w->lo || seq >= w->hi) {
            VIOLATION("round %" PRIu64 " (%s): writer %u's event %" PRIu64
                      " delivered, but only [%" PRIu64 ", %" PRIu64
                      ") were written while the session existed",
                      round, what, t, seq, w->lo, w->hi);
            continue;
        }
        uint64_t k = seq - w->lo;
        if (seen[t][k / 8] & (1u << (k % 8))) {
            VIOLATION("round %" PRIu64 " (%s): writer %u's event %" PRIu64 " delivered twice",
                      round, what, t, seq);
            continue;
        }
        seen[t][k / 8] |= (uint8_t)(1u << (k % 8));
        uint8_t st = get_status(&writers[t], seq);
        if (st != ST_OK)
            VIOLATION("round %" PRIu64 " (%s): writer %u's event %" PRIu64
                      " delivered, but its EventWrite %s",
                      round, what, t, seq, st == ST_FAILED ? "failed" : "never returned");
        if (snapshot && prev[t] != UINT64_MAX && seq != prev[t] + 1) {
            const struct where *a = &dv->where[prev_at[t]], *b = &dv->where[i];
            VIOLATION("round %" PRIu64 " (snapshot): writer %u's events %" PRIu64 " then %" PRIu64
                      " (a hole or a reordering): CPU %u at %" PRId64 ", then CPU %u at %" PRId64
                      " (record %zu of %zu)",
                      round, t, prev[t], seq, a->cpu, a->timestamp, b->cpu, b->timestamp, i,
                      dv->count);
        }
        prev[t] = seq;
        prev_at[t] = i;
    }
    if (!snapshot) {
        uint64_t sure_missing = 0, margin_missing = 0, failed = 0, written = 0;
        for (int t = 0; t < WRITERS; t++) {
            const window *w = &win[t];
            for (uint64_t seq = w->lo; seq < w->hi; seq++) {
                uint64_t k = seq - w->lo;
                uint8_t st = get_status(&writers[t], seq);
                int got = (seen[t][k / 8] >> (k % 8)) & 1;
                int sure = seq >= w->first && seq < w->end;
                if (st == ST_FAILED)
                    failed++;
                else if (st == ST_OK && !got && sure)
                    sure_missing++;
                else if (st == ST_OK && !got)
                    margin_missing++;
                written += sure;
            }
        }
        uint64_t low = failed + sure_missing, high = low + margin_missing;
        if (losses < low || losses > high)
            VIOLATION(
                "round %" PRIu64 " (%s): %zu delivered, %" PRIu64 " lost by the session's "
                "counters; want %" PRIu64 "..%" PRIu64 " (%" PRIu64 " EventWrite failures, %" PRIu64
                " accepted while surely enabled but missing, %" PRIu64
                " accepted at the edges and missing)",
                round, what, dv->count, losses, low, high, failed, sure_missing, margin_missing);
        tot->written += written;
        tot->delivered += dv->count;
        tot->lost += losses;
        tot->margin += margin_missing;
        tot->failed += failed;
        if (verbose)
            printf("round %" PRIu64 " %-9s delivered %zu lost %" PRIu64 " (failures %" PRIu64
                   ", missing %" PRIu64 "+%" PRIu64 ")\n",
                   round, what, dv->count, losses, failed, sure_missing, margin_missing);
    }
    for (int t = 0; t < WRITERS; t++)
        free(seen[t]);
}

int main(int argc, char **argv)
{
    double seconds = atof(bench_arg(argc, argv, "--seconds", "60"));
    verbose = bench_flag(argc, argv, "--verbose");
    const char *only = bench_arg(argc, argv, "--only", NULL);
    int only_mode = -1;
    for (int m = 0; m < 3 && only; m++)
        if (!strcmp(only, mode_names[m]))
            only_mode = m;
    if (only && only_mode < 0) {
        fprintf(stderr, "soak_sessions: --only file|buffering|real-time\n");
        return 2;
    }
    char tmp[512], path[600], snap[600];
    size_t tmp_len = sizeof(tmp);
    if (uv_os_tmpdir(tmp, &tmp_len) != 0)
        snprintf(tmp, sizeof(tmp), ".");
    snprintf(path, sizeof(path), "%s/petw-soak-%d.etl", tmp, (int)uv_os_getpid());
    snprintf(snap, sizeof(snap), "%s/petw-soak-%d-snapshot.etl", tmp, (int)uv_os_getpid());
    if (petw_provider_register(&soak_provider, NULL, NULL, &provider) != 0) {
        fprintf(stderr, "soak_sessions: cannot register the provider\n");
        return 2;
    }
    for (uint32_t t = 0; t < WRITERS; t++) {
        writer *w = &writers[t];
        w->index = t;
        w->status = calloc(RING, 1);
        atomic_init(&w->limit, RING);
        if (!w->status || uv_thread_create(&w->thread, write_loop, w) != 0) {
            fprintf(stderr, "soak_sessions: cannot start the writers\n");
            return 2;
        }
    }

    totals tot;
    memset(&tot, 0, sizeof(tot));
    uint64_t t0 = uv_hrtime(), round = 0, start_failures = 0;
    uint32_t rng = 12345;
    while ((double)(uv_hrtime() - t0) < seconds * 1e9) {
        int mode = only_mode >= 0 ? only_mode : (int)(round % 3);
        window win[WRITERS];
        /* Nothing before `completed` can touch the session; release the
         * writers' status ring from there on. */
        for (int t = 0; t < WRITERS; t++) {
            win[t].lo = get(&writers[t].completed);
            put(&writers[t].limit, win[t].lo + RING);
        }
        rng = rng * 1103515245u + 12345u;
        petw_session_config c;
        petw_session_config_init(&c);
        c.name = "petw-soak-sessions";
        c.buffer_size_kb = 4u << (rng >> 16) % 2; /* 4 or 8 KB */
        c.minimum_buffers = 4 + (rng >> 20) % 8;
        c.maximum_buffers = c.minimum_buffers + (rng >> 24) % 8;
        c.flush_timer_ms = 1 + (rng >> 12) % 5;
        if (mode == 0)
            c.file_path = path;
        else if (mode == 1)
            c.log_file_mode = PETW_MODE_BUFFERING;
        else
            c.log_file_mode = PETW_MODE_REAL_TIME, c.real_time_buffers = 2 + (rng >> 8) % 6;
        petw_session_handle s;
        int rc = petw_session_start(&c, &s);
        if (rc != 0) {
            fprintf(stderr, "soak_sessions: round %" PRIu64 ": petw_session_start: %d\n", round,
                    rc);
            if (++start_failures > 10)
                break;
            continue;
        }
        consumer cons;
        memset(&cons, 0, sizeof(cons));
        if (mode == 2) {
            petw_trace_config tc;
            petw_trace_config_init(&tc);
            tc.on_event = on_event;
            tc.context = &cons.dv;
            rc = petw_trace_open_realtime(c.name, &tc, &cons.trace);
            if (rc != 0 || uv_thread_create(&cons.thread, consume_loop, &cons) != 0) {
                VIOLATION("round %" PRIu64 ": cannot start the real-time consumer (%d)", round, rc);
                petw_session_stop(s, NULL);
                break;
            }
        }
        /* Writes that returned before the enable began cannot be in it. */
        for (int t = 0; t < WRITERS; t++)
            win[t].lo = get(&writers[t].completed);
        if ((rc = petw_session_enable_provider(s, &soak_provider, 0, 0, 0)) != 0) {
            VIOLATION("round %" PRIu64 ": petw_session_enable_provider: %d", round, rc);
            petw_session_stop(s, NULL);
            break;
        }
        uint64_t enabled = 2 * round + 1;
        put(&phase, enabled);
        uv_sleep(1 + (rng >> 4) % 8);
        delivered snapshot;
        memset(&snapshot, 0, sizeof(snapshot));
        uint64_t snap_hi[WRITERS], corrupt = 0;
        if (mode == 1) {
            rc = petw_session_snapshot(s, snap);
            for (int t = 0; t < WRITERS; t++)
                snap_hi[t] = get(&writers[t].started);
            if (rc != 0)
                VIOLATION("round %" PRIu64 ": petw_session_snapshot: %d", round, rc);
            else if ((rc = read_file(snap, &snapshot, &corrupt)) != 0 || corrupt)
                VIOLATION("round %" PRIu64 ": the snapshot reads back with %d, %" PRIu64
                          " corrupt buffers",
                          round, rc, corrupt);
        }
        put(&phase, enabled + 1);
        for (int t = 0; t < WRITERS; t++)
            win[t].end = get(&writers[t].completed);
        /* Every other round of each kind disables the provider first: writes
         * begun after that returned cannot be in the session, which narrows
         * the margin. The others stop with writes in flight. */
        int disable_first = (round / 3) % 2;
        if (disable_first) {
            if ((rc = petw_session_disable_provider(s, &soak_provider)) != 0)
                VIOLATION("round %" PRIu64 ": petw_session_disable_provider: %d", round, rc);
            for (int t = 0; t < WRITERS; t++)
                win[t].hi = get(&writers[t].started);
        }
        petw_session_stats st;
        rc = petw_session_stop(s, &st);
        if (rc != 0)
            VIOLATION("round %" PRIu64 " (%s): petw_session_stop: %d", round, mode_names[mode], rc);
        for (int t = 0; t < WRITERS; t++) {
            writer *w = &writers[t];
            if (!disable_first)
                win[t].hi = get(&w->started);
            /* The write in flight returns soon: its status is then final. */
            while (get(&w->completed) < win[t].hi)
                uv_sleep(0);
            uint64_t f = get(&w->phase_first[enabled & 7]);
            win[t].first = (f >> 40) == enabled ? f & ((1ull << 40) - 1) : win[t].end;
            if (win[t].first < win[t].lo)
                win[t].first = win[t].lo;
            if (win[t].first > win[t].end)
                win[t].first = win[t].end;
        }
        delivered dv;
        memset(&dv, 0, sizeof(dv));
        if (mode == 0) {
            if ((rc = read_file(path, &dv, &corrupt)) != 0 || corrupt)
                VIOLATION("round %" PRIu64 " (file): reads back with %d, %" PRIu64
                          " corrupt buffers",
                          round, rc, corrupt);
        } else if (mode == 2) {
            uv_thread_join(&cons.thread);
            if (cons.rc != 0)
                VIOLATION("round %" PRIu64 " (real-time): petw_trace_process: %d", round, cons.rc);
            petw_trace_close(cons.trace);
            dv = cons.dv;
        }
        if (mode == 1) {
            window sw[WRITERS];
            for (int t = 0; t < WRITERS; t++)
                sw[t] = win[t], sw[t].hi = snap_hi[t];
            check(round, mode, sw, &snapshot, 0, 1, &tot);
        }
        uint64_t losses =
            (uint64_t)st.events_lost + st.events_overwritten + st.real_time_events_lost;
        check(round, mode, win, &dv, losses, 0, &tot);
        free(dv.items);
        free(dv.where);
        free(snapshot.items);
        free(snapshot.where);
        tot.rounds[mode]++;
        round++;
    }
    put(&stop_writers, 1);
    for (int t = 0; t < WRITERS; t++) {
        put(&writers[t].limit, UINT64_MAX);
        uv_thread_join(&writers[t].thread);
        free(writers[t].status);
    }
    petw_provider_unregister(provider);
    remove(path);
    remove(snap);
    printf("{\"benchmark\":\"soak_sessions\",\"seconds\":%.1f,\"rounds\":%" PRIu64
           ",\"file_rounds\":%" PRIu64 ",\"buffering_rounds\":%" PRIu64
           ",\"realtime_rounds\":%" PRIu64 ",\"written_while_enabled\":%" PRIu64
           ",\"delivered\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"write_failures\":%" PRIu64
           ",\"edge_writes_missing\":%" PRIu64 ",\"violations\":%" PRIu64 "}\n",
           (double)(uv_hrtime() - t0) / 1e9, round, tot.rounds[0], tot.rounds[1], tot.rounds[2],
           tot.written, tot.delivered, tot.lost, tot.failed, tot.margin, violations);
    return violations || start_failures > 10 ? 1 : 0;
}
