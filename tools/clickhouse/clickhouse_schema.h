/* SPDX-License-Identifier: MIT */
/* clickhouse_schema.h - petw's tables in ClickHouse (clickhouse_schema.c;
 * docs/clickhouse.md is their manual). A change of a table's columns is a
 * new CLICKHOUSE_SCHEMA_VERSION. */
#ifndef CLICKHOUSE_SCHEMA_H
#define CLICKHOUSE_SCHEMA_H

#include <stddef.h>

#include "clickhouse.h"

#define CLICKHOUSE_SCHEMA_VERSION 1

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

/* Creates the database and every table that is absent, and checks that
 * those present have this version's columns. Returns 0, or -1 with the
 * reason in c->error. */
int clickhouse_schema_ensure(clickhouse *c);

#endif /* CLICKHOUSE_SCHEMA_H */
