/* SPDX-License-Identifier: MIT */
/* TDH on manifest-based events, as tool authors use it: TdhLoadManifest
 * (and FromMemory, and the manifests PETW_MANIFEST_PATH lists), then
 * TdhGetEventInformation describing an event by its template (count and
 * length naming other properties, a struct's member block, fixed counts,
 * map names, task/opcode/level names and the message), the same answer from
 * TdhGetManifestEventInformation without an event, TdhGetProperty by path,
 * TdhGetEventMapInformation and TdhFormatProperty with the map, a FILETIME
 * as a date, TdhEnumerateManifestProviderEvents, TdhEnumerateProviders,
 * the provider field functions, and unloading; with the errors for missing,
 * malformed and unknown input. */
#include <tdh.h>

#include "test_util.h"

static const GUID provider = {
    0x7c0b2a11, 0x3d44, 0x4e55, {0x8f, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc}};
static const GUID powershell = {
    0xa0c1853b, 0x5c40, 0x4b15, {0x87, 0x66, 0x3c, 0xf1, 0xc5, 0x8f, 0x98, 0x5a}};

static const char manifest[] =
    "<?xml version='1.0' encoding='utf-8'?>\n"
    "<instrumentationManifest xmlns='http://schemas.microsoft.com/win/2004/08/events'>\n"
    "<instrumentation><events>\n"
    "<provider name='Contoso-Tdh-Manifest' guid='{7c0b2a11-3d44-4e55-8f66-778899aabbcc}'\n"
    "  symbol='CONTOSO' message='$(string.Provider)' resourceFileName='c.dll'\n"
    "  messageFileName='c.dll'>\n"
    "<events>\n"
    "  <event value='5' version='1' task='Order' opcode='Ship' level='win:Informational'\n"
    "    keywords='Orders' template='T1' symbol='OrderShipped' message='$(string.Msg)'/>\n"
    "  <event value='6' version='0' level='win:Warning' symbol='Ping'/>\n"
    "</events>\n"
    "<tasks><task name='Order' value='1'><opcodes><opcode name='Ship' value='10'/></opcodes>"
    "</task></tasks>\n"
    "<keywords><keyword name='Orders' mask='0x1'/></keywords>\n"
    "<maps><valueMap name='StateMap'><map value='1' message='$(string.Open)'/>"
    "<map value='2' message='$(string.Closed)'/></valueMap>\n"
    "<bitMap name='FlagsMap'><map value='0x1' message='$(string.Rush)'/>"
    "<map value='0x2' message='$(string.Gift)'/></bitMap></maps>\n"
    "<templates><template tid='T1'>\n"
    "  <data name='Name' inType='win:UnicodeString'/>\n"
    "  <data name='State' inType='win:UInt32' map='StateMap'/>\n"
    "  <data name='Flags' inType='win:UInt32' map='FlagsMap'/>\n"
    "  <data name='Count' inType='win:UInt16'/>\n"
    "  <data name='Items' inType='win:UInt32' count='Count'/>\n"
    "  <data name='Size' inType='win:UInt16'/>\n"
    "  <data name='Blob' inType='win:Binary' length='Size'/>\n"
    "  <struct name='Where'><data name='City' inType='win:AnsiString'/>\n"
    "    <data name='Zip' inType='win:UInt32'/></struct>\n"
    "  <data name='Fixed' inType='win:UInt8' count='2'/>\n"
    "</template></templates>\n"
    "</provider></events></instrumentation>\n"
    "<localization><resources culture='en-US'><stringTable>\n"
    "<string id='Provider' value='Contoso orders'/><string id='Msg' value='Order %1 is %2'/>\n"
    "<string id='Open' value='Open'/><string id='Closed' value='Closed'/>\n"
    "<string id='Rush' value='Rush'/><string id='Gift' value='Gift'/>\n"
    "</stringTable></resources></localization></instrumentationManifest>\n";

/* Name "Ann", State 2, Flags 3, Count 2, Items {7, 9}, Size 3, Blob "abc",
 * Where {"Oslo", 150}, Fixed {4, 5}. */
static const BYTE payload[] = {'A', 0,   'n', 0,   'n', 0,   0,   0, 2,   0, 0, 0, 3, 0,
                               0,   0,   2,   0,   7,   0,   0,   0, 9,   0, 0, 0, 3, 0,
                               'a', 'b', 'c', 'O', 's', 'l', 'o', 0, 150, 0, 0, 0, 4, 5};

/* A name the TEI_/EMI_/PEI_/PFI_ accessors found, equal to `want`. */
static int named(const WCHAR *got, const WCHAR *want)
{
    return got != NULL && wcscmp(got, want) == 0;
}

static void wide(const char *s, WCHAR *out, size_t n)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n; i++)
        out[i] = (WCHAR)(unsigned char)s[i];
    out[i] = 0;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(text, 1, strlen(text), f) == strlen(text));
    fclose(f);
}

static void make_record(EVENT_RECORD *r, USHORT length)
{
    memset(r, 0, sizeof(*r));
    r->EventHeader.Flags = EVENT_HEADER_FLAG_64_BIT_HEADER;
    r->EventHeader.ProviderId = provider;
    r->EventHeader.EventDescriptor.Id = 5;
    r->EventHeader.EventDescriptor.Version = 1;
    r->UserData = (PVOID)payload;
    r->UserDataLength = length;
}

static PTRACE_EVENT_INFO event_info(EVENT_RECORD *r, ULONG *size)
{
    *size = 0;
    CHECK_EQ(TdhGetEventInformation(r, 0, NULL, NULL, size), ERROR_INSUFFICIENT_BUFFER);
    PTRACE_EVENT_INFO info = malloc(*size);
    CHECK(info);
    CHECK_EQ(TdhGetEventInformation(r, 0, NULL, info, size), ERROR_SUCCESS);
    return info;
}

static void check_schema(EVENT_RECORD *r)
{
    ULONG size;
    PTRACE_EVENT_INFO info = event_info(r, &size);
    CHECK(info->DecodingSource == DecodingSourceXMLFile);
    CHECK(named(TEI_PROVIDER_NAME(info), L"Contoso-Tdh-Manifest"));
    CHECK(named(TEI_TASK_NAME(info), L"Order"));
    CHECK(named(TEI_OPCODE_NAME(info), L"Ship"));
    CHECK(named(TEI_LEVEL_NAME(info), L"Information"));
    CHECK(named(TEI_EVENT_MESSAGE(info), L"Order %1 is %2"));
    CHECK(named(TEI_PROVIDER_MESSAGE(info), L"Contoso orders"));
    CHECK(TEI_KEYWORDS_NAME(info) == NULL);
    CHECK_EQ(info->EventDescriptor.Id, 5);
    CHECK_EQ(info->EventDescriptor.Task, 1);
    CHECK_EQ(info->EventDescriptor.Opcode, 10);
    CHECK_EQ(info->EventDescriptor.Level, 4);
    CHECK_EQ(info->EventDescriptor.Keyword, 1);
    /* Name State Flags Count Items Size Blob Where Fixed, then City Zip. */
    CHECK_EQ(info->TopLevelPropertyCount, 9);
    CHECK_EQ(info->PropertyCount, 11);
    EVENT_PROPERTY_INFO *p = info->EventPropertyInfoArray;
    static const WCHAR *names[] = {L"Name", L"State", L"Flags", L"Count", L"Items", L"Size",
                                   L"Blob", L"Where", L"Fixed", L"City",  L"Zip"};
    for (int i = 0; i < 11; i++)
        CHECK(named(TEI_PROPERTY_NAME(info, &p[i]), names[i]));
    CHECK_EQ(p[0].nonStructType.InType, TDH_INTYPE_UNICODESTRING);
    CHECK(named(TEI_MAP_NAME(info, &p[1]), L"StateMap"));
    CHECK(named(TEI_MAP_NAME(info, &p[2]), L"FlagsMap"));
    CHECK(TEI_MAP_NAME(info, &p[3]) == NULL);
    CHECK(p[4].Flags & PropertyParamCount);
    CHECK_EQ(p[4].countPropertyIndex, 3);
    CHECK(p[6].Flags & PropertyParamLength);
    CHECK_EQ(p[6].lengthPropertyIndex, 5);
    CHECK_EQ(p[6].nonStructType.InType, TDH_INTYPE_BINARY);
    CHECK(p[7].Flags & PropertyStruct);
    CHECK_EQ(p[7].structType.StructStartIndex, 9);
    CHECK_EQ(p[7].structType.NumOfStructMembers, 2);
    CHECK(p[8].Flags & PropertyParamFixedCount);
    CHECK_EQ(p[8].count, 2);
    CHECK_EQ(p[9].nonStructType.InType, TDH_INTYPE_ANSISTRING);
    CHECK_EQ(p[10].count, 1);

    /* The same schema without an event. */
    ULONG size2 = 0;
    EVENT_DESCRIPTOR d = r->EventHeader.EventDescriptor;
    GUID g = provider;
    CHECK_EQ(TdhGetManifestEventInformation(&g, &d, NULL, &size2), ERROR_INSUFFICIENT_BUFFER);
    CHECK_EQ(size2, size);
    PTRACE_EVENT_INFO info2 = malloc(size2);
    CHECK(info2);
    CHECK_EQ(TdhGetManifestEventInformation(&g, &d, info2, &size2), ERROR_SUCCESS);
    CHECK(!memcmp(info, info2, size));
    d.Version = 9;
    CHECK_EQ(TdhGetManifestEventInformation(&g, &d, info2, &size2), ERROR_NOT_FOUND);
    free(info2);

    /* Values by path, and formatting with the maps. */
    PROPERTY_DATA_DESCRIPTOR path[2] = {{(ULONGLONG)(uintptr_t)L"Where", 0xFFFFFFFFu, 0},
                                        {(ULONGLONG)(uintptr_t)L"Zip", 0xFFFFFFFFu, 0}};
    ULONG psize = 0, zip = 0, item = 0;
    CHECK_EQ(TdhGetPropertySize(r, 0, NULL, 2, path, &psize), ERROR_SUCCESS);
    CHECK_EQ(psize, 4);
    CHECK_EQ(TdhGetProperty(r, 0, NULL, 2, path, sizeof(zip), (PBYTE)&zip), ERROR_SUCCESS);
    CHECK_EQ(zip, 150);
    PROPERTY_DATA_DESCRIPTOR items = {(ULONGLONG)(uintptr_t)L"Items", 1, 0};
    CHECK_EQ(TdhGetProperty(r, 0, NULL, 1, &items, sizeof(item), (PBYTE)&item), ERROR_SUCCESS);
    CHECK_EQ(item, 9);

    ULONG msize = 0;
    CHECK_EQ(TdhGetEventMapInformation(r, (PWSTR)L"FlagsMap", NULL, &msize),
             ERROR_INSUFFICIENT_BUFFER);
    PEVENT_MAP_INFO map = malloc(msize);
    CHECK(map);
    CHECK_EQ(TdhGetEventMapInformation(r, (PWSTR)L"FlagsMap", map, &msize), ERROR_SUCCESS);
    CHECK(named(EMI_MAP_NAME(map), L"FlagsMap"));
    CHECK(map->Flag == EVENTMAP_INFO_FLAG_MANIFEST_BITMAP);
    CHECK_EQ(map->EntryCount, 2);
    CHECK_EQ(map->MapEntryArray[1].Value, 2);
    CHECK(named(EMI_MAP_OUTPUT(map, &map->MapEntryArray[1]), L"Gift"));
    WCHAR text[64];
    ULONG tsize = sizeof(text);
    USHORT used = 0;
    CHECK_EQ(TdhFormatProperty(info, map, 8, TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL, 0, 4,
                               (PBYTE)payload + 12, &tsize, text, &used),
             ERROR_SUCCESS);
    CHECK(!wcscmp(text, L"Rush | Gift"));
    CHECK_EQ(used, 4);
    free(map);
    msize = 0;
    CHECK_EQ(TdhGetEventMapInformation(r, (PWSTR)L"StateMap", NULL, &msize),
             ERROR_INSUFFICIENT_BUFFER);
    map = malloc(msize);
    CHECK(map);
    CHECK_EQ(TdhGetEventMapInformation(r, (PWSTR)L"StateMap", map, &msize), ERROR_SUCCESS);
    CHECK(map->Flag == EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP);
    tsize = sizeof(text);
    CHECK_EQ(TdhFormatProperty(info, map, 8, TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL, 0, 4,
                               (PBYTE)payload + 8, &tsize, text, &used),
             ERROR_SUCCESS);
    CHECK(!wcscmp(text, L"Closed"));
    free(map);
    msize = 0;
    CHECK_EQ(TdhGetEventMapInformation(r, (PWSTR)L"NoSuchMap", NULL, &msize), ERROR_NOT_FOUND);
    free(info);
}

static void check_enumeration(void)
{
    GUID g = provider;
    ULONG size = 0;
    CHECK_EQ(TdhEnumerateManifestProviderEvents(&g, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
    PPROVIDER_EVENT_INFO ev = malloc(size);
    CHECK(ev);
    CHECK_EQ(TdhEnumerateManifestProviderEvents(&g, ev, &size), ERROR_SUCCESS);
    CHECK_EQ(ev->NumberOfEvents, 2);
    CHECK_EQ(ev->EventDescriptorsArray[0].Id, 5);
    CHECK_EQ(ev->EventDescriptorsArray[0].Opcode, 10);
    CHECK_EQ(ev->EventDescriptorsArray[1].Id, 6);
    CHECK_EQ(ev->EventDescriptorsArray[1].Level, 3);
    free(ev);
    GUID unknown = {1, 2, 3, {4}};
    size = 0;
    CHECK_EQ(TdhEnumerateManifestProviderEvents(&unknown, NULL, &size), ERROR_NOT_FOUND);

    size = 0;
    CHECK_EQ(TdhEnumerateProviders(NULL, &size), ERROR_INSUFFICIENT_BUFFER);
    PPROVIDER_ENUMERATION_INFO pe = malloc(size);
    CHECK(pe);
    CHECK_EQ(TdhEnumerateProviders(pe, &size), ERROR_SUCCESS);
    int ours = 0, thread = 0, ps = 0;
    for (ULONG i = 0; i < pe->NumberOfProviders; i++) {
        TRACE_PROVIDER_INFO *p = &pe->TraceProviderInfoArray[i];
        const WCHAR *name = PEI_PROVIDER_NAME(pe, p);
        CHECK(name != NULL);
        if (!memcmp(&p->ProviderGuid, &provider, sizeof(GUID)))
            ours += p->SchemaSource == 0 && !wcscmp(name, L"Contoso-Tdh-Manifest");
        if (!memcmp(&p->ProviderGuid, &powershell, sizeof(GUID)))
            ps += p->SchemaSource == 0 && !wcscmp(name, L"Microsoft-Windows-PowerShell");
        thread += p->SchemaSource == 1 && !wcscmp(name, L"Thread");
    }
    CHECK_EQ(ours, 1);
    CHECK_EQ(thread, 1);
    CHECK_EQ(ps, 1); /* from PETW_MANIFEST_PATH */
    free(pe);

    size = 0;
    CHECK_EQ(TdhEnumerateProviderFieldInformation(&g, EventTaskInformation, NULL, &size),
             ERROR_INSUFFICIENT_BUFFER);
    PPROVIDER_FIELD_INFOARRAY fa = malloc(size);
    CHECK(fa);
    CHECK_EQ(TdhEnumerateProviderFieldInformation(&g, EventTaskInformation, fa, &size),
             ERROR_SUCCESS);
    CHECK_EQ(fa->NumberOfElements, 1);
    CHECK(fa->FieldType == EventTaskInformation);
    CHECK_EQ(fa->FieldInfoArray[0].Value, 1);
    CHECK(named(PFI_FIELD_NAME(fa, &fa->FieldInfoArray[0]), L"Order"));
    free(fa);
    size = 0;
    CHECK_EQ(TdhQueryProviderFieldInformation(&g, 10, EventOpcodeInformation, NULL, &size),
             ERROR_INSUFFICIENT_BUFFER);
    fa = malloc(size);
    CHECK(fa);
    CHECK_EQ(TdhQueryProviderFieldInformation(&g, 10, EventOpcodeInformation, fa, &size),
             ERROR_SUCCESS);
    CHECK(named(PFI_FIELD_NAME(fa, &fa->FieldInfoArray[0]), L"Ship"));
    free(fa);
    size = 0;
    CHECK_EQ(TdhQueryProviderFieldInformation(&g, 99, EventTaskInformation, NULL, &size),
             ERROR_NOT_FOUND);
    CHECK_EQ(TdhEnumerateProviderFieldInformation(&g, EventKeywordInformation, NULL, &size),
             ERROR_NOT_SUPPORTED);
}

int main(void)
{
    char path[512], bad[512];
    WCHAR wpath[512], wbad[512], wmissing[512];
    test_path(path, sizeof(path), "tdh.man");
    test_path(bad, sizeof(bad), "tdh-bad.man");
    write_file(path, manifest);
    write_file(bad, "<instrumentationManifest><instrumentation><events>\n<provider name='x'");
    wide(path, wpath, 512);
    wide(bad, wbad, 512);
    wide("/no/such/dir/x.man", wmissing, 512);

    EVENT_RECORD r;
    make_record(&r, sizeof(payload));
    ULONG size = 0;
    CHECK_EQ(TdhGetEventInformation(&r, 0, NULL, NULL, &size), ERROR_NOT_FOUND); /* not loaded */

    CHECK_EQ(TdhLoadManifest(wpath), ERROR_SUCCESS);
    CHECK_EQ(TdhLoadManifest(wpath), ERROR_SUCCESS); /* once is enough */
    CHECK_EQ(TdhLoadManifest(wbad), ERROR_XML_PARSE_ERROR);
    CHECK_EQ(TdhLoadManifest(wmissing), ERROR_FILE_NOT_FOUND);
    CHECK_EQ(TdhLoadManifest(NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(TdhLoadManifestFromBinary(wpath), ERROR_NOT_SUPPORTED);
    check_schema(&r);
    check_enumeration();

    /* A payload shorter than the template: an error for that event. */
    EVENT_RECORD cut;
    make_record(&cut, 20);
    PROPERTY_DATA_DESCRIPTOR zip = {(ULONGLONG)(uintptr_t)L"Fixed", 0xFFFFFFFFu, 0};
    ULONG psize;
    CHECK_EQ(TdhGetPropertySize(&cut, 0, NULL, 1, &zip, &psize), ERROR_EVT_INVALID_EVENT_DATA);

    /* FILETIME as a date. */
    ULONGLONG ft = 133000000000000000ull;
    WCHAR text[64];
    ULONG tsize = sizeof(text);
    USHORT used;
    CHECK_EQ(TdhFormatProperty(NULL, NULL, 8, TDH_INTYPE_FILETIME, TDH_OUTTYPE_NULL, 0, 8,
                               (PBYTE)&ft, &tsize, text, &used),
             ERROR_SUCCESS);
    CHECK(!wcscmp(text, L"2022-06-18T04:26:40.0000000Z"));
    ft = 0;
    tsize = sizeof(text);
    CHECK_EQ(TdhFormatProperty(NULL, NULL, 8, TDH_INTYPE_FILETIME, TDH_OUTTYPE_NULL, 0, 8,
                               (PBYTE)&ft, &tsize, text, &used),
             ERROR_SUCCESS);
    CHECK(!wcscmp(text, L"1601-01-01T00:00:00.0000000Z"));

    /* Unloading forgets the provider; the same bytes load from memory. */
    CHECK_EQ(TdhUnloadManifest(wpath), ERROR_SUCCESS);
    CHECK_EQ(TdhUnloadManifest(wpath), ERROR_NOT_FOUND);
    size = 0;
    CHECK_EQ(TdhGetEventInformation(&r, 0, NULL, NULL, &size), ERROR_NOT_FOUND);
    CHECK_EQ(TdhLoadManifestFromMemory(manifest, (ULONG)strlen(manifest)), ERROR_SUCCESS);
    check_schema(&r);
    CHECK_EQ(TdhUnloadManifestFromMemory(manifest, (ULONG)strlen(manifest)), ERROR_SUCCESS);
    size = 0;
    CHECK_EQ(TdhGetEventInformation(&r, 0, NULL, NULL, &size), ERROR_NOT_FOUND);
    remove(path);
    remove(bad);
    printf("tdh_manifest: schema, values, maps, enumeration and loading for manifest events\n");
    return 0;
}
