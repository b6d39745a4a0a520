/* SPDX-License-Identifier: MIT */
/* bench_floor - where an enabled EventWrite's time goes: the baseline's
 * loop, grown one step at a time towards what petw's fast path does, in one
 * process, each variant the median of R runs, alternated, timed by the
 * thread's CPU time (which other processes' turns on the CPU leave out).
 *
 *   floor-copy72     read the TSC, copy 72 bytes into a 1 MB per-thread ring
 *                    (bench_eventwrite's baseline-tsc)
 *   floor-copy144    the same with petw's record: an 80-byte EVENT_HEADER
 *                    and the 64-byte payload (144 bytes, 8-aligned)
 *   floor-reserve    a compare-and-swap on a per-CPU word reserves the
 *                    space (petw's reserve: lock cmpxchg on x86)
 *   floor-commit     an atomic add on the buffer's control word publishes
 *                    the record (petw's commit: lock xadd)
 *   floor-both       reserve and commit: the shape of petw's fast path
 *   floor-both-cold  the same into a 48 MB ring, so every line written
 *                    misses the cache (a buffering session's pool)
 *   floor-both-narrow  floor-both, the record stored field by field as
 *                    petw's EventWrite stores it (18 stores, not 10)
 *   floor-eventwrite the least an EventWrite can do to write that record:
 *                    a call taking a registration handle, an event
 *                    descriptor and 5 data descriptors; the handle's slot
 *                    and generation checked, the session's level and
 *                    keywords matched, the descriptors walked to size the
 *                    record (a NULL pointer with a size refused), the CPU
 *                    number from the rseq area, the header's fields from
 *                    the thread (ID, activity ID), the process and the
 *                    event, the payload copied through the descriptors.
 *                    One session, a ring that never fills: no buffer
 *                    switch, loss count or record padding, no grace
 *                    period beyond one thread-local word. What petw's
 *                    EventWrite could cost at best on this machine.
 *
 * The atomics are uncontended (one thread), as in petw's single-writer
 * case; what they cost is the store buffer draining before each locked
 * instruction. Prints one JSON line per variant.
 *
 * usage: bench_floor [--events N] [--reps R]
 */
#include <sched.h> /* sched_getcpu: the build defines _GNU_SOURCE */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "bench_common.h"
#include "bench_floor_min.h"

#define RING (1u << 20)
#define COLD_RING (48u << 20)

enum { COPY72, COPY144, RESERVE, COMMIT, BOTH, BOTH_COLD, BOTH_NARROW, EVENTWRITE, VARIANTS };
static const char *names[VARIANTS] = {"floor-copy72",      "floor-copy144",   "floor-reserve",
                                      "floor-commit",      "floor-both",      "floor-both-cold",
                                      "floor-both-narrow", "floor-eventwrite"};

typedef struct payload {
    uint64_t a, b, c, d;
    uint8_t arr[32];
} payload;

static inline uint64_t tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

typedef struct floor_ring {
    uint8_t *mem;
    uint32_t size;
    _Atomic uint64_t word;   /* the per-CPU reserve word */
    _Atomic uint64_t commit; /* the buffer's control word */
} floor_ring;

/* One event of variant v: noinline, as EventWrite is a call. */
static __attribute__((noinline)) void write_one(floor_ring *r, int v, const payload *p,
                                                const uint8_t head[80])
{
    uint32_t size = v == COPY72 ? 72 : 144;
    uint64_t off;
    if (v >= RESERVE && v != COMMIT) {
        uint64_t w = atomic_load_explicit(&r->word, memory_order_relaxed);
        do {
            off = w + size > r->size ? 0 : w;
        } while (!atomic_compare_exchange_weak_explicit(
            &r->word, &w, off + size, memory_order_acquire, memory_order_relaxed));
    } else {
        off = atomic_load_explicit(&r->word, memory_order_relaxed);
        if (off + size > r->size)
            off = 0;
        atomic_store_explicit(&r->word, off + size, memory_order_relaxed);
    }
    uint8_t *out = r->mem + off;
    uint64_t t = tsc();
    if (v == COPY72) {
        memcpy(out, &t, 8);
        memcpy(out + 8, p, 64);
    } else if (v == BOTH_NARROW) {
        /* Field by field, as an EVENT_HEADER is filled: 4, 4, 8, 8, 16,
         * 16, 8 and 16 bytes, the payload in its 5 pieces, and the first
         * 4 bytes again last. */
        memcpy(out, head, 4);
        memcpy(out + 4, head + 4, 4);
        memcpy(out + 8, head + 8, 8);
        memcpy(out + 16, &t, 8);
        memcpy(out + 24, head + 24, 16);
        memcpy(out + 40, head + 40, 16);
        memcpy(out + 56, head + 56, 8);
        memcpy(out + 64, head + 64, 16);
        memcpy(out + 80, &p->a, 8);
        memcpy(out + 88, &p->b, 8);
        memcpy(out + 96, &p->c, 8);
        memcpy(out + 104, &p->d, 8);
        memcpy(out + 112, p->arr, 32);
        atomic_signal_fence(memory_order_seq_cst);
        memcpy(out, head, 4);
    } else {
        memcpy(out, head, 80);
        memcpy(out + 16, &t, 8);
        memcpy(out + 80, p, 64);
    }
    if (v == COMMIT || v >= BOTH)
        atomic_fetch_add_explicit(&r->commit, size, memory_order_acq_rel);
}

static double run(floor_ring *r, int v, uint32_t n)
{
    payload p = {1, 2, 3, 4, {0}};
    uint8_t head[80];
    memset(head, 0x11, sizeof(head));
    const min_event d = {1, 0, 0, 4, 0, 0, 1};
    const min_data dd[5] = {{(uintptr_t)&p.a, 8, 0},
                            {(uintptr_t)&p.b, 8, 0},
                            {(uintptr_t)&p.c, 8, 0},
                            {(uintptr_t)&p.d, 8, 0},
                            {(uintptr_t)p.arr, 32, 0}};
    const uint64_t handle = 3 | (uint64_t)7 << 32; /* slot 3, generation 7 */
    double t0 = bench_thread_cpu_ns();             /* the thread's CPU time: see bench_common.h */
    if (v == EVENTWRITE)
        for (uint32_t i = 0; i < n; i++) {
            p.a = i;
            if (write_minimal(handle, &d, 5, dd) != 0)
                abort();
        }
    else
        for (uint32_t i = 0; i < n; i++) {
            p.a = i;
            write_one(r, v, &p, head);
        }
    return (bench_thread_cpu_ns() - t0) / n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    uint32_t n = (uint32_t)strtoul(bench_arg(argc, argv, "--events", "2000000"), NULL, 10);
    int reps = atoi(bench_arg(argc, argv, "--reps", "7"));
    if (n < 1000 || reps < 1 || reps > 1000)
        return 2;
    floor_ring hot = {calloc(1, RING), RING, 0, 0}, cold = {calloc(1, COLD_RING), COLD_RING, 0, 0};
    if (!hot.mem || !cold.mem)
        return 1;
    memset(cold.mem, 0, COLD_RING); /* touched once: no page faults timed */
    min_enable(hot.mem, hot.size);
    double *s = calloc((size_t)reps * VARIANTS, sizeof(double));
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < VARIANTS; k++) {
            int v = (k + r) % VARIANTS;
            s[v * reps + r] = run(v == BOTH_COLD ? &cold : &hot, v, n);
        }
    for (int v = 0; v < VARIANTS; v++) {
        qsort(s + v * reps, (size_t)reps, sizeof(double), cmp_double);
        printf("{\"contender\":\"%s\",\"ns_per_event\":%.2f,\"reps\":%d}\n", names[v],
               s[v * reps + reps / 2], reps);
    }
    free(s);
    free(hot.mem);
    free(cold.mem);
    return 0;
}
