/* SPDX-License-Identifier: MIT */
/* msvcrt.c - the Microsoft C runtime functions <windows.h> declares for
 * non-Windows hosts (Windows has its own): the wide and secure printf
 * functions, the secure string copies and _wfullpath. The time functions
 * are kernelbase_time.c's, StringFromGUID2 ole32.c's. */
#define PETW_NO_MSVC_WPRINTF /* this file calls the C library's wide printf */
#include <errno.h>
#include <stdlib.h>

#include "win32_internal.h"

#if !defined(_WIN32)

/* Rewrites a wide format from Windows' reading to glibc's: %s and %c wide,
 * %S, %C, %hs and %hc narrow; I64 -> ll, I32 -> (none), I -> z, w -> l,
 * and L before a floating conversion dropped (MSVC's long double is a
 * double, so Windows code passes one).
 * The result is at most twice as long as the input. */
static void ms_format(const wchar_t *in, wchar_t *out)
{
    while (*in) {
        if (*in != L'%') {
            *out++ = *in++;
            continue;
        }
        *out++ = *in++;
        if (*in == L'%') {
            *out++ = *in++;
            continue;
        }
        while (*in && wcschr(L"-+ #0'", *in))
            *out++ = *in++;
        while (*in == L'*' || (*in >= L'0' && *in <= L'9'))
            *out++ = *in++;
        if (*in == L'.') {
            *out++ = *in++;
            while (*in == L'*' || (*in >= L'0' && *in <= L'9'))
                *out++ = *in++;
        }
        int size = 0; /* 0 none, 'h' narrow, 'l' wide, other: copied */
        wchar_t len[3] = {0};
        if (in[0] == L'I' && in[1] == L'6' && in[2] == L'4') {
            wcscpy(len, L"ll"), in += 3;
        } else if (in[0] == L'I' && in[1] == L'3' && in[2] == L'2') {
            in += 3;
        } else if (in[0] == L'I') {
            wcscpy(len, L"z"), in++;
        } else if (in[0] == L'h' && in[1] == L'h') {
            wcscpy(len, L"hh"), in += 2, size = 'h';
        } else if (in[0] == L'l' && in[1] == L'l') {
            wcscpy(len, L"ll"), in += 2;
        } else if (in[0] == L'h') {
            wcscpy(len, L"h"), in++, size = 'h';
        } else if (in[0] == L'l' || in[0] == L'w') {
            wcscpy(len, L"l"), in++, size = 'l';
        } else if (in[0] == L'L' && in[1] && wcschr(L"aAeEfFgG", in[1])) {
            in++; /* MSVC's long double is a double: %Lf reads a double */
        } else if (*in && wcschr(L"Ljzt", *in)) {
            len[0] = *in++;
        }
        wchar_t conv = *in;
        if (conv == L's' || conv == L'c' || conv == L'S' || conv == L'C') {
            int wide = size == 'l' || (size == 0 && (conv == L's' || conv == L'c'));
            if (wide)
                *out++ = L'l';
            *out++ = (conv == L's' || conv == L'S') ? L's' : L'c';
            in++;
            continue;
        }
        for (int i = 0; len[i]; i++)
            *out++ = len[i];
        if (conv)
            *out++ = *in++;
    }
    *out = 0;
}

#define MAX_OUT (1u << 20)

/* Formats into *buf (initially `stack`, of `n` characters), growing it on
 * the heap up to MAX_OUT characters. Returns the length, or -1. */
static int format_alloc(wchar_t **buf, wchar_t *stack, size_t n, const wchar_t *format,
                        va_list args)
{
    size_t flen = wcslen(format);
    wchar_t fstack[256];
    wchar_t *f = flen * 2 + 1 <= 256 ? fstack : malloc((flen * 2 + 1) * sizeof(wchar_t));
    if (!f)
        return -1;
    ms_format(format, f);
    *buf = stack;
    int r = -1;
    for (;;) {
        va_list ap;
        va_copy(ap, args);
        r = vswprintf(*buf, n, f, ap);
        va_end(ap);
        if (r >= 0 || n >= MAX_OUT)
            break;
        n *= 2;
        wchar_t *grown = malloc(n * sizeof(wchar_t));
        if (*buf != stack)
            free(*buf);
        *buf = grown;
        if (!grown)
            break;
    }
    if (f != fstack)
        free(f);
    return r;
}

/* Writes wide text to a stream: wide characters if the stream is
 * wide-oriented, else UTF-8. Returns 0 or -1. */
static int put_text(FILE *stream, const wchar_t *s, size_t len)
{
    if (fwide(stream, 0) > 0) {
        for (size_t i = 0; i < len; i++)
            if (fputwc(s[i], stream) == WEOF)
                return -1;
        return 0;
    }
    char u[256];
    for (size_t i = 0; i < len;) {
        size_t k = 0;
        /* Whole characters per chunk: at most 4 UTF-8 bytes each. */
        while (i < len && k + 4 < sizeof(u)) {
            uint32_t c = (uint32_t)s[i++];
            if (c >= 0xD800 && (c <= 0xDFFF || c > 0x10FFFF))
                c = 0xFFFD;
            if (c < 0x80) {
                u[k++] = (char)c;
            } else if (c < 0x800) {
                u[k++] = (char)(0xC0 | c >> 6);
                u[k++] = (char)(0x80 | (c & 0x3F));
            } else if (c < 0x10000) {
                u[k++] = (char)(0xE0 | c >> 12);
                u[k++] = (char)(0x80 | (c >> 6 & 0x3F));
                u[k++] = (char)(0x80 | (c & 0x3F));
            } else {
                u[k++] = (char)(0xF0 | c >> 18);
                u[k++] = (char)(0x80 | (c >> 12 & 0x3F));
                u[k++] = (char)(0x80 | (c >> 6 & 0x3F));
                u[k++] = (char)(0x80 | (c & 0x3F));
            }
        }
        if (fwrite(u, 1, k, stream) != k)
            return -1;
    }
    return 0;
}

int vfwprintf_s(FILE *stream, const wchar_t *format, va_list args)
{
    if (!stream || !format)
        return -1;
    wchar_t stack[512], *buf;
    int r = format_alloc(&buf, stack, 512, format, args);
    if (r >= 0 && put_text(stream, buf, (size_t)r) != 0)
        r = -1;
    if (buf != stack)
        free(buf);
    return r;
}

int vwprintf_s(const wchar_t *format, va_list args)
{
    return vfwprintf_s(stdout, format, args);
}

int fwprintf_s(FILE *stream, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfwprintf_s(stream, format, ap);
    va_end(ap);
    return r;
}

int wprintf_s(const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfwprintf_s(stdout, format, ap);
    va_end(ap);
    return r;
}

int _vsnwprintf_s(wchar_t *buffer, size_t sizeOfBuffer, size_t count, const wchar_t *format,
                  va_list args)
{
    if (!buffer || sizeOfBuffer == 0 || !format) {
        errno = EINVAL;
        return -1;
    }
    wchar_t stack[512], *buf;
    int r = format_alloc(&buf, stack, 512, format, args);
    int out = r;
    size_t n = r < 0 ? 0 : (size_t)r;
    if (r >= 0 && (count == _TRUNCATE || count < sizeOfBuffer)) {
        size_t room = count == _TRUNCATE ? sizeOfBuffer - 1 : count;
        if (n > room) {
            n = room; /* truncated, as asked */
            out = -1;
        }
    } else if (r >= 0 && n >= sizeOfBuffer) {
        errno = ERANGE; /* count allows more than the buffer holds */
        n = 0;
        out = -1;
    }
    wmemcpy(buffer, buf, n);
    buffer[n] = 0;
    if (buf != stack)
        free(buf);
    return out;
}

int _snwprintf_s(wchar_t *buffer, size_t sizeOfBuffer, size_t count, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = _vsnwprintf_s(buffer, sizeOfBuffer, count, format, ap);
    va_end(ap);
    return r;
}

int vswprintf_s(wchar_t *buffer, size_t sizeOfBuffer, const wchar_t *format, va_list args)
{
    if (!buffer || sizeOfBuffer == 0 || !format) {
        errno = EINVAL;
        return -1;
    }
    wchar_t stack[512], *buf;
    int r = format_alloc(&buf, stack, 512, format, args);
    if (r >= 0 && (size_t)r < sizeOfBuffer) {
        wmemcpy(buffer, buf, (size_t)r + 1);
    } else {
        buffer[0] = 0;
        errno = ERANGE;
        r = -1;
    }
    if (buf != stack)
        free(buf);
    return r;
}

int swprintf_s(wchar_t *buffer, size_t sizeOfBuffer, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vswprintf_s(buffer, sizeOfBuffer, format, ap);
    va_end(ap);
    return r;
}

/* The plain wide printf family <windows.h> maps wprintf, swprintf, ... to:
 * the same reading of the format as the _s functions, without their
 * parameter checks. */
int petw_vfwprintf(FILE *stream, const wchar_t *format, va_list args)
{
    return vfwprintf_s(stream, format, args);
}

int petw_vwprintf(const wchar_t *format, va_list args)
{
    return vfwprintf_s(stdout, format, args);
}

int petw_fwprintf(FILE *stream, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfwprintf_s(stream, format, ap);
    va_end(ap);
    return r;
}

int petw_wprintf(const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfwprintf_s(stdout, format, ap);
    va_end(ap);
    return r;
}

int petw_vswprintf(wchar_t *buffer, size_t count, const wchar_t *format, va_list args)
{
    if (!format || (!buffer && count > 0)) {
        errno = EINVAL;
        return -1;
    }
    wchar_t stack[512], *buf;
    int r = format_alloc(&buf, stack, 512, format, args);
    if (count > 0) {
        size_t n = r < 0 ? 0 : (size_t)r;
        if (n >= count) {
            n = count - 1; /* what fits stays, as the C library's does */
            r = -1;
        }
        wmemcpy(buffer, buf, n);
        buffer[n] = 0;
    } else {
        r = -1;
    }
    if (buf != stack)
        free(buf);
    return r;
}

int petw_swprintf(wchar_t *buffer, size_t count, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = petw_vswprintf(buffer, count, format, ap);
    va_end(ap);
    return r;
}

int petw_vsnwprintf(wchar_t *buffer, size_t count, const wchar_t *format, va_list args)
{
    if (!format || (!buffer && count > 0)) {
        errno = EINVAL;
        return -1;
    }
    wchar_t stack[512], *buf;
    int r = format_alloc(&buf, stack, 512, format, args);
    if (r >= 0) {
        /* Microsoft's: the whole text, with a NUL if it fits; exactly count
         * characters, no NUL, returns count; longer, count written and -1. */
        size_t n = (size_t)r;
        if (n < count) {
            wmemcpy(buffer, buf, n + 1);
        } else {
            wmemcpy(buffer, buf, count);
            if (n > count)
                r = -1;
        }
    }
    if (buf != stack)
        free(buf);
    return r;
}

int petw_snwprintf(wchar_t *buffer, size_t count, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = petw_vsnwprintf(buffer, count, format, ap);
    va_end(ap);
    return r;
}

int _vsnprintf_s(char *buffer, size_t sizeOfBuffer, size_t count, const char *format, va_list args)
{
    if (!buffer || sizeOfBuffer == 0 || !format) {
        errno = EINVAL;
        return -1;
    }
    size_t room = count == _TRUNCATE || count >= sizeOfBuffer ? sizeOfBuffer - 1 : count;
    int r = vsnprintf(buffer, room + 1, format, args);
    if (r < 0) {
        buffer[0] = 0;
        return -1;
    }
    if ((size_t)r <= room)
        return r;
    if (count == _TRUNCATE || count < sizeOfBuffer)
        return -1; /* truncated, as asked: buffer holds the first `room` */
    buffer[0] = 0;
    errno = ERANGE;
    return -1;
}

int _snprintf_s(char *buffer, size_t sizeOfBuffer, size_t count, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = _vsnprintf_s(buffer, sizeOfBuffer, count, format, ap);
    va_end(ap);
    return r;
}

int vsprintf_s(char *buffer, size_t sizeOfBuffer, const char *format, va_list args)
{
    if (!buffer || sizeOfBuffer == 0 || !format) {
        errno = EINVAL;
        return -1;
    }
    int r = vsnprintf(buffer, sizeOfBuffer, format, args);
    if (r < 0 || (size_t)r >= sizeOfBuffer) {
        buffer[0] = 0;
        errno = ERANGE;
        return -1;
    }
    return r;
}

int sprintf_s(char *buffer, size_t sizeOfBuffer, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vsprintf_s(buffer, sizeOfBuffer, format, ap);
    va_end(ap);
    return r;
}

int _putws(const wchar_t *str)
{
    if (!str || put_text(stdout, str, wcslen(str)) != 0 || put_text(stdout, L"\n", 1) != 0)
        return (int)WEOF;
    return 0;
}

/* The secure copies, for both character types. */
#define SECURE_COPIES(T, cpy_s, ncpy_s, cat_s, LEN)                                                \
    errno_t cpy_s(T *dest, size_t destSize, const T *src)                                          \
    {                                                                                              \
        if (!dest || destSize == 0)                                                                \
            return EINVAL;                                                                         \
        if (!src) {                                                                                \
            dest[0] = 0;                                                                           \
            return EINVAL;                                                                         \
        }                                                                                          \
        size_t n = LEN(src);                                                                       \
        if (n >= destSize) {                                                                       \
            dest[0] = 0;                                                                           \
            return ERANGE;                                                                         \
        }                                                                                          \
        memcpy(dest, src, (n + 1) * sizeof(T));                                                    \
        return 0;                                                                                  \
    }                                                                                              \
    errno_t ncpy_s(T *dest, size_t destSize, const T *src, size_t count)                           \
    {                                                                                              \
        if (!dest || destSize == 0)                                                                \
            return EINVAL;                                                                         \
        if (!src) {                                                                                \
            dest[0] = 0;                                                                           \
            return count == 0 ? 0 : EINVAL;                                                        \
        }                                                                                          \
        size_t n = 0;                                                                              \
        while (n < count && src[n])                                                                \
            n++;                                                                                   \
        errno_t rc = 0;                                                                            \
        if (n >= destSize) {                                                                       \
            if (count != _TRUNCATE) {                                                              \
                dest[0] = 0;                                                                       \
                return ERANGE;                                                                     \
            }                                                                                      \
            n = destSize - 1;                                                                      \
            rc = STRUNCATE;                                                                        \
        }                                                                                          \
        memcpy(dest, src, n * sizeof(T));                                                          \
        dest[n] = 0;                                                                               \
        return rc;                                                                                 \
    }                                                                                              \
    errno_t cat_s(T *dest, size_t destSize, const T *src)                                          \
    {                                                                                              \
        if (!dest || destSize == 0)                                                                \
            return EINVAL;                                                                         \
        size_t at = 0;                                                                             \
        while (at < destSize && dest[at])                                                          \
            at++;                                                                                  \
        if (!src || at == destSize) {                                                              \
            dest[0] = 0;                                                                           \
            return EINVAL;                                                                         \
        }                                                                                          \
        size_t n = LEN(src);                                                                       \
        if (at + n >= destSize) {                                                                  \
            dest[0] = 0;                                                                           \
            return ERANGE;                                                                         \
        }                                                                                          \
        memcpy(dest + at, src, (n + 1) * sizeof(T));                                               \
        return 0;                                                                                  \
    }

SECURE_COPIES(wchar_t, wcscpy_s, wcsncpy_s, wcscat_s, wcslen)
SECURE_COPIES(char, strcpy_s, strncpy_s, strcat_s, strlen)

/* ---- _fullpath, _wfullpath ---- */

/* `path` (absolute) with "//", "/./" and "/../" resolved, in place. */
#define PETW__NORMALIZE(name, ch)                                                                  \
    static void name(ch *path)                                                                     \
    {                                                                                              \
        ch *out = path;                                                                            \
        const ch *in = path;                                                                       \
        while (*in) {                                                                              \
            while (*in == '/')                                                                     \
                in++;                                                                              \
            const ch *end = in;                                                                    \
            while (*end && *end != '/')                                                            \
                end++;                                                                             \
            size_t len = (size_t)(end - in);                                                       \
            if (len == 1 && in[0] == '.') {                                                        \
            } else if (len == 2 && in[0] == '.' && in[1] == '.') {                                 \
                while (out > path && *--out != '/')                                                \
                    ;                                                                              \
            } else if (len) {                                                                      \
                *out++ = '/';                                                                      \
                memmove(out, in, len * sizeof(ch));                                                \
                out += len;                                                                        \
            }                                                                                      \
            in = end;                                                                              \
        }                                                                                          \
        if (out == path)                                                                           \
            *out++ = '/';                                                                          \
        *out = 0;                                                                                  \
    }
PETW__NORMALIZE(normalize_a, char)
PETW__NORMALIZE(normalize_w, wchar_t)

char *_fullpath(char *absPath, const char *relPath, size_t maxLength)
{
    char cwd[4096] = "";
    size_t n;
    char *full, *ret;
    if (!relPath) {
        errno = EINVAL;
        return NULL;
    }
    if (relPath[0] != '/' && petw__working_dir(cwd, sizeof cwd) != 0)
        return NULL;
    n = strlen(cwd) + strlen(relPath) + 3;
    if (!(full = malloc(n)))
        return NULL;
    snprintf(full, n, "%s/%s", cwd, relPath);
    normalize_a(full);
    if (!absPath)
        return full;
    if (strlen(full) + 1 > maxLength) {
        free(full);
        errno = ERANGE;
        return NULL;
    }
    ret = strcpy(absPath, full);
    free(full);
    return ret;
}

wchar_t *_wfullpath(wchar_t *absPath, const wchar_t *relPath, size_t maxLength)
{
    char cwd[4096] = "/";
    wchar_t *wcwd, *full, *ret;
    size_t n;
    if (!relPath) {
        errno = EINVAL;
        return NULL;
    }
    if (relPath[0] != L'/' && petw__working_dir(cwd, sizeof cwd) != 0)
        return NULL;
    if (!(wcwd = petw__widen_utf8(cwd)))
        return NULL;
    n = wcslen(wcwd) + wcslen(relPath) + 3;
    full = malloc(n * sizeof(wchar_t));
    if (!full) {
        free(wcwd);
        return NULL;
    }
    swprintf(full, n, L"%ls/%ls", wcwd, relPath);
    free(wcwd);
    normalize_w(full);
    if (!absPath)
        return full;
    if (wcslen(full) + 1 > maxLength) {
        free(full);
        errno = ERANGE;
        return NULL;
    }
    ret = wcscpy(absPath, full);
    free(full);
    return ret;
}

#endif /* !_WIN32 */
