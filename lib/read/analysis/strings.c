/* SPDX-License-Identifier: MIT */
/* strings.c - interned strings and demangled names.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "analysis_internal.h"

#ifdef PETW_HAVE_CXA_DEMANGLE
/* The C++ runtime's demangler (libstdc++'s, the Itanium ABI's). */
char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status);
#endif

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

const char *petw__strings_intern(petw__strings *t, const char *s)
{
    if (!s)
        return NULL;
    if (2 * (t->count + 1) > t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 1024;
        char **slots = calloc(cap, sizeof(*slots));
        if (!slots)
            return NULL;
        for (uint32_t k = 0; k < t->cap; k++) {
            if (!t->slots[k])
                continue;
            uint32_t j = hash(t->slots[k]) & (cap - 1);
            while (slots[j])
                j = (j + 1) & (cap - 1);
            slots[j] = t->slots[k];
        }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    uint32_t j = hash(s) & (t->cap - 1);
    for (; t->slots[j]; j = (j + 1) & (t->cap - 1))
        if (!strcmp(t->slots[j], s))
            return t->slots[j];
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (!copy)
        return NULL;
    memcpy(copy, s, n);
    t->slots[j] = copy;
    t->count++;
    return copy;
}

/* Rust's legacy names end in "::h" and 16 hex digits (a hash): dropped. */
static void strip_rust_hash(char *s)
{
    size_t n = strlen(s);
    if (n < 19 || memcmp(s + n - 19, "::h", 3) != 0)
        return;
    for (size_t k = n - 16; k < n; k++)
        if (!((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f')))
            return;
    s[n - 19] = 0;
}

const char *petw__strings_demangle(petw__strings *t, const char *symbol, int demangle)
{
#ifdef PETW_HAVE_CXA_DEMANGLE
    if (demangle && symbol[0] == '_' && symbol[1] == 'Z') {
        int status = -1;
        char *d = __cxa_demangle(symbol, NULL, NULL, &status);
        if (d && status == 0) {
            strip_rust_hash(d);
            const char *r = petw__strings_intern(t, d);
            free(d);
            return r;
        }
        free(d);
    }
#else
    (void)demangle;
    (void)strip_rust_hash;
#endif
    return petw__strings_intern(t, symbol);
}

void petw__strings_free(petw__strings *t)
{
    for (uint32_t k = 0; k < t->cap; k++)
        free(t->slots[k]);
    free(t->slots);
    memset(t, 0, sizeof(*t));
}
