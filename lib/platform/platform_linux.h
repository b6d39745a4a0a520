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
static inline uint32_t petw__process_id(void) { return __atomic_load_n(&petw__pid, __ATOMIC_RELAXED); }

/* Cached per thread; the first call in a thread makes one system call. */
uint32_t petw__thread_id_slow(void);
extern _Thread_local uint32_t petw__tls_tid;

static inline uint32_t petw__thread_id(void)
{
    uint32_t t = petw__tls_tid;
    return t ? t : petw__thread_id_slow();
}

/* glibc 2.35+ answers sched_getcpu() from the rseq area without a system
 * call (older ones from the vDSO). */
static inline uint32_t petw__cpu_current(void)
{
    int c = sched_getcpu();
    return c < 0 ? 0u : (uint32_t)c;
}

static inline int64_t petw__clock_read(uint32_t clock)
{
    struct timespec ts;
    if (clock == 2) {
        clock_gettime(CLOCK_REALTIME, &ts);
        return ((int64_t)ts.tv_sec + 11644473600LL) * 10000000LL + ts.tv_nsec / 100;
    }
#if defined(__x86_64__) || defined(__i386__)
    if (clock == 3)
        return (int64_t)__rdtsc();
#endif
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
