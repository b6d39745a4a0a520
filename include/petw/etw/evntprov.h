/* SPDX-License-Identifier: MIT */
/* evntprov.h - the ETW provider API (EventRegister, EventWrite, ...) on
 * petw's engine. Part of petw's ETW-compatible surface: names, struct
 * layouts and constants are the Windows SDK's; each function maps onto the
 * native API in <petw/provider.h> and returns Win32 error codes.
 *
 * On Windows, define PETW_USE_NATIVE_ETW before including to get the
 * operating system's own header instead.
 */
#ifndef PETW_ETW_EVNTPROV_H
#define PETW_ETW_EVNTPROV_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <evntprov.h>
#else
#include <windows.h>
/* The SDK's inline functions: with an out-of-line copy where code takes
 * their address (Windows' FORCEINLINE in mingw-w64 is a GNU extern inline,
 * which has none). */
#ifndef PETW__ETW_INLINE
#ifdef __cplusplus
#define PETW__ETW_INLINE inline
#else
#define PETW__ETW_INLINE static inline
#endif
#endif
#ifndef EVNTAPI
#define EVNTAPI /* petw's engine: ordinary functions, not DLL imports */
#endif

#include <petw/provider.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EVENT_MIN_LEVEL 0
#define EVENT_MAX_LEVEL 0xff
#define EVENT_ACTIVITY_CTRL_GET_ID 1
#define EVENT_ACTIVITY_CTRL_SET_ID 2
#define EVENT_ACTIVITY_CTRL_CREATE_ID 3
#define EVENT_ACTIVITY_CTRL_GET_SET_ID 4
#define EVENT_ACTIVITY_CTRL_CREATE_SET_ID 5
#define MAX_EVENT_DATA_DESCRIPTORS 128
#define MAX_EVENT_FILTER_DATA_SIZE 1024
#define MAX_EVENT_FILTERS_COUNT 13

#define EVENT_CONTROL_CODE_DISABLE_PROVIDER 0
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER 1
#define EVENT_CONTROL_CODE_CAPTURE_STATE 2

#define EVENT_DATA_DESCRIPTOR_TYPE_NONE 0
#define EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA 1
#define EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA 2
#define EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE 3

typedef ULONGLONG REGHANDLE, *PREGHANDLE;

typedef struct _EVENT_DESCRIPTOR {
    USHORT Id;
    UCHAR Version;
    UCHAR Channel;
    UCHAR Level;
    UCHAR Opcode;
    USHORT Task;
    ULONGLONG Keyword;
} EVENT_DESCRIPTOR, *PEVENT_DESCRIPTOR;
typedef const EVENT_DESCRIPTOR *PCEVENT_DESCRIPTOR;

typedef struct _EVENT_DATA_DESCRIPTOR {
    ULONGLONG Ptr;
    ULONG Size;
    union {
        ULONG Reserved;
        struct {
            UCHAR Type;
            UCHAR Reserved1;
            USHORT Reserved2;
        };
    };
} EVENT_DATA_DESCRIPTOR, *PEVENT_DATA_DESCRIPTOR;

typedef struct _EVENT_FILTER_DESCRIPTOR {
    ULONGLONG Ptr;
    ULONG Size;
    ULONG Type;
} EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;

/* EVENT_FILTER_DESCRIPTOR.Type, as the SDK defines them (petw's sessions
 * apply EVENT_ID, PID, EXECUTABLE_NAME and EVENT_NAME; EnableTraceEx2
 * refuses the others with ERROR_NOT_SUPPORTED). */
#define EVENT_FILTER_TYPE_NONE 0x00000000
#define EVENT_FILTER_TYPE_SCHEMATIZED 0x80000000
#define EVENT_FILTER_TYPE_SYSTEM_FLAGS 0x80000001
#define EVENT_FILTER_TYPE_TRACEHANDLE 0x80000002
#define EVENT_FILTER_TYPE_PID 0x80000004
#define EVENT_FILTER_TYPE_EXECUTABLE_NAME 0x80000008
#define EVENT_FILTER_TYPE_PACKAGE_ID 0x80000010
#define EVENT_FILTER_TYPE_PACKAGE_APP_ID 0x80000020
#define EVENT_FILTER_TYPE_PAYLOAD 0x80000100
#define EVENT_FILTER_TYPE_EVENT_ID 0x80000200
#define EVENT_FILTER_TYPE_EVENT_NAME 0x80000400
#define EVENT_FILTER_TYPE_STACKWALK 0x80001000
#define EVENT_FILTER_TYPE_STACKWALK_NAME 0x80002000
#define EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW 0x80004000
#define EVENT_FILTER_TYPE_CONTAINER 0x80008000
#define MAX_EVENT_FILTER_PID_COUNT 8
#define MAX_EVENT_FILTER_EVENT_ID_COUNT 64
#define MAX_EVENT_FILTER_PAYLOAD_SIZE 4096

/* The EVENT_FILTER_TYPE_EVENT_ID and _STACKWALK filter's data. */
typedef struct _EVENT_FILTER_EVENT_ID {
    BOOLEAN FilterIn;
    UCHAR Reserved;
    USHORT Count;
    USHORT Events[1];
} EVENT_FILTER_EVENT_ID, *PEVENT_FILTER_EVENT_ID;

/* The EVENT_FILTER_TYPE_EVENT_NAME filter's data. */
typedef struct _EVENT_FILTER_EVENT_NAME {
    ULONGLONG MatchAnyKeyword;
    ULONGLONG MatchAllKeyword;
    UCHAR Level;
    BOOLEAN FilterIn;
    USHORT NameCount;
    UCHAR Names[1];
} EVENT_FILTER_EVENT_NAME, *PEVENT_FILTER_EVENT_NAME;

typedef enum _EVENT_INFO_CLASS {
    EventProviderBinaryTrackInfo,
    EventProviderSetReserved1,
    EventProviderSetTraits,
    EventProviderUseDescriptorType,
    MaxEventInfo
} EVENT_INFO_CLASS;

typedef VOID(NTAPI *PENABLECALLBACK)(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level,
                                     ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                                     PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext);

/* Registers a provider. Returns ERROR_SUCCESS, ERROR_INVALID_PARAMETER or
 * ERROR_NO_SYSTEM_RESOURCES (4096 providers registered). */
ULONG EVNTAPI EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,
                            PVOID CallbackContext, PREGHANDLE RegHandle);

/* Returns ERROR_SUCCESS or ERROR_INVALID_HANDLE. */
ULONG EVNTAPI EventUnregister(REGHANDLE RegHandle);

/* Sets the current thread's activity ID, creates one, or both (see the
 * EVENT_ACTIVITY_CTRL_* codes). Returns ERROR_SUCCESS or
 * ERROR_INVALID_PARAMETER. */
ULONG EVNTAPI EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId);

#define EVENT_WRITE_FLAG_NO_FAULTING 0x00000001
#define EVENT_WRITE_FLAG_INPRIVATE 0x00000002

/* Writes an event with explicit activity IDs and a session filter: bit k of
 * Filter keeps the event from the k-th session that enabled the provider
 * (in enabling order). Flags: EVENT_WRITE_FLAG_NO_FAULTING and
 * EVENT_WRITE_FLAG_INPRIVATE are accepted (no effect in-process). */
ULONG EVNTAPI EventWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG64 Filter,
                           ULONG Flags, LPCGUID ActivityId, LPCGUID RelatedActivityId,
                           ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);

/* Writes a string-only event (EVENT_HEADER_FLAG_STRING_ONLY, id 0): the
 * payload is the string as UTF-16LE with its NUL, as Windows stores it
 * (converted from wchar_t where wchar_t is 32-bit; up to 8191 characters
 * there, else ERROR_ARITHMETIC_OVERFLOW). */
ULONG EVNTAPI EventWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword, PCWSTR String);

/* EventProviderSetTraits (a traits blob: u16 size, UTF-8 name, NUL, ...;
 * it also turns on EVENT_DATA_DESCRIPTOR.Type, as Windows does),
 * EventProviderUseDescriptorType (a BOOLEAN), EventProviderBinaryTrackInfo
 * (accepted, no effect). Returns ERROR_SUCCESS, ERROR_INVALID_HANDLE,
 * ERROR_INVALID_PARAMETER or ERROR_NOT_SUPPORTED. */
ULONG EVNTAPI EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
                                  PVOID EventInformation, ULONG InformationLength);

/* Event-writing failures map to: ERROR_INVALID_HANDLE, ERROR_INVALID_PARAMETER,
 * ERROR_ARITHMETIC_OVERFLOW (over 64 KB), ERROR_MORE_DATA (over the session's
 * buffer), ERROR_NOT_ENOUGH_MEMORY (no free buffer: lost and counted). */
static inline ULONG petw__etw_status(int rc)
{
    return rc == 0 ? 0u : (ULONG)petw_error_to_win32(rc);
}

/* Writes an event with the thread's activity ID. No allocation, lock or
 * system call; a few instructions when no session listens. */
static inline ULONG EventWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
                               ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
    return petw__etw_status(
        petw_event_write(RegHandle, (const petw_event_descriptor *)EventDescriptor, NULL, NULL,
                         UserDataCount, (const petw_data_descriptor *)UserData));
}

/* Writes an event with explicit activity IDs: ActivityId NULL means the
 * thread's current one; RelatedActivityId, when given, is stored as an
 * EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID extended item. */
static inline ULONG EventWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
                                       LPCGUID ActivityId, LPCGUID RelatedActivityId,
                                       ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
    return petw__etw_status(
        petw_event_write(RegHandle, (const petw_event_descriptor *)EventDescriptor,
                         (const petw_guid *)ActivityId, (const petw_guid *)RelatedActivityId,
                         UserDataCount, (const petw_data_descriptor *)UserData));
}

/* TRUE when some session records events of this level and keywords. One
 * load and a branch when no session enables the provider. */
static inline BOOLEAN EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword)
{
    return (BOOLEAN)petw_provider_enabled(RegHandle, Level, Keyword);
}

static inline BOOLEAN EventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor)
{
    return (BOOLEAN)petw_event_enabled(RegHandle, (const petw_event_descriptor *)EventDescriptor);
}

PETW__ETW_INLINE VOID EventDataDescCreate(PEVENT_DATA_DESCRIPTOR EventDataDescriptor,
                                          const VOID *DataPtr, ULONG DataSize)
{
    EventDataDescriptor->Ptr = (ULONGLONG)(ULONG_PTR)DataPtr;
    EventDataDescriptor->Size = DataSize;
    EventDataDescriptor->Reserved = 0;
}

PETW__ETW_INLINE VOID EventDescCreate(PEVENT_DESCRIPTOR EventDescriptor, USHORT Id, UCHAR Version,
                                      UCHAR Channel, UCHAR Level, USHORT Task, UCHAR Opcode,
                                      ULONGLONG Keyword)
{
    EventDescriptor->Id = Id;
    EventDescriptor->Version = Version;
    EventDescriptor->Channel = Channel;
    EventDescriptor->Level = Level;
    EventDescriptor->Task = Task;
    EventDescriptor->Opcode = Opcode;
    EventDescriptor->Keyword = Keyword;
}

PETW__ETW_INLINE VOID EventDescZero(PEVENT_DESCRIPTOR EventDescriptor)
{
    memset(EventDescriptor, 0, sizeof(EVENT_DESCRIPTOR));
}

/* The SDK's accessors, as functions (code may take their address). */
PETW__ETW_INLINE USHORT EventDescGetId(PCEVENT_DESCRIPTOR EventDescriptor)
{
    return EventDescriptor->Id;
}
PETW__ETW_INLINE UCHAR EventDescGetVersion(PCEVENT_DESCRIPTOR EventDescriptor)
{
    return EventDescriptor->Version;
}
PETW__ETW_INLINE USHORT EventDescGetTask(PCEVENT_DESCRIPTOR EventDescriptor)
{
    return EventDescriptor->Task;
}
PETW__ETW_INLINE UCHAR EventDescGetOpcode(PCEVENT_DESCRIPTOR EventDescriptor)
{
    return EventDescriptor->Opcode;
}
PETW__ETW_INLINE UCHAR EventDescGetChannel(PCEVENT_DESCRIPTOR EventDescriptor)
{
    return EventDescriptor->Channel;
}
PETW__ETW_INLINE UCHAR EventDescGetLevel(PCEVENT_DESCRIPTOR EventDescriptor)
{
    return EventDescriptor->Level;
}
PETW__ETW_INLINE ULONGLONG EventDescGetKeyword(PCEVENT_DESCRIPTOR EventDescriptor)
{
    return EventDescriptor->Keyword;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescSetId(PEVENT_DESCRIPTOR EventDescriptor, USHORT Id)
{
    EventDescriptor->Id = Id;
    return EventDescriptor;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescSetVersion(PEVENT_DESCRIPTOR EventDescriptor,
                                                       UCHAR Version)
{
    EventDescriptor->Version = Version;
    return EventDescriptor;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescSetTask(PEVENT_DESCRIPTOR EventDescriptor, USHORT Task)
{
    EventDescriptor->Task = Task;
    return EventDescriptor;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescSetOpcode(PEVENT_DESCRIPTOR EventDescriptor,
                                                      UCHAR Opcode)
{
    EventDescriptor->Opcode = Opcode;
    return EventDescriptor;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescSetLevel(PEVENT_DESCRIPTOR EventDescriptor, UCHAR Level)
{
    EventDescriptor->Level = Level;
    return EventDescriptor;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescSetChannel(PEVENT_DESCRIPTOR EventDescriptor,
                                                       UCHAR Channel)
{
    EventDescriptor->Channel = Channel;
    return EventDescriptor;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescSetKeyword(PEVENT_DESCRIPTOR EventDescriptor,
                                                       ULONGLONG Keyword)
{
    EventDescriptor->Keyword = Keyword;
    return EventDescriptor;
}
PETW__ETW_INLINE PEVENT_DESCRIPTOR EventDescOrKeyword(PEVENT_DESCRIPTOR EventDescriptor,
                                                      ULONGLONG Keyword)
{
    EventDescriptor->Keyword |= Keyword;
    return EventDescriptor;
}

#if !defined(_WIN32)
/* mc.exe's generated headers (mc -um) declare each provider's enable bits
 * `EXTERN_C __declspec(selectany) DECLSPEC_CACHEALIGN ULONG <P>EnableBits[n];`
 * with no initializer, the only definition a program has: MSVC gives it
 * zero-filled storage, but GCC and Clang have no attribute that makes an
 * extern declaration a definition, so the name stays a weak undefined symbol
 * at address 0 (in C and in C++). These two of mc's customization points
 * (each `#ifndef`-guarded in the generated header, which includes this one
 * first) give those bits storage: registration (MCGEN_EVENTREGISTER) gives a
 * provider context whose EnableBitMask is NULL zero-filled words of its own,
 * kept for the process's life and reused when the provider registers again,
 * so the generated enable callback sets and clears real bits; the generated
 * EventEnabled<Event>() (_mcgen_EVENT_BIT_SET), which reads the array by
 * name, answers TRUE for a bit array at address 0, and the event is then
 * filtered by EventWrite as any event is. petw mc's own headers define their
 * bits, so for them neither changes anything. */
typedef struct petw__mcgen_context {
    ULONGLONG RegistrationHandle;
    ULONGLONG Logger;
    ULONGLONG MatchAnyKeyword;
    ULONGLONG MatchAllKeyword;
    ULONG Flags;
    ULONG IsEnabled;
    UCHAR Level;
    UCHAR Reserve;
    USHORT EnableBitsCount;
    PULONG EnableBitMask;
    const ULONGLONG *EnableKeyWords;
    const UCHAR *EnableLevel;
} petw__mcgen_context;
/* EventRegister, after giving an mc.exe provider context (CallbackContext)
 * with EnableBitsCount words and a NULL EnableBitMask zero-filled storage.
 * Returns EventRegister's codes, or ERROR_NOT_ENOUGH_MEMORY. */
ULONG EVNTAPI petw__mcgen_event_register(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,
                                         PVOID CallbackContext, PREGHANDLE RegHandle);
static inline int petw__mcgen_bit_set(const ULONG *bits, ULONG position)
{
    return !bits || (bits[position >> 5] & (1u << (position & 31))) != 0;
}
#ifndef MCGEN_EVENTREGISTER
#define MCGEN_EVENTREGISTER petw__mcgen_event_register
#endif
#ifndef _mcgen_EVENT_BIT_SET
#define _mcgen_EVENT_BIT_SET(EnableBits, BitPosition)                                              \
    petw__mcgen_bit_set((const ULONG *)(EnableBits), (ULONG)(BitPosition))
#endif
#endif

/* Filter layouts the SDK declares beside EVENT_FILTER_DESCRIPTOR (petw's
 * sessions take none of these filter types). */
#define MAX_EVENT_FILTER_EVENT_NAME_SIZE (4096)
typedef struct _EVENT_FILTER_HEADER {
    USHORT Id;
    UCHAR Version;
    UCHAR Reserved[5];
    ULONGLONG InstanceId;
    ULONG Size;
    ULONG NextOffset;
} EVENT_FILTER_HEADER, *PEVENT_FILTER_HEADER;
typedef struct _EVENT_FILTER_LEVEL_KW {
    ULONGLONG MatchAnyKeyword;
    ULONGLONG MatchAllKeyword;
    UCHAR Level;
    BOOLEAN FilterIn;
} EVENT_FILTER_LEVEL_KW, *PEVENT_FILTER_LEVEL_KW;

#ifdef __cplusplus
}
#endif
#endif
#endif /* PETW_ETW_EVNTPROV_H */
