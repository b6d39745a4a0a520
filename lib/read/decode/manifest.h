/* SPDX-License-Identifier: MIT */
/* manifest.h - instrumentation manifests (.man), parsed into the model the
 * decoder walks: providers, their events by id and version, and each
 * event's template as a flat list of fields.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 *
 * The parser takes untrusted XML (expat: no external entities, its
 * entity-expansion limits kept) and refuses what it cannot use with a
 * message naming the line. Names that events use (task, opcode, level,
 * keywords, template, map, message) are resolved once the document is read,
 * so their order in the file does not matter.
 */
#ifndef PETW_MANIFEST_H
#define PETW_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "petw/types.h"

/* Limits on what one manifest may hold (beyond any real one). */
#define PETW__MAN_MAX_BYTES (64u << 20)
#define PETW__MAN_MAX_FIELDS 1024 /* fields of one template, members included */
#define PETW__MAN_MAX_COUNT 65535 /* a field's fixed length or count */

/* A field's flags. */
#define PETW__MANF_STRUCT 0x01u     /* `members` fields follow, its members */
#define PETW__MANF_LENGTH 0x02u     /* `length` holds: a fixed length */
#define PETW__MANF_LENGTH_REF 0x04u /* `length` is the index of the field giving it */
#define PETW__MANF_COUNT 0x08u      /* `count` holds: an array of that many */
#define PETW__MANF_COUNT_REF 0x10u  /* `count` is the index of the field giving it */
#define PETW__MANF_COUNT_REST 0x20u /* an array of fixed-size values to the payload's end */

/* In-types only the built-in kernel table names (petw__manifest_parse_builtin):
 * "petw:KernelSid", the NT Kernel Logger's SID: a TOKEN_USER (a SID pointer
 * and 4-byte attributes padded to pointer size) then the SID, or 4 zero
 * bytes for none. Fields of that type read as PETW_IN_SID. An array to the
 * payload's end is count="petw:rest" there. */
#define PETW__IN_KERNEL_SID 0xF0

typedef struct petw__man_field {
    const char *name;
    uint8_t in_type;  /* PETW_IN_* (win: in-types) */
    uint8_t out_type; /* PETW_OUT_* or 0 */
    uint8_t flags;    /* PETW__MANF_* */
    uint16_t members; /* a struct's direct members, which follow it */
    uint16_t length;
    uint16_t count;
    uint32_t next; /* index of the field after this one (and its members) */
    int32_t map;   /* index into the provider's maps, or -1 */
    uint32_t line; /* where the manifest defines it */
} petw__man_field;

typedef struct petw__man_map_entry {
    uint64_t value;
    const char *text;
} petw__man_map_entry;

typedef struct petw__man_map {
    const char *name;
    int bitmap;
    uint32_t first, count; /* entries in the provider's map_entries */
} petw__man_map;

typedef struct petw__man_event {
    uint16_t id;
    uint8_t version, level, opcode, channel;
    uint16_t task;
    uint64_t keywords;
    const char *task_name, *opcode_name, *level_name, *symbol;
    const char *message;                          /* the text with %1.. inserts, or NULL */
    uint32_t first_field, field_count, top_count; /* in the provider's fields */
    int has_template;
    const char *template_id; /* its template's tid, or NULL */
    uint32_t line;           /* where the manifest defines it */
} petw__man_event;

/* The provider's tasks, opcodes and levels by value, for naming what a
 * record carries (which may differ from its event's definition). */
#define PETW__MAN_TASK 0
#define PETW__MAN_OPCODE 1
#define PETW__MAN_LEVEL 2
#define PETW__MAN_ANY_TASK 0xFFFFFFFFu

typedef struct petw__man_name {
    uint32_t kind; /* PETW__MAN_TASK, _OPCODE or _LEVEL */
    uint32_t task; /* an opcode's task, or PETW__MAN_ANY_TASK */
    uint64_t value;
    const char *text;
} petw__man_name;

/* What the provider defines (not the standard win: ones), in document
 * order, with the symbols mc.exe names them by: kinds PETW__MAN_TASK,
 * _OPCODE and _LEVEL above, and these. */
#define PETW__MAN_KEYWORD 3
#define PETW__MAN_CHANNEL 4
#define PETW__MAN_MAP 5       /* value: 1 for a bitMap, 0 for a valueMap */
#define PETW__MAN_MAP_ENTRY 6 /* one of the map before it; name: its message */

typedef struct petw__man_item {
    uint32_t kind;
    uint32_t task; /* an opcode's task, or PETW__MAN_ANY_TASK */
    uint64_t value;
    const char *name, *symbol; /* symbol: NULL when the manifest gives none */
    uint32_t line;
    int bad; /* its value (or its task's) is not a number in range */
} petw__man_item;

typedef struct petw__man_provider {
    petw_guid guid;
    const char *name;
    const char *symbol; /* NULL when the manifest gives none */
    uint32_t line;
    petw__man_item *items;
    uint32_t item_count;
    const char *message;
    petw__man_event *events; /* sorted by id, then version */
    uint32_t event_count;
    petw__man_field *fields;
    uint32_t field_count;
    petw__man_map *maps;
    uint32_t map_count;
    petw__man_map_entry *map_entries;
    uint32_t map_entry_count;
    petw__man_name *names;
    uint32_t name_count;
} petw__man_provider;

typedef struct petw__manifest petw__manifest;

/* Parses `size` bytes of manifest XML. Returns 0 with *out set, or
 * PETW_ECORRUPT with `error` (at least 160 bytes) saying what and where,
 * or PETW_ENOMEM. */
int petw__manifest_parse(const void *xml, size_t size, petw__manifest **out, char *error,
                         size_t error_size);
/* The same, keeping what it can of a manifest with slips (as exported
 * manifests have): a name an event uses that the manifest does not define,
 * or defines with a bad value, leaves the event without it (an unknown
 * task: no task name, task 0); an event or provider that cannot be read
 * is left out. Returns 0 with *out set and *problems the number of such
 * slips, the first saying what and where in `error` ("" when none); or,
 * for a document it cannot use at all (malformed XML, no provider it can
 * read), what petw__manifest_parse returns. */
int petw__manifest_parse_lenient(const void *xml, size_t size, petw__manifest **out, char *error,
                                 size_t error_size, uint32_t *problems);
/* The same for petw's own tables, which may also use the petw: extensions
 * above (never accepted from a manifest given at run time). */
int petw__manifest_parse_builtin(const void *xml, size_t size, petw__manifest **out, char *error,
                                 size_t error_size);
void petw__manifest_free(petw__manifest *m);

uint32_t petw__manifest_provider_count(const petw__manifest *m);
const petw__man_provider *petw__manifest_provider(const petw__manifest *m, uint32_t i);

/* The event `id` version `version` of provider `p`, or NULL. */
const petw__man_event *petw__manifest_find_event(const petw__man_provider *p, uint16_t id,
                                                 uint8_t version);

/* The name of task `value` (kind PETW__MAN_TASK), of opcode `value` of
 * task `task` (PETW__MAN_OPCODE: the task's own opcodes, then the
 * provider's, then the standard ones) or of level `value`; NULL if none. */
const char *petw__manifest_name(const petw__man_provider *p, uint32_t kind, uint32_t task,
                                uint64_t value);

/* The text of `value` in map `map` (a bitmap's set flags joined by " | ")
 * into out; returns 0, or -1 when no entry matches. */
int petw__manifest_map_text(const petw__man_provider *p, int32_t map, uint64_t value, char *out,
                            size_t size);

#endif
