/* SPDX-License-Identifier: MIT */
/* grace.c - the grace period's reclaiming side and the reader registry
 * (see grace.h for the argument). */
#include <stdlib.h>
#include <uv.h>

#include "../platform/platform.h"
#include "common.h"
#include "grace.h"

_Thread_local petw__reader petw__tls_reader PETW__TLS_HOT;

static uv_once_t grace_once = UV_ONCE_INIT;
/* Guards the registry, the notes and the retired lists. Never held while
 * calling out of this file, so a thread's first EventWrite never waits
 * for anything but this list's updates. */
static uv_mutex_t registry_lock;
static petw__reader *readers; /* registered threads */
static uint32_t exit_key;
static int exit_key_ok;

static petw__retired *pending; /* retired, waiting for the next batch */
static petw__retired *batch;   /* noted after a barrier, waiting for its readers */
static uint64_t waiting;       /* objects in pending and batch */
static int no_barrier;         /* the system has none: nothing is ever freed */

static void unlink_reader(petw__reader *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        readers = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->prev = r->next = NULL;
}

/* The thread-exit key's function: the thread leaves the registry before
 * its thread-locals go. */
static void reader_exit(void *arg)
{
    petw__reader *r = arg;
    uv_mutex_lock(&registry_lock);
    unlink_reader(r);
    /* relaxed: under the lock; a later span re-registers. */
    atomic_store_explicit(&r->word, 0, memory_order_relaxed);
    uv_mutex_unlock(&registry_lock);
}

#ifndef PETW__GRACE_TSAN
#if defined(__SANITIZE_THREAD__)
#define PETW__GRACE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PETW__GRACE_TSAN 1
#endif
#endif
#endif

#ifndef PETW__GRACE_TSAN
/* fork(): the child's only thread is the one that forked. Retires and
 * polls run under the control lock, which the forking thread holds across
 * fork() (control.c), so the retired lists are whole; the registry lock may
 * have been held by a thread registering or leaving, so the child makes it
 * again and keeps only its own reader. (Taking the registry lock before
 * fork would invert the lock order: fork handlers run in reverse order of
 * registration, and this file's would come before the control lock's.)
 * Not under TSan, which cannot follow a mutex made again in a child. */
static void fork_child(void)
{
    if (uv_mutex_init(&registry_lock) != 0)
        abort();
    petw__reader *me = &petw__tls_reader;
    /* relaxed: this thread's own word. */
    int registered = atomic_load_explicit(&me->word, memory_order_relaxed) != 0;
    readers = NULL;
    me->prev = me->next = NULL;
    if (registered)
        readers = me;
}
#endif

static void grace_init(void)
{
    if (uv_mutex_init(&registry_lock) != 0)
        abort();
    exit_key_ok = petw__thread_key_create(&exit_key, reader_exit) == 0;
#ifndef PETW__GRACE_TSAN
    petw__on_fork_child(fork_child);
#endif
}

void petw__reader_register(petw__reader *r)
{
    uv_once(&grace_once, grace_init);
    uv_mutex_lock(&registry_lock);
    r->note = 0; /* not inside any batch's note */
    r->prev = NULL;
    r->next = readers;
    if (readers)
        readers->prev = r;
    readers = r;
    /* relaxed: published by the unlock; sequence 1, depth 0. */
    atomic_store_explicit(&r->word, PETW__READER_SEQ, memory_order_relaxed);
    /* Without the key the reader would stay registered after its thread
     * exits, its memory gone: stop freeing instead (never unsafe). */
    if (!exit_key_ok || petw__thread_key_set(exit_key, r) != 0)
        no_barrier = 1;
    uv_mutex_unlock(&registry_lock);
}

/* Registry lock held: every reader noted inside a span has left it. */
static int batch_over(void)
{
    for (petw__reader *r = readers; r; r = r->next) {
        /* acquire: pairs with petw__read_exit's release store: the span's
         * uses of a batch object happen before the free. */
        uint64_t w = atomic_load_explicit(&r->word, memory_order_acquire);
        if (PETW__READER_DEPTH(r->note) != 0 && (w >> 16) == (r->note >> 16))
            return 0;
    }
    return 1;
}

uint32_t petw__grace_poll(void)
{
    uv_once(&grace_once, grace_init);
    uint32_t freed = 0;
    uv_mutex_lock(&registry_lock);
    /* no_barrier: nothing is freed any more, and no reader read (one whose
     * thread key failed may outlive its thread's memory). */
    if (batch && !no_barrier && batch_over()) {
        while (batch) {
            petw__retired *o = batch;
            batch = o->next;
            o->free_fn(o);
            freed++;
            waiting--;
        }
    }
    if (!batch && pending && !no_barrier) {
        if (petw__membarrier() != 0) {
            no_barrier = 1;
        } else {
            batch = pending;
            pending = NULL;
            for (petw__reader *r = readers; r; r = r->next)
                /* acquire: as in batch_over (after the barrier, so a reader
                 * that may hold a batch object is seen inside). */
                r->note = atomic_load_explicit(&r->word, memory_order_acquire);
        }
    }
    uv_mutex_unlock(&registry_lock);
    return freed;
}

void petw__grace_retire(petw__retired *obj)
{
    uv_once(&grace_once, grace_init);
    uv_mutex_lock(&registry_lock);
    obj->next = pending;
    pending = obj;
    waiting++;
    uv_mutex_unlock(&registry_lock);
    petw__grace_poll();
}

uint64_t petw__grace_waiting(void)
{
    uv_once(&grace_once, grace_init);
    uv_mutex_lock(&registry_lock);
    uint64_t n = waiting;
    uv_mutex_unlock(&registry_lock);
    return n;
}
