/* SPDX-License-Identifier: MIT */
/* report_memory.c - `petw report memory`: memory by process (the PageFault
 * class): soft and hard faults, the hard faults' time, bytes mapped and
 * unmapped (VirtualAlloc and VirtualFree) and the peak of mapped less
 * unmapped, most faults first; `--by file`: hard faults by process and
 * file, most first, with the bytes read and the total and longest time. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

static int by_faults(const void *a, const void *b)
{
    const petw_profile_memory *x = *(const petw_profile_memory *const *)a,
                              *y = *(const petw_profile_memory *const *)b;
    uint64_t fx = x->soft_faults + x->hard_faults, fy = y->soft_faults + y->hard_faults;
    if (fx != fy)
        return fx < fy ? 1 : -1;
    if (x->mapped_bytes != y->mapped_bytes)
        return x->mapped_bytes < y->mapped_bytes ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_hard(const void *a, const void *b)
{
    const petw_profile_memory_file *x = *(const petw_profile_memory_file *const *)a,
                                   *y = *(const petw_profile_memory_file *const *)b;
    if (x->hard_faults != y->hard_faults)
        return x->hard_faults < y->hard_faults ? 1 : -1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return strcmp(x->file, y->file);
}

static int skipped_note(const petw_profile *p)
{
    uint64_t n = petw_profile_memory_skipped(p);
    if (n)
        fprintf(stderr,
                "petw: report memory: %" PRIu64 " PageFault records skipped (too short "
                "for their layout, or no region's size)\n",
                n);
    return 0;
}

static int by_file(const petw_profile *p, const view_args *a)
{
    uint32_t n = petw_profile_memory_file_count(p), m = 0;
    const petw_profile_memory_file **rows = malloc((n + 1) * sizeof(*rows));
    if (!rows)
        return 1;
    for (uint32_t k = 0; k < n; k++) {
        const petw_profile_memory_file *f = petw_profile_memory_file_at(p, k);
        if (view_wants_pid(p, a, f->pid))
            rows[m++] = f;
    }
    sort_rows(rows, m, sizeof(*rows), by_hard);
    static const char *const cols[] = {"PID",   "Process",  "File",  "Hard faults",
                                       "Bytes", "Total ms", "Max ms"};
    table tb;
    if (table_begin(&tb, a->format, a->out, "memory: hard faults by file (PageFault HardFault)",
                    cols, 7, 0x79u) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < m && (!a->top || k < a->top); k++) {
        const petw_profile_memory_file *f = rows[k];
        char pid[16], hard[24], bytes[24], total[32], max[32], label[32];
        snprintf(pid, sizeof(pid), "%" PRIu32, f->pid);
        snprintf(hard, sizeof(hard), "%" PRIu64, f->hard_faults);
        snprintf(bytes, sizeof(bytes), "%" PRIu64, f->bytes);
        snprintf(total, sizeof(total), "%.3f", (double)f->time_total / 1e4);
        snprintf(max, sizeof(max), "%.3f", (double)f->time_max / 1e4);
        const char *row[] = {pid,
                             process_label(p, f->pid, label, sizeof(label)),
                             f->file[0] ? f->file : "(no file named)",
                             hard,
                             bytes,
                             total,
                             max};
        table_row(&tb, row);
    }
    free(rows);
    table_more(&tb, rows_left(m, a->top), a->top);
    return table_end(&tb) ? 1 : skipped_note(p);
}

int report_memory(const petw_profile *p, const view_args *a)
{
    if (a->by && !strcmp(a->by, "file"))
        return by_file(p, a);
    if (a->by && strcmp(a->by, "process") != 0) {
        fprintf(stderr, "petw: report memory: --by process or file, not '%s'\n", a->by);
        return 2;
    }
    uint32_t n = petw_profile_memory_count(p), m = 0;
    const petw_profile_memory **rows = malloc((n + 1) * sizeof(*rows));
    if (!rows)
        return 1;
    for (uint32_t k = 0; k < n; k++) {
        const petw_profile_memory *e = petw_profile_memory_at(p, k);
        if (view_wants_pid(p, a, e->pid))
            rows[m++] = e;
    }
    sort_rows(rows, m, sizeof(*rows), by_faults);
    static const char *const cols[] = {"PID",     "Process",      "Soft faults",    "Hard faults",
                                       "Hard ms", "Mapped bytes", "Unmapped bytes", "Peak bytes"};
    table tb;
    if (table_begin(&tb, a->format, a->out, "memory: faults and mappings by process (PageFault)",
                    cols, 8, 0xFDu) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < m && (!a->top || k < a->top); k++) {
        const petw_profile_memory *e = rows[k];
        char pid[16], soft[24], hard[24], ms[32], mapped[24], unmapped[24], peak[24], label[32];
        /* Hard: HardPageFault events, or the HardFault reads when the trace
         * has only those. */
        uint64_t h = e->hard_faults > e->hard_reads ? e->hard_faults : e->hard_reads;
        snprintf(pid, sizeof(pid), "%" PRIu32, e->pid);
        snprintf(soft, sizeof(soft), "%" PRIu64, e->soft_faults);
        snprintf(hard, sizeof(hard), "%" PRIu64, h);
        snprintf(ms, sizeof(ms), "%.3f", (double)e->hard_time_total / 1e4);
        snprintf(mapped, sizeof(mapped), "%" PRIu64, e->mapped_bytes);
        snprintf(unmapped, sizeof(unmapped), "%" PRIu64, e->unmapped_bytes);
        snprintf(peak, sizeof(peak), "%" PRId64, e->peak);
        const char *row[] = {
            pid, process_label(p, e->pid, label, sizeof(label)), soft, hard, ms, mapped, unmapped,
            peak};
        table_row(&tb, row);
    }
    free(rows);
    table_more(&tb, rows_left(m, a->top), a->top);
    return table_end(&tb) ? 1 : skipped_note(p);
}
