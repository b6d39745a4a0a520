/* SPDX-License-Identifier: MIT */
/* ole32.c - the little COM <combaseapi.h> declares on other hosts than
 * Windows: no classes (CoCreateInstance fails with REGDB_E_CLASSNOTREG),
 * nothing to initialize, task memory (the C library's heap), GUID text,
 * and BSTRs (a 32-bit byte count, then the
 * characters and a NUL; the BSTR points at the characters). */
#include <stdlib.h>

#include "win32_internal.h"

#include <objbase.h>

#if !defined(_WIN32)
HRESULT CoInitialize(LPVOID pvReserved)
{
    (void)pvReserved;
    return S_OK;
}

HRESULT CoInitializeEx(LPVOID pvReserved, DWORD dwCoInit)
{
    (void)pvReserved, (void)dwCoInit;
    return S_OK;
}

void CoUninitialize(void) {}

HRESULT CoCreateInstance(REFCLSID rclsid, LPUNKNOWN pUnkOuter, DWORD dwClsContext, REFIID riid,
                         LPVOID *ppv)
{
    (void)rclsid, (void)pUnkOuter, (void)dwClsContext, (void)riid;
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    return REGDB_E_CLASSNOTREG;
}

LPVOID CoTaskMemAlloc(SIZE_T cb)
{
    return malloc(cb ? cb : 1);
}

void CoTaskMemFree(LPVOID pv)
{
    free(pv);
}

int StringFromGUID2(const GUID *rguid, LPOLESTR lpsz, int cchMax)
{
    static const char hex[] = "0123456789ABCDEF";
    if (!rguid || !lpsz || cchMax < 39)
        return 0;
    uint8_t b[16];
    petw__wr_guid(b, (const petw_guid *)rguid); /* Data1-3 little-endian */
    static const int order[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
    int n = 0;
    lpsz[n++] = L'{';
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            lpsz[n++] = L'-';
        lpsz[n++] = (WCHAR)hex[b[order[i]] >> 4];
        lpsz[n++] = (WCHAR)hex[b[order[i]] & 15];
    }
    lpsz[n++] = L'}';
    lpsz[n++] = 0;
    return n;
}

HRESULT StringFromCLSID(const GUID *rclsid, LPOLESTR *lplpsz)
{
    if (!lplpsz)
        return E_INVALIDARG;
    *lplpsz = NULL;
    if (!rclsid)
        return E_INVALIDARG;
    LPOLESTR s = CoTaskMemAlloc(39 * sizeof(OLECHAR));
    if (!s)
        return E_OUTOFMEMORY;
    StringFromGUID2(rclsid, s, 39);
    *lplpsz = s;
    return S_OK;
}

BSTR SysAllocStringLen(const OLECHAR *strIn, UINT ui)
{
    size_t bytes = (size_t)ui * sizeof(OLECHAR);
    char *p;
    BSTR s;
    UINT32 n;
    if (bytes / sizeof(OLECHAR) != ui || bytes > UINT32_MAX - sizeof(OLECHAR))
        return NULL;
    p = malloc(sizeof(UINT32) + bytes + sizeof(OLECHAR));
    if (!p)
        return NULL;
    n = (UINT32)bytes;
    memcpy(p, &n, sizeof n);
    s = (BSTR)(void *)(p + sizeof(UINT32));
    if (strIn)
        memcpy(s, strIn, bytes);
    else
        memset(s, 0, bytes);
    s[ui] = 0;
    return s;
}

BSTR SysAllocString(const OLECHAR *psz)
{
    return psz ? SysAllocStringLen(psz, (UINT)wcslen(psz)) : NULL;
}

void SysFreeString(BSTR bstrString)
{
    if (bstrString)
        free((char *)bstrString - sizeof(UINT32));
}

UINT SysStringLen(BSTR pbstr)
{
    UINT32 n;
    if (!pbstr)
        return 0;
    memcpy(&n, (char *)pbstr - sizeof(UINT32), sizeof n);
    return n / (UINT)sizeof(OLECHAR);
}
#endif
