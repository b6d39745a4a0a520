/* SPDX-License-Identifier: MIT */
/* petw/shared.h - sessions shared between processes, as ETW's are.
 *
 * petw_session_start with config.transport = PETW_TRANSPORT_HOST (and so
 * StartTrace) starts a session host: a process of its own that owns
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
 * started again (or $PETW_HOST, any program linked with petw). When petw
 * is in a shared object rather than in the program (a plugin), the program
 * could not host: starting a session then needs $PETW_HOST, and fails with
 * PETW_ENOHOST (StartTrace: ERROR_PROCESS_ABORTED) without it.
 * PETW_DISABLE_XPROC=1 keeps a process out of shared sessions.
 *
 * Linux and petw's own Windows build. Handles are petw_session_handle
 * values with PETW_SHARED_HANDLE_BIT set; petw/session.h's functions take
 * them as they take in-process ones. This header adds what only shared
 * sessions have: the providers other processes registered, and the
 * enables a session's host keeps.
 */
#ifndef PETW_SHARED_H
#define PETW_SHARED_H

#include <stddef.h>
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

/* petw_session_enable_provider on a shared session with the zero GUID
 * (PETW_SHARED_ALL_PROVIDERS) enables every provider of the processes whose
 * environment holds PETW_RECORD_SESSION=<this session's name>, and of no
 * other process: what `petw record` without -p does for the command it runs
 * (its children inherit the variable). */
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

/* The runtime directory this process's shared sessions meet in (see the
 * top of this header), created when missing, and whether it can be used:
 * 0, or PETW_EACCES when it is not a directory of this user's alone
 * (another user's, open to others, or a symbolic link), PETW_ENAMETOOLONG
 * when its path leaves a socket address no room, or the OS's error
 * creating it. Any of these fails every shared session's operation; this
 * tells which directory to fix. `out` receives the path whenever it fits
 * in `size` bytes, also when the directory is refused ("" otherwise). */
int petw_shared_runtime_dir(char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* PETW_SHARED_H */
