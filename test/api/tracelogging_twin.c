/* SPDX-License-Identifier: MIT */
/* tracelogging_twin.c - the C half of test_tracelogging_cpp: writes the
 * events of tracelogging_twin_events.h with the C macros. */
#include "tracelogging_twin.h"

/* The provider of primitive-types.etl, defined in C, used from C++ too. */
TRACELOGGING_DEFINE_PROVIDER(g_twin_solar, "solar_system",
                             (0xd3dd3dd4, 0xaac2, 0x4e2a, 0x8d, 0xd4, 0xa8, 0xfb, 0x61, 0xb7, 0x76,
                              0x15));

void twin_write_c(void)
{
#define TWIN_SIDE TWIN_SIDE_C
#define TWIN_TRUE ((_Bool)1)
#include "tracelogging_twin_events.h"
#undef TWIN_SIDE
#undef TWIN_TRUE
}
