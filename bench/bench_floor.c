/* SPDX-License-Identifier: MIT */
/* bench_floor - where an enabled EventWrite's time goes: the baseline's
 * loop, grown one step at a time towards what petw's fast path does, in one
 * process, each variant the median of R runs, alternated.
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

/* floor-eventwrite: what an enabled provider's session entry holds once
 * the session has enabled it (petw's dispatch entry), per-CPU reserve and
 * commit words on lines of their own, the event and data descriptors of
 * <evntprov.h>, and the thread-locals an event's header takes. */
typedef struct min_cpu {
    _Atomic uint64_t word;   /* the CPU's reserve word */
    _Atomic uint64_t commit; /* its buffer's control word */
    uint8_t pad[48];
} min_cpu;

typedef struct min_session {
    uint32_t gen; /* the registration's generation, in its handle */
    uint8_t level;
    uint64_t any, all;
    uint8_t provider[16];
    uint8_t *mem;
    uint32_t size, ncpu;
    min_cpu *cpus;
} min_session;

typedef struct min_event { /* EVENT_DESCRIPTOR */
    uint16_t id;
    uint8_t version, channel, level, opcode;
    uint16_t task;
    uint64_t keyword;
} min_event;

typedef struct min_data { /* EVENT_DATA_DESCRIPTOR */
    uint64_t ptr;
    uint32_t size, reserved;
} min_data;

#if defined(__ELF__)
#define TLS_IE __attribute__((tls_model("initial-exec")))
#else
#define TLS_IE
#endif
#define MIN_SLOTS 64
#define MIN_CPUS 1024
static _Atomic(const min_session *) min_table[MIN_SLOTS];
static _Thread_local uint32_t min_tid TLS_IE;
static _Thread_local uint8_t min_activity[16] TLS_IE;
static _Thread_local _Atomic uint64_t min_span TLS_IE; /* the read span's word */
static uint32_t min_pid;

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)) &&          \
    (defined(__x86_64__) || defined(__aarch64__))
#define HAVE_RSEQ 1
extern const ptrdiff_t __rseq_offset;
extern const unsigned int __rseq_size;
static ptrdiff_t min_rseq_cpu; /* cpu_id's offset from the thread pointer; 0: none */
#endif

static __attribute__((noinline)) uint32_t min_tid_slow(void)
{
#if defined(__linux__)
    min_tid = (uint32_t)syscall(SYS_gettid);
#else
    min_tid = 1;
#endif
    return min_tid;
}

static inline uint32_t min_cpu_current(void)
{
#ifdef HAVE_RSEQ
    if (__builtin_expect(min_rseq_cpu != 0, 1)) {
        int32_t c =
            *(const volatile int32_t *)((const char *)__builtin_thread_pointer() + min_rseq_cpu);
        if (c >= 0)
            return (uint32_t)c;
    }
#endif
#if defined(__linux__)
    int c = sched_getcpu();
    return c < 0 ? 0u : (uint32_t)c;
#else
    return 0;
#endif
}

/* A call as EventWrite is: not inlined, and its arguments unknown to it
 * (GCC's noipa: no clone specialised for the constant count). */
#if defined(__GNUC__) && !defined(__clang__)
#define NOT_SPECIALISED __attribute__((noipa))
#else
#define NOT_SPECIALISED __attribute__((noinline))
#endif
static NOT_SPECIALISED int write_minimal(uint64_t h, const min_event *d, uint32_t count,
                                         const min_data *data)
{
    /* relaxed: only this thread writes its span word (petw's grace.h). */
    const uint64_t span = atomic_load_explicit(&min_span, memory_order_relaxed);
    atomic_store_explicit(&min_span, span + 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
    int rc = 0;
    const uint32_t slot = (uint32_t)h;
    /* acquire: pairs with the enabling store, the entry's fields first. */
    const min_session *s =
        slot < MIN_SLOTS ? atomic_load_explicit(&min_table[slot], memory_order_acquire) : NULL;
    if (!s || s->gen != (uint32_t)(h >> 32) || count > 128 || (count && !data)) {
        rc = -1;
        goto out;
    }
    if (d->level > s->level ||
        (d->keyword && (!(d->keyword & s->any) || (d->keyword & s->all) != s->all)))
        goto out;
    uint32_t bytes = 0, bad = 0;
    for (uint32_t i = 0; i < count; i++) {
        bytes += data[i].size;
        bad |= data[i].ptr ? 0 : data[i].size;
    }
    if (bad || bytes > 0xFFFF - 80) {
        rc = -2;
        goto out;
    }
    const uint32_t rsize = 80 + bytes, asize = (rsize + 7) & ~7u;
    uint32_t tid = min_tid;
    if (__builtin_expect(tid == 0, 0))
        tid = min_tid_slow();
    uint32_t cpu = min_cpu_current();
    min_cpu *c = &s->cpus[cpu < s->ncpu ? cpu : 0];
    uint64_t w = atomic_load_explicit(&c->word, memory_order_relaxed), off;
    do {
        off = w + asize > s->size ? 0 : w;
    } while (!atomic_compare_exchange_weak_explicit(&c->word, &w, off + asize, memory_order_acquire,
                                                    memory_order_relaxed));
    uint8_t *out = s->mem + off;
    /* EVENT_HEADER: Size, HeaderType, Flags, EventProperty, ThreadId,
     * ProcessId, TimeStamp, ProviderId, EventDescriptor, ProcessorTime,
     * ActivityId; the first 4 bytes last. */
    const uint64_t word0 = rsize | (uint64_t)0xC013 << 16 | (uint64_t)0x0010 << 32;
    const uint64_t word1 = tid | (uint64_t)min_pid << 32;
    memcpy(out + 4, (const uint8_t *)&word0 + 4, 4);
    memcpy(out + 8, &word1, 8);
    memcpy(out + 24, s->provider, 16);
    memcpy(out + 40, d, 16);
    memset(out + 56, 0, 8);
    memcpy(out + 64, min_activity, 16);
    uint8_t *o = out + 80;
    for (uint32_t i = 0; i < count; i++) {
        const void *src = (const void *)(uintptr_t)data[i].ptr;
        const uint32_t len = data[i].size;
        if (len == 8)
            memcpy(o, src, 8);
        else if (len == 32)
            memcpy(o, src, 32);
        else
            memcpy(o, src, len);
        o += len;
    }
    const uint64_t t = tsc();
    memcpy(out + 16, &t, 8);
    memcpy(out, &word0, 4);
    atomic_fetch_add_explicit(&c->commit, asize, memory_order_acq_rel);
out:
    /* release: the span's loads before a reclaimer sees it over. */
    atomic_store_explicit(&min_span, span, memory_order_release);
    return rc;
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
    double t0 = bench_now_ns();
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
    return (bench_now_ns() - t0) / n;
}

/* floor-eventwrite's session: enabled at level 5, every keyword, on every
 * CPU's words, writing into `r`'s memory. */
static min_session *min_enable(floor_ring *r)
{
    static min_session s;
    static _Alignas(64) min_cpu cpus[MIN_CPUS];
#ifdef HAVE_RSEQ
    min_rseq_cpu = __rseq_size != 0 ? __rseq_offset + 4 : 0;
#endif
#if defined(__linux__)
    min_pid = (uint32_t)getpid();
    long n = sysconf(_SC_NPROCESSORS_CONF);
#else
    min_pid = 1;
    long n = 1;
#endif
    s.ncpu = n > 0 && n < MIN_CPUS ? (uint32_t)n : MIN_CPUS;
    s.cpus = cpus;
    s.gen = 7;
    s.level = 5;
    s.any = ~0ull;
    memset(s.provider, 0x22, sizeof(s.provider));
    s.mem = r->mem;
    s.size = r->size;
    /* release: the entry's fields before its pointer. */
    atomic_store_explicit(&min_table[3], &s, memory_order_release);
    return &s;
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
    min_enable(&hot);
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
