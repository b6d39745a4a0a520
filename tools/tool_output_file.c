/* SPDX-License-Identifier: MIT */
/* tool_output_file.c - files the petw command writes (convert -o, report
 * -o), created by the library as it creates trace files
 * (petw_file_create_private: owner-only, exclusively, never through a
 * link), and never over a file the user did not ask to replace; "-" is
 * standard output. */
#include <string.h>

#include "tool.h"

static FILE *file_create(const char *path, int force)
{
    FILE *f = NULL;
    int rc = petw_file_create_private(path, force ? PETW_FILE_REPLACE : 0, &f);
    if (rc == 0)
        return f;
    if (rc == PETW_EEXIST && !force)
        fprintf(stderr, "petw: %s: exists; not replaced (--force replaces it)\n", path);
    else if (rc == PETW_ENOTREG)
        fprintf(stderr, "petw: %s: not a regular file; not replaced\n", path);
    else
        fprintf(stderr, "petw: %s: cannot create: %s\n", path, petw_strerror(rc));
    return NULL;
}

FILE *output_file_create(const char *path, int force)
{
    return !strcmp(path, "-") ? stdout : file_create(path, force);
}

int output_file_close(FILE *f)
{
    return f == stdout ? fflush(f) : fclose(f);
}

const char *output_file_name(const char *path)
{
    return !strcmp(path, "-") ? "standard output" : path;
}
