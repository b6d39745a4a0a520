/* SPDX-License-Identifier: MIT */
/* TraceLogging from C++, as Microsoft documents it: a provider defined with
 * TRACELOGGING_DEFINE_PROVIDER, TraceLoggingValue overloaded by type (every
 * overload, decoded back with its name, types and value), the typed field
 * macros, attributes, activities, TraceLoggingWrite in a member function, a
 * template and a lambda, arguments left unevaluated when disabled, and
 * standard headers included before and after the ETW ones.
 *
 * Wire identity: tracelogging_twin_events.h is compiled as C
 * (compat/tracelogging_twin.c) and as C++ (here); every event's metadata,
 * provider traits and payload are byte-identical between the two records,
 * and each record decodes to the expected fields. The C++ PrimitiveTypesTest
 * metadata is also compared with what Windows wrote in primitive-types.etl
 * (when PETW_ETL_SAMPLES has it). A provider defined in each language is
 * used from the other. */
#include <map>
#include <string>

#include <TraceLoggingProvider.h>
#include <petw/petw.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <unistd.h>
#include <vector>

#include "tracelogging_twin.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)
#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
        if (va_ != vb_) {                                                                          \
            std::fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__,     \
                         __LINE__, #a, va_, #b, vb_);                                              \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

/* Defined in C++, used from C too (tracelogging_twin.c). */
TRACELOGGING_DEFINE_PROVIDER(g_twin, "Contoso.TraceLogging.Twin",
                             (0x6f0e2b7a, 0x1d3c, 0x5e4f, 0x90, 0x81, 0x72, 0x63, 0x54, 0x45, 0x36,
                              0x28),
                             TraceLoggingOptionGroup(0x4f50731a, 0x89cf, 0x4782, 0xb3, 0xe0, 0xdc,
                                                     0xe8, 0xc9, 0x4, 0x76, 0xba));
/* A C++-only provider, without a group. */
TRACELOGGING_DECLARE_PROVIDER(g_cpp);
TRACELOGGING_DEFINE_PROVIDER(g_cpp, "Contoso.TraceLogging.Cpp",
                             (0x0c0ffee0, 0xc0de, 0x4c22, 0x81, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
                              0x77));

namespace
{

int evaluated;
int side_effect()
{
    return ++evaluated;
}

void write_cpp_twin()
{
#define TWIN_SIDE TWIN_SIDE_CPP
#define TWIN_TRUE true
#include "tracelogging_twin_events.h"
#undef TWIN_SIDE
#undef TWIN_TRUE
}

enum color { red, green, blue };

struct counter {
    int count = 5;
    std::string label = "member";
    void log() const
    {
        TraceLoggingWrite(
            g_cpp, "Member", TraceLoggingValue(count), TraceLoggingValue(this->count, "this_count"),
            TraceLoggingValue(label.c_str(), "label"), TraceLoggingInt32(this->count * 2, "twice"));
    }
};

template <class T> void log_value(const T &v)
{
    TraceLoggingWrite(g_cpp, "Template", TraceLoggingValue(v, "v"), TraceLoggingLevel(4));
}

/* One record, copied out of the reader's callback. */
struct record {
    std::string name;
    uint64_t keyword = 0;
    uint8_t level = 0, opcode = 0, channel = 0;
    petw_guid activity{};
    std::vector<uint8_t> schema, traits, payload, related;
};

struct seen {
    petw_decoder *dec = nullptr;
    std::vector<record> records;
    int cpp_values = 0, member = 0, templ = 0, lambda = 0, disabled = 0, big = 0, twin = 0;
    std::map<std::string, int> twin_checked;
};

const petw_field *field(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->field_count; i++)
        if (ev->fields[i].name && !std::strcmp(ev->fields[i].name, name) &&
            ev->fields[i].parent == UINT32_MAX)
            return &ev->fields[i];
    std::fprintf(stderr, "no field '%s' in %s\n", name, ev->event_name);
    std::exit(1);
}

const petw_field *child(const petw_decoded_event *ev, const petw_field *f, uint32_t k)
{
    CHECK(k < f->count);
    return &ev->fields[f->first + k];
}

#define INT_IS(name, val) CHECK(field(ev, name)->v.i == (int64_t)(val))
#define UINT_IS(name, val) CHECK(field(ev, name)->v.u == (uint64_t)(val))
#define STR_IS(name, val) CHECK(!std::strcmp(field(ev, name)->v.s, val))
#define IN_IS(name, in, out)                                                                       \
    CHECK(field(ev, name)->in_type == (in) && field(ev, name)->out_type == (out))
#define KIND_IS(name, k) CHECK(field(ev, name)->kind == (k))

const uint8_t ptr_in = sizeof(void *) == 8 ? PETW_IN_HEXINT64 : PETW_IN_HEXINT32;

/* TraceLoggingValue's C++ overloads, one field each. */
void check_cpp_values(const petw_decoded_event *ev)
{
    CHECK_EQ(ev->top_count, 32);
    IN_IS("bool", PETW_IN_UINT8, PETW_OUT_BOOLEAN);
    KIND_IS("bool", PETW_VALUE_BOOL);
    UINT_IS("bool", 1);
    IN_IS("char", PETW_IN_UINT8, PETW_OUT_STRING);
    STR_IS("char", "c");
    IN_IS("wchar", PETW_IN_UINT16, PETW_OUT_STRING);
    STR_IS("wchar", "\xce\xa9");
    IN_IS("char16", PETW_IN_UINT16, PETW_OUT_STRING);
    STR_IS("char16", "\xc3\xa9");
    IN_IS("schar", PETW_IN_INT8, 0);
    INT_IS("schar", -5);
    IN_IS("uchar", PETW_IN_UINT8, 0);
    UINT_IS("uchar", 250);
    IN_IS("short", PETW_IN_INT16, 0);
    INT_IS("short", -300);
    IN_IS("ushort", PETW_IN_UINT16, 0);
    UINT_IS("ushort", 60000);
    IN_IS("int", PETW_IN_INT32, 0);
    INT_IS("int", -70000);
    IN_IS("uint", PETW_IN_UINT32, 0);
    UINT_IS("uint", 4000000000u);
    IN_IS("long", sizeof(long) == 8 ? PETW_IN_INT64 : PETW_IN_INT32, 0);
    INT_IS("long", -2000000000L);
    IN_IS("ulong", sizeof(long) == 8 ? PETW_IN_UINT64 : PETW_IN_UINT32, 0);
    UINT_IS("ulong", 4000000001ul);
    IN_IS("llong", PETW_IN_INT64, 0);
    INT_IS("llong", -6400000000ll);
    IN_IS("ullong", PETW_IN_UINT64, 0);
    UINT_IS("ullong", 18000000000000000000ull);
    IN_IS("float", PETW_IN_FLOAT, 0);
    CHECK(field(ev, "float")->v.f == 1.5);
    IN_IS("double", PETW_IN_DOUBLE, 0);
    CHECK(field(ev, "double")->v.f == -2.25);
    IN_IS("cstr", PETW_IN_ANSISTRING, 0);
    STR_IS("cstr", "narrow");
    STR_IS("buffer", "in a buffer");
    STR_IS("std_string", "from std::string");
    STR_IS("null_str", "");
    IN_IS("wstr", PETW_IN_UNICODESTRING, 0);
    STR_IS("wstr", "wide \xf0\x9f\x98\x80");
    STR_IS("null_wstr", "");
    IN_IS("u16str", PETW_IN_UNICODESTRING, 0);
    STR_IS("u16str", "utf16 \xf0\x9f\x98\x80 \xc3\xa9");
    IN_IS("guid", PETW_IN_GUID, 0);
    CHECK(field(ev, "guid")->v.guid.data1 == 0x11223344 && field(ev, "guid")->v.guid.data4[7] == 8);
    IN_IS("ft", PETW_IN_FILETIME, 0);
    INT_IS("ft", 133000000000000000ll);
    IN_IS("st", PETW_IN_SYSTEMTIME, 0);
    CHECK(field(ev, "st")->v.st[0] == 2024 && field(ev, "st")->v.st[7] == 999);
    IN_IS("vptr", ptr_in, 0);
    UINT_IS("vptr", 0x1234);
    IN_IS("iptr", ptr_in, 0);
    UINT_IS("iptr", 0x5678);
    IN_IS("color", PETW_IN_INT32, 0);
    INT_IS("color", 2);
    IN_IS("local", PETW_IN_INT32, 0); /* default name: the argument's text */
    INT_IS("local", 77);
    IN_IS("char32", PETW_IN_UINT32, 0); /* promoted, as C++ does */
    UINT_IS("char32", 0x1F600);
#if defined(__cpp_char8_t)
    IN_IS("u8str", PETW_IN_ANSISTRING, PETW_OUT_UTF8); /* const char8_t *: UTF-8 */
#else
    IN_IS("u8str", PETW_IN_ANSISTRING, 0);
#endif
    STR_IS("u8str", "utf8 \xc3\xa9");
}

/* The twin events: the same checks for the C and the C++ record. */
void check_twin(const petw_decoded_event *ev, const std::string &n)
{
    if (n == "Scalars") {
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
        INT_IS("one", 1);
        UINT_IS("hex32", 0xdeadbeef);
        IN_IS("hex32", PETW_IN_HEXINT32, 0);
        UINT_IS("hex64", 0x0123456789abcdefull);
        UINT_IS("hex8", 0xab);
        IN_IS("hex8", PETW_IN_UINT8, PETW_OUT_HEX);
        CHECK(field(ev, "f32")->v.f == 1.5);
        CHECK(field(ev, "f64")->v.f == -2.25);
        KIND_IS("bool32", PETW_VALUE_BOOL);
        UINT_IS("bool32", 1);
        IN_IS("boolean", PETW_IN_UINT8, PETW_OUT_BOOLEAN);
        STR_IS("ch", "Z");
        STR_IS("wch", "\xce\xa9");
        STR_IS("ip", "127.0.0.1");
        UINT_IS("port", 8080);
        UINT_IS("ptr", 0x1234);
        IN_IS("ptr", ptr_in, 0);
        IN_IS("pid", PETW_IN_UINT32, PETW_OUT_PID);
        UINT_IS("tid", 43);
        IN_IS("winerr", PETW_IN_UINT32, PETW_OUT_WIN32ERROR);
        UINT_IS("hr", 0x80004005u);
        IN_IS("hr", PETW_IN_INT32, PETW_OUT_HRESULT);
        UINT_IS("nt", 0xC0000005u);
    } else if (n == "Strings") {
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
              !std::memcmp(b->v.bin.data, "\1\2\3\4\5", 5));
        CHECK(field(ev, "guid")->v.guid.data1 == 0x11223344);
        INT_IS("ft", 133000000000000000ll);
        CHECK(field(ev, "st")->v.st[3] == 29);
    } else if (n == "Arrays") {
        const petw_field *a = field(ev, "varr");
        CHECK(a->kind == PETW_VALUE_ARRAY && a->count == 3);
        CHECK(child(ev, a, 0)->v.i == -1 && child(ev, a, 2)->v.i == 3);
        a = field(ev, "farr");
        CHECK(a->count == 4 && child(ev, a, 3)->v.u == 0xdd);
        a = field(ev, "darr");
        CHECK(a->count == 2 && child(ev, a, 1)->v.f == 0.25);
        a = field(ev, "garr");
        CHECK(a->count == 2 && child(ev, a, 1)->v.guid.data1 == 0xffffffff);
        CHECK(field(ev, "empty")->count == 0);
        const petw_field *o = field(ev, "outer");
        CHECK(o->kind == PETW_VALUE_STRUCT && o->count == 2);
        CHECK(!std::strcmp(child(ev, o, 0)->name, "a") && child(ev, o, 0)->v.i == 7);
        CHECK(!std::strcmp(child(ev, child(ev, o, 1), 0)->v.s, "deep"));
        INT_IS("after", 9);
    } else if (n == "Values") {
        INT_IS("vint", -3);
        UINT_IS("vu64", 1ull << 40);
        CHECK(field(ev, "vdbl")->v.f == 3.5);
        STR_IS("vstr", "value");
        STR_IS("vwide", "w\xc3\xa9");
        IN_IS("vchar", PETW_IN_UINT8, PETW_OUT_STRING);
        STR_IS("vchar", "q");
        IN_IS("vbool", PETW_IN_UINT8, PETW_OUT_BOOLEAN);
        UINT_IS("vbool", 1);
        KIND_IS("vguid", PETW_VALUE_GUID);
        KIND_IS("vft", PETW_VALUE_FILETIME);
        KIND_IS("vst", PETW_VALUE_SYSTEMTIME);
        CHECK(field(ev, "vflt")->v.f == 1.25);
        INT_IS("vshort", -2);
        UINT_IS("vushort", 65000);
        INT_IS("vschar", -100);
        UINT_IS("vuchar", 200);
        INT_IS("vll", -7);
        UINT_IS("vuint", 7);
        INT_IS("vi64", -9);
        INT_IS("one", 1);
    } else if (n == "More") {
        CHECK_EQ(ev->top_count, 18);
        CHECK(field(ev, "wca")->count == (sizeof(wchar_t) == 4 ? 4u : 3u));
        STR_IS("s16", "utf");
        STR_IS("cs16", "ut");
        STR_IS("astr", "ansi!");
        CHECK(field(ev, "ip6")->out_type == PETW_OUT_IPV6 &&
              field(ev, "ip6")->kind == PETW_VALUE_STRING);
        CHECK(field(ev, "sid")->in_type == PETW_IN_SID && field(ev, "sid")->v.bin.size == 12);
        CHECK(field(ev, "custom")->v.bin.size == 3);
        INT_IS("pf", 0x11223344);
        CHECK(field(ev, "rect")->count == 2);
        INT_IS("last", 5);
    } else if (n == "Empty") {
        CHECK_EQ(ev->top_count, 0);
    } else if (n == "Attrs" || n.compare(0, 3, "Tag") == 0 || n == "Activity") {
        CHECK_EQ(ev->top_count, 1);
        CHECK(field(ev, "x")->kind == PETW_VALUE_INT);
    } else if (n == "PrimitiveTypesTest") {
        STR_IS("string_type", "Mercury");
        INT_IS("int16_type", -51);
        UINT_IS("uint64_type", 4);
    } else {
        std::fprintf(stderr, "unexpected twin event %s\n", n.c_str());
        std::exit(1);
    }
}

std::vector<uint8_t> ext_item(const petw_event_record *r, uint16_t type)
{
    for (int i = 0; i < r->extended_data_count; i++)
        if (r->extended_data[i].ext_type == type) {
            const uint8_t *p = (const uint8_t *)(uintptr_t)r->extended_data[i].data_ptr;
            return std::vector<uint8_t>(p, p + r->extended_data[i].data_size);
        }
    return std::vector<uint8_t>();
}

void on_event(petw_event_record *r, void *ctx)
{
    seen *s = static_cast<seen *>(ctx);
    const petw_decoded_event *ev;
    CHECK_EQ(petw_decode(s->dec, r, &ev), 0);
    if (!ev->has_schema || (r->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER))
        return; /* the session's header records */
    const petw_event_descriptor &d = r->header.descriptor;
    record rec;
    rec.name = ev->event_name;
    rec.keyword = d.keyword;
    rec.level = d.level;
    rec.opcode = d.opcode;
    rec.channel = d.channel;
    rec.activity = r->header.activity_id;
    rec.schema = ext_item(r, PETW_EXT_TYPE_EVENT_SCHEMA_TL);
    rec.traits = ext_item(r, PETW_EXT_TYPE_PROV_TRAITS);
    rec.related = ext_item(r, PETW_EXT_TYPE_RELATED_ACTIVITYID);
    const uint8_t *u = static_cast<const uint8_t *>(r->user_data);
    rec.payload.assign(u, u + r->user_data_length);
    CHECK_EQ(d.channel, WINEVENT_CHANNEL_TRACELOGGING);
    if (d.keyword & (TWIN_SIDE_C | TWIN_SIDE_CPP)) {
        check_twin(ev, rec.name);
        s->twin_checked[rec.name]++;
        s->twin++;
    } else if (rec.name == "CppValues") {
        check_cpp_values(ev);
        s->cpp_values++;
    } else if (rec.name == "Member") {
        INT_IS("count", 5);
        INT_IS("this_count", 5);
        STR_IS("label", "member");
        INT_IS("twice", 10);
        s->member++;
    } else if (rec.name == "Template") {
        const petw_field *v = field(ev, "v");
        CHECK(d.level == 4);
        if (v->in_type == PETW_IN_DOUBLE)
            CHECK(v->v.f == 0.5);
        else if (v->in_type == PETW_IN_ANSISTRING)
            CHECK(!std::strcmp(v->v.s, "tmpl"));
        else if (v->in_type == PETW_IN_UNICODESTRING)
            CHECK(!std::strcmp(v->v.s, "wtmpl"));
        else
            CHECK(v->in_type == PETW_IN_GUID);
        s->templ++;
    } else if (rec.name == "Lambda") {
        INT_IS("arg", 11);
        UINT_IS("size", 3);
        s->lambda++;
    } else if (rec.name == "Disabled") {
        s->disabled++;
    } else if (rec.name == "Big") {
        s->big++;
    } else {
        std::fprintf(stderr, "unexpected event %s\n", rec.name.c_str());
        std::exit(1);
    }
    s->records.push_back(rec);
}

const record *find(const seen &s, const std::string &name, uint64_t side)
{
    const record *found = nullptr;
    for (const record &r : s.records)
        if (r.name == name && (r.keyword & side)) {
            CHECK(found == nullptr);
            found = &r;
        }
    CHECK(found != nullptr);
    return found;
}

/* The schema item of the first PrimitiveTypesTest in a Windows file. */
struct sample_seen {
    petw_decoder *dec;
    std::vector<uint8_t> schema, traits;
};

void on_sample(petw_event_record *r, void *ctx)
{
    sample_seen *s = static_cast<sample_seen *>(ctx);
    const petw_decoded_event *ev;
    if (petw_decode(s->dec, r, &ev) != 0 || !ev->has_schema || !ev->event_name)
        return;
    if (s->schema.empty() && !std::strcmp(ev->event_name, "PrimitiveTypesTest")) {
        s->schema = ext_item(r, PETW_EXT_TYPE_EVENT_SCHEMA_TL);
        s->traits = ext_item(r, PETW_EXT_TYPE_PROV_TRAITS);
    }
}

std::string temp_path(const char *name)
{
    const char *d = std::getenv("TMPDIR");
    char buf[512];
    std::snprintf(buf, sizeof(buf), "%s/petw-%d-%s", d && d[0] ? d : "/tmp", (int)getpid(), name);
    return buf;
}

} // namespace

int main()
{
    std::string path = temp_path("tracelogging_cpp.etl");

    CHECK(SUCCEEDED(TraceLoggingRegister(g_twin)));
    CHECK(SUCCEEDED(TraceLoggingRegister(g_twin_solar)));
    CHECK(SUCCEEDED(TraceLoggingRegister(g_cpp)));
    CHECK_EQ(TraceLoggingRegister(g_cpp), E_INVALIDARG);
    CHECK(TraceLoggingProviderId(g_cpp)->Data1 == 0x0c0ffee0);
    CHECK(g_twin->has_group && g_twin->group.Data1 == 0x4f50731a && !g_cpp->has_group);

    /* Before any session: disabled, arguments not evaluated. */
    CHECK(!TraceLoggingProviderEnabled(g_cpp, 0, 0));
    TraceLoggingWrite(g_cpp, "Disabled", TraceLoggingValue(side_effect(), "x"),
                      TraceLoggingInt32(side_effect(), "y"));
    CHECK_EQ(evaluated, 0);

    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-tracelogging-cpp";
    c.file_path = path.c_str();
    petw_session_handle sh;
    CHECK_EQ(petw_session_start(&c, &sh), 0);
    for (TraceLoggingHProvider p : {g_twin, g_twin_solar, g_cpp})
        CHECK_EQ(petw_session_enable_provider(
                     sh, reinterpret_cast<const petw_guid *>(TraceLoggingProviderId(p)), 0, 0, 0),
                 0);
    CHECK(TraceLoggingProviderEnabled(g_cpp, WINEVENT_LEVEL_VERBOSE, 0));

    /* The same events from C, then from C++. */
    twin_write_c();
    write_cpp_twin();

    GUID g = {0x11223344, 0x5566, 0x7788, {1, 2, 3, 4, 5, 6, 7, 8}};
    FILETIME ft = {(DWORD)(133000000000000000ll & 0xffffffff), (DWORD)(133000000000000000ll >> 32)};
    SYSTEMTIME st = {2024, 2, 4, 29, 23, 59, 58, 999};
    char buffer[32];
    std::strcpy(buffer, "in a buffer");
    std::string text = "from std::string";
    const char *null_str = nullptr;
    const wchar_t *null_wstr = nullptr;
    int local = 77;
    color c2 = blue;
#if defined(__cpp_char8_t)
    const char8_t *u8 = u8"utf8 \u00e9";
#else
    const char *u8 = "utf8 \u00e9"; /* not a distinct type before C++20 */
#endif
    TraceLoggingWrite(
        g_cpp, "CppValues", TraceLoggingValue(true, "bool"), TraceLoggingValue('c', "char"),
        TraceLoggingValue(L'\u03a9', "wchar"), TraceLoggingValue(u'\u00e9', "char16"),
        TraceLoggingValue((signed char)-5, "schar"), TraceLoggingValue((unsigned char)250, "uchar"),
        TraceLoggingValue((short)-300, "short"), TraceLoggingValue((unsigned short)60000, "ushort"),
        TraceLoggingValue(-70000, "int"), TraceLoggingValue(4000000000u, "uint"),
        TraceLoggingValue(-2000000000L, "long"), TraceLoggingValue(4000000001ul, "ulong"),
        TraceLoggingValue(-6400000000ll, "llong"),
        TraceLoggingValue(18000000000000000000ull, "ullong"), TraceLoggingValue(1.5f, "float"),
        TraceLoggingValue(-2.25, "double"), TraceLoggingValue("narrow", "cstr"),
        TraceLoggingValue(buffer, "buffer"), TraceLoggingValue(text.c_str(), "std_string"),
        TraceLoggingValue(null_str, "null_str"), TraceLoggingValue(L"wide \U0001F600", "wstr"),
        TraceLoggingValue(null_wstr, "null_wstr"),
        TraceLoggingValue(u"utf16 \U0001F600 \u00e9", "u16str"), TraceLoggingValue(g, "guid"),
        TraceLoggingValue(ft, "ft"), TraceLoggingValue(st, "st"),
        TraceLoggingValue((const void *)0x1234, "vptr"), TraceLoggingValue((int *)0x5678, "iptr"),
        TraceLoggingValue(c2, "color"), TraceLoggingValue(local),
        TraceLoggingValue(U'\U0001F600', "char32"), TraceLoggingValue(u8, "u8str"),
        TraceLoggingKeyword(0x100));

    counter().log();
    log_value(0.5);
    log_value("tmpl");
    log_value(L"wtmpl");
    log_value(g);
    std::vector<int> v{1, 2, 3};
    auto lambda = [&](int arg) {
        TraceLoggingWrite(g_cpp, "Lambda", TraceLoggingValue(arg, "arg"),
                          TraceLoggingValue(v.size(), "size"));
    };
    lambda(11);
    /* Over 64 KB of UTF-16 text: refused, nothing partial written. */
    std::u16string huge(40000, u'x');
    TraceLoggingWrite(g_cpp, "Big", TraceLoggingValue(huge.c_str(), "w"));

    petw_session_stats stats;
    CHECK_EQ(petw_session_stop(sh, &stats), 0);
    CHECK_EQ(stats.events_lost, 0);
    TraceLoggingUnregister(g_twin);
    TraceLoggingUnregister(g_twin_solar);
    TraceLoggingUnregister(g_cpp);
    TraceLoggingUnregister(g_cpp); /* harmless */

    seen s;
    CHECK_EQ(petw_decoder_new(&s.dec), 0);
    petw_trace_config tc;
    petw_trace_config_init(&tc);
    tc.on_event = on_event;
    tc.context = &s;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path.c_str(), &tc, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    petw_decoder_free(s.dec);

    CHECK_EQ(s.cpp_values, 1);
    CHECK_EQ(s.member, 1);
    CHECK_EQ(s.templ, 4);
    CHECK_EQ(s.lambda, 1);
    CHECK_EQ(s.disabled, 0);
    CHECK_EQ(s.big, 0);

    /* Each twin event: one record per side, byte-identical but for the
     * side's keyword bit. */
    const char *twins[] = {"Scalars", "Strings", "Arrays",   "Tag1",
                           "Tag2",    "Tag3",    "Tag4",     "Values",
                           "Empty",   "Attrs",   "Activity", "PrimitiveTypesTest",
                           "More"};
    CHECK_EQ(s.twin_checked.size(), sizeof(twins) / sizeof(twins[0]));
    size_t bytes = 0;
    for (const char *name : twins) {
        CHECK_EQ(s.twin_checked[name], 2);
        const record *rc = find(s, name, TWIN_SIDE_C), *rp = find(s, name, TWIN_SIDE_CPP);
        CHECK(!rc->schema.empty() && !rc->traits.empty());
        if (rc->schema != rp->schema || rc->traits != rp->traits || rc->payload != rp->payload) {
            std::fprintf(stderr, "%s: C and C++ records differ\n", name);
            return 1;
        }
        CHECK(rc->related == rp->related);
        CHECK(std::memcmp(&rc->activity, &rp->activity, sizeof(rc->activity)) == 0);
        CHECK_EQ(rc->keyword ^ rp->keyword, TWIN_SIDE_C | TWIN_SIDE_CPP);
        CHECK(rc->level == rp->level && rc->opcode == rp->opcode && rc->channel == rp->channel);
        bytes += rc->schema.size() + rc->payload.size();
    }
    const record *attrs = find(s, "Attrs", TWIN_SIDE_CPP);
    CHECK(attrs->level == WINEVENT_LEVEL_ERROR && attrs->opcode == WINEVENT_OPCODE_START);
    CHECK(attrs->keyword == (0x5 | TWIN_SIDE_CPP));
    CHECK(find(s, "Activity", TWIN_SIDE_CPP)->activity.data1 == 0xac71);
    CHECK(find(s, "Activity", TWIN_SIDE_CPP)->related.size() == 16);
    /* Tag bytes follow the size: 1 to 4 of them, 0x80 = more. */
    CHECK(find(s, "Tag1", TWIN_SIDE_CPP)->schema[2] == 0x7F);
    CHECK(find(s, "Tag2", TWIN_SIDE_CPP)->schema[3] == 0x01);
    CHECK(find(s, "Tag3", TWIN_SIDE_CPP)->schema[4] == 0x01 &&
          find(s, "Tag3", TWIN_SIDE_CPP)->schema[2] == 0x80);
    CHECK(find(s, "Tag4", TWIN_SIDE_CPP)->schema[5] == 0x01);
    std::printf("tracelogging_cpp: %zu events written from C and C++ byte-identical "
                "(%zu bytes of metadata and payload each)\n",
                sizeof(twins) / sizeof(twins[0]), bytes);

    /* PrimitiveTypesTest from C++ against Windows' own. */
    const char *dir = std::getenv("PETW_ETL_SAMPLES");
    std::string sample = std::string(dir ? dir : "") + "/primitive-types.etl";
    sample_seen w;
    w.dec = nullptr;
    CHECK_EQ(petw_decoder_new(&w.dec), 0);
    tc.on_event = on_sample;
    tc.context = &w;
    if (dir && petw_trace_open(sample.c_str(), &tc, &t) == 0) {
        CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
        petw_trace_close(t);
        const record *ours = find(s, "PrimitiveTypesTest", TWIN_SIDE_CPP);
        CHECK(!w.schema.empty());
        CHECK(w.schema == ours->schema);
        CHECK(w.traits == ours->traits);
        std::printf("tracelogging_cpp: PrimitiveTypesTest metadata identical to Windows' "
                    "(%zu bytes)\n",
                    w.schema.size());
    } else {
        std::printf("tracelogging_cpp: no primitive-types.etl, Windows comparison skipped\n");
    }
    petw_decoder_free(w.dec);
    unlink(path.c_str());
    std::cout << "tracelogging_cpp: every TraceLoggingValue overload decoded exactly" << std::endl;
    return 0;
}
