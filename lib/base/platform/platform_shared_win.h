/* SPDX-License-Identifier: MIT */
/* platform_shared_win.h - what the Windows files of platform.h's "Sessions
 * shared between processes" share (platform_shared_win.c: the user, the
 * runtime directory, wake-up counters, handles and private files;
 * platform_shm_win.c: shared memory, the shared file and its locks, futex
 * words; platform_ipc_win.c: named pipes and waiting on them;
 * platform_process_win.c: detached processes and threads). Windows only;
 * nothing outside lib/base/platform/ sees it.
 *
 * Every handle this layer gives out is a pointer to a `wobj` (below),
 * never a bare HANDLE: a pipe needs state of its own (its framing, its
 * peer), a listener is a pipe instance waiting for a client plus an event,
 * and handle_replace needs a place that names a handle.
 */
#ifndef PETW_PLATFORM_SHARED_WIN_H
#define PETW_PLATFORM_SHARED_WIN_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "platform_win_internal.h"
#include <aclapi.h>

enum { OBJ_RAW = 1, OBJ_PIPE, OBJ_LISTENER };
#define OBJ_MAGIC 0x4A424F57u /* "WOBJ" */

typedef struct wobj {
    uint32_t magic, kind;
    /* The handle; swapped by handle_replace while other threads may read
     * it (wake_signal). */
    _Atomic(intptr_t) h;
    HANDLE retired; /* replaced earlier, closed at the next replace */
    /* Pipes: the peer, and what is left of the chunk being received. */
    uint32_t peer_pid;
    int server; /* the server end (its peer is the client) */
    uint32_t chunk_left;
    /* Listeners: the instance waiting for a client, and its connect. */
    wchar_t *name;
    OVERLAPPED ov;
    int pending; /* a connect is under way on h */
} wobj;

/* The object a handle names; NULL for -1 and other small numbers (a
 * descriptor number meant for Linux never reaches memory). */
static inline wobj *obj(intptr_t v)
{
    wobj *o = (wobj *)v;
    return v >= 0x10000 && o->magic == OBJ_MAGIC ? o : NULL;
}

static inline HANDLE raw(const wobj *o)
{
    /* relaxed: whichever handle the object names now is a valid one. */
    return (HANDLE)atomic_load_explicit(&((wobj *)o)->h, memory_order_relaxed);
}

/* A new object of `kind` naming `h`; NULL when out of memory. */
wobj *petw__win_obj_new(int kind, HANDLE h);
/* Frees an object (its handle is the caller's to close). */
void petw__win_obj_free(wobj *o);

static inline int64_t now_ms(void)
{
    return (int64_t)GetTickCount64();
}

static inline DWORD left_ms(int64_t deadline)
{
    if (deadline < 0)
        return INFINITE;
    int64_t left = deadline - now_ms();
    return left <= 0 ? 0 : left > 0x7FFFFFFF ? 0x7FFFFFFF : (DWORD)left;
}

/* A short nap in a wait loop: a yield first, then 1 ms, then up to 8 ms
 * (there is no readiness notification for a pipe without a read posted on
 * it; see docs/design.md). */
static inline void nap(unsigned iteration, DWORD left)
{
    DWORD ms = iteration < 3 ? 0 : iteration < 40 ? 1 : iteration < 200 ? 4 : 8;
    if (ms > left)
        ms = left;
    if (ms == 0)
        SwitchToThread();
    else
        Sleep(ms);
}

/* The user's SID as text (S-1-5-...), "" when unknown. */
void petw__win_user_sid_text(wchar_t *out, size_t n);
/* A security descriptor granting `rights` (SDDL: FA, GA) to the user and
 * SYSTEM only, inherited by children when `inherit`. LocalFree it. */
PSECURITY_DESCRIPTOR petw__win_private_sd(const wchar_t *rights, int inherit);
/* 1 when the object's DACL grants nobody but the user, SYSTEM and the
 * token's default owner: the Windows form of "mode & 077 == 0". */
int petw__win_private_dacl(HANDLE h, SE_OBJECT_TYPE type);
/* 1 when process `pid` runs as this process's user. */
int petw__win_same_user(uint32_t pid);

#endif
