/* SPDX-License-Identifier: MIT */
/* The rest of the provider API: EventWriteString (string-only events, stored
 * as UTF-16LE), EventWriteEx (session filter, flags), EventSetInformation
 * (provider traits on every event; descriptor types routing TraceLogging
 * metadata into PROV_TRAITS / EVENT_SCHEMA_TL extended items, decoded back
 * with names and values), and their errors. When the Windows samples are
 * present, the metadata a petw record carries for an event shaped like
 * primitive-types.etl's is byte-identical to the item Windows wrote. */
#include "test_util.h"

DEFINE_GUID(ApiProvider, 0xa91a91a9, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

/* primitive-types.etl's provider traits and event schema, built by hand
 * from the TraceLogging encoding (not copied from the file). */
static size_t build_traits(uint8_t *b)
{
    static const char name[] = "solar_system";
    b[0] = (uint8_t)(2 + sizeof(name)), b[1] = 0;
    memcpy(b + 2, name, sizeof(name));
    return 2 + sizeof(name);
}

static size_t build_schema(uint8_t *b)
{
    static const struct {
        const char *name;
        uint8_t in, out;
    } f[] = {{"string_type", 0x02, 0}, {"boolean_type", 0x84, 3},   {"char_type", 0x84, 2},
             {"int16_type", 0x05, 0},  {"int32_type", 0x07, 0},     {"uint16_type", 0x06, 0},
             {"uint32_type", 0x08, 0}, {"int64_type", 0x0a, 0},     {"uint64_type", 0x0a, 0},
             {"guid_type", 0x0f, 0},   {"file_time_type", 0x11, 0}, {"system_time_type", 0x12, 0}};
    size_t n = 2;
    b[n++] = 0; /* no tags */
    memcpy(b + n, "PrimitiveTypesTest", 19);
    n += 19;
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        memcpy(b + n, f[i].name, strlen(f[i].name) + 1);
        n += strlen(f[i].name) + 1;
        b[n++] = f[i].in;
        if (f[i].in & 0x80)
            b[n++] = f[i].out;
    }
    b[0] = (uint8_t)n, b[1] = (uint8_t)(n >> 8);
    return n;
}

/* The EVENT_SCHEMA_TL item Windows wrote for PrimitiveTypesTest (its size,
 * two bytes, and its tag byte precede the name). */
static int windows_schema(uint8_t *out, size_t *n)
{
    const char *dir = getenv("PETW_ETL_SAMPLES");
    char path[1024];
    snprintf(path, sizeof(path), "%s/primitive-types.etl", dir ? dir : "");
    *n = dir ? test_find_blob(path, "PrimitiveTypesTest", 3, out, 512) : 0;
    return *n != 0;
}

/* Decodes each record; notes the string-only and the TraceLogging event. */
typedef struct decoded {
    petw_decoder *dec;
    int string_ok, tl_ok;
} decoded;

static void on_event(petw_event_record *r, void *ctx)
{
    decoded *dc = ctx;
    const petw_decoded_event *ev;
    CHECK_EQ(petw_decode(dc->dec, r, &ev), 0);
    if (r->header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY)
        dc->string_ok = !strcmp(ev->fields[0].name, "string") &&
                        !strcmp(ev->fields[0].v.s, "h\xc3\xa9llo \xf0\x9f\x98\x80");
    if (ev->event_name && !strcmp(ev->event_name, "PrimitiveTypesTest"))
        dc->tl_ok = !strcmp(ev->provider_name, "solar_system") &&
                    !strcmp(ev->fields[0].v.s, "Mercury") && ev->fields[1].v.u == 0 &&
                    !strcmp(ev->fields[2].v.s, "M");
}

int main(void)
{
    char path[512], path_b[512];
    test_path(path, sizeof(path), "provider-api.etl");
    test_path(path_b, sizeof(path_b), "provider-api-b.etl");
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&ApiProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    test_props a, b;
    test_props_init(&a, path);
    test_props_init(&b, path_b);
    TRACEHANDLE sa, sb;
    CHECK_EQ(StartTraceA(&sa, "petw-test-api-a", &a.p), ERROR_SUCCESS);
    CHECK_EQ(StartTraceA(&sb, "petw-test-api-b", &b.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(sa, &ApiProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(sb, &ApiProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);

    /* 1. A string-only event. */
    CHECK_EQ(EventWriteString(reg, 4, 0x20, L"h\u00e9llo \U0001F600"), ERROR_SUCCESS);
    CHECK_EQ(EventWriteString(reg, 4, 0, NULL), ERROR_INVALID_PARAMETER);

    /* 2. EventWriteEx: filter bit 1 keeps it from session b (enabled second). */
    EVENT_DESCRIPTOR d = {7, 0, 0, 4, 0, 0, 0};
    uint32_t v = 1234;
    EVENT_DATA_DESCRIPTOR dd[4];
    EventDataDescCreate(&dd[0], &v, 4);
    CHECK_EQ(EventWriteEx(reg, &d, 0x2, EVENT_WRITE_FLAG_NO_FAULTING, NULL, NULL, 1, dd),
             ERROR_SUCCESS);
    CHECK_EQ(EventWriteEx(reg, &d, 0, 0x80, NULL, NULL, 1, dd), ERROR_INVALID_PARAMETER);

    /* 3. TraceLogging-style: descriptor types + traits. */
    uint8_t traits[64], schema[512];
    size_t tn = build_traits(traits), sn = build_schema(schema);
    BOOLEAN on = TRUE;
    CHECK_EQ(EventSetInformation(reg, EventProviderUseDescriptorType, &on, sizeof(on)),
             ERROR_SUCCESS);
    EVENT_DESCRIPTOR tl = {0, 0, 11, 5, 0, 0, 0};
    /* Every field of the schema: string, bool, char, int16, int32, uint16,
     * uint32, int64, uint64, GUID, FILETIME, SYSTEMTIME (78 bytes). */
    uint8_t payload[78] = {'M', 'e', 'r', 'c', 'u', 'r', 'y', 0, 0, 'M', 0xcd, 0xff};
    EventDataDescCreate(&dd[0], traits, (ULONG)tn);
    dd[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA;
    EventDataDescCreate(&dd[1], schema, (ULONG)sn);
    dd[1].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
    EventDataDescCreate(&dd[2], payload, sizeof(payload));
    CHECK_EQ(EventWrite(reg, &tl, 3, dd), ERROR_SUCCESS);
    dd[2].Type = 9; /* unknown type */
    CHECK_EQ(EventWrite(reg, &tl, 3, dd), ERROR_INVALID_PARAMETER);
    /* 4. Traits set once travel with every event. */
    on = FALSE;
    CHECK_EQ(EventSetInformation(reg, EventProviderUseDescriptorType, &on, sizeof(on)),
             ERROR_SUCCESS);
    CHECK_EQ(EventSetInformation(reg, EventProviderSetTraits, traits, (ULONG)tn), ERROR_SUCCESS);
    CHECK_EQ(EventSetInformation(reg, EventProviderSetTraits, traits, 2), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventSetInformation(reg, (EVENT_INFO_CLASS)77, traits, 2), ERROR_NOT_SUPPORTED);
    CHECK_EQ(EventSetInformation(reg, EventProviderBinaryTrackInfo, NULL, 0), ERROR_SUCCESS);
    CHECK_EQ(EventSetInformation(12345, EventProviderSetTraits, traits, (ULONG)tn),
             ERROR_INVALID_HANDLE);
    EventDataDescCreate(&dd[0], &v, 4);
    CHECK_EQ(EventWrite(reg, &d, 1, dd), ERROR_SUCCESS);

    CHECK_EQ(ControlTraceA(sa, NULL, &a.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(sb, NULL, &b.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);

    /* Session a got all four events; read them back and decode. */
    static test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.count, 1 + 4);
    const test_event *e = &l.ev[1];
    CHECK(e->header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY);
    CHECK_EQ(e->header.descriptor.level, 4);
    CHECK(e->header.descriptor.keyword == 0x20);
    static const uint8_t want[] = {'h', 0,   0xe9, 0,    'l',  0,    'l',  0, 'o',
                                   0,   ' ', 0,    0x3d, 0xd8, 0x00, 0xde, 0, 0};
    CHECK_EQ(e->length, sizeof(want));
    CHECK(memcmp(e->data, want, sizeof(want)) == 0);
    CHECK_EQ(l.ev[2].header.descriptor.id, 7);
    e = &l.ev[3];
    CHECK(e->header.flags & PETW_EVENT_HEADER_FLAG_EXTENDED_INFO);
    CHECK_EQ(e->ext_count, 2);
    CHECK_EQ(e->ext_type[0], PETW_EXT_TYPE_PROV_TRAITS);
    CHECK_EQ(e->ext_type[1], PETW_EXT_TYPE_EVENT_SCHEMA_TL);
    CHECK_EQ(e->length, sizeof(payload));
    e = &l.ev[4];
    CHECK_EQ(e->ext_count, 1);
    CHECK_EQ(e->ext_type[0], PETW_EXT_TYPE_PROV_TRAITS);
    test_events_free(&l);

    /* Session b (filter bit 1) got everything but the filtered event. */
    CHECK_EQ(test_read(path_b, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.count, 1 + 3);
    CHECK(l.ev[1].header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY);
    CHECK_EQ(l.ev[2].ext_count, 2);            /* the TraceLogging-style event */
    CHECK_EQ(l.ev[3].header.descriptor.id, 7); /* the last, unfiltered one */
    test_events_free(&l);
    unlink(path_b);

    /* Decoded through the native consumer. */
    petw_decoder *dec;
    CHECK_EQ(petw_decoder_new(&dec), 0);
    decoded dc = {dec, 0, 0};
    petw_trace_config tc;
    petw_trace_config_init(&tc);
    tc.context = &dc;
    tc.on_event = on_event;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &tc, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    CHECK(dc.string_ok && dc.tl_ok);
    petw_decoder_free(dec);

    /* Byte-identical to Windows' item for the same event shape. */
    static uint8_t win[512];
    size_t wn = 0;
    if (windows_schema(win, &wn)) {
        CHECK_EQ(wn, sn);
        CHECK(memcmp(win, schema, sn) == 0);
        printf("provider_api: schema identical to the Windows-written item (%zu bytes)\n", wn);
    }
    unlink(path);
    printf("provider_api: string, ex, traits and descriptor types ok\n");
    return 0;
}
