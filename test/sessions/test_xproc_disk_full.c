/* SPDX-License-Identifier: MIT */
/* A full disk, told as it is: a file session on a file system that fills
 * up (a 256 KB tmpfs mounted in a mount namespace of this test's own)
 * loses the buffers that do not fit, counted exactly, and its stop still
 * gives the session's final figures and names the cause: petw_session_stop
 * returns PETW_ENOSPC with the stats filled (file, events written and
 * lost, buffers lost), in process and through a session host; ETW's FLUSH
 * says ERROR_DISK_FULL and STOP returns the final figures in the
 * properties; `petw stop` prints them and says "disk full". The file stays
 * readable: its events plus those lost are every event written. Skips (77)
 * where mount namespaces or tmpfs mounts are not permitted (not root).
 *
 * usage: test_xproc_disk_full PETW */
#include <errno.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test_util.h"

#define EVENTS 4000u
#define PAYLOAD 500u

static const GUID prov = {
    0x3c1a7e55, 0x2b9d, 0x4f60, {0x81, 0x22, 0x5e, 0x6f, 0x70, 0x81, 0x92, 0xa3}};

static char mnt[256], petw[1024];
static REGHANDLE reg;

enum { STOP_NATIVE, STOP_ETW, STOP_CLI };

static void start(const char *name, const char *file, TRACEHANDLE *h)
{
    test_props tp;
    test_props_init(&tp, file);
    tp.p.BufferSize = 16; /* KB */
    tp.p.MinimumBuffers = 8;
    tp.p.MaximumBuffers = 64;
    tp.p.FlushTimer = 1;
    CHECK_EQ(test_start_trace(h, name, &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(*h, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK(EventEnabled(reg, &(EVENT_DESCRIPTOR){1, 0, 0, 4, 0, 0, 0}));
}

/* 2 MB of events into 256 KB, paced so that the flusher keeps up (the
 * losses are the disk's, not the pool's). */
static void write_events(void)
{
    for (uint32_t k = 0; k < EVENTS; k += 50) {
        test_write_seq(reg, k, 50, PAYLOAD);
        usleep(2000);
    }
}

static uint32_t events_in(const char *file, petw_logfile_info *info)
{
    test_events ev;
    CHECK_EQ(test_read(file, 0, &ev, info, NULL), 0);
    uint32_t n = (uint32_t)test_count_provider(&ev, &prov);
    CHECK_EQ(ev.corrupt, 0);
    test_events_free(&ev);
    return n;
}

static void run(const char *label, int in_process, int how)
{
    char name[64], file[512];
    snprintf(name, sizeof(name), "petw-disk-full-%d-%s", (int)getpid(), label);
    snprintf(file, sizeof(file), "%s/%s.etl", mnt, label);
    if (in_process)
        setenv("PETW_INPROC_SESSIONS", "1", 1);
    else
        unsetenv("PETW_INPROC_SESSIONS");
    TRACEHANDLE h;
    start(name, file, &h);
    write_events();
    test_props tp;
    test_props_init(&tp, NULL);
    CHECK_EQ(ControlTraceA(0, name, &tp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_DISK_FULL);

    uint64_t written = 0;
    uint32_t lost = 0, buffers_lost = 0;
    char path[PETW_MAX_NAME] = "";
    if (how == STOP_NATIVE) {
        petw_session_stats st;
        memset(&st, 0, sizeof(st));
        CHECK_EQ(petw_session_stop((petw_session_handle)h, &st), PETW_ENOSPC);
        written = st.events_written;
        lost = st.events_lost;
        buffers_lost = st.log_buffers_lost;
        snprintf(path, sizeof(path), "%s", st.file_path);
    } else if (how == STOP_ETW) {
        test_props_init(&tp, NULL);
        tp.p.LogFileNameOffset = offsetof(test_props, file); /* receives the file's name */
        CHECK_EQ(ControlTraceA(0, name, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
        lost = tp.p.EventsLost;
        buffers_lost = tp.p.LogBuffersLost;
        written = EVENTS - lost;
        snprintf(path, sizeof(path), "%s", tp.file);
    } else {
        char cmd[4096], out[1024], line[1024];
        snprintf(out, sizeof(out), "%s/../petw-disk-full-%d", mnt, (int)getpid());
        snprintf(cmd, sizeof(cmd), "'%s' stop '%s' > '%s.out' 2> '%s.err'", petw, name, out, out);
        int status = system(cmd);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
        snprintf(cmd, sizeof(cmd), "%s.out", out);
        FILE *f = fopen(cmd, "r");
        CHECK(f);
        unsigned long long v;
        while (fgets(line, sizeof(line), f)) {
            printf("  stop: %s", line);
            if (sscanf(line, "Events written: %llu", &v) == 1)
                written = v;
            else if (sscanf(line, "Events lost: %llu", &v) == 1)
                lost = (uint32_t)v;
            else if (sscanf(line, "Buffers lost: %llu", &v) == 1)
                buffers_lost = (uint32_t)v;
            else if (!strncmp(line, "File:", 5))
                sscanf(line, "File: %1023[^\n]", path);
        }
        fclose(f);
        unlink(cmd);
        snprintf(cmd, sizeof(cmd), "%s.err", out);
        f = fopen(cmd, "r");
        CHECK(f);
        CHECK(fgets(line, sizeof(line), f));
        fclose(f);
        unlink(cmd);
        printf("  stop (stderr): %s", line);
        char want[1024];
        snprintf(want, sizeof(want), "could not be written to %s: disk full\n", file);
        CHECK(strstr(line, want) != NULL);
    }
    printf("%s: written %llu, lost %u events and %u buffers, file %s\n", label,
           (unsigned long long)written, lost, buffers_lost, path);
    CHECK_EQ(strcmp(path, file), 0);
    CHECK(lost > 0 && buffers_lost > 0 && written > 0);
    /* The file: valid, its header counting the losses, and nothing missing
     * from the account. */
    petw_logfile_info info;
    uint32_t in_file = events_in(file, &info);
    CHECK_EQ(info.events_lost, lost);
    CHECK_EQ(info.buffers_lost, buffers_lost);
    CHECK_EQ(in_file, written);
    CHECK_EQ(in_file + lost, EVENTS);
    unlink(file);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    snprintf(petw, sizeof(petw), "%s", argv[1]);
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        printf("disk_full: no mount namespace here (%s): skipped\n", strerror(errno));
        return SKIP_TEST;
    }
    test_path(mnt, sizeof(mnt), "full");
    test_mkdir(mnt);
    if (mount("tmpfs", mnt, "tmpfs", 0, "size=256k,mode=0700") != 0) {
        printf("disk_full: cannot mount a tmpfs (%s): skipped\n", strerror(errno));
        rmdir(mnt);
        return SKIP_TEST;
    }
    CHECK_EQ(EventRegister(&prov, NULL, NULL, &reg), ERROR_SUCCESS);
    run("inproc", 1, STOP_NATIVE);
    run("host", 0, STOP_NATIVE);
    run("etw", 0, STOP_ETW);
    run("cli", 0, STOP_CLI);
    EventUnregister(reg);
    umount(mnt);
    rmdir(mnt);
    printf("disk_full: ok\n");
    return 0;
}
