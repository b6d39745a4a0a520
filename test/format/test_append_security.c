/* SPDX-License-Identifier: MIT */
/* EVENT_TRACE_FILE_MODE_APPEND continues only the caller's own private
 * file: a regular file owned by the effective uid, with no group or other
 * permission bits, opened without following a link. Anything else (a
 * world-readable file, a symbolic link, another user's file) is refused with
 * ERROR_ACCESS_DENIED and left byte for byte as it was. */
#include <sys/stat.h>

#include "test_util.h"

DEFINE_GUID(AppendSecProvider, 0xa99ea99e, 5, 6, 7, 8, 0, 0, 0, 0, 0, 2);

static const ULONG seq_append = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_APPEND;

static ULONG append(const char *path, const char *name, REGHANDLE reg)
{
    test_props tp;
    test_props_init(&tp, path);
    tp.p.LogFileMode = seq_append;
    tp.p.BufferSize = 4;
    TRACEHANDLE s;
    ULONG st = StartTraceA(&s, name, &tp.p);
    if (st != ERROR_SUCCESS)
        return st;
    EnableTraceEx2(s, &AppendSecProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL);
    CHECK_EQ(test_write_seq(reg, 0, 20, 40), 0);
    return ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP);
}

/* The whole file; *n its size. */
static unsigned char *slurp(const char *path, long long *n)
{
    *n = test_file_size(path);
    CHECK(*n > 0);
    unsigned char *b = malloc((size_t)*n);
    CHECK(b);
    FILE *f = fopen(path, "rb");
    CHECK(f);
    CHECK_EQ(fread(b, 1, (size_t)*n, f), *n);
    fclose(f);
    return b;
}

/* StartTrace with APPEND on `path` is refused and `file` is unchanged. */
static void check_refused(const char *path, const char *file, const char *name, REGHANDLE reg)
{
    long long n0, n1;
    unsigned char *before = slurp(file, &n0);
    struct stat st0, st1;
    CHECK(stat(file, &st0) == 0);
    CHECK_EQ(append(path, name, reg), ERROR_ACCESS_DENIED);
    unsigned char *after = slurp(file, &n1);
    CHECK(stat(file, &st1) == 0);
    CHECK_EQ(n1, n0);
    CHECK(memcmp(before, after, (size_t)n0) == 0);
    CHECK_EQ(st1.st_ino, st0.st_ino); /* not replaced either */
    CHECK_EQ(st1.st_mode, st0.st_mode);
    free(before);
    free(after);
}

int main(void)
{
    char path[512], target[512];
    test_path(path, sizeof(path), "append-sec.etl");
    test_path(target, sizeof(target), "append-sec-target.etl");
    test_pin_to_one_cpu();
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&AppendSecProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    unlink(path);
    unlink(target);
    umask(022);

    /* A fresh file is created (0600) and then continued. */
    CHECK_EQ(append(path, "petw-test-appsec-1", reg), ERROR_SUCCESS);
    CHECK_EQ(append(path, "petw-test-appsec-2", reg), ERROR_SUCCESS);

    /* Readable by group and others: refused, untouched. */
    CHECK(chmod(path, 0644) == 0);
    check_refused(path, path, "petw-test-appsec-3", reg);
    /* Group-writable only: refused as well. */
    CHECK(chmod(path, 0620) == 0);
    check_refused(path, path, "petw-test-appsec-4", reg);

    /* Private again: continued. */
    CHECK(chmod(path, 0600) == 0);
    long long before = test_file_size(path);
    CHECK_EQ(append(path, "petw-test-appsec-5", reg), ERROR_SUCCESS);
    CHECK(test_file_size(path) > before);
    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.count, 1 + 3 * 20);
    test_events_free(&l);

    /* A symbolic link at the path to a valid private trace: not followed. */
    CHECK(rename(path, target) == 0);
    CHECK(symlink(target, path) == 0);
    check_refused(path, target, "petw-test-appsec-6", reg);
    struct stat st;
    CHECK(lstat(path, &st) == 0);
    CHECK(S_ISLNK(st.st_mode));
    CHECK(unlink(path) == 0);

    /* Another user's private file (root only: chown needs it). */
    if (geteuid() == 0) {
        CHECK(rename(target, path) == 0);
        CHECK(chmod(path, 0600) == 0);
        CHECK(chown(path, 65534, 65534) == 0);
        check_refused(path, path, "petw-test-appsec-7", reg);
        /* Handed back: continued again. */
        CHECK(chown(path, 0, 0) == 0);
        CHECK_EQ(append(path, "petw-test-appsec-8", reg), ERROR_SUCCESS);
        unlink(path);
    } else {
        printf("append_security: not root, another user's file not checked\n");
        unlink(target);
    }
    EventUnregister(reg);
    printf("append_security: ok\n");
    return 0;
}
