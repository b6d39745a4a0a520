/* SPDX-License-Identifier: MIT */
/* bufqueue.h - a bounded queue of buffer copies between one producer (the
 * flusher) and one consumer (a real-time ProcessTrace). The producer never
 * waits: when the queue is full the buffer is refused and the caller counts
 * it lost. Reference-counted: the session and the consumer each hold one. */
#ifndef PETW_BUFQUEUE_H
#define PETW_BUFQUEUE_H

#include <stdint.h>

typedef struct petw__bufqueue petw__bufqueue;

/* A queue of `slots` buffers of up to `buffer_size` bytes, refcount 1. */
petw__bufqueue *petw__bufqueue_new(uint32_t slots, uint32_t buffer_size);
void petw__bufqueue_ref(petw__bufqueue *q);
void petw__bufqueue_unref(petw__bufqueue *q);

/* Copies a buffer in; returns 0, or -1 when full or ended (not queued). */
int petw__bufqueue_push(petw__bufqueue *q, const void *data, uint32_t size);
/* No more buffers will come: wakes the consumer. */
void petw__bufqueue_end(petw__bufqueue *q);
/* 1 once ended. */
int petw__bufqueue_ended(petw__bufqueue *q);
/* Waits up to timeout_ms for a buffer and copies it to `out` (buffer_size
 * bytes). Returns its size, 0 on timeout, -1 when ended and empty. */
int petw__bufqueue_pop(petw__bufqueue *q, void *out, uint32_t timeout_ms);
uint32_t petw__bufqueue_buffer_size(const petw__bufqueue *q);
/* 1 while somebody besides the caller holds a reference. */
int petw__bufqueue_shared(petw__bufqueue *q);

#endif
