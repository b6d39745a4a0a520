/* SPDX-License-Identifier: MIT */
/* tracelogging_twin.h - shared by test_tracelogging_cpp.cpp and its C half,
 * tracelogging_twin.c: each writes the events of tracelogging_twin_events.h
 * (the same source compiled as C and as C++), keyword TWIN_SIDE_C or
 * TWIN_SIDE_CPP telling the two records apart. One provider is defined in
 * each language and used from the other. */
#ifndef PETW_TEST_TRACELOGGING_TWIN_H
#define PETW_TEST_TRACELOGGING_TWIN_H

#include <TraceLoggingProvider.h>

#define TWIN_SIDE_C 0x1000
#define TWIN_SIDE_CPP 0x2000

TRACELOGGING_DECLARE_PROVIDER(g_twin);       /* defined in C++ */
TRACELOGGING_DECLARE_PROVIDER(g_twin_solar); /* defined in C */

#ifdef __cplusplus
extern "C" {
#endif
/* Writes the events with the C macros. */
void twin_write_c(void);
#ifdef __cplusplus
}
#endif

#endif
