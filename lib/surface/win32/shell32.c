/* SPDX-License-Identifier: MIT */
/* shell32.c - the command line as Windows programs read it, for non-Windows
 * hosts: GetCommandLineW/A (processenv.h) and CommandLineToArgvW
 * (<shellapi.h>), and the UTF-8 to wchar_t conversion the Win32 layer's
 * wide strings are made with. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "win32_internal.h"

#include <shellapi.h> /* after <windows.h>, as Windows' own requires */

#if !defined(_WIN32)

wchar_t *petw__widen_utf8(const char *s)
{
    size_t len = 0;
    while (s[len])
        len++;
    wchar_t *w = malloc((len + 1) * sizeof(wchar_t));
    if (!w)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;
    while (*p) {
        unsigned c = *p, need = c >= 0xF0 && c < 0xF5 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 ? 1 : 0;
        if (c >= 0xF5)
            need = 0;
        uint32_t v = need == 3 ? c & 7 : need == 2 ? c & 15 : c & 31;
        unsigned i = 1;
        for (; need && i <= need && (p[i] & 0xC0) == 0x80; i++)
            v = v << 6 | (p[i] & 0x3F);
        int ok = need && i == need + 1 &&
                 !(need == 2 && (v < 0x800 || (v >= 0xD800 && v < 0xE000))) &&
                 !(need == 3 && (v < 0x10000 || v > 0x10FFFF));
        if (ok) {
            w[n++] = (wchar_t)v;
            p += need + 1;
        } else {
            w[n++] = (wchar_t)c;
            p++;
        }
    }
    w[n] = 0;
    return w;
}

/* ---- The command line ---- */

/* Appends `arg` to `out` (at *n, growing *cap), quoted as Windows' parser
 * expects: as is when it has no space, tab or quote and is not empty; else
 * in quotes, with backslashes doubled before a quote or the closing quote. */
static int append_quoted(char **out, size_t *n, size_t *cap, const char *arg)
{
    size_t len = strlen(arg), need = *n + 2 * len + 4;
    int plain = len && !strpbrk(arg, " \t\"");
    if (need > *cap) {
        char *p = realloc(*out, need * 2);
        if (!p)
            return -1;
        *out = p;
        *cap = need * 2;
    }
    char *o = *out + *n;
    if (*n)
        *o++ = ' ';
    if (plain) {
        memcpy(o, arg, len);
        o += len;
    } else {
        *o++ = '"';
        for (const char *a = arg;; a++) {
            size_t slashes = 0;
            while (*a == '\\') {
                slashes++;
                a++;
            }
            if (!*a || *a == '"') {
                /* Before a quote (the argument's or the closing one): doubled. */
                memset(o, '\\', slashes * 2);
                o += slashes * 2;
                if (!*a)
                    break;
                *o++ = '\\';
                *o++ = '"';
            } else {
                memset(o, '\\', slashes);
                o += slashes;
                *o++ = *a;
            }
        }
        *o++ = '"';
    }
    *o = 0;
    *n = (size_t)(o - *out);
    return 0;
}

/* The command line, built once: the first caller to finish installs it. */
static _Atomic(char *) command_line_a;
static _Atomic(wchar_t *) command_line_w;

static void build_command_line(void)
{
    char *raw = NULL, *out;
    size_t rn = 0, n = 0, cap = 0;
    wchar_t *w = NULL;
    char *expect_a = NULL;
    if (petw__own_command_line(&raw, &rn) != 0)
        return;
    out = calloc(1, 1);
    for (size_t i = 0; out && i < rn; i += strlen(raw + i) + 1) {
        if (append_quoted(&out, &n, &cap, raw + i) != 0) {
            free(out);
            out = NULL;
        }
    }
    free(raw);
    if (!out || !(w = petw__widen_utf8(out))) {
        free(out);
        return;
    }
    /* seq_cst: publishes the narrow string's bytes (written above) to the
     * loads in GetCommandLineA/W; pairs with them. */
    if (atomic_compare_exchange_strong(&command_line_a, &expect_a, out)) {
        /* seq_cst: publishes the wide string to GetCommandLineW's loads. */
        atomic_store(&command_line_w, w);
    } else {
        free(out);
        free(w);
    }
}

LPSTR GetCommandLineA(void)
{
    /* seq_cst: pairs with build_command_line's compare-exchange (the
     * string's bytes are visible once its pointer is). */
    if (!atomic_load(&command_line_a))
        build_command_line();
    /* seq_cst: as above. */
    return atomic_load(&command_line_a);
}

LPWSTR GetCommandLineW(void)
{
    /* seq_cst: pairs with build_command_line's compare-exchange. */
    if (!atomic_load(&command_line_a))
        build_command_line();
    /* seq_cst: pairs with build_command_line's compare-exchange and store.
     * Another thread may have installed the narrow string and not yet the
     * wide one: wait for it (a few stores away). */
    while (atomic_load(&command_line_a) && !atomic_load(&command_line_w))
        ;
    /* seq_cst: pairs with build_command_line's store of the wide string. */
    return atomic_load(&command_line_w);
}

/* Splits `line` into `args` (each NUL-terminated, written to `buf` when it
 * is not NULL); returns the argument count and sets *chars to the
 * characters written. Windows' rules (the program name: up to the next
 * space or tab, or quoted; no backslash rules in it). */
static int split(const wchar_t *line, wchar_t **args, wchar_t *buf, size_t *chars)
{
    const wchar_t *p = line;
    size_t used = 0;
    int argc = 0;
#define PUT(ch)                                                                                    \
    do {                                                                                           \
        wchar_t put_ = (ch); /* evaluated (p++) whether or not it is stored */                     \
        if (buf)                                                                                   \
            buf[used] = put_;                                                                      \
        used++;                                                                                    \
    } while (0)
    /* The program name. */
    if (args)
        args[argc] = buf + used;
    argc++;
    if (*p == L'"') {
        for (p++; *p && *p != L'"'; p++)
            PUT(*p);
        if (*p == L'"')
            p++;
    } else {
        for (; *p && *p != L' ' && *p != L'\t'; p++)
            PUT(*p);
    }
    PUT(0);
    for (;;) {
        int quoted = 0;
        while (*p == L' ' || *p == L'\t')
            p++;
        if (!*p)
            break;
        if (args)
            args[argc] = buf + used;
        argc++;
        while (*p && (quoted || (*p != L' ' && *p != L'\t'))) {
            size_t slashes = 0;
            while (*p == L'\\') {
                slashes++;
                p++;
            }
            if (*p == L'"') {
                for (size_t i = 0; i < slashes / 2; i++)
                    PUT(L'\\');
                if (slashes % 2) {
                    PUT(L'"');
                    p++;
                } else if (quoted && p[1] == L'"') { /* "" inside quotes: a quote */
                    PUT(L'"');
                    p += 2;
                } else {
                    quoted = !quoted;
                    p++;
                }
            } else {
                for (size_t i = 0; i < slashes; i++)
                    PUT(L'\\');
                if (*p && (quoted || (*p != L' ' && *p != L'\t')))
                    PUT(*p++);
            }
        }
        PUT(0);
    }
#undef PUT
    *chars = used;
    return argc;
}

LPWSTR *CommandLineToArgvW(LPCWSTR lpCmdLine, int *pNumArgs)
{
    size_t chars = 0;
    int argc;
    LPWSTR *argv;
    if (!pNumArgs) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return NULL;
    }
    if (!lpCmdLine || !*lpCmdLine) {
        /* Windows: the program's path. */
        LPWSTR all = GetCommandLineW();
        LPWSTR *whole = all ? CommandLineToArgvW(all, pNumArgs) : NULL;
        if (whole)
            *pNumArgs = 1;
        return whole;
    }
    argc = split(lpCmdLine, NULL, NULL, &chars);
    argv = (LPWSTR *)LocalAlloc(LPTR, (size_t)(argc + 1) * sizeof(LPWSTR) + chars * sizeof(WCHAR));
    if (!argv)
        return NULL;
    split(lpCmdLine, argv, (wchar_t *)(argv + argc + 1), &chars);
    argv[argc] = NULL;
    *pNumArgs = argc;
    return argv;
}

#else
typedef int petw__no_win32_shims; /* Windows: the system's */
#endif
