/* SPDX-License-Identifier: MIT */
/* pdb_internal.h - what pdb.c (the MSF container, the info, DBI and string
 * streams), pdb_records.c (the type and ID streams, the publics) and
 * pdb_lookup.c (module symbols, lines, inline sites) share.
 *
 * Allowed dependencies: common, platform.
 */
#ifndef PETW_PDB_INTERNAL_H
#define PETW_PDB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../../base/common/common.h"
#include "../../base/platform/platform.h"
#include "petw/pdb.h"

/* Fixed streams of MSF 7.0 PDBs. */
#define PDB_STREAM_INFO 1
#define PDB_STREAM_TPI 2
#define PDB_STREAM_DBI 3
#define PDB_STREAM_IPI 4
#define PDB_NO_STREAM 0xFFFFu

/* A module whose streams are held in memory while addresses fall in it. */
typedef struct pdb_proc {
    uint16_t segment;
    uint32_t offset, size; /* code range in the segment */
    uint32_t record;       /* offset of its S_*PROC32 record in the module stream */
} pdb_proc;

typedef struct pdb_line_block {
    uint16_t segment;
    uint32_t offset, size; /* code range the DEBUG_S_LINES subsection describes */
    uint32_t at, length;   /* the subsection's data in the module stream */
} pdb_line_block;

typedef struct pdb_module_data {
    uint8_t *bytes; /* symbols (from offset 4), C11 lines, C13 subsections */
    uint32_t size;
    uint32_t symbols_end; /* end of the symbol records */
    pdb_proc *procs;
    uint32_t proc_count;
    pdb_line_block *lines;
    uint32_t line_count;
    uint32_t checksums_at, checksums_length; /* DEBUG_S_FILECHKSMS (0: none) */
    uint32_t *inlinee_at;                    /* DEBUG_S_INLINEELINES: data offsets */
    uint32_t *inlinee_length;
    uint32_t inlinee_count;
} pdb_module_data;

typedef struct pdb_module {
    uint16_t stream;
    uint32_t symbol_bytes, c11_bytes, c13_bytes;
    const char *name;
    pdb_module_data *data; /* NULL until an address falls in it */
} pdb_module;

typedef struct pdb_contribution {
    uint16_t section;
    uint16_t module;
    uint32_t offset, size;
} pdb_contribution;

typedef struct pdb_section {
    uint32_t rva, size;
} pdb_section;

typedef struct pdb_public {
    uint16_t segment;
    uint32_t offset;
    uint32_t record; /* offset of its S_PUB32 record in the symbol record stream */
} pdb_public;

/* A type stream (TPI or IPI): the offset of every record, built when a
 * record of it is first read. */
typedef struct pdb_types {
    int loaded;
    uint32_t first, end; /* type indexes [first, end) */
    uint32_t *offsets;   /* of each record's length field in the stream */
} pdb_types;

typedef struct pdb_string_chunk pdb_string_chunk;

struct petw_pdb {
    petw__file file;
    int have_file;
    const uint8_t *memory; /* petw_pdb_open_memory */
    uint64_t file_size;
    uint32_t block_size, block_count;
    uint32_t stream_count;
    uint32_t *stream_sizes; /* 0xFFFFFFFF (a nil stream) read as 0 */
    uint32_t **stream_blocks;
    uint32_t *directory; /* the stream directory as read */
    petw_pdb_info info;
    uint32_t names_stream; /* "/names", or UINT32_MAX */
    uint32_t names_size;
    uint32_t symbol_record_stream;
    uint8_t *module_info; /* the DBI module info substream (names point into it) */
    pdb_module *modules;
    uint32_t module_count;
    pdb_contribution *contributions;
    uint32_t contribution_count;
    pdb_section *sections;
    uint32_t section_count;
    pdb_public *publics;
    uint32_t public_count;
    int publics_loaded;
    pdb_types tpi, ipi;
    uint64_t cached_bytes; /* module streams held in memory */
    pdb_string_chunk *strings;
    char **intern_slots;
    uint32_t intern_count, intern_cap;
    char error[160];
};

/* Reads `size` bytes at `offset` of stream `stream`. Returns 0, or
 * PETW_ECORRUPT (no such stream, past its end: the reason in pdb->error),
 * PETW_EIO. */
int petw__pdb_stream_read(petw_pdb *pdb, uint32_t stream, uint64_t offset, void *out,
                          uint32_t size);
uint32_t petw__pdb_stream_size(const petw_pdb *pdb, uint32_t stream);
/* Sets pdb->error; returns err. */
int petw__pdb_fail(petw_pdb *pdb, int err, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The NUL-terminated string at `offset` of `stream` (read up to `end`, at
 * most 4 KB), interned; NULL when there is none. */
const char *petw__pdb_stream_string(petw_pdb *pdb, uint32_t stream, uint64_t offset, uint64_t end);
/* The string at `offset` of the "/names" table, interned; NULL when there
 * is none there. */
const char *petw__pdb_name(petw_pdb *pdb, uint32_t offset);
/* `s` (n bytes, no NUL needed) interned until petw_pdb_close(); NULL when
 * out of memory. */
const char *petw__pdb_intern(petw_pdb *pdb, const char *s, size_t n);
/* The name of an inlinee (an IPI index: LF_FUNC_ID with its scope,
 * LF_MFUNC_ID with its class's name from the TPI), interned; NULL when
 * unknown. */
const char *petw__pdb_inlinee_name(petw_pdb *pdb, uint32_t id);
/* Loads the publics (sorted by address) on first use. Returns 0 or an error. */
int petw__pdb_load_publics(petw_pdb *pdb);
/* The name of the public whose record is at `record`: an MSVC-decorated
 * name undecorated (undecorate.h) where that reads it, else as stored. */
const char *petw__pdb_public_name(petw_pdb *pdb, uint32_t record);

/* Bounds of what a file may make the reader allocate or walk. */
#define PDB_MAX_MODULE_STREAM (256u << 20) /* one module's symbols and lines */
#define PDB_MAX_CACHED (512u << 20)        /* module streams held at once */
#define PDB_MAX_RECORD 0x10000u            /* a symbol or type record */

#endif
