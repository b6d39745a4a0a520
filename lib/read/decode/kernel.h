/* SPDX-License-Identifier: MIT */
/* kernel.h - the built-in schemas of the NT Kernel Logger's classic event
 * classes (kernel.c), as a manifest model whose events are keyed by
 * opcode and version.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#ifndef PETW_KERNEL_H
#define PETW_KERNEL_H

#include "manifest.h"

/* Parses the built-in kernel schemas: 0 with *out set (free it with
 * petw__manifest_free), or PETW_ENOMEM. */
int petw__kernel_schemas(petw__manifest **out);

/* Parses the built-in schemas of the .NET runtime's method and module
 * events (clr.c; manifest events, keyed by id and version): as above. */
int petw__clr_schemas(petw__manifest **out);

#endif
