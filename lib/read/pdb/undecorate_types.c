/* SPDX-License-Identifier: MIT */
/* undecorate_types.c - the types in MSVC-decorated names (undecorate.h):
 * primitive and extended type letters, pointers and references with their
 * cv-qualifiers, class, struct, union and enum names, and functions'
 * signatures (access, `this`, calling convention, return and parameter
 * types with back-references of their own). undecorate.c reads the names
 * and the special names around them.
 *
 * Every string is built in the fixed pool of undecorate_internal.h; a parse
 * that runs out of pool, depth or input fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "undecorate_internal.h"

/* A class, struct, union or enum name: its first fragment (a template
 * instance or identifier, remembered) and its scopes. */
str petw__und_type_name(ctx *c)
{
    return petw__und_qualified_name(c, petw__und_name_fragment(c));
}

static const char *const primitives[26] = {
    ['C' - 'A'] = "signed char",  ['D' - 'A'] = "char",           ['E' - 'A'] = "unsigned char",
    ['F' - 'A'] = "short",        ['G' - 'A'] = "unsigned short", ['H' - 'A'] = "int",
    ['I' - 'A'] = "unsigned int", ['J' - 'A'] = "long",           ['K' - 'A'] = "unsigned long",
    ['M' - 'A'] = "float",        ['N' - 'A'] = "double",         ['O' - 'A'] = "long double",
    ['X' - 'A'] = "void",
};
static const char *const extended[26] = {
    ['D' - 'A'] = "__int8",   ['E' - 'A'] = "unsigned __int8",
    ['F' - 'A'] = "__int16",  ['G' - 'A'] = "unsigned __int16",
    ['H' - 'A'] = "__int32",  ['I' - 'A'] = "unsigned __int32",
    ['J' - 'A'] = "__int64",  ['K' - 'A'] = "unsigned __int64",
    ['L' - 'A'] = "__int128", ['M' - 'A'] = "unsigned __int128",
    ['N' - 'A'] = "bool",     ['Q' - 'A'] = "char8_t",
    ['S' - 'A'] = "char16_t", ['U' - 'A'] = "char32_t",
    ['W' - 'A'] = "wchar_t",
};

const char *petw__und_cv_text(char q)
{
    switch (q) {
    case 'A':
        return "";
    case 'B':
        return " const";
    case 'C':
        return " volatile";
    case 'D':
        return " const volatile";
    }
    return NULL;
}

/* A pointer or reference: `kind` the text after the pointee, `self` the
 * pointer's own qualifiers. */
static str pointer(ctx *c, const char *kind, const char *self)
{
    while (*c->p == 'E' || *c->p == 'F' || *c->p == 'I')
        c->p++; /* __ptr64, __unaligned, __restrict: not shown */
    const char *cv = petw__und_cv_text(*c->p);
    if (!cv)
        return fail(c); /* pointers to functions and members: not read */
    c->p++;
    str pointee = petw__und_type(c);
    uint32_t at = begin(c);
    addstr(c, pointee);
    adds(c, cv);
    adds(c, kind);
    adds(c, self);
    return finish(c, at);
}

str petw__und_type(ctx *c)
{
    if (c->failed || ++c->depth > MAX_DEPTH || !*c->p)
        return fail(c);
    str r;
    char ch = *c->p++;
    switch (ch) {
    case 'V':
    case 'U':
    case 'T':
        r = petw__und_type_name(c);
        break;
    case 'W':
        if (*c->p < '0' || *c->p > '7')
            return fail(c);
        c->p++;
        r = petw__und_type_name(c);
        break;
    case 'P':
        r = pointer(c, " *", "");
        break;
    case 'Q':
        r = pointer(c, " *", "const");
        break;
    case 'R':
        r = pointer(c, " *", "volatile");
        break;
    case 'S':
        r = pointer(c, " *", "const volatile");
        break;
    case 'A':
        r = pointer(c, " &", "");
        break;
    case 'B':
        r = pointer(c, " &", "volatile");
        break;
    case '_':
        ch = *c->p;
        if (ch < 'A' || ch > 'Z' || !extended[ch - 'A'])
            return fail(c);
        c->p++;
        r = lit(c, extended[ch - 'A']);
        break;
    case '$':
        if (c->p[0] == '$' && c->p[1] == 'Q') {
            c->p += 2;
            r = pointer(c, " &&", "");
        } else if (c->p[0] == '$' && c->p[1] == 'R') {
            c->p += 2;
            r = pointer(c, " &&", "volatile");
        } else if (c->p[0] == '$' && c->p[1] == 'T') {
            c->p += 2;
            r = lit(c, "std::nullptr_t");
        } else if (c->p[0] == '$' && c->p[1] == 'C') { /* a cv-qualified type */
            c->p += 2;
            const char *cv = petw__und_cv_text(*c->p);
            if (!cv)
                return fail(c);
            c->p++;
            str t = petw__und_type(c);
            uint32_t at = begin(c);
            addstr(c, t);
            adds(c, cv);
            r = finish(c, at);
        } else {
            return fail(c);
        }
        break;
    default:
        if (ch < 'A' || ch > 'Z' || !primitives[ch - 'A'])
            return fail(c);
        r = lit(c, primitives[ch - 'A']);
    }
    c->depth--;
    return r;
}

/* A function's access and storage, by its kind letter. */
static const char *const function_access[26] = {
    ['A' - 'A'] = "private: ",
    ['B' - 'A'] = "private: ",
    ['C' - 'A'] = "private: static ",
    ['D' - 'A'] = "private: static ",
    ['E' - 'A'] = "private: virtual ",
    ['F' - 'A'] = "private: virtual ",
    ['I' - 'A'] = "protected: ",
    ['J' - 'A'] = "protected: ",
    ['K' - 'A'] = "protected: static ",
    ['L' - 'A'] = "protected: static ",
    ['M' - 'A'] = "protected: virtual ",
    ['N' - 'A'] = "protected: virtual ",
    ['Q' - 'A'] = "public: ",
    ['R' - 'A'] = "public: ",
    ['S' - 'A'] = "public: static ",
    ['T' - 'A'] = "public: static ",
    ['U' - 'A'] = "public: virtual ",
    ['V' - 'A'] = "public: virtual ",
    ['Y' - 'A'] = "",
    ['Z' - 'A'] = "",
};
/* Calling conventions, by their letter. */
static const char *const call_conventions[17] = {
    "__cdecl",   "__cdecl",   "__pascal",   "__pascal",   "__thiscall",   "__thiscall",
    "__stdcall", "__stdcall", "__fastcall", "__fastcall", NULL,           NULL,
    NULL,        NULL,        NULL,         NULL,         "__vectorcall",
};

/* A function's parameters ("X": void; back-references 0-9 to earlier
 * ones; '@' ends the list, 'Z' ends it with "..."): their count, or -1 when
 * the name is damaged (c->failed). */
static int parameter_list(ctx *c, str params[32], int *varargs)
{
    int n = 0;
    if (*c->p == 'X') {
        c->p++;
        params[n++] = lit(c, "void");
        return n;
    }
    while (!c->failed && *c->p != '@' && *c->p != 'Z') {
        if (!*c->p || n == 32) {
            fail(c);
            return -1;
        }
        if (*c->p >= '0' && *c->p <= '9') {
            int i = *c->p++ - '0';
            if (i >= c->refs.param_count) {
                fail(c);
                return -1;
            }
            params[n++] = c->refs.params[i];
            continue;
        }
        const char *at = c->p;
        params[n++] = petw__und_type(c);
        if (!c->failed && c->p - at > 1 && c->refs.param_count < MAX_REFS)
            c->refs.params[c->refs.param_count++] = params[n - 1];
    }
    if (c->failed)
        return -1;
    if (*c->p == 'Z')
        *varargs = 1;
    c->p++; /* '@' or 'Z' */
    return n;
}

/* A function's type after its name, printed around it as
 * "public: virtual int __cdecl ns::C::f(int, char const *) const". */
str petw__und_function_signature(ctx *c, str name)
{
    char kind = *c->p;
    if (kind < 'A' || kind > 'Z' || !function_access[kind - 'A'])
        return fail(c);
    c->p++;
    const char *this_cv = "";
    if (!strchr("CDKLSTYZ", kind)) { /* a member that is not static: `this` */
        while (*c->p == 'E' || *c->p == 'F' || *c->p == 'I')
            c->p++;
        this_cv = petw__und_cv_text(*c->p);
        if (!this_cv)
            return fail(c);
        c->p++;
    }
    if (*c->p < 'A' || *c->p > 'Q' || !call_conventions[*c->p - 'A'])
        return fail(c);
    const char *convention = call_conventions[*c->p++ - 'A'];
    str ret = {0, 0};
    int has_ret = 0;
    if (*c->p == '@') { /* constructors and destructors return nothing */
        c->p++;
    } else {
        if (c->p[0] == '?' && petw__und_cv_text(c->p[1]))
            c->p += 2;
        ret = petw__und_type(c);
        has_ret = 1;
    }
    str params[32];
    int varargs = 0, n = parameter_list(c, params, &varargs);
    if (n < 0)
        return (str){0, 0};
    if (*c->p != 'Z') /* the exception specification */
        return fail(c);
    c->p++;
    if (c->failed)
        return (str){0, 0};
    uint32_t at = begin(c);
    adds(c, function_access[kind - 'A']);
    if (has_ret) {
        addstr(c, ret);
        adds(c, " ");
    }
    adds(c, convention);
    adds(c, " ");
    addstr(c, name);
    adds(c, "(");
    for (int i = 0; i < n; i++) {
        if (i)
            adds(c, ", ");
        addstr(c, params[i]);
    }
    if (varargs)
        adds(c, n ? ", ..." : "...");
    adds(c, ")");
    adds(c, this_cv);
    return finish(c, at);
}
