/* etw_wmain.c - the entry point for programs whose entry point is wmain
 * (<tchar.h>'s _tmain with _UNICODE), which Linux's C runtime never calls.
 *
 * This object defines only `main`, weakly, so a static link pulls it in
 * only for a program that defines no main of its own (and any strong main
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

/* UTF-8 to wchar_t: a fresh string, or NULL (also for GetCommandLineW). */
wchar_t *petw__widen_utf8(const char *s);
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
__attribute__((weak)) int main(int argc, char **argv)
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
