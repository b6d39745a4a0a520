/* SPDX-License-Identifier: MIT */
/* bench_etw_native - the Windows side of the comparison: the same producer
 * benchmark against the operating system's own ETW (advapi32 EventWrite
 * with a real StartTrace file session), so a Windows user can run petw and
 * native ETW side by side. Built by bench/run.sh with mingw-w64; run it on
 * Windows as an administrator (StartTrace needs it):
 *   bench_etw_native.exe [events]
 * Prints JSON lines: native-etw-disabled, native-etw (file session). */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

/* {be0cbe0c-1111-2222-3333-000000000006} */
static const GUID BenchProvider = {0xbe0cbe0c, 0x1111, 0x2222, {0x33, 0x33, 0, 0, 0, 0, 0, 6}};
#define SESSION_NAME L"petw-bench-native"

typedef struct payload {
    ULONGLONG a, b, c, d;
    UCHAR arr[32];
} payload;

static double run(REGHANDLE reg, ULONG n)
{
    LARGE_INTEGER f, t0, t1;
    payload p = {1, 2, 3, 4, {0}};
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 1};
    EVENT_DATA_DESCRIPTOR dd[5];
    EventDataDescCreate(&dd[0], &p.a, 8);
    EventDataDescCreate(&dd[1], &p.b, 8);
    EventDataDescCreate(&dd[2], &p.c, 8);
    EventDataDescCreate(&dd[3], &p.d, 8);
    EventDataDescCreate(&dd[4], p.arr, 32);
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&t0);
    for (ULONG i = 0; i < n; i++) {
        p.a = i;
        EventWrite(reg, &d, 5, dd);
    }
    QueryPerformanceCounter(&t1);
    return (double)(t1.QuadPart - t0.QuadPart) * 1e9 / (double)f.QuadPart / (double)n;
}

int main(int argc, char **argv)
{
    ULONG n = argc > 1 ? (ULONG)strtoul(argv[1], NULL, 10) : 200000;
    REGHANDLE reg;
    if (EventRegister(&BenchProvider, NULL, NULL, &reg) != ERROR_SUCCESS)
        return 1;
    printf("{\"contender\":\"native-etw-disabled\",\"ns_per_event\":%.3f}\n", run(reg, n));

    ULONG size = sizeof(EVENT_TRACE_PROPERTIES) + 2 * MAX_PATH * sizeof(WCHAR);
    EVENT_TRACE_PROPERTIES *props = calloc(1, size);
    props->Wnode.BufferSize = size;
    props->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    props->Wnode.ClientContext = 1;
    props->BufferSize = 1024;
    props->MinimumBuffers = props->MaximumBuffers = 48;
    props->LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    props->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    props->LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + MAX_PATH * sizeof(WCHAR);
    wcscpy((WCHAR *)((char *)props + props->LogFileNameOffset), L"petw-bench-native.etl");
    TRACEHANDLE session = 0;
    ControlTraceW(0, SESSION_NAME, props, EVENT_TRACE_CONTROL_STOP); /* a leftover */
    props->Wnode.BufferSize = size;
    ULONG st = StartTraceW(&session, SESSION_NAME, props);
    if (st != ERROR_SUCCESS) {
        fprintf(stderr, "StartTrace failed with %lu (run as administrator)\n", st);
        return 1;
    }
    EnableTraceEx2(session, &BenchProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL);
    double ns = run(reg, n);
    ControlTraceW(session, NULL, props, EVENT_TRACE_CONTROL_STOP);
    printf("{\"contender\":\"native-etw\",\"ns_per_event\":%.3f,\"events_lost\":%lu}\n", ns,
           props->EventsLost);
    EventUnregister(reg);
    return 0;
}
