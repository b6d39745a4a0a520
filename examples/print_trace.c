/* SPDX-License-Identifier: MIT */
/* print_trace.c - a consumer, written as Microsoft's "Using TdhFormatProperty
 * to consume event data" sample begins: OpenTrace a log file with an
 * EventRecordCallback, ProcessTrace, CloseTrace. Prints each event's header
 * and its payload bytes.
 *
 * usage: print_trace file.etl
 */
#include <windows.h>
#include <evntcons.h>
#include <evntrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static ULONG g_events;

static void WINAPI ProcessEvent(PEVENT_RECORD pEvent)
{
    const EVENT_HEADER *h = &pEvent->EventHeader;
    const GUID *g = &h->ProviderId;
    g_events++;
    wprintf(L"%10llu {%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x} id=%u level=%u "
            L"opcode=%u task=%u keyword=0x%llx pid=%lu tid=%lu cpu=%u bytes=%u ",
            (unsigned long long)h->TimeStamp.QuadPart, (unsigned long)g->Data1, g->Data2, g->Data3,
            g->Data4[0], g->Data4[1], g->Data4[2], g->Data4[3], g->Data4[4], g->Data4[5],
            g->Data4[6], g->Data4[7], h->EventDescriptor.Id, h->EventDescriptor.Level,
            h->EventDescriptor.Opcode, h->EventDescriptor.Task,
            (unsigned long long)h->EventDescriptor.Keyword, (unsigned long)h->ProcessId,
            (unsigned long)h->ThreadId, (unsigned)GetEventProcessorIndex(pEvent),
            pEvent->UserDataLength);
    const UCHAR *p = (const UCHAR *)pEvent->UserData;
    for (USHORT i = 0; i < pEvent->UserDataLength && i < 24; i++)
        wprintf(L"%02x", p[i]);
    wprintf(L"%ls\n", pEvent->UserDataLength > 24 ? L"..." : L"");
}

int main(int argc, char **argv)
{
    WCHAR path[MAX_PATH];
    EVENT_TRACE_LOGFILE trace;
    TRACEHANDLE hTrace;
    ULONG status;

    if (argc < 2) {
        wprintf(L"usage: print_trace file.etl\n");
        return 2;
    }
    mbstowcs(path, argv[1], MAX_PATH - 1);
    path[MAX_PATH - 1] = 0;

    ZeroMemory(&trace, sizeof(EVENT_TRACE_LOGFILE));
    trace.LogFileName = path;
    trace.EventRecordCallback = (PEVENT_RECORD_CALLBACK)(ProcessEvent);
    trace.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;

    hTrace = OpenTrace(&trace);
    if (INVALID_PROCESSTRACE_HANDLE == hTrace) {
        wprintf(L"OpenTrace failed with %lu\n", GetLastError());
        return 1;
    }
    wprintf(L"logger \"%ls\", %lu processors, %lu buffers of %lu bytes, %lu events lost\n",
            trace.LogfileHeader.LoggerName, trace.LogfileHeader.NumberOfProcessors,
            trace.LogfileHeader.BuffersWritten, trace.LogfileHeader.BufferSize,
            trace.LogfileHeader.EventsLost);

    status = ProcessTrace(&hTrace, 1, 0, 0);
    if (status != ERROR_SUCCESS && status != ERROR_CANCELLED)
        wprintf(L"ProcessTrace failed with %lu\n", status);
    CloseTrace(hTrace);
    wprintf(L"%lu events\n", g_events);
    return status == ERROR_SUCCESS ? 0 : 1;
}
