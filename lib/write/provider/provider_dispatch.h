/* SPDX-License-Identifier: MIT */
/* provider_dispatch.h - what provider.c (the writer side) and
 * provider_control.c (registration and enablement) share: the dispatch
 * lists writers walk and control code builds (see provider.c's comment on
 * concurrency), and the two calls control code makes into the writer side.
 * Only the provider's files include it.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, registry/.
 */
#ifndef PETW_PROVIDER_DISPATCH_H
#define PETW_PROVIDER_DISPATCH_H

#include "../../base/common/filter.h"
#include "../../base/common/grace.h"
#include "../ring/ring.h"
#include "petw/provider.h"

/* One enabling session, as a writer needs it. */
typedef struct dispatch_entry {
    petw__ring *ring;
    uint64_t match_any; /* normalized: 0 became all ones */
    uint64_t match_all;
    /* Its event ID or name filter, or enable properties (interned, never
     * freed); NULL when it has none, and then nothing below is read. */
    const petw__enable_filter *filter;
    uint16_t ring_gen; /* the session's generation, checked by the reserve */
    uint8_t level;     /* normalized: 0 became 255 */
    uint8_t position;  /* its bit in EventWriteEx's session filter */
} dispatch_entry;

/* A provider's dispatch list: written by the control thread before it is
 * published, read-only from then on; freed after a grace period once
 * replaced (common/grace.h: writers hold one only inside a read span). */
typedef struct dispatch_list {
    uint32_t gen;     /* the registration's generation (handle check) */
    uint32_t count;   /* entries in use */
    uint32_t options; /* PROVIDER_USE_TYPES */
    uint32_t traits_size;
    /* Not 0 when an event goes to one session at most and needs neither a
     * loop nor a filter: count is 1 and that session has no filter (nor
     * enable properties); write_span's common case. SOLO_UNTYPED: every
     * descriptor is payload; SOLO_TYPED: the provider uses descriptor
     * types, so only a call with its schema as one block (TraceLogging's)
     * takes that path. */
    uint32_t solo;
    /* The traits' extended item, header and padding included (0: none). */
    uint32_t traits_item;
    uint64_t guid[2];
    const uint8_t *traits; /* interned, never freed; NULL: none */
    petw__retired retired; /* once replaced: waiting for its grace period */
    dispatch_entry entries[PETW_MAX_SESSIONS_PER_PROVIDER];
    /* The traits' PROV_TRAITS item as a record holds it before a schema
     * item (header with linkage 1, the blob, zero padding): traits_item
     * bytes, which a TraceLogging event copies as they are. */
    uint8_t traits_image[];
} dispatch_list;

#define PROVIDER_USE_TYPES 0x1u
#define SOLO_UNTYPED 1u
#define SOLO_TYPED 2u

/* Replaces slot's dispatch list with `next` (NULL: unregistered); the old
 * one is freed after a grace period. Control lock held. */
void petw__provider_dispatch_publish(uint32_t slot, const dispatch_list *next);
/* What enable properties record about this process (provider_process.c),
 * computed on the control path (the first enable that asks, and again in a
 * forked child) and copied by writers, which acquired a state word
 * published after it. */
typedef struct petw__provider_process {
    uint32_t ready_pid; /* the process they describe; 0: not computed */
    uint32_t sid_size;
    uint32_t ts_id;
    uint64_t start_key;
    uint32_t timer_resolution; /* the clock tick, 100 ns units: CPU times' unit */
    uint8_t sid[68];
    char image[256]; /* the executable's file name, for executable-name filters */
} petw__provider_process;
extern petw__provider_process petw__provider_proc;

/* The executable's file name (for executable-name filters), the process
 * facts enable properties record computed first if not yet for this
 * process (again in a forked child). Control lock held. */
const char *petw__provider_process_image(void);
/* An event's EVENT_KEY item (provider_process.c): its provider's GUID
 * `g`, ID and version, and a TraceLogging event's `schema` (NULL: none). */
uint64_t petw__provider_event_key(const uint64_t g[2], const petw_event_descriptor *d,
                                  const void *schema, uint32_t schema_size);

#endif
