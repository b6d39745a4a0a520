/* SPDX-License-Identifier: MIT */
/* process.c - the process's own command line and working directory, for
 * the ETW surface's GetCommandLineW and _fullpath (other hosts than
 * Windows). */
#include "../platform/platform.h"
#include "common.h"

#if !defined(_WIN32)
int petw__own_command_line(char **out, size_t *size)
{
    return petw__command_line(out, size);
}

int petw__working_dir(char *out, size_t size)
{
    return petw__current_dir(out, size);
}
#endif
