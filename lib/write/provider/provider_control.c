/* SPDX-License-Identifier: MIT */
/* provider_control.c - provider registration and enablement: the
 * registered providers and what sessions enable per GUID (including GUIDs
 * no provider registered yet), the enable callbacks, filters and traits
 * interned for writers, and each provider's dispatch list and state word
 * rebuilt and published when any of that changes (provider.c's comment
 * says how writers read them).
 *
 * Allowed dependencies: common/, platform/, ring/, format/, registry/.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/platform/platform.h"
#include "../../base/common/filter.h"
#include "../../base/format/etl.h" /* the extended item's header size */
#include "provider_dispatch.h"
#include "provider_internal.h"

typedef struct petw__provider {
    /* Control-lock only: writers see these through the dispatch list. */
    petw_guid id;
    petw_enable_callback callback;
    void *callback_context;
    uint32_t options;
    const uint8_t *traits; /* interned; its first u16 is its size */
    uint32_t gen;
    int in_use;
} petw__provider;

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

/* ---- control side ---- */

/* The slot's combined acceptance (petw__provider_accepts); level_plus1 0:
 * no session. The masks before the word a check reads first; a check
 * racing the change may pair old and new values, which only widens or
 * narrows it for that moment, as with any enable change. */
static void accepts_store(uint32_t slot, uint32_t gen, uint32_t level_plus1, uint64_t any,
                          uint64_t all)
{
    petw__provider_accepts *a = &petw__provider_accepts_table[slot];
    /* relaxed: read relaxed by the inline check (see the comment above). */
    __atomic_store_n(&a->any, any, __ATOMIC_RELAXED);
    __atomic_store_n(&a->all, all, __ATOMIC_RELAXED);
    __atomic_store_n(&a->gen_level, ((uint64_t)gen << 32) | level_plus1, __ATOMIC_RELAXED);
}

static void state_store(uint32_t slot, uint32_t gen, uint32_t mask)
{
    /* release: a writer that sees this state sees the registration and
     * dispatch list published before it; pairs with the acquire state load
     * in petw__enabled_slow. (The inline checks read it relaxed: they only
     * decide whether to call in.) */
    __atomic_store_n(&petw__provider_state[slot], ((uint64_t)gen << 32) | mask, __ATOMIC_RELEASE);
}

/* Builds and publishes a registered provider's dispatch list from the
 * enable table, then its state word. PETW_ENOMEM leaves the previous list
 * in place (its stopped sessions' rings refuse writes). */
static int provider_sync(uint32_t slot)
{
    petw__provider *p = &providers[slot];
    const uint32_t traits_size = p->traits ? petw__rd16(p->traits) : 0;
    const uint32_t traits_item = p->traits ? PETW__ALIGN8(PETW__EXT_ITEM_HEADER + traits_size) : 0;
    dispatch_list *dl = calloc(1, sizeof(*dl) + traits_item);
    if (!dl)
        return PETW_ENOMEM;
    dl->gen = p->gen;
    dl->options = p->options;
    dl->traits = p->traits;
    dl->traits_size = traits_size;
    dl->traits_item = traits_item;
    if (p->traits)
        petw__etl_put_ext(dl->traits_image, PETW_EXT_TYPE_PROV_TRAITS, p->traits, traits_size, 1);
    memcpy(dl->guid, &p->id, sizeof(dl->guid));
    uint32_t mask = 0, n = 0, level_plus1 = 0;
    uint64_t any = 0, all = ~(uint64_t)0;
    for (size_t i = 0; i < enable_count && n < PETW_MAX_SESSIONS_PER_PROVIDER; i++) {
        const enable_entry *e = &enables[i];
        if (!petw_guid_equal(&e->guid, &p->id) || e->excluded)
            continue;
        dispatch_entry *d = &dl->entries[n];
        d->ring = &petw__ring_table[PETW__SESSION_REF_SLOT(e->session_ref)];
        d->ring_gen = PETW__SESSION_REF_GEN(e->session_ref);
        d->level = e->level ? e->level : 255u;
        d->match_any = e->match_any ? e->match_any : ~(uint64_t)0;
        d->match_all = e->match_all;
        d->filter = petw__filter_per_event(e->filter) ? e->filter : NULL;
        d->position = (uint8_t)n;
        mask |= 1u << n++;
        if (d->level + 1u > level_plus1)
            level_plus1 = d->level + 1u;
        any |= d->match_any;
        all &= d->match_all;
    }
    dl->count = n;
    dl->solo = n == 1 && dl->entries[0].filter == NULL
                   ? ((dl->options & PROVIDER_USE_TYPES) ? SOLO_TYPED : SOLO_UNTYPED)
                   : 0;
    petw__provider_dispatch_publish(slot, dl);
    accepts_store(slot, p->gen, level_plus1, any, n ? all : 0);
    state_store(slot, p->gen, mask);
    return 0;
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

static int sync_guid(const petw_guid *guid)
{
    int rc = 0;
    for (uint32_t i = 0; i < PETW_MAX_PROVIDERS; i++)
        if (providers[i].in_use && petw_guid_equal(&providers[i].id, guid) && provider_sync(i))
            rc = PETW_ENOMEM;
    return rc;
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
    uint32_t old_gen = p->gen;
    p->gen = p->gen + 1 ? p->gen + 1 : 1;
    p->id = *id;
    p->options = 0;
    p->traits = NULL;
    if (provider_sync(slot)) { /* publishes the list, then the state */
        p->gen = old_gen;
        petw__control_unlock();
        return PETW_ENOMEM;
    }
    p->in_use = 1;
    p->callback = cb;
    p->callback_context = ctx;
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
    /* From here on a writer with this handle finds no list, or one of a
     * later registration: PETW_EBADHANDLE. One that loaded the list before
     * completes its write (a write racing the unregister). */
    uint32_t next = p->gen + 1 ? p->gen + 1 : 1;
    p->gen = next;
    petw__provider_dispatch_publish(slot, NULL);
    accepts_store(slot, next, 0, 0, 0);
    state_store(slot, next, 0);
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

int petw__provider_admits_process(const petw__enable_filter *filter)
{
    if (petw__filter_empty(filter) || !(filter->flags & (PETW__FILTER_PID | PETW__FILTER_EXE)))
        return 1;
    return petw__filter_admits_process(filter, petw__process_id(), petw__provider_process_image());
}

int petw__provider_enable(const petw_guid *guid, uint32_t ref, uint8_t level, uint64_t any,
                          uint64_t all, const petw__enable_filter *filter)
{
    const petw__enable_filter *f = NULL;
    if (!petw__filter_empty(filter)) {
        f = filter_intern(filter);
        if (!f)
            return PETW_ENOMEM;
        (void)petw__provider_process_image();
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
    enables[i].excluded =
        f && !petw__filter_admits_process(f, petw__process_id(), petw__provider_process_image());
    int rc = sync_guid(guid);
    /* An enable that leaves this process out, as before, changes nothing
     * a provider here could see: no callback. */
    if (!(was_excluded && enables[i].excluded))
        run_callbacks(guid, UINT32_MAX, -1);
    return rc;
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
        const uint8_t *traits = p->traits;
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
    p->traits = it->data;
    int rc = provider_sync(slot); /* writers see the blob through the new list */
    petw__control_unlock();
    return rc;
}

int petw_provider_use_descriptor_types(petw_provider_handle h, int on)
{
    petw__control_lock();
    uint32_t slot;
    petw__provider *p = lookup(h, &slot);
    int rc = PETW_EBADHANDLE;
    if (p) {
        p->options = on ? PROVIDER_USE_TYPES : 0;
        rc = provider_sync(slot);
    }
    petw__control_unlock();
    return rc;
}
