/* SPDX-License-Identifier: MIT */
/* key_index.c - an open-addressing index from a string key to an item's
 * position, over items the caller keeps (see analysis_tool.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

static uint64_t hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

int key_index_find(key_index *x, const char *key, uint32_t count, key_index_key_fn key_of,
                   const void *items, uint32_t *slot)
{
    if (2 * (count + 1) > x->nslots) {
        uint32_t n = x->nslots ? 2 * x->nslots : 1024;
        uint32_t *slots = calloc(n, sizeof(*slots));
        if (!slots)
            return -1;
        for (uint32_t k = 0; k < count; k++) {
            uint32_t j = (uint32_t)hash(key_of(items, k)) & (n - 1);
            while (slots[j])
                j = (j + 1) & (n - 1);
            slots[j] = k + 1;
        }
        free(x->slots);
        x->slots = slots;
        x->nslots = n;
    }
    uint32_t j = (uint32_t)hash(key) & (x->nslots - 1);
    for (; x->slots[j]; j = (j + 1) & (x->nslots - 1))
        if (!strcmp(key_of(items, x->slots[j] - 1), key)) {
            *slot = j;
            return (int)1;
        }
    *slot = j;
    return 0;
}

uint32_t key_index_at(const key_index *x, uint32_t slot)
{
    return x->slots[slot] - 1;
}

void key_index_add(key_index *x, uint32_t slot, uint32_t item)
{
    x->slots[slot] = item + 1;
}

void key_index_free(key_index *x)
{
    free(x->slots);
    x->slots = NULL;
    x->nslots = 0;
}
