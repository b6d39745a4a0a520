/* SPDX-License-Identifier: MIT */
/* session_file.c - files petw writes besides a session's trace file (the
 * tools' output files), created as the trace files are: owner-only,
 * exclusively, never through a symbolic link.
 *
 * Allowed dependencies: common/, platform/, ring/, provider/, format/, flush/,
 * system/.
 */
#include <stdio.h>

#include "../../base/platform/platform.h"
#include "petw/session_types.h"

int petw_file_create_private(const char *path, uint32_t flags, FILE **out)
{
    if (out)
        *out = NULL;
    if (!path || !out || (flags & ~PETW_FILE_REPLACE))
        return PETW_EINVAL;
    petw__file f;
    int rc = petw__file_create_new(path, &f);
    if (rc == PETW_EEXIST && (flags & PETW_FILE_REPLACE)) {
        rc = petw__file_remove_replaceable(path);
        if (rc == 0) /* PETW_EEXIST again: another process raced us */
            rc = petw__file_create_new(path, &f);
    }
    if (rc != 0)
        return rc;
    void *stream = NULL;
    rc = petw__file_stdio(&f, &stream);
    if (rc != 0) {
        petw__file_close(&f);
        return rc;
    }
    *out = stream;
    return 0;
}
