/* SPDX-License-Identifier: MIT */
/* example_provider.h - the example provider's GUID and entry point. */
#ifndef EXAMPLE_PROVIDER_H
#define EXAMPLE_PROVIDER_H

#include <windows.h>
#include <evntprov.h>

/* {3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c}-style GUID of our own. */
DEFINE_GUID(ProviderGuid, 0x5a1c4e1b, 0x7a2f, 0x4d3e, 0x9b, 0x61, 0x2c, 0x8e, 0x4f, 0x10, 0x3a,
            0x77);

/* Registers the provider, writes `count` order events and a few status
 * events, and unregisters. Returns the last EventWrite status. */
ULONG RunExampleProvider(ULONG count);

#endif
