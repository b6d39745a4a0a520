/* SPDX-License-Identifier: MIT */
/* report_net.c - `petw report net`: network traffic (TcpIp and UdpIp) per
 * connection endpoint (protocol, local and remote address and port, the
 * process) and per process: send and receive calls and bytes each way,
 * retransmits, and how long a TCP connection was open (its Connect or
 * Accept to its Disconnect, or to the trace's end), most bytes first.
 * IPv6 addresses in their RFC 5952 text, in brackets before a port. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

/* RFC 5952: lower-case hex words without leading zeros, the longest run
 * of two or more zero words (the first, if tied) as "::"; an IPv4-mapped
 * address (::ffff:a.b.c.d) with its IPv4 part dotted. */
static void ipv6_text(const uint8_t *p, char *out, size_t size)
{
    unsigned w[8];
    for (int i = 0; i < 8; i++)
        w[i] = (unsigned)p[2 * i] << 8 | p[2 * i + 1];
    int mapped = !w[0] && !w[1] && !w[2] && !w[3] && !w[4] && w[5] == 0xffff;
    int words = mapped ? 6 : 8, gap = -1, gap_len = 1;
    for (int i = 0; i < words;) {
        int len = 0;
        while (i + len < words && w[i + len] == 0)
            len++;
        if (len > gap_len)
            gap = i, gap_len = len;
        i += len ? len : 1;
    }
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < words && at < size;) {
        if (i == gap) {
            i += gap_len;
            at += (size_t)snprintf(out + at, size - at, "%s", i == words ? "::" : ":");
            continue;
        }
        at += (size_t)snprintf(out + at, size - at, "%s%x", i > 0 ? ":" : "", w[i]);
        i++;
    }
    if (mapped && at < size)
        snprintf(out + at, size - at, ":%u.%u.%u.%u", p[12], p[13], p[14], p[15]);
}

/* "a.b.c.d:port" or "[v6]:port"; a socket the trace gives no address of
 * by its identity. */
static void endpoint(const petw_profile_net_connection *c, int local, char *out, size_t size)
{
    const uint8_t *addr = local ? c->local : c->remote;
    uint16_t port = local ? c->local_port : c->remote_port;
    char text[64];
    if (c->connid) {
        if (local)
            snprintf(out, size, "socket 0x%" PRIx64, c->connid);
        else
            snprintf(out, size, "?");
        return;
    }
    if (c->family == 6) {
        ipv6_text(addr, text, sizeof(text));
        snprintf(out, size, "[%s]:%u", text, port);
    } else {
        snprintf(out, size, "%u.%u.%u.%u:%u", addr[0], addr[1], addr[2], addr[3], port);
    }
}

static uint64_t bytes_of(const petw_profile_net_connection *c)
{
    return c->send_bytes + c->receive_bytes;
}

static int by_bytes(const void *a, const void *b)
{
    const petw_profile_net_connection *x = *(const petw_profile_net_connection *const *)a,
                                      *y = *(const petw_profile_net_connection *const *)b;
    if (bytes_of(x) != bytes_of(y))
        return bytes_of(x) < bytes_of(y) ? 1 : -1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->local_port < y->local_port ? -1 : x->local_port > y->local_port;
}

typedef struct net_process {
    uint32_t pid, connections;
    uint64_t sends, send_bytes, receives, receive_bytes, retransmits;
} net_process;

static int process_by_bytes(const void *a, const void *b)
{
    const net_process *x = a, *y = b;
    uint64_t bx = x->send_bytes + x->receive_bytes, by = y->send_bytes + y->receive_bytes;
    if (bx != by)
        return bx < by ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int connections_table(const petw_profile *p, const view_args *a,
                             const petw_profile_net_connection **rows, uint32_t n)
{
    static const char *const cols[] = {
        "PID",        "Process",  "Proto",          "Local",       "Remote", "Sends",
        "Sent bytes", "Receives", "Received bytes", "Retransmits", "Open ms"};
    table tb;
    if (table_begin(&tb, a->format, a->out, "net: per connection (TcpIp, UdpIp)", cols, 11,
                    0x7E1u) != 0)
        return 1;
    int64_t first, last;
    petw_profile_bounds(p, &first, &last);
    for (uint32_t k = 0; k < n && (!a->top || k < a->top); k++) {
        const petw_profile_net_connection *c = rows[k];
        char pid[16], label[32], local[96], remote[96], s[24], sb[24], r[24], rb[24], rt[24],
            open[32] = "";
        snprintf(pid, sizeof(pid), "%" PRIu32, c->pid);
        endpoint(c, 1, local, sizeof(local));
        endpoint(c, 0, remote, sizeof(remote));
        snprintf(s, sizeof(s), "%" PRIu64, c->sends);
        snprintf(sb, sizeof(sb), "%" PRIu64, c->send_bytes);
        snprintf(r, sizeof(r), "%" PRIu64, c->receives);
        snprintf(rb, sizeof(rb), "%" PRIu64, c->receive_bytes);
        snprintf(rt, sizeof(rt), "%" PRIu64, c->retransmits);
        if (c->opened || c->closed) { /* a TCP connection's time: open to close */
            int64_t from = c->opened ? c->opened : first, to = c->closed ? c->closed : last;
            if (c->closed && c->closed < c->opened)
                to = last; /* closed, then opened again: open at the end */
            snprintf(open, sizeof(open), "%.3f", to > from ? (double)(to - from) / 1e4 : 0.0);
        }
        const char *row[] = {pid,
                             process_label(p, c->pid, label, sizeof(label)),
                             c->protocol == 17 ? "UDP" : "TCP",
                             local,
                             remote,
                             s,
                             sb,
                             r,
                             rb,
                             rt,
                             open};
        table_row(&tb, row);
    }
    table_more(&tb, rows_left(n, a->top), a->top);
    return table_end(&tb) ? 1 : 0;
}

static int processes_table(const petw_profile *p, const view_args *a,
                           const petw_profile_net_connection **rows, uint32_t n)
{
    net_process *procs = calloc(n + 1, sizeof(*procs));
    if (!procs)
        return 1;
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        const petw_profile_net_connection *c = rows[k];
        uint32_t j = 0;
        while (j < m && procs[j].pid != c->pid) /* connections grouped by process: few */
            j++;
        if (j == m)
            procs[m++].pid = c->pid;
        net_process *e = &procs[j];
        e->connections++;
        e->sends += c->sends;
        e->send_bytes += c->send_bytes;
        e->receives += c->receives;
        e->receive_bytes += c->receive_bytes;
        e->retransmits += c->retransmits;
    }
    qsort(procs, m, sizeof(*procs), process_by_bytes);
    static const char *const cols[] = {"PID",        "Process",  "Connections",    "Sends",
                                       "Sent bytes", "Receives", "Received bytes", "Retransmits"};
    table tb;
    if (table_begin(&tb, a->format, a->out, "net: per process", cols, 8, 0xFDu) != 0) {
        free(procs);
        return 1;
    }
    for (uint32_t k = 0; k < m && (!a->top || k < a->top); k++) {
        const net_process *e = &procs[k];
        char pid[16], label[32], cn[16], s[24], sb[24], r[24], rb[24], rt[24];
        snprintf(pid, sizeof(pid), "%" PRIu32, e->pid);
        snprintf(cn, sizeof(cn), "%" PRIu32, e->connections);
        snprintf(s, sizeof(s), "%" PRIu64, e->sends);
        snprintf(sb, sizeof(sb), "%" PRIu64, e->send_bytes);
        snprintf(r, sizeof(r), "%" PRIu64, e->receives);
        snprintf(rb, sizeof(rb), "%" PRIu64, e->receive_bytes);
        snprintf(rt, sizeof(rt), "%" PRIu64, e->retransmits);
        const char *row[] = {pid, process_label(p, e->pid, label, sizeof(label)), cn, s, sb, r, rb,
                             rt};
        table_row(&tb, row);
    }
    table_more(&tb, rows_left(m, a->top), a->top);
    free(procs);
    return table_end(&tb) ? 1 : 0;
}

int report_net(const petw_profile *p, const view_args *a)
{
    uint32_t count = petw_profile_net_count(p), n = 0;
    const petw_profile_net_connection **rows = malloc((count + 1) * sizeof(*rows));
    if (!rows)
        return 1;
    for (uint32_t k = 0; k < count; k++) {
        const petw_profile_net_connection *c = petw_profile_net_at(p, k);
        if (view_wants_pid(p, a, c->pid))
            rows[n++] = c;
    }
    sort_rows(rows, n, sizeof(*rows), by_bytes);
    int rc = connections_table(p, a, rows, n);
    if (!rc)
        rc = processes_table(p, a, rows, n);
    uint64_t skipped = petw_profile_net_skipped(p);
    if (skipped)
        fprintf(stderr,
                "petw: report net: %" PRIu64 " TcpIp/UdpIp records skipped (shorter than "
                "their layout, or another version)\n",
                skipped);
    free(rows);
    return rc;
}
