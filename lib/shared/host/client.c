/* SPDX-License-Identifier: MIT */
/* client.c - sessions in session hosts (petw__host_*, which the
 * controller's host transport calls): starting session hosts and talking to
 * them; and petw/shared.h.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/,
 * session/, consume/, registry/, agent/.
 *
 * Each call is one connection to the host's socket: a CONTROL frame, a
 * REPLY frame. A host is found through the registry by name or by handle
 * (slot and the slot's generation, so a stale handle never reaches the
 * next session in the slot).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../base/common/bufqueue.h"
#include "../../read/consume/consume_internal.h"
#include "../../base/format/etl.h"
#include "../../write/provider/provider_internal.h"
#include "../../base/registry/registry.h"
#include "host_internal.h"
#include "petw/shared.h"

#define START_TIMEOUT_MS 15000
#define CONTROL_TIMEOUT_MS 60000 /* a stop writes every buffer */

#if defined(__GNUC__)
/* A session host is this program started again with PETW__HOST_FD set (the
 * value its copy of the controller's connection has there): it becomes the
 * host before main() runs, and never returns to it. */
__attribute__((constructor)) static void host_entry(void)
{
    const char *v = getenv("PETW__HOST_FD");
    if (!v || !v[0])
        return;
    char *end;
    long long value = strtoll(v, &end, 10);
    intptr_t ctl;
    if (*end || petw__handle_adopt((intptr_t)value, &ctl) != 0)
        return;
    exit(petw__host_main(ctl));
}
#endif

static petw_session_handle make_handle(uint32_t slot, uint32_t gen)
{
    return ((uint64_t)gen << 32) | PETW_SHARED_HANDLE_BIT | (slot + 1u);
}

static int handle_parts(petw_session_handle h, uint32_t *slot, uint32_t *gen)
{
    uint32_t low = (uint32_t)h;
    if (!(low & PETW_SHARED_HANDLE_BIT))
        return PETW_ENOTFOUND;
    *slot = (low & ~PETW_SHARED_HANDLE_BIT) - 1u;
    *gen = (uint32_t)(h >> 32);
    return *slot < PETW_MAX_SESSIONS && *gen ? 0 : PETW_ENOTFOUND;
}

/* Sends `m` to the session's host and returns its status, or why there
 * is none. *answered (may be NULL) becomes 1 when the host replied (the
 * reply's stats hold whatever its status). */
static int exchange(petw_session_handle h, petw__msg_control *m, petw__msg_reply *reply,
                    int *answered)
{
    if (answered)
        *answered = 0;
    uint32_t slot, gen;
    PETW__FORWARD_IF_ERROR(handle_parts(h, &slot, &gen));
    char path[PETW_MAX_NAME + 32];
    intptr_t sock;
    uint32_t pid;
    PETW__FORWARD_IF_ERROR(petw__xproc_socket_path(slot, path, sizeof(path)));
    int rc = petw__ipc_connect(path, &sock, &pid);
    if (rc)
        return rc == PETW_EACCES ? rc : PETW_ENOTFOUND;
    m->session_gen = gen;
    rc = petw__msg_send(sock, PETW__MSG_CONTROL, m, sizeof(*m), NULL, 0, 5000);
    if (rc == 0)
        rc = petw__msg_recv_fixed(sock, PETW__MSG_REPLY, reply, sizeof(*reply), NULL, NULL,
                                  CONTROL_TIMEOUT_MS);
    petw__handle_close(sock);
    if (rc == PETW_EPIPE || rc == PETW_ECORRUPT)
        return PETW_ENOTFOUND; /* the host went away meanwhile */
    if (rc == 0) {
        reply->stats.name[PETW_MAX_NAME - 1] = 0;
        reply->stats.file_path[PETW_MAX_NAME - 1] = 0;
        reply->stats.host_process_id = reply->host_pid;
        if (answered)
            *answered = 1;
    }
    return rc ? rc : reply->status;
}

static int call(petw_session_handle h, petw__msg_control *m, petw__msg_reply *reply)
{
    return exchange(h, m, reply, NULL);
}

static int simple(petw_session_handle h, uint32_t op, petw_session_stats *stats)
{
    petw__msg_control m;
    memset(&m, 0, sizeof(m));
    m.op = op;
    petw__msg_reply *r = malloc(sizeof(*r));
    if (!r)
        return PETW_ENOMEM;
    int answered;
    int rc = exchange(h, &m, r, &answered);
    /* A stop or flush that could not write everything still says what the
     * session did (the figures of a stopped session are final). */
    if (answered && stats && (rc == 0 || rc == PETW_EIO || rc == PETW_ENOSPC))
        *stats = r->stats;
    free(r);
    return rc;
}

int petw__host_start(const petw_session_config *c, petw_session_handle *out)
{
    PETW__RETURN_IF(!c || !out || !c->name || !c->name[0] || c->sink, PETW_EINVAL);
    PETW__RETURN_IF(strlen(c->name) >= PETW_MAX_NAME, PETW_ENAMETOOLONG);
    PETW__RETURN_IF(c->file_path && strlen(c->file_path) >= PETW_MAX_NAME, PETW_ENAMETOOLONG);
    petw__library_init();
    const char *host = getenv("PETW_HOST"); /* NULL or "": this program */
    if (host && !host[0])
        host = NULL;
#if defined(__GNUC__)
    /* The host is this program started again, which works only when petw
     * is in it: a plugin's host program would just run again. */
    if (!host && !petw__addr_in_program((const void *)(uintptr_t)host_entry)) {
        petw__warn("this program cannot host a session (petw is in a shared object, not in "
                   "the program): set PETW_HOST to a program linked with petw, such as the "
                   "petw tool");
        return PETW_ENOHOST;
    }
#endif
    char dir[PETW_MAX_NAME];
    PETW__FORWARD_IF_ERROR(petw__runtime_dir(dir, sizeof(dir)));
    /* A name in use fails here, before a host starts. */
    petw_session_handle existing;
    PETW__RETURN_IF(petw__host_find(c->name, &existing) == 0, PETW_EEXIST);
    petw__msg_start *m = calloc(1, sizeof(*m));
    petw__msg_reply *r = calloc(1, sizeof(*r));
    intptr_t pair[2] = {-1, -1};
    int rc = m && r ? petw__ipc_pair(pair) : PETW_ENOMEM;
    if (rc == 0) {
        snprintf(m->name, sizeof(m->name), "%s", c->name);
        snprintf(m->file_path, sizeof(m->file_path), "%s", c->file_path ? c->file_path : "");
        m->buffer_size_kb = c->buffer_size_kb;
        m->minimum_buffers = c->minimum_buffers;
        m->maximum_buffers = c->maximum_buffers;
        m->flush_timer_ms = c->flush_timer_ms;
        m->log_file_mode = c->log_file_mode;
        m->maximum_file_size_kb = c->maximum_file_size_kb;
        m->clock = c->clock;
        m->flags = c->flags;
        m->zstd_level = c->zstd_level;
        m->loss_policy = c->loss_policy;
        m->block_timeout_ms = c->block_timeout_ms;
        m->real_time_buffers = c->real_time_buffers;
        m->system_flags = c->system_flags;
        m->system_stack_flags = c->system_stack_flags;
        m->profile_interval_100ns = c->profile_interval_100ns;
        m->system_target_pid = c->system_target_pid;
        char env[64];
        snprintf(env, sizeof(env), "PETW__HOST_FD=%lld",
                 (long long)petw__handle_inherited_value(pair[1]));
        rc = petw__spawn_detached(host, env, pair[1]);
        petw__handle_close(pair[1]);
    }
    if (rc == 0)
        rc = petw__msg_send(pair[0], PETW__MSG_START, m, sizeof(*m), NULL, 0, START_TIMEOUT_MS);
    if (rc == 0)
        rc = petw__msg_recv_fixed(pair[0], PETW__MSG_STARTED, r, sizeof(*r), NULL, NULL,
                                  START_TIMEOUT_MS);
    if (rc == PETW_EPIPE || rc == PETW_ECORRUPT || rc == PETW_ETIMEDOUT)
        rc = PETW_ENOHOST;
    if (rc == 0)
        rc = r->status;
    if (rc == 0)
        *out = make_handle(r->slot, r->gen);
    if (pair[0] >= 0)
        petw__handle_close(pair[0]);
    free(m);
    free(r);
    return rc;
}

int petw_shared_runtime_dir(char *out, size_t size)
{
    PETW__RETURN_IF(!out || !size, PETW_EINVAL);
    out[0] = '\0';
    petw__library_init();
    return petw__runtime_dir(out, size);
}

static int registry(petw__registry **reg, intptr_t *fd)
{
    return petw__reg_open(0, reg, fd);
}

int petw__host_find(const char *name, petw_session_handle *out)
{
    PETW__RETURN_IF(!name || !out, PETW_EINVAL);
    petw__registry *reg;
    intptr_t fd;
    uint32_t slot, gen;
    PETW__FORWARD_IF_ERROR(registry(&reg, &fd));
    PETW__FORWARD_IF_ERROR(petw__reg_find(reg, fd, name, &slot, &gen, NULL));
    *out = make_handle(slot, gen);
    return 0;
}

int petw__host_list(petw_session_handle *out, uint32_t max, uint32_t *count)
{
    PETW__RETURN_IF(!count || (max && !out), PETW_EINVAL);
    *count = 0;
    petw__registry *reg;
    intptr_t fd;
    PETW__FORWARD_IF_ERROR(registry(&reg, &fd));
    petw__reg_session *s = malloc(sizeof(petw__reg_session) * PETW_MAX_SESSIONS);
    PETW__RETURN_IF(!s, PETW_ENOMEM);
    petw__reg_snapshot_sessions(reg, fd, s);
    uint32_t n = 0;
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++) {
        if (s[i].state != PETW__REG_RUNNING)
            continue;
        if (n < max)
            out[n] = make_handle(i, s[i].gen);
        n++;
    }
    free(s);
    *count = n;
    return 0;
}

int petw_shared_session_enables(petw_session_handle h, petw_shared_enable *out, uint32_t max,
                                uint32_t *count)
{
    PETW__RETURN_IF(!count || (max && !out), PETW_EINVAL);
    *count = 0;
    uint32_t slot, gen;
    petw__registry *reg;
    intptr_t fd;
    PETW__FORWARD_IF_ERROR(handle_parts(h, &slot, &gen));
    PETW__FORWARD_IF_ERROR(registry(&reg, &fd));
    petw__reg_session *s = malloc(sizeof(petw__reg_session) * PETW_MAX_SESSIONS);
    petw__reg_entry *e = malloc(sizeof(petw__reg_entry) * PETW__REG_ENABLES);
    int rc = s && e ? 0 : PETW_ENOMEM;
    if (rc == 0) {
        petw__reg_snapshot_sessions(reg, fd, s);
        petw__reg_snapshot_enables(reg, e);
        rc = s[slot].state == PETW__REG_RUNNING && s[slot].gen == gen ? 0 : PETW_ENOTFOUND;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; rc == 0 && i < PETW__REG_ENABLES; i++) {
        if (e[i].slot_plus1 != slot + 1 || e[i].session_gen != gen)
            continue;
        if (n < max) {
            memset(&out[n], 0, sizeof(out[n]));
            memcpy(&out[n].provider, e[i].guid, sizeof(out[n].provider));
            out[n].level = (uint8_t)e[i].level;
            out[n].match_any = e[i].match_any;
            out[n].match_all = e[i].match_all;
        }
        n++;
    }
    free(s);
    free(e);
    *count = n;
    return rc;
}

typedef struct list_ctx {
    petw_shared_provider *out;
    uint32_t max, n;
} list_ctx;

static int list_one(uint32_t pid, const petw__proc_entry *e, uint32_t n, void *arg)
{
    list_ctx *c = arg;
    char comm[64];
    petw__process_name(pid, comm, sizeof(comm));
    for (uint32_t i = 0; i < n; i++, c->n++) {
        if (c->n >= c->max)
            continue;
        petw_shared_provider *p = &c->out[c->n];
        memset(p, 0, sizeof(*p));
        memcpy(&p->provider, e[i].guid, sizeof(p->provider));
        p->process_id = pid;
        snprintf(p->name, sizeof(p->name), "%s", e[i].name);
        snprintf(p->process_name, sizeof(p->process_name), "%s", comm);
    }
    return 0;
}

int petw_shared_list_providers(uint32_t pid, petw_shared_provider *out, uint32_t max,
                               uint32_t *count)
{
    PETW__RETURN_IF(!count || (max && !out), PETW_EINVAL);
    *count = 0;
    petw__library_init();
    /* This process's own list is brought up to date first. */
    petw__control_lock();
    petw__agent_publish();
    petw__control_unlock();
    list_ctx c = {out, max, 0};
    PETW__FORWARD_IF_ERROR(petw__procdir_each(pid, list_one, &c));
    *count = c.n;
    return 0;
}

static int guid_op(petw_session_handle h, uint32_t op, const petw_guid *g, uint8_t level,
                   uint64_t any, uint64_t all, const petw__enable_filter *filter)
{
    PETW__RETURN_IF(!g, PETW_EINVAL);
    petw__msg_control m;
    memset(&m, 0, sizeof(m));
    m.op = op;
    memcpy(m.guid, g, sizeof(m.guid));
    m.level = level;
    m.match_any = any;
    m.match_all = all;
    if (filter)
        m.filter = *filter;
    petw__msg_reply *r = malloc(sizeof(*r));
    PETW__RETURN_IF(!r, PETW_ENOMEM);
    int rc = call(h, &m, r);
    free(r);
    return rc;
}

/* This process's own providers follow an enable before it returns (as an
 * in-process session's would): an EventWrite right after it is recorded.
 * Other processes follow on their agent threads, as ETW's do. */
static int sync_here(int rc)
{
    if (rc == 0) {
        petw__control_lock();
        petw__agent_sync();
        petw__control_unlock();
    }
    return rc;
}

int petw__host_enable(petw_session_handle h, const petw_guid *g, uint8_t level, uint64_t any,
                      uint64_t all, const petw__enable_filter *filter)
{
    PETW__RETURN_IF(filter && petw__filter_check(filter) != 0, PETW_EINVAL);
    return sync_here(guid_op(h, PETW__OP_ENABLE, g, level, any, all, filter));
}

int petw__host_disable(petw_session_handle h, const petw_guid *g)
{
    return sync_here(guid_op(h, PETW__OP_DISABLE, g, 0, 0, 0, NULL));
}

int petw__host_capture_state(petw_session_handle h, const petw_guid *g)
{
    return sync_here(guid_op(h, PETW__OP_CAPTURE, g, 0, 0, 0, NULL));
}

int petw__host_query(petw_session_handle h, petw_session_stats *stats)
{
    return simple(h, PETW__OP_QUERY, stats);
}

int petw__host_flush(petw_session_handle h, petw_session_stats *stats)
{
    return simple(h, PETW__OP_FLUSH, stats);
}

int petw__host_stop(petw_session_handle h, petw_session_stats *stats)
{
    return simple(h, PETW__OP_STOP, stats);
}

static int value_op(petw_session_handle h, uint32_t op, uint32_t v1, uint32_t v2)
{
    petw__msg_control m;
    memset(&m, 0, sizeof(m));
    m.op = op;
    m.value1 = v1;
    m.value2 = v2;
    petw__msg_reply *r = malloc(sizeof(*r));
    PETW__RETURN_IF(!r, PETW_ENOMEM);
    int rc = call(h, &m, r);
    free(r);
    return rc;
}

int petw__host_update(petw_session_handle h, uint32_t flush_timer_ms, uint32_t maximum_buffers)
{
    return value_op(h, PETW__OP_UPDATE, flush_timer_ms, maximum_buffers);
}

int petw__host_set_enable_flags(petw_session_handle h, uint32_t flags)
{
    return value_op(h, PETW__OP_SET_FLAGS, flags, 0);
}

int petw__host_set_system_groups(petw_session_handle h, uint32_t flags)
{
    return value_op(h, PETW__OP_SET_GROUPS, flags, 0);
}

int petw__host_set_system(petw_session_handle h, const uint32_t *stack_flags,
                          const uint32_t *interval_100ns)
{
    int rc = 0;
    if (stack_flags)
        rc = value_op(h, PETW__OP_SET_STACKS, *stack_flags, 0);
    if (rc == 0 && interval_100ns)
        rc = value_op(h, PETW__OP_SET_INTERVAL, *interval_100ns, 0);
    return rc;
}

/* ---- real-time consumers in another process ---- */

/* How long petw_trace_close waits for the session to take back what its
 * consumer did not acknowledge: the host's consumer thread notices the
 * consumer's RT_BYE within its 200 ms wait for buffers, later under load. */
#define CLOSE_WAIT_MS 5000

typedef struct reader {
    intptr_t sock;
    intptr_t wake; /* signalled when the trace is closed */
    petw__bufqueue *q;
    uint8_t *buf;
    uint32_t outstanding;     /* buffers received and not acked yet */
    _Atomic uint32_t closing; /* set by petw_trace_close */
    _Atomic uint32_t done;    /* 1 once the reader is done with the socket */
    _Atomic uint32_t refs;    /* the reader thread's and the trace's */
} reader;

static void reader_unref(reader *rd)
{
    /* acq_rel: the other holder's uses of `rd` come before the free (its
     * release half), whichever of the reader and the closer lets go last. */
    if (atomic_fetch_sub_explicit(&rd->refs, 1, memory_order_acq_rel) != 1)
        return;
    petw__handle_close(rd->wake);
    free(rd);
}

/* Tells the host how many buffers the consumer finished (its callback
 * returned; with petw_trace_defer_acks, it acknowledged them) since the
 * last time: the host keeps each buffer until then,
 * and gives what was not acked to the next consumer of the session if
 * this process goes. A failed send is not an end: the host closes its
 * side after RT_END while its last buffers still wait in the socket. */
static void ack(reader *rd)
{
    uint32_t n = petw__bufqueue_take_done(rd->q);
    if (!n)
        return;
    petw__msg_send(rd->sock, PETW__MSG_RT_ACK, &n, sizeof(n), NULL, 0, 1000);
    rd->outstanding -= n < rd->outstanding ? n : rd->outstanding;
}

static int closing(reader *rd)
{
    return atomic_load_explicit(&rd->closing, memory_order_relaxed) ||
           !petw__bufqueue_shared(rd->q);
}

/* The trace was closed: the host is told (RT_BYE), and what it still
 * sends is read and dropped until it closes its side, which it does once
 * it took the queue back (the buffers not acked go to the next consumer).
 * So a consumer opened once petw_trace_close returned gets them. */
static void say_bye(reader *rd)
{
    if (petw__msg_send(rd->sock, PETW__MSG_RT_BYE, NULL, 0, NULL, 0, 1000) != 0)
        return;
    int64_t deadline = petw__clock_reference() + (int64_t)CLOSE_WAIT_MS * 1000000;
    for (;;) {
        int64_t left = (deadline - petw__clock_reference()) / 1000000;
        if (left <= 0)
            return;
        petw__msg_header hd;
        if (petw__msg_recv_header(rd->sock, &hd, petw__bufqueue_buffer_size(rd->q), NULL, NULL,
                                  (int)left) != 0 ||
            hd.type != PETW__MSG_RT_BUFFER ||
            petw__ipc_recv(rd->sock, rd->buf, hd.size, NULL, NULL, (int)left) != 0)
            return; /* the host's end (or RT_END, or garbage) */
    }
}

/* Moves buffers from the host's socket into the consumer's queue, waiting
 * while the queue is full (the socket then holds the host back, and the
 * host counts what its own queue cannot keep), and acks what the consumer
 * finished. Ends the queue when the session stops, the host goes, or the
 * consumer closed its trace (its wake counter: at once). */
static void reader_main(void *arg)
{
    reader *rd = arg;
    for (;;) {
        ack(rd);
        if (closing(rd))
            break;
        /* While the consumer has buffers to finish, their acks go within
         * 2 ms: the host's queue holds them until then. Buffers it
         * finished and holds (petw_trace_defer_acks) are acked when it
         * says, which may be long after: within 20 ms of that. */
        uint32_t held = rd->outstanding ? petw__bufqueue_held(rd->q) : 0;
        intptr_t fds[2] = {rd->sock, rd->wake};
        uint8_t ready[2];
        int got = petw__ipc_poll(fds, 2, ready, rd->outstanding > held ? 2 : held ? 20 : 200);
        if (got < 0)
            break;
        if (got == 0 || !ready[0])
            continue; /* a timeout, or the close (seen above) */
        petw__msg_header hd;
        int rc = petw__msg_recv_header(rd->sock, &hd, petw__bufqueue_buffer_size(rd->q), NULL, NULL,
                                       5000);
        if (rc || hd.type != PETW__MSG_RT_BUFFER)
            break; /* RT_END, the host gone, or garbage */
        if (petw__ipc_recv(rd->sock, rd->buf, hd.size, NULL, NULL, 5000) != 0)
            break;
        while (petw__bufqueue_push(rd->q, rd->buf, hd.size) != 0) {
            if (petw__bufqueue_ended(rd->q) || closing(rd))
                goto out;
            ack(rd);
            petw__sleep_ms(1);
        }
        rd->outstanding++;
    }
out:
    ack(rd); /* what the consumer finished before it closed the trace */
    if (closing(rd))
        say_bye(rd);
    petw__bufqueue_end(rd->q);
    petw__bufqueue_unref(rd->q);
    petw__handle_close(rd->sock);
    free(rd->buf);
    /* release: the reader's last uses of the socket and the queue come
     * before; pairs with reader_close's acquire load. */
    atomic_store_explicit(&rd->done, 1, memory_order_release);
    petw__futex_wake_all((const uint32_t *)&rd->done);
    reader_unref(rd);
}

/* petw_trace_close's (the trace let go of the queue): wakes the reader and
 * waits until it is done with the socket, so the host took the queue back
 * before the close returns. Bounded: a host that does not answer keeps it
 * CLOSE_WAIT_MS, and the reader ends on its own later. */
static void reader_close(void *arg)
{
    reader *rd = arg;
    /* relaxed: the flag alone is read (the wake counter wakes the reader). */
    atomic_store_explicit(&rd->closing, 1, memory_order_relaxed);
    petw__wake_signal(rd->wake);
    int64_t deadline = petw__clock_reference() + (int64_t)(CLOSE_WAIT_MS + 1000) * 1000000;
    /* acquire: pairs with the reader's release store of done. */
    while (!atomic_load_explicit(&rd->done, memory_order_acquire)) {
        int64_t left = (deadline - petw__clock_reference()) / 1000000;
        if (left <= 0)
            break;
        petw__futex_wait((const uint32_t *)&rd->done, 0, (int)left);
    }
    reader_unref(rd);
}

int petw__shared_open_realtime(const char *name, const petw_trace_config *config, petw_trace **out)
{
    PETW__RETURN_IF(!name || !config || !config->on_event || !out, PETW_EINVAL);
    petw_session_handle h;
    uint32_t slot = 0, gen = 0, pid;
    PETW__FORWARD_IF_ERROR(petw__host_find(name, &h));
    handle_parts(h, &slot, &gen);
    char path[PETW_MAX_NAME + 32];
    intptr_t sock;
    PETW__FORWARD_IF_ERROR(petw__xproc_socket_path(slot, path, sizeof(path)));
    int rc = petw__ipc_connect(path, &sock, &pid);
    if (rc)
        return rc == PETW_EACCES ? rc : PETW_ENOTFOUND;
    petw__msg_header hd;
    uint8_t *header = NULL;
    reader *rd = NULL;
    petw_trace *trace = NULL;
    rc = petw__msg_send(sock, PETW__MSG_CONSUME, NULL, 0, NULL, 0, 5000);
    if (rc == 0)
        rc = petw__msg_recv_header(sock, &hd, 16u << 20, NULL, NULL, 5000);
    if (rc == 0 && hd.type == PETW__MSG_REPLY && hd.size == sizeof(petw__msg_reply)) {
        petw__msg_reply r;
        rc = petw__ipc_recv(sock, &r, sizeof(r), NULL, NULL, 5000);
        rc = rc ? rc : r.status ? r.status : PETW_ECORRUPT;
    } else if (rc == 0 && (hd.type != PETW__MSG_RT_HEADER || hd.size < PETW__BH_SIZE)) {
        rc = PETW_ECORRUPT;
    }
    if (rc == 0) {
        header = malloc(hd.size);
        rd = calloc(1, sizeof(*rd));
        if (rd)
            rd->wake = -1;
        rc = header && rd ? petw__ipc_recv(sock, header, hd.size, NULL, NULL, 5000) : PETW_ENOMEM;
    }
    if (rc == 0)
        rc = petw__wake_create(&rd->wake);
    if (rc == 0) {
        rd->q = petw__bufqueue_new(PETW__RT_CONSUMER_BUFFERS, hd.size);
        rd->buf = malloc(hd.size);
        rc = rd->q && rd->buf ? 0 : PETW_ENOMEM;
    }
    if (rc == 0)
        rc = petw__trace_open_live(header, hd.size, rd->q, config, &trace);
    if (rc == 0) {
        rd->sock = sock;
        atomic_init(&rd->refs, 2);
        rc = petw__thread_start_detached(reader_main, rd);
    }
    if (rc == 0)
        petw__trace_on_live_close(trace, reader_close, rd);
    free(header);
    if (rc) {
        petw_trace_close(trace);
        if (rd) {
            if (rd->q)
                petw__bufqueue_unref(rd->q);
            if (rd->wake >= 0)
                petw__handle_close(rd->wake);
            free(rd->buf);
            free(rd);
        }
        petw__handle_close(sock);
        return rc == PETW_EPIPE ? PETW_ENOTFOUND : rc;
    }
    *out = trace;
    return 0;
}

static int path_op(petw_session_handle h, uint32_t op, const char *path)
{
    PETW__RETURN_IF(!path || !path[0], PETW_EINVAL);
    PETW__RETURN_IF(strlen(path) >= PETW_MAX_NAME, PETW_ENAMETOOLONG);
    petw__msg_control *m = calloc(1, sizeof(*m));
    petw__msg_reply *r = malloc(sizeof(*r));
    int rc = m && r ? 0 : PETW_ENOMEM;
    if (rc == 0) {
        m->op = op;
        snprintf(m->path, sizeof(m->path), "%s", path);
        rc = call(h, m, r);
    }
    free(m);
    free(r);
    return rc;
}

int petw__host_snapshot(petw_session_handle h, const char *path)
{
    return path_op(h, PETW__OP_SNAPSHOT, path);
}

int petw__host_switch_file(petw_session_handle h, const char *path)
{
    return path_op(h, PETW__OP_SWITCH_FILE, path);
}
