/* SPDX-License-Identifier: MIT */
/* clickhouse.h - a ClickHouse server reached over its HTTP interface
 * (libcurl): the URL and credentials, statements and RowBinary inserts, and
 * the RowBinary encoding the exporters build their batches in
 * (docs/clickhouse.md has the schema they fill). Built only with libcurl. */
#ifndef CLICKHOUSE_H
#define CLICKHOUSE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../output/output_buf.h"

/* An insert on its way: its own libcurl handle, URL, body and answer. */
typedef struct clickhouse_request {
    void *easy; /* CURL * */
    char *url;
    sbuf body, response;
    unsigned attempt; /* tries made so far */
    int busy;
    int gzipped; /* the body is gzip (Content-Encoding: gzip) */
    uint64_t id; /* the connection's inserts_started when it started */
} clickhouse_request;

#define CLICKHOUSE_MAX_PARALLEL 4
#define CLICKHOUSE_MAX_COLUMNS 40 /* a table's, for Native blocks */

/* A connection: the server's address, the database, the credentials,
 * libcurl's handle for statements and the inserts in flight. Credentials
 * are never printed: messages name the server by `where` (host:port)
 * alone. One thread uses a connection. */
typedef struct clickhouse {
    void *curl;         /* CURL *, for statements */
    void *multi;        /* CURLM *, for the inserts in flight */
    void *headers;      /* struct curl_slist *, every request's */
    void *headers_gzip; /* the same and Content-Encoding: gzip */
    char url[512];      /* scheme://host:port/ without credentials */
    char where[300];    /* host:port, for messages */
    char database[128]; /* from ?database=NAME; "default" */
    char user[128], password[128];
    int has_user;
    unsigned retries;         /* transport failures retried per request */
    unsigned timeout_s;       /* a request's limit */
    sbuf response;            /* the last response's body */
    char error[1024];         /* the last failure, one line */
    uint64_t bytes_sent;      /* request bodies, for the summary */
    uint64_t requests;        /* requests made (retries included) */
    uint64_t retried;         /* requests made again after a transport failure */
    unsigned parallel;        /* inserts in flight at most, 1 to CLICKHOUSE_MAX_PARALLEL */
    int insert_failed;        /* an insert in flight failed: c->error says why */
    uint64_t inserts_started; /* clickhouse_insert's inserts so far, the id of the last */
    uint64_t first_failed;    /* the id of the first insert that failed, or 0 */
    int compress;             /* inserts' bodies go gzip-compressed */
    sbuf gzip;                /* a body being compressed */
    clickhouse_request inserts[CLICKHOUSE_MAX_PARALLEL];
    sbuf native;                              /* a Native block being built */
    sbuf scratch[2 * CLICKHOUSE_MAX_COLUMNS]; /* its columns (and arrays' elements) */
} clickhouse;

/* Parses `url` (http[s]://[user:password@]host:port/?database=NAME) and
 * takes the credentials it lacks from PETW_CLICKHOUSE_USER and
 * PETW_CLICKHOUSE_PASSWORD. Returns 0, or -1 with the reason in c->error
 * (a URL of another form, a name too long, libcurl failing to start). */
int clickhouse_open(clickhouse *c, const char *url);
void clickhouse_close(clickhouse *c);

/* Runs one statement (its text as the request's body); the result, in
 * the format the statement asks for, is in c->response. Returns 0, or -1
 * with the server's or the transport's reason in c->error. Transport
 * failures (no connection, a reset, a timeout) are retried c->retries
 * times with a growing pause; the server's refusals are not. */
int clickhouse_query(clickhouse *c, const char *sql);
/* Starts INSERT INTO `into` FORMAT `format` (RowBinary or Native) with
 * the data in `rows` (that encoding): `into` is "db.table (col, ...)". The
 * request takes the rows; `rows` comes back empty (with memory to reuse).
 * At most c->parallel inserts are in flight: this first waits for one to
 * end when that many are. Transport failures are retried as
 * clickhouse_query's. Returns 0, or -1 when this or an earlier insert
 * failed (c->error says why). A retried insert may have landed in part
 * before: the tables' keys collapse the rows sent twice
 * (docs/clickhouse.md, "Exactly once"). */
int clickhouse_insert(clickhouse *c, const char *into, const char *format, sbuf *rows);
/* clickhouse_native.c: as clickhouse_insert for RowBinary `rows` of one of
 * petw's tables (`into` as clickhouse_table_into writes it), sent as one
 * Native block; rows of any other `into` are sent as RowBinary. `rows`
 * comes back empty. Returns as clickhouse_insert; -1 also when the rows
 * do not match the table's columns. */
int clickhouse_insert_rows(clickhouse *c, const char *into, sbuf *rows);
/* Moves the inserts in flight on without waiting: call it often while
 * building the next rows (libcurl sends only when called). */
void clickhouse_insert_poll(clickhouse *c);
/* Waits up to `ms` for an insert in flight to move on (at once when none
 * is in flight). */
void clickhouse_insert_wait_some(clickhouse *c, int ms);
/* Waits for every insert in flight to end. Returns 0, or -1 when one
 * failed (c->error says why). */
int clickhouse_insert_wait(clickhouse *c);

/* The inserts in flight now. */
unsigned clickhouse_insert_busy(const clickhouse *c);
/* How many of the connection's inserts (clickhouse_insert's, numbered
 * from 1 as they start: c->inserts_started is the last one's) the server
 * has taken, each with every one before it: the rows of inserts 1 to the
 * value returned are in its tables. */
uint64_t clickhouse_insert_landed(const clickhouse *c);

/* For the requests this file's functions do not make: sets libcurl's
 * handle `easy` up to POST to `url` (the credentials, timeouts, the answer
 * into `response`; the body is the caller's to give). */
void clickhouse_prepare(clickhouse *c, void *easy, const char *url, sbuf *response);
/* The URL of INSERT INTO `into` FORMAT `format` with `settings`
 * ("&name=value..." or ""), malloc'd; NULL with c->error set. */
char *clickhouse_insert_url(clickhouse *c, void *easy, const char *into, const char *format,
                            const char *settings);
/* c->error from a refusal (HTTP `status`, the server's `response`). */
void clickhouse_server_error(clickhouse *c, const sbuf *response, long status);

/* ---- clickhouse_stream.c: one INSERT whose body is sent while it is
 * built, block after block ---- */

typedef struct clickhouse_stream clickhouse_stream;
/* Starts INSERT INTO `into` FORMAT `format` (as clickhouse_insert), its
 * body to come from clickhouse_stream_put, which the server writes in
 * parts of `part_rows` rows (the last one smaller). Returns the stream, or
 * NULL (c->error says why). The connection's other requests may go on. */
clickhouse_stream *clickhouse_stream_start(clickhouse *c, const char *into, const char *format,
                                           uint64_t part_rows);
/* Hands `block` (whole values of `format`: a Native block) to the body;
 * it comes back empty, with memory to reuse. Waits while three blocks are
 * not yet sent. Returns 0, or -1 when the request has already ended (a
 * refusal or a transport failure: clickhouse_stream_end says which) or
 * `block` ran out of memory. */
int clickhouse_stream_put(clickhouse_stream *s, sbuf *block);
/* Ends the body, waits for the server's answer and frees the stream.
 * Returns 0, or -1 with c->error set; *transient is 1 when the failure was
 * the transport's or a 503 (worth sending everything again), 0 for a
 * refusal. Nothing is retried here: what the server took in part before a
 * failure, a second send collapses (docs/clickhouse.md, "Exactly once"). */
int clickhouse_stream_end(clickhouse_stream *s, int *transient);

/* ---- clickhouse_spool.c: batches kept on disk until the server has them
 * (petw forward --spool) ---- */

typedef struct clickhouse_spool {
    char dir[512];
    uint64_t head;                          /* the first file not delivered */
    uint64_t next;                          /* the file being appended to, or the next to open */
    uint64_t files;                         /* whole files in the spool (head..next-1) */
    uint64_t bytes;                         /* the spool's size, the open file's too */
    uint64_t limit;                         /* the size at most */
    uint64_t dropped_rows, dropped_batches; /* refused: the spool was full */
    uint64_t delivered_rows;
    void *open;           /* FILE * of file `next` while rows are appended to it, or NULL */
    char open_into[1100]; /* the open file's table and columns */
    uint64_t open_rows, open_bytes;
    /* Sending without waiting (clickhouse_spool_pump): files head..sent-1
     * are in flight, their sizes and rows in flight[]. */
    uint64_t sent;
    struct {
        uint64_t size, rows;
    } flight[CLICKHOUSE_MAX_PARALLEL];
    sbuf body;    /* a file's rows being read */
    sbuf decoded; /* a version 4 file's events, as its converter gave them */
    int open_etl; /* the open file is an ETL file (clickhouse_spool_append_etl) */
    /* Version 4 files (ETL) into a Native body for their insert: `meta` is
     * the file's third line, `seq` its number. Returns 0 (`rows` rows in
     * `out`), or -1 with c->error set. Called by whoever sends. */
    int (*convert)(void *context, const char *meta, uint64_t seq, const sbuf *etl, sbuf *out,
                   uint64_t *rows);
    void *convert_context;
    /* When one thread appends and another sends (clickhouse_spool_pump):
     * a lock taken around what both change. NULL: one thread. */
    void (*lock)(void *context);
    void (*unlock)(void *context);
    void *lock_context;
} clickhouse_spool;

/* Opens (creating the directory when absent) the spool in `dir`, at most
 * `limit` bytes, with the files a previous run left: a file it was still
 * appending to when it was killed is closed and kept, up to its last whole
 * chunk. Returns 0, or -1 with the reason in `error`. */
int clickhouse_spool_open(clickhouse_spool *s, const char *dir, uint64_t limit, char *error,
                          size_t error_size);
/* Closes the file being appended to (kept for the next run) and frees. */
void clickhouse_spool_close(clickhouse_spool *s);
/* Appends `count` rows for `into`, one block of Native (`native`) or
 * RowBinary rows (`rows`; a table's are always in the same one), to the
 * open file (opening one; closing the open one first when it holds another
 * table's rows), written to the file (not merely to this process's memory)
 * when this returns, so that a kill of the process loses none of them.
 * Returns 0, 1 when the spool is full (the rows are counted in
 * dropped_rows, not written), or -1 when the file cannot be written. */
int clickhouse_spool_append(clickhouse_spool *s, const char *into, int native, const sbuf *rows,
                            uint64_t count);
/* Appends `buffer` (`size` bytes of a session's ETL buffer) to the open
 * ETL file for `into` (opening one, which starts with `meta`, the
 * converter's line, and `header`, the session's header buffer; closing
 * the open one first when it is not such a file), written to the file
 * when this returns. Returns 0, 1 when the spool is full (counted in
 * dropped_batches; the caller counts the events), or -1. */
int clickhouse_spool_append_etl(clickhouse_spool *s, const char *into, const char *meta,
                                const void *header, size_t header_size, const void *buffer,
                                size_t size);
/* Closes the open file, which becomes a batch to send. Returns 0 or -1. */
int clickhouse_spool_seal(clickhouse_spool *s);
/* clickhouse_spool_append, then clickhouse_spool_seal. */
int clickhouse_spool_put(clickhouse_spool *s, const char *into, int native, const sbuf *rows,
                         uint64_t count);
/* Sends the spool's whole files in order without waiting: starts inserts
 * while fewer than c->parallel are in flight, and once none is in flight
 * removes the files they carried. Call it often. Returns 0, 1 (the server
 * failed: the files in flight stay, to be sent again; c->error says why)
 * or -1 (a spool file cannot be read or the head written). Only the spool
 * may have inserts on `c` while this is used. With the spool's lock set,
 * one thread may append and seal while another calls this (and only this:
 * the fields other than `files` and `bytes` are each one side's). */
int clickhouse_spool_pump(clickhouse_spool *s, clickhouse *c);
/* Sends the spool's whole files in order, removing each once the server
 * has it, after the inserts clickhouse_spool_pump started have ended. Not
 * `patient`: stops at the first failure, without retrying. Returns 0 (no
 * whole file is left), 1 (files are left: the server failed; c->error says
 * why) or -1 (a spool file cannot be read or the head written). */
int clickhouse_spool_send(clickhouse_spool *s, clickhouse *c, int patient);

/* ---- RowBinary: little-endian numbers, strings as a LEB128 length and
 * the bytes, arrays as a LEB128 count and the elements. ---- */

static inline void rb_varint(sbuf *b, uint64_t v)
{
    char tmp[10];
    size_t n = 0;
    do {
        tmp[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    sbuf_put(b, tmp, n);
}

static inline void rb_uint(sbuf *b, uint64_t v, size_t bytes)
{
    char tmp[8];
    for (size_t i = 0; i < bytes; i++)
        tmp[i] = (char)(v >> (8 * i));
    sbuf_put(b, tmp, bytes);
}

static inline void rb_u8(sbuf *b, uint8_t v)
{
    rb_uint(b, v, 1);
}
static inline void rb_u16(sbuf *b, uint16_t v)
{
    rb_uint(b, v, 2);
}
static inline void rb_u32(sbuf *b, uint32_t v)
{
    rb_uint(b, v, 4);
}
static inline void rb_u64(sbuf *b, uint64_t v)
{
    rb_uint(b, v, 8);
}
static inline void rb_i64(sbuf *b, int64_t v)
{
    rb_uint(b, (uint64_t)v, 8);
}

static inline void rb_bytes(sbuf *b, const void *p, size_t n)
{
    rb_varint(b, n);
    sbuf_put(b, p, n);
}

/* A NUL-terminated string; NULL as "". */
static inline void rb_string(sbuf *b, const char *s)
{
    rb_bytes(b, s ? s : "", s ? strlen(s) : 0);
}

/* FILETIME (100 ns since 1601) -> ns since 1970; 0 stays 0. */
static inline int64_t clickhouse_time(int64_t filetime)
{
    return filetime ? (filetime - 116444736000000000LL) * 100 : 0;
}

#endif /* CLICKHOUSE_H */
