/* SPDX-License-Identifier: MIT */
/* report_diff.c - `petw report diff BASE NEW`: where the CPU went in two
 * traces, side by side (PerfView's diff): each function's (or module's)
 * self and inclusive share in both and how many percentage points it
 * moved, the largest moves first. Shares, not counts: traces of different
 * lengths compare. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

typedef struct moved {
    const cpu_row *base, *now;
    double delta_self, delta_incl;
} moved;

static double share(const cpu_row *r, int incl, uint64_t total)
{
    return r && total ? 100.0 * (double)(incl ? r->incl : r->self) / (double)total : 0.0;
}

static int by_move(const void *a, const void *b)
{
    const moved *x = a, *y = b;
    double dx = x->delta_self < 0 ? -x->delta_self : x->delta_self;
    double dy = y->delta_self < 0 ? -y->delta_self : y->delta_self;
    if (dx != dy)
        return dx < dy ? 1 : -1;
    double ix = x->delta_incl < 0 ? -x->delta_incl : x->delta_incl;
    double iy = y->delta_incl < 0 ? -y->delta_incl : y->delta_incl;
    if (ix != iy)
        return ix < iy ? 1 : -1;
    return strcmp((x->base ? x->base : x->now)->key, (y->base ? y->base : y->now)->key);
}

int report_diff(const petw_profile *base, const petw_profile *p, const view_args *a)
{
    cpu_row *ra = NULL, *rb = NULL;
    uint32_t na = 0, nb = 0;
    uint64_t ta = 0, tb = 0;
    if (a->by && strcmp(a->by, "function") != 0 && strcmp(a->by, "module") != 0) {
        fprintf(stderr, "petw: diff's --by takes function or module\n");
        return 2;
    }
    moved *m = NULL;
    uint32_t nm = 0;
    int rc = 1;
    if (cpu_rows(base, a->by, a->addresses, &ra, &na, &ta) != 0 ||
        cpu_rows(p, a->by, a->addresses, &rb, &nb, &tb) != 0 ||
        !(m = calloc(na + nb + 1u, sizeof(*m))))
        goto out;
    for (uint32_t i = 0, j = 0; i < na || j < nb;) { /* a merge by key */
        int c = i >= na ? 1 : j >= nb ? -1 : strcmp(ra[i].key, rb[j].key);
        moved *e = &m[nm++];
        e->base = c <= 0 ? &ra[i++] : NULL;
        e->now = c >= 0 ? &rb[j++] : NULL;
        e->delta_self = share(e->now, 0, tb) - share(e->base, 0, ta);
        e->delta_incl = share(e->now, 1, tb) - share(e->base, 1, ta);
    }
    sort_rows(m, nm, sizeof(*m), by_move);
    int by_module = a->by && !strcmp(a->by, "module");
    static const char *const cols[] = {"Self delta", "Base self%", "New self%", "Incl delta",
                                       "Base incl%", "New incl%",  "Function",  "Module"};
    static const char *const mcols[] = {"Self delta", "Base self%", "New self%", "Incl delta",
                                        "Base incl%", "New incl%",  "Module"};
    char title[160];
    snprintf(title, sizeof(title),
             "diff by %s: base %" PRIu64 " samples, new %" PRIu64 " samples (percentage points)",
             by_module ? "module" : "function", ta, tb);
    table t;
    if (table_begin(&t, a->format, a->out, title, by_module ? mcols : cols, by_module ? 7 : 8,
                    0x3Fu) != 0)
        goto out;
    for (uint32_t k = 0; k < nm && (!a->top || k < a->top); k++) {
        const cpu_row *r = m[k].base ? m[k].base : m[k].now;
        char ds[24], bs[24], ns[24], di[24], bi[24], ni[24];
        snprintf(ds, sizeof(ds), "%+.2f", m[k].delta_self);
        snprintf(bs, sizeof(bs), "%.2f%%", share(m[k].base, 0, ta));
        snprintf(ns, sizeof(ns), "%.2f%%", share(m[k].now, 0, tb));
        snprintf(di, sizeof(di), "%+.2f", m[k].delta_incl);
        snprintf(bi, sizeof(bi), "%.2f%%", share(m[k].base, 1, ta));
        snprintf(ni, sizeof(ni), "%.2f%%", share(m[k].now, 1, tb));
        const char *row[] = {ds, bs, ns, di, bi, ni, by_module ? r->module : r->name, r->module};
        table_row(&t, row);
    }
    table_more(&t, rows_left(nm, a->top), a->top);
    rc = table_end(&t) ? 1 : 0;
out:
    free(m);
    cpu_rows_free(ra, na);
    cpu_rows_free(rb, nb);
    if (rc == 1)
        fprintf(stderr, "petw: report failed (out of memory or a write error)\n");
    return rc;
}
