/* SPDX-License-Identifier: MIT */
/* recording_profile_common.c - what the two kinds of recording profile share
 * (recording_profile_internal.h): recording_profile.c's logman provider files and
 * recording_profile_wprp.c's WPR profiles both fail, count and add providers
 * through these. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recording_profile_internal.h"

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

int recording_profile__casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = lower((unsigned char)*a), y = lower((unsigned char)*b);
        if (x != y || !x)
            return x - y;
    }
}

/* s[0, n): a whole number, 0x hex or decimal, at most `max`. Returns 0 or -1. */
int recording_profile__number(const char *s, size_t n, uint64_t max, uint64_t *out)
{
    unsigned base = 10;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        n -= 2;
    }
    if (n == 0)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int c = lower((unsigned char)s[i]);
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else
            return -1;
        if (v > (UINT64_MAX - d) / base)
            return -1;
        v = v * base + d;
    }
    if (v > max)
        return -1;
    *out = v;
    return 0;
}

/* Writes "line N: reason" (or the reason alone for line 0) into err; returns -1. */
int recording_profile__fail(char *err, size_t size, long line, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    if (err && size) {
        if (line > 0)
            snprintf(err, size, "line %ld: %s", line, reason);
        else
            snprintf(err, size, "%s", reason);
    }
    return -1;
}

/* Adds a line to out->unsupported, unless the same line is there already.
 * Past the array's room the last line counts the rest. */
void recording_profile__unsupported(recording_profile *out, const char *fmt, ...)
{
    char line[sizeof(out->unsupported[0])];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    int kept = out->unsupported_count <= RECORDING_PROFILE_MAX_UNSUPPORTED
                   ? out->unsupported_count
                   : RECORDING_PROFILE_MAX_UNSUPPORTED - 1;
    for (int i = 0; i < kept; i++)
        if (!strcmp(out->unsupported[i], line))
            return;
    int n = ++out->unsupported_count;
    if (n <= RECORDING_PROFILE_MAX_UNSUPPORTED)
        memcpy(out->unsupported[n - 1], line, sizeof(line));
    else
        snprintf(out->unsupported[RECORDING_PROFILE_MAX_UNSUPPORTED - 1], sizeof(line),
                 "... and %d more", n - (RECORDING_PROFILE_MAX_UNSUPPORTED - 1));
}

void recording_profile__add_names(char *list, size_t size, const char *names)
{
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, ","), len = strlen(list);
        int have = 0;
        for (const char *q = list; *q && !have;) {
            size_t m = strcspn(q, ",");
            have = m == n && !strncmp(q, p, n);
            q += m + (q[m] == ',');
        }
        if (!have && n && len + n + 2 <= size)
            snprintf(list + len, size - len, "%s%.*s", len ? "," : "", (int)n, p);
        p += n + (p[n] == ',');
    }
}

/* A provider's GUID or name without the braces a GUID may have. */
static const char *unbraced(const char *s, size_t *n)
{
    *n = strlen(s);
    if (*n >= 2 && s[0] == '{' && s[*n - 1] == '}') {
        *n -= 2;
        return s + 1;
    }
    return s;
}

static int same_provider(const char *a, const char *b)
{
    size_t na, nb;
    a = unbraced(a, &na);
    b = unbraced(b, &nb);
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return 0;
    return 1;
}

/* Enables `id` (shorter than recording_profile_provider.id) with `keywords` at
 * `level` (-1: not given). A provider already there keeps one entry: the
 * union of the keywords (0 is every keyword), the higher level. */
int recording_profile__add_provider(recording_profile *out, const char *id, uint64_t keywords,
                                    int level, char *err, size_t err_size, long line)
{
    uint8_t lv = level < 0 ? 5 : level == 0 ? 255 : (uint8_t)level;
    for (int i = 0; i < out->count; i++) {
        recording_profile_provider *p = &out->providers[i];
        if (same_provider(p->id, id)) {
            p->keywords = p->keywords && keywords ? p->keywords | keywords : 0;
            if (lv > p->level)
                p->level = lv;
            return 0;
        }
    }
    if (out->count == RECORDING_PROFILE_MAX_PROVIDERS)
        return recording_profile__fail(
            err, err_size, line,
            "more than %d providers (the most petw enables in one session): '%s'",
            RECORDING_PROFILE_MAX_PROVIDERS, id);
    recording_profile_provider *p = &out->providers[out->count++];
    snprintf(p->id, sizeof(p->id), "%s", id);
    p->keywords = keywords;
    p->level = lv;
    return 0;
}

/* ---- logman provider files ---- */
