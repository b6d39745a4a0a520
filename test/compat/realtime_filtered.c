/* SPDX-License-Identifier: MIT */
/* realtime_filtered.c - a real-time consumer written the way Microsoft's
 * documentation writes one, with an event ID filter and stack traces, from
 * these pages (learn.microsoft.com/windows/win32/...):
 *   api/evntrace/nf-evntrace-enabletraceex2 (EnableTraceEx2),
 *   api/evntrace/ns-evntrace-enable_trace_parameters (ENABLE_TRACE_PARAMETERS:
 *     Version 2, EnableProperty EVENT_ENABLE_PROPERTY_STACK_TRACE, the
 *     filter descriptors),
 *   api/evntprov/ns-evntprov-event_filter_event_id (EVENT_FILTER_EVENT_ID in
 *     an EVENT_FILTER_DESCRIPTOR of Type EVENT_FILTER_TYPE_EVENT_ID),
 *   api/evntrace/ns-evntrace-event_trace_logfilew (OpenTrace on a real-time
 *     session: LoggerName set, LogFileName NULL, PROCESS_TRACE_MODE_REAL_TIME
 *     | PROCESS_TRACE_MODE_EVENT_RECORD, an EventRecordCallback),
 *   api/evntcons/ns-evntcons-event_extended_item_stack_trace64
 *     (EVENT_HEADER_EXT_TYPE_STACK_TRACE64: MatchId, then
 *     (DataSize - sizeof(ULONG64)) / sizeof(ULONG64) addresses).
 * The session is real-time only, started with StartTrace; ProcessTrace runs
 * on its own thread and returns when ControlTrace(STOP) ends the session.
 * The provider is this program's: it writes events 1 to 6, each a known
 * number of times, and the filter lets only 2 and 5 through. The program
 * checks what arrived: only those IDs, exactly as many as were written,
 * each with a stack whose frames are all non-zero. It builds with -DUNICODE,
 * as a Visual Studio project does; the thread is a POSIX thread where
 * Windows code would call CreateThread. Exit status 0 when all holds. */
#include <windows.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <pthread.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>

#define LOGSESSION_NAME L"petw realtime filtered sample"
#define MAX_ID 6

// {5b0cbd57-2f1c-4d0e-8a49-7c3f1e6d2a90}
static const GUID ProviderGuid = {
    0x5b0cbd57, 0x2f1c, 0x4d0e, {0x8a, 0x49, 0x7c, 0x3f, 0x1e, 0x6d, 0x2a, 0x90}};

static const USHORT AllowedIds[] = {2, 5};

static ULONG g_Received[MAX_ID + 1]; // events per ID
static ULONG g_Other;                // events with an ID outside 1..MAX_ID
static ULONG g_WithStack;            // events that carried a usable stack
static ULONG g_BadStack;             // stacks with no frame or a zero frame

static VOID WINAPI EventRecordCallback(PEVENT_RECORD pEvent)
{
    if (!IsEqualGUID(&pEvent->EventHeader.ProviderId, &ProviderGuid))
        return;
    USHORT id = pEvent->EventHeader.EventDescriptor.Id;
    if (id >= 1 && id <= MAX_ID)
        g_Received[id]++;
    else
        g_Other++;

    for (USHORT i = 0; i < pEvent->ExtendedDataCount; i++) {
        PEVENT_HEADER_EXTENDED_DATA_ITEM pItem = &pEvent->ExtendedData[i];
        if (pItem->ExtType != EVENT_HEADER_EXT_TYPE_STACK_TRACE64)
            continue;
        PEVENT_EXTENDED_ITEM_STACK_TRACE64 pStack =
            (PEVENT_EXTENDED_ITEM_STACK_TRACE64)(ULONG_PTR)pItem->DataPtr;
        ULONG frames = 0;
        if (pItem->DataSize > sizeof(ULONG64) && (pItem->DataSize % sizeof(ULONG64)) == 0)
            frames = (pItem->DataSize - sizeof(ULONG64)) / sizeof(ULONG64);
        BOOL ok = frames > 0;
        for (ULONG f = 0; f < frames; f++)
            if (pStack->Address[f] == 0)
                ok = FALSE;
        if (ok)
            g_WithStack++;
        else
            g_BadStack++;
    }
}

static void *ConsumerThread(void *pHandle)
{
    ULONG status = ProcessTrace((PTRACEHANDLE)pHandle, 1, NULL, NULL);
    if (status != ERROR_SUCCESS && status != ERROR_CANCELLED)
        wprintf(L"ProcessTrace failed with %lu\n", status);
    return NULL;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static ULONG
WriteEvent(REGHANDLE hProvider, USHORT id, ULONG sequence)
{
    EVENT_DESCRIPTOR descriptor;
    EVENT_DATA_DESCRIPTOR data;
    EventDescCreate(&descriptor, id, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
    EventDataDescCreate(&data, &sequence, sizeof(sequence));
    return EventWrite(hProvider, &descriptor, 1, &data);
}

int wmain(void)
{
    ULONG status = ERROR_SUCCESS;
    TRACEHANDLE SessionHandle = 0;
    TRACEHANDLE TraceHandle = INVALID_PROCESSTRACE_HANDLE;
    REGHANDLE ProviderHandle = 0;
    EVENT_TRACE_PROPERTIES *pSessionProperties = NULL;
    PEVENT_FILTER_EVENT_ID pIds = NULL;
    ULONG BufferSize = 0, FilterSize = 0;
    EVENT_FILTER_DESCRIPTOR filterDesc;
    ENABLE_TRACE_PARAMETERS enableParameters;
    EVENT_TRACE_LOGFILE trace;
    ULONG Written[MAX_ID + 1] = {0};
    pthread_t Consumer;
    BOOL ConsumerStarted = FALSE;
    int result = 1;

    // The properties, then room for the session name StartTrace copies.
    BufferSize = sizeof(EVENT_TRACE_PROPERTIES) + sizeof(LOGSESSION_NAME);
    pSessionProperties = (EVENT_TRACE_PROPERTIES *)malloc(BufferSize);
    if (pSessionProperties == NULL) {
        wprintf(L"Unable to allocate %lu bytes for properties structure.\n", BufferSize);
        goto cleanup;
    }
    ZeroMemory(pSessionProperties, BufferSize);
    pSessionProperties->Wnode.BufferSize = BufferSize;
    pSessionProperties->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    pSessionProperties->Wnode.ClientContext = 1; // QPC clock resolution
    pSessionProperties->LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    pSessionProperties->FlushTimer = 1;
    pSessionProperties->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);

    status = StartTrace(&SessionHandle, LOGSESSION_NAME, pSessionProperties);
    if (status != ERROR_SUCCESS) {
        wprintf(L"StartTrace() failed with %lu\n", status);
        goto cleanup;
    }

    // Only event IDs 2 and 5, each with the writer's call stack.
    FilterSize = (ULONG)(offsetof(EVENT_FILTER_EVENT_ID, Events) + sizeof(AllowedIds));
    pIds = (PEVENT_FILTER_EVENT_ID)malloc(FilterSize);
    if (pIds == NULL) {
        wprintf(L"Unable to allocate %lu bytes for the event ID filter.\n", FilterSize);
        goto cleanup;
    }
    ZeroMemory(pIds, FilterSize);
    pIds->FilterIn = TRUE;
    pIds->Count = ARRAYSIZE(AllowedIds);
    for (USHORT i = 0; i < ARRAYSIZE(AllowedIds); i++)
        pIds->Events[i] = AllowedIds[i];

    ZeroMemory(&filterDesc, sizeof(filterDesc));
    filterDesc.Ptr = (ULONGLONG)(ULONG_PTR)pIds;
    filterDesc.Size = FilterSize;
    filterDesc.Type = EVENT_FILTER_TYPE_EVENT_ID;

    ZeroMemory(&enableParameters, sizeof(enableParameters));
    enableParameters.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    enableParameters.EnableProperty = EVENT_ENABLE_PROPERTY_STACK_TRACE;
    enableParameters.EnableFilterDesc = &filterDesc;
    enableParameters.FilterDescCount = 1;

    status = EnableTraceEx2(SessionHandle, &ProviderGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            TRACE_LEVEL_VERBOSE, 0, 0, 0, &enableParameters);
    if (status != ERROR_SUCCESS) {
        wprintf(L"EnableTraceEx2() failed with %lu\n", status);
        goto cleanup;
    }

    // The consumer: the session by name, in real time, EVENT_RECORDs.
    ZeroMemory(&trace, sizeof(trace));
    trace.LogFileName = NULL;
    trace.LoggerName = (LPWSTR)LOGSESSION_NAME;
    trace.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
    trace.EventRecordCallback = EventRecordCallback;
    TraceHandle = OpenTrace(&trace);
    if (TraceHandle == INVALID_PROCESSTRACE_HANDLE) {
        wprintf(L"OpenTrace() failed with %lu\n", GetLastError());
        goto cleanup;
    }
    if (pthread_create(&Consumer, NULL, ConsumerThread, &TraceHandle) != 0) {
        wprintf(L"Cannot start the consumer thread.\n");
        goto cleanup;
    }
    ConsumerStarted = TRUE;

    // The provider: event n written 3n times, the IDs interleaved.
    status = EventRegister(&ProviderGuid, NULL, NULL, &ProviderHandle);
    if (status != ERROR_SUCCESS) {
        wprintf(L"EventRegister() failed with %lu\n", status);
        goto cleanup;
    }
    for (ULONG round = 0; round < 3 * MAX_ID; round++) {
        for (USHORT id = 1; id <= MAX_ID; id++) {
            if (round >= 3u * id)
                continue;
            status = WriteEvent(ProviderHandle, id, round);
            if (status != ERROR_SUCCESS) {
                wprintf(L"EventWrite() failed with %lu\n", status);
                goto cleanup;
            }
            Written[id]++;
        }
    }

    // Stopping the session delivers what is left and ends ProcessTrace.
    status = ControlTrace(SessionHandle, NULL, pSessionProperties, EVENT_TRACE_CONTROL_STOP);
    if (status != ERROR_SUCCESS) {
        wprintf(L"ControlTrace(stop) failed with %lu\n", status);
        goto cleanup;
    }
    SessionHandle = 0;
    pthread_join(Consumer, NULL);
    ConsumerStarted = FALSE;

    ULONG expected = 0, received = 0;
    result = 0;
    for (USHORT id = 1; id <= MAX_ID; id++) {
        BOOL allowed = id == 2 || id == 5;
        ULONG want = allowed ? Written[id] : 0;
        if (g_Received[id] != want) {
            wprintf(L"event %u: %lu received, %lu expected\n", id, g_Received[id], want);
            result = 1;
        }
        expected += want;
        received += g_Received[id];
    }
    if (expected != 6 + 15 || g_Other != 0 || g_BadStack != 0 || g_WithStack != received) {
        wprintf(L"%lu events (%lu expected), %lu with other IDs, %lu stacks (%lu bad)\n", received,
                expected, g_Other, g_WithStack, g_BadStack);
        result = 1;
    }
    if (pSessionProperties->EventsLost != 0 || pSessionProperties->RealTimeBuffersLost != 0) {
        wprintf(L"%lu events and %lu real-time buffers lost\n", pSessionProperties->EventsLost,
                pSessionProperties->RealTimeBuffersLost);
        result = 1;
    }
    if (result == 0)
        wprintf(L"%lu events of IDs 2 and 5, each with a stack\n", received);

cleanup:
    if (ProviderHandle)
        EventUnregister(ProviderHandle);
    if (SessionHandle)
        ControlTrace(SessionHandle, NULL, pSessionProperties, EVENT_TRACE_CONTROL_STOP);
    if (ConsumerStarted)
        pthread_join(Consumer, NULL);
    if (TraceHandle != INVALID_PROCESSTRACE_HANDLE)
        CloseTrace(TraceHandle);
    free(pIds);
    free(pSessionProperties);
    return result;
}
