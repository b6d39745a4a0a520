/* SPDX-License-Identifier: MIT */
/* Replaced dispatch lists are freed after a grace period, while writers
 * run. Two threads write without pause (EventWrite and EventEnabled, the
 * two readers of a provider's dispatch list) while this thread enables
 * and disables the provider in a memory session, 3000 times or as many as
 * 2 s allow (at least 100): each change publishes a new list and retires
 * the old one. A writer preempted inside EventWrite holds back the lists
 * retired meanwhile (on a loaded machine that can be most of them), so the
 * test then polls, writers still running, until at most a few lists wait
 * (before, every one of them stayed); with the writers gone, two polls
 * free them all. Under ASan a list freed while a writer still walks it is
 * a heap-use-after-free; under TSan, a race with the free. Skips (77)
 * where the system has no process-wide barrier (the lists then stay, as
 * documented). */
#include <stdatomic.h>
#include <uv.h>

#include "../../lib/base/common/grace.h"
#include "../../lib/base/platform/platform.h"
#include "test_util.h"

DEFINE_GUID(ReclaimProvider, 0x9ec1a1e0, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x01);

#define CHANGES 3000
#define MIN_CHANGES 100

static REGHANDLE reg;
static atomic_int stop;
static atomic_ullong written[2];

static void writer(void *arg)
{
    int me = (int)(intptr_t)arg;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 1};
    uint64_t v = 0;
    EVENT_DATA_DESCRIPTOR dd;
    EventDataDescCreate(&dd, &v, sizeof(v));
    /* Calls made (each reads the list), not events kept: the provider is
     * off half of the time. */
    while (!atomic_load(&stop)) {
        v++;
        CHECK_EQ(EventWrite(reg, &d, 1, &dd), ERROR_SUCCESS);
        (void)EventEnabled(reg, &d);
        atomic_fetch_add_explicit(&written[me], 1, memory_order_relaxed);
    }
}

int main(void)
{
    if (petw__membarrier() != 0) {
        printf("SKIP: no process-wide barrier here; replaced lists are kept\n");
        return SKIP_TEST;
    }
    CHECK_EQ(EventRegister(&ReclaimProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    test_props p;
    test_props_init(&p, NULL);
    p.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    TRACEHANDLE s;
    CHECK_EQ(test_start_trace(&s, "petw-test-dispatch-reclaim", &p.p), ERROR_SUCCESS);
    uint64_t before = petw__grace_waiting();
    uv_thread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK_EQ(uv_thread_create(&th[i], writer, (void *)(intptr_t)i), 0);
    while (atomic_load(&written[0]) == 0 || atomic_load(&written[1]) == 0)
        uv_sleep(1); /* both writing before the first change */
    /* Up to CHANGES changes, for at most 2 s: through a session host under
     * Wine a change takes about 8 ms. */
    uint64_t until = uv_hrtime() + 2000000000u;
    int changes = 0;
    for (; changes < CHANGES && (changes < MIN_CHANGES || uv_hrtime() < until); changes++) {
        ULONG code = (changes & 1) ? EVENT_CONTROL_CODE_DISABLE_PROVIDER
                                   : EVENT_CONTROL_CODE_ENABLE_PROVIDER;
        CHECK_EQ(EnableTraceEx2(s, &ReclaimProvider, code, 5, 0, 0, 0, NULL), ERROR_SUCCESS);
    }
    uint64_t after = petw__grace_waiting();
    /* Writers still running: every poll frees a batch whose readers all
     * moved on. One batch in flight and what was retired after its note
     * may wait; give a preempted writer 20 s to be scheduled again. */
    uint64_t polls = 0;
    for (int ms = 0; ms < 20000 && petw__grace_waiting() > before + 2; ms++, polls++) {
        petw__grace_poll();
        uv_sleep(1);
    }
    uint64_t settled = petw__grace_waiting();
    atomic_store(&stop, 1);
    for (int i = 0; i < 2; i++)
        uv_thread_join(&th[i]);
    printf("lists waiting: %llu before, %llu after %d changes, %llu after %llu polls with the "
           "writers running; calls %llu + %llu\n",
           (unsigned long long)before, (unsigned long long)after, changes,
           (unsigned long long)settled, (unsigned long long)polls,
           (unsigned long long)atomic_load(&written[0]),
           (unsigned long long)atomic_load(&written[1]));
    CHECK(settled <= before + 2);
    /* With the writers gone, one poll frees the batch in flight and notes
     * the rest, the next frees those. */
    petw__grace_poll();
    petw__grace_poll();
    CHECK_EQ(petw__grace_waiting(), 0);
    EVENT_TRACE_PROPERTIES *q = &p.p;
    CHECK_EQ(ControlTraceA(s, NULL, q, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    EventUnregister(reg);
    printf("ok\n");
    return 0;
}
