/* etw_internal.h - shared by the ETW-compatible surface's files. The ETW
 * surface is a thin mapping onto the native API: it converts strings and
 * structs and translates error codes, nothing more.
 *
 * Allowed dependencies: common/, session/, decode/, host/. Above the whole native
 * API (petw/petw.h); session/'s internal header gives it the controls ETW
 * has and the native API does not. */
#ifndef PETW_ETW_INTERNAL_H
#define PETW_ETW_INTERNAL_H

#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>

#include "../common/common.h"
#include "petw/petw.h"

#endif
