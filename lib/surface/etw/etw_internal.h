/* SPDX-License-Identifier: MIT */
/* etw_internal.h - shared by the ETW-compatible surface's files. The ETW
 * surface is a thin mapping onto the native API: it converts strings and
 * structs and translates error codes, nothing more.
 *
 * Allowed dependencies: common/, platform/, classes/, decode/, controller/, win32/. Above the whole
 * native API (petw/petw.h); session/'s internal header gives it the controls ETW has and the native
 * API does not. */
#ifndef PETW_ETW_INTERNAL_H
#define PETW_ETW_INTERNAL_H

#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>

#include <tdh.h>

#include "../../base/common/common.h"
#include "../../read/decode/manifest.h"
#include "petw/petw.h"

/* The sample interval (100 ns) system sessions start with
 * (TraceSampledProfileIntervalInfo); `set` nonzero changes it first. */
uint32_t petw__etw_profile_interval(uint32_t set);

/* ---- TDH (etw_tdh.c, etw_tdh_manifest.c) ---- */

/* TDH's one decoder, with every loaded manifest, held under the control
 * lock until petw__tdh_leave (NULL when out of memory: leave all the same).
 * Schemas and decoded events it returns are valid until then. */
petw_decoder *petw__tdh_enter(void);
void petw__tdh_leave(void);
/* The loaded manifests' provider with `guid`, or NULL (inside enter/leave). */
const petw__man_provider *petw__tdh_provider(petw_decoder *d, const GUID *guid);
/* TRACE_EVENT_INFO for a manifest event, from its template (the answer's
 * protocol: ERROR_INSUFFICIENT_BUFFER with *BufferSize set). */
ULONG petw__tdh_manifest_info(const petw__man_provider *pv, const petw__man_event *ev,
                              PTRACE_EVENT_INFO Buffer, ULONG *BufferSize);
/* A decoder in-type (PETW_IN_*) and out-type (PETW_OUT_*) as TDH's. */
USHORT petw__tdh_in(uint8_t in);
USHORT petw__tdh_out(uint8_t out, uint8_t in);
/* EVENT_PROPERTY_INFO.length for a TDH in-type of fixed size (as TDH
 * reports it when no length attribute gives one), 0 for variable sizes and
 * pointers (whose size is the event's). */
USHORT petw__tdh_fixed_length(USHORT tdh_in_type);
/* WCHAR units `utf8` converts to, without the NUL. */
size_t petw__tdh_wide_len(const char *utf8);

#endif
