/* SPDX-License-Identifier: MIT */
/* test_util.h - helpers shared by the tests: checks, temp paths, reading a
 * file's events into memory, building EVENT_TRACE_PROPERTIES. */
#ifndef PETW_TEST_UTIL_H
#define PETW_TEST_UTIL_H

#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <petw/petw.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
        if (va_ != vb_) {                                                                          \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__,          \
                    __LINE__, #a, va_, #b, vb_);                                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define SKIP_TEST 77

static inline void petw__test_wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* Keeps the calling thread on one CPU, so a single writer's events fill
 * one buffer after another in order (tests of file modes want that). */
#if defined(_WIN32)
static inline void test_pin_to_one_cpu(void)
{
    SetThreadAffinityMask(GetCurrentThread(), 1);
}
#else
#include <sched.h>
static inline void test_pin_to_one_cpu(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    sched_setaffinity(0, sizeof(set), &set);
}
#endif

static inline long long test_file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long long n = ftell(f);
    fclose(f);
    return n;
}

/* Writes events whose payload is a u32 sequence number, from `first`. */
static inline uint32_t test_write_seq(REGHANDLE reg, uint32_t first, uint32_t count,
                                      uint32_t payload_size)
{
    uint8_t buf[1024] = {0};
    uint32_t failures = 0;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    for (uint32_t i = first; i < first + count; i++) {
        memcpy(buf, &i, 4);
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, buf, payload_size < 4 ? 4 : payload_size);
        failures += EventWrite(reg, &d, 1, &dd) != ERROR_SUCCESS;
    }
    return failures;
}

static inline const char *test_tmpdir(void)
{
    const char *d = getenv("TMPDIR");
    return d && d[0] ? d : "/tmp";
}

/* A unique path for this test process: <tmp>/petw-<pid>-<name>. */
static inline void test_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/petw-%d-%s", test_tmpdir(), (int)getpid(), name);
}

/* Creates directory `dir` (the caller's alone); an existing one is fine. */
#if defined(_WIN32)
#include <direct.h>
#define test_mkdir(dir) ((void)_mkdir(dir))
#else
#include <sys/stat.h>
#define test_mkdir(dir) ((void)mkdir((dir), 0700))
#endif

/* One delivered event, copied out of the callback. */
typedef struct test_event {
    petw_event_header header;
    petw_buffer_context ctx;
    uint16_t ext_count;
    uint16_t ext_type[4];
    uint8_t ext_data[4][32];
    uint16_t ext_size[4];
    uint16_t length;
    uint8_t *data;
} test_event;

typedef struct test_events {
    test_event *ev;
    size_t count, cap;
    uint64_t corrupt;
} test_events;

static inline uint32_t test_seq(const test_event *e)
{
    uint32_t v;
    memcpy(&v, e->data, 4);
    return v;
}

static inline void test_collect(petw_event_record *r, void *ctx)
{
    test_events *l = ctx;
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->ev = realloc(l->ev, l->cap * sizeof(*l->ev));
        CHECK(l->ev);
    }
    test_event *e = &l->ev[l->count++];
    memset(e, 0, sizeof(*e));
    e->header = r->header;
    e->ctx = r->buffer_context;
    e->ext_count = r->extended_data_count;
    for (int i = 0; i < r->extended_data_count && i < 4; i++) {
        e->ext_type[i] = r->extended_data[i].ext_type;
        e->ext_size[i] = r->extended_data[i].data_size;
        memcpy(e->ext_data[i], (const void *)(uintptr_t)r->extended_data[i].data_ptr,
               r->extended_data[i].data_size < 32 ? r->extended_data[i].data_size : 32);
    }
    e->length = r->user_data_length;
    e->data = malloc(r->user_data_length + 1u);
    CHECK(e->data);
    memcpy(e->data, r->user_data, r->user_data_length);
}

static inline void test_count_corrupt(petw_trace *t, uint64_t b, uint64_t off, const char *why,
                                      void *ctx)
{
    (void)t;
    test_events *l = ctx;
    l->corrupt++;
    if (getenv("PETW_TEST_VERBOSE"))
        fprintf(stderr, "corrupt buffer %llu at %llu: %s\n", (unsigned long long)b,
                (unsigned long long)off, why);
}

/* Reads every event of `path` with the native consumer. Returns the open
 * status; on success fills `out` and (optionally) the header info. */
static inline int test_read(const char *path, uint32_t flags, test_events *out,
                            petw_logfile_info *info, petw_trace_stats *stats)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.flags = flags;
    c.on_event = test_collect;
    c.on_corrupt = test_count_corrupt;
    c.context = out;
    memset(out, 0, sizeof(*out));
    petw_trace *t;
    int rc = petw_trace_open(path, &c, &t);
    if (rc)
        return rc;
    if (info)
        *info = *petw_trace_info(t);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    if (stats)
        petw_trace_stats_get(t, stats);
    petw_trace_close(t);
    return 0;
}

static inline void test_events_free(test_events *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->ev[i].data);
    free(l->ev);
    memset(l, 0, sizeof(*l));
}

/* Events of one provider. */
static inline size_t test_count_provider(const test_events *l, const GUID *g)
{
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++)
        n += memcmp(&l->ev[i].header.provider_id, g, sizeof(*g)) == 0;
    return n;
}

/* EVENT_TRACE_PROPERTIES with room for both names, as ETW users allocate
 * it: test_props for the A functions (ANSI names: UTF-8 on Linux), and
 * test_props_w for the W functions (WCHAR names). */
typedef struct test_props {
    EVENT_TRACE_PROPERTIES p;
    char logger[1024];
    char file[1024];
} test_props;

typedef struct test_props_w {
    EVENT_TRACE_PROPERTIES p;
    WCHAR logger[256];
    WCHAR file[1024];
} test_props_w;

static inline void test_props_init(test_props *tp, const char *file)
{
    memset(tp, 0, sizeof(*tp));
    tp->p.Wnode.BufferSize = sizeof(*tp);
    tp->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    tp->p.Wnode.ClientContext = 1;
    tp->p.LoggerNameOffset = offsetof(test_props, logger);
    if (file) {
        tp->p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
        tp->p.LogFileNameOffset = offsetof(test_props, file);
        snprintf(tp->file, sizeof(tp->file), "%s", file);
    }
}

/* `file` (ASCII, or UTF-8 the C locale converts) widened with mbstowcs. */
static inline void test_props_w_init(test_props_w *tp, const char *file)
{
    memset(tp, 0, sizeof(*tp));
    tp->p.Wnode.BufferSize = sizeof(*tp);
    tp->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    tp->p.Wnode.ClientContext = 1;
    tp->p.LoggerNameOffset = offsetof(test_props_w, logger);
    if (file) {
        tp->p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
        tp->p.LogFileNameOffset = offsetof(test_props_w, file);
        mbstowcs(tp->file, file, 1023);
    }
}

/* StartTraceA for a test's own session. A run killed mid-way (a timeout)
 * leaves its host-owned session behind, as ETW sessions outlive their
 * controller; the next run of the test stops that session first, as a user
 * would with `petw stop`, and says so. Any other result is returned as is. */
static inline ULONG test_start_trace(TRACEHANDLE *h, const char *name, EVENT_TRACE_PROPERTIES *p)
{
    ULONG st = StartTraceA(h, name, p);
    if (st != ERROR_ALREADY_EXISTS)
        return st;
    test_props old;
    test_props_init(&old, NULL);
    if (ControlTraceA(0, name, &old.p, EVENT_TRACE_CONTROL_STOP) != ERROR_SUCCESS)
        return st;
    fprintf(stderr, "stopped session %s, which an earlier run left\n", name);
    return StartTraceA(h, name, p);
}

/* A length-prefixed metadata blob (u16 size first) in an uncompressed file:
 * finds `needle` with its NUL, the blob starting `back` bytes before it.
 * Returns the blob's size (copied into `out`), or 0 when absent. */
static inline size_t test_find_blob(const char *path, const char *needle, size_t back, uint8_t *out,
                                    size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static uint8_t file[1 << 20];
    size_t len = fread(file, 1, sizeof(file), f);
    fclose(f);
    size_t k = strlen(needle) + 1;
    for (size_t i = back; i + k <= len; i++)
        if (memcmp(file + i, needle, k) == 0) {
            size_t n = (size_t)(file[i - back] | (file[i - back + 1] << 8));
            if (n > cap || i - back + n > len)
                return 0;
            memcpy(out, file + i - back, n);
            return n;
        }
    return 0;
}

#endif
