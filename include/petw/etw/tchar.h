/* tchar.h - the generic-text names Windows samples include <tchar.h> for,
 * for non-Windows hosts: _TCHAR and _TEXT, and the common string and
 * stdio routines by their _t names, wide with UNICODE (as TCHAR and TEXT
 * are in <windows.h>), narrow without. _tmain is not defined: a program's
 * entry point is main here. */
#ifndef PETW_ETW_TCHAR_H
#define PETW_ETW_TCHAR_H

#if defined(_WIN32)
#include_next <tchar.h>
#else
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

typedef TCHAR _TCHAR;
#ifndef _TEXT
#define _TEXT(s) TEXT(s)
#endif

#ifdef UNICODE
#define _tprintf wprintf
#define _ftprintf fwprintf
#define _tcslen wcslen
#define _tcscmp wcscmp
#define _tcsncmp wcsncmp
#define _tcscpy wcscpy
#define _tcsncpy wcsncpy
#define _tcscat wcscat
#define _tcschr wcschr
#define _tcsrchr wcsrchr
#define _tcsstr wcsstr
#define _tcstol wcstol
#define _tcstoul wcstoul
#else
#define _tprintf printf
#define _ftprintf fprintf
#define _tcslen strlen
#define _tcscmp strcmp
#define _tcsncmp strncmp
#define _tcscpy strcpy
#define _tcsncpy strncpy
#define _tcscat strcat
#define _tcschr strchr
#define _tcsrchr strrchr
#define _tcsstr strstr
#define _tcstol strtol
#define _tcstoul strtoul
#endif
#endif
#endif
