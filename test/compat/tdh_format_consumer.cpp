/* SPDX-License-Identifier: MIT */
// An ETW consumer written the way Microsoft's documentation sample "Using
// TdhFormatProperty to Consume Event Data" is written
// (https://learn.microsoft.com/windows/win32/etw/using-tdhformatproperty-to-consume-event-data,
// its version before 2022): the same headers (<wbemidl.h>, <in6addr.h>), and
// the same calls in the same order - OpenTrace and the logfile header,
// ProcessTrace, then per event TdhGetEventInformation (size, then data),
// StringFromCLSID and CoTaskMemFree for MOF events, FileTimeToSystemTime and
// SystemTimeToTzSpecificLocalTime for the time stamp, TdhGetPropertySize and
// TdhGetProperty for lengths and counts named by other properties,
// TdhGetEventMapInformation, and TdhFormatProperty asked for its size first.
// It consumes a trace it records itself with a manifest-described event
// (tdh_format_consumer.man, through PETW_MANIFEST_PATH) holding an IPv4
// and two IPv6 addresses, a SID, a FILETIME, a SYSTEMTIME, a GUID, a
// counted array, a binary of a named length and a hex number, and checks
// every line it prints, and StringFromCLSID and SystemTimeToTzSpecificLocalTime
// on their own. Pass a path to keep the trace there.
#define INITGUID

#include <windows.h>
#include <stdio.h>
#include <wbemidl.h>
#include <wmistr.h>
#include <evntrace.h>
#include <tdh.h>
#include <in6addr.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

// {5e8b1f20-7c3a-4d19-a6e2-0b9d4c7f3a51}, as the manifest names it.
static const GUID ProviderGuid = {
    0x5e8b1f20, 0x7c3a, 0x4d19, {0xa6, 0xe2, 0x0b, 0x9d, 0x4c, 0x7f, 0x3a, 0x51}};

static ULONG g_TimerResolution = 0;
static BOOL g_bUserMode = FALSE;
static TRACEHANDLE g_hTrace = 0;
static std::vector<std::wstring> g_lines; // what the consumer printed
static int g_failed = 0;

static void Print(const wchar_t *format, ...)
{
    wchar_t line[1024];
    va_list ap;
    va_start(ap, format);
    vswprintf_s(line, _countof(line), format, ap);
    va_end(ap);
    wprintf_s(L"%s\n", line);
    g_lines.push_back(line);
}

// ---- the recording side: one event of the manifest's template ----

static void Put16(std::vector<BYTE> &b, UINT16 v)
{
    b.push_back((BYTE)v);
    b.push_back((BYTE)(v >> 8));
}

static void Put32(std::vector<BYTE> &b, UINT32 v)
{
    Put16(b, (UINT16)v);
    Put16(b, (UINT16)(v >> 16));
}

static void PutBytes(std::vector<BYTE> &b, const BYTE *p, size_t n)
{
    b.insert(b.end(), p, p + n);
}

static std::vector<BYTE> Payload(void)
{
    std::vector<BYTE> b;
    for (const char *s = "Ada Lovelace"; *s; s++) // UTF-16LE, as ETW stores text
        Put16(b, (UINT16)*s);
    Put16(b, 0);
    static const BYTE local[4] = {10, 0, 0, 1}; // network order
    PutBytes(b, local, 4);
    static const BYTE remote[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0,    0,    0,
                                    0,    0,    0xff, 0x00, 0, 0x42, 0x83, 0x29};
    PutBytes(b, remote, 16);
    static const BYTE mapped[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 33};
    PutBytes(b, mapped, 16);
    static const BYTE sid[8] = {1, 5, 0, 0, 0, 0, 0, 5}; // S-1-5, 5 sub-authorities
    PutBytes(b, sid, 8);
    static const UINT32 subs[5] = {21, 1004336348, 1177238915, 682003330, 512};
    for (UINT32 s : subs)
        Put32(b, s);
    ULONGLONG when = 133537700961234567ull; // 2024-03-01 12:34:56.1234567 UTC
    Put32(b, (UINT32)when);
    Put32(b, (UINT32)(when >> 32));
    static const UINT16 logged[8] = {2024, 3, 5, 1, 12, 34, 56, 789};
    for (UINT16 v : logged)
        Put16(b, v);
    static const GUID session = {
        0x9a1f2c3d, 0x4b5e, 0x4f60, {0x81, 0x72, 0x93, 0xa4, 0xb5, 0xc6, 0xd7, 0xe8}};
    Put32(b, session.Data1);
    Put16(b, session.Data2);
    Put16(b, session.Data3);
    PutBytes(b, session.Data4, 8);
    Put16(b, 2); // Count
    Put16(b, 80);
    Put16(b, 443);
    Put16(b, 3); // Size
    static const BYTE blob[3] = {1, 2, 0xab};
    PutBytes(b, blob, 3);
    Put32(b, 0x1f); // Status
    return b;
}

static int Record(const wchar_t *logFile)
{
    const DWORD size = sizeof(EVENT_TRACE_PROPERTIES) + 2 * MAX_PATH * sizeof(WCHAR);
    std::vector<BYTE> buffer(size);
    EVENT_TRACE_PROPERTIES *prop = (EVENT_TRACE_PROPERTIES *)buffer.data();
    prop->Wnode.BufferSize = size;
    prop->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    prop->Wnode.ClientContext = 1;
    prop->LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    prop->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    prop->LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + MAX_PATH * sizeof(WCHAR);
    wcscpy_s((LPWSTR)(buffer.data() + prop->LogFileNameOffset), MAX_PATH, logFile);
    TRACEHANDLE session = 0;
    ULONG status = StartTrace(&session, L"TdhFormatConsumer", prop);
    if (status != ERROR_SUCCESS)
        return (int)status;
    REGHANDLE reg = 0;
    status = EventRegister(&ProviderGuid, NULL, NULL, &reg);
    if (status == ERROR_SUCCESS)
        status = EnableTraceEx2(session, &ProviderGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                                TRACE_LEVEL_INFORMATION, 0, 0, 0, NULL);
    std::vector<BYTE> payload = Payload();
    EVENT_DESCRIPTOR desc;
    EventDescCreate(&desc, 7, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
    EVENT_DATA_DESCRIPTOR data;
    EventDataDescCreate(&data, payload.data(), (ULONG)payload.size());
    if (status == ERROR_SUCCESS)
        status = EventWrite(reg, &desc, 1, &data);
    EventUnregister(reg);
    ULONG stop = ControlTrace(session, NULL, prop, EVENT_TRACE_CONTROL_STOP);
    return (int)(status != ERROR_SUCCESS ? status : stop);
}

// ---- the consuming side, as the documentation's sample consumes ----

static DWORD GetEventInformation(PEVENT_RECORD pEvent, PTRACE_EVENT_INFO &pInfo)
{
    DWORD BufferSize = 0;
    DWORD status = TdhGetEventInformation(pEvent, 0, NULL, pInfo, &BufferSize);
    if (status == ERROR_INSUFFICIENT_BUFFER) {
        pInfo = (TRACE_EVENT_INFO *)malloc(BufferSize);
        if (pInfo == NULL)
            return ERROR_OUTOFMEMORY;
        status = TdhGetEventInformation(pEvent, 0, NULL, pInfo, &BufferSize);
    }
    return status;
}

// A length or count another property holds (a UINT16 or UINT32).
static DWORD ReferencedValue(PEVENT_RECORD pEvent, PTRACE_EVENT_INFO pInfo, DWORD j, PUSHORT Value)
{
    PROPERTY_DATA_DESCRIPTOR DataDescriptor;
    DWORD PropertySize = 0, Number = 0;
    ZeroMemory(&DataDescriptor, sizeof(DataDescriptor));
    DataDescriptor.PropertyName =
        (ULONGLONG)(ULONG_PTR)((PBYTE)pInfo + pInfo->EventPropertyInfoArray[j].NameOffset);
    DataDescriptor.ArrayIndex = (ULONG)ULONG_MAX; // 64 bits on LP64: all of a ULONG
    DWORD status = TdhGetPropertySize(pEvent, 0, NULL, 1, &DataDescriptor, &PropertySize);
    if (status == ERROR_SUCCESS && PropertySize <= sizeof(Number))
        status = TdhGetProperty(pEvent, 0, NULL, 1, &DataDescriptor, PropertySize, (PBYTE)&Number);
    *Value = (USHORT)Number;
    return status;
}

// The sample's GetPropertyLength, except that a SID (whose size is its own)
// passes 0 where the sample reports an unexpected length.
static DWORD GetPropertyLength(PEVENT_RECORD pEvent, PTRACE_EVENT_INFO pInfo, USHORT i,
                               PUSHORT PropertyLength)
{
    EVENT_PROPERTY_INFO *p = &pInfo->EventPropertyInfoArray[i];
    if ((p->Flags & PropertyParamLength) == PropertyParamLength)
        return ReferencedValue(pEvent, pInfo, p->lengthPropertyIndex, PropertyLength);
    if (p->length > 0) {
        *PropertyLength = p->length;
    } else if (p->nonStructType.InType == TDH_INTYPE_BINARY &&
               p->nonStructType.OutType == TDH_OUTTYPE_IPV6) {
        *PropertyLength = (USHORT)sizeof(IN6_ADDR);
    } else if (p->nonStructType.InType == TDH_INTYPE_UNICODESTRING ||
               p->nonStructType.InType == TDH_INTYPE_ANSISTRING ||
               p->nonStructType.InType == TDH_INTYPE_SID ||
               p->nonStructType.InType == TDH_INTYPE_WBEMSID ||
               (p->Flags & PropertyStruct) == PropertyStruct) {
        *PropertyLength = p->length;
    } else {
        Print(L"Unexpected length of 0 for intype %d and outtype %d", p->nonStructType.InType,
              p->nonStructType.OutType);
        return ERROR_EVT_INVALID_EVENT_DATA;
    }
    return ERROR_SUCCESS;
}

static DWORD GetArraySize(PEVENT_RECORD pEvent, PTRACE_EVENT_INFO pInfo, USHORT i,
                          PUSHORT ArraySize)
{
    EVENT_PROPERTY_INFO *p = &pInfo->EventPropertyInfoArray[i];
    if ((p->Flags & PropertyParamCount) == PropertyParamCount)
        return ReferencedValue(pEvent, pInfo, p->countPropertyIndex, ArraySize);
    *ArraySize = p->count;
    return ERROR_SUCCESS;
}

static DWORD GetMapInfo(PEVENT_RECORD pEvent, LPWSTR pMapName, PEVENT_MAP_INFO &pMapInfo)
{
    DWORD MapSize = 0;
    DWORD status = TdhGetEventMapInformation(pEvent, pMapName, pMapInfo, &MapSize);
    if (status == ERROR_INSUFFICIENT_BUFFER) {
        pMapInfo = (PEVENT_MAP_INFO)malloc(MapSize);
        if (pMapInfo == NULL)
            return ERROR_OUTOFMEMORY;
        status = TdhGetEventMapInformation(pEvent, pMapName, pMapInfo, &MapSize);
    }
    return status == ERROR_NOT_FOUND ? ERROR_SUCCESS : status; // no map: fine
}

static PBYTE PrintProperties(PEVENT_RECORD pEvent, PTRACE_EVENT_INFO pInfo, DWORD PointerSize,
                             USHORT i, PBYTE pUserData, PBYTE pEndOfUserData)
{
    USHORT PropertyLength = 0, ArraySize = 0;
    if (GetPropertyLength(pEvent, pInfo, i, &PropertyLength) != ERROR_SUCCESS)
        return NULL;
    if (GetArraySize(pEvent, pInfo, i, &ArraySize) != ERROR_SUCCESS)
        return NULL;
    EVENT_PROPERTY_INFO *p = &pInfo->EventPropertyInfoArray[i];
    for (USHORT k = 0; k < ArraySize && pUserData; k++) {
        if ((p->Flags & PropertyStruct) == PropertyStruct) {
            DWORD LastMember = p->structType.StructStartIndex + p->structType.NumOfStructMembers;
            for (USHORT j = p->structType.StructStartIndex; j < LastMember && pUserData; j++)
                pUserData =
                    PrintProperties(pEvent, pInfo, PointerSize, j, pUserData, pEndOfUserData);
            continue;
        }
        PEVENT_MAP_INFO pMapInfo = NULL;
        if (GetMapInfo(pEvent, (PWCHAR)((PBYTE)pInfo + p->nonStructType.MapNameOffset), pMapInfo) !=
            ERROR_SUCCESS) {
            free(pMapInfo);
            return NULL;
        }
        DWORD FormattedDataSize = 0;
        USHORT UserDataConsumed = 0;
        LPWSTR pFormattedData = NULL;
        DWORD status = TdhFormatProperty(pInfo, pMapInfo, PointerSize, p->nonStructType.InType,
                                         p->nonStructType.OutType, PropertyLength,
                                         (USHORT)(pEndOfUserData - pUserData), pUserData,
                                         &FormattedDataSize, pFormattedData, &UserDataConsumed);
        if (status == ERROR_INSUFFICIENT_BUFFER) {
            pFormattedData = (LPWSTR)malloc(FormattedDataSize);
            status = pFormattedData == NULL
                         ? (DWORD)ERROR_OUTOFMEMORY
                         : TdhFormatProperty(pInfo, pMapInfo, PointerSize, p->nonStructType.InType,
                                             p->nonStructType.OutType, PropertyLength,
                                             (USHORT)(pEndOfUserData - pUserData), pUserData,
                                             &FormattedDataSize, pFormattedData, &UserDataConsumed);
        }
        if (status == ERROR_SUCCESS) {
            Print(L"%s: %s", (PWCHAR)((PBYTE)pInfo + p->NameOffset), pFormattedData);
            pUserData += UserDataConsumed;
        } else {
            Print(L"TdhFormatProperty failed with %lu.", status);
            pUserData = NULL;
        }
        free(pFormattedData);
        free(pMapInfo);
    }
    return pUserData;
}

static VOID WINAPI ProcessEvent(PEVENT_RECORD pEvent)
{
    if (IsEqualGUID(pEvent->EventHeader.ProviderId, EventTraceGuid) &&
        pEvent->EventHeader.EventDescriptor.Opcode == EVENT_TRACE_TYPE_INFO)
        return; // the file's header event
    PTRACE_EVENT_INFO pInfo = NULL;
    PBYTE pUserData = NULL;
    DWORD status = GetEventInformation(pEvent, pInfo);
    if (status != ERROR_SUCCESS) {
        Print(L"GetEventInformation failed with %lu", status);
    } else if (DecodingSourceWbem == pInfo->DecodingSource ||
               DecodingSourceXMLFile == pInfo->DecodingSource) {
        if (DecodingSourceWbem == pInfo->DecodingSource) {
            LPWSTR pwsEventGuid = NULL;
            HRESULT hr = StringFromCLSID(pInfo->EventGuid, &pwsEventGuid);
            if (FAILED(hr)) {
                Print(L"StringFromCLSID failed with 0x%x", hr);
                free(pInfo);
                return;
            }
            Print(L"Event GUID: %s", pwsEventGuid);
            CoTaskMemFree(pwsEventGuid);
        } else {
            Print(L"Event ID: %d", pInfo->EventDescriptor.Id);
        }
        FILETIME ft;
        SYSTEMTIME st, stLocal;
        ft.dwHighDateTime = (DWORD)pEvent->EventHeader.TimeStamp.HighPart;
        ft.dwLowDateTime = pEvent->EventHeader.TimeStamp.LowPart;
        FileTimeToSystemTime(&ft, &st);
        SystemTimeToTzSpecificLocalTime(NULL, &st, &stLocal);
        ULONGLONG Nanoseconds = (pEvent->EventHeader.TimeStamp.QuadPart % 10000000) * 100;
        Print(L"%02d/%02d/%02d %02d:%02d:%02d.%I64u", stLocal.wMonth, stLocal.wDay, stLocal.wYear,
              stLocal.wHour, stLocal.wMinute, stLocal.wSecond, Nanoseconds);

        // The same local time as the C library reads it.
        time_t t = (time_t)(pEvent->EventHeader.TimeStamp.QuadPart / 10000000 - 11644473600LL);
        struct tm tm;
        localtime_r(&t, &tm);
        wchar_t want[64];
        swprintf_s(want, L"%02d/%02d/%02d %02d:%02d:%02d.%I64u", tm.tm_mon + 1, tm.tm_mday,
                   tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec, Nanoseconds);
        if (g_lines.back() != want) {
            fwprintf_s(stderr, L"time stamp %s, want %s\n", g_lines.back().c_str(), want);
            g_failed = 1;
        }

        DWORD PointerSize = (pEvent->EventHeader.Flags & EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4 : 8;
        pUserData = (PBYTE)pEvent->UserData;
        PBYTE pEndOfUserData = (PBYTE)pEvent->UserData + pEvent->UserDataLength;
        for (USHORT i = 0; i < pInfo->TopLevelPropertyCount && pUserData; i++)
            pUserData = PrintProperties(pEvent, pInfo, PointerSize, i, pUserData, pEndOfUserData);
        if (pUserData != pEndOfUserData) {
            Print(L"Printing top level properties failed.");
            g_failed = 1;
        }
    }
    free(pInfo);
}

// SystemTimeToTzSpecificLocalTime uses the zone's rules for the date it is
// given (the test runs with TZ=EST5EDT,M3.2.0,M11.1.0), not those of today.
static void CheckLocalTimes(void)
{
    static const struct {
        WORD month, day, hour; // UTC, 2024
        WORD local_hour;
    } cases[] = {{1, 15, 12, 7}, {7, 1, 12, 8}, {3, 10, 6, 1}, {3, 10, 7, 3}};
    for (const auto &c : cases) {
        SYSTEMTIME utc = {2024, c.month, 0, c.day, c.hour, 30, 15, 250}, local;
        if (!SystemTimeToTzSpecificLocalTime(NULL, &utc, &local) || local.wYear != 2024 ||
            local.wMonth != c.month || local.wDay != c.day || local.wHour != c.local_hour ||
            local.wMinute != 30 || local.wSecond != 15 || local.wMilliseconds != 250) {
            fwprintf_s(stderr, L"2024-%02u-%02u %02u:30 UTC: local hour %u, want %u\n", c.month,
                       c.day, c.hour, local.wHour, c.local_hour);
            g_failed = 1;
        }
    }
    SYSTEMTIME bad = {2024, 13, 0, 1, 0, 0, 0, 0}, out;
    if (SystemTimeToTzSpecificLocalTime(NULL, &bad, &out) ||
        GetLastError() != ERROR_INVALID_PARAMETER)
        g_failed = 1;
}

// StringFromCLSID's text is StringFromGUID2's, in memory CoTaskMemFree frees.
static void CheckGuidText(void)
{
    LPOLESTR text = NULL;
    if (FAILED(StringFromCLSID(ProviderGuid, &text)) || text == NULL ||
        wcscmp(text, L"{5E8B1F20-7C3A-4D19-A6E2-0B9D4C7F3A51}") != 0)
        g_failed = 1;
    CoTaskMemFree(text);
    if (StringFromCLSID(ProviderGuid, NULL) != E_INVALIDARG)
        g_failed = 1;
}

int wmain(int argc, wchar_t *argv[])
{
    CheckLocalTimes();
    CheckGuidText();
    wchar_t logFile[MAX_PATH];
    const char *dir = getenv("TMPDIR");
    if (argc > 1)
        wcscpy_s(logFile, argv[1]);
    else
        swprintf_s(logFile, L"%hs/tdh_format_consumer-%d.etl", dir && *dir ? dir : "/tmp",
                   (int)getpid());
    int rc = Record(logFile);
    if (rc != 0) {
        wprintf_s(L"recording failed: %d\n", rc);
        return 2;
    }

    EVENT_TRACE_LOGFILE trace;
    ZeroMemory(&trace, sizeof(EVENT_TRACE_LOGFILE));
    trace.LogFileName = logFile;
    trace.EventRecordCallback = (PEVENT_RECORD_CALLBACK)(ProcessEvent);
    trace.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    g_hTrace = OpenTrace(&trace);
    if (INVALID_PROCESSTRACE_HANDLE == g_hTrace) {
        wprintf_s(L"OpenTrace failed with %lu\n", GetLastError());
        return 3;
    }
    TRACE_LOGFILE_HEADER *pHeader = &trace.LogfileHeader;
    g_bUserMode = pHeader->LogFileMode & EVENT_TRACE_PRIVATE_LOGGER_MODE;
    if (pHeader->TimerResolution > 0)
        g_TimerResolution = pHeader->TimerResolution / 10000;
    Print(L"Number of events lost:  %lu", pHeader->EventsLost);
    if (pHeader->PointerSize != sizeof(PVOID))
        pHeader =
            (PTRACE_LOGFILE_HEADER)((PUCHAR)pHeader + 2 * (pHeader->PointerSize - sizeof(PVOID)));
    Print(L"Number of buffers lost: %lu", pHeader->BuffersLost);
    ULONG status = ProcessTrace(&g_hTrace, 1, 0, 0);
    CloseTrace(g_hTrace);
    if (argc <= 1) {
        char path[MAX_PATH * 4];
        if (sprintf_s(path, "%ls", logFile) > 0)
            remove(path);
    }
    if (status != ERROR_SUCCESS && status != ERROR_CANCELLED) {
        wprintf_s(L"ProcessTrace failed with %lu\n", status);
        return 4;
    }

    static const wchar_t *const expected[] = {
        L"Number of events lost:  0",
        L"Number of buffers lost: 0",
        L"Event ID: 7",
        NULL, // the time stamp, checked against the C library's local time
        L"User: Ada Lovelace",
        L"Local: 10.0.0.1",
        L"Remote: 2001:db8::ff00:42:8329",
        L"Mapped: ::ffff:192.0.2.33",
        L"Account: S-1-5-21-1004336348-1177238915-682003330-512",
        L"When: 2024-03-01T12:34:56.1234567Z",
        L"Logged: 2024-03-01T12:34:56.789",
        L"Session: {9A1F2C3D-4B5E-4F60-8172-93A4B5C6D7E8}",
        L"Count: 2",
        L"Ports: 80",
        L"Ports: 443",
        L"Size: 3",
        L"Blob: 0x0102AB",
        L"Status: 0x1F",
    };
    size_t n = sizeof(expected) / sizeof(expected[0]);
    if (g_lines.size() != n) {
        fwprintf_s(stderr, L"%zu lines, want %zu\n", g_lines.size(), n);
        return 5;
    }
    for (size_t i = 0; i < n; i++) {
        if (expected[i] && g_lines[i] != expected[i]) {
            fwprintf_s(stderr, L"line %zu: '%s', want '%s'\n", i + 1, g_lines[i].c_str(),
                       expected[i]);
            g_failed = 1;
        }
    }
    return g_failed ? 6 : 0;
}
