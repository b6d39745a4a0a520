/* SPDX-License-Identifier: MIT */
/* tool_provider_app.c - a provider process for the command-line tests: it
 * registers a TraceLogging provider ("Petw.Test.Ticker") and a manifest-
 * style one (EventRegister, no name), creates READY_FILE, then writes a
 * "Tick" event (and a manifest event) every 20 ms for SECONDS seconds, or
 * until it is killed.
 *
 * usage: tool_provider_app SECONDS [READY_FILE]
 */
#include <windows.h>
#include <TraceLoggingProvider.h>
#include <evntprov.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <winmeta.h>

/* The name's derived GUID: petw guid Petw.Test.Ticker. */
TRACELOGGING_DEFINE_PROVIDER(g_ticker, "Petw.Test.Ticker",
                             (0xedadc104, 0x8efc, 0x5a5b, 0xae, 0x3f, 0x22, 0x1e, 0x7d, 0x68, 0x8c,
                              0x90));

/* {6d2f2c1e-5b0a-4c55-9d6e-3a8f1b2c4d5e}: a provider without a name. */
static const GUID manifest_guid = {
    0x6d2f2c1e, 0x5b0a, 0x4c55, {0x9d, 0x6e, 0x3a, 0x8f, 0x1b, 0x2c, 0x4d, 0x5e}};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tool_provider_app SECONDS [READY_FILE]\n");
        return 2;
    }
    double seconds = atof(argv[1]);
    REGHANDLE manifest = 0;
    if (TraceLoggingRegister(g_ticker) != ERROR_SUCCESS ||
        EventRegister(&manifest_guid, NULL, NULL, &manifest) != ERROR_SUCCESS) {
        fprintf(stderr, "tool_provider_app: cannot register\n");
        return 1;
    }
    if (argc > 2) {
        FILE *f = fopen(argv[2], "w");
        if (f)
            fclose(f);
    }
    EVENT_DESCRIPTOR d = {1, 0, 0, WINEVENT_LEVEL_INFO, 0, 0, 0};
    int ticks = (int)(seconds * 50);
    for (int i = 0; i < ticks; i++) {
        TraceLoggingWrite(g_ticker, "Tick", TraceLoggingLevel(WINEVENT_LEVEL_INFO),
                          TraceLoggingInt32(i, "Count"));
        EVENT_DATA_DESCRIPTOR data;
        EventDataDescCreate(&data, &i, sizeof(i));
        EventWrite(manifest, &d, 1, &data);
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    EventUnregister(manifest);
    TraceLoggingUnregister(g_ticker);
    return 0;
}
