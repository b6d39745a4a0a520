/* SPDX-License-Identifier: MIT */
/* pe_exports.c - a PE image's export table (analysis_internal.h:
 * petw__pe_exports), what names a Windows image's frames when no PDB is
 * found, as WPA does without symbols. Read through platform's files, bounded: the
 * headers, the export directory and its three arrays, each name at most
 * 512 bytes; every offset and count checked against the file.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/platform/platform.h"
#include "analysis_internal.h"

#define MAX_EXPORTS (1u << 20)
#define MAX_SECTIONS 96

typedef struct pe_export {
    uint32_t rva;
    uint32_t name; /* offset in names */
} pe_export;

typedef struct pe_section {
    uint32_t rva, size, file_offset, file_size;
} pe_section;

struct petw__pe_exports {
    pe_export *exports; /* by rva */
    uint32_t count;
    char *names;
    pe_section sections[MAX_SECTIONS];
    uint32_t section_count;
};

static uint32_t rd16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t rd32(const uint8_t *p)
{
    return rd16(p) | rd16(p + 2) << 16;
}

static int read_at(petw__file *f, uint64_t size, uint64_t offset, void *buf, size_t n)
{
    if (offset > size || n > size - offset || petw__file_pread(f, buf, n, offset) != 0)
        return -1;
    return 0;
}

/* The file offset of `n` bytes at `rva`, inside one section's raw data. */
static int rva_to_offset(const petw__pe_exports *e, uint32_t rva, uint32_t n, uint64_t *out)
{
    for (uint32_t k = 0; k < e->section_count; k++) {
        const pe_section *s = &e->sections[k];
        if (rva >= s->rva && rva - s->rva < s->file_size && n <= s->file_size - (rva - s->rva)) {
            *out = (uint64_t)s->file_offset + (rva - s->rva);
            return 0;
        }
    }
    return -1;
}

static int by_rva(const void *a, const void *b)
{
    const pe_export *x = a, *y = b;
    return x->rva < y->rva ? -1 : x->rva > y->rva;
}

/* Says why the image is damaged (in why) and returns PETW_ECORRUPT. */
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(why, why_size, __VA_ARGS__);                                                      \
        return PETW_ECORRUPT;                                                                      \
    } while (0)

/* The image being read: its file, its size, where to say what is wrong. */
typedef struct pe_file {
    petw__file *f;
    uint64_t size;
} pe_file;

/* The MZ and PE headers, the optional header (opt, *opt_size bytes; its
 * data directories at *dirs_at) and the section table into e. */
static int read_headers(const pe_file *pf, petw__pe_exports *e, uint32_t *time_stamp,
                        uint32_t *image_size, uint8_t opt[0xf0], uint32_t *opt_size,
                        uint32_t *dirs_at, char *why, size_t why_size)
{
    petw__file *f = pf->f;
    uint64_t size = pf->size;
    uint8_t h[0x40], coff[24];
    if (read_at(f, size, 0, h, sizeof(h)) || h[0] != 'M' || h[1] != 'Z')
        FAIL("not a PE image (no MZ header)");
    uint32_t pe = rd32(h + 0x3c);
    if (read_at(f, size, pe, coff, sizeof(coff)) || memcmp(coff, "PE\0\0", 4))
        FAIL("not a PE image (no PE signature)");
    uint32_t sections = rd16(coff + 6);
    *opt_size = rd16(coff + 20);
    *time_stamp = rd32(coff + 8);
    if (*opt_size < 0x60 || *opt_size > 0xf0)
        *opt_size = *opt_size < 0x60 ? 0 : 0xf0;
    if (!*opt_size || read_at(f, size, pe + 24u, opt, *opt_size))
        FAIL("damaged optional header");
    uint32_t magic = rd16(opt);
    *dirs_at = magic == 0x20b ? 0x70 : 0x60;
    if (magic != 0x10b && magic != 0x20b)
        FAIL("unknown optional header magic 0x%x", magic);
    *image_size = rd32(opt + 56);
    if (sections > MAX_SECTIONS)
        FAIL("%u sections", sections);
    uint64_t section_at = (uint64_t)pe + 24 + rd16(coff + 20);
    for (uint32_t k = 0; k < sections; k++) {
        uint8_t s[40];
        if (read_at(f, size, section_at + 40u * k, s, sizeof(s)))
            FAIL("damaged section table");
        pe_section *ps = &e->sections[e->section_count++];
        ps->rva = rd32(s + 12);
        ps->size = rd32(s + 8);
        ps->file_size = rd32(s + 16);
        ps->file_offset = rd32(s + 20);
        if (ps->file_size > ps->size && ps->size)
            ps->file_size = ps->size;
    }
    return 0;
}

/* The exported name at name_rva, at most 512 bytes (in 64-byte reads, the
 * last ones shortened at a section's end); its length, 0 if none. */
static size_t read_name(const pe_file *pf, const petw__pe_exports *e, uint32_t name_rva,
                        char name[513])
{
    size_t n = 0;
    for (uint32_t part = 0; part < 512 && n == part; part += 64) {
        uint8_t chunk[64];
        uint32_t want = 64;
        uint64_t at;
        while (want && rva_to_offset(e, name_rva + part, want, &at))
            want--; /* the last bytes of a section */
        if (!want || read_at(pf->f, pf->size, at, chunk, want))
            break;
        for (uint32_t b = 0; b < want && chunk[b] && n < 512; b++)
            name[n++] = (char)chunk[b];
        if (n < part + want)
            break;
    }
    name[n] = 0;
    return n;
}

/* Appends an export (its name, n bytes) to e; 0 or PETW_ENOMEM. */
static int add_export(petw__pe_exports *e, size_t *used, size_t *cap, const char *name, size_t n,
                      uint32_t rva)
{
    if (*used + n + 1 > *cap) {
        size_t ncap = *cap ? *cap * 2 : 4096;
        while (ncap < *used + n + 1)
            ncap *= 2;
        char *grown = realloc(e->names, ncap);
        if (!grown)
            return PETW_ENOMEM;
        e->names = grown, *cap = ncap;
    }
    memcpy(e->names + *used, name, n + 1);
    e->exports[e->count++] = (pe_export){rva, (uint32_t)*used};
    *used += n + 1;
    return 0;
}

/* The export directory at opt's first data directory and its three arrays:
 * every named export that is code here (not a forwarder), into e. */
static int read_exports(const pe_file *pf, petw__pe_exports *e, const uint8_t *opt,
                        uint32_t dirs_at, char *why, size_t why_size)
{
    uint32_t dir_rva = rd32(opt + dirs_at), dir_size = rd32(opt + dirs_at + 4);
    uint8_t d[40];
    uint64_t at;
    if (rva_to_offset(e, dir_rva, sizeof(d), &at) || read_at(pf->f, pf->size, at, d, sizeof(d)))
        FAIL("damaged export directory");
    uint32_t functions = rd32(d + 20), names = rd32(d + 24);
    uint32_t functions_rva = rd32(d + 28), names_rva = rd32(d + 32), ordinals_rva = rd32(d + 36);
    if (functions > MAX_EXPORTS || names > MAX_EXPORTS)
        FAIL("%u functions, %u names exported", functions, names);
    uint64_t fo, no, oo;
    if (!names)
        return 0;
    if (rva_to_offset(e, functions_rva, functions * 4, &fo) ||
        rva_to_offset(e, names_rva, names * 4, &no) ||
        rva_to_offset(e, ordinals_rva, names * 2, &oo))
        FAIL("damaged export arrays");
    uint8_t *arrays = malloc((size_t)functions * 4 + (size_t)names * 6 + 1);
    if (!arrays || !(e->exports = malloc(names * sizeof(*e->exports)))) {
        free(arrays);
        snprintf(why, why_size, "out of memory");
        return PETW_ENOMEM;
    }
    uint8_t *fa = arrays, *na = fa + (size_t)functions * 4, *oa = na + (size_t)names * 4;
    int rc = 0;
    if (read_at(pf->f, pf->size, fo, fa, (size_t)functions * 4) ||
        read_at(pf->f, pf->size, no, na, (size_t)names * 4) ||
        read_at(pf->f, pf->size, oo, oa, (size_t)names * 2)) {
        snprintf(why, why_size, "damaged export arrays");
        rc = PETW_ECORRUPT;
    }
    size_t used = 0, cap = 0;
    for (uint32_t k = 0; k < names && !rc; k++) {
        uint32_t ordinal = rd16(oa + 2 * k);
        if (ordinal >= functions)
            continue;
        uint32_t rva = rd32(fa + 4 * ordinal);
        if (!rva || (rva >= dir_rva && rva - dir_rva < dir_size))
            continue; /* a forwarder ("NTDLL.RtlAllocateHeap"), not code here */
        char name[513];
        size_t n = read_name(pf, e, rd32(na + 4 * k), name);
        if (n && (rc = add_export(e, &used, &cap, name, n, rva)) != 0)
            snprintf(why, why_size, "out of memory");
    }
    free(arrays);
    if (!rc && e->count)
        qsort(e->exports, e->count, sizeof(*e->exports), by_rva);
    return rc;
}

int petw__pe_exports_open(const char *path, uint32_t *time_stamp, uint32_t *image_size,
                          petw__pe_exports **out, char *why, size_t why_size)
{
    *out = NULL;
    petw__file file;
    pe_file pf = {&file, 0};
    petw__pe_exports *e = NULL;
    int rc = petw__file_open_read(path, &file, &pf.size);
    if (rc) {
        snprintf(why, why_size, "%s", petw_strerror(rc));
        return rc;
    }
    uint8_t opt[0xf0];
    uint32_t opt_size = 0, dirs_at = 0;
    if (!(e = calloc(1, sizeof(*e)))) {
        snprintf(why, why_size, "out of memory");
        rc = PETW_ENOMEM;
    } else {
        rc = read_headers(&pf, e, time_stamp, image_size, opt, &opt_size, &dirs_at, why, why_size);
    }
    /* Without an export directory, an image without names. */
    if (!rc && opt_size >= dirs_at + 8 && rd32(opt + dirs_at - 4) >= 1 && rd32(opt + dirs_at))
        rc = read_exports(&pf, e, opt, dirs_at, why, why_size);
    petw__file_close(&file);
    if (rc) {
        petw__pe_exports_free(e);
        return rc;
    }
    *out = e;
    return 0;
}

const char *petw__pe_exports_lookup(const petw__pe_exports *e, uint32_t rva, uint32_t *offset)
{
    uint32_t lo = 0, hi = e->count;
    while (lo < hi) { /* the first export past rva */
        uint32_t mid = lo + (hi - lo) / 2;
        if (e->exports[mid].rva <= rva)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const pe_export *x = &e->exports[lo - 1];
    for (uint32_t k = 0; k < e->section_count; k++) { /* not across sections */
        const pe_section *s = &e->sections[k];
        uint32_t span = s->size > s->file_size ? s->size : s->file_size;
        if (x->rva >= s->rva && x->rva - s->rva < span)
            return rva - s->rva < span ? (*offset = rva - x->rva, e->names + x->name) : NULL;
    }
    return NULL;
}

void petw__pe_exports_free(petw__pe_exports *e)
{
    if (!e)
        return;
    free(e->exports);
    free(e->names);
    free(e);
}
