/* SPDX-License-Identifier: MIT */
/* clickhouse_native.c - rows built as RowBinary (what the exporters write
 * and the spool keeps) sent as one block of ClickHouse's Native format,
 * column by column: the server then copies each column whole instead of
 * parsing every value of every row, which took it half the CPU time of
 * RowBinary on petw's events (docs/benchmarks.md). A block is
 *
 *     <columns as LEB128> <rows as LEB128>
 *     then per column: <name> <type> <the column's data>
 *
 * where a number column is its values one after the other (little-endian),
 * a String column each value as in RowBinary, and an Array column the
 * running total of its elements per row (UInt64) followed by every row's
 * elements (ClickHouse's Native layout as its HTTP interface reads it, with
 * no block information: 18.16 and current releases). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse_schema.h"

enum { FIXED, STRING, ARRAY_FIXED, ARRAY_STRING };

/* The kind of a column type, and its values' size: -1 for a type this
 * does not write. */
static int kind_of(const char *type, size_t *size)
{
    static const struct {
        const char *name;
        size_t size;
    } numbers[] = {{"UInt8", 1}, {"UInt16", 2}, {"UInt32", 4}, {"UInt64", 8}, {"Int64", 8}};
    int array = !strncmp(type, "Array(", 6);
    const char *t = array ? type + 6 : type;
    size_t n = strlen(t) - (size_t)array; /* without the ')' */
    if (array && type[strlen(type) - 1] != ')')
        return -1;
    if (n == 6 && !strncmp(t, "String", 6))
        return array ? ARRAY_STRING : STRING;
    if (!array && !strncmp(t, "FixedString(", 12)) { /* its bytes, as a number's */
        *size = (size_t)strtoul(t + 12, NULL, 10);
        return *size ? FIXED : -1;
    }
    for (size_t k = 0; k < sizeof(numbers) / sizeof(numbers[0]); k++)
        if (strlen(numbers[k].name) == n && !strncmp(t, numbers[k].name, n)) {
            *size = numbers[k].size;
            return array ? ARRAY_FIXED : FIXED;
        }
    return -1;
}

/* Reads a LEB128 number at *pos (below `end`): 0, or -1 when cut. */
static int varint(const unsigned char *p, size_t end, size_t *pos, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0; *pos < end && shift < 64; shift += 7) {
        unsigned char b = p[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* Steps over a RowBinary string at *pos: 0, or -1 when cut. */
static int skip_string(const unsigned char *p, size_t end, size_t *pos)
{
    uint64_t n;
    if (varint(p, end, pos, &n) || n > end - *pos)
        return -1;
    *pos += (size_t)n;
    return 0;
}

int clickhouse_native_block(const clickhouse_table *t, const sbuf *rows, sbuf *out,
                            sbuf scratch[2 * CLICKHOUSE_MAX_COLUMNS])
{
    int kinds[CLICKHOUSE_MAX_COLUMNS];
    size_t sizes[CLICKHOUSE_MAX_COLUMNS];
    uint64_t totals[CLICKHOUSE_MAX_COLUMNS] = {0};
    if (t->ncolumns > CLICKHOUSE_MAX_COLUMNS)
        return -1;
    for (size_t k = 0; k < t->ncolumns; k++) {
        sizes[k] = 0;
        if ((kinds[k] = kind_of(t->columns[k].type, &sizes[k])) < 0)
            return -1;
        scratch[2 * k].len = scratch[2 * k + 1].len = 0;
        scratch[2 * k].failed = scratch[2 * k + 1].failed = 0;
    }
    const unsigned char *p = (const unsigned char *)rows->data;
    size_t end = rows->len, pos = 0;
    uint64_t count = 0;
    while (pos < end) {
        for (size_t k = 0; k < t->ncolumns; k++) {
            size_t at = pos;
            uint64_t n = 0;
            switch (kinds[k]) {
            case FIXED:
                if (sizes[k] > end - pos)
                    return -1;
                pos += sizes[k];
                sbuf_put(&scratch[2 * k], p + at, pos - at);
                break;
            case STRING:
                if (skip_string(p, end, &pos))
                    return -1;
                sbuf_put(&scratch[2 * k], p + at, pos - at);
                break;
            case ARRAY_FIXED:
                if (varint(p, end, &pos, &n) || n > (end - pos) / sizes[k])
                    return -1;
                sbuf_put(&scratch[2 * k + 1], p + pos, (size_t)n * sizes[k]);
                pos += (size_t)n * sizes[k];
                totals[k] += n;
                rb_u64(&scratch[2 * k], totals[k]);
                break;
            default: /* ARRAY_STRING */
                if (varint(p, end, &pos, &n))
                    return -1;
                at = pos;
                for (uint64_t e = 0; e < n; e++)
                    if (skip_string(p, end, &pos))
                        return -1;
                sbuf_put(&scratch[2 * k + 1], p + at, pos - at);
                totals[k] += n;
                rb_u64(&scratch[2 * k], totals[k]);
                break;
            }
        }
        count++;
    }
    out->len = 0;
    out->failed = 0;
    rb_varint(out, t->ncolumns);
    rb_varint(out, count);
    for (size_t k = 0; k < t->ncolumns; k++) {
        rb_string(out, t->columns[k].name);
        rb_string(out, t->columns[k].type);
        sbuf_put(out, scratch[2 * k].data, scratch[2 * k].len);
        sbuf_put(out, scratch[2 * k + 1].data, scratch[2 * k + 1].len);
        if (scratch[2 * k].failed || scratch[2 * k + 1].failed)
            out->failed = 1;
    }
    return out->failed ? -1 : 0;
}

int clickhouse_insert_rows(clickhouse *c, const char *into, sbuf *rows)
{
    const clickhouse_table *t = NULL;
    char name[1100];
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT && !t; k++)
        if (!clickhouse_table_into(c, &clickhouse_tables[k], name, sizeof(name)) &&
            !strcmp(name, into))
            t = &clickhouse_tables[k];
    /* Rows of another table (a spool written by another schema version)
     * go as they are. */
    if (!t || !rows->len)
        return clickhouse_insert(c, into, "RowBinary", rows);
    if (clickhouse_native_block(t, rows, &c->native, c->scratch)) {
        snprintf(c->error, sizeof(c->error), "%s",
                 c->native.failed ? "out of memory building a batch"
                                  : "a batch's rows do not match its table's columns");
        return -1;
    }
    rows->len = 0;
    rows->failed = 0;
    return clickhouse_insert(c, into, "Native", &c->native);
}

size_t clickhouse_columns_bytes(const clickhouse_columns *c)
{
    size_t n = 0;
    for (size_t k = 0; k < c->table->ncolumns; k++)
        n += c->values[k].len + c->offsets[k].len;
    return n;
}

int clickhouse_columns_block(clickhouse_columns *c, sbuf *out)
{
    const clickhouse_table *t = c->table;
    out->len = 0;
    out->failed = 0;
    size_t room = clickhouse_columns_bytes(c) + 64;
    for (size_t k = 0; k < t->ncolumns; k++)
        room += strlen(t->columns[k].name) + strlen(t->columns[k].type) + 4;
    if (!sbuf_room(out, room))
        out->failed = 1;
    out->len = 0;
    rb_varint(out, t->ncolumns);
    rb_varint(out, c->rows);
    for (size_t k = 0; k < t->ncolumns; k++) {
        rb_string(out, t->columns[k].name);
        rb_string(out, t->columns[k].type);
        sbuf_put(out, c->offsets[k].data, c->offsets[k].len);
        sbuf_put(out, c->values[k].data, c->values[k].len);
        if (c->values[k].failed || c->offsets[k].failed)
            out->failed = 1;
        c->values[k].len = c->offsets[k].len = 0;
        c->values[k].failed = c->offsets[k].failed = 0;
        c->totals[k] = 0;
    }
    c->rows = 0;
    return out->failed ? -1 : 0;
}

void clickhouse_columns_free(clickhouse_columns *c)
{
    for (size_t k = 0; k < CLICKHOUSE_MAX_COLUMNS; k++) {
        sbuf_free(&c->values[k]);
        sbuf_free(&c->offsets[k]);
    }
}
