/* SPDX-License-Identifier: MIT */
/* tracelogging_twin_events.h - the body of a function that writes one event
 * of each kind, included by a C and by a C++ file (see
 * tracelogging_twin.h); TWIN_SIDE is the side's keyword, TWIN_TRUE a true
 * boolean. Every TraceLoggingValue here has the same encoding in C and in
 * C++. No include guard: included twice on purpose. */
{
    static const uint8_t bin[5] = {1, 2, 3, 4, 5};
    GUID g = {0x11223344, 0x5566, 0x7788, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}};
    FILETIME ft = {(DWORD)(133000000000000000ll & 0xffffffff), (DWORD)(133000000000000000ll >> 32)};
    SYSTEMTIME st = {2024, 2, 4, 29, 23, 59, 58, 999};
    int32_t varr[3] = {-1, 2, 3};
    uint8_t farr[4] = {0xaa, 0xbb, 0xcc, 0xdd};
    double darr[2] = {0.5, 0.25};
    GUID garr[2] = {{1, 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}}, {0xffffffff, 0, 0, {0}}};
    int one = 1;
    char s16[] = "Mercury";

    TraceLoggingWrite(g_twin, "Scalars", TraceLoggingKeyword(TWIN_SIDE), TraceLoggingInt8(-8, "i8"),
                      TraceLoggingUInt8(200, "u8"), TraceLoggingInt16(-1600, "i16"),
                      TraceLoggingUInt16(60000, "u16"), TraceLoggingInt32(-320000, "i32"),
                      TraceLoggingUInt32(4000000000u, "u32"),
                      TraceLoggingInt64(-6400000000ll, "i64"),
                      TraceLoggingUInt64(18000000000000000000ull, "u64"),
                      TraceLoggingIntPtr(-5, "iptr"), TraceLoggingUIntPtr(7, "uptr"),
                      TraceLoggingInt32(one), TraceLoggingHexInt32(0xdeadbeef, "hex32"),
                      TraceLoggingHexUInt64(0x0123456789abcdefull, "hex64"),
                      TraceLoggingHexUInt8(0xab, "hex8"), TraceLoggingFloat32(1.5f, "f32"),
                      TraceLoggingFloat64(-2.25, "f64"), TraceLoggingBool(TRUE, "bool32"),
                      TraceLoggingBoolean(1, "boolean"), TraceLoggingChar('Z', "ch"),
                      TraceLoggingWChar(0x3a9, "wch"), TraceLoggingPointer((void *)0x1234, "ptr"),
                      TraceLoggingPid(42, "pid"), TraceLoggingTid(43, "tid"),
                      TraceLoggingIPv4Address(0x0100007f, "ip"), TraceLoggingPort(0x901f, "port"),
                      TraceLoggingWinError(5, "winerr"), TraceLoggingHResult(E_FAIL, "hr"),
                      TraceLoggingNTStatus(0xC0000005u, "nt", "an access violation"));
    TraceLoggingWrite(
        g_twin, "Strings", TraceLoggingKeyword(TWIN_SIDE), TraceLoggingString("ansi text", "ansi"),
        TraceLoggingUtf8String("h\xc3\xa9llo", "utf8"),
        TraceLoggingWideString(L"wide \U0001F600", "wide"), TraceLoggingString(NULL, "null"),
        TraceLoggingCountedString("abcdef", 3, "counted"),
        TraceLoggingCountedWideString(L"abcdef", 4, "cwide"),
        TraceLoggingBinary(bin, sizeof(bin), "bin"), TraceLoggingGuid(g, "guid"),
        TraceLoggingFileTime(ft, "ft"), TraceLoggingSystemTime(st, "st"));
    TraceLoggingWrite(
        g_twin, "Arrays", TraceLoggingKeyword(TWIN_SIDE), TraceLoggingInt32Array(varr, 3, "varr"),
        TraceLoggingUInt8FixedArray(farr, 4, "farr"), TraceLoggingFloat64Array(darr, 2, "darr"),
        TraceLoggingGuidFixedArray(garr, 2, "garr"), TraceLoggingInt32Array(varr, 0, "empty"),
        TraceLoggingStruct(2, "outer"), TraceLoggingInt32(7, "a"), TraceLoggingStruct(1, "inner"),
        TraceLoggingString("deep", "b"), TraceLoggingInt32(9, "after"));
    TraceLoggingWrite(g_twin, "Values", TraceLoggingKeyword(TWIN_SIDE),
                      TraceLoggingValue(-3, "vint"), TraceLoggingValue((uint64_t)1 << 40, "vu64"),
                      TraceLoggingValue(3.5, "vdbl"), TraceLoggingValue("value", "vstr"),
                      TraceLoggingValue(L"w\u00e9", "vwide"), TraceLoggingValue((char)'q', "vchar"),
                      TraceLoggingValue(TWIN_TRUE, "vbool"), TraceLoggingValue(g, "vguid"),
                      TraceLoggingValue(ft, "vft"), TraceLoggingValue(st, "vst"),
                      TraceLoggingValue(1.25f, "vflt"), TraceLoggingValue((short)-2, "vshort"),
                      TraceLoggingValue((unsigned short)65000, "vushort"),
                      TraceLoggingValue((signed char)-100, "vschar"),
                      TraceLoggingValue((unsigned char)200, "vuchar"),
                      TraceLoggingValue((long long)-7, "vll"), TraceLoggingValue(7u, "vuint"),
                      TraceLoggingValue((int64_t)-9, "vi64"), TraceLoggingValue(one));
    {
        /* The rest of Windows' field macros. */
        int32_t longs[2] = {-7, 7};
        int8_t hex8s[2] = {-1, 0x10};
        void *ptrs[2] = {(void *)0x1000, (void *)0x2000};
        FILETIME fts[2] = {ft, ft};
        uint16_t c16[3] = {'h', 0x3a9, 'i'};
        wchar_t wc[3] = {L'a', (wchar_t)(sizeof(wchar_t) == 4 ? 0x1F600 : 0x3a9), L'b'};
        static const uint16_t s16z[] = {'u', 't', 'f', 0};
        struct {
            uint16_t Length, MaximumLength;
            const char *Buffer;
        } astr = {5, 6, "ansi!"};
        static const uint8_t ip6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        static const uint8_t sid[12] = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0};
        int32_t pf = 0x11223344, rect[2] = {3, -4};
        TraceLoggingWrite(
            g_twin, "More", TraceLoggingKeyword(TWIN_SIDE),
            TraceLoggingLongArray(longs, 2, "longs"), TraceLoggingHexLongFixedArray(longs, 2, "hl"),
            TraceLoggingHexInt8Array(hex8s, 2, "hex8s"),
            TraceLoggingCodePointerFixedArray(ptrs, 2, "code"),
            TraceLoggingFileTimeUtcArray(fts, 2, "ftutc"), TraceLoggingChar16Array(c16, 3, "c16"),
            TraceLoggingWCharArray(wc, 3, "wca"), TraceLoggingWCharFixedArray(wc, 3, "wcf"),
            TraceLoggingString16(s16z, "s16"), TraceLoggingCountedString16(s16z, 2, "cs16"),
            TraceLoggingAnsiString(&astr, "astr"), TraceLoggingIPv6Address(ip6, "ip6"),
            TraceLoggingSocketAddress(ip6, 8, "sa"), TraceLoggingSid(sid, "sid"),
            TraceLoggingCustom(bin, 3, 5, (0x0, 0x1, 0x2), 3, "custom"),
            TraceLoggingPackedField(&pf, sizeof(pf), TlgInINT32, "pf"),
            TraceLoggingPackedData(rect, sizeof(rect)), TraceLoggingPackedStruct(2, "rect"),
            TraceLoggingPackedMetadata(TlgInINT32, "x"),
            TraceLoggingPackedMetadataEx(TlgInINT32, TlgOutHEX, "y"), TraceLoggingInt32(5, "last"));
    }
    TraceLoggingWrite(g_twin, "Empty", TraceLoggingKeyword(TWIN_SIDE));
    TraceLoggingWrite(g_twin, "Attrs", TraceLoggingLevel(WINEVENT_LEVEL_ERROR),
                      TraceLoggingKeyword(0x1), TraceLoggingKeyword(TWIN_SIDE),
                      TraceLoggingKeyword(0x4), TraceLoggingOpcode(WINEVENT_OPCODE_START),
                      TraceLoggingChannel(WINEVENT_CHANNEL_TRACELOGGING),
                      TraceLoggingEventTag(0x2000001), TraceLoggingDescription("attributes"),
                      TraceLoggingInt32(1, "x"));
    /* Tags of 1, 2, 3 and 4 bytes. */
    TraceLoggingWrite(g_twin, "Tag1", TraceLoggingKeyword(TWIN_SIDE),
                      TraceLoggingEventTag(0x0FE00000), TraceLoggingInt32(1, "x"));
    TraceLoggingWrite(g_twin, "Tag2", TraceLoggingKeyword(TWIN_SIDE), TraceLoggingEventTag(0x4000),
                      TraceLoggingInt32(2, "x"));
    TraceLoggingWrite(g_twin, "Tag3", TraceLoggingKeyword(TWIN_SIDE), TraceLoggingEventTag(0x80),
                      TraceLoggingEventTag(0x100000), TraceLoggingInt32(3, "x"));
    TraceLoggingWrite(g_twin, "Tag4", TraceLoggingKeyword(TWIN_SIDE), TraceLoggingEventTag(0x1),
                      TraceLoggingInt32(4, "x"));
    {
        GUID act = {0xac71, 0, 0, {0}}, rel = {0x4e1, 0, 0, {0}};
        TraceLoggingWriteActivity(g_twin, "Activity", &act, &rel, TraceLoggingKeyword(TWIN_SIDE),
                                  TraceLoggingInt32(2, "x"));
    }
    TraceLoggingWrite(g_twin_solar, "PrimitiveTypesTest", TraceLoggingKeyword(TWIN_SIDE),
                      TraceLoggingString(s16, "string_type"),
                      TraceLoggingBoolean(0, "boolean_type"), TraceLoggingChar('M', "char_type"),
                      TraceLoggingInt16(-51, "int16_type"), TraceLoggingInt32(-1, "int32_type"),
                      TraceLoggingUInt16(1, "uint16_type"), TraceLoggingUInt32(2, "uint32_type"),
                      TraceLoggingUInt64(3, "int64_type"), TraceLoggingUInt64(4, "uint64_type"),
                      TraceLoggingGuid(g, "guid_type"), TraceLoggingFileTime(ft, "file_time_type"),
                      TraceLoggingSystemTime(st, "system_time_type"));
}
