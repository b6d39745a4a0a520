/* SPDX-License-Identifier: MIT */
/* platform_shared_linux.c - Linux implementation of platform.h's "Sessions
 * shared between processes", the parts the others build on: the per-user
 * runtime directory, eventfd wake-up counters and handles, and private
 * files. Shared memory and its locks are in platform_shm_linux.c, Unix
 * stream sockets in platform_ipc_linux.c, detached processes in
 * platform_process_linux.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "petw/error.h"
#include "platform.h"
#include "platform_linux_internal.h"

/* Room a socket address leaves for a path (its terminating NUL included). */
#define SUN_PATH_SIZE sizeof(((struct sockaddr_un *)0)->sun_path)
/* What the runtime directory must leave free in a socket path for the
 * names petw puts in it. */
#define RUNTIME_NAME_ROOM 32

/* ---- The runtime directory ---- */

int petw__runtime_dir(char *out, size_t size)
{
    char path[PETW_MAX_NAME]; /* longer than a socket's: named whole when refused */
    const char *env = getenv("PETW_RUNTIME_DIR");
    int n;
    if (env && env[0])
        n = snprintf(path, sizeof(path), "%s", env);
    else if ((env = getenv("XDG_RUNTIME_DIR")) && env[0])
        n = snprintf(path, sizeof(path), "%s/petw", env);
    else
        n = snprintf(path, sizeof(path), "/tmp/petw-%u", (unsigned)geteuid());
    if (n >= 0 && (size_t)n < size && (size_t)n < sizeof(path))
        memcpy(out, path, (size_t)n + 1); /* named even when refused below */
    if (n < 0 || (size_t)n + RUNTIME_NAME_ROOM > SUN_PATH_SIZE || (size_t)n >= size)
        return PETW_ENAMETOOLONG;
    /* A trailing slash would make the open below follow a final symbolic
     * link despite O_NOFOLLOW. */
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return petw__linux_error(errno);
    /* Judged on the opened directory, so nothing can be swapped in between
     * the check and the use of the path: the sockets and the registry in
     * it are private only if nobody else can enter or write it. */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? PETW_ENOENT : PETW_EACCES;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
             (st.st_mode & 077) == 0;
    close(fd);
    if (!ok)
        return PETW_EACCES;
    memcpy(out, path, (size_t)n + 1);
    return 0;
}

/* ---- Wake-up counters and handles ---- */

int petw__wake_create(intptr_t *fd)
{
    int f = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (f < 0)
        return errno == ENOMEM ? PETW_ENOMEM : PETW_EIO;
    *fd = f;
    return 0;
}

void petw__wake_signal(intptr_t fd)
{
    /* Called from signal handlers too: errno is the interrupted code's. A
     * full counter (EAGAIN) is already a pending wake-up. */
    int e = errno;
    uint64_t one = 1;
    ssize_t r = write((int)fd, &one, sizeof(one));
    (void)r;
    errno = e;
}

void petw__wake_drain(intptr_t fd)
{
    uint64_t v;
    while (read((int)fd, &v, sizeof(v)) < 0 && errno == EINTR) {
    }
}

void petw__handle_close(intptr_t fd)
{
    if (fd >= 0)
        close((int)fd);
}

int petw__handle_replace(intptr_t from, intptr_t to)
{
    if (from < 0 || to < 0 || from > INT_MAX || to > INT_MAX)
        return PETW_EBADHANDLE;
    if (from == to)
        return 0;
    int r;
    /* EBUSY: Linux's dup3 racing an open() that is installing `to`. */
    while ((r = dup3((int)from, (int)to, O_CLOEXEC)) < 0 && (errno == EINTR || errno == EBUSY)) {
    }
    int rc = r < 0 ? (errno == EBADF ? PETW_EBADHANDLE : PETW_EIO) : 0;
    close((int)from);
    return rc;
}

/* ---- Private files ---- */

int petw__file_create_new(const char *path, petw__file *out)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno == EEXIST ? PETW_EEXIST : petw__linux_error(errno);
    out->fd = fd;
    return 0;
}

int petw__file_remove_replaceable(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : petw__linux_error(errno);
    if (!S_ISLNK(st.st_mode)) {
        if (!S_ISREG(st.st_mode))
            return PETW_ENOTREG;
        if (st.st_uid != geteuid())
            return PETW_EACCES;
    }
    return unlink(path) == 0 || errno == ENOENT ? 0 : petw__linux_error(errno);
}

int petw__file_stdio(petw__file *f, void **out)
{
    FILE *s = fdopen((int)f->fd, "w");
    if (!s)
        return PETW_ENOMEM;
    f->fd = -1;
    *out = s;
    return 0;
}

int petw__file_replace_private(const char *path, const void *data, size_t size)
{
    char tmp[PATH_MAX];
    int n = snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof(tmp))
        return PETW_ENAMETOOLONG;
    unlink(tmp); /* a leftover of a crashed earlier process with this pid */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return petw__linux_error(errno);
    const char *p = data;
    int rc = 0;
    while (size > 0 && rc == 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno != EINTR)
            rc = petw__linux_error(errno);
        else if (w > 0) {
            p += w;
            size -= (size_t)w;
        }
    }
    close(fd);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = petw__linux_error(errno);
    if (rc != 0)
        unlink(tmp);
    return rc;
}

int petw__file_remove(const char *path)
{
    return unlink(path) == 0 || errno == ENOENT ? 0 : petw__linux_error(errno);
}

int petw__file_read_private(const char *path, size_t max, uint8_t **out, size_t *size)
{
    *out = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno == ENOENT ? PETW_ENOTFOUND : petw__linux_error(errno);
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = petw__linux_error(errno);
    else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
        rc = PETW_EACCES;
    else if ((uint64_t)st.st_size > max)
        rc = PETW_ELIMIT;
    uint8_t *buf = NULL;
    size_t got = 0;
    if (rc == 0 && !(buf = malloc(st.st_size ? (size_t)st.st_size : 1)))
        rc = PETW_ENOMEM;
    while (rc == 0 && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break; /* shorter than it was: what is there */
        got += (size_t)r;
    }
    close(fd);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    *size = got;
    return 0;
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
        if (*p != '/' && *p)
            continue;
        char c = *p;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return petw__linux_error(errno);
        if (!(*p = c))
            return 0;
    }
}

int petw__dir_each(const char *dir, const char *prefix, int (*fn)(const char *name, void *ctx),
                   void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return petw__linux_error(errno);
    size_t plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, prefix, plen) && fn(e->d_name, ctx) != 0)
            break;
    closedir(d);
    return 0;
}
