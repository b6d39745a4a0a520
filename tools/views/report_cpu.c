/* SPDX-License-Identifier: MIT */
/* report_cpu.c - `petw report cpu`: where the CPU samples went, by
 * function (the default), module, process or thread: self samples (the
 * sampled address was there) and inclusive ones (anywhere on the stack,
 * once per stack), as counts and percentages of all samples kept; or, with
 * --callers FUNC, the functions that called FUNC and those it called.
 * Frames are those of every export (stack_frames): inlined functions are
 * functions of their own, and code without symbols is one row per module
 * ("gzip (no symbols)") unless --addresses asks for its addresses. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

typedef struct entry {
    char *key;
    const char *name, *module;
    uint32_t pid, tid;
    uint64_t self, incl;
    uint32_t last_stack;         /* inclusive samples count once per stack */
    const petw_source_line *hot; /* by function: the line of its largest self */
    uint64_t hot_samples;        /* stack (its source line is shown) */
    int hot_set;                 /* hot (which may be NULL) was chosen */
} entry;

typedef struct tally {
    entry *items;
    uint32_t count, cap;
    key_index index;
    int failed;
} tally;

static const char *entry_key(const void *items, uint32_t k)
{
    return ((const entry *)items)[k].key;
}

static entry *tally_get(tally *t, const char *key)
{
    uint32_t slot;
    int found = key_index_find(&t->index, key, t->count, entry_key, t->items, &slot);
    if (found > 0)
        return &t->items[key_index_at(&t->index, slot)];
    if (found < 0) {
        t->failed = 1;
        return NULL;
    }
    if (t->count == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 256;
        entry *e = realloc(t->items, cap * sizeof(*e));
        if (!e) {
            t->failed = 1;
            return NULL;
        }
        t->items = e;
        t->cap = cap;
    }
    entry *e = &t->items[t->count];
    memset(e, 0, sizeof(*e));
    e->key = strdup(key);
    e->last_stack = UINT32_MAX;
    if (!e->key) {
        t->failed = 1;
        return NULL;
    }
    key_index_add(&t->index, slot, t->count++);
    return e;
}

static void tally_free(tally *t)
{
    for (uint32_t k = 0; k < t->count; k++)
        free(t->items[k].key);
    free(t->items);
    key_index_free(&t->index);
}

static int by_self(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->self != y->self)
        return x->self < y->self ? 1 : -1;
    if (x->incl != y->incl)
        return x->incl < y->incl ? 1 : -1;
    return strcmp(x->key, y->key);
}

/* "file.c:12": a frame's source line, or "" without line information. */
static const char *source(const petw_source_line *ln, char *buf, size_t size)
{
    if (!ln || !ln->file)
        return "";
    const char *base = strrchr(ln->file, '/');
    base = base ? base + 1 : ln->file;
    if (ln->line)
        snprintf(buf, size, "%s:%u", base, ln->line);
    else
        snprintf(buf, size, "%s", base);
    return buf;
}

enum { BY_FUNCTION, BY_MODULE, BY_PROCESS, BY_THREAD };

/* The entry of frame `f` (or of the stack's thread/process). */
static entry *entry_for(tally *t, int by, const petw_profile *p, const petw_profile_stack *s,
                        const stack_frame *f)
{
    char key[1200], buf[32];
    switch (by) {
    case BY_FUNCTION:
        snprintf(key, sizeof(key), "%s\x1f%s", f->module, f->name);
        break;
    case BY_MODULE:
        snprintf(key, sizeof(key), "%s", f->module);
        break;
    case BY_PROCESS:
        snprintf(key, sizeof(key), "%" PRIu32, s->pid);
        break;
    default:
        snprintf(key, sizeof(key), "%" PRIu32 "/%" PRIu32, s->pid, s->tid);
        break;
    }
    entry *e = tally_get(t, key);
    if (e && !e->name) {
        e->pid = s->pid;
        e->tid = s->tid;
        e->name = by == BY_FUNCTION ? strchr(e->key, '\x1f') + 1 /* lives with the key */
                  : by == BY_MODULE ? f->location->module
                                    : process_label(p, s->pid, buf, sizeof(buf));
        if (e->name == buf)
            e->name = NULL; /* "pid N": rebuilt when printed */
        e->module = f->location->module;
    }
    return e;
}

/* ", N with a truncated stack" (petw_profile_truncated), or "". */
static const char *truncated(const petw_profile *p, char *buf, size_t size)
{
    uint64_t n = petw_profile_truncated(p);
    if (!n)
        return "";
    snprintf(buf, size, ", %" PRIu64 " with a truncated stack", n);
    return buf;
}

static void percent(char *out, size_t size, uint64_t n, uint64_t total)
{
    snprintf(out, size, "%.2f%%", total ? 100.0 * (double)n / (double)total : 0.0);
}

static int write_table(const petw_profile *p, const view_args *a, tally *t, int by, uint64_t total)
{
    sort_rows(t->items, t->count, sizeof(*t->items), by_self);
    static const char *const fcols[] = {"Self%",    "Self",   "Incl%", "Incl",
                                        "Function", "Module", "Source"};
    static const char *const mcols[] = {"Self%", "Self", "Incl%", "Incl", "Module"};
    static const char *const pcols[] = {"Samples%", "Samples", "PID", "Process"};
    static const char *const tcols[] = {"Samples%", "Samples", "PID", "TID", "Process"};
    const char *const *cols = by == BY_FUNCTION  ? fcols
                              : by == BY_MODULE  ? mcols
                              : by == BY_PROCESS ? pcols
                                                 : tcols;
    int ncols = by == BY_FUNCTION ? 7 : by == BY_MODULE ? 5 : by == BY_PROCESS ? 4 : 5;
    char title[160], cut[64];
    snprintf(title, sizeof(title), "cpu by %s: %" PRIu64 " samples%s",
             by == BY_FUNCTION  ? "function"
             : by == BY_MODULE  ? "module"
             : by == BY_PROCESS ? "process"
                                : "thread",
             total, truncated(p, cut, sizeof(cut)));
    table tb;
    if (table_begin(&tb, a->format, a->out, title, cols, ncols,
                    by <= BY_MODULE    ? 0xFu
                    : by == BY_PROCESS ? 0x7u
                                       : 0xFu) != 0)
        return -1;
    for (uint32_t k = 0; k < t->count && (!a->top || k < a->top); k++) {
        entry *e = &t->items[k];
        char sp[16], sn[24], ip[16], in[24], pid[16], tid[16], label[32];
        percent(sp, sizeof(sp), e->self, total);
        snprintf(sn, sizeof(sn), "%" PRIu64, e->self);
        percent(ip, sizeof(ip), e->incl, total);
        snprintf(in, sizeof(in), "%" PRIu64, e->incl);
        snprintf(pid, sizeof(pid), "%" PRIu32, e->pid);
        snprintf(tid, sizeof(tid), "%" PRIu32, e->tid);
        const char *name = e->name ? e->name : process_label(p, e->pid, label, sizeof(label));
        if (by == BY_FUNCTION) {
            char src[300];
            const char *row[] = {sp, sn, ip, in, name, e->module, source(e->hot, src, sizeof(src))};
            table_row(&tb, row);
        } else if (by == BY_MODULE) {
            const char *row[] = {sp, sn, ip, in, name};
            table_row(&tb, row);
        } else if (by == BY_PROCESS) {
            const char *row[] = {sp, sn, pid, name};
            table_row(&tb, row);
        } else {
            const char *row[] = {sp, sn, pid, tid, name};
            table_row(&tb, row);
        }
    }
    table_more(&tb, rows_left(t->count, a->top), a->top);
    return table_end(&tb);
}

/* --callers FUNC: at FUNC's outermost frame of each stack, the frame above
 * (its caller) and below (its callee, or FUNC itself when it was sampled). */
static int callers(const petw_profile *p, const view_args *a, uint64_t total)
{
    tally up = {0}, down = {0};
    uint64_t in_func = 0;
    stack_frames sf = {0};
    for (uint32_t k = 0; k < petw_profile_stack_count(p); k++) {
        const petw_profile_stack *s = petw_profile_stack_at(p, k);
        if (!s->samples)
            continue; /* an off-CPU stack alone */
        uint32_t n = stack_frames_get(&sf, p, s, a->addresses), at = UINT32_MAX;
        for (uint32_t j = 0; j < n; j++)
            if (!strcmp(sf.frames[j].name, a->callers_of))
                at = j;
        if (at == UINT32_MAX)
            continue;
        in_func += s->samples;
        const stack_frame *caller = at + 1 < n ? &sf.frames[at + 1] : NULL;
        const stack_frame *callee = at > 0 ? &sf.frames[at - 1] : NULL;
        entry *e = tally_get(&up, caller ? caller->name : "[root]");
        if (e) {
            e->self += s->samples;
            e->module = caller ? caller->location->module : "";
        }
        e = tally_get(&down, callee ? callee->name : "[self]");
        if (e) {
            e->self += s->samples;
            e->module = callee ? callee->location->module : "";
        }
    }
    int rc = up.failed || down.failed || sf.failed ? -1 : 0;
    stack_frames_free(&sf);
    sort_rows(up.items, up.count, sizeof(*up.items), by_self);
    sort_rows(down.items, down.count, sizeof(*down.items), by_self);
    char title[1200], cut[64];
    snprintf(title, sizeof(title), "cpu: callers and callees of %s (%" PRIu64 " samples, %.2f%%)%s",
             a->callers_of, in_func, total ? 100.0 * (double)in_func / (double)total : 0.0,
             truncated(p, cut, sizeof(cut)));
    static const char *const cols[] = {"Relation", "Samples%", "Samples", "Function", "Module"};
    table tb;
    if (rc == 0 && table_begin(&tb, a->format, a->out, title, cols, 5, 0x6u) == 0) {
        for (int side = 0; side < 2; side++) {
            tally *t = side ? &down : &up;
            for (uint32_t k = 0; k < t->count && (!a->top || k < a->top); k++) {
                char sp[16], sn[24];
                percent(sp, sizeof(sp), t->items[k].self, total);
                snprintf(sn, sizeof(sn), "%" PRIu64, t->items[k].self);
                const char *row[] = {side ? "callee" : "caller", sp, sn, t->items[k].key,
                                     t->items[k].module};
                table_row(&tb, row);
            }
        }
        table_more(&tb, rows_left(up.count, a->top) + rows_left(down.count, a->top), a->top);
        rc = table_end(&tb);
    }
    tally_free(&up);
    tally_free(&down);
    return rc;
}

/* Self and inclusive samples of every entry (inclusive once per stack). */
static void aggregate(const petw_profile *p, int by, int addresses, tally *t)
{
    stack_frames sf = {0};
    for (uint32_t k = 0; k < petw_profile_stack_count(p) && !t->failed; k++) {
        const petw_profile_stack *s = petw_profile_stack_at(p, k);
        if (!s->samples)
            continue; /* an off-CPU stack alone */
        uint32_t n = stack_frames_get(&sf, p, s, addresses);
        if (sf.failed)
            t->failed = 1;
        for (uint32_t j = 0; j < n; j++) {
            const stack_frame *f = &sf.frames[j];
            entry *e = entry_for(t, by, p, s, f);
            if (!e)
                break;
            if (j == 0) {
                e->self += s->samples;
                if (s->samples > e->hot_samples) {
                    e->hot_samples = s->samples;
                    e->hot = f->line;
                    e->hot_set = 1;
                }
            } else if (!e->hot_set) {
                e->hot = f->line; /* no self samples (yet): a call site */
                e->hot_set = 1;
            }
            if (e->last_stack != k) {
                e->last_stack = k;
                e->incl += s->samples;
            }
            if (by >= BY_PROCESS)
                break; /* one entry per stack */
        }
    }
    stack_frames_free(&sf);
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const cpu_row *)a)->key, ((const cpu_row *)b)->key);
}

int cpu_rows(const petw_profile *p, const char *by_name, int addresses, cpu_row **rows,
             uint32_t *count, uint64_t *total)
{
    int by = !by_name || !strcmp(by_name, "function") ? BY_FUNCTION
             : !strcmp(by_name, "module")             ? BY_MODULE
                                                      : -1;
    *rows = NULL;
    *count = 0;
    *total = 0;
    if (by < 0)
        return -1;
    for (uint32_t k = 0; k < petw_profile_stack_count(p); k++)
        *total += petw_profile_stack_at(p, k)->samples;
    tally t = {0};
    aggregate(p, by, addresses, &t);
    cpu_row *r = t.failed ? NULL : calloc(t.count + 1u, sizeof(*r));
    if (r) {
        for (uint32_t k = 0; k < t.count; k++) {
            r[k] = (cpu_row){t.items[k].key, t.items[k].name, t.items[k].module, t.items[k].self,
                             t.items[k].incl};
            t.items[k].key = NULL; /* the row owns it now */
        }
        sort_rows(r, t.count, sizeof(*r), by_key);
        *rows = r;
        *count = t.count;
    }
    tally_free(&t);
    return r ? 0 : -1;
}

void cpu_rows_free(cpu_row *rows, uint32_t count)
{
    for (uint32_t k = 0; rows && k < count; k++)
        free(rows[k].key);
    free(rows);
}

int report_cpu(const petw_profile *p, const view_args *a)
{
    int by = !a->by || !strcmp(a->by, "function") ? BY_FUNCTION
             : !strcmp(a->by, "module")           ? BY_MODULE
             : !strcmp(a->by, "process")          ? BY_PROCESS
             : !strcmp(a->by, "thread")           ? BY_THREAD
                                                  : -1;
    if (by < 0) {
        fprintf(stderr, "petw: --by takes function, module, process or thread\n");
        return 2;
    }
    uint64_t total = 0;
    for (uint32_t k = 0; k < petw_profile_stack_count(p); k++)
        total += petw_profile_stack_at(p, k)->samples;
    if (a->callers_of)
        return callers(p, a, total) ? 1 : 0;
    tally t = {0};
    aggregate(p, by, a->addresses, &t);
    int rc = t.failed ? -1 : write_table(p, a, &t, by, total);
    tally_free(&t);
    if (rc)
        fprintf(stderr, "petw: report failed (out of memory or a write error)\n");
    return rc ? 1 : 0;
}
