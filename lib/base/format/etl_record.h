/* SPDX-License-Identifier: MIT */
/* etl_record.h - stepping through the records of an unpacked buffer, the
 * loop every reader and the flusher run over every record: the common case
 * inline, the rest in etl_record.c, beside the record decoder.
 *
 * Allowed dependencies: common/, platform/, classes/, zstd, xxHash. */
#ifndef PETW_ETL_RECORD_H
#define PETW_ETL_RECORD_H

#include "etl.h"

/* Steps through the records of an unpacked buffer. *pos starts at 0x48.
 * Returns 1 with *rec filled, 0 at the end, PETW_ECORRUPT on a malformed
 * record (with *why). Never reads past `used`. The common record, an
 * EVENT_HEADER that fits, is taken inline (the flusher and the reader step
 * through every record of every buffer); every other case, and every
 * error, is the out-of-line function's, which accepts the same records. */
int petw__etl_next_record_any(const uint8_t *buf, uint32_t used, uint32_t *pos,
                              petw__etl_record *rec, const char **why);
static inline int petw__etl_next_record(const uint8_t *buf, uint32_t used, uint32_t *pos,
                                        petw__etl_record *rec, const char **why)
{
    const uint32_t at = *pos;
    if (at >= PETW__BH_SIZE && (uint64_t)at + 8 <= used) {
        const uint8_t *r = buf + at;
        const uint32_t size = petw__rd16(r);
        /* Type and marker: neither the 0xFF fill nor a message header. */
        if (r[2] == PETW__HDR_EVENT64 && (r[3] & PETW__HDR_MARKER_MASK) == PETW__HDR_MARKER_MASK &&
            size >= PETW__EVENT_HEADER_SIZE && (uint64_t)at + size <= used) {
            rec->offset = at;
            rec->size = size;
            rec->header_type = PETW__HDR_EVENT64;
            rec->timestamp = (int64_t)petw__rd64(r + 16);
            *pos = at + PETW__ALIGN8(size);
            return 1;
        }
    }
    return petw__etl_next_record_any(buf, used, pos, rec, why);
}

#endif /* PETW_ETL_RECORD_H */
