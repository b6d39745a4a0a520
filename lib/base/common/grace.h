/* SPDX-License-Identifier: MIT */
/* grace.h - freeing what lock-free readers may still hold: a grace period.
 *
 * Allowed dependencies: platform/, libuv.
 *
 * A reader (EventWrite reading a provider's dispatch list) marks the span
 * in which it may hold a pointer it loaded: petw__read_enter before the
 * load, petw__read_exit after its last use. The marks are two plain stores
 * to the thread's own word, no fence and no locked instruction; the
 * reclaiming side pays instead, with one process-wide barrier
 * (petw__membarrier) per batch, as userspace RCU's "memb" flavour does.
 *
 * The writer of the pointer (the control thread) unpublishes an object,
 * then hands it to petw__grace_retire. Retired objects wait in `pending`;
 * a poll (each retire runs one) that finds no batch in flight issues the
 * barrier, moves `pending` into the batch, and notes each registered
 * reader's word. A later poll frees the batch once every reader then
 * inside a span has left it: its word's sequence moved on. Polls never
 * wait, so a reader stalled inside a span only delays the batch.
 *
 * Why the batch is safe to free. A reader's enter store precedes its load
 * of the pointer in program order, but x86 (and every weaker CPU) may let
 * the load pass the store. The barrier runs a full fence on every thread of
 * the process at some point P of its execution. If the reader's load came
 * after P, it saw the new pointer (the unpublishing store came before the
 * barrier). If it came before P, its enter store is visible at P, so the
 * note taken after the barrier sees the reader inside (depth > 0), and the
 * batch waits until that span's exit, whose release store pairs with the
 * poll's acquire load: every use of the old object happens before the free.
 * A thread that registers after the note cannot hold a batch object: its
 * registration takes the registry lock after the note released it.
 *
 * A reader's word packs (sequence << 16) | depth: enter adds 1 to the
 * depth; exit takes 1 away and, when the depth returns to 0, adds 1 to the
 * sequence. Nested spans (a signal handler writing an event inside an
 * EventWrite) keep the outer span's sequence, so a note taken inside it
 * waits for the outermost exit. A signal between an enter's load and store
 * can make the store undo the handler's whole span (sequence back by one);
 * the outer span's own load of the pointer still comes after that store,
 * so the argument above holds for it, and the handler's span was over.
 *
 * Where the system has no process-wide barrier, nothing is freed (the
 * objects stay retired, as before grace periods existed); so is a batch
 * whose barrier failed. A thread that exits leaves the registry (a thread
 * key's exit function); a fork's child keeps only the thread that forked.
 */
#ifndef PETW_GRACE_H
#define PETW_GRACE_H

#include <stdatomic.h>
#include <stdint.h>

#include "../platform/platform.h" /* PETW__TLS_HOT */

/* An object waiting for its grace period: embed it, give its free. */
typedef struct petw__retired {
    struct petw__retired *next;
    void (*free_fn)(struct petw__retired *self);
} petw__retired;

typedef struct petw__reader {
    /* (sequence << 16) | depth; 0 until the thread registers. Written by
     * its thread only; read by polls under the registry lock. */
    _Atomic uint64_t word;
    /* Registry lock only: the word as the batch's note saw it, and the
     * links of the registered readers. */
    uint64_t note;
    struct petw__reader *prev, *next;
} petw__reader;

extern _Thread_local petw__reader petw__tls_reader PETW__TLS_HOT;

/* Registers the calling thread (its first span): takes the registry lock,
 * arms the thread-exit key. Out of line; once per thread. */
void petw__reader_register(petw__reader *r);

#define PETW__READER_SEQ ((uint64_t)1 << 16)
#define PETW__READER_DEPTH(w) ((w)&0xFFFFu)

/* Opens a read span; returns what petw__read_exit stores. */
static inline uint64_t petw__read_enter(void)
{
    /* relaxed: only this thread writes the word. */
    uint64_t w = atomic_load_explicit(&petw__tls_reader.word, memory_order_relaxed);
    if (__builtin_expect(w == 0, 0)) {
        petw__reader_register(&petw__tls_reader);
        w = atomic_load_explicit(&petw__tls_reader.word, memory_order_relaxed);
    }
    /* relaxed: the barrier orders it before the pointer's load for the
     * reclaimer (see above). */
    atomic_store_explicit(&petw__tls_reader.word, w + 1, memory_order_relaxed);
    /* seq_cst signal fence: compiler-only, keeps the pointer's load below
     * the store; the CPU's side is the reclaimer's barrier. */
    atomic_signal_fence(memory_order_seq_cst);
    /* The word after the exit: the same depth as before, and the sequence
     * one on when this is the outermost span. A nested span (a signal
     * handler's) leaves the word as it found it, so the exit needs no
     * second load. */
    return PETW__READER_DEPTH(w) == 0 ? w + PETW__READER_SEQ : w;
}

/* As petw__read_enter when this thread is registered (it has read before):
 * opens the span, stores what petw__read_exit stores in *exit_word and
 * returns 1. Else returns 0 and opens nothing (registering is a call: a
 * caller that must not make one there takes its slow path). */
static inline int petw__read_enter_fast(uint64_t *exit_word)
{
    /* relaxed: as in petw__read_enter. */
    uint64_t w = atomic_load_explicit(&petw__tls_reader.word, memory_order_relaxed);
    if (__builtin_expect(w == 0, 0))
        return 0;
    /* relaxed, and the compiler-only fence: as in petw__read_enter. */
    atomic_store_explicit(&petw__tls_reader.word, w + 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
    *exit_word = PETW__READER_DEPTH(w) == 0 ? w + PETW__READER_SEQ : w;
    return 1;
}

static inline void petw__read_exit(uint64_t exit_word)
{
    /* release: every use of what the span loaded happens before a poll
     * that sees the span over (its acquire load of the word). */
    atomic_store_explicit(&petw__tls_reader.word, exit_word, memory_order_release);
}

/* Hands `obj` (already unpublished) to the grace period and polls.
 * Control lock held. */
void petw__grace_retire(petw__retired *obj);
/* Frees the batch in flight if its grace period is over and starts the
 * next one; returns how many objects it freed. Never waits. */
uint32_t petw__grace_poll(void);
/* Objects retired and not yet freed (for tests and statistics). */
uint64_t petw__grace_waiting(void);

#endif /* PETW_GRACE_H */
