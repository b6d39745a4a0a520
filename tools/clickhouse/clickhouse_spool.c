/* SPDX-License-Identifier: MIT */
/* clickhouse_spool.c - `petw forward --spool DIR`: batches kept on disk
 * until ClickHouse has them. Each batch is one file, NNNNNNNNNNNNNNNNNNNN.batch,
 * numbered in the order written, holding
 *
 *     petw-spool 1\n<rows>\n<db.table (columns)>\n<the rows as RowBinary>
 *
 * and DIR/head names the first one not yet delivered. A file is written
 * whole under another name and renamed, so a file of the spool is always
 * complete; it is removed only once the server has answered its insert, so
 * a batch may be sent twice (a kill between the answer and the removal),
 * which the tables' keys collapse. Only C's stdio, and mkdir. */
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

#include "clickhouse.h"

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
    if (write_head(s)) {
        snprintf(error, error_size, "cannot write in the spool directory %s", dir);
        return -1;
    }
    return 0;
}

int clickhouse_spool_put(clickhouse_spool *s, const char *into, const sbuf *rows, uint64_t count)
{
    char head[1200];
    int n = snprintf(head, sizeof(head), "petw-spool 1\n%" PRIu64 "\n%s\n", count, into);
    if (n < 0 || (size_t)n >= sizeof(head))
        return -1;
    if (s->bytes + (uint64_t)n + rows->len > s->limit) {
        s->dropped_rows += count;
        s->dropped_batches++;
        return 1;
    }
    char path[600], tmp[600];
    file_name(s, s->next, "batch", path, sizeof(path));
    file_name(s, s->next, "tmp", tmp, sizeof(tmp));
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    int ok = fwrite(head, 1, (size_t)n, f) == (size_t)n &&
             (!rows->len || fwrite(rows->data, 1, rows->len, f) == rows->len);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    s->next++;
    s->files++;
    s->bytes += (uint64_t)n + rows->len;
    return 0;
}

/* Reads the spool's first file: its `into` and rows (in `body`). */
static int read_first(clickhouse_spool *s, char *into, size_t into_size, sbuf *body,
                      uint64_t *count, long *size)
{
    char path[600];
    file_name(s, s->head, "batch", path, sizeof(path));
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char line[32];
    int ok = fgets(line, sizeof(line), f) && !strcmp(line, "petw-spool 1\n") &&
             fscanf(f, "%" SCNu64 "\n", count) == 1 && fgets(into, (int)into_size, f);
    size_t len = ok ? strlen(into) : 0;
    ok = ok && len && into[len - 1] == '\n';
    if (ok)
        into[len - 1] = 0;
    body->len = 0;
    char buf[65536];
    size_t got;
    while (ok && (got = fread(buf, 1, sizeof(buf), f)) > 0)
        sbuf_put(body, buf, got);
    ok = ok && !ferror(f) && !body->failed;
    *size = ok ? ftell(f) : 0;
    fclose(f);
    return ok ? 0 : -1;
}

int clickhouse_spool_send(clickhouse_spool *s, clickhouse *c, int patient)
{
    unsigned retries = c->retries;
    if (!patient)
        c->retries = 0;
    char into[1100];
    sbuf body = {0};
    int rc = 0;
    while (s->files) {
        uint64_t count;
        long size;
        if (read_first(s, into, sizeof(into), &body, &count, &size)) {
            snprintf(c->error, sizeof(c->error), "spool file %020" PRIu64 " in %s is unreadable",
                     s->head, s->dir);
            rc = -1;
            break;
        }
        if (clickhouse_insert(c, into, &body) || clickhouse_insert_wait(c)) {
            c->insert_failed = 0; /* tried again later */
            rc = 1;
            break;
        }
        char path[600];
        file_name(s, s->head, "batch", path, sizeof(path));
        remove(path);
        s->head++;
        s->files--;
        s->bytes -= (uint64_t)size <= s->bytes ? (uint64_t)size : s->bytes;
        s->delivered_rows += count;
        if (write_head(s)) {
            snprintf(c->error, sizeof(c->error), "cannot write in the spool directory %s", s->dir);
            rc = -1;
            break;
        }
    }
    sbuf_free(&body);
    c->retries = retries;
    return rc;
}
