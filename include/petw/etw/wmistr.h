/* wmistr.h - WNODE_HEADER, as in the Windows SDK. Part of petw's
 * ETW-compatible surface. */
#ifndef PETW_ETW_WMISTR_H
#define PETW_ETW_WMISTR_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <wmistr.h>
#else
#include <windows.h>

typedef struct _WNODE_HEADER {
    ULONG BufferSize;
    ULONG ProviderId;
    union {
        ULONG64 HistoricalContext;
        struct {
            ULONG Version;
            ULONG Linkage;
        };
    };
    union {
        ULONG CountLost;
        HANDLE KernelHandle;
        LARGE_INTEGER TimeStamp;
    };
    GUID Guid;
    ULONG ClientContext;
    ULONG Flags;
} WNODE_HEADER, *PWNODE_HEADER;

#define WNODE_FLAG_ALL_DATA 0x00000001
#define WNODE_FLAG_SINGLE_INSTANCE 0x00000002
#define WNODE_FLAG_TRACED_GUID 0x00020000
#define WNODE_FLAG_LOG_WNODE 0x00040000
#define WNODE_FLAG_USE_GUID_PTR 0x00080000
#define WNODE_FLAG_USE_MOF_PTR 0x00100000
#define WNODE_FLAG_VERSIONED_PROPERTIES 0x00800000
#endif
#endif
