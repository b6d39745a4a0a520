/* decode_internal.h - the decoder's work counters (for tests) and its
 * manifests (for TDH).
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#ifndef PETW_DECODE_INTERNAL_H
#define PETW_DECODE_INTERNAL_H

#include <stdint.h>

#include "manifest.h"
#include "petw/decode.h"

/* What a decoder has done since petw_decoder_new (totals, never reset). */
typedef struct petw__decoder_counters {
    uint64_t work;          /* schema-entry visits plus field slots reserved */
    uint64_t schema_parses; /* schemas parsed (cache misses) */
    uint64_t cache_hits;    /* events whose schema was already parsed */
    uint64_t evictions;     /* cached schemas dropped to make room */
} petw__decoder_counters;

void petw__decoder_counters_get(const petw_decoder *decoder, petw__decoder_counters *out);

/* The manifests added to `decoder` (petw_decoder_add_manifest*), in the
 * order added, for the TDH functions that describe manifests without an
 * event. Valid until the decoder is freed. */
uint32_t petw__decoder_manifest_count(const petw_decoder *decoder);
const petw__manifest *petw__decoder_manifest(const petw_decoder *decoder, uint32_t i);
/* The built-in kernel class table (parsed on first use; NULL when out of
 * memory). */
const petw__manifest *petw__decoder_kernel(petw_decoder *decoder);

#endif
