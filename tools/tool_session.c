/* SPDX-License-Identifier: MIT */
/* tool_session.c - what the session commands share: option values,
 * provider specifications (-p), the options that start a session (start
 * and record), printing counters, and the live status line. The kernel
 * event groups (--kernel, --stacks) are tool_session_kernel.c's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"
#include "recording_profile.h"
#include "tool_session.h"

int is_help(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

int usage_error(const char *text, const char *fmt, const char *arg)
{
    fputs("petw: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    help_synopsis(text, stderr);
    return 2;
}

const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "petw: option '%s' needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *out)
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

int parse_seconds(const char *text, uint32_t *ms)
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

/* The providers registered in the user's processes, read once per command
 * (a name on the command line may be one of theirs). */
static petw_shared_provider *running;
static uint32_t running_count;
static int running_read;

const petw_shared_provider *running_providers(uint32_t *count)
{
    if (!running_read) {
        running_read = 1;
        uint32_t n = 0;
        if (petw_shared_list_providers(0, NULL, 0, &n) == 0 && n) {
            n += 16; /* room for ones that register meanwhile */
            running = calloc(n, sizeof(*running));
            if (running && petw_shared_list_providers(0, running, n, &running_count) != 0)
                running_count = 0;
            running_count = running_count < n ? running_count : n;
        }
    }
    *count = running_count;
    return running;
}

const char *running_provider_name(const petw_guid *id)
{
    uint32_t n;
    const petw_shared_provider *p = running_providers(&n);
    for (uint32_t i = 0; i < n; i++)
        if (petw_guid_equal(&p[i].provider, id) && p[i].name[0])
            return p[i].name;
    return NULL;
}

int provider_resolve(const char *id, petw_guid *out)
{
    if (petw_guid_parse(id, out) == 0)
        return 0;
    if (looks_like_guid(id)) {
        fprintf(stderr, "petw: not a valid GUID: '%s'\n", id);
        return -1;
    }
    /* A name some running process registered (with traits); else the GUID
     * TraceLogging and EventSource derive from a name. */
    uint32_t n;
    const petw_shared_provider *p = running_providers(&n);
    for (uint32_t i = 0; i < n; i++)
        if (p[i].name[0] && !ascii_casecmp(p[i].name, id)) {
            *out = p[i].provider;
            return 0;
        }
    if (petw_guid_from_name(id, out) != 0) {
        fprintf(stderr, "petw: not a provider GUID or name: '%s'\n", id);
        return -1;
    }
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
    if (provider_resolve(id, &out->id) != 0)
        return -1;
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
        int rc = petw_session_enable_provider(session, &p[i].id, p[i].level, p[i].keywords, 0);
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

void mode_text(uint32_t mode, char *out, size_t size)
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

void print_write_failure(const char *name, const petw_session_stats *st, int rc)
{
    const char *file = st->file_path[0] ? st->file_path : "its file";
    if (st->log_buffers_lost)
        fprintf(stderr, "petw: session '%s': %" PRIu32 " buffers could not be written to %s: %s\n",
                name, st->log_buffers_lost, file, petw_strerror(rc));
    else
        fprintf(stderr, "petw: session '%s': %s could not be finished: %s\n", name, file,
                petw_strerror(rc));
}

void print_final_stats(const petw_session_stats *st)
{
    printf("Events written:    %" PRIu64 "\n", st->events_written);
    printf("Events lost:       %" PRIu32 "\n", st->events_lost);
    printf("Buffers written:   %" PRIu32 "\n", st->buffers_written);
    if (st->log_buffers_lost)
        printf("Buffers lost:      %" PRIu32 "\n", st->log_buffers_lost);
    if (st->real_time_buffers_lost)
        printf("Real-time lost:    %" PRIu32 " buffers\n", st->real_time_buffers_lost);
    if (st->files_completed)
        printf("Files completed:   %" PRIu32 "\n", st->files_completed);
    printf("File:              %s\n", st->file_path[0] ? st->file_path : "(none)");
}

/* ---- options that start a session ---- */

const char start_options_usage[] =
    "  -o FILE.etl            the file (a newfile FILE holds %d, where its number goes)\n"
    "  -p PROVIDER[:KEYWORDS[:LEVEL]]  enables a provider (repeatable). PROVIDER is a\n"
    "                         GUID, the name of a provider a running process\n"
    "                         registered (see `petw providers`), or a\n"
    "                         TraceLogging/EventSource name (its derived GUID, see\n"
    "                         `petw guid`); KEYWORDS hex (default: every keyword);\n"
    "                         LEVEL 1-5 or critical|error|warning|info|verbose\n"
    "                         (default verbose)\n"
    "  --profile FILE[!NAME]  providers, kernel groups and buffers from a WPR profile\n"
    "                         (.wprp; NAME picks the profile: its Id, Name.DetailLevel\n"
    "                         or Name) or a logman provider file (-pf: `provider\n"
    "                         [keywords] [level]` per line)\n"
    "  --profile NAME[.Light] one of WPR's built-in profiles, mapped to what petw\n"
    "                         records (it says to what): GeneralProfile, CPU, DiskIO,\n"
    "                         FileIO, Network, VirtualAllocation\n"
    "  --realtime             also deliver to live consumers (`petw watch`)\n"
    "  --mode sequential|circular|newfile|buffering   (default sequential)\n"
    "  --max-size MB          the file's cap (circular and newfile need one)\n"
    "  --buffer-size KB       each buffer's size (1-16384; default 64)\n"
    "  --buffers MIN[:MAX]    how many buffers (default 2 per CPU : MIN + 20)\n"
    "  --flush-timer S        how stale a partly filled buffer may get (default 1)\n"
    "  --clock qpc|system|cycles   the timestamps' clock (default qpc)\n"
    "  --compress             zstd-compress each buffer in the file (petw's extension)\n"
    "  --checksum             an xxHash64 of each buffer in its header (petw's extension)\n"
    "  --kernel LIST          also records the NT Kernel Logger's events (the system\n"
    "                         provider: on Linux from perf events), in the classic\n"
    "                         kernel classes. LIST: process, thread, image, cswitch,\n"
    "                         profile, disk, dispatcher, memory (page_faults,\n"
    "                         hard_faults, virt_alloc), file, net (TCP/UDP), separated\n"
    "                         by commas, or all; xperf's names too (PROC_THREAD, LOADER,\n"
    "                         DISK_IO, HARD_FAULTS, VIRT_ALLOC, FILE_IO, NETWORKTRACE,\n"
    "                         SysProf, Latency: what a group\n"
    "                         lacks here is said)\n"
    "  --stacks LIST          a StackWalk event (the call stack) after each event of\n"
    "                         these groups (of --kernel's): profile (the sampled\n"
    "                         thread's), cswitch (where the thread switched in had\n"
    "                         blocked), readythread or dispatcher (the waker's)\n"
    "  --profile-interval-us N   the CPU sampling interval of `profile` (10-1000000;\n"
    "                         default 1000)\n";

/* start's options without a value, and those with one (an index into
 * `start_flags` and `start_valued`). From OPT_KERNEL on, an option also takes
 * its value after '=' (--kernel=LIST). */
enum { FLAG_REALTIME, FLAG_COMPRESS, FLAG_CHECKSUM, FLAG_COUNT };
static const char *const start_flags[FLAG_COUNT] = {
    [FLAG_REALTIME] = "--realtime",
    [FLAG_COMPRESS] = "--compress",
    [FLAG_CHECKSUM] = "--checksum",
};
enum {
    OPT_OUTPUT,
    OPT_PROVIDER,
    OPT_MODE,
    OPT_MAX_SIZE,
    OPT_BUFFER_SIZE,
    OPT_BUFFERS,
    OPT_FLUSH_TIMER,
    OPT_CLOCK,
    OPT_PROFILE,
    OPT_KERNEL,
    OPT_STACKS,
    OPT_PROFILE_INTERVAL,
    OPT_COUNT
};
static const char *const start_valued[OPT_COUNT] = {
    [OPT_OUTPUT] = "-o",
    [OPT_PROVIDER] = "-p",
    [OPT_MODE] = "--mode",
    [OPT_MAX_SIZE] = "--max-size",
    [OPT_BUFFER_SIZE] = "--buffer-size",
    [OPT_BUFFERS] = "--buffers",
    [OPT_FLUSH_TIMER] = "--flush-timer",
    [OPT_CLOCK] = "--clock",
    [OPT_PROFILE] = "--profile",
    [OPT_KERNEL] = "--kernel",
    [OPT_STACKS] = "--stacks",
    [OPT_PROFILE_INTERVAL] = "--profile-interval-us",
};

/* --buffers MIN[:MAX]. Returns 0 or 2. */
static int parse_buffers(const char *v, start_options *o)
{
    char min[16];
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);
    if (n < sizeof(min)) {
        memcpy(min, v, n);
        min[n] = 0;
    }
    if (n < sizeof(min) && parse_u32(min, 1, 1u << 20, &o->min_buffers) == 0 &&
        (!colon || parse_u32(colon + 1, o->min_buffers, 1u << 20, &o->max_buffers) == 0))
        return 0;
    fprintf(stderr, "petw: not MIN[:MAX] buffers (MAX at least MIN): '%s'\n", v);
    return 2;
}

/* --clock qpc|system|cycles. Returns 0 or 2. */
static int parse_clock(const char *v, start_options *o)
{
    static const struct {
        const char *name;
        uint32_t clock;
    } clocks[] = {
        {"qpc", PETW_CLOCK_QPC}, {"system", PETW_CLOCK_SYSTEM}, {"cycles", PETW_CLOCK_CYCLES}};
    for (size_t k = 0; k < sizeof(clocks) / sizeof(clocks[0]); k++)
        if (!ascii_casecmp(v, clocks[k].name)) {
            o->clock = clocks[k].clock;
            return 0;
        }
    fprintf(stderr, "petw: unknown clock '%s' (qpc, system or cycles)\n", v);
    return 2;
}

/* Option `which` (OPT_*) with its value `v`. Returns 0 or 2. */
static int start_value(int which, const char *v, start_options *o)
{
    switch (which) {
    case OPT_OUTPUT:
        o->file = v;
        return 0;
    case OPT_PROVIDER:
        if (o->count == MAX_ENABLE) {
            fprintf(stderr, "petw: more than %d providers at '%s'\n", MAX_ENABLE, v);
            return 2;
        }
        return provider_spec_parse(v, &o->providers[o->count++]) == 0 ? 0 : 2;
    case OPT_MODE:
        o->mode = v;
        return 0;
    case OPT_MAX_SIZE:
        if (parse_u32(v, 1, UINT32_MAX / 1024, &o->max_mb) == 0)
            return 0;
        fprintf(stderr, "petw: not a size in MB: '%s'\n", v);
        return 2;
    case OPT_BUFFER_SIZE:
        if (parse_u32(v, 1, 16384, &o->buffer_kb) == 0)
            return 0;
        fprintf(stderr, "petw: not a buffer size in KB (1-16384): '%s'\n", v);
        return 2;
    case OPT_BUFFERS:
        return parse_buffers(v, o);
    case OPT_FLUSH_TIMER:
        if (parse_seconds(v, &o->flush_ms) == 0)
            return 0;
        fprintf(stderr, "petw: not a flush timer in seconds: '%s'\n", v);
        return 2;
    case OPT_CLOCK:
        return parse_clock(v, o);
    case OPT_PROFILE:
        o->profile = v;
        return 0;
    case OPT_KERNEL:
        return system_flags_parse("--kernel", v, &o->system_flags) == 0 ? 0 : 2;
    case OPT_STACKS:
        return system_flags_parse("--stacks", v, &o->system_stack_flags) == 0 ? 0 : 2;
    default: /* OPT_PROFILE_INTERVAL */
        if (parse_u32(v, 10, 1000000, &o->profile_interval_us) == 0)
            return 0;
        fprintf(stderr, "petw: not a sampling interval in microseconds (10-1000000): '%s'\n", v);
        return 2;
    }
}

int start_option(int argc, char **argv, int *i, start_options *o)
{
    const char *a = argv[*i], *v;
    for (int k = 0; k < FLAG_COUNT; k++)
        if (!strcmp(a, start_flags[k])) {
            if (k == FLAG_REALTIME)
                o->realtime = 1;
            else
                o->flags |= k == FLAG_COMPRESS ? PETW_SESSION_ZSTD : PETW_SESSION_CHECKSUM;
            return 0;
        }
    int which = -1;
    size_t name_len = strcspn(a, "=");
    for (int k = 0; k < OPT_COUNT; k++)
        if (!strcmp(a, start_valued[k]) ||
            (k >= OPT_KERNEL && a[name_len] == '=' && name_len == strlen(start_valued[k]) &&
             !strncmp(a, start_valued[k], name_len)))
            which = k;
    if (which < 0)
        return -1;
    /* The kernel options also take --kernel=LIST. */
    if (a[name_len] == '=')
        v = a + name_len + 1;
    else if (!(v = option_value(argc, argv, i)))
        return 2;
    return start_value(which, v, o);
}

/* Adds the profile's providers and, where the command line gave none, its
 * buffer settings and kernel groups. */
int start_profile(start_options *o)
{
    static recording_profile p;
    char err[256];
    if (!o->profile || o->profile_applied)
        return 0;
    o->profile_applied = 1;
    if (recording_profile_load(o->profile, &p, err, sizeof(err)) != 0) {
        fprintf(stderr, "petw: %s\n", err);
        return 2;
    }
    for (int i = 0; i < p.unsupported_count && i < RECORDING_PROFILE_MAX_UNSUPPORTED; i++)
        fprintf(stderr, "petw: profile '%s': not supported yet, left out: %s\n", o->profile,
                p.unsupported[i]);
    for (int i = 0; i < p.count; i++) {
        if (o->count == MAX_ENABLE) {
            fprintf(stderr, "petw: more than %d providers with profile '%s'\n", MAX_ENABLE,
                    o->profile);
            return 2;
        }
        provider_spec *s = &o->providers[o->count];
        memset(s, 0, sizeof(*s));
        s->text = p.providers[i].id;
        s->keywords = p.providers[i].keywords;
        s->level = p.providers[i].level;
        if (provider_resolve(p.providers[i].id, &s->id) != 0)
            return 2;
        o->count++;
    }
    if (!o->buffer_kb && p.buffer_size_kb)
        o->buffer_kb = p.buffer_size_kb > 16384 ? 16384 : p.buffer_size_kb;
    if (!o->min_buffers && p.buffers)
        o->min_buffers = p.buffers;
    if (!o->mode && p.memory && !o->file)
        o->mode = "buffering";
    /* Its kernel groups, unless the command line names them. */
    if (p.kernel[0] && !o->system_flags) {
        o->system_flags = profile_system_flags(o->profile, "kernel events", p.kernel);
        if (!o->system_stack_flags)
            o->system_stack_flags =
                profile_system_flags(o->profile, "stacks of", p.stacks) & o->system_flags;
    }
    if (p.builtin || p.kernel[0]) {
        char groups[128], stacks[128];
        system_flags_text(o->system_flags, groups, sizeof(groups));
        system_flags_text(o->system_stack_flags, stacks, sizeof(stacks));
        fprintf(stderr, "petw: profile '%s'%s: kernel %s%s%s%s\n", p.name,
                p.builtin ? " (built in)" : "", groups[0] ? groups : "(none)",
                stacks[0] ? ", stacks of " : "", stacks, p.count ? ", and its providers" : "");
    }
    return 0;
}

int start_config(start_options *o, const char *usage_text, const char *name,
                 petw_session_config *cfg)
{
    if (start_profile(o) != 0)
        return 2;
    petw_session_config_init(cfg);
    cfg->transport = PETW_TRANSPORT_HOST; /* a session of its own, as logman starts one */
    uint32_t m;
    const char *mode = o->mode;
    if (!mode || !strcmp(mode, "sequential"))
        m = o->file ? PETW_MODE_SEQUENTIAL : 0;
    else if (!strcmp(mode, "circular"))
        m = PETW_MODE_CIRCULAR;
    else if (!strcmp(mode, "newfile"))
        m = PETW_MODE_NEWFILE;
    else if (!strcmp(mode, "buffering"))
        m = PETW_MODE_BUFFERING;
    else
        return usage_error(usage_text, "unknown mode '%s'", mode);
    if (m == PETW_MODE_BUFFERING && (o->file || o->realtime))
        return usage_error(usage_text, "%s",
                           o->file ? "--mode buffering keeps events in memory: no -o FILE"
                                   : "--mode buffering and --realtime conflict");
    if (m != PETW_MODE_BUFFERING && !o->file && !o->realtime)
        return usage_error(usage_text, "%s", "no output: -o FILE.etl (or --realtime)");
    if ((m == PETW_MODE_CIRCULAR || m == PETW_MODE_NEWFILE) && !o->file)
        return usage_error(usage_text, "--mode %s needs -o FILE.etl", mode);
    if ((m == PETW_MODE_CIRCULAR || m == PETW_MODE_NEWFILE) && !o->max_mb)
        return usage_error(usage_text, "--mode %s needs --max-size MB", mode);
    if (o->max_mb && m == PETW_MODE_BUFFERING)
        return usage_error(usage_text, "%s", "--max-size is for a file: not with buffering");
    if (o->system_stack_flags && !o->system_flags)
        return usage_error(usage_text, "%s", "--stacks needs --kernel");
    if (o->system_stack_flags & ~o->system_flags) {
        char missing[128];
        system_flags_text(o->system_stack_flags & ~o->system_flags, missing, sizeof(missing));
        return usage_error(usage_text, "--stacks %s: not in --kernel", missing);
    }
    if (o->profile_interval_us && !(o->system_flags & PETW_SYSTEM_PROFILE))
        return usage_error(usage_text, "%s", "--profile-interval-us needs --kernel profile");
    if (o->file && absolute_path(o->file, o->path, sizeof(o->path)) != 0)
        return 1;
    cfg->name = name;
    cfg->file_path = o->file ? o->path : NULL;
    cfg->log_file_mode = m | (o->realtime ? PETW_MODE_REAL_TIME : 0);
    cfg->buffer_size_kb = o->buffer_kb;
    cfg->minimum_buffers = o->min_buffers;
    cfg->maximum_buffers = o->max_buffers;
    cfg->flush_timer_ms = o->flush_ms;
    cfg->maximum_file_size_kb = o->max_mb * 1024;
    cfg->clock = o->clock;
    cfg->flags = o->flags;
    cfg->system_flags = o->system_flags;
    cfg->system_stack_flags = o->system_stack_flags;
    cfg->profile_interval_100ns = o->profile_interval_us * 10;
    return 0;
}

void print_provider_line(const provider_spec *p)
{
    char g[37], kw[24] = "all";
    petw_guid_format(&p->id, g);
    if (p->keywords)
        snprintf(kw, sizeof(kw), "0x%" PRIx64, p->keywords);
    size_t n = strcspn(p->text, ":");
    int named = strncmp(p->text, g, n) != 0 || n != 36;
    printf("Provider:          %s%s%.*s%s keywords %s level %u\n", g, named ? " (" : "",
           named ? (int)n : 0, p->text, named ? ")" : "", kw, p->level);
}

/* ---- the status line ---- */

static double now_seconds(void)
{
#if defined(_WIN32)
    return (double)clock() / CLOCKS_PER_SEC; /* wall time in Windows' C library */
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
#endif
}

void status_init(status_line *s)
{
    memset(s, 0, sizeof(*s));
    s->on = tool_isatty(tool_fileno(stderr));
    s->start = s->last = now_seconds();
}

void status_show(status_line *s, uint64_t events, uint64_t bytes, uint64_t lost)
{
    if (!s->on)
        return;
    double t = now_seconds();
    if (s->shown && t - s->last < 0.25)
        return;
    double dt = t - s->last;
    if (dt > 0 && s->shown)
        s->rate = (double)(events - s->events) / dt;
    s->last = t;
    s->events = events;
    fprintf(stderr, "\r\033[K%.1fs  %" PRIu64 " events  %.0f/s  %.1f MB  %" PRIu64 " lost",
            t - s->start, events, s->rate, (double)bytes / 1048576.0, lost);
    fflush(stderr);
    s->shown = 1;
}

void status_clear(status_line *s)
{
    if (s->on && s->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    s->shown = 0;
}

const char *session_refusal(int rc, uint32_t system_flags)
{
    static char text[PETW_MAX_NAME + 256];
    char dir[PETW_MAX_NAME];
    int why = rc != 0 ? petw_shared_runtime_dir(dir, sizeof(dir)) : 0;
    if (why == 0)
        return kernel_refusal(rc, system_flags);
    snprintf(text, sizeof(text),
             " (the runtime directory %s, where this user's sessions meet, %s%s; fix it, or set "
             "PETW_RUNTIME_DIR to another)",
             dir[0] ? dir : "?",
             why == PETW_EACCES ? "must be a directory this user owns that nobody else may enter "
                                  "(mode 0700)"
                                : "cannot be used: ",
             why == PETW_EACCES ? "" : petw_strerror(why));
    return text;
}
