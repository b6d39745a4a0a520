/* SPDX-License-Identifier: MIT */
/* pdb_records.c - the records of a PDB's record streams: the type and ID
 * streams (records found by index: the names of inlinees and their
 * classes) and the publics of the symbol record stream (loaded on first
 * use, sorted by address, their names undecorated). pdb.c opens the
 * container and reads the streams; every size a record gives is checked
 * against what holds it.
 *
 * Allowed dependencies: common, platform.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_internal.h"
#include "undecorate.h"

#define S_PUB32 0x110e

/* ---- type and ID streams ---- */

/* A sequential reader over a stream, a window at a time. */
typedef struct cursor {
    petw_pdb *pdb;
    uint32_t stream, size;
    uint32_t base, len; /* the window: stream bytes [base, base + len) */
    uint8_t buf[65536];
} cursor;

/* Makes bytes [at, at + n) of the stream readable at c->buf + (at - c->base). */
static int cursor_need(cursor *c, uint32_t at, uint32_t n)
{
    if (at >= c->base && n <= c->len && at - c->base <= c->len - n)
        return 0;
    if (at > c->size || n > c->size - at || n > sizeof(c->buf))
        return PETW_ECORRUPT;
    uint32_t len = c->size - at < sizeof(c->buf) ? c->size - at : (uint32_t)sizeof(c->buf);
    PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(c->pdb, c->stream, at, c->buf, len));
    c->base = at;
    c->len = len;
    return 0;
}

static int types_load(petw_pdb *pdb, pdb_types *t, uint32_t stream)
{
    if (t->loaded)
        return t->offsets ? 0 : PETW_ECORRUPT;
    t->loaded = 1;
    uint8_t h[20];
    uint32_t size = petw__pdb_stream_size(pdb, stream);
    if (size < 56 || petw__pdb_stream_read(pdb, stream, 0, h, sizeof(h)) < 0)
        return PETW_ECORRUPT;
    uint32_t header = petw__rd32(h + 4), first = petw__rd32(h + 8), end = petw__rd32(h + 12);
    uint32_t bytes = petw__rd32(h + 16);
    if (header < 56 || header > size || bytes > size - header || end < first ||
        end - first > bytes / 4)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "type stream %u's header is bad", stream);
    cursor *c = malloc(sizeof(*c));
    uint32_t *offsets = malloc((size_t)(end - first) * 4 + 4);
    if (!c || !offsets) {
        free(c);
        free(offsets);
        return PETW_ENOMEM;
    }
    *c = (cursor){.pdb = pdb, .stream = stream, .size = header + bytes};
    uint32_t at = header;
    int rc = 0;
    for (uint32_t i = 0; i < end - first; i++) {
        if ((rc = cursor_need(c, at, 2)) < 0)
            break;
        offsets[i] = at;
        at += 2 + petw__rd16(c->buf + (at - c->base));
    }
    free(c);
    if (rc < 0) {
        free(offsets);
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "type stream %u is truncated", stream);
    }
    t->first = first;
    t->end = end;
    t->offsets = offsets;
    return 0;
}

/* Type record `index` of `t` into buf (at most PDB_MAX_RECORD + 2 bytes):
 * its kind and the bytes after it. Returns the data size or an error. */
static int type_record(petw_pdb *pdb, pdb_types *t, uint32_t stream, uint32_t index, uint8_t *buf,
                       uint16_t *kind)
{
    *kind = 0;
    PETW__FORWARD_IF_ERROR(types_load(pdb, t, stream));
    if (index < t->first || index >= t->end)
        return PETW_ECORRUPT;
    uint8_t h[4];
    uint32_t at = t->offsets[index - t->first];
    PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(pdb, stream, at, h, 4));
    uint32_t len = petw__rd16(h);
    if (len < 2)
        return PETW_ECORRUPT;
    *kind = petw__rd16(h + 2);
    PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(pdb, stream, at + 4, buf, len - 2));
    return (int)(len - 2);
}

/* Size of the numeric leaf at p (n bytes there), or 0 when malformed. */
static uint32_t numeric_size(const uint8_t *p, uint32_t n)
{
    if (n < 2)
        return 0;
    uint16_t v = petw__rd16(p);
    if (v < 0x8000)
        return 2;
    switch (v) {
    case 0x8000:
        return 3; /* LF_CHAR */
    case 0x8001:
    case 0x8002:
        return 4; /* LF_SHORT, LF_USHORT */
    case 0x8003:
    case 0x8004:
        return 6; /* LF_LONG, LF_ULONG */
    case 0x8009:
    case 0x800a:
        return 10; /* LF_QUADWORD, LF_UQUADWORD */
    default:
        return 0;
    }
}

static const char *record_string(petw_pdb *pdb, const uint8_t *buf, int len, uint32_t at)
{
    if (len < 0 || at >= (uint32_t)len)
        return NULL;
    const uint8_t *nul = memchr(buf + at, 0, (uint32_t)len - at);
    size_t n = nul ? (size_t)(nul - (buf + at)) : (uint32_t)len - at;
    return petw__pdb_intern(pdb, (const char *)buf + at, n);
}

/* The name of a class, structure, union or enum of the TPI. */
static const char *class_name(petw_pdb *pdb, uint32_t index, uint8_t *buf)
{
    uint16_t kind;
    int len = type_record(pdb, &pdb->tpi, PDB_STREAM_TPI, index, buf, &kind);
    uint32_t at;
    switch (kind) {
    case 0x1504:
    case 0x1505:
    case 0x1519: /* LF_CLASS, LF_STRUCTURE, LF_INTERFACE */
        at = 16;
        break;
    case 0x1506: /* LF_UNION */
        at = 8;
        break;
    case 0x1507: /* LF_ENUM: no numeric leaf */
        return record_string(pdb, buf, len, 12);
    default:
        return NULL;
    }
    if (len < 0 || (uint32_t)len < at)
        return NULL;
    uint32_t n = numeric_size(buf + at, (uint32_t)len - at);
    return n ? record_string(pdb, buf, len, at + n) : NULL;
}

const char *petw__pdb_inlinee_name(petw_pdb *pdb, uint32_t id)
{
    uint8_t *buf = malloc(PDB_MAX_RECORD + 2);
    if (!buf)
        return NULL;
    uint16_t kind;
    const char *result = NULL;
    int len = type_record(pdb, &pdb->ipi, PDB_STREAM_IPI, id, buf, &kind);
    if (len >= 8 && (kind == 0x1601 || kind == 0x1602)) { /* LF_FUNC_ID, LF_MFUNC_ID */
        uint32_t scope = petw__rd32(buf);
        const char *name = record_string(pdb, buf, len, 8);
        const char *outer = NULL;
        if (kind == 0x1602) {
            outer = class_name(pdb, scope, buf);
        } else if (scope) {
            int n = type_record(pdb, &pdb->ipi, PDB_STREAM_IPI, scope, buf, &kind);
            if (kind == 0x1605) /* LF_STRING_ID: the scope's qualified name */
                outer = record_string(pdb, buf, n, 4);
        }
        if (name && outer && *outer) {
            size_t a = strlen(outer), b = strlen(name);
            char *q = malloc(a + 2 + b);
            if (q) {
                memcpy(q, outer, a);
                memcpy(q + a, "::", 2);
                memcpy(q + a + 2, name, b);
                result = petw__pdb_intern(pdb, q, a + 2 + b);
                free(q);
            }
        } else {
            result = name;
        }
    }
    free(buf);
    return result;
}

/* ---- publics ---- */

static int by_public(const void *a, const void *b)
{
    const pdb_public *x = a, *y = b;
    if (x->segment != y->segment)
        return x->segment < y->segment ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int petw__pdb_load_publics(petw_pdb *pdb)
{
    if (pdb->publics_loaded)
        return 0;
    pdb->publics_loaded = 1;
    uint32_t stream = pdb->symbol_record_stream;
    if (stream == PDB_NO_STREAM || stream >= pdb->stream_count)
        return 0;
    cursor *c = malloc(sizeof(*c));
    PETW__RETURN_IF(!c, PETW_ENOMEM);
    *c = (cursor){.pdb = pdb, .stream = stream, .size = petw__pdb_stream_size(pdb, stream)};
    uint32_t cap = 0;
    int rc = 0;
    for (uint32_t at = 0; at + 4 <= c->size;) {
        if ((rc = cursor_need(c, at, 4)) < 0)
            break;
        const uint8_t *r = c->buf + (at - c->base);
        uint32_t len = petw__rd16(r);
        if (len < 2)
            break;
        if (petw__rd16(r + 2) == S_PUB32 && len >= 12) {
            if ((rc = cursor_need(c, at, 14)) < 0)
                break;
            r = c->buf + (at - c->base);
            uint32_t flags = petw__rd32(r + 4);
            if (flags & 3) { /* code or function */
                if (pdb->public_count == cap) {
                    rc = petw__array_grow((void **)&pdb->publics, &cap, pdb->public_count,
                                          sizeof(pdb_public));
                    if (rc < 0)
                        break;
                }
                pdb->publics[pdb->public_count++] =
                    (pdb_public){petw__rd16(r + 12), petw__rd32(r + 8), at};
            }
        }
        at += 2 + len;
    }
    free(c);
    if (rc == PETW_ENOMEM)
        return rc;
    if (pdb->public_count)
        qsort(pdb->publics, pdb->public_count, sizeof(pdb_public), by_public);
    return 0;
}

const char *petw__pdb_public_name(petw_pdb *pdb, uint32_t record)
{
    const char *raw = petw__pdb_stream_string(pdb, pdb->symbol_record_stream, (uint64_t)record + 14,
                                              (uint64_t)record + 14 + 4096);
    if (!raw)
        return NULL;
    char plain[1024];
    int n = petw__pdb_undecorate(raw, plain, sizeof(plain));
    if (n <= 0)
        return raw;
    const char *name = petw__pdb_intern(pdb, plain, (size_t)n);
    return name ? name : raw;
}
