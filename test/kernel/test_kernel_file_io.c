/* SPDX-License-Identifier: MIT */
/* The NT Kernel Logger with EVENT_TRACE_FLAG_FILE_IO, started through
 * StartTrace as a Windows program starts it: QUERY says FILE_IO is
 * recorded; a child process's file (3 writes of 1000 bytes, a read of
 * 3000, a delete) is in the model of the trace with its name, bytes and
 * process. This process's own file I/O is not when the session runs in it
 * (PETW_INPROC_SESSIONS=1: petw's own process is never recorded
 * system-wide), and is, with its pid, when the session is shared (it lives
 * in a session host; Windows records the controller's I/O too; not under
 * TSan, which cannot follow a session host, 77). With BPF unavailable (PETW_NO_BPF=1) a
 * session asking for FILE_IO alone is ERROR_NOT_SUPPORTED, never an empty
 * success. Skips (77) without BPF or its rights.
 *
 * The session records every process's file I/O: on a machine busy with
 * files of its own it can fill, and what it then drops (the child's
 * Thread/Start, say) is counted in EventsLost, as it should be. A
 * recording that reports a loss is not judged: it is made again (3 times
 * at most; 77 if each lost events, with the counts). One without a loss
 * must pass every check. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "petw/analysis.h"
#include "test_util.h"

static int file_ops(const char *path, int count)
{
    char buf[1000] = {0};
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    for (int k = 0; k < count; k++)
        if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
            return -1;
    char back[4096];
    if (pread(fd, back, sizeof(back), 0) != count * 1000 || close(fd) != 0)
        return -1;
    return unlink(path);
}

/* 1 when StartTrace makes a shared session (in a session host). */
static int shared_session(void)
{
    const char *inproc = getenv("PETW_INPROC_SESSIONS");
    return !(inproc && inproc[0] == '1');
}

/* One recording of the child's file and this process's, checked: 0, or
 * 1 when the session lost events (*lost: how many), 77 to skip. */
static int record(const char *etl, const char *child_file, const char *own_file, ULONG *lost)
{
    test_props tp;
    TRACEHANDLE h = 0;
    test_props_init(&tp, etl);
    tp.p.EnableFlags =
        EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD | EVENT_TRACE_FLAG_FILE_IO;
    ULONG st = StartTraceA(&h, KERNEL_LOGGER_NAMEA, &tp.p);
    if (st == ERROR_ACCESS_DENIED) { /* every process's events: refused to a user */
        printf("skipped: kernel events refused by the OS\n");
        return SKIP_TEST;
    }
    CHECK_EQ(st, ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_QUERY), ERROR_SUCCESS);
#ifndef PETW_TEST_HAVE_BPF
#define PETW_TEST_HAVE_BPF 0
#endif
    if (!(tp.p.EnableFlags & EVENT_TRACE_FLAG_FILE_IO) &&
        (!PETW_TEST_HAVE_BPF || geteuid() != 0 || access("/sys/kernel/btf/vmlinux", R_OK) != 0)) {
        CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
        printf("skipped: no BPF here (a build without libbpf, not root, or no BTF)\n");
        return SKIP_TEST;
    }
    CHECK_EQ(tp.p.EnableFlags,
             EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD | EVENT_TRACE_FLAG_FILE_IO);
    pid_t child = fork();
    if (child == 0)
        _exit(file_ops(child_file, 3) == 0 ? 0 : 1);
    int status;
    CHECK(child > 0 && waitpid(child, &status, 0) == child && status == 0);
    CHECK_EQ(file_ops(own_file, 2), 0);
    usleep(100 * 1000); /* the system provider reads every 20 ms */
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    if (tp.p.EventsLost) {
        *lost = tp.p.EventsLost;
        remove(etl);
        return 1;
    }

    petw_profile_config c;
    petw_profile_config_init(&c);
    c.no_symbols = 1;
    petw_profile *p;
    const char *paths[] = {etl};
    CHECK_EQ(petw_profile_read(paths, 1, &c, &p), 0);
    /* In-process, this process hosts the session: petw's own process is
     * never recorded. A shared session lives in a session host, and this
     * process is a program like any other, recorded as Windows records
     * the controller's own file I/O. */
    int shared = shared_session();
    int seen_child = 0, seen_own = 0;
    for (uint32_t k = 0; k < petw_profile_file_count(p); k++) {
        const petw_profile_file *f = petw_profile_file_at(p, k);
        if (!strcmp(f->name, own_file)) {
            CHECK(shared);
            CHECK_EQ(f->pid, (uint32_t)getpid());
            seen_own = 1;
        }
        if (strcmp(f->name, child_file))
            continue;
        seen_child = 1;
        CHECK_EQ(f->pid, (uint32_t)child);
        CHECK_EQ(f->ops[PETW_FILE_OP_CREATE], 1u);
        CHECK_EQ(f->ops[PETW_FILE_OP_WRITE], 3u);
        CHECK_EQ(f->write_bytes, 3000u);
        CHECK_EQ(f->ops[PETW_FILE_OP_READ], 1u);
        CHECK_EQ(f->read_bytes, 3000u);
        CHECK_EQ(f->ops[PETW_FILE_OP_CLOSE], 1u);
        CHECK_EQ(f->ops[PETW_FILE_OP_DELETE], 1u);
    }
    CHECK(seen_child);
    CHECK_EQ(seen_own, shared);
    petw_profile_free(p);
    remove(etl);
    printf("kernel_file_io: StartTrace with FILE_IO recorded the child's file, %s\n",
           shared ? "and this process's (a shared session)" : "not its own (in-process)");
    return 0;
}

int main(void)
{
    const char *tsan = getenv("PETW_TEST_TSAN");
    if (shared_session() && tsan && tsan[0] == '1') {
        printf("skipped: a shared session under TSan (it cannot follow a session host)\n");
        return SKIP_TEST;
    }
    char etl[512], child_file[512], own_file[512];
    test_path(etl, sizeof(etl), "kernel_file_io.etl");
    test_path(child_file, sizeof(child_file), "kernel_file_io.child");
    test_path(own_file, sizeof(own_file), "kernel_file_io.own");
    test_props tp;
    TRACEHANDLE h = 0;

    /* Without BPF: FILE_IO alone cannot be honoured. */
    setenv("PETW_NO_BPF", "1", 1);
    test_props_init(&tp, etl);
    tp.p.EnableFlags = EVENT_TRACE_FLAG_FILE_IO;
    ULONG st = StartTraceA(&h, KERNEL_LOGGER_NAMEA, &tp.p);
    unsetenv("PETW_NO_BPF");
    if (st == ERROR_ACCESS_DENIED) {
        printf("skipped: kernel events refused by the OS\n");
        return SKIP_TEST;
    }
    CHECK_EQ(st, ERROR_NOT_SUPPORTED);

    for (int attempt = 1;; attempt++) {
        ULONG lost = 0;
        int rc = record(etl, child_file, own_file, &lost);
        if (rc != 1)
            return rc;
        printf("kernel_file_io: recording %d lost %lu events to the machine's own file I/O: "
               "not judged\n",
               attempt, (unsigned long)lost);
        if (attempt == 3) {
            printf("skipped: every recording lost events\n");
            return SKIP_TEST;
        }
    }
}
