/* SPDX-License-Identifier: MIT */
/* test_sdk_names.c - petw's ETW headers declare the Windows SDK's names with
 * the SDK's values and layouts: every integer macro and enum constant of
 * test/windows/etw_sdk_names.h has its SDK value (a static assertion each), every
 * function links (its address is taken: the ones petw cannot honour are
 * defined and return ERROR_NOT_SUPPORTED), every type, GUID and other macro
 * exists, and the structs of test/windows/etw_sdk_layout.h have the SDK's 64-bit
 * sizes, alignments and offsets. Built as C and as C++ (the same source),
 * so a name missing in either language fails the build. At run time it
 * checks what a few of the unsupported functions return. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <windows.h>

#include <sal.h>

#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>
#include <objbase.h>
#include <relogger.h>
#include <tdh.h>
#include <winmeta.h>
#include <wmistr.h>
#include <TraceLoggingProvider.h>
#include <TraceLoggingActivity.h>

#ifdef __cplusplus
#define PETW_ASSERT(e, m) static_assert(e, m)
#define PETW_ALIGNOF(t) alignof(t)
#else
#define PETW_ASSERT(e, m) _Static_assert(e, m)
#define PETW_ALIGNOF(t) _Alignof(t)
#endif
#define PETW__WCHAR_IS_16_BITS (WCHAR_MAX <= 0xFFFF)

/* Values. */
#define PETW_SDK_VALUE(header, name, value)                                                        \
    PETW_ASSERT((unsigned long long)(name) == (unsigned long long)(value), #header ": " #name);
/* Types. */
#define PETW_SDK_TYPE(header, name) typedef name *petw_sdk_type_##name;
#include "etw_sdk_names.h"
#undef PETW_SDK_VALUE
#undef PETW_SDK_TYPE

#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
#define PETW_SDK_SIZE(type, size, align)                                                           \
    PETW_ASSERT(sizeof(type) == size, "sizeof " #type);                                            \
    PETW_ASSERT(PETW_ALIGNOF(type) == align, "alignment of " #type);
#define PETW_SDK_FIELD(type, field, offset)                                                        \
    PETW_ASSERT(offsetof(type, field) == offset, "offset of " #type "." #field);
#include "etw_sdk_layout.h"
#endif

static volatile uintptr_t sink;

#ifdef __cplusplus
/* TraceLoggingActivity.h: a thread activity is the thread's activity ID
 * between its START and STOP, and the previous one again after. */
TRACELOGGING_DEFINE_PROVIDER(g_sdk_names_provider, "Petw.Test.SdkNames",
                             (0x2b3c4d5e, 0x1111, 0x2222, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99,
                              0xaa));
static int activities(void)
{
    GUID before, during, after;
    int bad = 0;
    TraceLoggingRegister(g_sdk_names_provider);
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &before);
    {
        TraceLoggingThreadActivity<g_sdk_names_provider, 0x1, WINEVENT_LEVEL_INFO> t;
        TraceLoggingWriteStart(t, "Start", TraceLoggingInt32(1, "n"));
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &during);
        bad |= memcmp(&during, t.Id(), sizeof during) != 0 || !t.IsStarted();
        TraceLoggingActivity<g_sdk_names_provider> a;
        a.SetRelatedActivity(t);
        TraceLoggingWriteStart(a, "Child");
        TraceLoggingWriteTagged(a, "Tagged", TraceLoggingInt32(2, "n"));
        TraceLoggingWriteStop(a, "ChildStop");
        bad |= a.IsStarted();
        TraceLoggingWriteStop(t, "Stop");
    }
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &after);
    bad |= memcmp(&before, &after, sizeof after) != 0;
    TraceLoggingUnregister(g_sdk_names_provider);
    if (bad)
        fprintf(stderr, "TraceLoggingThreadActivity: the thread's activity ID is wrong\n");
    return bad;
}
#endif

static int check(const char *what, ULONG got, ULONG want)
{
    if (got == want)
        return 0;
    fprintf(stderr, "%s: %lu, not %lu\n", what, (unsigned long)got, (unsigned long)want);
    return 1;
}

int main(void)
{
    int bad = 0;
    ULONG n = 0;
    GUID g = {0, 0, 0, {0, 0, 0, 0, 0, 0, 0, 0}};
    void *object = &n;
    /* Every function and GUID is there to take the address of. */
#define PETW_SDK_FUNCTION(header, name) sink = (uintptr_t)&name;
#define PETW_SDK_GUID(header, name) sink = (uintptr_t)&name;
#include "etw_sdk_names.h"

    /* What petw cannot do fails at run time, with ERROR_NOT_SUPPORTED. */
    bad |=
        check("EnumerateTraceGuidsEx",
              EnumerateTraceGuidsEx(TraceGuidQueryList, NULL, 0, NULL, 0, &n), ERROR_NOT_SUPPORTED);
    bad |= check("TraceSetInformation", TraceSetInformation(0, TracePmcCounterListInfo, NULL, 0),
                 ERROR_NOT_SUPPORTED);
    bad |= check("EventAccessControl", EventAccessControl(&g, EventSecurityAddDACL, NULL, 0, 1),
                 ERROR_NOT_SUPPORTED);
    bad |= check("TdhOpenDecodingHandle", TdhOpenDecodingHandle(NULL), ERROR_NOT_SUPPORTED);
#if !defined(_WIN32)
    /* No relogger class: creation fails and leaves no object. */
    {
#ifdef __cplusplus
        HRESULT hr = CoCreateInstance(CLSID_TraceRelogger, NULL, CLSCTX_INPROC_SERVER,
                                      IID_ITraceRelogger, &object);
#else
        HRESULT hr = CoCreateInstance(&CLSID_TraceRelogger, NULL, CLSCTX_INPROC_SERVER,
                                      &IID_ITraceRelogger, &object);
#endif
        bad |=
            check("CoCreateInstance(CLSID_TraceRelogger)", (ULONG)hr, (ULONG)REGDB_E_CLASSNOTREG);
        bad |= object != NULL;
    }
#endif
    (void)object;
#ifdef __cplusplus
    bad |= activities();
#endif
    if (!bad)
        printf("SDK names, values and layouts: ok\n");
    return bad;
}
