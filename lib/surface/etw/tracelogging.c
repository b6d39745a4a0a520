/* SPDX-License-Identifier: MIT */
/* tracelogging.c - the run-time half of <TraceLoggingProvider.h>:
 * registration (provider traits built once), and wchar_t text as UTF-16LE.
 * The event metadata is built by the compiler; nothing here runs per field
 * except for wide strings and TraceLoggingValue. */
#include <stdlib.h>

#include <TraceLoggingProvider.h>

#include "etw_internal.h"

HRESULT petw__tlg_register(petw__tlg_provider *p, PENABLECALLBACK callback, void *context)
{
    if (p == NULL || p->name == NULL || p->handle != 0)
        return E_INVALIDARG;
    size_t name = strlen(p->name) + 1, size = 2 + name + (p->has_group ? 19 : 0);
    if (size > 0xFFFF)
        return E_INVALIDARG;
    uint8_t *t = malloc(size);
    if (t == NULL)
        return E_OUTOFMEMORY;
    petw__wr16(t, (uint16_t)size);
    memcpy(t + 2, p->name, name);
    if (p->has_group) { /* u16 trait size, u8 type 1 (provider group), GUID */
        uint8_t *g = t + 2 + name;
        petw__wr16(g, 19);
        g[2] = 1;
        petw__wr32(g + 3, p->group.Data1);
        petw__wr16(g + 7, p->group.Data2);
        petw__wr16(g + 9, p->group.Data3);
        memcpy(g + 11, p->group.Data4, 8);
    }
    REGHANDLE h;
    ULONG rc = EventRegister(&p->id, callback, context, &h);
    if (rc != ERROR_SUCCESS) {
        free(t);
        return HRESULT_FROM_WIN32(rc);
    }
    /* The traits, as Windows' TraceLoggingRegister sets them
     * (EventProviderSetTraits): every event of the provider carries them,
     * and its name is known before its first event (`petw providers`). The
     * provider keeps its own copy. */
    rc = EventSetInformation(h, EventProviderSetTraits, t, (ULONG)size);
    free(t);
    if (rc != ERROR_SUCCESS) {
        EventUnregister(h);
        return HRESULT_FROM_WIN32(rc);
    }
    p->handle = h;
    return S_OK;
}

void petw__tlg_unregister(petw__tlg_provider *p)
{
    if (p == NULL || p->handle == 0)
        return;
    EventUnregister(p->handle);
    p->handle = 0;
}

/* Per-thread conversion area: an event is at most 64 KB, so is its text. */
#define SCRATCH 65536u
static _Thread_local uint8_t scratch[SCRATCH];

/* The i-th code unit of wchar_t text, or of UTF-16 text in host order. */
static uint32_t unit(const void *text, int utf16, size_t i)
{
    if (!utf16)
        return (uint32_t)((const wchar_t *)text)[i];
    uint16_t u;
    memcpy(&u, (const uint8_t *)text + 2 * i, 2);
    return u;
}

static int wide(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const void *text, long count, int utf16)
{
    static const wchar_t empty[2] = {0, 0}; /* a NUL in either unit size */
    int counted = count >= 0;
    if (text == NULL)
        text = empty, count = counted ? 0 : -1;
    size_t n = 0; /* code units, NUL included when not counted */
    if (counted)
        n = (size_t)count;
    else {
        while (unit(text, utf16, n) != 0)
            n++;
        n++;
    }
    uint32_t at = *used, prefix = counted ? 2 : 0, bytes = 0;
    int fits = 1;
    for (size_t i = 0; i < n && fits; i++) {
        uint32_t c = unit(text, utf16, i);
        if (utf16 || sizeof(wchar_t) == 2 || c < 0x10000) {
            fits = at + prefix + bytes + 2 <= SCRATCH;
            if (fits)
                petw__wr16(scratch + at + prefix + bytes, (uint16_t)c), bytes += 2;
        } else {
            c = c > 0x10FFFF ? 0xFFFD : c;
            fits = at + prefix + bytes + 4 <= SCRATCH;
            if (fits) {
                c -= 0x10000;
                petw__wr16(scratch + at + prefix + bytes, (uint16_t)(0xD800 | (c >> 10)));
                petw__wr16(scratch + at + prefix + bytes + 2, (uint16_t)(0xDC00 | (c & 0x3FF)));
                bytes += 4;
            }
        }
    }
    if (counted) {
        fits = fits && at + 2 <= SCRATCH && bytes <= 0xFFFF;
        if (fits)
            petw__wr16(scratch + at, (uint16_t)bytes);
        EventDataDescCreate(&d[0], scratch + at, 2);
    }
    /* Too long: a size no event can hold makes the write fail (and count). */
    EventDataDescCreate(&d[counted], scratch + at + prefix, fits ? bytes : 0x10000u);
    *used = fits ? at + prefix + bytes : SCRATCH;
    return 1 + counted;
}

int petw__tlg_wide(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const wchar_t *text, long count)
{
    return wide(used, d, text, count, 0);
}

int petw__tlg_wide16(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const void *text, long count)
{
    return wide(used, d, text, count, 1);
}

int petw__tlg_wchars(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const wchar_t *p, size_t n,
                     int counted)
{
    uint32_t at = *used, prefix = counted ? 2 : 0, units = 0;
    int fits = at + prefix <= SCRATCH;
    for (size_t i = 0; i < n && fits; i++) {
        uint32_t c = (uint32_t)p[i];
        if (sizeof(wchar_t) == 2 || c < 0x10000) {
            fits = at + prefix + 2 * (units + 1) <= SCRATCH;
            if (fits)
                petw__wr16(scratch + at + prefix + 2 * units++, (uint16_t)c);
        } else if (!counted || c > 0x10FFFF) { /* one unit per element */
            fits = at + prefix + 2 * (units + 1) <= SCRATCH;
            if (fits)
                petw__wr16(scratch + at + prefix + 2 * units++, 0xFFFD);
        } else {
            fits = at + prefix + 2 * (units + 2) <= SCRATCH;
            if (fits) {
                c -= 0x10000;
                petw__wr16(scratch + at + prefix + 2 * units++, (uint16_t)(0xD800 | (c >> 10)));
                petw__wr16(scratch + at + prefix + 2 * units++, (uint16_t)(0xDC00 | (c & 0x3FF)));
            }
        }
    }
    if (counted) {
        fits = fits && units <= 0xFFFF;
        if (fits)
            petw__wr16(scratch + at, (uint16_t)units);
        EventDataDescCreate(&d[0], scratch + at, 2);
    }
    /* Too long: a size no event can hold makes the write fail (and count). */
    EventDataDescCreate(&d[counted != 0], scratch + at + prefix, fits ? 2 * units : 0x10000u);
    *used = fits ? at + prefix + 2 * units : SCRATCH;
    return 1 + (counted != 0);
}

int petw__tlg_value(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const void *value, size_t size,
                    int kind)
{
    if (kind == 1) {
        const char *s = *(const char *const *)value;
        s = s ? s : "";
        EventDataDescCreate(d, s, (ULONG)strlen(s) + 1);
        return 1;
    }
    if (kind == 2)
        return petw__tlg_wide(used, d, *(const wchar_t *const *)value, -1);
    EventDataDescCreate(d, value, (ULONG)size);
    return 1;
}
