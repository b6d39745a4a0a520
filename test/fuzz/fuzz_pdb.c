/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the PDB reader (petw/pdb.h). Any input is refused with
 * a reason or opened, and then every lookup over the first pages of code
 * returns frames or an error, never reading outside the input (a copy of
 * its exact size) or allocating without bound. The input is also read as an
 * MSVC-decorated public name (read/pdb/undecorate.h, the publics'
 * fallback): undecorated into a buffer or left as it is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <petw/pdb.h>

#include "read/pdb/undecorate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    petw_pdb *pdb;
    char why[160];
    if (petw_pdb_open_memory(copy, size, &pdb, why, sizeof(why)) == 0) {
        petw_pdb_info info;
        petw_pdb_get_info(pdb, &info);
        petw_pdb_frame frames[16];
        uint32_t n;
        for (uint32_t rva = 0xff0; rva < 0x1200; rva += 3)
            if (petw_pdb_lookup(pdb, rva, frames, 16, &n) == 0 && n > 16)
                __builtin_trap();
        petw_pdb_close(pdb);
    } else if (!why[0]) {
        __builtin_trap(); /* a refusal always says why */
    }
    free(copy);
    /* The input up to its first NUL as a name, '?' first (a decorated name
     * starts so), in a buffer of its exact size. */
    size_t len = size < 4096 ? size : 4096;
    const uint8_t *nul = memchr(data, 0, len);
    if (nul)
        len = (size_t)(nul - data);
    char *name = malloc(len + 2);
    if (!name)
        return 0;
    name[0] = '?';
    memcpy(name + 1, data, len);
    name[len + 1] = 0;
    char out[1024];
    int n = petw__pdb_undecorate(name, out, sizeof(out));
    if (n >= (int)sizeof(out) || (n >= 0 && strlen(out) != (size_t)n))
        __builtin_trap();
    free(name);
    return 0;
}
