/* SPDX-License-Identifier: MIT */
/* example_provider.c - a manifest-style ETW provider, written as
 * Microsoft's "Writing manifest-based events" documentation does it. It
 * compiles unmodified against the Windows SDK or against petw-etw. */
#include <windows.h>
#include <evntprov.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#include "example_provider.h"

#define ORDER_EVENT_ID 1
#define STATUS_EVENT_ID 2
#define KEYWORD_ORDERS 0x1
#define KEYWORD_STATUS 0x2

static const EVENT_DESCRIPTOR OrderPlaced = {ORDER_EVENT_ID, 0, 0, 4 /* information */, 0, 1,
                                             KEYWORD_ORDERS};
static const EVENT_DESCRIPTOR StatusChanged = {STATUS_EVENT_ID, 0, 0, 3 /* warning */, 0, 2,
                                               KEYWORD_STATUS};
/* A batch of orders, as a start/stop pair (opcodes 1 and 2) tied by an
 * activity ID: timeline viewers show it as a slice. */
static const EVENT_DESCRIPTOR BatchStart = {3, 0, 0, 4, 1 /* start */, 3, KEYWORD_ORDERS};
static const EVENT_DESCRIPTOR BatchStop = {4, 0, 0, 4, 2 /* stop */, 3, KEYWORD_ORDERS};

static void NTAPI EnableCallback(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level,
                                 ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                                 PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext)
{
    UNREFERENCED_PARAMETER(SourceId);
    UNREFERENCED_PARAMETER(FilterData);
    UNREFERENCED_PARAMETER(CallbackContext);
    UNREFERENCED_PARAMETER(MatchAllKeyword);
    wprintf(L"provider: %ls (level %u, keywords 0x%llx)\n", IsEnabled ? L"enabled" : L"disabled",
            (unsigned)Level, (unsigned long long)MatchAnyKeyword);
}

ULONG RunExampleProvider(ULONG count)
{
    REGHANDLE RegistrationHandle = 0;
    ULONG status = EventRegister(&ProviderGuid, EnableCallback, NULL, &RegistrationHandle);
    if (status != ERROR_SUCCESS) {
        wprintf(L"EventRegister failed with %lu\n", (unsigned long)status);
        return status;
    }

    GUID batch;
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &batch);
    EventWriteTransfer(RegistrationHandle, &BatchStart, &batch, NULL, 0, NULL);
    for (ULONG i = 0; i < count; i++) {
        ULONGLONG orderId = 1000 + i;
        double amount = 9.99 * (i + 1);
        const char *customer = (i % 2) ? "contoso" : "fabrikam";
        EVENT_DATA_DESCRIPTOR Descriptors[3];

        if (EventEnabled(RegistrationHandle, &OrderPlaced)) {
            EventDataDescCreate(&Descriptors[0], &orderId, sizeof(orderId));
            EventDataDescCreate(&Descriptors[1], &amount, sizeof(amount));
            EventDataDescCreate(&Descriptors[2], customer, (ULONG)strlen(customer) + 1);
            status = EventWrite(RegistrationHandle, &OrderPlaced, 3, Descriptors);
            if (status != ERROR_SUCCESS)
                wprintf(L"EventWrite failed with %lu\n", (unsigned long)status);
        }
        if (i % 4 == 3) {
            ULONG state = i / 4;
            EventDataDescCreate(&Descriptors[0], &state, sizeof(state));
            status = EventWrite(RegistrationHandle, &StatusChanged, 1, Descriptors);
        }
    }

    EventWriteTransfer(RegistrationHandle, &BatchStop, &batch, NULL, 0, NULL);
    EventUnregister(RegistrationHandle);
    return status;
}
