/* SPDX-License-Identifier: MIT */
// A consumer written the way Microsoft's documentation sample "Using
// TdhGetProperty to Consume Event Data" is written
// (https://learn.microsoft.com/windows/win32/etw/using-tdhgetproperty-to-consume-event-data):
// a decoder context that, per event, asks TdhGetEventInformation (size, then
// data), walks the properties with a stack of PROPERTY_DATA_DESCRIPTORs (one
// per struct level, ArrayIndex set per element), reads each value with
// TdhGetPropertySize then TdhGetProperty, and prints it by its in-type as the
// sample does: text by casting the buffer to LPCWSTR (`%.*ls` with the
// buffer's size / 2; a counted string's text one WCHAR in), counts of later
// arrays from the integer values seen. Its output goes through wprintf as the
// sample's does; here wprintf also keeps a copy, which main checks.
//
// It reads a trace it records itself (tdh_get_property_sample.man, through
// PETW_MANIFEST_PATH: non-ASCII and astral text at the top level, an array of
// structs whose members are text and a counted string, an array of strings,
// a string of fixed length), then the Windows-written samples named on the
// command line, and checks that every string reads as Windows prints it:
// SelfDescribingSingleEvent.etl's struct a {b, c}, its SystemConfigEx
// volume mappings and build lab; no garbage in any line.
#define INITGUID

#include <windows.h>
#include <evntrace.h>
#include <sddl.h>
#include <stdio.h>
#include <stdlib.h>
#include <tdh.h>
#include <unistd.h>
#include <wchar.h>

#include <string>
#include <vector>

// ---- what the sample prints, kept ----

static std::wstring g_out;

static int Capture(const wchar_t *format, ...)
{
    wchar_t text[4096];
    va_list ap;
    va_start(ap, format);
    int n = vswprintf_s(text, _countof(text), format, ap);
    va_end(ap);
    if (n > 0)
        g_out += text;
    return n;
}
#undef wprintf
#define wprintf Capture

// ---- the sample's decoder ----

class DecoderContext
{
  public:
    void PrintEventRecord(EVENT_RECORD *pEventRecord)
    {
        // The file header event: OpenTrace gave the same data already.
        if (pEventRecord->EventHeader.EventDescriptor.Opcode == EVENT_TRACE_TYPE_INFO &&
            IsEqualGUID(pEventRecord->EventHeader.ProviderId, EventTraceGuid))
            return;
        m_indentLevel = 1;
        m_pEvent = pEventRecord;
        m_pdd.clear();
        FILETIME ft;
        memcpy(&ft, &m_pEvent->EventHeader.TimeStamp, sizeof(ft));
        PrintFileTime(ft);
        PrintEvent();
    }

  private:
    void PrintEvent()
    {
        ULONG cb = static_cast<ULONG>(m_teiBuffer.size());
        ULONG status = TdhGetEventInformation(
            m_pEvent, 0, nullptr, reinterpret_cast<TRACE_EVENT_INFO *>(m_teiBuffer.data()), &cb);
        if (status == ERROR_INSUFFICIENT_BUFFER) {
            m_teiBuffer.resize(cb);
            status = TdhGetEventInformation(
                m_pEvent, 0, nullptr, reinterpret_cast<TRACE_EVENT_INFO *>(m_teiBuffer.data()),
                &cb);
        }
        if (status != ERROR_SUCCESS) {
            wprintf(L" ");
            PrintGuid(m_pEvent->EventHeader.ProviderId);
            wprintf(L"\n");
            return;
        }
        TRACE_EVENT_INFO const *const pTei =
            reinterpret_cast<TRACE_EVENT_INFO const *>(m_teiBuffer.data());
        if (pTei->ProviderNameOffset != 0)
            wprintf(L" %ls", TeiString(pTei->ProviderNameOffset));
        if (pTei->DecodingSource == DecodingSourceWbem ||
            pTei->DecodingSource == DecodingSourceWPP) {
            if (pTei->OpcodeNameOffset != 0)
                wprintf(L" %ls", TeiString(pTei->OpcodeNameOffset));
        } else if (pTei->TaskNameOffset != 0) {
            wprintf(L" %ls", TeiString(pTei->TaskNameOffset));
        }
        wprintf(L"\n");
        if (m_pEvent->EventHeader.Flags & EVENT_HEADER_FLAG_STRING_ONLY) {
            PrintIndent();
            wprintf(L"%.*ls\n", m_pEvent->UserDataLength / 2,
                    static_cast<LPCWSTR>(m_pEvent->UserData));
            return;
        }
        m_integerValues.clear();
        m_integerValues.resize(pTei->PropertyCount);
        PrintProperties(0, pTei->TopLevelPropertyCount);
    }

    void PrintProperties(unsigned propBegin, unsigned propEnd)
    {
        TRACE_EVENT_INFO const *const pTei =
            reinterpret_cast<TRACE_EVENT_INFO const *>(m_teiBuffer.data());
        for (unsigned propIndex = propBegin; propIndex != propEnd; propIndex += 1) {
            EVENT_PROPERTY_INFO const &epi = pTei->EventPropertyInfoArray[propIndex];
            PrintIndent();
            wprintf(L"%ls:", epi.NameOffset ? TeiString(epi.NameOffset) : L"(noname)");
            // One descriptor per level of nesting: the path to the property.
            unsigned const pddIndex = PushPdd(epi.NameOffset ? TeiString(epi.NameOffset) : L"");
            m_indentLevel += 1;
            USHORT const arrayCount = (epi.Flags & PropertyParamCount)
                                          ? m_integerValues[epi.countPropertyIndex]
                                          : epi.count;
            bool isArray = arrayCount != 1 ||
                           (epi.Flags & (PropertyParamCount | PropertyParamFixedCount)) != 0;
            if (isArray)
                wprintf(L" Array[%u]\n", arrayCount);
            for (unsigned arrayIndex = 0; arrayIndex != arrayCount; arrayIndex += 1) {
                m_pdd[pddIndex].ArrayIndex = arrayIndex;
                if (isArray) {
                    PrintIndent();
                    wprintf(L"%ls[%lu]:", epi.NameOffset ? TeiString(epi.NameOffset) : L"(noname)",
                            arrayIndex);
                }
                if (epi.Flags & PropertyStruct) {
                    wprintf(L"\n");
                    PrintProperties(epi.structType.StructStartIndex,
                                    epi.structType.StructStartIndex +
                                        epi.structType.NumOfStructMembers);
                    continue;
                }
                ULONG status = GetProperty();
                if (status != ERROR_SUCCESS) {
                    wprintf(L" TdhGetProperty error %u\n", status);
                    continue;
                }
                if (!isArray) {
                    // Integers, for a later PropertyParamCount.
                    USHORT &integerValue = m_integerValues[propIndex];
                    void const *pData = m_propertyBuffer.data();
                    switch (epi.nonStructType.InType) {
                    case TDH_INTYPE_UINT8:
                    case TDH_INTYPE_INT8:
                        integerValue = *static_cast<UINT8 const *>(pData);
                        break;
                    case TDH_INTYPE_INT16:
                    case TDH_INTYPE_UINT16:
                    case TDH_INTYPE_INT32:
                    case TDH_INTYPE_UINT32:
                    case TDH_INTYPE_HEXINT32:
                        integerValue = *static_cast<UINT16 const *>(pData);
                        break;
                    }
                }
                wprintf(L" ");
                PrintPropertyValue(epi.nonStructType.InType, epi.nonStructType.OutType);
                wprintf(L"\n");
            }
            PopPdd();
            m_indentLevel -= 1;
        }
    }

    // The value in m_propertyBuffer, by its in-type, as the sample prints it.
    void PrintPropertyValue(USHORT inType, USHORT outType)
    {
        void *const pData = m_propertyBuffer.data();
        unsigned const cData = static_cast<unsigned>(m_propertyBuffer.size());
        switch (inType) {
        case TDH_INTYPE_UNICODESTRING:
        case TDH_INTYPE_NONNULLTERMINATEDSTRING:
            // To the end of the buffer or the NUL, whichever comes first.
            wprintf(L"%.*ls", cData / 2, static_cast<LPCWSTR>(pData));
            break;
        case TDH_INTYPE_ANSISTRING:
        case TDH_INTYPE_NONNULLTERMINATEDANSISTRING:
            wprintf(L"%.*hs", cData, static_cast<LPCSTR>(pData));
            break;
        case TDH_INTYPE_INT8:
            wprintf(L"%i", *static_cast<signed char *>(pData));
            break;
        case TDH_INTYPE_UINT8:
            wprintf(outType == TDH_OUTTYPE_HEXINT8 ? L"0x%x" : L"%u",
                    *static_cast<unsigned char *>(pData));
            break;
        case TDH_INTYPE_INT16:
            wprintf(L"%i", *static_cast<short *>(pData));
            break;
        case TDH_INTYPE_UINT16:
            wprintf(outType == TDH_OUTTYPE_HEXINT16 ? L"0x%x" : L"%u",
                    *static_cast<unsigned short *>(pData));
            break;
        case TDH_INTYPE_INT32:
            wprintf(L"%i", *static_cast<int *>(pData));
            break;
        case TDH_INTYPE_UINT32:
        case TDH_INTYPE_HEXINT32:
            wprintf(outType == TDH_OUTTYPE_HEXINT32 || inType == TDH_INTYPE_HEXINT32 ? L"0x%x"
                                                                                     : L"%u",
                    *static_cast<unsigned *>(pData));
            break;
        case TDH_INTYPE_INT64:
            wprintf(L"%lli", *static_cast<__int64 *>(pData));
            break;
        case TDH_INTYPE_UINT64:
        case TDH_INTYPE_HEXINT64:
            wprintf(inType == TDH_INTYPE_HEXINT64 || outType == TDH_OUTTYPE_HEXINT64 ? L"0x%llx"
                                                                                     : L"%llu",
                    *static_cast<unsigned __int64 *>(pData));
            break;
        case TDH_INTYPE_FLOAT:
            wprintf(L"%f", *static_cast<float *>(pData));
            break;
        case TDH_INTYPE_DOUBLE:
            wprintf(L"%f", *static_cast<double *>(pData));
            break;
        case TDH_INTYPE_BOOLEAN:
            wprintf(L"%u", *static_cast<unsigned *>(pData));
            break;
        case TDH_INTYPE_GUID:
            PrintGuid(*static_cast<GUID *>(pData));
            break;
        case TDH_INTYPE_POINTER:
        case TDH_INTYPE_SIZET:
            if (cData == 8)
                wprintf(L"0x%llx", *static_cast<unsigned __int64 *>(pData));
            else
                wprintf(L"0x%x", *static_cast<unsigned *>(pData));
            break;
        case TDH_INTYPE_FILETIME:
            PrintFileTime(*static_cast<FILETIME *>(pData));
            break;
        case TDH_INTYPE_SYSTEMTIME:
            PrintSystemTime(*static_cast<SYSTEMTIME *>(pData));
            break;
        case TDH_INTYPE_SID:
            PrintSid(pData, cData);
            break;
        case 22: // TDH_INTYPE_MANIFEST_COUNTEDSTRING
        case TDH_INTYPE_COUNTEDSTRING:
        case TDH_INTYPE_REVERSEDCOUNTEDSTRING:
            if (cData >= 2) // the byte count first
                wprintf(L"%.*ls", (cData / 2) - 1, static_cast<LPCWSTR>(pData) + 1);
            break;
        case 23: // TDH_INTYPE_MANIFEST_COUNTEDANSISTRING
        case TDH_INTYPE_COUNTEDANSISTRING:
        case TDH_INTYPE_REVERSEDCOUNTEDANSISTRING:
            if (cData >= 2)
                wprintf(L"%.*hs", cData - 2, static_cast<LPCSTR>(pData) + 2);
            break;
        case TDH_INTYPE_UNICODECHAR:
            wprintf(L"%lc", *static_cast<unsigned short *>(pData));
            break;
        case TDH_INTYPE_ANSICHAR:
            wprintf(L"%hc", *static_cast<unsigned char *>(pData));
            break;
        default: // binary, and what this sample does not know
            PrintHexBinary(pData, cData);
            break;
        }
    }

    void PrintGuid(GUID const &g)
    {
        wprintf(L"{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}", g.Data1, g.Data2, g.Data3,
                g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5], g.Data4[6],
                g.Data4[7]);
    }

    void PrintFileTime(FILETIME const &ft)
    {
        SYSTEMTIME st = {};
        FileTimeToSystemTime(&ft, &st);
        PrintSystemTime(st);
    }

    void PrintSystemTime(SYSTEMTIME const &st)
    {
        wprintf(L"%04u-%02u-%02uT%02u:%02u:%02u.%03uZ", st.wYear, st.wMonth, st.wDay, st.wHour,
                st.wMinute, st.wSecond, st.wMilliseconds);
    }

    void PrintHexBinary(void const *p, unsigned cb)
    {
        BYTE const *pb = static_cast<BYTE const *>(p);
        wprintf(L"0x");
        for (unsigned i = 0; i != cb; i += 1)
            wprintf(L"%02x", pb[i]);
    }

    void PrintSid(PSID pSid, unsigned cb)
    {
        LPWSTR szSid = nullptr;
        if (cb < 8u || cb < (8u + static_cast<BYTE *>(pSid)[1] * 4u) ||
            !ConvertSidToStringSidW(pSid, &szSid)) {
            PrintHexBinary(pSid, cb);
        } else {
            wprintf(L"%ls", szSid);
            LocalFree(szSid);
        }
    }

    void PrintIndent()
    {
        wprintf(L"%*ls", m_indentLevel * 2, L"");
    }

    // TdhGetPropertySize, then TdhGetProperty into m_propertyBuffer, for the
    // path on the descriptor stack.
    ULONG GetProperty()
    {
        ULONG cb = 0;
        ULONG status = TdhGetPropertySize(m_pEvent, 0, nullptr, static_cast<ULONG>(m_pdd.size()),
                                          m_pdd.data(), &cb);
        if (status == ERROR_SUCCESS) {
            m_propertyBuffer.resize(cb);
            status = TdhGetProperty(m_pEvent, 0, nullptr, static_cast<ULONG>(m_pdd.size()),
                                    m_pdd.data(), cb, m_propertyBuffer.data());
        }
        return status;
    }

    unsigned PushPdd(LPCWSTR szPropertyName)
    {
        unsigned index = static_cast<unsigned>(m_pdd.size());
        m_pdd.emplace_back();
        PROPERTY_DATA_DESCRIPTOR &pdd = m_pdd.back();
        pdd.PropertyName = reinterpret_cast<UINT_PTR>(szPropertyName);
        pdd.ArrayIndex = 0;
        pdd.Reserved = 0;
        return index;
    }

    void PopPdd()
    {
        m_pdd.pop_back();
    }

    LPCWSTR TeiString(unsigned offset)
    {
        return reinterpret_cast<LPCWSTR>(m_teiBuffer.data() + offset);
    }

    BYTE m_indentLevel = 0;
    EVENT_RECORD *m_pEvent = nullptr;
    std::vector<PROPERTY_DATA_DESCRIPTOR> m_pdd;
    std::vector<USHORT> m_integerValues;
    std::vector<BYTE> m_teiBuffer;
    std::vector<BYTE> m_propertyBuffer;
};

static void WINAPI EventRecordCallback(EVENT_RECORD *pEventRecord)
{
    static_cast<DecoderContext *>(pEventRecord->UserContext)->PrintEventRecord(pEventRecord);
}

// The sample's main loop: every file opened, then one ProcessTrace.
static int Decode(std::vector<std::wstring> const &etlFiles)
{
    DecoderContext context;
    std::vector<TRACEHANDLE> handles;
    for (std::wstring const &file : etlFiles) {
        EVENT_TRACE_LOGFILEW logFile = {};
        logFile.LogFileName = const_cast<LPWSTR>(file.c_str());
        logFile.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
        logFile.EventRecordCallback = &EventRecordCallback;
        logFile.Context = &context;
        TRACEHANDLE h = OpenTraceW(&logFile);
        if (h == INVALID_PROCESSTRACE_HANDLE) {
            wprintf(L"ERROR: OpenTraceW error %u for file: %ls\n", GetLastError(), file.c_str());
            return 1;
        }
        handles.push_back(h);
    }
    ULONG status = ProcessTrace(handles.data(), static_cast<ULONG>(handles.size()), NULL, NULL);
    for (TRACEHANDLE h : handles)
        CloseTrace(h);
    return status == ERROR_SUCCESS ? 0 : 1;
}

#undef wprintf

// ---- the recording side: one event of the manifest's template ----

static const GUID ProviderGuid = {
    0x7d2c9e41, 0x3b8a, 0x4f65, {0x9c, 0x1d, 0x2e, 0x4f, 0x6a, 0x8b, 0x0c, 0x13}};

static void PutText(std::vector<BYTE> &b, const char16_t *s, bool nul, bool counted)
{
    std::u16string t(s);
    if (counted) {
        b.push_back((BYTE)(t.size() * 2));
        b.push_back((BYTE)((t.size() * 2) >> 8));
    }
    for (char16_t c : t) { // UTF-16LE, as ETW stores text
        b.push_back((BYTE)c);
        b.push_back((BYTE)(c >> 8));
    }
    if (nul) {
        b.push_back(0);
        b.push_back(0);
    }
}

static std::vector<BYTE> Payload(void)
{
    std::vector<BYTE> b;
    PutText(b, u"Hello, w\u00f6rld \U0001F600", true, false);
    b.push_back(2); // Count
    b.push_back(0);
    static const char16_t *const names[2] = {u"Alpha", u"Beta"};
    static const char16_t *const labels[2] = {u"first label", u"second"};
    for (int i = 0; i < 2; i++) {
        PutText(b, names[i], true, false);
        b.push_back((BYTE)(100 + i)); // Code
        b.push_back(0);
        b.push_back(0);
        b.push_back(0);
        PutText(b, labels[i], false, true);
    }
    PutText(b, u"one", true, false);
    PutText(b, u"two", true, false);
    PutText(b, u"ABCD", false, false); // length 4, no NUL
    for (const char *s = "end"; *s; s++)
        b.push_back((BYTE)*s);
    b.push_back(0);
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
    ULONG status = StartTrace(&session, L"TdhGetPropertySample", prop);
    if (status != ERROR_SUCCESS)
        return (int)status;
    REGHANDLE reg = 0;
    status = EventRegister(&ProviderGuid, NULL, NULL, &reg);
    if (status == ERROR_SUCCESS)
        status = EnableTraceEx2(session, &ProviderGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                                TRACE_LEVEL_INFORMATION, 0, 0, 0, NULL);
    std::vector<BYTE> payload = Payload();
    EVENT_DESCRIPTOR desc;
    EventDescCreate(&desc, 9, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
    EVENT_DATA_DESCRIPTOR data;
    EventDataDescCreate(&data, payload.data(), (ULONG)payload.size());
    if (status == ERROR_SUCCESS)
        status = EventWrite(reg, &desc, 1, &data);
    EventUnregister(reg);
    ULONG stop = ControlTrace(session, NULL, prop, EVENT_TRACE_CONTROL_STOP);
    return (int)(status != ERROR_SUCCESS ? status : stop);
}

// ---- the checks ----

static std::vector<std::wstring> Lines(void)
{
    std::vector<std::wstring> lines;
    size_t at = 0;
    while (at < g_out.size()) {
        size_t end = g_out.find(L'\n', at);
        if (end == std::wstring::npos)
            end = g_out.size();
        std::wstring line = g_out.substr(at, end - at);
        size_t first = line.find_first_not_of(L' ');
        lines.push_back(first == std::wstring::npos ? L"" : line.substr(first));
        at = end + 1;
    }
    return lines;
}

int wmain(int argc, wchar_t *argv[])
{
    wchar_t logFile[MAX_PATH];
    const char *dir = getenv("TMPDIR");
    swprintf_s(logFile, L"%hs/tdh_get_property_sample-%d.etl", dir && *dir ? dir : "/tmp",
               (int)getpid());
    int rc = Record(logFile);
    if (rc != 0) {
        wprintf_s(L"recording failed: %d\n", rc);
        return 2;
    }
    std::vector<std::wstring> files = {logFile};
    bool samples = false;
    for (int i = 1; i < argc; i++) {
        char name[MAX_PATH * 4];
        if (sprintf_s(name, "%ls", argv[i]) > 0 && access(name, R_OK) == 0) {
            files.push_back(argv[i]);
            samples = true;
        }
    }
    rc = Decode(files);
    char path[MAX_PATH * 4];
    if (sprintf_s(path, "%ls", logFile) > 0)
        remove(path);
    wprintf_s(L"%s", g_out.c_str());
    if (rc != 0)
        return 3;

    std::vector<std::wstring> lines = Lines();
    std::vector<std::wstring> expected = {
        L"Greeting: Hello, w\u00f6rld \U0001F600",
        L"Count: 2",
        L"Items: Array[2]",
        L"Items[0]:",
        L"Name: Alpha",
        L"Code: 100",
        L"Label: first label",
        L"Items[1]:",
        L"Name: Beta",
        L"Code: 101",
        L"Label: second",
        L"Words: Array[2]",
        L"Words[0]: one",
        L"Words[1]: two",
        L"Fixed: ABCD",
        L"Tail: end",
    };
    if (samples) { // Windows-written: what Windows' TDH gives the sample
        std::vector<std::wstring> more = {
            L"a:",
            L"b: Hello",
            L"c: World!",
            L"SystemDirectory: C:\\WINDOWS\\system32",
            L"NtPath: \\Device\\HarddiskVolume1\\",
            L"DosPath: D:\\",
            L"BuildLab: 22000.613.amd64fre.co_release.210604-1628",
            L"ProductName: Windows 10 Enterprise",
        };
        expected.insert(expected.end(), more.begin(), more.end());
    }
    int failed = 0;
    for (std::wstring const &want : expected) {
        bool found = false;
        for (std::wstring const &line : lines)
            found = found || line == want;
        if (!found) {
            fwprintf_s(stderr, L"missing: '%s'\n", want.c_str());
            failed = 1;
        }
    }
    for (std::wstring const &line : lines) {
        for (wchar_t c : line) {
            if (c == 0xFFFD || (unsigned long)c > 0x10FFFF ||
                (c < 0x20 && c != L'\t' && c != L'\r')) {
                fwprintf_s(stderr, L"garbage in '%s'\n", line.c_str());
                failed = 1;
                break;
            }
        }
        if (line.find(L"error") != std::wstring::npos) {
            fwprintf_s(stderr, L"failed: '%s'\n", line.c_str());
            failed = 1;
        }
    }
    return failed ? 4 : 0;
}
