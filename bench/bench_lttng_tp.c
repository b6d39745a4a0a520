/* SPDX-License-Identifier: MIT */
/* Instantiates the LTTng-UST probe of bench_lttng_tp.h. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "bench_lttng_tp.h"
