/* SPDX-License-Identifier: MIT */
/* symbolize_none.c - the symbolizer of builds without elfutils' libdw (the
 * Windows build): frames stay module+offset.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include "analysis_internal.h"

void petw_symbolizer_config_init(petw_symbolizer_config *config)
{
    memset(config, 0, sizeof(*config));
}

int petw_analysis_available(void)
{
    return 0;
}

int petw_symbolizer_new(const petw_symbolizer_config *config, petw_symbolizer **out)
{
    (void)config;
    PETW__RETURN_IF(!out, PETW_EINVAL);
    *out = NULL;
    return PETW_ENOTSUP;
}

void petw_symbolizer_free(petw_symbolizer *s)
{
    (void)s;
}

int petw_symbolizer_lookup(petw_symbolizer *s, const char *path, const uint8_t *build_id,
                           uint32_t build_id_size, uint64_t offset, petw_source_line *lines,
                           uint32_t max, uint32_t *count)
{
    (void)s;
    (void)path;
    (void)build_id;
    (void)build_id_size;
    (void)offset;
    (void)lines;
    (void)max;
    PETW__RETURN_IF(!count, PETW_EINVAL);
    *count = 0;
    return PETW_ENOTSUP;
}
