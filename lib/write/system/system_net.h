/* SPDX-License-Identifier: MIT */
/* system_net.h - the OS's socket records as TcpIp and UdpIp events
 * (system_net.c): the state kept per socket and the one call system.c
 * makes for each NET record.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#ifndef PETW_SYSTEM_NET_H
#define PETW_SYSTEM_NET_H

#include "../../base/platform/platform.h"

#define PETW__NET_SOCKETS 16384u  /* TCP sockets whose addresses are kept (a power of 2) */
#define PETW__NET_LISTENERS 1024u /* listening ports, for Accept's process */

typedef struct petw__net_socket {
    uint64_t sk; /* 0: empty */
    uint32_t pid;
    int established;
    petw__sys_net tuple; /* its addresses and ports (tuple set) */
} petw__net_socket;

typedef struct petw__system_net {
    petw__net_socket sockets[PETW__NET_SOCKETS];
    uint32_t listeners[PETW__NET_LISTENERS]; /* by port and family: the listening process */
} petw__system_net;

/* The TcpIp or UdpIp event for NET record `r`, if it makes one: its
 * payload into `p` (at least 128 bytes), its HookId into *hook and its
 * process into *pid; returns the payload's size, 0 when the record makes
 * no event (a state change other than connect, accept and close;
 * another protocol). */
uint32_t petw__system_net_event(petw__system_net *n, const petw__sys_record *r, uint8_t *p,
                                uint16_t *hook, uint32_t *pid);

#endif /* PETW_SYSTEM_NET_H */
