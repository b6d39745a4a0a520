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
int cmd_update(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_record(int argc, char **argv);

/* ---- cmd_session.c: what start and record share ---- */

#define MAX_ENABLE 32 /* -p values of one command */

/* A -p PROVIDER[:KEYWORDS[:LEVEL]] value. */
typedef struct provider_spec {
    const char *text; /* as given */
    petw_guid id;
    uint64_t keywords; /* 0: every keyword */
    uint8_t level;     /* 1..5 */
} provider_spec;

/* Parses a -p value. Returns 0, or -1 with the reason on stderr. */
int provider_spec_parse(const char *text, provider_spec *out);
/* Enables each provider in `session`. Returns 0, or 1 with the reason on
 * stderr. */
int enable_providers(petw_session_handle session, const provider_spec *p, int n);
/* `path` made absolute (the session host writes it), in `out`.
 * Returns 0, or -1 with the reason on stderr. */
int absolute_path(const char *path, char *out, size_t size);
/* Prints a session's final counters, as `petw stop` does. */
void print_final_stats(const petw_session_stats *st);

/* ---- tool_process.c: a child command, and signals forwarded to it ---- */

/* This process's ID. */
uint32_t tool_getpid(void);
/* The current directory in `out`. Returns 0 or -1. */
int tool_getcwd(char *out, size_t size);
/* Runs argv[0] (searched in PATH) with this process's environment and
 * waits for it; SIGINT, SIGTERM and SIGHUP sent to this process meanwhile
 * are forwarded to it (a terminal's Ctrl-C reaches it directly), and
 * after it they are ignored for the rest of this process (those ignored
 * when petw started stay ignored, in the child too). Returns
 * its exit status (128 + N when signal N ended it), or -1 with the reason
 * on stderr when it could not be started (`*not_found` is then 1 when the
 * program does not exist). */
int run_command(char **argv, int *not_found);

#endif /* TOOL_SESSION_H */
