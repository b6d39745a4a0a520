/* SPDX-License-Identifier: MIT */
/* report_table.c - the tables of `petw report`: text (aligned columns,
 * buffered: views write their top rows), CSV (RFC 4180) and JSON (one
 * object: the view's name, its title and an array of rows), with the
 * escaping output/output_value.c gives every format. CSV and JSON write
 * numbers as numbers: a percentage without its '%' (text keeps it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../output/output.h"
#include "analysis_tool.h"

static const char *view_name = "";

void table_view(const char *name)
{
    view_name = name ? name : "";
}

/* A numeric cell's number as CSV and JSON write it ("12.5%" -> "12.5",
 * "+0.25" -> "0.25"): its length from *start, or 0 when it is not one. */
static size_t number_of(const char *c, const char **start)
{
    const char *s = c[0] == '+' ? c + 1 : c;
    if (!(s[0] >= '0' && s[0] <= '9') && !(s[0] == '-' && s[1] >= '0' && s[1] <= '9'))
        return 0;
    char *end;
    (void)strtod(s, &end);
    if (end == s || !(*end == 0 || (*end == '%' && end[1] == 0)))
        return 0;
    for (const char *q = s; q < end; q++)
        if (!strchr("0123456789.-+eE", *q))
            return 0; /* hexadecimal, inf or nan: not a JSON number */
    *start = s;
    return (size_t)(end - s);
}

static void flush_line(table *t)
{
    if (t->line.failed || fwrite(t->line.data, 1, t->line.len, t->file) != t->line.len)
        t->error = -1;
    t->line.len = 0;
}

/* ---- text: rows kept until the end, then written with column widths ---- */

typedef struct text_state {
    char **cells; /* row-major */
    size_t rows, cap;
} text_state;

static int text_begin(table *t)
{
    t->state = calloc(1, sizeof(text_state));
    return t->state ? 0 : -1;
}

static void text_row(table *t, const char *const *cells)
{
    text_state *s = t->state;
    if (s->rows == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        char **c = realloc(s->cells, cap * (size_t)t->ncolumns * sizeof(*c));
        if (!c) {
            t->error = -1;
            return;
        }
        s->cells = c;
        s->cap = cap;
    }
    for (int k = 0; k < t->ncolumns; k++) {
        sbuf b = {0};
        text_string(&b, cells[k] ? cells[k] : "");
        sbuf_putc(&b, 0);
        if (b.failed)
            t->error = -1;
        s->cells[s->rows * (size_t)t->ncolumns + (size_t)k] = b.data;
    }
    s->rows++;
}

static void text_end(table *t)
{
    text_state *s = t->state;
    size_t width[TABLE_MAX_COLUMNS];
    for (int k = 0; k < t->ncolumns; k++) {
        width[k] = strlen(t->columns[k]);
        for (size_t r = 0; r < s->rows; r++) {
            const char *c = s->cells[r * (size_t)t->ncolumns + (size_t)k];
            size_t n = c ? strlen(c) : 0;
            if (n > width[k])
                width[k] = n;
        }
    }
    if (t->title) {
        sbuf_puts(&t->line, t->title);
        sbuf_putc(&t->line, '\n');
    }
    for (size_t r = 0; r <= s->rows; r++) {
        for (int k = 0; k < t->ncolumns; k++) {
            const char *c =
                r == 0 ? t->columns[k] : s->cells[(r - 1) * (size_t)t->ncolumns + (size_t)k];
            c = c ? c : "";
            size_t n = strlen(c), pad = width[k] - n;
            int last = k + 1 == t->ncolumns;
            if (t->right & (1u << k))
                for (size_t j = 0; j < pad; j++)
                    sbuf_putc(&t->line, ' ');
            sbuf_put(&t->line, c, n);
            if (!(t->right & (1u << k)) && !last)
                for (size_t j = 0; j < pad; j++)
                    sbuf_putc(&t->line, ' ');
            if (!last)
                sbuf_puts(&t->line, "  ");
        }
        sbuf_putc(&t->line, '\n');
        flush_line(t);
    }
    if (t->more) {
        char note[96];
        snprintf(note, sizeof(note), "... %llu more row%s (--top %u; --top 0 for all)\n",
                 (unsigned long long)t->more, t->more == 1 ? "" : "s", t->top);
        sbuf_puts(&t->line, note);
        flush_line(t);
    }
    for (size_t r = 0; r < s->rows * (size_t)t->ncolumns; r++)
        free(s->cells[r]);
    free(s->cells);
    free(s);
}

/* ---- CSV ---- */

static void csv_row(table *t, const char *const *cells)
{
    for (int k = 0; k < t->ncolumns; k++) {
        if (k)
            sbuf_putc(&t->line, ',');
        const char *c = cells[k] ? cells[k] : "", *num;
        size_t n = (t->right >> k) & 1 && t->state ? number_of(c, &num) : 0;
        if (n)
            sbuf_put(&t->line, num, n);
        else
            csv_field(&t->line, c);
    }
    sbuf_puts(&t->line, "\r\n");
    flush_line(t);
}

static int csv_begin(table *t)
{
    csv_row(t, t->columns);
    t->state = t; /* the rows come: numbers as numbers (not the header) */
    return 0;
}

static void csv_end(table *t)
{
    t->state = NULL;
}

/* ---- JSON ---- */

static int json_begin(table *t)
{
    sbuf_puts(&t->line, "{\"view\":");
    json_string(&t->line, view_name);
    sbuf_puts(&t->line, ",\"title\":");
    json_string(&t->line, t->title ? t->title : "");
    sbuf_puts(&t->line, ",\"rows\":[");
    flush_line(t);
    return 0;
}

/* A numeric cell as a JSON number ("12.5%" -> 12.5; "" -> null), else a
 * string. */
static void json_cell(sbuf *b, const char *c, int numeric)
{
    const char *num;
    size_t n = numeric ? number_of(c, &num) : 0;
    if (n)
        sbuf_put(b, num, n);
    else if (numeric && !c[0])
        sbuf_puts(b, "null"); /* no value (a process's start before the trace) */
    else
        json_string(b, c);
}

static void json_row(table *t, const char *const *cells)
{
    if (t->state)
        sbuf_putc(&t->line, ',');
    t->state = t; /* a row was written */
    sbuf_puts(&t->line, "\n{");
    for (int k = 0; k < t->ncolumns; k++) {
        if (k)
            sbuf_putc(&t->line, ',');
        json_string(&t->line, t->columns[k]);
        sbuf_putc(&t->line, ':');
        json_cell(&t->line, cells[k] ? cells[k] : "", (t->right >> k) & 1);
    }
    sbuf_putc(&t->line, '}');
    flush_line(t);
}

static void json_end(table *t)
{
    sbuf_puts(&t->line, "\n]");
    if (t->more) {
        char more[48];
        snprintf(more, sizeof(more), ",\"more\":%llu", (unsigned long long)t->more);
        sbuf_puts(&t->line, more);
    }
    sbuf_puts(&t->line, "}\n");
    flush_line(t);
    t->state = NULL;
}

static const table_format formats[] = {
    {"text", text_begin, text_row, text_end},
    {"csv", csv_begin, csv_row, csv_end},
    {"json", json_begin, json_row, json_end},
};

const table_format *table_find(const char *name)
{
    for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++)
        if (!strcmp(formats[k].name, name))
            return &formats[k];
    return NULL;
}

int table_begin(table *t, const table_format *f, FILE *file, const char *title,
                const char *const *columns, int ncolumns, uint32_t numeric)
{
    memset(t, 0, sizeof(*t));
    t->format = f;
    t->file = file;
    t->title = title;
    t->ncolumns = ncolumns > TABLE_MAX_COLUMNS ? TABLE_MAX_COLUMNS : ncolumns;
    memcpy(t->columns, columns, (size_t)t->ncolumns * sizeof(*columns));
    t->right = numeric;
    return f->begin(t);
}

void table_row(table *t, const char *const *cells)
{
    t->format->row(t, cells);
}

void table_more(table *t, uint64_t rows, uint32_t top)
{
    t->more = rows;
    t->top = top;
}

int table_end(table *t)
{
    t->format->end(t);
    sbuf_free(&t->line);
    if (fflush(t->file) != 0)
        t->error = -1;
    return t->error;
}
