/* SPDX-License-Identifier: MIT */
/* map.c - the model's growable arrays and its u64 -> u32 hash map
 * (analysis_internal.h).
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdlib.h>

#include "analysis_internal.h"

int petw__grow(void **items, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    uint32_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *p = realloc(*items, (size_t)n * size);
    if (!p)
        return PETW_ENOMEM;
    *items = p;
    *cap = n;
    return 0;
}

uint64_t petw__mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

uint32_t petw__map_get(const petw__map *m, uint64_t key)
{
    if (!m->cap)
        return PETW__MAP_NONE;
    for (uint64_t j = petw__mix(key) & (m->cap - 1);; j = (j + 1) & (m->cap - 1)) {
        if (m->values[j] == PETW__MAP_NONE)
            return PETW__MAP_NONE;
        if (m->keys[j] == key)
            return m->values[j];
    }
}

static int map_resize(petw__map *m)
{
    uint32_t cap = m->cap ? 2 * m->cap : 256;
    uint64_t *keys = malloc(cap * sizeof(*keys));
    uint32_t *values = malloc(cap * sizeof(*values));
    if (!keys || !values) {
        free(keys);
        free(values);
        return PETW_ENOMEM;
    }
    memset(values, 0xFF, cap * sizeof(*values));
    for (uint32_t k = 0; k < m->cap; k++) {
        if (m->values[k] == PETW__MAP_NONE)
            continue;
        uint64_t j = petw__mix(m->keys[k]) & (cap - 1);
        while (values[j] != PETW__MAP_NONE)
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[k];
        values[j] = m->values[k];
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->cap = cap;
    return 0;
}

int petw__map_put(petw__map *m, uint64_t key, uint32_t value)
{
    if (2 * (m->count + 1) > m->cap && map_resize(m) != 0)
        return PETW_ENOMEM;
    uint64_t j = petw__mix(key) & (m->cap - 1);
    for (; m->values[j] != PETW__MAP_NONE; j = (j + 1) & (m->cap - 1))
        if (m->keys[j] == key) {
            m->values[j] = value;
            return 0;
        }
    m->keys[j] = key;
    m->values[j] = value;
    m->count++;
    return 0;
}

void petw__map_free(petw__map *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof(*m));
}
