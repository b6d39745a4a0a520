/* SPDX-License-Identifier: MIT */
/* Timestamps are comparable across CPUs: two threads pinned to different
 * CPUs take turns (each turn happens after the other's, through an atomic
 * hand-off) and write an event carrying the turn number; read back, the
 * raw timestamps rise with the turn number, for the QPC clock (the TSC
 * when petw judged it invariant and synchronized, else CLOCK_MONOTONIC)
 * and the CPU-cycles clock. Also within one CPU, every timestamp exceeds
 * the previous one. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "test_util.h"

DEFINE_GUID(CrossProvider, 0xc7055c9a, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x1);

#define TURNS 4000

static REGHANDLE reg;
static _Atomic int turn;

typedef struct player {
    int cpu, parity;
} player;

static void *play(void *arg)
{
    player *p = arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(p->cpu, &set);
    CHECK_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    for (;;) {
        int t = atomic_load_explicit(&turn, memory_order_acquire);
        if (t >= TURNS)
            return NULL;
        if ((t & 1) != p->parity) {
            sched_yield();
            continue;
        }
        uint32_t v = (uint32_t)t;
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, &v, 4);
        CHECK_EQ(EventWrite(reg, &d, 1, &dd), ERROR_SUCCESS);
        atomic_store_explicit(&turn, t + 1, memory_order_release);
    }
}

static void run(ULONG clock)
{
    char path[512], name[64];
    snprintf(name, sizeof(name), "cross%lu.etl", (unsigned long)clock);
    test_path(path, sizeof(path), name);
    test_props tp;
    test_props_init(&tp, path);
    tp.p.Wnode.ClientContext = clock;
    tp.p.BufferSize = 64;
    tp.p.MinimumBuffers = tp.p.MaximumBuffers = 64;
    TRACEHANDLE s;
    snprintf(name, sizeof(name), "petw-test-cross-%lu", (unsigned long)clock);
    CHECK_EQ(StartTraceA(&s, name, &tp.p), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(s, &CrossProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    atomic_store(&turn, 0);
    player a = {0, 0}, b = {1, 1};
    pthread_t ta, tb;
    CHECK_EQ(pthread_create(&ta, NULL, play, &a), 0);
    CHECK_EQ(pthread_create(&tb, NULL, play, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EventsLost, 0);

    test_events ev;
    petw_logfile_info info;
    CHECK_EQ(test_read(path, PETW_TRACE_RAW_TIMESTAMP, &ev, &info, NULL), 0);
    int64_t *at = calloc(TURNS, sizeof(int64_t));
    size_t n = 0;
    for (size_t i = 0; i < ev.count; i++) {
        if (ev.ev[i].length != 4)
            continue;
        uint32_t t;
        memcpy(&t, ev.ev[i].data, 4);
        CHECK(t < TURNS && at[t] == 0);
        at[t] = ev.ev[i].header.timestamp;
        n++;
    }
    CHECK_EQ(n, TURNS);
    for (uint32_t t = 1; t < TURNS; t++) {
        if (at[t] <= at[t - 1]) {
            fprintf(stderr, "clock %lu: turn %u at %lld, turn %u at %lld\n", (unsigned long)clock,
                    t, (long long)at[t], t - 1, (long long)at[t - 1]);
            CHECK(at[t] > at[t - 1]);
        }
    }
    printf("clock %lu (%s): %d turns across two CPUs, timestamps rising\n", (unsigned long)clock,
           (info.petw_flags & PETW_FILE_CLOCK_TSC) ? "TSC" : "OS clock", TURNS);
    free(at);
    test_events_free(&ev);
    remove(path);
}

int main(void)
{
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        printf("one CPU: nothing to compare\n");
        return SKIP_TEST;
    }
    CHECK_EQ(EventRegister(&CrossProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    run(1); /* QPC */
    run(3); /* CPU cycles */
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
    return 0;
}
