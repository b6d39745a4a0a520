/* SPDX-License-Identifier: MIT */
/* tool_session.h - the session commands of petw (logman and wpr for
 * Linux): start, stop, flush, enable, disable, update and query a shared
 * session (petw/shared.h), and record one command's events. What they
 * share is here; running a command is in tool_process.c, the one file of
 * the tool that uses processes and signals. */
#ifndef TOOL_SESSION_H
#define TOOL_SESSION_H

#include <stdint.h>

#include <petw/petw.h>
#include <petw/shared.h>

/* The subcommands: each returns the process's exit status (0, 1 failure,
 * 2 usage error). */
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_flush(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_capture_state(int argc, char **argv);
int cmd_update(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_providers(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* ---- tool_session.c (tool_session_kernel.c: the kernel event groups):
 * what the session commands share ---- */

#define MAX_ENABLE 32 /* -p values of one command */

int is_help(const char *arg);
/* Prints "petw: " + fmt(arg) and `text` on stderr; returns 2. */
int usage_error(const char *text, const char *fmt, const char *arg);
/* The value after option argv[*i] (and *i moves to it), or NULL with the
 * message when none. */
const char *option_value(int argc, char **argv, int *i);
/* A whole decimal number in [min, max]. Returns 0 or -1. */
int parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *out);
/* Seconds (decimals allowed) as milliseconds in [1, 86400000]: 0 or -1. */
int parse_seconds(const char *text, uint32_t *ms);

/* The providers registered in the user's running processes (read once),
 * and the name one of them gives `id` (NULL when none). */
const petw_shared_provider *running_providers(uint32_t *count);
const char *running_provider_name(const petw_guid *id);
/* A provider given by the user: a GUID, the name of a provider a running
 * process registered, or a name whose derived GUID (TraceLogging,
 * EventSource) is taken. Returns 0, or -1 with the reason on stderr. */
int provider_resolve(const char *id, petw_guid *out);

/* A -p PROVIDER[:KEYWORDS[:LEVEL]] value. */
typedef struct provider_spec {
    const char *text; /* as given */
    petw_guid id;
    uint64_t keywords; /* 0: every keyword */
    uint8_t level;     /* 1..255 (the command line: 1..5) */
} provider_spec;

/* Parses a -p value. Returns 0, or -1 with the reason on stderr. */
int provider_spec_parse(const char *text, provider_spec *out);
/* Enables each provider in `session`. Returns 0, or 1 with the reason on
 * stderr. */
int enable_providers(petw_session_handle session, const provider_spec *p, int n);
/* "Provider: GUID (name) keywords K level L" on stdout. */
void print_provider_line(const provider_spec *p);
/* "Kernel: process,thread (stacks: profile)" on stdout, the groups the
 * session records (`st`'s, when given) and the stacks of those, then a
 * "Not recorded:" line with the reason for each group asked the OS did not
 * give; nothing without kernel groups. */
void print_kernel_line(const petw_session_config *cfg, const petw_session_stats *st);
/* `path` made absolute (the session host writes it), in `out`.
 * Returns 0, or -1 with the reason on stderr. */
int absolute_path(const char *path, char *out, size_t size);
/* The mode's words ("sequential,realtime") in `out`. */
void mode_text(uint32_t mode, char *out, size_t size);
/* Prints a session's final counters, as `petw stop` does. */
void print_final_stats(const petw_session_stats *st);
/* Says on stderr that `st->log_buffers_lost` buffers of session `name`
 * could not be written, and why (`rc`: PETW_ENOSPC, the disk is full, or
 * PETW_EIO). */
void print_write_failure(const char *name, const petw_session_stats *st, int rc);

/* The name a session recording kernel events gets when the user names
 * none, as xperf's is. */
#define KERNEL_SESSION_NAME "NT Kernel Logger"

/* A --kernel or --stacks list ("process,thread,cswitch", or "all") as
 * PETW_SYSTEM_* flags. Returns 0, or -1 with the reason on stderr (the
 * unknown name, and the names there are). */
int system_flags_parse(const char *option, const char *list, uint32_t *out);
/* The i-th group name --kernel takes (petw's own, then "all"), or NULL
 * past the last. */
const char *system_flag_name(int i);
/* The names of `flags` ("process,thread"), as --kernel takes them, in `out`. */
void system_flags_text(uint32_t flags, char *out, size_t size);
/* The groups of a profile's `list` (names --kernel takes) petw records;
 * each it does not is a line on stderr naming `profile_name` and `what`. */
uint32_t profile_system_flags(const char *profile_name, const char *what, const char *list);
/* What to add to petw_strerror(rc) when a session with kernel groups
 * `system_flags` did not start: why kernel events may be refused ("" when
 * none or not that). */
const char *kernel_refusal(int rc, uint32_t system_flags);
/* What to add to petw_strerror(rc) when a session operation failed: which
 * runtime directory refused it and what it must be, when that is why;
 * else kernel_refusal's. */
const char *session_refusal(int rc, uint32_t system_flags);

/* The options `petw start` and `petw record` share. */
typedef struct start_options {
    provider_spec providers[MAX_ENABLE];
    int count;
    int realtime;
    const char *file, *mode, *profile;
    uint32_t max_mb, buffer_kb, min_buffers, max_buffers, flush_ms, clock, flags;
    uint32_t system_flags, system_stack_flags; /* --kernel, --stacks: PETW_SYSTEM_* */
    uint32_t profile_interval_us;              /* --profile-interval-us; 0: the default */
    char path[PETW_MAX_NAME];                  /* `file` made absolute */
    int profile_applied;                       /* start_profile ran */
} start_options;

/* Their --help lines. */
extern const char start_options_usage[];
/* Parses the start option at argv[*i] (moving *i past its value).
 * Returns 0, -1 when argv[*i] is not one, or 2 (usage error, reported). */
int start_option(int argc, char **argv, int *i, start_options *o);
/* Reads --profile: adds its providers, and its kernel groups and stacks
 * where --kernel and --stacks gave none; says what it maps to and leaves
 * out on stderr. Once (start_config calls it when it has not run). Returns
 * 0 or 2. */
int start_profile(start_options *o);
/* Reads --profile (start_profile), checks the combination and fills
 * `cfg` (which points into `o`). Returns 0, 1 or 2 (reported on stderr;
 * usage errors with `usage_text`). */
int start_config(start_options *o, const char *usage_text, const char *name,
                 petw_session_config *cfg);

/* A one-line status (elapsed, events, rate, MB, lost) that updates in place
 * on stderr while it is a terminal; nothing when it is not. */
typedef struct status_line {
    int on, shown;
    double start, last, rate;
    uint64_t events;
} status_line;
void status_init(status_line *s);
/* Redraws it (at most 4 times a second). */
void status_show(status_line *s, uint64_t events, uint64_t bytes, uint64_t lost);
/* Erases it (before other output). */
void status_clear(status_line *s);

/* ---- tool_process.c: a child command, and signals forwarded to it ---- */

/* This process's ID. */
uint32_t tool_getpid(void);
/* The current directory in `out`. Returns 0 or -1. */
int tool_getcwd(char *out, size_t size);
/* Runs argv[0] (searched in PATH) with this process's environment (plus
 * `env`, "NAME=value", when not NULL) and waits for it, calling tick(ctx)
 * about 4 times a second meanwhile when tick is not NULL; SIGINT, SIGTERM and SIGHUP sent to this
 * process meanwhile are forwarded to it (a terminal's Ctrl-C reaches it directly), and after it
 * they are ignored for the rest of this process (those ignored when petw started stay ignored, in
 * the child too). Returns its exit status (128 + N when signal N ended it), or -1 with the reason
 * on stderr when it could not be started (`*not_found` is then 1 when the
 * program does not exist). */
int run_command(char **argv, const char *env, void (*tick)(void *), void *ctx, int *not_found);

/* The same in steps, for a command whose process ID must be known before
 * it runs (a session that traces that process): command_hold starts the
 * child held before its program (it runs nothing of the command yet),
 * command_release lets it run the program, command_wait waits as
 * run_command does. command_cancel ends a held child that must not run. */
typedef struct held_command {
    char **argv;
    long pid;      /* the child's process ID */
    int go, error; /* pipes: the go-ahead to it; its exec error from it */
} held_command;
/* Starts it held. Returns 0, or -1 with the reason on stderr
 * (`*not_found` is then 1 when the program does not exist). */
int command_hold(char **argv, const char *env, held_command *c, int *not_found);
/* Lets it run. Returns 0, or -1 when the program could not be run (the
 * reason on stderr, `*not_found` as above; the child is reaped). */
int command_release(held_command *c, int *not_found);
/* Ends and reaps a held child. */
void command_cancel(held_command *c);
/* Waits for a released child: run_command's return value. */
int command_wait(held_command *c, void (*tick)(void *), void *ctx);
/* Until the process exits, SIGINT, SIGTERM and SIGHUP call fn (which must
 * be async-signal-safe) instead of ending it. Returns 0 or -1. */
int catch_interrupts(void (*fn)(void));

#endif /* TOOL_SESSION_H */
