/* SPDX-License-Identifier: MIT */
/* The LTTng-UST tracepoint of the peer benchmarks: the same 64-byte
 * payload as petw's (4 x u64 + a 32-byte array). */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER petw_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./bench_lttng_tp.h"

#if !defined(BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(
    petw_bench, event64,
    LTTNG_UST_TP_ARGS(uint64_t, a, uint64_t, b, uint64_t, c, uint64_t, d, const uint8_t *, arr),
    LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(uint64_t, a, a)
                            lttng_ust_field_integer(uint64_t, b, b)
                                lttng_ust_field_integer(uint64_t, c, c)
                                    lttng_ust_field_integer(uint64_t, d, d)
                                        lttng_ust_field_array(uint8_t, arr, arr, 32)))

#endif

#include <lttng/tracepoint-event.h>
