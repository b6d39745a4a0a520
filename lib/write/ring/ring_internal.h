/* SPDX-License-Identifier: MIT */
/* ring_internal.h - what the ring's own files share beyond ring.h: the
 * free stack's pop and the delivery with a completion time, both ring.c's,
 * which the flusher's side (ring_reader.c's import) uses as a writer would.
 * Only the ring's files include it. */
#ifndef PETW_RING_INTERNAL_H
#define PETW_RING_INTERNAL_H

#include "ring.h"

/* Pops a free buffer (PETW__BUF_NONE: none); the caller owns it then. */
uint32_t petw__ring_free_pop(petw__pool *pool);
/* Delivers a buffer whose last record is no later than `sealed` (0: now;
 * only a buffering ring keeps the time, for its overwrite horizon). */
void petw__ring_deliver_sealed(petw__ring *ring, petw__pool *pool, uint32_t buffer, int64_t sealed);

#endif
