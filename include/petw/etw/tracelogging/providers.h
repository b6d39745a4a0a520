/* SPDX-License-Identifier: MIT */
/* tracelogging/providers.h - TraceLogging's providers: the handle, its
 * definition, registration and the enabled check.
 *
 * A chapter of <TraceLoggingProvider.h>, which includes it; not a header of its own. */
#ifndef PETW_ETW_TRACELOGGING_PROVIDERS_H
#define PETW_ETW_TRACELOGGING_PROVIDERS_H

#ifndef PETW_ETW_TRACELOGGINGPROVIDER_H
#error "include <TraceLoggingProvider.h>, not its parts"
#endif

/* ---- Providers ---------------------------------------------------------- */

typedef struct petw__tlg_provider {
    const char *name;
    GUID id;
    GUID group; /* TraceLoggingOptionGroup */
    int has_group;
    REGHANDLE handle; /* 0 until registered */
} petw__tlg_provider;

typedef petw__tlg_provider *TraceLoggingHProvider;
typedef PENABLECALLBACK TLG_PENABLECALLBACK;
typedef HRESULT TLG_STATUS; /* what the provider functions return (user mode) */

#define PETW__TLG_GUID(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                                  \
    {                                                                                              \
        l, w1, w2,                                                                                 \
        {                                                                                          \
            b1, b2, b3, b4, b5, b6, b7, b8                                                         \
        }                                                                                          \
    }

#ifndef __cplusplus
/* Declares a provider handle defined in another translation unit. */
#define TRACELOGGING_DECLARE_PROVIDER(handle) extern TraceLoggingHProvider const handle

/* Defines `handle` for the provider `name` with the GUID given as a
 * parenthesized list, optionally followed by TraceLoggingOptionGroup(...). */
#define TRACELOGGING_DEFINE_PROVIDER(handle, provider_name, provider_id, ...)                      \
    static petw__tlg_provider petw__tlg_storage_##handle = {                                       \
        .name = provider_name, .id = PETW__TLG_GUID provider_id, __VA_ARGS__};                     \
    TraceLoggingHProvider const handle = &petw__tlg_storage_##handle

/* Defines only the provider's storage, `storage`; a handle is its address
 * (TraceLoggingHProvider const h = &storage;). */
#define TRACELOGGING_DEFINE_PROVIDER_STORAGE(storage, provider_name, provider_id, ...)             \
    static petw__tlg_provider storage = {                                                          \
        .name = provider_name, .id = PETW__TLG_GUID provider_id, __VA_ARGS__}

/* The provider belongs to a provider group (a group trait in the traits). */
#define TraceLoggingOptionGroup(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                         \
    .group = PETW__TLG_GUID(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8), .has_group = 1
#else
/* C++: the same, with C linkage (a C and a C++ file share a handle), the
 * storage built by constexpr functions (constant-initialized). */
#define TRACELOGGING_DECLARE_PROVIDER(handle) extern "C" TraceLoggingHProvider const handle
#define TRACELOGGING_DEFINE_PROVIDER(handle, provider_name, provider_id, ...)                      \
    static petw__tlg_provider petw__tlg_storage_##handle =                                         \
        petw__tlg_provider_init(provider_name, petw__tlg_guid provider_id, ##__VA_ARGS__);         \
    extern "C" TraceLoggingHProvider const handle = &petw__tlg_storage_##handle
#define TRACELOGGING_DEFINE_PROVIDER_STORAGE(storage, provider_name, provider_id, ...)             \
    static petw__tlg_provider storage =                                                            \
        petw__tlg_provider_init(provider_name, petw__tlg_guid provider_id, ##__VA_ARGS__)
#define TraceLoggingOptionGroup(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                         \
    petw__tlg_group_option                                                                         \
    {                                                                                              \
        petw__tlg_guid(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                                  \
    }

extern "C++" {
struct petw__tlg_group_option {
    GUID group;
};
constexpr GUID petw__tlg_guid(uint32_t l, uint16_t w1, uint16_t w2, uint8_t b1, uint8_t b2,
                              uint8_t b3, uint8_t b4, uint8_t b5, uint8_t b6, uint8_t b7,
                              uint8_t b8)
{
    return GUID{l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}};
}
constexpr petw__tlg_provider petw__tlg_provider_init(const char *name, GUID id)
{
    return petw__tlg_provider{name, id, GUID{0, 0, 0, {0, 0, 0, 0, 0, 0, 0, 0}}, 0, 0};
}
constexpr petw__tlg_provider petw__tlg_provider_init(const char *name, GUID id,
                                                     petw__tlg_group_option option)
{
    return petw__tlg_provider{name, id, option.group, 1, 0};
}
}
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* Registers the provider. Returns S_OK, or HRESULT_FROM_WIN32 of
 * EventRegister's error (E_INVALIDARG when already registered). */
HRESULT petw__tlg_register(petw__tlg_provider *provider, PENABLECALLBACK callback, void *context);
void petw__tlg_unregister(petw__tlg_provider *provider);
/* Describes `text` (NUL-terminated when `count` < 0, else `count` wchar_t)
 * as UTF-16LE, converted into the calling thread's scratch area from offset
 * *used (advanced): one descriptor, or two (u16 byte count, then the text)
 * when counted. Returns the number of descriptors. Text that does not fit
 * gets a size over 64 KB, so the write fails like any oversized event. */
int petw__tlg_wide(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const wchar_t *text, long count);
/* TraceLoggingValue's data: `kind` 0 the value's bytes, 1 a char string,
 * 2 a wchar_t string (as petw__tlg_wide). Returns 1. */
int petw__tlg_value(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const void *value, size_t size,
                    int kind);
/* As petw__tlg_wide, for text already in UTF-16 (char16_t, host order). */
int petw__tlg_wide16(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const void *text, long count);
/* `n` wchar_t as UTF-16 code units in the scratch area (as petw__tlg_wide):
 * `counted` 1, a variable array (u16 count of code units, then the units;
 * two descriptors), 0 a fixed array of exactly `n` units (one). */
int petw__tlg_wchars(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const wchar_t *p, size_t n,
                     int counted);
#ifdef __cplusplus
}
#endif

#define TraceLoggingRegister(h) petw__tlg_register((h), NULL, NULL)
#define TraceLoggingRegisterEx(h, callback, context) petw__tlg_register((h), (callback), (context))
#define TraceLoggingUnregister(h) petw__tlg_unregister(h)
/* Whether the sessions enabling the provider together accept the level and
 * keyword (inline: as Windows, from their combined level and keywords; an
 * event it passes may still match no one session). TraceLoggingWrite's
 * own check. */
#define TraceLoggingProviderEnabled(h, level, keyword)                                             \
    ((BOOLEAN)petw__provider_accepts_load((h)->handle, (UCHAR)(level), (ULONGLONG)(keyword)))
#define TraceLoggingProviderId(h) ((const GUID *)&(h)->id)
/* EventSetInformation on the registered provider, as an HRESULT
 * (HRESULT_FROM_WIN32 of its error; of ERROR_INVALID_HANDLE before
 * TraceLoggingRegister). */
PETW__ETW_INLINE TLG_STATUS TraceLoggingSetInformation(TraceLoggingHProvider hProvider,
                                                       EVENT_INFO_CLASS InformationClass,
                                                       PVOID pvInformation, ULONG cbInformation)
{
    ULONG r = hProvider->handle ? EventSetInformation(hProvider->handle, InformationClass,
                                                      pvInformation, cbInformation)
                                : (ULONG)ERROR_INVALID_HANDLE;
    return HRESULT_FROM_WIN32(r);
}

#endif /* PETW_ETW_TRACELOGGING_PROVIDERS_H */
