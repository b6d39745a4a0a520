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
/* As pop, but the buffer stays queued (it still counts against the
 * slots) until petw__bufqueue_ack: a consumer that can go away before it
 * has kept what it was sent (a process that is killed) takes its buffers
 * this way, and the next consumer gets them again. Never mix with pop on
 * one queue. */
int petw__bufqueue_pop_keep(petw__bufqueue *q, void *out, uint32_t timeout_ms);
/* The consumer kept the oldest `n` buffers taken with pop_keep: they go. */
void petw__bufqueue_ack(petw__bufqueue *q, uint32_t n);
/* The consumer went: every buffer taken with pop_keep and not acked is
 * taken again, first, by the next pop_keep. Returns how many. */
uint32_t petw__bufqueue_rewind(petw__bufqueue *q);
/* The buffers queued (taken with pop_keep and not acked included). */
uint32_t petw__bufqueue_count(petw__bufqueue *q);
/* The consumer finished one buffer it popped (its callback returned). */
void petw__bufqueue_done(petw__bufqueue *q);
/* How many buffers were finished since the last call. */
uint32_t petw__bufqueue_take_done(petw__bufqueue *q);
/* The consumer finished one buffer it popped but keeps its ack for later
 * (petw_trace_defer_acks): it is held, not done, until
 * petw__bufqueue_release. */
void petw__bufqueue_hold(petw__bufqueue *q);
/* The oldest `n` held buffers are done (at most those held). */
void petw__bufqueue_release(petw__bufqueue *q, uint32_t n);
/* The buffers held now. */
uint32_t petw__bufqueue_held(petw__bufqueue *q);
uint32_t petw__bufqueue_buffer_size(const petw__bufqueue *q);
/* 1 while somebody besides the caller holds a reference. */
int petw__bufqueue_shared(petw__bufqueue *q);

#endif
