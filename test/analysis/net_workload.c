/* SPDX-License-Identifier: MIT */
/* net_workload.c - known bytes each way over loopback, for the network
 * recording's tests: a server process and a client process (a fork of
 * it) exchange, over TCP on IPv4 (127.0.0.1) and IPv6 (::1), then over UDP
 * on both:
 *   tcp4: the client sends 100 x 1000 bytes, the server answers 50 x 700;
 *   tcp6: the client sends 30 x 3000 bytes, the server answers 20 x 1500;
 *   udp4: the client sends 20 datagrams of 700 bytes, the server 10 of 300;
 *   udp6: the client sends 15 datagrams of 900 bytes, the server 5 of 400.
 * Each process prints one line per socket with what its own calls moved:
 *   net PID PROTO LOCAL_PORT REMOTE_PORT SENT_BYTES SENDS RECEIVED_BYTES RECEIVES
 * (REMOTE_PORT 0 for UDP sockets, which are not connected). Where the
 * machine has no IPv6 loopback (::1 cannot be bound: IPv6 disabled, as in
 * some containers), it says "no ipv6: WHY" first and exchanges over IPv4
 * alone. Exits 0, or 1 with a message when a call fails. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct counts {
    long sent, sends, received, receives;
} counts;

static void die(const char *what)
{
    perror(what);
    exit(1);
}

static socklen_t loopback(int family, uint16_t port, struct sockaddr_storage *a)
{
    memset(a, 0, sizeof(*a));
    if (family == AF_INET) {
        struct sockaddr_in *v4 = (struct sockaddr_in *)a;
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return sizeof(*v4);
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)a;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    v6->sin6_addr = in6addr_loopback;
    return sizeof(*v6);
}

static uint16_t port_of(int fd, int peer)
{
    struct sockaddr_storage a;
    socklen_t n = sizeof(a);
    if ((peer ? getpeername(fd, (struct sockaddr *)&a, &n)
              : getsockname(fd, (struct sockaddr *)&a, &n)) != 0)
        die("getsockname");
    return ntohs(a.ss_family == AF_INET ? ((struct sockaddr_in *)&a)->sin_port
                                        : ((struct sockaddr_in6 *)&a)->sin6_port);
}

static int bound(int family, int type)
{
    int fd = socket(family, type, 0);
    if (fd < 0)
        die(family == AF_INET6 ? "no ipv6" : "socket");
    struct sockaddr_storage a;
    socklen_t n = loopback(family, 0, &a);
    if (bind(fd, (struct sockaddr *)&a, n) != 0)
        die(family == AF_INET6 ? "no ipv6" : "bind");
    return fd;
}

static void report(const char *proto, uint16_t local, uint16_t remote, const counts *c)
{
    printf("net %d %s %u %u %ld %ld %ld %ld\n", (int)getpid(), proto, local, remote, c->sent,
           c->sends, c->received, c->receives);
    fflush(stdout);
}

static void send_all(int fd, int chunks, int size, counts *c)
{
    char buf[4096];
    memset(buf, 'x', sizeof(buf));
    for (int k = 0; k < chunks; k++) {
        ssize_t n = send(fd, buf, (size_t)size, 0);
        if (n != size)
            die("send");
        c->sent += n;
        c->sends++;
    }
}

static void recv_to_eof(int fd, counts *c)
{
    char buf[4096];
    for (;;) {
        ssize_t n = recv(fd, buf, sizeof(buf), 0);
        if (n < 0)
            die("recv");
        if (n == 0)
            return;
        c->received += n;
        c->receives++;
    }
}

static void udp_send(int fd, const struct sockaddr_storage *to, socklen_t n, int count, int size,
                     counts *c)
{
    char buf[4096];
    memset(buf, 'u', sizeof(buf));
    for (int k = 0; k < count; k++) {
        if (sendto(fd, buf, (size_t)size, 0, (const struct sockaddr *)to, n) != size)
            die("sendto");
        c->sent += size;
        c->sends++;
    }
}

static void udp_recv(int fd, int count, struct sockaddr_storage *from, socklen_t *n, counts *c)
{
    char buf[4096];
    for (int k = 0; k < count; k++) {
        *n = sizeof(*from);
        ssize_t got = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)from, n);
        if (got < 0)
            die("recvfrom");
        c->received += got;
        c->receives++;
    }
}

typedef struct plan {
    const char *tcp, *udp;
    int family;
    int up_chunks, up_size, down_chunks, down_size;   /* TCP */
    int udp_up, udp_up_size, udp_down, udp_down_size; /* UDP */
} plan;

static const plan plans[2] = {
    {"tcp4", "udp4", AF_INET, 100, 1000, 50, 700, 20, 700, 10, 300},
    {"tcp6", "udp6", AF_INET6, 30, 3000, 20, 1500, 15, 900, 5, 400},
};

/* Whether ::1 can be bound; says why not. */
static int have_ipv6(void)
{
    struct sockaddr_storage a;
    socklen_t n = loopback(AF_INET6, 0, &a);
    int fd = socket(AF_INET6, SOCK_DGRAM, 0);
    int ok = fd >= 0 && bind(fd, (struct sockaddr *)&a, n) == 0;
    if (!ok)
        printf("no ipv6: %s\n", strerror(errno));
    if (fd >= 0)
        close(fd);
    fflush(stdout);
    return ok;
}

int main(void)
{
    int listeners[2], udp_servers[2];
    int nplans = have_ipv6() ? 2 : 1;
    for (int k = 0; k < nplans; k++) {
        listeners[k] = bound(plans[k].family, SOCK_STREAM);
        if (listen(listeners[k], 4) != 0)
            die("listen");
        udp_servers[k] = bound(plans[k].family, SOCK_DGRAM);
    }
    pid_t child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) { /* the client */
        for (int k = 0; k < nplans; k++) {
            const plan *p = &plans[k];
            counts c = {0};
            int fd = socket(p->family, SOCK_STREAM, 0);
            struct sockaddr_storage a;
            socklen_t n = loopback(p->family, port_of(listeners[k], 0), &a);
            if (fd < 0 || connect(fd, (struct sockaddr *)&a, n) != 0)
                die("connect");
            uint16_t local = port_of(fd, 0), remote = port_of(fd, 1);
            send_all(fd, p->up_chunks, p->up_size, &c);
            shutdown(fd, SHUT_WR);
            recv_to_eof(fd, &c);
            report(p->tcp, local, remote, &c);
            close(fd);
        }
        for (int k = 0; k < nplans; k++) {
            const plan *p = &plans[k];
            counts c = {0};
            int fd = bound(p->family, SOCK_DGRAM);
            struct sockaddr_storage to, from;
            socklen_t n = loopback(p->family, port_of(udp_servers[k], 0), &to), fn;
            udp_send(fd, &to, n, p->udp_up, p->udp_up_size, &c);
            udp_recv(fd, p->udp_down, &from, &fn, &c);
            report(p->udp, port_of(fd, 0), 0, &c);
            close(fd);
        }
        _exit(0);
    }
    for (int k = 0; k < nplans; k++) { /* the server */
        const plan *p = &plans[k];
        counts c = {0};
        int fd = accept(listeners[k], NULL, NULL);
        if (fd < 0)
            die("accept");
        uint16_t local = port_of(fd, 0), remote = port_of(fd, 1);
        recv_to_eof(fd, &c);
        send_all(fd, p->down_chunks, p->down_size, &c);
        report(p->tcp, local, remote, &c);
        close(fd);
    }
    for (int k = 0; k < nplans; k++) {
        const plan *p = &plans[k];
        counts c = {0};
        struct sockaddr_storage from;
        socklen_t fn;
        udp_recv(udp_servers[k], p->udp_up, &from, &fn, &c);
        udp_send(udp_servers[k], &from, fn, p->udp_down, p->udp_down_size, &c);
        report(p->udp, port_of(udp_servers[k], 0), 0, &c);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 1;
    return 0;
}
