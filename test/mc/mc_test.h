/* SPDX-License-Identifier: MIT */
/* mc_test.h - what the tests of `petw mc` headers share: CHECK, and a file
 * session started and read back through the ETW API and the decoder, as
 * mc.exe's users record and read their providers. Header-only (the tests
 * are also built as C++). */
#ifndef PETW_MC_TEST_H
#define PETW_MC_TEST_H

#include <windows.h>
#include <evntrace.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <petw/consume.h>
#include <petw/decode.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* EVENT_TRACE_PROPERTIES with room for the names the A functions take. */
typedef struct mc_props {
    EVENT_TRACE_PROPERTIES p;
    char logger[256];
    char file[1024];
} mc_props;

/* A session named after `tag` (and this process): real time without a
 * file (`path` NULL), else into `path`. */
static inline TRACEHANDLE mc_start(mc_props *a, const char *tag, const char *path)
{
    memset(a, 0, sizeof(*a));
    a->p.Wnode.BufferSize = sizeof(*a);
    a->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    a->p.Wnode.ClientContext = 1;
    a->p.LoggerNameOffset = offsetof(mc_props, logger);
    a->p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    if (path) {
        a->p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
        a->p.LogFileNameOffset = offsetof(mc_props, file);
        snprintf(a->file, sizeof(a->file), "%s", path);
    }
    char name[64];
    snprintf(name, sizeof(name), "petw-test-%s-%ld", tag, (long)getpid());
    TRACEHANDLE sh = 0;
    CHECK(StartTraceA(&sh, name, &a->p) == ERROR_SUCCESS);
    return sh;
}

/* A file for `tag` in TMPDIR. */
static inline void mc_path(char *path, size_t size, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, size, "%s/petw-%ld-%s.etl", tmp ? tmp : "/tmp", (long)getpid(), tag);
}

/* Every event of `path` to `on_event` (with `ctx`); the file is removed after. */
static inline void mc_read(const char *path, petw_event_callback on_event, void *ctx)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = ctx;
    petw_trace *t;
    CHECK(petw_trace_open(path, &c, &t) == 0);
    CHECK(petw_trace_process(&t, 1, 0, 0) == 0);
    petw_trace_close(t);
    remove(path);
}

#endif
