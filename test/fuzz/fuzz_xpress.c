/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the MS-XCA plain LZ77 decompressor. Any input must
 * decompress or be refused without writing outside the output buffer or
 * reading outside the input (both sized exactly for ASan). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/base/format/xpress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t out_size = ((size_t)data[0] << 8 | data[1]) % 70000;
    uint8_t *in = malloc(size - 2 ? size - 2 : 1), *out = malloc(out_size ? out_size : 1);
    if (!in || !out) {
        free(in);
        free(out);
        return 0;
    }
    memcpy(in, data + 2, size - 2);
    ptrdiff_t n = petw__xpress_decompress(in, size - 2, out, out_size);
    if (n > (ptrdiff_t)out_size || n < -1)
        __builtin_trap();
    free(in);
    free(out);
    return 0;
}
