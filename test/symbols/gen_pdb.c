/* SPDX-License-Identifier: MIT */
/* gen_pdb FILE AGE: writes the small PDB of pdb_synth.h ("main" at RVA
 * 0x1010, inline sites of "helper" and "ns::Box::get", lines of "a.c")
 * with the identity gen_profile_trace gives app.exe's PDB: GUID
 * 01020304-0506-0708-090a-0b0c0d0e0f10, and age AGE (3 matches). */
#include <stdio.h>
#include <stdlib.h>

#include "pdb_synth.h"

int main(int argc, char **argv)
{
    static uint8_t pdb[PDB_SYNTH_MAX];
    static const uint8_t guid[16] = {4, 3, 2, 1, 6, 5, 8, 7, 9, 10, 11, 12, 13, 14, 15, 16};
    if (argc != 3) {
        fprintf(stderr, "usage: gen_pdb FILE AGE\n");
        return 2;
    }
    uint32_t size = pdb_synth_build_as(pdb, guid, (uint32_t)strtoul(argv[2], NULL, 10));
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(pdb, 1, size, f) != size || fclose(f) != 0)
        return 1;
    return 0;
}
