/* SPDX-License-Identifier: MIT */
/* platform_ipc_linux.c - Linux implementation of platform.h's IPC: Unix
 * stream sockets that check the peer's uid and carry descriptors, the
 * socket a detached process inherits, and waiting on several of them. */
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

/* The most handles one message carries (platform.h). */
#define MAX_SEND_HANDLES 4
/* Room for handles arriving with one read: more than a petw sender ever
 * attaches, so a peer sending too many is seen (MSG_CTRUNC). */
#define MAX_RECV_HANDLES 16

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
        rc = errno == EADDRINUSE ? PETW_EEXIST : petw__linux_error(errno);
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

void petw__ipc_unlisten(intptr_t listener, const char *path)
{
    if (listener >= 0)
        close((int)listener);
    if (path && path[0])
        unlink(path);
}

/* ---- The socket a detached process inherits ---- */

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
