/* SPDX-License-Identifier: MIT */
/* platform_shared_win.c - Windows implementation of platform.h's "Sessions
 * shared between processes" (docs/design.md, "Windows transport"), the
 * parts the others build on: the handle objects (platform_shared_win.h),
 * the user and the private security descriptors, the per-user runtime
 * directory, event wake-up counters and handles, and private files. Shared
 * memory and its locks are in platform_shm_win.c, named pipes in
 * platform_ipc_win.c, detached processes in platform_process_win.c.
 */
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

/* What the runtime directory must leave free for the names petw puts in
 * it (as on Linux, where a socket path is short). */
#define RUNTIME_NAME_ROOM 32

wobj *petw__win_obj_new(int kind, HANDLE h)
{
    wobj *o = calloc(1, sizeof(*o));
    if (!o)
        return NULL;
    o->magic = OBJ_MAGIC;
    o->kind = kind;
    atomic_init(&o->h, (intptr_t)h);
    return o;
}

void petw__win_obj_free(wobj *o)
{
    if (o->ov.hEvent)
        CloseHandle(o->ov.hEvent);
    if (o->retired)
        CloseHandle(o->retired);
    free(o->name);
    o->magic = 0;
    free(o);
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
void petw__win_user_sid_text(wchar_t *out, size_t n)
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
PSECURITY_DESCRIPTOR petw__win_private_sd(const wchar_t *rights, int inherit)
{
    wchar_t sid[200], sddl[300];
    petw__win_user_sid_text(sid, 200);
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
int petw__win_private_dacl(HANDLE h, SE_OBJECT_TYPE type)
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
int petw__win_same_user(uint32_t pid)
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
    char path[PETW_MAX_NAME]; /* longer than MAX_PATH: named whole when refused */
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
        petw__win_user_sid_text(sid, 200);
        DWORD t = GetTempPathA(sizeof(tmp), tmp);
        if (t == 0 || t >= sizeof(tmp) || !sid[0])
            return PETW_ENOENT;
        n = snprintf(path, sizeof(path), "%spetw-%ls", tmp, sid);
    }
    if (n >= 0 && (size_t)n < size && (size_t)n < sizeof(path))
        memcpy(out, path, (size_t)n + 1); /* named even when refused below */
    if (n < 0 || (size_t)n + RUNTIME_NAME_ROOM > MAX_PATH || (size_t)n >= size)
        return PETW_ENAMETOOLONG;
    while (n > 1 && (path[n - 1] == '/' || path[n - 1] == '\\'))
        path[--n] = '\0';
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    PSECURITY_DESCRIPTOR sd = petw__win_private_sd(L"FA", 1);
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
            !petw__win_owned(h) || !petw__win_private_dacl(h, SE_FILE_OBJECT))
            rc = PETW_EACCES;
        CloseHandle(h);
    }
    if (rc == 0)
        memcpy(out, path, (size_t)n + 1);
    return rc;
}

/* ---- Wake-up counters and handles ---- */

int petw__wake_create(intptr_t *fd)
{
    /* Manual reset: set until drained, as a counter above 0; unnamed and
     * not inheritable. */
    HANDLE e = CreateEventW(NULL, TRUE, FALSE, NULL);
    wobj *o = e ? petw__win_obj_new(OBJ_RAW, e) : NULL;
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
    petw__win_obj_free(o);
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
    petw__win_obj_free(f);
    return 0;
}

/* ---- Private files ---- */

int petw__file_create_new(const char *path, petw__file *out)
{
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    /* The calling user (and SYSTEM) only, as Linux's 0600. */
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, FALSE};
    PSECURITY_DESCRIPTOR sd = NULL;
    wchar_t sddl[256];
    if (petw__win_private_sddl(sddl, 256) == 0 &&
        ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &sd, NULL))
        sa.lpSecurityDescriptor = sd;
    HANDLE h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ, &sa, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    DWORD err = GetLastError();
    if (sd)
        LocalFree(sd);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return err == ERROR_FILE_EXISTS || err == ERROR_ALREADY_EXISTS ? PETW_EEXIST
                                                                       : petw__win_error(err);
    out->fd = (intptr_t)h;
    return 0;
}

int petw__file_remove_replaceable(const char *path)
{
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    /* Judged and removed through one handle. */
    HANDLE h =
        CreateFileW(w, DELETE | READ_CONTROL | FILE_READ_ATTRIBUTES,
                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                    FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS, NULL);
    DWORD err = GetLastError();
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return err == ERROR_FILE_NOT_FOUND ? 0 : petw__win_error(err);
    BY_HANDLE_FILE_INFORMATION fi;
    int rc = 0;
    if (!GetFileInformationByHandle(h, &fi))
        rc = PETW_EIO;
    else if (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
        rc = 0; /* a link: removed, its target untouched */
    else if ((fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) || GetFileType(h) != FILE_TYPE_DISK)
        rc = PETW_ENOTREG;
    else if (!petw__win_owned(h))
        rc = PETW_EACCES;
    if (rc == 0) {
        FILE_DISPOSITION_INFO d = {TRUE};
        if (!SetFileInformationByHandle(h, FileDispositionInfo, &d, sizeof(d)))
            rc = petw__win_error(GetLastError());
    }
    CloseHandle(h); /* removed as the handle closes */
    return rc;
}

int petw__file_stdio(petw__file *f, void **out)
{
    /* Text mode, as fopen(path, "w") writes. */
    int fd = _open_osfhandle(f->fd, _O_WRONLY | _O_TEXT);
    if (fd < 0)
        return PETW_ENOMEM;
    FILE *s = _fdopen(fd, "w");
    if (!s) {
        /* The descriptor owns the handle now: detached again is not possible,
         * so the file is closed here and reported gone. */
        _close(fd);
        f->fd = (intptr_t)INVALID_HANDLE_VALUE;
        return PETW_ENOMEM;
    }
    f->fd = (intptr_t)INVALID_HANDLE_VALUE;
    *out = s;
    return 0;
}

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
        !petw__win_owned(h) || !petw__win_private_dacl(h, SE_FILE_OBJECT) || !GetFileSizeEx(h, &s))
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
