/* SPDX-License-Identifier: MIT */
/* realtime.h - live consumers of this process's sessions.
 *
 * Allowed dependencies: common/, session/, consume/.
 */
#ifndef PETW_REALTIME_H
#define PETW_REALTIME_H

#include "petw/consume.h"

/* As petw_trace_open_realtime, for a REAL_TIME session of this process:
 * PETW_ENOTFOUND when none has the name (the controller then asks the
 * shared sessions). */
int petw__realtime_open(const char *logger_name, const petw_trace_config *config, petw_trace **out);

#endif
