/* SPDX-License-Identifier: MIT */
/* The TraceLogging decoder on hand-built events: every in-type and the
 * out-types that change a value's meaning, strings (a surrogate pair
 * included), counted strings, binary, SID, constant and variable arrays,
 * nested structs; an event without a schema decodes as "data"; malformed
 * schemas and short payloads are refused with PETW_ECORRUPT. */
#include <math.h>

#include "test_util.h"

typedef struct builder {
    uint8_t meta[2048];
    size_t mn;
    uint8_t data[4096];
    size_t dn;
} builder;

static void meta_begin(builder *b, const char *event)
{
    memset(b, 0, sizeof(*b));
    b->mn = 2;
    b->meta[b->mn++] = 0; /* no tags */
    memcpy(b->meta + b->mn, event, strlen(event) + 1);
    b->mn += strlen(event) + 1;
}

static void meta_field(builder *b, const char *name, uint8_t in, int out, int count)
{
    memcpy(b->meta + b->mn, name, strlen(name) + 1);
    b->mn += strlen(name) + 1;
    b->meta[b->mn++] = (uint8_t)(in | (out >= 0 ? 0x80 : 0));
    if (out >= 0)
        b->meta[b->mn++] = (uint8_t)out;
    if (count >= 0) {
        petw__test_wr16(b->meta + b->mn, (uint16_t)count);
        b->mn += 2;
    }
}

static void put(builder *b, const void *p, size_t n)
{
    memcpy(b->data + b->dn, p, n);
    b->dn += n;
}

static int decode(petw_decoder *dec, builder *b, const petw_decoded_event **ev)
{
    petw__test_wr16(b->meta, (uint16_t)b->mn);
    static uint8_t traits[] = {0x09, 0x00, 'p', 'r', 'o', 'v', '1', 0, 0};
    petw_extended_item x[2] = {
        {0, PETW_EXT_TYPE_PROV_TRAITS, 0, 8, (uint64_t)(uintptr_t)traits},
        {0, PETW_EXT_TYPE_EVENT_SCHEMA_TL, 0, (uint16_t)b->mn, (uint64_t)(uintptr_t)b->meta}};
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.flags = PETW_EVENT_HEADER_FLAG_64_BIT_HEADER | PETW_EVENT_HEADER_FLAG_EXTENDED_INFO;
    r.extended_data_count = 2;
    r.extended_data = x;
    r.user_data = b->data;
    r.user_data_length = (uint16_t)b->dn;
    return petw_decode(dec, &r, ev);
}

static const petw_field *top(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    fprintf(stderr, "no field %s\n", name);
    exit(1);
}

int main(void)
{
    petw_decoder *dec;
    CHECK_EQ(petw_decoder_new(&dec), 0);
    builder b;
    const petw_decoded_event *ev;

    /* 1. Scalars and out-types. */
    meta_begin(&b, "Scalars");
    int8_t i8 = -5;
    uint8_t u8 = 200, b8 = 1, ch = 'Q';
    int16_t i16 = -30000;
    uint16_t u16 = 60000, wch = 0x00e9, port = 0x5000;
    int32_t i32 = -2000000000, hr = (int32_t)0x80070005;
    uint32_t u32 = 4000000000u, hex32 = 0xdeadbeef, ip = 0x0100007f, bool32 = 1;
    int64_t i64 = INT64_MIN;
    uint64_t u64 = UINT64_MAX, hex64 = 0x0123456789abcdefull, ft = 132756731728578510ull,
             ptr = 0x7ff612340000ull;
    float fl = 1.5f;
    double db = -2.25;
    petw_guid g = {0x0ad614c4, 0x0ef4, 0x4225, {0x80, 0x13, 0xf4, 0x4f, 0x37, 0xcb, 0x03, 0x97}};
    uint16_t st[8] = {2024, 2, 4, 29, 13, 14, 15, 678};
    meta_field(&b, "i8", PETW_IN_INT8, -1, -1), put(&b, &i8, 1);
    meta_field(&b, "u8", PETW_IN_UINT8, -1, -1), put(&b, &u8, 1);
    meta_field(&b, "b8", PETW_IN_UINT8, PETW_OUT_BOOLEAN, -1), put(&b, &b8, 1);
    meta_field(&b, "ch", PETW_IN_UINT8, PETW_OUT_STRING, -1), put(&b, &ch, 1);
    meta_field(&b, "i16", PETW_IN_INT16, -1, -1), put(&b, &i16, 2);
    meta_field(&b, "u16", PETW_IN_UINT16, -1, -1), put(&b, &u16, 2);
    meta_field(&b, "wch", PETW_IN_UINT16, PETW_OUT_STRING, -1), put(&b, &wch, 2);
    meta_field(&b, "port", PETW_IN_UINT16, PETW_OUT_PORT, -1), put(&b, &port, 2);
    meta_field(&b, "i32", PETW_IN_INT32, -1, -1), put(&b, &i32, 4);
    meta_field(&b, "hr", PETW_IN_INT32, PETW_OUT_HRESULT, -1), put(&b, &hr, 4);
    meta_field(&b, "u32", PETW_IN_UINT32, -1, -1), put(&b, &u32, 4);
    meta_field(&b, "hex32", PETW_IN_HEXINT32, -1, -1), put(&b, &hex32, 4);
    meta_field(&b, "ip", PETW_IN_UINT32, PETW_OUT_IPV4, -1), put(&b, &ip, 4);
    meta_field(&b, "bool32", PETW_IN_BOOL32, -1, -1), put(&b, &bool32, 4);
    meta_field(&b, "i64", PETW_IN_INT64, -1, -1), put(&b, &i64, 8);
    meta_field(&b, "u64", PETW_IN_UINT64, -1, -1), put(&b, &u64, 8);
    meta_field(&b, "hex64", PETW_IN_HEXINT64, -1, -1), put(&b, &hex64, 8);
    meta_field(&b, "ptr", PETW_IN_POINTER, -1, -1), put(&b, &ptr, 8);
    meta_field(&b, "fl", PETW_IN_FLOAT, -1, -1), put(&b, &fl, 4);
    meta_field(&b, "db", PETW_IN_DOUBLE, -1, -1), put(&b, &db, 8);
    meta_field(&b, "g", PETW_IN_GUID, -1, -1), put(&b, &g, 16);
    meta_field(&b, "ft", PETW_IN_FILETIME, -1, -1), put(&b, &ft, 8);
    meta_field(&b, "st", PETW_IN_SYSTEMTIME, -1, -1), put(&b, st, 16);
    CHECK_EQ(decode(dec, &b, &ev), 0);
    CHECK(!strcmp(ev->provider_name, "prov1") && !strcmp(ev->event_name, "Scalars"));
    CHECK_EQ(ev->top_count, 23);
    CHECK(top(ev, "i8")->kind == PETW_VALUE_INT && top(ev, "i8")->v.i == -5);
    CHECK(top(ev, "u8")->kind == PETW_VALUE_UINT && top(ev, "u8")->v.u == 200);
    CHECK(top(ev, "b8")->kind == PETW_VALUE_BOOL && top(ev, "b8")->v.u == 1);
    CHECK(top(ev, "ch")->kind == PETW_VALUE_STRING && !strcmp(top(ev, "ch")->v.s, "Q"));
    CHECK_EQ(top(ev, "i16")->v.i, -30000);
    CHECK_EQ(top(ev, "u16")->v.u, 60000);
    CHECK(!strcmp(top(ev, "wch")->v.s, "\xc3\xa9")); /* é */
    CHECK_EQ(top(ev, "port")->v.u, 80);
    CHECK_EQ(top(ev, "i32")->v.i, -2000000000);
    CHECK(top(ev, "hr")->kind == PETW_VALUE_HEX && top(ev, "hr")->v.u == 0x80070005u);
    CHECK_EQ(top(ev, "u32")->v.u, 4000000000u);
    CHECK(top(ev, "hex32")->kind == PETW_VALUE_HEX && top(ev, "hex32")->v.u == 0xdeadbeef);
    CHECK(!strcmp(top(ev, "ip")->v.s, "127.0.0.1"));
    CHECK(top(ev, "bool32")->kind == PETW_VALUE_BOOL);
    CHECK(top(ev, "i64")->v.i == INT64_MIN);
    CHECK(top(ev, "u64")->v.u == UINT64_MAX);
    CHECK(top(ev, "hex64")->kind == PETW_VALUE_HEX && top(ev, "hex64")->v.u == hex64);
    CHECK(top(ev, "ptr")->kind == PETW_VALUE_HEX && top(ev, "ptr")->v.u == ptr);
    CHECK(top(ev, "fl")->kind == PETW_VALUE_FLOAT && top(ev, "fl")->v.f == 1.5);
    CHECK(top(ev, "db")->v.f == -2.25);
    CHECK(petw_guid_equal(&top(ev, "g")->v.guid, &g));
    CHECK(top(ev, "ft")->kind == PETW_VALUE_FILETIME && top(ev, "ft")->v.i == (int64_t)ft);
    CHECK(top(ev, "st")->kind == PETW_VALUE_SYSTEMTIME && top(ev, "st")->v.st[7] == 678);

    /* 2. Strings and binaries. */
    meta_begin(&b, "Strings");
    meta_field(&b, "ansi", PETW_IN_ANSISTRING, -1, -1), put(&b, "hi", 3);
    const uint8_t uni[] = {'h', 0, 0xac, 0x20, 0x3d, 0xd8, 0x00, 0xde, 0, 0}; /* h € 😀 */
    meta_field(&b, "uni", PETW_IN_UNICODESTRING, -1, -1), put(&b, uni, sizeof(uni));
    const uint8_t counted[] = {4, 0, 'o', 0, 'k', 0};
    meta_field(&b, "counted", PETW_IN_COUNTEDSTRING, -1, -1), put(&b, counted, sizeof(counted));
    const uint8_t cansi[] = {3, 0, 'a', 'b', 'c'};
    meta_field(&b, "cansi", PETW_IN_COUNTEDANSISTRING, -1, -1), put(&b, cansi, sizeof(cansi));
    const uint8_t bin[] = {3, 0, 0xde, 0xad, 0x01};
    meta_field(&b, "bin", PETW_IN_BINARY, -1, -1), put(&b, bin, sizeof(bin));
    const uint8_t sid[] = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0}; /* S-1-5-18 */
    meta_field(&b, "sid", PETW_IN_SID, -1, -1), put(&b, sid, sizeof(sid));
    CHECK_EQ(decode(dec, &b, &ev), 0);
    CHECK(!strcmp(top(ev, "ansi")->v.s, "hi"));
    CHECK(!strcmp(top(ev, "uni")->v.s, "h\xe2\x82\xac\xf0\x9f\x98\x80"));
    CHECK(!strcmp(top(ev, "counted")->v.s, "ok"));
    CHECK(!strcmp(top(ev, "cansi")->v.s, "abc"));
    CHECK(top(ev, "bin")->kind == PETW_VALUE_BINARY && top(ev, "bin")->v.bin.size == 3 &&
          top(ev, "bin")->v.bin.data[2] == 0x01);
    CHECK_EQ(top(ev, "sid")->v.bin.size, 12);

    /* 3. Arrays and nested structs. */
    meta_begin(&b, "Shapes");
    int32_t fixed[3] = {7, -8, 9};
    meta_field(&b, "fixed", PETW_IN_INT32 | 0x20, -1, 3), put(&b, fixed, sizeof(fixed));
    uint16_t n4 = 4, var[4] = {1, 2, 3, 4};
    meta_field(&b, "var", PETW_IN_UINT16 | 0x40, -1, -1), put(&b, &n4, 2),
        put(&b, var, sizeof(var));
    uint16_t n2 = 2;
    meta_field(&b, "names", PETW_IN_ANSISTRING | 0x40, -1, -1), put(&b, &n2, 2),
        put(&b, "a\0bc", 5);
    meta_field(&b, "s", PETW_IN_STRUCT, 3, -1); /* s { x, inner { y, z }, w } */
    meta_field(&b, "x", PETW_IN_INT32, -1, -1), put(&b, &i32, 4);
    meta_field(&b, "inner", PETW_IN_STRUCT, 2, -1);
    meta_field(&b, "y", PETW_IN_UINT8, -1, -1), put(&b, &u8, 1);
    meta_field(&b, "z", PETW_IN_ANSISTRING, -1, -1), put(&b, "zz", 3);
    meta_field(&b, "w", PETW_IN_DOUBLE, -1, -1), put(&b, &db, 8);
    meta_field(&b, "pts", PETW_IN_STRUCT | 0x40, 2, -1); /* array of struct { px, py } */
    meta_field(&b, "px", PETW_IN_INT16, -1, -1);
    meta_field(&b, "py", PETW_IN_INT16, -1, -1);
    int16_t pts[4] = {1, 2, 3, 4};
    put(&b, &n2, 2), put(&b, pts, sizeof(pts));
    meta_field(&b, "after", PETW_IN_UINT8, PETW_OUT_STRING, -1), put(&b, &ch, 1);
    CHECK_EQ(decode(dec, &b, &ev), 0);
    CHECK_EQ(ev->top_count, 6);
    const petw_field *f = top(ev, "fixed");
    CHECK(f->kind == PETW_VALUE_ARRAY && f->count == 3 && ev->fields[f->first + 1].v.i == -8);
    f = top(ev, "var");
    CHECK(f->count == 4 && ev->fields[f->first + 3].v.u == 4);
    f = top(ev, "names");
    CHECK(f->count == 2 && !strcmp(ev->fields[f->first + 1].v.s, "bc"));
    f = top(ev, "s");
    CHECK(f->kind == PETW_VALUE_STRUCT && f->count == 3);
    const petw_field *inner = &ev->fields[f->first + 1];
    CHECK(!strcmp(inner->name, "inner") && inner->kind == PETW_VALUE_STRUCT && inner->count == 2);
    CHECK(!strcmp(ev->fields[inner->first + 1].v.s, "zz"));
    CHECK(ev->fields[f->first + 2].v.f == -2.25);
    f = top(ev, "pts");
    CHECK(f->kind == PETW_VALUE_ARRAY && f->count == 2);
    const petw_field *p1 = &ev->fields[f->first + 1];
    CHECK(p1->kind == PETW_VALUE_STRUCT && p1->count == 2 && ev->fields[p1->first + 1].v.i == 4);
    CHECK(!strcmp(top(ev, "after")->v.s, "Q"));

    /* 4. No schema: one binary field. */
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    uint8_t raw[5] = {1, 2, 3, 4, 5};
    r.user_data = raw;
    r.user_data_length = 5;
    CHECK_EQ(petw_decode(dec, &r, &ev), 0);
    CHECK(!ev->has_schema && ev->top_count == 1 && !strcmp(ev->fields[0].name, "data") &&
          ev->fields[0].v.bin.size == 5);

    /* 5. Malformed. */
    meta_begin(&b, "Short");
    meta_field(&b, "x", PETW_IN_INT64, -1, -1), put(&b, &i32, 4); /* 4 of 8 bytes */
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    meta_begin(&b, "NoNul");
    meta_field(&b, "s", PETW_IN_ANSISTRING, -1, -1), put(&b, "abc", 3);
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    meta_begin(&b, "BadType");
    meta_field(&b, "x", 30, -1, -1), put(&b, &i32, 4);
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    meta_begin(&b, "StructPastEnd");
    meta_field(&b, "s", PETW_IN_STRUCT, 5, -1);
    meta_field(&b, "x", PETW_IN_INT32, -1, -1), put(&b, &i32, 4);
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    meta_begin(&b, "Deep");
    for (int i = 0; i < 40; i++)
        meta_field(&b, "d", PETW_IN_STRUCT, 1, -1);
    meta_field(&b, "x", PETW_IN_UINT8, -1, -1), put(&b, &u8, 1);
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    meta_begin(&b, "HugeArray");
    uint16_t big = 65535;
    meta_field(&b, "a", PETW_IN_INT64 | 0x40, -1, -1), put(&b, &big, 2);
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    /* A schema whose size field claims more than the item holds. */
    meta_begin(&b, "Lies");
    meta_field(&b, "x", PETW_IN_UINT8, -1, -1), put(&b, &u8, 1);
    petw__test_wr16(b.meta, (uint16_t)(b.mn + 10));
    static uint8_t traits[] = {0x09, 0x00, 'p', 'r', 'o', 'v', '1', 0, 0};
    petw_extended_item x[2] = {
        {0, PETW_EXT_TYPE_PROV_TRAITS, 0, 8, (uint64_t)(uintptr_t)traits},
        {0, PETW_EXT_TYPE_EVENT_SCHEMA_TL, 0, (uint16_t)b.mn, (uint64_t)(uintptr_t)b.meta}};
    r.extended_data_count = 2;
    r.extended_data = x;
    r.user_data = b.data;
    r.user_data_length = (uint16_t)b.dn;
    CHECK_EQ(petw_decode(dec, &r, &ev), PETW_ECORRUPT);
    petw_decoder_free(dec);
    printf("decode: every type, arrays, nested structs and malformed input ok\n");
    return 0;
}
