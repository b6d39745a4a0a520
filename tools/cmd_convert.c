/* SPDX-License-Identifier: MIT */
/* cmd_convert.c - `petw convert FILE... --to FORMAT -o OUT [--force]`:
 * the files' records for timeline viewers (chrome: output/output_chrome.c;
 * perfetto: the model's timeline, analysis/export_perfetto*.c), or their
 * CPU samples as a profile (folded, pprof, flamegraph: the model of
 * petw/analysis.h, analysis/export_*.c). OUT is created owner-only and
 * never over an existing file unless --force (tool_output_file.c). */
#include <inttypes.h>
#include <string.h>

#include "views/analysis_tool.h"
#include "output/output.h"
#include "tool.h"

typedef struct convert_args {
    const char *to, *out_path;
    manifest_list manifests;
    char *files[MAX_FILES];
    int nfiles;
    int force;        /* --force: replace an existing OUT */
    int value;        /* --value: VALUE_* of the profile exports */
    model_args model; /* --to folded, pprof, flamegraph, perfetto */
    perfetto_args perfetto;
} convert_args;

const char convert_usage[] =
    "usage: petw convert FILE... --to chrome -o OUT.json [--force] [--manifest PATH]...\n"
    "                    [--counter PROVIDER/EVENT/FIELD]...\n"
    "       petw convert FILE... --to folded|pprof|flamegraph -o OUT [--force]\n"
    "                    [--value samples|offcpu|both] [options]\n"
    "       petw convert FILE... --to perfetto -o OUT.pftrace [--force]\n"
    "                    [--counter PROVIDER/EVENT/FIELD]... [options]\n"
    "Converts trace files for timeline viewers and profilers. OUT is created readable\n"
    "by you alone; an existing OUT is not replaced unless --force (a link there is\n"
    "removed, never written through); -o - writes to standard output.\n"
    "chrome: every event, for timeline viewers (Perfetto, chrome://tracing): names,\n"
    "slices, activity flows, --counter counters.\n"
    "folded: the CPU samples' stacks collapsed (flamegraph.pl, inferno, speedscope).\n"
    "pprof: the CPU samples as pprof's gzipped profile.proto (go tool pprof).\n"
    "flamegraph: an SVG flame graph (click to zoom, search).\n"
    "--value offcpu: the stacks weigh the time their threads were blocked in them (µs;\n"
    "CSwitch stacks: --stacks cswitch), not CPU samples; --value both (flamegraph):\n"
    "on-CPU (samples as time) and off-CPU time (in blue, under [off-CPU]) together.\n"
    "perfetto: Perfetto's trace (ui.perfetto.dev): processes and threads, scheduling,\n"
    "symbolized samples, provider events (Start/Stop slices, activity flows), disk I/O;\n"
    "--counter makes a numeric field of an event a counter track.\n"
    "Options of the profiles and perfetto:\n";

static int is_profile(const char *to)
{
    return !strcmp(to, "folded") || !strcmp(to, "pprof") || !strcmp(to, "flamegraph") ||
           !strcmp(to, "perfetto");
}

typedef struct convert_ctx {
    output out;
    const counter_list *counters;
    petw_decoder *decoder;
} convert_ctx;

static int parse_args(convert_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    petw_profile_config_init(&a->model.config);
    for (int i = 0; i < argc; i++) {
        /* --manifest is every format's: the chrome writer's decoder, and
         * the model's (below). */
        int r = strcmp(argv[i], "--manifest") ? model_option(&a->model, argc, argv, &i) : 0;
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--to") && i + 1 < argc) {
            a->to = argv[++i];
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            a->out_path = argv[++i];
        } else if (!strcmp(argv[i], "--manifest") && i + 1 < argc) {
            if (manifest_add(&a->manifests, argv[++i]) != 0) {
                fprintf(stderr, "petw: too many or empty --manifest values\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--counter") && i + 1 < argc) {
            if (counter_list_add(&a->perfetto.counters, argv[++i]) != 0)
                return 2;
        } else if (!strcmp(argv[i], "--force")) {
            a->force = 1;
        } else if (!strcmp(argv[i], "--value") && i + 1 < argc) {
            if (export_value_parse(argv[++i], &a->value) != 0)
                return command_usage_error(
                    "convert", "--value takes samples, offcpu or both, not '%s'", argv[i]);
        } else if (!strcmp(argv[i], "--to") || !strcmp(argv[i], "-o") ||
                   !strcmp(argv[i], "--manifest") || !strcmp(argv[i], "--counter") ||
                   !strcmp(argv[i], "--value")) {
            return command_usage_error("convert", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return command_usage_error("convert", "unknown option '%s'", argv[i]);
        } else if (a->nfiles < MAX_FILES) {
            a->files[a->nfiles++] = argv[i];
        } else {
            fprintf(stderr, "petw: at most %d files\n", MAX_FILES);
            return 2;
        }
    }
    if (argc == 0) {
        help_print(tool_command_find("convert"), stderr);
        return 2;
    }
    if (a->to && strcmp(a->to, "chrome") != 0 && !is_profile(a->to))
        return command_usage_error(
            "convert", "unknown format '%s' (--to chrome, folded, pprof, flamegraph or perfetto)",
            a->to);
    if (!a->to)
        return command_usage_error(
            "convert", "%s", "no --to FORMAT (chrome, folded, pprof, flamegraph or perfetto)");
    if (!a->out_path)
        return command_usage_error("convert", "%s", "no -o OUT (- for standard output)");
    if (a->nfiles == 0)
        return command_usage_error("convert", "%s", "no FILE");
    if (a->value == VALUE_BOTH && strcmp(a->to, "flamegraph") != 0) {
        fprintf(stderr, "petw: --value both is the flame graph's (folded and pprof take one "
                        "value: samples or offcpu)\n");
        return 2;
    }
    if (a->value != VALUE_SAMPLES && (!strcmp(a->to, "chrome") || !strcmp(a->to, "perfetto"))) {
        fprintf(stderr, "petw: --value is for folded, pprof and flamegraph\n");
        return 2;
    }
    for (int k = 0; k < a->nfiles; k++)
        a->model.files[a->model.nfiles++] = a->files[k];
    a->model.manifests = a->manifests;
    return 0;
}

static void convert_event(petw_event_record *r, void *context)
{
    convert_ctx *c = context;
    const petw_decoded_event *ev = NULL;
    if (petw_decode(c->decoder, r, &ev) != 0)
        ev = NULL;
    output_event(&c->out, r, ev);
}

/* Writes the records of the open files to `file` and closes it. Returns 0,
 * or 1 with the error reported on stderr. */
static int convert(convert_ctx *c, reader *rd, FILE *file)
{
    int output_rc = output_begin(&c->out, &output_chrome, file);
    c->out.same_time = reader_same_time; /* ties a StackWalk event to its sample */
    c->out.counters = c->counters;
    c->out.time_context = rd;
    int process_rc = output_rc ? 0 : reader_process(rd, 0, 0);
    if (!output_rc)
        output_rc = output_end(&c->out);
    int close_rc = output_file_close(file);
    if (process_rc || output_rc || close_rc) {
        fprintf(stderr, "petw: convert failed: %s\n",
                process_rc  ? petw_strerror(process_rc)
                : output_rc ? petw_strerror(output_rc)
                            : "write error");
        return 1;
    }
    return 0;
}

/* A profile export: the model, then the format. */
static int convert_profile(convert_args *a)
{
    petw_profile *p = model_read(&a->model);
    if (!p)
        return 1;
    /* Created once the inputs were read: a bad input leaves no empty OUT. */
    FILE *file = output_file_create(a->out_path, a->force);
    int rc = 1;
    if (file) {
        rc = !strcmp(a->to, "folded")     ? export_folded(p, file, a->value)
             : !strcmp(a->to, "pprof")    ? export_pprof(p, file, a->value)
             : !strcmp(a->to, "perfetto") ? export_perfetto(&a->model, p, &a->perfetto, file)
                                          : export_flamegraph(p, file, a->files[0], a->value);
        if (output_file_close(file) != 0)
            rc = -1;
        if (rc)
            fprintf(stderr, "petw: convert failed: out of memory or a write error\n");
        else if (petw_profile_truncated(p))
            fprintf(stderr,
                    "petw: %" PRIu64 " samples (%" PRIu32 " distinct stacks; %" PRIu64
                    " with a truncated stack) to %s\n",
                    petw_profile_samples(p), petw_profile_stack_count(p), petw_profile_truncated(p),
                    a->out_path);
        else
            fprintf(stderr, "petw: %" PRIu64 " samples (%" PRIu32 " distinct stacks) to %s\n",
                    petw_profile_samples(p), petw_profile_stack_count(p),
                    output_file_name(a->out_path));
    }
    petw_profile_free(p);
    return rc ? 1 : 0;
}

int cmd_convert(int argc, char **argv)
{
    convert_args a;
    convert_ctx c;
    reader rd;
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc;
    if (is_profile(a.to))
        return convert_profile(&a);
    memset(&c, 0, sizeof(c));
    c.counters = &a.perfetto.counters;
    if (!(c.decoder = decoder_create(&a.manifests)))
        return 1;
    if (reader_open(&rd, a.nfiles, a.files, convert_event, &c) != 0) {
        petw_decoder_free(c.decoder);
        return 1;
    }
    /* Created once the inputs opened: a bad input leaves no empty OUT. */
    FILE *file = output_file_create(a.out_path, a.force);
    if (!file) {
        reader_close(&rd);
        petw_decoder_free(c.decoder);
        return 1;
    }
    rc = convert(&c, &rd, file);
    reader_close(&rd);
    petw_decoder_free(c.decoder);
    if (rc == 0)
        fprintf(stderr, "petw: %" PRIu64 " events to %s\n", c.out.events,
                output_file_name(a.out_path));
    return rc;
}
