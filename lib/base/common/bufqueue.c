/* SPDX-License-Identifier: MIT */
/* bufqueue.c - see bufqueue.h. A mutex and a condition variable: neither
 * side is on the EventWrite path, and the producer holds the lock only for
 * one copy. */
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "bufqueue.h"

struct petw__bufqueue {
    uv_mutex_t lock;
    uv_cond_t nonempty;
    uint32_t slots, buffer_size;
    uint32_t head, count; /* guarded by lock */
    /* Guarded by lock: of the `count` buffers from head, the first `sent`
     * were taken by petw__bufqueue_pop_keep and wait for their ack. */
    uint32_t sent;
    uint32_t done; /* guarded by lock: buffers the consumer finished */
    uint32_t held; /* guarded by lock: finished, their ack deferred */
    int ended;
    int refs;
    uint32_t *sizes;
    uint8_t *data;
};

petw__bufqueue *petw__bufqueue_new(uint32_t slots, uint32_t buffer_size)
{
    petw__bufqueue *q = calloc(1, sizeof(*q));
    if (!q)
        return NULL;
    q->slots = slots ? slots : 1;
    q->buffer_size = buffer_size;
    q->refs = 1;
    q->sizes = calloc(q->slots, sizeof(uint32_t));
    q->data = malloc((size_t)q->slots * buffer_size);
    if (!q->sizes || !q->data || uv_mutex_init(&q->lock) != 0) {
        free(q->sizes);
        free(q->data);
        free(q);
        return NULL;
    }
    if (uv_cond_init(&q->nonempty) != 0) {
        uv_mutex_destroy(&q->lock);
        free(q->sizes);
        free(q->data);
        free(q);
        return NULL;
    }
    return q;
}

void petw__bufqueue_ref(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    q->refs++;
    uv_mutex_unlock(&q->lock);
}

void petw__bufqueue_unref(petw__bufqueue *q)
{
    if (!q)
        return;
    uv_mutex_lock(&q->lock);
    int last = --q->refs == 0;
    uv_mutex_unlock(&q->lock);
    if (!last)
        return;
    uv_cond_destroy(&q->nonempty);
    uv_mutex_destroy(&q->lock);
    free(q->sizes);
    free(q->data);
    free(q);
}

int petw__bufqueue_push(petw__bufqueue *q, const void *data, uint32_t size)
{
    int rc = -1;
    if (size > q->buffer_size)
        return -1;
    uv_mutex_lock(&q->lock);
    if (!q->ended && q->count < q->slots) {
        uint32_t slot = (q->head + q->count) % q->slots;
        memcpy(q->data + (size_t)slot * q->buffer_size, data, size);
        q->sizes[slot] = size;
        q->count++;
        uv_cond_signal(&q->nonempty);
        rc = 0;
    }
    uv_mutex_unlock(&q->lock);
    return rc;
}

void petw__bufqueue_end(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    q->ended = 1;
    uv_cond_broadcast(&q->nonempty);
    uv_mutex_unlock(&q->lock);
}

int petw__bufqueue_ended(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    int e = q->ended;
    uv_mutex_unlock(&q->lock);
    return e;
}

int petw__bufqueue_pop(petw__bufqueue *q, void *out, uint32_t timeout_ms)
{
    int rc;
    uv_mutex_lock(&q->lock);
    if (q->count == 0 && !q->ended)
        uv_cond_timedwait(&q->nonempty, &q->lock, (uint64_t)timeout_ms * 1000000u);
    if (q->count > 0) {
        uint32_t slot = q->head;
        memcpy(out, q->data + (size_t)slot * q->buffer_size, q->sizes[slot]);
        rc = (int)q->sizes[slot];
        q->head = (q->head + 1) % q->slots;
        q->count--;
    } else {
        rc = q->ended ? -1 : 0;
    }
    uv_mutex_unlock(&q->lock);
    return rc;
}

int petw__bufqueue_pop_keep(petw__bufqueue *q, void *out, uint32_t timeout_ms)
{
    int rc;
    uv_mutex_lock(&q->lock);
    if (q->count == q->sent && !q->ended)
        uv_cond_timedwait(&q->nonempty, &q->lock, (uint64_t)timeout_ms * 1000000u);
    if (q->count > q->sent) {
        uint32_t slot = (q->head + q->sent) % q->slots;
        memcpy(out, q->data + (size_t)slot * q->buffer_size, q->sizes[slot]);
        rc = (int)q->sizes[slot];
        q->sent++;
    } else {
        rc = q->ended ? -1 : 0;
    }
    uv_mutex_unlock(&q->lock);
    return rc;
}

void petw__bufqueue_ack(petw__bufqueue *q, uint32_t n)
{
    uv_mutex_lock(&q->lock);
    if (n > q->sent)
        n = q->sent;
    q->head = (q->head + n) % q->slots;
    q->count -= n;
    q->sent -= n;
    uv_mutex_unlock(&q->lock);
}

uint32_t petw__bufqueue_rewind(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    uint32_t n = q->sent;
    q->sent = 0;
    uv_mutex_unlock(&q->lock);
    return n;
}

uint32_t petw__bufqueue_count(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    uint32_t n = q->count;
    uv_mutex_unlock(&q->lock);
    return n;
}

void petw__bufqueue_done(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    q->done++;
    uv_mutex_unlock(&q->lock);
}

uint32_t petw__bufqueue_take_done(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    uint32_t n = q->done;
    q->done = 0;
    uv_mutex_unlock(&q->lock);
    return n;
}

void petw__bufqueue_hold(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    q->held++;
    uv_mutex_unlock(&q->lock);
}

void petw__bufqueue_release(petw__bufqueue *q, uint32_t n)
{
    uv_mutex_lock(&q->lock);
    if (n > q->held)
        n = q->held;
    q->held -= n;
    q->done += n;
    uv_mutex_unlock(&q->lock);
}

uint32_t petw__bufqueue_held(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    uint32_t n = q->held;
    uv_mutex_unlock(&q->lock);
    return n;
}

uint32_t petw__bufqueue_buffer_size(const petw__bufqueue *q)
{
    return q->buffer_size;
}

int petw__bufqueue_shared(petw__bufqueue *q)
{
    uv_mutex_lock(&q->lock);
    int shared = q->refs > 1;
    uv_mutex_unlock(&q->lock);
    return shared;
}
