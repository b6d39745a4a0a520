/* SPDX-License-Identifier: MIT */
/* cpp_usage.cpp - C++ written as Windows ETW programs write it, against
 * petw's ETW headers: old (__in, __out) and new (_In_, _Out_) SAL in
 * declarations with standard headers included before and after,
 * EXTERN_C/__declspec(selectany) GUIDs as generated provider headers define
 * them, DEFINE_GUID after <initguid.h> matching an earlier declaration,
 * FORCEINLINE members, CHAR buffers with strsafe.h, TDH's unions, and a
 * TraceLogging provider. Built per C++ standard (meson, and clang++ in
 * clang_headers.sh); running it checks the values. */
#include <string>

#include <windows.h>

#include <map>
#include <vector>

#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>
#include <strsafe.h>
#include <tdh.h>
#include <TraceLoggingProvider.h>

#include <algorithm>
#include <initguid.h>
#include <iostream>
#include <memory>

/* As mc.exe writes a provider's GUID in its generated header. */
EXTERN_C __declspec(selectany) const GUID UsageProviderGuid = {
    0x5a1c4e1b, 0x7a2f, 0x4d3e, {0x9b, 0x61, 0x2c, 0x8e, 0x4f, 0x10, 0x3a, 0x01}};

/* Declared in one header, defined with INITGUID in another. */
EXTERN_C const GUID UsageDeclaredGuid;
DEFINE_GUID(UsageDeclaredGuid, 0x11111111, 0x2222, 0x3333, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55,
            0x02);

TRACELOGGING_DEFINE_PROVIDER(g_usage, "Contoso.Usage",
                             (0x0c0ffee1, 0xc0de, 0x4c22, 0x81, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
                              0x78));

#if !defined(_WIN32) /* mingw-w64 leaves __in and __out undefined in C++ */
static ULONG WINAPI NameLength(__in PCWSTR name, __out PULONG length, __in_opt PVOID context,
                               __inout_opt PULONG calls, __in_ecount(n) const BYTE *bytes, ULONG n)
{
    (void)context;
    (void)bytes;
    *length = (ULONG)wcslen(name) + n;
    if (calls)
        ++*calls;
    return ERROR_SUCCESS;
}
#endif

_Success_(return == ERROR_SUCCESS) static ULONG
    Fill(_Out_writes_bytes_(size) PVOID buffer, _In_ ULONG size, _Inout_opt_ PULONG used)
{
    memset(buffer, 0x5a, size);
    if (used)
        *used += size;
    return ERROR_SUCCESS;
}

class Counter
{
  public:
    FORCEINLINE ULONG Count() const
    {
        return m_count;
    }
    static VOID WINAPI OnEvent(_In_ PEVENT_RECORD record)
    {
        static_cast<Counter *>(record->UserContext)->m_count++;
    }

  private:
    ULONG m_count = 0;
};

static BOOL SameGuid(REFGUID a, REFGUID b)
{
    return IsEqualGUID(a, b) && a == b && !(a != b);
}

#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::cerr << __FILE__ << ":" << __LINE__ << ": " #cond "\n";                           \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main()
{
    std::vector<std::string> names{"a", "b"};
    std::map<std::string, int> counts;
    counts["x"] = 1;
    std::unique_ptr<int> p(new int(3));
    EXPECT(std::max(names.size(), (size_t)1) == 2 && *p == 3);

#if !defined(_WIN32)
    ULONG length = 0, calls = 0;
    const BYTE bytes[2] = {1, 2};
    EXPECT(NameLength(L"four", &length, nullptr, &calls, bytes, 2) == ERROR_SUCCESS);
    EXPECT(length == 6 && calls == 1);
#endif
    BYTE block[8];
    ULONG used = 0;
    EXPECT(Fill(block, sizeof(block), &used) == ERROR_SUCCESS && used == 8 && block[7] == 0x5a);

    EXPECT(UsageProviderGuid.Data1 == 0x5a1c4e1b && UsageDeclaredGuid.Data4[7] == 0x02);
    EXPECT(SameGuid(UsageProviderGuid, UsageProviderGuid));
    EXPECT(!SameGuid(UsageProviderGuid, UsageDeclaredGuid));
    EXPECT(SameGuid(SystemTraceControlGuid, SystemTraceControlGuid));

    CHAR narrow[4];
    EXPECT(StringCchCopyA(narrow, 4, "abcdef") == STRSAFE_E_INSUFFICIENT_BUFFER);
    EXPECT(std::string(narrow) == "abc");
    WCHAR wide[8];
    EXPECT(SUCCEEDED(StringCchCopyW(wide, 8, L"wide")) && wide[3] == L'e');
    EXPECT(StringCchCatW(wide, 8, L"ning") == STRSAFE_E_INSUFFICIENT_BUFFER);
    EXPECT(std::wstring(wide) == L"widenin");
    EXPECT(SUCCEEDED(StringCchPrintfW(wide, 8, L"%d %ls", 12, L"ab")));
    EXPECT(std::wstring(wide) == L"12 ab");
    EXPECT(StringCchPrintfA(narrow, 4, "%d", 12345) == STRSAFE_E_INSUFFICIENT_BUFFER);
    EXPECT(std::string(narrow) == "123");
    EXPECT(SUCCEEDED(StringCchCatA(narrow, 4, "")) && std::string(narrow) == "123");
#if !defined(_WIN32)
    /* The wide printf family reads its format as Microsoft's C runtime
     * does: %s wide, %S narrow, I64 a size; std:: names the same. */
    EXPECT(swprintf(wide, 8, L"%s%S", L"ab", "cd") == 4 && std::wstring(wide) == L"abcd");
    EXPECT(std::swprintf(wide, 8, L"%I64u%c", (unsigned long long)7, L'x') == 2);
    EXPECT(std::wstring(wide) == L"7x");
    EXPECT(SUCCEEDED(StringCchPrintfW(wide, 8, L"%s", L"sc")) && std::wstring(wide) == L"sc");
    EXPECT(std::to_wstring(5) == L"5");
#endif

    EVENT_PROPERTY_INFO info = {};
    info.nonStructType.InType = TDH_INTYPE_INT32;
    info.structType.NumOfStructMembers = 2;
    EXPECT(info.customSchemaType.InType == TDH_INTYPE_INT32 && info.nonStructType.OutType == 2);
    static_assert(sizeof(EVENT_PROPERTY_INFO) == 24, "EVENT_PROPERTY_INFO as in the SDK");

    LARGE_INTEGER li;
    li.QuadPart = 0x100000002ll;
    EXPECT(li.LowPart == 2 && li.u.HighPart == 1);

    Counter counter;
    EVENT_RECORD record = {};
    record.UserContext = &counter;
    Counter::OnEvent(&record);
    EXPECT(counter.Count() == 1);

    EVENT_DESCRIPTOR d;
    EventDescCreate(&d, 1, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
    EVENT_DATA_DESCRIPTOR dd;
    EventDataDescCreate(&dd, &used, sizeof(used));
    EXPECT(dd.Size == 4 && d.Level == 4);

    EXPECT(SUCCEEDED(TraceLoggingRegister(g_usage)));
    TraceLoggingWrite(g_usage, "Usage", TraceLoggingValue(names.size(), "names"),
                      TraceLoggingString(names[0].c_str(), "first"),
                      TraceLoggingWideString(wide, "wide"), TraceLoggingStruct(1, "s"),
                      TraceLoggingValue(UsageProviderGuid, "guid"),
                      TraceLoggingLevel(WINEVENT_LEVEL_INFO), TraceLoggingKeyword(0x1));
    /* Arrays, addresses, custom and packed fields, TraceLoggingWriteEx. */
    const wchar_t wchars[2] = {L'o', L'k'};
    const char16_t c16[3] = u"ok";
    const unsigned char addr[16] = {0x20, 0x01};
    const LONG longs[2] = {1, 2};
    TraceLoggingWriteEx(
        g_usage, "UsageMore", 0, 0, nullptr, nullptr, TraceLoggingWCharArray(wchars, 2, "w"),
        TraceLoggingWCharFixedArray(wchars, 2, "wf"), TraceLoggingChar16Array(c16, 2, "c"),
        TraceLoggingString16(c16, "s16"), TraceLoggingHexLongArray(longs, 2, "l"),
        TraceLoggingIPv6Address(addr, "ip6"), TraceLoggingCustom(addr, 2, 5, (1, 2), 2, "cu"),
        TraceLoggingPackedFieldEx(addr, 4, TlgInUINT32, TlgOutHEX, "pf"),
        TraceLoggingPackedStruct(1, "ps"), TraceLoggingPackedMetadata(TlgInUINT8, "b"),
        TraceLoggingPackedData(addr, 1));
    TraceLoggingUnregister(g_usage);
    return 0;
}
