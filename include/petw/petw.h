/* SPDX-License-Identifier: MIT */
/* petw.h - portable, ETW-compatible event tracing. The native API.
 *
 *   provider -> ring (per-CPU buffers) -> flush -> format (ETL) -> consume
 *
 * petw/provider.h  register providers and write events (the hot path)
 * petw/session.h   start sessions, enable providers, flush, stop
 * petw/consume.h   open ETL files and deliver their events in order
 * petw/error.h     PETW_E* codes, petw_strerror()
 *
 * ETW code uses the headers in <petw/etw/> instead (pkg-config petw-etw).
 */
#ifndef PETW_H
#define PETW_H

#include "error.h"
#include "types.h"
#include "provider.h"
#include "session.h"
#include "shared.h"
#include "consume.h"
#include "decode.h"

#define PETW_VERSION_MAJOR 0
#define PETW_VERSION_MINOR 1
#define PETW_VERSION_PATCH 0
#define PETW_VERSION_STRING "0.1.0"

#endif /* PETW_H */
