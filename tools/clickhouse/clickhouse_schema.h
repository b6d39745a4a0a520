/* SPDX-License-Identifier: MIT */
/* clickhouse_schema.h - petw's tables in ClickHouse (clickhouse_schema.c;
 * docs/clickhouse.md is their manual). A change of a table's columns is a
 * new CLICKHOUSE_SCHEMA_VERSION. */
#ifndef CLICKHOUSE_SCHEMA_H
#define CLICKHOUSE_SCHEMA_H

#include <stddef.h>

#include "clickhouse.h"

#define CLICKHOUSE_SCHEMA_VERSION 2

typedef struct clickhouse_column {
    const char *name, *type;
} clickhouse_column;

typedef struct clickhouse_table {
    const char *name;
    const clickhouse_column *columns; /* in the order RowBinary rows give them */
    size_t ncolumns;
    const char *partition; /* PARTITION BY expression, or NULL */
    const char *order;     /* ORDER BY: the row's identity */
} clickhouse_table;

enum {
    CLICKHOUSE_EVENTS,
    CLICKHOUSE_TRACES,
    CLICKHOUSE_PROCESSES,
    CLICKHOUSE_THREADS,
    CLICKHOUSE_IMAGES,
    CLICKHOUSE_SAMPLES,
    CLICKHOUSE_TABLE_COUNT
};

extern const clickhouse_table clickhouse_tables[CLICKHOUSE_TABLE_COUNT];

/* "db.table (col, ...)" for clickhouse_insert. Returns 0, or -1 when it
 * does not fit in `size`. */
int clickhouse_table_into(const clickhouse *c, const clickhouse_table *t, char *out, size_t size);

/* clickhouse_native.c: `rows`, RowBinary rows of table `t`, as one Native
 * block in `out`, its columns built in `scratch`. Returns 0, or -1 (rows
 * cut or not of `t`'s columns, a column type it does not write, out of
 * memory). */
int clickhouse_native_block(const clickhouse_table *t, const sbuf *rows, sbuf *out,
                            sbuf scratch[2 * CLICKHOUSE_MAX_COLUMNS]);

/* A table's rows being built column by column, as one block of Native:
 * each column's values one after the other (numbers little-endian, a
 * String as RowBinary writes it: a LEB128 length and the bytes, a
 * FixedString(N) as its N bytes), and an Array column's running total of
 * elements per row (UInt64) before every row's elements. */
typedef struct clickhouse_columns {
    const clickhouse_table *table;
    sbuf values[CLICKHOUSE_MAX_COLUMNS];  /* a column's values, an array's elements */
    sbuf offsets[CLICKHOUSE_MAX_COLUMNS]; /* an array's running totals */
    uint64_t totals[CLICKHOUSE_MAX_COLUMNS];
    uint64_t rows;
} clickhouse_columns;

/* Column k's values, to write this row's value into. */
static inline sbuf *clickhouse_values(clickhouse_columns *c, int k)
{
    return &c->values[k];
}

/* Array column k's elements, to write this row's `n` elements into. */
static inline sbuf *clickhouse_column_array(clickhouse_columns *c, int k, uint64_t n)
{
    c->totals[k] += n;
    rb_u64(&c->offsets[k], c->totals[k]);
    return &c->values[k];
}

/* clickhouse_native.c: the columns' bytes so far. */
size_t clickhouse_columns_bytes(const clickhouse_columns *c);
/* The rows so far as one Native block in `out` (emptied first); the
 * columns come back empty, with their memory. Returns 0, or -1 (out of
 * memory). */
int clickhouse_columns_block(clickhouse_columns *c, sbuf *out);
void clickhouse_columns_free(clickhouse_columns *c);

/* Creates the database and every table that is absent, and checks that
 * those present have this version's columns. Returns 0, or -1 with the
 * reason in c->error. */
int clickhouse_schema_ensure(clickhouse *c);

#endif /* CLICKHOUSE_SCHEMA_H */
