/* SPDX-License-Identifier: MIT */
/* wbemidl.h - the WMI COM interfaces' header. Part of petw's ETW-compatible
 * surface for the ETW consumers written for MOF-described events that
 * include it: it brings what Windows' <wbemidl.h> brings in with it from
 * COM (<objbase.h>: StringFromCLSID, CoTaskMemFree, ...). WMI itself
 * (IWbemServices, IWbemClassObject and the CLSIDs) is not declared: petw
 * has no WMI repository to read MOF classes from. */
#if defined(_WIN32)
#include_next <wbemidl.h>
#else
#ifndef PETW_ETW_WBEMIDL_H
#define PETW_ETW_WBEMIDL_H

#include <windows.h>
#include <objbase.h>

#endif /* PETW_ETW_WBEMIDL_H */
#endif
