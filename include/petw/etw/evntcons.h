/* SPDX-License-Identifier: MIT */
/* evntcons.h - EVENT_HEADER, EVENT_RECORD and their flags, as in the
 * Windows SDK. Part of petw's ETW-compatible surface; the layouts are those
 * of petw_event_header / petw_event_record in <petw/types.h>. */
#ifndef PETW_ETW_EVNTCONS_H
#define PETW_ETW_EVNTCONS_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <evntcons.h>
#else
#include <string.h>
#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID 0x0001
#define EVENT_HEADER_EXT_TYPE_SID 0x0002
#define EVENT_HEADER_EXT_TYPE_TS_ID 0x0003
#define EVENT_HEADER_EXT_TYPE_INSTANCE_INFO 0x0004
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE32 0x0005
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE64 0x0006
#define EVENT_HEADER_EXT_TYPE_PEBS_INDEX 0x0007
#define EVENT_HEADER_EXT_TYPE_PMC_COUNTERS 0x0008
#define EVENT_HEADER_EXT_TYPE_PSM_KEY 0x0009
#define EVENT_HEADER_EXT_TYPE_EVENT_KEY 0x000A
#define EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL 0x000B
#define EVENT_HEADER_EXT_TYPE_PROV_TRAITS 0x000C
#define EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY 0x000D
#define EVENT_HEADER_EXT_TYPE_CONTROL_GUID 0x000E
#define EVENT_HEADER_EXT_TYPE_QPC_DELTA 0x000F
#define EVENT_HEADER_EXT_TYPE_CONTAINER_ID 0x0010
#define EVENT_HEADER_EXT_TYPE_STACK_KEY32 0x0011
#define EVENT_HEADER_EXT_TYPE_STACK_KEY64 0x0012
#define EVENT_HEADER_EXT_TYPE_MAX 0x0013

#define EVENT_HEADER_PROPERTY_XML 0x0001
#define EVENT_HEADER_PROPERTY_FORWARDED_XML 0x0002
#define EVENT_HEADER_PROPERTY_LEGACY_EVENTLOG 0x0004
#define EVENT_HEADER_PROPERTY_RELOGGABLE 0x0008

#define EVENT_HEADER_FLAG_EXTENDED_INFO 0x0001
#define EVENT_HEADER_FLAG_PRIVATE_SESSION 0x0002
#define EVENT_HEADER_FLAG_STRING_ONLY 0x0004
#define EVENT_HEADER_FLAG_TRACE_MESSAGE 0x0008
#define EVENT_HEADER_FLAG_NO_CPUTIME 0x0010
#define EVENT_HEADER_FLAG_32_BIT_HEADER 0x0020
#define EVENT_HEADER_FLAG_64_BIT_HEADER 0x0040
#define EVENT_HEADER_FLAG_DECODE_GUID 0x0080
#define EVENT_HEADER_FLAG_CLASSIC_HEADER 0x0100
#define EVENT_HEADER_FLAG_PROCESSOR_INDEX 0x0200

typedef struct _EVENT_HEADER_EXTENDED_DATA_ITEM {
    USHORT Reserved1;
    USHORT ExtType;
    struct {
        USHORT Linkage : 1;
        USHORT Reserved2 : 15;
    };
    USHORT DataSize;
    ULONGLONG DataPtr;
} EVENT_HEADER_EXTENDED_DATA_ITEM, *PEVENT_HEADER_EXTENDED_DATA_ITEM;

typedef struct _EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID {
    GUID RelatedActivityId;
} EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID, *PEVENT_EXTENDED_ITEM_RELATED_ACTIVITYID;

typedef struct _EVENT_HEADER {
    USHORT Size;
    USHORT HeaderType;
    USHORT Flags;
    USHORT EventProperty;
    ULONG ThreadId;
    ULONG ProcessId;
    LARGE_INTEGER TimeStamp;
    GUID ProviderId;
    EVENT_DESCRIPTOR EventDescriptor;
    union {
        struct {
            ULONG KernelTime;
            ULONG UserTime;
        };
        ULONG64 ProcessorTime;
    };
    GUID ActivityId;
} EVENT_HEADER, *PEVENT_HEADER;

/* EVENT_RECORD and PEVENT_RECORD are typedefs evntrace.h declared: a
 * second typedef is not C99. */
struct _EVENT_RECORD {
    EVENT_HEADER EventHeader;
    ETW_BUFFER_CONTEXT BufferContext;
    USHORT ExtendedDataCount;
    USHORT UserDataLength;
    PEVENT_HEADER_EXTENDED_DATA_ITEM ExtendedData;
    PVOID UserData;
    PVOID UserContext;
};
typedef const EVENT_RECORD *PCEVENT_RECORD;

#define EVNTCONS_INLINE PETW__ETW_INLINE

EVNTCONS_INLINE ULONG GetEventProcessorIndex(PCEVENT_RECORD EventRecord)
{
    if ((EventRecord->EventHeader.Flags & EVENT_HEADER_FLAG_PROCESSOR_INDEX) != 0)
        return EventRecord->BufferContext.ProcessorIndex;
    return EventRecord->BufferContext.ProcessorNumber;
}

/* The extended data items' payloads (EVENT_HEADER_EXTENDED_DATA_ITEM.DataPtr
 * points at one). petw records none but the related activity ID. */
typedef struct _EVENT_EXTENDED_ITEM_INSTANCE {
    ULONG InstanceId;
    ULONG ParentInstanceId;
    GUID ParentGuid;
} EVENT_EXTENDED_ITEM_INSTANCE, *PEVENT_EXTENDED_ITEM_INSTANCE;
typedef struct _EVENT_EXTENDED_ITEM_TS_ID {
    ULONG SessionId;
} EVENT_EXTENDED_ITEM_TS_ID, *PEVENT_EXTENDED_ITEM_TS_ID;
typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE32 {
    ULONG64 MatchId;
    ULONG Address[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_STACK_TRACE32, *PEVENT_EXTENDED_ITEM_STACK_TRACE32;
typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE64 {
    ULONG64 MatchId;
    ULONG64 Address[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_STACK_TRACE64, *PEVENT_EXTENDED_ITEM_STACK_TRACE64;
typedef struct _EVENT_EXTENDED_ITEM_STACK_KEY32 {
    ULONG64 MatchId;
    ULONG StackKey;
    ULONG Padding;
} EVENT_EXTENDED_ITEM_STACK_KEY32, *PEVENT_EXTENDED_ITEM_STACK_KEY32;
typedef struct _EVENT_EXTENDED_ITEM_STACK_KEY64 {
    ULONG64 MatchId;
    ULONG64 StackKey;
} EVENT_EXTENDED_ITEM_STACK_KEY64, *PEVENT_EXTENDED_ITEM_STACK_KEY64;
typedef struct _EVENT_EXTENDED_ITEM_PEBS_INDEX {
    ULONG64 PebsIndex;
} EVENT_EXTENDED_ITEM_PEBS_INDEX, *PEVENT_EXTENDED_ITEM_PEBS_INDEX;
typedef struct _EVENT_EXTENDED_ITEM_PMC_COUNTERS {
    ULONG64 Counter[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_PMC_COUNTERS, *PEVENT_EXTENDED_ITEM_PMC_COUNTERS;
typedef struct _EVENT_EXTENDED_ITEM_PROCESS_START_KEY {
    ULONG64 ProcessStartKey;
} EVENT_EXTENDED_ITEM_PROCESS_START_KEY, *PEVENT_EXTENDED_ITEM_PROCESS_START_KEY;
typedef struct _EVENT_EXTENDED_ITEM_EVENT_KEY {
    ULONG64 Key;
} EVENT_EXTENDED_ITEM_EVENT_KEY, *PEVENT_EXTENDED_ITEM_EVENT_KEY;

/* Provider traits (EVENT_HEADER_EXT_TYPE_PROV_TRAITS): a USHORT byte count,
 * the provider's name (nul-terminated), then traits, each a USHORT byte
 * count, a UCHAR type and the trait's data. Sets *Trait and *Size to the
 * first trait of TraitType, or to NULL and 0. */
typedef enum {
    EtwProviderTraitTypeGroup = 1,
    EtwProviderTraitDecodeGuid = 2,
    EtwProviderTraitTypeMax
} ETW_PROVIDER_TRAIT_TYPE;

EVNTCONS_INLINE VOID EtwGetTraitFromProviderTraits(PVOID ProviderTraits, UCHAR TraitType,
                                                   PVOID *Trait, PUSHORT Size)
{
    PUCHAR ptr = (PUCHAR)ProviderTraits;
    USHORT count, len;
    PUCHAR end;
    *Trait = NULL;
    *Size = 0;
    memcpy(&count, ptr, sizeof count);
    end = ptr + count;
    if (count < 3)
        return;
    ptr += 2;
    {
        const void *nul = memchr(ptr, 0, count - 3u);
        ptr = nul ? (PUCHAR)nul + 1 : ptr + (count - 3u) + 1;
    }
    while (ptr + 3 <= end) {
        memcpy(&len, ptr, sizeof len);
        if (len < 3)
            return;
        if (ptr[2] == TraitType && ptr + len <= end) {
            *Trait = (PVOID)(ptr + 3);
            *Size = (USHORT)(len - 3u);
            return;
        }
        ptr += len;
    }
}

/* Provider security (the registry's per-GUID access lists): petw has none;
 * each returns ERROR_NOT_SUPPORTED. */
typedef enum {
    EventSecuritySetDACL,
    EventSecuritySetSACL,
    EventSecurityAddDACL,
    EventSecurityAddSACL,
    EventSecurityMax
} EVENTSECURITYOPERATION;

ULONG EVNTAPI EventAccessControl(LPGUID Guid, ULONG Operation, PSID Sid, ULONG Rights,
                                 BOOLEAN AllowOrDeny);
ULONG EVNTAPI EventAccessQuery(LPGUID Guid, PSECURITY_DESCRIPTOR Buffer, PULONG BufferSize);
ULONG EVNTAPI EventAccessRemove(LPGUID Guid);

#ifdef __cplusplus
}
#endif
#endif
#endif /* PETW_ETW_EVNTCONS_H */
