/* SPDX-License-Identifier: MIT */
/* TraceLogging as Microsoft documents it (<TraceLoggingProvider.h>), through
 * a session and back through the decoder: every field kind with its exact
 * value (scalars, out-typed scalars, strings of every form, binary, GUID,
 * times, variable and fixed arrays, nested structs, TraceLoggingValue),
 * event attributes (level, keyword, opcode, channel, tags) and their
 * filtering, activity IDs, arguments left unevaluated when disabled, an
 * oversized event refused, and the metadata of a PrimitiveTypesTest event
 * byte-identical to what Windows wrote in primitive-types.etl (when the
 * samples are present). */
#include <TraceLoggingProvider.h>
#include <math.h>

#include "test_util.h"

TRACELOGGING_DEFINE_PROVIDER(g_test, "Contoso.TraceLogging.Test",
                             (0x6f0e2b7a, 0x1d3c, 0x5e4f, 0x90, 0x81, 0x72, 0x63, 0x54, 0x45, 0x36,
                              0x27),
                             TraceLoggingOptionGroup(0x4f50731a, 0x89cf, 0x4782, 0xb3, 0xe0, 0xdc,
                                                     0xe8, 0xc9, 0x4, 0x76, 0xba));
/* The provider of primitive-types.etl, defined the same way. */
TRACELOGGING_DEFINE_PROVIDER(g_solar, "solar_system",
                             (0xd3dd3dd4, 0xaac2, 0x4e2a, 0x8d, 0xd4, 0xa8, 0xfb, 0x61, 0xb7, 0x76,
                              0x15));

static int evaluated;
static int side_effect(void)
{
    return ++evaluated;
}

typedef struct seen {
    petw_decoder *dec;
    int events, scalars, strings, arrays, values, attrs, activity, solar, filtered, big, empty,
        more;
} seen;

static const petw_field *field(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->field_count; i++)
        if (ev->fields[i].name && !strcmp(ev->fields[i].name, name) &&
            ev->fields[i].parent == UINT32_MAX)
            return &ev->fields[i];
    fprintf(stderr, "no field '%s' in %s\n", name, ev->event_name);
    exit(1);
}

static const petw_field *child(const petw_decoded_event *ev, const petw_field *f, uint32_t k)
{
    CHECK(k < f->count);
    return &ev->fields[f->first + k];
}

#define INT_IS(name, val) CHECK(field(ev, name)->v.i == (int64_t)(val))
#define UINT_IS(name, val) CHECK(field(ev, name)->v.u == (uint64_t)(val))
#define STR_IS(name, val) CHECK(!strcmp(field(ev, name)->v.s, val))
#define IN_IS(name, in, out)                                                                       \
    CHECK(field(ev, name)->in_type == (in) && field(ev, name)->out_type == (out))

static void check_scalars(const petw_decoded_event *ev)
{
    INT_IS("i8", -8);
    UINT_IS("u8", 200);
    INT_IS("i16", -1600);
    UINT_IS("u16", 60000);
    INT_IS("i32", -320000);
    UINT_IS("u32", 4000000000u);
    INT_IS("i64", -6400000000ll);
    UINT_IS("u64", 18000000000000000000ull);
    INT_IS("iptr", -5);
    UINT_IS("uptr", 7);
    INT_IS("one", 1); /* default name: the value's text */
    UINT_IS("hex32", 0xdeadbeef);
    IN_IS("hex32", PETW_IN_HEXINT32, 0);
    UINT_IS("hex64", 0x0123456789abcdefull);
    UINT_IS("hex8", 0xab);
    IN_IS("hex8", PETW_IN_UINT8, PETW_OUT_HEX);
    CHECK(field(ev, "f32")->v.f == 1.5);
    CHECK(field(ev, "f64")->v.f == -2.25);
    CHECK(field(ev, "bool32")->kind == PETW_VALUE_BOOL && field(ev, "bool32")->v.u == 1);
    CHECK(field(ev, "boolean")->kind == PETW_VALUE_BOOL && field(ev, "boolean")->v.u == 1);
    IN_IS("boolean", PETW_IN_UINT8, PETW_OUT_BOOLEAN);
    IN_IS("ch", PETW_IN_UINT8, PETW_OUT_STRING);
    STR_IS("ch", "Z");
    IN_IS("wch", PETW_IN_UINT16, PETW_OUT_STRING);
    STR_IS("wch", "\xce\xa9");
    STR_IS("ip", "127.0.0.1");
    UINT_IS("port", 8080); /* given in network byte order */
    UINT_IS("ptr", 0x1234);
    IN_IS("ptr", sizeof(void *) == 8 ? PETW_IN_HEXINT64 : PETW_IN_HEXINT32, 0);
    UINT_IS("pid", 42);
    IN_IS("pid", PETW_IN_UINT32, PETW_OUT_PID);
    IN_IS("tid", PETW_IN_UINT32, PETW_OUT_TID);
    IN_IS("ip", PETW_IN_UINT32, PETW_OUT_IPV4);
    IN_IS("port", PETW_IN_UINT16, 7);
    UINT_IS("winerr", 5);
    IN_IS("winerr", PETW_IN_UINT32, PETW_OUT_WIN32ERROR);
    UINT_IS("hr", 0x80004005u); /* shown in hexadecimal */
    CHECK(field(ev, "hr")->kind == PETW_VALUE_HEX);
    IN_IS("hr", PETW_IN_INT32, PETW_OUT_HRESULT);
    UINT_IS("nt", 0xC0000005u);
    IN_IS("nt", PETW_IN_UINT32, PETW_OUT_NTSTATUS);
}

static void check_strings(const petw_decoded_event *ev)
{
    STR_IS("ansi", "ansi text");
    STR_IS("utf8", "h\xc3\xa9llo");
    IN_IS("utf8", PETW_IN_ANSISTRING, PETW_OUT_UTF8);
    STR_IS("wide", "wide \xf0\x9f\x98\x80");
    STR_IS("null", "");
    STR_IS("counted", "abc");
    STR_IS("cwide", "abcd");
    IN_IS("cwide", PETW_IN_COUNTEDSTRING, 0);
    const petw_field *b = field(ev, "bin");
    CHECK(b->kind == PETW_VALUE_BINARY && b->v.bin.size == 5 &&
          !memcmp(b->v.bin.data, "\1\2\3\4\5", 5));
    const petw_field *g = field(ev, "guid");
    CHECK(g->kind == PETW_VALUE_GUID && g->v.guid.data1 == 0x11223344 &&
          g->v.guid.data4[7] == 0x88);
    CHECK(field(ev, "ft")->kind == PETW_VALUE_FILETIME);
    INT_IS("ft", 133000000000000000ll);
    const petw_field *st = field(ev, "st");
    CHECK(st->kind == PETW_VALUE_SYSTEMTIME && st->v.st[0] == 2024 && st->v.st[1] == 2 &&
          st->v.st[3] == 29 && st->v.st[7] == 999);
}

static void check_arrays(const petw_decoded_event *ev)
{
    const petw_field *a = field(ev, "varr");
    CHECK(a->kind == PETW_VALUE_ARRAY && a->count == 3);
    CHECK(child(ev, a, 0)->v.i == -1 && child(ev, a, 2)->v.i == 3);
    a = field(ev, "farr");
    CHECK(a->kind == PETW_VALUE_ARRAY && a->count == 4 && child(ev, a, 3)->v.u == 0xdd);
    a = field(ev, "darr");
    CHECK(a->count == 2 && child(ev, a, 1)->v.f == 0.25);
    a = field(ev, "empty");
    CHECK(a->kind == PETW_VALUE_ARRAY && a->count == 0);
    const petw_field *o = field(ev, "outer");
    CHECK(o->kind == PETW_VALUE_STRUCT && o->count == 2);
    CHECK(!strcmp(child(ev, o, 0)->name, "a") && child(ev, o, 0)->v.i == 7);
    const petw_field *in = child(ev, o, 1);
    CHECK(in->kind == PETW_VALUE_STRUCT && in->count == 1);
    CHECK(!strcmp(child(ev, in, 0)->v.s, "deep"));
    INT_IS("after", 9); /* top-level again after the struct */
}

static void check_values(const petw_decoded_event *ev)
{
    INT_IS("vint", -3);
    UINT_IS("vu64", 1ull << 40);
    CHECK(field(ev, "vdbl")->v.f == 3.5);
    STR_IS("vstr", "value");
    STR_IS("vwide", "w\xc3\xa9");
    IN_IS("vchar", PETW_IN_UINT8, PETW_OUT_STRING);
    CHECK(field(ev, "vbool")->kind == PETW_VALUE_BOOL);
    CHECK(field(ev, "vguid")->kind == PETW_VALUE_GUID);
}

/* The rest of Windows' field macros: arrays of every other element type,
 * UTF-16 and structure-held text, addresses, SID, custom and packed fields. */
static void check_more(const petw_decoded_event *ev)
{
    const petw_field *a = field(ev, "longs");
    CHECK(a->kind == PETW_VALUE_ARRAY && a->count == 2 && a->in_type == PETW_IN_INT32);
    CHECK(child(ev, a, 0)->v.i == -7 && child(ev, a, 1)->v.i == 7);
    a = field(ev, "ulongs");
    CHECK(a->count == 2 && a->in_type == PETW_IN_UINT32 && child(ev, a, 1)->v.u == 0xffffffffu);
    a = field(ev, "hexlongs");
    CHECK(a->count == 2 && a->in_type == PETW_IN_HEXINT32 && child(ev, a, 0)->v.u == 0xfffffff9u);
    a = field(ev, "hexulongs");
    CHECK(a->count == 2 && a->in_type == PETW_IN_HEXINT32 && child(ev, a, 0)->v.u == 7);
    a = field(ev, "hex8s");
    IN_IS("hex8s", PETW_IN_UINT8, PETW_OUT_HEX);
    CHECK(a->count == 2 && child(ev, a, 0)->kind == PETW_VALUE_HEX &&
          child(ev, a, 0)->v.u == 0xff && child(ev, a, 1)->v.u == 0x10);
    a = field(ev, "hexu8s");
    IN_IS("hexu8s", PETW_IN_UINT8, PETW_OUT_HEX);
    CHECK(a->count == 4 && child(ev, a, 3)->v.u == 0xdd);
    a = field(ev, "hex16s");
    IN_IS("hex16s", PETW_IN_UINT16, PETW_OUT_HEX);
    CHECK(a->count == 2 && child(ev, a, 0)->v.u == 0xbeef);
    a = field(ev, "hexi16f");
    IN_IS("hexi16f", PETW_IN_UINT16, PETW_OUT_HEX);
    CHECK(a->count == 2 && child(ev, a, 1)->v.u == 1);
    uint8_t ptr_in = sizeof(void *) == 8 ? PETW_IN_HEXINT64 : PETW_IN_HEXINT32;
    a = field(ev, "xptrs");
    CHECK(a->count == 2 && a->in_type == ptr_in && child(ev, a, 1)->v.u == 0x20);
    a = field(ev, "xiptrs");
    CHECK(a->count == 2 && a->in_type == ptr_in && child(ev, a, 0)->v.u == 0x30);
    a = field(ev, "code");
    IN_IS("code", ptr_in, 37);
    CHECK(a->count == 2 && child(ev, a, 0)->v.u == 0x1000 && child(ev, a, 1)->v.u == 0x2000);
    a = field(ev, "codef");
    IN_IS("codef", ptr_in, 37);
    CHECK(a->count == 2 && child(ev, a, 1)->v.u == 0x2000);
    a = field(ev, "ftutc");
    IN_IS("ftutc", PETW_IN_FILETIME, 38);
    CHECK(a->count == 2 && child(ev, a, 1)->kind == PETW_VALUE_FILETIME &&
          child(ev, a, 1)->v.i == 133000000000000000ll);
    a = field(ev, "stutc");
    IN_IS("stutc", PETW_IN_SYSTEMTIME, 38);
    CHECK(a->count == 1 && child(ev, a, 0)->v.st[0] == 2024 && child(ev, a, 0)->v.st[7] == 999);
    a = field(ev, "c16");
    IN_IS("c16", PETW_IN_UINT16, PETW_OUT_STRING);
    CHECK(a->count == 3 && !strcmp(child(ev, a, 1)->v.s, "\xce\xa9"));
    a = field(ev, "c16f");
    IN_IS("c16f", PETW_IN_UINT16, PETW_OUT_STRING);
    CHECK(a->count == 3 && !strcmp(child(ev, a, 2)->v.s, "i"));
    /* U+1F600 from 32-bit wchar_t: a surrogate pair in a variable array,
     * U+FFFD in a fixed one. */
    a = field(ev, "wca");
    IN_IS("wca", PETW_IN_UINT16, PETW_OUT_STRING);
    CHECK(a->count == (sizeof(wchar_t) == 4 ? 4u : 3u));
    CHECK(!strcmp(child(ev, a, 0)->v.s, "a") && !strcmp(child(ev, a, a->count - 1)->v.s, "b"));
    if (sizeof(wchar_t) == 4) {
        CHECK(child(ev, a, 1)->data_size == 2 && child(ev, a, 2)->data_size == 2);
    }
    a = field(ev, "wcf");
    CHECK(a->count == 3 &&
          !strcmp(child(ev, a, 1)->v.s, sizeof(wchar_t) == 4 ? "\xef\xbf\xbd" : "\xce\xa9"));
    STR_IS("s16", "utf");
    IN_IS("s16", PETW_IN_UNICODESTRING, 0);
    STR_IS("cs16", "ut");
    IN_IS("cs16", PETW_IN_COUNTEDSTRING, 0);
    STR_IS("astr", "ansi!");
    IN_IS("astr", PETW_IN_COUNTEDANSISTRING, 0);
    STR_IS("ustr", "uni");
    IN_IS("ustr", PETW_IN_COUNTEDSTRING, 0);
    const petw_field *b = field(ev, "bbuf");
    CHECK(b->kind == PETW_VALUE_BINARY && b->in_type == PETW_IN_BINARY && b->v.bin.size == 3 &&
          !memcmp(b->v.bin.data, "\1\2\3", 3));
    IN_IS("ip6", PETW_IN_BINARY, PETW_OUT_IPV6); /* decoded as text, as Windows writes it */
    CHECK(field(ev, "ip6")->kind == PETW_VALUE_STRING);
    STR_IS("ip6", "2001:db8::1");
    b = field(ev, "sa");
    IN_IS("sa", PETW_IN_BINARY, 10);
    CHECK(b->kind == PETW_VALUE_BINARY && b->v.bin.size == 16 && b->v.bin.data[0] == 2 &&
          b->v.bin.data[4] == 127 && b->v.bin.data[7] == 1);
    b = field(ev, "sid");
    IN_IS("sid", PETW_IN_SID, 0);
    CHECK(b->kind == PETW_VALUE_BINARY && b->v.bin.size == 12 && b->v.bin.data[7] == 5 &&
          b->v.bin.data[8] == 18);
    b = field(ev, "custom");
    CHECK(b->kind == PETW_VALUE_BINARY && b->in_type == PETW_IN_BINARY && b->out_type == 5 &&
          b->v.bin.size == 3 && !memcmp(b->v.bin.data, "\1\2\3", 3));
    INT_IS("pf", 0x11223344);
    IN_IS("pf", PETW_IN_INT32, 0);
    UINT_IS("pfx", 0xabcd);
    IN_IS("pfx", PETW_IN_UINT16, PETW_OUT_HEX);
    CHECK(field(ev, "pfx")->kind == PETW_VALUE_HEX);
    const petw_field *r = field(ev, "rect");
    CHECK(r->kind == PETW_VALUE_STRUCT && r->count == 2);
    CHECK(!strcmp(child(ev, r, 0)->name, "x") && child(ev, r, 0)->v.i == 3);
    CHECK(!strcmp(child(ev, r, 1)->name, "y") && child(ev, r, 1)->v.i == -4);
    const petw_field *pts = field(ev, "pts");
    CHECK(pts->kind == PETW_VALUE_ARRAY && pts->count == 2);
    const petw_field *e1 = child(ev, pts, 1);
    CHECK(e1->kind == PETW_VALUE_STRUCT && e1->count == 1 && child(ev, e1, 0)->v.u == 20);
    CHECK(child(ev, child(ev, pts, 0), 0)->v.u == 10);
    INT_IS("last", 5); /* everything before decoded to its exact size */
}

static void on_event(petw_event_record *r, void *ctx)
{
    seen *s = ctx;
    const petw_decoded_event *ev;
    CHECK_EQ(petw_decode(s->dec, r, &ev), 0);
    if (!ev->has_schema || (r->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER))
        return; /* the session's header records */
    s->events++;
    const petw_event_descriptor *d = &r->header.descriptor;
    const char *n = ev->event_name;
    if (!strcmp(n, "PrimitiveTypesTest")) {
        s->solar++;
        CHECK(!strcmp(ev->provider_name, "solar_system"));
        return;
    }
    CHECK(!strcmp(ev->provider_name, "Contoso.TraceLogging.Test"));
    CHECK_EQ(d->channel, WINEVENT_CHANNEL_TRACELOGGING);
    if (!strcmp(n, "Scalars")) {
        check_scalars(ev);
        CHECK_EQ(d->level, WINEVENT_LEVEL_VERBOSE);
        s->scalars++;
    } else if (!strcmp(n, "Strings")) {
        check_strings(ev);
        s->strings++;
    } else if (!strcmp(n, "Arrays")) {
        check_arrays(ev);
        s->arrays++;
    } else if (!strcmp(n, "Values")) {
        check_values(ev);
        s->values++;
    } else if (!strcmp(n, "More")) {
        check_more(ev);
        s->more++;
    } else if (!strcmp(n, "Empty")) {
        CHECK_EQ(ev->top_count, 0);
        s->empty++;
    } else if (!strcmp(n, "Attrs")) {
        CHECK_EQ(d->level, WINEVENT_LEVEL_ERROR);
        CHECK(d->keyword == 0x5);
        CHECK_EQ(d->opcode, WINEVENT_OPCODE_START);
        CHECK_EQ(d->id, 0);
        s->attrs++;
    } else if (!strcmp(n, "Activity")) {
        CHECK_EQ(r->header.activity_id.data1, 0xac71);
        int rel = 0;
        for (int i = 0; i < r->extended_data_count; i++)
            rel |= r->extended_data[i].ext_type == PETW_EXT_TYPE_RELATED_ACTIVITYID &&
                   ((const petw_guid *)(uintptr_t)r->extended_data[i].data_ptr)->data1 == 0x4e1;
        CHECK(rel);
        s->activity++;
    } else if (!strcmp(n, "Filtered"))
        s->filtered++;
    else if (!strcmp(n, "Big"))
        s->big++;
}

/* With an argument, the trace is kept at that path (for petw dump's test). */
int main(int argc, char **argv)
{
    char path[512];
    test_path(path, sizeof(path), "tracelogging.etl");
    if (argc > 1)
        snprintf(path, sizeof(path), "%s", argv[1]);

    /* Before any session: disabled, arguments not evaluated. */
    CHECK(SUCCEEDED(TraceLoggingRegister(g_test)));
    CHECK_EQ(TraceLoggingRegister(g_test), E_INVALIDARG);
    CHECK(SUCCEEDED(TraceLoggingRegister(g_solar)));
    CHECK(!TraceLoggingProviderEnabled(g_test, 0, 0));
    TraceLoggingWrite(g_test, "Disabled", TraceLoggingInt32(side_effect(), "x"));
    CHECK_EQ(evaluated, 0);
    CHECK(TraceLoggingProviderId(g_test)->Data1 == 0x6f0e2b7a);

    test_props a;
    test_props_init(&a, path);
    TRACEHANDLE sh;
    CHECK_EQ(StartTraceA(&sh, "petw-test-tracelogging", &a.p), ERROR_SUCCESS);
    /* Keyword 0x1 (match any), level up to verbose. */
    CHECK_EQ(EnableTraceEx2(sh, TraceLoggingProviderId(g_test), EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            WINEVENT_LEVEL_VERBOSE, 0x1, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(sh, TraceLoggingProviderId(g_solar), EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK(TraceLoggingProviderEnabled(g_test, WINEVENT_LEVEL_INFO, 0x1));

    int one = 1;
    TraceLoggingWrite(g_test, "Scalars", TraceLoggingInt8(-8, "i8"), TraceLoggingUInt8(200, "u8"),
                      TraceLoggingInt16(-1600, "i16"), TraceLoggingUInt16(60000, "u16"),
                      TraceLoggingInt32(-320000, "i32"), TraceLoggingUInt32(4000000000u, "u32"),
                      TraceLoggingInt64(-6400000000ll, "i64"),
                      TraceLoggingUInt64(18000000000000000000ull, "u64"),
                      TraceLoggingIntPtr(-5, "iptr"), TraceLoggingUIntPtr(7, "uptr"),
                      TraceLoggingInt32(one), TraceLoggingHexInt32(0xdeadbeef, "hex32"),
                      TraceLoggingHexUInt64(0x0123456789abcdefull, "hex64"),
                      TraceLoggingHexUInt8(0xab, "hex8"), TraceLoggingFloat32(1.5f, "f32"),
                      TraceLoggingFloat64(-2.25, "f64"), TraceLoggingBool(TRUE, "bool32"),
                      TraceLoggingBoolean(1, "boolean"), TraceLoggingChar('Z', "ch"),
                      TraceLoggingWChar(0x3a9, "wch"), TraceLoggingPointer((void *)0x1234, "ptr"),
                      TraceLoggingPid(42, "pid"), TraceLoggingTid(43, "tid"),
                      TraceLoggingIPv4Address(0x0100007f, "ip"), TraceLoggingPort(0x901f, "port"),
                      TraceLoggingWinError(5, "winerr"), TraceLoggingHResult(E_FAIL, "hr"),
                      TraceLoggingNTStatus(0xC0000005u, "nt", "an access violation"));

    static const uint8_t bin[5] = {1, 2, 3, 4, 5};
    GUID g = {0x11223344, 0x5566, 0x7788, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}};
    FILETIME ft = {(DWORD)(133000000000000000ll & 0xffffffff), (DWORD)(133000000000000000ll >> 32)};
    SYSTEMTIME st = {2024, 2, 4, 29, 23, 59, 58, 999};
    TraceLoggingWrite(g_test, "Strings", TraceLoggingString("ansi text", "ansi"),
                      TraceLoggingUtf8String("h\xc3\xa9llo", "utf8"),
                      TraceLoggingWideString(L"wide \U0001F600", "wide"),
                      TraceLoggingString(NULL, "null"),
                      TraceLoggingCountedString("abcdef", 3, "counted"),
                      TraceLoggingCountedWideString(L"abcdef", 4, "cwide"),
                      TraceLoggingBinary(bin, sizeof(bin), "bin"), TraceLoggingGuid(g, "guid"),
                      TraceLoggingFileTime(ft, "ft"), TraceLoggingSystemTime(st, "st"));

    int32_t varr[3] = {-1, 2, 3};
    uint8_t farr[4] = {0xaa, 0xbb, 0xcc, 0xdd};
    double darr[2] = {0.5, 0.25};
    TraceLoggingWrite(g_test, "Arrays", TraceLoggingInt32Array(varr, 3, "varr"),
                      TraceLoggingUInt8FixedArray(farr, 4, "farr"),
                      TraceLoggingFloat64Array(darr, 2, "darr"),
                      TraceLoggingInt32Array(varr, 0, "empty"), TraceLoggingStruct(2, "outer"),
                      TraceLoggingInt32(7, "a"), TraceLoggingStruct(1, "inner"),
                      TraceLoggingString("deep", "b"), TraceLoggingInt32(9, "after"));

    /* The rest of Windows' field macros. */
    int32_t longs[2] = {-7, 7};
    uint32_t ulongs[2] = {7, 0xffffffffu};
    int8_t hex8s[2] = {-1, 0x10};
    uint16_t hex16s[2] = {0xbeef, 1};
    int16_t hexi16[2] = {-2, 1};
    uintptr_t xptrs[2] = {0x10, 0x20};
    intptr_t xiptrs[2] = {0x30, -1};
    void *ptrs[2] = {(void *)0x1000, (void *)0x2000};
    FILETIME fts[2] = {ft, ft};
    SYSTEMTIME sts[1] = {st};
    uint16_t c16[3] = {'h', 0x3a9, 'i'};
    wchar_t wc[3] = {L'a', (wchar_t)(sizeof(wchar_t) == 4 ? 0x1F600 : 0x3a9), L'b'};
    static const uint16_t s16z[] = {'u', 't', 'f', 0};
    struct {
        uint16_t Length, MaximumLength;
        const char *Buffer;
    } astr = {5, 6, "ansi!"};
    struct {
        uint16_t Length, MaximumLength;
        const wchar_t *Buffer;
    } ustr = {3 * sizeof(wchar_t), 4 * sizeof(wchar_t), L"uni"};
    typedef struct {
        ULONG Length;
        const void *Buffer;
    } buffer_t;
    buffer_t bbuf = {3, bin};
    static const uint8_t ip6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    static const uint8_t sa[16] = {2, 0, 0x1f, 0x90, 127, 0, 0, 1};
    static const uint8_t sid[12] = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0}; /* S-1-5-18 */
    int32_t pf = 0x11223344, rect[2] = {3, -4};
    uint16_t pfx = 0xabcd, npts = 2, ptv[2] = {10, 20};
    TraceLoggingWrite(
        g_test, "More", TraceLoggingLongArray(longs, 2, "longs"),
        TraceLoggingULongFixedArray(ulongs, 2, "ulongs"),
        TraceLoggingHexLongArray(longs, 2, "hexlongs"),
        TraceLoggingHexULongFixedArray(ulongs, 2, "hexulongs"),
        TraceLoggingHexInt8Array(hex8s, 2, "hex8s"),
        TraceLoggingHexUInt8FixedArray(farr, 4, "hexu8s"),
        TraceLoggingHexUInt16Array(hex16s, 2, "hex16s"),
        TraceLoggingHexInt16FixedArray(hexi16, 2, "hexi16f"),
        TraceLoggingHexUIntPtrArray(xptrs, 2, "xptrs"),
        TraceLoggingHexIntPtrFixedArray(xiptrs, 2, "xiptrs"),
        TraceLoggingCodePointerArray(ptrs, 2, "code"),
        TraceLoggingCodePointerFixedArray(ptrs, 2, "codef"),
        TraceLoggingFileTimeUtcArray(fts, 2, "ftutc"),
        TraceLoggingSystemTimeUtcFixedArray(sts, 1, "stutc"),
        TraceLoggingChar16Array(c16, 3, "c16"), TraceLoggingChar16FixedArray(c16, 3, "c16f"),
        TraceLoggingWCharArray(wc, 3, "wca"), TraceLoggingWCharFixedArray(wc, 3, "wcf"),
        TraceLoggingString16(s16z, "s16"), TraceLoggingCountedString16(s16z, 2, "cs16"),
        TraceLoggingAnsiString(&astr, "astr"), TraceLoggingUnicodeString(&ustr, "ustr"),
        TraceLoggingBinaryBuffer(&bbuf, buffer_t, "bbuf"), TraceLoggingIPv6Address(ip6, "ip6"),
        TraceLoggingSocketAddress(sa, sizeof(sa), "sa"), TraceLoggingSid(sid, "sid"),
        TraceLoggingCustom(bin, 3, 5, (0x0, 0x1, 0x2), 3, "custom"),
        TraceLoggingCustomAttribute("key", "value"),
        TraceLoggingPackedField(&pf, sizeof(pf), TlgInINT32, "pf"),
        TraceLoggingPackedFieldEx(&pfx, sizeof(pfx), TlgInUINT16, TlgOutHEX, "pfx"),
        TraceLoggingPackedData(rect, sizeof(rect)), TraceLoggingPackedStruct(2, "rect"),
        TraceLoggingPackedMetadata(TlgInINT32, "x"),
        TraceLoggingPackedMetadataEx(TlgInINT32, TlgOutNULL, "y"),
        TraceLoggingPackedData(&npts, sizeof(npts)),
        TraceLoggingPackedDataEx(ptv, sizeof(ptv), EVENT_DATA_DESCRIPTOR_TYPE_NONE),
        TraceLoggingPackedStructArray(1, "pts"), TraceLoggingPackedMetadata(TlgInUINT16, "v"),
        TraceLoggingInt32(5, "last"));

    TraceLoggingWrite(g_test, "Values", TraceLoggingValue(-3, "vint"),
                      TraceLoggingValue((uint64_t)1 << 40, "vu64"), TraceLoggingValue(3.5, "vdbl"),
                      TraceLoggingValue("value", "vstr"), TraceLoggingValue(L"w\u00e9", "vwide"),
                      TraceLoggingValue((char)'q', "vchar"), TraceLoggingValue((_Bool)1, "vbool"),
                      TraceLoggingValue(g, "vguid"));
    TraceLoggingWrite(g_test, "Empty");
    TraceLoggingWrite(g_test, "Attrs", TraceLoggingLevel(WINEVENT_LEVEL_ERROR),
                      TraceLoggingKeyword(0x1), TraceLoggingKeyword(0x4),
                      TraceLoggingOpcode(WINEVENT_OPCODE_START), TraceLoggingEventTag(0x2000001),
                      TraceLoggingDescription("attributes"), TraceLoggingInt32(1, "x"));
    GUID act = {0xac71, 0, 0, {0}}, rel = {0x4e1, 0, 0, {0}};
    TraceLoggingWriteActivity(g_test, "Activity", &act, &rel, TraceLoggingInt32(2, "x"));
    /* Keyword 0x2 is not enabled; level 5 with keyword 0 passes. */
    TraceLoggingWrite(g_test, "Filtered", TraceLoggingKeyword(0x2),
                      TraceLoggingInt32(side_effect()));
    CHECK_EQ(evaluated, 0);
    /* Over 64 KB: refused, nothing partial written. */
    static uint8_t big[70000];
    TraceLoggingWrite(g_test, "Big", TraceLoggingBinary(big, sizeof(big), "big"));
    static wchar_t wbig[40000];
    wmemset(wbig, L'x', 39999);
    TraceLoggingWrite(g_test, "Big", TraceLoggingWideString(wbig, "w"));

    char s16[] = "Mercury";
    TraceLoggingWrite(g_solar, "PrimitiveTypesTest", TraceLoggingString(s16, "string_type"),
                      TraceLoggingBoolean(0, "boolean_type"), TraceLoggingChar('M', "char_type"),
                      TraceLoggingInt16(-51, "int16_type"), TraceLoggingInt32(-1, "int32_type"),
                      TraceLoggingUInt16(1, "uint16_type"), TraceLoggingUInt32(2, "uint32_type"),
                      TraceLoggingUInt64(3, "int64_type"), TraceLoggingUInt64(4, "uint64_type"),
                      TraceLoggingGuid(g, "guid_type"), TraceLoggingFileTime(ft, "file_time_type"),
                      TraceLoggingSystemTime(st, "system_time_type"));

    CHECK_EQ(ControlTraceA(sh, NULL, &a.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(a.p.EventsLost, 0);
    TraceLoggingUnregister(g_test);
    TraceLoggingUnregister(g_test); /* harmless */
    TraceLoggingUnregister(g_solar);

    seen s = {0};
    CHECK_EQ(petw_decoder_new(&s.dec), 0);
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = &s;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    petw_decoder_free(s.dec);
    CHECK(s.scalars == 1 && s.strings == 1 && s.arrays == 1 && s.values == 1 && s.empty == 1);
    CHECK(s.attrs == 1 && s.activity == 1 && s.solar == 1);
    CHECK_EQ(s.filtered, 0);
    CHECK_EQ(s.big, 0);
    CHECK_EQ(s.more, 1);
    CHECK_EQ(s.events, 9);

    /* Wire compatibility: the metadata petw wrote for PrimitiveTypesTest is
     * the item Windows wrote in primitive-types.etl, byte for byte. */
    static uint8_t ours[512], theirs[512];
    size_t on = test_find_blob(path, "PrimitiveTypesTest", 3, ours, sizeof(ours));
    CHECK(on > 0);
    size_t tn = test_find_blob(path, "solar_system", 2, ours + on, sizeof(ours) - on);
    CHECK_EQ(tn, 2 + sizeof("solar_system"));
    const char *dir = getenv("PETW_ETL_SAMPLES");
    char sample[1024];
    snprintf(sample, sizeof(sample), "%s/primitive-types.etl", dir ? dir : "");
    size_t wn = dir ? test_find_blob(sample, "PrimitiveTypesTest", 3, theirs, sizeof(theirs)) : 0;
    if (wn) {
        CHECK_EQ(wn, on);
        CHECK(memcmp(ours, theirs, on) == 0);
        size_t wt = test_find_blob(sample, "solar_system", 2, theirs, sizeof(theirs));
        CHECK_EQ(wt, tn);
        CHECK(memcmp(ours + on, theirs, tn) == 0); /* the provider traits too */
        printf("tracelogging: PrimitiveTypesTest metadata identical to Windows' (%zu bytes)\n", on);
    }
    if (argc <= 1)
        unlink(path);
    printf("tracelogging: %d events, every field kind decoded exactly\n", s.events);
    return 0;
}
