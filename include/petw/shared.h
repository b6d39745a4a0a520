/* petw/shared.h - sessions shared between processes, as ETW's are.
 *
 * petw_shared_start starts a session host: a process of its own that owns
 * the session (its buffers, its file, its real-time consumers) and lives
 * until the session stops, whether or not the controller that started it
 * still runs. Providers in every process of the same user that register an
 * enabled GUID write into shared per-CPU buffers the host gives them; the
 * host writes them out. Any process of the user can find, query, enable,
 * flush, update, stop or consume the session by name.
 *
 * No daemon runs in between: the processes meet in a per-user runtime
 * directory ($PETW_RUNTIME_DIR, else $XDG_RUNTIME_DIR/petw, else
 * /tmp/petw-<uid>, created 0700 and checked). The host is this same program
 * started again (or $PETW_HOST, any program linked with petw).
 * PETW_DISABLE_XPROC=1 keeps a process out of shared sessions.
 *
 * Linux only for now: elsewhere every function returns PETW_ENOTSUP.
 * Handles are petw_session_handle values with PETW_SHARED_HANDLE_BIT set;
 * petw_session_* (in-process sessions) refuses them.
 */
#ifndef PETW_SHARED_H
#define PETW_SHARED_H

#include <stdint.h>

#include "consume.h"
#include "error.h"
#include "session.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PETW_SHARED_HANDLE_BIT 0x40000000u /* in the low 32 bits of a handle */

/* 1 when `h` names a shared session (it may have stopped since). */
static inline int petw_shared_handle(petw_session_handle h)
{
    return ((uint32_t)h & PETW_SHARED_HANDLE_BIT) != 0;
}

/* Starts a host for the session and waits until it runs (its file is
 * created). The config is that of petw_session_start; `sink` must be NULL
 * (a callback cannot run in another process). Returns 0, any error of
 * petw_session_start (from the host), PETW_EEXIST (a shared session of
 * that name runs), PETW_ELIMIT (64 shared sessions), PETW_ENOHOST (the
 * host could not be started), or an error of the runtime directory. */
int petw_shared_start(const petw_session_config *config, petw_session_handle *out);

/* Finds a running shared session by name: 0 or PETW_ENOTFOUND. */
int petw_shared_find(const char *name, petw_session_handle *out);

/* Lists running shared sessions; `count` gets how many run. */
int petw_shared_list(petw_session_handle *out, uint32_t max, uint32_t *count);

/* As petw_session_enable_provider: every process that registers `provider`
 * (now or later) writes its matching events into the session.
 * PETW_ELIMIT when 8 sessions enable it already.
 * The zero GUID (PETW_SHARED_ALL_PROVIDERS) enables every provider of the
 * processes whose environment holds PETW_RECORD_SESSION=<this session's
 * name>, and of no other process: what `petw record` without -p does for
 * the command it runs (its children inherit the variable). */
int petw_shared_enable_provider(petw_session_handle session, const petw_guid *provider,
                                uint8_t level, uint64_t match_any, uint64_t match_all);
int petw_shared_disable_provider(petw_session_handle session, const petw_guid *provider);
/* Asks every process that registers `provider` to log its state: their
 * enable callbacks run with PETW_CONTROL_CAPTURE_STATE, this process's
 * before the call returns, others' on their agent threads soon after (as
 * ETW's EVENT_CONTROL_CODE_CAPTURE_STATE). PETW_ENOTFOUND when the
 * session does not enable `provider`. */
int petw_shared_capture_state(petw_session_handle session, const petw_guid *provider);

#define PETW_SHARED_ALL_PROVIDERS                                                                  \
    {                                                                                              \
        0, 0, 0,                                                                                   \
        {                                                                                          \
            0                                                                                      \
        }                                                                                          \
    }

/* What a shared session enables: one entry per provider GUID. */
typedef struct petw_shared_enable {
    petw_guid provider; /* zero: PETW_SHARED_ALL_PROVIDERS */
    uint8_t level;
    uint8_t reserved[7];
    uint64_t match_any, match_all;
} petw_shared_enable;

/* The session's enables, in the order they were made; `count` gets how
 * many there are (may exceed max). 0 or PETW_ENOTFOUND. */
int petw_shared_session_enables(petw_session_handle session, petw_shared_enable *out, uint32_t max,
                                uint32_t *count);

/* A provider registered in a running process of this user. */
typedef struct petw_shared_provider {
    petw_guid provider;
    uint32_t process_id;
    char name[240];        /* from its traits (TraceLogging, EventSource); "" when unknown */
    char process_name[64]; /* what ps shows; "" when unknown */
} petw_shared_provider;

/* Lists the providers registered in the user's running processes (pid 0)
 * or in process `pid`, one entry per (process, GUID); `count` gets how
 * many there are (may exceed max). Processes that keep out of shared
 * sessions (PETW_DISABLE_XPROC=1) are not seen. */
int petw_shared_list_providers(uint32_t pid, petw_shared_provider *out, uint32_t max,
                               uint32_t *count);

/* As their petw_session_* namesakes. Counters are summed over every
 * provider process, including those that exited or were killed. */
int petw_shared_query(petw_session_handle session, petw_session_stats *stats);
int petw_shared_flush(petw_session_handle session, petw_session_stats *stats);
int petw_shared_update(petw_session_handle session, uint32_t flush_timer_ms,
                       uint32_t maximum_buffers);
/* EnableFlags (as ControlTrace(UPDATE) sets them): a system session records
 * those groups from then on. */
int petw_shared_set_enable_flags(petw_session_handle session, uint32_t flags);
/* The PETW_SYSTEM_* groups a session records from now on (the system
 * provider restarts, with a rundown); a session that records none becomes
 * a system session. 0 stops them. PETW_ENOTSUP when no group given can be
 * recorded here (the session is unchanged). */
int petw_shared_set_system_groups(petw_session_handle session, uint32_t flags);
/* A system session's groups with stacks and its sample interval (100 ns);
 * NULL leaves one unchanged (TraceSetInformation's stack and profile
 * classes). PETW_ENOTSUP on a session without a system provider. */
int petw_shared_set_system(petw_session_handle session, const uint32_t *stack_flags,
                           const uint32_t *interval_100ns);
/* As petw_session_snapshot and petw_session_switch_file. */
int petw_shared_snapshot(petw_session_handle session, const char *path);
int petw_shared_switch_file(petw_session_handle session, const char *path);
/* Stops the session: providers detach, their buffers are written, the file
 * is finished; `stats` gets the final counters. The host then exits. */
int petw_shared_stop(petw_session_handle session, petw_session_stats *stats);

/* A real-time consumer of a shared REAL_TIME session, from any process:
 * as petw_trace_open_realtime. petw_trace_process returns when the
 * session stops. */
int petw_shared_open_realtime(const char *logger_name, const petw_trace_config *config,
                              petw_trace **out);

#ifdef __cplusplus
}
#endif
#endif /* PETW_SHARED_H */
