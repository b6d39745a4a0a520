/* SPDX-License-Identifier: MIT */
/* cmd_report.c - `petw report VIEW FILE...`: where the time went, as a
 * table (text, CSV or JSON). The trace is read into one model
 * (petw/analysis.h: processes, threads, images, distinct stacks, switch
 * times; each distinct address symbolized once), which each view reads:
 * analysis/report_*.c. */
#include <stdlib.h>
#include <string.h>

#include "views/analysis_tool.h"
#include "tool.h"

const char report_usage[] =
    "usage: petw report VIEW FILE... [--format text|csv|json] [--top N] [-o OUT] [options]\n"
    "Views:\n"
    "  cpu        CPU samples by function (self and inclusive), or --by module|process|thread;\n"
    "             --callers FUNC: the callers and callees of FUNC\n"
    "  wait       per thread: running, ready and waiting time, switches, who readied it\n"
    "             (the recorded command's threads first; --all: every thread by waiting)\n"
    "  offcpu     blocked time by where each thread blocked and the thread (and its code)\n"
    "             that readied it: waits, waiting and ready time (CSwitch and ReadyThread\n"
    "             stacks); --callers FUNC: the callers and callees of FUNC in them\n"
    "  processes  the processes the trace saw, their samples and command lines\n"
    "  disk       disk I/O by process: requests, bytes, mean and longest response\n"
    "  memory     per process: soft and hard faults, hard fault time, bytes mapped and\n"
    "             unmapped, peak (PageFault); --by file: hard faults by file\n"
    "  file       file I/O by file (--by process, --by both): operations, bytes read and\n"
    "             written, total and longest time; disk bytes by file (Windows traces)\n"
    "  net        TCP and UDP per connection and per process: sends, receives and bytes\n"
    "             each way, retransmits, how long each connection was open\n"
    "  events     every kind of event: count, rate, first and last; Start/Stop durations\n"
    "  diff       BASE NEW: each function's CPU share in both and how far it moved\n"
    "             (--by module for modules)\n"
    "Options:\n"
    "  --format F             text (default), csv or json\n"
    "  --top N                the first N rows (text default: 30; 0: all)\n"
    "  --by module|process|thread  cpu and diff: rows by module (or process, thread)\n"
    "                         instead of by function; memory: --by file\n"
    "  --callers FUNC         cpu: the callers and callees of FUNC\n"
    "  --addresses            cpu, diff: code without symbols by address, not one row\n"
    "                         per module\n"
    "  --absolute             times as UTC stamps (default: seconds from the start)\n"
    "  -o OUT                 write to OUT (created owner-only; --force replaces it;\n"
    "                         - is standard output, the default)\n";

typedef int (*view_fn)(const petw_profile *p, const view_args *a);

/* The view called NAME: its function, or *diff for `diff`. Returns 0, or
 * 2 after saying what is wrong (an option or an unknown name first). */
static int find_view(const char *name, view_fn *fn, int *diff)
{
    static const struct {
        const char *name;
        view_fn fn;
    } views[] = {{"cpu", report_cpu},       {"wait", report_wait},
                 {"offcpu", report_offcpu}, {"processes", report_processes},
                 {"disk", report_disk},     {"events", report_events},
                 {"memory", report_memory}, {"file", report_file},
                 {"net", report_net}};
    *fn = NULL;
    *diff = !strcmp(name, "diff");
    for (size_t k = 0; k < sizeof(views) / sizeof(views[0]); k++)
        if (!strcmp(name, views[k].name))
            *fn = views[k].fn;
    if (!*fn && !*diff && name[0] == '-')
        return command_usage_error("report",
                                   "the VIEW goes first, before '%s' (cpu, wait, offcpu, "
                                   "processes, disk, file, memory, net, events or diff)",
                                   name);
    if (!*fn && !*diff)
        return command_usage_error("report",
                                   "unknown view '%s' (cpu, wait, offcpu, processes, disk, file, "
                                   "memory, net, events or diff)",
                                   name);
    return 0;
}

/* Reads the options and FILEs after the VIEW into the model's arguments
 * (m, initialised) and the view's (a, its format set), the output's path
 * and --force. Returns 0, or 2 after saying what is wrong. */
static int parse_options(int argc, char **argv, model_args *m, view_args *a, const char **out_path,
                         int *force)
{
    long top = -1;
    for (int i = 1; i < argc; i++) {
        int r = model_option(m, argc, argv, &i);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (!(a->format = table_find(argv[++i])))
                return command_usage_error("report", "unknown format '%s' (text, csv or json)",
                                           argv[i]);
        } else if (!strcmp(argv[i], "--top") && i + 1 < argc) {
            char *end;
            top = strtol(argv[++i], &end, 10);
            if (*end || top < 0) {
                fprintf(stderr, "petw: bad --top value\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--by") && i + 1 < argc) {
            a->by = argv[++i];
        } else if (!strcmp(argv[i], "--callers") && i + 1 < argc) {
            a->callers_of = argv[++i];
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            *out_path = argv[++i];
        } else if (!strcmp(argv[i], "--absolute")) {
            a->absolute = 1;
        } else if (!strcmp(argv[i], "--addresses")) {
            a->addresses = 1;
        } else if (!strcmp(argv[i], "--all")) {
            a->all = 1;
        } else if (!strcmp(argv[i], "--force")) {
            *force = 1;
        } else if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "--top") ||
                   !strcmp(argv[i], "--by") || !strcmp(argv[i], "--callers") ||
                   !strcmp(argv[i], "-o")) {
            return command_usage_error("report", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return command_usage_error("report", "unknown option '%s'", argv[i]);
        } else if (m->nfiles < MAX_FILES) {
            m->files[m->nfiles++] = argv[i];
        } else {
            fprintf(stderr, "petw: at most %d files\n", MAX_FILES);
            return 2;
        }
    }
    if (!m->nfiles)
        return command_usage_error("report", "%s", "no FILE");
    a->top = top >= 0 ? (uint32_t)top : !strcmp(a->format->name, "text") ? 30 : 0;
    return 0;
}

/* Reads the trace (or diff's two) and writes the view to OUT_PATH or
 * standard output. */
static int run_view(const char *name, view_fn fn, int diff, model_args *m, view_args *a,
                    const char *out_path, int force)
{
    /* diff: each trace its own model, with the same filters. */
    model_args second = *m;
    if (diff) {
        m->nfiles = 1;
        second.files[0] = second.files[1];
        second.nfiles = 1;
    }
    petw_profile *p = model_read(m), *p2 = diff && p ? model_read(&second) : NULL;
    if (!p || (diff && !p2)) {
        petw_profile_free(p);
        return 1;
    }
    table_view(name);
    a->out = out_path ? output_file_create(out_path, force) : stdout;
    int rc = 1;
    if (a->out) {
        rc = diff ? report_diff(p, p2, a) : fn(p, a);
        if (out_path && output_file_close(a->out) != 0)
            rc = 1;
    }
    petw_profile_free(p);
    petw_profile_free(p2);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "%s%s", report_usage, model_options_help);
        return 2;
    }
    view_fn fn;
    int diff;
    int rc = find_view(argv[0], &fn, &diff);
    if (rc)
        return rc;
    model_args m;
    memset(&m, 0, sizeof(m));
    petw_profile_config_init(&m.config);
    view_args a;
    memset(&a, 0, sizeof(a));
    a.format = table_find("text");
    const char *out_path = NULL;
    int force = 0;
    if ((rc = parse_options(argc, argv, &m, &a, &out_path, &force)) != 0)
        return rc;
    a.pid = m.config.pid;
    a.tid = m.config.tid;
    a.process = m.config.process_name;
    if (fn == report_wait || fn == report_processes || fn == report_disk || fn == report_events ||
        fn == report_memory || fn == report_file || fn == report_net)
        m.config.no_symbols = 1; /* these name no code */
    if (diff && m.nfiles != 2) {
        fprintf(stderr, "petw: report diff takes two traces: BASE NEW\n");
        return 2;
    }
    return run_view(argv[0], fn, diff, &m, &a, out_path, force);
}
