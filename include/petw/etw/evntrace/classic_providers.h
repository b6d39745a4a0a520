/* SPDX-License-Identifier: MIT */
/* evntrace/classic_providers.h - the classic (MOF) provider API:
 * RegisterTraceGuids, TraceEvent, TraceMessage.
 *
 * A chapter of <evntrace.h>, which includes it; not a header of its own. */
#ifndef PETW_ETW_EVNTRACE_CLASSIC_PROVIDERS_H
#define PETW_ETW_EVNTRACE_CLASSIC_PROVIDERS_H

#ifndef PETW_ETW_EVNTRACE_H
#error "include <evntrace.h>, not its parts"
#endif

/* ---- Classic (MOF) providers: RegisterTraceGuids, TraceEvent ----
 *
 * The pre-Vista provider API, mapped onto the same engine: RegisterTraceGuids
 * registers ControlGuid as a provider; when a session enables or disables it
 * (EnableTraceEx2, or `petw start -p`), RequestAddress is called with
 * WMI_ENABLE_EVENTS or WMI_DISABLE_EVENTS and a WNODE_HEADER whose
 * GetTraceLoggerHandle, GetTraceEnableFlags (the low 32 keyword bits) and
 * GetTraceEnableLevel give the session's settings. TraceEvent writes a
 * classic event: its Header.Guid (the event class) becomes the record's
 * provider GUID, Class.Type/Level/Version its opcode, level and version,
 * and the payload follows the header (or, with WNODE_FLAG_USE_MOF_PTR, is
 * the MOF_FIELD array there, at most MAX_MOF_FIELDS). Consumers see it with
 * EVENT_HEADER_FLAG_CLASSIC_HEADER, as on Windows. Differences: the session
 * filters classic events by their level like any event; the logger handle
 * names the registration (one enabling session's settings at a time, the
 * last enable's); TraceEventInstance returns ERROR_NOT_SUPPORTED. */
typedef ULONG(WINAPI *WMIDPREQUEST)(WMIDPREQUESTCODE RequestCode, PVOID RequestContext,
                                    ULONG *BufferSize, PVOID Buffer);

typedef struct _TRACE_GUID_REGISTRATION {
    LPCGUID Guid;     /* an event class the provider writes */
    HANDLE RegHandle; /* set by RegisterTraceGuids */
} TRACE_GUID_REGISTRATION, *PTRACE_GUID_REGISTRATION;

typedef struct _MOF_FIELD {
    ULONG64 DataPtr;
    ULONG Length;
    ULONG DataType;
} MOF_FIELD, *PMOF_FIELD;

#define TRACE_MESSAGE_SEQUENCE 1
#define TRACE_MESSAGE_GUID 2
#define TRACE_MESSAGE_COMPONENTID 4
#define TRACE_MESSAGE_TIMESTAMP 8
#define TRACE_MESSAGE_PERFORMANCE_TIMESTAMP 16
#define TRACE_MESSAGE_SYSTEMINFO 32
#define TRACE_MESSAGE_POINTER32 0x0040
#define TRACE_MESSAGE_POINTER64 0x0080
#define TRACE_MESSAGE_FLAG_MASK 0xFFFF
#define TRACE_MESSAGE_MAXIMUM_SIZE (64 * 1024)
#ifndef ERROR_BUFFER_OVERFLOW
#define ERROR_BUFFER_OVERFLOW 111L
#endif

ULONG WMIAPI RegisterTraceGuidsW(WMIDPREQUEST RequestAddress, PVOID RequestContext,
                                 LPCGUID ControlGuid, ULONG GuidCount,
                                 PTRACE_GUID_REGISTRATION TraceGuidReg, LPCWSTR MofImagePath,
                                 LPCWSTR MofResourceName, PTRACEHANDLE RegistrationHandle);
ULONG WMIAPI RegisterTraceGuidsA(WMIDPREQUEST RequestAddress, PVOID RequestContext,
                                 LPCGUID ControlGuid, ULONG GuidCount,
                                 PTRACE_GUID_REGISTRATION TraceGuidReg, LPCSTR MofImagePath,
                                 LPCSTR MofResourceName, PTRACEHANDLE RegistrationHandle);
ULONG WMIAPI UnregisterTraceGuids(TRACEHANDLE RegistrationHandle);
/* From the Buffer RequestAddress received; INVALID_PROCESSTRACE_HANDLE-like
 * (0) with ERROR_INVALID_HANDLE in GetLastError() for anything else. */
TRACEHANDLE WMIAPI GetTraceLoggerHandle(PVOID Buffer);
ULONG WMIAPI GetTraceEnableFlags(TRACEHANDLE TraceHandle);
UCHAR WMIAPI GetTraceEnableLevel(TRACEHANDLE TraceHandle);
/* ERROR_SUCCESS; ERROR_INVALID_HANDLE (not a logger handle, or its
 * provider unregistered); ERROR_INVALID_PARAMETER (no header, a Size
 * smaller than the header, more than MAX_MOF_FIELDS fields); the engine's
 * errors (ERROR_MORE_DATA: larger than a buffer). */
ULONG WMIAPI TraceEvent(TRACEHANDLE TraceHandle, PEVENT_TRACE_HEADER EventTrace);
ULONG WMIAPI TraceEventInstance(TRACEHANDLE TraceHandle, PEVENT_INSTANCE_HEADER EventTrace,
                                PEVENT_INSTANCE_INFO InstInfo, PEVENT_INSTANCE_INFO ParentInstInfo);
/* A WPP message: the arguments are (PVOID data, size_t length) pairs ending
 * with a NULL pointer; written with EVENT_HEADER_FLAG_TRACE_MESSAGE, the
 * message GUID as provider and MessageNumber as event id. */
ULONG WMIAPI TraceMessage(TRACEHANDLE LoggerHandle, ULONG MessageFlags, LPCGUID MessageGuid,
                          USHORT MessageNumber, ...);
ULONG WMIAPI TraceMessageVa(TRACEHANDLE LoggerHandle, ULONG MessageFlags, LPCGUID MessageGuid,
                            USHORT MessageNumber, va_list MessageArgList);

#ifdef UNICODE
#define RegisterTraceGuids RegisterTraceGuidsW
#else
#define RegisterTraceGuids RegisterTraceGuidsA
#endif

#endif /* PETW_ETW_EVNTRACE_CLASSIC_PROVIDERS_H */
