/* SPDX-License-Identifier: MIT */
/* provider.c - the out-of-line part of EventWrite, the dispatch lists it
 * walks, the process facts enable properties record, and activity IDs;
 * registration and enablement, which build and publish the dispatch lists,
 * are provider_control.c's.
 *
 * Concurrency: the control lock serializes every change here. What a
 * writer needs of a provider is resolved when the provider's enablement
 * changes, not per event: each registered provider has a dispatch list
 * (its registration's generation, GUID, traits and options, and per
 * enabling session its ring, level, keywords, filter and properties),
 * immutable once published. Control code builds a new list and publishes
 * it with one release store of the slot's pointer; a writer loads the
 * pointer (acquire) inside a read span (common/grace.h: two stores to its
 * own thread-local word), checks the list's generation against its
 * handle's, and walks the list. A replaced list is freed after a grace
 * period, once every writer that might hold it has left its span (see
 * "Dispatch lists" in docs/design.md); a writer still walking one writes
 * into rings whose generation check refuses a stopped session.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/platform/platform.h"
#include "../../base/format/etl.h" /* the record layout and its in-place writers */
#include "../../base/common/filter.h"
#include "../../base/common/grace.h" /* when a replaced dispatch list may go */
#include "../ring/ring.h"
#include "provider_dispatch.h"
#include "provider_internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "petw writes records in host order and supports little-endian hosts only"
#endif
_Static_assert(sizeof(petw_event_header) == 0x50, "EVENT_HEADER layout");
_Static_assert(offsetof(petw_event_header, timestamp) == 16 &&
                   offsetof(petw_event_header, provider_id) == 24 &&
                   offsetof(petw_event_header, descriptor) == 40 &&
                   offsetof(petw_event_header, activity_id) == 64,
               "EVENT_HEADER offsets used by petw__event_write");

uint64_t petw__provider_state[PETW_MAX_PROVIDERS] = {[0 ... PETW_MAX_PROVIDERS - 1] =
                                                         PETW__PROVIDER_STATE_NEVER};
/* Each slot's published dispatch list; NULL while the slot is free. */
static _Atomic(const dispatch_list *) dispatch_table[PETW_MAX_PROVIDERS];

petw__provider_accepts petw__provider_accepts_table[PETW_MAX_PROVIDERS];

static _Thread_local petw_guid tls_activity PETW__TLS_HOT;

static inline int level_keyword_match(uint8_t ev_level, uint64_t kw, uint32_t s_level, uint64_t any,
                                      uint64_t all)
{
    if (ev_level != 0 && ev_level > s_level)
        return 0;
    return kw == 0 || ((kw & any) != 0 && (kw & all) == all);
}

static void dispatch_free(petw__retired *r)
{
    free((char *)r - offsetof(dispatch_list, retired));
}

/* Replaces slot's dispatch list with `next` (NULL: unregistered). The old
 * one is freed after a grace period: a writer may still be walking it. */
void petw__provider_dispatch_publish(uint32_t slot, const dispatch_list *next)
{
    dispatch_list *old =
        (dispatch_list *)atomic_load_explicit(&dispatch_table[slot], memory_order_relaxed);
    /* release: the list's contents before its pointer; pairs with the
     * acquire load in write_event and petw__enabled_slow. */
    atomic_store_explicit(&dispatch_table[slot], next, memory_order_release);
    if (old) {
        old->retired.free_fn = dispatch_free;
        petw__grace_retire(&old->retired);
    }
}

/* ---- writer side ---- */

int petw__enabled_slow(petw_provider_handle h, uint8_t level, uint64_t keyword)
{
    uint32_t slot = petw__handle_slot(h);
    if (slot >= PETW_MAX_PROVIDERS)
        return 0;
    uint64_t rd = petw__read_enter(); /* the list is ours until the exit */
    /* acquire: pairs with dispatch_publish's release store: the list's
     * contents before its pointer. */
    const dispatch_list *dl = atomic_load_explicit(&dispatch_table[slot], memory_order_acquire);
    int on = 0;
    if (dl && dl->gen == petw__handle_generation(h)) {
        for (uint32_t k = 0; k < dl->count && !on; k++) {
            const dispatch_entry *e = &dl->entries[k];
            on = level_keyword_match(level, keyword, e->level, e->match_any, e->match_all);
        }
    }
    petw__read_exit(rd);
    return on;
}

/* Worst error wins: a lost event matters more than a too-big one elsewhere. */
static int merge_rc(int a, int b)
{
    if (a == PETW_ENOBUFS || b == PETW_ENOBUFS)
        return PETW_ENOBUFS;
    return a ? a : b;
}

/* What one event needs: its metadata (TraceLogging's, as extended items),
 * its sizes. Filled by measure_event, once per EventWrite. */
typedef struct event_shape {
    uint32_t options;
    const uint8_t *traits;
    uint32_t traits_size;
    const void *schema;
    uint32_t schema_size;
    uint32_t payload; /* bytes of payload */
    uint32_t ext;     /* bytes of extended items (without enable properties) */
    uint32_t rsize;   /* the record's Size field (without enable properties) */
} event_shape;

/* An extended-data item to write: type, size, where its data is. */
typedef struct ext_ref {
    uint16_t type;
    uint16_t size;
    const void *data;
} ext_ref;

/* The event's identity, the same in every session's record. */
typedef struct event_head {
    const void *guid; /* the provider's, or a classic event's class */
    const petw_event_descriptor *d;
    const petw_guid *activity; /* the caller's; NULL: the thread's */
    uint16_t flags;            /* EVENT_HEADER flags but EXTENDED_INFO */
} event_head;

/* The descriptor walk: validates the descriptors, finds TraceLogging's
 * metadata, sums the payload and sizes the record. The helpers of
 * write_event are forced inline: they are one function to the compiler,
 * split only for the reader. */
static PETW__ALWAYS_INLINE int measure_event(const dispatch_list *dl, const petw_guid *related,
                                             const void *schema, uint32_t schema_size,
                                             uint32_t count, const petw_data_descriptor *data,
                                             event_shape *sh)
{
    sh->options = dl->options;
    sh->traits = dl->traits;
    sh->traits_size = dl->traits_size;
    sh->schema = schema;
    sh->schema_size = schema_size;
    /* A schema given as one block: the descriptors are all payload. */
    if (schema != NULL)
        sh->options &= ~(uint32_t)PROVIDER_USE_TYPES;
    uint64_t payload = 0;
    if (PETW__LIKELY(!(sh->options & PROVIDER_USE_TYPES))) {
        for (uint32_t i = 0; i < count; i++) {
            payload += data[i].size;
            if (PETW__UNLIKELY(data[i].ptr == 0) && data[i].size)
                return PETW_EINVAL;
        }
    } else {
        for (uint32_t i = 0; i < count; i++) {
            if (PETW__UNLIKELY(data[i].size && !data[i].ptr))
                return PETW_EINVAL;
            if (data[i].type != 0) {
                /* TraceLogging's metadata travels as extended items. */
                if (data[i].type == PETW__DATA_TYPE_EVENT_METADATA) {
                    sh->schema = (const void *)(uintptr_t)data[i].ptr;
                    sh->schema_size = data[i].size;
                } else if (data[i].type == PETW__DATA_TYPE_PROVIDER_METADATA) {
                    sh->traits = (const uint8_t *)(uintptr_t)data[i].ptr;
                    sh->traits_size = data[i].size;
                } else {
                    return PETW_EINVAL;
                }
                continue;
            }
            payload += data[i].size;
        }
    }
    if (PETW__UNLIKELY(sh->traits_size > 0xFFF0 || sh->schema_size > 0xFFF0 || payload > 0xFFFF))
        return PETW_ETOOBIG;
    sh->payload = (uint32_t)payload;
    sh->ext = (related ? PETW__EXT_ITEM_HEADER + 16 : 0) +
              (sh->traits ? PETW__ALIGN8(PETW__EXT_ITEM_HEADER + sh->traits_size) : 0) +
              (sh->schema ? PETW__ALIGN8(PETW__EXT_ITEM_HEADER + sh->schema_size) : 0);
    uint64_t rsize = PETW__EVENT_HEADER_SIZE + sh->ext + payload;
    if (PETW__UNLIKELY(rsize > 0xFFFF))
        return PETW_ETOOBIG;
    sh->rsize = (uint32_t)rsize;
    return 0;
}

/* The event's own extended items, in Windows' order (related activity,
 * provider traits, schema), after `n` items already in `items`. */
static PETW__ALWAYS_INLINE uint32_t shape_items(const event_shape *sh, const petw_guid *related,
                                                ext_ref *items, uint32_t n)
{
    if (related)
        items[n++] = (ext_ref){PETW_EXT_TYPE_RELATED_ACTIVITYID, 16, related};
    if (sh->traits)
        items[n++] = (ext_ref){PETW_EXT_TYPE_PROV_TRAITS, (uint16_t)sh->traits_size, sh->traits};
    if (sh->schema)
        items[n++] =
            (ext_ref){PETW_EXT_TYPE_EVENT_SCHEMA_TL, (uint16_t)sh->schema_size, sh->schema};
    return n;
}

/* Copies one descriptor's bytes to `out`; returns where the next go.
 * Fixed-size copies of the common field sizes compile to moves. */
static PETW__ALWAYS_INLINE uint8_t *copy_field(uint8_t *out, const petw_data_descriptor *dd)
{
    const void *src = (const void *)(uintptr_t)dd->ptr;
    const uint32_t len = dd->size;
    if (PETW__LIKELY(len == 8))
        memcpy(out, src, 8);
    else if (len == 4)
        memcpy(out, src, 4);
    else if (len == 16)
        memcpy(out, src, 16);
    else if (len == 32)
        memcpy(out, src, 32);
    else /* {NULL, 0} is a valid descriptor: nothing to copy */
        petw__copy_inline(out, src, len);
    return out + len;
}

/* What put_record returns when its fast form (`fast`) cannot finish
 * without a call: nothing was reserved or written, and the caller takes its
 * slow path (never a petw error, which is negative, nor success). */
#define WRITE_SLOW 1

/* TraceLogging's extended items as the record holds them, built before the
 * event: the provider's traits (traits_size 0: none) and the event site's
 * schema, each a multiple of 8 bytes. */
typedef struct item_images {
    const uint8_t *traits;
    uint32_t traits_size;
    const uint8_t *schema;
    uint32_t schema_size;
} item_images;

/* Copies an item image of `n` bytes (a multiple of 8, or 0). Images of 16
 * to 64 bytes (a provider name's traits, a few fields' schema) take
 * straight-line 16-byte moves, the ends overlapping, with no loop. */
static PETW__ALWAYS_INLINE void copy_image(uint8_t *out, const uint8_t *src, uint32_t n)
{
    if (PETW__LIKELY(n - 16u <= 48u)) {
        memcpy(out, src, 16);
        if (n > 32) {
            memcpy(out + 16, src + 16, 16);
            memcpy(out + n - 32, src + n - 32, 16);
        }
        memcpy(out + n - 16, src + n - 16, 16);
    } else {
        petw__copy_inline(out, src, n);
    }
}

/* The one write loop: reserves a record of `rsize` bytes in the entry's
 * ring and writes it, header (format/'s layout; `cpu`: its CPU times, 0 but
 * for sessions that asked), the item images `img` (NULL: none), `ni`
 * extended items and the payload, then
 * commits. Returns 0, or the reserve's error (PETW_ENOBUFS: lost and
 * counted; a stopped session: 0). With `fast` (a constant), it makes no
 * call before its commit: when the thread's ID, the CPU number or the
 * reserve would take one, it returns WRITE_SLOW instead, having changed
 * nothing; so the compiler keeps the caller's values in registers. */
static PETW__ALWAYS_INLINE int put_record(const dispatch_entry *e, const event_head *eh,
                                          uint32_t rsize, const item_images *img,
                                          const ext_ref *items, uint32_t ni, uint32_t options,
                                          uint32_t count, const petw_data_descriptor *data,
                                          uint64_t cpu, const int fast)
{
    const uint32_t asize = PETW__ALIGN8(rsize);
    petw__reservation res;
    uint32_t tid;
    if (fast) {
        tid = petw__thread_id_cached();
        if (PETW__UNLIKELY(tid == 0))
            return WRITE_SLOW;
        int r = petw__ring_reserve_try(e->ring, e->ring_gen, asize, &res);
        if (PETW__UNLIKELY(r != 0))
            return r == PETW__RING_GONE ? 0 : WRITE_SLOW;
    } else {
        int r = petw__ring_reserve(e->ring, e->ring_gen, asize, &res);
        if (PETW__UNLIKELY(r != 0))
            return r < 0 ? r : 0;
        tid = petw__thread_id();
    }
    uint8_t *out = res.record;
    const uint64_t word0 = petw__etl_event_word0(
        rsize, (uint16_t)(eh->flags | (ni || img ? PETW_EVENT_HEADER_FLAG_EXTENDED_INFO : 0)));
    petw__etl_record_open(out, rsize, asize);
    out += PETW__EVENT_HEADER_SIZE;
    if (img != NULL) { /* whole items: copied as they are */
        copy_image(out, img->traits, img->traits_size);
        out += img->traits_size;
        copy_image(out, img->schema, img->schema_size);
        out += img->schema_size;
    }
    for (uint32_t j = 0; j < ni; j++)
        out = petw__etl_put_ext(out, items[j].type, items[j].data, items[j].size, j + 1 < ni);
    if (PETW__LIKELY(!(options & PROVIDER_USE_TYPES))) {
        for (uint32_t i = 0; i < count; i++)
            out = copy_field(out, &data[i]);
    } else {
        for (uint32_t i = 0; i < count; i++)
            if (data[i].type == 0) /* else metadata, written as an extended item */
                out = copy_field(out, &data[i]);
    }
    /* The clock after the reserve: its locked instruction orders the read
     * after everything before it, which rdtsc alone is not (it may run
     * before an earlier load completes). Read at the start of the call,
     * overlapping the work below, it saved 2 ns of 24 but a thread that had
     * just seen another's event could stamp its own earlier (21 of 40 runs
     * of test_clock_cross_cpu failed); rdtscp, which waits, cost 12 ns.
     * Read after the payload's copy, which the CPU finishes meanwhile. */
    const uint64_t word1 = (uint64_t)tid | ((uint64_t)petw__process_id() << 32);
    petw__etl_event_fields(res.record, word0, word1, petw__ring_clock(e->ring), eh->guid, eh->d,
                           eh->activity ? eh->activity : &tls_activity, cpu);
    petw__etl_record_close(res.record, (uint32_t)word0);
    petw__ring_commit(e->ring, &res);
    return 0;
}

/* Frames a _STACK_TRACE item holds at most (ETW's limit is 192). */
#define STACK_FRAMES 64

/* A session with an event ID or name filter, or enable properties: its
 * filter decides, and its record carries the properties' extended items
 * before the event's own. Out of line: only these sessions pay. */
static PETW__NOINLINE int put_filtered(const dispatch_list *dl, const dispatch_entry *e,
                                       const event_head *eh, const event_shape *sh,
                                       const petw_guid *related, uint32_t count,
                                       const petw_data_descriptor *data)
{
    const petw__enable_filter *f = e->filter;
    const petw_event_descriptor *d = eh->d;
    if (!petw__filter_id_pass(f, d->id) ||
        !petw__filter_name_pass(f, d->level, d->keyword, sh->schema, sh->schema_size))
        return 0;
    const uint32_t props = f->properties;
    /* What the properties record. The process's values were computed when
     * the first session asked (petw__provider_proc). */
    uint64_t stack[1 + STACK_FRAMES];
    uint32_t frames = 0;
    if (props & PETW__PROP_STACK_TRACE) {
        stack[0] = 0; /* MatchId: 0, the stack is not cached */
        frames = petw__stack_capture(stack + 1, STACK_FRAMES);
    }
    const uint32_t ts_id = petw__provider_proc.ts_id;
    const uint64_t start_key = petw__provider_proc.start_key;
    const uint64_t key = (props & PETW__PROP_EVENT_KEY)
                             ? petw__provider_event_key(dl->guid, d, sh->schema, sh->schema_size)
                             : 0;
    ext_ref items[8];
    uint32_t ni = 0, stack_item = UINT32_MAX;
    if (related)
        items[ni++] = (ext_ref){PETW_EXT_TYPE_RELATED_ACTIVITYID, 16, related};
    if ((props & PETW__PROP_SID) && petw__provider_proc.sid_size)
        items[ni++] = (ext_ref){PETW_EXT_TYPE_SID, (uint16_t)petw__provider_proc.sid_size,
                                petw__provider_proc.sid};
    if (props & PETW__PROP_TS_ID)
        items[ni++] = (ext_ref){PETW_EXT_TYPE_TS_ID, 4, &ts_id};
    if (props & PETW__PROP_PROCESS_START_KEY)
        items[ni++] = (ext_ref){PETW_EXT_TYPE_PROCESS_START_KEY, 8, &start_key};
    if (props & PETW__PROP_EVENT_KEY)
        items[ni++] = (ext_ref){PETW_EXT_TYPE_EVENT_KEY, 8, &key};
    if ((props & PETW__PROP_STACK_TRACE) && frames) {
        stack_item = ni;
        items[ni++] = (ext_ref){PETW_EXT_TYPE_STACK_TRACE64, (uint16_t)(8 + 8 * frames), stack};
    }
    ni = shape_items(sh, NULL, items, ni);
    uint32_t ext = 0;
    for (uint32_t j = 0; j < ni; j++)
        ext += PETW__ALIGN8(PETW__EXT_ITEM_HEADER + items[j].size);
    uint64_t rsize = (uint64_t)PETW__EVENT_HEADER_SIZE + ext + sh->payload;
    if (rsize > 0xFFFF && stack_item != UINT32_MAX) {
        /* The stack gives way (its outermost frames) before the event. */
        uint64_t over = rsize - 0xFFFF, cut = (over + 7) / 8;
        if (cut < frames) {
            items[stack_item].size = (uint16_t)(items[stack_item].size - 8 * cut);
            rsize -= 8 * cut;
        }
    }
    if (PETW__UNLIKELY(rsize > 0xFFFF))
        return PETW_ETOOBIG;
    if (!(props & PETW__PROP_CPU_TIME))
        return put_record(e, eh, (uint32_t)rsize, NULL, items, ni, sh->options, count, data, 0, 0);
    /* The thread's CPU times, in the clock ticks the trace's header gives
     * as TimerResolution (Windows' units): one system call, which only
     * the sessions that asked pay. */
    uint64_t kernel, user;
    petw__thread_cpu_times(&kernel, &user);
    const uint64_t tick =
        petw__provider_proc.timer_resolution ? petw__provider_proc.timer_resolution : 1;
    event_head timed = *eh;
    timed.flags = (uint16_t)(eh->flags & ~PETW_EVENT_HEADER_FLAG_NO_CPUTIME);
    const uint64_t cpu = (uint32_t)(kernel / tick) | ((uint64_t)(uint32_t)(user / tick) << 32);
    return put_record(e, &timed, (uint32_t)rsize, NULL, items, ni, sh->options, count, data, cpu,
                      0);
}

/* Every session of the list: per matching session one record
 * (put_record), or put_filtered's for a session with a filter or enable
 * properties. */
static int write_list(const dispatch_list *dl, const petw_event_descriptor *d,
                      const petw_guid *activity, const petw_guid *related, uint64_t filter,
                      uint16_t extra_flags, const petw_guid *event_class, const void *schema,
                      uint32_t schema_size, uint32_t count, const petw_data_descriptor *data)
{
    event_shape sh;
    int rc = measure_event(dl, related, schema, schema_size, count, data, &sh);
    if (PETW__UNLIKELY(rc != 0))
        return rc;
    event_head eh;
    /* a classic event names its class */
    eh.guid = event_class != NULL ? (const void *)event_class : dl->guid;
    eh.d = d;
    eh.activity = activity;
    eh.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_NO_CPUTIME | extra_flags);
    ext_ref items[3];
    uint32_t ni = sh.ext != 0 ? shape_items(&sh, related, items, 0) : 0;
    for (uint32_t k = 0; k < dl->count; k++) {
        const dispatch_entry *e = &dl->entries[k];
        if (!level_keyword_match(d->level, d->keyword, e->level, e->match_any, e->match_all) ||
            PETW__UNLIKELY((filter >> e->position) & 1))
            continue;
        int r = PETW__UNLIKELY(e->filter != NULL)
                    ? put_filtered(dl, e, &eh, &sh, related, count, data)
                    : put_record(e, &eh, sh.rsize, NULL, items, ni, sh.options, count, data, 0, 0);
        if (PETW__UNLIKELY(r != 0))
            rc = merge_rc(rc, r);
    }
    return rc;
}

/* The checks every variant makes first: the handle's slot and generation
 * against the dispatch list `dl` (loaded inside a read span), the
 * descriptor and the data. */
static PETW__ALWAYS_INLINE int check_call(petw_provider_handle h, const dispatch_list *dl,
                                          const petw_event_descriptor *d, uint32_t count,
                                          const petw_data_descriptor *data)
{
    if (PETW__UNLIKELY(dl == NULL || dl->gen != petw__handle_generation(h)))
        return PETW_EBADHANDLE;
    if (PETW__UNLIKELY(d == NULL || count > PETW_MAX_DATA_DESCRIPTORS || (count && !data)))
        return PETW_EINVAL;
    return 0;
}

/* The common case, without a call before the commit: the dispatch list
 * holds one session without a filter (dispatch_list.solo, decided when the
 * list was built), the event has no related activity ID, is not a classic
 * one, and its descriptors are all payload (the provider does not use
 * descriptor types, or a TraceLogging schema came as one block). Then the
 * record goes to that session with no loop over sessions, its extended
 * items at most the list's traits and the schema. Returns the result, or
 * WRITE_SLOW (nothing written) for write_general. Inside a read span. */
static PETW__ALWAYS_INLINE int write_solo(petw_provider_handle h, const petw_event_descriptor *d,
                                          const petw_guid *activity, const petw_guid *related,
                                          uint64_t filter, uint16_t extra_flags,
                                          const petw_guid *event_class, const void *schema,
                                          uint32_t schema_size, const uint8_t *schema_item,
                                          uint32_t count, const petw_data_descriptor *data)
{
    uint32_t slot = petw__handle_slot(h);
    if (PETW__UNLIKELY(slot >= PETW_MAX_PROVIDERS))
        return PETW_EBADHANDLE;
    /* acquire: pairs with dispatch_publish's release store: the list's
     * contents (immutable from then on) before its pointer. */
    const dispatch_list *dl = atomic_load_explicit(&dispatch_table[slot], memory_order_acquire);
    int rc = check_call(h, dl, d, count, data);
    if (PETW__UNLIKELY(rc != 0))
        return rc;
    if (PETW__UNLIKELY((schema != NULL ? dl->solo == 0 : dl->solo != SOLO_UNTYPED) ||
                       related != NULL || event_class != NULL))
        return WRITE_SLOW;
    /* The descriptor walk: measure_event's untyped one. */
    uint64_t payload = 0;
    for (uint32_t i = 0; i < count; i++) {
        payload += data[i].size;
        if (PETW__UNLIKELY(data[i].ptr == 0) && data[i].size)
            return PETW_EINVAL;
    }
    if (PETW__UNLIKELY(schema_size > 0xFFF0))
        return PETW_ETOOBIG;
    const uint32_t ext =
        dl->traits_item + (schema ? PETW__ALIGN8(PETW__EXT_ITEM_HEADER + schema_size) : 0);
    const uint64_t rsize = PETW__EVENT_HEADER_SIZE + ext + payload;
    if (PETW__UNLIKELY(rsize > 0xFFFF))
        return PETW_ETOOBIG;
    const dispatch_entry *e = &dl->entries[0];
    if (!level_keyword_match(d->level, d->keyword, e->level, e->match_any, e->match_all) ||
        PETW__UNLIKELY(filter & 1))
        return 0;
    event_head eh;
    eh.guid = dl->guid;
    eh.d = d;
    eh.activity = activity;
    eh.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_NO_CPUTIME | extra_flags);
    if (schema_item != NULL) {
        /* Both items ready to copy: the traits' image in the list (its
         * linkage says an item follows), the schema's from the event site. */
        const item_images img = {dl->traits_image, dl->traits_item, schema_item,
                                 PETW__ALIGN8(PETW__EXT_ITEM_HEADER + schema_size)};
        return put_record(e, &eh, (uint32_t)rsize, &img, NULL, 0, 0, count, data, 0, 1);
    }
    ext_ref items[2] = {{0, 0, NULL}, {0, 0, NULL}}; /* (for GCC's uninitialized warning) */
    uint32_t ni = 0;
    if (dl->traits)
        items[ni++] = (ext_ref){PETW_EXT_TYPE_PROV_TRAITS, (uint16_t)dl->traits_size, dl->traits};
    if (schema)
        items[ni++] = (ext_ref){PETW_EXT_TYPE_EVENT_SCHEMA_TL, (uint16_t)schema_size, schema};
    return put_record(e, &eh, (uint32_t)rsize, NULL, items, ni, 0, count, data, 0, 1);
}

/* Every case write_solo leaves, and its own (a thread's first event, the
 * CPU number or thread ID a call away, a buffer switch): the read span,
 * the dispatch list, write_list. Out of line: the common case makes no
 * call before its commit. */
static PETW__NOINLINE int write_general(petw_provider_handle h, const petw_event_descriptor *d,
                                        const petw_guid *activity, const petw_guid *related,
                                        uint64_t filter, uint16_t extra_flags,
                                        const petw_guid *event_class, const void *schema,
                                        uint32_t schema_size, uint32_t count,
                                        const petw_data_descriptor *data)
{
    uint32_t slot = petw__handle_slot(h);
    if (PETW__UNLIKELY(slot >= PETW_MAX_PROVIDERS))
        return PETW_EBADHANDLE;
    uint64_t rd = petw__read_enter(); /* the list is ours until the exit */
    /* acquire: as in write_solo. */
    const dispatch_list *dl = atomic_load_explicit(&dispatch_table[slot], memory_order_acquire);
    int rc = check_call(h, dl, d, count, data);
    if (rc == 0 && dl->count != 0)
        rc = write_list(dl, d, activity, related, filter, extra_flags, event_class, schema,
                        schema_size, count, data);
    petw__read_exit(rd);
    return rc;
}

/* Every EventWrite variant: write_solo inside a read span (the dispatch
 * list it loads is not freed before the span's exit, common/grace.h), or
 * write_general. Inlined into each entry point, so the arguments a variant
 * does not take fold away. */
static PETW__ALWAYS_INLINE int write_event(petw_provider_handle h, const petw_event_descriptor *d,
                                           const petw_guid *activity, const petw_guid *related,
                                           uint64_t filter, uint16_t extra_flags,
                                           const petw_guid *event_class, const void *schema,
                                           uint32_t schema_size, const uint8_t *schema_item,
                                           uint32_t count, const petw_data_descriptor *data)
{
    uint64_t rd;
    if (PETW__LIKELY(petw__read_enter_fast(&rd))) {
        int rc = write_solo(h, d, activity, related, filter, extra_flags, event_class, schema,
                            schema_size, schema_item, count, data);
        petw__read_exit(rd);
        if (PETW__LIKELY(rc != WRITE_SLOW))
            return rc;
    }
    return write_general(h, d, activity, related, filter, extra_flags, event_class, schema,
                         schema_size, count, data);
}

int petw__event_write(petw_provider_handle h, const petw_event_descriptor *d,
                      const petw_guid *activity, const petw_guid *related, uint32_t count,
                      const petw_data_descriptor *data)
{
    return write_event(h, d, activity, related, 0, 0, NULL, NULL, 0, NULL, count, data);
}

int petw__event_write_plain(petw_provider_handle h, const petw_event_descriptor *d, uint32_t count,
                            const petw_data_descriptor *data)
{
    return write_event(h, d, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, count, data);
}

int petw_event_write_ex(petw_provider_handle h, const petw_event_descriptor *d,
                        const petw_guid *activity, const petw_guid *related, uint64_t filter,
                        uint16_t header_flags, uint32_t count, const petw_data_descriptor *data)
{
    /* Only flags that describe the payload may be added. */
    PETW__RETURN_IF(header_flags & ~(uint16_t)PETW_EVENT_HEADER_FLAG_STRING_ONLY, PETW_EINVAL);
    return write_event(h, d, activity, related, filter, header_flags, NULL, NULL, 0, NULL, count,
                       data);
}

int petw_event_write_tl(petw_provider_handle h, const petw_event_descriptor *d, const void *schema,
                        uint32_t schema_size, const petw_guid *activity, const petw_guid *related,
                        uint64_t filter, uint32_t count, const petw_data_descriptor *data)
{
    PETW__RETURN_IF(schema == NULL || schema_size < 2, PETW_EINVAL);
    return write_event(h, d, activity, related, filter, 0, NULL, schema, schema_size, NULL, count,
                       data);
}

/* The schema size of a whole EVENT_SCHEMA_TL item of `item_size` bytes
 * whose header is `head` (one load: TotalSize item_size, the schema's type,
 * linkage 0, DataSize at least 2 and padded to item_size), or 0 when the
 * header says otherwise. */
static PETW__ALWAYS_INLINE uint32_t tl_item_schema(uint64_t head, uint32_t item_size)
{
    const uint32_t size = (uint32_t)(head >> 48);
    if (head != ((uint64_t)item_size | ((uint64_t)PETW_EXT_TYPE_EVENT_SCHEMA_TL << 16) |
                 ((uint64_t)size << 48)) ||
        size < 2 || item_size > 0xFFF8 || PETW__ALIGN8(PETW__EXT_ITEM_HEADER + size) != item_size)
        return 0;
    return size;
}

int petw__event_write_tl_item(petw_provider_handle h, const petw_event_descriptor *d,
                              const void *item, uint32_t item_size, const petw_guid *activity,
                              const petw_guid *related, uint64_t filter, uint32_t count,
                              const petw_data_descriptor *data)
{
    PETW__RETURN_IF(item == NULL, PETW_EINVAL);
    const uint8_t *it = item;
    const uint32_t size = tl_item_schema(petw__rd64(it), item_size);
    PETW__RETURN_IF(size == 0, PETW_EINVAL);
    return write_event(h, d, activity, related, filter, 0, NULL, it + PETW__EXT_ITEM_HEADER, size,
                       it, count, data);
}

int petw__event_write_tl_plain(petw_provider_handle h, const petw_event_descriptor *d,
                               const void *item, uint32_t item_size, uint32_t count,
                               const petw_data_descriptor *data)
{
    PETW__RETURN_IF(item == NULL, PETW_EINVAL);
    const uint8_t *it = item;
    const uint32_t size = tl_item_schema(petw__rd64(it), item_size);
    PETW__RETURN_IF(size == 0, PETW_EINVAL);
    return write_event(h, d, NULL, NULL, 0, 0, NULL, it + PETW__EXT_ITEM_HEADER, size, it, count,
                       data);
}

int petw_event_write_classic(petw_provider_handle h, const petw_guid *event_class,
                             const petw_event_descriptor *d, uint16_t header_flags, uint32_t count,
                             const petw_data_descriptor *data)
{
    PETW__RETURN_IF(!event_class, PETW_EINVAL);
    PETW__RETURN_IF(header_flags & ~(uint16_t)PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE, PETW_EINVAL);
    return write_event(h, d, NULL, NULL, 0,
                       (uint16_t)(header_flags | PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER),
                       event_class, NULL, 0, NULL, count, data);
}

/* ---- activity IDs ---- */

void petw_activity_id_get(petw_guid *out)
{
    if (out)
        *out = tls_activity;
}

void petw_activity_id_set(const petw_guid *id)
{
    if (id)
        tls_activity = *id;
}

void petw_activity_id_create(petw_guid *out)
{
    static _Atomic uint64_t counter;
    static uint64_t seed;
    if (!out)
        return;
    petw__library_init();
    /* acquire (conservative): pairs with the CAS below (another caller's);
     * the seed is its own payload, so relaxed would do. */
    if (!__atomic_load_n(&seed, __ATOMIC_ACQUIRE)) {
        uint64_t s = (uint64_t)petw__filetime_now() ^ ((uint64_t)petw__process_id() << 40);
        uint64_t expected = 0;
        /* acq_rel (conservative): the first caller's seed wins; it publishes
         * nothing else, the loads here and below read it. Relaxed would do. */
        __atomic_compare_exchange_n(&seed, &expected, s | 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    uint64_t c = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed) + 1;
    /* acquire (conservative): pairs with the CAS above; relaxed would do. */
    uint64_t s = __atomic_load_n(&seed, __ATOMIC_ACQUIRE);
    out->data1 = (uint32_t)c;
    out->data2 = (uint16_t)(c >> 32);
    out->data3 = (uint16_t)(c >> 48);
    memcpy(out->data4, &s, 8);
}
