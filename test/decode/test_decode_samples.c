/* SPDX-License-Identifier: MIT */
/* TraceLogging events written by Windows decode with their provider, event
 * and field names and exact values (primitive-types.etl, and the relogged,
 * XPRESS-compressed SelfDescribingSingleEvent.etl). Skips (77) without the
 * samples. */
#include <math.h>
#include <sys/stat.h>

#include "test_util.h"

typedef struct seen {
    petw_decoder *dec;
    int tl_events;
    char names[8][32];
    int64_t int16s[8];
    uint64_t int64s[8];
    int bools[8];
    char chars[8][4];
    char guid0[37];
    int struct_ok;
} seen;

static const petw_field *field(const petw_decoded_event *ev, const petw_field *from, uint32_t n,
                               const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(from[i].name, name) == 0)
            return &from[i];
    (void)ev;
    return NULL;
}

static void on_event(petw_event_record *r, void *ctx)
{
    seen *s = ctx;
    const petw_decoded_event *ev;
    CHECK_EQ(petw_decode(s->dec, r, &ev), 0);
    if (!ev->has_schema)
        return;
    if (strcmp(ev->event_name, "PrimitiveTypesTest") == 0) {
        CHECK(strcmp(ev->provider_name, "solar_system") == 0);
        CHECK_EQ(ev->top_count, 12);
        int k = s->tl_events++;
        const petw_field *f = field(ev, ev->fields, ev->top_count, "string_type");
        CHECK(f && f->kind == PETW_VALUE_STRING);
        snprintf(s->names[k], sizeof(s->names[k]), "%s", f->v.s);
        f = field(ev, ev->fields, ev->top_count, "int16_type");
        CHECK(f && f->kind == PETW_VALUE_INT);
        s->int16s[k] = f->v.i;
        f = field(ev, ev->fields, ev->top_count, "int64_type"); /* declared UINT64 in the file */
        CHECK(f && f->kind == PETW_VALUE_UINT);
        s->int64s[k] = f->v.u;
        f = field(ev, ev->fields, ev->top_count, "boolean_type");
        CHECK(f && f->kind == PETW_VALUE_BOOL);
        s->bools[k] = (int)f->v.u;
        f = field(ev, ev->fields, ev->top_count, "char_type");
        CHECK(f && f->kind == PETW_VALUE_STRING);
        snprintf(s->chars[k], sizeof(s->chars[k]), "%s", f->v.s);
        f = field(ev, ev->fields, ev->top_count, "guid_type");
        CHECK(f && f->kind == PETW_VALUE_GUID);
        if (k == 0)
            petw_guid_format(&f->v.guid, s->guid0);
        f = field(ev, ev->fields, ev->top_count, "file_time_type");
        CHECK(f && f->kind == PETW_VALUE_FILETIME);
        const petw_field *st = field(ev, ev->fields, ev->top_count, "system_time_type");
        CHECK(st && st->kind == PETW_VALUE_SYSTEMTIME);
        CHECK_EQ(st->v.st[0], 2021);
        CHECK_EQ(st->v.st[1], 9);
    } else if (strcmp(ev->event_name, "TestEvent") == 0) {
        CHECK(strcmp(ev->provider_name, "MySource") == 0);
        CHECK_EQ(ev->top_count, 1);
        const petw_field *a = &ev->fields[0];
        CHECK(strcmp(a->name, "a") == 0 && a->kind == PETW_VALUE_STRUCT && a->count == 2);
        const petw_field *b = field(ev, &ev->fields[a->first], a->count, "b");
        const petw_field *c = field(ev, &ev->fields[a->first], a->count, "c");
        CHECK(b && b->kind == PETW_VALUE_STRING && strcmp(b->v.s, "Hello") == 0);
        CHECK(c && c->kind == PETW_VALUE_STRING && strcmp(c->v.s, "World!") == 0);
        s->struct_ok = 1;
    }
}

static void run(const char *dir, const char *file, seen *s)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = s;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
}

int main(void)
{
    const char *dir = getenv("PETW_ETL_SAMPLES");
    struct stat st;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("etl samples not found; skipping\n");
        return SKIP_TEST;
    }
    static seen s;
    CHECK_EQ(petw_decoder_new(&s.dec), 0);
    run(dir, "primitive-types.etl", &s);
    CHECK_EQ(s.tl_events, 5);
    static const char *planets[] = {"Mercury", "Venus", "Earth", "Mars", "Jupiter"};
    for (int k = 0; k < 5; k++)
        CHECK(strcmp(s.names[k], planets[k]) == 0);
    CHECK_EQ(s.int16s[0], -51);
    CHECK(s.int64s[0] == 18446744073709551412ull); /* 0xffffffffffffff34 */
    CHECK_EQ(s.bools[0], 0);
    CHECK_EQ(s.bools[1], 1);
    CHECK(strcmp(s.chars[0], "M") == 0 && strcmp(s.chars[1], "V") == 0);
    CHECK(strcmp(s.guid0, "0ad614c4-0ef4-4225-8013-f44f37cb0397") == 0);
    run(dir, "SelfDescribingSingleEvent.etl", &s);
    CHECK(s.struct_ok);
    petw_decoder_free(s.dec);
    printf("decode_samples: 5 PrimitiveTypesTest events and MySource/TestEvent decoded\n");
    return 0;
}
