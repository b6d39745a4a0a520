/* SPDX-License-Identifier: MIT */
/* consume_internal.h - what the session module tells the consumer module:
 * a live trace reads buffers from a queue instead of a file. */
#ifndef PETW_CONSUME_INTERNAL_H
#define PETW_CONSUME_INTERNAL_H

#include "../../base/common/bufqueue.h"
#include "petw/consume.h"

/* A trace whose header buffer is `header` and whose data buffers arrive on
 * `queue` (the trace takes a reference). */
int petw__trace_open_live(const uint8_t *header, uint32_t size, petw__bufqueue *queue,
                          const petw_trace_config *config, petw_trace **out);
/* `fn(arg)` runs once when petw_trace_close closes live trace `t`, after
 * the trace let go of its queue: the source's chance to tell its producer
 * and wait (bounded) until it took back what was not acknowledged. */
void petw__trace_on_live_close(petw_trace *t, void (*fn)(void *), void *arg);

#endif
