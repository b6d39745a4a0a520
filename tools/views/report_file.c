/* SPDX-License-Identifier: MIT */
/* report_file.c - `petw report file`: file I/O (the FileIo class) by file
 * (default), by process (--by process) or by both (--by both): operations
 * (Ops counts every event, Cleanup included; Other: flushes, set-info,
 * directory operations), opens, reads, writes, closes, deletes, renames, bytes read and written,
 * the total and longest time from an operation to its OperationEnd; on Windows traces, the disk
 * bytes that DiskIo's FileObject puts at each file's door (WPA's "Disk Usage by file"). Most bytes
 * first. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

typedef struct file_total {
    const char *name;
    uint32_t pid;
    petw_profile_file sum;
} file_total;

static int by_bytes(const void *a, const void *b)
{
    const file_total *x = a, *y = b;
    uint64_t bx =
        x->sum.read_bytes + x->sum.write_bytes + x->sum.disk_read_bytes + x->sum.disk_write_bytes;
    uint64_t by =
        y->sum.read_bytes + y->sum.write_bytes + y->sum.disk_read_bytes + y->sum.disk_write_bytes;
    if (bx != by)
        return bx < by ? 1 : -1;
    uint64_t ox = 0, oy = 0;
    for (int k = 0; k < PETW_FILE_OP_KINDS; k++) {
        ox += x->sum.ops[k];
        oy += y->sum.ops[k];
    }
    if (ox != oy)
        return ox < oy ? 1 : -1;
    int c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    return c ? c : (x->pid < y->pid ? -1 : x->pid > y->pid);
}

static void add(petw_profile_file *to, const petw_profile_file *f)
{
    for (int k = 0; k < PETW_FILE_OP_KINDS; k++)
        to->ops[k] += f->ops[k];
    to->read_bytes += f->read_bytes;
    to->write_bytes += f->write_bytes;
    to->time_total += f->time_total;
    if (f->time_max > to->time_max)
        to->time_max = f->time_max;
    to->disk_reads += f->disk_reads;
    to->disk_writes += f->disk_writes;
    to->disk_read_bytes += f->disk_read_bytes;
    to->disk_write_bytes += f->disk_write_bytes;
}

/* Sums the model's (file, process) rows into rows by file, by process or by
 * both; returns how many. The model's rows are few (files x processes), so a
 * scan finds a row. */
static uint32_t sum_rows(const petw_profile *p, file_total *rows, int by_file, int by_process)
{
    uint32_t n = petw_profile_file_count(p), count = 0;
    for (uint32_t k = 0; k < n; k++) {
        const petw_profile_file *f = petw_profile_file_at(p, k);
        const char *name = by_file ? f->name : NULL;
        uint32_t pid = by_process ? f->pid : 0;
        uint32_t j = 0;
        while (j < count && !(rows[j].name == name && rows[j].pid == pid))
            j++;
        if (j == count) {
            rows[count].name = name;
            rows[count].pid = pid;
            count++;
        }
        add(&rows[j].sum, f);
    }
    return count;
}

/* Begins the table with the columns the grouping shows: File, PID and
 * Process as asked, then the numbers. The table keeps TITLE, so the
 * caller's buffer holds it until table_end. */
static int begin_table(table *tb, char *title, size_t size, const view_args *a, int by_file,
                       int by_process)
{
    static const char *const cols[] = {"File",
                                       "PID",
                                       "Process",
                                       "Ops",
                                       "Opens",
                                       "Reads",
                                       "Read bytes",
                                       "Writes",
                                       "Write bytes",
                                       "Closes",
                                       "Deletes",
                                       "Renames",
                                       "Other",
                                       "Total ms",
                                       "Max ms",
                                       "Disk reads",
                                       "Disk read bytes",
                                       "Disk writes",
                                       "Disk write bytes"};
    const char *const *c = cols;
    int ncols = 19, first = 0;
    if (!by_process)
        first = 0; /* File, then the numbers (PID and Process left out below) */
    else if (!by_file)
        first = 1;
    snprintf(title, size, "file: file I/O by %s (FileIo%s)",
             by_file && by_process ? "file and process"
             : by_file             ? "file"
                                   : "process",
             " and DiskIo by FileKey");
    const char *used[19];
    int nused = 0;
    for (int k = first; k < ncols; k++)
        if (by_process || (k != 1 && k != 2))
            used[nused++] = c[k];
    uint32_t numeric = 0;
    for (int k = 0; k < nused; k++)
        if (strcmp(used[k], "File") && strcmp(used[k], "Process"))
            numeric |= 1u << k;
    return table_begin(tb, a->format, a->out, title, used, nused, numeric);
}

/* Writes one row: its file and process as the grouping shows them, then
 * the operations, bytes, times and disk figures. */
static void put_row(table *tb, const petw_profile *p, const file_total *row, int by_file,
                    int by_process)
{
    const petw_profile_file *s = &row->sum;
    char pid[16], label[32], v[16][24];
    uint64_t ops = 0;
    for (int j = 0; j < PETW_FILE_OP_KINDS; j++)
        ops += s->ops[j];
    uint64_t other =
        s->ops[PETW_FILE_OP_FLUSH] + s->ops[PETW_FILE_OP_SETINFO] + s->ops[PETW_FILE_OP_OTHER];
    snprintf(pid, sizeof(pid), "%" PRIu32, row->pid);
    snprintf(v[0], 24, "%" PRIu64, ops);
    snprintf(v[1], 24, "%" PRIu64, s->ops[PETW_FILE_OP_CREATE]);
    snprintf(v[2], 24, "%" PRIu64, s->ops[PETW_FILE_OP_READ]);
    snprintf(v[3], 24, "%" PRIu64, s->read_bytes);
    snprintf(v[4], 24, "%" PRIu64, s->ops[PETW_FILE_OP_WRITE]);
    snprintf(v[5], 24, "%" PRIu64, s->write_bytes);
    snprintf(v[6], 24, "%" PRIu64, s->ops[PETW_FILE_OP_CLOSE]);
    snprintf(v[7], 24, "%" PRIu64, s->ops[PETW_FILE_OP_DELETE]);
    snprintf(v[8], 24, "%" PRIu64, s->ops[PETW_FILE_OP_RENAME]);
    snprintf(v[9], 24, "%" PRIu64, other);
    snprintf(v[10], 24, "%.3f", (double)s->time_total / 1e4);
    snprintf(v[11], 24, "%.3f", (double)s->time_max / 1e4);
    snprintf(v[12], 24, "%" PRIu64, s->disk_reads);
    snprintf(v[13], 24, "%" PRIu64, s->disk_read_bytes);
    snprintf(v[14], 24, "%" PRIu64, s->disk_writes);
    snprintf(v[15], 24, "%" PRIu64, s->disk_write_bytes);
    const char *cells[19];
    int m = 0;
    if (by_file)
        cells[m++] = row->name && row->name[0] ? row->name : "(no name)";
    if (by_process) {
        cells[m++] = pid;
        cells[m++] =
            row->pid == UINT32_MAX ? "(unknown)" : process_label(p, row->pid, label, sizeof(label));
    }
    for (int j = 0; j < 16; j++)
        cells[m++] = v[j];
    table_row(tb, cells);
}

int report_file(const petw_profile *p, const view_args *a)
{
    int by_file = 1, by_process = 0;
    if (a->by && !strcmp(a->by, "process"))
        by_file = 0, by_process = 1;
    else if (a->by && !strcmp(a->by, "both"))
        by_process = 1;
    else if (a->by && strcmp(a->by, "file")) {
        fprintf(stderr, "petw: report file: --by file, process or both, not '%s'\n", a->by);
        return 2;
    }
    file_total *rows = calloc(petw_profile_file_count(p) + 1, sizeof(*rows));
    if (!rows)
        return 1;
    uint32_t count = sum_rows(p, rows, by_file, by_process);
    sort_rows(rows, count, sizeof(*rows), by_bytes);
    table tb;
    char title[96];
    if (begin_table(&tb, title, sizeof(title), a, by_file, by_process) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < count && (!a->top || k < a->top); k++)
        put_row(&tb, p, &rows[k], by_file, by_process);
    table_more(&tb, rows_left(count, a->top), a->top);
    free(rows);
    int rc = table_end(&tb) ? 1 : 0;
    uint64_t skipped = petw_profile_file_skipped(p), unended = petw_profile_file_unended(p);
    if (skipped || unended)
        fprintf(stderr,
                "petw: report file: %" PRIu64 " FileIo records skipped as malformed, %" PRIu64
                " operations without their OperationEnd (counted without a time)\n",
                skipped, unended);
    return rc;
}
