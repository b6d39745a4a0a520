/* SPDX-License-Identifier: MIT */
/* kernel_logger.c - starts the NT Kernel Logger the way Microsoft's
 * documentation does it, in "Configuring and Starting the NT Kernel Logger
 * Session" (at
 * learn.microsoft.com/windows/win32/etw/configuring-and-starting-the-nt-kernel-logger-session):
 * INITGUID for SystemTraceControlGuid; <windows.h>, <conio.h>, <strsafe.h>,
 * <wmistr.h> and <evntrace.h>; a `void wmain(void)`; one malloc'd
 * EVENT_TRACE_PROPERTIES with room for KERNEL_LOGGER_NAME and the log file
 * name after it; Wnode.Guid = SystemTraceControlGuid, a 5 MB circular file,
 * the file name put in with StringCbCopy; StartTrace with
 * KERNEL_LOGGER_NAME, _getch() until a key, then ControlTrace(STOP) by
 * handle and name. Written for petw's tests from that page's steps, with
 * the two things the page leaves to its reader filled in: the enable flags
 * (SAMPLE_ENABLE_FLAGS: the page's TCP/IP group for
 * test/kernel_logger_net.py, else the process, thread, image-load and
 * context-switch groups), and the log file is kernel.etl in the working
 * directory. Nothing here is specific to petw; it builds with -DUNICODE,
 * as a Visual Studio project does. test/kernel/kernel_logger_sample.sh runs it. */
#define INITGUID // SystemTraceControlGuid is defined, not only declared

#include <windows.h>
#include <stdio.h>
#include <conio.h>
#include <strsafe.h>
#include <wmistr.h>
#include <evntrace.h>

#define LOGFILE_PATH L"kernel.etl"
// The page's flags are EVENT_TRACE_FLAG_NETWORK_TCPIP (the network test's
// build says so); the other test's, process, thread, image and CSwitch.
#ifndef SAMPLE_ENABLE_FLAGS
#define SAMPLE_ENABLE_FLAGS                                                                        \
    (EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD | EVENT_TRACE_FLAG_IMAGE_LOAD |            \
     EVENT_TRACE_FLAG_CSWITCH)
#endif

void wmain(void)
{
    ULONG status = ERROR_SUCCESS;
    TRACEHANDLE SessionHandle = 0;
    EVENT_TRACE_PROPERTIES *pSessionProperties = NULL;
    ULONG BufferSize = 0;

    // The properties, then the session name (StartTrace copies it there),
    // then the log file name: one block.
    BufferSize = sizeof(EVENT_TRACE_PROPERTIES) + sizeof(KERNEL_LOGGER_NAME) + sizeof(LOGFILE_PATH);
    pSessionProperties = (EVENT_TRACE_PROPERTIES *)malloc(BufferSize);
    if (pSessionProperties == NULL) {
        wprintf(L"Cannot allocate %lu bytes for the session properties.\n", BufferSize);
        goto cleanup;
    }

    ZeroMemory(pSessionProperties, BufferSize);
    pSessionProperties->Wnode.BufferSize = BufferSize;
    pSessionProperties->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    pSessionProperties->Wnode.ClientContext = 1; // QPC timestamps
    pSessionProperties->Wnode.Guid = SystemTraceControlGuid;
    pSessionProperties->EnableFlags = SAMPLE_ENABLE_FLAGS;
    pSessionProperties->LogFileMode = EVENT_TRACE_FILE_MODE_CIRCULAR;
    pSessionProperties->MaximumFileSize = 5; // MB
    pSessionProperties->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    pSessionProperties->LogFileNameOffset =
        sizeof(EVENT_TRACE_PROPERTIES) + sizeof(KERNEL_LOGGER_NAME);
    StringCbCopy((LPWSTR)((char *)pSessionProperties + pSessionProperties->LogFileNameOffset),
                 sizeof(LOGFILE_PATH), LOGFILE_PATH);

    status = StartTrace((PTRACEHANDLE)&SessionHandle, KERNEL_LOGGER_NAME, pSessionProperties);
    if (status != ERROR_SUCCESS) {
        if (status == ERROR_ALREADY_EXISTS)
            wprintf(L"The NT Kernel Logger session is already in use.\n");
        else
            wprintf(L"StartTrace() failed with %lu\n", status);
        goto cleanup;
    }

    wprintf(L"Press any key to end trace session ");
    _getch();

cleanup:
    if (SessionHandle) {
        status = ControlTrace(SessionHandle, KERNEL_LOGGER_NAME, pSessionProperties,
                              EVENT_TRACE_CONTROL_STOP);
        if (status != ERROR_SUCCESS)
            wprintf(L"ControlTrace(stop) failed with %lu\n", status);
        else
            wprintf(L"\nThe session stopped.\n");
    }
    if (pSessionProperties)
        free(pSessionProperties);
}
