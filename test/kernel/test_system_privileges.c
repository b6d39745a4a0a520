/* SPDX-License-Identifier: MIT */
/* The system provider as an ordinary user: where Linux refuses
 * system-wide events (perf_event_paranoid >= 1 without CAP_PERFMON), the
 * session fails with PETW_EACCES, never an empty trace; following one
 * process and its descendants (system_target_pid), it records that process
 * alone: no other process's events, and with paranoid 2 no kernel code in
 * samples (the session says so: the OS excluded it). Run as root, the test
 * does this as "nobody"; skips (77) where perf events are not permitted to
 * users at all. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* gettid */
#endif
#include "test_kernel_classes.h"

#include <pwd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

static volatile uint64_t sink;

static int paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = 2;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = 2;
        fclose(f);
    }
    return v;
}

static int as_user(const char *dir)
{
    int level = paranoid();
    char path[600];
    snprintf(path, sizeof(path), "%s/system-wide.etl", dir);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-system-user";
    c.file_path = path;
    c.system_flags = PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_CSWITCH |
                     PETW_SYSTEM_PROFILE | PETW_SYSTEM_IMAGE_LOAD;
    c.system_stack_flags = PETW_SYSTEM_PROFILE;
    petw_session_handle h;
    int rc = petw_session_start(&c, &h);
    if (level >= 1) {
        CHECK_EQ(rc, PETW_EACCES); /* refused, and said so */
    } else {
        CHECK_EQ(rc, 0);
        CHECK_EQ(petw_session_stop(h, NULL), 0);
    }

    /* One process of ours, held until the session runs. */
    int go[2];
    CHECK_EQ(pipe(go), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(go[1]);
        char b;
        if (read(go[0], &b, 1) != 1)
            _exit(98);
        /* 100 ms of its CPU time (the samples follow it, not the wall
         * clock, on a loaded machine), then exec. */
        struct timespec a, n;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        do {
            for (int i = 0; i < 100000; i++)
                sink += (uint64_t)i;
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &n);
        } while ((n.tv_sec - a.tv_sec) * 1000 + (n.tv_nsec - a.tv_nsec) / 1000000 < 100);
        execl("/bin/true", "true", (char *)NULL);
        _exit(99);
    }
    close(go[0]);
    snprintf(path, sizeof(path), "%s/one-process.etl", dir);
    c.system_target_pid = (uint32_t)pid;
    rc = petw_session_start(&c, &h);
    if (rc == PETW_EACCES) { /* paranoid 3 (Debian's): nothing for users */
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        printf("perf events refused to users here (paranoid %d): skipped\n", level);
        return SKIP_TEST;
    }
    CHECK_EQ(rc, 0);
    CHECK_EQ(write(go[1], "x", 1), 1);
    int status;
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(h, &st), 0);
    CHECK_EQ(st.events_lost, 0);
    /* Said so: kernel code was left out where the OS keeps it from users. */
    CHECK_EQ(!!(st.system_limits & PETW_SYSTEM_LIMIT_USER_ONLY), level >= 2);

    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    uint32_t me = (uint32_t)getpid(), child = (uint32_t)pid;
    int starts = 0, samples = 0, kernel_ips = 0, others = 0, switches = 0;
    for (size_t i = 1; i < l.count; i++) {
        const test_event *e = &l.ev[i];
        const uint8_t *p = e->data;
        if (test_is_class(e, &ProcessGuid, -1)) {
            /* Only the child: its fork (logged by us, its parent), exec, end. */
            if (test_rd32(p + 8) != child)
                others++;
            starts += e->header.descriptor.opcode == 1;
        } else if (test_is_class(e, &ThreadGuid, -1) && e->header.descriptor.opcode == 36) {
            uint32_t a = test_rd32(p), b = test_rd32(p + 4);
            if ((a && a != child) || (b && b != child))
                others++;
            switches++;
        } else if (test_is_class(e, &ThreadGuid, -1)) {
            if (test_rd32(p) != child)
                others++;
        } else if (test_is_class(e, &PerfInfoGuid, -1) && e->header.descriptor.opcode == 46) {
            if (test_rd32(p + 8) != child)
                others++;
            kernel_ips += test_rd64(p) >= 0x800000000000ull;
            samples++;
        }
    }
    printf("as uid %u (paranoid %d): system-wide %s; one process: %zu events, %d process "
           "starts, %d switches, %d samples (%d in kernel code), %d of other processes; "
           "this process %u\n",
           (unsigned)getuid(), level, level >= 1 ? "refused" : "allowed", l.count, starts, switches,
           samples, kernel_ips, others, me);
    CHECK_EQ(others, 0);
    CHECK(starts >= 1);
    CHECK(switches >= 1);
    CHECK(samples >= 20);
    if (level >= 2)
        CHECK_EQ(kernel_ips, 0);
    test_events_free(&l);
    return 0;
}

int main(void)
{
    char dir[] = "/tmp/petw-sysprivXXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    if (getuid() != 0)
        return as_user(dir);
    struct passwd *pw = getpwnam("nobody");
    if (!pw) {
        printf("no user 'nobody': skipped\n");
        return SKIP_TEST;
    }
    CHECK_EQ(chown(dir, pw->pw_uid, pw->pw_gid), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK_EQ(setgid(pw->pw_gid), 0);
        CHECK_EQ(setuid(pw->pw_uid), 0);
        /* Changing user made this process undumpable (no one may trace
         * it or its children); a user's own login is dumpable. */
        CHECK_EQ(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 0);
        int rc = as_user(dir);
        fflush(stdout);
        _exit(rc);
    }
    int status;
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    CHECK_EQ(system(cmd), 0);
    CHECK(WIFEXITED(status));
    return WEXITSTATUS(status);
}
