/* SPDX-License-Identifier: MIT */
/* record_trace.c - a controller, written as Microsoft's "Configuring and
 * starting an event tracing session" documents it: start a file session,
 * enable the example provider, run it, stop. The session is shared (its
 * host is a process of its own), so the provider could run in any process
 * of this user; here it runs in this one, for a self-contained example.
 *
 * usage: record_trace [file.etl] [events]
 */
#include <windows.h>
#include <evntrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <strsafe.h>
#include <wmistr.h>

#include "example_provider.h"

#define LOGSESSION_NAME L"petw example session"

int main(int argc, char **argv)
{
    WCHAR LogFilePath[MAX_PATH];
    const char *path = argc > 1 ? argv[1] : "example.etl";
    ULONG count = argc > 2 ? (ULONG)strtoul(argv[2], NULL, 10) : 8;
    TRACEHANDLE SessionHandle = 0;
    EVENT_TRACE_PROPERTIES *pSessionProperties = NULL;
    ULONG BufferSize = 0;
    ULONG status = ERROR_SUCCESS;

    mbstowcs(LogFilePath, path, MAX_PATH - 1);
    LogFilePath[MAX_PATH - 1] = 0;

    BufferSize = sizeof(EVENT_TRACE_PROPERTIES) + sizeof(LogFilePath) + sizeof(LOGSESSION_NAME);
    pSessionProperties = (EVENT_TRACE_PROPERTIES *)malloc(BufferSize);
    if (NULL == pSessionProperties) {
        wprintf(L"Unable to allocate %lu bytes for properties structure.\n", BufferSize);
        return 1;
    }

    ZeroMemory(pSessionProperties, BufferSize);
    pSessionProperties->Wnode.BufferSize = BufferSize;
    pSessionProperties->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    pSessionProperties->Wnode.ClientContext = 1; // QPC clock resolution
    pSessionProperties->LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    pSessionProperties->MaximumFileSize = 0;
    pSessionProperties->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    pSessionProperties->LogFileNameOffset =
        sizeof(EVENT_TRACE_PROPERTIES) + sizeof(LOGSESSION_NAME);
    StringCbCopy((LPWSTR)((char *)pSessionProperties + pSessionProperties->LogFileNameOffset),
                 sizeof(LogFilePath), LogFilePath);

    status = StartTrace((PTRACEHANDLE)&SessionHandle, LOGSESSION_NAME, pSessionProperties);
    if (ERROR_SUCCESS != status) {
        wprintf(L"StartTrace() failed with %lu\n", status);
        goto cleanup;
    }

    status = EnableTraceEx2(SessionHandle, &ProviderGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            TRACE_LEVEL_INFORMATION, 0, 0, 0, NULL);
    if (ERROR_SUCCESS != status) {
        wprintf(L"EnableTraceEx2() failed with %lu\n", status);
        goto cleanup;
    }

    RunExampleProvider(count);

cleanup:
    if (SessionHandle) {
        status = ControlTrace(SessionHandle, LOGSESSION_NAME, pSessionProperties,
                              EVENT_TRACE_CONTROL_STOP);
        if (ERROR_SUCCESS != status)
            wprintf(L"ControlTrace(stop) failed with %lu\n", status);
        else
            wprintf(L"recorded %hs: %lu buffers written, %lu events lost\n", path,
                    pSessionProperties->BuffersWritten, pSessionProperties->EventsLost);
    }
    free(pSessionProperties);
    return status == ERROR_SUCCESS ? 0 : 1;
}
