/* platform_shared_win.c - Windows implementation of platform.h's "Sessions
 * shared between processes" (docs/design.md, "Windows transport"): the
 * per-user runtime directory, pagefile-backed sections, the shared
 * registry file and its byte-range locks, futex words, event wake-up
 * counters, named pipes that check the peer's user and carry handles, and
 * starting a detached session host.
 *
 * Every handle this section gives out is a pointer to a `wobj` (below),
 * never a bare HANDLE: a pipe needs state of its own (its framing, its
 * peer), a listener is a pipe instance waiting for a client plus an event,
 * and handle_replace needs a place that names a handle.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petw/error.h"
#include "platform.h" /* windows.h first: sddl.h needs it */
#include "platform_win_internal.h"
#include <aclapi.h>
#include <sddl.h>

#define MAX_SEND_HANDLES 4
/* Pipe buffers; sends are written in pieces of at most this much. */
#define PIPE_BUFFER 65536
/* What the runtime directory must leave free for the names petw puts in
 * it (as on Linux, where a socket path is short). */
#define RUNTIME_NAME_ROOM 32
/* Byte-range locks sit far beyond any data of the file: Windows' locks
 * are mandatory for ReadFile/WriteFile (views are not affected), and a
 * lock beyond the end of a file is allowed. */
#define LOCK_BASE 0x4000000000000000ull

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
static wobj *obj(intptr_t v)
{
    wobj *o = (wobj *)v;
    return v >= 0x10000 && o->magic == OBJ_MAGIC ? o : NULL;
}

static HANDLE raw(const wobj *o)
{
    /* relaxed: whichever handle the object names now is a valid one. */
    return (HANDLE)atomic_load_explicit(&((wobj *)o)->h, memory_order_relaxed);
}

static wobj *obj_new(int kind, HANDLE h)
{
    wobj *o = calloc(1, sizeof(*o));
    if (!o)
        return NULL;
    o->magic = OBJ_MAGIC;
    o->kind = kind;
    atomic_init(&o->h, (intptr_t)h);
    return o;
}

static void obj_free(wobj *o)
{
    if (o->ov.hEvent)
        CloseHandle(o->ov.hEvent);
    if (o->retired)
        CloseHandle(o->retired);
    free(o->name);
    o->magic = 0;
    free(o);
}

static int64_t now_ms(void)
{
    return (int64_t)GetTickCount64();
}

static DWORD left_ms(int64_t deadline)
{
    if (deadline < 0)
        return INFINITE;
    int64_t left = deadline - now_ms();
    return left <= 0 ? 0 : left > 0x7FFFFFFF ? 0x7FFFFFFF : (DWORD)left;
}

/* A short nap in a wait loop: a yield first, then 1 ms, then up to 8 ms
 * (there is no readiness notification for a pipe without a read posted on
 * it; see docs/design.md). */
static void nap(unsigned iteration, DWORD left)
{
    DWORD ms = iteration < 3 ? 0 : iteration < 40 ? 1 : iteration < 200 ? 4 : 8;
    if (ms > left)
        ms = left;
    if (ms == 0)
        SwitchToThread();
    else
        Sleep(ms);
}

/* ---- The user ---- */

/* The token user's SID (a copy, kept for the process); NULL when unknown. */
static PSID user_sid(void)
{
    static PSID cached;
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    BOOL pending = FALSE;
    if (InitOnceBeginInitialize(&once, 0, &pending, NULL) && pending) {
        HANDLE token;
        PSID sid = NULL;
        if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
            union {
                TOKEN_USER user;
                uint8_t bytes[256];
            } info;
            DWORD len = 0;
            if (GetTokenInformation(token, TokenUser, &info, sizeof(info), &len)) {
                DWORD n = GetLengthSid(info.user.User.Sid);
                sid = malloc(n);
                if (sid && !CopySid(n, sid, info.user.User.Sid)) {
                    free(sid);
                    sid = NULL;
                }
            }
            CloseHandle(token);
        }
        cached = sid;
        InitOnceComplete(&once, 0, NULL);
    }
    return cached;
}

/* The user's SID as text (S-1-5-...), "" when unknown. */
static void user_sid_text(wchar_t *out, size_t n)
{
    out[0] = 0;
    wchar_t *s = NULL;
    PSID sid = user_sid();
    if (sid && ConvertSidToStringSidW(sid, &s)) {
        _snwprintf(out, n, L"%ls", s);
        out[n - 1] = 0;
        LocalFree(s);
    }
}

/* A security descriptor granting `rights` (SDDL: FA, GA) to the user and
 * SYSTEM only, inherited by children when `inherit`. LocalFree it. */
static PSECURITY_DESCRIPTOR private_sd(const wchar_t *rights, int inherit)
{
    wchar_t sid[200], sddl[300];
    user_sid_text(sid, 200);
    if (!sid[0])
        return NULL;
    const wchar_t *f = inherit ? L"OICI" : L"";
    _snwprintf(sddl, 300, L"D:P(A;%ls;%ls;;;%ls)(A;%ls;%ls;;;SY)", f, rights, sid, f, rights);
    sddl[299] = 0;
    PSECURITY_DESCRIPTOR sd = NULL;
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &sd, NULL))
        return NULL;
    return sd;
}

/* 1 when the object's DACL grants nobody but the user, SYSTEM and the
 * token's default owner (an elevated administrator's group): the Windows
 * form of "mode & 077 == 0". A NULL DACL grants everyone. */
static int private_dacl(HANDLE h, SE_OBJECT_TYPE type)
{
    PACL dacl = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    if (GetSecurityInfo(h, type, DACL_SECURITY_INFORMATION, NULL, NULL, &dacl, NULL, &sd) !=
        ERROR_SUCCESS)
        return 0;
    int ok = dacl != NULL;
    PSID me = user_sid();
    union {
        SID sid;
        uint8_t bytes[SECURITY_MAX_SID_SIZE];
    } system;
    DWORD n = sizeof(system);
    if (!CreateWellKnownSid(WinLocalSystemSid, NULL, &system, &n))
        ok = 0;
    union {
        TOKEN_OWNER owner;
        uint8_t bytes[256];
    } towner;
    PSID owner = NULL;
    HANDLE token;
    if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        DWORD len = 0;
        if (GetTokenInformation(token, TokenOwner, &towner, sizeof(towner), &len))
            owner = towner.owner.Owner;
        CloseHandle(token);
    }
    for (DWORD i = 0; ok && i < dacl->AceCount; i++) {
        ACE_HEADER *ace;
        if (!GetAce(dacl, i, (void **)&ace)) {
            ok = 0;
            break;
        }
        if (ace->AceType != ACCESS_ALLOWED_ACE_TYPE)
            continue; /* denials and audits open nothing */
        PSID who = (PSID) & ((ACCESS_ALLOWED_ACE *)ace)->SidStart;
        if (!(me && EqualSid(who, me)) && !EqualSid(who, &system) &&
            !(owner && EqualSid(who, owner)))
            ok = 0;
    }
    LocalFree(sd);
    return ok;
}

/* 1 when process `pid` runs as this process's user. */
static int same_user(uint32_t pid)
{
    if (pid == GetCurrentProcessId())
        return 1;
    HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (!p)
        return 0;
    int ok = 0;
    HANDLE token;
    if (OpenProcessToken(p, TOKEN_QUERY, &token)) {
        union {
            TOKEN_USER user;
            uint8_t bytes[256];
        } info;
        DWORD len = 0;
        PSID me = user_sid();
        ok = me && GetTokenInformation(token, TokenUser, &info, sizeof(info), &len) &&
             EqualSid(info.user.User.Sid, me);
        CloseHandle(token);
    }
    CloseHandle(p);
    return ok;
}

/* ---- The runtime directory ---- */

int petw__runtime_dir(char *out, size_t size)
{
    char path[MAX_PATH];
    const char *env = getenv("PETW_RUNTIME_DIR");
    int n;
    if (env && env[0]) {
        n = snprintf(path, sizeof(path), "%s", env);
    } else if ((env = getenv("LOCALAPPDATA")) && env[0]) {
        n = snprintf(path, sizeof(path), "%s\\petw", env);
    } else {
        /* The temporary directory is shared by every user on some systems:
         * the user's SID in the name, and the checks below. */
        char tmp[MAX_PATH];
        wchar_t sid[200];
        user_sid_text(sid, 200);
        DWORD t = GetTempPathA(sizeof(tmp), tmp);
        if (t == 0 || t >= sizeof(tmp) || !sid[0])
            return PETW_ENOENT;
        n = snprintf(path, sizeof(path), "%spetw-%ls", tmp, sid);
    }
    if (n < 0 || (size_t)n + RUNTIME_NAME_ROOM > sizeof(path) || (size_t)n >= size)
        return PETW_ENAMETOOLONG;
    while (n > 1 && (path[n - 1] == '/' || path[n - 1] == '\\'))
        path[--n] = '\0';
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    PSECURITY_DESCRIPTOR sd = private_sd(L"FA", 1);
    SECURITY_ATTRIBUTES sa = {sizeof(sa), sd, FALSE};
    int rc = 0;
    if (!sd)
        rc = PETW_EACCES;
    else if (!CreateDirectoryW(w, &sa) && GetLastError() != ERROR_ALREADY_EXISTS)
        rc = petw__win_error(GetLastError());
    if (sd)
        LocalFree(sd);
    /* Judged on the opened directory, never through a link (a junction or
     * a symbolic link is a reparse point): a directory the user owns that
     * nobody else may enter. */
    HANDLE h = INVALID_HANDLE_VALUE;
    if (rc == 0) {
        h = CreateFileW(w, READ_CONTROL | FILE_READ_ATTRIBUTES,
                        FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
        if (h == INVALID_HANDLE_VALUE)
            rc = GetLastError() == ERROR_FILE_NOT_FOUND || GetLastError() == ERROR_PATH_NOT_FOUND
                     ? PETW_ENOENT
                     : PETW_EACCES;
    }
    free(w);
    if (rc == 0) {
        BY_HANDLE_FILE_INFORMATION fi;
        if (!GetFileInformationByHandle(h, &fi) ||
            (fi.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) !=
                FILE_ATTRIBUTE_DIRECTORY ||
            !petw__win_owned(h) || !private_dacl(h, SE_FILE_OBJECT))
            rc = PETW_EACCES;
        CloseHandle(h);
    }
    if (rc == 0)
        memcpy(out, path, (size_t)n + 1);
    return rc;
}

/* ---- Shared memory ---- */

/* Placeholders (Windows 10 1803+), looked up at the first map. */
typedef PVOID(WINAPI *virtual_alloc2_fn)(HANDLE, PVOID, SIZE_T, ULONG, ULONG, void *, ULONG);
typedef PVOID(WINAPI *map_view3_fn)(HANDLE, HANDLE, PVOID, ULONG64, SIZE_T, ULONG, ULONG, void *,
                                    ULONG);
typedef BOOL(WINAPI *unmap_view2_fn)(HANDLE, PVOID, ULONG);
#define PH_RESERVE 0x00040000u  /* MEM_RESERVE_PLACEHOLDER */
#define PH_REPLACE 0x00004000u  /* MEM_REPLACE_PLACEHOLDER */
#define PH_PRESERVE 0x00000002u /* MEM_PRESERVE_PLACEHOLDER */
static virtual_alloc2_fn virtual_alloc2;
static map_view3_fn map_view3;
static unmap_view2_fn unmap_view2;
/* 1 once a view went into a placeholder (Wine 8 has the functions, and
 * they refuse). */
static _Atomic int placeholders;

static void *map_view(HANDLE m, size_t size);

int petw__shm_create(size_t size, petw__shm *out)
{
    if (size == 0 || size > (size_t)INT64_MAX)
        return PETW_EINVAL;
    /* Pagefile-backed and SEC_COMMIT: the whole size is charged now (a
     * shortage fails here), its pages are zero, and a section never
     * changes size, so a peer cannot make our accesses fault. Unnamed:
     * only a duplicated handle reaches it. */
    uint64_t s = (uint64_t)size;
    HANDLE m = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE | SEC_COMMIT,
                                  (DWORD)(s >> 32), (DWORD)s, NULL);
    if (!m)
        return PETW_ENOMEM;
    void *p = map_view(m, size);
    wobj *o = p ? obj_new(OBJ_RAW, m) : NULL;
    if (!o) {
        if (p)
            UnmapViewOfFile(p);
        CloseHandle(m);
        return PETW_ENOMEM;
    }
    out->addr = p;
    out->size = size;
    out->fd = (intptr_t)o;
    return 0;
}

/* 1 when the `size` bytes at p are one committed read-write view whose
 * region is exactly `size` rounded to pages. */
static int view_is(void *p, size_t size)
{
    size_t page = petw__page_size();
    size_t want = (size + page - 1) / page * page, seen = 0;
    uint8_t *at = p;
    while (seen < want + page) {
        MEMORY_BASIC_INFORMATION mi;
        if (VirtualQuery(at + seen, &mi, sizeof(mi)) != sizeof(mi) || mi.AllocationBase != p)
            break;
        if (mi.State != MEM_COMMIT || (mi.Protect & 0xFF) != PAGE_READWRITE)
            return 0;
        seen += mi.RegionSize;
    }
    return seen == want;
}

int petw__shm_map(intptr_t fd, size_t size, petw__shm *out)
{
    wobj *o = obj(fd);
    if (!o)
        return PETW_EINVAL;
    /* The whole section is mapped, then judged: every page committed and
     * writable (a SEC_RESERVE section would fault on its holes), as long
     * as `size` and no longer. A file-backed section cannot shrink while
     * mapped, so it is as safe as a pagefile one. */
    void *p = size ? map_view(raw(o), 0) : NULL;
    if (!p || !view_is(p, size)) {
        if (p)
            UnmapViewOfFile(p);
        petw__handle_close(fd);
        return PETW_EINVAL;
    }
    if (unmap_view2) { /* again, in a placeholder (petw__shm_abandon) */
        UnmapViewOfFile(p);
        p = map_view(raw(o), size);
        if (!p) {
            petw__handle_close(fd);
            return PETW_ENOMEM;
        }
    }
    /* Writable pages now, so a writer never takes a first-touch fault
     * inside EventWrite (nobody else writes the pool while it is being
     * mapped). */
    size_t page = petw__page_size();
    for (size_t off = 0; off < size; off += page) {
        volatile uint8_t *b = (volatile uint8_t *)p + off;
        *b = *b;
    }
    out->addr = p;
    out->size = size;
    out->fd = fd;
    return 0;
}

/* ---- Abandoning a view ----
 * Linux replaces a view by private memory in one step (MAP_FIXED); Windows
 * cannot. Here the view is unmapped and private zero memory committed at
 * the same address right after. Where the system has placeholders
 * (Windows 10 1803 and later), the range stays reserved in between, so
 * nothing else can be placed there; elsewhere (older systems, Wine) the
 * range is free for a few microseconds. A writer that touches the range
 * in between takes an access violation, which the handler below holds
 * (it yields until the private memory is there) and then resumes: the
 * write lands in private memory, as on Linux. */
#define SWAP_SLOTS 64
static struct {
    _Atomic(uintptr_t) base; /* 0: a free slot */
    size_t size;
} swapping[SWAP_SLOTS];

static LONG WINAPI hold_swapped(EXCEPTION_POINTERS *e)
{
    if (e->ExceptionRecord->ExceptionCode != EXCEPTION_ACCESS_VIOLATION ||
        e->ExceptionRecord->NumberParameters < 2)
        return EXCEPTION_CONTINUE_SEARCH;
    uintptr_t at = (uintptr_t)e->ExceptionRecord->ExceptionInformation[1];
    for (int i = 0; i < SWAP_SLOTS; i++) {
        /* acquire: pairs with the release store in petw__shm_abandon; the
         * size is read after the base that says it is valid. */
        uintptr_t b = atomic_load_explicit(&swapping[i].base, memory_order_acquire);
        if (b && at >= b && at - b < swapping[i].size) {
            /* acquire: the private memory is committed before the slot is
             * freed (release store below). */
            while (atomic_load_explicit(&swapping[i].base, memory_order_acquire) == b)
                SwitchToThread();
            return EXCEPTION_CONTINUE_EXECUTION; /* the write again */
        }
    }
    return EXCEPTION_CONTINUE_SEARCH;
}

static BOOL CALLBACK view_init(PINIT_ONCE once, PVOID param, PVOID *ctx)
{
    (void)once, (void)param, (void)ctx;
    HMODULE k = GetModuleHandleW(L"kernelbase.dll");
    if (k) {
        virtual_alloc2 = (virtual_alloc2_fn)(void (*)(void))GetProcAddress(k, "VirtualAlloc2");
        map_view3 = (map_view3_fn)(void (*)(void))GetProcAddress(k, "MapViewOfFile3");
        unmap_view2 = (unmap_view2_fn)(void (*)(void))GetProcAddress(k, "UnmapViewOfFile2");
    }
    /* First: a held write must not reach the application's handlers. */
    AddVectoredExceptionHandler(1, hold_swapped);
    return TRUE;
}

static void views_init(void)
{
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    InitOnceExecuteOnce(&once, view_init, NULL, NULL);
}

/* Maps `size` bytes of section m read-write (size 0: all of it), in a
 * placeholder where the system has them. */
static void *map_view(HANDLE m, size_t size)
{
    views_init();
    if (size && virtual_alloc2 && map_view3 && unmap_view2) {
        HANDLE self = GetCurrentProcess();
        void *r =
            virtual_alloc2(self, NULL, size, MEM_RESERVE | PH_RESERVE, PAGE_NOACCESS, NULL, 0);
        void *p = r ? map_view3(m, self, r, 0, size, PH_REPLACE, PAGE_READWRITE, NULL, 0) : NULL;
        if (p) {
            /* relaxed: a flag, read by the thread that abandons this view
             * after it was mapped (ordered by the caller's hand-over). */
            atomic_store_explicit(&placeholders, 1, memory_order_relaxed);
            return p;
        }
        if (r)
            VirtualFree(r, 0, MEM_RELEASE);
    }
    return MapViewOfFile(m, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, size);
}

void petw__shm_abandon(petw__shm *s)
{
    if (s->addr && s->size) {
        views_init();
        static SRWLOCK lock = SRWLOCK_INIT;
        AcquireSRWLockExclusive(&lock);
        int slot = -1;
        for (int i = 0; i < SWAP_SLOTS && slot < 0; i++)
            if (!atomic_load_explicit(&swapping[i].base, memory_order_relaxed))
                slot = i;
        if (slot >= 0) {
            swapping[slot].size = s->size;
            /* release: the size before the base that publishes it. */
            atomic_store_explicit(&swapping[slot].base, (uintptr_t)s->addr, memory_order_release);
        }
        HANDLE self = GetCurrentProcess();
        void *p = NULL;
        /* relaxed: set once, before any view this could be. */
        if (atomic_load_explicit(&placeholders, memory_order_relaxed) &&
            unmap_view2(self, s->addr, PH_PRESERVE))
            p = virtual_alloc2(self, s->addr, s->size, MEM_RESERVE | MEM_COMMIT | PH_REPLACE,
                               PAGE_READWRITE, NULL, 0);
        if (!p) {
            UnmapViewOfFile(s->addr); /* fails when gone already */
            p = VirtualAlloc(s->addr, s->size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
        }
        /* release: the private memory before held writers go on. Should
         * the address have been taken meanwhile (no placeholders), a held
         * writer faults again and is not held: as an unmapped view would. */
        if (slot >= 0)
            atomic_store_explicit(&swapping[slot].base, 0, memory_order_release);
        ReleaseSRWLockExclusive(&lock);
        (void)p;
    }
    petw__handle_close(s->fd);
    s->fd = -1;
}

void petw__shm_close(petw__shm *s)
{
    if (s->addr)
        UnmapViewOfFile(s->addr);
    petw__handle_close(s->fd);
    s->addr = NULL;
    s->size = 0;
    s->fd = -1;
}

/* ---- The shared file and its locks ---- */

int petw__shared_file_open(const char *path, size_t size, int writable, int *created,
                           petw__shm *out)
{
    *created = 0;
    if (size == 0 || size > (size_t)INT64_MAX)
        return PETW_EINVAL;
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    PSECURITY_DESCRIPTOR sd = private_sd(L"FA", 0);
    SECURITY_ATTRIBUTES sa = {sizeof(sa), sd, FALSE};
    /* Read-write even for a read-only mapping: the file may need growing,
     * and a lock needs an open handle. Never through a link. */
    HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE | READ_CONTROL,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, sd ? &sa : NULL,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    DWORD err = GetLastError();
    if (sd)
        LocalFree(sd);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return petw__win_error(err);
    BY_HANDLE_FILE_INFORMATION fi;
    LARGE_INTEGER cur;
    if (GetFileType(h) != FILE_TYPE_DISK || !GetFileInformationByHandle(h, &fi) ||
        (fi.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY)) ||
        !petw__win_owned(h) || !private_dacl(h, SE_FILE_OBJECT) || !GetFileSizeEx(h, &cur)) {
        CloseHandle(h);
        return PETW_EACCES;
    }
    if ((uint64_t)cur.QuadPart < (uint64_t)size) {
        FILE_END_OF_FILE_INFO eof;
        eof.EndOfFile.QuadPart = (LONGLONG)size;
        if (!SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof(eof))) {
            int rc = petw__win_error(GetLastError());
            CloseHandle(h);
            return rc;
        }
        *created = 1;
    }
    uint64_t s = (uint64_t)size;
    HANDLE m = CreateFileMappingW(h, NULL, writable ? PAGE_READWRITE : PAGE_READONLY,
                                  (DWORD)(s >> 32), (DWORD)s, NULL);
    void *p =
        m ? MapViewOfFile(m, writable ? FILE_MAP_READ | FILE_MAP_WRITE : FILE_MAP_READ, 0, 0, size)
          : NULL;
    if (m)
        CloseHandle(m); /* the view keeps the section */
    wobj *o = p ? obj_new(OBJ_RAW, h) : NULL;
    if (!o) {
        if (p)
            UnmapViewOfFile(p);
        CloseHandle(h);
        *created = 0;
        return PETW_ENOMEM;
    }
    out->addr = p;
    out->size = size;
    out->fd = (intptr_t)o;
    return 0;
}

/* The locks this process holds, per handle: Windows' locks do not nest and
 * conflict with their own handle, while the contract says a handle's own
 * lock never shows as held to it. */
#define MAX_HELD 256
static struct {
    HANDLE h;
    uint32_t index;
} held[MAX_HELD];
static SRWLOCK held_lock = SRWLOCK_INIT;

static int held_here(HANDLE h, uint32_t index, int add, int remove)
{
    int found = 0;
    AcquireSRWLockExclusive(&held_lock);
    for (int i = 0; i < MAX_HELD; i++) {
        if (held[i].h == h && held[i].index == index) {
            found = 1;
            if (remove)
                held[i].h = NULL;
            break;
        }
    }
    for (int i = 0; add && !found && i < MAX_HELD; i++) {
        if (!held[i].h) {
            held[i].h = h;
            held[i].index = index;
            break;
        }
    }
    ReleaseSRWLockExclusive(&held_lock);
    return found;
}

static BOOL lock_range(HANDLE h, uint32_t index, DWORD flags)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof(ov));
    uint64_t at = LOCK_BASE + index;
    ov.Offset = (DWORD)at;
    ov.OffsetHigh = (DWORD)(at >> 32);
    return LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | flags, 0, 1, 0, &ov);
}

static void unlock_range(HANDLE h, uint32_t index)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof(ov));
    uint64_t at = LOCK_BASE + index;
    ov.Offset = (DWORD)at;
    ov.OffsetHigh = (DWORD)(at >> 32);
    UnlockFileEx(h, 0, 1, 0, &ov);
}

int petw__lock_take(intptr_t fd, uint32_t index, int wait)
{
    wobj *o = obj(fd);
    if (!o)
        return PETW_EBADHANDLE;
    HANDLE h = raw(o);
    if (held_here(h, index, 0, 0))
        return 0;
    /* Not waiting: a few tries over about a millisecond, since
     * petw__lock_held probes by taking the lock for an instant. */
    for (int i = 0;; i++) {
        if (lock_range(h, index, wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY)) {
            held_here(h, index, 1, 0);
            return 0;
        }
        DWORD e = GetLastError();
        if (e != ERROR_LOCK_VIOLATION && e != ERROR_IO_PENDING)
            return e == ERROR_INVALID_HANDLE      ? PETW_EBADHANDLE
                   : e == ERROR_NOT_ENOUGH_MEMORY ? PETW_ENOMEM
                                                  : PETW_EIO;
        if (wait || i >= 20)
            return PETW_EBUSY;
        i < 10 ? SwitchToThread() : Sleep(0);
    }
}

void petw__lock_drop(intptr_t fd, uint32_t index)
{
    wobj *o = obj(fd);
    if (!o)
        return;
    if (held_here(raw(o), index, 0, 1))
        unlock_range(raw(o), index);
}

int petw__lock_held(intptr_t fd, uint32_t index)
{
    wobj *o = obj(fd);
    if (!o)
        return 0;
    HANDLE h = raw(o);
    if (held_here(h, index, 0, 0))
        return 0;
    /* Windows has no "who holds it": taken for an instant and let go. */
    if (lock_range(h, index, LOCKFILE_FAIL_IMMEDIATELY)) {
        unlock_range(h, index);
        return 0;
    }
    return GetLastError() == ERROR_LOCK_VIOLATION;
}

/* ---- Futex words ----
 * Windows has no wait on an address shared between processes
 * (WaitOnAddress is per process). A waiter re-reads the word after naps
 * that double from 1 ms to FUTEX_SLICE_MS; a wake is seen at the next one.
 * Only the registry's generation is waited on across processes (an idle
 * agent thread, for a change of enables), where that bounds how late a
 * process follows an enable and costs an idle agent 20 wake-ups a second. */
#define FUTEX_SLICE_MS 50

int petw__futex_wait(const uint32_t *word, uint32_t expect, int timeout_ms)
{
    int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
    DWORD ms = 1;
    for (;;) {
        /* relaxed: the caller re-reads what it needs with its own order. */
        if (atomic_load_explicit((_Atomic uint32_t *)word, memory_order_relaxed) != expect)
            return 0;
        DWORD left = left_ms(deadline);
        if (left == 0)
            return PETW_ETIMEDOUT;
        Sleep(ms < left ? ms : left);
        ms = ms * 2 > FUTEX_SLICE_MS ? FUTEX_SLICE_MS : ms * 2;
    }
}

void petw__futex_wake_all(const uint32_t *word)
{
    (void)word; /* waiters poll (above) */
}

/* ---- Wake-up counters and handles ---- */

int petw__wake_create(intptr_t *fd)
{
    /* Manual reset: set until drained, as a counter above 0; unnamed and
     * not inheritable. */
    HANDLE e = CreateEventW(NULL, TRUE, FALSE, NULL);
    wobj *o = e ? obj_new(OBJ_RAW, e) : NULL;
    if (!o) {
        if (e)
            CloseHandle(e);
        *fd = -1;
        return PETW_ENOMEM;
    }
    *fd = (intptr_t)o;
    return 0;
}

void petw__wake_signal(intptr_t fd)
{
    wobj *o = obj(fd);
    if (o) {
        DWORD e = GetLastError();
        SetEvent(raw(o));
        SetLastError(e);
    }
}

void petw__wake_drain(intptr_t fd)
{
    wobj *o = obj(fd);
    if (o)
        ResetEvent(raw(o));
}

void petw__handle_close(intptr_t fd)
{
    wobj *o = obj(fd);
    if (!o)
        return;
    HANDLE h = raw(o);
    if (o->kind == OBJ_LISTENER && o->pending) {
        CancelIoEx(h, &o->ov);
        DWORD n;
        GetOverlappedResult(h, &o->ov, &n, TRUE);
    }
    if (h && h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
    obj_free(o);
}

int petw__handle_replace(intptr_t from, intptr_t to)
{
    wobj *f = obj(from), *t = obj(to);
    if (!f || !t)
        return PETW_EBADHANDLE;
    if (f == t)
        return 0;
    /* relaxed: a thread that read the old handle just before may still
     * use it, so it is closed only at the next replace (retired). */
    HANDLE old = (HANDLE)atomic_exchange_explicit(
        &t->h, atomic_load_explicit(&f->h, memory_order_relaxed), memory_order_relaxed);
    if (t->retired)
        CloseHandle(t->retired);
    t->retired = old;
    t->kind = f->kind;
    t->peer_pid = f->peer_pid;
    t->server = f->server;
    t->chunk_left = f->chunk_left;
    obj_free(f);
    return 0;
}

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
    user_sid_text(sid, 200);
    if (!sid[0])
        return NULL;
    wchar_t *name = malloc(300 * sizeof(wchar_t));
    if (name)
        _snwprintf(name, 300, L"\\\\.\\pipe\\petw-%ls-%016llx", sid, (unsigned long long)hash);
    return name;
}

static HANDLE pipe_instance(const wchar_t *name, int first, int max)
{
    PSECURITY_DESCRIPTOR sd = private_sd(L"GA", 0);
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
    wobj *l = obj_new(OBJ_LISTENER, INVALID_HANDLE_VALUE);
    if (!l)
        return PETW_ENOMEM;
    l->name = pipe_name(path);
    l->ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    int rc = l->name && l->ov.hEvent ? listen_next(l, 1) : PETW_ENOMEM;
    if (rc) {
        obj_free(l);
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
    if (!same_user(peer)) {
        CloseHandle(h);
        return PETW_EACCES;
    }
    wobj *c = obj_new(OBJ_PIPE, h);
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
    if (!peer || !same_user(peer)) {
        CloseHandle(h);
        return peer ? PETW_EACCES : PETW_EIO;
    }
    wobj *c = obj_new(OBJ_PIPE, h);
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
    user_sid_text(sid, 200);
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
    wobj *a = ok ? obj_new(OBJ_PIPE, s) : NULL, *b = a ? obj_new(OBJ_PIPE, c) : NULL;
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
    wobj *o = obj_new(OBJ_RAW, h);
    if (!o)
        CloseHandle(h);
    return o ? (intptr_t)o : -1;
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
            /* A chunk header and its handles are read whole, once all
             * there (the sender wrote them in one piece). */
            chunk_header ch;
            uint64_t values[MAX_SEND_HANDLES];
            DWORD peeked = 0;
            if (avail >= (long)sizeof(ch) &&
                !PeekNamedPipe(h, &ch, sizeof(ch), &peeked, NULL, NULL)) {
                rc = pipe_error(GetLastError());
                break;
            }
            if (avail >= (long)sizeof(ch) &&
                (ch.magic != CHUNK_MAGIC || ch.count > MAX_SEND_HANDLES || ch.size == 0)) {
                rc = PETW_EIO; /* not petw's framing: the connection is garbage */
                break;
            }
            size_t head = sizeof(ch) + (avail >= (long)sizeof(ch) ? ch.count : 0) * 8u;
            if (avail < (long)head) {
                DWORD left = left_ms(deadline);
                if (left == 0) {
                    rc = PETW_ETIMEDOUT;
                    break;
                }
                nap(idle++, left);
                continue;
            }
            uint8_t buf[sizeof(ch) + sizeof(values)];
            long r = pipe_io(h, buf, (DWORD)head, 0, -1);
            if (r != (long)head) {
                rc = r < 0 ? (int)r : PETW_EIO;
                break;
            }
            memcpy(values, buf + sizeof(ch), ch.count * 8u);
            for (uint32_t i = 0; i < ch.count; i++) {
                HANDLE hv = (HANDLE)(uintptr_t)values[i];
                if (got < room) {
                    intptr_t a = adopt_raw(hv);
                    if (a != -1)
                        handles[got++] = a;
                } else {
                    CloseHandle(hv);
                }
            }
            o->chunk_left = ch.size;
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

/* ---- Starting a detached process ---- */

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
    wobj *o = obj_new(OBJ_PIPE, h);
    if (!o)
        return PETW_ENOMEM;
    o->server = is_server;
    o->peer_pid = peer_of(h, is_server);
    *out = (intptr_t)o;
    return 0;
}

/* Appends `s` to the command line, quoted as the C runtime parses it. */
static void quote_arg(wchar_t *out, size_t n, const wchar_t *s)
{
    size_t k = wcslen(out);
    if (k + 2 >= n)
        return;
    out[k++] = L'"';
    for (; *s && k + 3 < n; s++) {
        size_t bs = 0;
        while (s[0] == L'\\') {
            bs++;
            s++;
        }
        if (!*s || *s == L'"') {
            bs = *s ? bs * 2 + 1 : bs * 2; /* backslashes before a quote double */
        }
        while (bs-- && k + 3 < n)
            out[k++] = L'\\';
        if (!*s)
            break;
        out[k++] = *s;
    }
    out[k++] = L'"';
    out[k] = 0;
}

/* The environment block: this process's, with `env` ("NAME=value") added
 * or replacing NAME. malloc'ed; NULL when out of memory. */
static wchar_t *environment_with(const char *env)
{
    wchar_t *add = env ? petw__win_wide(env) : NULL;
    if (env && !add)
        return NULL;
    size_t name_len = 0;
    if (add) {
        wchar_t *eq = wcschr(add, L'=');
        name_len = eq ? (size_t)(eq - add) + 1 : 0;
    }
    wchar_t *cur = GetEnvironmentStringsW();
    size_t total = 1 + (add ? wcslen(add) + 1 : 0);
    for (wchar_t *e = cur; e && *e; e += wcslen(e) + 1)
        total += wcslen(e) + 1;
    wchar_t *block = malloc(total * sizeof(wchar_t));
    if (block) {
        size_t k = 0;
        if (add) {
            memcpy(block, add, (wcslen(add) + 1) * sizeof(wchar_t));
            k += wcslen(add) + 1;
        }
        for (wchar_t *e = cur; e && *e; e += wcslen(e) + 1) {
            if (name_len && _wcsnicmp(e, add, name_len) == 0)
                continue; /* env replaces NAME */
            memcpy(block + k, e, (wcslen(e) + 1) * sizeof(wchar_t));
            k += wcslen(e) + 1;
        }
        block[k] = 0;
    }
    if (cur)
        FreeEnvironmentStringsW(cur);
    free(add);
    return block;
}

int petw__spawn_detached(const char *exe, const char *env, intptr_t keep)
{
    wobj *k = keep == -1 ? NULL : obj(keep);
    if (keep != -1 && !k)
        return keep >= 0 && keep <= 2 ? PETW_EINVAL : PETW_EBADHANDLE;
    wchar_t path[MAX_PATH * 2];
    if (exe) {
        wchar_t *w = petw__win_wide(exe);
        if (!w)
            return PETW_ENOHOST;
        _snwprintf(path, MAX_PATH * 2, L"%ls", w);
        path[MAX_PATH * 2 - 1] = 0;
        free(w);
    } else {
        DWORD n = GetModuleFileNameW(NULL, path, MAX_PATH * 2);
        if (n == 0 || n >= MAX_PATH * 2)
            return PETW_ENOHOST;
    }
    wchar_t cmd[MAX_PATH * 2 + 8];
    cmd[0] = 0;
    quote_arg(cmd, sizeof(cmd) / sizeof(cmd[0]), path);
    wchar_t *block = environment_with(env);
    if (!block)
        return PETW_ENOHOST;
    /* stdin/stdout/stderr on NUL; inherited: those and `keep`, nothing
     * else (the handle list), even if the program left others
     * inheritable. */
    SECURITY_ATTRIBUTES inherit = {sizeof(inherit), NULL, TRUE};
    HANDLE nul = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE,
                             FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING, 0, NULL);
    HANDLE list[2];
    DWORD nlist = 0;
    if (nul != INVALID_HANDLE_VALUE)
        list[nlist++] = nul;
    HANDLE kh = k ? raw(k) : NULL;
    if (kh) {
        SetHandleInformation(kh, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
        list[nlist++] = kh;
    }
    SIZE_T attr_size = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &attr_size);
    LPPROC_THREAD_ATTRIBUTE_LIST attrs = malloc(attr_size);
    int have_list = attrs && nlist && InitializeProcThreadAttributeList(attrs, 1, 0, &attr_size) &&
                    UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, list,
                                              nlist * sizeof(HANDLE), NULL, NULL);
    STARTUPINFOEXW si;
    memset(&si, 0, sizeof(si));
    si.StartupInfo.cb = sizeof(si);
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = si.StartupInfo.hStdOutput = si.StartupInfo.hStdError =
        nul != INVALID_HANDLE_VALUE ? nul : NULL;
    si.lpAttributeList = have_list ? attrs : NULL;
    PROCESS_INFORMATION pi;
    /* A process of its own: no console, its own process group (a Ctrl-C
     * of the controller's console does not reach it), never our child in
     * any sense that outlives this call. */
    BOOL ok =
        CreateProcessW(path, cmd, NULL, NULL, TRUE,
                       DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP | CREATE_UNICODE_ENVIRONMENT |
                           (have_list ? EXTENDED_STARTUPINFO_PRESENT : 0),
                       block, NULL, &si.StartupInfo, &pi);
    if (kh)
        SetHandleInformation(kh, HANDLE_FLAG_INHERIT, 0);
    if (have_list)
        DeleteProcThreadAttributeList(attrs);
    free(attrs);
    if (nul != INVALID_HANDLE_VALUE)
        CloseHandle(nul);
    free(block);
    if (!ok)
        return PETW_ENOHOST;
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return 0;
}

typedef struct detached_start {
    void (*fn)(void *);
    void *arg;
} detached_start;

static DWORD WINAPI detached_main(void *p)
{
    detached_start s = *(detached_start *)p;
    free(p);
    s.fn(s.arg);
    return 0;
}

int petw__thread_start_detached(void (*fn)(void *), void *arg)
{
    detached_start *s = malloc(sizeof(*s));
    if (!s)
        return PETW_ENOMEM;
    s->fn = fn;
    s->arg = arg;
    HANDLE t =
        CreateThread(NULL, 256 * 1024, detached_main, s, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    if (!t) {
        free(s);
        return PETW_ENOMEM;
    }
    CloseHandle(t);
    return 0;
}

/* ---- Processes ---- */

int petw__process_alive(uint32_t pid)
{
    if (pid == 0)
        return 0;
    HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE, FALSE, pid);
    if (!p)
        return GetLastError() == ERROR_ACCESS_DENIED; /* exists, not ours */
    /* A process object outlives its process while handles name it. */
    int alive = WaitForSingleObject(p, 0) == WAIT_TIMEOUT;
    CloseHandle(p);
    return alive;
}

int petw__process_start_time(uint32_t pid, uint64_t *out)
{
    *out = 0;
    HANDLE p =
        pid ? OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE, FALSE, pid) : NULL;
    if (!p)
        return PETW_ENOTFOUND;
    FILETIME c, e, k, u;
    int rc = WaitForSingleObject(p, 0) == WAIT_TIMEOUT && GetProcessTimes(p, &c, &e, &k, &u)
                 ? 0
                 : PETW_ENOTFOUND;
    CloseHandle(p);
    if (rc == 0)
        *out = ((uint64_t)c.dwHighDateTime << 32) | c.dwLowDateTime;
    return rc;
}

void petw__process_name(uint32_t pid, char *out, size_t size)
{
    if (!size)
        return;
    out[0] = 0;
    HANDLE p = pid ? OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid) : NULL;
    if (!p)
        return;
    wchar_t name[MAX_PATH * 2];
    DWORD n = MAX_PATH * 2;
    if (QueryFullProcessImageNameW(p, 0, name, &n)) {
        const wchar_t *base = name;
        for (const wchar_t *c = name; *c; c++)
            if (*c == L'\\' || *c == L'/')
                base = c + 1;
        int r = WideCharToMultiByte(CP_UTF8, 0, base, -1, out, (int)size, NULL, NULL);
        if (r <= 0)
            out[0] = 0;
        out[size - 1] = 0;
    }
    CloseHandle(p);
}

/* ---- Private files ---- */

int petw__file_replace_private(const char *path, const void *data, size_t size)
{
    char tmp[MAX_PATH * 2];
    int n = snprintf(tmp, sizeof(tmp), "%s.tmp-%lu", path, (unsigned long)GetCurrentProcessId());
    if (n < 0 || (size_t)n >= sizeof(tmp))
        return PETW_ENAMETOOLONG;
    petw__file f;
    int rc = petw__file_create_private(tmp, &f); /* removes a crashed one's leftover */
    if (rc)
        return rc;
    rc = size ? petw__file_pwrite(&f, data, size, 0) : 0;
    petw__file_close(&f);
    wchar_t *wt = petw__win_wide(tmp), *wp = petw__win_wide(path);
    if (rc == 0 && (!wt || !wp))
        rc = PETW_ENOENT;
    /* Readers open with FILE_SHARE_DELETE, so the rename does not wait for
     * them; a reader that had not (an indexer, say) is waited for briefly. */
    for (int i = 0; rc == 0; i++) {
        if (MoveFileExW(wt, wp, MOVEFILE_REPLACE_EXISTING))
            break;
        DWORD e = GetLastError();
        if ((e != ERROR_ACCESS_DENIED && e != ERROR_SHARING_VIOLATION) || i >= 50)
            rc = petw__win_error(e);
        else
            Sleep(2);
    }
    if (rc != 0 && wt)
        DeleteFileW(wt);
    free(wt);
    free(wp);
    return rc;
}

int petw__file_remove(const char *path)
{
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    int rc = 0;
    if (!DeleteFileW(w)) {
        DWORD e = GetLastError();
        rc = e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? 0 : petw__win_error(e);
    }
    free(w);
    return rc;
}

int petw__dir_create(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof(buf))
        return PETW_ENAMETOOLONG;
    if (!n)
        return 0;
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\\' && *p)
            continue;
        char c = *p;
        *p = 0;
        wchar_t *w = p[-1] != ':' ? petw__win_wide(buf) : NULL; /* not a drive */
        DWORD err = w && !CreateDirectoryW(w, NULL) ? GetLastError() : 0;
        free(w);
        if (err && err != ERROR_ALREADY_EXISTS)
            return petw__win_error(err);
        if (!(*p = c))
            return 0;
    }
}

int petw__file_read_private(const char *path, size_t max, uint8_t **out, size_t *size)
{
    *out = NULL;
    *size = 0;
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOTFOUND;
    HANDLE h = CreateFileW(w, GENERIC_READ | READ_CONTROL,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    DWORD err = GetLastError();
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND ? PETW_ENOTFOUND
                                                                          : petw__win_error(err);
    BY_HANDLE_FILE_INFORMATION fi;
    LARGE_INTEGER s;
    int rc = 0;
    if (GetFileType(h) != FILE_TYPE_DISK || !GetFileInformationByHandle(h, &fi) ||
        (fi.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY)) ||
        !petw__win_owned(h) || !private_dacl(h, SE_FILE_OBJECT) || !GetFileSizeEx(h, &s))
        rc = PETW_EACCES;
    else if ((uint64_t)s.QuadPart > max)
        rc = PETW_ELIMIT;
    uint8_t *buf = NULL;
    size_t got = 0;
    if (rc == 0 && !(buf = malloc(s.QuadPart ? (size_t)s.QuadPart : 1)))
        rc = PETW_ENOMEM;
    while (rc == 0 && got < (size_t)s.QuadPart) {
        DWORD r = 0;
        if (!ReadFile(h, buf + got, (DWORD)((size_t)s.QuadPart - got), &r, NULL) || r == 0)
            break; /* shorter than it was: what is there */
        got += r;
    }
    CloseHandle(h);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    *size = got;
    return 0;
}

/* ---- No fork on Windows ---- */

void petw__on_fork_child(void (*child)(void))
{
    (void)child;
}

void petw__on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    (void)prepare;
    (void)parent;
    (void)child;
}

int petw__addr_in_program(const void *addr)
{
    HMODULE m = NULL;
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                                GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCWSTR)addr, &m))
        return 1; /* unknown: as before, this program is started again */
    return m == GetModuleHandleW(NULL);
}
