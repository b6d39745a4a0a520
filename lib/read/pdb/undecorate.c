/* SPDX-License-Identifier: MIT */
/* undecorate.c - the name part of MSVC-decorated names (undecorate.h).
 *
 * The scheme, as Microsoft's compilers write it and as public descriptions
 * of it (LLVM's MicrosoftDemangle, Agner Fog's "Calling conventions")
 * document:
 *   ?name@scope@outer@@<type>    names innermost first, each ended by '@',
 *                                the list by another '@'
 *   0-9                          a back-reference to the n-th name
 *                                fragment read so far (up to ten)
 *   ?$name@args@                 a template instance; its arguments are read
 *                                with back-references of their own
 *   ?0 ?1 ?4 ... ?_U ?__L        constructor, destructor, operators and the
 *                                compiler's special functions
 *   ?A0x1234abcd@                an anonymous namespace
 *   ?1??f@@YAXXZ                 the second block of local names of the
 *                                function f, whose type follows its name
 *                                (access, `this`, calling convention,
 *                                return and parameter types, the latter
 *                                with back-references 0-9 of their own)
 *   ??_7 ??_8 ??_R0-4            vftables, vbtables and RTTI records
 * Types (in template arguments) are letters (H int, _N bool), pointers and
 * references (P/Q/R/S/A/B, "$$Q") with their cv-qualifiers, and class,
 * struct, union and enum names (V/U/T/W4); integer arguments "$0" an encoded
 * number: '?' for negative, then 0-9 for 1-10 or hex digits A-P ended by '@'.
 *
 * Every string is built in a fixed pool; a parse that runs out of pool,
 * depth or input fails and the caller keeps the decorated name. This file
 * reads the names and the special names; undecorate_types.c the types and
 * functions' signatures.
 */
#include "undecorate.h"
#include "undecorate_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int same(const ctx *c, str a, str b)
{
    return a.len == b.len && !memcmp(c->pool + a.at, c->pool + b.at, a.len);
}

/* Remembers a name fragment for back-references: the first ten distinct. */
static void memorize(ctx *c, str s)
{
    if (c->failed)
        return;
    for (int i = 0; i < c->refs.name_count; i++)
        if (same(c, c->refs.names[i], s))
            return;
    if (c->refs.name_count < MAX_REFS)
        c->refs.names[c->refs.name_count++] = s;
}

static int ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '$' || ch == '<' || ch == '>' || ch == '-' || ch == '.' ||
           (unsigned char)ch >= 0x80;
}

/* An identifier ended by '@' (the '@' read too). */
static str simple_name(ctx *c)
{
    const char *s = c->p;
    while (*c->p && *c->p != '@') {
        if (!ident_char(*c->p))
            return fail(c);
        c->p++;
    }
    if (*c->p != '@' || c->p == s)
        return fail(c);
    uint32_t at = begin(c);
    add(c, s, (size_t)(c->p - s));
    c->p++;
    return finish(c, at);
}

/* MSVC's encoded number: '?' negative; '0'-'9' is 1-10; else hex digits
 * 'A'-'P' ended by '@'. */
static int encoded_number(ctx *c, uint64_t *value, int *negative)
{
    *negative = 0;
    if (*c->p == '?') {
        *negative = 1;
        c->p++;
    }
    if (*c->p >= '0' && *c->p <= '9') {
        *value = (uint64_t)(*c->p - '0') + 1;
        c->p++;
        return 0;
    }
    uint64_t v = 0;
    int digits = 0;
    while (*c->p >= 'A' && *c->p <= 'P') {
        if (++digits > 16)
            return -1;
        v = v << 4 | (uint64_t)(*c->p - 'A');
        c->p++;
    }
    if (*c->p != '@')
        return -1;
    c->p++;
    *value = v;
    return 0;
}

static str number_text(ctx *c)
{
    uint64_t v;
    int negative;
    if (encoded_number(c, &v, &negative) < 0)
        return fail(c);
    char buf[32];
    snprintf(buf, sizeof(buf), "%s%llu", negative ? "-" : "", (unsigned long long)v);
    return lit(c, buf);
}

static str local_scope(ctx *c);

static str operator_name(ctx *c);

/* After "?$": "name@args@" (or an operator's code, then the arguments),
 * printed as "name<args>". */
static str template_name(ctx *c)
{
    if (++c->depth > MAX_DEPTH)
        return fail(c);
    refs outer = c->refs; /* a template's arguments have back-references of their own */
    c->refs.name_count = 0;
    c->refs.param_count = 0;
    str name;
    if (*c->p == '?') {
        c->p++;
        name = operator_name(c);
    } else {
        name = simple_name(c);
        memorize(c, name);
    }
    str args[64];
    int n = 0;
    while (!c->failed && *c->p != '@') {
        if (!*c->p || n == 64)
            return fail(c);
        if (c->p[0] == '$' && c->p[1] == '0') { /* an integer */
            c->p += 2;
            args[n++] = number_text(c);
        } else if (!strncmp(c->p, "$$V", 3) || !strncmp(c->p, "$$Z", 3)) {
            c->p += 3; /* an empty pack, a pack's end */
        } else if (c->p[0] == '$' && c->p[1] != '$') {
            return fail(c); /* pointers to members, addresses of symbols: not read */
        } else {
            args[n++] = petw__und_type(c);
        }
    }
    if (c->failed)
        return (str){0, 0};
    c->p++; /* the '@' ending the arguments */
    c->refs = outer;
    c->depth--;
    uint32_t at = begin(c);
    addstr(c, name);
    adds(c, "<");
    for (int i = 0; i < n; i++) {
        if (i)
            adds(c, ",");
        addstr(c, args[i]);
    }
    if (n && args[n - 1].len && c->pool[args[n - 1].at + args[n - 1].len - 1] == '>')
        adds(c, " ");
    adds(c, ">");
    return finish(c, at);
}

/* A scope fragment: a back-reference, a template, an anonymous namespace
 * or an identifier (the last two remembered). */
str petw__und_name_fragment(ctx *c)
{
    if (*c->p >= '0' && *c->p <= '9') {
        int i = *c->p++ - '0';
        if (i >= c->refs.name_count)
            return fail(c);
        return c->refs.names[i];
    }
    if (c->p[0] == '?' && c->p[1] == '$') {
        c->p += 2;
        str s = template_name(c);
        memorize(c, s);
        return s;
    }
    if (c->p[0] == '?' && c->p[1] == 'A' && c->p[2] == '0' && c->p[3] == 'x') {
        c->p += 2;
        const char *end = strchr(c->p, '@');
        if (!end)
            return fail(c);
        c->p = end + 1;
        str s = lit(c, "`anonymous namespace'");
        memorize(c, s);
        return s;
    }
    if (*c->p == '?')
        return local_scope(c);
    str s = simple_name(c);
    memorize(c, s);
    return s;
}

/* The scopes after a symbol's or type's first fragment, up to the '@'
 * ending them: "first" qualified by them, outermost first. */
str petw__und_qualified_name(ctx *c, str first)
{
    str parts[32];
    int n = 0;
    parts[n++] = first;
    while (!c->failed && *c->p != '@') {
        if (!*c->p || n == 32)
            return fail(c);
        parts[n++] = petw__und_name_fragment(c);
    }
    if (c->failed)
        return (str){0, 0};
    c->p++;
    uint32_t at = begin(c);
    for (int i = n - 1; i >= 0; i--) {
        addstr(c, parts[i]);
        if (i)
            adds(c, "::");
    }
    return finish(c, at);
}

static const char *const operators[36] = {
    [2] = "operator new", [3] = "operator delete", [4] = "operator=",   [5] = "operator>>",
    [6] = "operator<<",   [7] = "operator!",       [8] = "operator==",  [9] = "operator!=",
    [10] = "operator[]",  [12] = "operator->",     [13] = "operator*",  [14] = "operator++",
    [15] = "operator--",  [16] = "operator-",      [17] = "operator+",  [18] = "operator&",
    [19] = "operator->*", [20] = "operator/",      [21] = "operator%",  [22] = "operator<",
    [23] = "operator<=",  [24] = "operator>",      [25] = "operator>=", [26] = "operator,",
    [27] = "operator()",  [28] = "operator~",      [29] = "operator^",  [30] = "operator|",
    [31] = "operator&&",  [32] = "operator||",     [33] = "operator*=", [34] = "operator+=",
    [35] = "operator-=",
};
static const char *const underscore_ops[36] = {
    [0] = "operator/=",
    [1] = "operator%=",
    [2] = "operator>>=",
    [3] = "operator<<=",
    [4] = "operator&=",
    [5] = "operator|=",
    [6] = "operator^=",
    [7] = "`vftable'",
    [8] = "`vbtable'",
    [9] = "`vcall'",
    [10] = "`typeof'",
    [11] = "`local static guard'",
    [12] = "`string'",
    [13] = "`vbase destructor'",
    [14] = "`vector deleting destructor'",
    [15] = "`default constructor closure'",
    [16] = "`scalar deleting destructor'",
    [17] = "`vector constructor iterator'",
    [18] = "`vector destructor iterator'",
    [19] = "`vector vbase constructor iterator'",
    [20] = "`virtual displacement map'",
    [21] = "`eh vector constructor iterator'",
    [22] = "`eh vector destructor iterator'",
    [23] = "`eh vector vbase constructor iterator'",
    [24] = "`copy constructor closure'",
    [28] = "`local vftable'",
    [29] = "`local vftable constructor closure'",
    [30] = "operator new[]",
    [31] = "operator delete[]",
    [33] = "`placement delete closure'",
    [34] = "`placement delete[] closure'",
};
static const char *const double_underscore_ops[36] = {
    [10] = "`managed vector constructor iterator'",
    [11] = "`managed vector destructor iterator'",
    [12] = "`eh vector copy constructor iterator'",
    [13] = "`eh vector vbase copy constructor iterator'",
    [16] = "`vector copy constructor iterator'",
    [17] = "`vector vbase copy constructor iterator'",
    [18] = "`managed vector vbase copy constructor iterator'",
    [19] = "`local static thread guard'",
    [21] = "operator co_await",
    [22] = "operator<=>",
};

static int code_index(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A' + 10;
    return -1;
}

/* The operator or special name after '?' (not ?0/?1/?B, which need the
 * class or the type: the caller reads those). */
static str operator_name(ctx *c)
{
    const char *const *table = operators;
    if (c->p[0] == '_' && c->p[1] == '_') {
        table = double_underscore_ops;
        c->p += 2;
    } else if (c->p[0] == '_') {
        table = underscore_ops;
        c->p++;
    }
    int i = code_index(*c->p);
    if (i < 0 || !table[i])
        return fail(c);
    c->p++;
    return lit(c, table[i]);
}

/* "6B" and the "{for `Base'}" names after a vftable's or locator's name. */
static str vftable_tail(ctx *c, str name)
{
    if ((*c->p != '6' && *c->p != '7') || !petw__und_cv_text(c->p[1]))
        return fail(c);
    c->p += 2;
    str bases[8];
    int n = 0;
    while (!c->failed && *c->p != '@') {
        if (!*c->p || n == 8)
            return fail(c);
        bases[n++] = petw__und_type_name(c);
    }
    if (c->failed)
        return (str){0, 0};
    c->p++;
    uint32_t at = begin(c);
    addstr(c, name);
    for (int i = 0; i < n; i++) {
        adds(c, "{for `");
        addstr(c, bases[i]);
        adds(c, "'}");
    }
    return finish(c, at);
}

/* An RTTI record after "??_R". */
static str rtti(ctx *c)
{
    if (!*c->p)
        return fail(c);
    char kind = *c->p++;
    if (kind == '0') { /* a type descriptor: "?A" then the type, "@8" */
        if (c->p[0] != '?' || !petw__und_cv_text(c->p[1]))
            return fail(c);
        c->p += 2;
        str t = petw__und_type(c);
        if (c->failed || strcmp(c->p, "@8") != 0)
            return fail(c);
        uint32_t at = begin(c);
        addstr(c, t);
        adds(c, " `RTTI Type Descriptor'");
        return finish(c, at);
    }
    if (kind == '1') { /* a base class descriptor: four numbers, the class */
        str n[4];
        for (int i = 0; i < 4; i++)
            n[i] = number_text(c);
        str cls = petw__und_type_name(c);
        if (c->failed || strcmp(c->p, "8") != 0)
            return fail(c);
        uint32_t at = begin(c);
        addstr(c, cls);
        adds(c, "::`RTTI Base Class Descriptor at (");
        for (int i = 0; i < 4; i++) {
            if (i)
                adds(c, ",");
            addstr(c, n[i]);
        }
        adds(c, ")'");
        return finish(c, at);
    }
    static const char *const names[] = {"`RTTI Base Class Array'",
                                        "`RTTI Class Hierarchy Descriptor'",
                                        "`RTTI Complete Object Locator'"};
    if (kind < '2' || kind > '4')
        return fail(c);
    str cls = petw__und_type_name(c);
    uint32_t at = begin(c);
    addstr(c, cls);
    adds(c, "::");
    adds(c, names[kind - '2']);
    str s = finish(c, at);
    if (kind == '4')
        return vftable_tail(c, s);
    if (c->failed || strcmp(c->p, "8") != 0)
        return fail(c);
    return s;
}

/* The type a conversion operator converts to: its function's return type,
 * after the access and calling convention codes. */
static str conversion_type(ctx *c)
{
    if (*c->p < 'A' || *c->p > 'Z')
        return fail(c);
    char access = *c->p++;
    /* Members that are not static (codes other than C, D, K, L, S, T, Y, Z)
     * carry __ptr64 and the cv-qualifiers of `this`. */
    if (!strchr("CDKLSTYZ", access)) {
        while (*c->p == 'E' || *c->p == 'F' || *c->p == 'I')
            c->p++;
        if (!petw__und_cv_text(*c->p))
            return fail(c);
        c->p++;
    }
    if (*c->p < 'A' || *c->p > 'Q')
        return fail(c); /* the calling convention */
    c->p++;
    if (c->p[0] == '?' && petw__und_cv_text(c->p[1]))
        c->p += 2; /* the return type's own cv-qualifiers */
    return petw__und_type(c);
}

static str symbol(ctx *c)
{
    if (*c->p != '?')
        return fail(c);
    c->p++;
    if (*c->p != '?') { /* ?name@scopes@@ */
        str first = simple_name(c);
        memorize(c, first);
        return petw__und_qualified_name(c, first);
    }
    c->p++;
    if (*c->p == '$') { /* ??$template@args@scopes@@ */
        c->p++;
        return petw__und_qualified_name(c, template_name(c));
    }
    if (c->p[0] == '_' && c->p[1] == 'C' && c->p[2] == '@')
        return lit(c, "`string'");
    if (c->p[0] == '_' && c->p[1] == 'R') {
        c->p += 2;
        return rtti(c);
    }
    if (*c->p == '0' || *c->p == '1') { /* constructor, destructor: the class's name */
        int dtor = *c->p++ == '1';
        const char *at_scope = c->p;
        int count = c->refs.name_count;
        str cls = petw__und_name_fragment(c);
        c->p = at_scope; /* read again as the scope */
        c->refs.name_count = count;
        uint32_t at = begin(c);
        adds(c, dtor ? "~" : "");
        addstr(c, cls);
        return petw__und_qualified_name(c, finish(c, at));
    }
    if (*c->p == 'B') { /* operator T: T is the function's return type */
        c->p++;
        str name = petw__und_qualified_name(c, lit(c, "operator"));
        if (c->failed)
            return name;
        str t = conversion_type(c);
        uint32_t at = begin(c);
        addstr(c, name);
        adds(c, " ");
        addstr(c, t);
        return finish(c, at);
    }
    int vftable = (c->p[0] == '_' && (c->p[1] == '7' || c->p[1] == '8'));
    str name = petw__und_qualified_name(c, operator_name(c));
    if (vftable && !c->failed)
        return vftable_tail(c, name);
    return name;
}
/* "?1??f@@YAXXZ": the second block of function f's local names, printed as
 * "`void __cdecl f(void)'::`2'" (the function's whole signature, as Windows
 * tools print it; back-references are shared with the enclosing name). */
static str local_scope(ctx *c)
{
    c->p++; /* '?' */
    if (c->failed || ++c->depth > MAX_DEPTH)
        return fail(c);
    str number = number_text(c);
    if (c->failed || *c->p != '?' || c->p[1] != '?')
        return fail(c);
    c->p++;
    str name = symbol(c);
    if (c->failed)
        return name;
    str sig = petw__und_function_signature(c, name);
    uint32_t at = begin(c);
    adds(c, "`");
    addstr(c, sig);
    adds(c, "'::`");
    addstr(c, number);
    adds(c, "'");
    c->depth--;
    return finish(c, at);
}

int petw__pdb_undecorate(const char *name, char *out, size_t cap)
{
    if (!name || name[0] != '?' || !out || !cap)
        return -1;
    ctx cx;
    ctx *c = &cx;
    c->p = name;
    c->depth = 0;
    c->failed = 0;
    c->refs.name_count = 0;
    c->refs.param_count = 0;
    c->used = 0;
    str s = symbol(c);
    if (c->failed || s.len >= cap)
        return -1;
    memcpy(out, c->pool + s.at, s.len);
    out[s.len] = 0;
    return (int)s.len;
}
