/* SPDX-License-Identifier: MIT */
/* cmd_symbolize.c - `petw symbolize FILE ADDRESS... [--format text|json]`:
 * addr2line and llvm-symbolizer for petw's users. FILE is a Windows PDB
 * (each ADDRESS an RVA: the address less the image's base) or an ELF file
 * (each ADDRESS a virtual address as the file's program headers place it);
 * for each address its frames, innermost first: the inlined functions at
 * that address, then the function that holds them, with file and line. A
 * PE image (addresses RVAs too) is read through the PDB its RSDS debug
 * entry names, at the recorded path or beside the image, when its GUID and
 * age match. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <petw/analysis.h>
#include <petw/pdb.h>

#include "tool.h"

#define MAX_FRAMES 64

typedef struct frame {
    const char *function, *file;
    uint32_t line;
} frame;

static void json_string(const char *s)
{
    if (!s) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void print_address(int json, int first, const char *text, const frame *f, uint32_t n)
{
    if (json) {
        printf("%s\n  {\"address\": ", first ? "" : ",");
        json_string(text);
        fputs(", \"frames\": [", stdout);
        for (uint32_t i = 0; i < n; i++) {
            fputs(i ? ", {\"function\": " : "{\"function\": ", stdout);
            json_string(f[i].function);
            fputs(", \"file\": ", stdout);
            json_string(f[i].file);
            printf(", \"line\": %" PRIu32 "}", f[i].line);
        }
        fputs("]}", stdout);
        return;
    }
    printf("%s\n", text);
    if (!n)
        puts("  ??");
    for (uint32_t i = 0; i < n; i++) {
        if (f[i].file)
            printf("  %s at %s:%" PRIu32 "\n", f[i].function, f[i].file, f[i].line);
        else
            printf("  %s\n", f[i].function);
    }
}

/* ELF: the file offset of virtual address `va` (its PT_LOAD segment), or
 * -1 when no segment holds it or the file is not a little-endian ELF. */
static int64_t elf_offset(FILE *fp, uint64_t va)
{
    unsigned char h[64], p[56];
    if (fseek(fp, 0, SEEK_SET) != 0 || fread(h, 1, sizeof(h), fp) != sizeof(h) || h[5] != 1)
        return -1;
#define LE16(b) ((uint64_t)(b)[0] | (uint64_t)(b)[1] << 8)
#define LE32(b) (LE16(b) | LE16((b) + 2) << 16)
#define LE64(b) (LE32(b) | LE32((b) + 4) << 32)
    int wide = h[4] == 2;
    uint64_t phoff = wide ? LE64(h + 32) : LE32(h + 28);
    uint64_t entsize = wide ? LE16(h + 54) : LE16(h + 42);
    uint64_t count = wide ? LE16(h + 56) : LE16(h + 44);
    if (entsize < (wide ? 56u : 32u) || entsize > 4096)
        return -1;
    for (uint64_t i = 0; i < count; i++) {
        if (fseek(fp, (long)(phoff + i * entsize), SEEK_SET) != 0 ||
            fread(p, 1, wide ? 56 : 32, fp) != (wide ? 56u : 32u))
            return -1;
        if (LE32(p) != 1) /* PT_LOAD */
            continue;
        uint64_t off = wide ? LE64(p + 8) : LE32(p + 4);
        uint64_t vaddr = wide ? LE64(p + 16) : LE32(p + 8);
        uint64_t filesz = wide ? LE64(p + 32) : LE32(p + 16);
        if (va >= vaddr && va - vaddr < filesz)
            return (int64_t)(off + (va - vaddr));
    }
    return -1;
#undef LE16
#undef LE32
#undef LE64
}

/* Reads `n` bytes at `offset` of fp: 0 or -1. */
static int read_at(FILE *fp, uint64_t offset, void *out, size_t n)
{
    return offset > (uint64_t)LONG_MAX || fseek(fp, (long)offset, SEEK_SET) != 0 ||
                   fread(out, 1, n, fp) != n
               ? -1
               : 0;
}

/* A PE image: the PDB its RSDS debug entry names (GUID, age, path), at
 * that path or beside the image, opened into *out when its GUID and age
 * match. Returns 0, or -1 with the reason on stderr. */
static int pe_pdb(FILE *fp, const char *path, petw_pdb **out)
{
    unsigned char b[264];
    uint32_t pe, opt, nsect, dir_at, dir_rva = 0, dir_size = 0;
#define U16(p) ((uint32_t)(p)[0] | (uint32_t)(p)[1] << 8)
#define U32(p) (U16(p) | U16((p) + 2) << 16)
    if (read_at(fp, 0x3c, b, 4) < 0 || read_at(fp, pe = U32(b), b, 24) < 0 ||
        memcmp(b, "PE\0\0", 4) != 0) {
        fprintf(stderr, "petw symbolize: %s: not a PE image\n", path);
        return -1;
    }
    nsect = U16(b + 6);
    opt = pe + 24;
    if (read_at(fp, opt, b, 2) < 0)
        return -1;
    dir_at = opt + (U16(b) == 0x20b ? 112 : 96) + 6 * 8; /* IMAGE_DIRECTORY_ENTRY_DEBUG */
    if (read_at(fp, dir_at, b, 8) == 0) {
        dir_rva = U32(b);
        dir_size = U32(b + 4);
    }
    read_at(fp, pe + 20, b, 2);
    uint32_t sections = opt + U16(b);
    uint64_t dir_file = 0;
    for (uint32_t i = 0; i < nsect && i < 96; i++) {
        if (read_at(fp, sections + 40 * (uint64_t)i, b, 40) < 0)
            break;
        uint32_t va = U32(b + 12), size = U32(b + 16), raw = U32(b + 20);
        if (dir_rva >= va && dir_rva - va < size)
            dir_file = raw + (uint64_t)(dir_rva - va);
    }
    for (uint32_t k = 0; dir_file && k < dir_size / 28 && k < 16; k++) {
        unsigned char e[28];
        if (read_at(fp, dir_file + 28 * (uint64_t)k, e, 28) < 0 || U32(e + 12) != 2)
            continue; /* IMAGE_DEBUG_TYPE_CODEVIEW */
        uint32_t n = U32(e + 16) < sizeof(b) - 1 ? U32(e + 16) : (uint32_t)sizeof(b) - 1;
        memset(b, 0, sizeof(b));
        if (n < 25 || read_at(fp, U32(e + 24), b, n) < 0 || memcmp(b, "RSDS", 4) != 0)
            continue;
        petw_guid guid = {U32(b + 4), (uint16_t)U16(b + 8), (uint16_t)U16(b + 10), {0}};
        memcpy(guid.data4, b + 12, 8);
        uint32_t age = U32(b + 20);
        const char *named = (const char *)b + 24, *base = named;
        for (const char *c = named; *c; c++)
            if (*c == '/' || *c == '\\')
                base = c + 1;
        char beside[4096];
        const char *slash = strrchr(path, '/');
        snprintf(beside, sizeof(beside), "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, base);
        const char *candidates[2] = {named, beside};
        for (int c = 0; c < 2; c++) {
            petw_pdb_info info;
            if (petw_pdb_open(candidates[c], out, NULL, 0) < 0)
                continue;
            petw_pdb_get_info(*out, &info);
            if (petw_guid_equal(&info.guid, &guid) && info.age == age)
                return 0;
            fprintf(stderr, "petw symbolize: %s: not %s's PDB (another GUID or age)\n",
                    candidates[c], path);
            petw_pdb_close(*out);
            *out = NULL;
        }
        fprintf(stderr, "petw symbolize: %s: its PDB %s (age %u) is not found\n", path, named, age);
        return -1;
    }
#undef U16
#undef U32
    fprintf(stderr, "petw symbolize: %s: the image names no PDB (no RSDS debug entry)\n", path);
    return -1;
}

static int parse_address(const char *s, uint64_t *out)
{
    char *end;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (!*s || *s == '-' || *s == '+')
        return -1;
    *out = strtoull(s, &end, hex ? 16 : 10);
    return *end ? -1 : 0;
}

const char symbolize_usage[] =
    "usage: petw symbolize FILE [ADDRESS...] [--format text|json]\n"
    "Prints each address's frames, innermost first: the inlined functions there,\n"
    "then the function that holds them, with file and line. FILE is a PDB, or a PE\n"
    "image whose PDB (named by its RSDS debug entry) is at the recorded path or\n"
    "beside it: each ADDRESS is then an RVA (the address less the image's base); or\n"
    "an ELF file: each ADDRESS a virtual address. ADDRESS is 0x-prefixed hex or\n"
    "decimal. Without ADDRESS arguments, addresses are read from standard input\n"
    "(separated by white space).\n"
    "Options:\n"
    "  --format F             text (default) or json: a list with one object per\n"
    "                         address, {\"address\": \"0x1040\", \"frames\": [...]}\n";

/* What symbolize reads: a PDB (of a PE image, or named), or an ELF file
 * through the symbolizer (fp stays open for the address-to-offset map). */
typedef struct target {
    const char *path, *elf_path;
    petw_pdb *pdb;
    petw_symbolizer *sym;
    FILE *fp;
} target;

/* Opens FILE as a PDB, a PE image's PDB or an ELF file; 0, or -1 said. */
static int open_target(target *t, const char *path)
{
    FILE *fp = fopen(path, "rb");
    unsigned char magic[4] = {0};
    *t = (target){path, path, NULL, NULL, NULL};
    if (!fp) {
        fprintf(stderr, "petw symbolize: cannot open %s\n", path);
        return -1;
    }
    size_t got = fread(magic, 1, sizeof(magic), fp);
    int elf = got == 4 && !memcmp(magic,
                                  "\x7f"
                                  "ELF",
                                  4);
    if (got >= 2 && magic[0] == 'M' && magic[1] == 'Z') {
        int rc = pe_pdb(fp, path, &t->pdb);
        fclose(fp);
        return rc < 0 ? -1 : 0;
    }
    if (!elf) {
        fclose(fp);
        char why[256];
        int rc = petw_pdb_open(path, &t->pdb, why, sizeof(why));
        if (rc < 0) {
            fprintf(stderr, "petw symbolize: %s: %s\n", path, why);
            return -1;
        }
        return 0;
    }
    /* The symbolizer opens an image by its absolute path, as traces record it. */
#ifndef _WIN32
    static char elf_path_buf[4096];
    if (realpath(path, elf_path_buf))
        t->elf_path = elf_path_buf;
#endif
    petw_symbolizer_config config;
    petw_symbolizer_config_init(&config);
    int rc = petw_symbolizer_new(&config, &t->sym);
    if (rc < 0) {
        fprintf(stderr, "petw symbolize: %s: this build reads no ELF symbols (%s)\n", path,
                petw_strerror(rc));
        fclose(fp);
        return -1;
    }
    t->fp = fp;
    return 0;
}

/* The frames at VALUE (TEXT, its hex), innermost first, in F (*N of them);
 * 0, or a negative PETW_E* code said on stderr. */
static int lookup_frames(const target *t, uint64_t value, const char *text, frame *f, uint32_t *n)
{
    int rc = 0;
    *n = 0;
    if (t->pdb) {
        petw_pdb_frame pf[MAX_FRAMES];
        if (value <= UINT32_MAX)
            rc = petw_pdb_lookup(t->pdb, (uint32_t)value, pf, MAX_FRAMES, n);
        if (rc < 0)
            fprintf(stderr, "petw symbolize: %s at %s: %s\n", t->path, text,
                    petw_pdb_last_error(t->pdb)[0] ? petw_pdb_last_error(t->pdb)
                                                   : petw_strerror(rc));
        for (uint32_t k = 0; rc == 0 && k < *n; k++)
            f[k] = (frame){pf[k].function, pf[k].file, pf[k].line};
    } else {
        petw_source_line sl[MAX_FRAMES];
        int64_t off = elf_offset(t->fp, value);
        if (off >= 0)
            rc = petw_symbolizer_lookup(t->sym, t->elf_path, NULL, 0, (uint64_t)off, sl, MAX_FRAMES,
                                        n);
        if (rc < 0)
            fprintf(stderr, "petw symbolize: %s at %s: %s\n", t->path, text, petw_strerror(rc));
        for (uint32_t k = 0; rc == 0 && k < *n; k++)
            f[k] = (frame){sl[k].function, sl[k].file, sl[k].line};
    }
    return rc;
}

int cmd_symbolize(int argc, char **argv)
{
    int json = 0;
    const char *path = NULL;
    char *addresses[4096];
    int count = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            const char *f = argv[++i];
            if (strcmp(f, "json") && strcmp(f, "text"))
                return command_usage_error("symbolize", "unknown format '%s' (text or json)", f);
            json = !strcmp(f, "json");
        } else if (!strcmp(argv[i], "--format")) {
            return command_usage_error("symbolize", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] && !path) {
            return command_usage_error("symbolize", "unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else if (count < (int)(sizeof(addresses) / sizeof(addresses[0]))) {
            addresses[count++] = argv[i];
        } else {
            fprintf(stderr, "petw symbolize: more than %d addresses\n", count);
            return 2;
        }
    }
    if (!path)
        return command_usage_error("symbolize", "%s", "no FILE");
    uint64_t values[sizeof(addresses) / sizeof(addresses[0])];
    for (int i = 0; i < count; i++)
        if (parse_address(addresses[i], &values[i]) < 0) {
            fprintf(stderr, "petw symbolize: not an address: '%s'\n", addresses[i]);
            return 2;
        }

    target t;
    if (open_target(&t, path) < 0)
        return 1;
    int status = 0;
    if (json)
        putchar('[');
    for (int i = 0;; i++) {
        frame f[MAX_FRAMES];
        uint32_t n = 0;
        char text[32], token[64];
        uint64_t value;
        if (count) { /* the arguments */
            if (i == count)
                break;
            value = values[i];
        } else if (scanf("%63s", token) != 1) { /* else stdin, as llvm-symbolizer */
            break;
        } else if (parse_address(token, &value) < 0) {
            fprintf(stderr, "petw symbolize: not an address: '%s'\n", token);
            status = 1;
            i--;
            continue;
        }
        snprintf(text, sizeof(text), "0x%" PRIx64, value);
        if (lookup_frames(&t, value, text, f, &n) < 0) {
            status = 1;
            n = 0;
        }
        print_address(json, i == 0, text, f, n);
    }
    if (json)
        puts("\n]");
    if (t.pdb)
        petw_pdb_close(t.pdb);
    if (t.sym)
        petw_symbolizer_free(t.sym);
    if (t.fp)
        fclose(t.fp);
    return status;
}
