/* SPDX-License-Identifier: MIT */
/* host.c - a session host: the process that owns one shared session.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/,
 * session/, consume/, registry/, agent/.
 *
 * StartTrace starts it (client.c); it runs the in-process engine
 * (session/) for its one session and lives until the session stops, so
 * the session outlives its controller. Everything else reaches it through
 * its socket: providers (HELLO: it makes them a shared pool), controllers
 * (CONTROL: query, flush, update, enable, stop) and real-time consumers
 * (CONSUME: it streams buffers to them).
 *
 * Buffers move one way: a provider's writers fill its shared pool; the
 * host takes completed buffers off the pool's ready stack, copies them into
 * its session's own ring (petw__ring_import) and gives them back zeroed.
 * The flusher then writes them as if they had been written here. The host
 * never trusts a pool: indexes are checked against its own geometry and
 * records are only copied, never followed, except by the bounds-checked
 * walk over a dead writer's buffers (petw__etl_salvage_records).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/common/bufqueue.h"
#include "../../base/format/etl.h"
#include "../../write/ring/ring.h"
#include "../../write/session/session_internal.h"
#include "../../base/registry/registry.h"
#include "host_internal.h"
#include "host_state.h"

/* ---- connections ---- */

static void on_hello(host *h, intptr_t sock, uint32_t pid)
{
    petw__msg_hello hello;
    petw__msg_pool m;
    memset(&m, 0, sizeof(m));
    remote *r = NULL;
    if (petw__ipc_recv(sock, &hello, sizeof(hello), NULL, NULL, HELLO_TIMEOUT_MS) != 0) {
        petw__handle_close(sock);
        return;
    }
    for (uint32_t i = 0; i < MAX_REMOTES && !r; i++)
        if (!h->remotes[i].used)
            r = &h->remotes[i];
    uint32_t cpus = petw__cpu_count();
    m.status = h->stopping ? PETW_ENOTFOUND : r ? 0 : PETW_ELIMIT;
    if (m.status == 0 && (hello.cpu_count == 0 || hello.cpu_count > 4096))
        m.status = PETW_EINVAL;
    if (m.status == 0 && hello.cpu_count > cpus)
        cpus = hello.cpu_count;
    if (m.status == 0)
        m.status = petw__pool_plan(h->buffer_size, h->pool_buffers, h->pool_buffers, cpus, &r->g);
    if (m.status == 0)
        m.status = petw__shm_create((size_t)r->g.commit_bytes, &r->shm);
    if (m.status == 0) {
        petw__pool_format(r->shm.addr, &r->g);
        r->pending = calloc(r->g.buffer_count, sizeof(uint32_t));
        r->is_pending = calloc(r->g.buffer_count, 1);
        r->want = calloc(r->g.buffer_count, sizeof(uint32_t));
        m.status =
            r->pending && r->is_pending && r->want ? petw__wake_create(&r->wake) : PETW_ENOMEM;
        if (m.status) {
            free(r->pending);
            free(r->is_pending);
            free(r->want);
            petw__shm_close(&r->shm);
        }
    }
    if (m.status == 0) {
        m.session_gen = h->gen;
        m.buffer_size = h->buffer_size;
        m.buffer_count = h->pool_buffers;
        m.cpu_count = cpus;
        m.clock = h->clock;
        m.policy = h->policy;
        m.block_timeout_ms = h->block_timeout_ms;
        m.bytes = r->g.commit_bytes;
        intptr_t handles[2] = {r->shm.fd, r->wake};
        if (petw__msg_send(sock, PETW__MSG_POOL, &m, sizeof(m), handles, 2, HELLO_TIMEOUT_MS) ==
            0) {
            r->used = 1;
            r->sock = sock;
            r->pid = pid;
            return;
        }
        free(r->pending);
        free(r->is_pending);
        free(r->want);
        petw__shm_close(&r->shm);
        petw__handle_close(r->wake);
        memset(r, 0, sizeof(*r));
    } else {
        petw__msg_send(sock, PETW__MSG_POOL, &m, sizeof(m), NULL, 0, HELLO_TIMEOUT_MS);
    }
    petw__handle_close(sock);
}

typedef struct consumer {
    host *h;
    intptr_t sock;
    petw__bufqueue *q;
    uint32_t size;
} consumer;

/* Takes the acks the consumer sent (PETW__MSG_RT_ACK): the buffers it
 * kept leave its queue (*inflight, those sent and not acked, goes down).
 * 0, or an error once the consumer is gone, said it closed its trace
 * (PETW__MSG_RT_BYE: it waits for this side to close, which comes once
 * the queue is parked for its next consumer), or sent something else. */
static int take_acks(consumer *c, uint32_t *inflight)
{
    for (;;) {
        petw__msg_header hd;
        int rc = petw__msg_recv_header(c->sock, &hd, sizeof(uint32_t), NULL, NULL, 0);
        if (rc == PETW_ETIMEDOUT)
            return 0;
        if (rc == 0 && hd.type == PETW__MSG_RT_BYE && hd.size == 0)
            return PETW_EPIPE;
        if (rc == 0 && (hd.type != PETW__MSG_RT_ACK || hd.size != sizeof(uint32_t)))
            rc = PETW_ECORRUPT;
        uint32_t n = 0;
        if (rc == 0)
            rc = petw__ipc_recv(c->sock, &n, sizeof(n), NULL, NULL, 1000);
        if (rc)
            return rc;
        petw__bufqueue_ack(c->q, n);
        *inflight -= n < *inflight ? n : *inflight;
    }
}

/* The consumer went away before the session stopped: what it was sent
 * and did not ack is rewound, and the queue, still fed by the flusher,
 * waits for the next consumer (which gets those buffers first). While
 * nobody consumes, it fills up to its slots; the flusher counts what it
 * refuses then (RealTimeBuffersLost), as for a consumer too slow. One
 * queue is parked at a time: an earlier one is ended, what it held is
 * counted lost, and so is every further buffer (the flusher's push to it
 * fails). */
static void park(consumer *c)
{
    petw__bufqueue_rewind(c->q);
    /* acq_rel: releases the queue to the consumer that takes it (its
     * acquire exchange in on_consume), acquires one parked earlier. */
    petw__bufqueue *old = atomic_exchange_explicit(&c->h->parked, c->q, memory_order_acq_rel);
    if (old) {
        petw__bufqueue_end(old);
        uint32_t held = petw__bufqueue_count(old); /* they reach nobody */
        if (held)
            petw__session_count_realtime_lost(c->h->session, held);
        petw__bufqueue_unref(old);
    }
}

/* A real-time consumer in another process: its own queue on the flusher,
 * streamed by a thread of its own (a slow consumer loses its own buffers,
 * counted as ETW counts them, and never holds up the host). Each buffer
 * stays queued until the consumer acks it (after its callback returned):
 * a consumer killed and started again loses nothing in between. */
static void consumer_main(void *arg)
{
    consumer *c = arg;
    uint8_t *buf = malloc(c->size);
    int rc = buf ? 0 : PETW_ENOMEM;
    int ended = 0;
    uint32_t inflight = 0;
    while (rc == 0) {
        /* Buffers not acked fill the queue: their acks are taken within
         * 2 ms, so that a queue of few slots still streams. */
        int n = petw__bufqueue_pop_keep(c->q, buf, inflight ? 2 : 200);
        if (n < 0) {
            ended = 1;
            break;
        }
        if (n > 0) {
            rc = petw__msg_send(c->sock, PETW__MSG_RT_BUFFER, buf, (uint32_t)n, NULL, 0, -1);
            inflight++;
        }
        if (rc == 0)
            rc = take_acks(c, &inflight);
    }
    if (rc == 0)
        petw__msg_send(c->sock, PETW__MSG_RT_END, NULL, 0, NULL, 0, 1000);
    if (!ended && !petw__bufqueue_ended(c->q)) {
        park(c); /* the parked queue keeps this thread's reference */
    } else {
        petw__bufqueue_end(c->q);
        petw__bufqueue_unref(c->q);
    }
    petw__handle_close(c->sock);
    host *h = c->h;
    free(buf);
    free(c);
    /* release: this thread's last frame and its close come before the
     * host's exit (wait_consumers' acquire load); nothing here touches
     * the host after it. Every decrement wakes: the waiter sleeps on the
     * count it saw, whatever it was. */
    atomic_fetch_sub_explicit(&h->consumers, 1, memory_order_release);
    petw__futex_wake_all((const uint32_t *)&h->consumers);
}

/* The session has stopped: its flusher ended every consumer's queue, so
 * each consumer thread is sending what its queue still holds, then RT_END.
 * The process must not exit before they are done: exit() ends detached
 * threads wherever they are, and a consumer would see its connection close
 * with buffers unsent and no RT_END (a short stop lost the whole stream
 * that way, since the last flush fills the queues only now). Bounded: a
 * consumer process that stopped reading holds its thread in a send for
 * ever; it gets the hang-up. */
static void wait_consumers(host *h)
{
    int64_t deadline = petw__clock_reference() + (int64_t)CONSUMER_WAIT_MS * 1000000;
    for (;;) {
        /* acquire: pairs with consumer_main's release decrement. */
        uint32_t n = atomic_load_explicit(&h->consumers, memory_order_acquire);
        int64_t left = deadline - petw__clock_reference();
        if (n == 0 || left <= 0)
            return;
        petw__futex_wait((const uint32_t *)&h->consumers, n, (int)(left / 1000000) + 1);
    }
}

static void on_consume(host *h, intptr_t sock)
{
    uint8_t *header = NULL;
    uint32_t size = 0, slots = 0;
    consumer *c = calloc(1, sizeof(*c));
    int rc = c ? petw__session_realtime_header(h->session, &header, &size, &slots) : PETW_ENOMEM;
    /* acquire: takes a queue parked by a consumer that went (park's
     * release), already on the flusher and holding what it did not ack. */
    petw__bufqueue *parked =
        rc == 0 ? atomic_exchange_explicit(&h->parked, NULL, memory_order_acquire) : NULL;
    if (rc == 0) {
        c->q = parked ? parked : petw__bufqueue_new(slots + PETW__RT_CONSUMER_BUFFERS, size);
        rc = c->q ? 0 : PETW_ENOMEM;
    }
    if (rc == 0)
        rc = petw__msg_send(sock, PETW__MSG_RT_HEADER, header, size, NULL, 0, HELLO_TIMEOUT_MS);
    if (rc == 0 && !parked)
        rc = petw__session_add_consumer(h->session, c->q);
    if (rc == 0) {
        c->h = h;
        c->sock = sock;
        c->size = size;
        /* relaxed: the thread's start orders this before its decrement,
         * and only this thread reads the count otherwise. Counted first,
         * so the count never goes below what runs. */
        atomic_fetch_add_explicit(&h->consumers, 1, memory_order_relaxed);
        rc = petw__thread_start_detached(consumer_main, c);
        if (rc) {
            atomic_fetch_sub_explicit(&h->consumers, 1, memory_order_relaxed);
            if (!parked)
                petw__bufqueue_end(c->q);
        }
    }
    if (rc) {
        petw__msg_reply reply;
        memset(&reply, 0, sizeof(reply));
        reply.status = rc;
        petw__msg_send(sock, PETW__MSG_REPLY, &reply, sizeof(reply), NULL, 0, 1000);
        petw__handle_close(sock);
        if (parked) {
            c->h = h;
            park(c); /* for the next consumer */
        } else if (c && c->q) {
            petw__bufqueue_unref(c->q);
        }
        free(c);
    }
    free(header);
}

/* Stops the session: providers detach (the registry says so), their pools
 * are drained, then the engine finishes the file. */
static void stop_session(host *h, petw_session_stats *st, int *status)
{
    h->stopping = 1;
    petw__reg_stopping(h->reg, h->reg_fd, h->slot);
    int64_t deadline = petw__clock_reference() + (int64_t)STOP_WAIT_MS * 1000000;
    for (;;) {
        intptr_t fds[MAX_REMOTES];
        uint32_t idx[MAX_REMOTES], n = 0;
        uint8_t ready[MAX_REMOTES];
        for (uint32_t i = 0; i < MAX_REMOTES; i++)
            if (h->remotes[i].used) {
                idx[n] = i;
                fds[n++] = h->remotes[i].sock;
            }
        if (n == 0 || petw__clock_reference() > deadline)
            break;
        petw__host_harvest_all(h);
        if (petw__ipc_poll(fds, n, ready, 20) <= 0)
            continue;
        for (uint32_t k = 0; k < n; k++)
            if (ready[k])
                petw__host_drain_gone(h, &h->remotes[idx[k]]); /* DETACHED, or gone */
    }
    for (uint32_t i = 0; i < MAX_REMOTES; i++)
        if (h->remotes[i].used)
            petw__host_drain_gone(h, &h->remotes[i]); /* unresponsive: what is there */
    *status = petw__session_stop(h->session, st);
    /* acquire: pairs with park's release. A queue parked since its
     * consumer went, taken by none: what it holds reaches nobody, lost
     * for real time like a buffer no queue could take. */
    petw__bufqueue *q = atomic_exchange_explicit(&h->parked, NULL, memory_order_acquire);
    if (q) {
        if (*status == 0)
            st->real_time_buffers_lost += petw__bufqueue_count(q);
        petw__bufqueue_end(q);
        petw__bufqueue_unref(q);
    }
}

static uint32_t pool_buffers(uint32_t buffer_size, uint32_t maximum_buffers);

/* Carries out a controller's request on this host's session (the reply's
 * status and figures); 1 when it stopped the session. */
static int run_control(host *h, petw__msg_control *m, petw__msg_reply *reply)
{
    switch (m->op) {
    case PETW__OP_QUERY:
        petw__host_harvest_all(h);
        reply->status = petw__session_query(h->session, &reply->stats);
        break;
    case PETW__OP_FLUSH:
        petw__host_flush_remotes(h);
        reply->status = petw__session_flush(h->session, &reply->stats);
        break;
    case PETW__OP_UPDATE:
        reply->status = petw__session_update(h->session, m->value1, m->value2);
        if (reply->status == 0 && m->value1)
            h->flush_timer_ms = m->value1;
        if (reply->status == 0)
            reply->status = petw__session_query(h->session, &reply->stats);
        /* Processes that attach from now on get pools of the new size;
         * those attached keep theirs (a sealed pool does not grow). */
        if (reply->status == 0 && m->value2)
            h->pool_buffers = pool_buffers(h->buffer_size, reply->stats.maximum_buffers);
        break;
    case PETW__OP_SET_FLAGS:
        reply->status = petw__session_set_enable_flags(h->session, m->value1);
        break;
    case PETW__OP_SET_STACKS:
        reply->status = petw__session_set_system(h->session, NULL, &m->value1, NULL);
        break;
    case PETW__OP_SET_INTERVAL:
        reply->status = petw__session_set_system(h->session, NULL, NULL, &m->value1);
        break;
    case PETW__OP_SET_GROUPS:
        reply->status = petw__session_set_system_groups(h->session, m->value1);
        break;
    case PETW__OP_ENABLE:
        reply->status = petw__reg_enable(h->reg, h->reg_fd, h->slot, m->guid, (uint8_t)m->level,
                                         m->match_any, m->match_all, &m->filter);
        break;
    case PETW__OP_DISABLE:
        reply->status = petw__reg_disable(h->reg, h->reg_fd, h->slot, m->guid);
        break;
    case PETW__OP_SNAPSHOT: {
        /* Every event at or before `upto` was reserved before the flush
         * below noted the undelivered buffers (a writer reads its
         * timestamp after reserving), so it is imported; later ones may
         * be in buffers opened after the close and not imported, and
         * would leave a hole. */
        int64_t upto = petw__clock_read(h->ring->clock);
        petw__host_flush_remotes(h);
        reply->status = petw__session_snapshot_upto(h->session, m->path, upto);
        break;
    }
    case PETW__OP_SWITCH_FILE:
        petw__host_flush_remotes(h);
        reply->status = petw__session_switch_file(h->session, m->path);
        if (reply->status == 0)
            reply->status = petw__session_query(h->session, &reply->stats);
        break;
    case PETW__OP_CAPTURE:
        /* Every provider process follows the registry's change. */
        reply->status = petw__reg_capture(h->reg, h->reg_fd, h->slot, m->guid);
        break;
    case PETW__OP_STOP:
        stop_session(h, &reply->stats, &reply->status);
        /* The name is free before the controller hears the stop, so it
         * can start the same session again at once. */
        petw__ipc_unlisten(h->listener, h->sock_path);
        h->listener = -1;
        petw__reg_release(h->reg, h->reg_fd, h->slot);
        return 1;
    }
    return 0;
}

static int on_control(host *h, intptr_t sock)
{
    petw__msg_control m;
    petw__msg_reply reply;
    memset(&reply, 0, sizeof(reply));
    int rc = petw__ipc_recv(sock, &m, sizeof(m), NULL, NULL, HELLO_TIMEOUT_MS);
    if (rc == 0)
        rc = petw__msg_check_control(&m);
    if (rc) {
        petw__handle_close(sock);
        return 0;
    }
    int stop = 0;
    if (m.session_gen != h->gen)
        reply.status = PETW_ENOTFOUND;
    else
        stop = run_control(h, &m, &reply);
    reply.slot = h->slot;
    reply.gen = h->gen;
    reply.host_pid = petw__process_id();
    petw__msg_send(sock, PETW__MSG_REPLY, &reply, sizeof(reply), NULL, 0, HELLO_TIMEOUT_MS);
    petw__handle_close(sock);
    return stop;
}

/* A new connection: its first frame says who it is. */
static int on_connection(host *h, intptr_t sock, uint32_t pid)
{
    petw__msg_header hd;
    if (petw__msg_recv_header(sock, &hd, sizeof(petw__msg_control), NULL, NULL, HELLO_TIMEOUT_MS) !=
        0) {
        petw__handle_close(sock);
        return 0;
    }
    if (hd.type == PETW__MSG_HELLO && hd.size == sizeof(petw__msg_hello))
        on_hello(h, sock, pid);
    else if (hd.type == PETW__MSG_CONTROL && hd.size == sizeof(petw__msg_control))
        return on_control(h, sock);
    else if (hd.type == PETW__MSG_CONSUME && hd.size == 0)
        on_consume(h, sock);
    else
        petw__handle_close(sock);
    return 0;
}

static void run(host *h)
{
    intptr_t fds[1 + 2 * MAX_REMOTES];
    uint8_t ready[1 + 2 * MAX_REMOTES];
    uint32_t who[1 + 2 * MAX_REMOTES];
    int64_t next_flush = petw__clock_reference() + (int64_t)h->flush_timer_ms * 1000000;
    for (;;) {
        uint32_t n = 0;
        fds[n++] = h->listener;
        for (uint32_t i = 0; i < MAX_REMOTES; i++) {
            if (!h->remotes[i].used)
                continue;
            who[n] = i;
            fds[n++] = h->remotes[i].wake;
            who[n] = i;
            fds[n++] = h->remotes[i].sock;
        }
        int64_t now = petw__clock_reference();
        int timeout = now >= next_flush ? 0 : (int)((next_flush - now) / 1000000) + 1;
        int got = petw__ipc_poll(fds, n, ready, timeout);
        /* Every waiting connection, at most 64 a pass. A refused one (another
         * uid) or one its peer already abandoned is skipped: `sock` is only
         * valid when the accept succeeded. */
        for (int i = 0; got > 0 && ready[0] && i < 64; i++) {
            intptr_t sock = -1;
            uint32_t pid = 0;
            int rc = petw__ipc_accept(h->listener, &sock, &pid);
            if (rc == PETW_EBUSY || rc == PETW_EBADHANDLE)
                break;
            if (rc == 0 && on_connection(h, sock, pid))
                return; /* stopped */
        }
        for (uint32_t k = 1; got > 0 && k < n; k++) {
            if (!ready[k] || !h->remotes[who[k]].used)
                continue;
            remote *r = &h->remotes[who[k]];
            if (fds[k] == r->wake) {
                petw__wake_drain(r->wake);
                petw__host_harvest(h, r);
            } else {
                petw__host_drain_gone(h, r); /* DETACHED or gone: nothing else comes */
            }
        }
        if (petw__clock_reference() >= next_flush) {
            for (uint32_t i = 0; i < MAX_REMOTES; i++)
                if (h->remotes[i].used)
                    petw__host_close_remote(h, &h->remotes[i]);
            petw__host_harvest_all(h);
            next_flush = petw__clock_reference() + (int64_t)h->flush_timer_ms * 1000000;
        }
    }
}

/* The buffers of each provider process's pool: the session's
 * MaximumBuffers, as ETW gives a session that many wherever its events
 * come from, so a burst that fits them is kept while the host catches up
 * (and a buffering session recycles its oldest among all of them). Within
 * POOL_BYTES_MAX per process: a pool's memory is allocated whole
 * when the process attaches. */
static uint32_t pool_buffers(uint32_t buffer_size, uint32_t maximum_buffers)
{
    uint64_t fit = POOL_BYTES_MAX / buffer_size;
    uint32_t n = maximum_buffers < fit ? maximum_buffers : (uint32_t)fit;
    uint32_t floor = 2 * petw__cpu_count() + 2; /* a buffer per CPU to recycle, and spares */
    if (n < floor)
        n = floor < maximum_buffers ? floor : maximum_buffers;
    return n < 2 ? 2 : n;
}

static void config_from(const petw__msg_start *m, petw_session_config *c)
{
    petw_session_config_init(c);
    c->name = m->name;
    c->file_path = m->file_path[0] ? m->file_path : NULL;
    c->buffer_size_kb = m->buffer_size_kb;
    c->minimum_buffers = m->minimum_buffers;
    c->maximum_buffers = m->maximum_buffers;
    c->flush_timer_ms = m->flush_timer_ms;
    c->log_file_mode = m->log_file_mode;
    c->maximum_file_size_kb = m->maximum_file_size_kb;
    c->clock = m->clock;
    c->flags = m->flags;
    c->zstd_level = m->zstd_level;
    c->loss_policy = m->loss_policy;
    c->block_timeout_ms = m->block_timeout_ms;
    c->real_time_buffers = m->real_time_buffers;
    c->system_flags = m->system_flags;
    c->system_stack_flags = m->system_stack_flags;
    c->profile_interval_100ns = m->profile_interval_100ns;
    c->system_target_pid = m->system_target_pid;
}

int petw__host_main(intptr_t ctl)
{
    static host h;
    static petw__msg_start m;
    petw__msg_reply reply;
    memset(&reply, 0, sizeof(reply));
    /* Started as this program again (Linux: through /proc/self/exe, so
     * "exe"): the process lists say what it is. */
    petw__process_set_name("petw-host");
    h.listener = -1;
    int rc = petw__msg_recv_fixed(ctl, PETW__MSG_START, &m, sizeof(m), NULL, NULL, 10000);
    if (rc == 0)
        rc = petw__msg_check_start(&m);
    if (rc)
        return 1; /* the controller sees the socket close: PETW_ENOHOST */
    petw_session_config c;
    config_from(&m, &c);
    /* Buffering keeps the newest in the session's pool; providers deliver
     * into it as into any other. */
    rc = petw__reg_open(1, &h.reg, &h.reg_fd);
    if (rc == 0)
        rc = petw__reg_claim(h.reg, h.reg_fd, m.name, petw__process_id(), m.log_file_mode, &h.slot,
                             &h.gen);
    int claimed = rc == 0;
    if (rc == 0)
        rc = petw__xproc_socket_path(h.slot, h.sock_path, sizeof(h.sock_path));
    if (rc == 0)
        rc = petw__ipc_listen(h.sock_path, &h.listener);
    if (rc == 0)
        rc = petw__session_start(&c, &h.session);
    if (rc == 0) {
        petw_session_stats st;
        petw__session_query(h.session, &st);
        h.ring = petw__session_ring(h.session);
        h.flush_timer_ms = st.flush_timer_ms ? st.flush_timer_ms : 1000;
        h.buffer_size = st.buffer_size_kb * 1024;
        h.clock = st.clock;
        /* Providers lose, wait or overwrite as the session would. */
        h.policy = (st.log_file_mode & PETW_MODE_BUFFERING) ? PETW_LOSS_OVERWRITE_OLDEST
                   : m.loss_policy == PETW_LOSS_BLOCK       ? PETW_LOSS_BLOCK
                                                            : PETW_LOSS_DROP_NEWEST;
        h.block_timeout_ms = m.block_timeout_ms ? m.block_timeout_ms : 1000;
        h.pool_buffers = pool_buffers(h.buffer_size, st.maximum_buffers);
        h.scratch = malloc(h.buffer_size > 4 * h.pool_buffers ? h.buffer_size : 4 * h.pool_buffers);
        rc = h.scratch ? 0 : PETW_ENOMEM;
        reply.stats = st;
    }
    reply.status = rc;
    reply.slot = h.slot;
    reply.gen = h.gen;
    reply.host_pid = petw__process_id();
    if (rc && h.listener >= 0)
        petw__ipc_unlisten(h.listener, h.sock_path);
    if (rc && claimed)
        petw__reg_release(h.reg, h.reg_fd, h.slot);
    int sent = petw__msg_send(ctl, PETW__MSG_STARTED, &reply, sizeof(reply), NULL, 0, 5000);
    petw__handle_close(ctl);
    if (rc || sent) {
        if (rc == 0)
            petw__session_stop(h.session, NULL);
        return 1;
    }
    run(&h); /* returns once stopped: the slot is released */
    wait_consumers(&h);
    return 0;
}
