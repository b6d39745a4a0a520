/* SPDX-License-Identifier: MIT */
// A console program written as Windows ETW documentation and Visual Studio's
// "Use Unicode Character Set" console template write one: _tmain, the
// capitalised header names, the secure CRT functions, StringFromGUID2 and
// FileTimeToSystemTime. It starts a session, enables its own provider with
// EnableTraceEx, writes an event, reads the file back and prints it.
// Run as: windows_style_app h<e-acute>llo <U+1F600> (UTF-8 arguments).
#include <SDKDDKVer.h>
#include <stdio.h>
#include <tchar.h>
#include <Windows.h>
#include <Evntprov.h>
#include <Evntrace.h>
#include <Evntcons.h>
#include <Strsafe.h>
#include <unistd.h> // getpid: the file's name is this run's own

// {3c7a4b6e-0d51-4f2a-8e61-5b9c2d7e1f08}
static const GUID ProviderGuid = {
    0x3c7a4b6e, 0x0d51, 0x4f2a, {0x8e, 0x61, 0x5b, 0x9c, 0x2d, 0x7e, 0x1f, 0x08}};

static ULONG g_events = 0;

static VOID WINAPI EventRecordCallback(PEVENT_RECORD eventRecord)
{
    if (!IsEqualGUID(eventRecord->EventHeader.ProviderId, ProviderGuid))
        return;
    WCHAR providerId[40] = {};
    if (StringFromGUID2(eventRecord->EventHeader.ProviderId, providerId, _countof(providerId)) !=
        39)
        return;
    FILETIME ft;
    ft.dwLowDateTime = eventRecord->EventHeader.TimeStamp.LowPart;
    ft.dwHighDateTime = (DWORD)eventRecord->EventHeader.TimeStamp.HighPart;
    SYSTEMTIME st;
    if (!FileTimeToSystemTime(&ft, &st) || st.wYear < 2020)
        return;
    // The payload is UTF-16LE, as ETW stores text (WCHAR is 4 bytes here).
    WCHAR text[64] = {};
    const BYTE *p = (const BYTE *)eventRecord->UserData;
    for (USHORT i = 0; i + 1 < eventRecord->UserDataLength && (size_t)i / 2 + 1 < _countof(text);
         i += 2)
        text[i / 2] = (WCHAR)(p[i] | p[i + 1] << 8);
    WCHAR line[256];
    if (swprintf_s(line, L"%s %04u-%02u-%02u %s", providerId, st.wYear, st.wMonth, st.wDay, text) <
        0)
        return;
    wprintf_s(L"%s\n", line);
    if (_wcsicmp(text, L"H\u00e9LLO FROM _TMAIN") == 0 &&
        _wcsnicmp(providerId, L"{3C7A4B6E-0d51", 14) == 0)
        g_events++;
}

int _tmain(int argc, _TCHAR *argv[])
{
    if (argc != 3 || _tcscmp(argv[1], _T("h\u00e9llo")) != 0 ||
        _tcscmp(argv[2], _T("\U0001F600")) != 0) {
        _putws(L"unexpected arguments");
        return 2;
    }
    TCHAR logFile[MAX_PATH];
    const char *dir = getenv("TMPDIR");
    if (swprintf_s(logFile, L"%hs/windows_style_app-%d.etl", dir && *dir ? dir : "/tmp",
                   (int)getpid()) < 0)
        return 3;

    const DWORD size = sizeof(EVENT_TRACE_PROPERTIES) + 2 * MAX_PATH * sizeof(WCHAR);
    BYTE *buffer = (BYTE *)calloc(1, size);
    EVENT_TRACE_PROPERTIES *prop = (EVENT_TRACE_PROPERTIES *)buffer;
    prop->Wnode.BufferSize = size;
    prop->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    prop->Wnode.ClientContext = 1;
    prop->LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    prop->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    prop->LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + MAX_PATH * sizeof(WCHAR);
    if (wcscpy_s((LPWSTR)(buffer + prop->LogFileNameOffset), MAX_PATH, logFile) != 0)
        return 4;

    TRACEHANDLE session = 0;
    ULONG status = StartTrace(&session, _T("WindowsStyleApp"), prop);
    if (status != ERROR_SUCCESS) {
        wprintf_s(L"StartTrace failed: %lu\n", status);
        return 5;
    }
    REGHANDLE reg = 0;
    status = EventRegister(&ProviderGuid, NULL, NULL, &reg);
    if (status == ERROR_SUCCESS)
        status = EnableTraceEx(&ProviderGuid, NULL, session, TRUE, TRACE_LEVEL_INFORMATION, 0, 0, 0,
                               NULL);
    if (status == ERROR_SUCCESS)
        status = EventWriteString(reg, TRACE_LEVEL_INFORMATION, 0, L"h\u00e9llo from _tmain");
    EventUnregister(reg);
    ULONG stop = StopTrace(session, NULL, prop);
    free(buffer);
    if (status != ERROR_SUCCESS || stop != ERROR_SUCCESS) {
        wprintf_s(L"failed: %lu %lu\n", status, stop);
        return 6;
    }

    EVENT_TRACE_LOGFILE log = {};
    log.LogFileName = logFile;
    log.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    log.EventRecordCallback = EventRecordCallback;
    TRACEHANDLE trace = OpenTrace(&log);
    if (trace == INVALID_PROCESSTRACE_HANDLE)
        return 7;
    status = ProcessTrace(&trace, 1, NULL, NULL);
    CloseTrace(trace);
    char path[MAX_PATH * 4];
    if (sprintf_s(path, "%ls", logFile) > 0)
        remove(path);
    _tprintf(_T("%u event(s) from %s\n"), (unsigned)g_events, argv[0]);
    return status == ERROR_SUCCESS && g_events == 1 ? 0 : 8;
}
