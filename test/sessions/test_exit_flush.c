/* SPDX-License-Identifier: MIT */
/* A process that exits without stopping its session still leaves a
 * complete, readable file: the child records and calls exit(); the parent
 * reads every event back with an exact header. */
#include <sys/wait.h>

#include "test_util.h"

DEFINE_GUID(ExitProvider, 0x7e7e7e7e, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x5);
#define EVENTS 5000

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "exit.etl");
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        test_props tp;
        test_props_init(&tp, path);
        TRACEHANDLE s;
        REGHANDLE r;
        if (StartTraceA(&s, "petw-test-exit", &tp.p) != ERROR_SUCCESS ||
            EventRegister(&ExitProvider, NULL, NULL, &r) != ERROR_SUCCESS ||
            EnableTraceEx2(s, &ExitProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0,
                           NULL) != ERROR_SUCCESS)
            _exit(3);
        for (uint32_t i = 0; i < EVENTS; i++) {
            EVENT_DATA_DESCRIPTOR d;
            EventDataDescCreate(&d, &i, sizeof(i));
            EVENT_DESCRIPTOR desc = {2, 0, 0, 4, 0, 0, 0};
            if (EventWrite(r, &desc, 1, &d) != ERROR_SUCCESS)
                _exit(4);
        }
        exit(0); /* no ControlTrace(STOP) */
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    test_events l;
    petw_logfile_info info;
    petw_trace_stats stats;
    CHECK_EQ(test_read(path, 0, &l, &info, &stats), 0);
    CHECK_EQ(test_count_provider(&l, &ExitProvider), EVENTS);
    CHECK_EQ(info.buffers_written, stats.buffers_read);
    CHECK(info.end_time >= info.start_time);
    for (size_t i = 1; i < l.count; i++) {
        uint32_t v;
        memcpy(&v, l.ev[i].data, 4);
        CHECK_EQ(v, i - 1);
    }
    printf("exit_flush: %d events survived exit without stop\n", EVENTS);
    test_events_free(&l);
    unlink(path);
    return 0;
}
