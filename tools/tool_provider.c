/* SPDX-License-Identifier: MIT */
/* tool_provider.c - provider names every trace has, and the --provider
 * filter of `petw dump`. */
#include <string.h>

#include "tool.h"

const char *known_provider_name(const petw_guid *id)
{
    return petw_kernel_class_name(id);
}

int header_provider(const petw_guid *id)
{
    const char *name = petw_kernel_class_name(id);
    return name && !strcmp(name, "EventTrace");
}

int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a,
            y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (x != y || !x)
            return x - y;
    }
}

int filter_add(provider_filter *f, const char *value)
{
    if (f->id_count == MAX_PROVIDERS)
        return -1;
    petw_guid *id = &f->ids[f->id_count];
    if (petw_guid_parse(value, id) == 0) {
        f->id_count++;
        return 0;
    }
    if (petw_kernel_class_guid(value, id) == 0) { /* "EventTrace", "Image", ... */
        f->id_count++;
        return 0;
    }
    if (petw_guid_from_name(value, id) != 0)
        return -1;
    f->id_count++;
    f->names[f->name_count++] = value;
    return 0;
}

int filter_has_id(const provider_filter *f, const petw_guid *id)
{
    if (f->id_count == 0)
        return 1;
    for (int i = 0; i < f->id_count; i++)
        if (petw_guid_equal(&f->ids[i], id))
            return 1;
    return 0;
}

int filter_has_name(const provider_filter *f, const char *name)
{
    if (!name)
        return 0;
    for (int i = 0; i < f->name_count; i++)
        if (ascii_casecmp(f->names[i], name) == 0)
            return 1;
    return 0;
}
