/* SPDX-License-Identifier: MIT */
/* tracelogging_example.c - TraceLogging written as Microsoft documents it,
 * recorded by a file session in the same process: a provider, an activity
 * bracketed by start and stop events, and fields of many kinds.
 *
 * usage: tracelogging_example [file.etl]    (then: petw dump --format json FILE)
 */
#include <windows.h>
#include <TraceLoggingProvider.h>
#include <evntrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <winmeta.h>

/* {3970f9cf-2c0c-4f11-b1cc-e3a1e9958833} */
TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "Contoso.Example.Orders",
                             (0x3970f9cf, 0x2c0c, 0x4f11, 0xb1, 0xcc, 0xe3, 0xa1, 0xe9, 0x95, 0x88,
                              0x33));

typedef struct session {
    EVENT_TRACE_PROPERTIES props;
    WCHAR logger[64];
    WCHAR file[MAX_PATH];
} session;

static void process_order(int order, const char *customer, double total)
{
    GUID activity;
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &activity);
    TraceLoggingWriteActivity(
        g_hProvider, "OrderProcessing", &activity, NULL, TraceLoggingOpcode(WINEVENT_OPCODE_START),
        TraceLoggingLevel(WINEVENT_LEVEL_INFO), TraceLoggingInt32(order, "OrderId"),
        TraceLoggingUtf8String(customer, "Customer"));
    UINT16 quantities[3] = {1, 4, 2};
    TraceLoggingWriteActivity(
        g_hProvider, "OrderItems", &activity, NULL, TraceLoggingLevel(WINEVENT_LEVEL_VERBOSE),
        TraceLoggingUInt16Array(quantities, 3, "Quantities"), TraceLoggingStruct(2, "Shipping"),
        TraceLoggingWideString(L"Z\u00fcrich", "City"), TraceLoggingBoolean(TRUE, "Express"),
        TraceLoggingFloat64(total, "Total"), TraceLoggingHResult(S_OK, "Result"));
    TraceLoggingWriteActivity(
        g_hProvider, "OrderProcessing", &activity, NULL, TraceLoggingOpcode(WINEVENT_OPCODE_STOP),
        TraceLoggingLevel(WINEVENT_LEVEL_INFO), TraceLoggingInt32(order, "OrderId"));
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "tracelogging.etl";
    session s;
    ZeroMemory(&s, sizeof(s));
    s.props.Wnode.BufferSize = sizeof(s);
    s.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    s.props.Wnode.ClientContext = 1; /* QPC */
    s.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    s.props.LoggerNameOffset = offsetof(session, logger);
    s.props.LogFileNameOffset = offsetof(session, file);
    mbstowcs(s.file, path, MAX_PATH - 1);

    TRACEHANDLE h = 0;
    ULONG rc = StartTraceW(&h, L"petw tracelogging example", &s.props);
    if (rc != ERROR_SUCCESS) {
        fprintf(stderr, "StartTrace failed with %lu\n", (unsigned long)rc);
        return 1;
    }
    HRESULT hr = TraceLoggingRegister(g_hProvider);
    if (FAILED(hr)) {
        fprintf(stderr, "TraceLoggingRegister failed with 0x%08lx\n", (unsigned long)hr);
        return 1;
    }
    rc = EnableTraceEx2(h, TraceLoggingProviderId(g_hProvider), EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                        WINEVENT_LEVEL_VERBOSE, 0, 0, 0, NULL);
    if (rc == ERROR_SUCCESS) {
        process_order(1001, "Ada", 129.5);
        process_order(1002, "Grace", 18.25);
    } else {
        fprintf(stderr, "EnableTraceEx2 failed with %lu\n", (unsigned long)rc);
    }
    TraceLoggingUnregister(g_hProvider);
    ULONG stop = ControlTraceW(h, NULL, &s.props, EVENT_TRACE_CONTROL_STOP);
    if (stop != ERROR_SUCCESS || rc != ERROR_SUCCESS)
        return 1;
    printf("recorded %s: 6 TraceLogging events, %lu lost\n", path,
           (unsigned long)s.props.EventsLost);
    return 0;
}
