/* SPDX-License-Identifier: MIT */
/* host_state.h - what the session host's files share: its state (host.c
 * runs it) and the import of providers' buffers (host_import.c).
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/,
 * session/, consume/, registry/, agent/.
 */
#ifndef PETW_HOST_STATE_H
#define PETW_HOST_STATE_H

#include <stdatomic.h>

#include "../../base/common/bufqueue.h"
#include "../../base/registry/registry.h"
#include "../../write/ring/ring.h"
#include "petw/session_types.h"

#define MAX_REMOTES 256
#define HELLO_TIMEOUT_MS 2000
#define STOP_WAIT_MS 5000
#define CONSUMER_WAIT_MS 10000
/* The most memory one provider process's pool takes (see pool_buffers). */
#define POOL_BYTES_MAX (64ull << 20)

typedef struct remote {
    int used;
    intptr_t sock, wake;
    uint32_t pid;
    petw__shm shm;
    petw__pool_geometry g;
    uint32_t lost_seen;
    uint64_t overwritten_seen;
    uint32_t *pending; /* taken from the ready stack, not yet imported */
    uint32_t npending;
    uint8_t *is_pending; /* per buffer: in `pending` (a hostile pool may name one twice) */
    uint32_t *want;      /* per buffer: the use a flush waits to see delivered (0: none) */
} remote;

typedef struct host {
    petw_session_handle session;
    petw__ring *ring;
    petw__registry *reg;
    intptr_t reg_fd;
    uint32_t slot, gen;
    intptr_t listener;
    char sock_path[PETW_MAX_NAME + 32];
    uint32_t flush_timer_ms;
    uint32_t buffer_size, pool_buffers, clock, policy, block_timeout_ms;
    remote remotes[MAX_REMOTES];
    uint8_t *scratch;
    int stopping;
    /* Real-time consumer threads still running (consumer_main), and the
     * futex word wait_consumers sleeps on. */
    _Atomic uint32_t consumers;
    /* The queue of a consumer that went away without acking all it was
     * sent, still fed by the flusher, rewound: the next consumer of the
     * session takes it over (NULL: none). */
    _Atomic(petw__bufqueue *) parked;
} host;

/* host_import.c: importing the providers' buffers into the session. */
/* Imports what is ready; what does not fit waits in r->pending. */
void petw__host_harvest(host *h, remote *r);
/* Closes every CPU's buffer of the pool (the flush timer, a flush);
 * imports those the host itself completed. */
void petw__host_close_remote(host *h, remote *r);
/* The provider is gone (or said it detached): everything it committed is
 * imported, everything it had reserved and not committed is counted lost. */
void petw__host_drain_gone(host *h, remote *r);
void petw__host_harvest_all(host *h);
/* A flush: close every CPU's buffer everywhere, wait until the writers
 * delivered every buffer that held an event reserved before the close
 * (also those a writer completed earlier and had not delivered yet: a
 * writer preempted between its reservation and its commit, or before its
 * delivery), import everything. Without that wait a snapshot could lack
 * such a buffer while holding newer ones, a hole in its run of events. The
 * writers are other processes, so the wait is bounded (200 ms, as the
 * in-process snapshot's wait for sealed buffers); it ends as soon as the
 * last one arrives. */
void petw__host_flush_remotes(host *h);

#endif
