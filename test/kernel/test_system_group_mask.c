/* SPDX-License-Identifier: MIT */
/* TraceSetInformation(TraceSystemTraceEnableFlagsInfo): the way Windows 8
 * and later give a system logger its kernel groups after StartTrace (the
 * kernel's group mask, 8 ULONGs, EnableFlags' groups in the first; tools
 * set it all zero first, then the groups they want). Checked in-process and
 * through a session host:
 * - a system logger started without EnableFlags records nothing until the
 *   mask names groups; then it records them (one rundown), and
 *   TraceQueryInformation reads them back in the first ULONG;
 * - masks naming only groups petw has no source for, in the first ULONG or
 *   the other seven, are ERROR_NOT_SUPPORTED and change nothing; bad
 *   buffers are ERROR_INVALID_PARAMETER or ERROR_BAD_LENGTH;
 * - a child that ends while the groups are on has its Process End; this
 *   process its DCStart and DCEnd, once each.
 * Skips (77) where the OS gives no perf events. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "test_kernel_classes.h"

#include <sys/wait.h>

typedef struct child {
    pid_t pid;
    int release;
} child;

static child park(void)
{
    int p[2];
    CHECK_EQ(pipe(p), 0);
    child c = {fork(), p[1]};
    CHECK(c.pid >= 0);
    if (c.pid == 0) {
        close(p[1]);
        char b;
        _exit(read(p[0], &b, 1) >= 0 ? 0 : 1);
    }
    close(p[0]);
    return c;
}

static void reap(child c)
{
    CHECK_EQ(write(c.release, "x", 1), 1);
    close(c.release);
    int status;
    CHECK_EQ(waitpid(c.pid, &status, 0), c.pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int run(int shared, child kid)
{
    if (shared)
        unsetenv("PETW_INPROC_SESSIONS");
    else
        setenv("PETW_INPROC_SESSIONS", "1", 1);
    char path[512];
    test_path(path, sizeof(path), shared ? "group_mask_shared.etl" : "group_mask.etl");
    test_props_w tp;
    test_props_w_init(&tp, path);
    tp.p.LogFileMode |= EVENT_TRACE_SYSTEM_LOGGER_MODE;
    TRACEHANDLE h = 0;
    CHECK_EQ(StartTraceW(&h, L"petw-test-group-mask", &tp.p), ERROR_SUCCESS);

    ULONG masks[8], got = 0;
    memset(masks, 0xAA, sizeof(masks));
    CHECK_EQ(TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, masks, sizeof(masks), &got),
             ERROR_SUCCESS);
    CHECK_EQ(got, sizeof(masks));
    for (int k = 0; k < 8; k++)
        CHECK_EQ(masks[k], 0);
    got = 0;
    CHECK_EQ(TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, masks, 16, &got),
             ERROR_BAD_LENGTH);
    CHECK_EQ(got, sizeof(masks));

    CHECK_EQ(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, NULL, 32),
             ERROR_INVALID_PARAMETER);
    CHECK_EQ(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, masks, 2), ERROR_BAD_LENGTH);
    memset(masks, 0, sizeof(masks));
    masks[4] = 0x40; /* a group the first ULONG cannot name */
    CHECK_EQ(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, masks, sizeof(masks)),
             ERROR_NOT_SUPPORTED);
    masks[4] = 0;
    masks[0] = EVENT_TRACE_FLAG_REGISTRY;
    CHECK_EQ(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, masks, sizeof(masks)),
             ERROR_NOT_SUPPORTED);
    masks[0] = 0; /* all zero, as tools set it first */
    CHECK_EQ(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, masks, sizeof(masks)),
             ERROR_SUCCESS);

    masks[0] = EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD | EVENT_TRACE_FLAG_REGISTRY;
    masks[4] = 0x40;
    ULONG st = TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, masks, sizeof(masks));
    if (st == ERROR_ACCESS_DENIED) {
        printf("kernel groups refused by the OS (no perf events permission): skipped\n");
        CHECK_EQ(ControlTraceW(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
        reap(kid);
        return SKIP_TEST;
    }
    CHECK_EQ(st, ERROR_SUCCESS);
    memset(masks, 0xAA, sizeof(masks));
    CHECK_EQ(TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, masks, sizeof(masks), &got),
             ERROR_SUCCESS);
    CHECK_EQ(masks[0], EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD); /* what it records */
    for (int k = 1; k < 8; k++)
        CHECK_EQ(masks[k], 0);
    /* The refused mask left the groups as they were. */
    memset(masks, 0, sizeof(masks));
    masks[0] = EVENT_TRACE_FLAG_REGISTRY;
    CHECK_EQ(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, masks, sizeof(masks)),
             ERROR_NOT_SUPPORTED);
    CHECK_EQ(ControlTraceW(h, NULL, &tp.p, EVENT_TRACE_CONTROL_QUERY), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EnableFlags, EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD);

    reap(kid); /* ends while the groups are on */
    CHECK_EQ(ControlTraceW(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EventsLost, 0);

    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.corrupt, 0);
    uint32_t me = (uint32_t)getpid();
    int kid_end = 0, my_dcstart = 0, my_dcend = 0;
    for (size_t i = 0; i < l.count; i++) {
        const test_event *e = &l.ev[i];
        if (!test_is_class(e, &ProcessGuid, -1))
            continue;
        uint32_t pid = test_rd32(e->data + 8);
        int op = e->header.descriptor.opcode;
        kid_end += op == 2 && pid == (uint32_t)kid.pid;
        my_dcstart += op == 3 && pid == me;
        my_dcend += op == 4 && pid == me;
    }
    printf("%s: %zu events; child's End %d, this process's DCStart %d, DCEnd %d\n",
           shared ? "shared" : "in-process", l.count, kid_end, my_dcstart, my_dcend);
    CHECK_EQ(kid_end, 1);
    CHECK_EQ(my_dcstart, 1);
    CHECK_EQ(my_dcend, 1);
    test_events_free(&l);
    remove(path);
    return 0;
}

int main(void)
{
    /* The children first, while this process has one thread. */
    child kids[2] = {park(), park()};
    int rc = run(0, kids[0]);
    if (rc) {
        reap(kids[1]);
        return rc;
    }
    /* TSan cannot follow the session host's threads (see test/meson.build). */
    const char *tsan = getenv("PETW_TEST_TSAN");
    if (tsan && tsan[0] == '1') {
        reap(kids[1]);
        return 0;
    }
    return run(1, kids[1]);
}
