/* SPDX-License-Identifier: MIT */
/* report_wait.c - `petw report wait`: per thread, the time it ran, was
 * runnable (ready) and was blocked (waiting), from CSwitch and ReadyThread;
 * how often it went on a CPU, was preempted and was readied, the thread
 * that readied it most, and its most common wait reason. What the user
 * recorded comes first: the threads of the processes that started during
 * the trace (the recorded command and what it started), and those alone
 * unless --all. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

/* KWAIT_REASON names (wdm.h), for the reasons CSwitch carries. */
static const char *const reasons[] = {
    "Executive",
    "FreePage",
    "PageIn",
    "PoolAllocation",
    "DelayExecution",
    "Suspended",
    "UserRequest",
    "WrExecutive",
    "WrFreePage",
    "WrPageIn",
    "WrPoolAllocation",
    "WrDelayExecution",
    "WrSuspended",
    "WrUserRequest",
    "WrEventPair",
    "WrQueue",
    "WrLpcReceive",
    "WrLpcReply",
    "WrVirtualMemory",
    "WrPageOut",
    "WrRendezvous",
    "WrKeyedEvent",
    "WrTerminated",
    "WrProcessInSwap",
    "WrCpuRateControl",
    "WrCalloutStack",
    "WrKernel",
    "WrResource",
    "WrPushLock",
    "WrMutex",
    "WrQuantumEnd",
    "WrDispatchInt",
    "WrPreempted",
    "WrYieldExecution",
    "WrFastMutex",
    "WrGuardedMutex",
    "WrRundown",
    "WrAlertByThreadId",
    "WrDeferredPreempt",
    "other",
};

/* A process that started during the trace, or a descendant of one (a
 * few generations up: parents are not always known). */
static int recorded(const petw_profile *p, uint32_t pid)
{
    for (int up = 0; up < 8 && pid; up++) {
        const petw_profile_process *pr = petw_profile_process_find(p, pid);
        if (!pr)
            return 0;
        if (pr->start_time)
            return 1;
        if (pr->parent_pid == pid)
            return 0;
        pid = pr->parent_pid;
    }
    return 0;
}

static const petw_profile *sorting; /* by_waiting's model (qsort has no context) */

static int by_waiting(const void *a, const void *b)
{
    const petw_profile_thread *x = *(const petw_profile_thread *const *)a,
                              *y = *(const petw_profile_thread *const *)b;
    int rx = recorded(sorting, x->pid), ry = recorded(sorting, y->pid);
    if (rx != ry)
        return rx ? -1 : 1;
    if (x->waiting != y->waiting)
        return x->waiting < y->waiting ? 1 : -1;
    if (x->running != y->running)
        return x->running < y->running ? 1 : -1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void ms(char *out, size_t size, uint64_t t100ns)
{
    snprintf(out, size, "%.3f", (double)t100ns / 1e4);
}

int report_wait(const petw_profile *p, const view_args *a)
{
    uint32_t n = petw_profile_thread_count(p), m = 0, mine = 0;
    const petw_profile_thread **rows = malloc((n + 1) * sizeof(*rows));
    if (!rows)
        return 1;
    for (uint32_t k = 0; k < n; k++) {
        const petw_profile_thread *t = petw_profile_thread_at(p, k);
        if (t->tid && (t->switches_in || t->running || t->waiting || t->ready) &&
            view_wants_pid(p, a, t->pid) && (!a->tid || t->tid == a->tid)) {
            rows[m++] = t;
            mine += recorded(p, t->pid);
        }
    }
    sorting = p;
    if (!m)
        fprintf(stderr,
                "petw: no thread switched%s (the wait view needs CSwitch events: "
                "record with --kernel cswitch, and dispatcher for who readied whom)\n",
                a->pid || a->tid || a->process ? " in what the filters keep" : " in the trace");
    sort_rows(rows, m, sizeof(*rows), by_waiting);
    if (mine && mine < m && !a->all) {
        fprintf(stderr,
                "petw: wait: the threads of the processes started during the trace; %" PRIu32
                " more threads ran before it (--all shows them)\n",
                m - mine);
        m = mine; /* sorted first */
    }
    static const char *const cols[] = {"PID",      "TID",         "Process",  "Running ms",
                                       "Ready ms", "Waiting ms",  "Switches", "Preempted",
                                       "Readied",  "Top readier", "By it",    "Wait reason"};
    table tb;
    if (table_begin(&tb, a->format, a->out, "wait: per thread, from CSwitch and ReadyThread", cols,
                    12, 0x7FBu) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < m && (!a->top || k < a->top); k++) {
        const petw_profile_thread *t = rows[k];
        char pid[16], tid[16], run[32], rdy[32], wt[32], sw[24], pre[24], red[24], top[16],
            topn[24], label[32];
        snprintf(pid, sizeof(pid), "%" PRIu32, t->pid);
        snprintf(tid, sizeof(tid), "%" PRIu32, t->tid);
        ms(run, sizeof(run), t->running);
        ms(rdy, sizeof(rdy), t->ready);
        ms(wt, sizeof(wt), t->waiting);
        snprintf(sw, sizeof(sw), "%" PRIu64, t->switches_in);
        snprintf(pre, sizeof(pre), "%" PRIu64, t->preempted);
        snprintf(red, sizeof(red), "%" PRIu64, t->readied);
        snprintf(top, sizeof(top), "%" PRIu32, t->top_reader_tid);
        snprintf(topn, sizeof(topn), "%" PRIu64, t->top_reader_count);
        uint32_t best = 0;
        for (uint32_t r = 1; r < 40; r++)
            if (t->wait_reasons[r] > t->wait_reasons[best])
                best = r;
        const char *row[] = {pid,
                             tid,
                             process_label(p, t->pid, label, sizeof(label)),
                             run,
                             rdy,
                             wt,
                             sw,
                             pre,
                             red,
                             t->top_reader_tid ? top : "",
                             t->top_reader_tid ? topn : "",
                             t->wait_reasons[best] ? reasons[best] : ""};
        table_row(&tb, row);
    }
    free(rows);
    table_more(&tb, rows_left(m, a->top), a->top);
    return table_end(&tb) ? 1 : 0;
}

/* Most samples first; then in PID order. */
static int by_samples(const void *a, const void *b)
{
    const petw_profile_process *x = *(const petw_profile_process *const *)a,
                               *y = *(const petw_profile_process *const *)b;
    if (x->samples != y->samples)
        return x->samples < y->samples ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* A command line for the text table: at most `max` characters (whole
 * UTF-8 sequences), "..." when cut. */
static const char *short_command(const char *c, char *buf, size_t max)
{
    size_t n = 0, chars = 0;
    while (c[n] && chars < max) {
        n++;
        while ((c[n] & 0xC0) == 0x80)
            n++;
        chars++;
    }
    if (!c[n])
        return c;
    snprintf(buf, max * 4 + 4, "%.*s...", (int)n, c);
    return buf;
}

#define COMMAND_TEXT_CHARS 60

int report_processes(const petw_profile *p, const view_args *a)
{
    static const char *const rcols[] = {"PID",     "Parent", "Name",        "Samples",
                                        "Start s", "End s",  "Command line"};
    static const char *const acols[] = {"PID",   "Parent", "Name",        "Samples",
                                        "Start", "End",    "Command line"};
    uint32_t count = petw_profile_process_count(p), m = 0;
    const petw_profile_process **rows = malloc((count + 1) * sizeof(*rows));
    if (!rows)
        return 1;
    for (uint32_t k = 0; k < count; k++) {
        const petw_profile_process *pr = petw_profile_process_at(p, k);
        /* PID 0 (Windows' Idle, Linux's swapper) only when it was sampled. */
        if ((pr->pid || pr->samples) && view_wants_pid(p, a, pr->pid))
            rows[m++] = pr;
    }
    sort_rows(rows, m, sizeof(*rows), by_samples);
    int text = !strcmp(a->format->name, "text");
    table tb;
    if (table_begin(&tb, a->format, a->out, "processes", a->absolute ? acols : rcols, 7,
                    a->absolute ? 0xBu : 0x3Bu) != 0) {
        free(rows);
        return 1;
    }
    for (uint32_t k = 0; k < m && (!a->top || k < a->top); k++) {
        const petw_profile_process *pr = rows[k];
        char pid[16], ppid[16], n[24], cmd[COMMAND_TEXT_CHARS * 4 + 4];
        sbuf start = {0}, end = {0};
        snprintf(pid, sizeof(pid), "%" PRIu32, pr->pid);
        snprintf(ppid, sizeof(ppid), "%" PRIu32, pr->parent_pid);
        snprintf(n, sizeof(n), "%" PRIu64, pr->samples);
        view_time(p, a, pr->start_time, &start);
        view_time(p, a, pr->end_time, &end);
        const char *row[] = {pid,
                             ppid,
                             pr->name,
                             n,
                             start.data ? start.data : "",
                             end.data ? end.data : "",
                             text ? short_command(pr->command_line, cmd, COMMAND_TEXT_CHARS)
                                  : pr->command_line};
        table_row(&tb, row);
        sbuf_free(&start);
        sbuf_free(&end);
    }
    free(rows);
    table_more(&tb, rows_left(m, a->top), a->top);
    return table_end(&tb) ? 1 : 0;
}
