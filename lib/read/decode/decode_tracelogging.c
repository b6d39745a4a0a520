/* SPDX-License-Identifier: MIT */
/* decode_tracelogging.c - TraceLogging's self-describing events: the schema
 * each event carries, parsed once and cached, and the payload decoded by it.
 * decode.c picks the kind of event and holds the field primitives used here.
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
#include <stdlib.h>
#include <xxhash.h>

#include "../../base/common/common.h"
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

#define MAX_SCHEMA 4096

/* The schema cache: at most PETW__DECODE_CACHE_SLOTS schemas and CACHE_BYTES of
 * memory; when full, the oldest schema goes. */
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
        return (uint32_t)petw__decoder_type_size(type, 4); /* pointers: 4 or 8 */
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
 * or nesting deeper than PETW__DECODE_MAX_DEPTH, is corrupt. */
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
        PETW__RETURN_IF(e->height > PETW__DECODE_MAX_DEPTH, PETW_ECORRUPT);
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
    return &d->bucket[hash & (PETW__DECODE_CACHE_BUCKETS - 1)];
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
    for (uint32_t k = 1; k < PETW__DECODE_CACHE_SLOTS && d->cache_bytes + s->bytes > CACHE_BYTES;
         k++)
        if (d->slot[(d->hand + k) % PETW__DECODE_CACHE_SLOTS])
            cache_evict(d, (d->hand + k) % PETW__DECODE_CACHE_SLOTS);
    uint16_t *head = bucket_of(d, s->hash);
    s->chain = *head;
    *head = (uint16_t)(d->hand + 1);
    d->slot[d->hand] = s;
    d->cache_bytes += s->bytes;
    d->hand = (d->hand + 1) % PETW__DECODE_CACHE_SLOTS;
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

static int decode_value(petw_decoder *d, uint32_t entry, uint32_t slot, int depth);
static int decode_value_at(petw_decoder *d, uint32_t entry, uint32_t slot, int depth);

/* Members of struct entry `entry` into a new block under `slot`. */
static int decode_struct(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    const schema_entry *e = &d->schema[entry];
    uint32_t first;
    PETW__FORWARD_IF_ERROR(
        petw__decoder_open_block(d, slot, PETW_VALUE_STRUCT, e->members, &first));
    uint32_t j = entry + 1;
    for (uint32_t m = 0; m < e->members; m++) {
        PETW__RETURN_IF(j >= d->schema_count, PETW_ECORRUPT);
        d->fields[first + m].parent = slot;
        PETW__FORWARD_IF_ERROR(decode_value(d, j, first + m, depth + 1));
        j = d->schema[j].next;
    }
    return 0;
}

/* One value (or, for arrays, one element) of schema entry `entry`. */
static int decode_scalar(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    const schema_entry *e = &d->schema[entry];
    if (e->type == PETW_IN_STRUCT)
        return decode_struct(d, entry, slot, depth);
    return petw__decoder_basic(d, e->type, e->out & TL_OUT_TYPE_MASK, slot);
}

static int decode_value(petw_decoder *d, uint32_t entry, uint32_t slot, int depth)
{
    d->counters.work++;
    PETW__RETURN_IF(depth > PETW__DECODE_MAX_DEPTH || entry >= d->schema_count, PETW_ECORRUPT);
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
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 2));
        size_t n = petw__rd16(d->data + d->pos);
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 2 + n));
        f->kind = PETW_VALUE_BINARY;
        f->v.bin.data = d->data + d->pos + 2;
        f->v.bin.size = (uint32_t)n;
        d->pos += 2 + n;
        return 0;
    }
    uint32_t count = e->count;
    if (e->arity == TL_ARITY_VAR) {
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 2));
        count = petw__rd16(d->data + d->pos);
        d->pos += 2;
    }
    /* Refused before its fields are reserved when the payload cannot hold
     * the elements (decoding them would fail anyway). */
    PETW__RETURN_IF((uint64_t)count * e->elem_min > d->size - d->pos, PETW_ECORRUPT);
    uint32_t first;
    PETW__FORWARD_IF_ERROR(petw__decoder_open_block(d, slot, PETW_VALUE_ARRAY, count, &first));
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

/* The TraceLogging fields an event's schema describes. */
int petw__decoder_tracelogging_fields(petw_decoder *d, const uint8_t *schema, size_t schema_size)
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
    PETW__FORWARD_IF_ERROR(petw__decoder_reserve_fields(d, s->tops, &first));
    uint32_t j = 0;
    for (uint32_t k = 0; k < s->tops; k++) {
        d->fields[k].parent = UINT32_MAX;
        PETW__FORWARD_IF_ERROR(decode_value(d, j, k, 0));
        j = d->schema[j].next;
    }
    r->top_count = s->tops;
    return 0;
}

/* The provider name in the traits (u16 size, then the name, NUL-terminated),
 * copied into the arena; returns its arena offset or (size_t)-1. */
size_t petw__decoder_tracelogging_provider_name(petw_decoder *d, const uint8_t *traits,
                                                size_t traits_size)
{
    size_t name_at = (size_t)-1;
    if (!traits || traits_size < 3)
        return name_at;
    size_t declared = petw__rd16(traits);
    const uint8_t *p = traits + 2,
                  *end = traits + (declared <= traits_size ? declared : traits_size);
    const char *name = cstr(&p, end);
    if (name && petw__decoder_arena_reserve(d, strlen(name) + 1, &name_at) == 0)
        memcpy(d->arena + name_at, name, strlen(name) + 1);
    return name_at;
}
