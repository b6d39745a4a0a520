/* SPDX-License-Identifier: MIT */
/* recording_profile_wprp.h - what recording_profile_wprp.c (reading a WPR
 * profile file into a table of the elements that matter) and
 * recording_profile_wprp_resolve.c (resolving the chosen profile from the
 * table) share: the table, and WPR's system keywords and stacks as the
 * kernel groups petw records. Built with expat only. */
#ifndef RECORDING_PROFILE_WPRP_H
#define RECORDING_PROFILE_WPRP_H

#include <expat.h>
#include <stddef.h>
#include <stdint.h>

#include "recording_profile_internal.h"

#define WP_MAX_ITEMS 2048 /* elements that matter, and notes, in one file */
#define WP_MAX_DEPTH 12   /* nesting of the elements that matter (8 at most) */
#define WP_MAX_BASE 16    /* a Base chain */
#define WP_CHUNK (1 << 20)
#define WP_WHO 400 /* how a message names an item: an element, an Id or a Name */

/* What an item is: a <Profile>, an <EventCollector> or <EventCollectorId>,
 * an <EventProvider> or <EventProviderId>, a kernel collector reference
 * (<SystemCollectorId>; <HeapEventCollectorId>: reported, never recorded),
 * or a <SystemProvider> or <SystemProviderId> (the kernel groups). */
enum { WP_PROFILE, WP_COLLECTOR, WP_PROVIDER, WP_SYSTEM, WP_SYSPROV };

typedef struct wp_item {
    int type;
    int ref;   /* a reference (...Id Value=): `base` names what it uses */
    int owner; /* the profile a collector reference is in, the collector reference
                  a profile's provider is in; -1 */
    long line;
    char id[128];
    char base[128];
    char name[256];    /* a provider's GUID or name ('*' removed), a profile's Name,
                          a kernel collector reference's element */
    char detail[16];   /* a profile's DetailLevel */
    int memory;        /* a profile's LoggingMode: -1 not given, 0 File, 1 Memory */
    int set, add;      /* has its list (a profile's Collectors, a reference's
                          EventProviders, a provider's Keywords), with Operation="Add" */
    uint64_t keywords; /* the Keyword values, OR-ed (a SystemProvider's: bits of sys_keywords) */
    int stacks_set, stacks_add; /* a SystemProvider's Stacks, with Operation="Add" */
    uint64_t stacks;            /* bits of sys_stacks */
    int level, stack;           /* -1: not given */
    uint32_t kb;                /* a collector's BufferSize, 0: not given */
    uint32_t buffers;           /* its Buffers, 0: not given */
    int percent;                /* Buffers is a percentage of memory */
    int base_at;                /* the item `base` names: -2 not looked up yet, -1 none */
    int reported;               /* its notes are in the profile's unsupported lines */
} wp_item;

typedef struct wp_note {
    int item; /* -1: the whole file */
    char text[96];
} wp_note;

typedef struct wp {
    XML_Parser parser;
    wp_item *items;
    int count, cap;
    wp_note *notes;
    int note_count, note_cap;
    int kind[WP_MAX_DEPTH], at[WP_MAX_DEPTH], depth;
    int skip; /* > 0: inside an element whose content does not matter */
    int failed;
    char *err;
    size_t err_size;
} wp;

/* WPR's system keywords (WPRControlProfiles.xsd's SystemKeywordEnumeration)
 * and the system stacks petw records, each with the kernel groups `--kernel`
 * or `--stacks` takes: "" when petw always records it, NULL when petw has no
 * source for it (recording_profile_wprp.c). An item's keyword and stack bits
 * are indexes in these. */
typedef struct recording_profile__wpr_name {
    const char *wpr, *petw;
} recording_profile__wpr_name;
extern const recording_profile__wpr_name recording_profile__wpr_sys_keywords[];
extern const size_t recording_profile__wpr_sys_keyword_count;
extern const recording_profile__wpr_name recording_profile__wpr_sys_stacks[];
extern const size_t recording_profile__wpr_sys_stack_count;

/* The profile `select` names (NULL: the file's only or default one, as
 * recording_profile.h says) resolved from the table read into `w`, into
 * `out`; 0, or -1 with the reason in w->err (recording_profile_wprp_resolve.c). */
int recording_profile__wprp_resolve(wp *w, const char *select, recording_profile *out);

#endif
