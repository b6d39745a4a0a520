/* SPDX-License-Identifier: MIT */
/* stackkey.c - samples whose stacks come as cache keys, held until the keys
 * are defined (analysis_internal.h: petw__stackkeys).
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 *
 * Each waiting combination of (process, thread, kernel key, user key) is
 * one entry with its count. An entry is on one list per key it waits for
 * (by_key: key -> first entry; next[] links them). A definition walks its
 * key's list: each entry takes the frames, and leaves by_combo (the key may
 * name another stack from now on, so later samples make a new entry); an
 * entry with every key defined is emitted and its slot reused.
 */
#include <stdlib.h>

#include "analysis_internal.h"

#define NONE PETW__MAP_NONE
#define NO_LIST (PETW__MAP_NONE - 1) /* by_key: nobody waits on the key */

typedef struct entry {
    uint32_t pid, tid;
    uint64_t ip;
    uint64_t key[2];     /* kernel, user: 0 for an absent part */
    uint64_t *frames[2]; /* a defined part's frames */
    uint32_t n[2];
    uint32_t next[2]; /* the next entry waiting on the same key */
    uint32_t count;   /* samples; 0: a free slot (next[0] links the free list) */
    int open;         /* still counted in by_combo */
    int64_t *times;   /* each sample's time and CPU, when kept */
    uint32_t *cpus;
    uint32_t times_cap;
} entry;

struct petw__stackkeys {
    entry *entries;
    uint32_t count, cap, free_head;
    petw__map by_combo, by_key;
};

static uint64_t combo_hash(uint32_t pid, uint32_t tid, uint64_t kkey, uint64_t ukey)
{
    return petw__mix(petw__mix(((uint64_t)pid << 32 | tid) ^ kkey) ^ ukey);
}

static uint32_t new_entry(petw__stackkeys *s)
{
    if (s->free_head != NONE) {
        uint32_t k = s->free_head;
        s->free_head = s->entries[k].next[0];
        return k;
    }
    if (petw__grow((void **)&s->entries, &s->cap, s->count + 1, sizeof(*s->entries)))
        return NONE;
    return s->count++;
}

/* Entry k's sample `count - 1` happened at `time` on `cpu`. */
static int keep_time(entry *e, int64_t time, uint32_t cpu)
{
    uint32_t cap = e->times_cap;
    if (petw__grow((void **)&e->times, &cap, e->count, sizeof(*e->times)) ||
        petw__grow((void **)&e->cpus, &e->times_cap, e->count, sizeof(*e->cpus)))
        return PETW_ENOMEM;
    e->times[e->count - 1] = time;
    e->cpus[e->count - 1] = cpu;
    return 0;
}

int petw__stackkeys_reference(petw__stackkeys **sp, uint32_t pid, uint32_t tid, uint64_t ip,
                              uint64_t kkey, uint64_t ukey, int64_t time, uint32_t cpu,
                              int keep_times)
{
    if (!*sp) {
        *sp = calloc(1, sizeof(**sp));
        if (!*sp)
            return PETW_ENOMEM;
        (*sp)->free_head = NONE;
    }
    petw__stackkeys *s = *sp;
    uint64_t h = combo_hash(pid, tid, kkey, ukey);
    for (;; h++) {
        uint32_t k = petw__map_get(&s->by_combo, h);
        if (k == NONE || !s->entries[k].open)
            break; /* free, or an entry closed to new samples: replaced */
        entry *e = &s->entries[k];
        if (e->pid == pid && e->tid == tid && e->key[0] == kkey && e->key[1] == ukey) {
            e->count++;
            return keep_times ? keep_time(e, time, cpu) : 0;
        }
    }
    uint32_t k = new_entry(s);
    if (k == NONE || petw__map_put(&s->by_combo, h, k))
        return PETW_ENOMEM;
    entry *e = &s->entries[k];
    *e = (entry){pid,          tid, ip, {kkey, ukey}, {NULL, NULL}, {0, 0},
                 {NONE, NONE}, 1,   1,  NULL,         NULL,         0};
    if (keep_times && keep_time(e, time, cpu))
        return PETW_ENOMEM;
    for (int r = 0; r < 2; r++) {
        if (!e->key[r])
            continue;
        uint32_t head = petw__map_get(&s->by_key, e->key[r]);
        e->next[r] = head == NO_LIST ? NONE : head;
        if (petw__map_put(&s->by_key, e->key[r], k))
            return PETW_ENOMEM;
    }
    return 0;
}

/* Entry k's stack (its defined parts, or its address alone) to `emit`;
 * its slot goes to the free list. */
static void emit_entry(petw__stackkeys *s, uint32_t k, petw__stackkey_emit emit, void *context)
{
    entry *e = &s->entries[k];
    uint64_t frames[512];
    uint32_t n = 0;
    for (int r = 0; r < 2; r++)
        for (uint32_t j = 0; j < e->n[r] && n < 512; j++)
            frames[n++] = e->frames[r][j];
    if (!n)
        frames[n++] = e->ip;
    emit(context, e->pid, e->tid, frames, n, e->count, e->times, e->cpus);
    free(e->frames[0]);
    free(e->frames[1]);
    free(e->times);
    free(e->cpus);
    e->frames[0] = e->frames[1] = NULL;
    e->times = NULL;
    e->cpus = NULL;
    e->times_cap = 0;
    e->count = 0;
    e->open = 0;
    e->next[0] = s->free_head;
    s->free_head = k;
}

int petw__stackkeys_define(petw__stackkeys *s, uint64_t key, const uint64_t *frames, uint32_t n,
                           petw__stackkey_emit emit, void *context)
{
    uint32_t k = s && key ? petw__map_get(&s->by_key, key) : NONE;
    if (k == NONE || k == NO_LIST)
        return 0; /* the stack of an event that is not a kept sample */
    if (petw__map_put(&s->by_key, key, NO_LIST))
        return PETW_ENOMEM;
    int rc = 0;
    while (k != NONE) {
        entry *e = &s->entries[k];
        int r = e->key[0] == key ? 0 : 1;
        uint32_t next = e->next[r];
        e->open = 0;
        if (!e->frames[r] && n) {
            e->frames[r] = malloc(n * sizeof(*frames));
            if (e->frames[r]) {
                memcpy(e->frames[r], frames, n * sizeof(*frames));
                e->n[r] = n;
            } else {
                rc = PETW_ENOMEM;
            }
        }
        e->key[r] = 0; /* defined */
        if (!e->key[0] && !e->key[1])
            emit_entry(s, k, emit, context);
        k = next;
    }
    return rc;
}

void petw__stackkeys_finish(petw__stackkeys *s, petw__stackkey_emit emit, void *context)
{
    for (uint32_t k = 0; s && k < s->count; k++)
        if (s->entries[k].count)
            emit_entry(s, k, emit, context);
}

void petw__stackkeys_free(petw__stackkeys *s)
{
    if (!s)
        return;
    for (uint32_t k = 0; k < s->count; k++) {
        free(s->entries[k].frames[0]);
        free(s->entries[k].frames[1]);
        free(s->entries[k].times);
        free(s->entries[k].cpus);
    }
    free(s->entries);
    petw__map_free(&s->by_combo);
    petw__map_free(&s->by_key);
    free(s);
}
