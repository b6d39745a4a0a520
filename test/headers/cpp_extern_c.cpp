/* SPDX-License-Identifier: MIT */
/* cpp_extern_c.cpp - the ETW headers included inside extern "C" { }, as
 * some C++ code wraps C headers, then standard headers. */
extern "C" {
#include <windows.h>

#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>
#include <strsafe.h>
#include <tdh.h>
#include <TraceLoggingProvider.h>
}
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

TRACELOGGING_DECLARE_PROVIDER(g_usage); /* cpp_usage.cpp's */

void cpp_extern_c(void);
void cpp_extern_c(void)
{
    std::vector<std::string> v{"x"};
    TraceLoggingWrite(g_usage, "ExternC", TraceLoggingValue(v.size(), "n"));
}
