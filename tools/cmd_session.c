/* cmd_session.c - `petw start`, `stop`, `flush`, `enable`, `disable`,
 * `update` and `query`: shared sessions (petw/shared.h) controlled from the
 * command line, as logman does on Windows. A started session outlives the
 * command; any process of the user can then control it by name. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tool.h"
#include "tool_session.h"

static const char start_usage[] =
    "usage: petw start NAME -o FILE.etl -p PROVIDER[:KEYWORDS[:LEVEL]]... [--realtime]\n"
    "                  [--mode sequential|circular|newfile|buffering] [--max-size MB]\n"
    "                  [--buffer-size KB] [--flush-timer S]\n"
    "Starts the shared session NAME, which runs until `petw stop NAME`, and enables\n"
    "each provider in it. PROVIDER is a GUID or a provider name (its derived GUID,\n"
    "see `petw guid`); KEYWORDS is hex (0x10; default: every keyword); LEVEL is\n"
    "1-5 or critical|error|warning|info|verbose (default 5, verbose).\n"
    "-o may be left out with --realtime (live consumers only) or --mode buffering\n"
    "(memory only), and must be with buffering. circular and newfile need\n"
    "--max-size; a newfile FILE holds %d, where the file's number goes.\n";
static const char stop_usage[] = "usage: petw stop NAME\n"
                                 "Stops the shared session NAME and prints its final counters.\n";
static const char flush_usage[] =
    "usage: petw flush NAME\n"
    "Writes the partly filled buffers of the shared session NAME to its file.\n";
static const char enable_usage[] =
    "usage: petw enable NAME -p PROVIDER[:KEYWORDS[:LEVEL]]...\n"
    "Enables providers in the shared session NAME (again: changes keywords and level).\n"
    "PROVIDER, KEYWORDS and LEVEL are as for `petw start`.\n";
static const char disable_usage[] = "usage: petw disable NAME -p PROVIDER...\n"
                                    "Disables providers in the shared session NAME.\n";
static const char update_usage[] =
    "usage: petw update NAME [--flush-timer S] [--buffers MAX]\n"
    "Changes the flush timer (seconds) and the most buffers of the shared session NAME.\n";
static const char query_usage[] =
    "usage: petw query [NAME] [--json]\n"
    "Prints the shared sessions of this user (or NAME): name, mode, file, buffer size,\n"
    "buffers written, events lost and the process that hosts it. --json prints one\n"
    "document: {\"sessions\":[{\"name\":..., \"mode\":..., \"file\":... or null,\n"
    "\"buffer_size_kb\":..., \"buffers_written\":..., \"events_lost\":..., \"host_pid\":...}]}.\n";

static int is_help(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

static int usage_error(const char *text, const char *fmt, const char *arg)
{
    fputs("petw: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    fputs(text, stderr);
    return 2;
}

/* The value after option argv[*i], or NULL (with the message) when none. */
static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "petw: option '%s' needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/* A whole decimal number in [min, max]. Returns 0 or -1. */
static int parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *out)
{
    char *end;
    if (!text[0] || text[0] == '-' || text[0] == '+')
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || v < min || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Seconds (decimals allowed) as milliseconds in [1, 86400000]. */
static int parse_seconds(const char *text, uint32_t *ms)
{
    char *end;
    if (!text[0] || text[0] == '-' || text[0] == '+')
        return -1;
    double s = strtod(text, &end);
    if (*end || !(s * 1000.0 >= 1.0) || s > 86400.0)
        return -1;
    *ms = (uint32_t)(s * 1000.0 + 0.5);
    return 0;
}

static int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a,
            y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (x != y || !x)
            return x - y;
    }
}

/* 1 when `s` looks like a GUID (braces, or hex digits and dashes with a
 * dash): then it must parse as one, not name a provider. */
static int looks_like_guid(const char *s)
{
    if (s[0] == '{')
        return 1;
    int dash = 0;
    for (; *s; s++) {
        if (*s == '-')
            dash = 1;
        else if (!strchr("0123456789abcdefABCDEF", *s))
            return 0;
    }
    return dash;
}

static int parse_level(const char *text, uint8_t *level)
{
    static const char *const names[] = {"critical", "error", "warning", "info", "verbose"};
    for (int i = 0; i < 5; i++)
        if (!ascii_casecmp(text, names[i]) || (i == 3 && !ascii_casecmp(text, "informational"))) {
            *level = (uint8_t)(i + 1);
            return 0;
        }
    uint32_t v;
    if (parse_u32(text, 1, 5, &v) != 0)
        return -1;
    *level = (uint8_t)v;
    return 0;
}

int provider_spec_parse(const char *text, provider_spec *out)
{
    char id[PETW_MAX_NAME];
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    memset(out, 0, sizeof(*out));
    out->text = text;
    out->level = 5;
    if (n == 0 || n >= sizeof(id)) {
        fprintf(stderr, "petw: not a provider: '%s'\n", text);
        return -1;
    }
    memcpy(id, text, n);
    id[n] = 0;
    if (petw_guid_parse(id, &out->id) != 0) {
        if (looks_like_guid(id)) {
            fprintf(stderr, "petw: not a valid GUID: '%s'\n", id);
            return -1;
        }
        if (petw_guid_from_name(id, &out->id) != 0) {
            fprintf(stderr, "petw: not a provider GUID or name: '%s'\n", id);
            return -1;
        }
    }
    if (!colon)
        return 0;
    const char *kw = colon + 1, *colon2 = strchr(kw, ':');
    size_t kn = colon2 ? (size_t)(colon2 - kw) : strlen(kw);
    if (kn > 0) {
        char buf[32], *end;
        if (kn >= sizeof(buf) || kw[0] == '-' || kw[0] == '+') {
            fprintf(stderr, "petw: not hex keywords: '%.*s' (in '%s')\n", (int)kn, kw, text);
            return -1;
        }
        memcpy(buf, kw, kn);
        buf[kn] = 0;
        out->keywords = strtoull(buf, &end, 16);
        if (*end || end == buf || (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') && !buf[2])) {
            fprintf(stderr, "petw: not hex keywords: '%s' (in '%s')\n", buf, text);
            return -1;
        }
    }
    if (colon2 && parse_level(colon2 + 1, &out->level) != 0) {
        fprintf(stderr,
                "petw: not a level: '%s' (in '%s'; 1-5 or "
                "critical|error|warning|info|verbose)\n",
                colon2 + 1, text);
        return -1;
    }
    return 0;
}

int enable_providers(petw_session_handle session, const provider_spec *p, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = petw_shared_enable_provider(session, &p[i].id, p[i].level, p[i].keywords, 0);
        if (rc != 0) {
            fprintf(stderr, "petw: cannot enable provider '%s': %s\n", p[i].text,
                    petw_strerror(rc));
            return 1;
        }
    }
    return 0;
}

int absolute_path(const char *path, char *out, size_t size)
{
    char cwd[PETW_MAX_NAME];
    int n;
    if (path[0] == '/')
        n = snprintf(out, size, "%s", path);
    else if (tool_getcwd(cwd, sizeof(cwd)) != 0) {
        fprintf(stderr, "petw: cannot find the current directory for '%s'\n", path);
        return -1;
    } else
        n = snprintf(out, size, "%s%s%s", cwd, cwd[strlen(cwd) - 1] == '/' ? "" : "/", path);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "petw: path too long: '%s'\n", path);
        return -1;
    }
    return 0;
}

/* The mode's words, "sequential,realtime", in `out`. */
static void mode_text(uint32_t mode, char *out, size_t size)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } bits[] = {
        {PETW_MODE_SEQUENTIAL, "sequential"}, {PETW_MODE_CIRCULAR, "circular"},
        {PETW_MODE_NEWFILE, "newfile"},       {PETW_MODE_BUFFERING, "buffering"},
        {PETW_MODE_APPEND, "append"},         {PETW_MODE_PREALLOCATE, "preallocate"},
        {PETW_MODE_REAL_TIME, "realtime"},
    };
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
        if (mode & bits[i].bit) {
            int n = snprintf(out + len, size - len, "%s%s", len ? "," : "", bits[i].name);
            if (n < 0 || (size_t)n >= size - len)
                return;
            len += (size_t)n;
        }
    if (!len)
        snprintf(out, size, "%s", "none");
}

void print_final_stats(const petw_session_stats *st)
{
    printf("Buffers written:   %" PRIu32 "\n", st->buffers_written);
    printf("Events lost:       %" PRIu32 "\n", st->events_lost);
    if (st->log_buffers_lost)
        printf("Buffers lost:      %" PRIu32 "\n", st->log_buffers_lost);
    if (st->real_time_buffers_lost)
        printf("Real-time lost:    %" PRIu32 " buffers\n", st->real_time_buffers_lost);
    if (st->files_completed)
        printf("Files completed:   %" PRIu32 "\n", st->files_completed);
    printf("File:              %s\n", st->file_path[0] ? st->file_path : "(none)");
}

/* The running session NAME, or 1 with the message. */
static int find_session(const char *name, petw_session_handle *h)
{
    int rc = petw_shared_find(name, h);
    if (rc == PETW_ENOTFOUND) {
        fprintf(stderr, "petw: no session named '%s' runs\n", name);
        return 1;
    }
    if (rc != 0) {
        fprintf(stderr, "petw: cannot look up session '%s': %s\n", name, petw_strerror(rc));
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
        fprintf(stderr, "petw: cannot %s session '%s': %s\n", what, name, petw_strerror(rc));
    return 1;
}

int cmd_start(int argc, char **argv)
{
    static provider_spec providers[MAX_ENABLE];
    int np = 0, realtime = 0;
    const char *name = NULL, *file = NULL, *mode = NULL;
    uint32_t max_mb = 0, buffer_kb = 0, flush_ms = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (is_help(a)) {
            fputs(start_usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--realtime")) {
            realtime = 1;
            continue;
        }
        if (a[0] != '-' || !a[1]) {
            if (name)
                return usage_error(start_usage, "unexpected argument '%s'", a);
            name = a;
            continue;
        }
        if (strcmp(a, "-o") && strcmp(a, "-p") && strcmp(a, "--mode") && strcmp(a, "--max-size") &&
            strcmp(a, "--buffer-size") && strcmp(a, "--flush-timer"))
            return usage_error(start_usage, "unknown option '%s'", a);
        if (!(v = option_value(argc, argv, &i)))
            return 2;
        if (!strcmp(a, "-o"))
            file = v;
        else if (!strcmp(a, "--mode"))
            mode = v;
        else if (!strcmp(a, "-p")) {
            if (np == MAX_ENABLE)
                return usage_error(start_usage, "more than 32 providers at '%s'", v);
            if (provider_spec_parse(v, &providers[np++]) != 0)
                return 2;
        } else if (!strcmp(a, "--max-size")) {
            if (parse_u32(v, 1, UINT32_MAX / 1024, &max_mb) != 0)
                return usage_error(start_usage, "not a size in MB: '%s'", v);
        } else if (!strcmp(a, "--buffer-size")) {
            if (parse_u32(v, 1, 16384, &buffer_kb) != 0)
                return usage_error(start_usage, "not a buffer size in KB (1-16384): '%s'", v);
        } else if (parse_seconds(v, &flush_ms) != 0)
            return usage_error(start_usage, "not a flush timer in seconds: '%s'", v);
    }
    if (!name)
        return usage_error(start_usage, "%s", "no session NAME");
    if (np == 0)
        return usage_error(start_usage, "%s", "no provider (-p)");

    petw_session_config cfg;
    petw_session_config_init(&cfg);
    uint32_t m = 0;
    if (!mode || !strcmp(mode, "sequential"))
        m = file ? PETW_MODE_SEQUENTIAL : 0;
    else if (!strcmp(mode, "circular"))
        m = PETW_MODE_CIRCULAR;
    else if (!strcmp(mode, "newfile"))
        m = PETW_MODE_NEWFILE;
    else if (!strcmp(mode, "buffering"))
        m = PETW_MODE_BUFFERING;
    else
        return usage_error(start_usage, "unknown mode '%s'", mode);
    if (m == PETW_MODE_BUFFERING && (file || realtime))
        return usage_error(start_usage, "%s",
                           file ? "--mode buffering keeps events in memory: no -o FILE"
                                : "--mode buffering and --realtime conflict");
    if (m != PETW_MODE_BUFFERING && !file && !realtime)
        return usage_error(start_usage, "%s", "no output: -o FILE.etl (or --realtime)");
    if ((m == PETW_MODE_CIRCULAR || m == PETW_MODE_NEWFILE) && !file)
        return usage_error(start_usage, "--mode %s needs -o FILE.etl", mode);
    if ((m == PETW_MODE_CIRCULAR || m == PETW_MODE_NEWFILE) && !max_mb)
        return usage_error(start_usage, "--mode %s needs --max-size MB", mode);
    if (max_mb && m == PETW_MODE_BUFFERING)
        return usage_error(start_usage, "%s", "--max-size is for a file: not with buffering");

    static char path[PETW_MAX_NAME];
    if (file && absolute_path(file, path, sizeof(path)) != 0)
        return 1;
    cfg.name = name;
    cfg.file_path = file ? path : NULL;
    cfg.log_file_mode = m | (realtime ? PETW_MODE_REAL_TIME : 0);
    cfg.buffer_size_kb = buffer_kb;
    cfg.flush_timer_ms = flush_ms;
    cfg.maximum_file_size_kb = max_mb * 1024;

    petw_session_handle h;
    int rc = petw_shared_start(&cfg, &h);
    if (rc == PETW_EEXIST) {
        fprintf(stderr, "petw: a session named '%s' runs already\n", name);
        return 1;
    }
    if (rc != 0) {
        fprintf(stderr, "petw: cannot start session '%s'%s%s: %s\n", name, file ? " writing " : "",
                file ? path : "", petw_strerror(rc));
        return 1;
    }
    if (enable_providers(h, providers, np) != 0) {
        petw_shared_stop(h, NULL);
        fprintf(stderr, "petw: session '%s' stopped again\n", name);
        return 1;
    }
    printf("Session:           %s\n", name);
    printf("File:              %s\n", file ? path : "(none)");
    for (int i = 0; i < np; i++) {
        char g[37], kw[24] = "all";
        petw_guid_format(&providers[i].id, g);
        if (providers[i].keywords)
            snprintf(kw, sizeof(kw), "0x%" PRIx64, providers[i].keywords);
        size_t n = strcspn(providers[i].text, ":");
        int named = strncmp(providers[i].text, g, n) != 0 || n != 36;
        printf("Provider:          %s%s%.*s%s keywords %s level %u\n", g, named ? " (" : "",
               named ? (int)n : 0, providers[i].text, named ? ")" : "", kw, providers[i].level);
    }
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
    rc = petw_shared_stop(h, &st);
    if (rc != 0 && rc != PETW_EIO)
        return session_error("stop", name, rc);
    printf("The session '%s' stopped.\n", name);
    print_final_stats(&st);
    if (rc == PETW_EIO) {
        fprintf(stderr, "petw: session '%s': some buffers could not be written: %s\n", name,
                petw_strerror(rc));
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
    rc = petw_shared_flush(h, &st);
    if (rc != 0)
        return session_error("flush", name, rc);
    printf("The session '%s' was flushed: %" PRIu32 " buffers written, %" PRIu32 " events lost.\n",
           name, st.buffers_written, st.events_lost);
    return 0;
}

/* enable and disable: NAME and -p values. */
static int enable_disable(int argc, char **argv, int enable)
{
    static provider_spec providers[MAX_ENABLE];
    const char *text = enable ? enable_usage : disable_usage, *name = NULL;
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
            return usage_error(text, "disable takes no keywords or level: '%s'", v);
    }
    if (!name)
        return usage_error(text, "%s", "no session NAME");
    if (np == 0)
        return usage_error(text, "%s", "no provider (-p)");
    petw_session_handle h;
    if (find_session(name, &h) != 0)
        return 1;
    for (int i = 0; i < np; i++) {
        int rc = enable ? petw_shared_enable_provider(h, &providers[i].id, providers[i].level,
                                                      providers[i].keywords, 0)
                        : petw_shared_disable_provider(h, &providers[i].id);
        if (rc != 0) {
            fprintf(stderr, "petw: cannot %s provider '%s' in session '%s': %s\n",
                    enable ? "enable" : "disable", providers[i].text, name,
                    rc == PETW_ENOTFOUND && !enable ? "not enabled, or no such session"
                                                    : petw_strerror(rc));
            return 1;
        }
        printf("%s %s in '%s'.\n", enable ? "Enabled" : "Disabled", providers[i].text, name);
    }
    return 0;
}

int cmd_enable(int argc, char **argv)
{
    return enable_disable(argc, argv, 1);
}

int cmd_disable(int argc, char **argv)
{
    return enable_disable(argc, argv, 0);
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
    int rc = petw_shared_update(h, flush_ms, buffers);
    if (rc != 0)
        return session_error("update", name, rc);
    petw_session_stats st;
    memset(&st, 0, sizeof(st));
    if (petw_shared_query(h, &st) == 0)
        printf("The session '%s' was updated: flush timer %" PRIu32 " ms, at most %" PRIu32
               " buffers.\n",
               name, st.flush_timer_ms, st.maximum_buffers);
    else
        printf("The session '%s' was updated.\n", name);
    return 0;
}

static void print_session(const petw_session_stats *st, int first)
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
    printf("Buffers written:   %" PRIu32 "\n", st->buffers_written);
    printf("Events lost:       %" PRIu32 "\n", st->events_lost);
    printf("Host process:      %" PRIu32 "\n", st->host_process_id);
}

static void json_session(sbuf *b, const petw_session_stats *st)
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
    sbuf_puts(b, ",\"buffer_size_kb\":");
    sbuf_u64(b, st->buffer_size_kb);
    sbuf_puts(b, ",\"buffers_written\":");
    sbuf_u64(b, st->buffers_written);
    sbuf_puts(b, ",\"events_lost\":");
    sbuf_u64(b, st->events_lost);
    sbuf_puts(b, ",\"host_pid\":");
    sbuf_u64(b, st->host_process_id);
    sbuf_putc(b, '}');
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
    } else if ((rc = petw_shared_list(handles, 256, &count)) != 0) {
        fprintf(stderr, "petw: cannot list the sessions: %s\n", petw_strerror(rc));
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
        rc = petw_shared_query(handles[i], &st);
        if (rc == PETW_ENOTFOUND && !name)
            continue; /* stopped since the list was made */
        if (rc != 0) {
            sbuf_free(&b);
            return session_error("query", name ? name : "?", rc);
        }
        if (json) {
            if (shown)
                sbuf_putc(&b, ',');
            json_session(&b, &st);
        } else
            print_session(&st, !shown);
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
