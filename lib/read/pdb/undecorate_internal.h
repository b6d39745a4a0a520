/* SPDX-License-Identifier: MIT */
/* undecorate_internal.h - what undecorate.c (names, special names) and
 * undecorate_types.c (types, function signatures) share: the parse's state,
 * the pool its strings are built in, and the readers each calls in the
 * other.
 *
 * Allowed dependencies: common, platform. It uses neither.
 */
#ifndef PETW_PDB_UNDECORATE_INTERNAL_H
#define PETW_PDB_UNDECORATE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define POOL_SIZE 8192
#define MAX_DEPTH 24
#define MAX_REFS 10

typedef struct str {
    uint32_t at, len; /* in the pool */
} str;

typedef struct refs {
    str names[MAX_REFS];
    int name_count;
    str params[MAX_REFS]; /* a function's parameter types */
    int param_count;
} refs;

typedef struct ctx {
    const char *p;
    int depth;
    int failed;
    refs refs;
    size_t used;
    char pool[POOL_SIZE];
} ctx;

/* After a failure every read sees the end of the input. */
static inline str fail(ctx *c)
{
    c->failed = 1;
    c->p = "";
    return (str){0, 0};
}

/* Building a string: begin(), then add()s of literals or strings finished
 * before begin(), then finish(). No parse runs between begin and finish. */
static inline uint32_t begin(ctx *c)
{
    return (uint32_t)c->used;
}

static inline void add(ctx *c, const char *s, size_t n)
{
    if (c->failed)
        return;
    if (n > POOL_SIZE - c->used) {
        c->failed = 1;
        return;
    }
    memmove(c->pool + c->used, s, n);
    c->used += n;
}

static inline void adds(ctx *c, const char *s)
{
    add(c, s, strlen(s));
}

static inline void addstr(ctx *c, str s)
{
    add(c, c->pool + s.at, s.len);
}

static inline str finish(ctx *c, uint32_t at)
{
    if (c->failed)
        return (str){0, 0};
    return (str){at, (uint32_t)c->used - at};
}

static inline str lit(ctx *c, const char *s)
{
    uint32_t at = begin(c);
    adds(c, s);
    return finish(c, at);
}

/* undecorate.c: a name's first fragment (a template instance, an operator
 * or an identifier, remembered), and `first` with the scopes that follow. */
str petw__und_name_fragment(ctx *c);
str petw__und_qualified_name(ctx *c, str first);

/* undecorate_types.c: a type, a class, struct, union or enum name (its
 * first fragment and scopes), a cv-qualifier's text, and a function's
 * signature around `name`. */
str petw__und_type(ctx *c);
str petw__und_type_name(ctx *c);
const char *petw__und_cv_text(char q);
str petw__und_function_signature(ctx *c, str name);

#endif
