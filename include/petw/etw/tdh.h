/* SPDX-License-Identifier: MIT */
/* tdh.h - Trace Data Helper: event schemas and property values, as in the
 * Windows SDK, for the events petw can describe: TraceLogging events (from
 * the metadata they carry), EventWriteString events, classic kernel events
 * (petw's built-in class table, described as MOF classes), and events of
 * manifest-based providers whose instrumentation manifest is loaded.
 *
 * Manifests: Windows reads the manifests installed on the machine
 * (`wevtutil im`); petw reads those TdhLoadManifest names, and on first use
 * every manifest file or directory listed in the PETW_MANIFEST_PATH
 * environment variable (':'-separated, ';' on Windows), which stands in for
 * the installed set (the `petw` command reads the same variable). A file
 * there that does not parse is skipped. TdhLoadManifestFromBinary (a PE
 * file's resources) returns ERROR_NOT_SUPPORTED.
 *
 * Part of petw's ETW-compatible surface (link petw-etw). Differences from
 * Windows' TDH:
 * - WPP events (TraceMessage's) decode with the TMF files a
 *   TDH_CONTEXT_WPP_TMFFILE or TDH_CONTEXT_WPP_TMFSEARCHPATH context names
 *   (each read once, kept for the process); without one they have no
 *   schema (ERROR_NOT_FOUND). Besides the arguments (by the names the TMF
 *   gives), TdhGetProperty gives FormattedString, GuidName, GuidTypeName,
 *   FunctionName, FlagsName, LevelName, ComponentName and SubComponentName
 *   as WCHAR strings with their NUL (4 bytes a character on Linux: TDH
 *   makes them, they are no payload), TraceGuid, SystemTime and
 *   RawSystemTime; ProviderGuid (not in a TMF) is all zero and SequenceNum
 *   0. The decoding-handle functions (TdhOpenDecodingHandle,
 *   TdhGetWppProperty, TdhGetWppMessage) are not implemented;
 * - TraceLogging arrays are described with this event's element count
 *   (flag PropertyParamFixedCount, `count`), binary fields with this event's
 *   size (PropertyParamFixedLength, `length`), since TraceLogging stores
 *   both in the payload; a variable array's elements and a binary's bytes
 *   follow a u16 count in UserData, and the flags do not tell a fixed array
 *   (no count) from a variable one. Manifest events are described by their
 *   template, as on Windows (PropertyParamCount/Length name the field that
 *   holds the count or length);
 * - keyword and channel names are not reported (KeywordsNameOffset and
 *   ChannelNameOffset are 0), nor are they enumerated;
 * - TDH_CONTEXT items other than the WPP TMF ones are accepted and ignored;
 * - names and formatted values are WCHAR strings, so wchar_t (32-bit on
 *   Linux). TdhGetPropertySize/TdhGetProperty give text properties (UTF-16
 *   in the payload) as WCHAR strings too, sized to match, so code that
 *   casts the buffer to PWSTR reads it as on Windows: a UNICODESTRING is its
 *   characters and a NUL (one is added to a string of fixed length), a
 *   COUNTEDSTRING one WCHAR holding the text's size in bytes, then the text
 *   and a NUL, an array of strings the elements one after the other; a
 *   surrogate pair is one wchar_t. Other properties are the payload's own
 *   bytes. The payload itself (EVENT_RECORD.UserData) keeps Windows'
 *   UTF-16LE. Where WCHAR is 2 bytes (the Windows build) text is given as
 *   it is stored;
 * - the functions share one decoder under a process-wide lock: calls from
 *   several threads are safe and take turns.
 */
#ifndef PETW_ETW_TDH_H
#define PETW_ETW_TDH_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <tdh.h>
#else
#include <windows.h>
#include <evntcons.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ANYSIZE_ARRAY
#define ANYSIZE_ARRAY 1
#endif

typedef enum _TDH_IN_TYPE {
    TDH_INTYPE_NULL,
    TDH_INTYPE_UNICODESTRING,
    TDH_INTYPE_ANSISTRING,
    TDH_INTYPE_INT8,
    TDH_INTYPE_UINT8,
    TDH_INTYPE_INT16,
    TDH_INTYPE_UINT16,
    TDH_INTYPE_INT32,
    TDH_INTYPE_UINT32,
    TDH_INTYPE_INT64,
    TDH_INTYPE_UINT64,
    TDH_INTYPE_FLOAT,
    TDH_INTYPE_DOUBLE,
    TDH_INTYPE_BOOLEAN,
    TDH_INTYPE_BINARY,
    TDH_INTYPE_GUID,
    TDH_INTYPE_POINTER,
    TDH_INTYPE_FILETIME,
    TDH_INTYPE_SYSTEMTIME,
    TDH_INTYPE_SID,
    TDH_INTYPE_HEXINT32,
    TDH_INTYPE_HEXINT64,
    TDH_INTYPE_MANIFEST_COUNTEDSTRING,
    TDH_INTYPE_MANIFEST_COUNTEDANSISTRING,
    TDH_INTYPE_RESERVED24,
    TDH_INTYPE_MANIFEST_COUNTEDBINARY,
    TDH_INTYPE_COUNTEDSTRING = 300,
    TDH_INTYPE_COUNTEDANSISTRING,
    TDH_INTYPE_REVERSEDCOUNTEDSTRING,
    TDH_INTYPE_REVERSEDCOUNTEDANSISTRING,
    TDH_INTYPE_NONNULLTERMINATEDSTRING,
    TDH_INTYPE_NONNULLTERMINATEDANSISTRING,
    TDH_INTYPE_UNICODECHAR,
    TDH_INTYPE_ANSICHAR,
    TDH_INTYPE_SIZET,
    TDH_INTYPE_HEXDUMP,
    TDH_INTYPE_WBEMSID
} TDH_IN_TYPE;

typedef enum _TDH_OUT_TYPE {
    TDH_OUTTYPE_NULL,
    TDH_OUTTYPE_STRING,
    TDH_OUTTYPE_DATETIME,
    TDH_OUTTYPE_BYTE,
    TDH_OUTTYPE_UNSIGNEDBYTE,
    TDH_OUTTYPE_SHORT,
    TDH_OUTTYPE_UNSIGNEDSHORT,
    TDH_OUTTYPE_INT,
    TDH_OUTTYPE_UNSIGNEDINT,
    TDH_OUTTYPE_LONG,
    TDH_OUTTYPE_UNSIGNEDLONG,
    TDH_OUTTYPE_FLOAT,
    TDH_OUTTYPE_DOUBLE,
    TDH_OUTTYPE_BOOLEAN,
    TDH_OUTTYPE_GUID,
    TDH_OUTTYPE_HEXBINARY,
    TDH_OUTTYPE_HEXINT8,
    TDH_OUTTYPE_HEXINT16,
    TDH_OUTTYPE_HEXINT32,
    TDH_OUTTYPE_HEXINT64,
    TDH_OUTTYPE_PID,
    TDH_OUTTYPE_TID,
    TDH_OUTTYPE_PORT,
    TDH_OUTTYPE_IPV4,
    TDH_OUTTYPE_IPV6,
    TDH_OUTTYPE_SOCKETADDRESS,
    TDH_OUTTYPE_CIMDATETIME,
    TDH_OUTTYPE_ETWTIME,
    TDH_OUTTYPE_XML,
    TDH_OUTTYPE_ERRORCODE,
    TDH_OUTTYPE_WIN32ERROR,
    TDH_OUTTYPE_NTSTATUS,
    TDH_OUTTYPE_HRESULT,
    TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME,
    TDH_OUTTYPE_JSON,
    TDH_OUTTYPE_UTF8,
    TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO,
    TDH_OUTTYPE_CODE_POINTER,
    TDH_OUTTYPE_DATETIME_UTC,
    TDH_OUTTYPE_REDUCEDSTRING = 300,
    TDH_OUTTYPE_NOPRINT
} TDH_OUT_TYPE;
#define TDH_OUTYTPE_ERRORCODE TDH_OUTTYPE_ERRORCODE /* the SDK's spelling too */

typedef enum _PROPERTY_FLAGS {
    PropertyStruct = 0x1,
    PropertyParamLength = 0x2,
    PropertyParamCount = 0x4,
    PropertyWBEMXmlFragment = 0x8,
    PropertyParamFixedLength = 0x10,
    PropertyParamFixedCount = 0x20,
    PropertyHasTags = 0x40,
    PropertyHasCustomSchema = 0x80
} PROPERTY_FLAGS;

/* The union members' types, declared outside it (C++ allows no types in an
 * anonymous union); the tags are the SDK's. */
struct _nonStructType {
    USHORT InType;
    USHORT OutType;
    ULONG MapNameOffset;
};
struct _structType {
    USHORT StructStartIndex;
    USHORT NumOfStructMembers;
    ULONG padding;
};
struct _customSchemaType {
    USHORT InType;
    USHORT OutType;
    ULONG CustomSchemaOffset;
};

typedef struct _EVENT_PROPERTY_INFO {
    PROPERTY_FLAGS Flags;
    ULONG NameOffset; /* a WCHAR string, from the start of TRACE_EVENT_INFO */
    union {
        struct _nonStructType nonStructType;
        struct _structType structType;
        struct _customSchemaType customSchemaType;
    };
    union {
        USHORT count;
        USHORT countPropertyIndex;
    };
    union {
        USHORT length;
        USHORT lengthPropertyIndex;
    };
    ULONG Reserved;
} EVENT_PROPERTY_INFO, *PEVENT_PROPERTY_INFO;

typedef enum _DECODING_SOURCE {
    DecodingSourceXMLFile,
    DecodingSourceWbem,
    DecodingSourceWPP,
    DecodingSourceTlg,
    DecodingSourceMax
} DECODING_SOURCE;

typedef enum _TEMPLATE_FLAGS {
    TEMPLATE_EVENT_DATA = 1,
    TEMPLATE_USER_DATA = 2,
    TEMPLATE_CONTROL_GUID = 4
} TEMPLATE_FLAGS;

typedef struct _TRACE_EVENT_INFO {
    GUID ProviderGuid;
    GUID EventGuid;
    EVENT_DESCRIPTOR EventDescriptor;
    DECODING_SOURCE DecodingSource;
    ULONG ProviderNameOffset; /* offsets: from the start of this structure, 0 = none */
    ULONG LevelNameOffset;
    ULONG ChannelNameOffset;
    ULONG KeywordsNameOffset;
    ULONG TaskNameOffset;
    ULONG OpcodeNameOffset;
    ULONG EventMessageOffset;
    ULONG ProviderMessageOffset;
    ULONG BinaryXMLOffset;
    ULONG BinaryXMLSize;
    union {
        ULONG EventNameOffset;
        ULONG ActivityIDNameOffset;
    };
    union {
        ULONG EventAttributesOffset;
        ULONG RelatedActivityIDNameOffset;
    };
    ULONG PropertyCount;
    ULONG TopLevelPropertyCount;
    TEMPLATE_FLAGS Flags;
    EVENT_PROPERTY_INFO EventPropertyInfoArray[ANYSIZE_ARRAY];
} TRACE_EVENT_INFO, *PTRACE_EVENT_INFO;

typedef struct _PROPERTY_DATA_DESCRIPTOR {
    ULONGLONG PropertyName; /* pointer to the property's WCHAR name */
    ULONG ArrayIndex;       /* ULONG_MAX (0xFFFFFFFF): not an element */
    ULONG Reserved;
} PROPERTY_DATA_DESCRIPTOR, *PPROPERTY_DATA_DESCRIPTOR;

typedef enum _TDH_CONTEXT_TYPE {
    TDH_CONTEXT_WPP_TMFFILE = 0,
    TDH_CONTEXT_WPP_TMFSEARCHPATH,
    TDH_CONTEXT_WPP_GMT,
    TDH_CONTEXT_POINTERSIZE,
    TDH_CONTEXT_PDB_PATH,
    TDH_CONTEXT_MAXIMUM
} TDH_CONTEXT_TYPE;

typedef struct _TDH_CONTEXT {
    ULONGLONG ParameterValue;
    TDH_CONTEXT_TYPE ParameterType;
    ULONG ParameterSize;
} TDH_CONTEXT, *PTDH_CONTEXT;

/* Value maps and bitmaps (a manifest's <maps>). */
typedef struct _EVENT_MAP_ENTRY {
    ULONG OutputOffset; /* the entry's text (WCHAR), from the start of EVENT_MAP_INFO */
    union {
        ULONG Value;       /* value maps and bitmaps */
        ULONG InputOffset; /* pattern maps (none here) */
    };
} EVENT_MAP_ENTRY, *PEVENT_MAP_ENTRY;

typedef enum _MAP_FLAGS {
    EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP = 0x1,
    EVENTMAP_INFO_FLAG_MANIFEST_BITMAP = 0x2,
    EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP = 0x4,
    EVENTMAP_INFO_FLAG_WBEM_VALUEMAP = 0x8,
    EVENTMAP_INFO_FLAG_WBEM_BITMAP = 0x10,
    EVENTMAP_INFO_FLAG_WBEM_FLAG = 0x20,
    EVENTMAP_INFO_FLAG_WBEM_NO_MAP = 0x40
} MAP_FLAGS;

typedef enum _MAP_VALUETYPE {
    EVENTMAP_ENTRY_VALUETYPE_ULONG,
    EVENTMAP_ENTRY_VALUETYPE_STRING
} MAP_VALUETYPE;

typedef struct _EVENT_MAP_INFO {
    ULONG NameOffset;
    MAP_FLAGS Flag;
    ULONG EntryCount;
    union {
        MAP_VALUETYPE MapEntryValueType;
        ULONG FormatStringOffset;
    };
    EVENT_MAP_ENTRY MapEntryArray[ANYSIZE_ARRAY];
} EVENT_MAP_INFO, *PEVENT_MAP_INFO;

/* The events of a manifest provider (TdhEnumerateManifestProviderEvents). */
typedef struct _PROVIDER_EVENT_INFO {
    ULONG NumberOfEvents;
    ULONG Reserved;
    EVENT_DESCRIPTOR EventDescriptorsArray[ANYSIZE_ARRAY];
} PROVIDER_EVENT_INFO, *PPROVIDER_EVENT_INFO;

/* Providers with a schema (TdhEnumerateProviders). */
typedef struct _TRACE_PROVIDER_INFO {
    GUID ProviderGuid;
    ULONG SchemaSource; /* 0: manifest, 1: MOF (the kernel classes) */
    ULONG ProviderNameOffset;
} TRACE_PROVIDER_INFO, *PTRACE_PROVIDER_INFO;

typedef struct _PROVIDER_ENUMERATION_INFO {
    ULONG NumberOfProviders;
    ULONG Reserved;
    TRACE_PROVIDER_INFO TraceProviderInfoArray[ANYSIZE_ARRAY];
} PROVIDER_ENUMERATION_INFO, *PPROVIDER_ENUMERATION_INFO;

/* A provider's levels, tasks, opcodes (TdhEnumerateProviderFieldInformation). */
typedef enum _EVENT_FIELD_TYPE {
    EventKeywordInformation = 0,
    EventLevelInformation,
    EventChannelInformation,
    EventTaskInformation,
    EventOpcodeInformation,
    EventInformationMax
} EVENT_FIELD_TYPE;

typedef struct _PROVIDER_FIELD_INFO {
    ULONG NameOffset;
    ULONG DescriptionOffset;
    ULONGLONG Value;
} PROVIDER_FIELD_INFO, *PPROVIDER_FIELD_INFO;

typedef struct _PROVIDER_FIELD_INFOARRAY {
    ULONG NumberOfElements;
    EVENT_FIELD_TYPE FieldType;
    PROVIDER_FIELD_INFO FieldInfoArray[ANYSIZE_ARRAY];
} PROVIDER_FIELD_INFOARRAY, *PPROVIDER_FIELD_INFOARRAY;

/* The SDK's accessors for the offsets above: the text at the offset from
 * the start of the buffer, or NULL where the offset is 0. */
PETW__ETW_INLINE PWSTR petw__tdh_at(PVOID base, ULONG offset)
{
    return offset ? (PWSTR)((PBYTE)base + offset) : (PWSTR)NULL;
}
PETW__ETW_INLINE PWSTR EMI_MAP_NAME(PEVENT_MAP_INFO MapInfo)
{
    return petw__tdh_at(MapInfo, MapInfo->NameOffset);
}
PETW__ETW_INLINE PWSTR EMI_MAP_FORMAT(PEVENT_MAP_INFO MapInfo)
{
    return petw__tdh_at(MapInfo, (MapInfo->Flag & EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP)
                                     ? MapInfo->FormatStringOffset
                                     : 0);
}
PETW__ETW_INLINE PWSTR EMI_MAP_OUTPUT(PEVENT_MAP_INFO MapInfo, PEVENT_MAP_ENTRY Map)
{
    return petw__tdh_at(MapInfo, Map->OutputOffset);
}
PETW__ETW_INLINE PWSTR EMI_MAP_INPUT(PEVENT_MAP_INFO MapInfo, PEVENT_MAP_ENTRY Map)
{
    return petw__tdh_at(
        MapInfo, (MapInfo->Flag & EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP) ? Map->InputOffset : 0);
}
PETW__ETW_INLINE PWSTR TEI_MAP_NAME(PTRACE_EVENT_INFO EventInfo, PEVENT_PROPERTY_INFO Property)
{
    return petw__tdh_at(EventInfo, Property->nonStructType.MapNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_PROPERTY_NAME(PTRACE_EVENT_INFO EventInfo, PEVENT_PROPERTY_INFO Property)
{
    return petw__tdh_at(EventInfo, Property->NameOffset);
}
PETW__ETW_INLINE PWSTR TEI_PROVIDER_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->ProviderNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_LEVEL_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->LevelNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_CHANNEL_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->ChannelNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_KEYWORDS_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->KeywordsNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_TASK_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->TaskNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_OPCODE_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->OpcodeNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_EVENT_MESSAGE(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->EventMessageOffset);
}
PETW__ETW_INLINE PWSTR TEI_PROVIDER_MESSAGE(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->ProviderMessageOffset);
}
PETW__ETW_INLINE PWSTR TEI_ACTIVITYID_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->ActivityIDNameOffset);
}
PETW__ETW_INLINE PWSTR TEI_RELATEDACTIVITYID_NAME(PTRACE_EVENT_INFO EventInfo)
{
    return petw__tdh_at(EventInfo, EventInfo->RelatedActivityIDNameOffset);
}
PETW__ETW_INLINE PWSTR PEI_PROVIDER_NAME(PPROVIDER_ENUMERATION_INFO ProviderEnum,
                                         PTRACE_PROVIDER_INFO ProviderInfo)
{
    return petw__tdh_at(ProviderEnum, ProviderInfo->ProviderNameOffset);
}
PETW__ETW_INLINE PWSTR PFI_FIELD_NAME(PPROVIDER_FIELD_INFOARRAY FieldInfoArray,
                                      PPROVIDER_FIELD_INFO FieldInfo)
{
    return petw__tdh_at(FieldInfoArray, FieldInfo->NameOffset);
}
PETW__ETW_INLINE PWSTR PFI_FIELD_MESSAGE(PPROVIDER_FIELD_INFOARRAY FieldInfoArray,
                                         PPROVIDER_FIELD_INFO FieldInfo)
{
    return petw__tdh_at(FieldInfoArray, FieldInfo->DescriptionOffset);
}

#ifndef ERROR_XML_PARSE_ERROR
#define ERROR_XML_PARSE_ERROR 1465L
#endif
#ifndef ERROR_EMPTY
#define ERROR_EMPTY 4306L
#endif

typedef ULONG TDHSTATUS;
#define TDHAPI TDHSTATUS

/* The event's schema: names, types, structs, arrays. ERROR_SUCCESS;
 * ERROR_INSUFFICIENT_BUFFER with *BufferSize set (call again); ERROR_NOT_FOUND
 * (no schema: manifest or classic event); ERROR_EVT_INVALID_EVENT_DATA
 * (malformed metadata or payload); ERROR_INVALID_PARAMETER. */
TDHAPI TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                              PTRACE_EVENT_INFO Buffer, PULONG BufferSize);

/* The size and bytes of one property, named by a path of descriptors (one
 * per struct level; ArrayIndex picks an element): the payload's bytes, or
 * for text WCHAR strings (see above). ERROR_NOT_FOUND for an
 * unknown name or index, ERROR_INSUFFICIENT_BUFFER when BufferSize is less
 * than the size, and the errors above. */
TDHAPI TdhGetPropertySize(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                          ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData,
                          ULONG *PropertySize);
TDHAPI TdhGetProperty(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                      ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData,
                      ULONG BufferSize, PBYTE Buffer);

/* Formats one value of `PropertyInType` read from `UserData` (the payload's
 * bytes) as text into Buffer (*BufferSize in bytes), and says how many
 * bytes it read. PropertyLength: the size of BINARY values. Returns
 * ERROR_SUCCESS, ERROR_INSUFFICIENT_BUFFER (*BufferSize set),
 * ERROR_EVT_INVALID_EVENT_DATA (UserData too short) or
 * ERROR_INVALID_PARAMETER (unsupported type). */
TDHAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo, ULONG PointerSize,
                         USHORT PropertyInType, USHORT PropertyOutType, USHORT PropertyLength,
                         USHORT UserDataLength, PBYTE UserData, PULONG BufferSize, PWCHAR Buffer,
                         PUSHORT UserDataConsumed);

/* The map `MapName` (a property's TEI_MAP_NAME) of the event's provider,
 * from its loaded manifest. ERROR_NOT_FOUND when the provider or map is
 * unknown, ERROR_INSUFFICIENT_BUFFER with *BufferSize set. */
TDHAPI TdhGetEventMapInformation(PEVENT_RECORD Event, PWSTR MapName, PEVENT_MAP_INFO Buffer,
                                 ULONG *BufferSize);

/* Loads an instrumentation manifest (.man/.xml) file, or every one in a
 * directory. ERROR_SUCCESS (already loaded too); ERROR_FILE_NOT_FOUND;
 * ERROR_XML_PARSE_ERROR for a manifest petw cannot read. */
TDHAPI TdhLoadManifest(PWSTR Manifest);
/* Forgets a manifest TdhLoadManifest loaded (ERROR_NOT_FOUND if it did not). */
TDHAPI TdhUnloadManifest(PWSTR Manifest);
/* ERROR_NOT_SUPPORTED: petw does not read PE resources. */
TDHAPI TdhLoadManifestFromBinary(PWSTR BinaryPath);
TDHAPI TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData);
TDHAPI TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData);

/* The event descriptors of a loaded manifest's provider. ERROR_NOT_FOUND
 * (no such provider), ERROR_EMPTY (it has no events),
 * ERROR_INSUFFICIENT_BUFFER with *BufferSize set. */
TDHAPI TdhEnumerateManifestProviderEvents(LPGUID ProviderGuid, PPROVIDER_EVENT_INFO Buffer,
                                          ULONG *BufferSize);
/* An event's schema from its provider's loaded manifest, without an event
 * (matched by id and version). */
TDHAPI TdhGetManifestEventInformation(LPGUID ProviderGuid, PEVENT_DESCRIPTOR EventDescriptor,
                                      PTRACE_EVENT_INFO Buffer, ULONG *BufferSize);
/* The providers with a schema: the loaded manifests' (SchemaSource 0) and
 * the kernel event classes petw decodes (SchemaSource 1). */
TDHAPI TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO Buffer, ULONG *BufferSize);
/* A loaded manifest provider's levels, tasks or opcodes (value and name);
 * keywords and channels: ERROR_NOT_SUPPORTED. Query: the one with
 * EventFieldValue. */
TDHAPI TdhEnumerateProviderFieldInformation(LPGUID pGuid, EVENT_FIELD_TYPE EventFieldType,
                                            PPROVIDER_FIELD_INFOARRAY pBuffer, ULONG *pBufferSize);
TDHAPI TdhQueryProviderFieldInformation(LPGUID pGuid, ULONGLONG EventFieldValue,
                                        EVENT_FIELD_TYPE EventFieldType,
                                        PPROVIDER_FIELD_INFOARRAY pBuffer, ULONG *pBufferSize);

/* ---- What petw's TDH cannot do: payload filters (sessions take no
 * filters of that kind), provider filter enumeration, and WPP decoding
 * through a decoding handle (TdhGetProperty with a TMF context decodes WPP).
 * Each returns ERROR_NOT_SUPPORTED and writes nothing. ---- */
#define MAX_PAYLOAD_PREDICATES 8

typedef HANDLE TDH_HANDLE, *PTDH_HANDLE;

typedef enum _PAYLOAD_OPERATOR {
    PAYLOADFIELD_EQ = 0,
    PAYLOADFIELD_NE = 1,
    PAYLOADFIELD_LE = 2,
    PAYLOADFIELD_GT = 3,
    PAYLOADFIELD_LT = 4,
    PAYLOADFIELD_GE = 5,
    PAYLOADFIELD_BETWEEN = 6,
    PAYLOADFIELD_NOTBETWEEN = 7,
    PAYLOADFIELD_MODULO = 8,
    PAYLOADFIELD_CONTAINS = 20,
    PAYLOADFIELD_DOESNTCONTAIN = 21,
    PAYLOADFIELD_IS = 30,
    PAYLOADFIELD_ISNOT = 31,
    PAYLOADFIELD_INVALID = 32
} PAYLOAD_OPERATOR;

typedef struct _PAYLOAD_FILTER_PREDICATE {
    LPWSTR FieldName;
    USHORT CompareOp; /* a PAYLOAD_OPERATOR */
    LPWSTR Value;
} PAYLOAD_FILTER_PREDICATE, *PPAYLOAD_FILTER_PREDICATE;

typedef struct _PROVIDER_FILTER_INFO {
    UCHAR Id;
    UCHAR Version;
    ULONG MessageOffset;
    ULONG Reserved;
    ULONG PropertyCount;
    EVENT_PROPERTY_INFO EventPropertyInfoArray[ANYSIZE_ARRAY];
} PROVIDER_FILTER_INFO, *PPROVIDER_FILTER_INFO;

PETW__ETW_INLINE PWSTR PFI_FILTER_MESSAGE(PPROVIDER_FILTER_INFO FilterInfo)
{
    return petw__tdh_at(FilterInfo, FilterInfo->MessageOffset);
}
PETW__ETW_INLINE PWSTR PFI_PROPERTY_NAME(PPROVIDER_FILTER_INFO FilterInfo,
                                         PEVENT_PROPERTY_INFO Property)
{
    return petw__tdh_at(FilterInfo, Property->NameOffset);
}

TDHAPI TdhCreatePayloadFilter(LPCGUID ProviderGuid, PCEVENT_DESCRIPTOR EventDescriptor,
                              BOOLEAN EventMatchANY, ULONG PayloadPredicateCount,
                              PPAYLOAD_FILTER_PREDICATE PayloadPredicates, PVOID *PayloadFilter);
TDHAPI TdhDeletePayloadFilter(PVOID *PayloadFilter);
TDHAPI TdhAggregatePayloadFilters(ULONG PayloadFilterCount, PVOID *PayloadFilterPtrs,
                                  PBOOLEAN EventMatchALLFlags,
                                  PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor);
TDHAPI TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor);
TDHAPI TdhEnumerateProvidersForDecodingSource(DECODING_SOURCE filter,
                                              PROVIDER_ENUMERATION_INFO *buffer, ULONG bufferSize,
                                              ULONG *bufferRequired);
TDHAPI TdhEnumerateProviderFilters(LPGUID Guid, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                                   ULONG *FilterCount, PPROVIDER_FILTER_INFO *Buffer,
                                   ULONG *BufferSize);
TDHAPI TdhOpenDecodingHandle(PTDH_HANDLE Handle);
TDHAPI TdhSetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext);
TDHAPI TdhGetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext);
TDHAPI TdhGetWppProperty(TDH_HANDLE Handle, PEVENT_RECORD EventRecord, PWSTR PropertyName,
                         PULONG BufferSize, PBYTE Buffer);
TDHAPI TdhGetWppMessage(TDH_HANDLE Handle, PEVENT_RECORD EventRecord, PULONG BufferSize,
                        PBYTE Buffer);
TDHAPI TdhCloseDecodingHandle(TDH_HANDLE Handle);

#ifdef __cplusplus
}
#endif

#endif /* !(_WIN32 && PETW_USE_NATIVE_ETW) */
#endif /* PETW_ETW_TDH_H */
