/* SPDX-License-Identifier: MIT */
/* sal.h - the source-code annotation language (SAL) of Windows' headers, for
 * non-Windows hosts: every annotation name the Windows SDK's sal.h,
 * specstrings.h and driverspecs.h define (new style _In_..., old style
 * __in_ecount..., driver _IRQL_...), and the lock annotations of
 * concurrencysal.h, each an empty macro with the SDK's number of
 * arguments. They mean nothing to gcc or clang. Part of petw's
 * ETW-compatible surface; <windows.h> includes it. On Windows this is the
 * system's.
 *
 * Not defined: the SDK's internal helpers (_SA_..., __inner_..., ..._impl_),
 * and the old-style names standard headers use for their own variables or
 * keywords (__success, __range, __reserved, __callback, __override, __valid,
 * __pre, __post, __bound, __in_range, __out_range, __failure, __allocator,
 * __volatile, __null). `__in` and `__out` are such names in libstdc++
 * (<utility>, <tuple>, <string>, <istream>, <ostream>, <locale>,
 * <algorithm>, <memory>, <thread>, <regex>); mingw-w64 leaves them undefined
 * in C++, so that code using them does not compile there. Here, in C++ with
 * libstdc++, this header first includes those standard headers (their
 * guards then make any later #include of them a no-op) and then defines
 * `__in` and `__out`: code annotated with them compiles, and so do the
 * standard headers included before or after. Define PETW_NO_SAL_IN_OUT to
 * skip both (mingw-w64's behaviour, and less to compile). libstdc++'s
 * extension headers (<ext/...>, <experimental/...>, <tr1/...>) also use the
 * names: include them first.
 */
#if defined(_WIN32)
#include_next <sal.h>
#else
#ifndef PETW_ETW_SAL_H
#define PETW_ETW_SAL_H

/* C++ with libstdc++: its headers that name variables __in or __out, before
 * those become empty macros below. */
#if defined(__cplusplus) && !defined(PETW_NO_SAL_IN_OUT) && !defined(__in) && !defined(__out)
extern "C++" { /* even when included inside extern "C" { } */
#include <cstddef> /* defines __GLIBCXX__ with libstdc++ */
#if defined(__GLIBCXX__)
#include <algorithm>
#include <istream>
#include <locale>
#include <memory>
#include <ostream>
#include <regex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#endif
}
#define PETW__SAL_IN_OUT 1
#elif !defined(__cplusplus)
#define PETW__SAL_IN_OUT 1
#endif
#ifdef PETW__SAL_IN_OUT
#ifndef __in
#define __in
#endif
#ifndef __out
#define __out
#endif
#endif

#define _SAL_VERSION 20

/* The annotations by family, in include/petw/win32/sal/, as the SDK splits
 * them across sal.h, specstrings.h, driverspecs.h and concurrencysal.h. */
#include "sal/parameters.h"
#include "sal/conditions.h"
#include "sal/general.h"
#include "sal/specstrings.h"
#include "sal/driverspecs.h"
#include "sal/concurrencysal.h"

#endif /* PETW_ETW_SAL_H */
#endif
