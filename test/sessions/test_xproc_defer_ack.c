/* SPDX-License-Identifier: MIT */
/* petw_trace_defer_acks on a shared session's real-time consumer: the
 * session keeps each buffer until the consumer acknowledges it with
 * petw_trace_ack, not once its events were delivered. A consumer that
 * took every event and acknowledged none, then went, leaves them to the
 * next consumer, which gets each again; one that acknowledged them (its
 * position, from its buffer callback) leaves none: the next one gets only
 * what was written after. The calls refuse what they cannot honour. A
 * consumer closed and opened again at once (no pause: petw_trace_close
 * returns once the session took the queue back) gets the buffers it left,
 * every time. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(AckProvider, 0x71717174, 1, 2, 3, 4, 0, 0, 0, 0, 0, 4);

typedef struct consumer {
    petw_trace *t;
    uv_thread_t thread;
    int ack;                /* acknowledge each buffer from the buffer callback */
    volatile uint32_t seen; /* the provider's events delivered */
    uint8_t got[1000];      /* by sequence number */
} consumer;

static void on_event(petw_event_record *r, void *context)
{
    consumer *c = context;
    if (!IsEqualGUID((const GUID *)&r->header.provider_id, &AckProvider))
        return;
    uint32_t seq = 0;
    if (r->user_data_length >= 4)
        memcpy(&seq, r->user_data, 4);
    if (seq < sizeof(c->got))
        c->got[seq]++;
    __atomic_fetch_add(&c->seen, 1, __ATOMIC_RELEASE);
}

static int on_buffer(petw_trace *t, void *context)
{
    consumer *c = context;
    if (c->ack)
        CHECK_EQ(petw_trace_ack(t, petw_trace_position(t)), 0);
    return 1;
}

static void run(void *arg)
{
    consumer *c = arg;
    int rc = petw_trace_process(&c->t, 1, 0, 0);
    CHECK(rc == 0 || rc == PETW_ECANCELED);
}

static void open_consumer(consumer *c, const char *name, int ack)
{
    memset(c, 0, sizeof(*c));
    c->ack = ack;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = on_event;
    cfg.on_buffer = on_buffer;
    cfg.context = c;
    CHECK_EQ(petw_trace_open_realtime(name, &cfg, &c->t), 0);
    CHECK_EQ(petw_trace_ack(c->t, 0), PETW_EINVAL); /* acks are not deferred yet */
    CHECK_EQ(petw_trace_defer_acks(c->t), 0);
    CHECK_EQ(petw_trace_ack(c->t, 1), PETW_EINVAL); /* past its position */
    CHECK_EQ(uv_thread_create(&c->thread, run, c), 0);
}

/* Waits up to 5 s for `n` events. */
static void wait_seen(consumer *c, uint32_t n)
{
    for (int i = 0; i < 500 && __atomic_load_n(&c->seen, __ATOMIC_ACQUIRE) < n; i++)
        uv_sleep(10);
    CHECK_EQ(__atomic_load_n(&c->seen, __ATOMIC_ACQUIRE), n);
}

static void close_consumer(consumer *c)
{
    petw_trace_cancel(c->t);
    uv_thread_join(&c->thread);
    petw_trace_close(c->t);
}

int main(void)
{
    const char *tsan = getenv("PETW_TEST_TSAN");
    if (tsan && tsan[0] == '1')
        return 77; /* as the other shared-session tests */
    char name[64];
    snprintf(name, sizeof(name), "petw-test-defer-ack-%d", (int)getpid());
    test_props tp;
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    tp.p.FlushTimer = 1;
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, name, &tp.p), ERROR_SUCCESS);
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&AckProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &AckProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(petw_trace_defer_acks(NULL), PETW_EINVAL);
    CHECK_EQ(petw_trace_position(NULL), 0);

    /* A takes 500 events and acknowledges none. */
    static consumer a, b, c;
    open_consumer(&a, name, 0);
    CHECK_EQ(test_write_seq(reg, 0, 500, 16), 0);
    wait_seen(&a, 500);
    CHECK(petw_trace_position(a.t) > 0);
    close_consumer(&a);

    /* Closed and opened again at once, twenty times: each consumer gets
     * the 500 again, each once, and leaves them to the next. */
    for (int round = 0; round < 20; round++) {
        open_consumer(&a, name, 0);
        wait_seen(&a, 500);
        for (int i = 0; i < 500; i++)
            CHECK_EQ(a.got[i], 1);
        close_consumer(&a);
    }

    /* B gets them again, acknowledges each buffer, and the 100 after. */
    open_consumer(&b, name, 1);
    wait_seen(&b, 500);
    CHECK_EQ(test_write_seq(reg, 500, 100, 16), 0);
    wait_seen(&b, 600);
    for (int i = 0; i < 600; i++)
        CHECK_EQ(b.got[i], 1);
    close_consumer(&b);

    /* C gets only what came after: B acknowledged everything. */
    open_consumer(&c, name, 0);
    CHECK_EQ(test_write_seq(reg, 600, 100, 16), 0);
    wait_seen(&c, 100);
    uv_sleep(300);
    CHECK_EQ(c.seen, 100);
    for (int i = 600; i < 700; i++)
        CHECK_EQ(c.got[i], 1);
    close_consumer(&c);

    test_props_init(&tp, NULL);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    EventUnregister(reg);
    return 0;
}
