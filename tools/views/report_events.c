/* SPDX-License-Identifier: MIT */
/* report_events.c - `petw report events`: every kind of event the trace
 * holds (provider, event, opcode, version), how many, how often (per second
 * over the trace), when first and last; and for Start/Stop pairs of a task
 * (by activity ID, else by thread), how many and how long. Most frequent
 * first. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

static int by_count(const void *a, const void *b)
{
    const petw_profile_event_kind *x = *(const petw_profile_event_kind *const *)a,
                                  *y = *(const petw_profile_event_kind *const *)b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    int c = strcmp(x->provider, y->provider);
    return c ? c : strcmp(x->name, y->name);
}

int report_events(const petw_profile *p, const view_args *a)
{
    uint32_t n = petw_profile_event_kind_count(p);
    const petw_profile_event_kind **rows = malloc((n + 1) * sizeof(*rows));
    if (!rows)
        return 1;
    for (uint32_t k = 0; k < n; k++)
        rows[k] = petw_profile_event_kind_at(p, k);
    sort_rows(rows, n, sizeof(*rows), by_count);
    int64_t first, last;
    petw_profile_bounds(p, &first, &last);
    double seconds = last > first ? (double)(last - first) / 1e7 : 0.0;
    static const char *const cols[] = {"Count",   "Per s",  "Provider", "Event",
                                       "Id",      "Opcode", "Version",  "Pairs",
                                       "Mean ms", "Max ms", "First s",  "Last s"};
    static const char *const acols[] = {"Count",   "Per s", "Provider", "Event",  "Id",    "Opcode",
                                        "Version", "Pairs", "Mean ms",  "Max ms", "First", "Last"};
    table tb;
    if (table_begin(&tb, a->format, a->out, "events: by kind", a->absolute ? acols : cols, 12,
                    a->absolute ? 0x3F3u : 0xFF3u) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < n && (!a->top || k < a->top); k++) {
        const petw_profile_event_kind *e = rows[k];
        char count[24], rate[32], id[8], op[8], ver[8], pairs[24], mean[32], max[32];
        snprintf(count, sizeof(count), "%" PRIu64, e->count);
        snprintf(rate, sizeof(rate), "%.1f", seconds > 0 ? (double)e->count / seconds : 0.0);
        snprintf(id, sizeof(id), "%u", e->id);
        snprintf(op, sizeof(op), "%u", e->opcode);
        snprintf(ver, sizeof(ver), "%u", e->version);
        snprintf(pairs, sizeof(pairs), "%" PRIu64, e->pairs);
        snprintf(mean, sizeof(mean), "%.3f",
                 e->pairs ? (double)e->pair_total / (double)e->pairs / 1e4 : 0.0);
        snprintf(max, sizeof(max), "%.3f", (double)e->pair_max / 1e4);
        sbuf t0 = {0}, t1 = {0};
        view_time(p, a, e->first, &t0);
        view_time(p, a, e->last, &t1);
        const char *row[] = {count,
                             rate,
                             e->provider,
                             e->name,
                             id,
                             op,
                             ver,
                             e->pairs ? pairs : "",
                             e->pairs ? mean : "",
                             e->pairs ? max : "",
                             t0.data ? t0.data : "",
                             t1.data ? t1.data : ""};
        table_row(&tb, row);
        sbuf_free(&t0);
        sbuf_free(&t1);
    }
    free(rows);
    table_more(&tb, rows_left(n, a->top), a->top);
    return table_end(&tb) ? 1 : 0;
}
