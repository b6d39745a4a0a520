/* SPDX-License-Identifier: MIT */
/* sha1.h - SHA-1 (FIPS 180-4), for name-derived provider GUIDs only.
 *
 * Not for security: it exists because EventSource and TraceLogging tooling
 * derive a provider's GUID from its name with SHA-1, and petw must derive the
 * same GUID. None of petw's dependencies exposes SHA-1 (xxHash is not a
 * cryptographic family), and a crypto library would be a fourth dependency
 * to cross-build for Windows for 80 lines of code; see docs/design.md. */
#ifndef PETW_SHA1_H
#define PETW_SHA1_H

#include <stddef.h>
#include <stdint.h>

typedef struct petw__sha1 {
    uint32_t h[5];
    uint64_t length; /* bytes hashed so far */
    uint8_t block[64];
    size_t used; /* bytes in `block` */
} petw__sha1;

void petw__sha1_init(petw__sha1 *s);
void petw__sha1_update(petw__sha1 *s, const void *data, size_t n);
void petw__sha1_final(petw__sha1 *s, uint8_t digest[20]);

#endif
