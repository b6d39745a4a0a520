/* SPDX-License-Identifier: MIT */
/* eventsource.h - .NET EventSource manifests carried in the trace.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 *
 * A manifest-based EventSource writes its instrumentation manifest into the
 * trace as ManifestData events: event id 0xFFFE, opcode 0xFE (task 0xFFFE;
 * task 0 in .NET 4.5's EventSource), one per chunk of at most 0xFF00 bytes.
 * Each payload is an 8-byte envelope, then that chunk of UTF-8 XML:
 *   u8 Format (1: XML), u8 MajorVersion, u8 MinorVersion, u8 Magic (0x5B),
 *   u16 TotalChunks, u16 ChunkNumber.
 * The collector puts a provider's chunks back together, one stream per
 * provider GUID, process and thread (the writer sends its chunks one after
 * another from one thread). A stream starts at chunk 0 (a chunk 0 while
 * chunks are missing starts over, as a re-sent manifest does); every other
 * chunk must be the next one, with the envelope chunk 0 had. At most
 * PETW__ES_MAX_PENDING streams are collected at once (the one left longest
 * goes first) and PETW__ES_MAX_BYTES held by all of them together.
 */
#ifndef PETW_EVENTSOURCE_H
#define PETW_EVENTSOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "manifest.h"
#include "petw/types.h"

#define PETW__ES_MANIFEST_ID 0xFFFEu
#define PETW__ES_MANIFEST_OPCODE 0xFEu
#define PETW__ES_ENVELOPE 8u
#define PETW__ES_MAGIC 0x5Bu
#define PETW__ES_FORMAT_XML 1u
#define PETW__ES_MAX_PENDING 16
#define PETW__ES_MAX_BYTES PETW__MAN_MAX_BYTES

typedef struct petw__es_envelope {
    uint8_t format, major, minor, magic;
    uint16_t total, number;
} petw__es_envelope;

typedef struct petw__es_stream {
    petw_guid guid;
    uint32_t pid, tid;
    petw__es_envelope first; /* chunk 0's envelope */
    uint16_t next;           /* the chunk expected next; 0: the slot is free */
    uint64_t touched;        /* when a chunk last came, in chunks seen */
    uint8_t *xml;
    size_t size, cap;
} petw__es_stream;

typedef struct petw__es_collector {
    petw__es_stream streams[PETW__ES_MAX_PENDING];
    size_t held; /* XML bytes held by all streams */
    uint64_t chunks;
} petw__es_collector;

/* Reads the envelope at the start of a payload; -1 if it is shorter. */
int petw__es_envelope_read(const uint8_t *data, size_t size, petw__es_envelope *out);

/* Adds the ManifestData payload `data` of provider `guid` written by
 * process `pid`, thread `tid`. Returns 0 with *xml NULL (more chunks to
 * come) or the whole manifest in *xml (malloc'd, the caller frees it) and
 * *xml_size; or PETW_ECORRUPT (no envelope, a bad magic or format, a chunk
 * out of range, out of sequence or without XML), PETW_ELIMIT (the chunks
 * held would pass PETW__ES_MAX_BYTES) or PETW_ENOMEM, with `error` saying
 * why; the stream's chunks are then dropped. */
int petw__es_add_chunk(petw__es_collector *c, const petw_guid *guid, uint32_t pid, uint32_t tid,
                       const uint8_t *data, size_t size, uint8_t **xml, size_t *xml_size,
                       char *error, size_t error_size);

/* Frees the chunks held (the collector itself is the caller's). */
void petw__es_collector_clear(petw__es_collector *c);

#endif
