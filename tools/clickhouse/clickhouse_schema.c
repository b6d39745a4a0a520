/* SPDX-License-Identifier: MIT */
/* clickhouse_schema.c - the tables `petw export --to clickhouse` fills
 * (docs/clickhouse.md describes each column): created when absent, and
 * checked when present, so that a table of another shape is one clear
 * error instead of rows in the wrong columns. Only what ClickHouse 18.16
 * (Debian's) and current releases both accept: no DateTime64, no Map, no
 * LowCardinality, no UUID (GUIDs are text as petw dump writes them). */
#include <stdio.h>
#include <string.h>

#include "clickhouse_schema.h"

/* Every table is a ReplacingMergeTree whose sorting key holds the row's
 * identity (machine, trace_id, seq): a row sent twice (a retried batch, a
 * rerun export) is one row in a query with FINAL, and after merges. */
static const clickhouse_column events_columns[] = {
    {"machine", "String"},
    {"boot_time", "Int64"},
    {"trace_id", "UInt64"},
    {"batch", "UInt32"},
    {"seq", "UInt64"},
    {"timestamp", "Int64"},
    {"provider", "String"},
    {"provider_guid", "FixedString(36)"},
    {"event", "String"},
    {"task_name", "String"},
    {"opcode_name", "String"},
    {"level_name", "String"},
    {"message", "String"},
    {"id", "UInt16"},
    {"version", "UInt8"},
    {"channel", "UInt8"},
    {"level", "UInt8"},
    {"opcode", "UInt8"},
    {"task", "UInt16"},
    {"keyword", "UInt64"},
    {"pid", "UInt32"},
    {"tid", "UInt32"},
    {"cpu", "UInt32"},
    {"activity_id", "FixedString(36)"},
    {"related_activity_id", "String"},
    {"sid", "String"},
    {"ts_id", "UInt32"},
    {"process_start_key", "UInt64"},
    {"event_key", "UInt64"},
    {"stack", "Array(UInt64)"},
    {"pair_key", "UInt64"},
    {"field_names", "Array(String)"},
    {"field_values", "Array(String)"},
    {"data", "String"},
};

static const clickhouse_column traces_columns[] = {
    {"machine", "String"},     {"trace_id", "UInt64"},       {"boot_time", "Int64"},
    {"file", "String"},        {"logger_name", "String"},    {"start_time", "Int64"},
    {"end_time", "Int64"},     {"pointer_size", "UInt32"},   {"number_of_processors", "UInt32"},
    {"events_lost", "UInt64"}, {"buffers_lost", "UInt64"},   {"events", "UInt64"},
    {"samples", "UInt64"},     {"schema_version", "UInt32"},
};

static const clickhouse_column processes_columns[] = {
    {"machine", "String"},      {"trace_id", "UInt64"},   {"seq", "UInt64"},
    {"pid", "UInt32"},          {"parent_pid", "UInt32"}, {"name", "String"},
    {"command_line", "String"}, {"start_time", "Int64"},  {"end_time", "Int64"},
    {"samples", "UInt64"},
};

static const clickhouse_column threads_columns[] = {
    {"machine", "String"},     {"trace_id", "UInt64"},  {"seq", "UInt64"},
    {"tid", "UInt32"},         {"pid", "UInt32"},       {"samples", "UInt64"},
    {"running_ns", "UInt64"},  {"ready_ns", "UInt64"},  {"waiting_ns", "UInt64"},
    {"switches_in", "UInt64"}, {"preempted", "UInt64"}, {"readied", "UInt64"},
};

static const clickhouse_column images_columns[] = {
    {"machine", "String"}, {"trace_id", "UInt64"}, {"seq", "UInt64"},
    {"module", "String"},  {"path", "String"},     {"kernel", "UInt8"},
};

static const clickhouse_column samples_columns[] = {
    {"machine", "String"},
    {"trace_id", "UInt64"},
    {"seq", "UInt64"},
    {"timestamp", "Int64"},
    {"cpu", "UInt32"},
    {"pid", "UInt32"},
    {"tid", "UInt32"},
    {"functions", "Array(String)"},
    {"modules", "Array(String)"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MONTH "toYYYYMM(toDateTime(intDiv(timestamp, 1000000000)))"

const clickhouse_table clickhouse_tables[CLICKHOUSE_TABLE_COUNT] = {
    [CLICKHOUSE_EVENTS] = {"events", events_columns, COUNT(events_columns), MONTH,
                           "machine, timestamp, trace_id, seq"},
    [CLICKHOUSE_TRACES] = {"traces", traces_columns, COUNT(traces_columns), NULL,
                           "machine, trace_id"},
    [CLICKHOUSE_PROCESSES] = {"processes", processes_columns, COUNT(processes_columns), NULL,
                              "machine, trace_id, seq"},
    [CLICKHOUSE_THREADS] = {"threads", threads_columns, COUNT(threads_columns), NULL,
                            "machine, trace_id, seq"},
    [CLICKHOUSE_IMAGES] = {"images", images_columns, COUNT(images_columns), NULL,
                           "machine, trace_id, seq"},
    [CLICKHOUSE_SAMPLES] = {"samples", samples_columns, COUNT(samples_columns), MONTH,
                            "machine, timestamp, trace_id, seq"},
};

int clickhouse_table_into(const clickhouse *c, const clickhouse_table *t, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "%s.%s (", c->database, t->name);
    for (size_t k = 0; k < t->ncolumns && n < size; k++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", k ? ", " : "", t->columns[k].name);
    if (n < size)
        n += (size_t)snprintf(out + n, size - n, ")");
    return n < size ? 0 : -1;
}

/* CREATE TABLE IF NOT EXISTS for `t`. */
static int create(clickhouse *c, const clickhouse_table *t)
{
    sbuf b = {0};
    sbuf_puts(&b, "CREATE TABLE IF NOT EXISTS ");
    sbuf_puts(&b, c->database);
    sbuf_putc(&b, '.');
    sbuf_puts(&b, t->name);
    sbuf_puts(&b, " (");
    for (size_t k = 0; k < t->ncolumns; k++) {
        sbuf_puts(&b, k ? ", " : "");
        sbuf_puts(&b, t->columns[k].name);
        sbuf_putc(&b, ' ');
        sbuf_puts(&b, t->columns[k].type);
    }
    sbuf_puts(&b, ") ENGINE = ReplacingMergeTree");
    if (t->partition) {
        sbuf_puts(&b, " PARTITION BY ");
        sbuf_puts(&b, t->partition);
    }
    sbuf_puts(&b, " ORDER BY (");
    sbuf_puts(&b, t->order);
    sbuf_puts(&b, ")");
    sbuf_putc(&b, 0);
    int rc = b.failed ? -1 : clickhouse_query(c, b.data);
    if (b.failed)
        snprintf(c->error, sizeof(c->error), "out of memory");
    sbuf_free(&b);
    return rc;
}

/* Whether the table's columns, as system.columns lists them, are ours in
 * our order. */
static int check(clickhouse *c, const clickhouse_table *t)
{
    char sql[512];
    snprintf(sql, sizeof(sql),
             "SELECT name, type FROM system.columns WHERE database = '%s' AND table = '%s' "
             "FORMAT TabSeparated",
             c->database, t->name);
    if (clickhouse_query(c, sql))
        return -1;
    sbuf want = {0};
    for (size_t k = 0; k < t->ncolumns; k++) {
        sbuf_puts(&want, t->columns[k].name);
        sbuf_putc(&want, '\t');
        sbuf_puts(&want, t->columns[k].type);
        sbuf_putc(&want, '\n');
    }
    int same = !want.failed && want.len == c->response.len &&
               !memcmp(want.data, c->response.data, want.len);
    sbuf_free(&want);
    if (!same)
        snprintf(c->error, sizeof(c->error),
                 "table %s.%s at %s exists with columns other than schema version %d's "
                 "(docs/clickhouse.md); export to another database or drop the table",
                 c->database, t->name, c->where, CLICKHOUSE_SCHEMA_VERSION);
    return same ? 0 : -1;
}

int clickhouse_schema_ensure(clickhouse *c)
{
    char sql[256];
    snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS %s", c->database);
    if (clickhouse_query(c, sql))
        return -1;
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++)
        if (create(c, &clickhouse_tables[k]) || check(c, &clickhouse_tables[k]))
            return -1;
    return 0;
}
