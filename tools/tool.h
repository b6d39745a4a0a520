/* SPDX-License-Identifier: MIT */
/* tool.h - what the subcommands of the petw command share: the platform
 * shims, reading traces (with corrupt buffers reported), time as text, and
 * provider names and filters. The output formats are in output/output.h. */
#ifndef TOOL_H
#define TOOL_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <petw/petw.h>

#if defined(_WIN32)
#include <io.h>
#define tool_isatty(fd) _isatty(fd)
#define tool_fileno(f) _fileno(f)
#define tool_gmtime(t, tm) gmtime_s((tm), (t))
#define tool_timegm _mkgmtime
#else
#include <unistd.h>
#define tool_isatty(fd) isatty(fd)
#define tool_fileno(f) fileno(f)
#define tool_gmtime(t, tm) gmtime_r((t), (tm))
#define tool_timegm timegm
#endif

#define MAX_FILES 64      /* traces one command reads (petw_trace_process's limit) */
#define MAX_PROVIDERS 32  /* --provider values */
#define TIME_TEXT_SIZE 29 /* "YYYY-MM-DDTHH:MM:SS.fffffffZ" and its NUL */

/* The subcommands: each returns the process's exit status. */
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_guid(int argc, char **argv);
int cmd_mc(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_forward(int argc, char **argv);

/* Their --help texts, each in its command's file: "usage: petw COMMAND
 * ..." (more usage lines indented by 7), a description, then sections
 * ("Options:") of entries ("  --opt VALUE    what it does", continued
 * indented deeper). tool_help.c makes the man pages and the completion
 * from them, so they keep this shape. */
extern const char info_usage[], dump_usage[], guid_usage[], convert_usage[], report_usage[],
    mc_usage[], start_usage_head[], record_head[], stop_usage[], flush_usage[], enable_usage[],
    disable_usage[], capture_usage[], update_usage[], query_usage[], providers_usage[],
    watch_usage[], symbolize_usage[], export_usage[], forward_usage[];

/* ---- tool_commands.c: the table of commands; tool_help.c: help, man pages
 * and completion from their texts ---- */

typedef struct tool_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;     /* one line: what it does */
    const char *const *help; /* its --help text, in parts (NULL ends them) */
    const char *examples;    /* lines: a command, then what it does, per pair */
    const char *see_also;    /* related commands, separated by spaces */
} tool_command;

extern const tool_command tool_commands[];
extern const size_t tool_command_count;
extern const char tool_version[]; /* meson's project version */

/* The command `name` (n bytes), or NULL. */
const tool_command *tool_command_find(const char *name);
const tool_command *tool_command_find_n(const char *name, size_t n);
/* Writes the --help text of `c` (NULL: of petw itself) with its examples
 * to `f`. Returns 0, or 1 with the reason on stderr. */
int help_print(const tool_command *c, FILE *f);
/* Writes the usage lines of a --help text, and where the rest is, to `f`
 * (after a usage error). */
void help_synopsis(const char *text, FILE *f);
/* Writes the manual page `page` ("petw", "petw-record") as roff to `f`.
 * Returns 0, or 2 when there is no such page. */
int help_man(const char *page, FILE *f);
/* Writes the bash completion script to `f`. Returns 0 or 1. */
int help_completion(FILE *f);
/* Reports a usage error of command `name`: "petw: " + fmt(arg) on one
 * line, then the command's usage lines. Returns 2. */
int command_usage_error(const char *name, const char *fmt, const char *arg);

/* ---- tool_time.c ---- */

/* FILETIME -> "YYYY-MM-DDTHH:MM:SS.fffffffZ" (UTC). */
void format_time(int64_t filetime, char out[TIME_TEXT_SIZE]);
/* ISO-8601 UTC ("2024-01-31T12:00:00.5Z") or a FILETIME number -> FILETIME.
 * Returns 0 or -1. */
int parse_time(const char *text, int64_t *filetime);

/* ---- tool_output_file.c: files the tool writes ---- */

/* Creates `path` for writing as petw creates trace files ("-": returns
 * standard output): readable and
 * writable by the user alone (0600), exclusively, never through a link.
 * Something already at `path` is refused unless `force`: then a link there
 * is removed (its target left alone) and so is a regular file the user
 * owns, and the file is created anew; anything else is refused. Returns the
 * stream, or NULL with the reason on stderr. */
FILE *output_file_create(const char *path, int force);
/* Closes what output_file_create returned (standard output is flushed, not
 * closed). Returns 0, or EOF when writing failed. */
int output_file_close(FILE *f);
/* What a message calls the output `path`: it, or "standard output" for "-". */
const char *output_file_name(const char *path);

/* ---- tool_trace.c: one or more ETL files read together ---- */

typedef struct reader {
    petw_trace *traces[MAX_FILES];
    const char *paths[MAX_FILES];
    uint64_t corrupt[MAX_FILES]; /* corrupt buffers skipped, per file */
    int count;                   /* files open (the next one is being opened) */
    petw_event_callback on_event;
    void *context; /* given to on_event */
} reader;

/* Opens `n` files. A file that cannot be opened is reported on stderr, the
 * others are closed again and -1 returned. Corrupt buffers are reported on
 * stderr (with their file) as they are skipped, while opening and later. */
int reader_open(reader *rd, int n, char **paths, petw_event_callback on_event, void *context);
/* Delivers the events between start and end (FILETIMEs, 0: no bound).
 * Returns petw_trace_process's result. */
int reader_process(reader *rd, int64_t start, int64_t end);
/* 1 when the raw session timestamp `raw` of one of the files is the
 * FILETIME `filetime` (a StackWalk event's EventTimeStamp is raw); `rd` is
 * a reader. */
int reader_same_time(void *rd, int64_t raw, int64_t filetime);
/* Closes every file; returns the corrupt buffers skipped in all of them. */
uint64_t reader_close(reader *rd);

/* ---- tool_decode.c: decoders with the user's manifests ---- */

#define MAX_MANIFESTS 32 /* --manifest and --tmf values */

typedef struct manifest_list {
    const char *paths[MAX_MANIFESTS];
    unsigned char tmf[MAX_MANIFESTS]; /* 1: a WPP TMF file or directory */
    int count;
} manifest_list;

/* --manifest PATH (a file or a directory). Returns 0, or -1 when there are
 * too many or PATH is empty. */
int manifest_add(manifest_list *m, const char *path);
/* --tmf PATH: a WPP trace message format file (or a directory of them). */
int tmf_add(manifest_list *m, const char *path);
/* A decoder knowing the manifests of `m` (may be NULL), then those of
 * PETW_MANIFEST_PATH (paths separated by ':', ';' on Windows); NULL with
 * the reason on stderr when one cannot be read. */
petw_decoder *decoder_create(const manifest_list *m);

/* ---- tool_provider.c: provider names and --provider filters ---- */

/* strcmp without regard to ASCII case. */
int ascii_casecmp(const char *a, const char *b);

/* The name of a provider every trace has ("EventTrace"), or a kernel
 * event class ("Thread"), or NULL. */
const char *known_provider_name(const petw_guid *id);
/* 1 when `id` is the provider of a trace's own header records (EventTrace),
 * not of events recorded. */
int header_provider(const petw_guid *id);

typedef struct provider_filter {
    petw_guid ids[MAX_PROVIDERS];
    int id_count;                     /* 0: every provider passes */
    const char *names[MAX_PROVIDERS]; /* also matched with decoded names */
    int name_count;
} provider_filter;

/* Adds a --provider value: a GUID, "EventTrace", or a provider name (its
 * derived GUID, and the name the events carry). Returns 0, or -1 when the
 * value is empty or the filter is full. */
int filter_add(provider_filter *f, const char *value);
/* 1 when the filter lists provider `id` (or is empty). */
int filter_has_id(const provider_filter *f, const petw_guid *id);
/* 1 when `name` (decoded from an event, may be NULL) is one of the names. */
int filter_has_name(const provider_filter *f, const char *name);

#endif /* TOOL_H */
