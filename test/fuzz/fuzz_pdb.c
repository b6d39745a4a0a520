/* libFuzzer target: the PDB reader (petw/pdb.h). Any input is refused with
 * a reason or opened, and then every lookup over the first pages of code
 * returns frames or an error, never reading outside the input (a copy of
 * its exact size) or allocating without bound. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <petw/pdb.h>

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
    return 0;
}
