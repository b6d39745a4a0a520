/* SPDX-License-Identifier: MIT */
/* comutil.h - for non-Windows hosts: the BSTR functions (from
 * <combaseapi.h>) that Visual C++'s COM support header builds on.
 *
 * The COM support classes themselves (_bstr_t, _variant_t, _com_error and
 * their comsuppw.lib functions) are Visual C++'s, not the SDK's, and are not
 * provided: code that uses them does not compile here. Code that only
 * includes this header, as several Windows ETW samples do, builds.
 */
#ifndef PETW_ETW_COMUTIL_H
#define PETW_ETW_COMUTIL_H

#if defined(_WIN32)
#include_next <comutil.h>
#else
#include <combaseapi.h>
#include <windows.h>
#endif
#endif
