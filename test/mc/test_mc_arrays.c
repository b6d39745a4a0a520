/* SPDX-License-Identifier: MIT */
/* test_mc_arrays.c - structs and arrays of strings through the header
 * `petw mc` generated from mc_arrays.man, called with the parameters
 * mc.exe's header takes (a struct: its size, then its packed bytes; an
 * array of NUL-terminated strings: its size in characters, then the
 * strings packed one after the other); then the decoder, given the same
 * manifest, must give back every member and element written, and TDH
 * (TdhLoadManifest) describe the structs and arrays and give back a
 * member of a struct in an array and an element of a string array. */
#include "mc_test.h"
#include <tdh.h>

#include "mc_arrays.h"

typedef struct seen {
    petw_decoder *dec;
    int structs, strings, empty, last;
} seen;

static const petw_field *field(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    fprintf(stderr, "%s: no field %s\n", ev->event_name, name);
    exit(1);
}

/* Child `k` of struct or array `f`. */
static const petw_field *child(const petw_decoded_event *ev, const petw_field *f, uint32_t k)
{
    CHECK(f->kind == PETW_VALUE_ARRAY || f->kind == PETW_VALUE_STRUCT);
    CHECK(k < f->count);
    return &ev->fields[f->first + k];
}

static const petw_field *member(const petw_decoded_event *ev, const petw_field *s, const char *name)
{
    CHECK(s->kind == PETW_VALUE_STRUCT);
    for (uint32_t k = 0; k < s->count; k++)
        if (!strcmp(ev->fields[s->first + k].name, name))
            return &ev->fields[s->first + k];
    fprintf(stderr, "%s: no member %s\n", ev->event_name, name);
    exit(1);
}

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, unsigned long v)
{
    put16(p, (unsigned)(v & 0xffff));
    put16(p + 2, (unsigned)(v >> 16));
}

static void check_structs(const petw_decoded_event *ev)
{
    CHECK(ev->top_count == 5);
    CHECK(field(ev, "N")->v.u == 2);
    const petw_field *pt = field(ev, "Point");
    CHECK(pt->kind == PETW_VALUE_STRUCT && pt->count == 3);
    CHECK(member(ev, pt, "X")->v.i == -5 && member(ev, pt, "Y")->v.i == 70000);
    CHECK(!strcmp(member(ev, pt, "Label")->v.s, "pt"));
    CHECK(pt->data_size == 11);
    const petw_field *pairs = field(ev, "Pairs");
    CHECK(pairs->kind == PETW_VALUE_ARRAY && pairs->count == 2);
    for (uint32_t k = 0; k < 2; k++) {
        const petw_field *e = child(ev, pairs, k);
        CHECK(e->kind == PETW_VALUE_STRUCT && e->count == 2);
        CHECK(member(ev, e, "A")->v.u == 1000u + k && member(ev, e, "B")->v.u == 7u * (k + 1));
    }
    const petw_field *tagged = field(ev, "Tagged");
    CHECK(tagged->kind == PETW_VALUE_ARRAY && tagged->count == 2);
    CHECK(member(ev, child(ev, tagged, 0), "V")->v.u == 0xdeadbeefu);
    CHECK(!strcmp(member(ev, child(ev, tagged, 0), "W")->v.s, "ok"));
    CHECK(member(ev, child(ev, tagged, 1), "V")->v.u == 2);
    CHECK(!strcmp(member(ev, child(ev, tagged, 1), "W")->v.s, "\xc3\xa9"));
    CHECK(field(ev, "Tail")->v.u == 99);
}

static void check_strings(const petw_decoded_event *ev)
{
    CHECK(ev->top_count == 8);
    CHECK(field(ev, "Count")->v.u == 3);
    const petw_field *names = field(ev, "Names");
    CHECK(names->kind == PETW_VALUE_ARRAY && names->count == 3);
    CHECK(!strcmp(child(ev, names, 0)->v.s, "alpha"));
    CHECK(!strcmp(child(ev, names, 1)->v.s, "b\xc3\xa9ta"));
    CHECK(!strcmp(child(ev, names, 2)->v.s, "\xf0\x9d\x84\x9e"));
    CHECK(names->data_size == 2 * (6 + 5 + 3)); /* UTF-16 units, NULs included */
    const petw_field *tags = field(ev, "Tags");
    CHECK(tags->count == 3 && !strcmp(child(ev, tags, 0)->v.s, "x") &&
          !strcmp(child(ev, tags, 1)->v.s, "yy") && !strcmp(child(ev, tags, 2)->v.s, "zzz"));
    CHECK(field(ev, "Len")->v.u == 3);
    const petw_field *codes = field(ev, "Codes");
    CHECK(codes->count == 2 && !strcmp(child(ev, codes, 0)->v.s, "abc") &&
          !strcmp(child(ev, codes, 1)->v.s, "d\xc3\xa9"));
    CHECK(codes->data_size == 2 * 2 * 3);
    const petw_field *words = field(ev, "Words");
    CHECK(words->count == 3 && !strcmp(child(ev, words, 0)->v.s, "ab") &&
          !strcmp(child(ev, words, 1)->v.s, "cdef") && !strcmp(child(ev, words, 2)->v.s, "gh"));
    const petw_field *blocks = field(ev, "Blocks");
    CHECK(blocks->count == 2 && child(ev, blocks, 1)->v.bin.size == 3 &&
          !memcmp(child(ev, blocks, 1)->v.bin.data, "\4\5\6", 3));
    CHECK(field(ev, "End")->v.u == 77);
}

/* TDH: the Structs event's properties, then Pairs[1].B. */
static void check_tdh_structs(petw_event_record *r)
{
    ULONG size = 0;
    CHECK(TdhGetEventInformation((PEVENT_RECORD)r, 0, NULL, NULL, &size) ==
          ERROR_INSUFFICIENT_BUFFER);
    TRACE_EVENT_INFO *info = (TRACE_EVENT_INFO *)malloc(size);
    CHECK(info && TdhGetEventInformation((PEVENT_RECORD)r, 0, NULL, info, &size) == 0);
    CHECK(info->TopLevelPropertyCount == 5 && info->PropertyCount == 5 + 3 + 2 + 2);
    const EVENT_PROPERTY_INFO *pi = info->EventPropertyInfoArray; /* [ANYSIZE_ARRAY] */
    const EVENT_PROPERTY_INFO *point = &pi[1];
    CHECK((point->Flags & PropertyStruct) && point->structType.NumOfStructMembers == 3);
    const EVENT_PROPERTY_INFO *pairs = &pi[2];
    CHECK((pairs->Flags & PropertyStruct) && (pairs->Flags & PropertyParamCount) &&
          pairs->countPropertyIndex == 0 && pairs->structType.NumOfStructMembers == 2);
    const EVENT_PROPERTY_INFO *tagged = &pi[3];
    CHECK((tagged->Flags & PropertyStruct) && tagged->count == 2);
    free(info);
    PROPERTY_DATA_DESCRIPTOR path[2];
    memset(path, 0, sizeof(path));
    path[0].PropertyName = (ULONGLONG)(uintptr_t)L"Pairs";
    path[0].ArrayIndex = 1;
    path[1].PropertyName = (ULONGLONG)(uintptr_t)L"B";
    path[1].ArrayIndex = 0xFFFFFFFFu;
    BYTE b = 0;
    CHECK(TdhGetPropertySize((PEVENT_RECORD)r, 0, NULL, 2, path, &size) == 0 && size == 1);
    CHECK(TdhGetProperty((PEVENT_RECORD)r, 0, NULL, 2, path, 1, &b) == 0 && b == 14);
}

/* TDH: Names is counted by Count; Names[1] is "béta" with its NUL. */
static void check_tdh_strings(petw_event_record *r)
{
    ULONG size = 0;
    CHECK(TdhGetEventInformation((PEVENT_RECORD)r, 0, NULL, NULL, &size) ==
          ERROR_INSUFFICIENT_BUFFER);
    TRACE_EVENT_INFO *info = (TRACE_EVENT_INFO *)malloc(size);
    CHECK(info && TdhGetEventInformation((PEVENT_RECORD)r, 0, NULL, info, &size) == 0);
    CHECK(info->TopLevelPropertyCount == 8);
    const EVENT_PROPERTY_INFO *pi = info->EventPropertyInfoArray; /* [ANYSIZE_ARRAY] */
    const EVENT_PROPERTY_INFO *names = &pi[1];
    CHECK((names->Flags & PropertyParamCount) && names->countPropertyIndex == 0);
    CHECK(names->nonStructType.InType == TDH_INTYPE_UNICODESTRING);
    const EVENT_PROPERTY_INFO *codes = &pi[4];
    CHECK((codes->Flags & PropertyParamLength) && codes->lengthPropertyIndex == 3);
    free(info);
    PROPERTY_DATA_DESCRIPTOR path;
    memset(&path, 0, sizeof(path));
    path.PropertyName = (ULONGLONG)(uintptr_t)L"Names";
    path.ArrayIndex = 1;
    /* As a WCHAR string (TdhGetProperty converts the payload's UTF-16). */
    WCHAR text[5];
    CHECK(TdhGetPropertySize((PEVENT_RECORD)r, 0, NULL, 1, &path, &size) == 0 &&
          size == sizeof(text));
    CHECK(TdhGetProperty((PEVENT_RECORD)r, 0, NULL, 1, &path, sizeof(text), (PBYTE)text) == 0);
    CHECK(!memcmp(text, L"b\u00e9ta", sizeof(text)));
}

static void check_empty(const petw_decoded_event *ev)
{
    CHECK(field(ev, "Count")->v.u == 0);
    CHECK(field(ev, "Names")->count == 0 && field(ev, "Words")->count == 0);
    CHECK(!strcmp(child(ev, field(ev, "Tags"), 2)->v.s, "c"));
    CHECK(field(ev, "Len")->v.u == 0 && field(ev, "Codes")->count == 2);
    CHECK(field(ev, "End")->v.u == 5);
}

static void on_event(petw_event_record *r, void *ctx)
{
    seen *s = (seen *)ctx;
    if (memcmp(&r->header.provider_id, &PETW_TEST_MCARRAYS, 16) != 0)
        return; /* the file's header records */
    const petw_decoded_event *ev;
    CHECK(petw_decode(s->dec, r, &ev) == 0);
    CHECK(ev->event_name != NULL);
    if (!strcmp(ev->event_name, "Structs")) {
        check_structs(ev);
        check_tdh_structs(r);
        s->structs++;
    } else if (!strcmp(ev->event_name, "StringArrays")) {
        check_strings(ev);
        check_tdh_strings(r);
        s->strings++;
    } else if (!strcmp(ev->event_name, "LastWide") || !strcmp(ev->event_name, "LastNarrow")) {
        /* The payload's end ends the last string, as the NUL would. */
        const petw_field *a = field(ev, ev->event_name[4] == 'W' ? "Wide" : "Narrow");
        CHECK(field(ev, "Count")->v.u == 2 && a->count == 2);
        CHECK(!strcmp(child(ev, a, 0)->v.s, "one") && !strcmp(child(ev, a, 1)->v.s, "two"));
        s->last++;
    } else if (!strcmp(ev->event_name, "Empty")) {
        check_empty(ev);
        s->empty++;
    } else {
        fprintf(stderr, "unexpected event %s\n", ev->event_name);
        exit(1);
    }
}

static void write_events(void)
{
    CHECK(EventRegisterPetw_Test_McArrays() == ERROR_SUCCESS);

    /* Structs, packed by the caller with no padding, little-endian. */
    unsigned char point[11];
    put32(point, (unsigned long)-5);
    put32(point + 4, 70000);
    memcpy(point + 8, "pt", 3);
    unsigned char pairs[6];
    for (unsigned k = 0; k < 2; k++) {
        put16(pairs + 3 * k, 1000 + k);
        pairs[3 * k + 2] = (unsigned char)(7 * (k + 1));
    }
    unsigned char tagged[16];
    put32(tagged, 0xdeadbeefu);
    put16(tagged + 4, 'o');
    put16(tagged + 6, 'k');
    put32(tagged + 8, 2);
    put16(tagged + 12, 0xe9);
    put16(tagged + 14, 0);
    CHECK(EventWriteStructs(2, sizeof(point), point, 3, pairs, 8, tagged, 99) == ERROR_SUCCESS);

    /* Arrays of strings: packed NUL-terminated ones with their size in
     * characters; count * length characters; binary. */
    static const WCHAR names[] = L"alpha\0b\u00e9ta\0\U0001D11E";
    static const char tags[] = "x\0yy\0zzz";
    static const WCHAR codes[] = L"abcd\u00e9";
    static const char words[] = "ab\0\0cdefgh\0";
    static const BYTE blocks[6] = {1, 2, 3, 4, 5, 6};
    CHECK(EventWriteStringArrays(3, sizeof(names) / sizeof(WCHAR), names, sizeof(tags), tags, 3,
                                 codes, words, blocks, 77) == ERROR_SUCCESS);
    CHECK(EventWriteEmpty(0, 0, NULL, 6, "a\0b\0c", 0, NULL, NULL, blocks, 5) == ERROR_SUCCESS);
    /* A size leaving the last NUL out, as Windows' own samples write. */
    CHECK(EventWriteLastWide(2, 7, L"one\0two") == ERROR_SUCCESS);
    /* Map entries as mc names them: the map's symbol, then the entry's. */
    ShapeMap shape = ShapeMapSquare;
    CHECK(ShapeMapCircle == 1 && FlagBitsRead == 1 && FlagBitsExec == 4);
    CHECK(EventWriteLastNarrow(shape, 7, "one\0two") == ERROR_SUCCESS);

    /* More than the conversion buffer: refused, as a too long string. */
#if MCGEN_PETW_WIDE_CONVERT
    static WCHAR big[MCGEN_PETW_MAX_STRING + 1];
    CHECK(EventWriteStringArrays(1, MCGEN_PETW_MAX_STRING + 1, big, sizeof(tags), tags, 3, codes,
                                 words, blocks, 1) == ERROR_INVALID_PARAMETER);
#endif
    CHECK(EventUnregisterPetw_Test_McArrays() == ERROR_SUCCESS);
}

int main(void)
{
    char path[512];
    mc_path(path, sizeof(path), "mc-arrays");
    mc_props a;
    TRACEHANDLE sh = mc_start(&a, "mc-arrays", path);
    CHECK(EnableTraceEx2(sh, &PETW_TEST_MCARRAYS, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0,
                         NULL) == ERROR_SUCCESS);
    write_events();
    CHECK(ControlTraceA(sh, NULL, &a.p, EVENT_TRACE_CONTROL_STOP) == ERROR_SUCCESS);

    seen s;
    memset(&s, 0, sizeof(s));
    CHECK(petw_decoder_new(&s.dec) == 0);
    CHECK(petw_decoder_add_manifest(s.dec, MC_ARRAYS_MANIFEST) == 0);
    WCHAR manifest[1024];
    mbstowcs(manifest, MC_ARRAYS_MANIFEST, 1023);
    manifest[1023] = 0;
    CHECK(TdhLoadManifest(manifest) == ERROR_SUCCESS);
    mc_read(path, on_event, &s);
    petw_decoder_free(s.dec);
    CHECK(s.structs == 1 && s.strings == 1 && s.empty == 1 && s.last == 2);
    printf("ok: structs and arrays of strings decoded member by member, element by element\n");
    return 0;
}
