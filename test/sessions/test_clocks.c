/* SPDX-License-Identifier: MIT */
/* Session clocks (Wnode.ClientContext 1 QPC, 2 system time, 3 CPU cycles):
 * events converted to FILETIME land where the wall clock says they were
 * written, also after more than a second (the measured TSC frequency is
 * refined over the session), and RAW_TIMESTAMP keeps the clock's ticks. */
#include <time.h>

#include "test_util.h"

DEFINE_GUID(ClockProvider, 0xc10cc10c, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x9);

static int64_t wall_filetime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((int64_t)ts.tv_sec + 11644473600LL) * 10000000LL + ts.tv_nsec / 100;
}

int main(void)
{
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&ClockProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    for (ULONG clock = 1; clock <= 3; clock++) {
        char path[512], name[64];
        snprintf(name, sizeof(name), "clock%lu.etl", (unsigned long)clock);
        test_path(path, sizeof(path), name);
        snprintf(name, sizeof(name), "petw-test-clock-%lu", (unsigned long)clock);
        test_props tp;
        test_props_init(&tp, path);
        tp.p.Wnode.ClientContext = clock;
        TRACEHANDLE s;
        CHECK_EQ(StartTraceA(&s, name, &tp.p), ERROR_SUCCESS);
        CHECK_EQ(
            EnableTraceEx2(s, &ClockProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
            ERROR_SUCCESS);
        int64_t wall[2][2];
        EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
        for (int k = 0; k < 2; k++) {
            if (k)
                usleep(1200 * 1000);
            wall[k][0] = wall_filetime();
            CHECK_EQ(EventWrite(reg, &d, 0, NULL), ERROR_SUCCESS);
            wall[k][1] = wall_filetime();
        }
        CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

        test_events l, raw;
        petw_logfile_info info;
        CHECK_EQ(test_read(path, 0, &l, &info, NULL), 0);
        CHECK_EQ(test_read(path, PETW_TRACE_RAW_TIMESTAMP, &raw, NULL, NULL), 0);
        CHECK_EQ(l.count, 3);
        CHECK_EQ(info.reserved_flags, clock);
        CHECK(info.perf_freq > 0);
        /* 20 ms of slack: the wall clock and the session clock are read a few
         * instructions apart, but FILETIME anchoring happens once at start. */
        const int64_t slack = 200000;
        for (int k = 0; k < 2; k++) {
            int64_t ft = l.ev[1 + k].header.timestamp;
            CHECK(ft >= wall[k][0] - slack && ft <= wall[k][1] + slack);
        }
        /* The raw ticks differ by ~1.2 s worth of the clock's frequency. */
        double secs = (double)(raw.ev[2].header.timestamp - raw.ev[1].header.timestamp) /
                      (double)info.perf_freq;
        CHECK(secs > 1.15 && secs < 1.6);
        if (clock == 2)
            CHECK_EQ(info.perf_freq, 10000000);
        printf("clocks: clock %lu, %lld Hz, second event %.4f s after the first\n",
               (unsigned long)clock, (long long)info.perf_freq, secs);
        test_events_free(&l);
        test_events_free(&raw);
        unlink(path);
    }
    EventUnregister(reg);
    return 0;
}
