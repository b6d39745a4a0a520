/* SPDX-License-Identifier: MIT */
/* petw/provider.h - the provider side: register, check, write.
 *
 * A provider is registered under a GUID and gets a handle. Sessions enable
 * provider GUIDs (petw/session.h); an event written through the handle goes
 * to every session whose level and keywords accept it.
 *
 * Thread safety: every function here may be called from any thread at any
 * time, including concurrently with petw_provider_unregister() and with
 * sessions starting and stopping. A handle used after unregistration returns
 * PETW_EBADHANDLE; it never touches freed memory.
 */
#ifndef PETW_PROVIDER_H
#define PETW_PROVIDER_H

#include <stdint.h>

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A registered provider: a generation-tagged slot number, never a pointer.
 * 0 is never a valid handle. */
typedef uint64_t petw_provider_handle;

/* Largest number of providers registered at once in one process. */
#define PETW_MAX_PROVIDERS 4096
/* Largest number of data descriptors per event (MAX_EVENT_DATA_DESCRIPTORS). */
#define PETW_MAX_DATA_DESCRIPTORS 128
/* PETW_MAX_SESSIONS_PER_PROVIDER (types.h): sessions enabling one provider at once. */

/* Enable-callback control codes (EVENT_CONTROL_CODE_*). */
#define PETW_CONTROL_DISABLE_PROVIDER 0
#define PETW_CONTROL_ENABLE_PROVIDER 1
#define PETW_CONTROL_CAPTURE_STATE 2

/* Called when a session enables or disables the provider, with the
 * least-restrictive level and keywords across every session that still
 * enables it (0s when none does). Runs on the controlling thread, serialized
 * with every other enable callback; it may call any petw function. */
typedef void (*petw_enable_callback)(const petw_guid *source_id, uint32_t control_code,
                                     uint8_t level, uint64_t match_any_keyword,
                                     uint64_t match_all_keyword, void *filter_data,
                                     void *callback_context);

/* Registers a provider.
 * id:      the provider GUID (copied).
 * cb:      optional enable callback; when sessions already enable `id`, it runs
 *          once before this function returns.
 * out:     receives the handle.
 * Returns 0, PETW_EINVAL (NULL id/out) or PETW_ELIMIT (table full). */
int petw_provider_register(const petw_guid *id, petw_enable_callback cb, void *callback_context,
                           petw_provider_handle *out);

/* Unregisters a provider. Safe while other threads write through the handle:
 * those calls either complete normally or return PETW_EBADHANDLE.
 * Returns 0 or PETW_EBADHANDLE. */
int petw_provider_unregister(petw_provider_handle handle);

/* Writes one event.
 * descriptor: the event's identity, level and keywords.
 * activity:   the activity ID to record, or NULL for the calling thread's
 *             current activity ID (see petw_activity_id_get()).
 * related:    a related activity ID stored as an extended-data item, or NULL.
 * count/data: the payload, concatenated in order (count <= 128).
 * Returns 0 when the event was accepted by every session that enables it
 * (or when none does), else:
 *   PETW_EBADHANDLE  unknown, stale or unregistered handle;
 *   PETW_EINVAL      NULL descriptor, count > 128, or data NULL with count > 0;
 *   PETW_ETOOBIG     header + payload do not fit a 64 KB record;
 *   PETW_EMOREDATA   the record does not fit some session's buffer;
 *   PETW_ENOBUFS     some session had no free buffer: the event is lost there
 *                    and counted in that session's events_lost.
 * Never allocates, locks or makes a system call (the first event of a thread
 * reads its thread ID once). */
static inline int petw_event_write(petw_provider_handle handle,
                                   const petw_event_descriptor *descriptor,
                                   const petw_guid *activity, const petw_guid *related,
                                   uint32_t count, const petw_data_descriptor *data);

/* 1 when some session would record an event with this descriptor, else 0
 * (also 0 for an invalid handle). When no session enables the provider this
 * is one load and one branch. */
static inline int petw_event_enabled(petw_provider_handle handle,
                                     const petw_event_descriptor *descriptor);

/* As petw_event_enabled() for a level and keyword (EventProviderEnabled). */
static inline int petw_provider_enabled(petw_provider_handle handle, uint8_t level,
                                        uint64_t keyword);

/* As petw_event_write, with EventWriteEx's extras: `session_filter` bit k
 * keeps the event from the k-th session enabling the provider (in the order
 * they enabled it), and `header_flags` adds EVENT_HEADER flags to the record
 * (PETW_EVENT_HEADER_FLAG_STRING_ONLY for EventWriteString). Same errors. */
int petw_event_write_ex(petw_provider_handle handle, const petw_event_descriptor *descriptor,
                        const petw_guid *activity, const petw_guid *related,
                        uint64_t session_filter, uint16_t header_flags, uint32_t count,
                        const petw_data_descriptor *data);

/* A TraceLogging event whose metadata comes as one block: `schema` is its
 * EVENT_SCHEMA_TL item (u16 total size, tags, the event's name, its
 * fields), `schema_size` bytes (at least 2), and `data` is the payload
 * alone (the descriptors' types are not read). The record is the one
 * EventWriteTransfer writes from TraceLogging's typed descriptors: the
 * provider's traits (petw_provider_set_traits) and the schema as extended
 * items, then the payload. <TraceLoggingProvider.h> writes through this,
 * its schema a static block the compiler built. `session_filter` as in
 * petw_event_write_ex. Same errors as petw_event_write, and PETW_EINVAL
 * without a schema. */
int petw_event_write_tl(petw_provider_handle handle, const petw_event_descriptor *descriptor,
                        const void *schema, uint32_t schema_size, const petw_guid *activity,
                        const petw_guid *related, uint64_t session_filter, uint32_t count,
                        const petw_data_descriptor *data);

/* petw_event_write_tl with the schema as the record's whole extended item
 * (<TraceLoggingProvider.h> builds it once per event site): `item` holds
 * the u64 item header (u16 total size, u16 PETW_EXT_TYPE_EVENT_SCHEMA_TL,
 * u16 linkage 0, u16 schema size), the schema, and zeros to `item_size`,
 * a multiple of 8 (little-endian, as petw's records). Copied as it is.
 * Same errors as petw_event_write_tl; PETW_EINVAL when the header does not
 * describe `item_size` bytes. */
int petw__event_write_tl_item(petw_provider_handle handle, const petw_event_descriptor *descriptor,
                              const void *item, uint32_t item_size, const petw_guid *activity,
                              const petw_guid *related, uint64_t session_filter, uint32_t count,
                              const petw_data_descriptor *data);
/* petw__event_write_tl_item without activity IDs nor session filter
 * (TraceLoggingWrite's call): three arguments fewer, all of them in
 * registers. Same errors. */
int petw__event_write_tl_plain(petw_provider_handle handle, const petw_event_descriptor *descriptor,
                               const void *item, uint32_t item_size, uint32_t count,
                               const petw_data_descriptor *data);

/* A classic (MOF) event, as TraceEvent and TraceMessage write them: the
 * record's provider GUID is `event_class` (the event class, not the
 * registered provider's), and it carries PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER
 * plus `header_flags` (only PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE, for WPP
 * messages). The descriptor gives the event type as opcode, the level and
 * the version; sessions filter it by level and keyword like any event.
 * Same errors as petw_event_write. */
int petw_event_write_classic(petw_provider_handle handle, const petw_guid *event_class,
                             const petw_event_descriptor *descriptor, uint16_t header_flags,
                             uint32_t count, const petw_data_descriptor *data);

/* Provider traits (EventSetInformation(EventProviderSetTraits)): a blob of
 * u16 total size, the UTF-8 provider name NUL-terminated, then optional
 * traits. Every later event carries it as a PROV_TRAITS extended item.
 * Returns 0, PETW_EBADHANDLE or PETW_EINVAL (malformed blob). Blobs are kept
 * for the process's lifetime (writers may still read an older one); equal
 * blobs are stored once. */
int petw_provider_set_traits(petw_provider_handle handle, const void *traits, uint32_t size);

/* EventSetInformation(EventProviderUseDescriptorType): with `on`, data
 * descriptors of type 1 (event metadata) and 2 (provider metadata) become
 * the EVENT_SCHEMA_TL and PROV_TRAITS extended items instead of payload, as
 * TraceLogging needs. Returns 0 or PETW_EBADHANDLE. */
int petw_provider_use_descriptor_types(petw_provider_handle handle, int on);

/* The calling thread's current activity ID (all zero until set). */
void petw_activity_id_get(petw_guid *out);
/* Sets the calling thread's current activity ID. */
void petw_activity_id_set(const petw_guid *id);
/* Creates a new, process-unique activity ID (does not set it). */
void petw_activity_id_create(petw_guid *out);

/* ---- inline fast paths; internal, do not use these names directly ---- */

/* One word per provider slot: high 32 bits the slot's generation, low 32 bits
 * the mask of sessions enabling it (bits 0-7; 0: nobody listens; bit 31:
 * PETW__PROVIDER_STATE_NEVER, the slot was never registered). Read with
 * relaxed loads: a stale value only makes a racing write see the state just
 * before or just after an enable change, which ETW allows too. The write
 * itself reads the provider's dispatch list, not this word. */
extern uint64_t petw__provider_state[PETW_MAX_PROVIDERS];

/* Per provider slot, what its enabling sessions accept together, for
 * TraceLogging's inline check (Windows keeps the same in its provider:
 * LevelPlus1 and the keyword masks): `gen_level` the registration's
 * generation (high 32 bits) over the highest level plus one (0: no
 * session), `any` the OR of the sessions' any-keywords, `all` the AND of
 * their all-keywords. An event one session accepts passes; one that passes
 * may still match no session, and the write drops it. Written by the
 * control side, read relaxed: as with the state word, a stale value only
 * shows the state just before or after a change. */
typedef struct petw__provider_accepts {
    uint64_t gen_level;
    uint64_t any;
    uint64_t all;
} petw__provider_accepts;
extern petw__provider_accepts petw__provider_accepts_table[PETW_MAX_PROVIDERS];

int petw__event_write(petw_provider_handle handle, const petw_event_descriptor *descriptor,
                      const petw_guid *activity, const petw_guid *related, uint32_t count,
                      const petw_data_descriptor *data);
/* petw__event_write with both activity IDs NULL (EventWrite's call): two
 * arguments fewer for the out-of-line path to keep. */
int petw__event_write_plain(petw_provider_handle handle, const petw_event_descriptor *descriptor,
                            uint32_t count, const petw_data_descriptor *data);
#define PETW__DATA_TYPE_EVENT_METADATA 1
#define PETW__DATA_TYPE_PROVIDER_METADATA 2
int petw__enabled_slow(petw_provider_handle handle, uint8_t level, uint64_t keyword);

/* The low-half bit a slot's word holds until its first registration. */
#define PETW__PROVIDER_STATE_NEVER 0x80000000u

/* The slot's state word; PETW__PROVIDER_STATE_NEVER for an out-of-range
 * slot (handle 0 included). */
static inline uint64_t petw__provider_state_load(petw_provider_handle handle)
{
    uint32_t slot = petw__handle_slot(handle);
    if (slot >= PETW_MAX_PROVIDERS)
        return PETW__PROVIDER_STATE_NEVER;
    return __atomic_load_n(&petw__provider_state[slot], __ATOMIC_RELAXED);
}

static inline int petw_event_write(petw_provider_handle handle,
                                   const petw_event_descriptor *descriptor,
                                   const petw_guid *activity, const petw_guid *related,
                                   uint32_t count, const petw_data_descriptor *data)
{
    /* Valid handle and nobody listening: the state word is the handle's
     * generation over an empty mask, one compare (a slot never registered
     * holds a word no handle matches, so generation 0 needs no test). With
     * a well-formed call (constants fold at most call sites): done. */
    if (petw__provider_state_load(handle) == (handle & ~(uint64_t)0xFFFFFFFFu) &&
        descriptor != NULL && count <= PETW_MAX_DATA_DESCRIPTORS && (count == 0 || data))
        return 0;
    if (activity == NULL && related == NULL) /* constants at most call sites: folds */
        return petw__event_write_plain(handle, descriptor, count, data);
    return petw__event_write(handle, descriptor, activity, related, count, data);
}

static inline int petw_provider_enabled(petw_provider_handle handle, uint8_t level,
                                        uint64_t keyword)
{
    if ((uint8_t)petw__provider_state_load(handle) == 0)
        return 0;
    return petw__enabled_slow(handle, level, keyword);
}

/* TraceLogging's check before it evaluates an event's fields: inline, and
 * with the sessions' combined level and keywords (petw__provider_accepts),
 * as Windows' TraceLoggingProviderEnabled. Constant level and keyword fold. */
static inline int petw__provider_accepts_load(petw_provider_handle handle, uint8_t level,
                                              uint64_t keyword)
{
    uint32_t slot = petw__handle_slot(handle);
    if (slot >= PETW_MAX_PROVIDERS)
        return 0;
    const petw__provider_accepts *a = &petw__provider_accepts_table[slot];
    uint64_t gl = __atomic_load_n(&a->gen_level, __ATOMIC_RELAXED);
    if ((uint32_t)(gl >> 32) != petw__handle_generation(handle) || level >= (uint32_t)gl)
        return 0;
    if (keyword == 0)
        return 1;
    uint64_t any = __atomic_load_n(&a->any, __ATOMIC_RELAXED);
    uint64_t all = __atomic_load_n(&a->all, __ATOMIC_RELAXED);
    return (keyword & any) != 0 && (keyword & all) == all;
}

static inline int petw_event_enabled(petw_provider_handle handle,
                                     const petw_event_descriptor *descriptor)
{
    if ((uint8_t)petw__provider_state_load(handle) == 0 || descriptor == NULL)
        return 0;
    return petw__enabled_slow(handle, descriptor->level, descriptor->keyword);
}

#ifdef __cplusplus
}
#endif
#endif /* PETW_PROVIDER_H */
