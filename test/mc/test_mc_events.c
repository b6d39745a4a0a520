/* SPDX-License-Identifier: MIT */
/* test_mc_events.c - code written as mc.exe's users write it, against the
 * headers `petw mc` generated (example_events.h from the example
 * provider's manifest, mc_types.h from mc_types.man): register, write
 * every kind of field, unregister, in a file session; then the decoder,
 * given the same manifests, must name each event and give back exactly
 * the values written, a non-ASCII UnicodeString included. Built as C and
 * as C++ (test_mc_events.cpp includes this file). */
#include "mc_test.h"

#include "example_events.h"
#include "mc_types.h"

#ifdef __cplusplus
extern "C" {
#endif
/* mc_second_tu.c, the same header in another translation unit. */
const void *mc_second_tu_context(void);
ULONG mc_second_tu_write(void);
#ifdef __cplusplus
}
#endif

static const GUID test_guid = {0x01234567, 0x89ab, 0xcdef, {1, 2, 3, 4, 5, 6, 7, 8}};
static const GUID test_guid2 = {0xfedcba98, 0x7654, 0x3210, {8, 7, 6, 5, 4, 3, 2, 1}};
static int marker; /* its address is the Pointer field */
/* S-1-1-0 (Everyone), as CreateWellKnownSid writes it. */
static const unsigned char world_sid[12] = {1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};

/* What the C and C++ builds each see. */
typedef struct seen {
    petw_decoder *dec;
    int order, strings, blobs, arrays, ping, scalars, scalars_v1, long_text, status, batch, count;
} seen;

static const petw_field *field(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    fprintf(stderr, "%s: no field %s\n", ev->event_name, name);
    exit(1);
}

static const petw_field *element(const petw_decoded_event *ev, const char *name, uint32_t k)
{
    const petw_field *a = field(ev, name);
    CHECK(a->kind == PETW_VALUE_ARRAY);
    CHECK(k < a->count);
    return &ev->fields[a->first + k];
}

static void check_scalars(const petw_decoded_event *ev)
{
    CHECK(field(ev, "I8")->v.i == -8);
    CHECK(field(ev, "U8")->v.u == 200);
    CHECK(field(ev, "I16")->v.i == -16000);
    CHECK(field(ev, "U16")->v.u == 65000);
    CHECK(field(ev, "I32")->v.i == -2000000000);
    CHECK(field(ev, "U32")->v.u == 4000000000u);
    CHECK(field(ev, "I64")->v.i == -9000000000000000000ll);
    CHECK(field(ev, "U64")->v.u == 18000000000000000000ull);
    CHECK(field(ev, "F")->v.f == 1.5);
    CHECK(field(ev, "D")->v.f == -2.25);
    CHECK(field(ev, "B")->kind == PETW_VALUE_BOOL && field(ev, "B")->v.u == 1);
    CHECK(field(ev, "H32")->kind == PETW_VALUE_HEX && field(ev, "H32")->v.u == 0xdeadbeefu);
    CHECK(field(ev, "H64")->v.u == 0x0123456789abcdefull);
    CHECK(field(ev, "Ptr")->v.u == (uint64_t)(uintptr_t)&marker);
    CHECK(field(ev, "Ptr")->data_size == sizeof(void *));
    CHECK(ev->task_name && !strcmp(ev->task_name, "Scalars"));
    CHECK(ev->opcode_name && !strcmp(ev->opcode_name, "Measure"));
}

static void check_strings(const petw_decoded_event *ev)
{
    CHECK(
        !strcmp(field(ev, "Wide")->v.s, "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 \xf0\x9d\x84\x9e"));
    CHECK(field(ev, "Wide")->data_size == 2 * 17); /* 16 UTF-16 units and the NUL */
    CHECK(!strcmp(field(ev, "Narrow")->v.s, "narrow"));
    CHECK(!strcmp(field(ev, "NullWide")->v.s, "NULL"));
    CHECK(!strcmp(field(ev, "FixedWide")->v.s, "abcd"));
    CHECK(field(ev, "FixedWide")->data_size == 8);
    CHECK(!strcmp(field(ev, "FixedNarrow")->v.s, "xyz"));
    CHECK(field(ev, "WideLen")->v.u == 5);
    /* 5 wchar_t, one outside the BMP: the 5 UTF-16 units the length says. */
    CHECK(!strcmp(field(ev, "SizedWide")->v.s, "xy\xf0\x9d\x84\x9ez"));
    CHECK(field(ev, "SizedWide")->data_size == 10);
    CHECK(field(ev, "After")->v.u == 77);
}

static void check_blobs(const petw_decoded_event *ev)
{
    CHECK(!memcmp(&field(ev, "Id")->v.guid, &test_guid, 16));
    CHECK(field(ev, "When")->v.i == 133000000000000000ll);
    const petw_field *st = field(ev, "St");
    CHECK(st->v.st[0] == 2024 && st->v.st[1] == 2 && st->v.st[3] == 29 && st->v.st[4] == 13 &&
          st->v.st[7] == 250);
    CHECK(field(ev, "Size")->v.u == 5);
    CHECK(field(ev, "Data")->v.bin.size == 5 &&
          !memcmp(field(ev, "Data")->v.bin.data, "\1\2\3\4\5", 5));
    CHECK(field(ev, "Fixed")->v.bin.size == 4 &&
          !memcmp(field(ev, "Fixed")->v.bin.data, "WXYZ", 4));
}

static void check_arrays(const petw_decoded_event *ev)
{
    CHECK(field(ev, "N")->v.u == 3);
    CHECK(field(ev, "Values")->count == 3);
    CHECK(element(ev, "Values", 0)->v.u == 10 && element(ev, "Values", 2)->v.u == 4000000000u);
    CHECK(field(ev, "Shorts")->count == 3 && element(ev, "Shorts", 1)->v.i == -2);
    CHECK(!memcmp(&element(ev, "Guids", 1)->v.guid, &test_guid2, 16));
    CHECK(element(ev, "Doubles", 2)->v.f == 0.125);
    CHECK(element(ev, "Flags", 0)->v.u == 0 && element(ev, "Flags", 1)->v.u == 1);
    CHECK(element(ev, "Times", 1)->v.i == 2);
    CHECK(element(ev, "Chars", 0)->v.i == 'o' && element(ev, "Chars", 1)->v.i == 'k');
    CHECK(!strcmp(field(ev, "Tail")->v.s, "end"));
}

static void on_event(petw_event_record *r, void *ctx)
{
    seen *s = (seen *)ctx;
    if (memcmp(&r->header.provider_id, &PETW_EXAMPLE_ORDERS, 16) != 0 &&
        memcmp(&r->header.provider_id, &PETW_TEST_MCTYPES, 16) != 0)
        return; /* the file's header records */
    const petw_decoded_event *ev;
    CHECK(petw_decode(s->dec, r, &ev) == 0);
    CHECK(ev->event_name != NULL);
    const char *n = ev->event_name;
    if (!strcmp(n, "OrderPlaced")) {
        CHECK(field(ev, "OrderId")->v.u == 1000u + (unsigned)s->order);
        CHECK(field(ev, "Amount")->v.f == 9.75);
        CHECK(!strcmp(field(ev, "Customer")->v.s, "Contoso"));
        CHECK(ev->message && strstr(ev->message, "Contoso"));
        s->order++;
    } else if (!strcmp(n, "StatusChanged")) {
        CHECK(field(ev, "State")->label && !strcmp(field(ev, "State")->label, "busy"));
        s->status++;
    } else if (!strcmp(n, "BatchStart") || !strcmp(n, "BatchStop")) {
        CHECK(ev->top_count == 0);
        s->batch++;
    } else if (!strcmp(n, "Scalars")) {
        check_scalars(ev);
        s->scalars++;
    } else if (!strcmp(n, "ScalarsV1")) {
        CHECK(r->header.descriptor.version == 1 && field(ev, "Value")->v.u == 11);
        s->scalars_v1++;
    } else if (!strcmp(n, "Strings")) {
        check_strings(ev);
        CHECK(r->header.descriptor.channel == 16);
        s->strings++;
    } else if (!strcmp(n, "Blobs")) {
        check_blobs(ev);
        s->blobs++;
    } else if (!strcmp(n, "Arrays")) {
        check_arrays(ev);
        s->arrays++;
    } else if (!strcmp(n, "Ping")) {
        CHECK(ev->top_count == 0 && r->header.descriptor.level == 1);
        s->ping++;
    } else if (!strcmp(n, "Count")) {
        CHECK(field(ev, "Count")->v.u == 5);
        s->count++;
    } else if (!strcmp(n, "LongText")) {
        /* Cut to MCGEN_PETW_MAX_STRING units with the NUL, whole characters. */
        const char *t = field(ev, "Text")->v.s;
        CHECK(strlen(t) == MCGEN_PETW_MAX_STRING - 1);
        CHECK(t[0] == 'L' && t[MCGEN_PETW_MAX_STRING - 2] == 'L');
        CHECK(field(ev, "End")->v.u == 99);
        s->long_text++;
    } else {
        fprintf(stderr, "unexpected event %s\n", n);
        exit(1);
    }
}

static void write_events(void)
{
    CHECK(EventRegisterPetw_Example_Orders() == ERROR_SUCCESS);
    CHECK(EventRegisterPetw_Test_McTypes() == ERROR_SUCCESS);
    CHECK(EventRegisterPetw_Test_McTypes() == ERROR_SUCCESS); /* registered already: a no-op */

    CHECK((EventWriteBatchStart()) == ERROR_SUCCESS);
    for (ULONG i = 0; i < 3; i++)
        CHECK(EventWriteOrderPlaced(1000 + i, 9.75, "Contoso") == ERROR_SUCCESS);
    EventWriteStatusChanged(1);
    EventWriteBatchStop();

    CHECK(EventWriteScalars(-8, 200, -16000, 65000, -2000000000, 4000000000u,
                            -9000000000000000000ll, 18000000000000000000ull, 1.5f, -2.25, TRUE,
                            0xdeadbeefu, 0x0123456789abcdefull, &marker) == ERROR_SUCCESS);
    CHECK(mc_second_tu_context() == (const void *)&PETW_TEST_MCTYPES_Context);
    CHECK(mc_second_tu_write() == ERROR_SUCCESS); /* ScalarsV1, from the other file */
    const WCHAR sized[] = L"xy\U0001D11Ezw";
    CHECK(EventWriteStrings(L"h\u00e9llo w\u00f6rld \u2713 \U0001D11E", "narrow", NULL, L"abcd",
                            "xyz", 5, sized, 77) == ERROR_SUCCESS);

    FILETIME ft;
    ft.dwLowDateTime = (DWORD)(133000000000000000ull & 0xffffffffu);
    ft.dwHighDateTime = (DWORD)(133000000000000000ull >> 32);
    SYSTEMTIME st;
    memset(&st, 0, sizeof(st));
    st.wYear = 2024;
    st.wMonth = 2;
    st.wDay = 29;
    st.wHour = 13;
    st.wMilliseconds = 250;
    const BYTE data[5] = {1, 2, 3, 4, 5};
    CHECK(EventWriteBlobs(&test_guid, &ft, &st, 5, data, (const BYTE *)"WXYZ", world_sid, -1) ==
          ERROR_SUCCESS);

    const unsigned int values[3] = {10, 20, 4000000000u};
    const signed short shorts[3] = {-1, -2, -3};
    const GUID guids[2] = {test_guid, test_guid2};
    const double doubles[3] = {0.5, 0.25, 0.125};
    const BOOL flags[2] = {FALSE, TRUE};
    FILETIME times[3];
    memset(times, 0, sizeof(times));
    times[1].dwLowDateTime = 2;
    CHECK(EventWriteArrays(3, values, shorts, guids, doubles, flags, times, "ok", "end") ==
          ERROR_SUCCESS);
    CHECK(EventWritePing() == ERROR_SUCCESS);
    CHECK(EventWriteCount(5) == ERROR_SUCCESS);

    static WCHAR long_text[3000];
    for (int i = 0; i < 2999; i++)
        long_text[i] = L'L';
    long_text[2999] = 0;
    CHECK(EventWriteLongText(long_text, 99) == ERROR_SUCCESS);
    /* Level 16 (Chatty) is above the session's 5: not written. */
    CHECK(!EventEnabledChat());
    EventWriteChat(1);

    CHECK(EventUnregisterPetw_Test_McTypes() == ERROR_SUCCESS);
    CHECK(EventUnregisterPetw_Example_Orders() == ERROR_SUCCESS);
    CHECK(Petw_Test_McTypesHandle == 0);
}

int main(void)
{
    char path[512];
    mc_path(path, sizeof(path), "mc-events");
    mc_props a;
    TRACEHANDLE sh = mc_start(&a, "mc", path);
    CHECK(EnableTraceEx2(sh, &PETW_EXAMPLE_ORDERS, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0,
                         NULL) == ERROR_SUCCESS);
    CHECK(EnableTraceEx2(sh, &PETW_TEST_MCTYPES, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0,
                         NULL) == ERROR_SUCCESS);
    write_events();
    CHECK(ControlTraceA(sh, NULL, &a.p, EVENT_TRACE_CONTROL_STOP) == ERROR_SUCCESS);

    seen s;
    memset(&s, 0, sizeof(s));
    CHECK(petw_decoder_new(&s.dec) == 0);
    CHECK(petw_decoder_add_manifest(s.dec, MC_EXAMPLE_MANIFEST) == 0);
    CHECK(petw_decoder_add_manifest(s.dec, MC_TYPES_MANIFEST) == 0);
    mc_read(path, on_event, &s);
    petw_decoder_free(s.dec);
    CHECK(s.order == 3 && s.status == 1 && s.batch == 2);
    CHECK(s.scalars == 1 && s.scalars_v1 == 1 && s.strings == 1 && s.blobs == 1 && s.arrays == 1);
    CHECK(s.ping == 1 && s.long_text == 1 && s.count == 1);
    printf("ok: every event decoded by name with the values written\n");
    return 0;
}
