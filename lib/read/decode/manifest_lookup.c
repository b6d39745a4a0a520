/* SPDX-License-Identifier: MIT */
/* manifest_lookup.c - lookups in manifest.h's model that need none of its
 * resolution: an event by id and version (the order manifest_model.c sorts
 * the events in), and a map value's text. The names of tasks, opcodes and
 * levels, which fall back on Windows' standard ones, are manifest_model.c's.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "manifest_internal.h"

int petw__man_event_cmp(const void *a, const void *b)
{
    const petw__man_event *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->version < y->version ? -1 : x->version > y->version;
}

const petw__man_event *petw__manifest_find_event(const petw__man_provider *p, uint16_t id,
                                                 uint8_t version)
{
    petw__man_event key;
    memset(&key, 0, sizeof(key));
    key.id = id;
    key.version = version;
    if (!p->event_count)
        return NULL;
    return bsearch(&key, p->events, p->event_count, sizeof(key), petw__man_event_cmp);
}

int petw__manifest_map_text(const petw__man_provider *p, int32_t map, uint64_t value, char *out,
                            size_t size)
{
    if (map < 0 || (uint32_t)map >= p->map_count || size == 0)
        return -1;
    const petw__man_map *m = &p->maps[map];
    if (m->count == 0) /* no entries: the provider may have none at all */
        return -1;
    const petw__man_map_entry *e = p->map_entries + m->first;
    out[0] = 0;
    if (!m->bitmap) {
        for (uint32_t i = 0; i < m->count; i++)
            if (e[i].value == value) {
                snprintf(out, size, "%s", e[i].text);
                return 0;
            }
        return -1;
    }
    size_t used = 0;
    int any = 0;
    for (uint32_t i = 0; i < m->count; i++)
        if (e[i].value && (value & e[i].value) == e[i].value) {
            int n = snprintf(out + used, size - used, "%s%s", any ? " | " : "", e[i].text);
            if (n < 0 || (size_t)n >= size - used)
                break;
            used += (size_t)n;
            any = 1;
        }
    return any ? 0 : -1;
}
