/* SPDX-License-Identifier: MIT */
/* EventSetInformation(EventProviderSetTraits) alone turns on
 * EVENT_DATA_DESCRIPTOR.Type, as EVENT_INFO_CLASS's documentation says and
 * TraceLoggingDynamic relies on: a provider that sets its traits and then
 * writes [provider traits (Type 2), event metadata (Type 1), field values]
 * has its event stored as TraceLogging (the schema and traits as extended
 * items, the values alone as payload), so it decodes by name:
 * Contoso.DynamicDemo/DynEvent Count=42. Without traits (and without
 * EventProviderUseDescriptorType) the Type field is still ignored. */
#include <petw/decode.h>

#include "test_util.h"

DEFINE_GUID(DynProvider, 0x5a5a5a5a, 1, 2, 3, 4, 0, 0, 0, 0, 0, 3);
DEFINE_GUID(PlainProvider, 0x5a5a5a5a, 1, 2, 3, 4, 0, 0, 0, 0, 0, 4);

/* u16 size, "Contoso.DynamicDemo" NUL. */
static const char traits[] = "\x16\x00"
                             "Contoso.DynamicDemo";
/* u16 size, u8 tags, "DynEvent" NUL, "Count" NUL, in-type UInt32 (8). */
static const char metadata[] = "\x13\x00\x00"
                               "DynEvent\0"
                               "Count\0"
                               "\x08";

static void write_one(REGHANDLE reg)
{
    static const EVENT_DESCRIPTOR d = {1, 0, 11, 4, 0, 0, 0};
    UINT32 count = 42;
    EVENT_DATA_DESCRIPTOR dd[3];
    EventDataDescCreate(&dd[0], traits, sizeof(traits));
    dd[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA;
    EventDataDescCreate(&dd[1], metadata, 0x13);
    dd[1].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
    EventDataDescCreate(&dd[2], &count, sizeof(count));
    CHECK_EQ(EventWriteTransfer(reg, &d, NULL, NULL, 3, dd), ERROR_SUCCESS);
}

typedef struct decoded {
    petw_decoder *decoder;
    int found;
    char text[256];
} decoded;

static void on_event(petw_event_record *r, void *ctx)
{
    decoded *out = ctx;
    const petw_decoded_event *ev;
    if (memcmp(&r->header.provider_id, &DynProvider, sizeof(GUID)) != 0 ||
        petw_decode(out->decoder, r, &ev) != 0)
        return;
    out->found = 1;
    int n =
        snprintf(out->text, sizeof(out->text), "%s/%s", ev->provider_name ? ev->provider_name : "",
                 ev->event_name ? ev->event_name : "");
    for (uint32_t i = 0; i < ev->top_count && n > 0 && (size_t)n < sizeof(out->text); i++)
        n += snprintf(out->text + n, sizeof(out->text) - (size_t)n, " %s=%llu", ev->fields[i].name,
                      (unsigned long long)ev->fields[i].v.u);
}

int main(void)
{
    CHECK_EQ(sizeof(traits), 0x16);
    REGHANDLE dyn, plain;
    CHECK_EQ(EventRegister(&DynProvider, NULL, NULL, &dyn), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&PlainProvider, NULL, NULL, &plain), ERROR_SUCCESS);
    CHECK_EQ(EventSetInformation(dyn, EventProviderSetTraits, (PVOID)traits, sizeof(traits)),
             ERROR_SUCCESS);

    char path[512];
    test_path(path, sizeof(path), "set_traits_types.etl");
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-set-traits", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &DynProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(s, &PlainProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    write_one(dyn);
    write_one(plain);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    int seen = 0;
    for (size_t i = 0; i < l.count; i++) {
        test_event *e = &l.ev[i];
        if (IsEqualGUID((GUID *)&e->header.provider_id, &DynProvider)) {
            /* The values alone are the payload; schema and traits ride along. */
            CHECK_EQ(e->length, 4);
            CHECK_EQ(test_seq(e), 42);
            int schema = 0, prov = 0;
            for (int k = 0; k < e->ext_count && k < 4; k++) {
                schema += e->ext_type[k] == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
                prov += e->ext_type[k] == EVENT_HEADER_EXT_TYPE_PROV_TRAITS;
            }
            CHECK_EQ(schema, 1);
            CHECK_EQ(prov, 1);
            seen |= 1;
        } else if (IsEqualGUID((GUID *)&e->header.provider_id, &PlainProvider)) {
            /* Type ignored: every descriptor is payload. */
            CHECK_EQ(e->length, sizeof(traits) + 0x13 + 4);
            seen |= 2;
        }
    }
    CHECK_EQ(seen, 3);
    test_events_free(&l);

    /* Decoded as Windows' tools show it. */
    decoded out = {NULL, 0, ""};
    CHECK_EQ(petw_decoder_new(&out.decoder), 0);
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = &out;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    petw_decoder_free(out.decoder);
    CHECK(out.found);
    if (strcmp(out.text, "Contoso.DynamicDemo/DynEvent Count=42") != 0) {
        fprintf(stderr, "decoded: %s\n", out.text);
        return 1;
    }
    EventUnregister(dyn);
    EventUnregister(plain);
    return 0;
}
