/* SPDX-License-Identifier: MIT */
/* profile_net.c - TcpIp and UdpIp events (v2: Windows' and petw's) as the
 * model's network table: one row per connection endpoint of a process
 * (protocol, local and remote address and port), with its sends and
 * receives (calls and bytes), retransmits, connects, accepts and
 * disconnects, and when it opened and closed. Rows grow with connections,
 * never with events.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 *
 * Read at the fixed offsets of classes/kernel_class.h, in 32- and 64-bit
 * layouts; a record shorter than its event's layout, or of another
 * version, is skipped and counted (petw_profile_net_skipped). A socket
 * whose addresses the event leaves zero (petw's UDP, a TCP socket opened
 * before the trace) is its own row by connid.
 */
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"

static int same(const petw_profile_net_connection *c, const petw_profile_net_op *o, uint64_t connid)
{
    return c->pid == o->pid && c->protocol == o->protocol && c->family == o->family &&
           c->local_port == o->local_port && c->remote_port == o->remote_port &&
           c->connid == connid && !memcmp(c->local, o->local, 16) &&
           !memcmp(c->remote, o->remote, 16);
}

/* The row of `o`'s connection, added when new; UINT32_MAX on ENOMEM. */
static uint32_t connection(petw_profile *p, const petw_profile_net_op *o)
{
    static const uint8_t zero[16];
    int known = memcmp(o->local, zero, 16) || memcmp(o->remote, zero, 16) || o->local_port ||
                o->remote_port;
    uint64_t connid = known ? 0 : o->connid;
    uint8_t key[48];
    memset(key, 0, sizeof(key));
    petw__wr32(key, o->pid);
    key[4] = o->protocol;
    key[5] = o->family;
    petw__wr16(key + 6, o->local_port);
    petw__wr16(key + 8, o->remote_port);
    petw__wr64(key + 10, connid);
    memcpy(key + 18, o->local, 16);
    /* The remote address folded in by the hash below. */
    uint64_t h = petw__profile_hash_bytes(
        petw__profile_hash_bytes(14695981039346656037ull, key, 34), o->remote, 16);
    for (uint32_t probe = 0; probe < 64; probe++, h++) {
        uint32_t k = petw__map_get(&p->net_by_key, h);
        if (k == PETW__MAP_NONE)
            break;
        if (same(&p->nets[k], o, connid))
            return k;
    }
    if (petw__grow((void **)&p->nets, &p->net_cap, p->net_count + 1, sizeof(*p->nets)) ||
        petw__map_put(&p->net_by_key, h, p->net_count)) {
        p->error = PETW_ENOMEM;
        return UINT32_MAX;
    }
    petw_profile_net_connection *c = &p->nets[p->net_count];
    memset(c, 0, sizeof(*c));
    c->pid = o->pid;
    c->protocol = o->protocol;
    c->family = o->family;
    memcpy(c->local, o->local, 16);
    memcpy(c->remote, o->remote, 16);
    c->local_port = o->local_port;
    c->remote_port = o->remote_port;
    c->connid = connid;
    c->first = o->time;
    return p->net_count++;
}

/* The event BASE (its IPv4 opcode) of TcpIp (or UdpIp when UDP): the
 * model's op, the size its layout needs and where its connid is, with
 * addresses of A bytes and pointers of PS. Returns 0, or -1 for an event
 * that is no traffic of a connection. */
static int layout(int udp, int base, uint32_t a, uint32_t ps, uint8_t *op, uint32_t *need,
                  uint32_t *connid_at)
{
    if (udp) {
        if (base != PETW__OP_NET_SEND && base != PETW__OP_NET_RECV)
            return -1; /* Fail: no connection */
        *op = base == PETW__OP_NET_SEND ? PETW_PROFILE_NET_SEND : PETW_PROFILE_NET_RECV;
        *need = PETW__NET_UDP_SIZE(a, ps);
        *connid_at = PETW__NET_UDP_CONNID(a);
        return 0;
    }
    switch (base) {
    case PETW__OP_NET_SEND:
        *op = PETW_PROFILE_NET_SEND;
        *need = PETW__NET_SEND_SIZE(a, ps);
        *connid_at = PETW__NET_SEND_CONNID(a);
        return 0;
    case PETW__OP_TCP_CONNECT:
    case PETW__OP_TCP_ACCEPT:
        *op = base == PETW__OP_TCP_CONNECT ? PETW_PROFILE_NET_CONNECT : PETW_PROFILE_NET_ACCEPT;
        *need = PETW__NET_G2_SIZE(a, ps);
        *connid_at = PETW__NET_G2_CONNID(a);
        return 0;
    case PETW__OP_NET_RECV:
    case PETW__OP_TCP_DISCONNECT:
    case PETW__OP_TCP_RETRANSMIT:
    case PETW__OP_TCP_RECONNECT:
        *op = base == PETW__OP_NET_RECV         ? PETW_PROFILE_NET_RECV
              : base == PETW__OP_TCP_DISCONNECT ? PETW_PROFILE_NET_DISCONNECT
              : base == PETW__OP_TCP_RETRANSMIT ? PETW_PROFILE_NET_RETRANSMIT
                                                : PETW_PROFILE_NET_RECONNECT;
        *need = PETW__NET_G1_SIZE(a, ps);
        *connid_at = PETW__NET_G1_CONNID(a);
        return 0;
    default:
        return -1; /* Fail, TCPCopy: no traffic of a connection */
    }
}

/* Counts `o` in its connection's row. */
static void tally(petw_profile_net_connection *c, const petw_profile_net_op *o)
{
    c->last = o->time;
    switch (o->op) {
    case PETW_PROFILE_NET_SEND:
        c->sends++;
        c->send_bytes += o->bytes;
        break;
    case PETW_PROFILE_NET_RECV:
        c->receives++;
        c->receive_bytes += o->bytes;
        break;
    case PETW_PROFILE_NET_CONNECT:
    case PETW_PROFILE_NET_RECONNECT:
        c->connects++;
        c->opened = o->time;
        break;
    case PETW_PROFILE_NET_ACCEPT:
        c->accepts++;
        c->opened = o->time;
        break;
    case PETW_PROFILE_NET_DISCONNECT:
        c->disconnects++;
        c->closed = o->time;
        break;
    case PETW_PROFILE_NET_RETRANSMIT:
        c->retransmits++;
        break;
    default:
        break;
    }
}

void petw__profile_on_net(petw_profile *p, const petw_event_record *r, int udp, int ptr4)
{
    const uint8_t *d = r->user_data;
    uint32_t n = r->user_data_length, ps = ptr4 ? 4 : 8;
    int opcode = r->header.descriptor.opcode;
    int v6 = opcode >= PETW__OP_NET_SEND + PETW__OP_NET_IPV6;
    int base = v6 ? opcode - PETW__OP_NET_IPV6 : opcode;
    uint32_t a = v6 ? 16 : 4, need, connid_at;
    uint8_t op;
    if (layout(udp, base, a, ps, &op, &need, &connid_at) != 0)
        return;
    if (r->header.descriptor.version != PETW__VERSION_NET || n < need || !d) {
        p->net_skipped++;
        return;
    }
    petw_profile_net_op o;
    memset(&o, 0, sizeof(o));
    o.time = r->header.timestamp;
    o.pid = petw__rd32(d + PETW__NET_PID);
    o.tid = r->header.thread_id;
    o.op = op;
    o.protocol = udp ? 17 : 6;
    o.family = v6 ? 6 : 4;
    o.bytes = petw__rd32(d + PETW__NET_SIZE);
    memcpy(o.remote, d + PETW__NET_DADDR, a);
    memcpy(o.local, d + PETW__NET_SADDR(a), a);
    o.remote_port = (uint16_t)(d[PETW__NET_DPORT(a)] << 8 | d[PETW__NET_DPORT(a) + 1]);
    o.local_port = (uint16_t)(d[PETW__NET_SPORT(a)] << 8 | d[PETW__NET_SPORT(a) + 1]);
    o.connid = ptr4 ? petw__rd32(d + connid_at) : petw__rd64(d + connid_at);
    if (p->hooks->net)
        p->hooks->net(p->c.hooks_context, &o);
    if (!petw__profile_pid_wanted(p, o.pid) || !petw__profile_in_time(p, o.time))
        return;
    uint32_t k = connection(p, &o);
    if (k == UINT32_MAX)
        return;
    tally(&p->nets[k], &o);
}

uint32_t petw_profile_net_count(const petw_profile *p)
{
    return p->net_count;
}

const petw_profile_net_connection *petw_profile_net_at(const petw_profile *p, uint32_t index)
{
    return index < p->net_count ? &p->nets[index] : NULL;
}

uint64_t petw_profile_net_skipped(const petw_profile *p)
{
    return p->net_skipped;
}
