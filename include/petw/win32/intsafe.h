/* SPDX-License-Identifier: MIT */
/* intsafe.h - the limits Windows' intsafe.h names, for non-Windows hosts.
 * Part of petw's Win32 layer; on Windows this is the system's.
 * INT_MAX, UINT_MAX and the other <limits.h> names come from the C
 * library (which <windows.h> includes; on Linux its LONG_MAX and ULONG_MAX
 * are 64-bit). The checked arithmetic functions (ULongAdd, SizeTMult, ...)
 * are not here. */
#if defined(_WIN32)
#include_next <intsafe.h>
#else
#ifndef PETW_ETW_INTSAFE_H
#define PETW_ETW_INTSAFE_H

#include <windows.h>

#define INTSAFE_E_ARITHMETIC_OVERFLOW ((HRESULT)0x80070216L)
#define BYTE_MAX 0xff
#define SHORT_MIN (-32768)
#define SHORT_MAX 32767
#define USHORT_MAX 0xffff
#define WORD_MAX 0xffff
#define DWORD_MAX 0xffffffffUL
#define LONGLONG_MAX 0x7fffffffffffffffLL
#define LONGLONG_MIN (-0x7fffffffffffffffLL - 1)
#define ULONGLONG_MAX 0xffffffffffffffffULL
#define DWORDLONG_MAX 0xffffffffffffffffULL
#define ULONG64_MAX 0xffffffffffffffffULL
#define DWORD64_MAX 0xffffffffffffffffULL
#define LONG64_MAX 0x7fffffffffffffffLL
#define LONG64_MIN (-0x7fffffffffffffffLL - 1)
#define SIZE_T_MAX ((SIZE_T)-1)
#define ULONG_PTR_MAX ((ULONG_PTR)-1)
#define DWORD_PTR_MAX ((DWORD_PTR)-1)
#define UINT_PTR_MAX ((UINT_PTR)-1)

#endif /* PETW_ETW_INTSAFE_H */
#endif
