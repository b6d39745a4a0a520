/* SPDX-License-Identifier: MIT */
/* analysis_tool.h - what `petw report` (its views) and `petw convert`'s
 * profile exports share: the options that read a trace into a model
 * (petw/analysis.h), the tables every view writes (text, CSV or JSON,
 * behind one interface: report_table.c) and frame names (analysis_model.c). */
#ifndef ANALYSIS_TOOL_H
#define ANALYSIS_TOOL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <petw/analysis.h>

#include "../output/output.h"
#include "../tool.h"

#define MAX_SYMBOL_DIRS 16

/* The options of the model: filters and symbols. */
typedef struct model_args {
    petw_profile_config config;
    const char *symbol_dirs[MAX_SYMBOL_DIRS];
    const char *files[64];
    int nfiles;
    manifest_list manifests; /* --manifest: names of manifest providers' events */
} model_args;

/* Takes argv[*i] (and its value) when it is a model option (--pid, --tid,
 * --process, --start, --end, --symbols, --no-symbols, --no-inline,
 * --manifest):
 * returns 1 and advances *i, 0 when it is not one, -1 (reported on
 * stderr) when its value is missing or wrong. */
int model_option(model_args *m, int argc, char **argv, int *i);
/* The options' help text. */
extern const char model_options_help[];
/* Reads the files into a model; NULL with the reason on stderr. */
petw_profile *model_read(model_args *m);

/* qsort for rows that may be none (an empty view's array may be NULL,
 * which qsort must never be given). */
static inline void sort_rows(void *rows, size_t n, size_t size,
                             int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(rows, n, size, cmp);
}

/* ---- key_index.c: string keys to item positions ---- */

/* An index over items the caller keeps in an array (the views' tallies,
 * pprof's string table); each item has a NUL-terminated key, which
 * `key_of(items, k)` gives. Zero-initialize; key_index_free. */
typedef struct key_index {
    uint32_t *slots; /* open addressing: item + 1, 0 empty */
    uint32_t nslots;
} key_index;
typedef const char *(*key_index_key_fn)(const void *items, uint32_t k);
/* Looks `key` up among the first `count` items (growing the index first,
 * so an item can be added after): 1 and *slot when found (its item is
 * key_index_at(x, *slot)), 0 and the free *slot where to key_index_add it,
 * -1 out of memory. */
int key_index_find(key_index *x, const char *key, uint32_t count, key_index_key_fn key_of,
                   const void *items, uint32_t *slot);
uint32_t key_index_at(const key_index *x, uint32_t slot);
void key_index_add(key_index *x, uint32_t slot, uint32_t item);
void key_index_free(key_index *x);

/* ---- report_table.c: a table in text, CSV or JSON ---- */

typedef struct table table;
typedef struct table_format {
    const char *name;
    int (*begin)(table *t);
    void (*row)(table *t, const char *const *cells);
    void (*end)(table *t);
} table_format;

#define TABLE_MAX_COLUMNS 24
struct table {
    const table_format *format;
    FILE *file;
    const char *title; /* text: a line above the table; JSON: "title" */
    const char *columns[TABLE_MAX_COLUMNS];
    int ncolumns;
    uint32_t right; /* bit k: column k is numeric (text: right-aligned; CSV, JSON: a number) */
    sbuf line;
    void *state;
    uint64_t more; /* rows left out (table_more) */
    uint32_t top;  /* the --top that left them out */
    int error;
};

/* The name of the view the tables of this run belong to (JSON's "view":
 * "cpu", "wait", ...); "" until set. */
void table_view(const char *name);
/* The format named `name` (text, csv, json), or NULL. */
const table_format *table_find(const char *name);
int table_begin(table *t, const table_format *f, FILE *file, const char *title,
                const char *const *columns, int ncolumns, uint32_t numeric);
void table_row(table *t, const char *const *cells);
/* `rows` more rows were left out by --top `top` (before table_end): text
 * says so under the table, JSON as "more" (CSV: its rows alone). */
void table_more(table *t, uint64_t rows, uint32_t top);
/* The rows of `n` that --top `top` leaves out. */
static inline uint64_t rows_left(uint64_t n, uint32_t top)
{
    return top && n > top ? n - top : 0;
}
/* Finishes; returns 0 or -1 (a write or memory error). */
int table_end(table *t);

/* ---- analysis_model.c: frames as text ---- */

/* Calls `fn` for each frame of `s` from the root (outermost) to the leaf,
 * inlined functions as frames of their own (unless `no_inline`). */
typedef void (*frame_fn)(void *ctx, const petw_profile_location *l, const char *function,
                         const petw_source_line *line);
void stack_walk_root_first(const petw_profile *p, const petw_profile_stack *s, int no_inline,
                           frame_fn fn, void *ctx);
/* One frame of a stack as the report's tables show it. */
typedef struct stack_frame {
    const char *name;   /* the function (an inlined one too), or "module (no symbols)" */
    const char *module; /* its module */
    const petw_profile_location *location;
    const petw_source_line *line; /* its source line, NULL when not known */
} stack_frame;
struct module_name {
    const char *module; /* the model's (interned: one pointer per module) */
    char *name;
};
typedef struct stack_frames {
    stack_frame *frames;
    uint32_t count, cap;
    struct module_name *names; /* "module (no symbols)" by module */
    uint32_t nnames, names_cap;
    int failed; /* out of memory: the frames are those that fit */
} stack_frames;
/* Stack `s`'s frames into `sf` (zero-initialized, reused from stack to
 * stack), innermost first: each inlined function a frame of its own (the
 * exports' rule; --no-inline leaves the model none), and a frame without
 * symbols "module (no symbols)" (a run of them in one module one frame)
 * unless `addresses` ("module+0xOFFSET" each).
 * Returns the count; the frames live until the next call. */
uint32_t stack_frames_get(stack_frames *sf, const petw_profile *p, const petw_profile_stack *s,
                          int addresses);
void stack_frames_free(stack_frames *sf);
/* The process's name for a root frame: "name" or "pid N". */
const char *process_label(const petw_profile *p, uint32_t pid, char *buf, size_t size);

/* ---- The views (report_*.c) and exports (export_*.c) ---- */

typedef struct view_args {
    const table_format *format;
    FILE *out;
    uint32_t top;           /* rows at most; 0: all */
    const char *by;         /* cpu: function, module, process, thread */
    const char *callers_of; /* cpu: callers and callees of this function */
    uint32_t pid, tid;      /* the filters (views of per-thread totals apply them) */
    const char *process;    /* likewise: processes of this name alone; NULL: any */
    int absolute;           /* --absolute: times as UTC stamps, not seconds from the start */
    int addresses;          /* --addresses: code without symbols by address, not by module */
    int all;                /* wait: every thread, not only the recorded processes' */
} view_args;

/* A time cell of a view into `out` (NUL-terminated): seconds from the
 * trace's first event ("1.250000"), or with --absolute the UTC stamp; ""
 * for 0 (not seen). */
void view_time(const petw_profile *p, const view_args *a, int64_t t, sbuf *out);

/* Whether a view of per-thread or per-process totals shows process `pid`
 * (the model's own filters apply to samples and events as it reads). */
int view_wants_pid(const petw_profile *p, const view_args *a, uint32_t pid);

int report_cpu(const petw_profile *p, const view_args *a);
/* `petw report diff`: two models' CPU shares side by side. */
int report_diff(const petw_profile *base, const petw_profile *p, const view_args *a);

/* The cpu view's rows by function (key "module\x1fname") or module (key the
 * module), sorted by key; names live as long as the model. */
typedef struct cpu_row {
    char *key;
    const char *name, *module;
    uint64_t self, incl;
} cpu_row;
int cpu_rows(const petw_profile *p, const char *by, int addresses, cpu_row **rows, uint32_t *count,
             uint64_t *total);
void cpu_rows_free(cpu_row *rows, uint32_t count);
int report_wait(const petw_profile *p, const view_args *a);
/* `petw report offcpu` (report_offcpu.c): blocked time by where threads
 * blocked and who readied them, from CSwitch and ReadyThread stacks. */
int report_offcpu(const petw_profile *p, const view_args *a);
int report_processes(const petw_profile *p, const view_args *a);
int report_disk(const petw_profile *p, const view_args *a);
/* `petw report memory` (report_memory.c): faults and mappings by process;
 * --by file: hard faults by process and file. */
int report_memory(const petw_profile *p, const view_args *a);
/* `petw report file` (report_file.c): file I/O by file, process or both. */
int report_file(const petw_profile *p, const view_args *a);
/* report_net.c: TcpIp and UdpIp per connection and per process. */
int report_net(const petw_profile *p, const view_args *a);
int report_events(const petw_profile *p, const view_args *a);

/* What a stack weighs in the profile exports (--value): its CPU samples,
 * its threads' blocked time in it (off-CPU, µs: CSwitch stacks), or, in
 * the flame graph, both as time (µs; samples times the interval), off-CPU
 * frames under an "[off-CPU]" frame of their process, drawn in blue. A
 * stack that weighs nothing is left out. */
enum { VALUE_SAMPLES, VALUE_OFFCPU, VALUE_BOTH };
/* The --value names: 0 and *value set, or -1. */
int export_value_parse(const char *name, int *value);
static inline uint64_t stack_value(const petw_profile *p, const petw_profile_stack *s, int value)
{
    uint64_t on = value == VALUE_OFFCPU ? 0
                  : value == VALUE_BOTH ? s->samples * petw_profile_interval(p) / 10
                                        : s->samples;
    return on + (value == VALUE_SAMPLES ? 0 : s->offcpu / 10);
}

int export_folded(const petw_profile *p, FILE *out, int value);
int export_pprof(const petw_profile *p, FILE *out, int value);
int export_flamegraph(const petw_profile *p, FILE *out, const char *title, int value);

/* export_perfetto.c: the options of --to perfetto. */
typedef struct perfetto_args {
    counter_list counters; /* --counter */
} perfetto_args;
/* Writes the timeline of the files `m` names (read again, streamed) with
 * `p`, their model with symbols, as a Perfetto trace. Returns 0, or -1
 * with the reason on stderr. */
int export_perfetto(model_args *m, const petw_profile *p, const perfetto_args *a, FILE *out);

#endif /* ANALYSIS_TOOL_H */
