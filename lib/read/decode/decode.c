/* decode.c - events into named, typed fields: TraceLogging's
 * self-describing events (schema and payload), and events an instrumentation
 * manifest describes (manifest.c parses it; the template walk is here).
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat. Everything read from the
 * record is bounds-checked; fields are built in an array where every struct's or array's children
 * are one contiguous block (reserved before recursing).
 *
 * Schema (EVENT_SCHEMA_TL data): u16 size; tags (7 bits a byte, 0x80 =
 * more); event name NUL; then per field: name NUL, u8 in-type (low 5 bits
 * the type; 0x20 constant count, 0x40 variable count, 0x60 custom; 0x80 an
 * out-type follows), [u8 out-type (0x80: tags follow)], [tags], [u16 count
 * for constant-count arrays], [u16 size + bytes for custom types]. A struct
 * (in-type 24) has out-type = how many fields that follow belong to it.
 *
 * Cost: each distinct schema is parsed once, in one pass plus one backward
 * pass that links every entry to the entry after its members, and kept in
 * the decoder's cache (keyed by its bytes); decoding an event then visits
 * one schema entry per field it produces. Nothing walks a struct's members
 * to skip them, so arrays of structs and nesting cost no more than their
 * output.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <xxhash.h>

#include "../../base/common/common.h"
#include "../../base/platform/platform.h"
#include "decode_internal.h"
#include "eventsource.h"
#include "kernel.h"
#include "manifest.h"
#include "petw/decode.h"
#include "wpp.h"

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

/* The schema cache: at most CACHE_SLOTS schemas and CACHE_BYTES of memory;
 * when full, the oldest schema goes. */
#define CACHE_SLOTS 256
#define CACHE_BUCKETS 512 /* a power of two */
#define CACHE_BYTES (4u << 20)

typedef struct schema_entry {
    const char *name;
    uint32_t next;      /* index of the entry after this one and its members */
    uint32_t elem_min;  /* payload bytes one value (one element) takes at least */
    uint32_t value_min; /* payload bytes the whole value (all elements) takes at least */
    uint16_t count;     /* constant count */
    uint8_t out;
    uint8_t type;    /* in & 0x1f */
    uint8_t arity;   /* 0 scalar, 1 constant count, 2 variable count, 3 custom */
    uint8_t members; /* struct: direct member entries that follow */
    uint8_t height;  /* struct nesting below this entry */
} schema_entry;

/* A parsed schema: its entries, then a copy of its bytes (the names point
 * into the copy). */
typedef struct cached_schema {
    uint64_t hash;
    size_t bytes; /* memory held, charged to the cache */
    const char *event_name;
    uint32_t size; /* schema bytes */
    uint32_t count, tops;
    uint16_t chain; /* 1 + the next slot in the same bucket, or 0 */
    schema_entry entries[];
} cached_schema;

/* The stream manifests kept: at most MAX_STREAM_MANIFESTS of them, their
 * XML PETW__ES_MAX_BYTES together. */
#define MAX_STREAM_MANIFESTS 256

/* A manifest an EventSource provider wrote into the trace. */
typedef struct stream_manifest {
    petw_guid guid; /* the provider that wrote it */
    petw__manifest *m;
    uint64_t hash; /* of its XML, to know a re-sent copy */
    size_t size;
} stream_manifest;

struct petw_decoder {
    cached_schema *slot[CACHE_SLOTS];
    uint16_t bucket[CACHE_BUCKETS]; /* 1 + the first slot of the chain, or 0 */
    uint32_t hand;                  /* the slot filled next: the oldest */
    size_t cache_bytes;
    schema_entry *scratch; /* the schema being parsed */
    uint32_t scratch_cap;
    const schema_entry *schema; /* the current event's */
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
    /* Manifests added, searched in order; the last provider found. */
    petw__manifest **manifests;
    uint32_t manifest_count, manifest_cap;
    /* Manifests EventSource providers wrote into the trace: one per
     * provider, searched after those added; and the chunks being
     * collected. */
    stream_manifest *es_manifests;
    uint32_t es_count, es_cap;
    size_t es_bytes; /* their XML, together */
    petw__es_collector es;
    const petw__man_provider *last_provider;
    petw__manifest *kernel; /* the kernel classes' schemas, read at first use */
    int kernel_failed;
    petw__manifest *clr; /* the .NET runtime's method and module events', likewise */
    int clr_failed;
    const petw__man_field *man;               /* the current event's template fields */
    uint64_t man_value[PETW__MAN_MAX_FIELDS]; /* numbers decoded, for length/count */
    char *message;
    size_t message_cap;
    /* TMF files added (petw_decoder_add_tmf*), searched in order. */
    petw__wpp **tmfs;
    uint32_t tmf_count, tmf_cap;
    char error[384];
    char *warnings; /* the last directory's files passed over or read in part, '\n'-ended */
    size_t warnings_len, warnings_cap;
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
    for (uint32_t i = 0; i < CACHE_SLOTS; i++)
        free(d->slot[i]);
    for (uint32_t i = 0; i < d->manifest_count; i++)
        petw__manifest_free(d->manifests[i]);
    for (uint32_t i = 0; i < d->es_count; i++)
        petw__manifest_free(d->es_manifests[i].m);
    free(d->es_manifests);
    petw__es_collector_clear(&d->es);
    petw__manifest_free(d->kernel);
    petw__manifest_free(d->clr);
    for (uint32_t i = 0; i < d->tmf_count; i++)
        petw__wpp_free(d->tmfs[i]);
    free(d->tmfs);
    free(d->manifests);
    free(d->warnings);
    free(d->message);
    free(d->scratch);
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
    if (n) /* an event with no fields may have no array yet */
        memset(d->fields + d->field_count, 0, n * sizeof(petw_field));
    d->field_count += n;
    return 0;
}

/* Makes field `slot` a struct or array of `n` children, reserved as one
 * block; *first is the first child's index. */
static int open_block(petw_decoder *d, uint32_t slot, petw_value_kind kind, uint32_t n,
                      uint32_t *first)
{
    PETW__FORWARD_IF_ERROR(reserve_fields(d, n, first));
    d->fields[slot].kind = kind;
    d->fields[slot].first = *first;
    d->fields[slot].count = n;
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

/* Bytes of a fixed-size number in-type, or 0 for any other in-type. */
static size_t type_size(uint8_t type, size_t pointer_size)
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
        return pointer_size;
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

static size_t number_size(const petw_decoder *d, uint8_t type)
{
    return type_size(type, (size_t)d->pointer_size);
}

/* Payload bytes one value of a non-struct in-type takes at least (a lower
 * bound: decoding it fails, or consumes this much or more). */
static uint32_t scalar_min(uint8_t type)
{
    switch (type) {
    case PETW_IN_ANSISTRING:
        return 1; /* the NUL */
    case PETW_IN_UNICODESTRING:
    case PETW_IN_COUNTEDSTRING:
    case PETW_IN_COUNTEDANSISTRING:
    case PETW_IN_BINARY:
    case PETW_IN_COUNTEDBINARY:
        return 2; /* the NUL or the u16 size */
    case PETW_IN_SID:
        return 8;
    case PETW_IN_GUID:
    case PETW_IN_SYSTEMTIME:
        return 16;
    default:
        return (uint32_t)type_size(type, 4); /* pointers: 4 or 8 */
    }
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

/* One schema entry at *p into the scratch array. */
static int parse_entry(const uint8_t **pp, const uint8_t *end, schema_entry *e)
{
    const uint8_t *p = *pp;
    memset(e, 0, sizeof(*e));
    e->name = cstr(&p, end);
    PETW__RETURN_IF(!e->name || p >= end, PETW_ECORRUPT);
    uint8_t in = *p++;
    e->type = in & TL_IN_TYPE_MASK;
    e->arity = (uint8_t)((in >> TL_ARITY_SHIFT) & TL_ARITY_MASK);
    if (in & TL_CHAIN) {
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
    *pp = p;
    return 0;
}

/* Entry `i`'s links, from its members' (which follow it, so a backward
 * pass has them): the entry after its members, its nesting height and the
 * payload it needs at least. A struct whose members run past the schema,
 * or nesting deeper than MAX_DEPTH, is corrupt. */
static int link_entry(petw_decoder *d, schema_entry *s, uint32_t count, uint32_t i)
{
    schema_entry *e = &s[i];
    uint32_t j = i + 1;
    if (e->type == PETW_IN_STRUCT) {
        uint32_t min = 0;
        for (uint32_t m = 0; m < e->members; m++) {
            d->counters.work++;
            PETW__RETURN_IF(j >= count, PETW_ECORRUPT);
            if (s[j].height + 1 > e->height)
                e->height = (uint8_t)(s[j].height + 1);
            min = sat_add(min, s[j].value_min);
            j = s[j].next;
        }
        PETW__RETURN_IF(e->height > MAX_DEPTH, PETW_ECORRUPT);
        e->elem_min = min;
    } else {
        e->elem_min = scalar_min(e->type);
    }
    e->next = j;
    if (e->arity == 0) {
        e->value_min = e->elem_min;
    } else if (e->arity == TL_ARITY_CONST) {
        uint64_t all = (uint64_t)e->count * e->elem_min;
        e->value_min = all > UINT32_MAX ? UINT32_MAX : (uint32_t)all;
    } else {
        e->value_min = 2; /* the u16 count or size */
    }
    return 0;
}

/* Room in the scratch array for one more entry. */
static int scratch_grow(petw_decoder *d, uint32_t count)
{
    if (count < d->scratch_cap)
        return 0;
    PETW__RETURN_IF(count == MAX_SCHEMA, PETW_ECORRUPT);
    return petw__array_grow((void **)&d->scratch, &d->scratch_cap, count, sizeof(*d->scratch));
}

/* Parses `size` schema bytes (its size field already checked) into the
 * scratch array: *count entries, *tops of them top-level. */
static int parse_schema(petw_decoder *d, const uint8_t *blob, size_t size, const char **event_name,
                        uint32_t *count, uint32_t *tops)
{
    const uint8_t *p = blob + 2, *end = blob + size;
    PETW__FORWARD_IF_ERROR(skip_tags(&p, end));
    *event_name = cstr(&p, end);
    PETW__RETURN_IF(!*event_name, PETW_ECORRUPT);
    d->counters.schema_parses++;
    uint32_t n = 0;
    while (p < end) {
        d->counters.work++;
        PETW__FORWARD_IF_ERROR(scratch_grow(d, n));
        PETW__FORWARD_IF_ERROR(parse_entry(&p, end, &d->scratch[n]));
        n++;
    }
    for (uint32_t i = n; i-- > 0;) {
        d->counters.work++;
        PETW__FORWARD_IF_ERROR(link_entry(d, d->scratch, n, i));
    }
    *tops = 0;
    for (uint32_t j = 0; j < n; j = d->scratch[j].next) {
        d->counters.work++;
        (*tops)++;
    }
    *count = n;
    return 0;
}

/* A schema's cache key. Collisions cost a parse, never a wrong answer: a
 * hit is confirmed byte by byte. */
static uint64_t schema_hash(const uint8_t *p, size_t n)
{
    return XXH64(p, n, 0);
}

static uint16_t *bucket_of(petw_decoder *d, uint64_t hash)
{
    return &d->bucket[hash & (CACHE_BUCKETS - 1)];
}

static void cache_evict(petw_decoder *d, uint32_t i)
{
    cached_schema *s = d->slot[i];
    uint16_t *link = bucket_of(d, s->hash);
    while (*link != i + 1)
        link = &d->slot[*link - 1]->chain;
    *link = s->chain;
    d->cache_bytes -= s->bytes;
    d->counters.evictions++;
    free(s);
    d->slot[i] = NULL;
}

/* The cached schema with `hash` and `size`: at most one per key (a new
 * schema with the same key replaces it), so a lookup compares bytes once. */
static uint32_t cache_find(petw_decoder *d, uint64_t hash, size_t size)
{
    for (uint16_t i = *bucket_of(d, hash); i; i = d->slot[i - 1]->chain) {
        const cached_schema *s = d->slot[i - 1];
        if (s->hash == hash && s->size == size)
            return i;
    }
    return 0;
}

/* Makes room for `bytes` more (the slot at the hand and older schemas go)
 * and files `s` there. */
static void cache_insert(petw_decoder *d, cached_schema *s)
{
    if (d->slot[d->hand])
        cache_evict(d, d->hand);
    for (uint32_t k = 1; k < CACHE_SLOTS && d->cache_bytes + s->bytes > CACHE_BYTES; k++)
        if (d->slot[(d->hand + k) % CACHE_SLOTS])
            cache_evict(d, (d->hand + k) % CACHE_SLOTS);
    uint16_t *head = bucket_of(d, s->hash);
    s->chain = *head;
    *head = (uint16_t)(d->hand + 1);
    d->slot[d->hand] = s;
    d->cache_bytes += s->bytes;
    d->hand = (d->hand + 1) % CACHE_SLOTS;
}

/* A parsed schema for `blob` (`size` bytes, its size field checked): from
 * the cache, or parsed and cached. */
static int find_schema(petw_decoder *d, const uint8_t *blob, size_t size, const cached_schema **out)
{
    uint64_t hash = schema_hash(blob, size);
    uint32_t i = cache_find(d, hash, size);
    if (i && memcmp(d->slot[i - 1]->entries + d->slot[i - 1]->count, blob, size) == 0) {
        d->counters.cache_hits++;
        *out = d->slot[i - 1];
        return 0;
    }
    const char *event_name;
    uint32_t count, tops;
    PETW__FORWARD_IF_ERROR(parse_schema(d, blob, size, &event_name, &count, &tops));
    size_t bytes = sizeof(cached_schema) + count * sizeof(schema_entry) + size;
    cached_schema *s = malloc(bytes);
    if (!s)
        return PETW_ENOMEM;
    if (i)
        cache_evict(d, i - 1); /* same key, other bytes: the newer one stays */
    uint8_t *copy = (uint8_t *)(s->entries + count);
    memcpy(copy, blob, size);
    if (count) /* a schema with no fields has no scratch yet */
        memcpy(s->entries, d->scratch, count * sizeof(schema_entry));
    for (uint32_t k = 0; k < count; k++)
        s->entries[k].name = (const char *)copy + (s->entries[k].name - (const char *)blob);
    s->event_name = (const char *)copy + (event_name - (const char *)blob);
    s->hash = hash;
    s->bytes = bytes;
    s->size = (uint32_t)size;
    s->count = count;
    s->tops = tops;
    cache_insert(d, s);
    *out = s;
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
    PETW__FORWARD_IF_ERROR(open_block(d, slot, PETW_VALUE_STRUCT, e->members, &first));
    uint32_t j = entry + 1;
    for (uint32_t m = 0; m < e->members; m++) {
        PETW__RETURN_IF(j >= d->schema_count, PETW_ECORRUPT);
        d->fields[first + m].parent = slot;
        PETW__FORWARD_IF_ERROR(decode_value(d, j, first + m, depth + 1));
        j = d->schema[j].next;
    }
    return 0;
}

/* A 16-byte IPv6 address as text, as Windows writes it. */
static int ipv6_string(petw_decoder *d, const uint8_t *p, uint32_t slot)
{
    char text[48];
    petw__ipv6_text(p, text, sizeof(text));
    return bytes_string(d, (const uint8_t *)text, strlen(text), slot);
}

/* A fixed-size number of in-type `type`, shown as out-type `out` says. */
static int decode_number(petw_decoder *d, uint8_t type, uint8_t out, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    size_t n = number_size(d, type);
    if (n == 0)
        return PETW_ECORRUPT; /* an in-type TraceLogging does not define */
    PETW__FORWARD_IF_ERROR(need(d, n));
    d->pos += n;
    uint64_t u = n == 1 ? p[0] : n == 2 ? petw__rd16(p) : n == 4 ? petw__rd32(p) : petw__rd64(p);
    int is_signed = type == PETW_IN_INT8 || type == PETW_IN_INT16 || type == PETW_IN_INT32 ||
                    type == PETW_IN_INT64;
    if (is_signed) {
        int64_t v = n == 1 ? (int8_t)u : n == 2 ? (int16_t)u : n == 4 ? (int32_t)u : (int64_t)u;
        f->kind = PETW_VALUE_INT;
        f->v.i = v;
    } else {
        f->kind = PETW_VALUE_UINT;
        f->v.u = u;
    }
    if (type == PETW_IN_FLOAT) {
        float x;
        memcpy(&x, p, 4);
        f->kind = PETW_VALUE_FLOAT;
        f->v.f = x;
    } else if (type == PETW_IN_DOUBLE) {
        memcpy(&f->v.f, p, 8);
        f->kind = PETW_VALUE_FLOAT;
    } else if (type == PETW_IN_FILETIME) {
        f->kind = PETW_VALUE_FILETIME;
        f->v.i = (int64_t)u;
    } else if (type == PETW_IN_BOOL32 || out == PETW_OUT_BOOLEAN) {
        f->kind = PETW_VALUE_BOOL;
        f->v.u = u != 0;
    } else if (type == PETW_IN_HEXINT32 || type == PETW_IN_HEXINT64 || type == PETW_IN_POINTER ||
               out == PETW_OUT_HEX || out == PETW_OUT_WIN32ERROR || out == PETW_OUT_NTSTATUS ||
               out == PETW_OUT_HRESULT) {
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

/* One value of a non-struct in-type, as it is laid out in TraceLogging and
 * in manifest templates without a length. */
static int decode_basic(petw_decoder *d, uint8_t type, uint8_t out, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    switch (type) {
    case PETW_IN_NULL:
        f->kind = PETW_VALUE_NONE;
        return 0;
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
        if (type == PETW_IN_COUNTEDSTRING)
            return utf16_string(d, p + 2, n / 2, slot);
        if (type == PETW_IN_COUNTEDANSISTRING)
            return bytes_string(d, p + 2, n, slot);
        if (out == PETW_OUT_IPV6 && n == 16)
            return ipv6_string(d, p + 2, slot);
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
        return decode_number(d, type, out, slot);
    }
}

/* One value (or, for arrays, one element) of schema entry `entry`. */
static int decode_scalar(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    const schema_entry *e = &d->schema[entry];
    if (e->type == PETW_IN_STRUCT)
        return decode_struct(d, entry, slot, depth);
    return decode_basic(d, e->type, e->out & TL_OUT_TYPE_MASK, slot);
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
    /* Refused before its fields are reserved when the payload cannot hold
     * the elements (decoding them would fail anyway). */
    PETW__RETURN_IF((uint64_t)count * e->elem_min > d->size - d->pos, PETW_ECORRUPT);
    uint32_t first;
    PETW__FORWARD_IF_ERROR(open_block(d, slot, PETW_VALUE_ARRAY, count, &first));
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
    for (uint32_t i = 0; i < d->field_count; i++) {
        if (d->fields[i].kind == PETW_VALUE_STRING)
            d->fields[i].v.s = d->arena + (size_t)(uintptr_t)d->fields[i].v.s;
        if (d->fields[i].label) /* offset + 1 */
            d->fields[i].label = d->arena + (size_t)(uintptr_t)d->fields[i].label - 1;
    }
}

/* The TraceLogging fields an event's schema describes. */
static int decode_schema_fields(petw_decoder *d, const uint8_t *schema, size_t schema_size)
{
    petw_decoded_event *r = &d->result;
    PETW__RETURN_IF(schema_size < 3, PETW_ECORRUPT);
    size_t declared = petw__rd16(schema);
    PETW__RETURN_IF(declared < 3 || declared > schema_size, PETW_ECORRUPT);
    const cached_schema *s;
    PETW__FORWARD_IF_ERROR(find_schema(d, schema, declared, &s));
    d->schema = s->entries;
    d->schema_count = s->count;
    r->event_name = s->event_name;
    r->has_schema = 1;
    /* Top-level entries: those not inside a struct. */
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, s->tops, &first));
    uint32_t j = 0;
    for (uint32_t k = 0; k < s->tops; k++) {
        d->fields[k].parent = UINT32_MAX;
        PETW__FORWARD_IF_ERROR(decode_value(d, j, k, 0));
        j = d->schema[j].next;
    }
    r->top_count = s->tops;
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

/* ---- manifest-described events ---- */

static int man_value(petw_decoder *d, const petw__man_provider *pv, uint32_t i, uint32_t slot,
                     int depth);

/* A string or binary field whose manifest gives a length: that many
 * characters (UTF-16 units for UnicodeString) or bytes, no terminator. */
static int man_sized(petw_decoder *d, uint8_t type, uint64_t length, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    uint64_t bytes = type == PETW_IN_UNICODESTRING ? 2 * length : length;
    PETW__RETURN_IF(bytes > d->size - d->pos, PETW_ECORRUPT);
    d->pos += (size_t)bytes;
    if (type == PETW_IN_UNICODESTRING) {
        size_t units = (size_t)length; /* up to the first NUL, if any */
        for (size_t k = 0; k < units; k++)
            if (petw__rd16(p + 2 * k) == 0)
                units = k;
        return utf16_string(d, p, units, slot);
    }
    if (type == PETW_IN_ANSISTRING)
        return bytes_string(d, p, strnlen((const char *)p, (size_t)length), slot);
    f->kind = PETW_VALUE_BINARY;
    f->v.bin.data = p;
    f->v.bin.size = (uint32_t)bytes;
    return 0;
}

/* The NT Kernel Logger's SID (PETW__IN_KERNEL_SID): 4 zero bytes for none,
 * else a TOKEN_USER (two pointer-size words) then the SID, read as
 * "S-1-5-21-...". */
static int kernel_sid(petw_decoder *d, uint32_t slot)
{
    const uint8_t *p = d->data + d->pos;
    PETW__FORWARD_IF_ERROR(need(d, 4));
    if (petw__rd32(p) == 0) {
        d->pos += 4;
        d->fields[slot].kind = PETW_VALUE_NONE;
        return 0;
    }
    size_t at = 2 * (size_t)d->pointer_size; /* the TOKEN_USER */
    PETW__FORWARD_IF_ERROR(need(d, at + 8));
    size_t n = p[at + 1];
    PETW__FORWARD_IF_ERROR(need(d, at + 8 + 4 * n));
    d->pos += at + 8 + 4 * n;
    char text[PETW__SID_TEXT_MAX];
    petw__sid_text(p + at, 8 + 4 * n, text, sizeof(text));
    size_t len = strlen(text);
    return bytes_string(d, (const uint8_t *)text, len, slot);
}

/* The bytes left of the payload when they hold a string of `type` (at
 * least one character) without its NUL, else 0. A manifest string (or
 * string array) is read so to the payload's end, as other ETW decoders do:
 * mc's code writes an array of strings with the size its caller gives, and
 * Windows' own samples give one that leaves the last NUL out. */
static size_t unterminated(const petw_decoder *d, uint8_t type)
{
    const uint8_t *p = d->data + d->pos;
    size_t left = d->size - d->pos;
    if (type == PETW_IN_ANSISTRING)
        return left && !memchr(p, 0, left) ? left : 0;
    if (type != PETW_IN_UNICODESTRING || left == 0 || left % 2)
        return 0;
    for (size_t k = 0; k < left; k += 2)
        if (petw__rd16(p + k) == 0)
            return 0;
    return left;
}

/* Field `i`'s length or count: fixed, or the number an earlier field held. */
static uint64_t man_size(const petw_decoder *d, const petw__man_field *f, uint16_t spec,
                         uint8_t ref_flag)
{
    return (f->flags & ref_flag) ? d->man_value[spec] : spec;
}

/* One value (one element, for arrays) of template field `i`. */
static int man_scalar(petw_decoder *d, const petw__man_provider *pv, uint32_t i, uint32_t slot,
                      int depth)
{
    const petw__man_field *f = &d->man[i];
    if (f->flags & PETW__MANF_STRUCT) {
        PETW__RETURN_IF(depth > MAX_DEPTH, PETW_ECORRUPT);
        uint32_t first;
        PETW__FORWARD_IF_ERROR(open_block(d, slot, PETW_VALUE_STRUCT, f->members, &first));
        uint32_t j = i + 1;
        for (uint32_t m = 0; m < f->members; m++) {
            d->fields[first + m].parent = slot;
            PETW__FORWARD_IF_ERROR(man_value(d, pv, j, first + m, depth + 1));
            j = d->man[j].next - (uint32_t)(d->man - pv->fields);
        }
        return 0;
    }
    size_t start = d->pos;
    int sized = (f->flags & (PETW__MANF_LENGTH | PETW__MANF_LENGTH_REF)) &&
                (f->in_type == PETW_IN_UNICODESTRING || f->in_type == PETW_IN_ANSISTRING ||
                 f->in_type == PETW_IN_BINARY);
    if (sized) {
        uint64_t length = man_size(d, f, f->length, PETW__MANF_LENGTH_REF);
        PETW__FORWARD_IF_ERROR(man_sized(d, f->in_type, length, slot));
        if (f->out_type == PETW_OUT_IPV6 && f->in_type == PETW_IN_BINARY && length == 16)
            PETW__FORWARD_IF_ERROR(ipv6_string(d, d->data + start, slot));
    } else if (f->in_type == PETW__IN_KERNEL_SID) {
        PETW__FORWARD_IF_ERROR(kernel_sid(d, slot));
    } else if (unterminated(d, f->in_type)) {
        size_t left = unterminated(d, f->in_type);
        PETW__FORWARD_IF_ERROR(
            man_sized(d, f->in_type, f->in_type == PETW_IN_UNICODESTRING ? left / 2 : left, slot));
    } else if (f->in_type == PETW_IN_BINARY) {
        /* Binary without a length: the rest of the payload. */
        PETW__FORWARD_IF_ERROR(man_sized(d, f->in_type, d->size - d->pos, slot));
    } else {
        PETW__FORWARD_IF_ERROR(decode_basic(d, f->in_type, f->out_type, slot));
    }
    petw_field *v = &d->fields[slot];
    uint64_t number =
        v->kind == PETW_VALUE_INT ? (uint64_t)v->v.i
        : (v->kind == PETW_VALUE_UINT || v->kind == PETW_VALUE_HEX || v->kind == PETW_VALUE_BOOL)
            ? v->v.u
            : 0;
    d->man_value[i] = number;
    char text[512];
    if (f->map >= 0 && v->kind != PETW_VALUE_STRING &&
        petw__manifest_map_text(pv, f->map, number, text, sizeof(text)) == 0) {
        size_t at;
        PETW__FORWARD_IF_ERROR(arena_reserve(d, strlen(text) + 1, &at));
        memcpy(d->arena + at, text, strlen(text) + 1);
        d->fields[slot].label = (const char *)(uintptr_t)(at + 1); /* fixed up at the end */
    }
    d->fields[slot].data_offset = (uint32_t)start;
    d->fields[slot].data_size = (uint32_t)(d->pos - start);
    return 0;
}

static int man_value(petw_decoder *d, const petw__man_provider *pv, uint32_t i, uint32_t slot,
                     int depth)
{
    const petw__man_field *f = &d->man[i];
    d->counters.work++;
    petw_field *fl = &d->fields[slot];
    uint8_t in_type = f->in_type == PETW__IN_KERNEL_SID ? PETW_IN_SID : f->in_type;
    fl->name = f->name;
    fl->in_type = in_type;
    fl->out_type = f->out_type;
    size_t start = d->pos;
    if (!(f->flags & (PETW__MANF_COUNT | PETW__MANF_COUNT_REF | PETW__MANF_COUNT_REST))) {
        PETW__FORWARD_IF_ERROR(man_scalar(d, pv, i, slot, depth));
    } else {
        uint64_t count = man_size(d, f, f->count, PETW__MANF_COUNT_REF);
        if (f->flags & PETW__MANF_COUNT_REST) {
            /* As many whole values as the payload holds. */
            size_t each = number_size(d, f->in_type);
            PETW__RETURN_IF(each == 0, PETW_ECORRUPT);
            count = (d->size - d->pos) / each;
        }
        /* Every element takes a byte at least (a struct or a Null none: at
         * most MAX_FIELDS of those). */
        PETW__RETURN_IF(count > d->size - d->pos && count > MAX_FIELDS, PETW_ECORRUPT);
        uint32_t first;
        PETW__FORWARD_IF_ERROR(open_block(d, slot, PETW_VALUE_ARRAY, (uint32_t)count, &first));
        for (uint32_t k = 0; k < count; k++) {
            petw_field *el = &d->fields[first + k];
            el->name = f->name;
            el->in_type = in_type;
            el->out_type = f->out_type;
            el->parent = slot;
            PETW__FORWARD_IF_ERROR(man_scalar(d, pv, i, first + k, depth + 1));
        }
    }
    d->fields[slot].data_offset = (uint32_t)start;
    d->fields[slot].data_size = (uint32_t)(d->pos - start);
    return 0;
}

/* The provider with `guid` in manifest `m`, or NULL. */
static const petw__man_provider *provider_in(const petw__manifest *m, const petw_guid *guid)
{
    for (uint32_t i = 0; i < petw__manifest_provider_count(m); i++) {
        const petw__man_provider *p = petw__manifest_provider(m, i);
        if (petw_guid_equal(&p->guid, guid))
            return p;
    }
    return NULL;
}

/* A classic kernel record's schema (by class, opcode and version), or
 * NULL. */
const petw__manifest *petw__decoder_kernel(petw_decoder *d)
{
    if (!d->kernel && !d->kernel_failed && petw__kernel_schemas(&d->kernel) != 0)
        d->kernel_failed = 1; /* out of memory: such events stay raw */
    return d->kernel;
}

/* The built-in provider (the .NET runtime's) with `guid`, or NULL. */
static const petw__man_provider *builtin_provider(petw_decoder *d, const petw_guid *guid)
{
    if (!d->clr && !d->clr_failed && petw__clr_schemas(&d->clr) != 0)
        d->clr_failed = 1; /* out of memory: such events stay raw */
    return d->clr ? provider_in(d->clr, guid) : NULL;
}

static const petw__man_event *kernel_event(petw_decoder *d, const petw_event_record *rec,
                                           const petw__man_provider **pv)
{
    *pv = petw__decoder_kernel(d) ? provider_in(d->kernel, &rec->header.provider_id) : NULL;
    return *pv ? petw__manifest_find_event(*pv, rec->header.descriptor.opcode,
                                           rec->header.descriptor.version)
               : NULL;
}

/* The provider with `guid` in the manifests added, or NULL. */
static const petw__man_provider *man_provider(petw_decoder *d, const petw_guid *guid)
{
    if (d->last_provider && petw_guid_equal(&d->last_provider->guid, guid))
        return d->last_provider;
    for (uint32_t m = 0; m < d->manifest_count; m++) {
        const petw__man_provider *p = provider_in(d->manifests[m], guid);
        if (p)
            return d->last_provider = p;
    }
    for (uint32_t m = 0; m < d->es_count; m++) {
        const petw__man_provider *p = provider_in(d->es_manifests[m].m, guid);
        if (p)
            return d->last_provider = p;
    }
    return NULL;
}

static int decode_manifest_fields(petw_decoder *d, const petw__man_provider *pv,
                                  const petw__man_event *ev)
{
    d->result.has_schema = 1;
    if (ev->field_count == 0) /* no template, or an empty one */
        return 0;
    d->man = pv->fields + ev->first_field;
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, ev->top_count, &first));
    uint32_t j = 0;
    for (uint32_t k = 0; k < ev->top_count; k++) {
        PETW__RETURN_IF(j >= ev->field_count, PETW_ECORRUPT);
        d->fields[k].parent = UINT32_MAX;
        PETW__FORWARD_IF_ERROR(man_value(d, pv, j, k, 0));
        j = d->man[j].next - ev->first_field;
    }
    d->result.top_count = ev->top_count;
    d->result.has_schema = 1;
    return 0;
}

/* Appends to the message buffer. */
static int msg_put(petw_decoder *d, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > d->message_cap) {
        size_t cap = d->message_cap ? d->message_cap : 256;
        while (cap < *len + n + 1)
            cap *= 2;
        char *m = realloc(d->message, cap);
        if (!m)
            return PETW_ENOMEM;
        d->message = m;
        d->message_cap = cap;
    }
    memcpy(d->message + *len, s, n);
    *len += n;
    d->message[*len] = 0;
    return 0;
}

/* A field's value as message text (what %N inserts). */
static void value_text(const petw_field *f, char *out, size_t size)
{
    if (f->label) {
        snprintf(out, size, "%s", f->label);
        return;
    }
    switch (f->kind) {
    case PETW_VALUE_INT:
        snprintf(out, size, "%lld", (long long)f->v.i);
        break;
    case PETW_VALUE_UINT:
        snprintf(out, size, "%llu", (unsigned long long)f->v.u);
        break;
    case PETW_VALUE_HEX:
        snprintf(out, size, "0x%llX", (unsigned long long)f->v.u);
        break;
    case PETW_VALUE_FLOAT:
        snprintf(out, size, "%g", f->v.f);
        break;
    case PETW_VALUE_BOOL:
        snprintf(out, size, "%s", f->v.u ? "true" : "false");
        break;
    case PETW_VALUE_STRING:
        snprintf(out, size, "%s", f->v.s);
        break;
    case PETW_VALUE_GUID: {
        char g[40];
        petw_guid_format(&f->v.guid, g);
        snprintf(out, size, "{%s}", g);
        break;
    }
    case PETW_VALUE_SYSTEMTIME:
        snprintf(out, size, "%04u-%02u-%02uT%02u:%02u:%02u.%03u", f->v.st[0], f->v.st[1],
                 f->v.st[3], f->v.st[4], f->v.st[5], f->v.st[6], f->v.st[7]);
        break;
    case PETW_VALUE_FILETIME:
        snprintf(out, size, "%lld", (long long)f->v.i);
        break;
    case PETW_VALUE_BINARY: {
        size_t n = 0;
        out[0] = 0;
        for (uint32_t k = 0; k < f->v.bin.size && n + 3 < size; k++)
            n += (size_t)snprintf(out + n, size - n, "%02X", f->v.bin.data[k]);
        break;
    }
    default:
        out[0] = 0;
    }
}

/* The event's message with its inserts: %N is top-level field N's value,
 * %!fmt! after it is dropped; %n, %t, %r, %b, %% and %. are what
 * FormatMessage makes of them. */
static int render_message(petw_decoder *d, const char *msg)
{
    size_t len = 0;
    char v[1024];
    PETW__FORWARD_IF_ERROR(msg_put(d, &len, "", 0));
    for (const char *s = msg; *s;) {
        const char *pct = strchr(s, '%');
        size_t n = pct ? (size_t)(pct - s) : strlen(s);
        PETW__FORWARD_IF_ERROR(msg_put(d, &len, s, n));
        if (!pct)
            break;
        s = pct + 1;
        if (*s >= '1' && *s <= '9') {
            unsigned k = 0;
            while (*s >= '0' && *s <= '9' && k < 1000)
                k = k * 10 + (unsigned)(*s++ - '0');
            if (*s == '!') { /* a printf-style format: the value is shown as petw shows it */
                const char *end = strchr(s + 1, '!');
                s = end ? end + 1 : s + strlen(s);
            }
            v[0] = 0;
            if (k >= 1 && k <= d->result.top_count)
                value_text(&d->fields[k - 1], v, sizeof(v));
            PETW__FORWARD_IF_ERROR(msg_put(d, &len, v, strlen(v)));
            continue;
        }
        const char *put = *s == 'n'   ? "\n"
                          : *s == 't' ? "\t"
                          : *s == 'r' ? "\r"
                          : *s == 'b' ? " "
                          : *s == '%' ? "%"
                          : *s == '.' ? "."
                                      : NULL;
        if (put) {
            PETW__FORWARD_IF_ERROR(msg_put(d, &len, put, 1));
            s++;
        } else {
            PETW__FORWARD_IF_ERROR(msg_put(d, &len, "%", 1));
        }
    }
    /* Trailing line breaks are the message file's, not the event's. */
    while (len && (d->message[len - 1] == '\n' || d->message[len - 1] == '\r'))
        d->message[--len] = 0;
    d->result.message = d->message;
    return 0;
}

/* ---- WPP messages a TMF file describes ---- */

/* The TMF message a TraceMessage record is, when every argument's item type
 * is one petw reads; else NULL (the record stays raw). */
static const petw__wpp_message *wpp_message(petw_decoder *d, const petw_event_record *rec)
{
    if (!(rec->header.flags & PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE))
        return NULL;
    for (uint32_t i = 0; i < d->tmf_count; i++) {
        const petw__wpp_message *m =
            petw__wpp_find(d->tmfs[i], &rec->header.provider_id, rec->header.descriptor.id);
        if (!m)
            continue;
        for (uint32_t k = 0; k < m->arg_count; k++)
            if (m->args[k].item == PETW__WPP_UNKNOWN)
                return NULL;
        return m;
    }
    return NULL;
}

static const uint8_t wpp_int_in[] = {0, PETW_IN_INT8, PETW_IN_INT16, 0, PETW_IN_INT32, 0, 0,
                                     0, PETW_IN_INT64};
static const uint8_t wpp_uint_in[] = {0, PETW_IN_UINT8, PETW_IN_UINT16, 0, PETW_IN_UINT32, 0, 0,
                                      0, PETW_IN_UINT64};

/* One argument into field `slot`, from d->pos. */
static int wpp_value(petw_decoder *d, const petw__wpp_arg *a, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    size_t left = d->size - d->pos;
    switch (a->item) {
    case PETW__WPP_STRING: {
        const uint8_t *nul = memchr(p, 0, left);
        PETW__RETURN_IF(!nul, PETW_ECORRUPT);
        f->in_type = PETW_IN_ANSISTRING;
        PETW__FORWARD_IF_ERROR(bytes_string(d, p, (size_t)(nul - p), slot));
        d->pos += (size_t)(nul - p) + 1;
        return 0;
    }
    case PETW__WPP_WSTRING: {
        size_t units = 0;
        while (2 * units + 1 < left && petw__rd16(p + 2 * units))
            units++;
        PETW__RETURN_IF(2 * units + 1 >= left, PETW_ECORRUPT);
        f->in_type = PETW_IN_UNICODESTRING;
        PETW__FORWARD_IF_ERROR(utf16_string(d, p, units, slot));
        d->pos += 2 * units + 2;
        return 0;
    }
    case PETW__WPP_GUID:
        PETW__FORWARD_IF_ERROR(need(d, 16));
        petw__rd_guid(p, &f->v.guid);
        f->in_type = PETW_IN_GUID;
        f->kind = PETW_VALUE_GUID;
        d->pos += 16;
        return 0;
    case PETW__WPP_DOUBLE:
        PETW__FORWARD_IF_ERROR(need(d, 8));
        uint64_t bits = petw__rd64(p);
        memcpy(&f->v.f, &bits, 8);
        f->in_type = PETW_IN_DOUBLE;
        f->kind = PETW_VALUE_FLOAT;
        d->pos += 8;
        return 0;
    default:
        break;
    }
    size_t n = a->item == PETW__WPP_POINTER ? (size_t)d->pointer_size : a->size;
    PETW__FORWARD_IF_ERROR(need(d, n));
    uint64_t v = n == 1 ? p[0] : n == 2 ? petw__rd16(p) : n == 4 ? petw__rd32(p) : petw__rd64(p);
    d->pos += n;
    if (a->item == PETW__WPP_INT) {
        int shift = (int)(64 - 8 * n);
        f->v.i = (int64_t)(v << shift) >> shift;
        f->kind = PETW_VALUE_INT;
        f->in_type = wpp_int_in[n];
        return 0;
    }
    f->v.u = v;
    f->kind =
        a->item == PETW__WPP_HEX || a->item == PETW__WPP_POINTER ? PETW_VALUE_HEX : PETW_VALUE_UINT;
    f->in_type = a->item == PETW__WPP_POINTER ? PETW_IN_POINTER : wpp_uint_in[n];
    if (a->item == PETW__WPP_ENUM && v < a->label_count) { /* ItemListLong's k-th name */
        const char *label = a->labels;
        for (uint64_t k = 0; k < v; k++)
            label += strlen(label) + 1;
        size_t at;
        PETW__FORWARD_IF_ERROR(arena_reserve(d, strlen(label) + 1, &at));
        memcpy(d->arena + at, label, strlen(label) + 1);
        f->label = (const char *)(uintptr_t)(at + 1); /* fixed up at the end */
    }
    return 0;
}

static int decode_wpp_fields(petw_decoder *d, const petw__wpp_message *m)
{
    uint32_t first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, m->arg_count, &first));
    for (uint32_t k = 0; k < m->arg_count; k++) {
        size_t start = d->pos;
        d->fields[k].name = m->args[k].name;
        d->fields[k].parent = UINT32_MAX;
        PETW__FORWARD_IF_ERROR(wpp_value(d, &m->args[k], k));
        d->fields[k].data_offset = (uint32_t)start;
        d->fields[k].data_size = (uint32_t)(d->pos - start);
    }
    d->result.top_count = m->arg_count;
    d->result.has_schema = 1;
    return 0;
}

/* A field's value as a WPP format's `!spec!` asks for it (flags, width
 * and precision kept; the size prefixes are the TMF's item's business). */
static void wpp_value_text(const petw_decoder *d, const petw_field *f, const char *spec,
                           size_t spec_len, char *out, size_t size)
{
    /* Flags, then a width and a precision of at most 3 digits each (a
     * TMF's spec is not trusted: a huge width would be slow to pad). */
    char fw[24] = "%", fmt[40];
    size_t n = 1, i = 0;
    while (i < spec_len && strchr("-+ #0", spec[i]) && n < 6)
        fw[n++] = spec[i++];
    for (int part = 0; part < 2; part++) {
        if (part == 1) {
            if (i >= spec_len || spec[i] != '.')
                break;
            fw[n++] = spec[i++];
        }
        for (int k = 0; i < spec_len && spec[i] >= '0' && spec[i] <= '9'; i++, k++)
            if (k < 3)
                fw[n++] = spec[i];
    }
    fw[n] = 0;
    char conv = spec_len ? spec[spec_len - 1] : 's';
    if (f->label || f->kind == PETW_VALUE_STRING) {
        snprintf(fmt, sizeof(fmt), "%ss", fw);
        snprintf(out, size, fmt, f->label ? f->label : f->v.s);
    } else if (f->kind == PETW_VALUE_GUID) {
        char g[37];
        petw_guid_format(&f->v.guid, g);
        snprintf(out, size, "%s", g);
    } else if (f->kind == PETW_VALUE_FLOAT) {
        snprintf(fmt, sizeof(fmt), "%s%c", fw, strchr("eEfFgGaA", conv) ? conv : 'f');
        snprintf(out, size, fmt, f->v.f);
    } else if (conv == 'p') {
        snprintf(out, size, "%0*" PRIX64, d->pointer_size * 2, f->v.u);
    } else if (conv == 'c') {
        snprintf(out, size, "%c", (int)(f->v.u & 0xFF));
    } else if (f->kind == PETW_VALUE_INT && (conv == 'd' || conv == 'i')) {
        snprintf(fmt, sizeof(fmt), "%slld", fw);
        snprintf(out, size, fmt, (long long)f->v.i);
    } else if (f->kind == PETW_VALUE_INT || f->kind == PETW_VALUE_UINT ||
               f->kind == PETW_VALUE_HEX) {
        uint64_t v = f->v.u;
        if (f->kind == PETW_VALUE_INT && f->data_size < 8) /* %x of a negative 32-bit value */
            v &= (UINT64_C(1) << (8 * f->data_size)) - 1;
        snprintf(fmt, sizeof(fmt), "%sll%c", fw, strchr("xXou", conv) ? conv : 'u');
        if (conv == 'd' || conv == 'i')
            snprintf(fmt, sizeof(fmt), "%sllu", fw);
        snprintf(out, size, fmt, (unsigned long long)v);
    } else {
        value_text(f, out, size);
    }
}

/* The message text: %N!spec! inserts argument N (10 onwards) or a fixed
 * insert (%1 the component, %2 file_line, %3 thread, %8 process, %9 CPU;
 * the times and sequence of %4 to %7 are left empty); %% is %. */
static int render_wpp(petw_decoder *d, const petw__wpp_message *m, const petw_event_record *rec)
{
    size_t len = 0;
    char v[1024];
    PETW__FORWARD_IF_ERROR(msg_put(d, &len, "", 0));
    for (const char *s = m->format; *s;) {
        const char *pct = strchr(s, '%');
        size_t n = pct ? (size_t)(pct - s) : strlen(s);
        PETW__FORWARD_IF_ERROR(msg_put(d, &len, s, n));
        if (!pct)
            break;
        s = pct + 1;
        if (*s < '0' || *s > '9') {
            PETW__FORWARD_IF_ERROR(msg_put(d, &len, "%", 1));
            if (*s == '%')
                s++;
            continue;
        }
        unsigned k = 0;
        while (*s >= '0' && *s <= '9' && k < 100000)
            k = k * 10 + (unsigned)(*s++ - '0');
        const char *spec = "s";
        size_t spec_len = 1;
        if (*s == '!') {
            const char *end = strchr(s + 1, '!');
            spec = s + 1;
            spec_len = end ? (size_t)(end - spec) : strlen(spec);
            s = end ? end + 1 : spec + spec_len;
        }
        v[0] = 0;
        if (k == 1)
            snprintf(v, sizeof(v), "%s", m->guid_name);
        else if (k == 2)
            snprintf(v, sizeof(v), "%s", m->type_name);
        else if (k == 3)
            snprintf(v, sizeof(v), "%u", rec->header.thread_id);
        else if (k == 8)
            snprintf(v, sizeof(v), "%u", rec->header.process_id);
        else if (k == 9)
            snprintf(v, sizeof(v), "%u", (unsigned)rec->buffer_context.u.p.processor_number);
        for (uint32_t i = 0; k >= 10 && i < m->arg_count; i++)
            if (m->args[i].number == k)
                wpp_value_text(d, &d->fields[i], spec, spec_len, v, sizeof(v));
        PETW__FORWARD_IF_ERROR(msg_put(d, &len, v, strlen(v)));
    }
    d->result.message = d->message;
    return 0;
}

/* Adds one line to the warnings; ENOMEM only. */
static int warn(petw_decoder *d, const char *fmt, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n < 0)
        return 0;
    size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
    if (d->warnings_len + len + 2 > d->warnings_cap) {
        size_t cap = d->warnings_cap ? d->warnings_cap * 2 : 1024;
        while (cap < d->warnings_len + len + 2)
            cap *= 2;
        char *w = realloc(d->warnings, cap);
        if (!w)
            return PETW_ENOMEM;
        d->warnings = w;
        d->warnings_cap = cap;
    }
    memcpy(d->warnings + d->warnings_len, line, len);
    d->warnings_len += len;
    d->warnings[d->warnings_len++] = '\n';
    d->warnings[d->warnings_len] = 0;
    return 0;
}

/* Adds the manifest `xml`. Lenient (a file of a directory), one with slips
 * is kept with what it can give and one that is no manifest is passed
 * over, each with a warning; else either fails, with the reason. */
static int add_manifest(petw_decoder *d, const void *xml, size_t size, const char *path,
                        int lenient)
{
    petw__manifest *m;
    char why[200];
    uint32_t problems = 0;
    int rc = lenient ? petw__manifest_parse_lenient(xml, size, &m, why, sizeof(why), &problems)
                     : petw__manifest_parse(xml, size, &m, why, sizeof(why));
    if (rc && lenient && rc != PETW_ENOMEM)
        return warn(d, "%s: %s (not read)", path, why);
    if (rc) {
        snprintf(d->error, sizeof(d->error), "%s%s%s", path ? path : "", path ? ": " : "", why);
        return rc;
    }
    rc = petw__array_grow((void **)&d->manifests, &d->manifest_cap, d->manifest_count,
                          sizeof(*d->manifests));
    if (rc) {
        petw__manifest_free(m);
        return rc;
    }
    d->manifests[d->manifest_count++] = m;
    if (problems > 1)
        return warn(d, "%s: %s (read without what it names; %u more like it)", path, why,
                    problems - 1);
    if (problems)
        return warn(d, "%s: %s (read without what it names)", path, why);
    return 0;
}

int petw_decoder_add_manifest_xml(petw_decoder *d, const void *xml, size_t size)
{
    PETW__RETURN_IF(!d || (!xml && size), PETW_EINVAL);
    d->error[0] = 0;
    return add_manifest(d, xml, size, NULL, 0);
}

/* Reads the file at `path` whole (at most 64 MB) into *buf (malloc'd). */
static int read_file(petw_decoder *d, const char *path, uint8_t **out, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(d->error, sizeof(d->error), "%s: cannot open", path);
        return PETW_ENOTFOUND;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (n == cap) {
            if (cap >= PETW__MAN_MAX_BYTES) {
                snprintf(d->error, sizeof(d->error), "%s: larger than %u MB", path,
                         PETW__MAN_MAX_BYTES >> 20);
                rc = PETW_ELIMIT;
                break;
            }
            cap = cap ? cap * 2 : 65536;
            uint8_t *b = realloc(buf, cap);
            if (!b) {
                rc = PETW_ENOMEM;
                break;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(d->error, sizeof(d->error), "%s: read error", path);
                rc = PETW_EIO;
            }
            break;
        }
    }
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *size = n;
    return 0;
}

static int add_tmf(petw_decoder *d, const void *text, size_t size, const char *path)
{
    petw__wpp *w;
    char why[200] = "";
    int rc = petw__wpp_parse(text, size, &w, why, sizeof(why));
    if (rc) {
        snprintf(d->error, sizeof(d->error), "%s%s%s", path ? path : "", path ? ": " : "", why);
        return rc;
    }
    rc = petw__array_grow((void **)&d->tmfs, &d->tmf_cap, d->tmf_count, sizeof(*d->tmfs));
    if (rc) {
        petw__wpp_free(w);
        return rc;
    }
    d->tmfs[d->tmf_count++] = w;
    return 0;
}

int petw_decoder_add_tmf_text(petw_decoder *d, const void *text, size_t size)
{
    PETW__RETURN_IF(!d || (!text && size), PETW_EINVAL);
    d->error[0] = 0;
    return add_tmf(d, text, size, NULL);
}

/* lenient: a manifest of a directory (add_manifest); one that cannot be
 * read is passed over with a warning. */
static int add_manifest_file(petw_decoder *d, const char *path, int tmf, int lenient)
{
    uint8_t *buf;
    size_t n;
    int rc = read_file(d, path, &buf, &n);
    if (rc && lenient && rc != PETW_ENOMEM) {
        rc = warn(d, "%s (not read)", d->error);
        d->error[0] = 0;
        return rc;
    }
    PETW__FORWARD_IF_ERROR(rc);
    rc = tmf ? add_tmf(d, buf, n, path) : add_manifest(d, buf, n, path, lenient);
    free(buf);
    return rc;
}

typedef struct dir_walk {
    char **names; /* the directory's files of the kind wanted */
    uint32_t names_count, names_cap;
    int tmf; /* *.tmf files, else *.man and *.xml */
    int rc;
} dir_walk;

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    if (a < b)
        return 0;
    for (size_t i = 0; i < b; i++) {
        char c = s[a - b + i];
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != suffix[i])
            return 0;
    }
    return 1;
}

static int dir_entry(const char *name, void *ctx)
{
    dir_walk *w = ctx;
    if (w->tmf ? !ends_with(name, ".tmf") : !ends_with(name, ".man") && !ends_with(name, ".xml"))
        return 0;
    size_t n = strlen(name) + 1;
    char *copy = malloc(n);
    if (!copy || petw__array_grow((void **)&w->names, &w->names_cap, w->names_count,
                                  sizeof(*w->names)) != 0) {
        free(copy);
        w->rc = PETW_ENOMEM;
        return w->rc;
    }
    memcpy(copy, name, n);
    w->names[w->names_count++] = copy;
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a directory, in the order of their names (so which of two
 * files describing one provider wins does not depend on the file system). */
static int add_path(petw_decoder *d, const char *path, int tmf)
{
    PETW__RETURN_IF(!d || !path, PETW_EINVAL);
    d->error[0] = 0;
    d->warnings_len = 0;
    if (d->warnings)
        d->warnings[0] = 0;
    dir_walk w = {NULL, 0, 0, tmf, 0};
    if (petw__dir_each(path, "", dir_entry, &w) != 0)
        return add_manifest_file(d, path, tmf, 0); /* not a directory: named, so it must load */
    if (w.names_count > 1)
        qsort(w.names, w.names_count, sizeof(*w.names), cmp_name);
    int rc = w.rc;
    char file[4096];
    for (uint32_t i = 0; rc == 0 && i < w.names_count; i++)
        if (snprintf(file, sizeof(file), "%s/%s", path, w.names[i]) < (int)sizeof(file))
            rc = add_manifest_file(d, file, tmf, !tmf);
    if (rc == 0 && w.names_count == 0) {
        snprintf(d->error, sizeof(d->error), "%s: no %s file in it", path,
                 tmf ? ".tmf" : ".man or .xml");
        rc = PETW_ENOTFOUND;
    }
    for (uint32_t i = 0; i < w.names_count; i++)
        free(w.names[i]);
    free(w.names);
    return rc;
}

int petw_decoder_add_manifest(petw_decoder *d, const char *path)
{
    return add_path(d, path, 0);
}

int petw_decoder_add_tmf(petw_decoder *d, const char *path)
{
    return add_path(d, path, 1);
}

uint32_t petw__decoder_manifest_count(const petw_decoder *d)
{
    return d->manifest_count;
}

const petw__manifest *petw__decoder_manifest(const petw_decoder *d, uint32_t i)
{
    return i < d->manifest_count ? d->manifests[i] : NULL;
}

const char *petw_decoder_warnings(const petw_decoder *d)
{
    return d && d->warnings_len ? d->warnings : "";
}

const char *petw_decoder_error(const petw_decoder *d)
{
    return d && d->error[0] ? d->error : "";
}

/* The provider name in the traits (u16 size, then the name, NUL-terminated),
 * copied into the arena; returns its arena offset or (size_t)-1. */
static size_t provider_name_at(petw_decoder *d, const uint8_t *traits, size_t traits_size)
{
    size_t name_at = (size_t)-1;
    if (!traits || traits_size < 3)
        return name_at;
    size_t declared = petw__rd16(traits);
    const uint8_t *p = traits + 2,
                  *end = traits + (declared <= traits_size ? declared : traits_size);
    const char *name = cstr(&p, end);
    if (name && arena_reserve(d, strlen(name) + 1, &name_at) == 0)
        memcpy(d->arena + name_at, name, strlen(name) + 1);
    return name_at;
}

/* ---- EventSource manifests in the trace ---- */

/* Keeps the manifest `xml` (malloc'd, taken over) that provider `guid`
 * wrote: a copy of the one kept is dropped, another replaces it. */
static int keep_stream_manifest(petw_decoder *d, const petw_guid *guid, uint8_t *xml, size_t size)
{
    char g[37];
    petw_guid_format(guid, g);
    uint64_t hash = XXH64(xml, size, 0);
    stream_manifest *old = NULL;
    for (uint32_t i = 0; i < d->es_count && !old; i++)
        if (petw_guid_equal(&d->es_manifests[i].guid, guid))
            old = &d->es_manifests[i];
    if (old && old->hash == hash && old->size == size) {
        free(xml); /* sent again as it was (each time a session enables it) */
        return 0;
    }
    size_t kept = d->es_bytes - (old ? old->size : 0);
    if (!old && d->es_count == MAX_STREAM_MANIFESTS) {
        free(xml);
        snprintf(d->error, sizeof(d->error),
                 "provider {%s}: its manifest would be the trace's %u-th; %u are kept at most", g,
                 MAX_STREAM_MANIFESTS + 1, MAX_STREAM_MANIFESTS);
        return PETW_ELIMIT;
    }
    if (size > PETW__ES_MAX_BYTES - kept) {
        free(xml);
        snprintf(d->error, sizeof(d->error),
                 "provider {%s}: its manifest (%zu bytes) would take the trace's manifests past "
                 "%u MB",
                 g, size, PETW__ES_MAX_BYTES >> 20);
        return PETW_ELIMIT;
    }
    petw__manifest *m;
    char why[200];
    int rc = petw__manifest_parse(xml, size, &m, why, sizeof(why));
    free(xml);
    if (rc) {
        snprintf(d->error, sizeof(d->error), "provider {%s}: the manifest in the trace: %s", g,
                 why);
        return rc;
    }
    if (!provider_in(m, guid)) {
        petw__manifest_free(m);
        snprintf(d->error, sizeof(d->error),
                 "provider {%s}: the manifest in the trace describes another provider", g);
        return PETW_ECORRUPT;
    }
    if (!old) {
        rc = petw__array_grow((void **)&d->es_manifests, &d->es_cap, d->es_count,
                              sizeof(*d->es_manifests));
        if (rc) {
            petw__manifest_free(m);
            return rc;
        }
        old = &d->es_manifests[d->es_count++];
        memset(old, 0, sizeof(*old));
        old->guid = *guid;
    }
    petw__manifest_free(old->m); /* the provider's events now read with the new one */
    d->last_provider = NULL;
    old->m = m;
    old->hash = hash;
    old->size = size;
    d->es_bytes = kept + size;
    return 0;
}

/* A ManifestData event: its envelope as fields, its chunk collected; the
 * provider's manifest kept once every chunk came. *pv: the provider, when
 * a manifest names it. */
static int decode_manifest_data(petw_decoder *d, const petw_event_record *rec,
                                const petw__man_provider **pv)
{
    const petw_guid *guid = &rec->header.provider_id;
    uint8_t *xml;
    size_t xml_size;
    char why[200];
    d->error[0] = 0;
    int rc = petw__es_add_chunk(&d->es, guid, rec->header.process_id, rec->header.thread_id,
                                d->data, d->size, &xml, &xml_size, why, sizeof(why));
    if (rc) {
        char g[37];
        petw_guid_format(guid, g);
        snprintf(d->error, sizeof(d->error), "provider {%s}: %s", g, why);
        return rc;
    }
    if (xml)
        PETW__FORWARD_IF_ERROR(keep_stream_manifest(d, guid, xml, xml_size));
    *pv = man_provider(d, guid);
    static const struct {
        const char *name;
        uint8_t in, out, offset, size;
    } env[] = {
        {"Format", PETW_IN_UINT8, 0, 0, 1},       {"MajorVersion", PETW_IN_UINT8, 0, 1, 1},
        {"MinorVersion", PETW_IN_UINT8, 0, 2, 1}, {"Magic", PETW_IN_UINT8, PETW_OUT_HEX, 3, 1},
        {"TotalChunks", PETW_IN_UINT16, 0, 4, 2}, {"ChunkNumber", PETW_IN_UINT16, 0, 6, 2},
    };
    uint32_t n = (uint32_t)PETW__ARRAY_SIZE(env), first;
    PETW__FORWARD_IF_ERROR(reserve_fields(d, n + 1, &first));
    for (uint32_t i = 0; i < n; i++) {
        petw_field *f = &d->fields[i];
        f->name = env[i].name;
        f->in_type = env[i].in;
        f->out_type = env[i].out;
        f->kind = env[i].out == PETW_OUT_HEX ? PETW_VALUE_HEX : PETW_VALUE_UINT;
        f->v.u = env[i].size == 1 ? d->data[env[i].offset] : petw__rd16(d->data + env[i].offset);
        f->parent = UINT32_MAX;
        f->data_offset = env[i].offset;
        f->data_size = env[i].size;
    }
    /* The chunk's XML: its size (the bytes are the manifest's, not the
     * event's to show). */
    petw_field *f = &d->fields[n];
    f->name = "ChunkSize";
    f->in_type = PETW_IN_UINT32;
    f->kind = PETW_VALUE_UINT;
    f->v.u = d->size - PETW__ES_ENVELOPE;
    f->parent = UINT32_MAX;
    f->data_offset = PETW__ES_ENVELOPE;
    f->data_size = (uint32_t)(d->size - PETW__ES_ENVELOPE);
    d->result.top_count = n + 1;
    d->result.has_schema = 1;
    return 0;
}

/* The name of a manifest event without a symbol (as .NET Framework's
 * EventSource writes them), as TraceEvent gives it: its task's, then
 * "/" and its opcode's unless that is Info; its arena offset in *at. */
static int name_from_task(petw_decoder *d, const petw__man_event *ev, size_t *at)
{
    const char *op = ev->opcode && ev->opcode_name ? ev->opcode_name : NULL;
    size_t n = strlen(ev->task_name) + (op ? 1 + strlen(op) : 0) + 1;
    PETW__FORWARD_IF_ERROR(arena_reserve(d, n, at));
    snprintf(d->arena + *at, n, "%s%s%s", ev->task_name, op ? "/" : "", op ? op : "");
    return 0;
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
    const petw__man_provider *pv = NULL;
    const petw__man_event *ev = NULL;
    int classic = (rec->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER) &&
                  !(rec->header.flags & PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE);
    /* An EventSource's ManifestData event (not one its manifest describes). */
    int es = !schema && !classic && !(rec->header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY) &&
             rec->header.descriptor.id == PETW__ES_MANIFEST_ID &&
             rec->header.descriptor.opcode == PETW__ES_MANIFEST_OPCODE;
    const petw__wpp_message *wm = NULL;
    if (schema || es)
        ;
    else if (d->tmf_count && (wm = wpp_message(d, rec)) != NULL)
        ;
    else if (classic)
        ev = kernel_event(d, rec, &pv);
    else if (((d->manifest_count || d->es_count) &&
              (pv = man_provider(d, &rec->header.provider_id)) != NULL) ||
             (pv = builtin_provider(d, &rec->header.provider_id)) != NULL)
        ev = petw__manifest_find_event(pv, rec->header.descriptor.id,
                                       rec->header.descriptor.version);
    if (schema)
        PETW__FORWARD_IF_ERROR(decode_schema_fields(d, schema, schema_size));
    else if (rec->header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY)
        PETW__FORWARD_IF_ERROR(decode_string_only(d));
    else if (es)
        PETW__FORWARD_IF_ERROR(decode_manifest_data(d, rec, &pv));
    else if (wm)
        PETW__FORWARD_IF_ERROR(decode_wpp_fields(d, wm));
    else if (ev)
        PETW__FORWARD_IF_ERROR(decode_manifest_fields(d, pv, ev));
    else
        PETW__FORWARD_IF_ERROR(decode_binary(d));
    size_t symbol_at = (size_t)-1;
    if (ev && !classic && !ev->symbol && ev->task_name)
        PETW__FORWARD_IF_ERROR(name_from_task(d, ev, &symbol_at));
    fix_strings(d);
    r->provider_name = name_at != (size_t)-1 ? d->arena + name_at : pv ? pv->name : NULL;
    if (ev && classic) {
        r->event_name = ev->symbol; /* the opcode's name in the class */
        r->opcode_name = ev->symbol;
    } else if (wm) {
        r->provider_name = wm->guid_name;
        r->event_name = r->wpp_type_name = wm->type_name;
        r->level_name = wm->level;
        r->wpp_function = wm->function;
        r->wpp_flags = wm->flags;
        r->wpp_component = wm->component;
        r->wpp_subcomponent = wm->subcomponent;
        PETW__FORWARD_IF_ERROR(render_wpp(d, wm, rec));
    } else if (es) {
        r->event_name = "ManifestData";
    } else if (ev) {
        /* Names for the values the record carries: a provider may write
         * an event with another task, opcode or level than its manifest's. */
        const petw_event_descriptor *ds = &rec->header.descriptor;
        r->event_name = symbol_at != (size_t)-1 ? d->arena + symbol_at : ev->symbol;
        r->task_name = ds->task == ev->task ? ev->task_name
                                            : petw__manifest_name(pv, PETW__MAN_TASK, 0, ds->task);
        r->opcode_name = ds->opcode == ev->opcode && ds->task == ev->task
                             ? ev->opcode_name
                             : petw__manifest_name(pv, PETW__MAN_OPCODE, ds->task, ds->opcode);
        r->level_name = ds->level == ev->level
                            ? ev->level_name
                            : petw__manifest_name(pv, PETW__MAN_LEVEL, 0, ds->level);
        if (ev->message)
            PETW__FORWARD_IF_ERROR(render_message(d, ev->message));
    }
    r->fields = d->fields;
    r->field_count = d->field_count;
    *out = r;
    return 0;
}
