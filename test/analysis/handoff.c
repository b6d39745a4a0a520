/* SPDX-License-Identifier: MIT */
/* handoff.c - a lock hand-off of known timing, for `petw report wait`:
 * the waiter blocks on a futex ROUNDS times; each time the waker sleeps
 * 20 ms, then wakes it (the first sleep once the waiter runs, each next one
 * once the waiter took the last wake-up). Prints both threads' IDs and the time the waiter
 * measured itself blocked (ms), which the wait view must attribute to it,
 * readied each time by the waker. Linux only (futex). */
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 25

static _Atomic uint32_t word; /* 2i: round i waits; 2i+1: woken; 2i+2: done */
static double blocked_s;
static atomic_int started; /* the waiter runs */
static pid_t waiter_tid, waker_tid;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *waiter(void *arg)
{
    (void)arg;
    waiter_tid = (pid_t)syscall(SYS_gettid);
    atomic_store(&started, 1);
    for (uint32_t i = 0; i < ROUNDS; i++) {
        double t0 = now();
        while (atomic_load(&word) == 2 * i)
            syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 2 * i, NULL, NULL, 0);
        blocked_s += now() - t0;
        atomic_store(&word, 2 * i + 2);
    }
    return NULL;
}

static void *waker(void *arg)
{
    (void)arg;
    waker_tid = (pid_t)syscall(SYS_gettid);
    while (!atomic_load(&started)) { /* a loaded machine may start it late */
        struct timespec e = {0, 100000};
        nanosleep(&e, NULL);
    }
    for (uint32_t i = 0; i < ROUNDS; i++) {
        struct timespec d = {0, 20000000};
        nanosleep(&d, NULL);
        atomic_store(&word, 2 * i + 1);
        syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        while (atomic_load(&word) != 2 * i + 2) {
            struct timespec e = {0, 100000};
            nanosleep(&e, NULL);
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, waiter, NULL);
    pthread_create(&b, NULL, waker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("waiter %d waker %d blocked_ms %.3f rounds %d\n", (int)waiter_tid, (int)waker_tid,
           blocked_s * 1000, ROUNDS);
    return 0;
}
