/* decode.c - TraceLogging self-describing events: schema and payload.
 *
 * Allowed dependencies: common/. Everything read from the record is
 * bounds-checked; fields are built in an array where every struct's or
 * array's children are one contiguous block (reserved before recursing).
 *
 * Schema (EVENT_SCHEMA_TL data): u16 size; tags (7 bits a byte, 0x80 =
 * more); event name NUL; then per field: name NUL, u8 in-type (low 5 bits
 * the type; 0x20 constant count, 0x40 variable count, 0x60 custom; 0x80 an
 * out-type follows), [u8 out-type (0x80: tags follow)], [tags], [u16 count
 * for constant-count arrays], [u16 size + bytes for custom types]. A struct
 * (in-type 24) has out-type = how many fields that follow belong to it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/common.h"
#include "decode_internal.h"
#include "petw/decode.h"

/* TraceLogging's type bytes: the in-type byte holds the type, the arity and
 * a chain bit (an out-type byte follows); the out-type byte holds the type
 * (a struct's member count) and a chain bit (tags follow); tag bytes hold 7
 * bits each and chain with their top bit. */
#define TL_CHAIN 0x80u
#define TL_IN_TYPE_MASK 0x1fu
#define TL_ARITY_SHIFT 5
#define TL_ARITY_MASK 3u
#define TL_ARITY_CONST 1  /* a constant element count follows */
#define TL_ARITY_VAR 2    /* the count is a u16 in the payload */
#define TL_ARITY_CUSTOM 3 /* custom schema: u16 size and the bytes follow */
#define TL_OUT_TYPE_MASK 0x7fu

#define MAX_DEPTH 32
#define MAX_FIELDS 65536
#define MAX_SCHEMA 4096

typedef struct schema_entry {
    const char *name;
    uint8_t in, out;
    uint8_t type;     /* in & 0x1f */
    uint8_t arity;    /* 0 scalar, 1 constant count, 2 variable count, 3 custom */
    uint16_t count;   /* constant count */
    uint32_t members; /* struct: direct member entries that follow */
} schema_entry;

struct petw_decoder {
    schema_entry schema[MAX_SCHEMA];
    uint32_t schema_count;
    petw_field *fields;
    uint32_t field_cap, field_count;
    char *arena;
    size_t arena_cap, arena_used;
    petw_decoded_event result;
    const uint8_t *data;
    size_t size, pos;
    int pointer_size;
    petw__decoder_counters counters;
};

void petw__decoder_counters_get(const petw_decoder *d, petw__decoder_counters *out)
{
    *out = d->counters;
}

int petw_decoder_new(petw_decoder **out)
{
    PETW__RETURN_IF(!out, PETW_EINVAL);
    petw_decoder *d = calloc(1, sizeof(*d));
    if (!d)
        return PETW_ENOMEM;
    *out = d;
    return 0;
}

void petw_decoder_free(petw_decoder *d)
{
    if (!d)
        return;
    free(d->fields);
    free(d->arena);
    free(d);
}

/* Arena strings live until the next petw_decode; offsets until the end,
 * since the arena may move while one event is decoded. */
static int arena_reserve(petw_decoder *d, size_t n, size_t *at)
{
    if (d->arena_used + n > d->arena_cap) {
        size_t cap = d->arena_cap ? d->arena_cap : 4096;
        while (cap < d->arena_used + n)
            cap *= 2;
        char *a = realloc(d->arena, cap);
        if (!a)
            return PETW_ENOMEM;
        d->arena = a;
        d->arena_cap = cap;
    }
    *at = d->arena_used;
    d->arena_used += n;
    return 0;
}

/* Reserves `n` contiguous field slots; returns the first index. */
static int reserve_fields(petw_decoder *d, uint32_t n, uint32_t *first)
{
    PETW__RETURN_IF(n > MAX_FIELDS - d->field_count, PETW_ECORRUPT);
    if (d->field_count + n > d->field_cap) {
        uint32_t cap = d->field_cap ? d->field_cap : 64;
        while (cap < d->field_count + n)
            cap *= 2;
        petw_field *f = realloc(d->fields, cap * sizeof(*f));
        if (!f)
            return PETW_ENOMEM;
        d->fields = f;
        d->field_cap = cap;
    }
    d->counters.work += n;
    *first = d->field_count;
    memset(d->fields + d->field_count, 0, n * sizeof(petw_field));
    d->field_count += n;
    return 0;
}

static int need(petw_decoder *d, size_t n)
{
    return n <= d->size - d->pos ? 0 : PETW_ECORRUPT;
}

/* Bounded NUL-terminated string inside [p, end). */
static const char *cstr(const uint8_t **p, const uint8_t *end)
{
    const uint8_t *s = *p;
    while (*p < end && **p)
        (*p)++;
    if (*p >= end)
        return NULL;
    (*p)++;
    return (const char *)s;
}

static int skip_tags(const uint8_t **p, const uint8_t *end)
{
    for (;;) {
        if (*p >= end)
            return PETW_ECORRUPT;
        uint8_t b = *(*p)++;
        if (!(b & TL_CHAIN))
            return 0;
    }
}

static int parse_schema(petw_decoder *d, const uint8_t *blob, size_t size, const char **event_name)
{
    PETW__RETURN_IF(size < 3, PETW_ECORRUPT);
    size_t declared = petw__rd16(blob);
    PETW__RETURN_IF(declared < 3 || declared > size, PETW_ECORRUPT);
    const uint8_t *p = blob + 2, *end = blob + declared;
    PETW__FORWARD_IF_ERROR(skip_tags(&p, end));
    *event_name = cstr(&p, end);
    PETW__RETURN_IF(!*event_name, PETW_ECORRUPT);
    d->schema_count = 0;
    d->counters.schema_parses++;
    while (p < end) {
        d->counters.work++;
        PETW__RETURN_IF(d->schema_count == MAX_SCHEMA, PETW_ECORRUPT);
        schema_entry *e = &d->schema[d->schema_count++];
        memset(e, 0, sizeof(*e));
        e->name = cstr(&p, end);
        PETW__RETURN_IF(!e->name || p >= end, PETW_ECORRUPT);
        e->in = *p++;
        e->type = e->in & TL_IN_TYPE_MASK;
        e->arity = (uint8_t)((e->in >> TL_ARITY_SHIFT) & TL_ARITY_MASK);
        if (e->in & TL_CHAIN) {
            PETW__RETURN_IF(p >= end, PETW_ECORRUPT);
            e->out = *p++;
            if (e->out & TL_CHAIN)
                PETW__FORWARD_IF_ERROR(skip_tags(&p, end));
        }
        if (e->arity == TL_ARITY_CONST) {
            PETW__RETURN_IF(end - p < 2, PETW_ECORRUPT);
            e->count = petw__rd16(p);
            p += 2;
        } else if (e->arity == TL_ARITY_CUSTOM) {
            PETW__RETURN_IF(end - p < 2, PETW_ECORRUPT);
            uint16_t n = petw__rd16(p);
            PETW__RETURN_IF((size_t)(end - p) < 2u + n, PETW_ECORRUPT);
            p += 2 + n;
        }
        if (e->type == PETW_IN_STRUCT) {
            e->members = e->out & TL_OUT_TYPE_MASK;
            PETW__RETURN_IF(e->members == 0, PETW_ECORRUPT);
        }
    }
    return 0;
}

/* Index of the entry after entry `i` and all its members. */
static int skip_entry(const petw_decoder *d, uint32_t i, uint32_t *next, int depth)
{
    ((petw_decoder *)d)->counters.work++;
    PETW__RETURN_IF(depth > MAX_DEPTH || i >= d->schema_count, PETW_ECORRUPT);
    uint32_t j = i + 1;
    if (d->schema[i].type == PETW_IN_STRUCT)
        for (uint32_t m = 0; m < d->schema[i].members; m++)
            PETW__FORWARD_IF_ERROR(skip_entry(d, j, &j, depth + 1));
    *next = j;
    return 0;
}

static int utf16_string(petw_decoder *d, const uint8_t *s, size_t units, uint32_t slot)
{
    size_t at;
    PETW__FORWARD_IF_ERROR(arena_reserve(d, units * 3 + 1, &at));
    petw__utf16le_to_utf8(s, units, d->arena + at, units * 3 + 1);
    d->fields[slot].v.s = (const char *)(uintptr_t)at; /* fixed up at the end */
    d->fields[slot].kind = PETW_VALUE_STRING;
    return 0;
}

static int bytes_string(petw_decoder *d, const uint8_t *s, size_t n, uint32_t slot)
{
    size_t at;
    PETW__FORWARD_IF_ERROR(arena_reserve(d, n + 1, &at));
    memcpy(d->arena + at, s, n);
    d->arena[at + n] = 0;
    d->fields[slot].v.s = (const char *)(uintptr_t)at;
    d->fields[slot].kind = PETW_VALUE_STRING;
    return 0;
}

static int decode_value(petw_decoder *d, uint32_t entry, uint32_t slot, int depth);
static int decode_value_at(petw_decoder *d, uint32_t entry, uint32_t slot, int depth);

/* Members of struct entry `entry` into a new block under `slot`. */
static int decode_struct(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    const schema_entry *e = &d->schema[entry];
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, e->members, &first));
    d->fields[slot].kind = PETW_VALUE_STRUCT;
    d->fields[slot].first = first;
    d->fields[slot].count = e->members;
    uint32_t j = entry + 1;
    for (uint32_t m = 0; m < e->members; m++) {
        PETW__RETURN_IF(j >= d->schema_count, PETW_ECORRUPT);
        d->fields[first + m].parent = slot;
        PETW__FORWARD_IF_ERROR(decode_value(d, j, first + m, depth + 1));
        PETW__FORWARD_IF_ERROR(skip_entry(d, j, &j, depth + 1));
    }
    return 0;
}

/* Bytes of a fixed-size number in-type, or 0 for any other in-type. */
static size_t number_size(const petw_decoder *d, uint8_t type)
{
    switch (type) {
    case PETW_IN_INT8:
    case PETW_IN_UINT8:
        return 1;
    case PETW_IN_INT16:
    case PETW_IN_UINT16:
        return 2;
    case PETW_IN_INT32:
    case PETW_IN_UINT32:
    case PETW_IN_FLOAT:
    case PETW_IN_BOOL32:
    case PETW_IN_HEXINT32:
        return 4;
    case PETW_IN_POINTER:
        return (size_t)d->pointer_size;
    case PETW_IN_INT64:
    case PETW_IN_UINT64:
    case PETW_IN_DOUBLE:
    case PETW_IN_FILETIME:
    case PETW_IN_HEXINT64:
        return 8;
    default:
        return 0;
    }
}

/* A fixed-size number, shown as its out-type says. */
static int decode_number(petw_decoder *d, const schema_entry *e, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    uint8_t out = e->out & TL_OUT_TYPE_MASK;
    size_t n = number_size(d, e->type);
    if (n == 0)
        return PETW_ECORRUPT; /* an in-type TraceLogging does not define */
    PETW__FORWARD_IF_ERROR(need(d, n));
    d->pos += n;
    uint64_t u = n == 1 ? p[0] : n == 2 ? petw__rd16(p) : n == 4 ? petw__rd32(p) : petw__rd64(p);
    int is_signed = e->type == PETW_IN_INT8 || e->type == PETW_IN_INT16 ||
                    e->type == PETW_IN_INT32 || e->type == PETW_IN_INT64;
    if (is_signed) {
        int64_t v = n == 1 ? (int8_t)u : n == 2 ? (int16_t)u : n == 4 ? (int32_t)u : (int64_t)u;
        f->kind = PETW_VALUE_INT;
        f->v.i = v;
    } else {
        f->kind = PETW_VALUE_UINT;
        f->v.u = u;
    }
    if (e->type == PETW_IN_FLOAT) {
        float x;
        memcpy(&x, p, 4);
        f->kind = PETW_VALUE_FLOAT;
        f->v.f = x;
    } else if (e->type == PETW_IN_DOUBLE) {
        memcpy(&f->v.f, p, 8);
        f->kind = PETW_VALUE_FLOAT;
    } else if (e->type == PETW_IN_FILETIME) {
        f->kind = PETW_VALUE_FILETIME;
        f->v.i = (int64_t)u;
    } else if (e->type == PETW_IN_BOOL32 || out == PETW_OUT_BOOLEAN) {
        f->kind = PETW_VALUE_BOOL;
        f->v.u = u != 0;
    } else if (e->type == PETW_IN_HEXINT32 || e->type == PETW_IN_HEXINT64 ||
               e->type == PETW_IN_POINTER || out == PETW_OUT_HEX || out == PETW_OUT_WIN32ERROR ||
               out == PETW_OUT_NTSTATUS || out == PETW_OUT_HRESULT) {
        f->kind = PETW_VALUE_HEX;
        f->v.u = u & (n == 8 ? ~0ull : ((1ull << (8 * n)) - 1));
    } else if (out == PETW_OUT_STRING && n <= 2) {
        /* A character: UTF-8 of one code unit. */
        uint8_t units[4] = {(uint8_t)u, (uint8_t)(u >> 8), 0, 0};
        if (n == 1)
            return bytes_string(d, units, u ? 1 : 0, slot);
        return utf16_string(d, units, 1, slot);
    } else if (out == PETW_OUT_PORT && n == 2) {
        f->v.u = ((u & 0xFF) << 8) | (u >> 8); /* network byte order */
    } else if (out == PETW_OUT_IPV4 && n == 4) {
        char ip[16];
        snprintf(ip, sizeof(ip), "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
        return bytes_string(d, (const uint8_t *)ip, strlen(ip), slot);
    }
    return 0;
}


/* One value (or, for arrays, one element) of schema entry `entry`. */
static int decode_scalar(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    const schema_entry *e = &d->schema[entry];
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    switch (e->type) {
    case PETW_IN_NULL:
        f->kind = PETW_VALUE_NONE;
        return 0;
    case PETW_IN_STRUCT:
        return decode_struct(d, entry, slot, depth);
    case PETW_IN_UNICODESTRING: {
        size_t i = 0;
        for (;; i += 2) {
            PETW__FORWARD_IF_ERROR(need(d, i + 2));
            if (petw__rd16(p + i) == 0)
                break;
        }
        d->pos += i + 2;
        return utf16_string(d, p, i / 2, slot);
    }
    case PETW_IN_ANSISTRING: {
        size_t i = 0;
        for (;; i++) {
            PETW__FORWARD_IF_ERROR(need(d, i + 1));
            if (p[i] == 0)
                break;
        }
        d->pos += i + 1;
        return bytes_string(d, p, i, slot);
    }
    case PETW_IN_COUNTEDSTRING:
    case PETW_IN_COUNTEDANSISTRING:
    case PETW_IN_BINARY:
    case PETW_IN_COUNTEDBINARY: {
        PETW__FORWARD_IF_ERROR(need(d, 2));
        size_t n = petw__rd16(p);
        PETW__FORWARD_IF_ERROR(need(d, 2 + n));
        d->pos += 2 + n;
        if (e->type == PETW_IN_COUNTEDSTRING)
            return utf16_string(d, p + 2, n / 2, slot);
        if (e->type == PETW_IN_COUNTEDANSISTRING)
            return bytes_string(d, p + 2, n, slot);
        f->kind = PETW_VALUE_BINARY;
        f->v.bin.data = p + 2;
        f->v.bin.size = (uint32_t)n;
        return 0;
    }
    case PETW_IN_SID: {
        PETW__FORWARD_IF_ERROR(need(d, 8));
        size_t n = 8 + 4u * p[1];
        PETW__FORWARD_IF_ERROR(need(d, n));
        d->pos += n;
        f->kind = PETW_VALUE_BINARY;
        f->v.bin.data = p;
        f->v.bin.size = (uint32_t)n;
        return 0;
    }
    case PETW_IN_GUID:
        PETW__FORWARD_IF_ERROR(need(d, 16));
        petw__rd_guid(p, &f->v.guid);
        f->kind = PETW_VALUE_GUID;
        d->pos += 16;
        return 0;
    case PETW_IN_SYSTEMTIME:
        PETW__FORWARD_IF_ERROR(need(d, 16));
        for (int i = 0; i < 8; i++)
            f->v.st[i] = petw__rd16(p + 2 * i);
        f->kind = PETW_VALUE_SYSTEMTIME;
        d->pos += 16;
        return 0;
    default:
        return decode_number(d, e, slot);
    }
}

static int decode_value(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    d->counters.work++;
    PETW__RETURN_IF(depth > MAX_DEPTH || entry >= d->schema_count, PETW_ECORRUPT);
    const schema_entry *e = &d->schema[entry];
    petw_field *f = &d->fields[slot];
    f->name = e->name;
    f->in_type = e->type;
    f->out_type = e->out & TL_OUT_TYPE_MASK;
    size_t start = d->pos;
    int rc = decode_value_at(d, entry, slot, depth);
    d->fields[slot].data_offset = (uint32_t)start; /* fields may have moved */
    d->fields[slot].data_size = (uint32_t)(d->pos - start);
    return rc;
}

static int decode_value_at(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    const schema_entry *e = &d->schema[entry];
    petw_field *f = &d->fields[slot];
    if (e->arity == 0)
        return decode_scalar(d, entry, slot, depth);
    if (e->arity == TL_ARITY_CUSTOM) {
        /* Custom-serialized: u16 size + bytes, kept as binary. */
        PETW__FORWARD_IF_ERROR(need(d, 2));
        size_t n = petw__rd16(d->data + d->pos);
        PETW__FORWARD_IF_ERROR(need(d, 2 + n));
        f->kind = PETW_VALUE_BINARY;
        f->v.bin.data = d->data + d->pos + 2;
        f->v.bin.size = (uint32_t)n;
        d->pos += 2 + n;
        return 0;
    }
    uint32_t count = e->count;
    if (e->arity == TL_ARITY_VAR) {
        PETW__FORWARD_IF_ERROR(need(d, 2));
        count = petw__rd16(d->data + d->pos);
        d->pos += 2;
    }
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, count, &first));
    f = &d->fields[slot];
    f->kind = PETW_VALUE_ARRAY;
    f->first = first;
    f->count = count;
    for (uint32_t k = 0; k < count; k++) {
        d->counters.work++;
        petw_field *el = &d->fields[first + k];
        el->name = e->name;
        el->in_type = e->type;
        el->out_type = e->out & TL_OUT_TYPE_MASK;
        el->parent = slot;
        size_t start = d->pos;
        PETW__FORWARD_IF_ERROR(decode_scalar(d, entry, first + k, depth + 1));
        d->fields[first + k].data_offset = (uint32_t)start;
        d->fields[first + k].data_size = (uint32_t)(d->pos - start);
    }
    return 0;
}

/* Turns arena offsets into pointers once the arena stopped moving. */
static void fix_strings(petw_decoder *d)
{
    for (uint32_t i = 0; i < d->field_count; i++)
        if (d->fields[i].kind == PETW_VALUE_STRING)
            d->fields[i].v.s = d->arena + (size_t)(uintptr_t)d->fields[i].v.s;
}

/* The TraceLogging fields an event's schema describes. */
static int decode_schema_fields(petw_decoder *d, const uint8_t *schema, size_t schema_size)
{
    petw_decoded_event *r = &d->result;
    const char *event_name = NULL;
    PETW__FORWARD_IF_ERROR(parse_schema(d, schema, schema_size, &event_name));
    r->event_name = event_name;
    r->has_schema = 1;
    /* Top-level entries: those not inside a struct. */
    uint32_t tops = 0;
    for (uint32_t j = 0; j < d->schema_count;) {
        PETW__FORWARD_IF_ERROR(skip_entry(d, j, &j, 0));
        tops++;
    }
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, tops, &first));
    uint32_t j = 0;
    for (uint32_t k = 0; k < tops; k++) {
        d->fields[k].parent = UINT32_MAX;
        PETW__FORWARD_IF_ERROR(decode_value(d, j, k, 0));
        PETW__FORWARD_IF_ERROR(skip_entry(d, j, &j, 0));
    }
    r->top_count = tops;
    return 0;
}

/* EventWriteString: the payload is one UTF-16LE string. */
static int decode_string_only(petw_decoder *d)
{
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, 1, &first));
    d->fields[0].name = "string";
    d->fields[0].in_type = PETW_IN_UNICODESTRING;
    d->fields[0].parent = UINT32_MAX;
    size_t units = d->size / 2;
    while (units > 0 && petw__rd16(d->data + 2 * (units - 1)) == 0)
        units--;
    PETW__FORWARD_IF_ERROR(utf16_string(d, d->data, units, 0));
    d->fields[0].data_size = (uint32_t)d->size;
    d->result.top_count = 1;
    d->result.has_schema = 1;
    return 0;
}

/* No schema: the payload as one binary field. */
static int decode_binary(petw_decoder *d)
{
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, 1, &first));
    d->fields[0].name = "data";
    d->fields[0].in_type = PETW_IN_BINARY;
    d->fields[0].kind = PETW_VALUE_BINARY;
    d->fields[0].parent = UINT32_MAX;
    d->fields[0].v.bin.data = d->data;
    d->fields[0].v.bin.size = (uint32_t)d->size;
    d->fields[0].data_size = (uint32_t)d->size;
    d->result.top_count = 1;
    return 0;
}

/* The provider name in the traits (u16 size, then the name, NUL-terminated),
 * copied into the arena; returns its arena offset or (size_t)-1. */
static size_t provider_name_at(petw_decoder *d, const uint8_t *traits, size_t traits_size)
{
    size_t name_at = (size_t)-1;
    if (!traits || traits_size < 3)
        return name_at;
    size_t declared = petw__rd16(traits);
    const uint8_t *p = traits + 2, *end = traits + (declared <= traits_size ? declared : traits_size);
    const char *name = cstr(&p, end);
    if (name && arena_reserve(d, strlen(name) + 1, &name_at) == 0)
        memcpy(d->arena + name_at, name, strlen(name) + 1);
    return name_at;
}

int petw_decode(petw_decoder *d, const petw_event_record *rec, const petw_decoded_event **out)
{
    PETW__RETURN_IF(!d || !rec || !out || (rec->user_data_length && !rec->user_data), PETW_EINVAL);
    petw_decoded_event *r = &d->result;
    memset(r, 0, sizeof(*r));
    d->field_count = 0;
    d->arena_used = 0;
    d->data = rec->user_data;
    d->size = rec->user_data_length;
    d->pos = 0;
    d->pointer_size = (rec->header.flags & PETW_EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4 : 8;
    const uint8_t *schema = NULL, *traits = NULL;
    size_t schema_size = 0, traits_size = 0;
    for (uint16_t i = 0; i < rec->extended_data_count && rec->extended_data; i++) {
        const petw_extended_item *x = &rec->extended_data[i];
        if (x->ext_type == PETW_EXT_TYPE_EVENT_SCHEMA_TL) {
            schema = (const uint8_t *)(uintptr_t)x->data_ptr;
            schema_size = x->data_size;
        } else if (x->ext_type == PETW_EXT_TYPE_PROV_TRAITS) {
            traits = (const uint8_t *)(uintptr_t)x->data_ptr;
            traits_size = x->data_size;
        }
    }
    size_t name_at = provider_name_at(d, traits, traits_size);
    if (schema)
        PETW__FORWARD_IF_ERROR(decode_schema_fields(d, schema, schema_size));
    else if (rec->header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY)
        PETW__FORWARD_IF_ERROR(decode_string_only(d));
    else
        PETW__FORWARD_IF_ERROR(decode_binary(d));
    fix_strings(d);
    r->provider_name = name_at != (size_t)-1 ? d->arena + name_at : NULL;
    r->fields = d->fields;
    r->field_count = d->field_count;
    *out = r;
    return 0;
}
