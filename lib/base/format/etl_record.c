/* SPDX-License-Identifier: MIT */
/* etl_record.c - one ETL record to an EVENT_RECORD: every record kind
 * Windows and petw write (EVENT_HEADER records, classic SYSTEM/COMPACT/
 * PERFINFO kernel records, FULL/INSTANCE classic events, WPP messages).
 * The record was bounded by petw__etl_next_record; every field read here
 * is checked against the record's own size. */
#include "../classes/kernel_class.h"
#include "etl_record.h"

/* A WPP message (TRACE_MESSAGE): u16 Size, then flag bits 0x10 (message)
 * and 0x80 (marker) in the top byte. Optional fields follow the 8-byte
 * header; the timestamp, when present, comes after the sequence number and
 * the GUID or component ID. */
static int next_message(const uint8_t *r, uint32_t at, uint32_t used, uint32_t *pos,
                        petw__etl_record *rec, const char **why)
{
    if ((uint64_t)at + 8 > used) {
        *why = "truncated message record";
        return PETW_ECORRUPT;
    }
    uint32_t size = petw__rd16(r);
    uint16_t opts = petw__rd16(r + 6);
    uint32_t field = 8;
    if (opts & PETW__MSG_SEQUENCE)
        field += 4;
    if (opts & PETW__MSG_GUID)
        field += 16;
    else if (opts & PETW__MSG_COMPONENTID)
        field += 4;
    if (size < 8 || (uint64_t)field + ((opts & PETW__MSG_TIMESTAMP) ? 8 : 0) > size ||
        (uint64_t)at + size > used) {
        *why = "message record size out of range";
        return PETW_ECORRUPT;
    }
    rec->offset = at;
    rec->size = size;
    rec->header_type = PETW__HDR_MESSAGE;
    rec->timestamp = (opts & PETW__MSG_TIMESTAMP) ? (int64_t)petw__rd64(r + field) : 0;
    *pos = at + PETW__ALIGN8(size);
    return 1;
}

int petw__etl_next_record_any(const uint8_t *buf, uint32_t used, uint32_t *pos,
                              petw__etl_record *rec, const char **why)
{
    uint32_t at = *pos;
    if (at < PETW__BH_SIZE)
        at = PETW__BH_SIZE;
    if ((uint64_t)at + 4 > used)
        return 0;
    const uint8_t *r = buf + at;
    if (petw__rd32(r) == 0xFFFFFFFFu)
        return 0;
    uint8_t type = r[2];
    uint32_t size, min, ts_off;
    if (petw__etl_is_message(r))
        return next_message(r, at, used, pos, rec, why);
    /* Every other header keeps its size in its first 8 bytes. */
    if ((uint64_t)at + 8 > used) {
        *why = "truncated record header";
        return PETW_ECORRUPT;
    }
    if ((r[3] & PETW__HDR_MARKER_MASK) != PETW__HDR_MARKER_MASK) {
        *why = "record without the header marker";
        return PETW_ECORRUPT;
    }
    switch (type) {
    case PETW__HDR_SYSTEM32:
    case PETW__HDR_SYSTEM64:
        size = petw__rd16(r + 4), min = PETW__SYSTEM_HEADER_SIZE, ts_off = 16;
        break;
    case PETW__HDR_COMPACT32:
    case PETW__HDR_COMPACT64:
        size = petw__rd16(r + 4), min = PETW__COMPACT_HEADER_SIZE, ts_off = 16;
        break;
    case PETW__HDR_PERFINFO32:
    case PETW__HDR_PERFINFO64:
        size = petw__rd16(r + 4), min = PETW__PERFINFO_HEADER_SIZE, ts_off = 8;
        break;
    case PETW__HDR_EVENT32:
    case PETW__HDR_EVENT64:
        size = petw__rd16(r), min = PETW__EVENT_HEADER_SIZE, ts_off = 16;
        break;
    case PETW__HDR_FULL32:
    case PETW__HDR_FULL64:
        size = petw__rd16(r), min = PETW__FULL_HEADER_SIZE, ts_off = 16;
        break;
    case PETW__HDR_INSTANCE32:
    case PETW__HDR_INSTANCE64:
        size = petw__rd16(r), min = PETW__INSTANCE_HEADER_SIZE, ts_off = 16;
        break;
    default:
        *why = "unknown record header type";
        return PETW_ECORRUPT;
    }
    if (size < min || (uint64_t)at + size > used) {
        *why = "record size out of range";
        return PETW_ECORRUPT;
    }
    rec->offset = at;
    rec->size = size;
    rec->header_type = type;
    rec->timestamp = (int64_t)petw__rd64(r + ts_off);
    *pos = at + PETW__ALIGN8(size);
    return 1;
}

/* The extended items of an EVENT_HEADER record, from `*pos` on. */
static int decode_ext_items(const uint8_t *r, uint16_t size, uint32_t *pos, petw_event_record *e,
                            petw_extended_item *ext, uint32_t ext_max)
{
    for (;;) {
        uint32_t at = *pos;
        if (at + PETW__EXT_ITEM_HEADER > size || e->extended_data_count >= ext_max)
            return PETW_ECORRUPT;
        uint16_t total = petw__rd16(r + at), data_size = petw__rd16(r + at + 6);
        uint16_t linkage = petw__rd16(r + at + 4);
        if (total < PETW__EXT_ITEM_HEADER || at + total > size ||
            data_size > total - PETW__EXT_ITEM_HEADER)
            return PETW_ECORRUPT;
        petw_extended_item *x = &ext[e->extended_data_count++];
        x->reserved1 = 0;
        x->ext_type = petw__rd16(r + at + 2);
        x->linkage = (uint16_t)(linkage & 1);
        x->data_size = data_size;
        x->data_ptr = (uint64_t)(uintptr_t)(r + at + PETW__EXT_ITEM_HEADER);
        *pos = at + total;
        if (!(linkage & 1))
            return 0;
    }
}

/* EVENT_HEADER records (what EventWrite produces). */
static int decode_event(const uint8_t *r, uint8_t type, petw_event_record *e,
                        petw_extended_item *ext, uint32_t ext_max)
{
    uint16_t size = petw__rd16(r);
    memcpy(&e->header, r, PETW__EVENT_HEADER_SIZE);
    e->header.header_type = 0;
    e->header.flags |= type == PETW__HDR_EVENT64 ? PETW_EVENT_HEADER_FLAG_64_BIT_HEADER
                                                 : PETW_EVENT_HEADER_FLAG_32_BIT_HEADER;
    uint32_t pos = PETW__EVENT_HEADER_SIZE;
    if (e->header.flags & PETW_EVENT_HEADER_FLAG_EXTENDED_INFO) {
        PETW__FORWARD_IF_ERROR(decode_ext_items(r, size, &pos, e, ext, ext_max));
        e->extended_data = ext;
    }
    e->user_data = (void *)(uintptr_t)(r + pos);
    e->user_data_length = (uint16_t)(size - pos);
    return 0;
}

/* SYSTEM, COMPACT and PERFINFO records: the NT Kernel Logger's classic
 * events, whose HookId gives the class (group) and the opcode. */
static int decode_system(const uint8_t *r, uint8_t type, petw_event_record *e)
{
    int perf = type == PETW__HDR_PERFINFO32 || type == PETW__HDR_PERFINFO64;
    int compact = type == PETW__HDR_COMPACT32 || type == PETW__HDR_COMPACT64;
    uint32_t hsize = perf      ? PETW__PERFINFO_HEADER_SIZE
                     : compact ? PETW__COMPACT_HEADER_SIZE
                               : PETW__SYSTEM_HEADER_SIZE;
    uint16_t size = petw__rd16(r + 4);
    uint16_t hook = petw__rd16(r + 6);
    /* Version bit 0x8000: an 8-byte PEBS index follows the header;
     * bits 0x0700: that many 8-byte PMC counters. */
    uint16_t version = petw__rd16(r);
    if (version & PETW__SYS_VERSION_PEBS)
        hsize += 8;
    hsize += 8u * ((version >> PETW__SYS_VERSION_PMC_SHIFT) & PETW__SYS_VERSION_PMC_MASK);
    if (hsize > size)
        return PETW_ECORRUPT;
    int is32 =
        type == PETW__HDR_SYSTEM32 || type == PETW__HDR_COMPACT32 || type == PETW__HDR_PERFINFO32;
    e->header.size = size;
    e->header.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                                 (is32 ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                       : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER));
    if (!perf) {
        e->header.thread_id = petw__rd32(r + 8);
        e->header.process_id = petw__rd32(r + 12);
    } else {
        e->header.thread_id = e->header.process_id = UINT32_MAX;
    }
    e->header.timestamp = (int64_t)petw__rd64(r + (perf ? 8 : 16));
    if (!perf && !compact) {
        e->header.cpu.times.kernel_time = petw__rd32(r + 24);
        e->header.cpu.times.user_time = petw__rd32(r + 28);
    }
    const petw__kernel_class *c = petw__kernel_class_by_hook(hook);
    if (c)
        e->header.provider_id = c->guid;
    e->header.descriptor.opcode = (uint8_t)hook;
    e->header.descriptor.task = (uint16_t)(hook >> 8);
    e->header.descriptor.version = (uint8_t)version;
    e->user_data = (void *)(uintptr_t)(r + hsize);
    e->user_data_length = (uint16_t)(size - hsize);
    return 0;
}

/* FULL and INSTANCE records: classic (TraceEvent) events with a GUID. */
static int decode_full(const uint8_t *r, uint8_t type, petw_event_record *e)
{
    uint16_t size = petw__rd16(r);
    int full = type == PETW__HDR_FULL32 || type == PETW__HDR_FULL64;
    int is32 = type == PETW__HDR_FULL32 || type == PETW__HDR_INSTANCE32;
    uint32_t hsize = full ? PETW__FULL_HEADER_SIZE : PETW__INSTANCE_HEADER_SIZE;
    e->header.size = size;
    e->header.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                                 (is32 ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                       : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER));
    e->header.descriptor.opcode = r[4];
    e->header.descriptor.level = r[5];
    e->header.descriptor.version = (uint8_t)petw__rd16(r + 6);
    e->header.thread_id = petw__rd32(r + 8);
    e->header.process_id = petw__rd32(r + 12);
    e->header.timestamp = (int64_t)petw__rd64(r + 16);
    petw__rd_guid(r + 24, &e->header.provider_id);
    e->header.cpu.processor_time = petw__rd64(r + 40);
    e->user_data = (void *)(uintptr_t)(r + hsize);
    e->user_data_length = (uint16_t)(size - hsize);
    return 0;
}

/* WPP: u16 Size, flags; u16 MessageNumber, u16 OptionFlags; then sequence,
 * GUID or component ID, timestamp, TID/PID as flagged. */
static int decode_message(const uint8_t *r, petw_event_record *e)
{
    uint16_t size = petw__rd16(r), number = petw__rd16(r + 4), opts = petw__rd16(r + 6);
    uint32_t at = 8;
    e->header.size = size;
    e->header.flags = PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE | PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                      PETW_EVENT_HEADER_FLAG_64_BIT_HEADER;
    e->header.descriptor.id = number;
    if (opts & PETW__MSG_SEQUENCE)
        at += 4;
    if (opts & PETW__MSG_GUID) {
        PETW__RETURN_IF(at + 16 > size, PETW_ECORRUPT);
        petw__rd_guid(r + at, &e->header.provider_id);
        at += 16;
    } else if (opts & PETW__MSG_COMPONENTID) {
        PETW__RETURN_IF(at + 4 > size, PETW_ECORRUPT);
        e->header.provider_id.data1 = petw__rd32(r + at);
        at += 4;
    }
    if (opts & PETW__MSG_TIMESTAMP) {
        PETW__RETURN_IF(at + 8 > size, PETW_ECORRUPT);
        e->header.timestamp = (int64_t)petw__rd64(r + at);
        at += 8;
    }
    if (opts & PETW__MSG_SYSTEMINFO) {
        PETW__RETURN_IF(at + 8 > size, PETW_ECORRUPT);
        e->header.thread_id = petw__rd32(r + at);
        e->header.process_id = petw__rd32(r + at + 4);
        at += 8;
    }
    PETW__RETURN_IF(at > size, PETW_ECORRUPT);
    e->user_data = (void *)(uintptr_t)(r + at);
    e->user_data_length = (uint16_t)(size - at);
    return 0;
}

int petw__etl_decode_record(const uint8_t *r, petw_event_record *e, petw_extended_item *ext,
                            uint32_t ext_max)
{
    uint8_t type = petw__etl_is_message(r) ? PETW__HDR_MESSAGE : r[2];
    switch (type) {
    case PETW__HDR_EVENT32:
    case PETW__HDR_EVENT64:
        return decode_event(r, type, e, ext, ext_max);
    case PETW__HDR_SYSTEM32:
    case PETW__HDR_SYSTEM64:
    case PETW__HDR_COMPACT32:
    case PETW__HDR_COMPACT64:
    case PETW__HDR_PERFINFO32:
    case PETW__HDR_PERFINFO64:
        return decode_system(r, type, e);
    case PETW__HDR_FULL32:
    case PETW__HDR_FULL64:
    case PETW__HDR_INSTANCE32:
    case PETW__HDR_INSTANCE64:
        return decode_full(r, type, e);
    case PETW__HDR_MESSAGE:
        return decode_message(r, e);
    default:
        return PETW_ECORRUPT;
    }
}

uint32_t petw__etl_salvage_records(const uint8_t *buf, uint32_t end, uint8_t *out, uint32_t *lost)
{
    uint32_t p = PETW__BH_SIZE, o = PETW__BH_SIZE;
    while (p + 8 <= end) {
        uint16_t size = petw__rd16(buf + p), type = petw__rd16(buf + p + 2);
        if (size == 0) {
            /* Reserved, then its writer died before storing anything. */
            (*lost)++;
            p += 8;
            while (p + 8 <= end && petw__rd64(buf + p) == 0)
                p += 8;
            continue;
        }
        uint32_t asz = PETW__ALIGN8(size);
        if (size < 8 || p + asz > end) {
            (*lost)++; /* not a record: nothing after it can be found */
            break;
        }
        if (type == 0) {
            (*lost)++; /* its size, not its type: the writer died inside */
        } else {
            memcpy(out + o, buf + p, asz);
            o += asz;
        }
        p += asz;
    }
    return o;
}
