/* SPDX-License-Identifier: MIT */
/* Durability: a recording process killed with SIGKILL leaves a file that
 * reads back every buffer flushed before the kill. The child records with
 * a 10 ms flush timer and, after each explicit flush, tells the parent the
 * last sequence number that flush covered; the parent kills it at a random
 * moment and checks every reported event is in the file, in order, with no
 * corrupt buffer (a torn last buffer is reported as truncated). Then a
 * session of the same name and file starts cleanly: nothing of the dead
 * process is left behind (sessions live in their process). */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "test_util.h"

DEFINE_GUID(KillProvider, 0x1c111c11, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

static void child(const char *path, int fd)
{
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-kill";
    c.file_path = path;
    c.buffer_size_kb = 4;
    c.minimum_buffers = c.maximum_buffers = 32;
    c.flush_timer_ms = 10;
    petw_session_handle s;
    petw_provider_handle p;
    if (petw_session_start(&c, &s) ||
        petw_provider_register((const petw_guid *)&KillProvider, NULL, NULL, &p) ||
        petw_session_enable_provider(s, (const petw_guid *)&KillProvider, 0, 0, 0))
        _exit(3);
    for (uint32_t i = 0;; i++) {
        uint8_t buf[64];
        memcpy(buf, &i, 4);
        memset(buf + 4, 0x5A, sizeof(buf) - 4);
        petw_data_descriptor d = {(uint64_t)(uintptr_t)buf, sizeof(buf), 0, 0, 0};
        petw_event_descriptor e = {1, 0, 0, 4, 0, 0, 0};
        while (petw_event_write(p, &e, NULL, NULL, 1, &d) == PETW_ENOBUFS)
            petw_session_flush(s, NULL);
        if (i % 500 == 499 && petw_session_flush(s, NULL) == 0 &&
            write(fd, &i, sizeof(i)) != sizeof(i))
            _exit(4);
    }
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "kill.etl");
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    for (int round = 0; round < 3; round++) {
        int fds[2];
        CHECK(pipe(fds) == 0);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            child(path, fds[1]);
        }
        close(fds[1]);
        uint32_t flushed = 0, v;
        int reports = 0, want = 3 + rand() % 20;
        while (reports < want && read(fds[0], &v, sizeof(v)) == sizeof(v)) {
            flushed = v;
            reports++;
        }
        CHECK_EQ(reports, want);
        /* Kill somewhere after a flush, while writing goes on. */
        usleep((useconds_t)(rand() % 3000));
        CHECK(kill(pid, SIGKILL) == 0);
        int status;
        CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
        close(fds[0]);

        test_events l;
        petw_trace_stats st;
        CHECK_EQ(test_read(path, 0, &l, NULL, &st), 0);
        CHECK_EQ(st.buffers_corrupt, 0);
        /* Every event up to the last reported flush is there, in order. */
        CHECK(l.count >= 1 + (size_t)flushed + 1);
        for (uint32_t i = 0; i <= flushed; i++)
            CHECK_EQ(test_seq(&l.ev[1 + i]), i);
        printf("kill: round %d: killed after %u flushed events; %zu read back, %llu bytes torn\n",
               round, flushed + 1, l.count - 1, (unsigned long long)st.bytes_truncated);
        test_events_free(&l);
    }
    /* Nothing left behind: the same name and file start again at once. */
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-kill", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    unlink(path);
    return 0;
}
