/* SPDX-License-Identifier: MIT */
/* report_workload.c - what bench_report.py profiles: two threads, each
 * recursing 28 calls deep (through two functions, so stacks hold about 30
 * frames with libc's thread start) and spinning at the bottom, for SECONDS
 * (default 60) of wall time. Usage: report_workload [SECONDS] */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define DEPTH 28

static double seconds = 60;
static volatile uint64_t sink;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static uint64_t leaf(uint64_t x)
{
    for (int k = 0; k < 100000; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

static uint64_t descend_b(int depth, uint64_t x);

__attribute__((noinline)) static uint64_t descend_a(int depth, uint64_t x)
{
    x = depth ? descend_b(depth - 1, x + 1) : leaf(x);
    __asm__ volatile("" : "+r"(x)); /* not a tail call: every level stays on the stack */
    return x;
}

__attribute__((noinline)) static uint64_t descend_b(int depth, uint64_t x)
{
    x = depth ? descend_a(depth - 1, x + 2) : leaf(x);
    __asm__ volatile("" : "+r"(x));
    return x;
}

static void *run(void *arg)
{
    uint64_t x = (uintptr_t)arg;
    double end = now() + seconds;
    while (now() < end)
        x = descend_a(DEPTH, x);
    sink += x;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        seconds = atof(argv[1]);
    pthread_t t;
    if (pthread_create(&t, NULL, run, (void *)1))
        return 1;
    run((void *)2);
    pthread_join(t, NULL);
    return 0;
}
