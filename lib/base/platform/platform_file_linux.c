/* SPDX-License-Identifier: MIT */
/* platform_file_linux.c - Linux implementation of platform.h's files:
 * trace files created owner-only, written and read at offsets, continued
 * only when private, and opened for reading without blocking on a FIFO. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "petw/error.h"
#include "platform.h"
#include "platform_linux_internal.h"

int petw__file_create_private(const char *path, petw__file *out)
{
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return PETW_EACCES;
        if (unlink(path) != 0)
            return petw__linux_error(errno);
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return petw__linux_error(errno);
    out->fd = fd;
    return 0;
}

int petw__file_pwrite(petw__file *f, const void *data, size_t size, uint64_t offset)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = pwrite((int)f->fd, p, size, (off_t)offset);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return petw__linux_error(errno);
        }
        p += n;
        size -= (size_t)n;
        offset += (uint64_t)n;
    }
    return 0;
}

int petw__file_open_existing(const char *path, petw__file *out, uint64_t *size)
{
    /* Non-blocking: a FIFO at the path must not stall the open (it is then
     * refused); the flag changes nothing for a regular file. */
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ELOOP ? PETW_EACCES : petw__linux_error(errno);
    /* Checked on the open file, not the path: what was opened is what is
     * judged. Only the caller's own private regular file is continued: a
     * file another user owns, or one others can read or write, would let
     * them read (or plant) this session's events. */
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077) != 0) {
        close(fd);
        return PETW_EACCES;
    }
    out->fd = fd;
    *size = (uint64_t)st.st_size;
    return 0;
}

int petw__file_pread(petw__file *f, void *data, size_t size, uint64_t offset)
{
    char *p = data;
    while (size > 0) {
        ssize_t n = pread((int)f->fd, p, size, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return PETW_EIO;
        p += n;
        size -= (size_t)n;
        offset += (uint64_t)n;
    }
    return 0;
}

int petw__file_allocate(petw__file *f, uint64_t size)
{
    int rc = posix_fallocate((int)f->fd, 0, (off_t)size);
    return rc == 0 ? 0 : petw__linux_error(rc);
}

int petw__file_truncate(petw__file *f, uint64_t size)
{
    return ftruncate((int)f->fd, (off_t)size) == 0 ? 0 : petw__linux_error(errno);
}

int petw__file_sync(petw__file *f)
{
    return fdatasync((int)f->fd) == 0 ? 0 : petw__linux_error(errno);
}

int petw__path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int petw__file_close(petw__file *f)
{
    int rc = 0;
    if (f->fd >= 0 && close((int)f->fd) != 0)
        rc = PETW_EIO;
    f->fd = -1;
    return rc;
}

int petw__file_open_read(const char *path, petw__file *out, uint64_t *size)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENXIO ? PETW_ENOTREG : petw__linux_error(errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return PETW_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return PETW_ENOTREG;
    }
    out->fd = fd;
    *size = (uint64_t)st.st_size;
    return 0;
}

size_t petw__file_read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t got = 0;
    while (got + 1 < size) {
        ssize_t r = read(fd, buf + got, size - 1 - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = 0;
    return got;
}

int petw__file_each_line(const char *path, char *line, size_t size,
                         int (*fn)(char *line, void *ctx), void *ctx)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return petw__linux_error(errno);
    while (fgets(line, (int)size, f))
        if (fn(line, ctx) != 0)
            break;
    fclose(f);
    return 0;
}
