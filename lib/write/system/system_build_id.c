/* SPDX-License-Identifier: MIT */
/* system_build_id.c - an ELF file's GNU build-id (NT_GNU_BUILD_ID in a
 * PT_NOTE segment), as the kernel and perf read it: 64-bit and 32-bit,
 * little-endian; the file read through platform's files.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#include <string.h>

#include "../../base/platform/platform.h"
#include "system_internal.h"

uint32_t petw__system_build_id(const char *path, uint8_t *out)
{
    petw__file f;
    uint64_t file_size;
    if (!path || path[0] != '/' || petw__file_open_read(path, &f, &file_size) != 0)
        return 0;
    uint32_t got = 0;
    uint8_t eh[64], ph[56], note[1024];
    if (petw__file_pread(&f, eh, sizeof(eh), 0) != 0 || memcmp(eh, "\177ELF", 4) != 0 ||
        eh[5] != 1 /* ELFDATA2LSB */) {
        petw__file_close(&f);
        return 0;
    }
    int is64 = eh[4] == 2;
    uint64_t phoff = is64 ? petw__rd64(eh + 32) : petw__rd32(eh + 28);
    uint32_t phentsize = is64 ? petw__rd16(eh + 54) : petw__rd16(eh + 42);
    uint32_t phnum = is64 ? petw__rd16(eh + 56) : petw__rd16(eh + 44);
    for (uint32_t k = 0; k < phnum && k < 64 && !got; k++) {
        if (phentsize > sizeof(ph) ||
            petw__file_pread(&f, ph, phentsize, phoff + (uint64_t)k * phentsize) != 0)
            break;
        if (petw__rd32(ph) != 4 /* PT_NOTE */)
            continue;
        uint64_t off = is64 ? petw__rd64(ph + 8) : petw__rd32(ph + 4);
        uint64_t size = is64 ? petw__rd64(ph + 32) : petw__rd32(ph + 16);
        if (size > sizeof(note))
            size = sizeof(note);
        if (off >= file_size)
            continue;
        if (size > file_size - off) /* what the file holds of it */
            size = file_size - off;
        int64_t n = petw__file_pread(&f, note, (size_t)size, off) == 0 ? (int64_t)size : 0;
        for (int64_t at = 0; n > 0 && at + 12 <= n;) {
            uint32_t namesz = petw__rd32(note + at), descsz = petw__rd32(note + at + 4);
            uint32_t type = petw__rd32(note + at + 8);
            int64_t name_at = at + 12, desc_at = name_at + (int64_t)((namesz + 3) & ~3u);
            if (namesz > 64 || descsz > 256 || desc_at + (int64_t)descsz > n)
                break;
            if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
                memcmp(note + name_at, "GNU", 4) == 0 && descsz &&
                descsz <= PETW__SYS_BUILD_ID_MAX) {
                memcpy(out, note + desc_at, descsz);
                got = descsz;
                break;
            }
            at = desc_at + (int64_t)((descsz + 3) & ~3u);
        }
    }
    petw__file_close(&f);
    return got;
}
