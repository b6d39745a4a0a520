/* petw/types.h - value types shared by every part of the native API.
 *
 * The structs here have exactly the layout of their ETW counterparts
 * (GUID, EVENT_DESCRIPTOR, EVENT_DATA_DESCRIPTOR, EVENT_HEADER, EVENT_RECORD,
 * ...), so the ETW-compatible headers in <petw/etw/> are thin typedef'd views
 * of the same bytes; the library checks this with static assertions.
 */
#ifndef PETW_TYPES_H
#define PETW_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A GUID in its in-memory (little-endian fields) form; 16 bytes. */
typedef struct petw_guid {
    uint32_t data1;
    uint16_t data2;
    uint16_t data3;
    uint8_t data4[8];
} petw_guid;

/* Identity and filtering attributes of one event; 16 bytes (EVENT_DESCRIPTOR). */
typedef struct petw_event_descriptor {
    uint16_t id;
    uint8_t version;
    uint8_t channel;
    uint8_t level;
    uint8_t opcode;
    uint16_t task;
    uint64_t keyword;
} petw_event_descriptor;

/* One piece of an event's payload; 16 bytes (EVENT_DATA_DESCRIPTOR).
 * `ptr` is the address as an integer so the layout is the same for 32- and
 * 64-bit code. `type` is 0 for payload (the metadata types are reserved for
 * TraceLogging). */
typedef struct petw_data_descriptor {
    uint64_t ptr;
    uint32_t size;
    uint8_t type;
    uint8_t reserved1;
    uint16_t reserved2;
} petw_data_descriptor;

/* Event header as delivered to consumers; 80 bytes (EVENT_HEADER). */
typedef struct petw_event_header {
    uint16_t size;
    uint16_t header_type;
    uint16_t flags;
    uint16_t event_property;
    uint32_t thread_id;
    uint32_t process_id;
    int64_t timestamp;
    petw_guid provider_id;
    petw_event_descriptor descriptor;
    union {
        struct {
            uint32_t kernel_time;
            uint32_t user_time;
        } times;
        uint64_t processor_time;
    } cpu;
    petw_guid activity_id;
} petw_event_header;

/* EVENT_HEADER_FLAG_* values. */
#define PETW_EVENT_HEADER_FLAG_EXTENDED_INFO 0x0001
#define PETW_EVENT_HEADER_FLAG_PRIVATE_SESSION 0x0002
#define PETW_EVENT_HEADER_FLAG_STRING_ONLY 0x0004
#define PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE 0x0008
#define PETW_EVENT_HEADER_FLAG_NO_CPUTIME 0x0010
#define PETW_EVENT_HEADER_FLAG_32_BIT_HEADER 0x0020
#define PETW_EVENT_HEADER_FLAG_64_BIT_HEADER 0x0040
#define PETW_EVENT_HEADER_FLAG_DECODE_GUID 0x0080
#define PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER 0x0100
#define PETW_EVENT_HEADER_FLAG_PROCESSOR_INDEX 0x0200

/* Processor and session of the buffer an event came from (ETW_BUFFER_CONTEXT). */
typedef struct petw_buffer_context {
    union {
        struct {
            uint8_t processor_number;
            uint8_t alignment;
        } p;
        uint16_t processor_index;
    } u;
    uint16_t logger_id;
} petw_buffer_context;

/* One extended-data item of an event (EVENT_HEADER_EXTENDED_DATA_ITEM). */
typedef struct petw_extended_item {
    uint16_t reserved1;
    uint16_t ext_type;
    uint16_t linkage; /* bit 0 in ETW's bit-field; petw leaves it 0 */
    uint16_t data_size;
    uint64_t data_ptr;
} petw_extended_item;

#define PETW_EXT_TYPE_RELATED_ACTIVITYID 1
#define PETW_EXT_TYPE_EVENT_SCHEMA_TL 11
#define PETW_EXT_TYPE_PROV_TRAITS 12

/* An event as delivered to a consumer callback (EVENT_RECORD). Every pointer
 * points into the reader's memory and is valid only during the callback. */
typedef struct petw_event_record {
    petw_event_header header;
    petw_buffer_context buffer_context;
    uint16_t extended_data_count;
    uint16_t user_data_length;
    petw_extended_item *extended_data;
    void *user_data;
    void *user_context;
} petw_event_record;

/* Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", with or without braces.
 * Returns 0 or PETW_EINVAL. */
int petw_guid_parse(const char *text, petw_guid *out);

/* Writes the lowercase text form (36 chars + NUL) into `out` (>= 37 bytes). */
void petw_guid_format(const petw_guid *guid, char out[37]);

/* 1 when both GUIDs are equal, else 0. */
int petw_guid_equal(const petw_guid *a, const petw_guid *b);

/* Derives a provider GUID from a provider name (UTF-8) the way EventSource
 * and TraceLogging tooling do (SHA-1 of a fixed namespace and the
 * upper-cased UTF-16BE name, as a version-5 GUID), so providers known only
 * by name can be enabled: petw_guid_from_name("MySource") is
 * a61ea624-4944-55fc-c2a8-37838829438d. Case-insensitive for ASCII and
 * Latin-1 letters; other characters are hashed as they are.
 * Returns 0, PETW_EINVAL (NULL or empty name) or PETW_ENOMEM. */
int petw_guid_from_name(const char *name, petw_guid *out);

#ifdef __cplusplus
}
#endif
#endif /* PETW_TYPES_H */
