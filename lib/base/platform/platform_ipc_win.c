/* SPDX-License-Identifier: MIT */
/* platform_ipc_win.c - Windows implementation of platform.h's IPC: named
 * pipes that check the peer's user and carry handles, the pipe a detached
 * process inherits, and waiting on several handles. */
#include <fcntl.h>
#include <io.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petw/error.h"
#include "platform.h" /* windows.h first: sddl.h needs it */
#include "platform_shared_win.h"
#include <aclapi.h>
#include <sddl.h>

#define MAX_SEND_HANDLES 4
/* Pipe buffers; sends are written in pieces of at most this much. */
#define PIPE_BUFFER 65536

/* ---- Named pipes ---- */

/* \\.\pipe\petw-<user SID>-<hash of path>: pipes live in one namespace
 * for the machine, so the name carries the user; the path (under the
 * user's runtime directory) says which. */
static wchar_t *pipe_name(const char *path)
{
    uint64_t hash = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const char *p = path; *p; p++) {
        char c = *p == '/' ? '\\' : *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a'); /* paths are case-insensitive */
        hash = (hash ^ (uint8_t)c) * 0x100000001b3ull;
    }
    wchar_t sid[200];
    petw__win_user_sid_text(sid, 200);
    if (!sid[0])
        return NULL;
    wchar_t *name = malloc(300 * sizeof(wchar_t));
    if (name)
        _snwprintf(name, 300, L"\\\\.\\pipe\\petw-%ls-%016llx", sid, (unsigned long long)hash);
    return name;
}

static HANDLE pipe_instance(const wchar_t *name, int first, int max)
{
    PSECURITY_DESCRIPTOR sd = petw__win_private_sd(L"GA", 0);
    if (!sd) {
        SetLastError(ERROR_ACCESS_DENIED);
        return INVALID_HANDLE_VALUE;
    }
    SECURITY_ATTRIBUTES sa = {sizeof(sa), sd, FALSE};
    HANDLE h = CreateNamedPipeW(
        name,
        PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0),
        PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS, max,
        PIPE_BUFFER, PIPE_BUFFER, 0, &sa);
    DWORD e = GetLastError();
    LocalFree(sd);
    SetLastError(e);
    return h;
}

/* Starts waiting for a client on the listener's instance. */
static int listen_next(wobj *l, int first)
{
    HANDLE h = pipe_instance(l->name, first, PIPE_UNLIMITED_INSTANCES);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        atomic_store_explicit(&l->h, (intptr_t)INVALID_HANDLE_VALUE, memory_order_relaxed);
        /* The first instance exists already: somebody listens there
         * (perhaps another user squatting on the name). */
        return e == ERROR_ACCESS_DENIED || e == ERROR_PIPE_BUSY ? PETW_EEXIST : PETW_EIO;
    }
    atomic_store_explicit(&l->h, (intptr_t)h, memory_order_relaxed);
    HANDLE ev = l->ov.hEvent;
    memset(&l->ov, 0, sizeof(l->ov));
    l->ov.hEvent = ev;
    ResetEvent(ev);
    l->pending = 0;
    if (ConnectNamedPipe(h, &l->ov))
        SetEvent(ev);
    else if (GetLastError() == ERROR_IO_PENDING)
        l->pending = 1;
    else if (GetLastError() == ERROR_PIPE_CONNECTED)
        SetEvent(ev);
    else
        SetEvent(ev); /* a client that already left: accept says so */
    return 0;
}

int petw__ipc_listen(const char *path, intptr_t *out)
{
    *out = -1;
    if (!path || !path[0])
        return PETW_EINVAL;
    wobj *l = petw__win_obj_new(OBJ_LISTENER, INVALID_HANDLE_VALUE);
    if (!l)
        return PETW_ENOMEM;
    l->name = pipe_name(path);
    l->ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    int rc = l->name && l->ov.hEvent ? listen_next(l, 1) : PETW_ENOMEM;
    if (rc) {
        petw__win_obj_free(l);
        return rc;
    }
    *out = (intptr_t)l;
    return 0;
}

void petw__ipc_unlisten(intptr_t listener, const char *path)
{
    (void)path; /* a pipe name leaves nothing behind */
    petw__handle_close(listener);
}

/* The peer's pid: the client's for a server end, the server's otherwise. */
static uint32_t peer_of(HANDLE h, int server)
{
    ULONG pid = 0;
    BOOL ok = server ? GetNamedPipeClientProcessId(h, &pid) : GetNamedPipeServerProcessId(h, &pid);
    return ok ? (uint32_t)pid : 0;
}

int petw__ipc_accept(intptr_t listener, intptr_t *out, uint32_t *pid)
{
    *out = -1;
    wobj *l = obj(listener);
    if (!l || l->kind != OBJ_LISTENER)
        return PETW_EBADHANDLE;
    HANDLE h = raw(l);
    if (h == INVALID_HANDLE_VALUE) {
        int rc = listen_next(l, 0); /* an earlier instance could not be made */
        return rc ? rc : PETW_EBUSY;
    }
    if (WaitForSingleObject(l->ov.hEvent, 0) != WAIT_OBJECT_0)
        return PETW_EBUSY;
    DWORD n;
    BOOL connected = !l->pending || GetOverlappedResult(h, &l->ov, &n, FALSE) ||
                     GetLastError() == ERROR_PIPE_CONNECTED;
    l->pending = 0;
    /* The connected instance is handed out; a new one waits. */
    int rc = listen_next(l, 0);
    (void)rc; /* retried at the next accept */
    uint32_t peer = connected ? peer_of(h, 1) : 0;
    if (!peer) {
        CloseHandle(h);
        return PETW_EIO; /* the client already left */
    }
    if (!petw__win_same_user(peer)) {
        CloseHandle(h);
        return PETW_EACCES;
    }
    wobj *c = petw__win_obj_new(OBJ_PIPE, h);
    if (!c) {
        CloseHandle(h);
        return PETW_ENOMEM;
    }
    c->server = 1;
    c->peer_pid = peer;
    if (pid)
        *pid = peer;
    *out = (intptr_t)c;
    return 0;
}

static int connect_name(const wchar_t *name, intptr_t *out, uint32_t *peer_pid)
{
    int64_t deadline = now_ms() + 5000;
    HANDLE h;
    for (;;) {
        /* Identification only: the server may learn who we are, never act
         * as us. */
        h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                        FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION,
                        NULL);
        if (h != INVALID_HANDLE_VALUE)
            break;
        DWORD e = GetLastError();
        if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
            return PETW_ENOTFOUND;
        if (e == ERROR_ACCESS_DENIED)
            return PETW_EACCES;
        if (e != ERROR_PIPE_BUSY || left_ms(deadline) == 0)
            return e == ERROR_PIPE_BUSY ? PETW_ETIMEDOUT : PETW_EIO;
        /* Between an accept and its next instance: wait for one. */
        WaitNamedPipeW(name, 50);
    }
    uint32_t peer = peer_of(h, 0);
    if (!peer || !petw__win_same_user(peer)) {
        CloseHandle(h);
        return peer ? PETW_EACCES : PETW_EIO;
    }
    wobj *c = petw__win_obj_new(OBJ_PIPE, h);
    if (!c) {
        CloseHandle(h);
        return PETW_ENOMEM;
    }
    c->peer_pid = peer;
    if (peer_pid)
        *peer_pid = peer;
    *out = (intptr_t)c;
    return 0;
}

int petw__ipc_connect(const char *path, intptr_t *out, uint32_t *peer_pid)
{
    *out = -1;
    if (!path || !path[0])
        return PETW_EINVAL;
    wchar_t *name = pipe_name(path);
    if (!name)
        return PETW_ENOMEM;
    int rc = connect_name(name, out, peer_pid);
    free(name);
    return rc;
}

int petw__ipc_pair(intptr_t out[2])
{
    static _Atomic uint32_t counter;
    out[0] = out[1] = -1;
    wchar_t sid[200], name[300];
    petw__win_user_sid_text(sid, 200);
    /* relaxed: only distinct numbers are needed. */
    uint32_t k = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    _snwprintf(name, 300, L"\\\\.\\pipe\\petw-%ls-pair-%lu-%lu-%llu", sid,
               (unsigned long)GetCurrentProcessId(), (unsigned long)k,
               (unsigned long long)GetTickCount64());
    name[299] = 0;
    HANDLE s = pipe_instance(name, 1, 1);
    if (s == INVALID_HANDLE_VALUE)
        return PETW_EIO;
    HANDLE c =
        CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                    FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, NULL);
    if (c == INVALID_HANDLE_VALUE) {
        CloseHandle(s);
        return PETW_EIO;
    }
    OVERLAPPED ov;
    memset(&ov, 0, sizeof(ov));
    ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    BOOL ok = ConnectNamedPipe(s, &ov) || GetLastError() == ERROR_PIPE_CONNECTED;
    if (!ok && GetLastError() == ERROR_IO_PENDING) {
        DWORD n;
        ok = GetOverlappedResult(s, &ov, &n, TRUE);
    }
    if (ov.hEvent)
        CloseHandle(ov.hEvent);
    wobj *a = ok ? petw__win_obj_new(OBJ_PIPE, s) : NULL,
         *b = a ? petw__win_obj_new(OBJ_PIPE, c) : NULL;
    if (!b) {
        free(a);
        CloseHandle(s);
        CloseHandle(c);
        return ok ? PETW_ENOMEM : PETW_EIO;
    }
    /* Both ends are ours until one goes to a child (petw__handle_adopt
     * there learns its peer). */
    a->server = 1;
    a->peer_pid = b->peer_pid = (uint32_t)GetCurrentProcessId();
    out[0] = (intptr_t)a;
    out[1] = (intptr_t)b;
    return 0;
}

static int pipe_error(DWORD e)
{
    switch (e) {
    case ERROR_BROKEN_PIPE:
    case ERROR_NO_DATA:
    case ERROR_PIPE_NOT_CONNECTED:
    case ERROR_BAD_PIPE:
        return PETW_EPIPE;
    default:
        return PETW_EIO;
    }
}

/* One event per thread for its overlapped I/O (a thread does one at a
 * time); kept for the thread's life. */
static HANDLE io_event(void)
{
    static _Thread_local HANDLE ev;
    if (!ev)
        ev = CreateEventW(NULL, TRUE, FALSE, NULL);
    return ev;
}

/* Does one overlapped read or write, waiting until `deadline`. The bytes
 * moved, or a negative PETW_E*. */
static long pipe_io(HANDLE h, void *data, DWORD n, int write, int64_t deadline)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof(ov));
    ov.hEvent = io_event();
    if (!ov.hEvent)
        return PETW_ENOMEM;
    ResetEvent(ov.hEvent);
    DWORD done = 0;
    BOOL ok = write ? WriteFile(h, data, n, &done, &ov) : ReadFile(h, data, n, &done, &ov);
    if (!ok && GetLastError() != ERROR_IO_PENDING)
        return pipe_error(GetLastError());
    if (!ok) {
        DWORD w = WaitForSingleObject(ov.hEvent, left_ms(deadline));
        if (w != WAIT_OBJECT_0) {
            CancelIoEx(h, &ov);
            GetOverlappedResult(h, &ov, &done, TRUE);
            return PETW_ETIMEDOUT;
        }
    }
    if (!GetOverlappedResult(h, &ov, &done, TRUE))
        return pipe_error(GetLastError());
    return (long)done;
}

/* A chunk: every send is one, so handles can travel in-band. Handle values
 * are the receiver's own (the sender duplicated them into it). */
typedef struct chunk_header {
    uint32_t magic; /* CHUNK_MAGIC */
    uint32_t count; /* handles that follow (uint64_t each) */
    uint32_t size;  /* data bytes after them */
    uint32_t reserved;
} chunk_header;
#define CHUNK_MAGIC 0x48575450u /* "PTWH" */
#define CHUNK_MAX 0x40000000u   /* a send is cut into chunks of at most this */

static HANDLE peer_process(wobj *o)
{
    uint32_t pid = o->peer_pid;
    if (o->kind == OBJ_PIPE) {
        uint32_t now = peer_of(raw(o), o->server);
        if (now)
            pid = now;
    }
    return pid ? OpenProcess(PROCESS_DUP_HANDLE, FALSE, pid) : NULL;
}

int petw__ipc_send(intptr_t fd, const void *data, size_t size, const intptr_t *handles,
                   uint32_t count, int timeout_ms)
{
    if (count > MAX_SEND_HANDLES || (count > 0 && (!handles || size == 0)))
        return PETW_EINVAL;
    wobj *o = obj(fd);
    if (!o || o->kind != OBJ_PIPE)
        return PETW_EBADHANDLE;
    HANDLE h = raw(o);
    int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
    const uint8_t *p = data;
    uint32_t pending = count;
    while (size > 0) {
        uint32_t n = size > CHUNK_MAX ? CHUNK_MAX : (uint32_t)size;
        /* The header, the handles, and as much data as fits in one write. */
        uint8_t first[4096];
        chunk_header ch = {CHUNK_MAGIC, pending, n, 0};
        uint64_t values[MAX_SEND_HANDLES];
        HANDLE proc = NULL;
        if (pending) {
            proc = peer_process(o);
            if (!proc)
                return PETW_EPIPE;
            for (uint32_t i = 0; i < pending; i++) {
                wobj *ho = obj(handles[i]);
                HANDLE dup = NULL;
                if (!ho || !DuplicateHandle(GetCurrentProcess(), raw(ho), proc, &dup, 0, FALSE,
                                            DUPLICATE_SAME_ACCESS)) {
                    for (uint32_t k = 0; k < i; k++)
                        DuplicateHandle(proc, (HANDLE)(uintptr_t)values[k], NULL, NULL, 0, FALSE,
                                        DUPLICATE_CLOSE_SOURCE);
                    CloseHandle(proc);
                    return ho ? PETW_EIO : PETW_EBADHANDLE;
                }
                values[i] = (uint64_t)(uintptr_t)dup;
            }
        }
        size_t head = sizeof(ch) + pending * sizeof(uint64_t);
        size_t inline_n = n < sizeof(first) - head ? n : sizeof(first) - head;
        memcpy(first, &ch, sizeof(ch));
        memcpy(first + sizeof(ch), values, pending * sizeof(uint64_t));
        memcpy(first + head, p, inline_n);
        long w = pipe_io(h, first, (DWORD)(head + inline_n), 1, deadline);
        if (w != (long)(head + inline_n)) {
            /* Not delivered: the copies made in the peer are closed there. */
            for (uint32_t k = 0; k < pending; k++)
                DuplicateHandle(proc, (HANDLE)(uintptr_t)values[k], NULL, NULL, 0, FALSE,
                                DUPLICATE_CLOSE_SOURCE);
            if (proc)
                CloseHandle(proc);
            return w < 0 ? (int)w : PETW_EIO;
        }
        if (proc)
            CloseHandle(proc);
        pending = 0;
        size_t done = inline_n;
        while (done < n) {
            DWORD piece = n - done > PIPE_BUFFER ? PIPE_BUFFER : (DWORD)(n - done);
            w = pipe_io(h, (void *)(p + done), piece, 1, deadline);
            if (w <= 0)
                return w < 0 ? (int)w : PETW_EIO;
            done += (size_t)w;
        }
        p += n;
        size -= n;
    }
    return 0;
}

/* Bytes waiting in the pipe (0 when none), or a negative PETW_E*. */
static long pipe_avail(HANDLE h)
{
    DWORD avail = 0;
    if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL))
        return pipe_error(GetLastError());
    return (long)(avail > 0x7FFFFFFF ? 0x7FFFFFFF : avail);
}

/* Wraps a handle that arrived (the receiver's own value). */
static intptr_t adopt_raw(HANDLE h)
{
    wobj *o = petw__win_obj_new(OBJ_RAW, h);
    if (!o)
        CloseHandle(h);
    return o ? (intptr_t)o : -1;
}

/* A chunk header and its handles, read whole once all there (the sender
 * wrote them in one piece; avail bytes are waiting): the handles adopted
 * into handles[*got...room) (the others closed), o->chunk_left set. 0 when
 * read, 1 when not all there yet, or a negative PETW_E*. */
static int read_chunk_header(wobj *o, HANDLE h, long avail, intptr_t *handles, uint32_t room,
                             uint32_t *got)
{
    chunk_header ch;
    uint64_t values[MAX_SEND_HANDLES];
    DWORD peeked = 0;
    if (avail >= (long)sizeof(ch) && !PeekNamedPipe(h, &ch, sizeof(ch), &peeked, NULL, NULL))
        return pipe_error(GetLastError());
    if (avail >= (long)sizeof(ch) &&
        (ch.magic != CHUNK_MAGIC || ch.count > MAX_SEND_HANDLES || ch.size == 0))
        return PETW_EIO; /* not petw's framing: the connection is garbage */
    size_t head = sizeof(ch) + (avail >= (long)sizeof(ch) ? ch.count : 0) * 8u;
    if (avail < (long)head)
        return 1;
    uint8_t buf[sizeof(ch) + sizeof(values)];
    long r = pipe_io(h, buf, (DWORD)head, 0, -1);
    if (r != (long)head)
        return r < 0 ? (int)r : PETW_EIO;
    memcpy(values, buf + sizeof(ch), ch.count * 8u);
    for (uint32_t i = 0; i < ch.count; i++) {
        HANDLE hv = (HANDLE)(uintptr_t)values[i];
        if (*got < room) {
            intptr_t a = adopt_raw(hv);
            if (a != -1)
                handles[(*got)++] = a;
        } else {
            CloseHandle(hv);
        }
    }
    o->chunk_left = ch.size;
    return 0;
}

int petw__ipc_recv(intptr_t fd, void *data, size_t size, intptr_t *handles, uint32_t *count,
                   int timeout_ms)
{
    uint32_t room = handles && count ? *count : 0;
    uint32_t got = 0;
    if (count)
        *count = 0;
    wobj *o = obj(fd);
    if (!o || o->kind != OBJ_PIPE)
        return PETW_EBADHANDLE;
    HANDLE h = raw(o);
    int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
    uint8_t *p = data;
    int rc = 0;
    unsigned idle = 0;
    while (size > 0 && rc == 0) {
        long avail = pipe_avail(h);
        if (avail < 0) {
            rc = (int)avail;
            break;
        }
        if (o->chunk_left == 0) {
            int r = read_chunk_header(o, h, avail, handles, room, &got);
            if (r < 0) {
                rc = r;
                break;
            }
            if (r > 0) { /* not all there yet */
                DWORD left = left_ms(deadline);
                if (left == 0) {
                    rc = PETW_ETIMEDOUT;
                    break;
                }
                nap(idle++, left);
            }
            continue;
        }
        if (avail == 0) {
            DWORD left = left_ms(deadline);
            if (left == 0) {
                rc = PETW_ETIMEDOUT;
                break;
            }
            nap(idle++, left);
            continue;
        }
        idle = 0;
        size_t want = size < o->chunk_left ? size : o->chunk_left;
        if (want > (size_t)avail)
            want = (size_t)avail;
        long r = pipe_io(h, p, (DWORD)want, 0, -1);
        if (r <= 0) {
            rc = r < 0 ? (int)r : PETW_EIO;
            break;
        }
        p += r;
        size -= (size_t)r;
        o->chunk_left -= (uint32_t)r;
    }
    if (rc != 0) {
        for (uint32_t i = 0; i < got; i++)
            petw__handle_close(handles[i]);
        return rc;
    }
    if (count)
        *count = got;
    return 0;
}

/* ---- Waiting on several handles ----
 * Events (wake-up counters) and listeners (their connect's event) are
 * waited on; a pipe has no "readable" event without a read posted on it,
 * so pipes are peeked, and while any is in the set the wait is cut into
 * naps (nap()). At most MAXIMUM_WAIT_OBJECTS events are waited on at once;
 * beyond that, naps too. */
int petw__ipc_poll(const intptr_t *fds, uint32_t count, uint8_t *ready, int timeout_ms)
{
    int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
    for (unsigned iter = 0;; iter++) {
        HANDLE waits[MAXIMUM_WAIT_OBJECTS];
        DWORD nwait = 0;
        int pipes = 0, n = 0;
        for (uint32_t i = 0; i < count; i++) {
            ready[i] = 0;
            wobj *o = obj(fds[i]);
            if (!o)
                continue;
            if (o->kind == OBJ_PIPE) {
                pipes = 1;
                long a = pipe_avail(raw(o));
                ready[i] = a != 0; /* data, or hung up / in error */
            } else {
                HANDLE w = o->kind == OBJ_LISTENER ? o->ov.hEvent : raw(o);
                ready[i] = WaitForSingleObject(w, 0) == WAIT_OBJECT_0;
                if (nwait < MAXIMUM_WAIT_OBJECTS)
                    waits[nwait++] = w;
                else
                    pipes = 1;
            }
            n += ready[i];
        }
        if (n > 0)
            return n;
        DWORD left = left_ms(deadline);
        if (left == 0)
            return 0;
        DWORD slice = left;
        if (pipes) {
            DWORD cap = iter < 3 ? 0 : iter < 40 ? 1 : iter < 200 ? 4 : 8;
            slice = cap < left ? cap : left;
        }
        if (nwait > 0)
            WaitForMultipleObjects(nwait, waits, FALSE, slice);
        else if (slice == 0)
            SwitchToThread();
        else
            Sleep(slice);
    }
}

/* ---- The pipe a detached process inherits ---- */

intptr_t petw__handle_inherited_value(intptr_t h)
{
    wobj *o = obj(h);
    return o ? (intptr_t)raw(o) : -1;
}

int petw__handle_adopt(intptr_t value, intptr_t *out)
{
    *out = -1;
    HANDLE h = (HANDLE)value;
    if (value <= 0 || GetFileType(h) != FILE_TYPE_PIPE)
        return PETW_EBADHANDLE;
    /* Not to be inherited further. */
    SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0);
    ULONG server = 0;
    int is_server = 0;
    if (!GetNamedPipeServerProcessId(h, &server))
        return PETW_EBADHANDLE;
    if (server == GetCurrentProcessId())
        is_server = 1;
    wobj *o = petw__win_obj_new(OBJ_PIPE, h);
    if (!o)
        return PETW_ENOMEM;
    o->server = is_server;
    o->peer_pid = peer_of(h, is_server);
    *out = (intptr_t)o;
    return 0;
}
