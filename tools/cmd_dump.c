/* SPDX-License-Identifier: MIT */
/* cmd_dump.c - `petw dump FILE...`: every record of the files, merged in
 * time order, as text, CSV or JSON on stdout, optionally only some
 * providers' and a time range's. */
#include <inttypes.h>
#include <string.h>

#include "output/output.h"
#include "tool.h"

const char dump_usage[] =
    "usage: petw dump FILE... [--format text|csv|json] [--provider NAME|GUID]...\n"
    "                 [--start TIME] [--end TIME] [--manifest PATH]... [--tmf PATH]...\n"
    "Prints every record of the files, merged in time order and decoded, on standard\n"
    "output (petw's tracerpt): TraceLogging events with their field names and values,\n"
    "manifest-based events given their manifest, WPP messages given their TMF files,\n"
    "the kernel's classic events. It reads petw's files and Windows' (compressed ones\n"
    "too); on a terminal, a large input shows its progress on stderr.\n"
    "Options:\n"
    "  --format text|csv|json  the output's format (default text)\n"
    "  --provider NAME|GUID   keeps that provider's events (repeatable). NAME matches\n"
    "                         the provider name the events carry (TraceLogging) or\n"
    "                         the GUID derived from NAME (EventSource, TraceLogging),\n"
    "                         which `petw guid` prints\n"
    "  --start TIME, --end TIME  keeps the events in that range, and always each\n"
    "                         file's header records (EventTrace), which describe the\n"
    "                         file, as ProcessTrace delivers them. TIME is ISO-8601\n"
    "                         UTC (2024-01-31T12:00:00.5Z) or a FILETIME number\n"
    "  --manifest PATH        decodes the events of the providers an instrumentation\n"
    "                         manifest (.man, or a directory of them) describes\n"
    "                         (repeatable; PETW_MANIFEST_PATH adds more, separated\n"
    "                         by ':')\n"
    "  --tmf PATH             decodes WPP messages with the trace message format\n"
    "                         file tracepdb wrote (.tmf, or a directory of them)\n";

typedef struct dump_args {
    const output_format *format;
    provider_filter filter;
    manifest_list manifests;
    char *files[MAX_FILES];
    int nfiles;
    int64_t start, end; /* FILETIMEs, 0: no bound */
} dump_args;

typedef struct dump_ctx {
    output out;
    petw_decoder *decoder;
    const provider_filter *filter;
    uint64_t undecodable; /* records with a malformed schema */
    /* Progress on stderr (a terminal, large input): by event time within
     * the files' span, checked every 64 Ki events. */
    int progress, shown;
    uint64_t seen;
    int64_t span_start, span_end;
} dump_ctx;

/* Parses the option at argv[*i] (and its value). Returns 0 or 2. */
static int parse_option(dump_args *a, int argc, char **argv, int *i)
{
    const char *opt = argv[*i], *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(opt, "--format") && value) {
        a->format = output_find(value);
        if (!a->format || a->format == &output_chrome)
            return command_usage_error("dump", "unknown format '%s' (text, csv or json)", value);
    } else if (!strcmp(opt, "--provider") && value) {
        if (filter_add(&a->filter, value) != 0) {
            fprintf(stderr, "petw: too many or empty --provider values: '%s'\n", value);
            return 2;
        }
    } else if (!strcmp(opt, "--manifest") && value) {
        if (manifest_add(&a->manifests, value) != 0) {
            fprintf(stderr, "petw: too many or empty --manifest values: '%s'\n", value);
            return 2;
        }
    } else if (!strcmp(opt, "--tmf") && value) {
        if (tmf_add(&a->manifests, value) != 0) {
            fprintf(stderr, "petw: too many or empty --manifest/--tmf values: '%s'\n", value);
            return 2;
        }
    } else if ((!strcmp(opt, "--start") || !strcmp(opt, "--end")) && value) {
        if (parse_time(value, opt[2] == 's' ? &a->start : &a->end) != 0) {
            fprintf(stderr, "petw: bad time '%s'\n", value);
            return 2;
        }
    } else if (!value && (!strcmp(opt, "--format") || !strcmp(opt, "--provider") ||
                          !strcmp(opt, "--manifest") || !strcmp(opt, "--tmf") ||
                          !strcmp(opt, "--start") || !strcmp(opt, "--end"))) {
        return command_usage_error("dump", "option '%s' needs a value", opt);
    } else {
        return command_usage_error("dump", "unknown option '%s'", opt);
    }
    (*i)++;
    return 0;
}

static int parse_args(dump_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    a->format = &output_text;
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            int rc = parse_option(a, argc, argv, &i);
            if (rc)
                return rc;
        } else if (a->nfiles < MAX_FILES) {
            a->files[a->nfiles++] = argv[i];
        } else {
            fprintf(stderr, "petw: at most %d files\n", MAX_FILES);
            return 2;
        }
    }
    if (a->nfiles == 0)
        return command_usage_error("dump", "%s", "no FILE");
    return 0;
}

static void progress_init(dump_ctx *c, const reader *rd)
{
    uint64_t bytes = 0;
    c->span_start = INT64_MAX, c->span_end = INT64_MIN;
    for (int i = 0; i < rd->count; i++) {
        const petw_logfile_info *h = petw_trace_info(rd->traces[i]);
        bytes += (uint64_t)h->buffers_written * h->buffer_size;
        c->span_start = h->start_time < c->span_start ? h->start_time : c->span_start;
        c->span_end = h->end_time > c->span_end ? h->end_time : c->span_end;
    }
    c->progress = bytes >= (64u << 20) && tool_isatty(tool_fileno(stderr));
    c->shown = -1;
}

static void show_progress(dump_ctx *c, int64_t ts)
{
    int64_t span = c->span_end - c->span_start;
    int pct = span > 0 ? (int)((ts - c->span_start) * 100 / span) : 0;
    pct = pct < 0 ? 0 : pct > 99 ? 99 : pct;
    if (pct != c->shown) {
        fprintf(stderr, "\rpetw: %d%%", pct);
        c->shown = pct;
    }
}

/* Whether the --provider filter keeps the record. A name can only match a
 * decoded record: then *rc and *ev hold the decoding. */
static int wanted(dump_ctx *c, const petw_event_record *r, const petw_decoded_event **ev, int *rc)
{
    if (filter_has_id(c->filter, &r->header.provider_id))
        return 1;
    if (c->filter->name_count == 0)
        return 0;
    *rc = petw_decode(c->decoder, r, ev);
    return *rc == 0 && filter_has_name(c->filter, (*ev)->provider_name);
}

static void dump_event(petw_event_record *r, void *context)
{
    dump_ctx *c = context;
    const petw_decoded_event *ev = NULL;
    int rc = 1; /* not decoded yet */
    if (c->progress && (++c->seen & 0xFFFF) == 0)
        show_progress(c, r->header.timestamp);
    if (!wanted(c, r, &ev, &rc))
        return;
    if (rc == 1)
        rc = petw_decode(c->decoder, r, &ev);
    if (rc != 0) {
        ev = NULL; /* shown as raw bytes; counted and reported at the end */
        c->undecodable++;
    }
    output_event(&c->out, r, ev);
}

/* Reports what went wrong; returns the exit status. */
static int report(const dump_ctx *c, uint64_t corrupt, int process_rc, int output_rc)
{
    if (corrupt)
        fprintf(stderr, "petw: %" PRIu64 " corrupt buffers skipped\n", corrupt);
    if (c->undecodable)
        fprintf(stderr,
                "petw: %" PRIu64
                " events with a malformed schema or manifest data shown as raw bytes\n",
                c->undecodable);
    if (process_rc)
        fprintf(stderr, "petw: %s\n", petw_strerror(process_rc));
    if (output_rc)
        fprintf(stderr, "petw: writing the output: %s\n", petw_strerror(output_rc));
    return process_rc || output_rc || corrupt ? 1 : 0;
}

int cmd_dump(int argc, char **argv)
{
    dump_args a;
    dump_ctx c;
    reader rd;
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc;
    memset(&c, 0, sizeof(c));
    c.filter = &a.filter;
    if (!(c.decoder = decoder_create(&a.manifests)))
        return 1;
    if (reader_open(&rd, a.nfiles, a.files, dump_event, &c) != 0) {
        petw_decoder_free(c.decoder);
        return 1;
    }
    progress_init(&c, &rd);
    int output_rc = output_begin(&c.out, a.format, stdout);
    int process_rc = output_rc ? 0 : reader_process(&rd, a.start, a.end);
    if (!output_rc)
        output_rc = output_end(&c.out);
    if (c.shown >= 0)
        fprintf(stderr, "\rpetw: done\n");
    uint64_t corrupt = reader_close(&rd);
    petw_decoder_free(c.decoder);
    return report(&c, corrupt, process_rc, output_rc);
}
