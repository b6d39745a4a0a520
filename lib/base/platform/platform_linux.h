/* SPDX-License-Identifier: MIT */
/* platform_linux.h - inline hot-path pieces for Linux (and other POSIX). */
#ifndef PETW_PLATFORM_LINUX_H
#define PETW_PLATFORM_LINUX_H

#include <sched.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* Set by petw__platform_init() and again in a forked child. */
extern uint32_t petw__pid;
static inline uint32_t petw__process_id(void)
{
    return __atomic_load_n(&petw__pid, __ATOMIC_RELAXED);
}

/* Cached per thread; the first call in a thread makes one system call. */
uint32_t petw__thread_id_slow(void);
extern _Thread_local uint32_t petw__tls_tid PETW__TLS_HOT;

static inline uint32_t petw__thread_id(void)
{
    uint32_t t = petw__tls_tid;
    return t ? t : petw__thread_id_slow();
}

/* The thread's ID when it costs no call (cached), else 0: a caller that must
 * not make a call there takes its slow path, which asks petw__thread_id. */
static inline uint32_t petw__thread_id_cached(void)
{
    return petw__tls_tid;
}

/* The CPU number: glibc 2.35+ registers rseq for every thread, and the
 * kernel keeps the current CPU in it, so this is one load from the thread's
 * own memory. Elsewhere sched_getcpu() (vDSO) answers. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)) &&          \
    (defined(__x86_64__) || defined(__aarch64__))
#define PETW__HAVE_RSEQ 1
extern const ptrdiff_t __rseq_offset;
extern const unsigned int __rseq_size;
/* Where the thread's rseq area keeps cpu_id (struct rseq: u32 cpu_id_start,
 * u32 cpu_id, >= 0 once registered), from the thread pointer; 0 when glibc
 * registered no rseq area. Set by petw__platform_init(). */
extern ptrdiff_t petw__rseq_cpu_offset;
#endif

static inline uint32_t petw__cpu_current(void)
{
#ifdef PETW__HAVE_RSEQ
    /* One load of our own (no GOT indirection to libc's __rseq_offset and
     * __rseq_size), then one from the thread's own memory. */
    const ptrdiff_t off = petw__rseq_cpu_offset;
    if (__builtin_expect(off != 0, 1)) {
        int32_t c = *(const volatile int32_t *)((const char *)__builtin_thread_pointer() + off);
        if (__builtin_expect(c >= 0, 1))
            return (uint32_t)c;
    }
#endif
    int c = sched_getcpu();
    return c < 0 ? 0u : (uint32_t)c;
}

/* The CPU number in *cpu when it costs no call (the rseq area): 1; else 0,
 * and a caller that must not make a call there takes its slow path, which
 * asks petw__cpu_current. */
static inline int petw__cpu_current_fast(uint32_t *cpu)
{
#ifdef PETW__HAVE_RSEQ
    const ptrdiff_t off = petw__rseq_cpu_offset;
    if (__builtin_expect(off != 0, 1)) {
        int32_t c = *(const volatile int32_t *)((const char *)__builtin_thread_pointer() + off);
        *cpu = (uint32_t)c;
        return c >= 0;
    }
#endif
    (void)cpu;
    return 0;
}

/* Nonzero when the QPC-like clock reads the TSC directly: the CPU has an
 * invariant TSC and the kernel uses it as its clocksource (so it is stable
 * and synchronized across CPUs). Set once by petw__platform_init(). */
extern int petw__qpc_is_tsc;

static inline int64_t petw__monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int64_t petw__clock_read(uint32_t clock)
{
    if (clock == PETW_CLOCK_SYSTEM) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return ((int64_t)ts.tv_sec + 11644473600LL) * 10000000LL + ts.tv_nsec / 100;
    }
#if defined(__x86_64__) || defined(__i386__)
    if (clock == PETW_CLOCK_CYCLES || petw__qpc_is_tsc)
        return (int64_t)__rdtsc();
#endif
    return petw__monotonic_ns();
}

#endif
