/* SPDX-License-Identifier: MIT */
/* report_disk.c - `petw report disk`: which processes did the disk I/O
 * (DiskIo Read and Write): requests and bytes each way, and the mean and
 * longest response time, most bytes first. */
#include <inttypes.h>
#include <stdlib.h>

#include "analysis_tool.h"

static int by_bytes(const void *a, const void *b)
{
    const petw_profile_disk *x = *(const petw_profile_disk *const *)a,
                            *y = *(const petw_profile_disk *const *)b;
    uint64_t bx = x->read_bytes + x->write_bytes, by = y->read_bytes + y->write_bytes;
    if (bx != by)
        return bx < by ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int report_disk(const petw_profile *p, const view_args *a)
{
    uint32_t n = petw_profile_disk_count(p);
    const petw_profile_disk **rows = malloc((n + 1) * sizeof(*rows));
    if (!rows)
        return 1;
    for (uint32_t k = 0; k < n; k++)
        rows[k] = petw_profile_disk_at(p, k);
    sort_rows(rows, n, sizeof(*rows), by_bytes);
    static const char *const cols[] = {"PID",    "Process",     "Reads",   "Read bytes",
                                       "Writes", "Write bytes", "Mean ms", "Max ms"};
    table tb;
    if (table_begin(&tb, a->format, a->out, "disk: I/O by process (DiskIo)", cols, 8, 0xFDu) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < n && (!a->top || k < a->top); k++) {
        const petw_profile_disk *d = rows[k];
        char pid[16], r[24], rb[24], w[24], wb[24], mean[32], max[32], label[32];
        uint64_t count = d->reads + d->writes;
        snprintf(pid, sizeof(pid), "%" PRIu32, d->pid);
        snprintf(r, sizeof(r), "%" PRIu64, d->reads);
        snprintf(rb, sizeof(rb), "%" PRIu64, d->read_bytes);
        snprintf(w, sizeof(w), "%" PRIu64, d->writes);
        snprintf(wb, sizeof(wb), "%" PRIu64, d->write_bytes);
        snprintf(mean, sizeof(mean), "%.3f",
                 count ? (double)d->response_total / (double)count / 1e4 : 0.0);
        snprintf(max, sizeof(max), "%.3f", (double)d->response_max / 1e4);
        const char *row[] = {
            pid, process_label(p, d->pid, label, sizeof(label)), r, rb, w, wb, mean, max};
        table_row(&tb, row);
    }
    free(rows);
    table_more(&tb, rows_left(n, a->top), a->top);
    return table_end(&tb) ? 1 : 0;
}
