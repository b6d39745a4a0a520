/* SPDX-License-Identifier: MIT */
/* platform_shm_win.c - Windows implementation of platform.h's shared
 * memory (pagefile-backed sections, abandoned views), the shared registry
 * file and its byte-range locks, and futex words. */
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

/* Byte-range locks sit far beyond any data of the file: Windows' locks
 * are mandatory for ReadFile/WriteFile (views are not affected), and a
 * lock beyond the end of a file is allowed. */
#define LOCK_BASE 0x4000000000000000ull

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
    wobj *o = p ? petw__win_obj_new(OBJ_RAW, m) : NULL;
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
    PSECURITY_DESCRIPTOR sd = petw__win_private_sd(L"FA", 0);
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
        !petw__win_owned(h) || !petw__win_private_dacl(h, SE_FILE_OBJECT) ||
        !GetFileSizeEx(h, &cur)) {
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
    wobj *o = p ? petw__win_obj_new(OBJ_RAW, h) : NULL;
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
