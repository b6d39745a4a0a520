/* SPDX-License-Identifier: MIT */
/* kernel_child: the process kernel_logger_sample.sh starts while the NT
 * Kernel Logger records. It starts one more thread, which sleeps 20 ms
 * (context switches) and ends, and prints that thread's ID ("thread N"). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pid_t second;

static void *run(void *arg)
{
    (void)arg;
    second = (pid_t)syscall(SYS_gettid);
    struct timespec t = {0, 20 * 1000 * 1000};
    nanosleep(&t, NULL);
    return NULL;
}

int main(void)
{
    pthread_t th;
    if (pthread_create(&th, NULL, run, NULL) != 0 || pthread_join(th, NULL) != 0)
        return 1;
    printf("thread %d\n", (int)second);
    return 0;
}
