/* SPDX-License-Identifier: MIT */
/* TDH describes the EventTrace PartitionInfoExtension record (opcode 80,
 * version 2) that files from Windows 10 2004 and later carry after the
 * header, as Windows' TDH does: the class's name, the opcode's name and six
 * properties (EventVersion, Reserved, PartitionType, QpcOffsetFromRoot,
 * PartitionId, ParentId) over the 48-byte payload, each readable with
 * TdhGetProperty. petw returned ERROR_NOT_FOUND (1168) for it. */
#include <tdh.h>

#include "test_util.h"

static const WCHAR *name_at(PTRACE_EVENT_INFO info, ULONG off)
{
    return (const WCHAR *)((const BYTE *)info + off);
}

int main(void)
{
    /* EventVersion 2, PartitionType 2 (VmHost), a QPC offset, two GUIDs. */
    uint8_t payload[48];
    memset(payload, 0, sizeof(payload));
    payload[0] = 2;
    payload[4] = 2;
    int64_t qpc = -12345;
    memcpy(payload + 8, &qpc, 8);
    for (int i = 0; i < 16; i++) {
        payload[16 + i] = (uint8_t)(0x10 + i);
        payload[32 + i] = (uint8_t)(0x40 + i);
    }
    EVENT_RECORD r;
    memset(&r, 0, sizeof(r));
    r.EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_64_BIT_HEADER;
    r.EventHeader.ProviderId = EventTraceGuid;
    r.EventHeader.EventDescriptor.Opcode = 80;
    r.EventHeader.EventDescriptor.Version = 2;
    r.UserData = payload;
    r.UserDataLength = sizeof(payload);

    ULONG size = 0;
    CHECK_EQ(TdhGetEventInformation(&r, 0, NULL, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
    PTRACE_EVENT_INFO info = malloc(size);
    CHECK(info);
    CHECK_EQ(TdhGetEventInformation(&r, 0, NULL, info, &size), ERROR_SUCCESS);
    CHECK(info->DecodingSource == DecodingSourceWbem);
    CHECK(info->TaskNameOffset && !wcscmp(name_at(info, info->TaskNameOffset), L"EventTrace"));
    CHECK(info->OpcodeNameOffset &&
          !wcscmp(name_at(info, info->OpcodeNameOffset), L"PartitionInfoExtensionV2"));
    CHECK_EQ(info->TopLevelPropertyCount, 6);
    static const WCHAR *names[] = {L"EventVersion",      L"Reserved",    L"PartitionType",
                                   L"QpcOffsetFromRoot", L"PartitionId", L"ParentId"};
    for (int i = 0; i < 6; i++)
        CHECK(!wcscmp(name_at(info, info->EventPropertyInfoArray[i].NameOffset), names[i]));
    CHECK_EQ(info->EventPropertyInfoArray[4].nonStructType.InType, TDH_INTYPE_GUID);

    PROPERTY_DATA_DESCRIPTOR d = {(ULONGLONG)(uintptr_t)L"PartitionType", 0xFFFFFFFFu, 0};
    ULONG type = 0;
    CHECK_EQ(TdhGetProperty(&r, 0, NULL, 1, &d, sizeof(type), (PBYTE)&type), ERROR_SUCCESS);
    CHECK_EQ(type, 2);
    d.PropertyName = (ULONGLONG)(uintptr_t)L"QpcOffsetFromRoot";
    int64_t got = 0;
    CHECK_EQ(TdhGetProperty(&r, 0, NULL, 1, &d, sizeof(got), (PBYTE)&got), ERROR_SUCCESS);
    CHECK_EQ(got, -12345);
    d.PropertyName = (ULONGLONG)(uintptr_t)L"ParentId";
    GUID parent;
    CHECK_EQ(TdhGetProperty(&r, 0, NULL, 1, &d, sizeof(parent), (PBYTE)&parent), ERROR_SUCCESS);
    CHECK(!memcmp(&parent, payload + 32, 16));
    free(info);
    return 0;
}
