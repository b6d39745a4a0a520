/* SPDX-License-Identifier: MIT */
/* cmd_watch.c - `petw watch NAME [--format text|json] [--provider ...]`:
 * a live consumer of a real-time shared session that prints each event,
 * decoded, as it arrives (`tracerpt -rt`, `xperf -realtime`), until Ctrl-C
 * or until the session stops. */
#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>

#include "output/output.h"
#include "tool.h"
#include "tool_session.h"

const char watch_usage[] =
    "usage: petw watch NAME [--format text|json] [--provider NAME|GUID]... [--manifest PATH]...\n"
    "Prints the events of the real-time shared session NAME (started with\n"
    "--realtime) as they arrive, decoded, within about the session's flush timer,\n"
    "until Ctrl-C or until the session stops. --provider keeps only those providers'\n"
    "events (as for `petw dump`). On a terminal a status line shows the events so\n"
    "far; the session's real-time losses are reported at the end.\n";

typedef struct watch_ctx {
    output out;
    petw_decoder *decoder;
    provider_filter filter;
    petw_session_handle session;
    status_line status;
    uint64_t events, bytes, undecodable;
} watch_ctx;

static petw_trace *_Atomic watched;

/* Ctrl-C: processing returns within 100 ms (petw_trace_cancel is an atomic
 * store: async-signal-safe). */
static void interrupted(void)
{
    petw_trace_cancel(atomic_load(&watched));
}

static void show_status(watch_ctx *c)
{
    petw_session_stats st;
    uint64_t lost = 0;
    if (c->status.on && petw_session_query(c->session, &st) == 0)
        lost = st.real_time_events_lost;
    status_show(&c->status, c->events, c->bytes, lost);
}

static void on_event(petw_event_record *r, void *context)
{
    watch_ctx *c = context;
    const petw_decoded_event *ev = NULL;
    if (header_provider(&r->header.provider_id))
        return; /* the session's header record */
    int rc = petw_decode(c->decoder, r, &ev);
    if (!filter_has_id(&c->filter, &r->header.provider_id) &&
        !(c->filter.name_count && rc == 0 && filter_has_name(&c->filter, ev->provider_name)))
        return;
    if (rc != 0) {
        ev = NULL;
        c->undecodable++;
    }
    c->events++;
    status_clear(&c->status);
    output_event(&c->out, r, ev);
    fflush(stdout);
}

static int on_buffer(petw_trace *t, void *context)
{
    watch_ctx *c = context;
    const petw_logfile_info *info = petw_trace_info(t);
    c->bytes += info ? info->buffer_size : 0;
    show_status(c);
    return 1;
}

/* Reads the command line: the session's name, the format, providers and
 * manifests; -1 to go on, else the exit status (0 for --help; 2, said). */
static int watch_options(int argc, char **argv, watch_ctx *c, const char **name,
                         const output_format **format, manifest_list *manifests)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (is_help(a)) {
            fputs(watch_usage, stdout);
            return 0;
        }
        if (a[0] != '-' || !a[1]) {
            if (*name)
                return usage_error(watch_usage, "unexpected argument '%s'", a);
            *name = a;
            continue;
        }
        if (strcmp(a, "--format") && strcmp(a, "--provider") && strcmp(a, "--manifest"))
            return usage_error(watch_usage, "unknown option '%s'", a);
        if (!(v = option_value(argc, argv, &i)))
            return 2;
        if (!strcmp(a, "--manifest")) {
            if (manifest_add(manifests, v) != 0)
                return usage_error(watch_usage, "too many or empty --manifest values: '%s'", v);
        } else if (!strcmp(a, "--provider")) {
            if (filter_add(&c->filter, v) != 0)
                return usage_error(watch_usage, "too many or empty --provider values: '%s'", v);
        } else if (!(*format = output_find(v)) ||
                   (*format != &output_text && *format != &output_json))
            return usage_error(watch_usage, "unknown format '%s' (text or json)", v);
    }
    return -1;
}

int cmd_watch(int argc, char **argv)
{
    static watch_ctx c;
    const char *name = NULL;
    const output_format *format = &output_text;
    manifest_list manifests = {{0}, {0}, 0};
    int status = watch_options(argc, argv, &c, &name, &format, &manifests);
    if (status >= 0)
        return status;
    if (!name)
        return usage_error(watch_usage, "%s", "no session NAME");
    petw_session_stats st;
    int rc = petw_session_find(name, &c.session);
    if (rc == 0)
        rc = petw_session_query(c.session, &st);
    if (rc == PETW_ENOTFOUND) {
        fprintf(stderr, "petw: no session named '%s' runs\n", name);
        return 1;
    }
    if (rc == 0 && !(st.log_file_mode & PETW_MODE_REAL_TIME)) {
        fprintf(stderr,
                "petw: session '%s' is not a real-time session (start it with --realtime)\n", name);
        return 1;
    }
    if (rc == 0 && !(c.decoder = decoder_create(&manifests)))
        return 1;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = on_event;
    cfg.on_buffer = on_buffer;
    cfg.context = &c;
    petw_trace *t = NULL;
    if (rc == 0)
        rc = petw_trace_open_realtime(name, &cfg, &t);
    if (rc != 0) {
        petw_decoder_free(c.decoder);
        fprintf(stderr, "petw: cannot watch session '%s': %s%s\n", name, petw_strerror(rc),
                session_refusal(rc, 0));
        return 1;
    }
    atomic_store(&watched, t);
    catch_interrupts(interrupted);
    status_init(&c.status);
    int output_rc = output_begin(&c.out, format, stdout);
    int process_rc = output_rc ? 0 : petw_trace_process(&t, 1, 0, 0);
    if (!output_rc)
        output_rc = output_end(&c.out);
    status_clear(&c.status);
    atomic_store(&watched, NULL);
    petw_trace_close(t);
    petw_decoder_free(c.decoder);
    if (process_rc == PETW_ECANCELED)
        process_rc = 0; /* Ctrl-C */
    memset(&st, 0, sizeof(st));
    if (petw_session_query(c.session, &st) == 0 && st.real_time_events_lost)
        fprintf(stderr, "petw: session '%s' lost %" PRIu64 " events for real-time consumers\n",
                name, st.real_time_events_lost);
    if (c.undecodable)
        fprintf(stderr,
                "petw: %" PRIu64
                " events with a malformed schema or manifest data shown as raw bytes\n",
                c.undecodable);
    if (process_rc || output_rc) {
        fprintf(stderr, "petw: %s\n", petw_strerror(process_rc ? process_rc : output_rc));
        return 1;
    }
    return 0;
}
