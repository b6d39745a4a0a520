/* SPDX-License-Identifier: MIT */
/* Hostile inputs to the readers get a clear error or a reported corrupt
 * buffer, fast and in bounded memory:
 * - decompression bombs: zstd and XPRESS buffers claiming more than the
 *   file's buffer size (they once cost GBs), and a packed buffer claiming
 *   an impossible expansion, are reported corrupt and skipped;
 * - a header that claims a 64 MiB buffer is not a trace;
 * - FIFOs, directories and devices are refused with PETW_ENOTREG
 *   (ERROR_BAD_FILE_TYPE) without blocking (a FIFO used to block forever);
 * - the same trace twice in one ProcessTrace, or a closed handle, is
 *   refused (it read past an array);
 * - EnableTraceEx2 on a stopped session's handle: ERROR_INVALID_PARAMETER. */
#include <sys/stat.h>

#include "test_record_helpers.h"

static long long read_all(const char *path, uint8_t **out)
{
    long long n = test_file_size(path);
    CHECK(n > 0);
    *out = malloc((size_t)n);
    FILE *f = fopen(path, "rb");
    CHECK(f && fread(*out, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    return n;
}

static void write_all(const char *path, const uint8_t *data, long long n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
}

/* Buffer header fields (docs/format.md section 2). */
#define BH_BUFFER_SIZE 0x00
#define BH_SAVED_OFFSET 0x04
#define BH_BUFFER_FLAG 0x34

/* A zstd file whose data buffers claim to unpack to 16 MiB (the file's
 * buffers are 4 KB): every one is reported and skipped. */
static void zstd_bomb(void)
{
    char path[512];
    test_path(path, sizeof(path), "zbomb.etl");
    test_record_file(path, "petw-test-zbomb", 500, 64, PETW_SESSION_ZSTD);
    uint8_t *f;
    long long n = read_all(path, &f);
    uint32_t bombs = 0;
    for (long long off = 4096; off + 0x48 <= n;) {
        uint32_t disk = (uint32_t)f[off] | (uint32_t)f[off + 1] << 8 | (uint32_t)f[off + 2] << 16;
        uint8_t *p = f + off + BH_SAVED_OFFSET;
        uint32_t claim = 16u << 20;
        memcpy(p, &claim, 4);
        bombs++;
        off += disk;
    }
    write_all(path, f, n);
    free(f);
    test_events ev;
    petw_trace_stats st;
    CHECK_EQ(test_read(path, 0, &ev, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, bombs);
    CHECK_EQ(ev.count, 1); /* the header record only */
    test_events_free(&ev);
    remove(path);
}

/* An uncompressed file turned into Windows-style XPRESS buffers that
 * claim 16 MiB each (what a 4.5 KB file once used to cost 2.6 GB). */
static void xpress_bomb(void)
{
    char path[512];
    test_path(path, sizeof(path), "xbomb.etl");
    uint32_t buffers = test_record_file(path, "petw-test-xbomb", 200, 64, 0);
    uint8_t *f;
    long long n = read_all(path, &f);
    CHECK_EQ(n, 4096LL * buffers);
    /* Keep the header buffer; each data buffer becomes 0x48 + 16 bytes. */
    uint8_t *out = calloc(1, (size_t)n);
    memcpy(out, f, 4096);
    long long at = 4096;
    for (uint32_t b = 1; b < buffers; b++) {
        memcpy(out + at, f + 4096LL * b, 0x48);
        uint32_t disk = 0x48 + 16, claim = 16u << 20;
        memcpy(out + at + BH_BUFFER_SIZE, &disk, 4);
        memcpy(out + at + BH_SAVED_OFFSET, &claim, 4);
        out[at + BH_BUFFER_FLAG] |= 0x40; /* compressed (XPRESS) */
        memset(out + at + 0x48, 0, 16);
        at += disk;
    }
    /* The header says COMPRESSED_MODE, as a relogged Windows file does. */
    petw_logfile_info info;
    test_events ev;
    write_all(path, out, at);
    CHECK_EQ(test_read(path, 0, &ev, &info, NULL), 0);
    test_events_free(&ev);
    uint32_t mode_at = 0x48 + 0x20 + 0x20; /* buffer header, SYSTEM header, LogFileMode */
    uint32_t mode = info.log_file_mode | PETW_MODE_COMPRESSED;
    memcpy(out + mode_at, &mode, 4);
    write_all(path, out, at);
    petw_trace_stats st;
    CHECK_EQ(test_read(path, 0, &ev, &info, &st), 0);
    CHECK(info.log_file_mode & PETW_MODE_COMPRESSED);
    CHECK_EQ(st.buffers_corrupt, buffers - 1); /* each bomb reported, each skipped */
    CHECK_EQ(ev.count, 1);
    test_events_free(&ev);
    free(out);
    free(f);
    remove(path);
}

/* A compressed buffer within the size limit whose payload would have to
 * expand more than 4096 times: refused before decompressing. */
static void expansion_bomb(void)
{
    char path[512];
    test_path(path, sizeof(path), "ebomb.etl");
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-ebomb";
    c.file_path = path;
    c.buffer_size_kb = 1024;
    c.flags = PETW_SESSION_ZSTD;
    petw_session_handle s;
    CHECK_EQ(petw_session_start(&c, &s), 0);
    petw_provider_handle p;
    CHECK_EQ(petw_provider_register((const petw_guid *)&HelperProvider, NULL, NULL, &p), 0);
    CHECK_EQ(petw_session_enable_provider(s, (const petw_guid *)&HelperProvider, 0, 0, 0), 0);
    uint32_t v = 7;
    petw_data_descriptor d = {(uint64_t)(uintptr_t)&v, 4, 0, 0, 0};
    petw_event_descriptor desc = {1, 0, 0, 4, 0, 0, 0};
    CHECK_EQ(petw_event_write(p, &desc, NULL, NULL, 1, &d), 0);
    CHECK_EQ(petw_session_stop(s, NULL), 0);
    CHECK_EQ(petw_provider_unregister(p), 0);
    uint8_t *f;
    long long n = read_all(path, &f);
    long long off = 1 << 20; /* the first data buffer */
    CHECK(n > off + 0x48);
    uint32_t disk, claim = (1u << 20) - 64; /* under the buffer size... */
    memcpy(&disk, f + off, 4);
    CHECK(disk < 200);
    memcpy(f + off + BH_SAVED_OFFSET, &claim, 4); /* ...but > 4096x the payload */
    write_all(path, f, n);
    free(f);
    test_events ev;
    petw_trace_stats st;
    CHECK_EQ(test_read(path, 0, &ev, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 1);
    CHECK_EQ(ev.count, 1);
    test_events_free(&ev);
    remove(path);
}

/* A header buffer claiming 64 MiB: not a trace, and nothing allocated for
 * the claim. */
static void huge_header(void)
{
    char path[512];
    test_path(path, sizeof(path), "huge.etl");
    test_record_file(path, "petw-test-huge", 10, 64, 0);
    uint8_t *f;
    long long n = read_all(path, &f);
    uint32_t claim = 64u << 20;
    memcpy(f + BH_BUFFER_SIZE, &claim, 4);
    write_all(path, f, n);
    test_events ev;
    CHECK_EQ(test_read(path, 0, &ev, NULL, NULL), PETW_ECORRUPT);
    /* The logfile header's own BufferSize field claims 64 MiB. */
    memcpy(f + BH_BUFFER_SIZE, &(uint32_t){4096}, 4);
    memcpy(f + 0x48 + 0x20, &claim, 4);
    write_all(path, f, n);
    CHECK_EQ(test_read(path, 0, &ev, NULL, NULL), PETW_ECORRUPT);
    free(f);
    remove(path);
}

static void not_regular(void)
{
    char path[512];
    test_path(path, sizeof(path), "fifo");
    remove(path);
    CHECK_EQ(mkfifo(path, 0600), 0);
    test_events ev;
    CHECK_EQ(test_read(path, 0, &ev, NULL, NULL), PETW_ENOTREG); /* never blocks */
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    CHECK(OpenTraceA(&lf) == INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(GetLastError(), ERROR_BAD_FILE_TYPE);
    remove(path);
    CHECK_EQ(test_read(test_tmpdir(), 0, &ev, NULL, NULL), PETW_ENOTREG);
    lf.LogFileName = (char *)test_tmpdir();
    CHECK(OpenTraceA(&lf) == INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(GetLastError(), ERROR_BAD_FILE_TYPE);
    CHECK_EQ(test_read("/dev/zero", 0, &ev, NULL, NULL), PETW_ENOTREG);
    CHECK_EQ(test_read("/dev/null", 0, &ev, NULL, NULL), PETW_ENOTREG);
}

static void noop(PEVENT_RECORD r)
{
    (void)r;
}

static void handles(void)
{
    char path[512];
    test_path(path, sizeof(path), "handles.etl");
    test_record_file(path, "petw-test-handles", 50, 64, 0);
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = noop;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    TRACEHANDLE twice[2] = {h, h};
    CHECK_EQ(ProcessTrace(twice, 2, NULL, NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS); /* still usable */
    CHECK_EQ(CloseTrace(h), ERROR_SUCCESS);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_INVALID_HANDLE);
    TRACEHANDLE h2 = OpenTraceA(&lf);
    TRACEHANDLE mixed[2] = {h2, h};
    CHECK_EQ(ProcessTrace(mixed, 2, NULL, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(CloseTrace(h2), ERROR_SUCCESS);
    /* The native API refuses the same trace twice too. */
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = test_collect;
    test_events ev;
    memset(&ev, 0, sizeof(ev));
    c.context = &ev;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    petw_trace *both[2] = {t, t};
    CHECK_EQ(petw_trace_process(both, 2, 0, 0), PETW_EINVAL);
    petw_trace_close(t);
    remove(path);
}

static void enable_stopped(void)
{
    test_props tp;
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-enable-stopped", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(s, &HelperProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_INVALID_PARAMETER);
}

int main(void)
{
    zstd_bomb();
    xpress_bomb();
    expansion_bomb();
    huge_header();
    not_regular();
    handles();
    enable_stopped();
    printf("hostile files: all checks passed\n");
    return 0;
}
