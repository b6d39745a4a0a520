/* SPDX-License-Identifier: MIT */
/* tchar.h - the generic-text mappings (TCHAR, _T, _tmain, _tprintf, ...),
 * for non-Windows hosts.
 *
 * Part of petw's Win32 layer. On Windows this is the system's.
 * Narrow (char) by default; wide (wchar_t) when _UNICODE or UNICODE is
 * defined, as Visual Studio's "Use Unicode Character Set" projects build.
 *
 * The wide entry point: with _UNICODE, `_tmain` is `wmain`, which Linux's C
 * runtime does not call. libpetw carries a `main` (linked only into a
 * program that defines none of its own, from the static library) that
 * converts the UTF-8 argv and environment to wchar_t strings (an invalid
 * byte becomes the code point of the same value) and calls the program's
 * wmain: `int wmain(void)`, `int wmain(int, wchar_t **)` or
 * `int wmain(int, wchar_t **, wchar_t **)`, from C or C++. A program with
 * its own `main` keeps it. Define PETW_NO_WMAIN before including this
 * header to make `_tmain` plain `main` even with _UNICODE (the program then
 * gets narrow arguments under the wide name _TCHAR: only for code that
 * never reads argv).
 *
 * The wide _t* functions map onto the C library's wide functions (wcslen,
 * wcscmp, ...). Printf-style ones (_tprintf, _stprintf_s, ...) map onto
 * <windows.h>'s wprintf_s family, which reads %s and %c as Windows does in
 * wide format strings (a wide string, a wide character); _vtprintf and
 * _vftprintf map onto vwprintf and vfwprintf, which <windows.h> maps to
 * functions reading them the same way (unless PETW_NO_MSVC_WPRINTF).
 */
#ifndef PETW_ETW_TCHAR_H
#define PETW_ETW_TCHAR_H

#if defined(_WIN32)
#include_next <tchar.h>
#else
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include <windows.h>

#if (defined(_UNICODE) || defined(UNICODE)) && !defined(PETW__TCHAR_NARROW)
#ifndef _UNICODE
#define _UNICODE
#endif

typedef wchar_t _TCHAR;
typedef wchar_t _TSCHAR;
typedef wchar_t _TUCHAR;
typedef wchar_t _TXCHAR;
typedef wint_t _TINT;
#define __T(x) L##x
#define _TEOF WEOF

#ifdef PETW_NO_WMAIN
#define _tmain main
#else
#define _tmain wmain
#endif
#define _tWinMain wWinMain
#define _tenviron _wenviron

#define _tprintf wprintf_s
#define _tprintf_s wprintf_s
#define _ftprintf fwprintf_s
#define _ftprintf_s fwprintf_s
#define _stprintf_s swprintf_s
#define _sntprintf_s _snwprintf_s
#define _vtprintf vwprintf
#define _vftprintf vfwprintf
#define _tscanf wscanf
#define _ftscanf fwscanf
#define _stscanf swscanf
#define _fgetts fgetws
#define _fputts fputws
#define _fgettc fgetwc
#define _fputtc fputwc
#define _gettchar getwchar
#define _puttchar putwchar
#define _putts _putws
#define _tfopen _wfopen

#define _tcslen wcslen
#define _tcsnlen wcsnlen
#define _tcscpy wcscpy
#define _tcscpy_s wcscpy_s
#define _tcsncpy wcsncpy
#define _tcsncpy_s wcsncpy_s
#define _tcscat wcscat
#define _tcscat_s wcscat_s
#define _tcsncat wcsncat
#define _tcscmp wcscmp
#define _tcsncmp wcsncmp
#define _tcsicmp _wcsicmp
#define _tfullpath _wfullpath
#define _tcsnicmp _wcsnicmp
#define _tcschr wcschr
#define _tcsrchr wcsrchr
#define _tcsstr wcsstr
#define _tcsspn wcsspn
#define _tcscspn wcscspn
#define _tcspbrk wcspbrk
#define _tcstok wcstok
#define _tcstok_s wcstok
#define _tcsdup wcsdup
#define _tcstol wcstol
#define _tcstoul wcstoul
#define _tcstoll wcstoll
#define _tcstoull wcstoull
#define _tcstoi64 wcstoll
#define _tcstoui64 wcstoull
#define _tcstod wcstod
#define _ttoi(s) ((int)wcstol((s), NULL, 10))
#define _ttol(s) wcstol((s), NULL, 10)
#define _ttoi64(s) wcstoll((s), NULL, 10)
#define _tstoi _ttoi
#define _istalpha iswalpha
#define _istdigit iswdigit
#define _istxdigit iswxdigit
#define _istspace iswspace
#define _istupper iswupper
#define _istlower iswlower
#define _istalnum iswalnum
#define _istprint iswprint
#define _totupper towupper
#define _totlower towlower

#else /* narrow */

typedef char _TCHAR;
typedef signed char _TSCHAR;
typedef unsigned char _TUCHAR;
typedef char _TXCHAR;
typedef int _TINT;
#define __T(x) x
#define _TEOF EOF

#define _tmain main
#define _tWinMain WinMain
#define _tenviron environ

#define _tprintf printf
#define _tprintf_s printf
#define _ftprintf fprintf
#define _ftprintf_s fprintf
#define _stprintf_s sprintf_s
#define _sntprintf_s _snprintf_s
#define _vtprintf vprintf
#define _vftprintf vfprintf
#define _tscanf scanf
#define _ftscanf fscanf
#define _stscanf sscanf
#define _fgetts fgets
#define _fputts fputs
#define _fgettc fgetc
#define _fputtc fputc
#define _gettchar getchar
#define _puttchar putchar
#define _putts puts
#define _tfopen fopen

#define _tcslen strlen
#define _tcsnlen strnlen
#define _tcscpy strcpy
#define _tcscpy_s strcpy_s
#define _tcsncpy strncpy
#define _tcsncpy_s strncpy_s
#define _tcscat strcat
#define _tcscat_s strcat_s
#define _tcsncat strncat
#define _tcscmp strcmp
#define _tcsncmp strncmp
#define _tcsicmp _stricmp
#define _tfullpath _fullpath
#define _tcsnicmp _strnicmp
#define _tcschr strchr
#define _tcsrchr strrchr
#define _tcsstr strstr
#define _tcsspn strspn
#define _tcscspn strcspn
#define _tcspbrk strpbrk
#define _tcstok strtok
#define _tcstok_s strtok_r
#define _tcsdup strdup
#define _tcstol strtol
#define _tcstoul strtoul
#define _tcstoll strtoll
#define _tcstoull strtoull
#define _tcstoi64 strtoll
#define _tcstoui64 strtoull
#define _tcstod strtod
#define _ttoi atoi
#define _ttol atol
#define _ttoi64 atoll
#define _tstoi atoi
#define _istalpha isalpha
#define _istdigit isdigit
#define _istxdigit isxdigit
#define _istspace isspace
#define _istupper isupper
#define _istlower islower
#define _istalnum isalnum
#define _istprint isprint
#define _totupper toupper
#define _totlower tolower

#endif

#undef _T /* <windows.h> defines it by UNICODE; here _UNICODE decides */
#define _T(x) __T(x)
#define _TEXT(x) __T(x)

#endif /* !_WIN32 */
#endif /* PETW_ETW_TCHAR_H */
