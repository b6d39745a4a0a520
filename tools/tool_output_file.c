/* tool_output_file.c - files the petw command writes (convert -o), created
 * the way petw creates trace files: owner-only, exclusively, never through
 * a link, and never over a file the user did not ask to replace; "-" is
 * standard output. */
#include <errno.h>
#include <string.h>

#include "tool.h"

#if defined(_WIN32)
#include <windows.h>

#include <aclapi.h>
#include <fcntl.h>
#include <sddl.h>

/* A Windows error as text (for the messages below). */
static const char *win_error(DWORD e, char *buf, size_t n)
{
    if (!FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, e, 0, buf,
                        (DWORD)n, NULL))
        snprintf(buf, n, "error %lu", (unsigned long)e);
    size_t len = strlen(buf);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == '.'))
        buf[--len] = '\0';
    return buf;
}

/* The process token's TokenUser (which = TokenUser) or default owner
 * (TokenOwner) SID, copied into `out`; 0 or -1. */
static int token_sid(TOKEN_INFORMATION_CLASS which, uint8_t *out, DWORD n)
{
    HANDLE token;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
        return -1;
    union {
        TOKEN_USER user;
        TOKEN_OWNER owner;
        uint8_t bytes[256];
    } info;
    DWORD len = 0;
    BOOL ok = GetTokenInformation(token, which, &info, sizeof(info), &len);
    CloseHandle(token);
    if (!ok)
        return -1;
    PSID sid = which == TokenUser ? info.user.User.Sid : info.owner.Owner;
    return sid && CopySid(n, out, sid) ? 0 : -1;
}

/* 1 when the open file's owner is the token's user or its default owner
 * (what an elevated administrator's new files get). */
static int owned_by_user(HANDLE h)
{
    PSID owner = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    if (GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, NULL, NULL, NULL,
                        &sd) != ERROR_SUCCESS)
        return 0;
    uint8_t sid[SECURITY_MAX_SID_SIZE];
    int ok = owner && IsValidSid(owner) &&
             ((token_sid(TokenUser, sid, sizeof(sid)) == 0 && EqualSid(owner, sid)) ||
              (token_sid(TokenOwner, sid, sizeof(sid)) == 0 && EqualSid(owner, sid)));
    LocalFree(sd);
    return ok;
}

/* Creates `path` only when nothing is there (not even a link), with a DACL
 * for the user and SYSTEM alone (as Linux's 0600). */
static HANDLE create_new(const char *path)
{
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, FALSE};
    PSECURITY_DESCRIPTOR sd = NULL;
    uint8_t sid[SECURITY_MAX_SID_SIZE];
    char *sid_text = NULL, sddl[256];
    if (token_sid(TokenUser, sid, sizeof(sid)) == 0 && ConvertSidToStringSidA(sid, &sid_text)) {
        if (snprintf(sddl, sizeof(sddl), "D:P(A;;FA;;;%s)(A;;FA;;;SY)", sid_text) <
                (int)sizeof(sddl) &&
            ConvertStringSecurityDescriptorToSecurityDescriptorA(sddl, SDDL_REVISION_1, &sd, NULL))
            sa.lpSecurityDescriptor = sd;
        LocalFree(sid_text);
    }
    HANDLE h = CreateFileA(path, GENERIC_WRITE, FILE_SHARE_READ, &sa, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    DWORD err = GetLastError();
    if (sd)
        LocalFree(sd);
    SetLastError(err);
    return h;
}

/* --force: removes what is at `path` when it may be replaced: a link (the
 * link itself, never its target) or a plain file the user owns. Judged and
 * removed through one handle. 0, or -1 with the reason on stderr. */
static int remove_existing(const char *path)
{
    char msg[256];
    HANDLE h =
        CreateFileA(path, DELETE | READ_CONTROL | FILE_READ_ATTRIBUTES,
                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                    FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD err = GetLastError();
        if (err == ERROR_FILE_NOT_FOUND)
            return 0;
        fprintf(stderr, "petw: %s: cannot replace: %s\n", path, win_error(err, msg, sizeof(msg)));
        return -1;
    }
    BY_HANDLE_FILE_INFORMATION fi;
    const char *why = NULL;
    if (!GetFileInformationByHandle(h, &fi))
        why = "cannot read its attributes";
    else if (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
        why = NULL; /* a link: removed, its target untouched */
    else if ((fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) || GetFileType(h) != FILE_TYPE_DISK)
        why = "not a regular file";
    else if (!owned_by_user(h))
        why = "owned by another user";
    if (why) {
        CloseHandle(h);
        fprintf(stderr, "petw: %s: %s; not replaced\n", path, why);
        return -1;
    }
    FILE_DISPOSITION_INFO d = {TRUE};
    BOOL ok = SetFileInformationByHandle(h, FileDispositionInfo, &d, sizeof(d));
    DWORD err = GetLastError();
    CloseHandle(h); /* removed as the handle closes */
    if (!ok) {
        fprintf(stderr, "petw: %s: cannot remove: %s\n", path, win_error(err, msg, sizeof(msg)));
        return -1;
    }
    return 0;
}

static FILE *file_create(const char *path, int force)
{
    char msg[256];
    HANDLE h = create_new(path);
    if (h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_FILE_EXISTS) {
        if (!force) {
            fprintf(stderr, "petw: %s: exists; not replaced (--force replaces it)\n", path);
            return NULL;
        }
        if (remove_existing(path) != 0)
            return NULL;
        h = create_new(path);
    }
    if (h == INVALID_HANDLE_VALUE) {
        DWORD err = GetLastError();
        fprintf(stderr, "petw: %s: cannot create: %s\n", path, win_error(err, msg, sizeof(msg)));
        return NULL;
    }
    /* Text mode, as fopen(path, "w") writes. */
    int fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_TEXT);
    if (fd < 0) {
        CloseHandle(h);
        fprintf(stderr, "petw: %s: cannot create: out of file descriptors\n", path);
        return NULL;
    }
    FILE *f = _fdopen(fd, "w");
    if (!f) {
        _close(fd);
        fprintf(stderr, "petw: %s: cannot create: %s\n", path, strerror(errno));
    }
    return f;
}

#else
#include <fcntl.h>
#include <sys/stat.h>

static int create_new(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

/* --force: removes what is at `path` when it may be replaced: a symbolic
 * link (the link itself, never its target) or a regular file the user owns
 * (unlinked, not truncated: another hard link to it keeps its data). 0, or
 * -1 with the reason on stderr. */
static int remove_existing(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        fprintf(stderr, "petw: %s: cannot replace: %s\n", path, strerror(errno));
        return -1;
    }
    const char *why = NULL;
    if (S_ISLNK(st.st_mode))
        why = NULL;
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if (st.st_uid != geteuid())
        why = "owned by another user";
    if (why) {
        fprintf(stderr, "petw: %s: %s; not replaced\n", path, why);
        return -1;
    }
    if (unlink(path) != 0 && errno != ENOENT) {
        fprintf(stderr, "petw: %s: cannot remove: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static FILE *file_create(const char *path, int force)
{
    int fd = create_new(path);
    if (fd < 0 && errno == EEXIST) {
        if (!force) {
            fprintf(stderr, "petw: %s: exists; not replaced (--force replaces it)\n", path);
            return NULL;
        }
        if (remove_existing(path) != 0)
            return NULL;
        fd = create_new(path); /* EEXIST again: someone raced us; refused below */
    }
    if (fd < 0) {
        fprintf(stderr, "petw: %s: cannot create: %s\n", path, strerror(errno));
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        fprintf(stderr, "petw: %s: cannot create: %s\n", path, strerror(errno));
        close(fd);
    }
    return f;
}
#endif

FILE *output_file_create(const char *path, int force)
{
    return !strcmp(path, "-") ? stdout : file_create(path, force);
}

int output_file_close(FILE *f)
{
    return f == stdout ? fflush(f) : fclose(f);
}

const char *output_file_name(const char *path)
{
    return !strcmp(path, "-") ? "standard output" : path;
}
