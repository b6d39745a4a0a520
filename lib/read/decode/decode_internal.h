/* SPDX-License-Identifier: MIT */
/* decode_internal.h - the decoder's state and the functions its files share
 * (decode.c: the decoder and its field-building primitives;
 * decode_tracelogging.c: TraceLogging's self-describing events;
 * decode_manifest.c: manifest-described events and their messages; wpp.c:
 * WPP messages; eventsource.c: the manifests EventSource providers write into
 * the trace; decode_files.c: manifests and TMF files added), its work
 * counters (for tests) and its manifests (for TDH).
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#ifndef PETW_DECODE_INTERNAL_H
#define PETW_DECODE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "eventsource.h"
#include "manifest.h"
#include "petw/decode.h"
#include "wpp.h"

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

/* Nesting and fields one event may have at most. */
#define PETW__DECODE_MAX_DEPTH 32
#define PETW__DECODE_MAX_FIELDS 65536

/* The TraceLogging schema cache's slots and hash buckets (decode_tracelogging.c). */
#define PETW__DECODE_CACHE_SLOTS 256
#define PETW__DECODE_CACHE_BUCKETS 512 /* a power of two */

/* The stream manifests kept: at most PETW__DECODE_MAX_STREAM_MANIFESTS of
 * them, their XML PETW__ES_MAX_BYTES together. */
#define PETW__DECODE_MAX_STREAM_MANIFESTS 256

/* A manifest an EventSource provider wrote into the trace. */
typedef struct petw__stream_manifest {
    petw_guid guid; /* the provider that wrote it */
    petw__manifest *m;
    uint64_t hash; /* of its XML, to know a re-sent copy */
    size_t size;
} petw__stream_manifest;

/* TraceLogging's parsed schemas (decode_tracelogging.c's own). */
struct schema_entry;
struct cached_schema;

struct petw_decoder {
    struct cached_schema *slot[PETW__DECODE_CACHE_SLOTS];
    uint16_t bucket[PETW__DECODE_CACHE_BUCKETS]; /* 1 + the first slot of the chain, or 0 */
    uint32_t hand;                               /* the slot filled next: the oldest */
    size_t cache_bytes;
    struct schema_entry *scratch; /* the schema being parsed */
    uint32_t scratch_cap;
    const struct schema_entry *schema; /* the current event's */
    uint32_t schema_count;
    petw_field *fields;
    uint32_t field_cap, field_count;
    char *arena;
    size_t arena_cap, arena_used;
    petw_decoded_event result;
    const uint8_t *data;
    size_t size, pos;
    int pointer_size;
    petw__decoder_counters counters;
    /* Manifests added, searched in order; the last provider found. */
    petw__manifest **manifests;
    uint32_t manifest_count, manifest_cap;
    /* Manifests EventSource providers wrote into the trace: one per
     * provider, searched after those added; and the chunks being
     * collected. */
    petw__stream_manifest *es_manifests;
    uint32_t es_count, es_cap;
    size_t es_bytes; /* their XML, together */
    petw__es_collector es;
    const petw__man_provider *last_provider;
    petw__manifest *kernel; /* the kernel classes' schemas, read at first use */
    int kernel_failed;
    petw__manifest *clr; /* the .NET runtime's method and module events', likewise */
    int clr_failed;
    const petw__man_field *man;               /* the current event's template fields */
    uint64_t man_value[PETW__MAN_MAX_FIELDS]; /* numbers decoded, for length/count */
    char *message;
    size_t message_cap;
    /* TMF files added (petw_decoder_add_tmf*), searched in order. */
    petw__wpp **tmfs;
    uint32_t tmf_count, tmf_cap;
    char error[384];
    char *warnings; /* the last directory's files passed over or read in part, '\n'-ended */
    size_t warnings_len, warnings_cap;
};

/* ---- decode.c: building fields ----
 * The current event's payload is d->data[0, d->size), read at d->pos.
 * Strings go into the arena: a field's v.s (or label) holds its arena
 * offset (label: plus one) until the event is done. Each returns 0, or
 * PETW_ECORRUPT (the payload is too short) or PETW_ENOMEM. */

/* Reserves `n` bytes of the arena; *at is their offset. */
int petw__decoder_arena_reserve(petw_decoder *d, size_t n, size_t *at);
/* Reserves `n` contiguous field slots; returns the first index. */
int petw__decoder_reserve_fields(petw_decoder *d, uint32_t n, uint32_t *first);
/* Makes field `slot` a struct or array of `n` children, reserved as one
 * block; *first is the first child's index. */
int petw__decoder_open_block(petw_decoder *d, uint32_t slot, petw_value_kind kind, uint32_t n,
                             uint32_t *first);
/* 0 when the payload holds `n` more bytes, else PETW_ECORRUPT. */
int petw__decoder_need(petw_decoder *d, size_t n);
/* Bytes of a fixed-size number in-type (pointers: `pointer_size`), or 0. */
size_t petw__decoder_type_size(uint8_t type, size_t pointer_size);
/* Bytes of a fixed-size number in-type (pointers: the event's size), or 0. */
size_t petw__decoder_number_size(const petw_decoder *d, uint8_t type);
/* Field `slot` as a string: `units` UTF-16LE units, or `n` bytes. */
int petw__decoder_utf16_string(petw_decoder *d, const uint8_t *s, size_t units, uint32_t slot);
int petw__decoder_bytes_string(petw_decoder *d, const uint8_t *s, size_t n, uint32_t slot);
/* A 16-byte IPv6 address at `p` as text, as Windows writes it. */
int petw__decoder_ipv6_string(petw_decoder *d, const uint8_t *p, uint32_t slot);
/* One value of a non-struct in-type at d->pos, as it is laid out in
 * TraceLogging and in manifest templates without a length. */
int petw__decoder_basic(petw_decoder *d, uint8_t type, uint8_t out, uint32_t slot);

/* ---- decode_tracelogging.c: TraceLogging's self-describing events ---- */

/* The fields the event's TraceLogging schema (`schema_size` bytes of its
 * EVENT_SCHEMA_TL item) describes, parsed once and cached. */
int petw__decoder_tracelogging_fields(petw_decoder *d, const uint8_t *schema, size_t schema_size);
/* The provider name in the traits (u16 size, then the name, NUL-terminated),
 * copied into the arena; returns its arena offset or (size_t)-1. */
size_t petw__decoder_tracelogging_provider_name(petw_decoder *d, const uint8_t *traits,
                                                size_t traits_size);

/* ---- decode_manifest.c: manifest-described events ---- */

/* The provider with `guid` in manifest `m`, or NULL. */
const petw__man_provider *petw__decoder_provider_in(const petw__manifest *m, const petw_guid *guid);
/* The provider with `guid` in the manifests added or written into the
 * trace, or NULL. */
const petw__man_provider *petw__decoder_man_provider(petw_decoder *d, const petw_guid *guid);
/* The built-in provider (the .NET runtime's) with `guid`, or NULL. */
const petw__man_provider *petw__decoder_builtin_provider(petw_decoder *d, const petw_guid *guid);
/* A classic kernel record's schema (by class, opcode and version) and its
 * provider in *pv, or NULL. */
const petw__man_event *petw__decoder_kernel_event(petw_decoder *d, const petw_event_record *rec,
                                                  const petw__man_provider **pv);
/* The fields event `ev` of provider `pv` describes. */
int petw__decoder_manifest_fields(petw_decoder *d, const petw__man_provider *pv,
                                  const petw__man_event *ev);
/* Appends `n` bytes of `s` to the message buffer (*len: its length). */
int petw__decoder_msg_put(petw_decoder *d, size_t *len, const char *s, size_t n);
/* A field's value as message text (what %N inserts). */
void petw__decoder_value_text(const petw_field *f, char *out, size_t size);
/* The event's message `msg` with its inserts into d->result.message. */
int petw__decoder_render_message(petw_decoder *d, const char *msg);
/* The name of a manifest event without a symbol, its task's and opcode's;
 * its arena offset in *at. */
int petw__decoder_name_from_task(petw_decoder *d, const petw__man_event *ev, size_t *at);

/* ---- wpp.c: WPP messages a TMF file describes ---- */

/* The TMF message a TraceMessage record is, when every argument's item type
 * is one petw reads; else NULL. */
const petw__wpp_message *petw__decoder_wpp_message(petw_decoder *d, const petw_event_record *rec);
/* The arguments of message `m` as fields. */
int petw__decoder_wpp_fields(petw_decoder *d, const petw__wpp_message *m);
/* Message `m`'s text with its inserts into d->result.message. */
int petw__decoder_render_wpp(petw_decoder *d, const petw__wpp_message *m,
                             const petw_event_record *rec);

/* ---- eventsource.c: manifests in the trace ---- */

/* A ManifestData event: its envelope as fields, its chunk collected; the
 * provider's manifest kept once every chunk came. *pv: the provider, when
 * a manifest names it. */
int petw__decoder_manifest_data(petw_decoder *d, const petw_event_record *rec,
                                const petw__man_provider **pv);

#endif
