/* SPDX-License-Identifier: MIT */
/* petw_file_create_private, the one way petw's tools create their output
 * files: owner-only (0600 whatever the umask), exclusively (an existing
 * file, directory or link is refused with PETW_EEXIST), and with
 * PETW_FILE_REPLACE a link (never its target) or the caller's own file is
 * replaced, while a directory is not (PETW_ENOTREG). */
#include <fcntl.h>
#include <sys/stat.h>

#include "test_util.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
}

static int has_text(const char *path, const char *text)
{
    char buf[64] = {0};
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

int main(void)
{
    char path[512], target[512];
    struct stat st;
    FILE *f = NULL;
    test_path(path, sizeof(path), "private-out.txt");
    test_path(target, sizeof(target), "private-target.txt");
    unlink(path);
    unlink(target);
    umask(0);

    CHECK_EQ(petw_file_create_private(NULL, 0, &f), PETW_EINVAL);
    CHECK_EQ(petw_file_create_private(path, 0, NULL), PETW_EINVAL);
    CHECK_EQ(petw_file_create_private(path, 0x80, &f), PETW_EINVAL);
    CHECK(f == NULL);

    /* A new file: 0600 even with umask 0, and written through the stream. */
    CHECK_EQ(petw_file_create_private(path, 0, &f), 0);
    CHECK(f != NULL);
    fputs("new", f);
    CHECK_EQ(fclose(f), 0);
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
    CHECK_EQ(st.st_mode & 0777, 0600);
    CHECK(has_text(path, "new"));

    /* An existing file: refused and left as it was, unless replaced. */
    chmod(path, 0644);
    CHECK_EQ(petw_file_create_private(path, 0, &f), PETW_EEXIST);
    CHECK(f == NULL);
    CHECK(has_text(path, "new"));
    CHECK_EQ(petw_file_create_private(path, PETW_FILE_REPLACE, &f), 0);
    fputs("replaced", f);
    CHECK_EQ(fclose(f), 0);
    CHECK(lstat(path, &st) == 0);
    CHECK_EQ(st.st_mode & 0777, 0600);
    CHECK(has_text(path, "replaced"));

    /* A symbolic link, dangling or not: never followed. */
    unlink(path);
    CHECK_EQ(symlink(target, path), 0);
    CHECK_EQ(petw_file_create_private(path, 0, &f), PETW_EEXIST);
    CHECK(lstat(target, &st) != 0); /* the dangling link's target was not created */
    write_text(target, "victim");
    chmod(target, 0644);
    CHECK_EQ(petw_file_create_private(path, 0, &f), PETW_EEXIST);
    CHECK_EQ(petw_file_create_private(path, PETW_FILE_REPLACE, &f), 0);
    fputs("mine", f);
    CHECK_EQ(fclose(f), 0);
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
    CHECK(has_text(target, "victim"));
    CHECK(stat(target, &st) == 0);
    CHECK_EQ(st.st_mode & 0777, 0644);

    /* A directory is not a file the caller may replace. */
    unlink(path);
    CHECK_EQ(mkdir(path, 0700), 0);
    CHECK_EQ(petw_file_create_private(path, 0, &f), PETW_EEXIST);
    CHECK_EQ(petw_file_create_private(path, PETW_FILE_REPLACE, &f), PETW_ENOTREG);
    CHECK(lstat(path, &st) == 0 && S_ISDIR(st.st_mode));
    rmdir(path);

    /* A missing folder. */
    char missing[600];
    snprintf(missing, sizeof(missing), "%s/no-such-folder/out.txt", test_tmpdir());
    CHECK_EQ(petw_file_create_private(missing, 0, &f), PETW_ENOENT);
    unlink(target);
    printf("file_create_private: ok\n");
    return 0;
}
