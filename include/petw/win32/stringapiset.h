/* SPDX-License-Identifier: MIT */
/* stringapiset.h - code pages (stringapiset.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <stringapiset.h>
#else
#ifndef PETW_WIN32_STRINGAPISET_H
#define PETW_WIN32_STRINGAPISET_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* Code pages (stringapiset.h). The ANSI code pages (CP_ACP, CP_OEMCP,
 * CP_MACCP, CP_THREAD_ACP) are UTF-8 on Linux, as is CP_UTF8; another code
 * page fails with ERROR_INVALID_PARAMETER, as one Windows lacks does. Wide
 * text is WCHAR: UTF-32 on Linux, so a character beyond U+FFFF is one
 * WCHAR (Windows counts two, a surrogate pair).
 *
 * MultiByteToWideChar converts cbMultiByte bytes, or with -1 the string
 * and its NUL (then counted in the result), into at most cchWideChar
 * WCHARs; it returns the WCHARs written, or with cchWideChar 0 those
 * needed (lpWideCharStr is not read). Input that is not UTF-8 becomes
 * U+FFFD, or with MB_ERR_INVALID_CHARS fails (0, ERROR_NO_UNICODE_TRANSLATION).
 * Flags: MB_ERR_INVALID_CHARS; with the ANSI code pages also
 * MB_PRECOMPOSED and MB_USEGLYPHCHARS, which change nothing for UTF-8
 * (MB_COMPOSITE, decomposing, is not done: ERROR_INVALID_FLAGS, as any
 * other flag). WideCharToMultiByte is its inverse, with cbMultiByte 0 for
 * the size; a lone surrogate or a value above U+10FFFF becomes U+FFFD, or
 * with WC_ERR_INVALID_CHARS fails with ERROR_NO_UNICODE_TRANSLATION.
 * CP_UTF8 takes only that flag and no lpDefaultChar or lpUsedDefaultChar
 * (ERROR_INVALID_FLAGS, ERROR_INVALID_PARAMETER), as on Windows; the ANSI
 * code pages take Windows' WC_ flags, which change nothing, and set
 * *lpUsedDefaultChar when a character was replaced (by lpDefaultChar's
 * first byte, when given). Both: 0 with ERROR_INSUFFICIENT_BUFFER when
 * the output does not fit (what fit is written), ERROR_INVALID_PARAMETER
 * for a length of 0 or below -1, a NULL input, or the same buffer for
 * both. */
#define CP_ACP 0
#define CP_OEMCP 1
#define CP_MACCP 2
#define CP_THREAD_ACP 3
#define CP_SYMBOL 42
#define CP_UTF7 65000
#define CP_UTF8 65001
#define MB_PRECOMPOSED 0x00000001
#define MB_COMPOSITE 0x00000002
#define MB_USEGLYPHCHARS 0x00000004
#define MB_ERR_INVALID_CHARS 0x00000008
#define WC_COMPOSITECHECK 0x00000200
#define WC_DISCARDNS 0x00000010
#define WC_SEPCHARS 0x00000020
#define WC_DEFAULTCHAR 0x00000040
#define WC_ERR_INVALID_CHARS 0x00000080
#define WC_NO_BEST_FIT_CHARS 0x00000400
int MultiByteToWideChar(UINT CodePage, DWORD dwFlags, LPCSTR lpMultiByteStr, int cbMultiByte,
                        LPWSTR lpWideCharStr, int cchWideChar);
int WideCharToMultiByte(UINT CodePage, DWORD dwFlags, LPCWSTR lpWideCharStr, int cchWideChar,
                        LPSTR lpMultiByteStr, int cbMultiByte, LPCSTR lpDefaultChar,
                        LPBOOL lpUsedDefaultChar);

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_STRINGAPISET_H */
#endif /* !_WIN32 */
