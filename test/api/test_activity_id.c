/* SPDX-License-Identifier: MIT */
/* EventActivityIdControl, every control code: GET and SET, CREATE (a new
 * identifier, the current one unchanged), GET_SET and CREATE_SET (return
 * the previous one), per thread (another thread starts from zero and its
 * changes stay its own), events take the current ID, and bad arguments. */
#include <uv.h>

#include "test_util.h"

static const GUID zero;

static void other_thread(void *arg)
{
    GUID *seen = arg;
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &seen[0]), ERROR_SUCCESS);
    GUID mine = {0xbeef, 1, 2, {3}};
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &mine), ERROR_SUCCESS);
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &seen[1]), ERROR_SUCCESS);
}

int main(void)
{
    GUID g, a, b;
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &g), ERROR_SUCCESS);
    CHECK(IsEqualGUID(&g, &zero)); /* a new thread has none */

    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &a), ERROR_SUCCESS);
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &b), ERROR_SUCCESS);
    CHECK(!IsEqualGUID(&a, &zero) && !IsEqualGUID(&a, &b));
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &g), ERROR_SUCCESS);
    CHECK(IsEqualGUID(&g, &zero)); /* CREATE does not set */

    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &a), ERROR_SUCCESS);
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &g), ERROR_SUCCESS);
    CHECK(IsEqualGUID(&g, &a));

    g = b; /* GET_SET: sets b, returns a */
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &g), ERROR_SUCCESS);
    CHECK(IsEqualGUID(&g, &a));
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &g), ERROR_SUCCESS);
    CHECK(IsEqualGUID(&g, &b));

    /* CREATE_SET: a fresh current one, the previous (b) returned. */
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &g), ERROR_SUCCESS);
    CHECK(IsEqualGUID(&g, &b));
    GUID fresh;
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &fresh), ERROR_SUCCESS);
    CHECK(!IsEqualGUID(&fresh, &b) && !IsEqualGUID(&fresh, &zero));

    /* Per thread. */
    GUID seen[2];
    uv_thread_t th;
    CHECK_EQ(uv_thread_create(&th, other_thread, seen), 0);
    CHECK_EQ(uv_thread_join(&th), 0);
    CHECK(IsEqualGUID(&seen[0], &zero));
    CHECK_EQ(seen[1].Data1, 0xbeef);
    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &g), ERROR_SUCCESS);
    CHECK(IsEqualGUID(&g, &fresh));

    /* Events carry the thread's current ID unless given one. */
    char path[512];
    test_path(path, sizeof(path), "activity.etl");
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE sh;
    CHECK_EQ(test_start_trace(&sh, "petw-test-activity", &tp.p), ERROR_SUCCESS);
    static const GUID prov = {0xac710001, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&prov, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(sh, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    CHECK_EQ(EventWrite(reg, &d, 0, NULL), ERROR_SUCCESS);
    CHECK_EQ(EventWriteTransfer(reg, &d, &a, NULL, 0, NULL), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(sh, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.count, 3);
    CHECK(!memcmp(&l.ev[1].header.activity_id, &fresh, sizeof(GUID)));
    CHECK(!memcmp(&l.ev[2].header.activity_id, &a, sizeof(GUID)));
    test_events_free(&l);
    unlink(path);

    CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventActivityIdControl(99, &g), ERROR_INVALID_PARAMETER);
    printf("activity_id: every control code, per thread, on events\n");
    return 0;
}
