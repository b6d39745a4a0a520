/* SPDX-License-Identifier: MIT */
/* manifest_internal.h - what manifest.c (reading the XML into raw lists) and
 * manifest_model.c (resolving each provider into manifest.h's model)
 * share: the raw lists, the parser's state and its error reporting; and
 * the order of events, which manifest_lookup.c searches in. Only those
 * three files include it.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#ifndef PETW_MANIFEST_INTERNAL_H
#define PETW_MANIFEST_INTERNAL_H

#include <expat.h>
#include <stdint.h>

#include "manifest.h"

/* ---- raw lists, as the document says ---- */

typedef struct raw_item { /* task, opcode, level, keyword or channel */
    const char *name, *value, *message, *symbol;
    const char *chid; /* a channel's other name */
    int32_t task;     /* an opcode defined inside a task: that task, else -1 */
    int line;
} raw_item;

typedef struct raw_event {
    const char *value, *version, *level, *task, *opcode, *keywords, *tmpl, *message, *symbol,
        *channel;
    int line;
} raw_event;

typedef struct raw_field {
    const char *name, *in, *out, *length, *count, *map;
    int is_struct;
    uint32_t members, parent; /* parent: the struct's index, or UINT32_MAX */
    int line;
} raw_field;

typedef struct raw_template {
    const char *tid;
    uint32_t first, count; /* in the provider's raw fields */
    int line;
} raw_template;

typedef struct raw_map {
    const char *name, *symbol;
    int bitmap;
    uint32_t first, count; /* in the provider's raw map entries */
    int line;
} raw_map;

typedef struct raw_map_entry {
    const char *value, *message, *symbol;
    int line;
} raw_map_entry;

#define LIST(T, n)                                                                                 \
    T *n;                                                                                          \
    uint32_t n##_count, n##_cap

typedef struct raw_provider {
    const char *name, *guid, *message, *symbol;
    int line;
    LIST(raw_event, events);
    LIST(raw_item, tasks);
    LIST(raw_item, opcodes);
    LIST(raw_item, levels);
    LIST(raw_item, keywords);
    LIST(raw_item, channels);
    LIST(raw_template, templates);
    LIST(raw_field, fields);
    LIST(raw_map, maps);
    LIST(raw_map_entry, map_entries);
} raw_provider;

typedef struct raw_string {
    const char *id, *value;
    int preferred; /* en-US, or no culture given */
} raw_string;

struct petw__manifest {
    petw__man_provider *providers;
    uint32_t provider_count;
    char **strings; /* every string the model points to */
    uint32_t strings_count, strings_cap;
};

#define STACK_DEPTH 64

typedef struct parser {
    XML_Parser xml;
    petw__manifest *m;
    LIST(raw_provider, raw);
    LIST(raw_string, texts);
    int32_t provider, task, tmpl, map, strukt; /* current elements, or -1 */
    int in_resources, preferred_culture;
    int builtin; /* petw's own table: the petw: extensions are allowed */
    /* The open elements' local names (the first STACK_DEPTH of them, cut
     * to fit), for telling a definition from a same-named element
     * elsewhere: <channel><publishing><level> is not a level, a
     * <counters><provider> not an event provider. */
    char stack[STACK_DEPTH][24];
    uint32_t depth;
    int rc;
    char *error;
    size_t error_size;
    /* Lenient: a slip (a name an event uses that is not defined) leaves the
     * event without that name, an event or provider that cannot be read is
     * left out; the first such problem is kept in `first`, all counted. */
    int lenient;
    uint32_t problems;
    char first[200];
} parser;

#define GROW(p, list)                                                                              \
    (petw__array_grow((void **)&(list), &list##_cap, list##_count, sizeof(*(list))) == 0           \
         ? 0                                                                                       \
         : petw__manifest_fail((p), PETW_ENOMEM, 0, "out of memory"))

/* Fails the parse with `rc` and a message (the first failure wins; expat
 * stops); returns `rc`. */
int petw__manifest_fail(parser *p, int rc, int line, const char *fmt, ...);
/* A name an event uses that the manifest does not define (or defines with
 * a bad value): a failure, or, lenient, a problem counted and passed over
 * (returns 0; the caller goes on without the name). */
int petw__manifest_slip(parser *p, int line, const char *fmt, ...);
/* Lenient: the failure just met (an event or provider that cannot be read)
 * becomes a problem passed over; returns 1 when it did, 0 when the failure
 * stands (not lenient, or not a flaw of the document). */
int petw__manifest_pass_over(parser *p);
/* manifest_model.c: raw provider `rp` resolved into `mp`, every name and
 * string it uses looked up; 0 or the failure (petw__manifest_fail's). */
int petw__manifest_resolve_provider(parser *p, const raw_provider *rp, petw__man_provider *mp);
/* manifest_lookup.c: the order of a provider's events, by id then version
 * (qsort's and bsearch's comparison of two petw__man_event). */
int petw__man_event_cmp(const void *a, const void *b);

#endif
