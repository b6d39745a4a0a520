/* SPDX-License-Identifier: MIT */
/* test_xproc_win.c - sessions shared between processes in petw's Windows
 * build, with real processes: test_xproc's scenarios where Windows has no
 * fork(). This program starts itself again with a role on its command line
 * (provider, controller, writer, consumer, burst); a child reads commands
 * on its stdin and reports on its stdout (anonymous pipes). Events carry a
 * u32 sequence number; the file a session writes is read back and every
 * provider process's events are counted against what it says it wrote,
 * plus the session's EventsLost.
 */
#include <windows.h>

#include "test_util.h"

static const GUID prov = {
    0x8e2c13a7, 0x1b0d, 0x4f4c, {0x9c, 0x11, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 0x7f}};

/* ---- pipes to and from children ---- */

typedef struct child {
    HANDLE proc;
    DWORD pid;
    HANDLE cmd;    /* parent -> child */
    HANDLE report; /* child -> parent */
} child;

static HANDLE report_h; /* in a child: its stdout */

static void write_all(HANDLE h, const void *p, DWORD n)
{
    const char *c = p;
    while (n) {
        DWORD k = 0;
        CHECK(WriteFile(h, c, n, &k, NULL) && k > 0);
        c += k;
        n -= k;
    }
}

static void read_all(HANDLE h, void *p, DWORD n)
{
    char *c = p;
    while (n) {
        DWORD k = 0;
        CHECK(ReadFile(h, c, n, &k, NULL) && k > 0);
        c += k;
        n -= k;
    }
}

/* Reads one byte (with a timeout): the report a child sent; -1 when none
 * came or the child is gone. */
static int read_byte(HANDLE h, int timeout_ms)
{
    ULONGLONG end = GetTickCount64() + (ULONGLONG)timeout_ms;
    for (;;) {
        DWORD avail = 0;
        if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL))
            return -1;
        if (avail) {
            unsigned char c;
            read_all(h, &c, 1);
            return c;
        }
        if (GetTickCount64() >= end)
            return -1;
        Sleep(1);
    }
}

static uint32_t read_u32(HANDLE h)
{
    uint32_t v;
    read_all(h, &v, 4);
    return v;
}

/* Starts this program as `role` with one argument. */
static child spawn(const char *role, const char *arg)
{
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, TRUE};
    HANDLE cmd_r, cmd_w, rep_r, rep_w, err;
    CHECK(CreatePipe(&cmd_r, &cmd_w, &sa, 0));
    CHECK(CreatePipe(&rep_r, &rep_w, &sa, 0));
    SetHandleInformation(cmd_w, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(rep_r, HANDLE_FLAG_INHERIT, 0);
    CHECK(DuplicateHandle(GetCurrentProcess(), GetStdHandle(STD_ERROR_HANDLE), GetCurrentProcess(),
                          &err, 0, TRUE, DUPLICATE_SAME_ACCESS));
    char self[MAX_PATH], line[2 * MAX_PATH + 300];
    CHECK(GetModuleFileNameA(NULL, self, sizeof(self)) > 0);
    snprintf(line, sizeof(line), "\"%s\" %s \"%s\"", self, role, arg ? arg : "");
    STARTUPINFOA si;
    memset(&si, 0, sizeof(si));
    si.cb = sizeof(si);
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = cmd_r;
    si.hStdOutput = rep_w;
    si.hStdError = err;
    PROCESS_INFORMATION pi;
    CHECK(CreateProcessA(self, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi));
    CloseHandle(pi.hThread);
    CloseHandle(cmd_r);
    CloseHandle(rep_w);
    CloseHandle(err);
    child c = {pi.hProcess, pi.dwProcessId, cmd_w, rep_r};
    return c;
}

static void wait_exit_ok(child *c)
{
    CHECK_EQ(WaitForSingleObject(c->proc, 60000), WAIT_OBJECT_0);
    DWORD code = 99;
    CHECK(GetExitCodeProcess(c->proc, &code));
    CHECK_EQ(code, 0);
    CloseHandle(c->proc);
    CloseHandle(c->cmd);
    CloseHandle(c->report);
}

/* ---- a provider process, driven over its pipes ---- */

static void WINAPI enable_cb(LPCGUID src, ULONG on, UCHAR level, ULONGLONG any, ULONGLONG all,
                             PEVENT_FILTER_DESCRIPTOR f, PVOID ctx)
{
    (void)src, (void)any, (void)all, (void)f, (void)ctx;
    /* ETW's arguments, in this process: 'E' + level, or 'D'. */
    unsigned char msg[2] = {on ? 'E' : 'D', level};
    if (report_h)
        write_all(report_h, msg, on ? 2 : 1);
}

static uint32_t write_events(REGHANDLE reg, uint32_t first, uint32_t count, UCHAR level,
                             ULONGLONG keyword)
{
    uint32_t failures = 0;
    EVENT_DESCRIPTOR d = {1, 0, 0, level, 0, 0, keyword};
    for (uint32_t i = first; i < first + count; i++) {
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, &i, 4);
        failures += EventWrite(reg, &d, 1, &dd) != ERROR_SUCCESS;
    }
    return failures;
}

/* Commands: 'w' level keyword:u64 count:u32 -> 'k' failures:u32; 'q'. */
static int provider_main(void)
{
    HANDLE cmd = GetStdHandle(STD_INPUT_HANDLE);
    REGHANDLE reg;
    CHECK(EventRegister(&prov, enable_cb, NULL, &reg) == ERROR_SUCCESS);
    write_all(report_h, "r", 1);
    uint32_t next = 0;
    for (;;) {
        unsigned char c;
        DWORD k = 0;
        if (!ReadFile(cmd, &c, 1, &k, NULL) || k != 1 || c == 'q')
            break;
        if (c == 'w') {
            unsigned char level;
            uint64_t kw;
            uint32_t n;
            read_all(cmd, &level, 1);
            read_all(cmd, &kw, 8);
            read_all(cmd, &n, 4);
            uint32_t fail = write_events(reg, next, n, level, kw);
            next += n;
            write_all(report_h, "k", 1);
            write_all(report_h, &fail, 4);
        }
    }
    EventUnregister(reg);
    return 0;
}

static child spawn_provider(void)
{
    child c = spawn("provider", NULL);
    int r;
    while ((r = read_byte(c.report, 30000)) == 'E')
        read_byte(c.report, 1000); /* enabled inside EventRegister already */
    CHECK_EQ(r, 'r');
    return c;
}

static uint32_t provider_write(child *c, UCHAR level, uint64_t kw, uint32_t n)
{
    write_all(c->cmd, "w", 1);
    write_all(c->cmd, &level, 1);
    write_all(c->cmd, &kw, 8);
    write_all(c->cmd, &n, 4);
    int r;
    while ((r = read_byte(c->report, 60000)) == 'E' || r == 'D')
        if (r == 'E')
            read_byte(c->report, 1000);
    CHECK_EQ(r, 'k');
    uint32_t v;
    read_all(c->report, &v, 4);
    return v;
}

/* Waits for the enable callback in the child: returns its level. */
static int wait_enabled(child *c)
{
    int r = read_byte(c->report, 30000);
    CHECK_EQ(r, 'E');
    return read_byte(c->report, 1000);
}

static void provider_quit(child *c)
{
    write_all(c->cmd, "q", 1);
    wait_exit_ok(c);
}

/* ---- controller side ---- */

static void session_name(char *out, size_t n, const char *what)
{
    snprintf(out, n, "xprocw-%lu-%s", (unsigned long)GetCurrentProcessId(), what);
}

static TRACEHANDLE start(const char *name, const char *file, ULONG extra_mode)
{
    test_props tp;
    test_props_init(&tp, file);
    tp.p.LogFileMode |= extra_mode;
    tp.p.FlushTimer = 1;
    TRACEHANDLE h = 0;
    ULONG rc = StartTraceA(&h, name, &tp.p);
    if (rc != ERROR_SUCCESS)
        fprintf(stderr, "StartTraceA(%s) = %lu\n", name, (unsigned long)rc);
    CHECK_EQ(rc, ERROR_SUCCESS);
    CHECK(h != 0);
    return h;
}

static ULONG control(const char *name, ULONG code, EVENT_TRACE_PROPERTIES *out)
{
    test_props tp;
    test_props_init(&tp, NULL);
    ULONG rc = ControlTraceA(0, name, &tp.p, code);
    if (out)
        *out = tp.p;
    return rc;
}

static void enable(TRACEHANDLE h, UCHAR level, ULONGLONG any)
{
    CHECK_EQ(EnableTraceEx2(h, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, level, any, 0, 0, NULL),
             ERROR_SUCCESS);
}

/* Events of our provider in `path` written by process `pid`. */
static uint32_t count_of(const char *path, DWORD pid)
{
    test_events ev;
    CHECK_EQ(test_read(path, 0, &ev, NULL, NULL), 0);
    CHECK_EQ(ev.corrupt, 0);
    uint32_t n = 0;
    for (size_t i = 0; i < ev.count; i++)
        n += memcmp(&ev.ev[i].header.provider_id, &prov, 16) == 0 &&
             ev.ev[i].header.process_id == pid;
    test_events_free(&ev);
    return n;
}

/* The controller child: starts `name` (file name.etl next to it), enables
 * the provider at level 5 and exits. */
static int controller_main(const char *arg)
{
    char name[64], file[300];
    const char *bar = strchr(arg, '|');
    CHECK(bar != NULL);
    snprintf(name, sizeof(name), "%.*s", (int)(bar - arg), arg);
    snprintf(file, sizeof(file), "%s", bar + 1);
    TRACEHANDLE h = start(name, file, 0);
    enable(h, 5, 0);
    return 0;
}

/* 1. Provider first; a controller process starts and enables, then exits;
 *    the session lives on; query and stop from this third process. */
static void provider_then_controller(void)
{
    char name[64], file[256], arg[330];
    session_name(name, sizeof(name), "late");
    test_path(file, sizeof(file), "late.etl");
    child p = spawn_provider();
    snprintf(arg, sizeof(arg), "%s|%s", name, file);
    child c = spawn("controller", arg);
    wait_exit_ok(&c);
    CHECK_EQ(wait_enabled(&p), 5); /* the callback ran in the provider, level 5 */
    CHECK_EQ(provider_write(&p, 4, 0, 1000), 0);
    EVENT_TRACE_PROPERTIES q;
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_QUERY, &q), ERROR_SUCCESS);
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_STOP, &q), ERROR_SUCCESS);
    CHECK_EQ(read_byte(p.report, 10000), 'D'); /* the stop disabled it there */
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_QUERY, NULL), ERROR_WMI_INSTANCE_NOT_FOUND);
    CHECK_EQ(count_of(file, p.pid) + q.EventsLost, 1000);
    CHECK_EQ(q.EventsLost, 0);
    provider_quit(&p);
    remove(file);
}

/* The writer child: registers after the enable and writes one event at
 * once, then exits without unregistering. */
static int writer_main(void)
{
    REGHANDLE reg;
    CHECK(EventRegister(&prov, NULL, NULL, &reg) == ERROR_SUCCESS);
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    CHECK(EventEnabled(reg, &d));
    return write_events(reg, 0, 1, 4, 0) == 0 ? 0 : 3;
}

/* 2. Enabled first; a process that registers afterwards records its very
 *    first event, with no wait. */
static void register_after_enable(void)
{
    char name[64], file[256];
    session_name(name, sizeof(name), "early");
    test_path(file, sizeof(file), "early.etl");
    TRACEHANDLE h = start(name, file, 0);
    enable(h, 5, 0);
    child c = spawn("writer", NULL);
    DWORD pid = c.pid;
    wait_exit_ok(&c);
    EVENT_TRACE_PROPERTIES q;
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_STOP, &q), ERROR_SUCCESS);
    CHECK_EQ(count_of(file, pid), 1);
    CHECK_EQ(q.EventsLost, 0);
    remove(file);
}

/* The consumer child: real time on session `arg`; 'o' once open, then the
 * count of our provider's events when ProcessTrace returns. */
static int rt_count;
static void WINAPI rt_event(PEVENT_RECORD r)
{
    if (memcmp(&r->EventHeader.ProviderId, &prov, 16) == 0)
        rt_count++;
}

static int consumer_main(const char *name)
{
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LoggerName = (char *)name;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = rt_event;
    TRACEHANDLE t = OpenTraceA(&lf);
    CHECK(t != INVALID_PROCESSTRACE_HANDLE);
    write_all(report_h, "o", 1);
    ULONG rc = ProcessTrace(&t, 1, NULL, NULL);
    CloseTrace(t);
    uint32_t v = (uint32_t)rt_count;
    write_all(report_h, &v, 4);
    return rc == ERROR_SUCCESS ? 0 : 3;
}

/* 3. A real-time consumer in a third process receives every event, and its
 *    ProcessTrace returns when the session stops. */
static void realtime_consumer(void)
{
    char name[64], file[256];
    session_name(name, sizeof(name), "rt");
    test_path(file, sizeof(file), "rt.etl");
    TRACEHANDLE h = start(name, file, EVENT_TRACE_REAL_TIME_MODE);
    child c = spawn("consumer", name);
    CHECK_EQ(read_byte(c.report, 30000), 'o');
    child p = spawn_provider();
    enable(h, 5, 0);
    wait_enabled(&p);
    CHECK_EQ(provider_write(&p, 4, 0, 500), 0);
    EVENT_TRACE_PROPERTIES q;
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_STOP, &q), ERROR_SUCCESS);
    CHECK_EQ(read_u32(c.report), 500); /* ProcessTrace returned: the session stopped */
    wait_exit_ok(&c);
    CHECK_EQ(count_of(file, p.pid), 500);
    CHECK_EQ(q.EventsLost, 0);
    provider_quit(&p);
    remove(file);
}

/* 4. TerminateProcess of providers in the middle of bursts: what they
 *    completed is delivered or counted lost, exactly (at most the event in
 *    flight per thread beyond); another provider loses nothing. */
#define KILL_ROUNDS 8
#define KILL_THREADS 2
typedef struct burst {
    REGHANDLE reg;
    volatile uint32_t *done;
    uint32_t slot;
} burst;

static DWORD WINAPI burst_thread(void *arg)
{
    burst *b = arg;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    for (uint32_t i = 0;; i++) {
        uint32_t payload[2] = {i, b->slot};
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, payload, sizeof(payload));
        EventWrite(b->reg, &d, 1, &dd);
        __atomic_store_n(b->done, i + 1, __ATOMIC_RELEASE);
        if ((i & 63) == 63)
            SwitchToThread();
    }
    return 0;
}

/* The burst child: arg is "<section handle>|<round>"; its threads count
 * what they completed in the inherited section. */
static int burst_main(const char *arg)
{
    HANDLE m = (HANDLE)(intptr_t)_strtoi64(arg, NULL, 10);
    int round = atoi(strchr(arg, '|') + 1);
    volatile uint32_t *done = MapViewOfFile(m, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 4096);
    CHECK(done != NULL);
    REGHANDLE reg;
    CHECK(EventRegister(&prov, NULL, NULL, &reg) == ERROR_SUCCESS);
    static burst b[KILL_THREADS];
    for (int k = 0; k < KILL_THREADS; k++) {
        b[k].reg = reg;
        b[k].done = &done[round * KILL_THREADS + k];
        b[k].slot = (uint32_t)(round * KILL_THREADS + k);
        CHECK(CreateThread(NULL, 0, burst_thread, &b[k], 0, NULL) != NULL);
    }
    write_all(report_h, "g", 1);
    for (;;)
        Sleep(1000); /* until terminated */
}

static void kill_providers(void)
{
    char name[64], file[256];
    session_name(name, sizeof(name), "kill");
    test_path(file, sizeof(file), "kill.etl");
    TRACEHANDLE h = start(name, file, 0);
    enable(h, 5, 0);
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, TRUE};
    HANDLE m = CreateFileMappingW(INVALID_HANDLE_VALUE, &sa, PAGE_READWRITE, 0, 4096, NULL);
    CHECK(m != NULL);
    volatile uint32_t *done = MapViewOfFile(m, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 4096);
    CHECK(done != NULL);
    child steady = spawn_provider();
    DWORD killed[KILL_ROUNDS];
    srand((unsigned)GetCurrentProcessId());
    for (int r = 0; r < KILL_ROUNDS; r++) {
        char arg[64];
        snprintf(arg, sizeof(arg), "%lld|%d", (long long)(intptr_t)m, r);
        child c = spawn("burst", arg);
        CHECK_EQ(read_byte(c.report, 30000), 'g');
        if (r % 4 == 0)
            CHECK_EQ(provider_write(&steady, 4, 0, 250), 0); /* meanwhile */
        Sleep(1 + (DWORD)(rand() % 20));
        CHECK(TerminateProcess(c.proc, 9));
        CHECK_EQ(WaitForSingleObject(c.proc, 10000), WAIT_OBJECT_0);
        killed[r] = c.pid;
        CloseHandle(c.proc);
        CloseHandle(c.cmd);
        CloseHandle(c.report);
    }
    EVENT_TRACE_PROPERTIES q;
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_STOP, &q), ERROR_SUCCESS);
    test_events ev;
    CHECK_EQ(test_read(file, 0, &ev, NULL, NULL), 0);
    CHECK_EQ(ev.corrupt, 0);
    uint64_t completed = 0, delivered = 0;
    uint32_t steady_count = 0;
    for (int r = 0; r < KILL_ROUNDS; r++) {
        for (int k = 0; k < KILL_THREADS; k++) {
            uint32_t slot = (uint32_t)(r * KILL_THREADS + k), want = done[slot];
            uint8_t *seen = calloc(want + 2, 1);
            CHECK(seen);
            uint32_t got = 0, beyond = 0;
            for (size_t i = 0; i < ev.count; i++) {
                const test_event *e = &ev.ev[i];
                if (e->header.process_id != killed[r] || e->length != 8)
                    continue;
                uint32_t v[2];
                memcpy(v, e->data, 8);
                if (v[1] != slot)
                    continue;
                if (v[0] > want) {
                    beyond++;
                    continue;
                }
                CHECK(!seen[v[0]]); /* no duplicate */
                seen[v[0]] = 1;
                got++;
            }
            CHECK(beyond <= 1); /* at most the one in flight past `done` */
            completed += want;
            delivered += got + beyond;
            free(seen);
        }
    }
    for (size_t i = 0; i < ev.count; i++)
        if (ev.ev[i].header.process_id == steady.pid)
            steady_count++;
    CHECK_EQ(steady_count, 250 * ((KILL_ROUNDS + 3) / 4));
    fprintf(stderr, "kill: completed %llu delivered %llu lost %lu\n", (unsigned long long)completed,
            (unsigned long long)delivered, (unsigned long)q.EventsLost);
    CHECK(completed > 0);
    CHECK(delivered + q.EventsLost >= completed);
    CHECK(delivered + q.EventsLost <= completed + KILL_ROUNDS * KILL_THREADS);
    test_events_free(&ev);
    provider_quit(&steady);
    UnmapViewOfFile((void *)done);
    CloseHandle(m);
    remove(file);
}

/* 5. TerminateProcess of the session host: the file keeps what was
 *    flushed, the provider goes on without hanging, the name is free. */
static void kill_host(void)
{
    char name[64], file[256], file2[256];
    session_name(name, sizeof(name), "host");
    test_path(file, sizeof(file), "host.etl");
    test_path(file2, sizeof(file2), "host2.etl");
    TRACEHANDLE h = start(name, file, 0);
    child p = spawn_provider();
    enable(h, 5, 0);
    wait_enabled(&p);
    CHECK_EQ(provider_write(&p, 4, 0, 300), 0);
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_FLUSH, NULL), ERROR_SUCCESS);
    petw_session_stats st;
    CHECK_EQ(petw_session_query(h, &st), 0);
    CHECK(st.host_process_id != 0 && st.host_process_id != GetCurrentProcessId());
    HANDLE host = OpenProcess(PROCESS_TERMINATE | SYNCHRONIZE, FALSE, st.host_process_id);
    CHECK(host != NULL);
    CHECK(TerminateProcess(host, 9));
    CHECK_EQ(WaitForSingleObject(host, 10000), WAIT_OBJECT_0);
    CloseHandle(host);
    CHECK_EQ(read_byte(p.report, 10000), 'D');  /* the provider noticed, and disabled */
    CHECK_EQ(provider_write(&p, 4, 0, 300), 0); /* no hang, no crash */
    CHECK_EQ(count_of(file, p.pid), 300);
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_QUERY, NULL), ERROR_WMI_INSTANCE_NOT_FOUND);
    TRACEHANDLE h2 = start(name, file2, 0); /* the name is free, no cleanup */
    (void)h2;
    CHECK_EQ(control(name, EVENT_TRACE_CONTROL_STOP, NULL), ERROR_SUCCESS);
    provider_quit(&p);
    remove(file);
    remove(file2);
}

/* Sessions a failed check left behind would outlive the test: stop ours. */
static void stop_leftovers(void)
{
    petw_session_handle hs[64];
    uint32_t n = 0;
    if (petw_session_list(hs, 64, &n) != 0)
        return;
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "xprocw-%lu-", (unsigned long)GetCurrentProcessId());
    for (uint32_t i = 0; i < n && i < 64; i++) {
        petw_session_stats st;
        if (petw_session_query(hs[i], &st) == 0 && strncmp(st.name, prefix, strlen(prefix)) == 0)
            petw_session_stop(hs[i], NULL);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strchr("pcwb", argv[1][0]) && strcmp(argv[1], "only") != 0) {
        report_h = GetStdHandle(STD_OUTPUT_HANDLE);
        const char *arg = argc > 2 ? argv[2] : "";
        if (!strcmp(argv[1], "provider"))
            return provider_main();
        if (!strcmp(argv[1], "controller"))
            return controller_main(arg);
        if (!strcmp(argv[1], "writer"))
            return writer_main();
        if (!strcmp(argv[1], "consumer"))
            return consumer_main(arg);
        if (!strcmp(argv[1], "burst"))
            return burst_main(arg);
    }
    if (!getenv("PETW_RUNTIME_DIR")) {
        fprintf(stderr, "run through meson test (PETW_RUNTIME_DIR)\n");
        return SKIP_TEST;
    }
    atexit(stop_leftovers);
    const char *only = argc > 2 && !strcmp(argv[1], "only") ? argv[2] : NULL;
#define RUN(fn)                                                                                    \
    do {                                                                                           \
        if (!only || strcmp(only, #fn) == 0) {                                                     \
            fprintf(stderr, "-- %s\n", #fn);                                                       \
            fn();                                                                                  \
        }                                                                                          \
    } while (0)
    RUN(provider_then_controller);
    RUN(register_after_enable);
    RUN(realtime_consumer);
    RUN(kill_providers);
    RUN(kill_host);
    return 0;
}
