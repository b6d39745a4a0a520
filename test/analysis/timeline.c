/* SPDX-License-Identifier: MIT */
/* timeline.c - two threads handing work to each other, with provider
 * events, for `petw convert --to perfetto`: each of ROUNDS jobs starts on
 * the producer (a "Job" Start with a new activity ID), is handed to the
 * consumer through a condition variable, which works on it (a "Work"
 * Start/Stop pair with its own activity, related to the job's) and stops
 * the job ("Job" Stop, same activity, on the consumer's thread). Both
 * threads spin a few milliseconds each round (CPU samples), and the
 * producer writes a "Progress" event with a numeric field ("Done") each
 * round (a counter). Prints both threads' IDs and the rounds. */
#include <windows.h>
#include <TraceLoggingProvider.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <winmeta.h>

#define ROUNDS 20

/* {6b7ac9a2-0e61-4d8f-9d53-7c1f4a0f9e01} */
TRACELOGGING_DEFINE_PROVIDER(g_provider, "Petw.Test.Timeline",
                             (0x6b7ac9a2, 0x0e61, 0x4d8f, 0x9d, 0x53, 0x7c, 0x1f, 0x4a, 0x0f, 0x9e,
                              0x01));

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static GUID queue[ROUNDS];
static int queued, taken;
static pid_t producer_tid, consumer_tid;
static _Thread_local volatile unsigned long sink; /* each thread its own: no race */

static void __attribute__((noinline)) spin_work(long ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        for (int k = 0; k < 10000; k++)
            sink += (unsigned long)k * 2654435761u;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void *producer(void *arg)
{
    (void)arg;
    producer_tid = (pid_t)syscall(SYS_gettid);
    for (int i = 0; i < ROUNDS; i++) {
        GUID job;
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &job);
        TraceLoggingWriteActivity(g_provider, "Job", &job, NULL,
                                  TraceLoggingOpcode(WINEVENT_OPCODE_START),
                                  TraceLoggingInt32(i, "Round"));
        spin_work(3);
        pthread_mutex_lock(&lock);
        queue[queued++] = job;
        pthread_cond_signal(&cond);
        pthread_mutex_unlock(&lock);
        TraceLoggingWrite(g_provider, "Progress", TraceLoggingUInt32((UINT32)i + 1, "Done"));
        usleep(2000);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    consumer_tid = (pid_t)syscall(SYS_gettid);
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&lock);
        while (taken == queued)
            pthread_cond_wait(&cond, &lock);
        GUID job = queue[taken++];
        pthread_mutex_unlock(&lock);
        GUID work;
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &work);
        TraceLoggingWriteActivity(g_provider, "Work", &work, &job,
                                  TraceLoggingOpcode(WINEVENT_OPCODE_START));
        spin_work(3);
        TraceLoggingWriteActivity(g_provider, "Work", &work, NULL,
                                  TraceLoggingOpcode(WINEVENT_OPCODE_STOP));
        TraceLoggingWriteActivity(g_provider, "Job", &job, NULL,
                                  TraceLoggingOpcode(WINEVENT_OPCODE_STOP),
                                  TraceLoggingInt32(i, "Round"));
    }
    return NULL;
}

int main(void)
{
    TraceLoggingRegister(g_provider);
    pthread_t a, b;
    pthread_create(&b, NULL, consumer, NULL);
    pthread_create(&a, NULL, producer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    TraceLoggingUnregister(g_provider);
    printf("producer %d consumer %d rounds %d\n", (int)producer_tid, (int)consumer_tid, ROUNDS);
    return 0;
}
