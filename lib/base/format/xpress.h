/* SPDX-License-Identifier: MIT */
/* xpress.h - MS-XCA "plain LZ77" (XPRESS) decompression, as Windows uses
 * for compressed ETL buffers (EVENT_TRACE_COMPRESSED_MODE, relogged files).
 * Written against [MS-XCA] 2.4 (Plain LZ77 Decompression Algorithm Details);
 * no well-kept library in Debian implements this variant. Never trusts its
 * input: every read and every back-reference is checked. */
#ifndef PETW_XPRESS_H
#define PETW_XPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Decompresses `in` into `out`. Returns the number of bytes produced, or
 * -1 when the input is malformed (a match before the start of the output,
 * a truncated length or flag word) or does not fit `out_size`. Stops at the
 * end of the input or once `out_size` bytes are produced. */
ptrdiff_t petw__xpress_decompress(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size);

#endif
