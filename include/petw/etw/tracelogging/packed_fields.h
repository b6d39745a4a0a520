/* SPDX-License-Identifier: MIT */
/* tracelogging/packed_fields.h - TraceLogging's packed fields (metadata and
 * data written separately) and TraceLoggingValue.
 *
 * A chapter of <TraceLoggingProvider.h>, which includes it; not a header of its own. */
#ifndef PETW_ETW_TRACELOGGING_PACKED_FIELDS_H
#define PETW_ETW_TRACELOGGING_PACKED_FIELDS_H

#ifndef PETW_ETW_TRACELOGGINGPROVIDER_H
#error "include <TraceLoggingProvider.h>, not its parts"
#endif

/* ---- Packed fields: metadata and data written separately ------------------
 * The caller keeps them consistent, as Windows documents: PackedField adds a
 * field and its data, PackedMetadata a field without data, PackedStruct(Array)
 * a struct (or an array of structs, whose u16 count is data) of the next
 * `count` fields, PackedData bytes without a field. The Ex forms give an
 * out-type (always written, even 0), or the data descriptor's Type. */
#define TraceLoggingPackedField(p, n, in, ...)                                                     \
    (petw__tlgk_pfield, p, n, in, 0, 1, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingPackedFieldEx(p, n, in, out, ...)                                              \
    (petw__tlgk_pfield, p, n, in, out, 2, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingPackedMetadata(in, name, ...) (petw__tlgk_pmeta, in, 0, 1, name)
#define TraceLoggingPackedMetadataEx(in, out, name, ...) (petw__tlgk_pmeta, in, out, 2, name)
#define TraceLoggingPackedStruct(count, name, ...) (petw__tlgk_pstruct, count, 24, name)
#define TraceLoggingPackedStructArray(count, name, ...) (petw__tlgk_pstruct, count, 24 | 0x40, name)
#define TraceLoggingPackedData(p, n) (petw__tlgk_pdata, p, n, EVENT_DATA_DESCRIPTOR_TYPE_NONE)
#define TraceLoggingPackedDataEx(p, n, type) (petw__tlgk_pdata, p, n, type)

/* Macros petw does not provide (LTTng's 32-bit character forms) fail to
 * compile with a message that names them. */
#define PETW__TLG_UNSUPPORTED(name) (petw__tlgk_unsupported, "petw: " #name " is not supported")
#define TraceLoggingChar32(...) PETW__TLG_UNSUPPORTED(TraceLoggingChar32)
#define TraceLoggingChar32Array(...) PETW__TLG_UNSUPPORTED(TraceLoggingChar32Array)
#define TraceLoggingChar32FixedArray(...) PETW__TLG_UNSUPPORTED(TraceLoggingChar32FixedArray)
#define TraceLoggingString32(...) PETW__TLG_UNSUPPORTED(TraceLoggingString32)
#define TraceLoggingCountedString32(...) PETW__TLG_UNSUPPORTED(TraceLoggingCountedString32)

/* The in-types and out-types of Windows' header, for the packed macros. */
enum TlgIn_t {
    TlgInNULL,
    TlgInUNICODESTRING,
    TlgInANSISTRING,
    TlgInINT8,
    TlgInUINT8,
    TlgInINT16,
    TlgInUINT16,
    TlgInINT32,
    TlgInUINT32,
    TlgInINT64,
    TlgInUINT64,
    TlgInFLOAT,
    TlgInDOUBLE,
    TlgInBOOL32,
    TlgInBINARY,
    TlgInGUID,
    _TlgInPOINTER_unsupported,
    TlgInFILETIME,
    TlgInSYSTEMTIME,
    TlgInSID,
    TlgInHEXINT32,
    TlgInHEXINT64,
    TlgInCOUNTEDSTRING,
    TlgInCOUNTEDANSISTRING,
    _TlgInSTRUCT,
    TlgInCOUNTEDBINARY,
    _TlgInMax,
    TlgInINTPTR = sizeof(void *) == 8 ? TlgInINT64 : TlgInINT32,
    TlgInUINTPTR = sizeof(void *) == 8 ? TlgInUINT64 : TlgInUINT32,
    TlgInPOINTER = sizeof(void *) == 8 ? TlgInHEXINT64 : TlgInHEXINT32,
    TlgInLONG = TlgInINT32, /* LONG is 32 bits, as on Windows */
    TlgInULONG = TlgInUINT32,
    TlgInHEXLONG = TlgInHEXINT32,
    _TlgInCcount = 32,
    TlgInVcount = 64,
    _TlgInChain = 128,
    _TlgInCustom = 96,
    _TlgInTypeMask = 31,
    _TlgInCountMask = 96,
    _TlgInFlagMask = 224
};
enum TlgOut_t {
    TlgOutNULL,
    TlgOutNOPRINT,
    TlgOutSTRING,
    TlgOutBOOLEAN,
    TlgOutHEX,
    TlgOutPID,
    TlgOutTID,
    TlgOutPORT,
    TlgOutIPV4,
    TlgOutIPV6,
    TlgOutSOCKETADDRESS,
    TlgOutXML,
    TlgOutJSON,
    TlgOutWIN32ERROR,
    TlgOutNTSTATUS,
    TlgOutHRESULT,
    TlgOutFILETIME,
    TlgOutSIGNED,
    TlgOutUNSIGNED,
    TlgOutUTF8 = 35,
    TlgOutPKCS7_WITH_TYPE_INFO = 36,
    TlgOutCODE_POINTER = 37,
    TlgOutDATETIME_UTC = 38,
    _TlgOutMax,
    _TlgOutChain = 128,
    _TlgOutTypeMask = 127
};

#ifndef __cplusplus
/* TraceLoggingValue: the encoding follows the C type (Windows' C++
 * overloads: char is a character, _Bool a boolean, char * a string). */
#define PETW__TLG_VIN(v)                                                                           \
    _Generic((v), _Bool : 4, char : 4, signed char : 3, unsigned char : 4, short : 5,              \
             unsigned short : 6, int : 7, unsigned : 8, long                                       \
             : (sizeof(long) == 8 ? 9 : 7), unsigned long                                          \
             : (sizeof(long) == 8 ? 10 : 8), long long : 9, unsigned long long : 10, float : 11,   \
               double : 12, char * : 2, const char * : 2, PETW__TLG_VIN_WIDE GUID : 15,            \
               FILETIME : 17, SYSTEMTIME : 18)
#define PETW__TLG_VOUT(v) _Generic((v), _Bool : 3, char : 2, default : 0)
#define PETW__TLG_VKIND(v)                                                                         \
    _Generic((v), char * : 1, const char * : 1, PETW__TLG_VKIND_WIDE default : 0)
#define PETW__TLG_VIN_WIDE wchar_t * : 1, const wchar_t * : 1,
#define PETW__TLG_VKIND_WIDE wchar_t * : 2, const wchar_t * : 2,
#else
/* TraceLoggingValue in C++: petw__tlgv(v) picks, by overload, a holder of
 * the value as stored, with its in-type and out-type; desc() describes it. */
extern "C++" {
template <int In, int Out, class T> struct petw__tlgv_t {
    enum { tlg_in = In, tlg_out = Out };
    T v;
    int desc(uint32_t *, PEVENT_DATA_DESCRIPTOR d) const
    {
        EventDataDescCreate(d, &v, (ULONG)sizeof(v));
        return 1;
    }
};
template <int Out, class C> struct petw__tlgv_sz { /* NUL-terminated char text */
    enum { tlg_in = 2, tlg_out = Out };
    const C *v;
    int desc(uint32_t *, PEVENT_DATA_DESCRIPTOR d) const
    {
        const char *s = v ? reinterpret_cast<const char *>(v) : "";
        EventDataDescCreate(d, s, (ULONG)strlen(s) + 1);
        return 1;
    }
};
template <class C> struct petw__tlgv_wsz { /* NUL-terminated wide text, stored UTF-16LE */
    enum { tlg_in = 1, tlg_out = 0 };
    const C *v;
    int desc(uint32_t *used, PEVENT_DATA_DESCRIPTOR d) const
    {
        return sizeof(C) == 2 ? petw__tlg_wide16(used, d, v, -1)
                              : petw__tlg_wide(used, d, reinterpret_cast<const wchar_t *>(v), -1);
    }
};
#define PETW__TLGV(type, in, out, stored)                                                          \
    inline petw__tlgv_t<in, out, stored> petw__tlgv(type x)                                        \
    {                                                                                              \
        return petw__tlgv_t<in, out, stored>{static_cast<stored>(x)};                              \
    }
PETW__TLGV(bool, 4, 3, uint8_t)
PETW__TLGV(char, 4, 2, char)
PETW__TLGV(wchar_t, 6, 2, uint16_t)
PETW__TLGV(char16_t, 6, 2, uint16_t)
PETW__TLGV(signed char, 3, 0, int8_t)
PETW__TLGV(unsigned char, 4, 0, uint8_t)
PETW__TLGV(short, 5, 0, int16_t)
PETW__TLGV(unsigned short, 6, 0, uint16_t)
PETW__TLGV(int, 7, 0, int32_t)
PETW__TLGV(unsigned int, 8, 0, uint32_t)
PETW__TLGV(long, sizeof(long) == 8 ? 9 : 7, 0, long)
PETW__TLGV(unsigned long, sizeof(long) == 8 ? 10 : 8, 0, unsigned long)
PETW__TLGV(long long, 9, 0, int64_t)
PETW__TLGV(unsigned long long, 10, 0, uint64_t)
PETW__TLGV(float, 11, 0, float)
PETW__TLGV(double, 12, 0, double)
PETW__TLGV(const GUID &, 15, 0, GUID)
PETW__TLGV(const FILETIME &, 17, 0, FILETIME)
PETW__TLGV(const SYSTEMTIME &, 18, 0, SYSTEMTIME)
#undef PETW__TLGV
inline petw__tlgv_t<PETW__TLG_IN_POINTER, 0, uintptr_t> petw__tlgv(const void *p)
{
    return petw__tlgv_t<PETW__TLG_IN_POINTER, 0, uintptr_t>{reinterpret_cast<uintptr_t>(p)};
}
inline petw__tlgv_sz<0, char> petw__tlgv(const char *s)
{
    return petw__tlgv_sz<0, char>{s};
}
inline petw__tlgv_wsz<wchar_t> petw__tlgv(const wchar_t *s)
{
    return petw__tlgv_wsz<wchar_t>{s};
}
inline petw__tlgv_wsz<char16_t> petw__tlgv(const char16_t *s)
{
    return petw__tlgv_wsz<char16_t>{s};
}
#if defined(__cpp_char8_t)
inline petw__tlgv_sz<35, char8_t> petw__tlgv(const char8_t *s) /* UTF-8 */
{
    return petw__tlgv_sz<35, char8_t>{s};
}
#endif
}
#endif
#define TraceLoggingValue(v, ...) (petw__tlgk_value, v, PETW__TLG_NAME(#v, ##__VA_ARGS__))

#endif /* PETW_ETW_TRACELOGGING_PACKED_FIELDS_H */
