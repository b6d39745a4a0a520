/* SPDX-License-Identifier: MIT */
/* array.c - growable arrays. */
#include <stdlib.h>

#include "common.h"

int petw__array_grow(void **items, uint32_t *cap, uint32_t count, size_t item_size)
{
    if (count < *cap)
        return 0;
    PETW__RETURN_IF(*cap > UINT32_MAX / 2, PETW_ENOMEM);
    uint32_t want = *cap ? *cap * 2 : 64;
    void *g = realloc(*items, (size_t)want * item_size);
    PETW__RETURN_IF(!g, PETW_ENOMEM);
    *items = g;
    *cap = want;
    return 0;
}
