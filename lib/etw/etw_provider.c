/* etw_provider.c - EventRegister, EventUnregister, EventActivityIdControl. */
#include "etw_internal.h"

_Static_assert(sizeof(EVENT_DESCRIPTOR) == sizeof(petw_event_descriptor), "EVENT_DESCRIPTOR");
_Static_assert(sizeof(EVENT_DATA_DESCRIPTOR) == sizeof(petw_data_descriptor), "EVENT_DATA_DESCRIPTOR");
_Static_assert(sizeof(GUID) == sizeof(petw_guid), "GUID");
_Static_assert(offsetof(EVENT_DESCRIPTOR, Keyword) == offsetof(petw_event_descriptor, keyword), "Keyword");
_Static_assert(offsetof(EVENT_DATA_DESCRIPTOR, Type) == offsetof(petw_data_descriptor, type), "Type");

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
    return petw__win32(rc);
}

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
    return petw__win32(rc);
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
