/* SPDX-License-Identifier: MIT */
/* bench_floor_min.h - floor-eventwrite, the least an EventWrite can do to
 * write its record (see bench_floor.c's comment), shared by bench_floor and
 * bench_eventwrite, which times it beside petw's EventWrite in one process
 * for paired ratios. Include once, after bench_common.h. */
#ifndef BENCH_FLOOR_MIN_H
#define BENCH_FLOOR_MIN_H

#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

static inline uint64_t min_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
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
    const uint64_t t = min_tsc();
    memcpy(out + 16, &t, 8);
    memcpy(out, &word0, 4);
    atomic_fetch_add_explicit(&c->commit, asize, memory_order_acq_rel);
out:
    /* release: the span's loads before a reclaimer sees it over. */
    atomic_store_explicit(&min_span, span, memory_order_release);
    return rc;
}

/* floor-eventwrite's session: enabled at level 5, every keyword, on every
 * CPU's words, writing into `size` bytes at `mem`. */
static min_session *min_enable(uint8_t *mem, uint32_t size)
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
    s.mem = mem;
    s.size = size;
    /* release: the entry's fields before its pointer. */
    atomic_store_explicit(&min_table[3], &s, memory_order_release);
    return &s;
}

#endif
