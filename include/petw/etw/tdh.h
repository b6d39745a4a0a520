/* tdh.h - Trace Data Helper: event schemas and property values, as in the
 * Windows SDK, for the events petw can describe (TraceLogging events, from
 * the metadata they carry, and EventWriteString events).
 *
 * Part of petw's ETW-compatible surface (link petw-etw). Differences from
 * Windows' TDH:
 * - manifest-based and WPP events have no schema here: TdhGetEventInformation
 *   returns ERROR_NOT_FOUND for them (their payload is in UserData);
 * - arrays are described with this event's element count (flag
 *   PropertyParamFixedCount, `count`), binary fields with this event's size
 *   (PropertyParamFixedLength, `length`), since TraceLogging stores both in
 *   the payload; a variable array's elements and a binary's bytes follow a
 *   u16 count in UserData, and the flags do not tell a fixed array (no
 *   count) from a variable one;
 * - TDH_CONTEXT items are accepted and ignored;
 * - names and formatted values are WCHAR strings, so wchar_t (32-bit on
 *   Linux); TdhGetProperty returns the payload's own bytes, where text is
 *   UTF-16LE as Windows stores it (format it with TdhFormatProperty).
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
    TDH_OUTTYPE_DATETIME_UTC
} TDH_OUT_TYPE;

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

typedef enum _TEMPLATE_FLAGS { TEMPLATE_EVENT_DATA = 1, TEMPLATE_USER_DATA = 2 } TEMPLATE_FLAGS;

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

typedef struct _TDH_CONTEXT {
    ULONGLONG ParameterValue;
    ULONG ParameterType;
    ULONG ParameterSize;
} TDH_CONTEXT, *PTDH_CONTEXT;

typedef struct _EVENT_MAP_INFO EVENT_MAP_INFO, *PEVENT_MAP_INFO; /* no value maps */

#define TDHAPI ULONG

/* The event's schema: names, types, structs, arrays. ERROR_SUCCESS;
 * ERROR_INSUFFICIENT_BUFFER with *BufferSize set (call again); ERROR_NOT_FOUND
 * (no schema: manifest or classic event); ERROR_EVT_INVALID_EVENT_DATA
 * (malformed metadata or payload); ERROR_INVALID_PARAMETER. */
TDHAPI TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                              PTRACE_EVENT_INFO Buffer, PULONG BufferSize);

/* The size and bytes of one property, named by a path of descriptors (one
 * per struct level; ArrayIndex picks an element). ERROR_NOT_FOUND for an
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

#ifdef __cplusplus
}
#endif

#endif /* !(_WIN32 && PETW_USE_NATIVE_ETW) */
#endif /* PETW_ETW_TDH_H */
