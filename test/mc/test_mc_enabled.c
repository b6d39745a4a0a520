/* SPDX-License-Identifier: MIT */
/* test_mc_enabled.c - EventEnabled<Event>() of a `petw mc` header follows
 * the sessions' enable level and keywords (MatchAnyKeyword and
 * MatchAllKeyword), through McGenControlCallbackV2 as on Windows: each
 * event's enable bit is set when its level and keywords pass. */
#include "mc_test.h"

#include "mc_types.h"

/* Which of the events are enabled, as a string of 0s and 1s: Scalars
 * (Informational, KwA), Strings (Verbose, KwB), Blobs (Warning, KwA|KwB),
 * Arrays (Error, KwA), Ping (Critical, no keyword), LongText
 * (Informational, KwHigh), Chat (level 16, KwA). */
static const char *enabled(void)
{
    static char s[8];
    s[0] = EventEnabledScalars() ? '1' : '0';
    s[1] = EventEnabledStrings() ? '1' : '0';
    s[2] = EventEnabledBlobs() ? '1' : '0';
    s[3] = EventEnabledArrays() ? '1' : '0';
    s[4] = EventEnabledPing() ? '1' : '0';
    s[5] = EventEnabledLongText() ? '1' : '0';
    s[6] = EventEnabledChat() ? '1' : '0';
    s[7] = 0;
    return s;
}

static void expect(const char *want)
{
    if (strcmp(enabled(), want) != 0) {
        fprintf(stderr, "enabled %s, expected %s\n", enabled(), want);
        exit(1);
    }
}

static void enable(TRACEHANDLE sh, UCHAR level, ULONGLONG any, ULONGLONG all)
{
    CHECK(EnableTraceEx2(sh, &PETW_TEST_MCTYPES, EVENT_CONTROL_CODE_ENABLE_PROVIDER, level, any,
                         all, 0, NULL) == ERROR_SUCCESS);
}

int main(void)
{
    mc_props a;
    TRACEHANDLE sh = mc_start(&a, "mc-enabled", NULL);

    CHECK(EventRegisterPetw_Test_McTypes() == ERROR_SUCCESS);
    expect("0000000");
    CHECK(EventWriteScalarsV1(1) == 0); /* not enabled: nothing written, success */

    enable(sh, TRACE_LEVEL_INFORMATION, KW_A, 0);
    expect("1011100");
    CHECK(PETW_TEST_MCTYPES_Context.IsEnabled == EVENT_CONTROL_CODE_ENABLE_PROVIDER);
    CHECK(PETW_TEST_MCTYPES_Context.Level == TRACE_LEVEL_INFORMATION);

    enable(sh, TRACE_LEVEL_VERBOSE, KW_B | KW_HIGH, 0);
    expect("0110110");

    enable(sh, TRACE_LEVEL_ERROR, KW_A, 0);
    expect("0001100");

    /* Every keyword of an event's must be among MatchAllKeyword's. */
    enable(sh, TRACE_LEVEL_VERBOSE, KW_A | KW_B, KW_A | KW_B);
    expect("0010100");

    /* Keywords 0: every keyword; level 0: every level. */
    enable(sh, 0, 0, 0);
    expect("1111111");

    CHECK(EnableTraceEx2(sh, &PETW_TEST_MCTYPES, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0,
                         NULL) == ERROR_SUCCESS);
    expect("0000000");
    CHECK(PETW_TEST_MCTYPES_Context.IsEnabled == 0);

    /* A provider registered while a session already enables it. */
    CHECK(EventUnregisterPetw_Test_McTypes() == ERROR_SUCCESS);
    enable(sh, TRACE_LEVEL_WARNING, KW_A | KW_B, 0);
    expect("0000000");
    CHECK(EventRegisterPetw_Test_McTypes() == ERROR_SUCCESS);
    expect("0011100");
    CHECK(EventUnregisterPetw_Test_McTypes() == ERROR_SUCCESS);

    CHECK(ControlTraceA(sh, NULL, &a.p, EVENT_TRACE_CONTROL_STOP) == ERROR_SUCCESS);
    printf("ok: EventEnabled follows the enable level and keywords\n");
    return 0;
}
