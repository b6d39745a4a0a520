/* SPDX-License-Identifier: MIT */
/* symsrv_none.c - a build without libcurl: symbol servers are not asked.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stddef.h>

#include "analysis_internal.h"

int petw__symsrv_fetch(const char *server, const char *cache, const char *name, const char *key,
                       char *out, size_t size)
{
    (void)server, (void)cache, (void)name, (void)key, (void)out, (void)size;
    return PETW_ENOTSUP;
}
