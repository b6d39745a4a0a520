/* SPDX-License-Identifier: MIT */
/* platform_shm_linux.c - Linux implementation of platform.h's shared
 * memory (sealed memfd), the shared registry file and its open-file-
 * description locks, and futex words. */
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

/* Older C libraries lack some of these names; the kernel's values. */
#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
#endif
#ifndef F_SEAL_SEAL
#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW 0x0004
#define F_SEAL_WRITE 0x0008
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif

static void close_keep_errno(int fd)
{
    int e = errno;
    if (fd >= 0)
        close(fd);
    errno = e;
}

/* ---- Shared memory ---- */

static int memfd_new(void)
{
#if defined(MFD_CLOEXEC) && defined(MFD_ALLOW_SEALING)
    return memfd_create("petw", MFD_CLOEXEC | MFD_ALLOW_SEALING);
#elif defined(SYS_memfd_create)
    return (int)syscall(SYS_memfd_create, "petw", 0x0001u /* CLOEXEC */ | 0x0002u /* SEALING */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/* Allocates every page of the object by writing zeros through the handle
 * (for kernels without fallocate on it): a shortage fails the write with
 * ENOSPC rather than faulting a writer later. */
static int fill_zeros(int fd, size_t size)
{
    static const char zeros[65536];
    size_t done = 0;
    while (done < size) {
        size_t n = size - done < sizeof(zeros) ? size - done : sizeof(zeros);
        ssize_t w = pwrite(fd, zeros, n, (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

int petw__shm_create(size_t size, petw__shm *out)
{
    if (size == 0 || size > (size_t)INT64_MAX)
        return PETW_EINVAL;
    int fd = memfd_new();
    if (fd < 0)
        return errno == ENOMEM ? PETW_ENOMEM : PETW_EIO;
    int rc = PETW_ENOMEM;
    if (ftruncate(fd, (off_t)size) != 0) {
        rc = errno == EFBIG || errno == EINVAL || errno == ENOMEM ? PETW_ENOMEM : PETW_EIO;
        goto fail;
    }
    int r;
    while ((r = fallocate(fd, 0, 0, (off_t)size)) != 0 && errno == EINTR) {
    }
    if (r != 0) {
        if (errno == EOPNOTSUPP || errno == ENOSYS) {
            if (fill_zeros(fd, size) != 0) {
                rc = errno == ENOSPC || errno == ENOMEM || errno == EFBIG ? PETW_ENOMEM : PETW_EIO;
                goto fail;
            }
        } else {
            rc = errno == ENOSPC || errno == ENOMEM || errno == EFBIG ? PETW_ENOMEM : PETW_EIO;
            goto fail;
        }
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        rc = PETW_ENOMEM;
        goto fail;
    }
    /* The receiver maps exactly `size` bytes: a peer that could shrink the
     * object would make its reads fault (SIGBUS). */
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        munmap(p, size);
        rc = PETW_EIO;
        goto fail;
    }
    out->addr = p;
    out->size = size;
    out->fd = fd;
    return 0;
fail:
    close_keep_errno(fd);
    return rc;
}

int petw__shm_map(intptr_t fd, size_t size, petw__shm *out)
{
    int f = (int)fd;
    if (fd < 0 || fd > INT_MAX)
        return PETW_EINVAL;
    /* Only sealed memfds have seals (other files fail F_GET_SEALS): a
     * shrinkable object would let its sender make our accesses fault, a
     * write-sealed one could not be mapped writable. */
    int seals = fcntl(f, F_GET_SEALS);
    struct stat st;
    if (size == 0 || seals < 0 ||
        (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) != (F_SEAL_SHRINK | F_SEAL_GROW) ||
        (seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) != 0 || fstat(f, &st) != 0 ||
        !S_ISREG(st.st_mode) || st.st_size < 0 || (uint64_t)st.st_size != (uint64_t)size) {
        close(f);
        return PETW_EINVAL;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        close(f);
        return e == ENOMEM ? PETW_ENOMEM : PETW_EINVAL;
    }
    /* Writable page-table entries now, so a writer never takes a first-touch
     * fault inside EventWrite (an in-process pool is pre-faulted by its
     * memset for the same reason). MADV_POPULATE_WRITE (Linux 5.14) does it
     * without touching the bytes; then each page is written with the value it
     * holds (nobody else writes the pool while it is being mapped). */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
    /* The write loop runs even after the madvise: measured on a KVM guest,
     * the first burst into a pool populated only by madvise still cost 3-7x
     * the next ones, and the loop removes it. */
    (void)madvise(p, size, MADV_POPULATE_WRITE);
    long page = sysconf(_SC_PAGESIZE);
    for (size_t off = 0; off < size; off += (size_t)(page > 0 ? page : 4096)) {
        volatile uint8_t *b = (volatile uint8_t *)p + off;
        *b = *b;
    }
    out->addr = p;
    out->size = size;
    out->fd = fd;
    return 0;
}

void petw__shm_abandon(petw__shm *s)
{
    /* MAP_FIXED replaces the shared pages in one step: no instant where
     * the range is unmapped (a writer would fault) or still shared. */
    if (s->addr)
        mmap(s->addr, s->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
             0);
    if (s->fd >= 0)
        close((int)s->fd);
    s->fd = -1;
}

void petw__shm_close(petw__shm *s)
{
    if (s->addr)
        munmap(s->addr, s->size);
    if (s->fd >= 0)
        close((int)s->fd);
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
    /* Opened read-write even for a read-only mapping when possible: the
     * file may need growing, and an exclusive (write) lock needs a handle
     * open for writing. O_NONBLOCK: a FIFO planted at the path must not
     * stall the open (it is refused below). */
    const int flags = O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
    int fd = open(path, O_RDWR | flags, 0600);
    int rdwr = fd >= 0;
    if (fd < 0 && !writable && (errno == EACCES || errno == EROFS))
        fd = open(path, O_RDONLY | flags, 0600);
    if (fd < 0)
        return petw__linux_error(errno);
    /* Judged on the opened file: another user's file, or one others may
     * read or write, would let them see or forge the registry. */
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077) != 0) {
        close(fd);
        return PETW_EACCES;
    }
    if ((uint64_t)st.st_size < (uint64_t)size) {
        if (!rdwr) {
            close(fd);
            return PETW_EACCES;
        }
        if (ftruncate(fd, (off_t)size) != 0) {
            int rc = petw__linux_error(errno);
            close(fd);
            return rc;
        }
        *created = 1;
    }
    int prot = PROT_READ | (writable ? PROT_WRITE : 0);
    void *p = mmap(NULL, size, prot, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        close(fd);
        *created = 0;
        return e == ENOMEM ? PETW_ENOMEM : PETW_EIO;
    }
    out->addr = p;
    out->size = size;
    out->fd = fd;
    return 0;
}

/* Open-file-description locks: owned by the open handle (not the process,
 * as classic POSIX locks are), so two opens in one process exclude each
 * other and closing some other descriptor of the file drops nothing. */
static void lock_range(struct flock *fl, short type, uint32_t index)
{
    memset(fl, 0, sizeof(*fl));
    fl->l_type = type;
    fl->l_whence = SEEK_SET;
    fl->l_start = (off_t)index;
    fl->l_len = 1;
    fl->l_pid = 0; /* required by the OFD commands */
}

int petw__lock_take(intptr_t fd, uint32_t index, int wait)
{
    struct flock fl;
    for (;;) {
        lock_range(&fl, F_WRLCK, index);
        if (fcntl((int)fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl) == 0)
            return 0;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EACCES || errno == EDEADLK)
            return PETW_EBUSY;
        if (errno == ENOLCK)
            return PETW_ENOMEM;
        return errno == EBADF ? PETW_EBADHANDLE : PETW_EIO;
    }
}

void petw__lock_drop(intptr_t fd, uint32_t index)
{
    struct flock fl;
    lock_range(&fl, F_UNLCK, index);
    fcntl((int)fd, F_OFD_SETLK, &fl);
}

int petw__lock_held(intptr_t fd, uint32_t index)
{
    /* GETLK reports only conflicting locks, and this handle's own never
     * conflict: "held by another handle". */
    struct flock fl;
    lock_range(&fl, F_WRLCK, index);
    if (fcntl((int)fd, F_OFD_GETLK, &fl) != 0)
        return 0;
    return fl.l_type != F_UNLCK;
}

/* ---- Futex words ---- */

/* A 32-bit system built with a 64-bit time_t needs the time64 call. */
static long futex_call(const uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
#if defined(SYS_futex_time64) && defined(SYS_futex)
    if (sizeof(time_t) > sizeof(long))
        return syscall(SYS_futex_time64, word, op, val, ts, NULL, 0);
    return syscall(SYS_futex, word, op, val, ts, NULL, 0);
#elif defined(SYS_futex_time64)
    return syscall(SYS_futex_time64, word, op, val, ts, NULL, 0);
#else
    return syscall(SYS_futex, word, op, val, ts, NULL, 0);
#endif
}

int petw__futex_wait(const uint32_t *word, uint32_t expect, int timeout_ms)
{
    struct timespec ts, *tp = NULL;
    if (timeout_ms >= 0) {
        ts.tv_sec = timeout_ms / 1000;
        ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        tp = &ts;
    }
    /* Not FUTEX_WAIT_PRIVATE: the word lives in memory shared with other
     * processes, and private futexes are keyed by this process's address
     * space. The timeout is relative. */
    if (futex_call(word, FUTEX_WAIT, expect, tp) == 0)
        return 0;
    return errno == ETIMEDOUT ? PETW_ETIMEDOUT : 0; /* EAGAIN, EINTR: spurious */
}

void petw__futex_wake_all(const uint32_t *word)
{
    futex_call(word, FUTEX_WAKE, INT_MAX, NULL);
}
