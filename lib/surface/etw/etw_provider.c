/* SPDX-License-Identifier: MIT */
/* etw_provider.c - EventRegister, EventUnregister, EventActivityIdControl. */
#include "etw_internal.h"

_Static_assert(sizeof(EVENT_DESCRIPTOR) == sizeof(petw_event_descriptor), "EVENT_DESCRIPTOR");
_Static_assert(sizeof(EVENT_DATA_DESCRIPTOR) == sizeof(petw_data_descriptor),
               "EVENT_DATA_DESCRIPTOR");
_Static_assert(sizeof(GUID) == sizeof(petw_guid), "GUID");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Keyword) == offsetof(petw_event_descriptor, keyword),
               "Keyword");
_Static_assert(offsetof(EVENT_DATA_DESCRIPTOR, Type) == offsetof(petw_data_descriptor, type),
               "Type");

/* ETW's callback type differs from the native one in its parameter types,
 * so calls go through a trampoline with the (callback, context) pair. */
typedef struct etw_registration {
    PENABLECALLBACK callback;
    PVOID context;
    REGHANDLE handle;
    int in_use;
} etw_registration;

static etw_registration registrations[PETW_MAX_PROVIDERS];

static void trampoline(const petw_guid *source, uint32_t code, uint8_t level, uint64_t any,
                       uint64_t all, void *filter, void *ctx)
{
    etw_registration *r = ctx;
    if (r->callback)
        r->callback((LPCGUID)source, code, level, any, all, (PEVENT_FILTER_DESCRIPTOR)filter,
                    r->context);
}

ULONG EVNTAPI EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,
                            PVOID CallbackContext, PREGHANDLE RegHandle)
{
    if (!ProviderId || !RegHandle)
        return ERROR_INVALID_PARAMETER;
    *RegHandle = 0;
    petw__control_lock();
    uint32_t i;
    for (i = 0; i < PETW_MAX_PROVIDERS && registrations[i].in_use; i++) {
    }
    if (i == PETW_MAX_PROVIDERS) {
        petw__control_unlock();
        return ERROR_NO_SYSTEM_RESOURCES;
    }
    etw_registration *r = &registrations[i];
    r->callback = EnableCallback;
    r->context = CallbackContext;
    r->in_use = 1;
    int rc = petw_provider_register((const petw_guid *)ProviderId,
                                    EnableCallback ? trampoline : NULL, r, &r->handle);
    if (rc)
        r->in_use = 0;
    else
        *RegHandle = r->handle;
    petw__control_unlock();
    return petw__etw_status(rc);
}

#if !defined(_WIN32)
ULONG EVNTAPI petw__mcgen_event_register(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,
                                         PVOID CallbackContext, PREGHANDLE RegHandle)
{
    petw__mcgen_context *c = (petw__mcgen_context *)CallbackContext;
    if (c && !c->EnableBitMask && c->EnableBitsCount > 0) {
        /* Never freed: the generated code keeps reading the bits through
         * the context after EventUnregister, and registering again reuses
         * them (the pointer is no longer NULL). */
        c->EnableBitMask = (PULONG)calloc((c->EnableBitsCount + 31u) / 32u, sizeof(ULONG));
        if (!c->EnableBitMask)
            return ERROR_NOT_ENOUGH_MEMORY;
    }
    return EventRegister(ProviderId, EnableCallback, CallbackContext, RegHandle);
}
#endif

ULONG EVNTAPI EventUnregister(REGHANDLE RegHandle)
{
    petw__control_lock();
    int rc = petw_provider_unregister(RegHandle);
    if (rc == 0) {
        for (uint32_t i = 0; i < PETW_MAX_PROVIDERS; i++) {
            if (registrations[i].in_use && registrations[i].handle == RegHandle) {
                registrations[i].in_use = 0;
                registrations[i].callback = NULL;
                break;
            }
        }
    }
    petw__control_unlock();
    return petw__etw_status(rc);
}

ULONG EVNTAPI EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId)
{
    petw_guid tmp;
    if (!ActivityId)
        return ERROR_INVALID_PARAMETER;
    switch (ControlCode) {
    case EVENT_ACTIVITY_CTRL_GET_ID:
        petw_activity_id_get((petw_guid *)ActivityId);
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_SET_ID:
        petw_activity_id_set((const petw_guid *)ActivityId);
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_CREATE_ID:
        petw_activity_id_create((petw_guid *)ActivityId);
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_GET_SET_ID:
        petw_activity_id_get(&tmp);
        petw_activity_id_set((const petw_guid *)ActivityId);
        memcpy(ActivityId, &tmp, sizeof(tmp));
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_CREATE_SET_ID:
        petw_activity_id_get(&tmp);
        petw_guid fresh;
        petw_activity_id_create(&fresh);
        petw_activity_id_set(&fresh);
        memcpy(ActivityId, &tmp, sizeof(tmp));
        return ERROR_SUCCESS;
    default:
        return ERROR_INVALID_PARAMETER;
    }
}

ULONG EVNTAPI EventWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, ULONG64 Filter,
                           ULONG Flags, LPCGUID ActivityId, LPCGUID RelatedActivityId,
                           ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)
{
    if (Flags & ~(ULONG)(EVENT_WRITE_FLAG_NO_FAULTING | EVENT_WRITE_FLAG_INPRIVATE))
        return ERROR_INVALID_PARAMETER;
    return petw__etw_status(
        petw_event_write_ex(RegHandle, (const petw_event_descriptor *)EventDescriptor,
                            (const petw_guid *)ActivityId, (const petw_guid *)RelatedActivityId,
                            Filter, 0, UserDataCount, (const petw_data_descriptor *)UserData));
}

ULONG EVNTAPI EventWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword, PCWSTR String)
{
    if (!String)
        return ERROR_INVALID_PARAMETER;
    petw_event_descriptor d = {0, 0, 0, Level, 0, 0, Keyword};
    petw_data_descriptor dd = {0, 0, 0, 0, 0};
    if (sizeof(WCHAR) == 2) {
        dd.ptr = (uint64_t)(uintptr_t)String;
        dd.size = (uint32_t)((wcslen(String) + 1) * 2);
    } else {
        /* UTF-32 wchar_t: UTF-16LE on the stack, as Windows would store it. */
        uint8_t utf16[16384];
        char utf8[8192 * 4];
        if (wcslen(String) >= 8192)
            return ERROR_ARITHMETIC_OVERFLOW;
        petw__wcs_to_utf8(String, utf8, sizeof(utf8));
        size_t units = petw__utf8_to_utf16le(utf8, utf16, sizeof(utf16) / 2);
        dd.ptr = (uint64_t)(uintptr_t)utf16;
        dd.size = (uint32_t)((units + 1) * 2);
        return petw__etw_status(petw_event_write_ex(RegHandle, &d, NULL, NULL, 0,
                                                    PETW_EVENT_HEADER_FLAG_STRING_ONLY, 1, &dd));
    }
    return petw__etw_status(petw_event_write_ex(RegHandle, &d, NULL, NULL, 0,
                                                PETW_EVENT_HEADER_FLAG_STRING_ONLY, 1, &dd));
}

ULONG EVNTAPI EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
                                  PVOID EventInformation, ULONG InformationLength)
{
    switch (InformationClass) {
    case EventProviderSetTraits: {
        if (!EventInformation)
            return ERROR_INVALID_PARAMETER;
        /* Setting traits also tells ETW to honour EVENT_DATA_DESCRIPTOR.Type
         * (EVENT_INFO_CLASS's documentation), as TraceLoggingDynamic relies on. */
        int rc = petw_provider_set_traits(RegHandle, EventInformation, InformationLength);
        if (rc == 0)
            rc = petw_provider_use_descriptor_types(RegHandle, 1);
        return petw__etw_status(rc);
    }
    case EventProviderUseDescriptorType:
        if (!EventInformation || InformationLength < 1)
            return ERROR_INVALID_PARAMETER;
        return petw__etw_status(
            petw_provider_use_descriptor_types(RegHandle, *(const BOOLEAN *)EventInformation != 0));
    case EventProviderBinaryTrackInfo:
        /* Accepted, no effect: there are no binaries to track here. */
        return petw__handle_generation(RegHandle) != 0 &&
                       (uint32_t)(petw__provider_state_load(RegHandle) >> 32) ==
                           petw__handle_generation(RegHandle)
                   ? ERROR_SUCCESS
                   : ERROR_INVALID_HANDLE;
    default:
        return ERROR_NOT_SUPPORTED;
    }
}
