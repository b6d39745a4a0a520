/* SPDX-License-Identifier: MIT */
/* cmd_record.c - `petw record [-p PROVIDER...] [-o FILE.etl] [start
 * options] -- CMD ARGS...`: a shared session for the run of one command,
 * as `wpr -start`, the command, `wpr -stop` would be. The command runs as
 * a child of petw with its environment; Ctrl-C reaches it, and the session
 * is stopped (its file finished) once it has exited. Without -p, every
 * provider the command (or a child of it) registers is recorded. With
 * --kernel the session also records the kernel's events (the system
 * provider), as perf record does: the command's and its descendants' (the
 * default), or with -a (--kernel-scope system) every process's; the process
 * group is always among them, so that the processes have their names. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "tool_session.h"

const char record_head[] =
    "usage: petw record [-p PROVIDER...] [--kernel LIST [-a]] [-o FILE.etl] [--name NAME]\n"
    "                   [options] -- CMD ARGS...\n"
    "Starts a shared session (petw-record-PID) writing FILE.etl (default\n"
    "petw-record.etl), runs CMD, stops the session when CMD exits and prints a\n"
    "summary (events by provider, events lost, the file's size); exits with CMD's\n"
    "exit status (128+N when signal N ended it). Without -p or a --profile that\n"
    "names providers, every provider CMD and its children register is recorded,\n"
    "from its first event; with them, those providers in any process of this\n"
    "user. `--profile CPU` (WPR's built-in profiles by name) records the kernel\n"
    "groups it maps to, as --kernel would. Ctrl-C (SIGINT)\n"
    "reaches CMD; the session is then stopped. On a terminal a status line shows\n"
    "the events so far.\n"
    "--kernel LIST also records the kernel's events (the NT Kernel Logger's: see\n"
    "--kernel below) in the same session and file, with the providers'; the\n"
    "session is then named \"" KERNEL_SESSION_NAME "\" unless --name. As perf record\n"
    "does, they are CMD's and its descendants' alone (CMD is held until the session\n"
    "runs, so its whole life is recorded; a user may trace their own processes), or\n"
    "with -a every process's (needs the rights perf events need system-wide: root,\n"
    "CAP_PERFMON or a low kernel.perf_event_paranoid). The process group is added\n"
    "to LIST when it is not there, so that the processes are named.\n"
    "Options (as for `petw start`):\n"
    "  --name NAME            the session's name\n"
    "  -a, --system-wide      the kernel's events of every process (--kernel-scope\n"
    "                         system)\n"
    "  --kernel-scope system|process   whose kernel events (default process: CMD's\n"
    "                         and its descendants')\n";
static char record_usage[4096];

/* The events of one provider in the file. */
typedef struct tally {
    petw_guid id;
    uint64_t events;
    char name[128];
} tally;

typedef struct summary {
    tally t[256];
    int n;
    uint64_t others; /* events of providers beyond the table */
    petw_decoder *decoder;
} summary;

static void count_event(petw_event_record *r, void *ctx)
{
    summary *s = ctx;
    if (header_provider(&r->header.provider_id))
        return; /* the file's own header record (EventTrace) */
    int i;
    for (i = 0; i < s->n && !petw_guid_equal(&s->t[i].id, &r->header.provider_id); i++) {
    }
    if (i == s->n) {
        if (s->n == 256) {
            s->others++;
            return;
        }
        s->n++;
        memset(&s->t[i], 0, sizeof(s->t[i]));
        s->t[i].id = r->header.provider_id;
        const petw_decoded_event *ev;
        if (s->decoder && petw_decode(s->decoder, r, &ev) == 0 && ev->provider_name)
            snprintf(s->t[i].name, sizeof(s->t[i].name), "%s", ev->provider_name);
        else if (running_provider_name(&r->header.provider_id))
            snprintf(s->t[i].name, sizeof(s->t[i].name), "%s",
                     running_provider_name(&r->header.provider_id));
    }
    s->t[i].events++;
}

/* Most events first; then named providers by name, the others by GUID. */
static int by_events(const void *a, const void *b)
{
    const tally *x = a, *y = b;
    if (x->events != y->events)
        return x->events < y->events ? 1 : -1;
    if (!x->name[0] != !y->name[0])
        return x->name[0] ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : memcmp(&x->id, &y->id, sizeof(x->id));
}

/* Events by provider in the finished file, most first, each provider by its
 * name (and GUID) when known; nothing when the file cannot be read. */
static void print_by_provider(const char *path)
{
    static summary s;
    reader rd;
    char *paths[1] = {(char *)path};
    memset(&s, 0, sizeof(s));
    if (petw_decoder_new(&s.decoder) != 0)
        s.decoder = NULL;
    if (reader_open(&rd, 1, paths, count_event, &s) == 0) {
        reader_process(&rd, 0, 0);
        reader_close(&rd);
        qsort(s.t, (size_t)s.n, sizeof(s.t[0]), by_events);
        for (int i = 0; i < s.n; i++) {
            char g[37];
            petw_guid_format(&s.t[i].id, g);
            if (s.t[i].name[0])
                printf("  %-12" PRIu64 " %s (%s)\n", s.t[i].events, s.t[i].name, g);
            else
                printf("  %-12" PRIu64 " %s\n", s.t[i].events, g);
        }
        if (s.others)
            printf("  %-12" PRIu64 " (other providers)\n", s.others);
        if (!s.n && !s.others)
            printf("  (no events)\n");
    }
    petw_decoder_free(s.decoder);
}

typedef struct record_ctx {
    petw_session_handle h;
    status_line status;
} record_ctx;

static void tick(void *arg)
{
    record_ctx *c = arg;
    petw_session_stats st;
    if (petw_session_query(c->h, &st) == 0)
        status_show(&c->status, st.events_written,
                    (uint64_t)st.buffers_written * st.buffer_size_kb * 1024, st.events_lost);
}

/* --kernel-scope: the whole system's kernel events, or the command's alone. */
enum { SCOPE_UNSET = -1, SCOPE_SYSTEM, SCOPE_PROCESS };

static int parse_scope(const char *v)
{
    return !strcmp(v, "process") ? SCOPE_PROCESS : !strcmp(v, "system") ? SCOPE_SYSTEM : -2;
}

/* record's command line: the options into o, the scope and session name,
 * and in *cmd the index of the command after "--". Sets *done and returns
 * the exit status when the command ends here (0 after --help, 2 for a
 * usage error). */
static int record_args(int argc, char **argv, start_options *o, int *cmd, int *process_scope,
                       const char **session_name, int *done)
{
    static const char scope_opt[] = "--kernel-scope";
    const size_t scope_len = sizeof(scope_opt) - 1;
    *done = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--")) {
            *cmd = i + 1;
            break;
        }
        if (is_help(a)) {
            fputs(record_usage, stdout);
            return 0;
        }
        if (!strncmp(a, scope_opt, scope_len) && (a[scope_len] == '=' || !a[scope_len])) {
            if (a[scope_len] == '=')
                v = a + scope_len + 1;
            else if (!(v = option_value(argc, argv, &i)))
                return 2;
            if ((*process_scope = parse_scope(v)) < SCOPE_SYSTEM)
                return usage_error(record_usage, "--kernel-scope: '%s' is not system or process",
                                   v);
            continue;
        }
        if (!strcmp(a, "-a") || !strcmp(a, "--system-wide")) {
            *process_scope = SCOPE_SYSTEM;
            continue;
        }
        if (!strcmp(a, "--name")) {
            if (!(*session_name = option_value(argc, argv, &i)))
                return 2;
            if (!(*session_name)[0] || strlen(*session_name) >= PETW_MAX_NAME)
                return usage_error(record_usage, "--name: %s",
                                   (*session_name)[0] ? "the name is too long" : "an empty name");
            continue;
        }
        int rc = start_option(argc, argv, &i, o);
        if (rc == 2)
            return 2;
        if (rc != 0) {
            fprintf(stderr, "petw: %s '%s' (the command goes after --)\n%s",
                    a[0] == '-' ? "unknown option" : "unexpected argument", a, record_usage);
            return 2;
        }
    }
    if (*cmd < 0 || *cmd >= argc) {
        fprintf(stderr, "petw: record: %s\n%s",
                *cmd < 0 ? "no command: put it after --" : "no command after --", record_usage);
        return 2;
    }
    *done = 0;
    return 0;
}

/* What the recording holds, after the session stopped: the command's exit,
 * the counters, the file's size and its events by provider. */
static void record_summary(const char *command, const char *name, int status,
                           const petw_session_config *cfg, const petw_session_stats *st)
{
    fflush(stdout); /* the command's output came first */
    printf("Recorded '%s' in session '%s'", command, name);
    if (status >= 0)
        printf(", exit status %d", status);
    else
        printf(" (it did not run)");
    printf(".\n");
    print_kernel_line(cfg, st);
    print_final_stats(st);
    if (cfg->file_path && !(cfg->log_file_mode & PETW_MODE_NEWFILE)) {
        FILE *f = fopen(cfg->file_path, "rb");
        if (f && fseek(f, 0, SEEK_END) == 0)
            printf("File size:         %lld bytes\n", (long long)ftell(f));
        if (f)
            fclose(f);
        printf("Events by provider:\n");
        print_by_provider(cfg->file_path);
    }
    fflush(stdout);
}

/* record's options once its profile is applied (whose kernel groups decide
 * the session's name and scope): the scope, the system flags and the
 * default file. Returns 0, or the exit status (2, said why). */
static int record_defaults(start_options *o, int *process_scope)
{
    if (start_profile(o) != 0) /* its kernel groups decide the session's name and scope */
        return 2;
    if (*process_scope != SCOPE_UNSET && !o->system_flags)
        return usage_error(record_usage, "%s", "--kernel-scope needs --kernel (and so does -a)");
    /* As perf record -- CMD: the command's kernel events unless asked for
     * the system's; and the processes named (their Process events). */
    if (*process_scope == SCOPE_UNSET)
        *process_scope = SCOPE_PROCESS;
    o->system_flags |= o->system_flags ? PETW_SYSTEM_PROCESS : 0;
    /* A FileIo event names its thread alone: Thread events give its process. */
    o->system_flags |= (o->system_flags & PETW_SYSTEM_FILE_IO) ? PETW_SYSTEM_THREAD : 0;
    if (!o->file && !o->realtime && (!o->mode || strcmp(o->mode, "buffering")))
        o->file = "petw-record.etl";
    return 0;
}

/* Starts the session of cfg into c->h and enables its providers (without
 * providers named: the command's own, whatever they are). Returns 0, or 1
 * after saying why not, the session stopped and the held command (child,
 * or NULL) cancelled. */
static int record_start(record_ctx *c, const petw_session_config *cfg, const start_options *o,
                        const char *session_name, held_command *child)
{
    int rc = petw_session_start(cfg, &c->h);
    if (rc != 0) {
        if (child)
            command_cancel(child);
        if (rc == PETW_EEXIST)
            fprintf(stderr, "petw: a session named '%s' runs already%s\n", cfg->name,
                    session_name ? "" : " (give another with --name)");
        else
            fprintf(stderr, "petw: cannot start a session%s%s: %s%s\n",
                    cfg->file_path ? " writing " : "", cfg->file_path ? cfg->file_path : "",
                    petw_strerror(rc), session_refusal(rc, cfg->system_flags));
        return 1;
    }
    static const petw_guid all = PETW_SHARED_ALL_PROVIDERS;
    if (o->count == 0) {
        rc = petw_session_enable_provider(c->h, &all, 5, 0, 0);
        if (rc != 0)
            fprintf(stderr, "petw: cannot enable the command's providers: %s\n", petw_strerror(rc));
    } else
        rc = enable_providers(c->h, o->providers, o->count);
    if (rc != 0) {
        if (child)
            command_cancel(child);
        petw_session_stop(c->h, NULL);
        return 1;
    }
    return 0;
}

int cmd_record(int argc, char **argv)
{
    static start_options o;
    int cmd = -1, process_scope = SCOPE_UNSET, done;
    const char *session_name = NULL;
    snprintf(record_usage, sizeof(record_usage), "%s%s", record_head, start_options_usage);
    int arc = record_args(argc, argv, &o, &cmd, &process_scope, &session_name, &done);
    if (done)
        return arc;
    if ((arc = record_defaults(&o, &process_scope)))
        return arc;
    static char name[PETW_MAX_NAME];
    if (session_name)
        snprintf(name, sizeof(name), "%s", session_name);
    else if (o.system_flags)
        snprintf(name, sizeof(name), "%s", KERNEL_SESSION_NAME);
    else
        snprintf(name, sizeof(name), "petw-record-%" PRIu32, tool_getpid());
    petw_session_config cfg;
    int rc = start_config(&o, record_usage, name, &cfg);
    if (rc)
        return rc;
    /* Without providers named: the command's own, whatever they are. */
    static char tag[PETW_MAX_NAME + 32];
    const char *env = NULL;
    if (o.count == 0) {
        snprintf(tag, sizeof(tag), "PETW_RECORD_SESSION=%s", name);
        env = tag;
    }

    /* The command's kernel events alone: its process ID goes into the
     * session's config, so it is started first but held until the session
     * runs and its providers are enabled (the order run_command keeps). */
    int not_found = 0, held = o.system_flags && process_scope == SCOPE_PROCESS;
    held_command child;
    if (held) {
        if (command_hold(argv + cmd, env, &child, &not_found) != 0)
            return not_found ? 127 : 126;
        cfg.system_target_pid = (uint32_t)child.pid;
    }

    record_ctx c;
    memset(&c, 0, sizeof(c));
    if (record_start(&c, &cfg, &o, session_name, held ? &child : NULL))
        return 1;

    status_init(&c.status);
    int status;
    if (!held)
        status = run_command(argv + cmd, env, c.status.on ? tick : NULL, &c, &not_found);
    else if (command_release(&child, &not_found) == 0)
        status = command_wait(&child, c.status.on ? tick : NULL, &c);
    else
        status = -1;
    status_clear(&c.status);

    petw_session_stats st;
    memset(&st, 0, sizeof(st));
    rc = petw_session_stop(c.h, &st);
    if (rc != 0 && rc != PETW_EIO && rc != PETW_ENOSPC) {
        fprintf(stderr, "petw: cannot stop session '%s': %s\n", name, petw_strerror(rc));
        return 1;
    }
    record_summary(argv[cmd], name, status, &cfg, &st);
    if (rc != 0) {
        print_write_failure(name, &st, rc);
        return status > 0 ? status : 1;
    }
    if (status < 0)
        return not_found ? 127 : 126;
    return status;
}
