/* SPDX-License-Identifier: MIT */
/* evntrace.h - the ETW controller and consumer API (StartTrace, ControlTrace,
 * EnableTraceEx2, OpenTrace, ProcessTrace, ...) on petw's engine. Part of
 * petw's ETW-compatible surface: names, layouts and constants are the
 * Windows SDK's; the functions map onto <petw/session.h> and
 * <petw/consume.h> and return Win32 error codes.
 *
 * Unsuffixed names map to the W or A functions by UNICODE, as on Windows.
 * Sessions are in-process (see docs/porting-from-etw.md).
 *
 * This file holds the session and consumer API; the rest of the SDK's
 * header is in its chapters, include/petw/etw/evntrace/: sdk_constants.h,
 * sdk_layouts.h (with the functions petw cannot honour) and
 * classic_providers.h (RegisterTraceGuids, TraceEvent).
 */
#ifndef PETW_ETW_EVNTRACE_H
#define PETW_ETW_EVNTRACE_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <evntrace.h>
#else
#include <stdarg.h>
#include <windows.h>
#ifndef WMIAPI
#define WMIAPI /* petw's engine: ordinary functions, not DLL imports */
#endif
#include <wmistr.h>
#include <evntprov.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef ULONG64 TRACEHANDLE, *PTRACEHANDLE;
#define INVALID_PROCESSTRACE_HANDLE ((TRACEHANDLE)INVALID_HANDLE_VALUE)

/* {68fdd900-4a3e-11d1-84f4-0000f80464e3} */
DEFINE_GUID(EventTraceGuid, 0x68fdd900, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64,
            0xe3);
/* {9e814aad-3204-11d2-9a82-006008a86939} */
DEFINE_GUID(SystemTraceControlGuid, 0x9e814aad, 0x3204, 0x11d2, 0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8,
            0x69, 0x39);

#define KERNEL_LOGGER_NAMEW L"NT Kernel Logger"
#define KERNEL_LOGGER_NAMEA "NT Kernel Logger"
#define GLOBAL_LOGGER_NAMEW L"GlobalLogger"
#define GLOBAL_LOGGER_NAMEA "GlobalLogger"
#ifdef UNICODE
#define KERNEL_LOGGER_NAME KERNEL_LOGGER_NAMEW
#define GLOBAL_LOGGER_NAME GLOBAL_LOGGER_NAMEW
#else
#define KERNEL_LOGGER_NAME KERNEL_LOGGER_NAMEA
#define GLOBAL_LOGGER_NAME GLOBAL_LOGGER_NAMEA
#endif

#define MAX_MOF_FIELDS 16
#define MAXLOGGERS 64

/* ControlTrace codes. */
#define EVENT_TRACE_CONTROL_QUERY 0
#define EVENT_TRACE_CONTROL_STOP 1
#define EVENT_TRACE_CONTROL_UPDATE 2
#define EVENT_TRACE_CONTROL_FLUSH 3
#define EVENT_TRACE_CONTROL_INCREMENT_FILE 4
#define EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME 5

/* LogFileMode. */
#define EVENT_TRACE_FILE_MODE_NONE 0x00000000
#define EVENT_TRACE_FILE_MODE_SEQUENTIAL 0x00000001
#define EVENT_TRACE_FILE_MODE_CIRCULAR 0x00000002
#define EVENT_TRACE_FILE_MODE_APPEND 0x00000004
#define EVENT_TRACE_FILE_MODE_NEWFILE 0x00000008
#define EVENT_TRACE_FILE_MODE_PREALLOCATE 0x00000020
#define EVENT_TRACE_NONSTOPPABLE_MODE 0x00000040
#define EVENT_TRACE_SECURE_MODE 0x00000080
#define EVENT_TRACE_REAL_TIME_MODE 0x00000100
#define EVENT_TRACE_DELAY_OPEN_FILE_MODE 0x00000200
#define EVENT_TRACE_BUFFERING_MODE 0x00000400
#define EVENT_TRACE_PRIVATE_LOGGER_MODE 0x00000800
#define EVENT_TRACE_ADD_HEADER_MODE 0x00001000
#define EVENT_TRACE_USE_KBYTES_FOR_SIZE 0x00002000
#define EVENT_TRACE_USE_GLOBAL_SEQUENCE 0x00004000
#define EVENT_TRACE_USE_LOCAL_SEQUENCE 0x00008000
#define EVENT_TRACE_RELOG_MODE 0x00010000
#define EVENT_TRACE_PRIVATE_IN_PROC 0x00020000
#define EVENT_TRACE_MODE_RESERVED 0x00100000
#define EVENT_TRACE_STOP_ON_HYBRID_SHUTDOWN 0x00400000
#define EVENT_TRACE_PERSIST_ON_HYBRID_SHUTDOWN 0x00800000
#define EVENT_TRACE_USE_PAGED_MEMORY 0x01000000
#define EVENT_TRACE_SYSTEM_LOGGER_MODE 0x02000000
#define EVENT_TRACE_COMPRESSED_MODE 0x04000000
#define EVENT_TRACE_INDEPENDENT_SESSION_MODE 0x08000000
#define EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING 0x10000000
#define EVENT_TRACE_ADDTO_TRIAGE_DUMP 0x80000000

/* EnableFlags of the NT Kernel Logger (and of system loggers), the SDK's
 * values. petw records no kernel events of its own (see
 * docs/porting-from-etw.md); the flags are here for code that sets them. */
#define EVENT_TRACE_FLAG_PROCESS 0x00000001
#define EVENT_TRACE_FLAG_THREAD 0x00000002
#define EVENT_TRACE_FLAG_IMAGE_LOAD 0x00000004
#define EVENT_TRACE_FLAG_DISK_IO 0x00000100
#define EVENT_TRACE_FLAG_DISK_FILE_IO 0x00000200
#define EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS 0x00001000
#define EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS 0x00002000
#define EVENT_TRACE_FLAG_NETWORK_TCPIP 0x00010000
#define EVENT_TRACE_FLAG_REGISTRY 0x00020000
#define EVENT_TRACE_FLAG_DBGPRINT 0x00040000
#define EVENT_TRACE_FLAG_PROCESS_COUNTERS 0x00000008
#define EVENT_TRACE_FLAG_CSWITCH 0x00000010
#define EVENT_TRACE_FLAG_DPC 0x00000020
#define EVENT_TRACE_FLAG_INTERRUPT 0x00000040
#define EVENT_TRACE_FLAG_SYSTEMCALL 0x00000080
#define EVENT_TRACE_FLAG_DISK_IO_INIT 0x00000400
#define EVENT_TRACE_FLAG_ALPC 0x00100000
#define EVENT_TRACE_FLAG_SPLIT_IO 0x00200000
#define EVENT_TRACE_FLAG_DRIVER 0x00800000
#define EVENT_TRACE_FLAG_PROFILE 0x01000000
#define EVENT_TRACE_FLAG_FILE_IO 0x02000000
#define EVENT_TRACE_FLAG_FILE_IO_INIT 0x04000000
#define EVENT_TRACE_FLAG_DISPATCHER 0x00000800
#define EVENT_TRACE_FLAG_VIRTUAL_ALLOC 0x00004000
#define EVENT_TRACE_FLAG_VAMAP 0x00008000
#define EVENT_TRACE_FLAG_NO_SYSCONFIG 0x10000000
#define EVENT_TRACE_FLAG_JOB 0x00080000
#define EVENT_TRACE_FLAG_DEBUG_EVENTS 0x00400000
#define EVENT_TRACE_FLAG_EXTENSION 0x80000000
#define EVENT_TRACE_FLAG_FORWARD_WMI 0x40000000
#define EVENT_TRACE_FLAG_ENABLE_RESERVE 0x20000000

/* ProcessTraceMode. */
#define PROCESS_TRACE_MODE_REAL_TIME 0x00000100
#define PROCESS_TRACE_MODE_RAW_TIMESTAMP 0x00001000
#define PROCESS_TRACE_MODE_EVENT_RECORD 0x10000000

#define EVENT_TRACE_TYPE_INFO 0x00
#define EVENT_TRACE_TYPE_START 0x01
#define EVENT_TRACE_TYPE_END 0x02
#define EVENT_TRACE_TYPE_STOP 0x02

#define TRACE_LEVEL_NONE 0
#define TRACE_LEVEL_CRITICAL 1
#define TRACE_LEVEL_FATAL 1
#define TRACE_LEVEL_ERROR 2
#define TRACE_LEVEL_WARNING 3
#define TRACE_LEVEL_INFORMATION 4
#define TRACE_LEVEL_VERBOSE 5

#define ENABLE_TRACE_PARAMETERS_VERSION 1
#define ENABLE_TRACE_PARAMETERS_VERSION_2 2

/* ENABLE_TRACE_PARAMETERS.EnableProperty. Implemented: SID, TS_ID,
 * STACK_TRACE, PROCESS_START_KEY and EVENT_KEY (each adds its
 * EVENT_HEADER_EXT_TYPE_* item to the session's events; docs/format.md),
 * and petw's PETW_EVENT_ENABLE_PROPERTY_CPU_TIME below; EnableTraceEx2
 * returns ERROR_NOT_SUPPORTED for the others. */
#define EVENT_ENABLE_PROPERTY_SID 0x00000001
#define EVENT_ENABLE_PROPERTY_TS_ID 0x00000002
#define EVENT_ENABLE_PROPERTY_STACK_TRACE 0x00000004
#define EVENT_ENABLE_PROPERTY_PSM_KEY 0x00000008
#define EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0 0x00000010
#define EVENT_ENABLE_PROPERTY_PROVIDER_GROUP 0x00000020
#define EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0 0x00000040
#define EVENT_ENABLE_PROPERTY_PROCESS_START_KEY 0x00000080
#define EVENT_ENABLE_PROPERTY_EVENT_KEY 0x00000100
#define EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE 0x00000200
#define EVENT_ENABLE_PROPERTY_ENABLE_SILOS 0x00000400
#define EVENT_ENABLE_PROPERTY_SOURCE_CONTAINER_TRACKING 0x00000800
/* petw's extension: the session's events from this provider carry the
 * writing thread's CPU times, as Windows' events always do:
 * EVENT_HEADER.KernelTime and UserTime in units of the trace's
 * TimerResolution (the clock tick: TRACE_LOGFILE_HEADER.TimerResolution,
 * 100 ns units), without EVENT_HEADER_FLAG_NO_CPUTIME. Other sessions'
 * events carry that flag and 0: reading a thread's CPU time is a system
 * call on Linux, which the default write path never makes; this one makes
 * one per event (docs/benchmarks.md gives its cost). */
#define PETW_EVENT_ENABLE_PROPERTY_CPU_TIME 0x00100000

typedef struct _EVENT_TRACE_PROPERTIES {
    WNODE_HEADER Wnode;
    ULONG BufferSize;
    ULONG MinimumBuffers;
    ULONG MaximumBuffers;
    ULONG MaximumFileSize;
    ULONG LogFileMode;
    ULONG FlushTimer;
    ULONG EnableFlags;
    union {
        LONG AgeLimit;
        LONG FlushThreshold;
    };
    ULONG NumberOfBuffers;
    ULONG FreeBuffers;
    ULONG EventsLost;
    ULONG BuffersWritten;
    ULONG LogBuffersLost;
    ULONG RealTimeBuffersLost;
    HANDLE LoggerThreadId;
    ULONG LogFileNameOffset;
    ULONG LoggerNameOffset;
} EVENT_TRACE_PROPERTIES, *PEVENT_TRACE_PROPERTIES;

typedef struct _ENABLE_TRACE_PARAMETERS {
    ULONG Version;
    ULONG EnableProperty;
    ULONG ControlFlags;
    GUID SourceId;
    PEVENT_FILTER_DESCRIPTOR EnableFilterDesc;
    ULONG FilterDescCount;
} ENABLE_TRACE_PARAMETERS, *PENABLE_TRACE_PARAMETERS;

typedef struct _ETW_BUFFER_CONTEXT {
    union {
        struct {
            UCHAR ProcessorNumber;
            UCHAR Alignment;
        };
        USHORT ProcessorIndex;
    };
    USHORT LoggerId;
} ETW_BUFFER_CONTEXT, *PETW_BUFFER_CONTEXT;

typedef struct _EVENT_TRACE_HEADER {
    USHORT Size;
    union {
        USHORT FieldTypeFlags;
        struct {
            UCHAR HeaderType;
            UCHAR MarkerFlags;
        };
    };
    union {
        ULONG Version;
        struct {
            UCHAR Type;
            UCHAR Level;
            USHORT Version;
        } Class;
    };
    ULONG ThreadId;
    ULONG ProcessId;
    LARGE_INTEGER TimeStamp;
    union {
        GUID Guid;
        ULONGLONG GuidPtr;
    };
    union {
        struct {
            ULONG KernelTime;
            ULONG UserTime;
        };
        ULONG64 ProcessorTime;
        struct {
            ULONG ClientContext;
            ULONG Flags;
        };
    };
} EVENT_TRACE_HEADER, *PEVENT_TRACE_HEADER;

typedef struct _EVENT_TRACE {
    EVENT_TRACE_HEADER Header;
    ULONG InstanceId;
    ULONG ParentInstanceId;
    GUID ParentGuid;
    PVOID MofData;
    ULONG MofLength;
    union {
        ULONG ClientContext;
        ETW_BUFFER_CONTEXT BufferContext;
    };
} EVENT_TRACE, *PEVENT_TRACE;

typedef struct _TRACE_LOGFILE_HEADER {
    ULONG BufferSize;
    union {
        ULONG Version;
        struct {
            UCHAR MajorVersion;
            UCHAR MinorVersion;
            UCHAR SubVersion;
            UCHAR SubMinorVersion;
        } VersionDetail;
    };
    ULONG ProviderVersion;
    ULONG NumberOfProcessors;
    LARGE_INTEGER EndTime;
    ULONG TimerResolution;
    ULONG MaximumFileSize;
    ULONG LogFileMode;
    ULONG BuffersWritten;
    union {
        GUID LogInstanceGuid;
        struct {
            ULONG StartBuffers;
            ULONG PointerSize;
            ULONG EventsLost;
            ULONG CpuSpeedInMHz;
        };
    };
    LPWSTR LoggerName;
    LPWSTR LogFileName;
    TIME_ZONE_INFORMATION TimeZone;
    LARGE_INTEGER BootTime;
    LARGE_INTEGER PerfFreq;
    LARGE_INTEGER StartTime;
    ULONG ReservedFlags;
    ULONG BuffersLost;
} TRACE_LOGFILE_HEADER, *PTRACE_LOGFILE_HEADER;

typedef struct _EVENT_RECORD EVENT_RECORD, *PEVENT_RECORD;
typedef struct _EVENT_TRACE_LOGFILEW EVENT_TRACE_LOGFILEW, *PEVENT_TRACE_LOGFILEW;
typedef struct _EVENT_TRACE_LOGFILEA EVENT_TRACE_LOGFILEA, *PEVENT_TRACE_LOGFILEA;
typedef ULONG(WINAPI *PEVENT_TRACE_BUFFER_CALLBACKW)(PEVENT_TRACE_LOGFILEW Logfile);
typedef ULONG(WINAPI *PEVENT_TRACE_BUFFER_CALLBACKA)(PEVENT_TRACE_LOGFILEA Logfile);
typedef VOID(WINAPI *PEVENT_CALLBACK)(PEVENT_TRACE pEvent);
typedef VOID(WINAPI *PEVENT_RECORD_CALLBACK)(PEVENT_RECORD EventRecord);

struct _EVENT_TRACE_LOGFILEW {
    LPWSTR LogFileName;
    LPWSTR LoggerName;
    LONGLONG CurrentTime;
    ULONG BuffersRead;
    union {
        ULONG LogFileMode;
        ULONG ProcessTraceMode;
    };
    EVENT_TRACE CurrentEvent;
    TRACE_LOGFILE_HEADER LogfileHeader;
    PEVENT_TRACE_BUFFER_CALLBACKW BufferCallback;
    ULONG BufferSize;
    ULONG Filled;
    ULONG EventsLost;
    union {
        PEVENT_CALLBACK EventCallback;
        PEVENT_RECORD_CALLBACK EventRecordCallback;
    };
    ULONG IsKernelTrace;
    PVOID Context;
};

struct _EVENT_TRACE_LOGFILEA {
    LPSTR LogFileName;
    LPSTR LoggerName;
    LONGLONG CurrentTime;
    ULONG BuffersRead;
    union {
        ULONG LogFileMode;
        ULONG ProcessTraceMode;
    };
    EVENT_TRACE CurrentEvent;
    TRACE_LOGFILE_HEADER LogfileHeader;
    PEVENT_TRACE_BUFFER_CALLBACKA BufferCallback;
    ULONG BufferSize;
    ULONG Filled;
    ULONG EventsLost;
    union {
        PEVENT_CALLBACK EventCallback;
        PEVENT_RECORD_CALLBACK EventRecordCallback;
    };
    ULONG IsKernelTrace;
    PVOID Context;
};

/* Controller. All return ERROR_SUCCESS or a Win32 code:
 * ERROR_INVALID_PARAMETER (NULL arguments, bad offsets, contradictory
 * modes), ERROR_BAD_LENGTH (Wnode.BufferSize too small for the names),
 * ERROR_ALREADY_EXISTS (name in use), ERROR_WMI_INSTANCE_NOT_FOUND (no such
 * session), ERROR_NOT_SUPPORTED (a mode petw does not implement),
 * ERROR_NO_SYSTEM_RESOURCES (64 sessions), file errors.
 * The W functions take WCHAR names: InstanceName and the strings at
 * LoggerNameOffset and LogFileNameOffset, which they also write back. The
 * A functions take and write char names in the ANSI code page (UTF-8 on
 * Linux, CP_ACP on Windows); LoggerNameOffset needs room for the name in
 * the caller's characters. */
ULONG WMIAPI StartTraceW(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI StartTraceA(PTRACEHANDLE TraceHandle, LPCSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI ControlTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                           PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode);
ULONG WMIAPI ControlTraceA(TRACEHANDLE TraceHandle, LPCSTR InstanceName,
                           PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode);
ULONG WMIAPI StopTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                        PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI StopTraceA(TRACEHANDLE TraceHandle, LPCSTR InstanceName,
                        PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI QueryTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI QueryTraceA(TRACEHANDLE TraceHandle, LPCSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI FlushTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI FlushTraceA(TRACEHANDLE TraceHandle, LPCSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI UpdateTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                          PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI UpdateTraceA(TRACEHANDLE TraceHandle, LPCSTR InstanceName,
                          PEVENT_TRACE_PROPERTIES Properties);
/* Fills up to PropertyArrayCount properties (each with room for its names)
 * and the count of running sessions. ERROR_MORE_DATA when there are more. */
ULONG WMIAPI QueryAllTracesW(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount,
                             PULONG LoggerCount);
ULONG WMIAPI QueryAllTracesA(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount,
                             PULONG LoggerCount);

/* Enables (EVENT_CONTROL_CODE_ENABLE_PROVIDER), disables, or asks for a
 * state capture from a provider in a session. Level 0 means all levels;
 * MatchAnyKeyword 0 means all keywords. Timeout is ignored (in-process
 * enablement is synchronous). EnableParameters (optional) may carry enable
 * properties (above) and at most one filter of each of these types:
 * EVENT_FILTER_TYPE_EVENT_ID (EVENT_FILTER_EVENT_ID: FilterIn TRUE records
 * only the listed IDs, FALSE all but them; 1 to
 * MAX_EVENT_FILTER_EVENT_ID_COUNT IDs), EVENT_FILTER_TYPE_PID (1 to
 * MAX_EVENT_FILTER_PID_COUNT ULONG process IDs),
 * EVENT_FILTER_TYPE_EXECUTABLE_NAME (a NUL-terminated WCHAR list of file
 * names, no directory, separated by ';', compared without ASCII case) and
 * EVENT_FILTER_TYPE_EVENT_NAME (EVENT_FILTER_EVENT_NAME: among the events
 * of its Level and keywords, FilterIn TRUE records only the named ones,
 * FALSE all but them; other events pass; the name is a TraceLogging
 * event's, and an event without TraceLogging metadata matches none). A
 * PID or executable-name filter enables the provider only in the processes
 * it names; the event ID filter and the properties apply only to this
 * session's events. Re-enabling replaces them. Returns ERROR_SUCCESS,
 * ERROR_INVALID_PARAMETER (also for a malformed filter or two of one
 * type), ERROR_NOT_SUPPORTED (other filter types and other
 * properties), ERROR_INVALID_HANDLE (no such
 * session), ERROR_NO_SYSTEM_RESOURCES (the provider is enabled by 8
 * sessions already). */
ULONG WMIAPI EnableTraceEx2(TRACEHANDLE TraceHandle, LPCGUID ProviderId, ULONG ControlCode,
                            UCHAR Level, ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                            ULONG Timeout, PENABLE_TRACE_PARAMETERS EnableParameters);

/* The older enables, on EnableTraceEx2. EnableTraceEx: IsEnabled 1 enables
 * (EVENT_CONTROL_CODE_ENABLE_PROVIDER), 0 disables; SourceId must be NULL
 * or the provider's own GUID; EnableProperty and the one filter
 * descriptor are taken (or refused) as EnableTraceEx2 takes them. EnableTrace
 * (classic providers): EnableFlag is the keyword the provider sees as
 * MatchAnyKeyword, as Windows passes it to a manifest provider. */
ULONG WMIAPI EnableTraceEx(LPCGUID ProviderId, LPCGUID SourceId, TRACEHANDLE TraceHandle,
                           ULONG IsEnabled, UCHAR Level, ULONGLONG MatchAnyKeyword,
                           ULONGLONG MatchAllKeyword, ULONG EnableProperty,
                           PEVENT_FILTER_DESCRIPTOR EnableFilterDesc);
ULONG WMIAPI EnableTrace(ULONG Enable, ULONG EnableFlag, ULONG EnableLevel, LPCGUID ControlGuid,
                         TRACEHANDLE TraceHandle);

/* Consumer. OpenTrace returns INVALID_PROCESSTRACE_HANDLE on failure, with
 * the reason in GetLastError(). OpenTraceA's LogFileName and LoggerName are
 * in the ANSI code page, as the A controller functions' names; the
 * LogfileHeader's names are WCHAR strings for both, as in the SDK. ProcessTrace delivers events of
 * up to 64 handles in timestamp order; ERROR_CANCELLED when a BufferCallback returned FALSE. */
TRACEHANDLE WMIAPI OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile);
TRACEHANDLE WMIAPI OpenTraceA(PEVENT_TRACE_LOGFILEA Logfile);
ULONG WMIAPI ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime,
                          LPFILETIME EndTime);
ULONG WMIAPI CloseTrace(TRACEHANDLE TraceHandle);

#ifdef UNICODE
#define StartTrace StartTraceW
#define ControlTrace ControlTraceW
#define StopTrace StopTraceW
#define QueryTrace QueryTraceW
#define FlushTrace FlushTraceW
#define UpdateTrace UpdateTraceW
#define QueryAllTraces QueryAllTracesW
#define OpenTrace OpenTraceW
#define EVENT_TRACE_LOGFILE EVENT_TRACE_LOGFILEW
#define PEVENT_TRACE_LOGFILE PEVENT_TRACE_LOGFILEW
#define PEVENT_TRACE_BUFFER_CALLBACK PEVENT_TRACE_BUFFER_CALLBACKW
#else
#define StartTrace StartTraceA
#define ControlTrace ControlTraceA
#define StopTrace StopTraceA
#define QueryTrace QueryTraceA
#define FlushTrace FlushTraceA
#define UpdateTrace UpdateTraceA
#define QueryAllTraces QueryAllTracesA
#define OpenTrace OpenTraceA
#define EVENT_TRACE_LOGFILE EVENT_TRACE_LOGFILEA
#define PEVENT_TRACE_LOGFILE PEVENT_TRACE_LOGFILEA
#define PEVENT_TRACE_BUFFER_CALLBACK PEVENT_TRACE_BUFFER_CALLBACKA
#endif

/* ---- The rest of the SDK's evntrace.h: constants, layouts, and the functions
 * petw cannot honour (each returns ERROR_NOT_SUPPORTED; see sdk_layouts.h). ---- */

#include "evntrace/sdk_constants.h"
#include "evntrace/sdk_layouts.h"
#include "evntrace/classic_providers.h"

#ifdef __cplusplus
}
#endif
#endif
#endif /* PETW_ETW_EVNTRACE_H */
