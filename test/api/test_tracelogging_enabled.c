/* SPDX-License-Identifier: MIT */
/* TraceLoggingWrite's inline check: an event's fields are evaluated only
 * when the sessions enabling the provider together accept its level and
 * keyword (the highest level, any of their any-keywords, all of the
 * all-keywords they share), as Windows' TraceLogging decides from its
 * provider. Each session then records only what it accepts itself: an
 * event the combination passes but no single session takes is evaluated
 * and recorded nowhere (Windows behaves the same). Followed through enable,
 * a second session, disable, stop and unregister; a handle from an earlier
 * registration of the same slot never passes. Each event's one field is its
 * number, which the trace files must show exactly where expected.
 * TraceLoggingProviderEnabled answers as the write decides. */
#include <TraceLoggingProvider.h>

#include "test_util.h"

TRACELOGGING_DEFINE_PROVIDER(g_p, "Petw.Test.TraceLoggingEnabled",
                             (0x7e1a0b1e, 0x3c2d, 0x4e5f, 0x86, 0x97, 0xa8, 0xb9, 0xca, 0xdb, 0xec,
                              0xfd));

static int evaluated;
static uint32_t number(uint32_t n)
{
    evaluated++;
    return n;
}

/* Writes event `n` with level `lv` and keyword `kw` (constants, as
 * TraceLogging needs), and checks whether its field was evaluated. */
#define EXPECT(n, lv, kw, was_evaluated)                                                           \
    do {                                                                                           \
        evaluated = 0;                                                                             \
        CHECK_EQ(TraceLoggingProviderEnabled(g_p, lv, kw), was_evaluated);                         \
        TraceLoggingWrite(g_p, "E", TraceLoggingLevel(lv), TraceLoggingKeyword(kw),                \
                          TraceLoggingUInt32(number(n), "n"));                                     \
        CHECK_EQ(evaluated, was_evaluated);                                                        \
    } while (0)

/* The event numbers in `path`, in order, as a bit set (numbers < 64). */
static uint64_t numbers_in(const char *path)
{
    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    uint64_t set = 0;
    for (size_t i = 0; i < l.count; i++) {
        if (memcmp(&l.ev[i].header.provider_id, TraceLoggingProviderId(g_p), 16) != 0)
            continue;
        CHECK_EQ(l.ev[i].length, 4);
        uint32_t n = test_seq(&l.ev[i]);
        CHECK(n < 64 && !(set & (1ull << n)));
        set |= 1ull << n;
    }
    test_events_free(&l);
    return set;
}

static void start(TRACEHANDLE *h, const char *name, test_props *tp, const char *path)
{
    test_props_init(tp, path);
    unlink(path);
    CHECK_EQ(test_start_trace(h, name, &tp->p), ERROR_SUCCESS);
}

int main(void)
{
    char pa[512], pb[512];
    test_path(pa, sizeof(pa), "tl-enabled-a.etl");
    test_path(pb, sizeof(pb), "tl-enabled-b.etl");
    CHECK(SUCCEEDED(TraceLoggingRegister(g_p)));
    EXPECT(1, 4, 0x1, 0); /* no session */

    test_props ta, tb;
    TRACEHANDLE a, b;
    start(&a, "petw-test-tl-enabled-a", &ta, pa);
    CHECK_EQ(EnableTraceEx2(a, TraceLoggingProviderId(g_p), EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            TRACE_LEVEL_INFORMATION, 0x1, 0, 0, NULL),
             ERROR_SUCCESS);
    EXPECT(2, 5, 0x1, 0); /* verbose: above the level */
    EXPECT(3, 4, 0x2, 0); /* no keyword in common */
    EXPECT(4, 4, 0x1, 1); /* recorded */
    EXPECT(5, 4, 0, 1);   /* keyword 0 matches any session */
    EXPECT(6, 0, 0x1, 1); /* level 0 passes any level */

    /* A second session: errors only, keyword 0x2, which needs 0x6 too. */
    start(&b, "petw-test-tl-enabled-b", &tb, pb);
    CHECK_EQ(EnableTraceEx2(b, TraceLoggingProviderId(g_p), EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            TRACE_LEVEL_ERROR, 0x2, 0x6, 0, NULL),
             ERROR_SUCCESS);
    EXPECT(7, 2, 0x7, 1);  /* both sessions */
    EXPECT(8, 2, 0x1, 1);  /* A only: not B's keyword */
    EXPECT(9, 4, 0x6, 1);  /* the combination passes, neither records */
    EXPECT(10, 5, 0x7, 0); /* above both levels */
    EXPECT(11, 2, 0x8, 0); /* no keyword of either */

    /* A disabled: B's level and keywords alone. */
    CHECK_EQ(EnableTraceEx2(a, TraceLoggingProviderId(g_p), EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0,
                            0, 0, 0, NULL),
             ERROR_SUCCESS);
    EXPECT(12, 4, 0x1, 0);
    EXPECT(13, 2, 0x6, 1); /* B */
    EXPECT(14, 2, 0x2, 0); /* B's all-keywords (0x6) are not all there */

    CHECK_EQ(ControlTraceA(a, NULL, &ta.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(b, NULL, &tb.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    EXPECT(15, 1, 0x6, 0); /* stopped: nobody */

    uint64_t in_a = numbers_in(pa), in_b = numbers_in(pb);
    printf("session A: %#llx, session B: %#llx\n", (unsigned long long)in_a,
           (unsigned long long)in_b);
    CHECK_EQ(in_a, (1ull << 4) | (1ull << 5) | (1ull << 6) | (1ull << 7) | (1ull << 8));
    CHECK_EQ(in_b, (1ull << 7) | (1ull << 13));

    /* A handle from the slot's earlier registration never passes, though
     * the slot's new registration is enabled. */
    REGHANDLE old = g_p->handle;
    TraceLoggingUnregister(g_p);
    EXPECT(16, 1, 0, 0); /* unregistered */
    CHECK(SUCCEEDED(TraceLoggingRegister(g_p)));
    TRACEHANDLE c;
    test_props tc;
    start(&c, "petw-test-tl-enabled-c", &tc, pa);
    CHECK_EQ(EnableTraceEx2(c, TraceLoggingProviderId(g_p), EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            TRACE_LEVEL_VERBOSE, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK(g_p->handle != old);
    CHECK_EQ(petw__handle_slot(g_p->handle), petw__handle_slot(old));
    CHECK_EQ(petw__provider_accepts_load(g_p->handle, 1, 0), 1);
    CHECK_EQ(petw__provider_accepts_load(old, 1, 0), 0);
    EXPECT(17, 1, 0, 1);
    CHECK_EQ(ControlTraceA(c, NULL, &tc.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(numbers_in(pa), 1ull << 17);
    TraceLoggingUnregister(g_p);
    unlink(pa);
    unlink(pb);
    printf("ok\n");
    return 0;
}
