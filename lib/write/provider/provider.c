/* provider.c - provider registration, enablement and the out-of-line part
 * of EventWrite.
 *
 * Concurrency: the control lock serializes every change here. Writers read
 * a provider slot without locks, as a sequence lock: load the slot's state
 * word (acquire), read the fields, acquire fence, load the state word again;
 * a changed generation means the provider was unregistered meanwhile and the
 * write returns PETW_EBADHANDLE. Control code changes a slot in the mirror
 * order: state word first (generation bump), release fence, fields.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/platform/platform.h"
#include "../format/etl.h" /* record layout constants only */
#include "../../base/common/filter.h"
#include "../ring/ring.h"
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

typedef struct petw__provider_session {
    _Atomic uint32_t ref;       /* session ref, 0 when unused */
    _Atomic uint32_t level;     /* normalized: 0 became 255 */
    _Atomic uint64_t match_any; /* normalized: 0 became all ones */
    _Atomic uint64_t match_all;
    /* The session's event ID filter and properties (interned, never freed);
     * NULL when it has none. Read only for sessions whose bit is set in the
     * state word's STATE_SPECIAL bits. */
    _Atomic(const petw__enable_filter *) filter;
} petw__provider_session;

/* The low 32 bits of a provider's state word: bits 0-7 the sessions that
 * enable it, bits 8-15 those of them with an event ID filter or enable
 * properties (write_event_special handles their events; others never look
 * at filters). */
_Static_assert(PETW_MAX_SESSIONS_PER_PROVIDER <= 8, "state word: 8 session bits");
#define STATE_MASK(st) ((uint32_t)(st)&0xFFu)
#define STATE_SPECIAL(st) (((uint32_t)(st) >> 8) & 0xFFu)
#define STATE_SPECIAL_BITS 0xFF00u

typedef struct petw__provider {
    _Atomic uint64_t guid[2];
    /* Read by writers (relaxed; covered by the sequence-lock recheck):
     * PROVIDER_USE_TYPES, and interned traits (never freed). */
    _Atomic uint32_t options;
    _Atomic(const uint8_t *) traits; /* its first u16 is its size */
    petw__provider_session sessions[PETW_MAX_SESSIONS_PER_PROVIDER];
    /* Control-lock only. */
    petw_guid id;
    petw_enable_callback callback;
    void *callback_context;
    uint32_t gen;
    int in_use;
} petw__provider;

#define PROVIDER_USE_TYPES 0x1u

uint64_t petw__provider_state[PETW_MAX_PROVIDERS];
static petw__provider providers[PETW_MAX_PROVIDERS];

/* What sessions enable, per GUID, including GUIDs no provider registered
 * yet (ETW remembers those too). Control lock only. */
typedef struct enable_entry {
    petw_guid guid;
    uint32_t session_ref;
    uint8_t level;
    uint64_t match_any, match_all;
    const petw__enable_filter *filter; /* interned; NULL: none */
    /* Its PID or executable-name filter leaves this process out: the
     * session does not enable the GUID here (no callback, no events). */
    int excluded;
} enable_entry;
static enable_entry *enables;
static size_t enable_count, enable_cap;

static _Thread_local petw_guid tls_activity;

static inline int level_keyword_match(uint8_t ev_level, uint64_t kw, uint32_t s_level, uint64_t any,
                                      uint64_t all)
{
    if (ev_level != 0 && ev_level > s_level)
        return 0;
    return kw == 0 || ((kw & any) != 0 && (kw & all) == all);
}

/* ---- control side ---- */

static void state_store(uint32_t slot, uint32_t gen, uint32_t mask)
{
    /* release: a writer that sees this state sees the fields set before it
     * (registration, enable entries); pairs with the acquire state loads in
     * write_event and petw__enabled_slow. */
    __atomic_store_n(&petw__provider_state[slot], ((uint64_t)gen << 32) | mask, __ATOMIC_RELEASE);
}

/* Rebuilds a registered provider's session entries from the enable table
 * and publishes the new mask. */
static void provider_sync(uint32_t slot)
{
    petw__provider *p = &providers[slot];
    uint32_t mask = 0, n = 0;
    for (size_t i = 0; i < enable_count && n < PETW_MAX_SESSIONS_PER_PROVIDER; i++) {
        const enable_entry *e = &enables[i];
        if (!petw_guid_equal(&e->guid, &p->id) || e->excluded)
            continue;
        petw__provider_session *s = &p->sessions[n];
        atomic_store_explicit(&s->level, e->level ? e->level : 255u, memory_order_relaxed);
        atomic_store_explicit(&s->match_any, e->match_any ? e->match_any : ~(uint64_t)0,
                              memory_order_relaxed);
        atomic_store_explicit(&s->match_all, e->match_all, memory_order_relaxed);
        const petw__enable_filter *f = petw__filter_per_event(e->filter) ? e->filter : NULL;
        /* release: the interned filter's bytes before a writer that loads
         * the pointer (write_event_special's acquire load). */
        atomic_store_explicit(&s->filter, f, memory_order_release);
        /* release: level/keywords before the ref a writer acquires (write_event,
         * petw__enabled_slow). */
        atomic_store_explicit(&s->ref, e->session_ref, memory_order_release);
        if (f)
            mask |= 1u << (n + 8);
        mask |= 1u << n++;
    }
    for (; n < PETW_MAX_SESSIONS_PER_PROVIDER; n++)
        atomic_store_explicit(&p->sessions[n].ref, 0, memory_order_relaxed);
    state_store(slot, p->gen, mask);
}

/* The least-restrictive level/keywords across the sessions enabling `guid`. */
static int aggregate(const petw_guid *guid, uint8_t *level, uint64_t *any, uint64_t *all)
{
    int found = 0;
    *level = 0;
    *any = 0;
    *all = ~(uint64_t)0;
    for (size_t i = 0; i < enable_count; i++) {
        const enable_entry *e = &enables[i];
        if (!petw_guid_equal(&e->guid, guid) || e->excluded)
            continue;
        uint8_t lv = e->level ? e->level : 255;
        if (lv > *level)
            *level = lv;
        *any |= e->match_any ? e->match_any : ~(uint64_t)0;
        *all &= e->match_all;
        found = 1;
    }
    if (!found)
        *all = 0;
    return found;
}

static void run_callbacks(const petw_guid *guid, uint32_t code_override, int only_slot)
{
    uint8_t level;
    uint64_t any, all;
    int on = aggregate(guid, &level, &any, &all);
    uint32_t code = code_override != UINT32_MAX
                        ? code_override
                        : (on ? PETW_CONTROL_ENABLE_PROVIDER : PETW_CONTROL_DISABLE_PROVIDER);
    for (uint32_t i = 0; i < PETW_MAX_PROVIDERS; i++) {
        petw__provider *p = &providers[i];
        if (!p->in_use || !petw_guid_equal(&p->id, guid) || !p->callback)
            continue;
        if (only_slot >= 0 && (int)i != only_slot)
            continue;
        uint32_t gen = p->gen;
        p->callback(&p->id, code, level, any, all, NULL, p->callback_context);
        /* The callback may have unregistered this provider or others;
         * slots are static, so continuing the scan is safe. */
        (void)gen;
    }
}

static void sync_guid(const petw_guid *guid)
{
    for (uint32_t i = 0; i < PETW_MAX_PROVIDERS; i++)
        if (providers[i].in_use && petw_guid_equal(&providers[i].id, guid))
            provider_sync(i);
}

int petw__provider_register(const petw_guid *id, petw_enable_callback cb, void *ctx,
                            petw_provider_handle *out)
{
    PETW__RETURN_IF(id == NULL || out == NULL, PETW_EINVAL);
    petw__library_init();
    petw__control_lock();
    uint32_t slot;
    for (slot = 0; slot < PETW_MAX_PROVIDERS && providers[slot].in_use; slot++) {
    }
    if (slot == PETW_MAX_PROVIDERS) {
        petw__control_unlock();
        return PETW_ELIMIT;
    }
    petw__provider *p = &providers[slot];
    /* release fence: the slot's last unregistration (its generation bump,
     * maybe on another thread, ordered before us by the control lock)
     * before the field stores below; pairs with write_event's acquire fence:
     * a writer that reads a field we store here sees the bumped generation
     * on its reload. */
    atomic_thread_fence(memory_order_release);
    p->gen = p->gen + 1 ? p->gen + 1 : 1;
    p->in_use = 1;
    p->id = *id;
    p->callback = cb;
    p->callback_context = ctx;
    atomic_store_explicit(&p->options, 0, memory_order_relaxed);
    atomic_store_explicit(&p->traits, NULL, memory_order_relaxed);
    uint64_t g[2];
    memcpy(g, id, sizeof(g));
    atomic_store_explicit(&p->guid[0], g[0], memory_order_relaxed);
    atomic_store_explicit(&p->guid[1], g[1], memory_order_relaxed);
    provider_sync(slot); /* publishes the new generation with release */
    *out = petw__handle_make(p->gen, slot);
    uint8_t level;
    uint64_t any, all;
    if (cb && aggregate(id, &level, &any, &all))
        run_callbacks(id, UINT32_MAX, (int)slot);
    petw__control_unlock();
    return 0;
}

static petw__provider *lookup(petw_provider_handle h, uint32_t *slot_out)
{
    uint32_t slot = petw__handle_slot(h);
    if (slot >= PETW_MAX_PROVIDERS || !providers[slot].in_use ||
        providers[slot].gen != petw__handle_generation(h))
        return NULL;
    *slot_out = slot;
    return &providers[slot];
}

int petw__provider_unregister(petw_provider_handle h)
{
    uint32_t slot;
    petw__control_lock();
    petw__provider *p = lookup(h, &slot);
    if (!p) {
        petw__control_unlock();
        return PETW_EBADHANDLE;
    }
    /* Generation bump first: from here on, writers with this handle fail
     * their second state check (see the file comment). */
    uint32_t next = p->gen + 1 ? p->gen + 1 : 1;
    p->gen = next;
    /* seq_cst (conservative; relaxed would do, the fence below orders it):
     * the new generation that write_event's state reload must see. */
    __atomic_store_n(&petw__provider_state[slot], (uint64_t)next << 32, __ATOMIC_SEQ_CST);
    /* release: the bump above before the field stores that follow; pairs
     * with write_event's acquire fence before its state reload. */
    atomic_thread_fence(memory_order_release);
    for (int i = 0; i < PETW_MAX_SESSIONS_PER_PROVIDER; i++)
        atomic_store_explicit(&p->sessions[i].ref, 0, memory_order_relaxed);
    p->in_use = 0;
    p->callback = NULL;
    petw__control_unlock();
    return 0;
}

/* ---- filters and enable properties ---- */

/* Filters: interned, append-only, never freed (a writer may hold one). */
typedef struct interned_filter {
    struct interned_filter *next;
    petw__enable_filter f;
} interned_filter;
static interned_filter *interned_filters; /* control lock */

static const petw__enable_filter *filter_intern(const petw__enable_filter *f)
{
    if (petw__filter_empty(f))
        return NULL;
    interned_filter *it;
    for (it = interned_filters; it; it = it->next)
        if (memcmp(&it->f, f, sizeof(*f)) == 0)
            return &it->f;
    it = malloc(sizeof(*it));
    if (!it)
        return NULL;
    it->f = *f;
    it->next = interned_filters;
    interned_filters = it;
    return &it->f;
}

/* What enable properties record about this process, computed on the
 * control path (the first enable that asks, and again in a forked child)
 * and copied by writers, which acquired a state word published after it. */
static struct {
    uint32_t ready_pid; /* the process they describe; 0: not computed */
    uint32_t sid_size;
    uint32_t ts_id;
    uint64_t start_key;
    uint8_t sid[68];
    char image[256]; /* the executable's file name, for executable-name filters */
} proc_info;

static void proc_info_compute(void)
{
    proc_info.sid_size = petw__user_sid(proc_info.sid, sizeof(proc_info.sid));
    proc_info.ts_id = petw__terminal_session_id();
    proc_info.start_key = petw__process_start_key();
    petw__process_image_name(proc_info.image, sizeof(proc_info.image));
    proc_info.ready_pid = petw__process_id();
}

static void proc_info_after_fork(void)
{
    if (proc_info.ready_pid)
        proc_info_compute();
}

static void proc_info_prepare(void)
{
    if (proc_info.ready_pid == petw__process_id())
        return;
    if (!proc_info.ready_pid)
        petw__on_fork_child(proc_info_after_fork);
    proc_info_compute();
}

int petw__provider_admits_process(const petw__enable_filter *filter)
{
    if (petw__filter_empty(filter) || !(filter->flags & (PETW__FILTER_PID | PETW__FILTER_EXE)))
        return 1;
    proc_info_prepare();
    return petw__filter_admits_process(filter, petw__process_id(), proc_info.image);
}

int petw__provider_enable(const petw_guid *guid, uint32_t ref, uint8_t level, uint64_t any,
                          uint64_t all, const petw__enable_filter *filter)
{
    const petw__enable_filter *f = NULL;
    if (!petw__filter_empty(filter)) {
        f = filter_intern(filter);
        if (!f)
            return PETW_ENOMEM;
        proc_info_prepare();
    }
    size_t i, same_guid = 0;
    for (i = 0; i < enable_count; i++) {
        if (!petw_guid_equal(&enables[i].guid, guid))
            continue;
        if (enables[i].session_ref == ref)
            break;
        same_guid++;
    }
    if (i == enable_count) {
        if (same_guid >= PETW_MAX_SESSIONS_PER_PROVIDER)
            return PETW_ELIMIT;
        if (enable_count == enable_cap) {
            size_t cap = enable_cap ? enable_cap * 2 : 64;
            enable_entry *n = realloc(enables, cap * sizeof(*n));
            if (!n)
                return PETW_ENOMEM;
            enables = n;
            enable_cap = cap;
        }
        enables[enable_count].guid = *guid;
        enables[enable_count].session_ref = ref;
        enables[enable_count].excluded = 1; /* not in effect before */
        enable_count++;
    }
    int was_excluded = enables[i].excluded;
    enables[i].level = level;
    enables[i].match_any = any;
    enables[i].match_all = all;
    enables[i].filter = f;
    enables[i].excluded = f && !petw__filter_admits_process(f, petw__process_id(), proc_info.image);
    sync_guid(guid);
    /* An enable that leaves this process out, as before, changes nothing
     * a provider here could see: no callback. */
    if (!(was_excluded && enables[i].excluded))
        run_callbacks(guid, UINT32_MAX, -1);
    return 0;
}

static void remove_entry(size_t i)
{
    enables[i] = enables[--enable_count];
}

int petw__provider_disable(const petw_guid *guid, uint32_t ref)
{
    for (size_t i = 0; i < enable_count; i++) {
        if (enables[i].session_ref == ref && petw_guid_equal(&enables[i].guid, guid)) {
            int excluded = enables[i].excluded;
            remove_entry(i);
            sync_guid(guid);
            if (!excluded) /* else the provider never saw it */
                run_callbacks(guid, UINT32_MAX, -1);
            return 0;
        }
    }
    return PETW_ENOTFOUND;
}

void petw__provider_disable_session(uint32_t ref)
{
    for (size_t i = 0; i < enable_count;) {
        if (enables[i].session_ref == ref) {
            petw_guid g = enables[i].guid;
            petw__provider_disable(&g, ref);
            i = 0; /* the table changed under us */
        } else {
            i++;
        }
    }
}

int petw__provider_capture_state(const petw_guid *guid, uint32_t ref)
{
    for (size_t i = 0; i < enable_count; i++) {
        if (enables[i].session_ref == ref && petw_guid_equal(&enables[i].guid, guid)) {
            if (!enables[i].excluded)
                run_callbacks(guid, PETW_CONTROL_CAPTURE_STATE, -1);
            return 0;
        }
    }
    return PETW_ENOTFOUND;
}

uint32_t petw__provider_list(petw__proc_entry *out, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < PETW_MAX_PROVIDERS; i++) {
        const petw__provider *p = &providers[i];
        if (!p->in_use)
            continue;
        uint32_t k;
        for (k = 0; k < n && memcmp(out[k].guid, &p->id, sizeof(p->id)); k++) {
        }
        /* relaxed: the control lock orders set_traits' store before us. */
        const uint8_t *traits = atomic_load_explicit(&p->traits, memory_order_relaxed);
        if (k == n) {
            if (n == max)
                break;
            memcpy(out[n].guid, &p->id, sizeof(p->id));
            out[n++].name[0] = 0;
        }
        if (traits && !out[k].name[0]) /* the name: after the u16 size, NUL-terminated */
            snprintf(out[k].name, sizeof(out[k].name), "%s", (const char *)traits + 2);
    }
    return n;
}

int petw__provider_is_registered(const petw_guid *guid)
{
    for (uint32_t i = 0; i < PETW_MAX_PROVIDERS; i++)
        if (providers[i].in_use && petw_guid_equal(&providers[i].id, guid))
            return 1;
    return 0;
}

int petw__provider_enabled_by(const petw_guid *guid, uint32_t ref, uint8_t *level, uint64_t *any,
                              uint64_t *all, const petw__enable_filter **filter)
{
    for (size_t i = 0; i < enable_count; i++) {
        if (enables[i].session_ref == ref && petw_guid_equal(&enables[i].guid, guid)) {
            *level = enables[i].level;
            *any = enables[i].match_any;
            *all = enables[i].match_all;
            if (filter)
                *filter = enables[i].filter;
            return 0;
        }
    }
    return PETW_ENOTFOUND;
}

uint32_t petw__provider_enables_of(uint32_t ref, petw_guid *out, uint32_t max)
{
    uint32_t n = 0;
    for (size_t i = 0; i < enable_count; i++)
        if (enables[i].session_ref == ref && n < max)
            out[n++] = enables[i].guid;
    return n;
}

void petw__provider_retarget(uint32_t old_ref, uint32_t new_ref)
{
    for (size_t i = 0; i < enable_count; i++) {
        if (enables[i].session_ref == old_ref) {
            enables[i].session_ref = new_ref;
            sync_guid(&enables[i].guid);
        }
    }
}

/* ---- writer side ---- */

int petw__enabled_slow(petw_provider_handle h, uint8_t level, uint64_t keyword)
{
    uint32_t slot = petw__handle_slot(h);
    if (slot >= PETW_MAX_PROVIDERS)
        return 0;
    /* acquire: pairs with state_store's release: the registration and the
     * session entries published before this state. */
    uint64_t st = __atomic_load_n(&petw__provider_state[slot], __ATOMIC_ACQUIRE);
    if ((uint32_t)(st >> 32) != petw__handle_generation(h))
        return 0;
    const petw__provider *p = &providers[slot];
    for (uint32_t m = STATE_MASK(st), i = 0; m; m >>= 1, i++) {
        if (!(m & 1))
            continue;
        const petw__provider_session *s = &p->sessions[i];
        /* acquire: pairs with provider_sync's release store of the ref. */
        if (atomic_load_explicit(&s->ref, memory_order_acquire) &&
            level_keyword_match(level, keyword,
                                atomic_load_explicit(&s->level, memory_order_relaxed),
                                atomic_load_explicit(&s->match_any, memory_order_relaxed),
                                atomic_load_explicit(&s->match_all, memory_order_relaxed)))
            return 1;
    }
    return 0;
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
    uint32_t ext;   /* bytes of extended items */
    uint32_t rsize; /* the record's Size field */
    uint32_t asize; /* what it reserves (8-aligned) */
} event_shape;

/* The descriptor walk: validates the descriptors, finds TraceLogging's
 * metadata, sums the payload and sizes the record. The helpers of
 * write_event are forced inline: they are one function to the compiler,
 * split only for the reader. */
static PETW__ALWAYS_INLINE int measure_event(const petw__provider *p, const petw_guid *related,
                                             uint32_t count, const petw_data_descriptor *data,
                                             event_shape *sh)
{
    sh->options = atomic_load_explicit(&p->options, memory_order_relaxed);
    /* acquire: pairs with petw__provider_set_traits's release store: the
     * interned blob's bytes before the pointer. */
    sh->traits = atomic_load_explicit(&p->traits, memory_order_acquire);
    sh->traits_size = sh->traits ? petw__rd16(sh->traits) : 0;
    sh->schema = NULL;
    sh->schema_size = 0;
    uint64_t payload = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (PETW__UNLIKELY(data[i].size && !data[i].ptr))
            return PETW_EINVAL;
        if (PETW__UNLIKELY((sh->options & PROVIDER_USE_TYPES) && data[i].type != 0)) {
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
    if (PETW__UNLIKELY(sh->traits_size > 0xFFF0 || sh->schema_size > 0xFFF0))
        return PETW_ETOOBIG;
    sh->ext = (related ? PETW__EXT_ITEM_HEADER + 16 : 0) +
              (sh->traits ? PETW__ALIGN8(PETW__EXT_ITEM_HEADER + sh->traits_size) : 0) +
              (sh->schema ? PETW__ALIGN8(PETW__EXT_ITEM_HEADER + sh->schema_size) : 0);
    uint64_t rsize = PETW__EVENT_HEADER_SIZE + sh->ext + payload;
    if (PETW__UNLIKELY(rsize > 0xFFFF))
        return PETW_ETOOBIG;
    sh->rsize = (uint32_t)rsize;
    sh->asize = PETW__ALIGN8(sh->rsize);
    return 0;
}

/* The enabling sessions whose level and keywords match, as session refs
 * (a sequence-lock read: write_event validates the generation after). */
static PETW__ALWAYS_INLINE uint32_t choose_sessions(const petw__provider *p, uint32_t mask,
                                                    uint64_t filter, const petw_event_descriptor *d,
                                                    uint32_t *refs)
{
    uint32_t n = 0;
    for (uint32_t m = mask, i = 0; m; m >>= 1, i++) {
        if (!(m & 1) || (filter >> i) & 1)
            continue;
        const petw__provider_session *s = &p->sessions[i];
        /* acquire: pairs with provider_sync's release store of the ref. */
        uint32_t ref = atomic_load_explicit(&s->ref, memory_order_acquire);
        if (ref && level_keyword_match(d->level, d->keyword,
                                       atomic_load_explicit(&s->level, memory_order_relaxed),
                                       atomic_load_explicit(&s->match_any, memory_order_relaxed),
                                       atomic_load_explicit(&s->match_all, memory_order_relaxed)))
            refs[n++] = ref;
    }
    return n;
}

/* Extended items (Windows' order: related activity, provider traits,
 * schema) and the payload, after the header. */
static PETW__ALWAYS_INLINE void write_body(uint8_t *out, const event_shape *sh,
                                           const petw_guid *related, uint32_t count,
                                           const petw_data_descriptor *data)
{
    if (PETW__UNLIKELY(sh->ext != 0)) {
        if (related)
            out = petw__etl_put_ext(out, PETW_EXT_TYPE_RELATED_ACTIVITYID, related, 16,
                                    sh->traits || sh->schema);
        if (sh->traits)
            out = petw__etl_put_ext(out, PETW_EXT_TYPE_PROV_TRAITS, sh->traits, sh->traits_size,
                                    sh->schema != NULL);
        if (sh->schema)
            out = petw__etl_put_ext(out, PETW_EXT_TYPE_EVENT_SCHEMA_TL, sh->schema, sh->schema_size,
                                    0);
    }
    for (uint32_t i = 0; i < count; i++) {
        if (PETW__UNLIKELY((sh->options & PROVIDER_USE_TYPES) && data[i].type != 0))
            continue;
        const void *src = (const void *)(uintptr_t)data[i].ptr;
        uint32_t len = data[i].size;
        /* Fixed-size copies of the common field sizes compile to moves. */
        switch (len) {
        case 0:
            break; /* {NULL, 0} is a valid descriptor: nothing to copy */
        case 4:
            memcpy(out, src, 4);
            break;
        case 8:
            memcpy(out, src, 8);
            break;
        case 16:
            memcpy(out, src, 16);
            break;
        case 32:
            memcpy(out, src, 32);
            break;
        default:
            memcpy(out, src, len);
        }
        out += len;
    }
}

/* The header of a record reserved at `out` (everything but what follows
 * it), in the store order crash evidence needs: see write_event. */
static PETW__ALWAYS_INLINE void record_head(uint8_t *out, uint32_t rsize, uint32_t asize,
                                            uint64_t word0, uint64_t word1, uint32_t clock,
                                            const uint64_t g[2], const petw_event_descriptor *d,
                                            const petw_guid *act)
{
    /* Crash evidence for a session host that reads this buffer after
     * this process died (docs/design.md, "Crashes"): the size first, the
     * header type last, so a record without its type is incomplete. */
    const uint32_t size_only = (uint16_t)rsize;
    memcpy(out, &size_only, 4);
    /* Compiler-only barriers (no instruction): keep the size store
     * first and the type store last in program order; a killed process
     * has executed a prefix of its stores, in that order. */
    atomic_signal_fence(memory_order_seq_cst);
    memset(out + asize - 8, 0, 8); /* the alignment gap; later stores may overwrite it */
    int64_t ts = petw__clock_read(clock);
    memcpy(out + 4, (const uint8_t *)&word0 + 4, 4);
    memcpy(out + 8, &word1, 8);
    memcpy(out + 16, &ts, 8);
    memcpy(out + 24, g, 16);
    memcpy(out + 40, d, 16);
    /* KernelTime, UserTime: not measured (NO_CPUTIME). A thread's CPU time
     * is a system call away on Linux and Windows; the write path makes none. */
    memset(out + 56, 0, 8);
    memcpy(out + 64, act, 16);
}

static PETW__NOINLINE int write_event_special(petw_provider_handle h,
                                              const petw_event_descriptor *d,
                                              const petw_guid *activity, const petw_guid *related,
                                              uint64_t filter, uint16_t extra_flags,
                                              const petw_guid *event_class, uint32_t count,
                                              const petw_data_descriptor *data, uint64_t s1);

static int write_event(petw_provider_handle h, const petw_event_descriptor *d,
                       const petw_guid *activity, const petw_guid *related, uint64_t filter,
                       uint16_t extra_flags, const petw_guid *event_class, uint32_t count,
                       const petw_data_descriptor *data)
{
    uint32_t slot = petw__handle_slot(h), gen = petw__handle_generation(h);
    if (PETW__UNLIKELY(slot >= PETW_MAX_PROVIDERS || gen == 0))
        return PETW_EBADHANDLE;
    /* acquire (sequence-lock begin): pairs with state_store's release, so the
     * fields read below are at least those of the registration we see. */
    uint64_t s1 = __atomic_load_n(&petw__provider_state[slot], __ATOMIC_ACQUIRE);
    if (PETW__UNLIKELY((uint32_t)(s1 >> 32) != gen))
        return PETW_EBADHANDLE;
    if (PETW__UNLIKELY(d == NULL || count > PETW_MAX_DATA_DESCRIPTORS || (count && !data)))
        return PETW_EINVAL;
    uint32_t mask = (uint32_t)s1;
    if (mask == 0)
        return 0;
    /* Some enabling session filters event IDs or asks for properties. */
    if (PETW__UNLIKELY(mask & STATE_SPECIAL_BITS))
        return write_event_special(h, d, activity, related, filter, extra_flags, event_class, count,
                                   data, s1);
    const petw__provider *p = &providers[slot];
    event_shape sh;
    int rc = measure_event(p, related, count, data, &sh);
    if (PETW__UNLIKELY(rc != 0))
        return rc;
    uint32_t refs[PETW_MAX_SESSIONS_PER_PROVIDER];
    uint32_t n = choose_sessions(p, mask, filter, d, refs);
    if (n == 0)
        return 0;
    uint64_t g[2] = {atomic_load_explicit(&p->guid[0], memory_order_relaxed),
                     atomic_load_explicit(&p->guid[1], memory_order_relaxed)};
    if (PETW__UNLIKELY(event_class != NULL)) /* a classic event names its class */
        memcpy(g, event_class, sizeof(g));
    /* acquire fence + reload: if any field above came from a later
     * (re)registration, the generation we see now has changed. Pairs with
     * petw__provider_unregister's release fence after its generation bump. */
    atomic_thread_fence(memory_order_acquire);
    if (PETW__UNLIKELY((uint32_t)(__atomic_load_n(&petw__provider_state[slot], __ATOMIC_RELAXED) >>
                                  32) != gen))
        return PETW_EBADHANDLE;

    /* Everything of the header but the timestamp, computed once. */
    const uint32_t tid = petw__thread_id(), pid = petw__process_id();
    const petw_guid act = activity ? *activity : tls_activity;
    const uint16_t flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_NO_CPUTIME | extra_flags |
                                      (sh.ext ? PETW_EVENT_HEADER_FLAG_EXTENDED_INFO : 0));
    const uint64_t word0 = (uint64_t)(uint16_t)sh.rsize |
                           ((uint64_t)PETW__HDR_EVENT64_TYPE_WORD << 16) |
                           ((uint64_t)flags << 32); /* Size, HeaderType, Flags, EventProperty 0 */
    const uint64_t word1 = (uint64_t)tid | ((uint64_t)pid << 32);
    for (uint32_t k = 0; k < n; k++) {
        petw__ring *ring = &petw__ring_table[PETW__SESSION_REF_SLOT(refs[k])];
        petw__reservation res;
        int r = petw__ring_reserve(ring, PETW__SESSION_REF_GEN(refs[k]), sh.asize, &res);
        if (PETW__UNLIKELY(r != 0)) {
            if (r < 0)
                rc = merge_rc(rc, r);
            continue;
        }
        /* The record is written in place; the layout is EVENT_HEADER's
         * (petw_event_header), little-endian. */
        uint8_t *out = res.record;
        record_head(out, sh.rsize, sh.asize, word0, word1, ring->clock, g, d, &act);
        write_body(out + PETW__EVENT_HEADER_SIZE, &sh, related, count, data);
        /* Compiler-only (see above): the type word after everything. */
        atomic_signal_fence(memory_order_seq_cst);
        memcpy(out, &word0, 4);
        petw__ring_commit(ring, &res);
    }
    return rc;
}

/* Frames a _STACK_TRACE item holds at most (ETW's limit is 192). */
#define STACK_FRAMES 64

typedef struct ext_ref {
    uint16_t type;
    uint16_t size;
    const void *data;
} ext_ref;

/* EVENT_KEY: provider, ID, version, and for TraceLogging events (which
 * share ID 0) their metadata, which holds the event's name. */
static uint64_t event_key(const uint64_t g[2], const petw_event_descriptor *d,
                          const event_shape *sh)
{
    uint8_t head[19];
    memcpy(head, g, 16);
    petw__wr16(head + 16, d->id);
    head[18] = d->version;
    uint64_t k = petw__fnv1a64(PETW__FNV_BASIS, head, sizeof(head));
    if (sh->schema)
        k = petw__fnv1a64(k, sh->schema, sh->schema_size);
    return k;
}

/* write_event for a provider some of whose sessions filter event IDs or
 * ask for enable properties: each session gets its own record (their
 * extended items differ). Only these sessions pay: the others' events
 * never come here. */
static PETW__NOINLINE int write_event_special(petw_provider_handle h,
                                              const petw_event_descriptor *d,
                                              const petw_guid *activity, const petw_guid *related,
                                              uint64_t filter, uint16_t extra_flags,
                                              const petw_guid *event_class, uint32_t count,
                                              const petw_data_descriptor *data, uint64_t s1)
{
    uint32_t slot = petw__handle_slot(h), gen = petw__handle_generation(h);
    const petw__provider *p = &providers[slot];
    event_shape sh;
    int rc = measure_event(p, related, count, data, &sh);
    if (PETW__UNLIKELY(rc != 0))
        return rc;
    uint32_t refs[PETW_MAX_SESSIONS_PER_PROVIDER], props[PETW_MAX_SESSIONS_PER_PROVIDER];
    uint32_t n = 0, wanted = 0, special = STATE_SPECIAL(s1);
    for (uint32_t m = STATE_MASK(s1), i = 0; m; m >>= 1, i++) {
        if (!(m & 1) || (filter >> i) & 1)
            continue;
        const petw__provider_session *s = &p->sessions[i];
        /* acquire: pairs with provider_sync's release store of the ref. */
        uint32_t ref = atomic_load_explicit(&s->ref, memory_order_acquire);
        if (!ref || !level_keyword_match(d->level, d->keyword,
                                         atomic_load_explicit(&s->level, memory_order_relaxed),
                                         atomic_load_explicit(&s->match_any, memory_order_relaxed),
                                         atomic_load_explicit(&s->match_all, memory_order_relaxed)))
            continue;
        uint32_t pr = 0;
        if ((special >> i) & 1) {
            /* acquire: pairs with provider_sync's release store: the
             * interned filter's bytes (never freed) before the pointer. */
            const petw__enable_filter *f = atomic_load_explicit(&s->filter, memory_order_acquire);
            if (f && (!petw__filter_id_pass(f, d->id) ||
                      !petw__filter_name_pass(f, d->level, d->keyword, sh.schema, sh.schema_size)))
                continue;
            pr = f ? f->properties : 0;
        }
        refs[n] = ref;
        props[n++] = pr;
        wanted |= pr;
    }
    if (n == 0)
        return 0;
    uint64_t g[2] = {atomic_load_explicit(&p->guid[0], memory_order_relaxed),
                     atomic_load_explicit(&p->guid[1], memory_order_relaxed)};
    const uint64_t key = (wanted & PETW__PROP_EVENT_KEY) ? event_key(g, d, &sh) : 0;
    if (PETW__UNLIKELY(event_class != NULL))
        memcpy(g, event_class, sizeof(g));
    /* acquire fence + reload: as in write_event. */
    atomic_thread_fence(memory_order_acquire);
    if (PETW__UNLIKELY((uint32_t)(__atomic_load_n(&petw__provider_state[slot], __ATOMIC_RELAXED) >>
                                  32) != gen))
        return PETW_EBADHANDLE;

    /* What the properties record, once for all sessions. The process's
     * values were computed when the first session asked (proc_info). */
    uint64_t stack[1 + STACK_FRAMES];
    uint32_t frames = 0;
    if (wanted & PETW__PROP_STACK_TRACE) {
        stack[0] = 0; /* MatchId: 0, the stack is not cached */
        frames = petw__stack_capture(stack + 1, STACK_FRAMES);
    }
    const uint32_t ts_id = proc_info.ts_id;
    const uint64_t start_key = proc_info.start_key;
    const uint32_t payload = sh.rsize - PETW__EVENT_HEADER_SIZE - sh.ext;
    event_shape body = sh;
    body.ext = 0; /* write_body then writes the payload only */

    const uint32_t tid = petw__thread_id(), pid = petw__process_id();
    const petw_guid act = activity ? *activity : tls_activity;
    const uint64_t word1 = (uint64_t)tid | ((uint64_t)pid << 32);
    for (uint32_t k = 0; k < n; k++) {
        ext_ref items[8];
        uint32_t ni = 0, ext = 0;
        if (related)
            items[ni++] = (ext_ref){PETW_EXT_TYPE_RELATED_ACTIVITYID, 16, related};
        if ((props[k] & PETW__PROP_SID) && proc_info.sid_size)
            items[ni++] = (ext_ref){PETW_EXT_TYPE_SID, (uint16_t)proc_info.sid_size, proc_info.sid};
        if (props[k] & PETW__PROP_TS_ID)
            items[ni++] = (ext_ref){PETW_EXT_TYPE_TS_ID, 4, &ts_id};
        if (props[k] & PETW__PROP_PROCESS_START_KEY)
            items[ni++] = (ext_ref){PETW_EXT_TYPE_PROCESS_START_KEY, 8, &start_key};
        if (props[k] & PETW__PROP_EVENT_KEY)
            items[ni++] = (ext_ref){PETW_EXT_TYPE_EVENT_KEY, 8, &key};
        uint32_t stack_item = UINT32_MAX;
        if ((props[k] & PETW__PROP_STACK_TRACE) && frames) {
            stack_item = ni;
            items[ni++] = (ext_ref){PETW_EXT_TYPE_STACK_TRACE64, (uint16_t)(8 + 8 * frames), stack};
        }
        if (sh.traits)
            items[ni++] = (ext_ref){PETW_EXT_TYPE_PROV_TRAITS, (uint16_t)sh.traits_size, sh.traits};
        if (sh.schema)
            items[ni++] =
                (ext_ref){PETW_EXT_TYPE_EVENT_SCHEMA_TL, (uint16_t)sh.schema_size, sh.schema};
        for (uint32_t j = 0; j < ni; j++)
            ext += PETW__ALIGN8(PETW__EXT_ITEM_HEADER + items[j].size);
        uint64_t rsize = (uint64_t)PETW__EVENT_HEADER_SIZE + ext + payload;
        if (rsize > 0xFFFF && stack_item != UINT32_MAX) {
            /* The stack gives way (its outermost frames) before the event. */
            uint64_t over = rsize - 0xFFFF, cut = (over + 7) / 8;
            if (cut < frames) {
                items[stack_item].size = (uint16_t)(items[stack_item].size - 8 * cut);
                ext -= (uint32_t)(8 * cut);
                rsize -= 8 * cut;
            }
        }
        if (PETW__UNLIKELY(rsize > 0xFFFF)) {
            rc = merge_rc(rc, PETW_ETOOBIG);
            continue;
        }
        const uint32_t asize = PETW__ALIGN8((uint32_t)rsize);
        const uint16_t flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_NO_CPUTIME | extra_flags |
                                          (ext ? PETW_EVENT_HEADER_FLAG_EXTENDED_INFO : 0));
        const uint64_t word0 = (uint64_t)(uint16_t)rsize |
                               ((uint64_t)PETW__HDR_EVENT64_TYPE_WORD << 16) |
                               ((uint64_t)flags << 32);
        petw__ring *ring = &petw__ring_table[PETW__SESSION_REF_SLOT(refs[k])];
        petw__reservation res;
        int r = petw__ring_reserve(ring, PETW__SESSION_REF_GEN(refs[k]), asize, &res);
        if (PETW__UNLIKELY(r != 0)) {
            if (r < 0)
                rc = merge_rc(rc, r);
            continue;
        }
        uint8_t *out = res.record;
        record_head(out, (uint32_t)rsize, asize, word0, word1, ring->clock, g, d, &act);
        uint8_t *at = out + PETW__EVENT_HEADER_SIZE;
        for (uint32_t j = 0; j < ni; j++)
            at = petw__etl_put_ext(at, items[j].type, items[j].data, items[j].size, j + 1 < ni);
        write_body(at, &body, NULL, count, data);
        /* Compiler-only (see write_event): the type word after everything. */
        atomic_signal_fence(memory_order_seq_cst);
        memcpy(out, &word0, 4);
        petw__ring_commit(ring, &res);
    }
    return rc;
}

int petw__event_write(petw_provider_handle h, const petw_event_descriptor *d,
                      const petw_guid *activity, const petw_guid *related, uint32_t count,
                      const petw_data_descriptor *data)
{
    return write_event(h, d, activity, related, 0, 0, NULL, count, data);
}

int petw_event_write_ex(petw_provider_handle h, const petw_event_descriptor *d,
                        const petw_guid *activity, const petw_guid *related, uint64_t filter,
                        uint16_t header_flags, uint32_t count, const petw_data_descriptor *data)
{
    /* Only flags that describe the payload may be added. */
    PETW__RETURN_IF(header_flags & ~(uint16_t)PETW_EVENT_HEADER_FLAG_STRING_ONLY, PETW_EINVAL);
    return write_event(h, d, activity, related, filter, header_flags, NULL, count, data);
}

int petw_event_write_classic(petw_provider_handle h, const petw_guid *event_class,
                             const petw_event_descriptor *d, uint16_t header_flags, uint32_t count,
                             const petw_data_descriptor *data)
{
    PETW__RETURN_IF(!event_class, PETW_EINVAL);
    PETW__RETURN_IF(header_flags & ~(uint16_t)PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE, PETW_EINVAL);
    return write_event(h, d, NULL, NULL, 0,
                       (uint16_t)(header_flags | PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER),
                       event_class, count, data);
}

/* Traits blobs: interned, append-only, never freed (a writer may hold one). */
typedef struct interned {
    struct interned *next;
    uint32_t size;
    uint8_t data[];
} interned;
static interned *interned_traits; /* control lock */

int petw__provider_set_traits(petw_provider_handle h, const void *blob, uint32_t size)
{
    PETW__RETURN_IF(!blob || size < 3 || size > 0xFFF0, PETW_EINVAL);
    const uint8_t *b = blob;
    PETW__RETURN_IF(petw__rd16(b) != size || memchr(b + 2, 0, size - 2) == NULL, PETW_EINVAL);
    petw__control_lock();
    uint32_t slot;
    petw__provider *p = lookup(h, &slot);
    if (!p) {
        petw__control_unlock();
        return PETW_EBADHANDLE;
    }
    interned *it;
    for (it = interned_traits; it; it = it->next)
        if (it->size == size && memcmp(it->data, blob, size) == 0)
            break;
    if (!it) {
        it = malloc(sizeof(*it) + size);
        if (!it) {
            petw__control_unlock();
            return PETW_ENOMEM;
        }
        it->size = size;
        memcpy(it->data, blob, size);
        it->next = interned_traits;
        interned_traits = it;
    }
    /* release: the blob before a writer that sees the pointer (write_event's
     * acquire load). */
    atomic_store_explicit(&p->traits, it->data, memory_order_release);
    petw__control_unlock();
    return 0;
}

int petw_provider_use_descriptor_types(petw_provider_handle h, int on)
{
    petw__control_lock();
    uint32_t slot;
    petw__provider *p = lookup(h, &slot);
    if (p)
        atomic_store_explicit(&p->options, on ? PROVIDER_USE_TYPES : 0, memory_order_relaxed);
    petw__control_unlock();
    return p ? 0 : PETW_EBADHANDLE;
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
