/* SPDX-License-Identifier: MIT */
/* test_pe_exports.c - the PE export table reader (pe_exports.c) on a small
 * PE32+ image built in memory: time stamp and SizeOfImage, the nearest
 * named export at or before an address in the same section, a forwarder
 * never used; and damaged copies (every truncation, a byte changed at
 * every offset two ways, absurd counts) refused or read without a crash
 * (ASan sees any read past what the reader was given). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "../../lib/read/analysis/analysis_internal.h"

#define IMAGE_SIZE 0x290

static void w16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
}

static void w32(uint8_t *p, uint32_t v)
{
    w16(p, v & 0xffff), w16(p + 2, v >> 16);
}

/* .text at RVA 0x1000 (no bytes in the file), .rdata at 0x2000 (file 0x200) holding
 * the export directory: Alpha at 0x1000, Beta at 0x1100, Fwd a forwarder. */
static void build(uint8_t *pe)
{
    memset(pe, 0, IMAGE_SIZE);
    pe[0] = 'M', pe[1] = 'Z';
    w32(pe + 0x3c, 0x40);
    memcpy(pe + 0x40, "PE\0\0", 4);
    w16(pe + 0x44, 0x8664);
    w16(pe + 0x46, 2);
    w32(pe + 0x48, 0x5f001234); /* TimeDateStamp */
    w16(pe + 0x54, 0xf0);       /* SizeOfOptionalHeader */
    uint8_t *opt = pe + 0x58;
    w16(opt, 0x20b);
    w32(opt + 56, 0x3000);   /* SizeOfImage */
    w32(opt + 0x6c, 16);     /* NumberOfRvaAndSizes */
    w32(opt + 0x70, 0x2000); /* the export directory */
    w32(opt + 0x74, 0x100);
    uint8_t *s = pe + 0x148;
    memcpy(s, ".text", 5);
    w32(s + 8, 0x1000), w32(s + 12, 0x1000);
    s += 40;
    memcpy(s, ".rdata", 6);
    w32(s + 8, 0x90), w32(s + 12, 0x2000), w32(s + 16, 0x90), w32(s + 20, 0x200);
    uint8_t *d = pe + 0x200;
    w32(d + 20, 3), w32(d + 24, 3);
    w32(d + 28, 0x2028), w32(d + 32, 0x2034), w32(d + 36, 0x2040);
    w32(d + 0x28, 0x1000), w32(d + 0x2c, 0x1100), w32(d + 0x30, 0x2050);
    w32(d + 0x34, 0x2060), w32(d + 0x38, 0x2070), w32(d + 0x3c, 0x2080);
    w16(d + 0x40, 0), w16(d + 0x42, 1), w16(d + 0x44, 2);
    memcpy(d + 0x50, "X.Y", 4);
    memcpy(d + 0x60, "Alpha", 6);
    memcpy(d + 0x70, "Beta", 5);
    memcpy(d + 0x80, "Fwd", 4);
}

static char path[512];

static int open_copy(const uint8_t *data, size_t size, petw__pe_exports **out, uint32_t *stamp,
                     uint32_t *image_size)
{
    /* A copy of the whole image is written over the last in place: no new
     * file each time (the tests share a slow disk). */
    static size_t written;
    FILE *f = fopen(path, size == written ? "r+b" : "wb");
    written = size;
    CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
    char why[200];
    return petw__pe_exports_open(path, stamp, image_size, out, why, sizeof(why));
}

/* Opens a damaged copy and looks up addresses all over it: must not crash. */
static void try_damaged(const uint8_t *data, size_t size)
{
    petw__pe_exports *e;
    uint32_t stamp, image_size, offset;
    if (open_copy(data, size, &e, &stamp, &image_size) != 0)
        return;
    for (uint32_t rva = 0; rva < 0x3000; rva += 0x3f) {
        const char *name = petw__pe_exports_lookup(e, rva, &offset);
        CHECK(!name || strlen(name) <= 512);
    }
    petw__pe_exports_free(e);
}

int main(void)
{
    static uint8_t pe[IMAGE_SIZE], copy[IMAGE_SIZE];
    test_path(path, sizeof(path), "pe_exports.dll");
    build(pe);
    petw__pe_exports *e;
    uint32_t stamp = 0, image_size = 0, offset = 0;
    CHECK_EQ(open_copy(pe, sizeof(pe), &e, &stamp, &image_size), 0);
    CHECK_EQ(stamp, 0x5f001234u);
    CHECK_EQ(image_size, 0x3000u);
    const char *name = petw__pe_exports_lookup(e, 0x1000, &offset);
    CHECK(name && !strcmp(name, "Alpha") && offset == 0);
    name = petw__pe_exports_lookup(e, 0x1050, &offset);
    CHECK(name && !strcmp(name, "Alpha") && offset == 0x50);
    name = petw__pe_exports_lookup(e, 0x1fff, &offset);
    CHECK(name && !strcmp(name, "Beta") && offset == 0xeff);
    CHECK(!petw__pe_exports_lookup(e, 0xfff, &offset));  /* before any export */
    CHECK(!petw__pe_exports_lookup(e, 0x2060, &offset)); /* .rdata: not Beta's section */
    for (uint32_t rva = 0; rva < 0x4000; rva++) {
        name = petw__pe_exports_lookup(e, rva, &offset);
        CHECK(!name || strcmp(name, "Fwd"));
    }
    petw__pe_exports_free(e);

    /* Not a PE image, and absurd counts: refused. */
    memcpy(copy, pe, sizeof(pe));
    copy[0] = 'X';
    CHECK_EQ(open_copy(copy, sizeof(copy), &e, &stamp, &image_size), PETW_ECORRUPT);
    memcpy(copy, pe, sizeof(pe));
    w32(copy + 0x200 + 24, 0xffffffff);
    CHECK_EQ(open_copy(copy, sizeof(copy), &e, &stamp, &image_size), PETW_ECORRUPT);
    memcpy(copy, pe, sizeof(pe));
    w16(copy + 0x46, 0xffff);
    CHECK_EQ(open_copy(copy, sizeof(copy), &e, &stamp, &image_size), PETW_ECORRUPT);

    /* Every truncation; a byte changed at every offset, two ways. */
    for (size_t n = 0; n < sizeof(pe); n++)
        try_damaged(pe, n);
    static const uint8_t values[] = {0x00, 0xff};
    for (size_t at = 0; at < sizeof(pe); at++)
        for (size_t v = 0; v < sizeof(values); v++) {
            memcpy(copy, pe, sizeof(pe));
            copy[at] = copy[at] == values[v] ? (uint8_t)~values[v] : values[v];
            try_damaged(copy, sizeof(copy));
        }
    remove(path);
    return 0;
}
