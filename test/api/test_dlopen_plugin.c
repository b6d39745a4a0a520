/* SPDX-License-Identifier: MIT */
/* petw inside a plugin: a shared object linked with the archive and loaded
 * with dlopen (as a Python extension or an editor plugin is) writes events
 * from the loading thread and from a thread it starts. Every event arrives,
 * none lost, each with its writer's thread ID and activity ID: the
 * thread-locals of the write path (initial-exec on ELF) work in an object
 * loaded after the program started. Runs in-process and through a session
 * host ($PETW_HOST: a plugin's host program knows nothing of petw). With
 * --no-host (no $PETW_HOST), StartTrace fails with ERROR_PROCESS_ABORTED
 * and the program is not started again as a host: it could not be one.
 *
 * usage: test_dlopen_plugin PLUGIN.so [--no-host] */
#include <dlfcn.h>

#include "test_util.h"

typedef ULONG (*plugin_trace_fn)(const char *path, uint32_t count, uint32_t tids[2],
                                 GUID activities[2]);

#define COUNT 5000

static const GUID plugin_provider = {0xd10b0e11, 0x1234, 0x5678, {1, 2, 3, 4, 5, 6, 7, 8}};

int main(int argc, char **argv)
{
    if (getenv("PETW__HOST_FD")) { /* started again as a session host */
        const char *m = getenv("PETW_TEST_MARKER");
        FILE *f = m ? fopen(m, "w") : NULL;
        if (f)
            fclose(f);
        return 3;
    }
    char marker[512];
    test_path(marker, sizeof(marker), "dlopen_plugin.started-again");
    CHECK(argc == 2 || (argc == 3 && !strcmp(argv[2], "--no-host")));
    void *so = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!so)
        fprintf(stderr, "dlopen: %s\n", dlerror());
    CHECK(so != NULL);
    plugin_trace_fn trace;
    *(void **)&trace = dlsym(so, "plugin_trace");
    CHECK(trace != NULL);
    /* The plugin keeps the archive's names to itself. */
    CHECK(dlsym(so, "EventWrite") == NULL && dlsym(so, "petw_session_start") == NULL);

    char path[512];
    test_path(path, sizeof(path), "dlopen_plugin.etl");
    uint32_t tids[2];
    GUID act[2];
    if (argc == 3) {
        unlink(marker);
        CHECK_EQ(setenv("PETW_TEST_MARKER", marker, 1), 0);
        CHECK(getenv("PETW_HOST") == NULL);
        CHECK_EQ(trace(path, COUNT, tids, act), ERROR_PROCESS_ABORTED);
        usleep(100 * 1000); /* a program started again would have run by now */
        CHECK(access(marker, F_OK) != 0);
        printf("dlopen_plugin: no host program, StartTrace fails and starts nothing\n");
        return 0;
    }
    CHECK_EQ(trace(path, COUNT, tids, act), ERROR_SUCCESS);
    CHECK(tids[0] != tids[1] && !IsEqualGUID(&act[0], &act[1]));

    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    size_t seen[2] = {0, 0};
    for (size_t i = 0; i < l.count; i++) {
        const test_event *e = &l.ev[i];
        if (memcmp(&e->header.provider_id, &plugin_provider, sizeof(GUID)) != 0)
            continue; /* the session's own records */
        int k = e->header.thread_id == tids[0] ? 0 : e->header.thread_id == tids[1] ? 1 : -1;
        CHECK(k >= 0);
        CHECK(!memcmp(&e->header.activity_id, &act[k], sizeof(GUID)));
        CHECK_EQ(e->length, 4);
        CHECK_EQ(test_seq(e), seen[k]); /* in order, none missing */
        seen[k]++;
    }
    CHECK_EQ(seen[0], COUNT);
    CHECK_EQ(seen[1], COUNT);
    test_events_free(&l);
    unlink(path);
    printf("dlopen_plugin: 2 x %d events from a plugin, thread and activity IDs exact\n", COUNT);
    return 0;
}
