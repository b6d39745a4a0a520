/* SPDX-License-Identifier: MIT */
/* profile_stacks.c - CPU samples and their stacks: a sample waits for its
 * thread's StackWalk (written right after it), or for the keys of its cached
 * stack, and is counted with that stack, or alone when the thread's next
 * sample or the end comes first; each distinct stack kept once.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"
#include "petw/consume.h"
#include "petw/decode.h"

/* The distinct stack of thread `tid` with `n` frames (innermost first),
 * added with no samples when new; PETW__MAP_NONE when it has no frame (or memory
 * failed). */
uint32_t petw__profile_stack_of(petw_profile *p, uint32_t tid, uint32_t pid, const uint64_t *frames,
                                uint32_t n, int ptr4)
{
    uint32_t locs[PETW__PROFILE_MAX_FRAMES];
    uint32_t m = 0;
    for (uint32_t k = 0; k < n && m < PETW__PROFILE_MAX_FRAMES; k++) {
        if (!frames[k] || frames[k] >= 0xFFFFFFFFFFFFF000ull)
            continue;
        uint32_t loc = petw__profile_location_of(p, pid, frames[k], ptr4);
        if (loc == PETW__MAP_NONE)
            return PETW__MAP_NONE;
        locs[m++] = loc;
    }
    if (!m)
        return PETW__MAP_NONE;
    uint64_t h = petw__profile_hash_bytes(petw__mix(((uint64_t)pid << 32) | tid), locs,
                                          m * sizeof(uint32_t));
    for (;; h++) {
        uint32_t k = petw__map_get(&p->stack_by_hash, h);
        if (k == PETW__MAP_NONE)
            break;
        petw_profile_stack *s = &p->stacks[k];
        if (s->pid == pid && s->tid == tid && s->frame_count == m &&
            !memcmp(p->frames + (uintptr_t)s->frames, locs, m * sizeof(uint32_t))) {
            return k;
        }
    }
    if (petw__grow((void **)&p->stacks, &p->stack_cap, p->stack_count + 1, sizeof(*p->stacks)) ||
        petw__grow((void **)&p->frames, &p->frame_cap, p->frame_count + m, sizeof(*p->frames))) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    /* frames holds an offset into p->frames until the end (it moves). */
    p->stacks[p->stack_count] =
        (petw_profile_stack){pid, tid, 0, m, (const uint32_t *)(uintptr_t)p->frame_count, 0};
    memcpy(p->frames + p->frame_count, locs, m * sizeof(uint32_t));
    p->frame_count += m;
    if (petw__map_put(&p->stack_by_hash, h, p->stack_count++))
        p->error = PETW_ENOMEM;
    return p->stack_count - 1;
}

/* Counts `count` samples of thread `tid` with `n` frames (innermost first),
 * at `times` on `cpus` (NULL: at the thread's pending sample's). */
static void add_sample(petw_profile *p, uint32_t tid, uint32_t pid, const uint64_t *frames,
                       uint32_t n, int ptr4, uint32_t count, const int64_t *times,
                       const uint32_t *cpus)
{
    if (!petw__profile_pid_wanted(p, pid) || (p->c.tid && tid != p->c.tid))
        return;
    uint32_t index = petw__profile_stack_of(p, tid, pid, frames, n, ptr4);
    if (index == PETW__MAP_NONE)
        return;
    p->stacks[index].samples += count;
    p->samples += count;
    if (p->hooks->sample) {
        uint32_t t = petw__map_get(&p->thread_by_tid, tid);
        const petw__thread_state *ts = t == PETW__MAP_NONE ? NULL : &p->tstate[t];
        for (uint32_t k = 0; k < count; k++) {
            petw_profile_sample e = {times ? times[k]
                                     : ts  ? ts->pending_time
                                           : 0,
                                     cpus ? cpus[k]
                                     : ts ? ts->pending_cpu
                                          : 0,
                                     tid, pid, index};
            p->hooks->sample(p->c.hooks_context, &e);
        }
    }
    uint32_t t = petw__profile_thread_index(p, tid, pid);
    if (t != PETW__MAP_NONE)
        p->threads[t].samples += count;
    uint32_t pk = petw__profile_process_index(p, pid, 1);
    if (pk != PETW__MAP_NONE)
        p->processes[pk].samples += count;
}

/* A cached stack resolved (petw__stackkeys' emit). */
void petw__profile_add_keyed(void *context, uint32_t pid, uint32_t tid, const uint64_t *frames,
                             uint32_t n, uint32_t count, const int64_t *times, const uint32_t *cpus)
{
    petw_profile *p = context;
    add_sample(p, tid, pid, frames, n, p->ptr4, count, times, cpus);
}

uint32_t petw__profile_pid_of_thread(petw_profile *p, uint32_t tid)
{
    uint32_t k = petw__map_get(&p->thread_by_tid, tid);
    return k == PETW__MAP_NONE ? 0 : p->threads[k].pid;
}

/* Thread t's sample, with no stack yet, is counted: alone, or waiting for
 * its cached stack's keys. */
void petw__profile_flush_pending(petw_profile *p, uint32_t t, int ptr4)
{
    petw__thread_state *ts = &p->tstate[t];
    if (!ts->has_pending)
        return;
    ts->has_pending = 0;
    if (ts->pending_key[0] || ts->pending_key[1]) {
        if (petw__stackkeys_reference(&p->stackkeys, ts->pending_pid, p->threads[t].tid,
                                      ts->pending_ip, ts->pending_key[0], ts->pending_key[1],
                                      ts->pending_time, ts->pending_cpu, p->hooks->sample != NULL))
            p->error = PETW_ENOMEM;
        ts->pending_key[0] = ts->pending_key[1] = 0;
        return;
    }
    add_sample(p, p->threads[t].tid, ts->pending_pid, &ts->pending_ip, 1, ptr4, 1, NULL, NULL);
}

/* Every sample that named a key is waiting for it before a definition. */
static void flush_keyed(petw_profile *p)
{
    for (uint32_t k = 0; k < p->keyed_count; k++) {
        uint32_t t = p->keyed_threads[k];
        p->tstate[t].keyed = 0;
        if (p->tstate[t].pending_key[0] || p->tstate[t].pending_key[1])
            petw__profile_flush_pending(p, t, p->ptr4);
    }
    p->keyed_count = 0;
}

void petw__profile_on_sample(petw_profile *p, const petw_event_record *r, int ptr4)
{
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8;
    if (r->user_data_length < ps + 4 || !petw__profile_in_time(p, r->header.timestamp))
        return;
    uint64_t ip = ptr4 ? petw__rd32(d) : petw__rd64(d);
    uint32_t tid = petw__rd32(d + ps);
    uint32_t t = petw__profile_thread_index(p, tid, PETW__MAP_NONE);
    if (t == PETW__MAP_NONE)
        return;
    petw__profile_flush_pending(p, t, ptr4);
    petw__thread_state *ts = &p->tstate[t];
    ts->has_pending = 1;
    ts->stack_for = PETW__STACK_FOR_SAMPLE;
    ts->pending_ip = ip;
    ts->pending_pid = petw__profile_pid_of_thread(p, tid);
    ts->pending_time = r->header.timestamp;
    ts->pending_cpu = petw__profile_cpu_of(r);
}

void petw__profile_on_stack(petw_profile *p, const petw_event_record *r, int ptr4)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < 16)
        return;
    uint32_t pid = petw__rd32(d + PETW__STACK_PID), tid = petw__rd32(d + PETW__STACK_TID);
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    if (t != PETW__MAP_NONE && (p->tstate[t].stack_for == PETW__STACK_FOR_SWITCH ||
                                p->tstate[t].stack_for == PETW__STACK_FOR_READY)) {
        petw__profile_on_switch_stack(p, r, t, pid, ptr4);
        return;
    }
    if (t == PETW__MAP_NONE || !p->tstate[t].has_pending)
        return; /* the stack of an event that is not a kept sample */
    p->tstate[t].has_pending = 0;
    uint32_t ps = ptr4 ? 4 : 8, n = (r->user_data_length - 16u) / ps;
    uint64_t frames[PETW__PROFILE_MAX_FRAMES];
    if (n > PETW__PROFILE_MAX_FRAMES)
        n = PETW__PROFILE_MAX_FRAMES;
    for (uint32_t k = 0; k < n; k++)
        frames[k] = ptr4 ? petw__rd32(d + 16 + 4 * k) : petw__rd64(d + 16 + 8 * k);
    if (p->threads[t].pid == 0 && pid)
        p->threads[t].pid = pid;
    /* The stack starts at the sampled address (Windows and petw both). */
    add_sample(p, tid, pid ? pid : p->tstate[t].pending_pid, frames, n, ptr4, 1, NULL, NULL);
}

/* StackKeyKernel (user 0) or StackKeyUser (user 1): the pending sample's
 * stack is a cache key. The user part comes last: with it, the sample
 * waits for its keys at once. */
void petw__profile_on_stack_key(petw_profile *p, const petw_event_record *r, int user, int ptr4)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < (ptr4 ? 20u : 24u))
        return;
    uint32_t pid = petw__rd32(d + 8), tid = petw__rd32(d + 12);
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    if (t != PETW__MAP_NONE && p->tstate[t].stack_for != PETW__STACK_FOR_SAMPLE) {
        p->tstate[t].stack_for =
            PETW__STACK_FOR_NONE; /* a switch's or wake-up's: not kept cached */
        return;
    }
    if (t == PETW__MAP_NONE || !p->tstate[t].has_pending)
        return; /* the stack of an event that is not a kept sample */
    petw__thread_state *ts = &p->tstate[t];
    ts->pending_key[user] = ptr4 ? petw__rd32(d + 16) : petw__rd64(d + 16);
    if (pid && !ts->pending_pid)
        ts->pending_pid = pid;
    if (user) {
        petw__profile_flush_pending(p, t, ptr4);
    } else if (!ts->keyed) {
        if (petw__grow((void **)&p->keyed_threads, &p->keyed_cap, p->keyed_count + 1,
                       sizeof(*p->keyed_threads))) {
            p->error = PETW_ENOMEM;
            return;
        }
        ts->keyed = 1;
        p->keyed_threads[p->keyed_count++] = t;
    }
}

/* KeyDelete or KeyRundown: a key's frames. */
void petw__profile_on_stack_key_def(petw_profile *p, const petw_event_record *r, int ptr4)
{
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8;
    if (r->user_data_length < ps || !p->stackkeys)
        return;
    flush_keyed(p);
    uint32_t n = (r->user_data_length - ps) / ps;
    uint64_t frames[PETW__PROFILE_MAX_FRAMES];
    if (n > PETW__PROFILE_MAX_FRAMES)
        n = PETW__PROFILE_MAX_FRAMES;
    for (uint32_t k = 0; k < n; k++)
        frames[k] = ptr4 ? petw__rd32(d + ps + 4 * k) : petw__rd64(d + ps + 8 * k);
    uint64_t key = ptr4 ? petw__rd32(d) : petw__rd64(d);
    if (petw__stackkeys_define(p->stackkeys, key, frames, n, petw__profile_add_keyed, p))
        p->error = PETW_ENOMEM;
}
