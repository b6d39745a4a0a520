/* SPDX-License-Identifier: MIT */
/* petw/pdb.h - Windows program databases (PDB, MSF 7.0) read on Linux: the
 * identity of a PDB (GUID and age, as a PE image's RSDS debug entry names
 * it) and the source frames of a code address, innermost first, as WPA
 * and llvm-symbolizer give them: inlined functions (S_INLINESITE with the
 * module's inlinee line tables), then the function that holds them
 * (S_GPROC32, S_LPROC32 and their _ID forms) at its C13 line; the publics
 * name the code no module symbol covers.
 *
 * Streams are read on demand from the file (never the whole file in
 * memory): the directory, the DBI's module list, section headers and
 * section contributions at open; a module's symbols and lines when an
 * address falls in it (a cache of modules bounded in bytes); the type and
 * ID streams' record offsets when an inlined or member function is named.
 * An old-format (2.00) or foreign file is refused, and damaged input
 * (truncated streams, absurd block maps, counts or offsets) is an error,
 * never a crash.
 *
 * Thread safety: one thread per object.
 */
#ifndef PETW_PDB_H
#define PETW_PDB_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct petw_pdb petw_pdb;

/* The identity of a PDB: what a PE image's RSDS entry (and a trace's
 * DbgID_RSDS event) carries, from the PDB info stream (GUID, signature)
 * and the DBI stream (age, which the linker updates there). */
typedef struct petw_pdb_info {
    petw_guid guid;
    uint32_t age;
    uint32_t signature; /* the 32-bit time stamp of older toolchains */
    uint32_t version;   /* the PDB info stream's version (20000404: VC7.0) */
    uint32_t modules;   /* object files (DBI module list) */
    uint32_t sections;  /* section headers of the image */
    uint32_t machine;   /* IMAGE_FILE_MACHINE_* from the DBI header */
    uint32_t reserved[8];
} petw_pdb_info;

/* One frame of source: the function, its file and line (NULL and 0 when
 * there is no line information). */
typedef struct petw_pdb_frame {
    const char *function;
    const char *file;
    uint32_t line;
} petw_pdb_frame;

/* Opens the PDB at `path`. On failure, when `why` is not NULL, a sentence
 * saying what is wrong ("an old-format PDB (2.00) is not supported",
 * "stream 3 (DBI) is truncated") is written there (NUL-terminated, cut to
 * `why_size`). Returns 0, PETW_EINVAL, PETW_ENOENT, PETW_EACCES,
 * PETW_ENOTREG, PETW_EIO, PETW_ENOMEM, PETW_ENOTSUP (an MSF 2.00 PDB) or
 * PETW_ECORRUPT (not a PDB, or damaged). */
int petw_pdb_open(const char *path, petw_pdb **out, char *why, size_t why_size);
/* The same over `size` bytes at `data`, which must stay valid and unchanged
 * until petw_pdb_close(). */
int petw_pdb_open_memory(const void *data, size_t size, petw_pdb **out, char *why, size_t why_size);
void petw_pdb_close(petw_pdb *pdb);

/* Fills *info. Returns 0 or PETW_EINVAL. */
int petw_pdb_get_info(const petw_pdb *pdb, petw_pdb_info *info);

/* The frames of the code at `rva` (an address less the image's base),
 * innermost first: the inlined functions at that address, then the
 * function holding them. Up to `max` frames are filled (the outermost
 * ones dropped when there are more); *count is 0 when no symbol covers the
 * address. Names are the PDB's own (module symbols are undecorated; a
 * public's decorated name is shown undecorated where its form is a plain
 * qualified name). Strings live until petw_pdb_close(). Returns 0,
 * PETW_EINVAL, PETW_ENOMEM, PETW_EIO, or PETW_ECORRUPT when the streams
 * that describe the address are damaged (the message then in
 * petw_pdb_last_error()). */
int petw_pdb_lookup(petw_pdb *pdb, uint32_t rva, petw_pdb_frame *frames, uint32_t max,
                    uint32_t *count);

/* A sentence about the last error petw_pdb_lookup() returned, or "". */
const char *petw_pdb_last_error(const petw_pdb *pdb);

#ifdef __cplusplus
}
#endif

#endif
