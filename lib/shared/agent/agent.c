/* SPDX-License-Identifier: MIT */
/* agent.c - a provider process's side of shared sessions.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/, registry/.
 *
 * The registry says which sessions enable which GUIDs. For a session that
 * enables a GUID registered here, the agent connects to the session's
 * host, receives a shared pool (CPU words, buffers, counters) and a
 * wake-up counter, points a free ring slot at the pool, and only then
 * enables the provider for that ring: EventWrite never sees "enabled"
 * without a mapped buffer. It runs inside EventRegister (so a GUID enabled
 * before the process started records its first event) and on a thread that
 * sleeps on the registry's futex word. All of it under the control lock.
 *
 * Detaching (session stopped, host gone, fork) disables first, kills the
 * ring's CPU words, waits (bounded) until every buffer this process opened
 * is delivered, tells the host, and abandons the mapping: a writer still
 * between reserve and commit writes into private zero memory, never into a
 * pool that may be reused.
 *
 * `petw record` without -p enables the zero GUID: every provider of the
 * processes whose environment has PETW_RECORD_SESSION=<that session>
 * (the recorded command and its children); other processes ignore it.
 *
 * The agent also keeps this process's list in the provider directory
 * (registry.h) up to date.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/format/etl.h"
#include "../../write/ring/ring.h"
#include "../../base/registry/registry.h"
#include "../../write/provider/provider_internal.h"

typedef struct attachment {
    int used;
    uint32_t reg_slot, reg_gen; /* the shared session */
    uint32_t ring_slot;
    uint32_t ref; /* the provider module's session ref for the ring */
    intptr_t sock;
    petw__shm shm;
} attachment;

_Static_assert(PETW_MAX_PROVIDERS <= PETW__PROCDIR_MAX, "a provider directory file holds them");

static attachment att[PETW_MAX_SESSIONS];
/* Per ring slot: the wake-up counter + 1 (0: none). Never closed once set,
 * only replaced (petw__handle_replace), because a writer that delivered a
 * buffer may signal it after its slot was reused. */
static _Atomic int64_t wake_fds[PETW__MAX_RINGS];
static petw__registry *reg;
static intptr_t reg_fd = -1;
static int unavailable;
static int thread_running;
static _Atomic uint32_t attached_count;
static petw__reg_session *snap_sessions;
static petw__reg_entry *snap_enables;
/* Per registry entry: its key and `capture` counter at the last sync, so a
 * change means a CAPTURE_STATE request (a new key means a new enable). */
typedef struct capture_seen {
    uint64_t guid[2];
    uint32_t slot_plus1, session_gen, capture;
} capture_seen;
static capture_seen *seen_captures;
/* PETW_RECORD_SESSION at the first sync: the session whose zero-GUID
 * enable takes every provider here; "" for none. */
static char record_tag[PETW_MAX_NAME];
/* Registered GUIDs (a sync's scratch) and the provider directory's copy. */
static petw__proc_entry *registered, *published;
static uint32_t published_count = UINT32_MAX; /* UINT32_MAX: never written */
static uint32_t published_pid;

static void on_ready(petw__ring *ring)
{
    size_t i = (size_t)(ring - petw__ring_table);
    /* relaxed: any counter the slot ever had is a valid one to signal. */
    int64_t fd = atomic_load_explicit(&wake_fds[i], memory_order_relaxed);
    if (fd > 0)
        petw__wake_signal((intptr_t)(fd - 1));
}

/* The pool the host sent, checked against the geometry its sizes imply. */
static int check_pool(const petw__msg_pool *m, const petw__shm *shm)
{
    petw__pool_geometry g;
    const petw__pool *p = shm->addr;
    if (m->cpu_count < petw__cpu_count() ||
        petw__pool_plan(m->buffer_size, m->buffer_count, m->buffer_count, m->cpu_count, &g) ||
        g.commit_bytes != m->bytes || m->clock == 0 || m->clock > PETW_CLOCK_CYCLES)
        return PETW_ECORRUPT;
    if (p->magic != PETW__POOL_MAGIC || p->version != PETW__POOL_VERSION ||
        p->header_bytes != sizeof(petw__pool) || p->cpu_count != m->cpu_count ||
        p->cpu_offset != g.cpu || p->data_offset != g.data || p->ctrl_offset != g.ctrl ||
        p->link_offset != g.link || p->meta_offset != g.meta || p->buffer_size != g.buffer_size ||
        p->buffer_limit != g.buffer_limit)
        return PETW_ECORRUPT;
    return 0;
}

/* Connects to the host of (rs, rg) and maps its pool into ring slot
 * `ring_slot` (claimed by the caller). */
static int connect_pool(attachment *a, uint32_t rs, uint32_t rg, uint32_t ring_slot)
{
    char path[PETW_MAX_NAME + 32];
    intptr_t sock;
    uint32_t pid;
    PETW__FORWARD_IF_ERROR(petw__xproc_socket_path(rs, path, sizeof(path)));
    PETW__FORWARD_IF_ERROR(petw__ipc_connect(path, &sock, &pid));
    petw__msg_hello hello = {petw__process_id(), petw__cpu_count()};
    petw__msg_pool m;
    intptr_t h[2] = {-1, -1};
    uint32_t nh = 2;
    int rc = petw__msg_send(sock, PETW__MSG_HELLO, &hello, sizeof(hello), NULL, 0, 2000);
    if (rc == 0)
        rc = petw__msg_recv_fixed(sock, PETW__MSG_POOL, &m, sizeof(m), h, &nh, 5000);
    if (rc == 0 && (m.status != 0 || nh != 2 || m.session_gen != rg)) {
        rc = m.status ? m.status : PETW_ECORRUPT;
        for (uint32_t i = 0; i < nh; i++)
            petw__handle_close(h[i]);
    }
    petw__shm shm = {0};
    if (rc == 0) {
        rc = petw__shm_map(h[0], (size_t)m.bytes, &shm);
        if (rc == 0)
            rc = check_pool(&m, &shm);
        if (rc)
            petw__handle_close(h[1]);
        if (rc && shm.addr)
            petw__shm_close(&shm);
    }
    if (rc) {
        petw__handle_close(sock);
        return rc;
    }
    petw__ring *ring = &petw__ring_table[ring_slot];
    ring->policy = m.policy <= PETW_LOSS_BLOCK ? m.policy : PETW_LOSS_DROP_NEWEST;
    ring->block_timeout_us = m.block_timeout_ms * 1000u;
    ring->clock = m.clock;
    ring->on_ready = on_ready;
    ring->count_records = petw__etl_count_records;
    ring->owner = a;
    ring->logger_id = (uint16_t)(rs + 1);
    /* relaxed: the counter is read by writers after they acquired a CPU
     * word that petw__ring_attach_shared publishes below. */
    int64_t old = atomic_load_explicit(&wake_fds[ring_slot], memory_order_relaxed);
    if (old > 0)
        petw__handle_replace(h[1], (intptr_t)(old - 1));
    else
        atomic_store_explicit(&wake_fds[ring_slot], (int64_t)h[1] + 1, memory_order_relaxed);
    uint16_t gen;
    rc = petw__ring_attach_shared(ring, shm.addr, &gen);
    if (rc) {
        petw__shm_close(&shm);
        petw__handle_close(sock);
        return rc;
    }
    a->used = 1;
    a->reg_slot = rs;
    a->reg_gen = rg;
    a->ring_slot = ring_slot;
    a->ref = PETW__SESSION_REF(ring_slot, gen);
    a->sock = sock;
    a->shm = shm;
    return 0;
}

static attachment *attach(uint32_t rs, uint32_t rg)
{
    attachment *a = NULL;
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS && !a; i++)
        if (!att[i].used)
            a = &att[i];
    uint32_t slot;
    if (!a || petw__ring_claim(petw__cpu_count(), &slot) != 0)
        return NULL;
    if (connect_pool(a, rs, rg, slot) != 0) {
        petw__ring_unclaim(slot);
        return NULL;
    }
    atomic_fetch_add_explicit(&attached_count, 1, memory_order_relaxed); /* a hint */
    return a;
}

/* Waits (at most ~1 s) until every buffer opened here was delivered: the
 * last writers between reserve and commit have committed. */
static void wait_delivered(petw__pool *pool)
{
    uint32_t count = atomic_load_explicit(&pool->buffer_count, memory_order_relaxed);
    petw__buffer_meta *meta = petw__pool_meta(pool);
    for (int spin = 0; spin < 20000; spin++) {
        uint32_t b = 0;
        /* acquire: pairs with petw__ring_deliver's release increment. */
        while (b < count && atomic_load_explicit(&meta[b].deliveries, memory_order_acquire) ==
                                atomic_load_explicit(&meta[b].uses, memory_order_relaxed))
            b++;
        if (b == count)
            return;
        petw__sleep_us(50);
    }
}

static void detach(attachment *a, int orderly)
{
    petw__provider_disable_session(a->ref);
    petw__ring *ring = &petw__ring_table[a->ring_slot];
    petw__ring_kill(ring);
    if (orderly) {
        wait_delivered(a->shm.addr);
        petw__msg_send(a->sock, PETW__MSG_DETACHED, NULL, 0, NULL, 0, 1000);
    }
    petw__ring_detach_shared(ring);
    petw__shm_abandon(&a->shm);
    petw__handle_close(a->sock);
    petw__ring_unclaim(a->ring_slot);
    a->used = 0;
    atomic_fetch_sub_explicit(&attached_count, 1, memory_order_relaxed); /* a hint */
}

static int hung_up(intptr_t sock)
{
    uint8_t ready = 0;
    return petw__ipc_poll(&sock, 1, &ready, 0) > 0 && ready;
}

static int same_guid(const uint64_t g[2], const petw_guid *id)
{
    uint64_t w[2];
    memcpy(w, id, sizeof(w));
    return g[0] == w[0] && g[1] == w[1];
}

static int is_wildcard(const uint64_t g[2])
{
    return g[0] == 0 && g[1] == 0;
}

/* 1 when some running session enables the zero GUID for this process. */
static int wildcard_applies(void)
{
    if (!record_tag[0])
        return 0;
    for (uint32_t i = 0; i < PETW__REG_ENABLES; i++) {
        const petw__reg_entry *e = &snap_enables[i];
        uint32_t rs = e->slot_plus1 - 1;
        if (e->slot_plus1 && rs < PETW_MAX_SESSIONS && is_wildcard(e->guid) &&
            !strcmp(snap_sessions[rs].name, record_tag))
            return 1;
    }
    return 0;
}

/* Enables `guid` as entry `e` of session slot `rs` says, attaching first
 * (`filter`: the entry's filter, NULL when it has none); then, when
 * `capture`, runs its callbacks with CAPTURE_STATE. */
static void apply(const petw__reg_entry *e, uint32_t rs, const petw_guid *guid,
                  const petw__enable_filter *filter, int capture)
{
    attachment *a = NULL;
    for (uint32_t k = 0; k < PETW_MAX_SESSIONS && !a; k++)
        if (att[k].used && att[k].reg_slot == rs && att[k].reg_gen == e->session_gen)
            a = &att[k];
    uint8_t lv;
    uint64_t any, all;
    const petw__enable_filter *had;
    if (filter && !petw__provider_admits_process(filter)) {
        /* Its PID or executable-name filter leaves this process out: no
         * pool for it; an earlier enable without that filter goes. */
        if (a && petw__provider_enabled_by(guid, a->ref, &lv, &any, &all, &had) == 0)
            petw__provider_disable(guid, a->ref);
        return;
    }
    if (!a)
        a = attach(rs, e->session_gen);
    if (!a)
        return;
    uint8_t want = (uint8_t)e->level;
    if (petw__provider_enabled_by(guid, a->ref, &lv, &any, &all, &had) != 0 || lv != want ||
        any != e->match_any || all != e->match_all || !petw__filter_equal(had, filter))
        petw__provider_enable(guid, a->ref, want, e->match_any, e->match_all, filter);
    if (capture)
        petw__provider_capture_state(guid, a->ref);
}

/* 1 when entry `i` asks for a capture since the last sync (not when it is
 * new: a provider enabled after a request does not see it). */
static int capture_requested(uint32_t i)
{
    const petw__reg_entry *e = &snap_enables[i];
    capture_seen *c = &seen_captures[i];
    int same = c->slot_plus1 == e->slot_plus1 && c->session_gen == e->session_gen &&
               c->guid[0] == e->guid[0] && c->guid[1] == e->guid[1];
    int requested = same && c->capture != e->capture;
    c->slot_plus1 = e->slot_plus1;
    c->session_gen = e->session_gen;
    c->guid[0] = e->guid[0];
    c->guid[1] = e->guid[1];
    c->capture = e->capture;
    return requested;
}

/* The filter of entry `index` (a snapshot's `e`) into `buf`: 0 with *out
 * NULL (none) or `buf`; non-zero when it cannot be used now (the entry
 * changed meanwhile: the next sync applies it; or it is corrupt): then the
 * entry must not be applied, since enabling without its filter would
 * record what the session did not ask for. */
static int entry_filter(uint32_t index, const petw__reg_entry *e, petw__enable_filter *buf,
                        const petw__enable_filter **out)
{
    *out = NULL;
    if (!e->filter_tag)
        return 0;
    int rc = petw__reg_read_filter(reg, index, e, buf);
    if (rc == 0)
        *out = buf;
    return rc;
}

static void sync_locked(void)
{
    petw__reg_snapshot_sessions(reg, reg_fd, snap_sessions);
    petw__reg_snapshot_enables(reg, snap_enables);
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++) {
        attachment *a = &att[i];
        if (!a->used)
            continue;
        const petw__reg_session *s = &snap_sessions[a->reg_slot];
        int gone = s->state != PETW__REG_RUNNING || s->gen != a->reg_gen;
        int hup = hung_up(a->sock);
        if (gone || hup)
            detach(a, !hup);
    }
    uint32_t nreg = wildcard_applies() ? petw__provider_list(registered, PETW_MAX_PROVIDERS) : 0;
    for (uint32_t i = 0; i < PETW__REG_ENABLES; i++) {
        const petw__reg_entry *e = &snap_enables[i];
        uint32_t rs = e->slot_plus1 - 1;
        int capture = capture_requested(i);
        if (!e->slot_plus1 || rs >= PETW_MAX_SESSIONS)
            continue;
        const petw__reg_session *s = &snap_sessions[rs];
        if (s->state != PETW__REG_RUNNING || s->gen != e->session_gen)
            continue;
        petw_guid guid;
        memcpy(&guid, e->guid, sizeof(guid));
        petw__enable_filter fbuf;
        const petw__enable_filter *f;
        if (!is_wildcard(e->guid)) {
            if (petw__provider_is_registered(&guid) && entry_filter(i, e, &fbuf, &f) == 0)
                apply(e, rs, &guid, f, capture);
        } else if (!strcmp(s->name, record_tag) && entry_filter(i, e, &fbuf, &f) == 0) {
            for (uint32_t k = 0; k < nreg; k++) {
                memcpy(&guid, registered[k].guid, sizeof(guid));
                apply(e, rs, &guid, f, capture);
            }
        }
    }
    /* What the registry no longer enables. */
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++) {
        attachment *a = &att[i];
        if (!a->used)
            continue;
        petw_guid on[PETW__REG_ENABLES > 64 ? 64 : PETW__REG_ENABLES];
        uint32_t n = petw__provider_enables_of(a->ref, on, 64);
        for (uint32_t k = 0; k < n; k++) {
            int still = 0;
            for (uint32_t j = 0; j < PETW__REG_ENABLES && !still; j++) {
                const petw__reg_entry *e = &snap_enables[j];
                still = e->slot_plus1 == a->reg_slot + 1 && e->session_gen == a->reg_gen &&
                        (same_guid(e->guid, &on[k]) ||
                         (is_wildcard(e->guid) &&
                          !strcmp(snap_sessions[a->reg_slot].name, record_tag)));
            }
            if (!still)
                petw__provider_disable(&on[k], a->ref);
        }
    }
}

static void agent_main(void *arg)
{
    (void)arg;
    uint32_t seen = ~0u;
    for (;;) {
        uint32_t g = petw__reg_generation(reg);
        /* relaxed: a hint whether to look at the sockets now and then. */
        int attached = atomic_load_explicit(&attached_count, memory_order_relaxed) != 0;
        if (g != seen || attached) {
            petw__control_lock();
            sync_locked();
            petw__control_unlock();
            seen = g;
            /* relaxed: as above, after this sync's attaches. */
            attached = atomic_load_explicit(&attached_count, memory_order_relaxed) != 0;
        }
        petw__futex_wait((const uint32_t *)&reg->generation, g, attached ? 100 : -1);
    }
}

static void start_thread(void)
{
    if (petw__thread_start_detached(agent_main, NULL) == 0)
        thread_running = 1;
    else
        petw__warn("shared sessions: cannot start the agent thread");
}

/* In a forked child: the pools are the parent's. Replace this process's
 * view of them first (nothing here may touch the parent's buffers), then
 * attach again as the new process and move the enables over. */
static void after_fork(void)
{
    thread_running = 0;
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++) {
        attachment *a = &att[i];
        if (!a->used)
            continue;
        petw__ring *ring = &petw__ring_table[a->ring_slot];
        petw__ring_detach_shared(ring);
        petw__shm_abandon(&a->shm);
        petw__handle_close(a->sock);
        uint32_t old_ref = a->ref;
        a->used = 0;
        if (connect_pool(a, a->reg_slot, a->reg_gen, a->ring_slot) == 0) {
            petw__provider_retarget(old_ref, a->ref);
        } else {
            petw__provider_disable_session(old_ref);
            petw__ring_unclaim(a->ring_slot);
            atomic_fetch_sub_explicit(&attached_count, 1, memory_order_relaxed); /* a hint */
        }
    }
    if (reg) {
        start_thread();
        published_count = UINT32_MAX; /* this process has no list yet */
        petw__agent_publish();
    }
}

/* At exit: this process's list goes (a reader would remove it anyway). */
static void unpublish(void)
{
    if (published_pid == petw__process_id())
        petw__procdir_publish(NULL, 0);
}

void petw__agent_publish(void)
{
    if (!reg)
        return;
    uint32_t n = petw__provider_list(registered, PETW_MAX_PROVIDERS);
    if (n == published_count && !memcmp(registered, published, n * sizeof(*published)))
        return;
    if (petw__procdir_publish(registered, n) != 0)
        return; /* tried again at the next change */
    memcpy(published, registered, n * sizeof(*published));
    published_count = n;
    if (!published_pid)
        atexit(unpublish);
    published_pid = petw__process_id();
}

void petw__agent_sync(void)
{
    if (unavailable)
        return;
    if (!reg) {
        const char *off = getenv("PETW_DISABLE_XPROC");
        int rc = off && off[0] && off[0] != '0' ? PETW_ENOTSUP : 0;
        if (rc == 0) {
            snap_sessions = malloc(sizeof(petw__reg_session) * PETW_MAX_SESSIONS);
            snap_enables = malloc(sizeof(petw__reg_entry) * PETW__REG_ENABLES);
            seen_captures = calloc(PETW__REG_ENABLES, sizeof(capture_seen));
            /* calloc: compared whole by petw__agent_publish. */
            registered = calloc(PETW_MAX_PROVIDERS, sizeof(petw__proc_entry));
            published = calloc(PETW_MAX_PROVIDERS, sizeof(petw__proc_entry));
            rc = snap_sessions && snap_enables && seen_captures && registered && published
                     ? 0
                     : PETW_ENOMEM;
            const char *tag = getenv("PETW_RECORD_SESSION");
            snprintf(record_tag, sizeof(record_tag), "%s", tag ? tag : "");
        }
        if (rc == 0)
            rc = petw__reg_open(0, &reg, &reg_fd);
        if (rc) {
            unavailable = 1;
            reg = NULL;
            return;
        }
        petw__on_fork_child(after_fork);
    }
    if (!thread_running)
        start_thread();
    sync_locked();
    petw__agent_publish();
}
