/* SPDX-License-Identifier: MIT */
/* The system provider records what a child process does, as the NT Kernel
 * Logger's classes: its Process start (fork, then exec with the new name
 * and command line) and end, its threads' start and end, the image it
 * executes, context switches of its threads and CPU samples of its busy
 * thread with their stacks, the wake-ups ending its sleeps (ReadyThread),
 * the block writes of its direct I/O (DiskIo), plus the rundown (DCStart)
 * of this process, and each image's identity (ImageId: process, base, build-id,
 * path) after its Image event. Nothing is lost: the file holds every event the session counted.
 * Payloads are read at Windows' 64-bit offsets here, independently of
 * petw's decoder. Run in-process and through a session host. Skips (77)
 * where the OS gives no perf events. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* gettid */
#endif
#include "test_kernel_classes.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>

#include "petw/shared.h"

static volatile uint64_t sink;

/* Spins for `ms` of this thread's CPU time: on a loaded machine the thread
 * gets a share of a CPU, and the profile samples (taken while it runs)
 * follow its CPU time, not the wall clock's. */
static void spin_ms(int ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    do {
        for (int i = 0; i < 100000; i++)
            sink += (uint64_t)i * 7;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static void *busy_thread(void *arg)
{
    int fd = *(int *)arg;
    uint32_t ids[2] = {(uint32_t)getpid(), (uint32_t)gettid()}; /* one write: atomic */
    CHECK_EQ(write(fd, ids, 8), 8);
    spin_ms(150);
    for (int i = 0; i < 5; i++) { /* sleeps: context switches */
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* The child's data file, set before its launcher forks. */
static char disk_path[600];

/* The child: a busy thread, a file written to disk, then exec /bin/true. */
static void child(int fd)
{
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, busy_thread, &fd), 0);
    CHECK_EQ(pthread_join(t, NULL), 0);
    /* O_DIRECT: the block request is made and completed before pwrite
     * returns (where the file system has no O_DIRECT, e.g. tmpfs, there is
     * no disk to record: disk_direct says so). */
    int d = open(disk_path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
    if (d >= 0) {
        void *block;
        CHECK_EQ(posix_memalign(&block, 4096, 65536), 0);
        memset(block, 0x5A, 65536);
        for (int i = 0; i < 4; i++)
            CHECK_EQ(pwrite(d, block, 65536, (off_t)i * 65536), 65536);
        CHECK_EQ(fsync(d), 0);
        close(d);
        free(block);
    } else {
        CHECK_EQ(errno, EINVAL);        /* no direct I/O on this file system (tmpfs) */
        CHECK_EQ(remove(disk_path), 0); /* tells the parent */
    }
    close(fd);
    execl("/bin/true", "true", "petw-arg", (char *)NULL);
    _exit(99);
}

/* Process_TypeGroup1 v4: the image name after the SID. */
static const char *process_image(const test_event *e)
{
    const uint8_t *p = e->data;
    uint32_t at = 36;
    if (e->length < at + 4)
        return "";
    if (test_rd32(p + at) == 0)
        at += 4;
    else
        at += 16 + 8 + 4 * p[at + 16 + 1];
    return at < e->length ? (const char *)p + at : "";
}

/* A launcher, forked before any session runs (a process forked from a
 * multithreaded one may only call async-signal-safe functions; the worker
 * makes threads and files): on "go" it forks the worker, which reports its
 * pid and its busy thread's id, and exits with the worker's status. */
typedef struct launcher {
    pid_t pid;
    int go, report;
} launcher;

static launcher launcher_fork(const char *data_path)
{
    snprintf(disk_path, sizeof(disk_path), "%s", data_path);
    int go[2], report[2];
    CHECK_EQ(pipe(go), 0);
    CHECK_EQ(pipe(report), 0);
    launcher l = {fork(), go[1], report[0]};
    CHECK(l.pid >= 0);
    if (l.pid == 0) {
        close(go[1]);
        close(report[0]);
        char b;
        if (read(go[0], &b, 1) != 1)
            _exit(97);
        pid_t w = fork();
        if (w == 0)
            child(report[1]);
        int status;
        if (waitpid(w, &status, 0) != w || !WIFEXITED(status))
            _exit(99);
        _exit(WEXITSTATUS(status));
    }
    close(go[0]);
    close(report[1]);
    return l;
}

static int run(int shared, const char *path, const char *data, launcher ln)
{
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = shared ? "petw-test-system-shared" : "petw-test-system";
    c.file_path = path;
    c.system_flags = PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_IMAGE_LOAD |
                     PETW_SYSTEM_CSWITCH | PETW_SYSTEM_PROFILE | PETW_SYSTEM_DISK_IO |
                     PETW_SYSTEM_DISPATCHER;
    c.system_stack_flags = PETW_SYSTEM_PROFILE;
    c.profile_interval_100ns = 10000;
    c.maximum_buffers = 64;
    petw_session_handle h;
    c.transport = shared ? PETW_TRANSPORT_HOST : PETW_TRANSPORT_IN_PROCESS;
    int rc = petw_session_start(&c, &h);
    if (rc == PETW_EACCES || rc == PETW_ENOTSUP) {
        printf("no perf events here (%s): skipped\n", petw_err_name(rc));
        return SKIP_TEST;
    }
    CHECK_EQ(rc, 0);
    petw_session_stats st;
    CHECK_EQ(shared ? petw_session_query(h, &st) : petw_session_query(h, &st), 0);
    /* Tracepoint groups (disk, ready thread) need tracefs; the rest is
     * always there. */
    const uint32_t tracepoints = PETW_SYSTEM_DISK_IO | PETW_SYSTEM_DISPATCHER;
    CHECK_EQ(st.enable_flags & ~tracepoints, c.system_flags & ~tracepoints);
    int have_disk = (st.enable_flags & PETW_SYSTEM_DISK_IO) != 0;
    int have_ready = (st.enable_flags & PETW_SYSTEM_DISPATCHER) != 0;

    CHECK_EQ(write(ln.go, "g", 1), 1);
    uint32_t ids[2];
    CHECK_EQ(read(ln.report, ids, 8), 8);
    close(ln.report);
    close(ln.go);
    int status;
    CHECK_EQ(waitpid(ln.pid, &status, 0), ln.pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    uint32_t pid = ids[0], busy_tid = ids[1];
    int direct = access(data, F_OK) == 0; /* the child removes it without direct I/O */
    CHECK_EQ(shared ? petw_session_stop(h, &st) : petw_session_stop(h, &st), 0);

    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.corrupt, 0);
    /* Exact accounting: every event counted as written is in the file.
     * The only losses allowed are the tracepoint samples the OS counted
     * but dropped (an idle CPU's interrupt-context wake-ups and disk
     * completions, docs/kernel-events.md): never a silent one. */
    CHECK_EQ(l.count - 1, st.events_written); /* less the file's header event */
    if (!have_disk && !have_ready)
        CHECK_EQ(st.events_lost, 0);

    uint32_t me = (uint32_t)ln.pid, child_pid = pid, test = (uint32_t)getpid();
    int fork_start = 0, exec_start = 0, end = 0, my_dcstart = 0, thread_start = 0, thread_end = 0,
        image = 0, image_ids = 0, cswitch = 0, samples = 0, stacks = 0, ready = 0, disk_writes = 0;
    uint64_t write_bytes = 0, child_write_bytes = 0;
    for (size_t i = 0; i < l.count; i++) {
        const test_event *e = &l.ev[i];
        const uint8_t *p = e->data;
        CHECK(e->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER || i == 0 ||
              test_is_class(e, &PetwSymbolsGuid, -1));
        if (test_is_class(e, &ProcessGuid, 1) && test_rd32(p + 8) == child_pid) {
            CHECK_EQ(e->header.descriptor.version, 4);
            CHECK_EQ(test_rd32(p + 12), me); /* ParentId */
            if (strcmp(process_image(e), "true") == 0)
                exec_start++;
            else
                fork_start++;
        } else if (test_is_class(e, &ProcessGuid, 2) && test_rd32(p + 8) == child_pid) {
            CHECK(strcmp(process_image(e), "true") == 0);
            end++;
        } else if (test_is_class(e, &ProcessGuid, 3) && test_rd32(p + 8) == test) {
            my_dcstart++;
        } else if (test_is_class(e, &ThreadGuid, 1) && test_rd32(p + 4) == busy_tid) {
            CHECK_EQ(test_rd32(p), child_pid);
            thread_start++;
        } else if (test_is_class(e, &ThreadGuid, 2) && test_rd32(p + 4) == busy_tid) {
            thread_end++;
        } else if (test_is_class(e, &ImageGuid, 10) && test_rd32(p + 16) == child_pid) {
            /* FileName: UTF-16 from offset 56; find "/true". */
            char name[512] = "";
            for (uint32_t k = 0; k < sizeof(name) - 1 && 56 + 2 * k + 1 < e->length; k++)
                name[k] = (char)p[56 + 2 * k];
            size_t n = strlen(name);
            if (n >= 5 && strcmp(name + n - 5, "/true") == 0) {
                CHECK(test_rd64(p) != 0 && test_rd64(p + 8) != 0); /* ImageBase, ImageSize */
                image++;
                /* Its identity follows it: ImageId, same process and ImageBase
                 * (ProcessId u32, ImageBase, ImageSize, MappingAddress,
                 * FileOffset, BuildId u16 size + bytes, FileName). */
                CHECK(i + 1 < l.count);
                const test_event *id = &l.ev[i + 1];
                CHECK(test_is_class(id, &PetwSymbolsGuid, -1));
                CHECK(id->length > 40);
                CHECK_EQ(test_rd32(id->data), child_pid);
                CHECK_EQ(test_rd64(id->data + 4), test_rd64(p));
                uint32_t idsize = (uint32_t)(id->data[36] | id->data[37] << 8);
                CHECK(idsize == 0 || idsize == 20); /* a GNU build-id is SHA-1's size */
                CHECK(38 + idsize + n + 1 <= id->length);
                CHECK(memcmp(id->data + 38 + idsize, name, n) == 0);
                image_ids += idsize == 20;
            }
        } else if (test_is_class(e, &ThreadGuid, 36) &&
                   (test_rd32(p) == busy_tid || test_rd32(p + 4) == busy_tid)) {
            CHECK_EQ(e->header.descriptor.version, 2);
            cswitch++;
        } else if (test_is_class(e, &ThreadGuid, 50) && test_rd32(p) == busy_tid) {
            ready++; /* woken from its sleeps */
        } else if (test_is_class(e, &DiskIoGuid, 11)) {
            CHECK_EQ(e->header.descriptor.version, 3);
            CHECK(test_rd32(p + 8) > 0); /* TransferSize */
            disk_writes++;
            write_bytes += test_rd32(p + 8);
            if (test_rd32(p + 48) == child_pid) /* IssuingThreadId: the writer */
                child_write_bytes += test_rd32(p + 8);
        } else if (test_is_class(e, &PerfInfoGuid, 46) && test_rd32(p + 8) == busy_tid) {
            samples++;
        } else if (test_is_class(e, &StackWalkGuid, 32) && test_rd32(p + 12) == busy_tid) {
            CHECK_EQ(test_rd32(p + 8), child_pid);
            CHECK(e->length >= 24); /* at least one frame */
            stacks++;
        }
    }
    printf("%s: %zu events; child: start %d+%d (fork, exec), end %d, thread %d/%d, image %d, "
           "cswitch %d, samples %d, stacks %d, ready %d; disk writes %d, %llu bytes (%llu issued "
           "by the child; %s); rundown of this process %d\n",
           shared ? "shared" : "in-process", l.count, fork_start, exec_start, end, thread_start,
           thread_end, image, cswitch, samples, stacks, ready, disk_writes,
           (unsigned long long)write_bytes, (unsigned long long)child_write_bytes,
           !have_disk ? "no tracefs"
           : direct   ? "direct I/O"
                      : "no direct I/O here",
           my_dcstart);
    printf("%s: %llu events lost (tracepoint samples the OS dropped)\n",
           shared ? "shared" : "in-process", (unsigned long long)st.events_lost);
    CHECK_EQ(fork_start, 1);
    CHECK_EQ(exec_start, 1);
    CHECK_EQ(end, 1);
    CHECK_EQ(thread_start, 1);
    CHECK_EQ(thread_end, 1);
    CHECK(image >= 1);
    CHECK(image_ids >= 1); /* Debian's binaries carry build-ids */
    CHECK_EQ(my_dcstart, 1);
    CHECK(cswitch >= 2);
    CHECK(samples >= 30); /* 150 ms of CPU time at 1 ms */
    CHECK(stacks >= samples / 2);
    /* Each of the busy thread's 5 sleeps ends with a timer's wake-up, and
     * the child's 4 direct writes of 64 KiB reached the disk before its
     * fsync returned (the device may split or merge them; other processes
     * may write too; some may be issued by a kernel worker): recorded, or
     * counted lost where the OS dropped them. */
    if (have_ready)
        CHECK(ready >= 5 || st.events_lost > 0);
    if (have_disk && direct)
        CHECK(write_bytes >= 4 * 65536 || st.events_lost > 0);

    test_events_free(&l);
    remove(data);
    remove(path);
    return 0;
}

int main(void)
{
    char path[2][512], data[2][600];
    test_path(path[0], sizeof(path[0]), "system_events.etl");
    test_path(path[1], sizeof(path[1]), "system_events_shared.etl");
    for (int k = 0; k < 2; k++)
        snprintf(data[k], sizeof(data[k]), "%s.data", path[k]);
    /* Both launchers first, while this process has one thread. */
    launcher ln[2] = {launcher_fork(data[0]), launcher_fork(data[1])};
    int rc = run(0, path[0], data[0], ln[0]);
    if (rc)
        return rc;
    /* TSan cannot follow the session host's threads (see test/meson.build). */
    const char *tsan = getenv("PETW_TEST_TSAN");
    if (tsan && tsan[0] == '1')
        return 0;
    return run(1, path[1], data[1], ln[1]);
}
