/* SPDX-License-Identifier: MIT */
/* The TraceLogging decoder's cost is linear in the event: each distinct
 * schema is parsed once (then found in the decoder's cache), and decoding
 * an event visits schema entries in proportion to the fields it produces.
 * Work is counted by the decoder (schema-entry visits plus field slots
 * reserved), never timed: a heavy schema (deep nested structs, arrays of
 * structs holding empty arrays of large structs), the same at twice the
 * width, an adversarial event whose empty arrays hide a 2000-entry struct,
 * a large legal output, and an array count its payload cannot hold. */
#include "test_util.h"

#include "../../lib/read/decode/decode_internal.h"

#define C_WORK 4 /* work allowed per schema entry plus field produced */

typedef struct builder {
    uint8_t meta[65536];
    size_t mn;
    uint32_t entries; /* schema entries written */
    uint8_t data[65536];
    size_t dn;
} builder;

static void meta_begin(builder *b, const char *event)
{
    b->mn = 2;
    b->dn = 0;
    b->entries = 0;
    b->meta[b->mn++] = 0; /* no tags */
    memcpy(b->meta + b->mn, event, strlen(event) + 1);
    b->mn += strlen(event) + 1;
}

/* A field: `out` < 0 for none, `count` < 0 unless a constant-count array. */
static void meta_field(builder *b, const char *name, uint8_t in, int out, int count)
{
    CHECK(b->mn + strlen(name) + 8 < sizeof(b->meta));
    memcpy(b->meta + b->mn, name, strlen(name) + 1);
    b->mn += strlen(name) + 1;
    b->meta[b->mn++] = (uint8_t)(in | (out >= 0 ? 0x80 : 0));
    if (out >= 0)
        b->meta[b->mn++] = (uint8_t)out;
    if (count >= 0) {
        petw__test_wr16(b->meta + b->mn, (uint16_t)count);
        b->mn += 2;
    }
    b->entries++;
}

static void put(builder *b, const void *p, size_t n)
{
    CHECK(b->dn + n <= sizeof(b->data));
    memcpy(b->data + b->dn, p, n);
    b->dn += n;
}

static void put16(builder *b, uint16_t v)
{
    uint8_t x[2];
    petw__test_wr16(x, v);
    put(b, x, 2);
}

static int decode(petw_decoder *dec, builder *b, const petw_decoded_event **ev)
{
    petw__test_wr16(b->meta, (uint16_t)b->mn);
    petw_extended_item x = {0, PETW_EXT_TYPE_EVENT_SCHEMA_TL, 0, (uint16_t)b->mn,
                            (uint64_t)(uintptr_t)b->meta};
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.flags = PETW_EVENT_HEADER_FLAG_64_BIT_HEADER | PETW_EVENT_HEADER_FLAG_EXTENDED_INFO;
    r.extended_data_count = 1;
    r.extended_data = &x;
    r.user_data = b->data;
    r.user_data_length = (uint16_t)b->dn;
    return petw_decode(dec, &r, ev);
}

static petw__decoder_counters counters(const petw_decoder *dec)
{
    petw__decoder_counters c;
    petw__decoder_counters_get(dec, &c);
    return c;
}

/* A struct of `n` uint8 members named m (no payload: built by callers). */
static void meta_u8_struct(builder *b, const char *name, int n, int in_flags, int count)
{
    meta_field(b, name, (uint8_t)(PETW_IN_STRUCT | in_flags), n, count);
    for (int i = 0; i < n; i++)
        meta_field(b, "m", PETW_IN_UINT8, -1, -1);
}

/* The heavy schema at width `w` (a multiple of 32, at most 1008):
 *   deep: 24 nested structs, each with w/8 uint32 members;
 *   rows: a variable array of w structs { id, name, tags[] (one uint16),
 *         opt[] (always empty) of struct big { w/32 structs of 32 uint8 } };
 *   grid: 4 structs { x, y, inner { w/8 uint8 } }. */
static void heavy(builder *b, int w)
{
    meta_begin(b, "Heavy");
    uint32_t v = 0x01020304;
    for (int level = 0; level < 24; level++) {
        meta_field(b, "deep", PETW_IN_STRUCT, w / 8 + (level < 23), -1);
        for (int i = 0; i < w / 8; i++) {
            meta_field(b, "u", PETW_IN_UINT32, -1, -1);
            put(b, &v, 4);
        }
    }
    meta_field(b, "rows", PETW_IN_STRUCT | 0x40, 4, -1);
    meta_field(b, "id", PETW_IN_UINT32, -1, -1);
    meta_field(b, "name", PETW_IN_ANSISTRING, -1, -1);
    meta_field(b, "tags", PETW_IN_UINT16 | 0x40, -1, -1);
    meta_field(b, "opt", PETW_IN_STRUCT | 0x40, w / 32, -1);
    for (int i = 0; i < w / 32; i++)
        meta_u8_struct(b, "part", 32, 0, -1);
    put16(b, (uint16_t)w);
    for (int r = 0; r < w; r++) {
        uint32_t id = (uint32_t)r;
        put(b, &id, 4);
        put(b, "row", 4);
        put16(b, 1), put16(b, (uint16_t)(r * 3)); /* tags: one element */
        put16(b, 0);                              /* opt: empty */
    }
    meta_field(b, "grid", PETW_IN_STRUCT | 0x20, 3, 4);
    meta_field(b, "x", PETW_IN_INT16, -1, -1);
    meta_field(b, "y", PETW_IN_INT16, -1, -1);
    meta_u8_struct(b, "inner", w / 8, 0, -1);
    for (int c = 0; c < 4; c++) {
        put16(b, (uint16_t)c), put16(b, (uint16_t)(c + 1));
        for (int i = 0; i < w / 8; i++)
            put(b, "\x07", 1);
    }
}

/* The fields heavy(w) produces. */
static uint32_t heavy_fields(int w)
{
    uint32_t deep = 24 * (1 + (uint32_t)w / 8);
    uint32_t rows = 1 + (uint32_t)w * (1 + 4 + 1);
    uint32_t grid = 1 + 4 * (1 + 3 + (uint32_t)w / 8);
    return deep + rows + grid;
}

typedef struct cost {
    uint64_t cold, warm; /* work of the first decode and of a later one */
    uint32_t fields, entries;
} cost;

/* Decodes `b` 100 times with a fresh decoder: one parse, 99 cache hits,
 * work within C_WORK per schema entry and field, the same every time. */
static cost measure(builder *b, const char *what)
{
    petw_decoder *dec;
    CHECK_EQ(petw_decoder_new(&dec), 0);
    const petw_decoded_event *ev;
    cost c = {0, 0, 0, b->entries};
    uint64_t before = counters(dec).work;
    CHECK_EQ(decode(dec, b, &ev), 0);
    c.cold = counters(dec).work - before;
    c.fields = ev->field_count;
    for (int i = 1; i < 100; i++) {
        before = counters(dec).work;
        CHECK_EQ(decode(dec, b, &ev), 0);
        uint64_t w = counters(dec).work - before;
        if (i > 1)
            CHECK_EQ(w, c.warm);
        c.warm = w;
        CHECK_EQ(ev->field_count, c.fields);
    }
    petw__decoder_counters k = counters(dec);
    printf("%s: %u schema entries, %u fields; work %llu first, %llu after; "
           "%llu parses, %llu cache hits\n",
           what, c.entries, c.fields, (unsigned long long)c.cold, (unsigned long long)c.warm,
           (unsigned long long)k.schema_parses, (unsigned long long)k.cache_hits);
    CHECK_EQ(k.schema_parses, 1);
    CHECK_EQ(k.cache_hits, 99);
    CHECK(c.cold <= (uint64_t)C_WORK * (c.entries + c.fields));
    CHECK(c.warm <= (uint64_t)C_WORK * c.fields);
    petw_decoder_free(dec);
    return c;
}

static builder b;

static void check_heavy_values(void)
{
    petw_decoder *dec;
    CHECK_EQ(petw_decoder_new(&dec), 0);
    const petw_decoded_event *ev;
    heavy(&b, 64);
    CHECK_EQ(decode(dec, &b, &ev), 0);
    CHECK(!strcmp(ev->event_name, "Heavy"));
    CHECK_EQ(ev->top_count, 3);
    CHECK_EQ(ev->field_count, heavy_fields(64));
    const petw_field *f = &ev->fields[0];
    for (int level = 0; level < 23; level++) {
        CHECK(f->kind == PETW_VALUE_STRUCT && f->count == 9);
        CHECK_EQ(ev->fields[f->first].v.u, 0x01020304);
        f = &ev->fields[f->first + 8];
    }
    CHECK(f->kind == PETW_VALUE_STRUCT && f->count == 8 && !strcmp(f->name, "deep"));
    const petw_field *rows = &ev->fields[1];
    CHECK(rows->kind == PETW_VALUE_ARRAY && rows->count == 64);
    const petw_field *row = &ev->fields[rows->first + 63];
    CHECK(row->kind == PETW_VALUE_STRUCT && row->count == 4);
    CHECK_EQ(ev->fields[row->first].v.u, 63);
    CHECK(!strcmp(ev->fields[row->first + 1].v.s, "row"));
    const petw_field *tags = &ev->fields[row->first + 2];
    CHECK(tags->count == 1 && ev->fields[tags->first].v.u == 189);
    const petw_field *opt = &ev->fields[row->first + 3];
    CHECK(opt->kind == PETW_VALUE_ARRAY && opt->count == 0 && !strcmp(opt->name, "opt"));
    const petw_field *grid = &ev->fields[2];
    CHECK(grid->kind == PETW_VALUE_ARRAY && grid->count == 4);
    const petw_field *cell = &ev->fields[grid->first + 3];
    CHECK_EQ(ev->fields[cell->first + 1].v.i, 4);
    const petw_field *inner = &ev->fields[cell->first + 2];
    CHECK(inner->count == 8 && ev->fields[inner->first + 7].v.u == 7);
    petw_decoder_free(dec);
}

int main(void)
{
    check_heavy_values();

    /* 1-2. The heavy schema: parsed once, work linear in its size. */
    heavy(&b, 64);
    CHECK_EQ(b.entries, 24 * 9 + 5 + 2 * 33 + 3 + 9);
    cost w1 = measure(&b, "heavy, width 64");
    CHECK_EQ(w1.fields, heavy_fields(64));

    /* 3. Twice the width: twice the schema and fields, twice the work. */
    heavy(&b, 128);
    cost w2 = measure(&b, "heavy, width 128");
    CHECK_EQ(w2.fields, heavy_fields(128));
    CHECK(w2.entries <= 2 * w1.entries + 2 && w2.fields <= 2 * w1.fields + 2);
    CHECK(10 * w2.cold <= 21 * w1.cold);
    CHECK(10 * w2.warm <= 21 * w1.warm);

    /* 4. Adversarial: 10000 rows, each an empty array of a 2020-entry
     * struct (2 payload bytes a row). The fields are the rows and their
     * empty arrays; the hidden struct must not be walked per row. */
    meta_begin(&b, "Hidden");
    meta_field(&b, "rows", PETW_IN_STRUCT | 0x40, 1, -1);
    meta_field(&b, "opt", PETW_IN_STRUCT | 0x40, 20, -1);
    for (int i = 0; i < 20; i++)
        meta_u8_struct(&b, "part", 100, 0, -1);
    put16(&b, 10000);
    for (int r = 0; r < 10000; r++)
        put16(&b, 0);
    cost h = measure(&b, "hidden");
    CHECK_EQ(h.fields, 1 + 10000 * 2);

    /* 5. A large legal output (60000 members of 600 zero-byte structs):
     * work follows the fields, within the field limit. */
    meta_begin(&b, "Wide");
    meta_field(&b, "cells", PETW_IN_STRUCT | 0x20, 100, 600);
    for (int i = 0; i < 100; i++)
        meta_field(&b, "n", PETW_IN_NULL, -1, -1);
    cost wide = measure(&b, "wide");
    CHECK_EQ(wide.fields, 1 + 600 + 600 * 100);

    /* 6. Past the field limit: refused, after work bounded by the limit. */
    petw_decoder *dec;
    CHECK_EQ(petw_decoder_new(&dec), 0);
    const petw_decoded_event *ev;
    meta_begin(&b, "TooWide");
    meta_field(&b, "cells", PETW_IN_STRUCT | 0x20, 100, 700);
    for (int i = 0; i < 100; i++)
        meta_field(&b, "n", PETW_IN_NULL, -1, -1);
    uint64_t before = counters(dec).work;
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    CHECK(counters(dec).work - before <= (uint64_t)C_WORK * (65536 + b.entries));

    /* 7. An array count the payload cannot hold: refused before reserving
     * its 65535 fields. */
    meta_begin(&b, "HugeArray");
    meta_field(&b, "a", PETW_IN_UINT32 | 0x40, -1, -1);
    put16(&b, 65535), put(&b, "\1\0\0\0\2\0\0\0", 8);
    before = counters(dec).work;
    CHECK_EQ(decode(dec, &b, &ev), PETW_ECORRUPT);
    CHECK(counters(dec).work - before <= 64);
    petw_decoder_free(dec);

    printf("decode_cost: schemas parsed once, work linear in schema and fields\n");
    return 0;
}
