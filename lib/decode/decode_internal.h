/* decode_internal.h - the decoder's work counters, for tests.
 *
 * Allowed dependencies: common/, platform/, xxHash, expat.
 */
#ifndef PETW_DECODE_INTERNAL_H
#define PETW_DECODE_INTERNAL_H

#include <stdint.h>

#include "petw/decode.h"

/* What a decoder has done since petw_decoder_new (totals, never reset). */
typedef struct petw__decoder_counters {
    uint64_t work;          /* schema-entry visits plus field slots reserved */
    uint64_t schema_parses; /* schemas parsed (cache misses) */
    uint64_t cache_hits;    /* events whose schema was already parsed */
    uint64_t evictions;     /* cached schemas dropped to make room */
} petw__decoder_counters;

void petw__decoder_counters_get(const petw_decoder *decoder, petw__decoder_counters *out);

#endif
