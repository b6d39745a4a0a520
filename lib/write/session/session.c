/* SPDX-License-Identifier: MIT */
/* session.c - sessions: start, enable, query, flush, update, stop.
 *
 * Allowed dependencies: common/, platform/, ring/, provider/, format/, flush/,
 * system/.
 * All functions run under the
 * control lock; writers never take it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../flush/flush.h"
#include "../../base/platform/platform.h"
#include "../provider/provider_internal.h"
#include "../system/system.h"
#include "session_internal.h"

#define DEFAULT_BUFFER_KB 64
#define MAX_BUFFER_KB 1024
#define MIN_BUFFER_KB 4
#define MAX_POOL_BYTES (1ull << 30)

typedef struct petw__session {
    int in_use;
    uint16_t gen;
    uint32_t ref;
    uint32_t slot;
    petw_session_config config; /* normalized; name/file_path point below */
    char name[PETW_MAX_NAME];
    char file_path[PETW_MAX_NAME];
    uint32_t buffer_count;
    uint32_t enable_flags;      /* a system session: the PETW_SYSTEM_* it records */
    petw__system *system;       /* the system provider feeding it, or NULL */
    uint32_t system_limits;     /* PETW_SYSTEM_LIMIT_* the OS imposed on it */
    petw__machine_info machine; /* what the header says of the machine */
    petw__flush_target flush;
} petw__session;

static petw__session sessions[PETW_MAX_SESSIONS];
static int atexit_registered;

void petw_session_config_init(petw_session_config *c)
{
    if (!c)
        return;
    memset(c, 0, sizeof(*c));
    c->buffer_size_kb = DEFAULT_BUFFER_KB;
    c->flush_timer_ms = 1000;
    c->clock = PETW_CLOCK_QPC;
    c->log_file_mode = PETW_MODE_SEQUENTIAL;
}

static petw__session *lookup(petw_session_handle h)
{
    uint32_t slot = petw__handle_slot(h);
    if (slot >= PETW_MAX_SESSIONS || !sessions[slot].in_use ||
        sessions[slot].gen != petw__handle_generation(h))
        return NULL;
    return &sessions[slot];
}

static petw_session_handle handle_of(const petw__session *s)
{
    return petw__handle_make(s->gen, s->slot);
}

static void fill_stats(const petw__session *s, petw_session_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof(*st));
    const petw__ring *ring = s->flush.ring;
    petw__pool *pool = atomic_load_explicit(&((petw__ring *)ring)->pool, memory_order_relaxed);
    st->logger_id = ring->logger_id;
    st->buffer_size_kb = s->config.buffer_size_kb;
    st->minimum_buffers = s->config.minimum_buffers;
    st->maximum_buffers = s->config.maximum_buffers;
    st->flush_timer_ms = s->flush.flush_timer_ms;
    st->log_file_mode = s->config.log_file_mode;
    st->clock = s->config.clock;
    st->number_of_buffers = s->buffer_count;
    st->free_buffers =
        pool ? atomic_load_explicit(&pool->free_count, memory_order_relaxed) : s->buffer_count;
    st->events_lost =
        atomic_load_explicit(&((petw__ring *)ring)->own_counters.events_lost, memory_order_relaxed);
    st->buffers_written = atomic_load_explicit(&((petw__flush_target *)&s->flush)->buffers_written,
                                               memory_order_relaxed);
    st->events_written = atomic_load_explicit(&((petw__flush_target *)&s->flush)->events_written,
                                              memory_order_relaxed);
    /* The file being written now (NEWFILE: the latest; after a switch: the new one). */
    petw__flusher_path((petw__flush_target *)&s->flush, st->file_path, sizeof(st->file_path));
    if (st->file_path[0])
        st->buffers_written += 1; /* the header buffer, as ETW counts it */
    st->log_buffers_lost = atomic_load_explicit(
        &((petw__flush_target *)&s->flush)->log_buffers_lost, memory_order_relaxed);
    st->real_time_buffers_lost = atomic_load_explicit(
        &((petw__flush_target *)&s->flush)->real_time_buffers_lost, memory_order_relaxed);
    st->real_time_events_lost = atomic_load_explicit(
        &((petw__flush_target *)&s->flush)->real_time_events_lost, memory_order_relaxed);
    st->events_overwritten = atomic_load_explicit(
        &((petw__ring *)ring)->own_counters.events_overwritten, memory_order_relaxed);
    st->files_completed = atomic_load_explicit(&((petw__flush_target *)&s->flush)->files_completed,
                                               memory_order_relaxed);
    st->maximum_file_size_kb = s->config.maximum_file_size_kb;
    st->enable_flags = s->enable_flags;
    st->system_limits = s->system_limits;
    st->host_process_id = petw__process_id();
    memcpy(st->name, s->name, sizeof(st->name));
    if (!st->file_path[0])
        snprintf(st->file_path, sizeof(st->file_path), "%s", s->file_path);
}

static void stop_all_at_exit(void)
{
    petw__control_lock();
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++)
        if (sessions[i].in_use)
            petw__session_stop(handle_of(&sessions[i]), NULL);
    petw__control_unlock();
}

#define FILE_MODES (PETW_MODE_SEQUENTIAL | PETW_MODE_CIRCULAR | PETW_MODE_NEWFILE)
#define SUPPORTED_MODES                                                                            \
    (FILE_MODES | PETW_MODE_APPEND | PETW_MODE_PREALLOCATE | PETW_MODE_REAL_TIME |                 \
     PETW_MODE_BUFFERING | PETW_MODE_PRIVATE_LOGGER | PETW_MODE_PRIVATE_IN_PROC |                  \
     PETW_MODE_USE_PAGED_MEMORY | PETW_MODE_INDEPENDENT_SESSION)

/* A NEWFILE name: exactly one %d, and no other conversion (%% is fine). */
static int valid_pattern(const char *p)
{
    int d = 0;
    for (; *p; p++) {
        if (*p != '%')
            continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        if (p[1] != 'd')
            return 0;
        d++;
        p++;
    }
    return d == 1;
}

static int normalize(const petw_session_config *in, petw_session_config *c, uint32_t cpus)
{
    *c = *in;
    PETW__RETURN_IF(!c->name || !c->name[0], PETW_EINVAL);
    PETW__RETURN_IF(strlen(c->name) >= PETW_MAX_NAME, PETW_ENAMETOOLONG);
    PETW__RETURN_IF(c->file_path && strlen(c->file_path) >= PETW_MAX_NAME, PETW_ENAMETOOLONG);
    PETW__RETURN_IF(c->file_path && (!c->file_path[0]), PETW_EINVAL);
    uint32_t mode = c->log_file_mode;
    if (mode == 0 && c->file_path)
        mode = PETW_MODE_SEQUENTIAL;
    /* Contradictions first (EINVAL), then what is valid ETW but not here. */
    uint32_t file_modes = mode & FILE_MODES;
    PETW__RETURN_IF(file_modes & (file_modes - 1), PETW_EINVAL);
    PETW__RETURN_IF(file_modes && !c->file_path, PETW_EINVAL);
    PETW__RETURN_IF(!file_modes && c->file_path, PETW_EINVAL);
    PETW__RETURN_IF((mode & PETW_MODE_APPEND) && !(mode & PETW_MODE_SEQUENTIAL), PETW_EINVAL);
    PETW__RETURN_IF((mode & PETW_MODE_BUFFERING) && (file_modes || (mode & PETW_MODE_REAL_TIME)),
                    PETW_EINVAL);
    PETW__RETURN_IF(mode & ~SUPPORTED_MODES, PETW_ENOTSUP);
    c->log_file_mode = mode;
    if (c->clock == 0)
        c->clock = PETW_CLOCK_QPC;
    PETW__RETURN_IF(c->clock > PETW_CLOCK_CYCLES, PETW_EINVAL);
    /* ETW adjusts sizes instead of failing; so do we. */
    if (c->buffer_size_kb == 0)
        c->buffer_size_kb = DEFAULT_BUFFER_KB;
    if (c->buffer_size_kb < MIN_BUFFER_KB)
        c->buffer_size_kb = MIN_BUFFER_KB;
    if (c->buffer_size_kb > MAX_BUFFER_KB)
        c->buffer_size_kb = MAX_BUFFER_KB;
    if (c->minimum_buffers == 0)
        c->minimum_buffers = 2 * cpus;
    if (c->maximum_buffers == 0)
        c->maximum_buffers = c->minimum_buffers + 20;
    if (c->maximum_buffers < c->minimum_buffers)
        c->maximum_buffers = c->minimum_buffers;
    /* A flight recorder must always have a completed buffer to recycle
     * besides the ones CPUs are writing: raise a smaller pool (as ETW
     * adjusts sizes rather than failing). */
    if ((mode & PETW_MODE_BUFFERING) && c->maximum_buffers < 2 * cpus + 2)
        c->maximum_buffers = 2 * cpus + 2;
    PETW__RETURN_IF(c->maximum_buffers > PETW__MAX_POOL_BUFFERS, PETW_EINVAL);
    PETW__RETURN_IF((uint64_t)c->maximum_buffers * c->buffer_size_kb * 1024 > MAX_POOL_BYTES,
                    PETW_EINVAL);
    if (c->flush_timer_ms == 0)
        c->flush_timer_ms = 1000;
    PETW__RETURN_IF(c->flags & ~(PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM), PETW_EINVAL);
    /* Caps: CIRCULAR and NEWFILE need room for the header buffer and at
     * least one data buffer (two buffers); PREALLOCATE needs a size. */
    uint64_t cap = (uint64_t)c->maximum_file_size_kb * 1024;
    uint64_t two = 2ull * c->buffer_size_kb * 1024;
    PETW__RETURN_IF((mode & (PETW_MODE_CIRCULAR | PETW_MODE_NEWFILE | PETW_MODE_PREALLOCATE)) &&
                        cap < two,
                    PETW_EINVAL);
    PETW__RETURN_IF((mode & PETW_MODE_SEQUENTIAL) && cap && cap < two, PETW_EINVAL);
    PETW__RETURN_IF((mode & PETW_MODE_NEWFILE) && !valid_pattern(c->file_path), PETW_EINVAL);
    /* Room for the largest file number the pattern's %d can expand to. */
    PETW__RETURN_IF((mode & PETW_MODE_NEWFILE) && strlen(c->file_path) + 10 >= PETW_MAX_NAME,
                    PETW_ENAMETOOLONG);
    PETW__RETURN_IF((mode & PETW_MODE_CIRCULAR) && (c->flags & PETW_SESSION_ZSTD), PETW_EINVAL);
    /* Loss policy: buffering overwrites; overwriting needs buffering. */
    if (mode & PETW_MODE_BUFFERING)
        c->loss_policy = PETW_LOSS_OVERWRITE_OLDEST;
    PETW__RETURN_IF(c->loss_policy > PETW_LOSS_BLOCK, PETW_EINVAL);
    PETW__RETURN_IF(c->loss_policy == PETW_LOSS_OVERWRITE_OLDEST && !(mode & PETW_MODE_BUFFERING),
                    PETW_EINVAL);
    if (c->loss_policy == PETW_LOSS_BLOCK && c->block_timeout_ms == 0)
        c->block_timeout_ms = 1000;
    if (c->real_time_buffers == 0)
        c->real_time_buffers = c->maximum_buffers;
    return 0;
}

/* Under the control lock: initializes the rings once, refuses a name in
 * use and finds a free slot. */
static int claim_slot(const char *name, uint32_t cpus, uint32_t *slot_out)
{
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++)
        PETW__RETURN_IF(sessions[i].in_use && strcmp(sessions[i].name, name) == 0, PETW_EEXIST);
    return petw__ring_claim(cpus, slot_out);
}

/* The flusher's view of the session: destination, sealing, timer. */
static void prepare_target(petw__session *s, const petw_session_config *c)
{
    petw__flush_target *t = &s->flush;
    /* The timer handle stays initialized on the flusher's loop for the
     * slot's lifetime; everything else starts fresh. */
    int timer_initialized = t->timer_initialized;
    uv_timer_t timer = t->timer;
    memset(t, 0, sizeof(*t));
    t->timer_initialized = timer_initialized;
    t->timer = timer;
    t->ring = &petw__ring_table[s->slot];
    t->mode = c->log_file_mode;
    t->max_file_bytes = (uint64_t)c->maximum_file_size_kb * 1024;
    t->sink = c->sink;
    t->sink_context = c->sink_context;
    t->petw_flags = c->flags;
    t->zstd_level = c->zstd_level;
    t->flush_timer_ms = c->flush_timer_ms;
    if (c->file_path && (c->log_file_mode & PETW_MODE_NEWFILE)) {
        snprintf(t->pattern, sizeof(t->pattern), "%s", c->file_path);
        t->file_number = 1;
        snprintf(t->path, sizeof(t->path), t->pattern, 1);
    } else if (c->file_path) {
        snprintf(t->path, sizeof(t->path), "%s", c->file_path);
    }
}

/* The ring's client configuration and its pool; publishes a generation. */
static int start_ring(petw__session *s, const petw_session_config *c, uint16_t *gen)
{
    petw__ring *ring = &petw__ring_table[s->slot];
    /* A buffering ring keeps its buffers: the flusher has nothing to take. */
    ring->on_ready = c->loss_policy == PETW_LOSS_OVERWRITE_OLDEST ? NULL : petw__flusher_wake;
    ring->count_records = petw__etl_count_records;
    ring->policy = c->loss_policy;
    ring->block_timeout_us = c->block_timeout_ms * 1000u;
    ring->owner = s;
    ring->clock = c->clock;
    ring->logger_id = (uint16_t)(s->slot + 1);
    /* Address space for 4x the buffers (ControlTrace(UPDATE) may grow the
     * pool), within 4 GB. */
    uint64_t limit = 4ull * s->buffer_count;
    if (limit * c->buffer_size_kb * 1024 > 4 * MAX_POOL_BYTES)
        limit = 4 * MAX_POOL_BYTES / ((uint64_t)c->buffer_size_kb * 1024);
    if (limit > PETW__MAX_POOL_BUFFERS)
        limit = PETW__MAX_POOL_BUFFERS;
    if (limit < s->buffer_count)
        limit = s->buffer_count;
    return petw__ring_start(ring, c->buffer_size_kb * 1024, s->buffer_count, (uint32_t)limit, gen);
}

/* What the file's header buffer records about the session. */
static void fill_info(petw__session *s, const petw_session_config *c, uint32_t cpus)
{
    petw__flush_target *t = &s->flush;
    petw__etl_session_info *info = &t->info;
    info->buffer_size = c->buffer_size_kb * 1024;
    info->cpu_count = cpus;
    info->clock = c->clock;
    info->log_file_mode = c->log_file_mode;
    /* The header counts MB, and 0 there means no cap: a cap under a MB
     * (caps are in KB) is rounded up, never written as none. */
    info->maximum_file_size = (uint32_t)(((uint64_t)c->maximum_file_size_kb + 1023) / 1024);
    info->os_build = petw__os_build();
    petw__machine_info_get(&s->machine);
    info->cpu_speed_mhz = s->machine.cpu_speed_mhz;
    info->timer_resolution = s->machine.timer_resolution;
    info->tz_bias = s->machine.tz_bias;
    info->tz_standard_bias = s->machine.tz_standard_bias;
    info->tz_daylight_bias = s->machine.tz_daylight_bias;
    info->tz_standard_date = s->machine.tz_standard_date;
    info->tz_daylight_date = s->machine.tz_daylight_date;
    info->tz_standard = s->machine.tz_standard;
    info->tz_daylight = s->machine.tz_daylight;
    info->petw_flags = c->flags | (petw__clock_is_measured(c->clock) ? PETW_FILE_CLOCK_TSC : 0);
    info->logger_id = petw__ring_table[s->slot].logger_id;
    info->process_id = petw__process_id();
    info->thread_id = petw__thread_id();
    info->perf_freq = petw__clock_frequency(c->clock);
    info->start_filetime = petw__filetime_now();
    petw__clock_pair(c->clock, &info->start_timestamp, &t->reference_start_ns);
    info->boot_time = petw__boot_time();
    info->logger_name = s->name;
    info->log_file_name = t->path;
}

/* The system provider for a session with system_flags (see system.h). */
static int start_system(petw__session *s, const petw_session_config *c, uint16_t gen)
{
    petw__system_config sc = {
        .flags = c->system_flags,
        .stack_flags = c->system_stack_flags,
        .interval_100ns = c->profile_interval_100ns,
        .target_pid = c->system_target_pid,
        .ring = &petw__ring_table[s->slot],
        .ring_gen = gen,
    };
    uint32_t granted;
    uint32_t limits;
    PETW__FORWARD_IF_ERROR(petw__system_start(&sc, &s->system, &granted, &limits));
    s->enable_flags = granted;
    s->system_limits = limits;
    return 0;
}

static int start_locked(petw_session_config c, uint32_t cpus, petw_session_handle *out)
{
    uint32_t slot;
    PETW__FORWARD_IF_ERROR(claim_slot(c.name, cpus, &slot));
    petw__session *s = &sessions[slot];
    s->slot = slot;
    snprintf(s->name, sizeof(s->name), "%s", c.name);
    s->file_path[0] = 0;
    if (c.file_path)
        snprintf(s->file_path, sizeof(s->file_path), "%s", c.file_path);
    c.name = s->name;
    c.file_path = c.file_path ? s->file_path : NULL;
    s->config = c;
    s->buffer_count = c.maximum_buffers;
    prepare_target(s, &c);
    uint16_t gen;
    int started = start_ring(s, &c, &gen);
    if (started) {
        petw__ring_unclaim(slot);
        return started;
    }
    fill_info(s, &c, cpus);
    int rc = petw__flusher_attach(&s->flush);
    if (rc) {
        petw__ring_kill(&petw__ring_table[slot]);
        petw__ring_release(&petw__ring_table[slot]);
        petw__ring_unclaim(slot);
        return rc;
    }
    s->enable_flags = 0;
    s->system = NULL;
    if (c.system_flags) {
        rc = start_system(s, &c, gen);
        if (rc) {
            petw__flusher_detach(&s->flush);
            petw__ring_unclaim(slot);
            return rc;
        }
    }
    s->gen = gen;
    s->ref = PETW__SESSION_REF(slot, gen);
    s->in_use = 1;
    *out = handle_of(s);
    if (!atexit_registered) {
        atexit(stop_all_at_exit);
        atexit_registered = 1;
    }
    return 0;
}

int petw__session_start(const petw_session_config *in, petw_session_handle *out)
{
    PETW__RETURN_IF(in == NULL || out == NULL, PETW_EINVAL);
    petw__library_init();
    uint32_t cpus = petw__cpu_count();
    petw_session_config c;
    PETW__FORWARD_IF_ERROR(normalize(in, &c, cpus));
    petw__control_lock();
    int rc = start_locked(c, cpus, out);
    petw__control_unlock();
    return rc;
}

int petw__session_find(const char *name, petw_session_handle *out)
{
    PETW__RETURN_IF(!name || !out, PETW_EINVAL);
    int rc = PETW_ENOTFOUND;
    petw__control_lock();
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS && rc != 0; i++) {
        if (sessions[i].in_use && strcmp(sessions[i].name, name) == 0) {
            *out = handle_of(&sessions[i]);
            rc = 0;
        }
    }
    petw__control_unlock();
    return rc;
}

int petw__session_list(petw_session_handle *out, uint32_t max, uint32_t *count)
{
    PETW__RETURN_IF(!count || (max && !out), PETW_EINVAL);
    uint32_t n = 0;
    petw__control_lock();
    for (uint32_t i = 0; i < PETW_MAX_SESSIONS; i++) {
        if (!sessions[i].in_use)
            continue;
        if (n < max)
            out[n] = handle_of(&sessions[i]);
        n++;
    }
    petw__control_unlock();
    *count = n;
    return 0;
}

int petw__session_enable_filtered(petw_session_handle h, const petw_guid *provider, uint8_t level,
                                  uint64_t any, uint64_t all, const petw__enable_filter *filter)
{
    PETW__RETURN_IF(!provider, PETW_EINVAL);
    PETW__RETURN_IF(filter && petw__filter_check(filter) != 0, PETW_EINVAL);
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = s ? petw__provider_enable(provider, s->ref, level, any, all, filter) : PETW_ENOTFOUND;
    petw__control_unlock();
    return rc;
}

int petw__session_disable(petw_session_handle h, const petw_guid *provider)
{
    PETW__RETURN_IF(!provider, PETW_EINVAL);
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = s ? petw__provider_disable(provider, s->ref) : PETW_ENOTFOUND;
    petw__control_unlock();
    return rc;
}

int petw__session_capture_state(petw_session_handle h, const petw_guid *provider)
{
    PETW__RETURN_IF(!provider, PETW_EINVAL);
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = s ? petw__provider_capture_state(provider, s->ref) : PETW_ENOTFOUND;
    petw__control_unlock();
    return rc;
}

int petw__session_query(petw_session_handle h, petw_session_stats *stats)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    if (s)
        fill_stats(s, stats);
    petw__control_unlock();
    return s ? 0 : PETW_ENOTFOUND;
}

int petw__session_flush(petw_session_handle h, petw_session_stats *stats)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = PETW_ENOTFOUND;
    if (s) {
        rc = petw__flusher_flush(&s->flush);
        fill_stats(s, stats);
    }
    petw__control_unlock();
    return rc;
}

int petw__session_update(petw_session_handle h, uint32_t flush_timer_ms, uint32_t maximum_buffers)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = PETW_ENOTFOUND;
    if (s) {
        rc = 0;
        if (maximum_buffers > s->buffer_count) {
            rc = petw__flusher_grow(&s->flush, maximum_buffers);
            if (rc == 0)
                s->buffer_count = maximum_buffers;
        }
        if (rc == 0 && maximum_buffers)
            s->config.maximum_buffers = maximum_buffers;
        if (rc == 0 && flush_timer_ms)
            rc = petw__flusher_set_timer(&s->flush, flush_timer_ms);
    }
    petw__control_unlock();
    return rc;
}

int petw__session_set_enable_flags(petw_session_handle h, uint32_t flags)
{
    return petw__session_set_system(h, &flags, NULL, NULL);
}

static int set_system(petw_session_handle h, const uint32_t *flags, const uint32_t *stack_flags,
                      const uint32_t *interval_100ns, int make_system);

int petw__session_set_system(petw_session_handle h, const uint32_t *flags,
                             const uint32_t *stack_flags, const uint32_t *interval_100ns)
{
    return set_system(h, flags, stack_flags, interval_100ns, 0);
}

int petw__session_set_system_groups(petw_session_handle h, uint32_t flags)
{
    return set_system(h, &flags, NULL, NULL, 1);
}

static int set_system(petw_session_handle h, const uint32_t *flags, const uint32_t *stack_flags,
                      const uint32_t *interval_100ns, int make_system)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = s ? 0 : PETW_ENOTFOUND;
    if (s && !make_system && !s->system && !s->config.system_flags) {
        /* Not a system session: ETW keeps the flags and nothing changes. */
        if (flags)
            s->enable_flags = *flags;
        rc = stack_flags || interval_100ns ? PETW_ENOTSUP : 0;
    } else if (s) {
        /* A system session: the provider restarts with the new settings (a
         * rundown again, as Windows' update does for new groups); the same
         * settings change nothing. */
        petw_session_config c = s->config;
        if (flags)
            c.system_flags = *flags;
        if (stack_flags)
            c.system_stack_flags = *stack_flags;
        if (interval_100ns)
            c.profile_interval_100ns = *interval_100ns;
        if (!s->system || c.system_flags != s->config.system_flags ||
            c.system_stack_flags != s->config.system_stack_flags ||
            c.profile_interval_100ns != s->config.profile_interval_100ns) {
            petw__system_stop(s->system, 0);
            s->system = NULL;
            s->enable_flags = 0;
            rc = c.system_flags ? start_system(s, &c, s->gen) : 0;
            if (rc == 0)
                s->config = c;
            else if (s->config.system_flags)
                (void)start_system(s, &s->config, s->gen); /* refused: as it was */
        }
    }
    petw__control_unlock();
    return rc;
}

int petw__session_switch_file(petw_session_handle h, const char *path)
{
    PETW__RETURN_IF(!path || !path[0], PETW_EINVAL);
    PETW__RETURN_IF(strlen(path) >= PETW_MAX_NAME, PETW_ENAMETOOLONG);
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = PETW_ENOTFOUND;
    if (s) {
        uint32_t m = s->config.log_file_mode;
        rc = (!(m & (PETW_MODE_SEQUENTIAL | PETW_MODE_CIRCULAR)) || (m & PETW_MODE_APPEND))
                 ? PETW_EINVAL
                 : petw__flusher_switch_file(&s->flush, path);
        if (rc == 0)
            snprintf(s->file_path, sizeof(s->file_path), "%s", path);
    }
    petw__control_unlock();
    return rc;
}

int petw__session_snapshot_upto(petw_session_handle h, const char *path, int64_t upto)
{
    PETW__RETURN_IF(!path || !path[0], PETW_EINVAL);
    PETW__RETURN_IF(strlen(path) >= PETW_MAX_NAME, PETW_ENAMETOOLONG);
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = PETW_ENOTFOUND;
    if (s)
        rc = (s->config.log_file_mode & PETW_MODE_BUFFERING)
                 ? petw__flusher_snapshot(&s->flush, path, upto)
                 : PETW_EINVAL;
    petw__control_unlock();
    return rc;
}

int petw__session_snapshot(petw_session_handle h, const char *path)
{
    return petw__session_snapshot_upto(h, path, INT64_MAX);
}

int petw__session_mode(petw_session_handle h, uint32_t *mode)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    if (s)
        *mode = s->config.log_file_mode;
    petw__control_unlock();
    return s ? 0 : PETW_ENOTFOUND;
}

int petw__session_realtime_header(petw_session_handle h, uint8_t **header, uint32_t *size,
                                  uint32_t *queue_buffers)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = !s                                                 ? PETW_ENOTFOUND
             : !(s->config.log_file_mode & PETW_MODE_REAL_TIME) ? PETW_EINVAL
                                                                : 0;
    uint8_t *buf = NULL;
    if (rc == 0) {
        *size = s->config.buffer_size_kb * 1024;
        *queue_buffers = s->config.real_time_buffers;
        buf = malloc(*size);
        rc = buf ? 0 : PETW_ENOMEM;
    }
    if (rc == 0) {
        /* The consumer's view of the session: a header buffer as a file's. */
        petw__etl_session_info info = s->flush.info;
        info.buffers_written = 1;
        info.events_lost = 0;
        info.end_filetime = petw__filetime_now();
        petw__etl_write_header_buffer(buf, &info);
        *header = buf;
    }
    petw__control_unlock();
    return rc;
}

void petw__session_count_realtime_lost(petw_session_handle h, uint32_t buffers)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    if (s) /* relaxed: a count, read by a query (see petw__flush_deliver) */
        atomic_fetch_add_explicit(&((petw__flush_target *)&s->flush)->real_time_buffers_lost,
                                  buffers, memory_order_relaxed);
    petw__control_unlock();
}

int petw__session_add_consumer(petw_session_handle h, petw__bufqueue *queue)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = s ? petw__flusher_add_consumer(&s->flush, queue) : PETW_ENOTFOUND;
    petw__control_unlock();
    return rc;
}

int petw__session_stop(petw_session_handle h, petw_session_stats *stats)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    int rc = PETW_ENOTFOUND;
    if (s) {
        /* Providers first: new writes stop choosing this session. Writers
         * that already chose it are handled by the ring (petw__ring_kill). */
        petw__provider_disable_session(s->ref);
        /* The system provider writes until it is told to stop: stop it
         * before the ring. */
        petw__system_stop(s->system, 1);
        s->system = NULL;
        rc = petw__flusher_detach(&s->flush);
        fill_stats(s, stats);
        s->in_use = 0;
        petw__ring_unclaim(s->slot);
    }
    petw__control_unlock();
    return rc;
}

struct petw__ring *petw__session_ring(petw_session_handle h)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    petw__ring *ring = s ? s->flush.ring : NULL;
    petw__control_unlock();
    return ring;
}

int petw__session_add_lost(petw_session_handle h, uint32_t events)
{
    petw__control_lock();
    petw__session *s = lookup(h);
    if (s && events) {
        /* relaxed: counters, read as the writers' own (fill_stats). */
        atomic_fetch_add_explicit(&s->flush.ring->own_counters.events_lost, events,
                                  memory_order_relaxed);
        atomic_store_explicit(&s->flush.ring->own_counters.lost_pending, 1, memory_order_relaxed);
    }
    petw__control_unlock();
    return s ? 0 : PETW_ENOTFOUND;
}
