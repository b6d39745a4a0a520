/* SPDX-License-Identifier: MIT */
/* consume_trace.h - a trace being read (struct petw_trace), shared by the
 * opening and indexing of its buffers (consume.c) and their delivery
 * (consume_deliver.c).
 *
 * Allowed dependencies: common/, platform/, classes/, format/.
 */
#ifndef PETW_CONSUME_TRACE_H
#define PETW_CONSUME_TRACE_H

#include <stdatomic.h>

#include "../../base/format/etl_record.h"
#include "../../base/platform/platform.h"
#include "consume_internal.h"
#include "petw/consume.h"

#define MAX_EXT_ITEMS 32
#define MAX_TRACES 64
#define NOT_LOADED UINT32_MAX
#define NOT_COUNTED UINT32_MAX /* bufref.records of a buffer not unpacked yet */

typedef struct rec_ix {
    int64_t timestamp;
    uint32_t offset;
} rec_ix;

/* A buffer in memory: the header buffer (for the trace's life), a data
 * buffer being delivered, or a live buffer. */
typedef struct tbuf {
    const uint8_t *data; /* records are read from here */
    uint8_t *owned;      /* the unpacked copy `data` points into, when any */
    uint32_t used;
    uint32_t extent; /* bytes that may hold records (header buffers: all of it) */
    uint16_t cpu;
    uint16_t logger_id;
    uint16_t buffer_flag;
    int header; /* the file's header buffer */
    uint32_t rec_count;
    uint32_t next;
    uint32_t rec_cap;
    rec_ix *recs;
    uint32_t index;      /* which data buffer (bufref) of the file */
    uint64_t file_index; /* position among the source's buffers, for reports */
} tbuf;

/* A data buffer of a file, as the open-time scan found it. */
typedef struct bufref {
    uint64_t offset;
    uint32_t disk_size;
    uint32_t records;    /* well-formed records (a damaged tail is not counted); NOT_COUNTED */
    int64_t first_ts;    /* the earliest record's raw timestamp */
    uint32_t loaded;     /* slot in petw_trace.slots, or NOT_LOADED */
    uint32_t file_index; /* position among all buffers of the file (reports) */
} bufref;

struct petw_trace {
    petw_trace_config config;
    petw__file file; /* the source, when a file */
    int has_file;
    uint8_t *memory; /* the source, when in memory */
    uint64_t size;
    petw_logfile_info info;
    tbuf header;
    bufref *refs;
    uint32_t ref_count, ref_cap;
    tbuf *slots; /* loaded data buffers; a free slot has data == NULL */
    uint32_t slot_count;
    uint32_t buffer_limit; /* the file's buffer size: no buffer unpacks larger */
    uint8_t *disk;         /* one buffer as stored (file sources read into it) */
    petw__udiv per_second; /* divides by perf_freq (when usable: per_second_ok) */
    int per_second_ok;
    petw__etl_unpacker *unpacker; /* zstd files: one context for every buffer */
    uint32_t disk_cap;
    petw_trace_stats stats;
    int processed;
    petw__bufqueue *live; /* real-time source, or NULL */
    uint8_t *live_buffer;
    petw_raw_buffer_callback raw; /* a live trace's buffers as they are, or NULL */
    petw_buffer_callback idle;    /* a live trace with no buffer coming, or NULL */
    /* A live trace's buffers taken from its queue, and with
     * petw_trace_defer_acks: those finished (delivered or skipped), the
     * position the consumer acknowledged up to, and those acked so far. */
    uint64_t live_taken, live_finished, live_ack_to, live_acked;
    int defer_acks;
    void (*live_close)(void *); /* petw__trace_on_live_close's, or NULL */
    void *live_close_arg;
    _Atomic int cancel;
};

/* consume.c's, for the delivery: */
/* A live trace finished its buffer (delivered or skipped): acked to the
 * session now, or, with petw_trace_defer_acks, once acknowledged. */
void petw__trace_live_finished(petw_trace *t);
void petw__trace_corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *why);
/* `n` bytes at `off` (within the source): a pointer into memory, or the
 * bytes read into t->disk (grown to fit). NULL on a read error. */
const uint8_t *petw__trace_fetch(petw_trace *t, uint64_t off, uint32_t n);
/* Indexes an unpacked buffer's records, sorted by time. A malformed record
 * ends the buffer; it is reported when `report` is set (the open-time scan
 * reports, a later reload does not). */
int petw__trace_index_buffer(petw_trace *t, tbuf *b, int report, uint64_t index, uint64_t offset);
/* Unpacks the stored buffer `disk` (header parsed as `hb`) into `b`,
 * which keeps its own copy. Returns 0, PETW_ENOMEM, or PETW_ECORRUPT with
 * *why set. */
int petw__trace_unpack_into(tbuf *b, const uint8_t *disk, const petw__etl_buffer *hb,
                            petw__etl_unpacker *u, const char **why);

#endif
