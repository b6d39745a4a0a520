/* SPDX-License-Identifier: MIT */
/* petw/manifest.h - a read-only view of an instrumentation manifest (.man),
 * parsed by the same parser the decoder uses: its providers, their events,
 * each event's template fields, and the keywords, tasks, opcodes, levels
 * and channels the provider defines, with the symbols mc.exe names them by.
 * For tools that generate code from a manifest (`petw mc`).
 *
 * Everything returned points into the petw_manifest and is valid until
 * petw_manifest_free(). A parsed manifest is immutable: any number of
 * threads may read it.
 */
#ifndef PETW_MANIFEST_VIEW_H
#define PETW_MANIFEST_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h" /* PETW_IN_*, PETW_OUT_* */
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct petw_manifest petw_manifest;

typedef struct petw_manifest_provider {
    const char *name;
    const char *symbol; /* NULL when the manifest gives none */
    petw_guid guid;
    uint32_t event_count; /* events, sorted by id, then version */
    uint32_t item_count;  /* keywords, tasks, opcodes, levels, channels, maps and entries */
    uint32_t line;        /* where the manifest defines it */
} petw_manifest_provider;

/* Kinds of petw_manifest_item. */
#define PETW_MANIFEST_TASK 0
#define PETW_MANIFEST_OPCODE 1
#define PETW_MANIFEST_LEVEL 2
#define PETW_MANIFEST_KEYWORD 3
#define PETW_MANIFEST_CHANNEL 4
#define PETW_MANIFEST_MAP 5       /* a valueMap (value 0) or bitMap (value 1) */
#define PETW_MANIFEST_MAP_ENTRY 6 /* an entry of the last map before it; name: its text */
#define PETW_MANIFEST_ANY_TASK 0xFFFFFFFFu

/* A keyword (value: its mask), task, opcode, level or channel the provider
 * defines (the standard win: ones are not listed), in document order, all
 * tasks first, then opcodes, levels, keywords, channels; then its maps,
 * each followed by its entries. */
typedef struct petw_manifest_item {
    uint32_t kind; /* PETW_MANIFEST_* */
    uint32_t task; /* an opcode defined inside a task: that task's value, else _ANY_TASK */
    uint64_t value;
    const char *name;
    const char *symbol; /* NULL when the manifest gives none */
    uint32_t line;
    int valid; /* 0: its value is not a number in range (no event uses it) */
} petw_manifest_item;

typedef struct petw_manifest_event {
    uint16_t id;
    uint8_t version, channel, level, opcode;
    uint16_t task;
    uint64_t keywords;
    const char *symbol;      /* NULL when the manifest gives none */
    const char *template_id; /* its template's tid, or NULL (no payload) */
    uint32_t field_count;    /* its template's fields, struct members included */
    uint32_t top_count;      /* of which top-level */
    uint32_t line;
} petw_manifest_event;

/* A field's flags. */
#define PETW_MANIFEST_FIELD_STRUCT 0x01u     /* `members` fields follow: its members */
#define PETW_MANIFEST_FIELD_LENGTH 0x02u     /* `length` is a fixed length */
#define PETW_MANIFEST_FIELD_LENGTH_REF 0x04u /* `length` is the index of the field holding it */
#define PETW_MANIFEST_FIELD_COUNT 0x08u      /* `count` is a fixed element count */
#define PETW_MANIFEST_FIELD_COUNT_REF 0x10u  /* `count` is the index of the field holding it */

/* One field of an event's template. Indexes (`length` and `count`
 * references, `next`, `parent`) count the event's fields from 0. */
typedef struct petw_manifest_field {
    const char *name;
    uint8_t in_type;  /* PETW_IN_* (PETW_IN_STRUCT for a struct) */
    uint8_t out_type; /* PETW_OUT_* or 0 */
    uint32_t flags;   /* PETW_MANIFEST_FIELD_* */
    uint32_t members; /* a struct's direct members */
    uint32_t length, count;
    uint32_t next;   /* the field after this one and its members */
    uint32_t parent; /* the struct holding it, or UINT32_MAX */
    uint32_t line;
} petw_manifest_field;

/* Parses `size` bytes of manifest XML. Returns 0 with *out set, or
 * PETW_ECORRUPT with `error` (at least 160 bytes is enough) saying what
 * and on which line, PETW_EINVAL or PETW_ENOMEM. */
int petw_manifest_parse(const void *xml, size_t size, petw_manifest **out, char *error,
                        size_t error_size);
/* NULL is fine. */
void petw_manifest_free(petw_manifest *m);

uint32_t petw_manifest_provider_count(const petw_manifest *m);
/* Each returns 0 with *out filled, or PETW_EINVAL for an index out of range. */
int petw_manifest_get_provider(const petw_manifest *m, uint32_t provider,
                               petw_manifest_provider *out);
int petw_manifest_get_item(const petw_manifest *m, uint32_t provider, uint32_t item,
                           petw_manifest_item *out);
int petw_manifest_get_event(const petw_manifest *m, uint32_t provider, uint32_t event,
                            petw_manifest_event *out);
int petw_manifest_get_field(const petw_manifest *m, uint32_t provider, uint32_t event,
                            uint32_t field, petw_manifest_field *out);

#ifdef __cplusplus
}
#endif
#endif
