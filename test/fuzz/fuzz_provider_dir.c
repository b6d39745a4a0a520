/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a provider-directory file ("providers-<pid>" in the
 * runtime directory), which `petw providers` and the session commands read
 * though another process of the user wrote it (lib/base/registry/procdir.c). The
 * input is the whole file, copied into an allocation of its size (as
 * petw__file_read_private gives it); when petw__procdir_decode accepts it,
 * every entry's name must be a string within its field (the decoder
 * terminates them), and the count must match the size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/base/registry/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    petw__procdir_header h;
    petw__proc_entry *e;
    if (petw__procdir_decode(copy, size, &h, &e) == 0) {
        if (size != sizeof(h) + (size_t)h.count * sizeof(*e))
            abort();
        for (uint32_t i = 0; i < h.count; i++)
            if (strnlen(e[i].name, sizeof(e[i].name)) == sizeof(e[i].name))
                abort();
    }
    free(copy);
    return 0;
}
