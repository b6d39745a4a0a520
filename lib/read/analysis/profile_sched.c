/* SPDX-License-Identifier: MIT */
/* profile_sched.c - scheduling: each thread's time running, ready and
 * waiting from CSwitch and ReadyThread (read at their fixed offsets), who
 * readied it, and the off-CPU waits with the stacks that blocked and readied
 * them.
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

/* ---- Off-CPU: waits with the stacks they blocked and were readied with ---- */

/* Thread t's switch in, awaited since its CSwitch, is counted with
 * `stack` (where it had blocked; PETW__MAP_NONE: no stack came). */
void petw__profile_add_offcpu(petw_profile *p, uint32_t t, uint32_t stack)
{
    petw__thread_state *ts = &p->tstate[t];
    ts->has_wait = 0;
    const petw_profile_thread *th = &p->threads[t];
    if (!petw__profile_pid_wanted(p, th->pid) || (p->c.tid && th->tid != p->c.tid))
        return;
    uint32_t by = ts->wait_by, by_stack = ts->wait_by_stack;
    uint64_t key[2] = {(uint64_t)th->tid << 32 | stack, (uint64_t)by << 32 | by_stack};
    uint64_t h = petw__profile_hash_bytes(0x6f66666370755f31ull, key, sizeof(key));
    uint32_t k;
    for (;; h++) {
        k = petw__map_get(&p->offcpu_by_hash, h);
        if (k == PETW__MAP_NONE)
            break;
        const petw_profile_offcpu *o = &p->offcpu[k];
        if (o->tid == th->tid && o->pid == th->pid && o->stack == stack && o->ready_tid == by &&
            o->ready_stack == by_stack)
            break;
    }
    if (k == PETW__MAP_NONE) {
        if (petw__grow((void **)&p->offcpu, &p->offcpu_cap, p->offcpu_count + 1,
                       sizeof(*p->offcpu)) ||
            petw__map_put(&p->offcpu_by_hash, h, p->offcpu_count)) {
            p->error = PETW_ENOMEM;
            return;
        }
        k = p->offcpu_count++;
        p->offcpu[k] = (petw_profile_offcpu){
            th->pid, th->tid, stack, by ? petw__profile_pid_of_thread(p, by) : 0, by, by_stack, 0,
            0,       0,       0};
    }
    petw_profile_offcpu *o = &p->offcpu[k];
    o->waits++;
    o->waiting += ts->wait_waiting;
    o->ready += ts->wait_ready;
    if (ts->wait_waiting > o->waiting_max)
        o->waiting_max = ts->wait_waiting;
    if (stack != PETW__MAP_NONE)
        p->stacks[stack].offcpu += ts->wait_waiting;
}

/* The StackWalk after thread t's switch in (where it had blocked) or
 * after its ReadyThread as the waker (its own stack then). */
void petw__profile_on_switch_stack(petw_profile *p, const petw_event_record *r, uint32_t t,
                                   uint32_t pid, int ptr4)
{
    petw__thread_state *ts = &p->tstate[t];
    int kind = ts->stack_for;
    ts->stack_for = PETW__STACK_FOR_NONE;
    petw__thread_state *v =
        kind == PETW__STACK_FOR_READY && ts->woke < p->thread_count ? &p->tstate[ts->woke] : NULL;
    if (kind == PETW__STACK_FOR_SWITCH ? !ts->has_wait
                                       : !v || !v->readied_at || v->ready_by != p->threads[t].tid)
        return; /* a switch in that ended no wait, a wake-up of a thread not blocked */
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8, n = (r->user_data_length - PETW__STACK_FRAMES) / ps;
    uint64_t frames[PETW__PROFILE_MAX_FRAMES];
    if (n > PETW__PROFILE_MAX_FRAMES)
        n = PETW__PROFILE_MAX_FRAMES;
    for (uint32_t k = 0; k < n; k++)
        frames[k] = ptr4 ? petw__rd32(d + PETW__STACK_FRAMES + 4 * k)
                         : petw__rd64(d + PETW__STACK_FRAMES + 8 * k);
    if (!pid)
        pid = p->threads[t].pid;
    uint32_t stack = petw__profile_stack_of(p, p->threads[t].tid, pid, frames, n, ptr4);
    if (kind == PETW__STACK_FOR_SWITCH)
        petw__profile_add_offcpu(p, t, stack);
    else
        v->ready_stack = stack;
}

/* Switch accounting: time in the state a thread leaves. */
void petw__profile_leave_state(petw_profile *p, uint32_t t, int64_t now)
{
    petw__thread_state *ts = &p->tstate[t];
    petw_profile_thread *th = &p->threads[t];
    if (ts->state && ts->since && now > ts->since) {
        int64_t a = ts->since > p->c.start_time || !p->c.start_time ? ts->since : p->c.start_time;
        int64_t b = p->c.end_time && now > p->c.end_time ? p->c.end_time : now;
        uint64_t d = b > a ? (uint64_t)(b - a) : 0;
        if (ts->state == 1)
            th->running += d;
        else if (ts->state == 2)
            th->ready += d;
        else
            th->waiting += d;
    }
    ts->since = now;
}

/* Thread t runs again: a wait it had (it blocked, then was readied) waits
 * for the StackWalk that may follow (where it had blocked). */
static void switched_in(petw_profile *p, uint32_t t, int64_t now)
{
    petw__thread_state *ts = &p->tstate[t];
    if (ts->has_wait)
        petw__profile_add_offcpu(p, t, PETW__MAP_NONE);
    if (ts->blocked_at && now >= ts->blocked_at && petw__profile_in_time(p, now)) {
        int64_t readied = ts->readied_at && ts->readied_at <= now ? ts->readied_at : now;
        ts->wait_waiting = readied > ts->blocked_at ? (uint64_t)(readied - ts->blocked_at) : 0;
        ts->wait_ready = (uint64_t)(now - readied);
        ts->wait_by = ts->readied_at ? ts->ready_by : 0;
        ts->wait_by_stack = ts->readied_at ? ts->ready_stack : PETW__MAP_NONE;
        ts->wait_time = now;
        ts->has_wait = 1;
    }
    ts->stack_for = PETW__STACK_FOR_SWITCH; /* a StackWalk next is its switch's, wait or not */
    ts->blocked_at = ts->readied_at = 0;
}

void petw__profile_on_cswitch(petw_profile *p, const petw_event_record *r)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < 16)
        return;
    int64_t now = r->header.timestamp;
    uint32_t new_tid = petw__rd32(d + PETW__CSWITCH_NEW_TID);
    uint32_t old_tid = petw__rd32(d + PETW__CSWITCH_OLD_TID);
    uint8_t reason = d[PETW__CSWITCH_OLD_WAIT_REASON], state = d[PETW__CSWITCH_OLD_STATE];
    if (p->hooks->cswitch) {
        uint32_t new_pid = r->header.process_id;
        if (!new_pid || new_pid == UINT32_MAX)
            new_pid = petw__profile_pid_of_thread(p, new_tid);
        petw_profile_switch e = {now,
                                 petw__profile_cpu_of(r),
                                 old_tid,
                                 petw__profile_pid_of_thread(p, old_tid),
                                 new_tid,
                                 new_pid,
                                 (int8_t)d[PETW__CSWITCH_NEW_PRIORITY],
                                 (int8_t)d[PETW__CSWITCH_OLD_PRIORITY],
                                 state,
                                 reason};
        p->hooks->cswitch(p->c.hooks_context, &e);
    }
    if (old_tid) {
        uint32_t t = petw__profile_thread_index(p, old_tid, PETW__MAP_NONE);
        if (t != PETW__MAP_NONE) {
            petw__thread_state *ts = &p->tstate[t];
            if (ts->has_wait)
                petw__profile_add_offcpu(p, t,
                                         PETW__MAP_NONE); /* its switch in's stack never came */
            if (ts->stack_for == PETW__STACK_FOR_SWITCH)
                ts->stack_for = PETW__STACK_FOR_NONE;
            petw__profile_leave_state(p, t, now);
            p->tstate[t].state =
                state == PETW__THREAD_STATE_READY || state == PETW__THREAD_STATE_DEFERRED_READY ? 2
                                                                                                : 3;
            if (petw__profile_in_time(p, now)) {
                if (p->tstate[t].state == 2)
                    p->threads[t].preempted++;
                p->threads[t].wait_reasons[reason < 40 ? reason : 39]++;
            }
            ts->blocked_at = ts->state == 3 ? now : 0;
            ts->readied_at = 0;
        }
    }
    if (new_tid) {
        uint32_t t = petw__profile_thread_index(
            p, new_tid, r->header.process_id ? r->header.process_id : PETW__MAP_NONE);
        if (t != PETW__MAP_NONE) {
            petw__profile_leave_state(p, t, now);
            p->tstate[t].state = 1;
            if (petw__profile_in_time(p, now))
                p->threads[t].switches_in++;
            switched_in(p, t, now);
        }
    }
}

void petw__profile_on_ready(petw_profile *p, const petw_event_record *r)
{
    if (r->user_data_length < 4)
        return;
    int64_t now = r->header.timestamp;
    uint32_t t = petw__profile_thread_index(
        p, petw__rd32((const uint8_t *)r->user_data + PETW__READY_TID), PETW__MAP_NONE);
    if (t == PETW__MAP_NONE)
        return;
    if (p->hooks->wakeup) {
        petw_profile_wakeup e = {now,
                                 petw__profile_cpu_of(r),
                                 p->threads[t].tid,
                                 p->threads[t].pid,
                                 r->header.thread_id,
                                 r->header.process_id};
        p->hooks->wakeup(p->c.hooks_context, &e);
    }
    petw__thread_state *ts = &p->tstate[t];
    if (ts->state == 3) {
        petw__profile_leave_state(p, t, now);
        ts->state = 2;
    }
    if (ts->blocked_at && !ts->readied_at) {
        ts->readied_at = now;
        ts->ready_by = r->header.thread_id;
        ts->ready_stack = PETW__MAP_NONE;
    }
    uint32_t w = r->header.thread_id ? petw__map_get(&p->thread_by_tid, r->header.thread_id)
                                     : PETW__MAP_NONE;
    if (w != PETW__MAP_NONE) {
        p->tstate[w].stack_for = PETW__STACK_FOR_READY; /* a StackWalk next: the readying stack */
        p->tstate[w].woke = t;
    }
    if (!petw__profile_in_time(p, now))
        return;
    p->threads[t].readied++;
    uint32_t by = r->header.thread_id, slot = 3;
    for (uint32_t k = 0; k < 4; k++) {
        if (ts->readers[k] == by || ts->reader_counts[k] == 0) {
            slot = k;
            break;
        }
        if (ts->reader_counts[k] < ts->reader_counts[slot])
            slot = k;
    }
    if (ts->readers[slot] != by) {
        ts->readers[slot] = by;
        ts->reader_counts[slot] = 0;
    }
    ts->reader_counts[slot]++;
}

/* A thread that ended is in no state any more (Linux records no switch
 * out of an exiting thread). */
static void on_thread_end(petw_profile *p, uint32_t tid, int64_t now)
{
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    if (t == PETW__MAP_NONE)
        return;
    petw__profile_leave_state(p, t, now);
    p->tstate[t].state = 0;
}

void petw__profile_on_thread(petw_profile *p, const petw_event_record *r, int opcode)
{
    const uint8_t *d = r->user_data;
    uint32_t pid = petw__rd32(d), tid = petw__rd32(d + 4);
    if (opcode == PETW__OP_END)
        on_thread_end(p, tid, r->header.timestamp);
    else
        (void)petw__profile_thread_index(p, tid, pid);
    if (p->hooks->thread)
        p->hooks->thread(p->c.hooks_context, tid, pid, opcode, r->header.timestamp);
}
