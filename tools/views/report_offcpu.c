/* SPDX-License-Identifier: MIT */
/* report_offcpu.c - `petw report offcpu`: where threads waited, as WPA's
 * CPU Usage (Precise) shows it: blocked time by the blocked thread's stack
 * (CSwitch stacks: where the thread switched in had blocked), each with the
 * thread that readied it and that thread's stack (ReadyThread stacks), the
 * waits, their time blocked and then ready (µs). A stack is named by its
 * innermost frame outside the kernel (the code that made the blocking call;
 * the kernel's own frames, the scheduler's, are alike for every wait),
 * else its innermost. --callers FUNC: the callers and callees of FUNC in
 * the blocked stacks, by blocked time. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

#define NONE UINT32_MAX

typedef struct offcpu_row {
    uint32_t pid, tid, ready_pid, ready_tid;
    const char *blocked, *readying; /* function names (the model's strings) */
    uint64_t waits, waiting, ready, waiting_max;
} offcpu_row;

/* The name of stack `k`: its innermost frame outside the kernel. */
static const char *stack_name(const petw_profile *p, uint32_t k)
{
    const petw_profile_stack *s = k == NONE ? NULL : petw_profile_stack_at(p, k);
    if (!s || !s->frame_count)
        return "[no stack]";
    for (uint32_t j = 0; j < s->frame_count; j++) {
        const petw_profile_location *l = petw_profile_location_at(p, s->frames[j]);
        if (!l->kernel)
            return l->name;
    }
    return petw_profile_location_at(p, s->frames[0])->name;
}

static int by_waiting(const void *a, const void *b)
{
    const offcpu_row *x = a, *y = b;
    if (x->waiting != y->waiting)
        return x->waiting < y->waiting ? 1 : -1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    int c = strcmp(x->blocked, y->blocked);
    return c ? c : strcmp(x->readying, y->readying);
}

static void us(char *out, size_t size, uint64_t t100ns)
{
    snprintf(out, size, "%.1f", (double)t100ns / 10.0);
}

/* The waits the filters keep, merged by thread, blocking function,
 * readying thread and readying function. */
static int collect(const petw_profile *p, const view_args *a, offcpu_row **out, uint32_t *count)
{
    uint32_t n = petw_profile_offcpu_count(p), m = 0;
    offcpu_row *rows = malloc((n + 1) * sizeof(*rows));
    if (!rows)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        const petw_profile_offcpu *o = petw_profile_offcpu_at(p, k);
        if (!view_wants_pid(p, a, o->pid) || (a->tid && o->tid != a->tid))
            continue;
        const char *blocked = stack_name(p, o->stack), *readying = stack_name(p, o->ready_stack);
        if (!o->ready_tid && o->ready_stack == NONE)
            readying = "";
        uint32_t j = 0;
        for (; j < m; j++) /* names are the model's interned strings: compare pointers */
            if (rows[j].tid == o->tid && rows[j].pid == o->pid &&
                rows[j].ready_tid == o->ready_tid && rows[j].blocked == blocked &&
                rows[j].readying == readying)
                break;
        if (j == m)
            rows[m++] = (offcpu_row){
                o->pid, o->tid, o->ready_pid, o->ready_tid, blocked, readying, 0, 0, 0, 0};
        offcpu_row *r = &rows[j];
        r->waits += o->waits;
        r->waiting += o->waiting;
        r->ready += o->ready;
        if (o->waiting_max > r->waiting_max)
            r->waiting_max = o->waiting_max;
    }
    sort_rows(rows, m, sizeof(*rows), by_waiting);
    *out = rows;
    *count = m;
    return 0;
}

typedef struct relation {
    const char *name, *module;
    uint64_t waiting, waits;
} relation;

static int by_relation(const void *a, const void *b)
{
    const relation *x = a, *y = b;
    if (x->waiting != y->waiting)
        return x->waiting < y->waiting ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int add_relation(relation **t, uint32_t *n, const petw_profile_location *l, const char *none,
                        const petw_profile_offcpu *o)
{
    const char *name = l ? l->name : none;
    uint32_t k = 0;
    for (; k < *n; k++)
        if (!strcmp((*t)[k].name, name))
            break;
    if (k == *n) {
        relation *g = realloc(*t, (*n + 1) * sizeof(**t));
        if (!g)
            return -1;
        *t = g;
        g[(*n)++] = (relation){name, l ? l->module : "", 0, 0};
    }
    (*t)[k].waiting += o->waiting;
    (*t)[k].waits += o->waits;
    return 0;
}

/* --callers FUNC: the blocked stacks holding FUNC, by its callers and callees. */
static int callers(const petw_profile *p, const view_args *a)
{
    relation *up = NULL, *down = NULL;
    uint32_t nup = 0, ndown = 0;
    uint64_t in_func = 0, total = 0;
    int rc = 0;
    for (uint32_t k = 0; k < petw_profile_offcpu_count(p) && rc == 0; k++) {
        const petw_profile_offcpu *o = petw_profile_offcpu_at(p, k);
        if (!view_wants_pid(p, a, o->pid) || (a->tid && o->tid != a->tid))
            continue;
        total += o->waiting;
        const petw_profile_stack *s = o->stack == NONE ? NULL : petw_profile_stack_at(p, o->stack);
        uint32_t at = NONE;
        for (uint32_t j = 0; s && j < s->frame_count && at == NONE; j++)
            if (!strcmp(petw_profile_location_at(p, s->frames[j])->name, a->callers_of))
                at = j;
        if (at == NONE)
            continue;
        in_func += o->waiting;
        const petw_profile_location *caller =
            at + 1 < s->frame_count ? petw_profile_location_at(p, s->frames[at + 1]) : NULL;
        const petw_profile_location *callee =
            at > 0 ? petw_profile_location_at(p, s->frames[at - 1]) : NULL;
        rc = add_relation(&up, &nup, caller, "[root]", o) ||
             add_relation(&down, &ndown, callee, "[self]", o);
    }
    sort_rows(up, nup, sizeof(*up), by_relation);
    sort_rows(down, ndown, sizeof(*down), by_relation);
    char title[1200];
    snprintf(title, sizeof(title), "offcpu: callers and callees of %s (blocked %.1f us, %.2f%%)",
             a->callers_of, (double)in_func / 10.0,
             total ? 100.0 * (double)in_func / (double)total : 0.0);
    static const char *const cols[] = {"Relation", "Waiting us", "Waits", "Function", "Module"};
    table tb;
    if (rc == 0 && table_begin(&tb, a->format, a->out, title, cols, 5, 0x6u) == 0) {
        for (int side = 0; side < 2; side++) {
            relation *t = side ? down : up;
            uint32_t n = side ? ndown : nup;
            for (uint32_t k = 0; k < n && (!a->top || k < a->top); k++) {
                char w[32], c[24];
                us(w, sizeof(w), t[k].waiting);
                snprintf(c, sizeof(c), "%" PRIu64, t[k].waits);
                const char *row[] = {side ? "callee" : "caller", w, c, t[k].name, t[k].module};
                table_row(&tb, row);
            }
        }
        rc = table_end(&tb);
    } else {
        rc = -1;
    }
    free(up);
    free(down);
    return rc;
}

int report_offcpu(const petw_profile *p, const view_args *a)
{
    if (!petw_profile_offcpu_count(p))
        fprintf(stderr,
                "petw: no thread blocked and ran again in %s (the off-CPU view needs "
                "CSwitch events, with their stacks: record with --kernel "
                "cswitch,dispatcher --stacks cswitch,readythread)\n",
                a->pid || a->tid || a->process ? "what the filters keep" : "the trace");
    if (a->callers_of)
        return callers(p, a) ? 1 : 0;
    offcpu_row *rows;
    uint32_t m;
    if (collect(p, a, &rows, &m) != 0)
        return 1;
    static const char *const cols[] = {
        "PID",         "TID",   "Process",    "Blocked in", "Readied by", "Readying process",
        "Readying in", "Waits", "Waiting us", "Ready us",   "Max wait us"};
    table tb;
    if (table_begin(&tb, a->format, a->out,
                    "offcpu: blocked time by where each thread blocked and who readied it", cols,
                    11, 0x793u) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < m && (!a->top || k < a->top); k++) {
        const offcpu_row *r = &rows[k];
        char pid[16], tid[16], by[16], n[24], w[32], rd[32], mx[32], label[32], blabel[32];
        snprintf(pid, sizeof(pid), "%" PRIu32, r->pid);
        snprintf(tid, sizeof(tid), "%" PRIu32, r->tid);
        snprintf(by, sizeof(by), "%" PRIu32, r->ready_tid);
        snprintf(n, sizeof(n), "%" PRIu64, r->waits);
        us(w, sizeof(w), r->waiting);
        us(rd, sizeof(rd), r->ready);
        us(mx, sizeof(mx), r->waiting_max);
        const char *row[] = {pid,
                             tid,
                             process_label(p, r->pid, label, sizeof(label)),
                             r->blocked,
                             r->ready_tid ? by : "",
                             r->ready_tid ? process_label(p, r->ready_pid, blabel, sizeof(blabel))
                                          : "",
                             r->readying,
                             n,
                             w,
                             rd,
                             mx};
        table_row(&tb, row);
    }
    free(rows);
    return table_end(&tb) ? 1 : 0;
}
