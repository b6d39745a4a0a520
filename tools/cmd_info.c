/* SPDX-License-Identifier: MIT */
/* cmd_info.c - `petw info FILE...`: each file's header, what was read and
 * skipped, and its events counted by provider, event ID and name, the most
 * frequent first. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tool.h"

#define MAX_KINDS 4096

const char info_usage[] =
    "usage: petw info FILE... [--manifest PATH]...\n"
    "Prints each trace file's header (logger, clock, buffer size, processors, start\n"
    "and end, buffers written, read and corrupt, events and buffers lost) and its\n"
    "events counted by provider, event ID and name. It reads petw's files and\n"
    "Windows' (compressed ones too).\n"
    "Options:\n"
    "  --manifest PATH        decodes the events of the providers an instrumentation\n"
    "                         manifest (.man, or a directory of them) describes\n"
    "                         (repeatable; PETW_MANIFEST_PATH adds more)\n";

typedef struct count_entry {
    petw_guid provider;
    uint16_t id;
    uint64_t count;
    char *provider_name; /* from TraceLogging metadata, or "" */
    char *event_name;    /* TraceLogging events share id 0 and differ by name */
} count_entry;

typedef struct info_ctx {
    count_entry entries[MAX_KINDS];
    int n;
    uint64_t total, other; /* `other`: events past the table's kinds */
    petw_decoder *decoder;
} info_ctx;

static char *copy(const char *s)
{
    char *c = malloc(strlen(s) + 1);
    return c ? strcpy(c, s) : NULL;
}

/* The entry counting records like `r` named `event_name`, or NULL. */
static count_entry *find_kind(info_ctx *c, const petw_event_record *r, const char *event_name)
{
    for (int i = 0; i < c->n; i++) {
        count_entry *e = &c->entries[i];
        if (e->id == r->header.descriptor.id &&
            petw_guid_equal(&e->provider, &r->header.provider_id) &&
            !strcmp(e->event_name, event_name))
            return e;
    }
    return NULL;
}

/* A new entry counting `r`'s kind once. Returns 0 or -1 (no memory). */
static int add_kind(info_ctx *c, const petw_event_record *r, const petw_decoded_event *ev)
{
    count_entry *e = &c->entries[c->n];
    e->event_name = copy(ev && ev->event_name ? ev->event_name : "");
    e->provider_name = copy(ev && ev->provider_name ? ev->provider_name : "");
    if (!e->event_name || !e->provider_name) {
        free(e->event_name);
        free(e->provider_name);
        return -1;
    }
    e->provider = r->header.provider_id;
    e->id = r->header.descriptor.id;
    e->count = 1;
    c->n++;
    return 0;
}

/* Counts the record under its provider, event ID and event name (or under
 * `other` once the table is full). */
static void count_event(petw_event_record *r, void *context)
{
    info_ctx *c = context;
    const petw_decoded_event *ev = NULL;
    c->total++;
    if (petw_decode(c->decoder, r, &ev) != 0 || !ev->has_schema)
        ev = NULL;
    count_entry *e = find_kind(c, r, ev && ev->event_name ? ev->event_name : "");
    if (e)
        e->count++;
    else if (c->n == MAX_KINDS || add_kind(c, r, ev) != 0)
        c->other++;
}

static const char *clock_name(uint32_t c)
{
    return c == PETW_CLOCK_QPC      ? "QPC"
           : c == PETW_CLOCK_SYSTEM ? "system time"
           : c == PETW_CLOCK_CYCLES ? "CPU cycles"
                                    : "unknown";
}

/* `s` as one line of text (NUL-terminated in `b`). */
static const char *printable(sbuf *b, const char *s)
{
    b->len = 0;
    text_string(b, s);
    sbuf_putc(b, 0);
    return b->failed ? "?" : b->data;
}

static void print_header(const char *path, const petw_logfile_info *h, const petw_trace_stats *st,
                         sbuf *b)
{
    char start[TIME_TEXT_SIZE], end[TIME_TEXT_SIZE];
    format_time(h->start_time, start);
    format_time(h->end_time, end);
    printf("%s\n", path);
    printf("  logger name      %s\n", printable(b, h->logger_name));
    printf("  log file name    %s\n", printable(b, h->log_file_name));
    printf("  log file mode    0x%08x\n", h->log_file_mode);
    printf("  clock            %s (%" PRId64 " Hz%s)\n", clock_name(h->reserved_flags),
           h->perf_freq, (h->petw_flags & PETW_FILE_CLOCK_TSC) ? ", the CPU's invariant TSC" : "");
    printf("  buffer size      %u bytes\n", h->buffer_size);
    printf("  processors       %u\n", h->number_of_processors);
    printf("  pointer size     %u\n", h->pointer_size);
    printf("  start            %s\n", start);
    printf("  end              %s\n", end);
    printf("  buffers          %u written, %" PRIu64 " read, %" PRIu64 " corrupt\n",
           h->buffers_written, st->buffers_read, st->buffers_corrupt);
    printf("  lost             %u events, %u buffers\n", h->events_lost, h->buffers_lost);
    if (st->bytes_truncated)
        printf("  truncated        %" PRIu64 " bytes of an incomplete final buffer\n",
               st->bytes_truncated);
    if (h->petw_flags & (PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM))
        printf("  petw extensions %s%s\n", (h->petw_flags & PETW_SESSION_ZSTD) ? " zstd" : "",
               (h->petw_flags & PETW_SESSION_CHECKSUM) ? " xxh64" : "");
}

/* Most events first; then by provider (as shown), event ID and name. */
static int by_count(const void *a, const void *b)
{
    const count_entry *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    char gx[37], gy[37];
    const char *nx = x->provider_name[0] ? x->provider_name : known_provider_name(&x->provider);
    const char *ny = y->provider_name[0] ? y->provider_name : known_provider_name(&y->provider);
    if (!nx != !ny)
        return nx ? -1 : 1; /* named providers before bare GUIDs */
    if (!nx) {
        petw_guid_format(&x->provider, gx);
        petw_guid_format(&y->provider, gy);
        nx = gx;
        ny = gy;
    }
    int k = strcmp(nx, ny);
    if (k)
        return k;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return strcmp(x->event_name, y->event_name);
}

static void print_counts(info_ctx *c, sbuf *b)
{
    if (c->n > 1)
        qsort(c->entries, (size_t)c->n, sizeof(c->entries[0]), by_count);
    sbuf event = {0};
    printf("  events           %" PRIu64 "\n", c->total);
    for (int k = 0; k < c->n; k++) {
        const count_entry *e = &c->entries[k];
        char g[37];
        const char *name =
            e->provider_name[0] ? e->provider_name : known_provider_name(&e->provider);
        if (!name) {
            petw_guid_format(&e->provider, g);
            name = g;
        }
        printf("    %-36s id %-5u %-24s %" PRIu64 "\n", printable(b, name), e->id,
               printable(&event, e->event_name), e->count);
    }
    if (c->other)
        printf("    (other kinds)                                     %" PRIu64 "\n", c->other);
    sbuf_free(&event);
}

static void free_info(info_ctx *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->entries[i].event_name);
        free(c->entries[i].provider_name);
    }
    petw_decoder_free(c->decoder);
    free(c);
}

/* Returns 0, or 1 when the file cannot be read or has corrupt buffers. */
static int info_file(char *path, const manifest_list *manifests)
{
    info_ctx *c = calloc(1, sizeof(*c));
    reader rd;
    if (!c) {
        fprintf(stderr, "petw: %s: %s\n", path, petw_strerror(PETW_ENOMEM));
        return 1;
    }
    if (!(c->decoder = decoder_create(manifests))) {
        free(c);
        return 1;
    }
    if (reader_open(&rd, 1, &path, count_event, c) != 0) {
        free_info(c);
        return 1;
    }
    sbuf b = {0};
    petw_trace_stats st;
    reader_process(&rd, 0, 0);
    petw_trace_stats_get(rd.traces[0], &st);
    print_header(path, petw_trace_info(rd.traces[0]), &st, &b);
    print_counts(c, &b);
    sbuf_free(&b);
    uint64_t corrupt = reader_close(&rd);
    if (corrupt)
        fprintf(stderr, "petw: %s: %" PRIu64 " corrupt buffers skipped\n", path, corrupt);
    free_info(c);
    return corrupt ? 1 : 0;
}

int cmd_info(int argc, char **argv)
{
    int status = 0, files = 0;
    manifest_list manifests = {{0}, {0}, 0};
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--manifest") &&
            (i + 1 == argc || manifest_add(&manifests, argv[++i]) != 0)) {
            fprintf(stderr, "petw: --manifest needs a PATH (at most %d)\n", MAX_MANIFESTS);
            return 2;
        } else if (strcmp(argv[i], "--manifest") && argv[i][0] == '-' && argv[i][1])
            return command_usage_error("info", "unknown option '%s'", argv[i]);
        else if (strcmp(argv[i], "--manifest"))
            files++;
    if (!files)
        return command_usage_error("info", "%s", "no FILE");
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--manifest")) {
            i++;
            continue;
        }
        if (info_file(argv[i], &manifests) != 0)
            status = 1;
    }
    return status;
}
