/* SPDX-License-Identifier: MIT */
/* A stale handle after its slot was reused: a provider is unregistered and
 * another GUID registers into the same slot, enabled in a session. Writes
 * through the stale handle return ERROR_INVALID_HANDLE and put nothing in
 * the session (the writer's dispatch list is the registration's own, so it
 * never writes one provider's events under another's GUID); EventEnabled
 * through it is FALSE; the new handle writes as usual, and a session with
 * an event ID filter beside an unfiltered one gets only what its filter
 * passes, in the same EventWrite. */
#include "test_util.h"

DEFINE_GUID(StaleOld, 0x5a1e5a1e, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);
DEFINE_GUID(StaleNew, 0x5a1e5a1e, 1, 2, 3, 4, 0, 0, 0, 0, 0, 2);

int main(void)
{
    char path_a[512], path_b[512];
    test_path(path_a, sizeof(path_a), "stale-a.etl");
    test_path(path_b, sizeof(path_b), "stale-b.etl");
    test_props a, b;
    test_props_init(&a, path_a);
    test_props_init(&b, path_b);
    TRACEHANDLE sa, sb;
    CHECK_EQ(StartTraceA(&sa, "petw-test-stale-a", &a.p), ERROR_SUCCESS);
    CHECK_EQ(StartTraceA(&sb, "petw-test-stale-b", &b.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(sa, &StaleOld, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(sa, &StaleNew, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    /* Session b keeps event ID 7 only. */
    EVENT_FILTER_EVENT_ID ids = {TRUE, 0, 1, {7}};
    EVENT_FILTER_DESCRIPTOR fd = {(ULONGLONG)(uintptr_t)&ids, sizeof(ids),
                                  EVENT_FILTER_TYPE_EVENT_ID};
    ENABLE_TRACE_PARAMETERS ep;
    memset(&ep, 0, sizeof(ep));
    ep.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    ep.EnableFilterDesc = &fd;
    ep.FilterDescCount = 1;
    CHECK_EQ(EnableTraceEx2(sb, &StaleNew, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, &ep),
             ERROR_SUCCESS);

    REGHANDLE old_h, new_h;
    CHECK_EQ(EventRegister(&StaleOld, NULL, NULL, &old_h), ERROR_SUCCESS);
    EVENT_DESCRIPTOR d1 = {1, 0, 0, 4, 0, 0, 0}, d7 = {7, 0, 0, 4, 0, 0, 0};
    uint32_t v = 42;
    EVENT_DATA_DESCRIPTOR dd;
    EventDataDescCreate(&dd, &v, sizeof(v));
    CHECK_EQ(EventWrite(old_h, &d1, 1, &dd), ERROR_SUCCESS); /* session a: 1 */
    CHECK_EQ(EventUnregister(old_h), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&StaleNew, NULL, NULL, &new_h), ERROR_SUCCESS);
    /* The slot is reused (the lowest free one), under a new generation. */
    CHECK_EQ((uint32_t)new_h, (uint32_t)old_h);
    CHECK(new_h != old_h);

    CHECK_EQ(EventWrite(old_h, &d1, 1, &dd), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventWrite(old_h, &d7, 1, &dd), ERROR_INVALID_HANDLE);
    CHECK(!EventEnabled(old_h, &d1));
    CHECK(EventEnabled(new_h, &d1));
    v = 43;
    CHECK_EQ(EventWrite(new_h, &d1, 1, &dd), ERROR_SUCCESS); /* a only */
    v = 44;
    CHECK_EQ(EventWrite(new_h, &d7, 1, &dd), ERROR_SUCCESS); /* a and b */
    CHECK_EQ(ControlTraceA(sa, NULL, &a.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(sb, NULL, &b.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(EventWrite(new_h, &d1, 1, &dd), ERROR_SUCCESS); /* nobody listens */
    CHECK_EQ(EventUnregister(new_h), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(new_h), ERROR_INVALID_HANDLE);

    static test_events la, lb;
    CHECK_EQ(test_read(path_a, 0, &la, NULL, NULL), 0);
    CHECK_EQ(test_read(path_b, 0, &lb, NULL, NULL), 0);
    CHECK_EQ(la.count, 1 + 3);
    CHECK_EQ(test_count_provider(&la, &StaleOld), 1);
    CHECK_EQ(test_count_provider(&la, &StaleNew), 2);
    static const uint32_t want_a[] = {42, 43, 44};
    for (int i = 0; i < 3; i++) {
        uint32_t got;
        CHECK_EQ(la.ev[1 + i].length, 4);
        memcpy(&got, la.ev[1 + i].data, 4);
        CHECK_EQ(got, want_a[i]);
    }
    CHECK_EQ(lb.count, 1 + 1);
    CHECK_EQ(lb.ev[1].header.descriptor.id, 7);
    CHECK_EQ(test_count_provider(&lb, &StaleNew), 1);
    test_events_free(&la);
    test_events_free(&lb);
    unlink(path_a);
    unlink(path_b);
    printf("stale_handle: ok\n");
    return 0;
}
