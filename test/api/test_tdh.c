/* SPDX-License-Identifier: MIT */
/* The TDH names tool authors use, on TraceLogging events read back through
 * OpenTrace/ProcessTrace: TdhGetEventInformation (the size query, then the
 * schema: provider and event names, properties with TDH in/out types, a
 * struct's member block, an array's count), TdhGetPropertySize and
 * TdhGetProperty (top level, a struct member by path, an array element),
 * TdhFormatProperty walking UserData as Microsoft's sample does, its text
 * for IP addresses and SIDs (as Windows' RtlIpv6AddressToString and
 * ConvertSidToStringSid write them), and the errors: no schema (a classic
 * event), short buffers, unknown names. */
#include <TraceLoggingProvider.h>
#include <tdh.h>

#include "test_util.h"

TRACELOGGING_DEFINE_PROVIDER(g_tdh, "Contoso.Tdh.Test",
                             (0x2d4f6a8c, 0x1e3b, 0x5c7d, 0x9f, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
                              0xcd));

typedef struct seen {
    int tl, classic;
} seen;

static const WCHAR *name_at(PTRACE_EVENT_INFO info, ULONG off)
{
    return (const WCHAR *)((const BYTE *)info + off);
}

static void check_tl(PEVENT_RECORD r)
{
    ULONG size = 0;
    CHECK_EQ(TdhGetEventInformation(r, 0, NULL, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
    CHECK(size > sizeof(TRACE_EVENT_INFO));
    PTRACE_EVENT_INFO info = malloc(size);
    CHECK(info);
    ULONG small = size - 1;
    CHECK_EQ(TdhGetEventInformation(r, 0, NULL, info, &small), ERROR_INSUFFICIENT_BUFFER);
    CHECK_EQ(TdhGetEventInformation(r, 0, NULL, info, &size), ERROR_SUCCESS);
    CHECK(info->DecodingSource == DecodingSourceTlg);
    CHECK(!wcscmp(name_at(info, info->ProviderNameOffset), L"Contoso.Tdh.Test"));
    CHECK(!wcscmp(name_at(info, info->EventNameOffset), L"Order"));
    CHECK(!memcmp(&info->ProviderGuid, TraceLoggingProviderId(g_tdh), sizeof(GUID)));
    /* id, customer, items[3], where{city, zip}, blob[4], then city and zip. */
    CHECK_EQ(info->TopLevelPropertyCount, 5);
    CHECK_EQ(info->PropertyCount, 7);
    EVENT_PROPERTY_INFO *p = info->EventPropertyInfoArray;
    CHECK(!wcscmp(name_at(info, p[0].NameOffset), L"id"));
    CHECK_EQ(p[0].nonStructType.InType, TDH_INTYPE_INT32);
    CHECK_EQ(p[1].nonStructType.InType, TDH_INTYPE_UNICODESTRING);
    CHECK(p[2].Flags & PropertyParamFixedCount);
    CHECK_EQ(p[2].count, 3);
    CHECK_EQ(p[2].nonStructType.InType, TDH_INTYPE_UINT16);
    CHECK(p[3].Flags & PropertyStruct);
    CHECK_EQ(p[3].structType.StructStartIndex, 5);
    CHECK_EQ(p[3].structType.NumOfStructMembers, 2);
    CHECK(!wcscmp(name_at(info, p[5].NameOffset), L"city"));
    CHECK_EQ(p[5].nonStructType.InType, TDH_INTYPE_ANSISTRING);
    CHECK_EQ(p[5].nonStructType.OutType, TDH_OUTTYPE_UTF8);
    CHECK_EQ(p[6].nonStructType.InType, TDH_INTYPE_HEXINT32);
    CHECK_EQ(p[6].nonStructType.OutType, TDH_OUTTYPE_NULL); /* the in-type's default */
    CHECK_EQ(p[4].nonStructType.InType, TDH_INTYPE_BINARY);
    CHECK(p[4].Flags & PropertyParamFixedLength);
    CHECK_EQ(p[4].length, 4);

    /* Property values by name (and path). */
    PROPERTY_DATA_DESCRIPTOR d[2] = {{(ULONGLONG)(uintptr_t)L"id", 0xFFFFFFFFu, 0}};
    ULONG ps = 0;
    int32_t id = 0;
    CHECK_EQ(TdhGetPropertySize(r, 0, NULL, 1, d, &ps), ERROR_SUCCESS);
    CHECK_EQ(ps, 4);
    CHECK_EQ(TdhGetProperty(r, 0, NULL, 1, d, sizeof(id), (PBYTE)&id), ERROR_SUCCESS);
    CHECK_EQ(id, -7);
    d[0].PropertyName = (ULONGLONG)(uintptr_t)L"customer";
    CHECK_EQ(TdhGetPropertySize(r, 0, NULL, 1, d, &ps), ERROR_SUCCESS);
    CHECK_EQ(ps, 4 * sizeof(WCHAR)); /* "Ada" as a WCHAR string with its NUL */
    WCHAR customer[4];
    CHECK_EQ(TdhGetProperty(r, 0, NULL, 1, d, ps - 1, (PBYTE)customer), ERROR_INSUFFICIENT_BUFFER);
    CHECK_EQ(TdhGetProperty(r, 0, NULL, 1, d, sizeof(customer), (PBYTE)customer), ERROR_SUCCESS);
    CHECK(!memcmp(customer, L"Ada", sizeof(customer)));
    /* The payload keeps Windows' UTF-16LE, after id. */
    CHECK(!memcmp((const uint8_t *)r->UserData + 4, "A\0d\0a\0\0\0", 8));
    d[0].PropertyName = (ULONGLONG)(uintptr_t)L"items";
    d[0].ArrayIndex = 2;
    uint16_t item = 0;
    CHECK_EQ(TdhGetProperty(r, 0, NULL, 1, d, sizeof(item), (PBYTE)&item), ERROR_SUCCESS);
    CHECK_EQ(item, 30);
    d[0].ArrayIndex = 3;
    CHECK_EQ(TdhGetPropertySize(r, 0, NULL, 1, d, &ps), ERROR_NOT_FOUND);
    d[0] = (PROPERTY_DATA_DESCRIPTOR){(ULONGLONG)(uintptr_t)L"where", 0xFFFFFFFFu, 0};
    d[1] = (PROPERTY_DATA_DESCRIPTOR){(ULONGLONG)(uintptr_t)L"zip", 0xFFFFFFFFu, 0};
    uint32_t zip = 0;
    CHECK_EQ(TdhGetProperty(r, 0, NULL, 2, d, sizeof(zip), (PBYTE)&zip), ERROR_SUCCESS);
    CHECK_EQ(zip, 0x8001);
    d[1].PropertyName = (ULONGLONG)(uintptr_t)L"nope";
    CHECK_EQ(TdhGetPropertySize(r, 0, NULL, 2, d, &ps), ERROR_NOT_FOUND);
    CHECK_EQ(TdhGetPropertySize(r, 0, NULL, 0, d, &ps), ERROR_INVALID_PARAMETER);

    /* TdhFormatProperty over UserData, property by property. */
    static const WCHAR *want[] = {L"-7", L"Ada",         L"10",     L"20",
                                  L"30", L"Z\u00fcrich", L"0x8001", L"0xDEADBEEF"};
    int w = 0;
    PBYTE data = r->UserData;
    USHORT left = r->UserDataLength;
    for (ULONG k = 0; k < info->TopLevelPropertyCount; k++) {
        EVENT_PROPERTY_INFO *pi = &p[k];
        ULONG first = k, last = k;
        if (pi->Flags & PropertyStruct) {
            first = pi->structType.StructStartIndex;
            last = first + pi->structType.NumOfStructMembers - 1;
        }
        for (ULONG m = first; m <= last; m++) {
            EVENT_PROPERTY_INFO *q = &p[m];
            USHORT n = (q->Flags & PropertyParamFixedCount) ? q->count : 1;
            if (q->Flags & PropertyParamFixedCount) { /* variable array: u16 count first */
                data += 2;
                left -= 2;
            }
            for (USHORT e = 0; e < n; e++) {
                WCHAR text[64];
                ULONG tsize = sizeof(text);
                USHORT consumed = 0;
                USHORT len = (q->Flags & PropertyParamFixedLength) ? q->length : 0;
                if (q->nonStructType.InType == TDH_INTYPE_BINARY) { /* u16 size first */
                    data += 2;
                    left -= 2;
                }
                CHECK_EQ(TdhFormatProperty(info, NULL, 8, q->nonStructType.InType,
                                           q->nonStructType.OutType, len, left, data, &tsize, text,
                                           &consumed),
                         ERROR_SUCCESS);
                if (wcscmp(text, want[w]) != 0) {
                    fprintf(stderr, "property %d: '%ls', want '%ls'\n", w, text, want[w]);
                    exit(1);
                }
                w++;
                data += consumed;
                left = (USHORT)(left - consumed);
            }
        }
    }
    CHECK_EQ(w, 8);
    CHECK_EQ(left, 0);
    /* Too small a buffer says how much it needs. */
    ULONG tsize = 2;
    USHORT consumed;
    WCHAR tiny[1];
    CHECK_EQ(TdhFormatProperty(info, NULL, 8, TDH_INTYPE_INT32, 0, 0, 4, r->UserData, &tsize, tiny,
                               &consumed),
             ERROR_INSUFFICIENT_BUFFER);
    CHECK_EQ(tsize, 3 * sizeof(WCHAR));
    CHECK_EQ(TdhFormatProperty(info, NULL, 8, TDH_INTYPE_INT32, 0, 0, 3, r->UserData, &tsize, tiny,
                               &consumed),
             ERROR_EVT_INVALID_EVENT_DATA);
    free(info);
}

/* TdhFormatProperty on one value: its text must be `want`, all `n` bytes
 * consumed. */
static void check_format(USHORT in, USHORT out, ULONG pointer_size, USHORT length,
                         const BYTE *bytes, USHORT n, const WCHAR *want)
{
    TRACE_EVENT_INFO info;
    memset(&info, 0, sizeof(info));
    WCHAR text[128];
    ULONG size = sizeof(text);
    USHORT consumed = 0;
    CHECK_EQ(TdhFormatProperty(&info, NULL, pointer_size, in, out, length, n, (PBYTE)bytes, &size,
                               text, &consumed),
             ERROR_SUCCESS);
    if (wcscmp(text, want) != 0 || consumed != n) {
        fprintf(stderr, "formatted '%ls' (%u bytes), want '%ls' (%u)\n", text, consumed, want, n);
        exit(1);
    }
    CHECK_EQ(size, (wcslen(want) + 1) * sizeof(WCHAR));
}

static void check_ipv6(const BYTE a[16], const WCHAR *want)
{
    check_format(TDH_INTYPE_BINARY, TDH_OUTTYPE_IPV6, 8, 16, a, 16, want);
}

static void check_addresses_and_sids(void)
{
    static const BYTE link_local[16] = {0xfe, 0x80, [15] = 1};
    static const BYTE loopback[16] = {[15] = 1};
    static const BYTE unspecified[16] = {0};
    static const BYTE mapped[16] = {[10] = 0xff, 0xff, 1, 2, 3, 4};
    static const BYTE compatible[16] = {[12] = 1, 2, 3, 4};
    static const BYTE translated[16] = {[8] = 0xff, 0xff, 0, 0, 1, 2, 3, 4};
    static const BYTE mapped_low[16] = {[10] = 0xff, 0xff, 0, 0, 0, 1}; /* 3rd word 0 */
    static const BYTE isatap[16] = {0xfe, 0x80, [10] = 0x5e, 0xfe, 10, 0, 0, 1};
    static const BYTE doc[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    static const BYTE tie[16] = {0x20, 0x01, 0x0d, 0xb8, [9] = 1, [15] = 1};
    static const BYTE trailing[16] = {0, 1};
    static const BYTE full[16] = {0xab, 0xcd, 0,    0x12, 0x34, 0x56, 0x07, 0x08,
                                  0x90, 0xab, 0xcd, 0xef, 0xff, 0xff, 0x10, 0x00};
    check_ipv6(link_local, L"fe80::1");
    check_ipv6(loopback, L"::1");
    check_ipv6(unspecified, L"::");
    check_ipv6(mapped, L"::ffff:1.2.3.4");
    check_ipv6(compatible, L"::1.2.3.4");
    check_ipv6(translated, L"::ffff:0:1.2.3.4");
    check_ipv6(mapped_low, L"::ffff:0:1");
    check_ipv6(isatap, L"fe80::5efe:10.0.0.1");
    check_ipv6(doc, L"2001:db8:0:1:1:1:1:1"); /* one zero word stays */
    check_ipv6(tie, L"2001:db8::1:0:0:1");    /* the first of two equal runs */
    check_ipv6(trailing, L"1::");
    check_ipv6(full, L"abcd:12:3456:708:90ab:cdef:ffff:1000");
    /* A short buffer for an address is bad data, not a shorter address. */
    WCHAR text[64];
    ULONG size = sizeof(text);
    USHORT consumed;
    CHECK_EQ(TdhFormatProperty(NULL, NULL, 8, TDH_INTYPE_BINARY, TDH_OUTTYPE_IPV6, 16, 15,
                               (PBYTE)link_local, &size, text, &consumed),
             ERROR_EVT_INVALID_EVENT_DATA);

    static const BYTE ipv4[4] = {192, 168, 1, 20}; /* network order */
    check_format(TDH_INTYPE_UINT32, TDH_OUTTYPE_IPV4, 8, 0, ipv4, 4, L"192.168.1.20");

    static const BYTE system[12] = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0};
    check_format(TDH_INTYPE_SID, TDH_OUTTYPE_STRING, 8, 0, system, 12, L"S-1-5-18");
    /* S-1-5-21-1004336348-1177238915-682003330-512 (a domain's admins). */
    static const BYTE domain[28] = {1,    5,    0,    0,    0,    0,    0,    5,    21,   0,
                                    0,    0,    0xdc, 0xf4, 0xdc, 0x3b, 0x83, 0x3d, 0x2b, 0x46,
                                    0x82, 0x8b, 0xa6, 0x28, 0x00, 0x02, 0,    0};
    check_format(TDH_INTYPE_SID, TDH_OUTTYPE_STRING, 8, 0, domain, 28,
                 L"S-1-5-21-1004336348-1177238915-682003330-512");
    /* WBEMSID: a TOKEN_USER (pointer-size * 2 bytes) before the SID. */
    BYTE wbem[16 + 12];
    memset(wbem, 0xaa, 16);
    memcpy(wbem + 16, system, 12);
    check_format(TDH_INTYPE_WBEMSID, TDH_OUTTYPE_STRING, 8, 0, wbem, 28, L"S-1-5-18");
    check_format(TDH_INTYPE_WBEMSID, TDH_OUTTYPE_STRING, 4, 0, wbem + 8, 20, L"S-1-5-18");
    /* A SID whose sub-authorities run past the data. */
    CHECK_EQ(TdhFormatProperty(NULL, NULL, 8, TDH_INTYPE_SID, 0, 0, 27, (PBYTE)domain, &size, text,
                               &consumed),
             ERROR_EVT_INVALID_EVENT_DATA);
}

static VOID WINAPI on_event(PEVENT_RECORD r)
{
    seen *s = r->UserContext;
    if (!memcmp(&r->EventHeader.ProviderId, TraceLoggingProviderId(g_tdh), sizeof(GUID))) {
        check_tl(r);
        s->tl++;
    } else if (r->EventHeader.EventDescriptor.Opcode == 0) {
        /* The file's header: described as TDH describes a MOF class. */
        ULONG size = 0;
        CHECK_EQ(TdhGetEventInformation(r, 0, NULL, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
        TRACE_EVENT_INFO *info = malloc(size);
        CHECK(info != NULL);
        CHECK_EQ(TdhGetEventInformation(r, 0, NULL, info, &size), ERROR_SUCCESS);
        CHECK_EQ(info->DecodingSource, DecodingSourceWbem);
        CHECK(info->TaskNameOffset && info->OpcodeNameOffset);
        CHECK(!wcscmp(name_at(info, info->TaskNameOffset), L"EventTrace"));
        CHECK(!wcscmp(name_at(info, info->OpcodeNameOffset), L"Header"));
        free(info);
        s->classic++;
    } else {
        ULONG size = 0;
        CHECK_EQ(TdhGetEventInformation(r, 0, NULL, NULL, &size), ERROR_NOT_FOUND);
        s->classic++;
    }
}

int main(void)
{
    check_addresses_and_sids();
    char path[512];
    test_path(path, sizeof(path), "tdh.etl");
    test_props a;
    test_props_init(&a, path);
    TRACEHANDLE sh;
    CHECK_EQ(StartTraceA(&sh, "petw-test-tdh", &a.p), ERROR_SUCCESS);
    CHECK(SUCCEEDED(TraceLoggingRegister(g_tdh)));
    CHECK_EQ(EnableTraceEx2(sh, TraceLoggingProviderId(g_tdh), EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    uint16_t items[3] = {10, 20, 30};
    static const uint8_t blob[4] = {0xde, 0xad, 0xbe, 0xef};
    TraceLoggingWrite(g_tdh, "Order", TraceLoggingInt32(-7, "id"),
                      TraceLoggingWideString(L"Ada", "customer"),
                      TraceLoggingUInt16Array(items, 3, "items"), TraceLoggingStruct(2, "where"),
                      TraceLoggingUtf8String("Z\xc3\xbcrich", "city"),
                      TraceLoggingHexInt32(0x8001, "zip"), TraceLoggingBinary(blob, 4, "blob"));
    CHECK_EQ(ControlTraceA(sh, NULL, &a.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    TraceLoggingUnregister(g_tdh);

    seen s = {0};
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.Context = &s;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CHECK_EQ(CloseTrace(h), ERROR_SUCCESS);
    CHECK_EQ(s.tl, 1);
    CHECK_EQ(s.classic, 1); /* the session's header record */
    CHECK_EQ(TdhGetEventInformation(NULL, 0, NULL, NULL, NULL), ERROR_INVALID_PARAMETER);
    unlink(path);
    printf("tdh: schema, properties and formatting ok\n");
    return 0;
}
