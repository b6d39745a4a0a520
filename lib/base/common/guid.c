/* SPDX-License-Identifier: MIT */
/* guid.c - GUID text form. */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "sha1.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int petw_guid_parse(const char *text, petw_guid *out)
{
    static const int dash_at[] = {8, 13, 18, 23};
    uint8_t nib[32];
    size_t n = 0, i, len;
    int braced;

    PETW__RETURN_IF(text == NULL || out == NULL, PETW_EINVAL);
    len = strlen(text);
    braced = len == 38 && text[0] == '{' && text[37] == '}';
    if (braced) {
        text++;
        len = 36;
    }
    PETW__RETURN_IF(len != 36, PETW_EINVAL);
    for (i = 0; i < 36; i++) {
        int is_dash_pos = i == 8 || i == 13 || i == 18 || i == 23;
        if (is_dash_pos) {
            PETW__RETURN_IF(text[i] != '-', PETW_EINVAL);
            continue;
        }
        int v = hexval(text[i]);
        PETW__RETURN_IF(v < 0, PETW_EINVAL);
        nib[n++] = (uint8_t)v;
    }
    (void)dash_at;
    out->data1 = 0;
    for (i = 0; i < 8; i++)
        out->data1 = (out->data1 << 4) | nib[i];
    out->data2 = 0;
    for (i = 8; i < 12; i++)
        out->data2 = (uint16_t)((out->data2 << 4) | nib[i]);
    out->data3 = 0;
    for (i = 12; i < 16; i++)
        out->data3 = (uint16_t)((out->data3 << 4) | nib[i]);
    for (i = 0; i < 8; i++)
        out->data4[i] = (uint8_t)((nib[16 + 2 * i] << 4) | nib[17 + 2 * i]);
    return 0;
}

void petw_guid_format(const petw_guid *guid, char out[37])
{
    /* Callers pass GUIDs found inside payloads, which need not be aligned. */
    petw_guid v;
    memcpy(&v, guid, sizeof(v));
    const petw_guid *g = &v;
    snprintf(out, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned)g->data1,
             g->data2, g->data3, g->data4[0], g->data4[1], g->data4[2], g->data4[3], g->data4[4],
             g->data4[5], g->data4[6], g->data4[7]);
}

int petw_guid_equal(const petw_guid *a, const petw_guid *b)
{
    return memcmp(a, b, sizeof(*a)) == 0;
}

/* EventSource's GenerateGuidFromName, which TraceLogging tooling shares:
 * SHA-1 over a fixed namespace then the upper-cased name in UTF-16BE; the
 * first 16 bytes of the digest, with version 5 in the high nibble of byte 7,
 * read as a little-endian GUID structure. */
int petw_guid_from_name(const char *name, petw_guid *out)
{
    static const uint8_t ns[16] = {0x48, 0x2c, 0x2d, 0xb2, 0xc3, 0x90, 0x47, 0xc8,
                                   0x87, 0xf8, 0x1a, 0x15, 0xbf, 0xc1, 0x30, 0xfb};
    PETW__RETURN_IF(name == NULL || out == NULL || name[0] == 0, PETW_EINVAL);
    size_t cap = strlen(name) + 1; /* UTF-16 units never outnumber UTF-8 bytes */
    uint8_t *u = malloc(2 * cap);
    PETW__RETURN_IF(u == NULL, PETW_ENOMEM);
    size_t n = petw__utf8_to_utf16le(name, u, cap);
    for (size_t i = 0; i < n; i++) {
        uint16_t c = petw__rd16(u + 2 * i);
        /* Upper-casing as ToUpperInvariant does for ASCII and Latin-1
         * letters (provider names outside that range keep their case). */
        if ((c >= 'a' && c <= 'z') || (c >= 0xe0 && c <= 0xfe && c != 0xf7))
            c = (uint16_t)(c - 0x20);
        u[2 * i] = (uint8_t)(c >> 8), u[2 * i + 1] = (uint8_t)c; /* big-endian */
    }
    petw__sha1 sha;
    uint8_t d[20];
    petw__sha1_init(&sha);
    petw__sha1_update(&sha, ns, sizeof(ns));
    petw__sha1_update(&sha, u, 2 * n);
    petw__sha1_final(&sha, d);
    free(u);
    d[7] = (uint8_t)((d[7] & 0x0f) | 0x50);
    out->data1 = petw__rd32(d);
    out->data2 = petw__rd16(d + 4);
    out->data3 = petw__rd16(d + 6);
    memcpy(out->data4, d + 8, 8);
    return 0;
}
