/* SPDX-License-Identifier: MIT */
/* bench_common.h - what every benchmark program shares: the 64-byte
 * payload, clocks, medians and percentiles, and JSON output. */
#ifndef PETW_BENCH_COMMON_H
#define PETW_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* The payload of every producer benchmark: 4 x u64 + a 32-byte array. */
typedef struct bench_payload {
    uint64_t a, b, c, d;
    uint8_t arr[32];
} bench_payload;

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline uint64_t bench_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return (uint64_t)bench_now_ns();
#endif
}

/* Ticks per ns, measured over 50 ms. */
static inline double bench_ticks_per_ns(void)
{
    double t0 = bench_now_ns();
    uint64_t c0 = bench_ticks();
    struct timespec ts = {0, 50000000};
    nanosleep(&ts, NULL);
    return (double)(bench_ticks() - c0) / (bench_now_ns() - t0);
}

static int bench_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts and returns the q-quantile (0..1). */
static inline uint64_t bench_quantile(uint64_t *v, size_t n, double q)
{
    qsort(v, n, sizeof(*v), bench_cmp_u64);
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

/* The calling thread's CPU time in ns (Linux; elsewhere the wall clock):
 * on a loaded machine, what a loop costs while it runs, without the time
 * other processes held its CPU. */
static inline double bench_thread_cpu_ns(void)
{
#if defined(__linux__)
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
#else
    return bench_now_ns();
#endif
}

/* A paced writer's wait until `due` (bench_now_ns's clock) after a batch:
 * spinning (the writer keeps its CPU, as a thread that is never idle), or
 * sleeping (the CPU is free while it waits, as an application that is not
 * 100% busy; the timer's slack makes the next batch larger). The same for
 * every contender of the sustained benchmarks. Returns how far (ns) the
 * writer was behind its schedule when it came to wait (0 if ahead): a
 * writer held off its CPU catches up at full speed, a burst the ring must
 * hold whatever the background's speed. */
static inline double bench_pace_until(double due, int sleeping)
{
    double late = bench_now_ns() - due;
    late = late > 0 ? late : 0;
    if (!sleeping) {
        while (bench_now_ns() < due) {
        }
        return late;
    }
#if defined(__linux__)
    struct timespec ts = {(time_t)(due / 1e9), (long)(due - (double)(time_t)(due / 1e9) * 1e9)};
    if (bench_now_ns() < due)
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
#else
    while (bench_now_ns() < due) {
    }
#endif
    return late;
}

/* Argument helpers: --name value. */
static inline const char *bench_arg(int argc, char **argv, const char *name, const char *dflt)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            return argv[i + 1];
    return dflt;
}
static inline int bench_flag(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], name))
            return 1;
    return 0;
}

#endif
