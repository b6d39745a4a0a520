/* SPDX-License-Identifier: MIT */
/* export_clickhouse.h - what `petw export` (cmd_export.c) and `petw
 * forward` (cmd_forward.c) share: the exporter (a connection, a batch per
 * table, the trace being exported), the rows it builds (export_rows.c) and
 * the options both take. Built only with libcurl. */
#ifndef EXPORT_CLICKHOUSE_H
#define EXPORT_CLICKHOUSE_H

#include <stdatomic.h>
#include <stdint.h>

#include "tool.h"
#include "views/analysis_tool.h"
#include "clickhouse/clickhouse.h"
#include "clickhouse/clickhouse_schema.h"

typedef struct batch {
    const clickhouse_table *table;
    char into[1024];
    sbuf rows;
    uint64_t count;  /* rows in `rows` */
    uint32_t number; /* batches sent of this table for this trace */
    uint64_t total;  /* rows sent */
} batch;

typedef struct exporter {
    clickhouse ch;
    batch batches[CLICKHOUSE_TABLE_COUNT];
    uint64_t max_rows, max_bytes;
    const char *machine;
    int no_model;
    int payload_undecoded; /* --payload undecoded: `data` empty where fields hold it */
    model_args model;
    manifest_list manifests;
    /* The trace being exported. */
    uint64_t trace_id;
    int64_t boot_time; /* ns since 1970 */
    uint64_t seq;      /* the next event's */
    petw_decoder *decoder;
    sbuf value; /* a field's text */
    /* An insert failed: stop reading. forward --spool's sender thread sets
     * it (its converter) while the consumer reads it: seq_cst, as a plain
     * access to an _Atomic is, so ch.error, written before, is seen with it. */
    _Atomic int failed;
    clickhouse_spool *spool; /* forward --spool: batches go there first */
    uint64_t undecodable;
    petw_guid guid[2];     /* put_guid_text's last of each kind */
    char guid_text[2][40]; /* their text; "" before the first */
    /* The events' rows, column by column (the other tables' are RowBinary
     * in their batch's `rows`), and the Native block they become. */
    clickhouse_columns events;
    sbuf block;
    clickhouse_stream *stream; /* petw export: the file's insert, block by block */
    sbuf *collect;             /* forward's spool converter: the blocks go here */
} exporter;

/* The options export and forward share. */
typedef struct common_args {
    const char *to, *url;
    uint64_t retries, parallel;
    int retries_set;
    int compress;
} common_args;

/* ---- export_rows.c ---- */

/* petw export's blocks on the trace's insert: small enough to be built
 * while the last is sent (and the server reads the one before), large
 * enough that a block's headers cost nothing. */
#define EXPORT_BLOCK_ROWS 65536
#define EXPORT_BLOCK_BYTES (8u << 20)

/* Sends batch `b`: the events' block onto x->collect or x->stream when
 * set; else to the spool (forward --spool) or as an insert. Returns 0, or
 * -1 (x->failed set, x->ch.error says why, or the stream's end will). */
int export_flush(exporter *x, batch *b);
/* Sends what is left of every batch and waits for every insert. */
int export_flush_all(exporter *x);
/* 64-bit FNV-1a of `n` bytes at `p`, from `h`. */
uint64_t export_hash(uint64_t h, const void *p, size_t n);
/* A trace's identity: what its header says of the session that wrote it. */
uint64_t export_trace_identity(const petw_logfile_info *h);
/* The consumer's event callback (context: the exporter): the record's
 * events row. */
void export_event(petw_event_record *r, void *context);

/* The samples the model's reading hands over (on_sample), for the samples table. */
typedef struct sample_list {
    petw_profile_sample *items;
    size_t count, cap;
    int failed;
} sample_list;
void export_on_sample(void *context, const petw_profile_sample *s);
/* The model's tables, one after the other, then what is left of them sent. */
void export_model_rows(exporter *x, const petw_profile *p, const sample_list *samples);
/* The traces row, last: a trace listed there was exported whole. */
int export_trace_row(exporter *x, const char *path, const petw_logfile_info *h, uint64_t events,
                     uint64_t samples);

/* ---- cmd_export.c ---- */

int export_parse_count(const char *opt, const char *v, uint64_t *out);
/* Takes argv[*i] (and its values) when it is a shared option: 1 (and *i
 * advanced), 0 when it is not one, -1 when its value is wrong (reported). */
int export_option(exporter *x, common_args *a, int argc, char **argv, int *i);
void exporter_init(exporter *x, common_args *a);
/* Connects, makes the tables ready and the decoder. Returns 0, or 1
 * (reported; everything freed). */
int exporter_start(exporter *x, const common_args *a, char *host, size_t host_size);
/* Reports what the summary lines do not, and frees. */
void exporter_end(exporter *x);
/* 0 when --to clickhouse URL was given, else the usage error's status. */
int export_check_to(const common_args *a, const char *command);

#endif /* EXPORT_CLICKHOUSE_H */
