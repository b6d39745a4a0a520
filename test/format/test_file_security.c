/* SPDX-License-Identifier: MIT */
/* Trace files are created owner-only (traces can hold secrets), an
 * existing file is replaced, and a symbolic link at the path is replaced,
 * never followed into its target. */
#include <fcntl.h>
#include <sys/stat.h>

#include "test_util.h"

static void record_one(const char *path, const char *name)
{
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, name, &tp.p), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
}

int main(void)
{
    char path[512], target[512];
    struct stat st;
    test_path(path, sizeof(path), "secure.etl");
    test_path(target, sizeof(target), "secure-target.txt");
    umask(0);

    /* Fresh file: 0600. */
    unlink(path);
    record_one(path, "petw-test-secure-1");
    CHECK(lstat(path, &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK_EQ(st.st_mode & 0777, 0600);

    /* An existing world-readable file is replaced by an owner-only one. */
    chmod(path, 0644);
    record_one(path, "petw-test-secure-2");
    CHECK(lstat(path, &st) == 0);
    CHECK_EQ(st.st_mode & 0777, 0600);

    /* A symlink planted at the path: its target is left alone. */
    unlink(path);
    FILE *f = fopen(target, "w");
    CHECK(f);
    fputs("precious", f);
    fclose(f);
    CHECK(symlink(target, path) == 0);
    record_one(path, "petw-test-secure-3");
    CHECK(lstat(path, &st) == 0);
    CHECK(S_ISREG(st.st_mode)); /* the link itself was replaced */
    char buf[16] = {0};
    f = fopen(target, "r");
    CHECK(f);
    CHECK(fread(buf, 1, sizeof(buf) - 1, f) == 8);
    fclose(f);
    CHECK(strcmp(buf, "precious") == 0);

    /* And the file reads back. */
    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.count, 1);
    test_events_free(&l);

    /* A directory at the path: an error, not a crash. */
    unlink(path);
    CHECK(mkdir(path, 0700) == 0);
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-secure-4", &tp.p), ERROR_ACCESS_DENIED);
    rmdir(path);
    unlink(target);
    printf("file_security: ok\n");
    return 0;
}
