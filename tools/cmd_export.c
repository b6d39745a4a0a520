/* SPDX-License-Identifier: MIT */
/* cmd_export.c - `petw export FILE... --to clickhouse URL`: each trace's
 * records, and its analysis model (processes, threads, images, symbolized
 * samples), loaded into ClickHouse over HTTP (export_rows.c builds the
 * rows; tools/clickhouse/ sends them; docs/clickhouse.md), the tables
 * created when absent; and the options and set-up `petw forward`
 * (cmd_forward.c) shares. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The --help text (tool_help.c), in every build. */
/* The --help texts (tool_help.c), in every build. */
const char export_usage[] =
    "usage: petw export FILE... --to clickhouse URL [options]\n"
    "Loads trace files (petw's and Windows') into ClickHouse over its HTTP interface:\n"
    "their events, decoded, and the analysis model's processes, threads, images and\n"
    "samples with their symbolized stacks, into the tables docs/clickhouse.md\n"
    "describes (created when absent). A batch sent again is never counted twice.\n"
    "Options:\n"
    "  URL                  http[s]://[user:password@]host:port/?database=NAME\n"
    "                       (credentials also from PETW_CLICKHOUSE_USER and\n"
    "                       PETW_CLICKHOUSE_PASSWORD; never printed)\n"
    "  --machine NAME       the machine the traces come from (default: this host's name)\n"
    "  --batch-rows N       rows per part the server writes of a file's events (its\n"
    "                       insert), and per insert of the other tables (default 1000000)\n"
    "  --batch-bytes N      bytes per insert of the other tables at most (default 67108864)\n"
    "  --retries N          tries again after a transport failure (default 10)\n"
    "  --parallel N         inserts in flight at once, 1 to 4 (default 2)\n"
    "  --compress           gzip the other tables' inserts (pays over a slow network;\n"
    "                       on the server's own machine it costs more CPU than it saves)\n"
    "  --payload all|undecoded  the raw payload in `data` of every event (all, the\n"
    "                       default), or only of those with no decoded fields\n"
    "  --no-model           the events alone: no processes, threads, images, samples\n"
    "  --manifest PATH, --tmf PATH  decode with these manifests or TMF files\n"
    "  --symbols DIR, --no-symbols, --no-inline  the samples' symbols, as petw report\n";

#if !defined(PETW_HAVE_CURL)

int cmd_export(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("petw: export is not built in (petw was built without libcurl)\n", stderr);
    return 1;
}

#else

#include <time.h>

#include "export_clickhouse.h"
#include "output/output.h"

static int on_buffer(petw_trace *t, void *context)
{
    (void)t;
    return !((exporter *)context)->failed;
}

static void on_corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *why, void *ctx)
{
    (void)t;
    (void)ctx;
    fprintf(stderr, "petw: buffer %" PRIu64 " (offset %" PRIu64 ") skipped: %s\n", index, offset,
            why);
}

/* One pass over the file's events, on one insert (x->stream). Returns 0,
 * 1 (the insert failed for a reason worth trying again: the transport, or
 * a server starting or stopping), or -1 (reported, or x->failed with
 * x->ch.error set). */
static int export_events_once(exporter *x, const char *path, petw_trace_stats *stats,
                              petw_logfile_info *info)
{
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = export_event;
    cfg.on_buffer = on_buffer;
    cfg.on_corrupt = on_corrupt;
    cfg.context = x;
    petw_trace *t = NULL;
    int rc = petw_trace_open(path, &cfg, &t);
    if (rc) {
        fprintf(stderr, "petw: %s: %s\n", path, petw_strerror(rc));
        return -1;
    }
    *info = *petw_trace_info(t);
    x->trace_id = export_trace_identity(info);
    x->boot_time = clickhouse_time(info->boot_time);
    x->seq = 0;
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++)
        x->batches[k].number = 0;
    x->stream =
        clickhouse_stream_start(&x->ch, x->batches[CLICKHOUSE_EVENTS].into, "Native", x->max_rows);
    if (!x->stream) {
        petw_trace_close(t);
        x->failed = 1;
        return -1;
    }
    rc = petw_trace_process(&t, 1, 0, 0);
    petw_trace_stats_get(t, stats);
    petw_trace_close(t);
    if (!x->failed)
        export_flush(x, &x->batches[CLICKHOUSE_EVENTS]);
    int transient = 0;
    if (clickhouse_stream_end(x->stream, &transient))
        x->failed = 1;
    x->stream = NULL;
    if (x->failed)
        return transient ? 1 : -1;
    if (rc) {
        fprintf(stderr, "petw: %s: %s\n", path, petw_strerror(rc));
        return -1;
    }
    return 0;
}

/* The file's events, on one insert: sent whole again (after a pause)
 * when the insert fails for a reason worth trying again, up to --retries
 * times; what landed of a failed insert collapses with what is sent again
 * (the same identities). Returns 0, or -1 (reported). */
static int export_events(exporter *x, const char *path, petw_trace_stats *stats,
                         petw_logfile_info *info)
{
    batch *b = &x->batches[CLICKHOUSE_EVENTS];
    uint64_t total = b->total;
    for (unsigned attempt = 0;; attempt++) {
        int rc = export_events_once(x, path, stats, info);
        if (rc <= 0)
            return rc;
        if (attempt >= x->ch.retries)
            return -1;
        /* Again from the first event: the rows of this try are dropped. */
        x->ch.retried++;
        x->failed = 0;
        b->total = total;
        b->count = 0;
        x->events.rows = 0;
        clickhouse_columns_block(&x->events, &x->block); /* empties the columns */
        x->block.len = 0;
        unsigned ms = attempt < 3 ? 250u << attempt : 2000u; /* 0.25, 0.5, 1, then 2 s */
        struct timespec pause = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
        nanosleep(&pause, NULL);
    }
}

static int export_model(exporter *x, const char *path, uint64_t *nsamples)
{
    model_args m = x->model;
    m.files[0] = path;
    m.nfiles = 1;
    sample_list samples = {0};
    petw_profile_hooks hooks = {0};
    hooks.sample = export_on_sample;
    m.config.hooks = &hooks;
    m.config.hooks_context = &samples;
    petw_profile *p = model_read(&m);
    if (!p) {
        free(samples.items);
        return -1;
    }
    int rc = 0;
    if (samples.failed) {
        fprintf(stderr, "petw: %s: out of memory keeping the samples\n", path);
        rc = -1;
    } else {
        export_model_rows(x, p, &samples);
        rc = x->failed ? -1 : 0;
    }
    *nsamples = samples.count;
    petw_profile_free(p);
    free(samples.items);
    return rc;
}

static int export_file(exporter *x, const char *path)
{
    petw_trace_stats stats;
    petw_logfile_info info;
    uint64_t samples = 0;
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    uint64_t events_before = x->batches[CLICKHOUSE_EVENTS].total;
    if (export_events(x, path, &stats, &info))
        return -1;
    uint64_t events = x->batches[CLICKHOUSE_EVENTS].total - events_before;
    if (!x->no_model && export_model(x, path, &samples))
        return -1;
    if (export_trace_row(x, path, &info, events, samples))
        return -1;
    timespec_get(&t1, TIME_UTC);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    fprintf(stderr,
            "petw: %s: %" PRIu64 " events, %" PRIu64 " samples exported to %s (%s) in %.2f s "
            "(trace_id %" PRIu64 ")\n",
            path, events, samples, x->ch.where, x->ch.database, s, x->trace_id);
    if (stats.buffers_corrupt)
        fprintf(stderr, "petw: %s: %" PRIu64 " corrupt buffers skipped\n", path,
                stats.buffers_corrupt);
    return stats.buffers_corrupt ? 1 : 0;
}

int export_parse_count(const char *opt, const char *v, uint64_t *out)
{
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (!*v || *end || n == 0 || v[0] == '-') {
        fprintf(stderr, "petw: bad value for %s: '%s'\n", opt, v);
        return -1;
    }
    *out = n;
    return 0;
}

/* Takes argv[*i] (and its values) when it is a shared option: 1 (and *i
 * advanced), 0 when it is not one, -1 when its value is wrong (reported). */
int export_option(exporter *x, common_args *a, int argc, char **argv, int *i)
{
    const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(o, "--compress")) {
        a->compress = 1;
        return 1;
    }
    if (!strcmp(o, "--payload")) {
        if (!v || (strcmp(v, "all") && strcmp(v, "undecoded"))) {
            fprintf(stderr, "petw: --payload takes all or undecoded\n");
            return -1;
        }
        x->payload_undecoded = !strcmp(v, "undecoded");
        (*i)++;
        return 1;
    }
    static const char *const names[] = {"--to",       "--machine", "--batch-rows", "--batch-bytes",
                                        "--parallel", "--retries", "--manifest",   "--tmf"};
    int known = 0;
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        known |= !strcmp(o, names[k]);
    if (!known)
        return 0;
    if (!v) {
        fprintf(stderr, "petw: %s needs a value\n", o);
        return -1;
    }
    int r = 0;
    if (!strcmp(o, "--to")) {
        a->to = v, a->url = *i + 2 < argc ? argv[*i + 2] : NULL;
        if (!a->url) {
            fprintf(stderr, "petw: --to clickhouse needs a URL\n");
            return -1;
        }
        (*i)++;
    } else if (!strcmp(o, "--machine")) {
        x->machine = v;
    } else if (!strcmp(o, "--batch-rows")) {
        r = export_parse_count(o, v, &x->max_rows);
    } else if (!strcmp(o, "--batch-bytes")) {
        r = export_parse_count(o, v, &x->max_bytes);
    } else if (!strcmp(o, "--parallel")) {
        r = export_parse_count(o, v, &a->parallel);
        if (!r && a->parallel > CLICKHOUSE_MAX_PARALLEL) {
            fprintf(stderr, "petw: --parallel takes 1 to %d\n", CLICKHOUSE_MAX_PARALLEL);
            r = -1;
        }
    } else if (!strcmp(o, "--retries")) {
        char *end;
        a->retries = strtoull(v, &end, 10);
        r = *v && !*end && v[0] != '-' ? 0 : -1;
        a->retries_set = 1;
        if (r)
            fprintf(stderr, "petw: bad value for --retries: '%s'\n", v);
    } else if (!strcmp(o, "--manifest")) {
        r = manifest_add(&x->manifests, v) || manifest_add(&x->model.manifests, v);
        if (r)
            fprintf(stderr, "petw: too many or empty --manifest values: '%s'\n", v);
    } else {
        r = tmf_add(&x->manifests, v);
        if (r)
            fprintf(stderr, "petw: too many or empty --manifest/--tmf values: '%s'\n", v);
    }
    (*i)++;
    return r ? -1 : 1;
}

void exporter_init(exporter *x, common_args *a)
{
    memset(x, 0, sizeof(*x));
    memset(a, 0, sizeof(*a));
    petw_profile_config_init(&x->model.config);
    /* Large batches: each insert is a part of every column's files on the
     * server (one part per insert up to its max_insert_block_size, 1048576
     * rows), and creating and merging parts was most of the server's time
     * with 16 MB batches. */
    x->max_rows = 1000000;
    x->max_bytes = 64u << 20;
    a->retries = 10;
    a->parallel = 2;
}

/* Connects, makes the tables ready and the decoder. Returns 0, or 1
 * (reported; everything freed). */
int exporter_start(exporter *x, const common_args *a, char *host, size_t host_size)
{
    if (!x->machine) {
        if (gethostname(host, host_size) != 0)
            snprintf(host, host_size, "localhost");
        host[host_size - 1] = 0;
        x->machine = host;
    }
    if (clickhouse_open(&x->ch, a->url) || clickhouse_schema_ensure(&x->ch)) {
        fprintf(stderr, "petw: %s\n", x->ch.error);
        clickhouse_close(&x->ch);
        return 1;
    }
    if (a->retries_set)
        x->ch.retries = (unsigned)(a->retries > 100 ? 100 : a->retries);
    x->ch.parallel = (unsigned)a->parallel;
    x->ch.compress = a->compress;
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++) {
        x->batches[k].table = &clickhouse_tables[k];
        clickhouse_table_into(&x->ch, &clickhouse_tables[k], x->batches[k].into,
                              sizeof(x->batches[k].into));
    }
    x->events.table = &clickhouse_tables[CLICKHOUSE_EVENTS];
    if (!(x->decoder = decoder_create(&x->manifests))) {
        clickhouse_close(&x->ch);
        return 1;
    }
    return 0;
}

/* Reports what the summary lines do not, and frees. */
void exporter_end(exporter *x)
{
    if (x->ch.retried)
        fprintf(stderr, "petw: %" PRIu64 " requests to %s tried again after a transport failure\n",
                x->ch.retried, x->ch.where);
    if (x->undecodable)
        fprintf(stderr,
                "petw: %" PRIu64 " events with a malformed schema exported with no fields (their "
                "payload in data)\n",
                x->undecodable);
    petw_decoder_free(x->decoder);
    for (int k = 0; k < CLICKHOUSE_TABLE_COUNT; k++)
        sbuf_free(&x->batches[k].rows);
    clickhouse_columns_free(&x->events);
    sbuf_free(&x->block);
    sbuf_free(&x->value);
    clickhouse_close(&x->ch);
}

int export_check_to(const common_args *a, const char *command)
{
    if (!a->to)
        return command_usage_error(command, "%s", "no --to clickhouse URL");
    if (strcmp(a->to, "clickhouse") != 0)
        return command_usage_error(command, "unknown format '%s' (--to clickhouse URL)", a->to);
    return 0;
}
int cmd_export(int argc, char **argv)
{
    static exporter x; /* large; one per process */
    common_args a;
    exporter_init(&x, &a);
    const char *files[MAX_FILES];
    int nfiles = 0;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        int r = export_option(&x, &a, argc, argv, &i);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(o, "--symbols") || !strcmp(o, "--no-symbols") || !strcmp(o, "--no-inline")) {
            if (model_option(&x.model, argc, argv, &i) < 0)
                return 2;
        } else if (!strcmp(o, "--no-model")) {
            x.no_model = 1;
        } else if (o[0] == '-' && o[1]) {
            return command_usage_error("export", "unknown option '%s'", o);
        } else if (nfiles == MAX_FILES) {
            fprintf(stderr, "petw: at most %d files\n", MAX_FILES);
            return 2;
        } else {
            files[nfiles++] = o;
        }
    }
    if (!nfiles)
        return command_usage_error("export", "%s", "no FILE");
    int status = export_check_to(&a, "export");
    char host[256];
    if (status || (status = exporter_start(&x, &a, host, sizeof(host))))
        return status;
    for (int f = 0; f < nfiles && status != -1; f++) {
        int rc = export_file(&x, files[f]);
        if (rc < 0 && x.failed)
            fprintf(stderr, "petw: %s: %s\n", files[f], x.ch.error);
        status = rc < 0 ? -1 : rc ? 1 : status;
    }
    exporter_end(&x);
    return status ? 1 : 0;
}

#endif /* PETW_HAVE_CURL */
