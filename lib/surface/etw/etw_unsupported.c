/* SPDX-License-Identifier: MIT */
/* etw_unsupported.c - the Windows SDK's ETW functions petw cannot honour.
 * Each is defined, so that code calling it compiles and links, and each
 * returns ERROR_NOT_SUPPORTED without touching its out parameters: a
 * program sees at run time, as on a Windows version that lacks the
 * function, that this one is not there (never a silent success).
 *
 * evntrace.h: provider enumeration (petw's providers are in-process, with
 * no system-wide registry to enumerate), session settings other than the
 * system provider's (TraceSetInformation and TraceQueryInformation, in
 * etw_controller.c, answer ERROR_NOT_SUPPORTED for those), classic event
 * instances and per-class callbacks, processing
 * handle queries. evntcons.h: provider security (no registry ACLs). tdh.h:
 * payload filters (sessions take no payload filters), provider filters and
 * WPP decoding through a decoding handle (TdhGetProperty takes TMF contexts).
 */
#include "etw_internal.h"

#define PETW__UNSUPPORTED return ERROR_NOT_SUPPORTED

ULONG WMIAPI EnumerateTraceGuids(PTRACE_GUID_PROPERTIES *GuidPropertiesArray,
                                 ULONG PropertyArrayCount, PULONG GuidCount)
{
    (void)GuidPropertiesArray, (void)PropertyArrayCount, (void)GuidCount;
    PETW__UNSUPPORTED;
}

ULONG WMIAPI EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass, PVOID InBuffer,
                                   ULONG InBufferSize, PVOID OutBuffer, ULONG OutBufferSize,
                                   PULONG ReturnLength)
{
    (void)TraceQueryInfoClass, (void)InBuffer, (void)InBufferSize, (void)OutBuffer;
    (void)OutBufferSize, (void)ReturnLength;
    PETW__UNSUPPORTED;
}

ULONG WMIAPI CreateTraceInstanceId(HANDLE RegHandle, PEVENT_INSTANCE_INFO InstInfo)
{
    (void)RegHandle, (void)InstInfo;
    PETW__UNSUPPORTED;
}

ULONG WMIAPI QueryTraceProcessingHandle(TRACEHANDLE ProcessingHandle,
                                        ETW_PROCESS_HANDLE_INFO_TYPE InformationClass,
                                        PVOID InBuffer, ULONG InBufferSize, PVOID OutBuffer,
                                        ULONG OutBufferSize, PULONG ReturnLength)
{
    (void)ProcessingHandle, (void)InformationClass, (void)InBuffer, (void)InBufferSize;
    (void)OutBuffer, (void)OutBufferSize, (void)ReturnLength;
    PETW__UNSUPPORTED;
}

ULONG WMIAPI SetTraceCallback(LPCGUID pGuid, PEVENT_CALLBACK EventCallback)
{
    (void)pGuid, (void)EventCallback;
    PETW__UNSUPPORTED;
}

ULONG WMIAPI RemoveTraceCallback(LPCGUID pGuid)
{
    (void)pGuid;
    PETW__UNSUPPORTED;
}

ULONG EVNTAPI EventAccessControl(LPGUID Guid, ULONG Operation, PSID Sid, ULONG Rights,
                                 BOOLEAN AllowOrDeny)
{
    (void)Guid, (void)Operation, (void)Sid, (void)Rights, (void)AllowOrDeny;
    PETW__UNSUPPORTED;
}

ULONG EVNTAPI EventAccessQuery(LPGUID Guid, PSECURITY_DESCRIPTOR Buffer, PULONG BufferSize)
{
    (void)Guid, (void)Buffer, (void)BufferSize;
    PETW__UNSUPPORTED;
}

ULONG EVNTAPI EventAccessRemove(LPGUID Guid)
{
    (void)Guid;
    PETW__UNSUPPORTED;
}

TDHAPI TdhCreatePayloadFilter(LPCGUID ProviderGuid, PCEVENT_DESCRIPTOR EventDescriptor,
                              BOOLEAN EventMatchANY, ULONG PayloadPredicateCount,
                              PPAYLOAD_FILTER_PREDICATE PayloadPredicates, PVOID *PayloadFilter)
{
    (void)ProviderGuid, (void)EventDescriptor, (void)EventMatchANY, (void)PayloadPredicateCount;
    (void)PayloadPredicates, (void)PayloadFilter;
    PETW__UNSUPPORTED;
}

TDHAPI TdhDeletePayloadFilter(PVOID *PayloadFilter)
{
    (void)PayloadFilter;
    PETW__UNSUPPORTED;
}

TDHAPI TdhAggregatePayloadFilters(ULONG PayloadFilterCount, PVOID *PayloadFilterPtrs,
                                  PBOOLEAN EventMatchALLFlags,
                                  PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor)
{
    (void)PayloadFilterCount, (void)PayloadFilterPtrs, (void)EventMatchALLFlags;
    (void)EventFilterDescriptor;
    PETW__UNSUPPORTED;
}

TDHAPI TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor)
{
    (void)EventFilterDescriptor;
    PETW__UNSUPPORTED;
}

TDHAPI TdhEnumerateProvidersForDecodingSource(DECODING_SOURCE filter,
                                              PROVIDER_ENUMERATION_INFO *buffer, ULONG bufferSize,
                                              ULONG *bufferRequired)
{
    (void)filter, (void)buffer, (void)bufferSize, (void)bufferRequired;
    PETW__UNSUPPORTED;
}

TDHAPI TdhEnumerateProviderFilters(LPGUID Guid, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                                   ULONG *FilterCount, PPROVIDER_FILTER_INFO *Buffer,
                                   ULONG *BufferSize)
{
    (void)Guid, (void)TdhContextCount, (void)TdhContext, (void)FilterCount, (void)Buffer;
    (void)BufferSize;
    PETW__UNSUPPORTED;
}

TDHAPI TdhOpenDecodingHandle(PTDH_HANDLE Handle)
{
    (void)Handle;
    PETW__UNSUPPORTED;
}

TDHAPI TdhSetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext)
{
    (void)Handle, (void)TdhContext;
    PETW__UNSUPPORTED;
}

TDHAPI TdhGetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext)
{
    (void)Handle, (void)TdhContext;
    PETW__UNSUPPORTED;
}

TDHAPI TdhGetWppProperty(TDH_HANDLE Handle, PEVENT_RECORD EventRecord, PWSTR PropertyName,
                         PULONG BufferSize, PBYTE Buffer)
{
    (void)Handle, (void)EventRecord, (void)PropertyName, (void)BufferSize, (void)Buffer;
    PETW__UNSUPPORTED;
}

TDHAPI TdhGetWppMessage(TDH_HANDLE Handle, PEVENT_RECORD EventRecord, PULONG BufferSize,
                        PBYTE Buffer)
{
    (void)Handle, (void)EventRecord, (void)BufferSize, (void)Buffer;
    PETW__UNSUPPORTED;
}

TDHAPI TdhCloseDecodingHandle(TDH_HANDLE Handle)
{
    (void)Handle;
    PETW__UNSUPPORTED;
}
