/* SPDX-License-Identifier: MIT */
/* tool_trace.c - the ETL files a command reads, opened and processed
 * together, with each corrupt buffer reported against its own file. */
#include <inttypes.h>
#include <stdio.h>

#include "tool.h"

/* The file a trace was opened from: a trace not open yet is the one being
 * opened (petw_trace_open reports corrupt buffers before it returns). */
static int file_of(const reader *rd, const petw_trace *t)
{
    for (int i = 0; i < rd->count; i++)
        if (rd->traces[i] == t)
            return i;
    return rd->count;
}

static void on_corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *why, void *ctx)
{
    reader *rd = ctx;
    int i = file_of(rd, t);
    rd->corrupt[i]++;
    fprintf(stderr, "petw: %s: buffer %" PRIu64 " (offset %" PRIu64 ") skipped: %s\n", rd->paths[i],
            index, offset, why);
}

static void on_event(petw_event_record *r, void *ctx)
{
    reader *rd = ctx;
    rd->on_event(r, rd->context);
}

int reader_open(reader *rd, int n, char **paths, petw_event_callback event, void *context)
{
    rd->count = 0;
    rd->on_event = event;
    rd->context = context;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = on_event;
    cfg.on_corrupt = on_corrupt;
    cfg.context = rd;
    for (int i = 0; i < n && i < MAX_FILES; i++) {
        rd->paths[i] = paths[i];
        rd->corrupt[i] = 0;
        int rc = petw_trace_open(paths[i], &cfg, &rd->traces[i]);
        if (rc) {
            fprintf(stderr, "petw: %s: %s\n", paths[i], petw_strerror(rc));
            reader_close(rd);
            return -1;
        }
        rd->count++;
    }
    return 0;
}

int reader_process(reader *rd, int64_t start, int64_t end)
{
    return petw_trace_process(rd->traces, (uint32_t)rd->count, start, end);
}

int reader_same_time(void *context, int64_t raw, int64_t filetime)
{
    reader *rd = context;
    for (int i = 0; i < rd->count; i++)
        if (petw_trace_timestamp_to_filetime(rd->traces[i], raw) == filetime)
            return 1;
    return 0;
}

uint64_t reader_close(reader *rd)
{
    uint64_t corrupt = 0;
    for (int i = 0; i < rd->count; i++) {
        corrupt += rd->corrupt[i];
        petw_trace_close(rd->traces[i]);
    }
    rd->count = 0;
    return corrupt;
}
