/* SPDX-License-Identifier: MIT */
/* wmain.c - the entry point for programs whose entry point is wmain
 * (<tchar.h>'s _tmain with _UNICODE), which Linux's C runtime never calls.
 *
 * This object defines `main`, and is an archive of its own (libpetw_wmain,
 * pkg-config petw-wmain) that only a program that asks for it links: no
 * other archive of petw defines main. A static link takes it only when the
 * program defines no main of its own (an archive member is pulled in for an
 * undefined symbol only, so a program's own main always
 * wins). It converts argv and the environment from UTF-8 to wchar_t (a byte
 * that is not part of valid UTF-8 becomes the code point of its value) and
 * calls the program's wmain, in whichever of the standard forms it is
 * defined: from C (the symbol `wmain`) or C++ (`int wmain()`,
 * `int wmain(int, wchar_t **)`, `int wmain(int, wchar_t **, wchar_t **)`,
 * by their Itanium C++ ABI names). The strings live until exit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#if !defined(_WIN32) && (defined(__GNUC__) || defined(__clang__))

/* The C form: `int wmain()`, called with all three arguments (extra
 * arguments are harmless to a function that takes fewer, in every ABI
 * Linux uses). The name is wmain's own; this object declares it without a
 * prototype through a label so that no header's declaration conflicts. */
extern int petw__wmain_c(int, wchar_t **, wchar_t **) __asm__("wmain") __attribute__((weak));
extern int petw__wmain_cpp0(void) __asm__("_Z5wmainv") __attribute__((weak));
extern int petw__wmain_cpp2(int, wchar_t **) __asm__("_Z5wmainiPPw") __attribute__((weak));
extern int petw__wmain_cpp3(int, wchar_t **, wchar_t **) __asm__("_Z5wmainiPPwS0_")
    __attribute__((weak));

extern char **environ;

wchar_t *petw__widen_utf8(const char *s); /* libpetw_win32 (shell32.c) */

static void free_all(wchar_t **w)
{
    for (size_t i = 0; w && w[i]; i++)
        free(w[i]);
    free(w);
}

static wchar_t **widen_all(char **v)
{
    int n = 0;
    while (v && v[n])
        n++;
    wchar_t **w = calloc((size_t)n + 1, sizeof(wchar_t *));
    if (!w)
        return NULL;
    for (int i = 0; i < n; i++) {
        if (!(w[i] = petw__widen_utf8(v[i]))) {
            free_all(w);
            return NULL;
        }
    }
    return w;
}

static int call_wmain(int argc, wchar_t **wargv, wchar_t **wenv)
{
    if (petw__wmain_c)
        return petw__wmain_c(argc, wargv, wenv);
    if (petw__wmain_cpp3)
        return petw__wmain_cpp3(argc, wargv, wenv);
    if (petw__wmain_cpp2)
        return petw__wmain_cpp2(argc, wargv);
    if (petw__wmain_cpp0)
        return petw__wmain_cpp0();
    fputs("the program defines neither main nor wmain\n", stderr);
    return 1;
}

/* The wide arguments and environment live until wmain returns, then are
 * freed (a wmain that calls exit() leaves them to the process's end). */
int main(int argc, char **argv)
{
    wchar_t **wargv = widen_all(argv);
    wchar_t **wenv = widen_all(environ);
    int rc = 1;
    if (!wargv || !wenv)
        fputs("out of memory converting the command line\n", stderr);
    else
        rc = call_wmain(argc, wargv, wenv);
    free_all(wargv);
    free_all(wenv);
    return rc;
}

#else
typedef int petw__no_wmain_entry; /* Windows: the C runtime calls wmain */
#endif
