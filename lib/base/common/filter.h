/* SPDX-License-Identifier: MIT */
/* filter.h - what a session asks of a provider beyond level and keywords:
 * event filters and enable properties (EnableTraceEx2's
 * ENABLE_TRACE_PARAMETERS), in one fixed-size form that in-process
 * sessions, the control messages and the shared registry all carry
 * (docs/shared-memory.md gives its layout).
 *
 * PID and executable-name filters decide, when a session enables a GUID,
 * whether this process's providers are enabled for it at all. The event ID
 * filter and the properties apply per event, only for the sessions that
 * asked (the provider's state word flags those sessions; see provider.c).
 */
#ifndef PETW_FILTER_H
#define PETW_FILTER_H

#include <stddef.h>
#include <stdint.h>

/* Enable properties petw implements (the values of EVENT_ENABLE_PROPERTY_*):
 * each adds one extended item to every event the session records. */
#define PETW__PROP_SID 0x001u               /* EVENT_HEADER_EXT_TYPE_SID */
#define PETW__PROP_TS_ID 0x002u             /* EVENT_HEADER_EXT_TYPE_TS_ID */
#define PETW__PROP_STACK_TRACE 0x004u       /* EVENT_HEADER_EXT_TYPE_STACK_TRACE64 */
#define PETW__PROP_PROCESS_START_KEY 0x080u /* EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY */
#define PETW__PROP_EVENT_KEY 0x100u         /* EVENT_HEADER_EXT_TYPE_EVENT_KEY */
/* petw's own (PETW_EVENT_ENABLE_PROPERTY_CPU_TIME): no item, but the
 * thread's CPU times in EVENT_HEADER.KernelTime/UserTime. */
#define PETW__PROP_CPU_TIME 0x00100000u
#define PETW__PROP_ALL                                                                             \
    (PETW__PROP_SID | PETW__PROP_TS_ID | PETW__PROP_STACK_TRACE | PETW__PROP_PROCESS_START_KEY |   \
     PETW__PROP_EVENT_KEY | PETW__PROP_CPU_TIME)

/* petw__enable_filter.flags: which filters are present. */
#define PETW__FILTER_EVENT_ID 0x1u
#define PETW__FILTER_PID 0x2u
#define PETW__FILTER_EXE 0x4u
#define PETW__FILTER_EVENT_NAME 0x8u
#define PETW__FILTER_ALL                                                                           \
    (PETW__FILTER_EVENT_ID | PETW__FILTER_PID | PETW__FILTER_EXE | PETW__FILTER_EVENT_NAME)

#define PETW__FILTER_IDS 64          /* MAX_EVENT_FILTER_EVENT_ID_COUNT */
#define PETW__FILTER_PIDS 8          /* MAX_EVENT_FILTER_PID_COUNT */
#define PETW__FILTER_EXE_BYTES 512   /* bytes of the UTF-8 name list, NUL included */
#define PETW__FILTER_NAME_BYTES 1024 /* bytes of the event names (MAX_EVENT_FILTER_DATA_SIZE) */

/* 1744 bytes; every unused byte is zero (petw__filter_check enforces it),
 * so two filters are equal when their bytes are. */
typedef struct petw__enable_filter {
    uint32_t properties;  /* PETW__PROP_* */
    uint32_t flags;       /* PETW__FILTER_* */
    uint16_t id_count;    /* 1..PETW__FILTER_IDS with PETW__FILTER_EVENT_ID, else 0 */
    uint8_t id_filter_in; /* 1: only the listed IDs pass; 0: the listed IDs are dropped */
    uint8_t reserved8;
    uint32_t pid_count; /* 1..PETW__FILTER_PIDS with PETW__FILTER_PID, else 0 */
    uint32_t reserved[2];
    uint16_t ids[PETW__FILTER_IDS];
    uint32_t pids[PETW__FILTER_PIDS];
    /* With PETW__FILTER_EXE: file names (no directory) separated by ';',
     * UTF-8, NUL-terminated, compared case-insensitively (ASCII letters). */
    char exe[PETW__FILTER_EXE_BYTES];
    /* With PETW__FILTER_EVENT_NAME (EVENT_FILTER_EVENT_NAME): events whose
     * level and keywords match these (level 0: all; any 0: all) are
     * recorded only when named in `names` (name_filter_in 1) or only when
     * not (0); other events are not affected. An event's name is its
     * TraceLogging metadata's; an event without one matches no name. */
    uint8_t name_level;
    uint8_t name_filter_in;
    uint16_t name_count; /* 1.. names */
    uint32_t name_bytes; /* bytes of `names` used, each name's NUL included */
    uint64_t name_any, name_all;
    char names[PETW__FILTER_NAME_BYTES]; /* UTF-8, NUL-terminated, back to back */
} petw__enable_filter;

/* 1 when the filter asks nothing (no property, no filter). */
static inline int petw__filter_empty(const petw__enable_filter *f)
{
    return !f || (f->properties == 0 && f->flags == 0);
}

/* 1 when `f` applies per event (an event ID filter or a property). */
static inline int petw__filter_per_event(const petw__enable_filter *f)
{
    return f &&
           (f->properties != 0 || (f->flags & (PETW__FILTER_EVENT_ID | PETW__FILTER_EVENT_NAME)));
}

/* 1 when an event with `id` passes the filter's event ID list (or it has
 * none). */
static inline int petw__filter_id_pass(const petw__enable_filter *f, uint16_t id)
{
    if (!(f->flags & PETW__FILTER_EVENT_ID))
        return 1;
    int listed = 0;
    for (uint32_t i = 0; i < f->id_count && i < PETW__FILTER_IDS; i++)
        listed |= f->ids[i] == id;
    return f->id_filter_in ? listed : !listed;
}

/* 1 when an event passes the filter's event-name filter (or it has none).
 * `schema`: the event's TraceLogging metadata (u16 size, tags, name), NULL
 * when it has none. Reads at most `schema_size` bytes of it. */
int petw__filter_name_pass(const petw__enable_filter *f, uint8_t level, uint64_t keyword,
                           const void *schema, uint32_t schema_size);

/* Checks a filter from an untrusted source (a control message, the shared
 * registry): known flags and properties, counts within bounds, the name
 * list terminated, every unused byte zero. 0 or PETW_ECORRUPT. */
int petw__filter_check(const petw__enable_filter *f);

/* 1 when both ask the same (NULL equals an empty filter). */
int petw__filter_equal(const petw__enable_filter *a, const petw__enable_filter *b);

/* 1 when the process `pid` whose executable file is named `exe` (UTF-8,
 * no directory) passes the PID and executable-name filters: in the PID
 * list, if there is one, and named in the name list, if there is one. */
int petw__filter_admits_process(const petw__enable_filter *f, uint32_t pid, const char *exe);

/* FNV-1a, 64 bits, continued from `h` (start with PETW__FNV_BASIS). */
#define PETW__FNV_BASIS 0xcbf29ce484222325ull
uint64_t petw__fnv1a64(uint64_t h, const void *data, size_t size);

#endif
