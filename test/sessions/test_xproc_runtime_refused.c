/* SPDX-License-Identifier: MIT */
/* A runtime directory that cannot be used (open to others, a symbolic
 * link, too long a path) fails every shared operation with its error, and
 * names itself: petw_shared_runtime_dir gives its path with the error.
 * Listing fails too (PETW_EACCES; QueryAllTraces ERROR_ACCESS_DENIED)
 * rather than saying no session runs, since sessions this process cannot
 * see may run; finding a session fails with the error, not "not found".
 * The application's providers still register and write (nothing of
 * theirs fails for the directory). Once the directory is made private,
 * everything works again. Linux: it sets PETW_RUNTIME_DIR itself. */
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "petw/shared.h"

DEFINE_GUID(RefusedProvider, 0x7e5c0b1a, 0x5b, 0x4c1d, 1, 2, 3, 4, 5, 6, 7, 9);

/* Every shared operation fails with `want`, naming `dir`. */
static void refused(const char *dir, int want)
{
    char out[PETW_MAX_NAME];
    CHECK_EQ(petw_shared_runtime_dir(out, sizeof(out)), want);
    if (strcmp(out, dir) != 0)
        fprintf(stderr, "named '%s', not '%s'\n", out, dir);
    CHECK(strcmp(out, dir) == 0);

    petw_session_handle hs[8];
    uint32_t n = 99;
    CHECK_EQ(petw_session_list(hs, 8, &n), want);
    petw_session_handle h;
    CHECK_EQ(petw_session_find("refused", &h), want);

    test_props tp;
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    TRACEHANDLE th = 0;
    ULONG win = (ULONG)petw_error_to_win32(want);
    CHECK_EQ(StartTraceA(&th, "refused", &tp.p), win);
    PEVENT_TRACE_PROPERTIES arr[1] = {&tp.p};
    ULONG count = 0;
    test_props_init(&tp, NULL);
    CHECK_EQ(QueryAllTracesA(arr, 1, &count), win);

    /* The application is unaffected: its provider registers and writes. */
    REGHANDLE reg = 0;
    CHECK_EQ(EventRegister(&RefusedProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    CHECK_EQ(EventWrite(reg, &d, 0, NULL), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
}

int main(void)
{
    char base[] = "/tmp/petw-refused-XXXXXX", dir[256], link[256], good[256];
    CHECK(mkdtemp(base) != NULL);

    /* Open to others (0755). */
    snprintf(dir, sizeof(dir), "%s/open", base);
    CHECK_EQ(mkdir(dir, 0700), 0);
    CHECK_EQ(chmod(dir, 0755), 0);
    setenv("PETW_RUNTIME_DIR", dir, 1);
    refused(dir, PETW_EACCES);

    /* A symbolic link to a private directory. */
    snprintf(good, sizeof(good), "%s/good", base);
    CHECK_EQ(mkdir(good, 0700), 0);
    snprintf(link, sizeof(link), "%s/link", base);
    CHECK_EQ(symlink(good, link), 0);
    setenv("PETW_RUNTIME_DIR", link, 1);
    refused(link, PETW_EACCES);

    /* Too long a path for the sockets in it. */
    char lng[200];
    memset(lng, 'x', sizeof(lng) - 1);
    memcpy(lng, base, strlen(base));
    lng[strlen(base)] = '/';
    lng[sizeof(lng) - 1] = '\0';
    setenv("PETW_RUNTIME_DIR", lng, 1);
    refused(lng, PETW_ENAMETOOLONG);

    /* Made private: usable, and nothing runs in it. */
    CHECK_EQ(chmod(dir, 0700), 0);
    setenv("PETW_RUNTIME_DIR", dir, 1);
    char out[PETW_MAX_NAME];
    CHECK_EQ(petw_shared_runtime_dir(out, sizeof(out)), 0);
    CHECK(strcmp(out, dir) == 0);
    petw_session_handle hs[8];
    uint32_t n = 99;
    CHECK_EQ(petw_session_list(hs, 8, &n), 0);
    CHECK_EQ(n, 0);
    petw_session_handle h;
    CHECK_EQ(petw_session_find("refused", &h), PETW_ENOTFOUND);
    /* A name too small for the path: "", and the error. */
    CHECK_EQ(petw_shared_runtime_dir(out, 4), PETW_ENAMETOOLONG);
    CHECK_EQ(out[0], '\0');
    CHECK_EQ(petw_shared_runtime_dir(NULL, 4), PETW_EINVAL);

    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
    CHECK_EQ(system(cmd), 0);
    printf("runtime directory refusals: every shared operation fails and names it\n");
    return 0;
}
