/* SPDX-License-Identifier: MIT */
/* File I/O recording ends when it is stopped: petw__sys_files_drain
 * records no call begun after it was called (1 ms allowed for the call to
 * reach the kernel), and counts none lost. The kernel takes seconds to
 * detach the programs (4.5 s here for 50 tracepoints); drain once
 * detached them first, and the calls a machine busy with files made
 * meanwhile filled the ring and were counted as hundreds of thousands of
 * lost events, past the session's end. A child opens, reads and closes a
 * file as fast as it can, before and after the stop; the records of its
 * calls begun before the stop arrive, none begun after it. Skips (77)
 * without BPF in the build or without the rights. */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"
#include "../../lib/base/platform/platform.h"

typedef struct seen {
    uint32_t pid;
    int64_t stop_ns;
    uint64_t before, after;
} seen;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void on_op(void *ctx, const petw__sys_file_op *op)
{
    seen *s = ctx;
    if (op->pid != s->pid)
        return;
    if (s->stop_ns && op->start_ns > s->stop_ns + 1000000)
        s->after++;
    else
        s->before++;
}

int main(void)
{
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        char buf[256];
        for (;;) {
            FILE *f = fopen("/proc/self/stat", "r");
            if (f) {
                size_t n = fread(buf, 1, sizeof(buf), f);
                (void)n;
                fclose(f);
            }
        }
    }
    char why[512] = "";
    petw__sys_files *f = NULL;
    int rc = petw__sys_files_open((uint32_t)child, &f, why, sizeof(why));
    if (rc == PETW_ENOTSUP || rc == PETW_EACCES) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        printf("skipped: %s\n", why[0] ? why : petw_strerror(rc));
        return SKIP_TEST;
    }
    CHECK_EQ(rc, 0);
    seen s = {.pid = (uint32_t)child};
    for (int k = 0; k < 10; k++) { /* 100 ms of the child's calls */
        petw__sleep_ms(10);
        petw__sys_files_read(f, on_op, &s);
    }
    s.stop_ns = now_ns();
    uint64_t lost = petw__sys_files_drain(f, on_op, &s);
    int64_t took = now_ns() - s.stop_ns;
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    petw__sys_files_close(f);
    printf("bpf_file_stop: %llu calls recorded before the stop, %llu after it, %llu lost; "
           "stopping took %.1f ms\n",
           (unsigned long long)s.before, (unsigned long long)s.after, (unsigned long long)lost,
           (double)took / 1e6);
    CHECK(s.before > 1000); /* the child ran, and was recorded */
    CHECK_EQ(s.after, 0);
    CHECK_EQ(lost, 0);
    return 0;
}
