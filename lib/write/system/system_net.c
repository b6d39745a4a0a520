/* SPDX-License-Identifier: MIT */
/* system_net.c - the OS's socket records (platform/'s NET records) as the
 * TcpIp and UdpIp classes' events (v2, the 64-bit layouts of
 * classes/kernel_class.h): Connect and Accept when a TCP connection is
 * established (actively or passively), Disconnect when it closes, Send
 * and Recv for each send or receive call's bytes, Retransmit for each
 * segment sent again; UdpIp Send and Recv. IPv6 sockets get the IPV6
 * events (the IPv4 opcode + 16).
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 *
 * The payload's PID is the socket's process: the caller of a send or
 * receive; for Connect the process that connected; for Accept the process
 * listening on the port (the state change comes in the kernel's softirq,
 * in whatever thread it interrupted); for Disconnect and Retransmit the
 * connection's. The addresses and ports of a TCP socket come from its
 * state changes (kept per socket until another socket takes its place:
 * bounded, a full table forgets the oldest guess); a socket never seen changing state (opened
 * before the trace) is written with zero addresses and its identity in
 * connid, unless the record has them itself (the BPF program's: UDP's,
 * and TCP's where the kernel lacks the sock_*_length tracepoints); so
 * is a UDP datagram without BPF. */
#include <string.h>

#include "../../base/classes/kernel_class.h"
#include "../../base/platform/platform.h"
#include "system_net.h"

/* Linux's TCP states (include/net/tcp_states.h). */
enum {
    TCP_ESTABLISHED = 1,
    TCP_SYN_SENT = 2,
    TCP_SYN_RECV = 3,
    TCP_CLOSE = 7,
    TCP_LISTEN = 10,
};

static petw__net_socket *socket_slot(petw__system_net *n, uint64_t sk, int insert)
{
    if (!sk)
        return NULL;
    uint64_t h = (sk >> 4) * 0x9E3779B97F4A7C15ull;
    uint32_t at = (uint32_t)(h >> 40);
    for (uint32_t k = 0; k < 32; k++) {
        petw__net_socket *e = &n->sockets[(at + k) & (PETW__NET_SOCKETS - 1)];
        if (e->sk == sk)
            return e;
        if (insert && e->sk == 0) {
            memset(e, 0, sizeof(*e));
            e->sk = sk;
            return e;
        }
    }
    if (!insert)
        return NULL;
    petw__net_socket *e = &n->sockets[at & (PETW__NET_SOCKETS - 1)];
    memset(e, 0, sizeof(*e));
    e->sk = sk;
    return e;
}

static uint32_t *listener_slot(petw__system_net *n, uint16_t family, uint16_t port)
{
    return &n->listeners[((uint32_t)port * 2u + (family == 10)) & (PETW__NET_LISTENERS - 1)];
}

/* The common part of every payload: PID, size, daddr, saddr, dport,
 * sport; returns where the event's own fields start. */
static uint32_t head(uint8_t *p, uint32_t pid, uint32_t size, const petw__sys_net *t, uint32_t a)
{
    petw__wr32(p + PETW__NET_PID, pid);
    petw__wr32(p + PETW__NET_SIZE, size);
    memset(p + PETW__NET_DADDR, 0, 2 * a + 4);
    if (t && t->tuple) {
        memcpy(p + PETW__NET_DADDR, t->daddr, a);
        memcpy(p + PETW__NET_SADDR(a), t->saddr, a);
        /* Ports in network order, as Windows writes them. */
        p[PETW__NET_DPORT(a)] = (uint8_t)(t->dport >> 8);
        p[PETW__NET_DPORT(a) + 1] = (uint8_t)t->dport;
        p[PETW__NET_SPORT(a)] = (uint8_t)(t->sport >> 8);
        p[PETW__NET_SPORT(a) + 1] = (uint8_t)t->sport;
    }
    return PETW__NET_TAIL(a);
}

/* A TCP state change: the socket's addresses and process are kept, a
 * listening port's process too; Connect or Accept when the connection is
 * established (returns its size, as petw__system_net_event); when an
 * established connection closes, *disconnect is set and *pid is its
 * process (the caller writes Disconnect); else returns 0. */
static uint32_t on_state(petw__system_net *n, const petw__sys_record *r, uint8_t *p, uint16_t *hook,
                         uint32_t *pid, int *disconnect)
{
    const petw__sys_net *x = r->net;
    int v6 = x->family == 10;
    uint32_t a = v6 ? 16 : 4;
    if (x->new_state == TCP_LISTEN) {
        *listener_slot(n, x->family, x->sport) = r->pid;
        return 0;
    }
    petw__net_socket *e = socket_slot(n, x->sk, x->new_state != TCP_CLOSE);
    if (!e)
        return 0;
    e->tuple = *x;
    if (x->new_state == TCP_SYN_SENT) {
        e->pid = r->pid; /* connect(): in the caller */
        return 0;
    }
    if (x->new_state == TCP_ESTABLISHED &&
        (x->old_state == TCP_SYN_SENT || x->old_state == TCP_SYN_RECV)) {
        int accept = x->old_state == TCP_SYN_RECV;
        if (accept) {
            uint32_t listener = *listener_slot(n, x->family, x->sport);
            e->pid = listener ? listener : r->pid;
        } else if (!e->pid) {
            e->pid = r->pid;
        }
        e->established = 1;
        *pid = e->pid;
        uint8_t op = accept ? PETW__OP_TCP_ACCEPT : PETW__OP_TCP_CONNECT;
        uint32_t at = head(p, *pid, 0, x, a);
        memset(p + at, 0, 20); /* mss, options, windows, seqnum: not known */
        petw__wr64(p + PETW__NET_G2_CONNID(a), x->sk);
        *hook = PETW__HOOK(PETW__GROUP_TCPIP, op + (v6 ? PETW__OP_NET_IPV6 : 0));
        return PETW__NET_G2_SIZE(a, 8);
    }
    if (x->new_state != TCP_CLOSE)
        return 0;
    /* Kept: the receive calls after the peer's FIN (TIME_WAIT closes
     * the socket) still drain it; a new socket at the same address
     * starts with a state change of its own, which replaces it. */
    int established = e->established;
    uint32_t owner = e->pid;
    e->established = 0;
    if (!established)
        return 0; /* a connection that never was (refused, timed out), or said */
    *pid = owner ? owner : r->pid;
    *disconnect = 1;
    return 0;
}

uint32_t petw__system_net_event(petw__system_net *n, const petw__sys_record *r, uint8_t *p,
                                uint16_t *hook, uint32_t *pid)
{
    const petw__sys_net *x = r->net;
    if (!x)
        return 0;
    int v6 = x->family == 10, tcp = x->protocol == 6;
    uint32_t a = v6 ? 16 : 4;
    uint16_t group = tcp ? PETW__GROUP_TCPIP : PETW__GROUP_UDPIP;
    uint8_t op;
    uint32_t size = 0, at;
    const petw__sys_net *tuple = x->tuple ? x : NULL;
    uint64_t connid = x->sk;
    *pid = r->pid;
    switch (x->op) {
    case PETW__SYS_NET_STATE: {
        int disconnect = 0;
        uint32_t made = tcp ? on_state(n, r, p, hook, pid, &disconnect) : 0;
        if (!disconnect)
            return made;
        op = PETW__OP_TCP_DISCONNECT;
        break;
    }
    case PETW__SYS_NET_SEND:
    case PETW__SYS_NET_RECV: {
        petw__net_socket *e = tcp ? socket_slot(n, x->sk, 0) : NULL;
        tuple = e ? &e->tuple : x->tuple ? x : NULL; /* BPF's records have their own */
        size = x->bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)x->bytes;
        op = x->op == PETW__SYS_NET_SEND ? PETW__OP_NET_SEND : PETW__OP_NET_RECV;
        if (!tcp) {
            at = head(p, *pid, size, tuple, a);
            petw__wr32(p + at, 0); /* seqnum */
            petw__wr64(p + PETW__NET_UDP_CONNID(a), connid);
            *hook = PETW__HOOK(group, op + (v6 ? PETW__OP_NET_IPV6 : 0));
            return PETW__NET_UDP_SIZE(a, 8);
        }
        break;
    }
    case PETW__SYS_NET_RETRANSMIT: {
        if (!tcp)
            return 0;
        petw__net_socket *e = socket_slot(n, x->sk, 0);
        if (e && e->pid)
            *pid = e->pid;
        op = PETW__OP_TCP_RETRANSMIT;
        break;
    }
    default:
        return 0;
    }
    *hook = PETW__HOOK(group, op + (v6 ? PETW__OP_NET_IPV6 : 0));
    at = head(p, *pid, size, tuple, a);
    if (op == PETW__OP_NET_SEND) {
        memset(p + at, 0, 12); /* startime, endtime, seqnum */
        petw__wr64(p + PETW__NET_SEND_CONNID(a), connid);
        return PETW__NET_SEND_SIZE(a, 8);
    }
    petw__wr64(p + PETW__NET_G1_CONNID(a), connid);
    petw__wr32(p + PETW__NET_G1_CONNID(a) + 8, 0); /* seqnum */
    return PETW__NET_G1_SIZE(a, 8);
}
