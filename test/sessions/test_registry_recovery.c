/* SPDX-License-Identifier: MIT */
/* A damaged session registry (the right file and version, a wrong size in
 * its header) does not leave the user stuck: the next StartTrace rebuilds
 * it when no session host uses it, and refuses, touching nothing, while
 * one does; that session runs on and stops with exact counts.
 * Needs PETW_RUNTIME_DIR (a directory of its own: test/meson.build sets it). */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(RecoveryProvider, 0x4ec0e4ec, 0x28, 0x4b4b, 1, 2, 3, 4, 5, 6, 7, 8);

static char registry[1024];

/* The header's size field (docs/shared-memory.md: offset 8, u32). */
static uint32_t size_field(uint32_t set)
{
    FILE *f = fopen(registry, "r+b");
    CHECK(f);
    uint32_t old = 0;
    CHECK_EQ(fseek(f, 8, SEEK_SET), 0);
    CHECK_EQ(fread(&old, 4, 1, f), 1);
    if (set) {
        CHECK_EQ(fseek(f, 8, SEEK_SET), 0);
        CHECK_EQ(fwrite(&set, 4, 1, f), 1);
    }
    CHECK_EQ(fclose(f), 0);
    return old;
}

static ULONG start(const char *name, TRACEHANDLE *h, test_props *tp)
{
    test_props_init(tp, NULL);
    tp->p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    tp->p.BufferSize = 4;
    tp->p.MaximumBuffers = 8;
    return StartTraceA(h, name, &tp->p);
}

/* Another process's StartTrace (this process keeps its mapping of the
 * registry, as a running provider would): 100 when it started a session
 * (and stopped it), else the low bits of the Win32 status it got. */
static int64_t child_status;

static void child_exited(uv_process_t *p, int64_t status, int signal)
{
    (void)signal;
    child_status = status;
    uv_close((uv_handle_t *)p, NULL);
}

static int start_elsewhere(const char *name)
{
    char exe[1024];
    size_t n = sizeof(exe);
    CHECK_EQ(uv_exepath(exe, &n), 0);
    char *args[] = {exe, "--start", (char *)name, NULL};
    uv_loop_t loop;
    CHECK_EQ(uv_loop_init(&loop), 0);
    uv_process_t child;
    uv_process_options_t o;
    memset(&o, 0, sizeof(o));
    o.file = exe;
    o.args = args;
    o.exit_cb = child_exited;
    child_status = -1;
    CHECK_EQ(uv_spawn(&loop, &child, &o), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    CHECK_EQ(uv_loop_close(&loop), 0);
    return (int)child_status;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--start") == 0) {
        /* The child: start a session and stop it at once. */
        test_props tp;
        TRACEHANDLE h;
        ULONG st = start(argv[2], &h, &tp);
        if (st == ERROR_SUCCESS)
            ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP);
        return st == ERROR_SUCCESS ? 100 : (int)(st & 0x7f);
    }
    const char *dir = getenv("PETW_RUNTIME_DIR");
    const char *inproc = getenv("PETW_INPROC_SESSIONS");
    if (!dir || !dir[0] || (inproc && inproc[0] == '1')) {
        printf("needs shared sessions in a runtime directory of its own: skipped\n");
        return SKIP_TEST;
    }
    snprintf(registry, sizeof(registry), "%s/registry-v2", dir);

    /* 1. A session starts and stops: the registry exists. */
    test_props tp;
    TRACEHANDLE a;
    CHECK_EQ(start("petw-recovery-a", &a, &tp), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(a, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    uint32_t good = size_field(0);
    CHECK(good > 1000000);

    /* 2. Damaged, no host uses it: the next StartTrace (in a process that
     * has not mapped it yet) rebuilds it and starts. */
    size_field(12345);
    CHECK_EQ(start_elsewhere("petw-recovery-b"), 100);
    CHECK_EQ(size_field(0), good);

    /* 3. Damaged while a session runs: refused, the session untouched. */
    CHECK_EQ(start("petw-recovery-live", &a, &tp), ERROR_SUCCESS);
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&RecoveryProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(a, &RecoveryProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    CHECK_EQ(test_write_seq(reg, 0, 100, 16), 0);
    size_field(777);
    int refused = start_elsewhere("petw-recovery-c");
    CHECK(refused != 100 && refused != 0);
    CHECK_EQ(size_field(0), 777);                   /* nothing rewritten under a live host */
    CHECK_EQ(test_write_seq(reg, 100, 100, 16), 0); /* the session goes on */
    size_field(good); /* as the message says: the user stops it (here: repairs) */
    CHECK_EQ(ControlTraceA(0, "petw-recovery-live", &tp.p, EVENT_TRACE_CONTROL_STOP),
             ERROR_SUCCESS);
    CHECK_EQ(tp.p.EventsLost, 0);
    EventUnregister(reg);
    printf("registry_recovery: rebuilt with no host; refused (status %d) with one live\n", refused);
    return 0;
}
