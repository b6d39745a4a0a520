/* SPDX-License-Identifier: MIT */
/* cmd_session.c - `petw start`, `stop`, `flush`, `enable`, `disable`,
 * `update` and `query`: shared sessions (petw/shared.h) controlled from the
 * command line, as logman does on Windows. A started session outlives the
 * command; any process of the user can then control it by name. */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tool.h"
#include "tool_session.h"

const char start_usage_head[] =
    "usage: petw start NAME (-o FILE.etl | --realtime | --mode buffering)\n"
    "                  (-p PROVIDER[:KEYWORDS[:LEVEL]]... | --profile FILE) [options]\n"
    "       petw start [NAME] --kernel LIST (-o FILE.etl | ...) [-p PROVIDER...] [options]\n"
    "Starts the shared session NAME, which runs until `petw stop NAME` (in any\n"
    "process of this user), and enables each provider in it: every process of\n"
    "this user that registers one, now or later, writes its events there.\n"
    "With --kernel it also records the kernel's events (of every process; that\n"
    "needs the rights perf events need), in the same session and file as the\n"
    "providers'; without NAME it is named \"" KERNEL_SESSION_NAME "\", as xperf names it.\n"
    "Options:\n";
static char start_usage[4096];
const char stop_usage[] = "usage: petw stop NAME\n"
                          "Stops the shared session NAME and prints its final counters.\n";
const char flush_usage[] =
    "usage: petw flush NAME\n"
    "Writes the partly filled buffers of the shared session NAME to its file.\n";
const char enable_usage[] =
    "usage: petw enable NAME -p PROVIDER[:KEYWORDS[:LEVEL]]...\n"
    "Enables providers in the shared session NAME (again: changes keywords and level).\n"
    "PROVIDER, KEYWORDS and LEVEL are as for `petw start`.\n";
const char disable_usage[] = "usage: petw disable NAME -p PROVIDER...\n"
                             "Disables providers in the shared session NAME.\n";
const char capture_usage[] =
    "usage: petw capture-state NAME -p PROVIDER...\n"
    "Asks every process of the providers, which the shared session NAME enables, to log\n"
    "its state (their enable callbacks run with EVENT_CONTROL_CODE_CAPTURE_STATE).\n";
const char update_usage[] =
    "usage: petw update NAME [--flush-timer S] [--buffers MAX]\n"
    "Changes the flush timer (seconds) and the most buffers of the shared session NAME.\n";
const char query_usage[] =
    "usage: petw query [NAME] [--json]\n"
    "Prints the shared sessions of this user (or NAME): mode, file, buffers, clock,\n"
    "events written and lost, the host process, and the providers enabled with their\n"
    "keywords and levels. --json prints one document ({\"sessions\":[...]}) whose\n"
    "schema docs/cli-json.md gives.\n";

/* The running session NAME, or 1 with the message. */
static int find_session(const char *name, petw_session_handle *h)
{
    int rc = petw_session_find(name, h);
    if (rc == PETW_ENOTFOUND) {
        fprintf(stderr, "petw: no session named '%s' runs\n", name);
        return 1;
    }
    if (rc != 0) {
        fprintf(stderr, "petw: cannot look up session '%s': %s%s\n", name, petw_strerror(rc),
                session_refusal(rc, 0));
        return 1;
    }
    return 0;
}

/* Reports a failed call on session NAME; PETW_ENOTFOUND means it stopped. */
static int session_error(const char *what, const char *name, int rc)
{
    if (rc == PETW_ENOTFOUND)
        fprintf(stderr, "petw: no session named '%s' runs\n", name);
    else
        fprintf(stderr, "petw: cannot %s session '%s': %s%s\n", what, name, petw_strerror(rc),
                session_refusal(rc, 0));
    return 1;
}

int cmd_start(int argc, char **argv)
{
    static start_options o;
    const char *name = NULL;
    snprintf(start_usage, sizeof(start_usage), "%s%s", start_usage_head, start_options_usage);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) {
            fputs(start_usage, stdout);
            return 0;
        }
        int rc = start_option(argc, argv, &i, &o);
        if (rc == 2)
            return 2;
        if (rc == 0)
            continue;
        if (a[0] == '-' && a[1])
            return usage_error(start_usage, "unknown option '%s'", a);
        if (name)
            return usage_error(start_usage, "unexpected argument '%s'", a);
        name = a;
    }
    if (!name && o.system_flags)
        name = KERNEL_SESSION_NAME;
    if (!name)
        return usage_error(start_usage, "%s", "no session NAME");
    petw_session_config cfg;
    int rc = start_config(&o, start_usage, name, &cfg);
    if (rc)
        return rc;
    if (o.count == 0 && !o.system_flags)
        return usage_error(start_usage, "%s", "no provider (-p, --profile or --kernel)");

    petw_session_handle h;
    rc = petw_session_start(&cfg, &h);
    if (rc == PETW_EEXIST) {
        fprintf(stderr, "petw: a session named '%s' runs already\n", name);
        return 1;
    }
    if (rc != 0) {
        fprintf(stderr, "petw: cannot start session '%s'%s%s: %s%s\n", name,
                cfg.file_path ? " writing " : "", cfg.file_path ? cfg.file_path : "",
                petw_strerror(rc), session_refusal(rc, cfg.system_flags));
        return 1;
    }
    if (enable_providers(h, o.providers, o.count) != 0) {
        petw_session_stop(h, NULL);
        fprintf(stderr, "petw: session '%s' stopped again\n", name);
        return 1;
    }
    printf("Session:           %s\n", name);
    printf("File:              %s\n", cfg.file_path ? cfg.file_path : "(none)");
    petw_session_stats started;
    print_kernel_line(&cfg, petw_session_query(h, &started) == 0 ? &started : NULL);
    for (int i = 0; i < o.count; i++)
        print_provider_line(&o.providers[i]);
    return 0;
}

/* The commands that take NAME alone: stop and flush. */
static int name_only(int argc, char **argv, const char *text, const char **name)
{
    *name = NULL;
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(text, stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1])
            return usage_error(text, "unknown option '%s'", argv[i]);
        if (*name)
            return usage_error(text, "unexpected argument '%s'", argv[i]);
        *name = argv[i];
    }
    if (!*name)
        return usage_error(text, "%s", "no session NAME");
    return -1;
}

int cmd_stop(int argc, char **argv)
{
    const char *name;
    int rc = name_only(argc, argv, stop_usage, &name);
    if (rc >= 0)
        return rc;
    petw_session_handle h;
    if (find_session(name, &h) != 0)
        return 1;
    petw_session_stats st;
    memset(&st, 0, sizeof(st));
    rc = petw_session_stop(h, &st);
    if (rc != 0 && rc != PETW_EIO && rc != PETW_ENOSPC)
        return session_error("stop", name, rc);
    /* Stopped all the same when some buffers could not be written: its
     * final figures, then the cause. */
    printf("The session '%s' stopped.\n", name);
    print_final_stats(&st);
    if (rc != 0) {
        print_write_failure(name, &st, rc);
        return 1;
    }
    return 0;
}

int cmd_flush(int argc, char **argv)
{
    const char *name;
    int rc = name_only(argc, argv, flush_usage, &name);
    if (rc >= 0)
        return rc;
    petw_session_handle h;
    if (find_session(name, &h) != 0)
        return 1;
    petw_session_stats st;
    memset(&st, 0, sizeof(st));
    rc = petw_session_flush(h, &st);
    if (rc != 0)
        return session_error("flush", name, rc);
    printf("The session '%s' was flushed: %" PRIu32 " buffers written, %" PRIu32 " events lost.\n",
           name, st.buffers_written, st.events_lost);
    return 0;
}

enum { OP_DISABLE, OP_ENABLE, OP_CAPTURE };

/* enable, disable and capture-state: NAME and -p values. */
static int provider_op(int argc, char **argv, int op)
{
    static provider_spec providers[MAX_ENABLE];
    static const char *const verbs[] = {"disable", "enable", "capture the state of"};
    static const char *const done[] = {"Disabled", "Enabled", "Asked for the state of"};
    const char *text = op == OP_ENABLE    ? enable_usage
                       : op == OP_DISABLE ? disable_usage
                                          : capture_usage,
               *name = NULL;
    int enable = op == OP_ENABLE;
    int np = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (is_help(a)) {
            fputs(text, stdout);
            return 0;
        }
        if (a[0] != '-' || !a[1]) {
            if (name)
                return usage_error(text, "unexpected argument '%s'", a);
            name = a;
            continue;
        }
        if (strcmp(a, "-p"))
            return usage_error(text, "unknown option '%s'", a);
        if (!(v = option_value(argc, argv, &i)))
            return 2;
        if (np == MAX_ENABLE)
            return usage_error(text, "more than 32 providers at '%s'", v);
        if (provider_spec_parse(v, &providers[np++]) != 0)
            return 2;
        if (!enable && strchr(v, ':'))
            return usage_error(text, "no keywords or level here: '%s'", v);
    }
    if (!name)
        return usage_error(text, "%s", "no session NAME");
    if (np == 0)
        return usage_error(text, "%s", "no provider (-p)");
    petw_session_handle h;
    if (find_session(name, &h) != 0)
        return 1;
    for (int i = 0; i < np; i++) {
        int rc = op == OP_ENABLE
                     ? petw_session_enable_provider(h, &providers[i].id, providers[i].level,
                                                    providers[i].keywords, 0)
                 : op == OP_DISABLE ? petw_session_disable_provider(h, &providers[i].id)
                                    : petw_session_capture_state(h, &providers[i].id);
        if (rc != 0) {
            fprintf(stderr, "petw: cannot %s provider '%s' in session '%s': %s\n", verbs[op],
                    providers[i].text, name,
                    rc == PETW_ENOTFOUND && !enable ? "not enabled, or no such session"
                                                    : petw_strerror(rc));
            return 1;
        }
        printf("%s %s in '%s'.\n", done[op], providers[i].text, name);
    }
    return 0;
}

int cmd_enable(int argc, char **argv)
{
    return provider_op(argc, argv, OP_ENABLE);
}

int cmd_disable(int argc, char **argv)
{
    return provider_op(argc, argv, OP_DISABLE);
}

int cmd_capture_state(int argc, char **argv)
{
    return provider_op(argc, argv, OP_CAPTURE);
}

int cmd_update(int argc, char **argv)
{
    const char *name = NULL;
    uint32_t flush_ms = 0, buffers = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (is_help(a)) {
            fputs(update_usage, stdout);
            return 0;
        }
        if (a[0] != '-' || !a[1]) {
            if (name)
                return usage_error(update_usage, "unexpected argument '%s'", a);
            name = a;
            continue;
        }
        if (strcmp(a, "--flush-timer") && strcmp(a, "--buffers"))
            return usage_error(update_usage, "unknown option '%s'", a);
        if (!(v = option_value(argc, argv, &i)))
            return 2;
        if (!strcmp(a, "--buffers")) {
            if (parse_u32(v, 1, UINT32_MAX, &buffers) != 0)
                return usage_error(update_usage, "not a number of buffers: '%s'", v);
        } else if (parse_seconds(v, &flush_ms) != 0)
            return usage_error(update_usage, "not a flush timer in seconds: '%s'", v);
    }
    if (!name)
        return usage_error(update_usage, "%s", "no session NAME");
    if (!flush_ms && !buffers)
        return usage_error(update_usage, "%s", "nothing to update (--flush-timer, --buffers)");
    petw_session_handle h;
    if (find_session(name, &h) != 0)
        return 1;
    int rc = petw_session_update(h, flush_ms, buffers);
    if (rc != 0)
        return session_error("update", name, rc);
    petw_session_stats st;
    memset(&st, 0, sizeof(st));
    if (petw_session_query(h, &st) == 0)
        printf("The session '%s' was updated: flush timer %" PRIu32 " ms, at most %" PRIu32
               " buffers.\n",
               name, st.flush_timer_ms, st.maximum_buffers);
    else
        printf("The session '%s' was updated.\n", name);
    return 0;
}

static const char *const clock_names[] = {"qpc", "qpc", "system", "cycles"};

/* The session's enables, or NULL (count 0) when it has none or stopped. */
static petw_shared_enable *session_enables(petw_session_handle h, uint32_t *count)
{
    static petw_shared_enable e[1024];
    if (petw_shared_session_enables(h, e, 1024, count) != 0)
        *count = 0;
    *count = *count < 1024 ? *count : 1024;
    return e;
}

static int is_all(const petw_guid *g)
{
    static const petw_guid zero;
    return petw_guid_equal(g, &zero);
}

static void print_session(petw_session_handle h, const petw_session_stats *st, int first)
{
    char mode[128];
    mode_text(st->log_file_mode, mode, sizeof(mode));
    if (!first)
        putchar('\n');
    printf("Name:              %s\n", st->name);
    printf("Mode:              %s\n", mode);
    printf("File:              %s\n", st->file_path[0] ? st->file_path : "(none)");
    printf("Buffer size:       %" PRIu32 " KB\n", st->buffer_size_kb);
    printf("Buffers:           %" PRIu32 " (min %" PRIu32 ", max %" PRIu32 ", free %" PRIu32 ")\n",
           st->number_of_buffers, st->minimum_buffers, st->maximum_buffers, st->free_buffers);
    printf("Flush timer:       %" PRIu32 " ms\n", st->flush_timer_ms);
    printf("Clock:             %s\n", clock_names[st->clock < 4 ? st->clock : 0]);
    printf("Events written:    %" PRIu64 "\n", st->events_written);
    printf("Events lost:       %" PRIu32 "\n", st->events_lost);
    printf("Buffers written:   %" PRIu32 "\n", st->buffers_written);
    printf("Host process:      %" PRIu32 "\n", st->host_process_id);
    uint32_t n;
    const petw_shared_enable *e = session_enables(h, &n);
    for (uint32_t i = 0; i < n; i++) {
        char g[37], kw[24] = "all";
        petw_guid_format(&e[i].provider, g);
        if (e[i].match_any)
            snprintf(kw, sizeof(kw), "0x%" PRIx64, e[i].match_any);
        const char *pn = running_provider_name(&e[i].provider);
        if (is_all(&e[i].provider))
            printf("Provider:          * (every provider of the recorded command)");
        else
            printf("Provider:          %s%s%s%s", g, pn ? " (" : "", pn ? pn : "", pn ? ")" : "");
        printf(" keywords %s level %u\n", kw, e[i].level);
    }
}

static void json_session(sbuf *b, petw_session_handle h, const petw_session_stats *st)
{
    char mode[128];
    mode_text(st->log_file_mode, mode, sizeof(mode));
    sbuf_puts(b, "{\"name\":");
    json_string(b, st->name);
    sbuf_puts(b, ",\"mode\":");
    json_string(b, mode);
    sbuf_puts(b, ",\"file\":");
    if (st->file_path[0])
        json_string(b, st->file_path);
    else
        sbuf_puts(b, "null");
    static const struct {
        const char *key;
        size_t offset;
    } u32s[] = {
        {"buffer_size_kb", offsetof(petw_session_stats, buffer_size_kb)},
        {"buffers", offsetof(petw_session_stats, number_of_buffers)},
        {"minimum_buffers", offsetof(petw_session_stats, minimum_buffers)},
        {"maximum_buffers", offsetof(petw_session_stats, maximum_buffers)},
        {"free_buffers", offsetof(petw_session_stats, free_buffers)},
        {"flush_timer_ms", offsetof(petw_session_stats, flush_timer_ms)},
        {"buffers_written", offsetof(petw_session_stats, buffers_written)},
        {"events_lost", offsetof(petw_session_stats, events_lost)},
        {"buffers_lost", offsetof(petw_session_stats, log_buffers_lost)},
        {"realtime_buffers_lost", offsetof(petw_session_stats, real_time_buffers_lost)},
        {"host_pid", offsetof(petw_session_stats, host_process_id)},
    };
    for (size_t i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++) {
        uint32_t v;
        memcpy(&v, (const char *)st + u32s[i].offset, sizeof(v));
        sbuf_puts(b, ",\"");
        sbuf_puts(b, u32s[i].key);
        sbuf_puts(b, "\":");
        sbuf_u64(b, v);
    }
    sbuf_puts(b, ",\"clock\":");
    json_string(b, clock_names[st->clock < 4 ? st->clock : 0]);
    sbuf_puts(b, ",\"events_written\":");
    sbuf_u64(b, st->events_written);
    sbuf_puts(b, ",\"providers\":[");
    uint32_t n;
    const petw_shared_enable *e = session_enables(h, &n);
    for (uint32_t i = 0; i < n; i++) {
        sbuf_puts(b, i ? ",{\"guid\":" : "{\"guid\":");
        if (is_all(&e[i].provider))
            json_string(b, "*");
        else {
            sbuf_putc(b, '"');
            sbuf_guid(b, &e[i].provider);
            sbuf_putc(b, '"');
        }
        const char *pn = running_provider_name(&e[i].provider);
        sbuf_puts(b, ",\"name\":");
        if (pn)
            json_string(b, pn);
        else
            sbuf_puts(b, "null");
        sbuf_puts(b, ",\"level\":");
        sbuf_u64(b, e[i].level);
        sbuf_puts(b, ",\"match_any\":\"");
        sbuf_hex64(b, e[i].match_any);
        sbuf_puts(b, "\",\"match_all\":\"");
        sbuf_hex64(b, e[i].match_all);
        sbuf_puts(b, "\"}");
    }
    sbuf_puts(b, "]}");
}

int cmd_query(int argc, char **argv)
{
    const char *name = NULL;
    int json = 0;
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(query_usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return usage_error(query_usage, "unknown option '%s'", argv[i]);
        else if (name)
            return usage_error(query_usage, "unexpected argument '%s'", argv[i]);
        else
            name = argv[i];
    }
    static petw_session_handle handles[256];
    uint32_t count = 0;
    int rc;
    if (name) {
        if (find_session(name, &handles[0]) != 0)
            return 1;
        count = 1;
    } else if ((rc = petw_session_list(handles, 256, &count)) != 0) {
        fprintf(stderr, "petw: cannot list the sessions: %s%s\n", petw_strerror(rc),
                session_refusal(rc, 0));
        return 1;
    } else if (count > 256)
        count = 256;

    sbuf b = {0};
    if (json)
        sbuf_puts(&b, "{\"sessions\":[");
    int shown = 0;
    for (uint32_t i = 0; i < count; i++) {
        static petw_session_stats st;
        memset(&st, 0, sizeof(st));
        rc = petw_session_query(handles[i], &st);
        if (rc == PETW_ENOTFOUND && !name)
            continue; /* stopped since the list was made */
        if (rc != 0) {
            sbuf_free(&b);
            return session_error("query", name ? name : "?", rc);
        }
        if (json) {
            if (shown)
                sbuf_putc(&b, ',');
            json_session(&b, handles[i], &st);
        } else
            print_session(handles[i], &st, !shown);
        shown++;
    }
    if (json) {
        sbuf_puts(&b, "]}\n");
        if (b.failed) {
            sbuf_free(&b);
            fprintf(stderr, "petw: %s\n", petw_strerror(PETW_ENOMEM));
            return 1;
        }
        fwrite(b.data, 1, b.len, stdout);
    } else if (!shown)
        printf("No sessions run.\n");
    sbuf_free(&b);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "petw: cannot write the output\n");
        return 1;
    }
    return 0;
}
