/* SPDX-License-Identifier: MIT */
/* clickhouse_spool.c - `petw forward --spool DIR`: batches kept on disk
 * until ClickHouse has them. Each batch is one file, numbered in the order
 * written: NNNNNNNNNNNNNNNNNNNN.open while rows are appended to it,
 * renamed NNNNNNNNNNNNNNNNNNNN.batch once whole, holding
 *
 *     petw-spool 3\n<db.table (columns)>\n
 *     then chunks: <rows> <bytes>\n<a block of ClickHouse's Native format>
 *
 * so that the file's chunks are, one after the other, the body of its
 * insert as they are; or `petw-spool 2` with chunks of RowBinary rows (the
 * small tables' rows, and what earlier runs wrote); or, for the events
 * of `petw forward`, an ETL file of the session's buffers as they came:
 *
 *     petw-spool 4\n<db.table (columns)>\n<what the converter needs>\n
 *     then the header buffer and the data buffers
 *
 * (the second line's third word is the header buffer's size), turned
 * into a Native body when it is sent by the spool's converter (decoding
 * then, not while the session writes). Version 1, which earlier runs
 * wrote whole under another name,
 * `petw-spool 1\n<rows>\n<db.table (columns)>\n<the rows>`.
 * The forwarder appends each session buffer's rows as one chunk before it
 * takes the next buffer, so a kill loses no row it consumed: the next run
 * keeps the .open file it finds, up to its last whole chunk (a chunk cut
 * by the kill is a buffer the forwarder had not finished with). DIR/head
 * names the first file not yet delivered. A file is removed only once the
 * server has answered its insert, so a batch may be sent twice (a kill
 * between the answer and the removal), which the tables' keys collapse.
 * Only C's stdio, and mkdir. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <direct.h>
#define make_dir(p) _mkdir(p)
#else
#include <sys/stat.h>
#define make_dir(p) mkdir((p), 0700)
#endif

#include "clickhouse_schema.h"

/* Around `files` and `bytes`, the fields both sides change (the side
 * that appends and the one that sends may be two threads). */
static void lock(clickhouse_spool *s)
{
    if (s->lock)
        s->lock(s->lock_context);
}

static void unlock(clickhouse_spool *s)
{
    if (s->unlock)
        s->unlock(s->lock_context);
}

static void file_name(const clickhouse_spool *s, uint64_t seq, const char *ext, char *out,
                      size_t size)
{
    snprintf(out, size, "%s/%020" PRIu64 ".%s", s->dir, seq, ext);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    fclose(f);
    return n;
}

static int write_head(clickhouse_spool *s)
{
    char path[600], tmp[600];
    snprintf(path, sizeof(path), "%s/head", s->dir);
    snprintf(tmp, sizeof(tmp), "%s/head.tmp", s->dir);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int ok = fprintf(f, "%" PRIu64 "\n", s->head) > 0;
    ok = (fclose(f) == 0) && ok;
    remove(path); /* rename over an existing file is not portable */
    return ok && rename(tmp, path) == 0 ? 0 : -1;
}

/* Reads spool file `seq`: its `into` and rows (into `body`, when not
 * NULL), their count and the file's size. A version 2 or 3 file's cut last
 * chunk is left out. Returns 0, or -1 (not a spool file). */
static int read_file(const clickhouse_spool *s, uint64_t seq, const char *ext, char *into,
                     size_t into_size, sbuf *body, uint64_t *count, long *size, int *native,
                     char *meta, size_t meta_size)
{
    char path[600];
    file_name(s, seq, ext, path, sizeof(path));
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char line[64];
    int version = 0;
    if (fgets(line, sizeof(line), f))
        version = !strcmp(line, "petw-spool 1\n")   ? 1
                  : !strcmp(line, "petw-spool 2\n") ? 2
                  : !strcmp(line, "petw-spool 3\n") ? 3
                  : !strcmp(line, "petw-spool 4\n") ? 4
                                                    : 0;
    if (native)
        *native = version == 3 ? 1 : version == 4 ? 2 : 0;
    *count = 0;
    int ok = version >= 2 || (version == 1 && fscanf(f, "%" SCNu64 "\n", count) == 1);
    ok = ok && fgets(into, (int)into_size, f);
    size_t len = ok ? strlen(into) : 0;
    ok = ok && len && into[len - 1] == '\n';
    if (ok)
        into[len - 1] = 0;
    if (body)
        body->len = 0;
    char buf[65536];
    while (ok && version == 1) {
        size_t got = fread(buf, 1, sizeof(buf), f);
        if (!got)
            break;
        if (body)
            sbuf_put(body, buf, got);
    }
    char meta_line[256] = "";
    ok = ok && (version != 4 || fgets(meta_line, sizeof(meta_line), f));
    if (meta)
        snprintf(meta, meta_size, "%s", meta_line);
    uint64_t etl = 0, header = 0;
    while (ok && version == 4) { /* an ETL file to its end */
        size_t got = fread(buf, 1, sizeof(buf), f);
        if (!got)
            break;
        etl += got;
        if (body)
            sbuf_put(body, buf, got);
    }
    /* version 4: "rows" is 1 when the file holds a data buffer (its
     * events are counted once decoded) */
    if (version == 4 && sscanf(meta_line, "%*s %*s %" SCNu64, &header) == 1 && etl > header)
        *count = 1;
    while (ok && version >= 2 && version <= 3) { /* chunks, up to the last whole one */
        uint64_t rows, bytes;
        if (!fgets(line, sizeof(line), f) ||
            sscanf(line, "%" SCNu64 " %" SCNu64, &rows, &bytes) != 2)
            break;
        size_t at = body ? body->len : 0;
        uint64_t left = bytes;
        while (left) {
            size_t want = left < sizeof(buf) ? (size_t)left : sizeof(buf);
            size_t got = fread(buf, 1, want, f);
            if (body)
                sbuf_put(body, buf, got);
            left -= got;
            if (got < want)
                break;
        }
        if (left) { /* cut by a kill: not a row of it counts */
            if (body)
                body->len = at;
            break;
        }
        *count += rows;
    }
    ok = ok && !ferror(f) && !(body && body->failed);
    fseek(f, 0, SEEK_END);
    *size = ok ? ftell(f) : 0;
    fclose(f);
    return ok ? 0 : -1;
}

int clickhouse_spool_open(clickhouse_spool *s, const char *dir, uint64_t limit, char *error,
                          size_t error_size)
{
    memset(s, 0, sizeof(*s));
    if (strlen(dir) >= sizeof(s->dir) - 40) {
        snprintf(error, error_size, "the spool's directory name is too long");
        return -1;
    }
    strcpy(s->dir, dir);
    s->limit = limit;
    make_dir(dir); /* may exist already; checked by writing the head */
    char path[600];
    snprintf(path, sizeof(path), "%s/head", dir);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%" SCNu64, &s->head) != 1)
            s->head = 0;
        fclose(f);
    }
    for (s->next = s->head;; s->next++) {
        file_name(s, s->next, "batch", path, sizeof(path));
        long n = file_size(path);
        if (n < 0)
            break;
        s->bytes += (uint64_t)n;
        s->files++;
    }
    /* The file a killed run was appending to: kept when it holds a whole
     * chunk, as a batch like the others. */
    char open_path[600];
    file_name(s, s->next, "open", open_path, sizeof(open_path));
    uint64_t rows;
    long n;
    if (read_file(s, s->next, "open", s->open_into, sizeof(s->open_into), NULL, &rows, &n, NULL,
                  NULL, 0) == 0 &&
        rows) {
        if (rename(open_path, path) != 0) {
            snprintf(error, error_size, "cannot write in the spool directory %s", dir);
            return -1;
        }
        s->bytes += (uint64_t)n;
        s->files++;
        s->next++;
    } else {
        remove(open_path);
    }
    s->sent = s->head;
    if (write_head(s)) {
        snprintf(error, error_size, "cannot write in the spool directory %s", dir);
        return -1;
    }
    return 0;
}

void clickhouse_spool_close(clickhouse_spool *s)
{
    clickhouse_spool_seal(s);
    sbuf_free(&s->body);
    sbuf_free(&s->decoded);
}

int clickhouse_spool_seal(clickhouse_spool *s)
{
    if (!s->open)
        return 0;
    int ok = fclose(s->open) == 0;
    s->open = NULL;
    s->open_etl = 0;
    char path[600], open_path[600];
    file_name(s, s->next, "batch", path, sizeof(path));
    file_name(s, s->next, "open", open_path, sizeof(open_path));
    if (!ok || rename(open_path, path) != 0) {
        remove(open_path);
        lock(s);
        s->bytes -= s->open_bytes <= s->bytes ? s->open_bytes : s->bytes;
        unlock(s);
        return -1;
    }
    s->next++;
    lock(s);
    s->files++;
    unlock(s);
    s->open_rows = s->open_bytes = 0;
    return 0;
}

/* Whether the spool has room for `add` more bytes (its limit). */
static int has_room(clickhouse_spool *s, uint64_t add)
{
    lock(s);
    int room = s->bytes + add <= s->limit;
    unlock(s);
    return room;
}

/* Opens the spool's next file for `into`, starting it with `head` (`h`
 * bytes) and `extra` (`n` bytes: an ETL file's header buffer; 0: none);
 * `etl`: an ETL file. Returns 0, or -1 with no file left behind. */
static int open_next(clickhouse_spool *s, const char *into, const char *head, size_t h,
                     const void *extra, size_t n, int etl)
{
    char path[600];
    file_name(s, s->next, "open", path, sizeof(path));
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (fwrite(head, 1, h, f) != h || (n && fwrite(extra, 1, n, f) != n)) {
        fclose(f);
        remove(path);
        return -1;
    }
    s->open = f;
    s->open_etl = etl;
    strcpy(s->open_into, into);
    return 0;
}

/* Counts `add` bytes written to the open file. */
static void account(clickhouse_spool *s, uint64_t add)
{
    lock(s);
    s->bytes += add;
    unlock(s);
    s->open_bytes += add;
}

int clickhouse_spool_append(clickhouse_spool *s, const char *into, int native, const sbuf *rows,
                            uint64_t count)
{
    if (s->open && (s->open_etl || strcmp(into, s->open_into) != 0) && clickhouse_spool_seal(s))
        return -1;
    char head[1200], chunk[64];
    int h = s->open ? 0 : snprintf(head, sizeof(head), "petw-spool %d\n%s\n", native ? 3 : 2, into);
    int c = snprintf(chunk, sizeof(chunk), "%" PRIu64 " %zu\n", count, rows->len);
    if (h < 0 || (size_t)h >= sizeof(head) || strlen(into) >= sizeof(s->open_into))
        return -1;
    uint64_t add = (uint64_t)h + (uint64_t)c + rows->len;
    if (!has_room(s, add)) {
        s->dropped_rows += count;
        s->dropped_batches++;
        return 1;
    }
    if (!s->open && open_next(s, into, head, (size_t)h, NULL, 0, 0))
        return -1;
    FILE *f = s->open;
    /* Written out of stdio's buffer before this returns: a kill of the
     * process then loses nothing of it (the file is the kernel's). */
    int ok = fwrite(chunk, 1, (size_t)c, f) == (size_t)c &&
             (!rows->len || fwrite(rows->data, 1, rows->len, f) == rows->len) && fflush(f) == 0;
    account(s, add);
    s->open_rows += count;
    return ok ? 0 : -1;
}

int clickhouse_spool_append_etl(clickhouse_spool *s, const char *into, const char *meta,
                                const void *header, size_t header_size, const void *buffer,
                                size_t size)
{
    if (s->open && (!s->open_etl || strcmp(into, s->open_into) != 0) && clickhouse_spool_seal(s))
        return -1;
    char head[1400];
    int h = s->open ? 0 : snprintf(head, sizeof(head), "petw-spool 4\n%s\n%s\n", into, meta);
    if (h < 0 || (size_t)h >= sizeof(head) || strlen(into) >= sizeof(s->open_into))
        return -1;
    uint64_t add = (uint64_t)h + (s->open ? 0 : header_size) + size;
    if (!has_room(s, add)) {
        s->dropped_batches++; /* its rows: the caller counts them */
        return 1;
    }
    if (!s->open && open_next(s, into, head, (size_t)h, header, header_size, 1))
        return -1;
    /* In the kernel's hands before this returns: a kill of the process
     * loses none of it. */
    int ok = fwrite(buffer, 1, size, s->open) == size && fflush(s->open) == 0;
    account(s, add);
    s->open_rows++; /* buffers, for this kind of file */
    return ok ? 0 : -1;
}

int clickhouse_spool_put(clickhouse_spool *s, const char *into, int native, const sbuf *rows,
                         uint64_t count)
{
    int rc = clickhouse_spool_append(s, into, native, rows, count);
    return rc ? rc : clickhouse_spool_seal(s);
}

/* The file `head` has been delivered: removed. */
static int delivered(clickhouse_spool *s, uint64_t size, uint64_t rows)
{
    char path[600];
    file_name(s, s->head, "batch", path, sizeof(path));
    remove(path);
    s->head++;
    lock(s);
    s->files--;
    s->bytes -= size <= s->bytes ? size : s->bytes;
    unlock(s);
    s->delivered_rows += rows;
    return 0;
}

/* After the inserts in flight ended: their files removed when they all
 * landed, or to be sent again. Returns 0, 1 (one failed) or -1 (the head
 * cannot be written). */
static int settle(clickhouse_spool *s, clickhouse *c)
{
    if (s->sent == s->head)
        return 0;
    if (c->insert_failed) {
        c->insert_failed = 0;
        s->sent = s->head; /* all again: what landed collapses */
        return 1;
    }
    for (uint64_t k = 0; s->sent > s->head; k++)
        delivered(s, s->flight[k].size, s->flight[k].rows);
    if (write_head(s)) {
        snprintf(c->error, sizeof(c->error), "cannot write in the spool directory %s", s->dir);
        return -1;
    }
    return 0;
}

int clickhouse_spool_pump(clickhouse_spool *s, clickhouse *c)
{
    clickhouse_insert_poll(c);
    if (s->sent > s->head) {
        if (clickhouse_insert_busy(c))
            return 0;
        int rc = settle(s, c);
        if (rc)
            return rc;
    }
    unsigned parallel = c->parallel < 1                         ? 1
                        : c->parallel > CLICKHOUSE_MAX_PARALLEL ? CLICKHOUSE_MAX_PARALLEL
                                                                : c->parallel;
    /* A round of at most `parallel` files, settled together. */
    for (;;) {
        lock(s);
        uint64_t end = s->head + s->files; /* the whole files: they no longer change */
        unlock(s);
        if (s->sent >= end || s->sent - s->head >= parallel)
            break;
        char into[1100];
        uint64_t rows;
        long size;
        int native = 0;
        char meta[256];
        if (read_file(s, s->sent, "batch", into, sizeof(into), &s->body, &rows, &size, &native,
                      meta, sizeof(meta)) ||
            (native == 2 && (!s->convert || s->convert(s->convert_context, meta, s->sent, &s->body,
                                                       &s->decoded, &rows)))) {
            snprintf(c->error, sizeof(c->error), "spool file %020" PRIu64 " in %s is unreadable",
                     s->sent, s->dir);
            return -1;
        }
        s->flight[s->sent - s->head].size = (uint64_t)size;
        s->flight[s->sent - s->head].rows = rows;
        s->sent++;
        /* a slot is free: does not wait */
        if (native == 2   ? clickhouse_insert(c, into, "Native", &s->decoded)
            : native == 1 ? clickhouse_insert(c, into, "Native", &s->body)
                          : clickhouse_insert_rows(c, into, &s->body)) {
            c->insert_failed = 1; /* settled as a failure once the others end */
            break;
        }
    }
    return 0;
}

int clickhouse_spool_send(clickhouse_spool *s, clickhouse *c, int patient)
{
    /* What clickhouse_spool_pump started (tried once): settled first, and
     * a failure there is no reason not to try again here. */
    clickhouse_insert_wait(c);
    int rc = settle(s, c);
    if (rc < 0 || (rc > 0 && !patient))
        return rc;
    unsigned retries = c->retries;
    if (!patient)
        c->retries = 0;
    for (;;) {
        /* Rounds of c->parallel files; an insert that failed was retried
         * already (c->retries): the server is failing. */
        rc = clickhouse_spool_pump(s, c);
        if (rc || (!s->files && !clickhouse_insert_busy(c)))
            break;
        clickhouse_insert_wait_some(c, 100);
    }
    /* A failure (rc 1) was settled by the pump: nothing is in flight and
     * the files stay, to be sent again. */
    c->retries = retries;
    return rc;
}
