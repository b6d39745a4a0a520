/* SPDX-License-Identifier: MIT */
/* registry.c - the per-user session registry (see registry.h).
 *
 * Allowed dependencies: common/, platform/.
 *
 * Readers copy what they need between two loads of `generation` and retry
 * while it is odd or changed (a sequence lock across processes). Writers
 * hold the write lock, make the word odd, change the tables, make it even
 * and wake every futex waiter.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "registry.h"

/* The layout docs/shared-memory.md gives. */
_Static_assert(sizeof(petw__reg_session) == 1040, "registry session: 1040 bytes");
_Static_assert(sizeof(petw__reg_entry) == 56, "registry enable entry: 56 bytes");
_Static_assert(offsetof(petw__registry, sessions) == 80, "registry sessions at 80");
_Static_assert(offsetof(petw__registry, enables) == 66640, "registry enables at 66640");
_Static_assert(offsetof(petw__registry, filters) == 123984, "registry filters at 123984");
_Static_assert(sizeof(petw__registry) == 1909840, "registry: 1909840 bytes");

static petw__registry *mapped[2];
static intptr_t mapped_fd[2] = {-1, -1};

static void init_header(petw__registry *reg)
{
    memset(reg, 0, sizeof(*reg));
    reg->version = PETW__REG_VERSION;
    reg->size = (uint32_t)sizeof(*reg);
    /* release: the tables (zero) before the magic that says they are valid;
     * readers check the magic after their acquire load of the generation. */
    atomic_store_explicit((_Atomic uint32_t *)&reg->magic, PETW__REG_MAGIC, memory_order_release);
}

static int damaged(const petw__registry *reg)
{
    return reg->version != PETW__REG_VERSION || reg->size != sizeof(*reg);
}

/* The file has our magic and name but a header that says otherwise (a
 * crash mid-write, a tool, a disk error): rebuilt empty when no session
 * host lives on it (nobody holds a slot's lock), since nothing it held
 * can be in use then; refused while one does, so a live session is
 * never touched. `reg` sees the rebuild through the shared mapping. */
static int recover(const char *path, const petw__registry *reg)
{
    petw__shm rw = {0};
    int created;
    int rc = petw__shared_file_open(path, sizeof(petw__registry), 1, &created, &rw);
    if (rc)
        return PETW_ECORRUPT;
    petw__lock_take(rw.fd, PETW__REG_LOCK_WRITE, 1);
    uint32_t version = reg->version, size = reg->size, live = 0;
    if (damaged(rw.addr)) {
        for (uint32_t slot = 0; slot < PETW_MAX_SESSIONS; slot++)
            live += petw__lock_held(rw.fd, PETW__REG_LOCK_SLOT(slot)) == 1;
        if (live == 0)
            init_header(rw.addr);
    }
    petw__lock_drop(rw.fd, PETW__REG_LOCK_WRITE);
    petw__shm_close(&rw);
    if (live) {
        petw__warn("%s is damaged (version %u, size %u; expected %u and %u) and %u session "
                   "host%s still use%s it: stop %s, then retry",
                   path, version, size, PETW__REG_VERSION, (uint32_t)sizeof(petw__registry), live,
                   live == 1 ? "" : "s", live == 1 ? "s" : "", live == 1 ? "it" : "them");
        return PETW_ECORRUPT;
    }
    if (damaged(reg))
        return PETW_ECORRUPT;
    petw__warn("%s was damaged (version %u, size %u; expected %u and %u) and no session host "
               "used it: rebuilt empty",
               path, version, size, PETW__REG_VERSION, (uint32_t)sizeof(petw__registry));
    return 0;
}

int petw__reg_open(int writable, petw__registry **out, intptr_t *fd)
{
    int w = writable ? 1 : 0;
    petw__control_lock();
    int rc = 0;
    if (!mapped[w]) {
        char dir[PETW_MAX_NAME], path[PETW_MAX_NAME + 32];
        rc = petw__runtime_dir(dir, sizeof(dir));
        petw__shm shm = {0};
        int created = 0;
        if (rc == 0) {
            snprintf(path, sizeof(path), "%s/%s", dir, PETW__REG_FILE);
            rc = petw__shared_file_open(path, sizeof(petw__registry), w, &created, &shm);
        }
        if (rc == 0) {
            petw__registry *reg = shm.addr;
            /* The first process initializes it, under the write lock (a
             * read-only mapping cannot: it asks through a writable one). */
            if (reg->magic != PETW__REG_MAGIC) {
                petw__shm rw = shm;
                if (!w) {
                    int c2;
                    rc = petw__shared_file_open(path, sizeof(petw__registry), 1, &c2, &rw);
                }
                if (rc == 0) {
                    petw__lock_take(rw.fd, PETW__REG_LOCK_WRITE, 1);
                    if (((petw__registry *)rw.addr)->magic != PETW__REG_MAGIC)
                        init_header(rw.addr);
                    petw__lock_drop(rw.fd, PETW__REG_LOCK_WRITE);
                    if (!w)
                        petw__shm_close(&rw);
                }
            }
            if (rc == 0 && damaged(reg))
                rc = recover(path, reg);
            if (rc == 0) {
                mapped[w] = reg;
                mapped_fd[w] = shm.fd;
            } else {
                petw__shm_close(&shm);
            }
        }
    }
    if (rc == 0) {
        *out = mapped[w];
        *fd = mapped_fd[w];
    }
    petw__control_unlock();
    return rc;
}

uint32_t petw__reg_generation(const petw__registry *reg)
{
    /* acquire: a reader that sees a generation sees the tables of it. */
    return atomic_load_explicit(&((petw__registry *)reg)->generation, memory_order_acquire);
}

/* Copies `n` bytes at `from` consistently. */
static void read_consistent(const petw__registry *reg, void *out, const void *from, size_t n)
{
    petw__registry *r = (petw__registry *)reg;
    for (;;) {
        /* acquire: pairs with write_end's release (sequence-lock begin). */
        uint32_t g1 = atomic_load_explicit(&r->generation, memory_order_acquire);
        if (g1 & 1) {
            petw__yield();
            continue;
        }
        memcpy(out, from, n);
        /* acquire fence: the copy before the reload; pairs with
         * write_begin's release fence. */
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&r->generation, memory_order_relaxed) == g1)
            return;
    }
}

void petw__reg_snapshot_sessions(const petw__registry *reg, intptr_t fd, petw__reg_session *out)
{
    read_consistent(reg, out, reg->sessions, sizeof(reg->sessions));
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++) {
        out[i].name[PETW_MAX_NAME - 1] = 0;
        if (out[i].state != PETW__REG_FREE && !petw__lock_held(fd, PETW__REG_LOCK_SLOT(i)))
            out[i].state = PETW__REG_FREE; /* its host died */
    }
}

void petw__reg_snapshot_enables(const petw__registry *reg, petw__reg_entry *out)
{
    read_consistent(reg, out, reg->enables, sizeof(reg->enables));
}

int petw__reg_read_filter(const petw__registry *reg, uint32_t index, const petw__reg_entry *expect,
                          petw__enable_filter *out)
{
    if (index >= PETW__REG_ENABLES)
        return PETW_EINVAL;
    petw__registry *r = (petw__registry *)reg;
    petw__reg_entry e;
    for (;;) {
        /* acquire: pairs with write_end's release (sequence-lock begin). */
        uint32_t g1 = atomic_load_explicit(&r->generation, memory_order_acquire);
        if (g1 & 1) {
            petw__yield();
            continue;
        }
        memcpy(&e, &reg->enables[index], sizeof(e));
        memcpy(out, &reg->filters[index], sizeof(*out));
        /* acquire fence: the copies before the reload; pairs with
         * write_begin's release fence. */
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&r->generation, memory_order_relaxed) == g1)
            break;
    }
    if (memcmp(&e, expect, sizeof(e)) != 0)
        return PETW_EBUSY;
    return petw__filter_check(out);
}

int petw__reg_find(const petw__registry *reg, intptr_t fd, const char *name, uint32_t *slot,
                   uint32_t *gen, uint32_t *host_pid)
{
    petw__reg_session *s = malloc(sizeof(reg->sessions));
    if (!s)
        return PETW_ENOMEM;
    petw__reg_snapshot_sessions(reg, fd, s);
    int rc = PETW_ENOTFOUND;
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS && rc; i++) {
        if (s[i].state == PETW__REG_RUNNING && strcmp(s[i].name, name) == 0) {
            *slot = i;
            *gen = s[i].gen;
            if (host_pid)
                *host_pid = s[i].host_pid;
            rc = 0;
        }
    }
    free(s);
    return rc;
}

static void write_begin(petw__registry *reg, intptr_t fd)
{
    petw__lock_take(fd, PETW__REG_LOCK_WRITE, 1);
    /* relaxed + release fence: the odd value before any table store; pairs
     * with read_consistent's acquire fence. */
    atomic_fetch_add_explicit(&reg->generation, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
}

static void write_end(petw__registry *reg, intptr_t fd)
{
    /* release: the tables before the even value readers acquire. */
    atomic_fetch_add_explicit(&reg->generation, 1, memory_order_release);
    petw__lock_drop(fd, PETW__REG_LOCK_WRITE);
    petw__futex_wake_all((const uint32_t *)&reg->generation);
}

static void drop_enables(petw__registry *reg, uint32_t slot)
{
    for (uint32_t i = 0; i < PETW__REG_ENABLES; i++)
        if (reg->enables[i].slot_plus1 == slot + 1) {
            memset(&reg->enables[i], 0, sizeof(reg->enables[i]));
            memset(&reg->filters[i], 0, sizeof(reg->filters[i]));
        }
}

int petw__reg_claim(petw__registry *reg, intptr_t fd, const char *name, uint32_t pid, uint32_t mode,
                    uint32_t *slot_out, uint32_t *gen_out)
{
    write_begin(reg, fd);
    uint32_t slot = PETW_MAX_SESSIONS;
    int rc = 0;
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++) {
        petw__reg_session *s = &reg->sessions[i];
        if (s->state != PETW__REG_FREE && !petw__lock_held(fd, PETW__REG_LOCK_SLOT(i))) {
            /* Its host died: the name is free again. */
            s->state = PETW__REG_FREE;
            drop_enables(reg, i);
        }
        if (s->state != PETW__REG_FREE && strncmp(s->name, name, PETW_MAX_NAME) == 0)
            rc = PETW_EEXIST;
        if (s->state == PETW__REG_FREE && slot == PETW_MAX_SESSIONS)
            slot = i;
    }
    if (rc == 0 && slot == PETW_MAX_SESSIONS)
        rc = PETW_ELIMIT;
    if (rc == 0 && petw__lock_take(fd, PETW__REG_LOCK_SLOT(slot), 0) != 0)
        rc = PETW_EBUSY;
    if (rc == 0) {
        petw__reg_session *s = &reg->sessions[slot];
        s->gen = s->gen + 1 ? s->gen + 1 : 1;
        s->host_pid = pid;
        s->log_file_mode = mode;
        snprintf(s->name, sizeof(s->name), "%s", name);
        drop_enables(reg, slot);
        s->state = PETW__REG_RUNNING;
        *slot_out = slot;
        *gen_out = s->gen;
    }
    write_end(reg, fd);
    return rc;
}

int petw__reg_enable(petw__registry *reg, intptr_t fd, uint32_t slot, const uint64_t guid[2],
                     uint8_t level, uint64_t any, uint64_t all, const petw__enable_filter *filter)
{
    write_begin(reg, fd);
    uint32_t same = 0, found = PETW__REG_ENABLES, free_entry = PETW__REG_ENABLES;
    for (uint32_t i = 0; i < PETW__REG_ENABLES; i++) {
        petw__reg_entry *e = &reg->enables[i];
        if (!e->slot_plus1) {
            if (free_entry == PETW__REG_ENABLES)
                free_entry = i;
            continue;
        }
        if (e->guid[0] != guid[0] || e->guid[1] != guid[1])
            continue;
        if (e->slot_plus1 == slot + 1)
            found = i;
        else if (petw__lock_held(fd, PETW__REG_LOCK_SLOT(e->slot_plus1 - 1)))
            same++;
    }
    int rc = 0;
    if (found == PETW__REG_ENABLES) {
        if (same >= PETW_MAX_SESSIONS_PER_PROVIDER || free_entry == PETW__REG_ENABLES)
            rc = PETW_ELIMIT;
        found = free_entry;
    }
    if (rc == 0) {
        petw__reg_entry *e = &reg->enables[found];
        e->guid[0] = guid[0];
        e->guid[1] = guid[1];
        e->session_gen = reg->sessions[slot].gen;
        e->level = level;
        e->match_any = any;
        e->match_all = all;
        e->slot_plus1 = slot + 1;
        /* The tag: this write's (odd) generation, which no earlier write
         * had; 0 stays "no filter". */
        if (petw__filter_empty(filter)) {
            memset(&reg->filters[found], 0, sizeof(reg->filters[found]));
            e->filter_tag = 0;
        } else {
            reg->filters[found] = *filter;
            e->filter_tag = atomic_load_explicit(&reg->generation, memory_order_relaxed);
        }
    }
    write_end(reg, fd);
    return rc;
}

/* Bumps the capture counter of (clear == 0), or frees (clear == 1), the
 * session's entries for `guid`, under the write lock. */
static int change_entries(petw__registry *reg, intptr_t fd, uint32_t slot, const uint64_t guid[2],
                          int clear)
{
    write_begin(reg, fd);
    int rc = PETW_ENOTFOUND;
    for (uint32_t i = 0; i < PETW__REG_ENABLES; i++) {
        petw__reg_entry *e = &reg->enables[i];
        if (e->slot_plus1 != slot + 1 || e->guid[0] != guid[0] || e->guid[1] != guid[1])
            continue;
        if (clear) {
            memset(e, 0, sizeof(*e));
            memset(&reg->filters[i], 0, sizeof(reg->filters[i]));
        } else {
            e->capture++;
        }
        rc = 0;
    }
    write_end(reg, fd);
    return rc;
}

int petw__reg_capture(petw__registry *reg, intptr_t fd, uint32_t slot, const uint64_t guid[2])
{
    return change_entries(reg, fd, slot, guid, 0);
}

int petw__reg_disable(petw__registry *reg, intptr_t fd, uint32_t slot, const uint64_t guid[2])
{
    return change_entries(reg, fd, slot, guid, 1);
}

void petw__reg_stopping(petw__registry *reg, intptr_t fd, uint32_t slot)
{
    write_begin(reg, fd);
    reg->sessions[slot].state = PETW__REG_STOPPING;
    drop_enables(reg, slot);
    write_end(reg, fd);
}

void petw__reg_release(petw__registry *reg, intptr_t fd, uint32_t slot)
{
    write_begin(reg, fd);
    reg->sessions[slot].state = PETW__REG_FREE;
    drop_enables(reg, slot);
    write_end(reg, fd);
    petw__lock_drop(fd, PETW__REG_LOCK_SLOT(slot));
}
