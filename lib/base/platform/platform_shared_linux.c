/* platform_shared_linux.c - Linux implementation of platform.h's "Sessions
 * shared between processes": the per-user runtime directory, sealed
 * memfd shared memory, the shared registry file and its open-file-
 * description locks, futex words, eventfd counters, Unix stream sockets
 * that check the peer's uid and carry descriptors, and starting a
 * detached session host.
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

extern char **environ;

/* Room a socket address leaves for a path (its terminating NUL included). */
#define SUN_PATH_SIZE sizeof(((struct sockaddr_un *)0)->sun_path)
/* What the runtime directory must leave free in a socket path for the
 * names petw puts in it. */
#define RUNTIME_NAME_ROOM 32

/* The most handles one message carries (platform.h). */
#define MAX_SEND_HANDLES 4
/* Room for handles arriving with one read: more than a petw sender ever
 * attaches, so a peer sending too many is seen (MSG_CTRUNC). */
#define MAX_RECV_HANDLES 16

static int map_errno(int e)
{
    switch (e) {
    case ENOENT:
    case ENOTDIR:
        return PETW_ENOENT;
    case EACCES:
    case EPERM:
    case EROFS:
    case ELOOP: /* O_NOFOLLOW met a symbolic link */
    case EISDIR:
    case ENXIO: /* a socket or a FIFO without a reader */
        return PETW_EACCES;
    case ENOSPC:
    case EDQUOT:
        return PETW_ENOSPC;
    case ENOMEM:
        return PETW_ENOMEM;
    case ENAMETOOLONG:
        return PETW_ENAMETOOLONG;
    case EBADF:
        return PETW_EBADHANDLE;
    default:
        return PETW_EIO;
    }
}

static void close_keep_errno(int fd)
{
    int e = errno;
    if (fd >= 0)
        close(fd);
    errno = e;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left until `deadline` (-1: none) for poll(). */
static int remaining_ms(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - now_ms();
    if (left <= 0)
        return 0;
    return left > INT_MAX ? INT_MAX : (int)left;
}

/* Waits for `events` on fd until `deadline` (-1: none). 0 when ready (or
 * hung up / in error: the next call reports why), PETW_ETIMEDOUT. */
static int wait_fd(int fd, short events, int64_t deadline)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = events, .revents = 0};
        int r = poll(&p, 1, remaining_ms(deadline));
        if (r > 0)
            return 0;
        if (r == 0)
            return PETW_ETIMEDOUT;
        if (errno != EINTR)
            return PETW_EIO;
    }
}

/* ---- The runtime directory ---- */

int petw__runtime_dir(char *out, size_t size)
{
    char path[SUN_PATH_SIZE];
    const char *env = getenv("PETW_RUNTIME_DIR");
    int n;
    if (env && env[0])
        n = snprintf(path, sizeof(path), "%s", env);
    else if ((env = getenv("XDG_RUNTIME_DIR")) && env[0])
        n = snprintf(path, sizeof(path), "%s/petw", env);
    else
        n = snprintf(path, sizeof(path), "/tmp/petw-%u", (unsigned)geteuid());
    if (n < 0 || (size_t)n + RUNTIME_NAME_ROOM > sizeof(path) || (size_t)n >= size)
        return PETW_ENAMETOOLONG;
    /* A trailing slash would make the open below follow a final symbolic
     * link despite O_NOFOLLOW. */
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return map_errno(errno);
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
        return map_errno(errno);
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
            int rc = map_errno(errno);
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

/* ---- Unix stream sockets ---- */

static int make_address(const char *path, struct sockaddr_un *a)
{
    size_t n = strlen(path);
    if (n == 0)
        return PETW_EINVAL;
    if (n >= sizeof(a->sun_path))
        return PETW_ENAMETOOLONG;
    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    memcpy(a->sun_path, path, n + 1);
    return 0;
}

/* The peer's credentials; PETW_EACCES when it runs as another user. */
static int check_peer(int fd, uint32_t *pid)
{
    struct ucred cr;
    socklen_t len = sizeof(cr);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 || len != sizeof(cr))
        return PETW_EIO;
    if (cr.uid != geteuid())
        return PETW_EACCES;
    if (pid)
        *pid = (uint32_t)cr.pid;
    return 0;
}

int petw__ipc_listen(const char *path, intptr_t *out)
{
    struct sockaddr_un a;
    int rc = make_address(path, &a);
    if (rc != 0)
        return rc;
    /* Non-blocking: accept answers PETW_EBUSY instead of waiting. */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return errno == ENOMEM || errno == ENOBUFS ? PETW_ENOMEM : PETW_EIO;
    /* bind() creates the file with the socket's own mode less the umask:
     * set before binding, the file is never more open than 0600. */
    if (fchmod(fd, 0600) != 0) {
        close(fd);
        return PETW_EIO;
    }
    /* Only a stale socket is removed: another kind of file there is not
     * ours to delete (bind then fails). */
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
        unlink(path);
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        rc = errno == EADDRINUSE ? PETW_EEXIST : map_errno(errno);
        close(fd);
        return rc;
    }
    if (listen(fd, 64) != 0) {
        close(fd);
        return PETW_EIO;
    }
    *out = fd;
    return 0;
}

int petw__ipc_accept(intptr_t listener, intptr_t *out, uint32_t *pid)
{
    /* No SOCK_NONBLOCK: the accepted socket blocks (send and recv wait
     * with poll and their own deadlines). */
    int fd = accept4((int)listener, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED)
            return PETW_EBUSY;
        return errno == EBADF ? PETW_EBADHANDLE : PETW_EIO;
    }
    int rc = check_peer(fd, pid);
    if (rc != 0) {
        close(fd);
        return rc;
    }
    *out = fd;
    return 0;
}

int petw__ipc_connect(const char *path, intptr_t *out, uint32_t *peer_pid)
{
    struct sockaddr_un a;
    int rc = make_address(path, &a);
    if (rc != 0)
        return rc;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return errno == ENOMEM || errno == ENOBUFS ? PETW_ENOMEM : PETW_EIO;
    /* A Unix stream connect interrupted by a signal is not half-made:
     * it starts over. */
    int r;
    while ((r = connect(fd, (struct sockaddr *)&a, sizeof(a))) != 0 && errno == EINTR) {
    }
    if (r != 0) {
        int e = errno;
        close(fd);
        if (e == ENOENT || e == ECONNREFUSED)
            return PETW_ENOTFOUND;
        /* Another user's 0600 socket. */
        if (e == EACCES || e == EPERM)
            return PETW_EACCES;
        return PETW_EIO;
    }
    rc = check_peer(fd, peer_pid);
    if (rc != 0) {
        close(fd);
        return rc;
    }
    *out = fd;
    return 0;
}

int petw__ipc_pair(intptr_t out[2])
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return errno == ENOMEM || errno == ENOBUFS ? PETW_ENOMEM : PETW_EIO;
    out[0] = sv[0];
    out[1] = sv[1];
    return 0;
}

int petw__ipc_send(intptr_t fd, const void *data, size_t size, const intptr_t *handles,
                   uint32_t count, int timeout_ms)
{
    if (count > MAX_SEND_HANDLES || (count > 0 && (!handles || size == 0)))
        return PETW_EINVAL;
    int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
    const char *p = data;
    size_t left = size;
    uint32_t pending = count; /* handles ride with the first byte sent */
    while (left > 0) {
        struct iovec iov = {.iov_base = (void *)p, .iov_len = left};
        struct msghdr m;
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int) * MAX_SEND_HANDLES)];
        } ctl;
        memset(&m, 0, sizeof(m));
        m.msg_iov = &iov;
        m.msg_iovlen = 1;
        if (pending > 0) {
            memset(&ctl, 0, sizeof(ctl));
            m.msg_control = ctl.buf;
            m.msg_controllen = CMSG_SPACE(sizeof(int) * pending);
            struct cmsghdr *c = CMSG_FIRSTHDR(&m);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int) * pending);
            int fds[MAX_SEND_HANDLES];
            for (uint32_t i = 0; i < pending; i++)
                fds[i] = (int)handles[i];
            memcpy(CMSG_DATA(c), fds, sizeof(int) * pending);
        }
        /* MSG_DONTWAIT: the wait for room is poll's, bounded by the
         * deadline, even on a blocking socket. MSG_NOSIGNAL: a gone peer
         * is EPIPE, never SIGPIPE. */
        ssize_t n = sendmsg((int)fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            p += n;
            left -= (size_t)n;
            pending = 0;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int rc = wait_fd((int)fd, POLLOUT, deadline);
            if (rc != 0)
                return rc;
            continue;
        }
        if (n < 0 && (errno == EPIPE || errno == ECONNRESET || errno == ENOTCONN))
            return PETW_EPIPE;
        return PETW_EIO;
    }
    return 0;
}

/* Takes the descriptors a read brought: into handles[*got] while there is
 * room, closed otherwise. */
static void take_handles(struct msghdr *m, intptr_t *handles, uint32_t room, uint32_t *got)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int f;
            memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (handles && *got < room)
                handles[(*got)++] = f;
            else
                close(f);
        }
    }
}

int petw__ipc_recv(intptr_t fd, void *data, size_t size, intptr_t *handles, uint32_t *count,
                   int timeout_ms)
{
    uint32_t room = handles && count ? *count : 0;
    uint32_t got = 0;
    if (count)
        *count = 0;
    int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
    char *p = data;
    size_t left = size;
    int rc = 0;
    while (left > 0) {
        struct iovec iov = {.iov_base = p, .iov_len = left};
        struct msghdr m;
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int) * MAX_RECV_HANDLES)];
        } ctl;
        memset(&m, 0, sizeof(m));
        m.msg_iov = &iov;
        m.msg_iovlen = 1;
        m.msg_control = ctl.buf;
        m.msg_controllen = sizeof(ctl.buf);
        /* MSG_CMSG_CLOEXEC: received handles are close-on-exec from the
         * start, like every other handle petw opens. */
        ssize_t n = recvmsg((int)fd, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
        if (n > 0)
            take_handles(&m, handles, room, &got);
        if (n > 0 && (m.msg_flags & MSG_CTRUNC)) {
            rc = PETW_EIO; /* handles were dropped: the message is not whole */
            break;
        }
        if (n > 0) {
            p += n;
            left -= (size_t)n;
            continue;
        }
        if (n == 0) {
            rc = PETW_EPIPE;
            break;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            rc = wait_fd((int)fd, POLLIN, deadline);
            if (rc != 0)
                break;
            continue;
        }
        rc = errno == ECONNRESET || errno == ENOTCONN ? PETW_EPIPE : PETW_EIO;
        break;
    }
    if (rc != 0) {
        for (uint32_t i = 0; i < got; i++)
            close((int)handles[i]);
        return rc;
    }
    if (count)
        *count = got;
    return 0;
}

int petw__ipc_poll(const intptr_t *fds, uint32_t count, uint8_t *ready, int timeout_ms)
{
    struct pollfd small[16];
    struct pollfd *pf = small;
    if (count > 16) {
        pf = malloc(sizeof(*pf) * count);
        if (!pf)
            return PETW_ENOMEM;
    }
    for (uint32_t i = 0; i < count; i++) {
        pf[i].fd = (int)fds[i];
        pf[i].events = POLLIN;
        pf[i].revents = 0;
        ready[i] = 0;
    }
    int r = poll(pf, count, timeout_ms);
    int n = 0;
    if (r < 0) {
        n = errno == EINTR ? 0 : PETW_EIO; /* a signal: as a timeout (callers loop) */
    } else {
        for (uint32_t i = 0; i < count; i++) {
            /* Hung up or in error counts as ready: the read says what. */
            if (pf[i].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) {
                ready[i] = 1;
                n++;
            }
        }
    }
    if (pf != small)
        free(pf);
    return n;
}

/* ---- Starting a detached process ---- */

/* This program's argv[0] as it was started (the first string of
 * /proc/self/cmdline), in a new allocation; NULL when unreadable. */
static char *own_program_name(void)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf) - 1)) < 0 && errno == EINTR) {
    }
    close(fd);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    return buf[0] ? strdup(buf) : NULL;
}

/* fork() without the atfork handlers (glibc 2.34+): the children below run
 * nothing but system calls, not even this program's fork handlers. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define spawn_fork _Fork
#else
#define spawn_fork fork
#endif

/* The grandchild: between fork and exec only async-signal-safe calls (the
 * parent may have other threads, whose locks are frozen here). */
static void exec_child(const char *path, char *const argv[], char *const envp[], int keep,
                       int max_fd)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &dfl, NULL); /* an ignored signal would stay ignored across exec */
    int null = open("/dev/null", O_RDWR);
    if (null < 0)
        _exit(127);
    for (int i = 0; i < 3; i++)
        if (null != i && dup2(null, i) < 0)
            _exit(127);
    if (null > 2 && null != keep)
        close(null);
    /* Only stdin/stdout/stderr and `keep` go on: a descriptor the program
     * left inheritable (a test harness's pipe, a terminal) must not live
     * as long as the host does. */
    if (keep >= 0 && fcntl(keep, F_SETFD, 0) != 0)
        _exit(127);
    int closed = 0;
#ifdef SYS_close_range
    if (keep < 0)
        closed = syscall(SYS_close_range, 3u, ~0u, 0u) == 0;
    else
        closed = (keep == 3 || syscall(SYS_close_range, 3u, (unsigned)keep - 1, 0u) == 0) &&
                 syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0;
#endif
    if (!closed)
        for (int f = 3; f < max_fd; f++)
            if (f != keep)
                close(f);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(path, argv, envp);
    _exit(127);
}

int petw__spawn_detached(const char *exe, const char *env, intptr_t keep)
{
    /* Descriptors 0-2 become /dev/null in the new program. */
    if (keep >= 0 && keep <= 2)
        return PETW_EINVAL;
    if (keep > INT_MAX)
        return PETW_EBADHANDLE;
    /* Everything the children need is built here: after fork, no malloc. */
    const char *path = exe ? exe : "/proc/self/exe";
    char *name = NULL;
    if (!exe)
        name = own_program_name();
    char *argv[2] = {exe ? (char *)exe : name ? name : (char *)"petw-host", NULL};
    size_t n_env = 0;
    while (environ && environ[n_env])
        n_env++;
    char **envp = malloc(sizeof(char *) * (n_env + 2));
    if (!envp) {
        free(name);
        return PETW_ENOHOST;
    }
    size_t k = 0;
    size_t env_name = 0; /* length of "NAME=" in env, 0 when none */
    if (env) {
        const char *eq = strchr(env, '=');
        env_name = eq ? (size_t)(eq - env) + 1 : 0;
        envp[k++] = (char *)env;
    }
    for (size_t i = 0; i < n_env; i++)
        if (!env_name || strncmp(environ[i], env, env_name) != 0) /* env replaces NAME */
            envp[k++] = environ[i];
    envp[k] = NULL;
    struct rlimit rl;
    int max_fd =
        getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536
            ? (int)rl.rlim_cur
            : 65536;

    /* No signal handler of this program may run in the children. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = spawn_fork();
    if (pid == 0) {
        /* A session of its own, then a child that is not its leader (so
         * it never reacquires a controlling terminal) and whose parent
         * exits now: the program is reparented away from us. */
        setsid();
        pid_t g = spawn_fork();
        if (g == 0)
            exec_child(path, argv, envp, (int)keep, max_fd);
        _exit(g > 0 ? 0 : 1);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(envp);
    free(name);
    if (pid < 0)
        return PETW_ENOHOST;
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    /* ECHILD: SIGCHLD is ignored (the kernel reaped it) or another thread
     * waited for it; whether the program started is then known only by
     * the caller (through `keep`). */
    if (w < 0)
        return errno == ECHILD ? 0 : PETW_ENOHOST;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : PETW_ENOHOST;
}

int petw__process_alive(uint32_t pid)
{
    /* 0 and negative numbers mean process groups to kill(). */
    if (pid == 0 || pid > (uint32_t)INT_MAX)
        return 0;
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int petw__process_start_time(uint32_t pid, uint64_t *out)
{
    char path[64], buf[1024];
    *out = 0;
    snprintf(path, sizeof(path), "/proc/%" PRIu32 "/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return PETW_ENOTFOUND;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return PETW_ENOTFOUND;
    buf[n] = 0;
    /* Field 22 (starttime); the name (field 2) may hold spaces and ')',
     * so count from its last ')'. */
    char *p = strrchr(buf, ')');
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p)
        return PETW_ENOTFOUND;
    *out = strtoull(p + 1, NULL, 10);
    return 0;
}

void petw__process_name(uint32_t pid, char *out, size_t size)
{
    char path[64];
    if (!size)
        return;
    out[0] = 0;
    snprintf(path, sizeof(path), "/proc/%" PRIu32 "/comm", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    n = n < 0 ? 0 : n;
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == 0))
        n--;
    out[n] = 0;
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
        return map_errno(errno);
    const char *p = data;
    int rc = 0;
    while (size > 0 && rc == 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno != EINTR)
            rc = map_errno(errno);
        else if (w > 0) {
            p += w;
            size -= (size_t)w;
        }
    }
    close(fd);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = map_errno(errno);
    if (rc != 0)
        unlink(tmp);
    return rc;
}

int petw__file_remove(const char *path)
{
    return unlink(path) == 0 || errno == ENOENT ? 0 : map_errno(errno);
}

int petw__file_read_private(const char *path, size_t max, uint8_t **out, size_t *size)
{
    *out = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno == ENOENT ? PETW_ENOTFOUND : map_errno(errno);
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = map_errno(errno);
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
            return map_errno(errno);
        if (!(*p = c))
            return 0;
    }
}

int petw__dir_each(const char *dir, const char *prefix, int (*fn)(const char *name, void *ctx),
                   void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return map_errno(errno);
    size_t plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, prefix, plen) && fn(e->d_name, ctx) != 0)
            break;
    closedir(d);
    return 0;
}

/* ---- After fork ---- */

#define MAX_FORK_CHILD 8
static void (*fork_child_fns[MAX_FORK_CHILD])(void);
static int fork_child_count;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
/* Held across fork() (prepare to parent/child), so the child sees the list
 * whole even when another thread was registering. */
static pthread_mutex_t fork_mu = PTHREAD_MUTEX_INITIALIZER;

static void fork_prepare(void)
{
    pthread_mutex_lock(&fork_mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&fork_mu);
}

static void fork_child(void)
{
    for (int i = 0; i < fork_child_count; i++)
        fork_child_fns[i]();
    pthread_mutex_unlock(&fork_mu);
}

static void fork_register(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Up to MAX_FORK_CHILD distinct callbacks (petw's own modules); more are
 * a programming error and ignored. A callback must not register another. */
void petw__on_fork_child(void (*child)(void))
{
    pthread_once(&fork_once, fork_register);
    pthread_mutex_lock(&fork_mu);
    int present = 0;
    for (int i = 0; i < fork_child_count; i++)
        present |= fork_child_fns[i] == child;
    if (!present && fork_child_count < MAX_FORK_CHILD)
        fork_child_fns[fork_child_count++] = child;
    pthread_mutex_unlock(&fork_mu);
}

typedef struct detached_start {
    void (*fn)(void *);
    void *arg;
} detached_start;

static void *detached_main(void *p)
{
    detached_start s = *(detached_start *)p;
    free(p);
    s.fn(s.arg);
    return NULL;
}

int petw__thread_start_detached(void (*fn)(void *), void *arg)
{
    detached_start *s = malloc(sizeof(*s));
    if (!s)
        return PETW_ENOMEM;
    s->fn = fn;
    s->arg = arg;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    int rc = pthread_create(&t, &attr, detached_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc) {
        free(s);
        return PETW_ENOMEM;
    }
    return 0;
}

void petw__ipc_unlisten(intptr_t listener, const char *path)
{
    if (listener >= 0)
        close((int)listener);
    if (path && path[0])
        unlink(path);
}

void petw__on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    pthread_atfork(prepare, parent, child);
}

intptr_t petw__handle_inherited_value(intptr_t h)
{
    return h;
}

int petw__handle_adopt(intptr_t value, intptr_t *out)
{
    *out = -1;
    if (value < 3 || value > INT_MAX || fcntl((int)value, F_GETFD) == -1)
        return PETW_EBADHANDLE;
    *out = value;
    return 0;
}

/* dl_iterate_phdr lists the program first: is `addr` in one of its
 * loaded segments? */
static int in_first_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    uintptr_t *addr = ctx;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && *addr >= start && *addr - start < ph->p_memsz)
            return 1;
    }
    return 2; /* not there: stop after the first object */
}

int petw__addr_in_program(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    return dl_iterate_phdr(in_first_object, &a) == 1;
}
