/* SPDX-License-Identifier: MIT */
/* platform_file_win.c - Windows implementation of platform.h's files:
 * trace files created for the user alone (a DACL), written and read at
 * offsets, continued only when the user's own, opened for reading only
 * when plain disk files, and a folder's entries. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "petw/error.h"
#include "platform.h" /* windows.h first: sddl.h needs it */
#include "platform_win_internal.h"
#include <aclapi.h>
#include <sddl.h>

int petw__file_create_private(const char *path, petw__file *out)
{
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    DWORD attr = GetFileAttributesW(w);
    if (attr != INVALID_FILE_ATTRIBUTES) {
        if ((attr & FILE_ATTRIBUTE_DIRECTORY) && !(attr & FILE_ATTRIBUTE_REPARSE_POINT)) {
            free(w);
            return PETW_EACCES;
        }
        /* A file or a link: removed (a link itself, never its target). */
        if (!DeleteFileW(w)) {
            DWORD err = GetLastError();
            if (!(attr & FILE_ATTRIBUTE_DIRECTORY) || !RemoveDirectoryW(w)) {
                free(w);
                return petw__win_error(err);
            }
        }
    }
    /* The calling user (and SYSTEM) only, as Linux's 0600: an explicit DACL
     * naming the token's user SID. */
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, FALSE};
    PSECURITY_DESCRIPTOR sd = NULL;
    wchar_t sddl[256];
    if (petw__win_private_sddl(sddl, 256) == 0 &&
        ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &sd, NULL))
        sa.lpSecurityDescriptor = sd;
    HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ, &sa, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    DWORD err = GetLastError();
    if (sd)
        LocalFree(sd);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return petw__win_error(err);
    out->fd = (intptr_t)h;
    return 0;
}

int petw__file_open_existing(const char *path, petw__file *out, uint64_t *size)
{
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    DWORD attr = GetFileAttributesW(w);
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_REPARSE_POINT)) {
        free(w);
        return PETW_EACCES; /* never through a link */
    }
    HANDLE h =
        CreateFileW(w, GENERIC_READ | GENERIC_WRITE | READ_CONTROL, FILE_SHARE_READ, NULL,
                    OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    DWORD err = GetLastError();
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return petw__win_error(err);
    /* Judged on the open handle, not the path: a plain disk file (not a
     * link, a directory or a device) that the caller owns. */
    BY_HANDLE_FILE_INFORMATION fi;
    LARGE_INTEGER s;
    if (GetFileType(h) != FILE_TYPE_DISK || !GetFileInformationByHandle(h, &fi) ||
        (fi.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY)) ||
        !petw__win_owned(h)) {
        CloseHandle(h);
        return PETW_EACCES;
    }
    if (!GetFileSizeEx(h, &s)) {
        CloseHandle(h);
        return PETW_EIO;
    }
    out->fd = (intptr_t)h;
    *size = (uint64_t)s.QuadPart;
    return 0;
}

static int rw_at(petw__file *f, void *data, size_t size, uint64_t offset, int write)
{
    char *p = data;
    while (size > 0) {
        OVERLAPPED o;
        memset(&o, 0, sizeof(o));
        o.Offset = (DWORD)offset;
        o.OffsetHigh = (DWORD)(offset >> 32);
        DWORD chunk = size > 0x40000000 ? 0x40000000 : (DWORD)size, done = 0;
        BOOL ok = write ? WriteFile((HANDLE)f->fd, p, chunk, &done, &o)
                        : ReadFile((HANDLE)f->fd, p, chunk, &done, &o);
        if (!ok)
            return petw__win_error(GetLastError());
        if (done == 0)
            return PETW_EIO;
        p += done;
        size -= done;
        offset += done;
    }
    return 0;
}

int petw__file_pwrite(petw__file *f, const void *data, size_t size, uint64_t offset)
{
    return rw_at(f, (void *)(uintptr_t)data, size, offset, 1);
}

int petw__file_pread(petw__file *f, void *data, size_t size, uint64_t offset)
{
    return rw_at(f, data, size, offset, 0);
}

int petw__file_truncate(petw__file *f, uint64_t size)
{
    FILE_END_OF_FILE_INFO eof;
    eof.EndOfFile.QuadPart = (LONGLONG)size;
    return SetFileInformationByHandle((HANDLE)f->fd, FileEndOfFileInfo, &eof, sizeof(eof))
               ? 0
               : petw__win_error(GetLastError());
}

int petw__file_allocate(petw__file *f, uint64_t size)
{
    /* The file occupies the whole cap while logging, as ETW's PREALLOCATE. */
    return petw__file_truncate(f, size);
}

int petw__file_sync(petw__file *f)
{
    return FlushFileBuffers((HANDLE)f->fd) ? 0 : petw__win_error(GetLastError());
}

int petw__file_close(petw__file *f)
{
    int rc = 0;
    if (f->fd != 0 && f->fd != -1 && !CloseHandle((HANDLE)f->fd))
        rc = PETW_EIO;
    f->fd = -1;
    return rc;
}

int petw__file_open_read(const char *path, petw__file *out, uint64_t *size)
{
    wchar_t *w = petw__win_wide(path);
    if (!w)
        return PETW_ENOENT;
    DWORD attr = GetFileAttributesW(w);
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY)) {
        free(w);
        return PETW_ENOTREG;
    }
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    DWORD err = GetLastError();
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return petw__win_error(err);
    LARGE_INTEGER s;
    if (GetFileType(h) != FILE_TYPE_DISK) {
        CloseHandle(h);
        return PETW_ENOTREG;
    }
    if (!GetFileSizeEx(h, &s)) {
        CloseHandle(h);
        return PETW_EIO;
    }
    out->fd = (intptr_t)h;
    *size = (uint64_t)s.QuadPart;
    return 0;
}

int petw__dir_each(const char *dir, const char *prefix, int (*fn)(const char *name, void *ctx),
                   void *ctx)
{
    char pattern[MAX_PATH];
    if (snprintf(pattern, sizeof(pattern), "%s\\%s*", dir, prefix) >= (int)sizeof(pattern))
        return PETW_EINVAL;
    DWORD attrs = GetFileAttributesA(dir);
    if (attrs == INVALID_FILE_ATTRIBUTES)
        return PETW_ENOTFOUND;
    if (!(attrs & FILE_ATTRIBUTE_DIRECTORY))
        return PETW_EINVAL;
    WIN32_FIND_DATAA e;
    HANDLE h = FindFirstFileA(pattern, &e);
    if (h == INVALID_HANDLE_VALUE)
        return 0; /* nothing matches */
    do {
        if (fn(e.cFileName, ctx) != 0)
            break;
    } while (FindNextFileA(h, &e));
    FindClose(h);
    return 0;
}

size_t petw__file_read_small(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t got = 0;
    if (f) {
        while (got + 1 < size) {
            size_t r = fread(buf + got, 1, size - 1 - got, f);
            if (r == 0)
                break;
            got += r;
        }
        fclose(f);
    }
    buf[got] = 0;
    return got;
}

int petw__file_each_line(const char *path, char *line, size_t size,
                         int (*fn)(char *line, void *ctx), void *ctx)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return PETW_ENOENT;
    while (fgets(line, (int)size, f))
        if (fn(line, ctx) != 0)
            break;
    fclose(f);
    return 0;
}
