/* SPDX-License-Identifier: MIT */
/* offcpu.c - a workload of known off-CPU shape: thread A blocks in read()
 * on a pipe in blocked_here(); thread B sleeps 50 ms in waker_fn() and then
 * writes one byte, which readies A. ROUNDS times, each round's sleep started
 * once A is about to read (so A blocks every round, however late a loaded
 * machine runs it after its start or its last wake-up). Both system calls are
 * made from these functions themselves (x86-64: a `syscall` instruction
 * here; elsewhere libc's), so the user part of each call chain starts in
 * them. Prints both thread ids, the time A measured itself blocked and its
 * longest wait (each wait lies within A's measure of its read). */

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 20
#define SLEEP_MS 50

static int fds[2];
static volatile pid_t tids[2];
static double longest_ms;  /* the reader's; read after the join */
static atomic_int reading; /* rounds the reader has come to */

static long sys3(long n, long a, long b, long c)
{
#if defined(__x86_64__)
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
#else
    return syscall(n, a, b, c);
#endif
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

__attribute__((noinline)) double blocked_here(void)
{
    char c;
    double t0 = now_ms();
    if (sys3(SYS_read, fds[0], (long)(intptr_t)&c, 1) != 1)
        return -1;
    return now_ms() - t0;
}

__attribute__((noinline)) void waker_fn(void)
{
    struct timespec d = {0, SLEEP_MS * 1000000L};
    nanosleep(&d, NULL);
    char c = 'x';
    (void)sys3(SYS_write, fds[1], (long)(intptr_t)&c, 1);
}

static void *reader(void *arg)
{
    double *blocked = arg;
    tids[0] = (pid_t)syscall(SYS_gettid);
    for (int k = 0; k < ROUNDS; k++) {
        atomic_store(&reading, k + 1);
        double ms = blocked_here();
        *blocked += ms;
        if (ms > longest_ms)
            longest_ms = ms;
    }
    return NULL;
}

static void *writer(void *arg)
{
    (void)arg;
    tids[1] = (pid_t)syscall(SYS_gettid);
    for (int k = 0; k < ROUNDS; k++) {
        while (atomic_load(&reading) <= k) {
            struct timespec d = {0, 100000};
            nanosleep(&d, NULL);
        }
        waker_fn();
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    double blocked = 0;
    if (pipe(fds) != 0)
        return 1;
    if (pthread_create(&a, NULL, reader, &blocked) || pthread_create(&b, NULL, writer, NULL))
        return 1;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("reader %d waker %d blocked_ms %.3f rounds %d longest_ms %.3f\n", (int)tids[0],
           (int)tids[1], blocked, ROUNDS, longest_ms);
    return 0;
}
