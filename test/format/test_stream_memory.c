/* SPDX-License-Identifier: MIT */
/* Readers stream: ProcessTrace over a large trace keeps its memory bounded
 * by the buffers in flight, not by the file's size. A child writes a
 * 256 MB trace, another child reads it through OpenTrace/ProcessTrace and
 * counts every event; the reader's peak RSS must stay under 100 MB (it was
 * the file's size plus 16 bytes a record). Sanitizer builds (whose shadow
 * memory inflates RSS) check the count on a smaller file only. */
#include <sys/resource.h>
#include <sys/wait.h>

#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

DEFINE_GUID(StreamProvider, 0x57e4a111, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x1);

#define PAYLOAD 1000

static uint64_t write_trace(const char *path, uint64_t bytes)
{
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-stream";
    c.file_path = path;
    c.buffer_size_kb = 64;
    c.minimum_buffers = c.maximum_buffers = 64;
    c.loss_policy = PETW_LOSS_BLOCK;
    c.block_timeout_ms = 10000;
    petw_session_handle s;
    CHECK_EQ(petw_session_start(&c, &s), 0);
    petw_provider_handle p;
    CHECK_EQ(petw_provider_register((const petw_guid *)&StreamProvider, NULL, NULL, &p), 0);
    CHECK_EQ(petw_session_enable_provider(s, (const petw_guid *)&StreamProvider, 0, 0, 0), 0);
    static uint8_t buf[PAYLOAD];
    uint64_t n = bytes / (PAYLOAD + 0x50);
    for (uint64_t i = 0; i < n; i++) {
        memcpy(buf, &i, 8);
        petw_data_descriptor d = {(uint64_t)(uintptr_t)buf, PAYLOAD, 0, 0, 0};
        petw_event_descriptor desc = {1, 0, 0, 4, 0, 0, 0};
        CHECK_EQ(petw_event_write(p, &desc, NULL, NULL, 1, &d), 0);
    }
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(s, &st), 0);
    CHECK_EQ(st.events_lost, 0);
    return n;
}

static uint64_t seen;
static void count(PEVENT_RECORD r)
{
    if (r->UserDataLength == PAYLOAD)
        seen++;
}

static int read_trace(const char *path)
{
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = (char *)path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = count;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CHECK_EQ(CloseTrace(h), ERROR_SUCCESS);
    FILE *f = fopen(path, "a");
    fprintf(f, "%llu", (unsigned long long)seen); /* the count, for the parent */
    fclose(f);
    return 0;
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "stream.etl");
    uint64_t bytes = SANITIZED ? (32ull << 20) : (256ull << 20);
    pid_t w = fork();
    if (w == 0)
        _exit(write_trace(path, bytes) ? 0 : 1);
    int status;
    CHECK(waitpid(w, &status, 0) == w && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    uint64_t written = bytes / (PAYLOAD + 0x50);
    long long size = test_file_size(path);
    CHECK(size >= (long long)(bytes * 9 / 10));
    pid_t r = fork();
    if (r == 0)
        _exit(read_trace(path));
    CHECK(waitpid(r, &status, 0) == r && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct rusage ru;
    CHECK_EQ(getrusage(RUSAGE_CHILDREN, &ru), 0);
    long peak_mb = ru.ru_maxrss / 1024; /* the larger of the two children */
    /* The reader appended its count after the trace. */
    FILE *f = fopen(path, "rb");
    CHECK(f);
    fseek(f, size, SEEK_SET);
    unsigned long long got = 0;
    CHECK(fscanf(f, "%llu", &got) == 1);
    fclose(f);
    remove(path);
    CHECK_EQ(got, written);
    printf("stream: %llu MB trace, %llu events read, peak RSS of writer/reader %ld MB\n",
           (unsigned long long)(size >> 20), got, peak_mb);
    if (!SANITIZED)
        CHECK(peak_mb < 100);
    return 0;
}
