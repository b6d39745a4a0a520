/* SPDX-License-Identifier: MIT */
/* File I/O recording ends when it is stopped: petw__sys_files_drain
 * records no call begun after it stopped the programs, counts none lost,
 * and returns without waiting for the kernel to detach them (4.5 s here
 * for 50 tracepoints, one after another). Drain once detached them first,
 * and the calls a machine busy with files made meanwhile filled the ring
 * and were counted as hundreds of thousands of lost events, past the
 * session's end. A child opens, reads and closes a file as fast as it
 * can, before and after the stop; the records of its calls begun before
 * the stop arrive, none begun after it. Drain stops the programs first,
 * then waits 2 ms, so they were stopped 2 ms before it returned at the
 * latest (0.5 ms allowed for a call that saw them running). It must
 * return within a second (2 ms here; the old drain took 2.5 to 4.5 s).
 * Skips (77) without BPF in the build or without the rights. */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"
#include "../../lib/base/platform/platform.h"

typedef struct seen {
    uint32_t pid;
    uint64_t calls;
    int64_t last_start_ns; /* the latest a recorded call began */
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
    s->calls++;
    if (op->start_ns > s->last_start_ns)
        s->last_start_ns = op->start_ns;
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
    int64_t t0 = now_ns();
    uint64_t lost = petw__sys_files_drain(f, on_op, &s);
    int64_t t1 = now_ns();
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    petw__sys_files_close(f);
    /* The programs were stopped 2 ms before drain returned, at the latest. */
    int64_t stopped_by = t1 - 2000000 + 500000;
    printf("bpf_file_stop: %llu calls recorded, the last begun %.3f ms after drain was called "
           "(%.3f ms before it returned); %llu lost; drain took %.1f ms\n",
           (unsigned long long)s.calls, (double)(s.last_start_ns - t0) / 1e6,
           (double)(t1 - s.last_start_ns) / 1e6, (unsigned long long)lost, (double)(t1 - t0) / 1e6);
    CHECK(s.calls > 1000); /* the child ran, and was recorded */
    CHECK(s.last_start_ns <= stopped_by);
    CHECK_EQ(lost, 0);
    CHECK(t1 - t0 < 1000000000); /* it does not wait for the detaching */
    return 0;
}
