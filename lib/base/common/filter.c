/* SPDX-License-Identifier: MIT */
/* filter.c - event filters and enable properties (see filter.h). */
#include <string.h>

#include "common.h"
#include "filter.h"

_Static_assert(sizeof(petw__enable_filter) == 1744, "petw__enable_filter: 1744 bytes");
_Static_assert(offsetof(petw__enable_filter, exe) == 184 &&
                   offsetof(petw__enable_filter, name_level) == 696 &&
                   offsetof(petw__enable_filter, name_any) == 704 &&
                   offsetof(petw__enable_filter, names) == 720,
               "petw__enable_filter layout (docs/shared-memory.md)");

static int all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

int petw__filter_check(const petw__enable_filter *f)
{
    if ((f->properties & ~PETW__PROP_ALL) || (f->flags & ~PETW__FILTER_ALL) || f->reserved8 ||
        f->reserved[0] || f->reserved[1] || f->id_filter_in > 1)
        return PETW_ECORRUPT;
    uint32_t ids = (f->flags & PETW__FILTER_EVENT_ID) ? f->id_count : 0;
    uint32_t pids = (f->flags & PETW__FILTER_PID) ? f->pid_count : 0;
    if (ids != f->id_count || pids != f->pid_count || ids > PETW__FILTER_IDS ||
        pids > PETW__FILTER_PIDS || ((f->flags & PETW__FILTER_EVENT_ID) && ids == 0) ||
        ((f->flags & PETW__FILTER_PID) && pids == 0))
        return PETW_ECORRUPT;
    if (!(f->flags & PETW__FILTER_EVENT_ID) && f->id_filter_in)
        return PETW_ECORRUPT;
    if (!all_zero(f->ids + ids, (PETW__FILTER_IDS - ids) * sizeof(f->ids[0])) ||
        !all_zero(f->pids + pids, (PETW__FILTER_PIDS - pids) * sizeof(f->pids[0])))
        return PETW_ECORRUPT;
    const char *end = memchr(f->exe, 0, sizeof(f->exe));
    if (!end || !all_zero(end, sizeof(f->exe) - (size_t)(end - f->exe)))
        return PETW_ECORRUPT;
    if (((f->flags & PETW__FILTER_EXE) != 0) != (f->exe[0] != 0))
        return PETW_ECORRUPT;
    if (!(f->flags & PETW__FILTER_EVENT_NAME)) {
        if (f->name_level || f->name_filter_in || f->name_count || f->name_bytes || f->name_any ||
            f->name_all || !all_zero(f->names, sizeof(f->names)))
            return PETW_ECORRUPT;
        return 0;
    }
    /* name_count names, each NUL-terminated, exactly filling name_bytes. */
    if (f->name_filter_in > 1 || f->name_count == 0 || f->name_bytes == 0 ||
        f->name_bytes > sizeof(f->names) || f->names[f->name_bytes - 1] != 0 ||
        !all_zero(f->names + f->name_bytes, sizeof(f->names) - f->name_bytes))
        return PETW_ECORRUPT;
    uint32_t nuls = 0;
    for (uint32_t i = 0; i < f->name_bytes; i++)
        nuls += f->names[i] == 0;
    return nuls == f->name_count ? 0 : PETW_ECORRUPT;
}

int petw__filter_name_pass(const petw__enable_filter *f, uint8_t level, uint64_t keyword,
                           const void *schema, uint32_t schema_size)
{
    if (!(f->flags & PETW__FILTER_EVENT_NAME))
        return 1;
    /* Only the events of the filter's level and keywords are filtered. */
    uint8_t fl = f->name_level ? f->name_level : 255;
    uint64_t any = f->name_any ? f->name_any : ~(uint64_t)0;
    if ((level != 0 && level > fl) ||
        (keyword != 0 && ((keyword & any) == 0 || (keyword & f->name_all) != f->name_all)))
        return 1;
    /* The name: after the u16 size and the tags (7 bits a byte, 0x80: more). */
    const char *name = NULL;
    size_t len = 0;
    if (schema && schema_size > 2) {
        const uint8_t *p = (const uint8_t *)schema + 2,
                      *end = (const uint8_t *)schema + schema_size;
        while (p < end && (*p & 0x80))
            p++;
        if (p < end)
            p++;
        const uint8_t *nul = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
        if (nul) {
            name = (const char *)p;
            len = (size_t)(nul - p);
        }
    }
    int listed = 0;
    if (name) {
        const char *n = f->names, *stop = f->names + f->name_bytes;
        while (n < stop && !listed) {
            size_t k = strnlen(n, (size_t)(stop - n));
            listed = k == len && memcmp(n, name, len) == 0;
            n += k + 1;
        }
    }
    return f->name_filter_in ? listed : !listed;
}

int petw__filter_equal(const petw__enable_filter *a, const petw__enable_filter *b)
{
    if (petw__filter_empty(a) || petw__filter_empty(b))
        return petw__filter_empty(a) && petw__filter_empty(b);
    return memcmp(a, b, sizeof(*a)) == 0;
}

static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 when the `n` bytes at `name` equal `exe` but for ASCII case. */
static int same_name(const char *name, size_t n, const char *exe)
{
    if (strlen(exe) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (fold((unsigned char)name[i]) != fold((unsigned char)exe[i]))
            return 0;
    return 1;
}

int petw__filter_admits_process(const petw__enable_filter *f, uint32_t pid, const char *exe)
{
    if (!f)
        return 1;
    if (f->flags & PETW__FILTER_PID) {
        int found = 0;
        for (uint32_t i = 0; i < f->pid_count && i < PETW__FILTER_PIDS; i++)
            found |= f->pids[i] == pid;
        if (!found)
            return 0;
    }
    if (f->flags & PETW__FILTER_EXE) {
        const char *p = f->exe, *end = f->exe + strnlen(f->exe, sizeof(f->exe));
        while (p < end) {
            const char *semi = memchr(p, ';', (size_t)(end - p));
            size_t n = semi ? (size_t)(semi - p) : (size_t)(end - p);
            /* Surrounding blanks are not part of a name. */
            const char *s = p;
            size_t m = n;
            while (m && (*s == ' ' || *s == '\t'))
                s++, m--;
            while (m && (s[m - 1] == ' ' || s[m - 1] == '\t'))
                m--;
            if (m && same_name(s, m, exe))
                return 1;
            p += n + 1;
        }
        return 0;
    }
    return 1;
}

uint64_t petw__fnv1a64(uint64_t h, const void *data, size_t size)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < size; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
